"""Pass `mask_regions` (docs/optimiser.md): a test of a kept definition of one region kept as the mask
of the regions where it holds, its bits made stale where the definition's values are dropped; a
listing's last choice of regions made from masks of regions and appended from its row by mask.

What is written (a test of the earlier choice and a kept test over a list field of regions in any
order or the zones, a kept test first and three choices over the regions of another kind, an `any`
of a kept test, a drop by region, at one region and whole; regions chosen by the ways to pay, as
China (Schacht)'s) is the golden of the test game tests/games/mask-regions.yaml and of the case
tests/passes/find_rows_by_key.yaml (tests/test_pass_goldens.py). Checked here: the test game and China
(Schacht) played in lockstep with and without the pass and against the plain code; every bit known
checked against the definition computed afresh after every move, on the state, on a copy made
before the move and on a state restored from the position's JSON; a test of the earlier choice
that fails does so in both codes alike, where a region reaches it; a row's actions against the
regions of random masks, in region order, one object per region.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import passes
from rulewright.compiler.check import check
from rulewright.compiler.driver import build, compile_file
from rulewright.core.paths import ruleset_file
from rulewright.runtime.errors import GameError
from rulewright.runtime.state import Game
from tests.helpers.lockstep import moves_in_lockstep, play_in_lockstep

GAME = Path(__file__).parent / "games" / "mask-regions.yaml"
OPS: dict[str, Callable[[Any, Any], bool]] = {">": operator.gt, ">=": operator.ge}


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "mask_regions", 25, alone=None, players=(2,)) > 2 * 25 * 60


@pytest.mark.parametrize("ruleset", ["china-schacht", "china-schacht/two-player"])
def test_schacht_plays_as_without_the_pass(ruleset: str) -> None:
    def game(enabled: frozenset[str]) -> Game:
        return rulewright.game_from_source(compile_file(ruleset_file(ruleset), enabled).source,
                                           str(ruleset_file(ruleset)))

    optimised, without = game(passes.ALL), game(passes.ALL - {"mask_regions"})
    counts = optimised.info.players
    assert sum(play_in_lockstep(optimised, without, counts[k % len(counts)], 700 + k) for k in range(8)) > 8 * 50


Tested = list[tuple[str, str, Callable[[Any, Any], bool], int]]


def kept_tests(path: Path) -> Tested:
    """The kept tests of a rule set (slot, definition, operator, constant), as the pass finds them."""
    _, rs, _ = build(path)
    assert rs is not None
    program = check(rs)[1]
    assert program is not None
    return [(tt.slot, tt.define, OPS[tt.op], int(tt.value))
            for d in passes.optimise(program).defines for tt in d.region_tests]


def checked(plain: Game, state: Any, tests: Tested) -> int:
    """Every bit known of every kept test of `state` against its definition computed afresh (by the
    plain code, on a state restored from the position's JSON); returns how many bits were known."""
    fresh: Any = plain.state_from_json(state.to_json())
    known = 0
    for slot, define, op, value in tests:
        held, bits = getattr(state, slot), getattr(state, "_regions_known" + slot[len("_regions"):])
        for r in range(len(state.board.region_names)):
            if bits >> r & 1:
                known += 1
                assert bool(held >> r & 1) == op(getattr(fresh, define)(r), value), (slot, r, state.moves)
    return known


@pytest.mark.parametrize("ruleset", ["china-schacht", "tests/games/mask-regions.yaml"])
def test_every_bit_known_is_the_test_computed_afresh(ruleset: str) -> None:
    path = GAME if ruleset.endswith(".yaml") else ruleset_file(ruleset)
    game, plain, tests = rulewright.load_rules(path), rulewright.load_rules(path, passes=frozenset()), kept_tests(path)
    assert tests
    known = 0
    for seed in range(4):
        state: Any = game.new_state(game.info.players[0], seed)
        chooser = random.Random(seed)
        while not state.terminal:
            before: Any = state.clone()
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
            known += checked(plain, state, tests)
            # the copy made before the move, moved otherwise, keeps its own bits right
            other = before.legal_actions()
            before.apply(other[chooser.randrange(len(other))])
            known += checked(plain, before, tests)
            if state.moves % 17 == 0:  # a restored state, mid-game, plays on from what it makes again
                state = game.state_from_json(state.to_json())
    assert known > 1000


def test_a_test_of_the_earlier_choice_that_fails_fails_alike(tmp_path: Path) -> None:
    """A payment of no card (`cards[0]` fails) while `open` holds a zone with no room: the plain walk
    computes the colour's test first and fails; so does the listing made from masks, although the kept
    test leaves no region."""
    payments = '[[c] for c in colour] + [[c, c] for c in colour if made % 2 == 0]'
    text = GAME.read_text().replace(f'cards: "{payments}"', f'cards: "{payments} + [[c for c in colour if made < 0]]"')
    assert text != GAME.read_text()
    said = []
    for name, enabled in (("optimised.yaml", passes.ALL), ("plain.yaml", frozenset())):
        path = tmp_path / name
        path.write_text(text)
        state: Any = rulewright.load_rules(path, passes=enabled).new_state(2, 1)
        state.owner[0] = (0,)  # room in ZA only; `open` is ZB
        state.open = (1,)
        state._fields_set()
        with pytest.raises(GameError) as raised:
            state.legal_actions()
        said.append(str(raised.value).replace(name, "x.yaml"))
    assert said[0] == said[1] and ":62:" in said[0] and "list index out of range" in said[0]


def test_a_rows_actions_are_the_regions_of_the_mask_in_order() -> None:
    chooser = random.Random(3)
    for ruleset in ("china-schacht", "chang-cheng"):  # 9 regions (by mask), 48 (by byte)
        board = rulewright.load(ruleset).new_state(3, 1).board
        count = len(board.region_names)
        row = rt.RegionRow("send", ((1,),), str, board, 1)
        assert row.fixed == [0] and row.known == [0]
        for _ in range(300):
            mask = chooser.getrandbits(count) & chooser.getrandbits(count)
            actions: list[rt.Action] = [row.action(0)]
            row.gather(actions, mask)
            assert [a.args for a in actions[1:]] == [((1,), r) for r in range(count) if mask >> r & 1]
            assert all(a is row.action(a.args[1]) for a in actions)  # one object per region, whatever the mask
        assert row.action(-1) is not row.action(count - 1)  # (-1, a spot in no region: an entry of its own)
        assert board.kind_masks == tuple(sum(1 << r for r in rs) for rs in board.regions_of_kind)
        assert all(board.spot_regions_mask[s] == sum(1 << r for r in board.spot_regions[s]) for s in board.spots)
        assert board.region_bit[-1] == 1 << (count - 1)


def test_the_bits_and_the_ordered_mask() -> None:
    assert rt.bits(0) == () and rt.bits(0b1011) == (0, 1, 3) and rt.bits(1 << 40 | 2) == (1, 40)
    assert rt.bits(0b1011) is rt.bits(0b1011)  # (remembered)
    assert rt.ordered_mask(()) == 0 and rt.ordered_mask((0, 3, 4)) == 0b11001
    assert rt.ordered_mask((3, 1)) == -1 and rt.ordered_mask((2, 2)) == -1 and rt.ordered_mask((-1,)) == -1
