"""Pass `bind_board_tables` (docs/optimiser.md): the tables of the board a listing or a definition reads
are found once, as the game starts, and kept on the state with their types.

The slots, types and reads written, and what is written without the pass, are the goldens of
tests/passes/bind_board_tables*.golden (tests/test_pass_goldens.py). Checked here: that China (Schacht)
looks no table up by name at a listing (in its lowered program); the type of a table from its
levels; that a state's slots are the board's very tables, that a copy shares them and that a new
game on the same board finds the same ones; that a variant whose listing of an action is found
another way has a slot of its own (its module still inherits from its base's); and games of every
China (Schacht) rule set played in lockstep with and without it.
"""

from __future__ import annotations

import pytest

from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.lower.listings import actions_type
from rulewright.compiler.lowered import each_statement
from rulewright.compiler.pyir import Assign, Stmt
from rulewright.compiler.pyprint import text
from rulewright.core.paths import generated_dir, ruleset_file
from rulewright.runtime import RegionRow, SpotRow
from tests.helpers.compiled import game, method
from tests.helpers.lockstep import play_in_lockstep

OFF = passes.ALL - {"bind_board_tables"}
SCHACHT = ["china-schacht", "china-schacht/fortifications", "china-schacht/bonus-tiles", "china-schacht/two-player"]


def test_schacht_looks_no_table_up_by_name_at_a_listing() -> None:
    """Every table China (Schacht)'s code finds by name is bound, and no statement of the lowered
    program finds one by name any more. (What is bound, with which types, and what the statements
    read instead, is the golden of tests/passes/bind_board_tables*.yaml and of the cases find_rows_by_key and
    remember-listings, tests/test_pass_goldens.py.)"""
    emitted = compile_file(ruleset_file("china-schacht")).emitted
    assert emitted is not None
    program = emitted.program
    found = {text(code) for _, _, code, _ in program.board_lookups}  # (the lookups as nodes, the slots' code as text)
    slots = {slot for slot, _, _, _ in program.board_tables}
    assert program.board_tables == [(slot, annotation, text(code), what)
                                    for slot, annotation, code, what in program.board_lookups]
    assert {"_region_rows__send", "_listed__take_face_up", "_values__all_payments"} <= slots
    read: list[str] = []

    def seen(statement: Stmt) -> Stmt:
        if isinstance(statement, Assign):
            read.append(text(statement.value))
        return statement

    program.with_bodies(lambda body: each_statement(body, seen))
    assert found.isdisjoint(read) and {f"self.{slot}" for slot in slots} <= set(read)


@pytest.mark.parametrize(("levels", "row", "expected"), [
    ((), None, "list[rt.Action | None]"),
    (("index",), None, "list[rt.Action | None]"),
    (("key",), None, "dict[Any, rt.Action]"),
    (("key", "index"), "SpotRow", "dict[Any, rt.SpotRow]"),
    (("index", "index"), "RegionRow", "list[rt.RegionRow | None]"),
    (("index", "key", "lines"), None, "list[dict[Any, list[rt.Action | None]] | None]"),
])
def test_the_type_of_a_table_of_actions(levels: tuple[str, ...], row: str | None, expected: str) -> None:
    assert actions_type(levels, row) == expected


def test_the_slots_are_the_boards_tables_shared_by_copies_and_later_games() -> None:
    schacht = game("china-schacht")
    state = schacht.new_state(3, 7)
    state.legal_actions()  # (rows made)
    board = state.board
    assert state._spot_rows__build is board.tables.actions["build"]  # type: ignore[attr-defined]
    assert state._values__all_payments is board.tables.values["all_payments"]  # type: ignore[attr-defined]
    assert all(isinstance(row, SpotRow) for row in state._spot_rows__build.values())  # type: ignore[attr-defined]
    copy = state.clone()
    assert copy._region_rows__send is state._region_rows__send  # type: ignore[attr-defined]
    later = schacht.new_state(3, 8)
    assert later.board is board and later._listed__take_face_up is state._listed__take_face_up  # type: ignore[attr-defined]
    later.legal_actions()
    assert all(isinstance(row, RegionRow) for row in board.tables.actions["send"].values())


def test_a_variant_with_another_table_has_a_slot_of_its_own_and_inherits() -> None:
    text = (generated_dir() / "china_schacht" / "fortifications.py").read_text()  # (as written: derived)
    assert "class ChinaSchachtFortificationsState(ChinaSchachtState):" in text  # (still subclasses the base's)
    assert "    _actions__build: dict[Any, list[rt.Action | None]]  #" in text  # (its build has one more choice)
    assert "_spot_rows__build" not in method(text, "_bind_tables")
    state = game("china-schacht/fortifications").new_state(3, 3)
    state.legal_actions()
    assert state._actions__build is state.board.tables.actions["build"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset", SCHACHT)
def test_games_are_the_same_with_and_without_the_pass(ruleset: str) -> None:
    on, off = game(ruleset), game(ruleset, OFF)
    counts = on.info.players
    for k in range(3):
        play_in_lockstep(on, off, counts[k % len(counts)], 900 + k)
