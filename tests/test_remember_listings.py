"""Pass `remember_listings` (docs/optimiser.md): a listing whose actions are a function of a few small
values of the game is remembered by them, in a table of the board, and appended whole.

What is written (on the case tests/passes/remember_listings.yaml and the test game
tests/games/remember-listings.yaml: what is taken, lists read by membership keyed by their items, a
list in its order, truth values and colours, and what is not, a number, a definition, an option,
the players, a hand at a seat walked) is their golden (tests/test_pass_goldens.py). Checked here:
where China (Schacht)'s listings charge, key and make a choice's list; that lowering lists plainly
a listing whose walk charges the budget itself; the test game played in lockstep with and without
the pass and against the plain code, with the budget of every listing charged alike; and the
lists remembered holding the board's interned actions.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.check import check
from rulewright.compiler.codegen import emit
from rulewright.compiler.driver import build, compile_file
from rulewright.compiler.lower import lower
from rulewright.compiler.typed import Listed
from rulewright.core.paths import ruleset_file
from rulewright.runtime.state import Game
from tests.helpers.compiled import method
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "remember-listings.yaml"


def test_schacht_remembers_its_card_listings_by_the_colours_held() -> None:
    """Where China (Schacht)'s listings charge, key and make their choice's list (what a listing
    remembered writes is the golden of tests/passes/remember_listings*.golden, tests/test_pass_goldens.py)."""
    # (without `key_sorted_lists`, which keys the hand, kept sorted, as it is: tests/test_key_sorted_lists.py)
    source = compile_file(ruleset_file("china-schacht"), passes.ALL - {"key_sorted_lists"}).source
    exchange = method(source, "_legal__exchange_face_up")
    charged = exchange.index("rt.grown(self, 541, 2, (self.hand[self.current], self.face_up), ")
    keyed = exchange.index("        _listed_key = (frozenset(self.hand[self.current]), frozenset(self.face_up))\n")
    assert charged < keyed < exchange.index("        if _listed_actions is None:\n")
    assert exchange.index("            _joined0: Sequence[int] | None = None") > keyed  # (made for a new key only)
    assert exchange.rstrip().endswith("            rt.remember(_listed, _listed_key, _listed_actions, self.board)\n"
                                      "        _actions += _listed_actions")
    blind = method(source, "_legal__exchange_blind")
    assert blind.index("if not self.deck:  #") < blind.index("_listed_key = frozenset(self.hand[")
    for name in ("_legal__build", "_legal__send", "_legal__stop", "_legal__draw_card"):
        assert "_listed_key" not in method(source, name), name



def test_a_listing_whose_walk_charges_the_budget_is_listed_plainly() -> None:
    resolved, ruleset, _ = build(GAME)
    assert ruleset is not None
    _, typed = check(ruleset)
    assert typed is not None
    typed = passes.optimise(typed)
    swap = next(a.listing.remembered for a in typed.actions if a.name == "swap")
    assert swap is not None  # (its key `hand[current]`, the one forced on `peek`)
    hand = next(key for key in swap.keys if key.field.name == "hand" and key.at is not None)
    forced = Listed("peek", (replace(hand, member=True),), "the items of `hand[current]`")
    typed = replace(typed, actions=tuple(replace(a, listing=replace(a.listing, remembered=forced))
                                         if a.name == "peek" else a for a in typed.actions))
    problems, program = lower(typed)
    assert not problems
    source = emit(ruleset, program, list(zip(ruleset.files, resolved.texts, strict=True)), passes.ALL)
    peek = method(source, "_legal__peek")
    assert "for seen in rt.walk(self, " in peek and "_listed_key" not in peek and "_actions.append(_action)" in peek
    assert "_listed_key = (frozenset(self.hand[self.current]), frozenset(self.pool))" in method(source, "_legal__swap")


def budgets_in_lockstep(a: Game, b: Game, players: int, seed: int) -> int:
    """One random game in both, the budget left after every listing compared too."""
    sa, sb = a.new_state(players, seed), b.new_state(players, seed)
    chooser = random.Random(seed)
    grown = 0
    while not sa.terminal:
        la, lb = sa.legal_actions(), sb.legal_actions()
        assert [str(x) for x in la] == [str(x) for x in lb], f"seed {seed}, move {sa.moves}"
        assert sa._budget == sb._budget, f"seed {seed}, move {sa.moves}: another budget left"  # type: ignore[attr-defined]
        grown += sa._budget < 1_000_000 - 2_000  # type: ignore[attr-defined]
        k = chooser.randrange(len(la))
        sa.apply(la[k])
        sb.apply(lb[k])
        assert sa.to_json() == sb.to_json(), f"seed {seed}, move {sa.moves}: after {la[k]}"
    return grown


def test_every_listing_charges_the_budget_as_the_plain_code() -> None:
    optimised = rulewright.load_rules(GAME)
    without = rulewright.load_rules(GAME, passes=passes.ALL - {"remember_listings"})
    grown = sum(budgets_in_lockstep(optimised, without, 2 + seed % 2, seed) for seed in range(10))
    assert grown > 20  # (the long pool's checks charged, listings remembered or not)


def test_the_lists_remembered_hold_the_boards_interned_actions() -> None:
    state = rulewright.load_rules(GAME).new_state(2, 7)
    first = state.legal_actions()
    swap = [a for a in first if a.name == "swap"]
    held = (frozenset(state.hand[state.current]), frozenset(state.pool))  # type: ignore[attr-defined]
    listed = state.board.tables.values["listing swap"][held]
    assert swap and all(x is y for x, y in zip(swap, listed, strict=True))
    table = state.board.tables.actions["swap"]
    assert all(a is table[a.args[0]][a.args[1]] for a in swap)
    again = state.clone().legal_actions()
    assert [a for a in again if a.name == "swap"][0] is swap[0]


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "remember_listings", 10, frozenset({"index_actions"}))
    assert moves >= 10 * 3 * 60
