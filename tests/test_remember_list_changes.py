"""Pass `remember_list_changes` (docs/optimiser.md): a list the rules keep sorted, of values of a
small enumeration, joined with an item or taken one, is changed by a look-up: what it becomes by
each value is a row found by the list in a table of the board every state shares, made the plain
way only the first time.

What is written, and what is not taken (a pile not kept sorted, a card that is no name, a list of
numbers, a card drawn and taken out of the deck), is the golden of tests/passes/remember_list_changes.yaml
(tests/test_pass_goldens.py). Checked here: a row filled and charged; which
assignments are marked, on the case and on China (Schacht) (not a list only ever joined to); the
case, the test game of `key_sorted_lists` and China (Schacht) played in lockstep with and without
the pass and against the plain code; a position whose hand is out of order (a saved state,
restored) played as the plain code plays it; a hand as long as SMALL_LIST or longer changed the
plain way, its budget charged as without the pass, and never remembered; and a value made in one
state found by another.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.driver import check_file
from rulewright.core.paths import ruleset_file
from rulewright.runtime import kept, mechanics
from rulewright.runtime.limits import SMALL_LIST
from tests.helpers.lockstep import moves_in_lockstep

RED, GREEN = 0, 2  # (the case's colours as a saved state holds them)
CASE = Path(__file__).parent / "passes" / "remember_list_changes.yaml"
SORTED_LISTS = Path(__file__).parent / "games" / "key-sorted-lists.yaml"


def marked_lines(path: Path) -> list[int]:
    """The rule lines of the assignments the pass marks, with every pass enabled."""
    program = passes.optimise(check_file(path).typed)
    bodies = [program.setup, *(p.body for p in program.procedures), *(a.effect for a in program.actions)]
    return sorted({s.span.line for body in bodies for s in t.statements(body)
                   if isinstance(s, t.Assign) and s.remembered_change})


def test_remember_item_fills_the_list_s_row_and_charges_what_it_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    charged: list[int] = []
    monkeypatch.setattr(mechanics, "made", lambda board, units: charged.append(units))
    table: dict[object, list[object]] = {}
    rt.remember_item(table, (0, 2), 1, (0, 1, 2), 4, None)
    assert table == {(0, 2): [None, (0, 1, 2), None, None]}
    # (a key of two and a list of four slots, as kept.weight counts them, and an entry; then the value)
    assert charged == [kept.weight((0, 2)) + kept.OBJECT + 4 + kept.ENTRY, kept.weight((0, 1, 2))]
    rt.remember_item(table, (0, 2), 3, (0, 2, 3), 4, None)
    assert table == {(0, 2): [None, (0, 1, 2), None, (0, 2, 3)]} and charged[2:] == [kept.weight((0, 2, 3))]
    full = {k: [None] for k in range(rt.MAX_TABLED)}
    rt.remember_item(full, (1,), 0, (), 1, None)
    assert full == {(1,): [()]}, "a full table emptied first"


def test_what_is_taken() -> None:
    """(`give`'s and `pay`'s taking of a card, `take`'s and `deal`'s joining of one: not `twice`'s card
    the pile shows, `give`'s pile and list of numbers, `deal`'s deck.)"""
    assert marked_lines(CASE) == [36, 45, 69, 74]


def marked_fields(path: Path) -> set[str]:
    program = passes.optimise(check_file(path).typed)
    bodies = [*(p.body for p in program.procedures), *(a.effect for a in program.actions)]
    return {s.target.name for body in bodies for s in t.statements(body)
            if isinstance(s, t.Assign) and s.remembered_change}


def test_schacht_s_hands_are_taken() -> None:
    assert marked_fields(ruleset_file("china-schacht")) == {"hand"}
    # (not `kept[p]`, only ever joined to: a new value at nearly every change)
    assert marked_fields(ruleset_file("china-schacht/two-player")) == {"hand", "emperor_cards"}


def test_the_case_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(CASE, "remember_list_changes", 12, players=(2,))
    assert moves >= 12 * 3 * 40


def test_the_sorted_lists_game_plays_as_without_the_pass() -> None:
    moves = moves_in_lockstep(SORTED_LISTS, "remember_list_changes", 6)
    assert moves >= 6 * 3 * 60


def test_schacht_plays_as_without_the_pass() -> None:
    moves = moves_in_lockstep(ruleset_file("china-schacht"), "remember_list_changes", 2, alone=None, players=(3, 4))
    assert moves > 2 * 2 * 100


def test_a_hand_out_of_order_plays_as_the_plain_code() -> None:
    optimised = rulewright.load_rules(SORTED_LISTS)
    plain = rulewright.load_rules(SORTED_LISTS, passes=frozenset())
    chooser = random.Random(4)
    state = optimised.new_state(2, 4)
    shuffled = 0
    while not state.terminal:
        saved = state.to_json()
        for cards in saved["fields"]["hand"]:
            cards.reverse()  # (a position no rule makes: the hand out of order)
            shuffled += cards != sorted(cards)
        a, b = optimised.state_from_json(saved), plain.state_from_json(saved)
        listed = [str(x) for x in a.legal_actions()]
        assert listed == [str(x) for x in b.legal_actions()], f"move {state.moves}"
        k = chooser.randrange(len(listed))
        a.play(k)
        b.play(k)
        assert a.to_json() == b.to_json(), f"move {state.moves}: {listed[k]}"
        state.play(k)
    assert shuffled > 10


def test_a_long_hand_is_changed_the_plain_way_and_charged_as_the_plain_code_charges() -> None:
    optimised = rulewright.load_rules(CASE)
    plain = rulewright.load_rules(CASE, passes=passes.ALL - {"remember_list_changes"})
    for length in (SMALL_LIST - 1, SMALL_LIST, SMALL_LIST + 3):
        for action in ("give green", "take red"):
            state = optimised.new_state(2, 1)
            saved = state.to_json()
            saved["fields"]["hand"][state.current] = [GREEN] * length
            saved["fields"]["pile"] = [RED]
            twice = []
            for _ in range(2):  # (the second time, found where the first remembered it)
                a, b = optimised.state_from_json(saved), plain.state_from_json(saved)
                a.apply(action)
                b.apply(action)
                assert a.to_json() == b.to_json(), (length, action)
                twice.append(a.to_json())
                assert a._budget == b._budget, (length, action)  # type: ignore[attr-defined]
            assert twice[0] == twice[1]
            tables = [optimised.new_state(2, 1).board.tables.values.get(f"{kind} hand", {})
                      for kind in ("withouts", "sorted_joins")]
            longest = max((len(key) for table in tables for key in table), default=0)
            assert longest < SMALL_LIST, "a list of SMALL_LIST items or more is never remembered"


def test_a_value_found_in_one_state_is_the_one_another_makes() -> None:
    optimised = rulewright.load_rules(CASE)
    plain = rulewright.load_rules(CASE, passes=frozenset())
    first = optimised.new_state(2, 7)
    first.apply("give green")  # (the hand less a green card remembered, on this board)
    table = first.board.tables.values.get("withouts hand")
    assert table, "the change remembered"
    second, made = optimised.new_state(2, 7), plain.new_state(2, 7)
    assert second.board is first.board or second.board.tables.values.get("withouts hand") is table
    second.apply("give green")
    made.apply("give green")
    assert second.to_json() == made.to_json()
