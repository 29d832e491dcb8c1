"""Pass `set_lists` (docs/optimiser.md): `[t for t in S]` over a set is `sorted(S)`. The games are
held to the plain code by tests/test_optimiser.py (each pass alone too)."""

from __future__ import annotations

from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file


def test_the_code_written() -> None:
    source = compile_file(ruleset_file("mandarin")).source
    assert "        for tile in sorted(self.card[self.current]):  # rules/mandarin/base.yaml:340\n" in source
    off = compile_file(ruleset_file("mandarin"), passes.ALL - {"set_lists"}).source
    assert "        for tile in [t for t in sorted(self.card[self.current])]:  # rules/mandarin/base.yaml:340\n" in off
    # a condition, or a list walked: left to the walk (Mandarin's take: over every tile, tested)
    assert "[t for t in range(72) if any(t in self.card[p] for p in self.passed_by)]" in source
