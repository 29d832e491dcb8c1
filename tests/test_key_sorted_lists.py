"""Pass `key_sorted_lists` (docs/optimiser.md): a listing remembered by a list the rules keep sorted (pass
`remember_listings`) is keyed by the list itself, not by a set made of its items.

What is written (on the case tests/passes/key_sorted_lists.yaml and the test game
tests/games/key-sorted-lists.yaml: what is taken, a hand joined and sorted, less a card, copied from
another seat's, and what is not, a pile a card is laid on, a row set to two cards written out, a
stack started with two) is their golden (tests/test_pass_goldens.py). Checked here: which fields
are found kept sorted (China (Schacht)'s, the test game's); the test game played in lockstep with
and without the pass and against the plain code; and a position whose hand is not sorted (a saved
state, restored) listing what the plain code lists, under a key of its own.
"""

from __future__ import annotations

import random
from pathlib import Path

import rulewright
from rulewright.compiler.check import check
from rulewright.compiler.driver import build
from rulewright.compiler.passes.key_sorted_lists import kept_sorted
from rulewright.core.paths import ruleset_file
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "key-sorted-lists.yaml"


def typed_of(path: Path):  # type: ignore[no-untyped-def]
    _, ruleset, _ = build(path)
    assert ruleset is not None
    _, typed = check(ruleset)
    assert typed is not None
    return typed


def test_schacht_s_fields_kept_sorted() -> None:
    """(What is written is the golden of tests/passes/key_sorted_lists*.golden, tests/test_pass_goldens.py.)"""
    # (`here` and `palace_of` only ever hold one item at most: sorted too)
    assert kept_sorted(typed_of(ruleset_file("china-schacht"))) == {"hand", "here", "palace_of"}


def test_what_is_taken() -> None:
    """(What is written is the golden of the test game, tests/passes/key_sorted_lists-key-sorted-lists.golden.)"""
    assert kept_sorted(typed_of(GAME)) == {"hand"}


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "key_sorted_lists", 10, frozenset({"index_actions", "remember_listings"}))
    assert moves >= 10 * 3 * 60


def test_a_hand_out_of_order_lists_what_the_plain_code_lists() -> None:
    optimised = rulewright.load_rules(GAME)
    plain = rulewright.load_rules(GAME, passes=frozenset())
    chooser = random.Random(3)
    state = optimised.new_state(2, 3)
    shuffled = 0
    while not state.terminal:
        saved = state.to_json()
        hand = saved["fields"]["hand"]
        for cards in hand:
            cards.reverse()  # (a position no rule makes: the hand out of order)
        shuffled += any(cards != sorted(cards) for cards in hand)
        a, b = optimised.state_from_json(saved), plain.state_from_json(saved)
        listed = [str(x) for x in a.legal_actions()]
        assert listed == [str(x) for x in b.legal_actions()], f"move {state.moves}"
        k = chooser.randrange(len(listed))
        a.play(k)
        b.play(k)
        assert a.to_json() == b.to_json()
        state.play(k)
    assert shuffled > 10
