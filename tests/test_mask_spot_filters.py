"""Pass `mask_spot_filters` (docs/optimiser.md): lists of spots filtered by a field's emptiness and by
what the board fixes of each spot, made from bit masks.

What is written is the golden of the case tests/passes/mask_spot_filters.yaml and of the test game of
every form, tests/games/mask-spot-filters.yaml (tests/test_pass_goldens.py). Checked here: what is found
on China (Schacht), and the test game played in lockstep against the plain code, with the
kept mask checked against the field after every move; a test that can fail is computed only when
a spot reaches it, as the walk did; the runtime's pieces against what they stand for.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import rulewright
import rulewright.compiler.driver
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.analysis.walk import expressions
from rulewright.compiler.check import check
from rulewright.compiler.driver import build
from rulewright.core.paths import ruleset_file
from rulewright.runtime.boards import base as board_module
from rulewright.runtime.state import Game

GAME = Path(__file__).parent / "games" / "mask-spot-filters.yaml"


@cache
def optimised(ruleset: str) -> t.TypedProgram:
    _, rs, diagnostics = build(ruleset_file(ruleset))
    assert rs is not None and not diagnostics
    program = check(rs)[1]
    assert program is not None
    return passes.optimise(program)


@cache
def game(enabled: frozenset[str] = passes.ALL) -> Game:
    return rulewright.load_rules(GAME, passes=enabled)


def test_schacht_s_placements_are_found_and_written_from_masks() -> None:
    found: list[t.Filter] = []
    for e in expressions(optimised("china-schacht")):
        if isinstance(e, t.Comprehension) and e.spot_filter is not None and e.spot_filter not in found:
            found.append(e.spot_filter)
    assert len(found) == 2  # the build listing's spaces, and open_spaces
    listing = max(found, key=lambda f: len(f.terms))
    free, among, colour = listing.terms
    assert free.mask is not None and free.mask.empty and free.mask.field == "palace_of" and not free.negated
    assert among.key is not None and not among.fails  # `province_of(s) in open_provinces`
    assert colour.key is not None and colour.fails  # `cards[0] == ...colour`: computed only if a spot is left
    assert any(m.empty and m.field == "palace_of" for m in optimised("china-schacht").masks)
    # (what is written, the masks kept exact, is the golden of tests/passes/mask_spot_filters*.golden)

def test_a_filter_of_another_form_is_left_alone() -> None:
    """Fortifications: its open spaces add `(not fortified_here or s in fortified_here)`, an `or`
    reading the spot itself: neither a mask nor a key; its listing walks them as before."""
    source = rulewright.compiler.driver.compile_file(ruleset_file("china-schacht/fortifications")).source
    assert "for space in [s for _once__1 in (len(cards) == 1,) for s in self.open_spaces()" in source


def test_every_form_plays_as_the_plain_code() -> None:
    optimised, plain = game(), game(frozenset())
    built = 0
    for seed in range(40):
        sa, sb = optimised.new_state(2, seed), plain.new_state(2, seed)
        chooser = random.Random(seed)
        while not sa.terminal:
            la, lb = sa.legal_actions(), sb.legal_actions()
            assert [str(x) for x in la] == [str(x) for x in lb], f"seed {seed}, move {sa.moves}"
            k = chooser.randrange(len(la))
            built += la[k].name == "build"
            sa.apply(la[k])
            sb.apply(lb[k])
            assert sa.to_json() == sb.to_json(), f"seed {seed}, move {sa.moves}"
            state: Any = sa
            assert state._empty__owner == state.board.spots_mask(s for s, o in enumerate(state.owner) if not o)
            assert state.picked() == sb.picked() if sa.pile else True  # type: ignore[attr-defined]
        assert sa.scores() == sb.scores()
    assert built > 100


def test_a_test_that_can_fail_is_computed_only_when_a_spot_reaches_it() -> None:
    """`picked`: `not owner[s] and pile[0] == ...` with the pile empty fails while a spot is
    free, in both codes alike, and gives [] once none is (the walk never read `pile[0]`)."""
    for enabled in (passes.ALL, frozenset()):
        state: Any = game(enabled).new_state(2, 0)
        assert not state.pile and any(not o for o in state.owner)
        with pytest.raises(IndexError):
            state.picked()
        state.owner = [(0,) for _ in state.owner]
        state._fields_set()
        assert state.picked() == []
        state.pile = (1,)  # blue: ZB's spots, once free again
        state.owner[3] = ()
        state._fields_set()
        assert state.picked() == [3]


def test_the_spots_of_masks_in_order_and_each_test_only_while_a_spot_is_left() -> None:
    board = game().new_state(2, 0).board
    groups = board.tables.group_spots("zone", [board.region_of[0][s] for s in board.spots])
    assert board.tables.spot_groups["zone"] is groups and list(groups) == [0, 1, 2, -1]  # D1: in no zone
    assert board.mask_spots(groups[1]) == [3, 4, 5]
    assert board.keys_mask(groups, (2, 0)) == board.spots_mask([0, 1, 2, 6, 7, 8])
    # a tuple of values: the join remembered by them (the same mask again); a list: joined each time
    assert board.tables.group_joins[(id(groups), (2, 0))] == board.spots_mask([0, 1, 2, 6, 7, 8])
    board.tables.group_joins[(id(groups), (2, 0))] = 0  # (what is remembered is what it returns)
    assert board.keys_mask(groups, (2, 0)) == 0 and board.keys_mask(groups, [2, 0]) != 0
    assert board.keys_mask(groups, (0, 2)) == board.spots_mask([0, 1, 2, 6, 7, 8]) and board.keys_mask(groups, ()) == 0
    del board.tables.group_joins[(id(groups), (2, 0))]
    limit = board_module.MAX_JOINS
    joins = board.tables.group_joins
    joins.update({(id(groups), (k,)): 0 for k in range(100, 100 + limit - len(joins))})
    assert board.keys_mask(groups, (1,)) == groups[1] and len(joins) == 1  # (full: emptied first)
    assert board.spots_of(board.all_mask, (groups[0], groups[2]), iter([groups[2]])) == [6, 7, 8]
    asked: list[int] = []

    def masks() -> Any:
        asked.append(1)
        yield board.all_mask

    assert board.spots_of(groups[0] & groups[1], masks()) == [] and not asked
    assert board.spots_of(groups[1], masks()) == [3, 4, 5] and asked == [1]
    assert board.empty_mask([(), (0,), (), (1, 0)] + [()] * 6) == board.spots_mask([0, 2, 4, 5, 6, 7, 8, 9])



def test_the_groups_of_spots_are_named_by_their_key_not_by_its_code(tmp_path: Path) -> None:
    """The board's table of spots grouped by a key is named from the key's structure (compiler/lower/
    comprehensions.py `group_key`): the same key written over a spot named otherwise is the same table."""
    renamed, plain = tmp_path / "mask-spot-filters.yaml", tmp_path / "plain.yaml"  # (fresh boards: their own tables)
    text = GAME.read_text()
    plain.write_text(text)
    written = '"[s for s in spots if not owner[s] and region_of(s, zone) in open_zones]"'
    assert written in text
    renamed.write_text(text.replace(written, written.replace("s for s", "x for x").replace("[s]", "[x]")
                                    .replace("(s,", "(x,")))
    named = []
    for played in (rulewright.load_rules(plain), rulewright.load_rules(renamed)):
        state = played.new_state(2, 0)
        chooser = random.Random(0)
        while not state.terminal and state.moves < 40:
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
        named.append(sorted(state.board.tables.spot_groups))
    assert named[0] == named[1] and "region_of(spot, ZONE)" in named[0]
    assert not any("self." in name or "[" in name for name in named[0])  # (no Python in a name)
