"""Pass `draw_out` (docs/optimiser.md): an item drawn from a list and then taken out of it is drawn
and taken out in one call of the runtime (`rt.drawn_out`).

What is taken (a field, a seat's entry of a field per player) and what is not (the item taken out
of another list, or a statement later, a local list) is the golden of tests/passes/draw_out.yaml
(tests/test_pass_goldens.py). Checked here: that `drawn_out` gives the item and the
tuple the plain lines give, draws the same numbers and leaves the same budget, for lists with
repeated items, short and long, and for a draw a scenario forces; that it fails as they fail
(an empty list, a move over its budget); and the test game played in lockstep with and without
the pass and against the plain code, the budget left after every move compared, and with saved
states restored mid-game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import passes
from rulewright.runtime.errors import GameError, RulewrightError
from rulewright.runtime.rng import Rng
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "draw-out.yaml"


class Budgeted:
    """A stand-in for a state: the checks keep the budget of its move in `_budget`."""

    __slots__ = ("_budget",)


def plain(state: Budgeted, rng: Rng, items: tuple[int, ...], where: str) -> tuple[int, tuple[int, ...]]:
    """The lines the pass replaces, as lowering writes them."""
    c = rt.draw_from(rng, items)
    if len(items) > 16:
        rt.walk(state, items, 1, where)
    return c, tuple(rt.without(items, c))


def test_drawn_out_gives_what_the_plain_lines_give() -> None:
    chooser = random.Random(5)
    for n in range(60):
        items = tuple(chooser.randrange(4) for _ in range(chooser.randrange(1, 40)))
        a, b = Budgeted(), Budgeted()
        a._budget = b._budget = 1000 + n
        ra, rb = Rng(n), Rng(n)
        for _ in range(3):
            assert rt.drawn_out(a, ra, items, "x:1") == plain(b, rb, items, "x:1"), items
            assert ra.state == rb.state and a._budget == b._budget
        fresh, fresh_plain = Budgeted(), Budgeted()  # (no move begun: a fresh budget, as `walk` takes it)
        assert rt.drawn_out(fresh, Rng(n), items, "x:1") == plain(fresh_plain, Rng(n), items, "x:1")
        assert getattr(fresh, "_budget", None) == getattr(fresh_plain, "_budget", None)
    forced, forced_plain = Rng(1), Rng(1)
    forced.forced = {"draw": [(2, "green")]}
    forced_plain.forced = {"draw": [(2, "green")]}
    items = (0, 2, 1, 2, 3)
    assert rt.drawn_out(Budgeted(), forced, items, "x:1") == plain(Budgeted(), forced_plain, items, "x:1") \
        == (2, (0, 1, 2, 3))


def test_drawn_out_fails_as_the_plain_lines_fail() -> None:
    with pytest.raises(RulewrightError, match="draw_from\\(\\) an empty list"):
        rt.drawn_out(Budgeted(), Rng(1), (), "x:1")
    items = tuple(range(40))
    for left in (39, 40, 41):
        a, b = Budgeted(), Budgeted()
        a._budget = b._budget = left
        try:
            plain(b, Rng(3), items, "x:7")
            said = None
        except GameError as e:
            said = str(e)
        if said is None:
            rt.drawn_out(a, Rng(3), items, "x:7")
        else:
            with pytest.raises(GameError) as raised:
                rt.drawn_out(a, Rng(3), items, "x:7")
            assert str(raised.value) == said and "x:7" in said
        assert a._budget == b._budget
    long, s = tuple(range(rt.MAX_ITEMS + 1)), Budgeted()
    s._budget = rt.MAX_STEPS
    with pytest.raises(GameError, match="more than the limit of 100,000 items"):
        rt.drawn_out(s, Rng(3), long, "x:9")
    assert s._budget == rt.MAX_STEPS


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "draw_out", 10)
    assert moves >= 10 * 3 * 60


def test_every_move_leaves_the_budget_the_plain_code_leaves_and_restores_alike() -> None:
    optimised = rulewright.load_rules(GAME)
    without = rulewright.load_rules(GAME, passes=passes.ALL - {"draw_out"})
    long_draws = 0
    for seed in range(6):
        sa, sb = optimised.new_state(2 + seed % 2, seed), without.new_state(2 + seed % 2, seed)
        chooser = random.Random(seed)
        while not sa.terminal:
            la, lb = sa.legal_actions(), sb.legal_actions()
            assert [str(x) for x in la] == [str(x) for x in lb]
            k = chooser.randrange(len(la))
            long_draws += la[k].name == "deal" and len(sa.deck) > 16  # type: ignore[attr-defined]
            sa.play(k)
            sb.play(k)
            assert getattr(sa, "_budget", None) == getattr(sb, "_budget", None), f"seed {seed}, move {sa.moves}"
            assert sa.to_json() == sb.to_json()
            if sa.moves % 7 == 0:  # (a saved state restored mid-game plays on alike)
                sa, sb = optimised.state_from_json(sa.to_json()), without.state_from_json(sb.to_json())
    assert long_draws > 10
