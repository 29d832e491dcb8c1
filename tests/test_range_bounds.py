"""Pass `range_bounds` (docs/optimiser.md): a range from a length up to a bound known when compiling
holds at most that bound, so a loop over it is proven small and walked without a check.

Checked: what is written for China (Schacht)'s face-up row laid out and on a test game
(tests/games/range-bounds.yaml: a bound written out and a definition's, taken; a range from a
number that may be negative and one up to a number that grows, counted as before); the budget a
move leaves (the loop's charge spared, nothing else); the test game played in lockstep with and
without the pass and against the plain code.
"""

from __future__ import annotations

from pathlib import Path

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file
from rulewright.runtime.state import Game
from tests.test_component_sets import moves_in_lockstep
from tests.test_listing_hoist import method

GAME = Path(__file__).parent / "games" / "range-bounds.yaml"


def test_schacht_lays_out_its_face_up_row_without_counting_the_loop() -> None:
    refill = method(compile_file(ruleset_file("china-schacht")).source, "refill_face_up")
    assert "        for _ in range(len(self.face_up), 4):  # base.yaml:502\n" in refill
    assert "rt.walk(self, range(" not in refill
    off = method(compile_file(ruleset_file("china-schacht"), passes.ALL - {"range_bounds"}).source, "refill_face_up")
    assert "for _ in rt.walk(self, range(len(self.face_up), 4), 49, 'rules/china-schacht/base.yaml:502'):" in off


def test_what_is_taken_on_the_test_game() -> None:
    source = compile_file(GAME).source
    assert "for _ in range(len(self.row), 4):  #" in method(source, "_do__refill")
    assert "for _ in range(len(self.row), (5)):  #" in method(source, "_do__top_up")
    assert "for _ in rt.walk(self, range(self.shift, 4), " in method(source, "_do__shifted")
    assert "for _ in rt.walk(self, range(len(self.row), self.cap), " in method(source, "_do__capped")


def budget_after(game: Game, row: int) -> int:
    """The budget a `refill` leaves, the row holding `row` cards."""
    state = game.new_state(2, 1)
    state.row = (0,) * row  # type: ignore[attr-defined]
    state._fields_set()  # type: ignore[attr-defined]
    state.apply(next(a for a in state.legal_actions() if a.name == "refill"))
    left: int = state._budget  # type: ignore[attr-defined]
    return left


def test_only_the_loops_charge_is_spared() -> None:
    optimised = rulewright.load_rules(GAME)
    without = rulewright.load_rules(GAME, passes=passes.ALL - {"range_bounds"})
    assert budget_after(optimised, 4) == budget_after(without, 4)  # (no round: nothing charged either way)
    spared = [budget_after(optimised, row) - budget_after(without, row) for row in (3, 2, 0)]
    assert 0 < spared[0] and spared == [spared[0], 2 * spared[0], 4 * spared[0]]  # (so much a round)


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "range_bounds", 10)
    assert moves >= 10 * 3 * 25  # (a game ends at 70 moves, or once `capped` has grown the row past 40)
