"""Pass `list_items` (docs/optimiser.md): a list joined with items written out is written with them,
and such a join of a list read as it is, short, is sorted or searched at once, like the list.

Checked: what is written for China (Schacht)'s cards drawn, discarded and laid face up, and on a
test game (tests/games/list-items.yaml) items after and before a list, a join sorted, and joins
counted as before; the budget of a move charged as the plain code charges it once the list is
long, and the short join's walk only spared while it is short; the test game played in lockstep
with and without the pass and against the plain code.
"""

from __future__ import annotations

import random
from pathlib import Path

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file
from rulewright.runtime.state import Game
from tests.test_component_sets import moves_in_lockstep
from tests.test_listing_hoist import method

GAME = Path(__file__).parent / "games" / "list-items.yaml"
WHERE = "'rules/china-schacht/base.yaml:484'"


def test_schacht_writes_the_card_it_adds_and_sorts_a_short_hand_at_once() -> None:
    source = compile_file(ruleset_file("china-schacht")).source
    draw = method(source, "draw_blind")
    assert (f"self.hand[p] = tuple(sorted((*self.hand[p], c) if len(self.hand[p]) <= 15 else "
            f"rt.walk(self, (*self.hand[p], c), 1, {WHERE})))  # base.yaml:484") in draw
    assert "self.face_up = (*self.face_up, c)  # base.yaml:506" in method(source, "refill_face_up")
    assert "self.discard = (*self.discard, c)  # base.yaml:460" in method(source, "pay")
    off = compile_file(ruleset_file("china-schacht"), passes.ALL - {"list_items"}).source
    assert f"self.hand[p] = tuple(sorted(rt.walk(self, (*self.hand[p], *(c,)), 1, {WHERE})))" in off
    assert "self.discard = (*self.discard, *(c,))" in off


def test_what_is_written_on_the_test_game() -> None:
    source = compile_file(GAME).source
    assert "tuple(sorted((*self.hand[self.current], c) if len(self.hand[self.current]) <= 15 else " \
        "rt.walk(self, (*self.hand[self.current], c), 1, " in method(source, "_do__draw")
    assert "self.pile = (*self.pile, RED, BLUE)  #" in method(source, "_do__pair")
    assert "self.pile = rt.held((c, *self.pile))  #" in method(source, "_do__front")
    seek = method(source, "_do__seek")  # (the hand is checked as it is read: the join counted)
    assert "if WHITE in rt.walk(self, (*(self.hand[self.current] if len(" in seek and ", GREEN), 1, " in seek
    mixed = method(source, "_do__mixed")  # (the other list is made: the join counted)
    assert "tuple(sorted(rt.walk(self, (*rt.walk(self, rt.without(" in mixed and "), GREEN), 1, " in mixed


def budget_after(game: Game, hand: int) -> int:
    """The budget a `draw` leaves, the mover's hand of `hand` cards."""
    state = game.new_state(2, 1)
    state.hand[state.current] = (0,) * hand  # type: ignore[attr-defined]
    state._fields_set()  # type: ignore[attr-defined]
    draw = next(a for a in state.legal_actions() if a.name == "draw")
    state.apply(draw)
    left: int = state._budget  # type: ignore[attr-defined]
    return left


def test_a_long_join_is_counted_as_the_plain_code_counts_it_a_short_one_not() -> None:
    optimised = rulewright.load_rules(GAME)
    without = rulewright.load_rules(GAME, passes=passes.ALL - {"list_items"})
    for hand in (16, 17, 40):  # (17 and more: the hand itself counted too, before the join)
        assert budget_after(optimised, hand) == budget_after(without, hand), hand
    for hand in (0, 3, 15):  # the join's walk, hand + 1 steps, spared
        assert budget_after(optimised, hand) == budget_after(without, hand) + hand + 1, hand


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "list_items", 10)
    assert moves >= 10 * 3 * 80
    longest = 0
    for seed in range(10):
        state = rulewright.load_rules(GAME).new_state(2, seed)
        chooser = random.Random(seed)
        while not state.terminal:
            state.apply(chooser.choice(state.legal_actions()))
            longest = max(longest, *map(len, state.hand))  # type: ignore[attr-defined]
    assert longest > 16  # (hands grow past the short lists)
