"""Pass `hoist_lazily` (docs/optimiser.md): a value the items of a loop need alike, that `hoist`
leaves in the loop (it can fail, or no item may need it), computed once, where an item first
needs it, and kept in a cell of the comprehension for the next.

Checked: what is written for Yellow & Yangtze (the test game's forms are its golden,
tests/passes/hoist_lazily-lazy-hoist.golden, tests/test_pass_goldens.py), that a value no item
needs is not computed and one that fails fails as the plain code does, with the same error, and
the test game played in lockstep with and without the pass and against the plain code; the
bundled rule sets are held to the plain code by tests/test_optimiser.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright import runtime as rt
from rulewright.compiler.driver import compile_file
from rulewright.core.paths import ruleset_file
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "hoist-lazily.yaml"


def test_yellow_yangtze_s_flood_fill_is_made_once_if_a_pagoda_needs_it() -> None:
    """(The forms of the test game are its golden, tests/passes/hoist_lazily-lazy-hoist.golden.)"""
    # a flood fill under `and`, made once if a pagoda needs it; not what one item at most needs
    # (`u == with_leader and ...`), nor `value_of`'s check
    yellow = compile_file(ruleset_file("yellow-yangtze")).source
    assert "(_cell__1 or rt.once(_cell__1, self.group_of(s)))[0]" in yellow
    assert "(u == WITH_LEADER and self.off_board(self.current, PEASANT))" in yellow
    assert "rt.once(cell, ATTR__TILE__KIND[rt.value_of(" not in yellow


def test_a_value_no_item_needs_is_not_computed_and_one_that_fails_fails_alike() -> None:
    optimised, plain = rulewright.load_rules(GAME), rulewright.load_rules(GAME, passes=frozenset())
    errors = []
    for game in (optimised, plain):
        state: Any = game.new_state(2, 1)
        rt.new_move(state)
        assert state.risky(9) == [], "no item reaches `sorted(marks)[5]`: never computed, so no error"
        with pytest.raises(Exception) as failed:  # (fewer than six marks: the first item needing it fails)
            state.risky(1)
        errors.append(f"{type(failed.value).__name__}: {failed.value}")
    assert errors[0] == errors[1]
    cell: list[Any] = rt.cell()
    assert rt.once(cell, 5) is cell and cell == [5]


def test_the_test_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "hoist_lazily", 20) >= 20 * 3 * 40
