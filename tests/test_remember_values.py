"""Pass `remember_values` (docs/optimiser.md): a definition that is a function of one small value of
the game (a hand: a list of values of an enumeration) and of its other parameters is remembered by
that value, in a table of the board every state shares.

Checked: what is found on China (Schacht) and on a test game (tests/games/remember-values.yaml) and
what must not be (a definition reading the seat to act, the count of players, two hands, an
option, another definition, or having no parameter); the games played in
lockstep with and without the pass; values shared by states of the board; the table's bound. What
is written is the golden of the test game (tests/passes/remember_values-value-tables.golden,
tests/test_pass_goldens.py).
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.check import check
from rulewright.compiler.driver import build
from rulewright.core.paths import ruleset_file
from rulewright.runtime.state import Game
from tests.helpers.lockstep import play_in_lockstep

GAME = Path(__file__).parent / "games" / "remember-values.yaml"


@cache
def program(path: Path) -> t.TypedProgram:
    _, rs, diagnostics = build(path)
    assert rs is not None and not diagnostics
    checked = check(rs)[1]
    assert checked is not None
    return passes.optimise(checked)


def tables(path: Path) -> set[tuple[str, str, int | None, tuple[int, ...]]]:
    """Each definition pass `remember_values` remembers by value: the field it reads, where, the
    parameters of its key."""
    return {(d.name, d.tabled.field, d.tabled.at, d.tabled.params) for d in program(path).defines
            if d.tabled is not None}


def kept(path: Path) -> set[str]:
    return {d.name for d in program(path).defines if d.kept is not None}


@cache
def game(path: Path, enabled: frozenset[str] = passes.ALL) -> Game:
    return rulewright.load_rules(path, passes=enabled)


def test_the_definitions_of_one_small_value_are_found() -> None:
    assert tables(ruleset_file("china-schacht")) == {("all_payments", "hand", 0, ()), ("payments", "hand", 0, (1,))}
    assert not {"all_payments", "payments"} & kept(ruleset_file("china-schacht"))  # (keep_derived keeps them no more)
    assert tables(GAME) == {("pairs", "hand", 0, ()), ("piled", "pile", None, (0,))}
    # not: the seat to act (`mine`), the players (`crowded`), two hands (`shared`), an option (`moded`),
    # another definition (`nested`); those are kept by `keep_derived` as before
    assert {"mine", "crowded", "shared", "moded", "nested"} <= kept(GAME)
    assert tables(ruleset_file("mandarin")) == set()  # a card of tiles: of 72 components
    assert tables(ruleset_file("chang-cheng")) == set()  # `laid` has no parameter: its slot is cheaper


def test_the_games_are_those_without_the_pass() -> None:
    for path, players in ((GAME, (2, 3)), (ruleset_file("china-schacht"), (3, 4)),
                          (ruleset_file("china-schacht/two-player"), (2,))):
        with_pass, without = game(path), game(path, passes.ALL - {"remember_values"})
        for k in range(4):
            play_in_lockstep(with_pass, without, players[k % len(players)], 8100 + k)
    strict: Any = game(GAME).new_state(2, 1, {"mode": "strict"})
    plain: Any = game(GAME).new_state(2, 1)
    for state in (strict, plain):  # (an option: `moded` is not remembered by value, so it tells them apart)
        state.hand[0] = (0, 0, 1)
        state._fields_set()
    assert strict.moded(0) == [0, 1] and plain.moded(0) == []


def test_every_state_of_the_board_finds_what_another_computed() -> None:
    g = game(ruleset_file("china-schacht"))
    a: Any = g.new_state(3, 5)
    b: Any = g.new_state(3, 6)
    chooser = random.Random(5)
    while not a.terminal and a.moves < 60:
        a.apply(chooser.choice(a.legal_actions()))
    table = a.board.tables.values["all_payments"]
    assert table and b.board is a.board
    hand = next(iter(table))
    b.hand[0] = hand
    b._fields_set()
    assert b.all_payments(0) is table[hand]  # the very value, not computed again
    fresh: Any = game(ruleset_file("china-schacht"), passes.ALL - {"remember_values"}).new_state(3, 6)
    fresh.hand[0] = hand
    fresh._fields_set()
    assert list(map(list, fresh.all_payments(0))) == list(map(list, table[hand]))


def test_a_table_is_emptied_when_full() -> None:
    table: dict[Any, int] = {}
    board = rt.RingBoard("ring", 4, (), ())
    for k in range(rt.MAX_TABLED):
        rt.remember(table, k, k, board)
    assert len(table) == rt.MAX_TABLED and table[5] == 5
    rt.remember(table, "one more", 1, board)
    assert table == {"one more": 1}
