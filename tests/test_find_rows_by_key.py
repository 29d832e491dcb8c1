"""Pass `find_rows_by_key` (docs/optimiser.md): a listing whose first choice walks a definition
remembered by value finds the rows of that choice's values once per listing, by the value's key.

What is written (rows of spots and of regions, a listing left alone) is the golden of
tests/passes/find_rows_by_key.yaml (tests/test_pass_goldens.py). Checked here: what China (Schacht)
writes without `remember_values`, whose key it reads; which listings it takes; that the rows
remembered are the rows of the table of actions, with the values the definition gives, in its
order; that a full table of rows emptied mid-game lists the same actions; and games of the China
(Schacht) rule sets played in lockstep with and without it.
"""

from __future__ import annotations

import pytest

from rulewright.compiler import passes
from rulewright.core.paths import generated_dir
from rulewright.runtime import SpotRow
from tests.helpers.compiled import game, method, source
from tests.helpers.lockstep import play_in_lockstep

OFF = passes.ALL - {"find_rows_by_key"}
SCHACHT = ["china-schacht", "china-schacht/fortifications", "china-schacht/bonus-tiles", "china-schacht/two-player"]


def test_without_remember_values_whose_key_it_reads_a_tuple_is_made_per_value() -> None:
    """(What is written with the pass, and without it, is the golden of tests/passes/find_rows_by_key.yaml,
    tests/test_pass_goldens.py.)"""
    off = source("china-schacht", passes.ALL - {"remember_values"})
    assert "_found_rows" not in off and "_keyed_spot_rows__build" not in off
    assert "        for cards in self.all_payments(self.current):  # rules/china-schacht/base.yaml:378\n" \
        "            _key0 = tuple(cards)\n" in method(off, "_legal__build")


def test_a_variant_with_rows_of_another_kind_has_a_slot_of_its_own() -> None:
    text = source("china-schacht/fortifications")  # (its build has one more choice: a row per way to pay)
    assert "    _keyed_rows__build: dict[Any, list[tuple[Sequence[int], list[rt.Action | None]]]]  #" in text
    assert "class ChinaSchachtFortificationsState(ChinaSchachtState):" in \
        (generated_dir() / "china_schacht" / "fortifications.py").read_text()  # (as written: still derived)


def test_the_rows_are_the_tables_rows_with_the_definitions_values() -> None:
    schacht = game("china-schacht")
    state = schacht.new_state(3, 11)
    listed = [str(a) for a in state.legal_actions()]
    hand = state.hand[state.current]  # type: ignore[attr-defined]
    found = state._keyed_spot_rows__build[hand]  # type: ignore[attr-defined]
    assert [cards for cards, _ in found] == list(state.all_payments(state.current))  # type: ignore[attr-defined]
    table = state.board.tables.actions["build"]
    assert all(isinstance(row, SpotRow) and row is table[tuple(cards)] for cards, row in found)
    # a table of rows emptied (as rt.remember empties a full one): the same actions, found again
    state._keyed_spot_rows__build.clear()  # type: ignore[attr-defined]
    state._keyed_region_rows__send.clear()  # type: ignore[attr-defined]
    again = schacht.new_state(3, 11)
    assert [str(a) for a in again.legal_actions()] == listed
    assert state._keyed_spot_rows__build[hand] == found  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset", SCHACHT)
def test_games_are_the_same_with_and_without_the_pass(ruleset: str) -> None:
    on, off = game(ruleset), game(ruleset, OFF)
    counts = on.info.players
    for k in range(3):
        play_in_lockstep(on, off, counts[k % len(counts)], 700 + k)

