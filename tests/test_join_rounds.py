"""Pass `join_rounds` (docs/optimiser.md): a loop whose every round joins the same items to a list
joins them all at once, the budget its rounds would charge charged at once (`rt.joins_fit`).

What is taken (the setup's deck colour by colour, two items a round, a seat's entry of a field per
player, a list of numbers) and what is not (the loop's own item joined, a body of two statements)
is the golden of tests/passes/join_rounds.yaml (tests/test_pass_goldens.py). Checked here: that
`rt.joins_fit` charges what the rounds one by one charge, and charges nothing where one of
them would fail (the budget spent, a list over the limit of items), for lists short and long; and
the test game played in lockstep with and without the pass and against the plain code, the budget
left after every move compared, saved states restored mid-game.
"""

from __future__ import annotations

import random
from pathlib import Path

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import passes
from rulewright.runtime.errors import GameError
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "join-rounds.yaml"


class Budgeted:
    """A stand-in for a state: the checks keep the budget of its move in `_budget`."""

    __slots__ = ("_budget",)


def one_by_one(state: Budgeted, items: tuple[int, ...], rounds: int, joined: tuple[int, ...]) -> tuple[int, ...]:
    """The plain loop's rounds, as lowering writes them."""
    for _ in range(rounds):
        if len(items) > 16:
            rt.walk(state, items, 1, "x:1")
        items = (*items, *joined)
    return items


def test_joins_fit_charges_what_the_rounds_charge_or_nothing() -> None:
    chooser = random.Random(7)
    failed = fitted = 0
    for _ in range(400):
        length, rounds, per = chooser.randrange(0, 40), chooser.randrange(0, 12), chooser.randrange(1, 4)
        budget = chooser.choice([rt.MAX_STEPS, chooser.randrange(0, 400), None])
        a, b = Budgeted(), Budgeted()
        if budget is not None:
            a._budget = b._budget = budget
        items, joined = tuple(range(length)), tuple(range(per))
        try:
            made = one_by_one(b, items, rounds, joined)
        except GameError:
            made = None
        fits = rt.joins_fit(a, length, rounds, per)
        assert fits == (made is not None), (length, rounds, per, budget)
        if fits:
            fitted += 1
            assert getattr(a, "_budget", None) == getattr(b, "_budget", None), (length, rounds, per, budget)
            assert made == (*items, *joined * rounds)
        else:
            failed += 1
            assert getattr(a, "_budget", None) == budget  # (nothing charged: the rounds one by one fail)
    assert failed > 20 and fitted > 200
    s = Budgeted()
    s._budget = rt.MAX_STEPS
    assert not rt.joins_fit(s, rt.MAX_ITEMS - 1, 3, 1) and s._budget == rt.MAX_STEPS  # (over the limit of items)


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "join_rounds", 10)
    assert moves >= 10 * 3 * 50


def test_every_move_leaves_the_budget_the_plain_code_leaves_and_restores_alike() -> None:
    optimised = rulewright.load_rules(GAME)
    without = rulewright.load_rules(GAME, passes=passes.ALL - {"join_rounds"})
    for seed in range(6):
        sa, sb = optimised.new_state(2 + seed % 2, seed), without.new_state(2 + seed % 2, seed)
        assert getattr(sa, "_budget", None) == getattr(sb, "_budget", None)  # (the setup's)
        chooser = random.Random(seed)
        while not sa.terminal:
            la, lb = sa.legal_actions(), sb.legal_actions()
            assert [str(x) for x in la] == [str(x) for x in lb]
            k = chooser.randrange(len(la))
            sa.play(k)
            sb.play(k)
            assert getattr(sa, "_budget", None) == getattr(sb, "_budget", None), f"seed {seed}, move {sa.moves}"
            assert sa.to_json() == sb.to_json()
            if sa.moves % 6 == 0:  # (a saved state restored mid-game plays on alike)
                sa, sb = optimised.state_from_json(sa.to_json()), without.state_from_json(sb.to_json())
