"""Pass `bound_ranges` (docs/optimiser.md): a range from a length up to a bound known when compiling
holds at most that bound, so a loop over it is proven small and walked without a check.

What is written (a bound written out and a definition's, taken; a range from a number that may be
negative and one up to a number that grows, counted as before) is the golden of
tests/passes/bound_ranges.yaml (tests/test_pass_goldens.py). Checked here: the budget a move
leaves (the loop's charge spared, nothing else); the test game played in lockstep with and without
the pass and against the plain code.
"""

from __future__ import annotations

from pathlib import Path

import rulewright
from rulewright.compiler import passes
from rulewright.runtime.state import Game
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "bound-ranges.yaml"


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
    without = rulewright.load_rules(GAME, passes=passes.ALL - {"bound_ranges"})
    assert budget_after(optimised, 4) == budget_after(without, 4)  # (no round: nothing charged either way)
    spared = [budget_after(optimised, row) - budget_after(without, row) for row in (3, 2, 0)]
    assert 0 < spared[0] and spared == [spared[0], 2 * spared[0], 4 * spared[0]]  # (so much a round)


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "bound_ranges", 10)
    assert moves >= 10 * 3 * 25  # (a game ends at 70 moves, or once `capped` has grown the row past 40)
