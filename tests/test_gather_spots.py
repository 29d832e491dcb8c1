"""Pass `gather_spots` (docs/optimiser.md): a listing's last choice, a spot made from bit masks, appends
the actions of its spots a byte of the mask at a time from its row (`rt.SpotRow`), and a test of
that choice that reads only the earlier choices is computed once per row.

What is written (a test of the earlier choice only, one that reads the state as well, three
choices, a choice of spots per way to pay as China (Schacht)'s), and not without the pass, is the
golden of the test game tests/games/gather-spots.yaml (tests/test_pass_goldens.py). Checked here: the
test game played in lockstep with and without the pass and against the plain code; a row's
actions against the board's spots of random masks, in spot order, each spot's action one object
whatever the mask.
"""

from __future__ import annotations

import random
from pathlib import Path

import rulewright
from rulewright import runtime as rt
from rulewright.runtime.listing import MASKS_KEPT
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "gather-spots.yaml"


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "gather_spots", 25, alone=None, players=(2,)) > 2 * 25 * 40


def test_a_rows_actions_are_the_spots_of_the_mask_in_order() -> None:
    board = rulewright.load("china-schacht").new_state(3, 1).board
    row = rt.SpotRow("build", ((1,),), str, board, 0)
    chooser = random.Random(5)
    for _ in range(300):
        mask = chooser.getrandbits(len(board.spots)) & chooser.getrandbits(len(board.spots))
        actions: list[rt.Action] = [row.action(0)]
        row.gather(actions, mask)
        assert [a.args for a in actions[1:]] == [((1,), s) for s in board.mask_spots(mask)]
        assert all(a is row.action(a.args[1]) for a in actions)  # one object per spot, whatever the mask
        assert row.by_mask[mask] == tuple(actions[1:]) and len(row.by_mask) <= MASKS_KEPT  # (kept by the mask)
        again: list[rt.Action] = []
        row.gather(again, mask)  # (a mask met before: the same actions, from the ones kept)
        assert again == actions[1:]
    # a row keeps the actions of at most MASKS_KEPT masks: emptied when full, made again as needed
    for mask in range(1, MASKS_KEPT + 2):
        row.gather([], mask)
    assert len(row.by_mask) <= MASKS_KEPT and row.by_mask[MASKS_KEPT + 1] == tuple(
        row.action(s) for s in board.mask_spots(MASKS_KEPT + 1))
    assert rt.union(iter([1, 4, 4, 8])) == 13 and rt.union(()) == 0
