"""Pass `unswitch` (docs/optimiser.md): a loop's list filtered by `x or rest`, `x` the same for every
item, is the list itself where `x` holds. Checked: what is written (Mandarin's bids, a test game's
choice and loop), and the test game played in lockstep with and without the pass and against the
plain code; the bundled rule sets are held to the plain code by tests/test_optimiser.py."""

from __future__ import annotations

from pathlib import Path

from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file
from tests.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "unswitch.yaml"


def test_the_code_written() -> None:
    source = compile_file(ruleset_file("mandarin")).source
    assert "(rt.amounts(self.sale, (self.money[self.sale.to_act] + 100)) if self.sale.to_act not in self.defaulted " \
           "else [a for a in rt.walk(self, rt.amounts(" in source
    assert "# rules/mandarin/base.yaml:400; unswitched on auction_bidder(sale) not in defaulted" in source
    off = compile_file(ruleset_file("mandarin"), passes.ALL - {"unswitch"}).source
    assert "[a for _once__1 in (self.sale.to_act not in self.defaulted,) for a in" in off
    game = compile_file(GAME).source
    assert "for n in (range(0, ((self.made % 4) + 3)) if self.score[self.current] > 6 else [k for k in range(0, " \
           "((self.made % 4) + 3)) if k <= 1]):" in game
    assert "for k in (range(0, (n + 1)) if len(self.barred) == 0 else [j for j in range(0, (n + 1)) " \
           "if (j % 2) == 0]):" in game


def test_the_test_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "unswitch", 20, frozenset({"hoist"})) >= 20 * 3 * 40
