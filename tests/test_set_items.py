"""Pass `set_items` (docs/optimiser.md): `S += {x}` and `S - {x}` as `S.union((x,))` and
`S.difference((x,))`. The games are held to the plain code by tests/test_optimiser.py (each pass alone
too)."""

from __future__ import annotations

from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file


def test_the_code_written() -> None:
    source = compile_file(ruleset_file("mandarin")).source
    assert "        self.card[self.current] = self.card[self.current].difference((tile,))  # base.yaml:343\n" in source
    assert "        self.dispenser = self.dispenser.union((tile,))  # base.yaml:344\n" in source
    off = compile_file(ruleset_file("mandarin"), passes.ALL - {"set_items"}).source
    assert "        self.card[self.current] = self.card[self.current] - frozenset((tile,))  # base.yaml:343\n" in off
    # a pair of items: one tuple of them
    chang = compile_file(ruleset_file("chang-cheng")).source
    assert "self.sightings[p] = self.sightings[p].union(((m, (rt.value_of(self.face_up_peril[m], " in chang
