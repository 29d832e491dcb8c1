"""Pass `unwrap_list_items` (docs/optimiser.md): a list joined with items written out is written with them,
and such a join of a list read as it is, short, is sorted or searched at once, like the list.

What is written on the test game tests/games/unwrap-list-items.yaml (items after and before a list, a
join sorted, and joins counted as before) is its golden, tests/passes/unwrap_list_items-list-items.golden
(tests/test_pass_goldens.py). Checked here: the budget of a move charged as the plain code charges
it once the list is long, and the short join's walk only spared while it is short; the test game
played in lockstep with and without the pass and against the plain code.
"""

from __future__ import annotations

import random
from pathlib import Path

import rulewright
from rulewright.compiler import passes
from rulewright.runtime.state import Game
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "unwrap-list-items.yaml"


def budget_after(game: Game, hand: int) -> int:
    """The budget a `draw` leaves, the mover's hand of `hand` cards."""
    state = game.new_state(2, 1)
    state.hand[state.current] = (0,) * hand  # type: ignore[attr-defined]
    state._fields_set()  # type: ignore[attr-defined]
    draw = next(a for a in state.legal_actions() if a.name == "draw")
    state.apply(draw)
    left: int = state._budget  # type: ignore[attr-defined]
    return left


def test_a_long_join_is_counted_as_the_plain_code_counts_it_a_short_one_not() -> None:
    optimised = rulewright.load_rules(GAME)
    without = rulewright.load_rules(GAME, passes=passes.ALL - {"unwrap_list_items"})
    for hand in (16, 17, 40):  # (17 and more: the hand itself counted too, before the join)
        assert budget_after(optimised, hand) == budget_after(without, hand), hand
    for hand in (0, 3, 15):  # the join's walk, hand + 1 steps, spared
        assert budget_after(optimised, hand) == budget_after(without, hand) + hand + 1, hand


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "unwrap_list_items", 10)
    assert moves >= 10 * 3 * 80
    longest = 0
    for seed in range(10):
        state = rulewright.load_rules(GAME).new_state(2, seed)
        chooser = random.Random(seed)
        while not state.terminal:
            state.apply(chooser.choice(state.legal_actions()))
            longest = max(longest, *map(len, state.hand))  # type: ignore[attr-defined]
    assert longest > 16  # (hands grow past the short lists)
