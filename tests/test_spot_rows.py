"""Pass `spot_rows` (docs/optimiser.md): a listing's last choice, a spot made from bit masks, appends
the actions of its spots a byte of the mask at a time from its row (`rt.SpotRow`), and a test of
that choice that reads only the earlier choices is computed once per row.

Checked: what is written for China (Schacht) and for a test game (tests/games/spot-rows.yaml: a
test of the earlier choice only, one that reads the state as well, three choices), and not without
the pass; which tests are kept per row; the test game played in lockstep with and without the
pass and against the plain code; a row's actions against the board's spots of random masks, in
spot order, each spot's action one object whatever the mask.
The code written for the test game is checked by its golden, tests/passes/spot_rows-spot-rows.golden
(tests/test_pass_goldens.py), the rest here.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file
from rulewright.runtime.listing import MASKS_KEPT
from tests.lockstep import moves_in_lockstep
from tests.test_listing_hoist import method

GAME = Path(__file__).parent / "games" / "spot-rows.yaml"


def test_schacht_gathers_its_palace_spaces_per_payment() -> None:
    build = method(compile_file(ruleset_file("china-schacht")).source, "_legal__build")
    assert "_row1 = _table[_key0] = rt.SpotRow('build', (tuple(cards),), self._action_text, self.board, 1)" in build
    assert "_spots_mask = _joined0  # rules/china-schacht/base.yaml:379; `spot_rows`" in build
    # the colours' test, once per payment
    assert re.search(r"_row_fixed = _row1\.fixed\[0\] = rt\.union\(\((_once__\d+) for (_s__\d+), \1 in .*"
                     r"if \(\(len\(cards\) == 1\) == \(cards\[0\] == \2\)\)\)\)", build)
    assert "_gathered = _row1.by_mask.get(_spots_mask)\n" in build  # (the actions of a mask met lately, in place)
    assert "_gathered = _row1.made(_spots_mask)\n" in build
    assert "_actions += _gathered  # rules/china-schacht/base.yaml:379" in build
    assert "for space in" not in build
    off = method(compile_file(ruleset_file("china-schacht"), passes.ALL - {"spot_rows"}).source, "_legal__build")
    assert "SpotRow" not in off and "for space in self.board.spots_of(_joined0, " in off



def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "spot_rows", 25, alone=None, players=(2,)) > 2 * 25 * 40


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
