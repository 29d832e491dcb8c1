"""What a board keeps for its states is bounded (runtime/kept.py, docs/optimiser.md "What a board
keeps"): every table of interned actions, row of spots or regions, value or listing remembered by
value, join of groups and wall layout is charged to its board as it is made, and the board empties
them all once they would pass `MAX_KEPT` units (a unit is about 8 bytes).

Checked: a hostile test game (tests/games/kept-bounds.yaml: every listing names numbers never met
before, through a dictionary of dictionaries, rows of spots and rows of regions, and a definition of
two numbers kept by its arguments) played with a small budget stays within it after every move,
its tables emptied again and again, and plays the same games as the plain code; its memory measured
against the units charged; a row of spots keeps at most MASK_ACTIONS actions by mask; a row of
regions on a board of ten regions filled with every mask stays within what it charged; a value too
large is not remembered; a definition kept by numbers keeps at most MAX_TABLED values; the bundled
games never empty their tables.
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.runtime import kept
from rulewright.runtime.boards import Board, RegionSpec, RingBoard
from rulewright.runtime.listing import MASK_ACTIONS, MASKS_KEPT, RegionRow, SpotRow
from rulewright.runtime.rng import Rng

GAME = Path(__file__).parent / "games" / "kept-bounds.yaml"
SMALL = 60_000  # a budget the test game passes within a game


def _text(action: rt.Action) -> str:
    return f"{action.name} {action.args}"


@pytest.fixture
def forgets(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A small budget (the runtime reads `kept.MAX_KEPT` as it charges), and the boards' emptyings counted."""
    monkeypatch.setattr(kept, "MAX_KEPT", SMALL)
    count = [0]
    forget = Board.forget_tables

    def counted(board: Board) -> None:
        count[0] += 1
        forget(board)

    monkeypatch.setattr(Board, "forget_tables", counted)
    return count


def _held(value: Any) -> int:
    """The entries of a board's table, its rows' and their dictionaries' (what could grow)."""
    if isinstance(value, dict):
        return len(value) + sum(_held(v) for v in value.values())
    if isinstance(value, list):
        return sum(_held(v) for v in value if v is not None)
    if isinstance(value, SpotRow):
        return len(value.at) + len(value.by_mask)
    if isinstance(value, RegionRow):
        return len(value.at) + sum(t is not None for t in value.by_mask)
    return 1


def test_a_hostile_game_stays_within_its_budget_and_plays_as_the_plain_code(forgets: list[int]) -> None:
    optimised = rulewright.load_rules(GAME)
    plain = rulewright.load_rules(GAME, passes=frozenset())
    most = 0
    for seed in range(3):
        a, b = optimised.new_state(2, seed), plain.new_state(2, seed)
        if seed == 0:  # (a board outlives a test: what another test kept on it is not this budget's)
            a.board.forget_tables()
            b.board.forget_tables()
            forgets[0] = 0
        chooser = random.Random(seed)
        while not a.terminal:
            la, lb = a.legal_actions(), b.legal_actions()
            assert list(map(str, la)) == list(map(str, lb)) and la == lb
            k = chooser.randrange(len(la))
            a.apply(la[k])
            b.apply(lb[k])
            assert a.to_json() == b.to_json()
            for board in (a.board, b.board):
                assert 0 <= board.tables.units <= SMALL
            most = max(most, sum(map(_held, a.board.tables.actions.values())),
                       sum(map(_held, b.board.tables.interned.values())))
        assert b.terminal and a.scores() == b.scores()
    # every table emptied many times over (each game names new numbers), none ever holding more than
    # the budget allows (an entry is 9 units at least)
    assert forgets[0] >= 5
    assert most <= SMALL // kept.ENTRY


def test_the_tables_emptied_are_the_states_own_and_an_emptied_table_lists_the_same(forgets: list[int]) -> None:
    game = rulewright.load_rules(GAME)
    state = game.new_state(2, 1)
    tables = dict(state.board.tables.actions)
    before = list(map(_text, state.legal_actions()))
    state.board.forget_tables()
    assert state.board.tables.units == 0
    assert all(state.board.tables.actions[name] is table for name, table in tables.items())  # (emptied in place)
    assert state._actions__bid is tables["bid"] and state._spot_rows__claim is tables["claim"]  # (the state's own)
    assert all(_held(table) == 0 for table in tables.values())
    state._legal_cache = None
    assert list(map(_text, state.legal_actions())) == before


def test_what_a_board_keeps_takes_at_most_8_bytes_a_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    # the units charged against the memory really held: the hostile game's tables (dictionaries of
    # dictionaries, rows of spots and of regions, the plain listing's cache), grown with no emptying
    monkeypatch.setattr(kept, "MAX_KEPT", 1 << 40)
    for chosen in (None, frozenset()):
        game = rulewright.load_rules(GAME, passes=chosen)
        state = game.new_state(2, 0)
        board = state.board
        gc.collect()
        tracemalloc.start()
        try:
            before, units = tracemalloc.get_traced_memory()[0], board.tables.units
            for seed in range(3):
                state = game.new_state(2, seed)
                state.play_randomly(Rng(seed), 1000, None)
            del state
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        charged = board.tables.units - units
        assert charged > 20_000 and held <= 8 * charged, (chosen, held, charged)


def test_a_row_of_spots_keeps_few_actions_by_mask() -> None:
    board = RingBoard("big", 2000, (), ())
    row = SpotRow("go", (), lambda a: "go", board, 0)
    chooser = random.Random(3)
    for _ in range(60):
        mask = chooser.getrandbits(2000)
        actions: list[rt.Action] = []
        row.gather(actions, mask)
        assert [a.args[0] for a in actions] == board.mask_spots(mask)
        assert sum(map(len, row.by_mask.values())) <= MASK_ACTIONS and len(row.by_mask) <= MASKS_KEPT
    assert row.kept == sum(map(len, row.by_mask.values()))


def test_a_row_of_regions_of_a_small_board_filled_stays_within_what_it_charged() -> None:
    spots = [str(i + 1) for i in range(20)]  # (a ring's labels)
    regions = [RegionSpec("zone", f"R{k}", tuple(spots[2 * k:2 * k + 2])) for k in range(10)]
    board = RingBoard("ring", 20, ("zone",), regions)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        rows = [RegionRow("send", (n,), lambda a: "send", board, 1) for n in range(20)]
        for row in rows:
            for mask in range(1, 1 << 10):
                actions: list[rt.Action] = []
                row.gather(actions, mask)
                assert [a.args[1] for a in actions] == [r for r in range(10) if mask >> r & 1]
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held <= 8 * board.tables.units  # (each row some 100 KB filled, all of it charged)
    assert board.tables.units >= 20 * (1 << 10) * kept.OBJECT


def test_a_value_too_large_is_not_remembered_and_a_remembered_one_is_charged() -> None:
    board = RingBoard("ring", 4, (), ())
    table: dict[Any, Any] = {}
    rt.remember(table, "big", list(range(kept.MOST_REMEMBERED)), board)
    assert table == {} and board.tables.units == 0
    rt.remember(table, "small", [1, 2, 3], board)
    assert table == {"small": [1, 2, 3]}
    assert board.tables.units == kept.weight("small") + kept.weight([1, 2, 3]) + kept.ENTRY


def test_the_board_empties_its_tables_where_a_charge_would_pass_its_budget(forgets: list[int]) -> None:
    board = RingBoard("ring", 8, (), ())
    values = board.tables.value_table("v")
    actions = board.tables.action_table("a", 8)
    values[1] = 2
    actions[3] = "x"
    rt.made(board, SMALL - 10)
    assert forgets[0] == 0 and values and actions[3] == "x"
    rt.made(board, 11)
    assert forgets[0] == 1 and values == {} and actions == [None] * 8 and board.tables.units == 11


def test_a_definition_kept_by_numbers_keeps_a_bounded_count_of_values(monkeypatch: pytest.MonkeyPatch) -> None:
    # `spread(a, b)`: kept between moves by its two numbers, called with new ones at every bid
    monkeypatch.setattr(rt, "MAX_TABLED", 5)
    game = rulewright.load_rules(GAME)
    plain = rulewright.load_rules(GAME, passes=passes.ALL - {"keep_derived"})
    assert "        if len(_kept) < rt.MAX_TABLED:\n            _kept[(a, b)] = _value\n" in compile_file(GAME).source
    longest = 0
    for seed in range(4):
        a, b = game.new_state(2, seed), plain.new_state(2, seed)
        chooser = random.Random(seed)
        while not a.terminal:
            la = a.legal_actions()
            k = chooser.randrange(len(la))
            a.apply(la[k])
            b.apply(b.legal_actions()[k])
            longest = max(longest, len(a._d__spread or ()))
        assert a.scores() == b.scores()
    assert longest == 5


@pytest.mark.parametrize("ruleset", ["china-schacht", "yellow-yangtze", "chang-cheng"])
def test_the_bundled_games_never_empty_their_tables(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    count = [0]
    monkeypatch.setattr(Board, "forget_tables", lambda board: count.__setitem__(0, count[0] + 1))
    game = rulewright.load(ruleset)
    for seed in range(4):
        state = game.new_state(game.info.players[-1], seed)
        state.play_randomly(Rng(seed), 3000, None)
        assert state.board.tables.units < kept.MAX_KEPT // 4
    assert count[0] == 0
