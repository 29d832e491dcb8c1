"""Regions of one kind that share a spot (a border post): every built-in that asks which
regions hold a spot sees both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import rulewright

BORDER_POST = Path(__file__).parent / "games" / "border-post.yaml"


def test_regions_touching_gives_both_regions_of_a_border_post() -> None:
    state: Any = rulewright.load_rules(BORDER_POST).new_state(players=2, seed=0)
    board = state.board
    post = board.index["Post"]
    names = [board.region_names[r] for r in board.regions_touching([post], 0)]
    assert names == ["North", "South"]
    assert names == [board.region_names[r] for r in board.regions_at[0][post]]
    # through the rules too: `regions_touching(posts, side)` and `regions_at(post, side)`
    assert [board.region_names[r] for r in state.touching()] == ["North", "South"]
    assert list(state.touching()) == list(state.at_post())
    assert state.scores() == [2, 2]


def test_regions_touching_of_spots_in_one_region_each() -> None:
    state: Any = rulewright.load_rules(BORDER_POST).new_state(players=2, seed=0)
    board = state.board
    north, south = board.index["N1"], board.index["S1"]
    assert [board.region_names[r] for r in board.regions_touching([south, north, south], 0)] == ["North", "South"]
    assert board.regions_touching([], 0) == []


def test_regions_touching_one_spot_is_its_regions_in_order() -> None:
    """One spot (a section just built) is read straight from `regions_at`: the same regions, in
    board order, as the set of several spots gives."""
    state: Any = rulewright.load_rules(BORDER_POST).new_state(players=2, seed=0)
    board = state.board
    for kind in range(len(board.regions_of_kind)):
        for s in board.spots:
            every = sorted(set(board.regions_at[kind][s]))
            assert board.regions_touching((s,), kind) == every
            assert board.regions_touching([s], kind) == every
            assert board.regions_touching([s, s], kind) == every
