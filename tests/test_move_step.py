"""Pass `move_step` (docs/optimiser.md): a move's step through the runtime written out per rule set.

What is written for each kind of rule set (no asks; asks in the setup only; actions that can ask;
a phase's start or the end of a turn that can ask, where every move runs as steps; phase starts
with effects; the tests of the end left out only where the turn's end or the phase's start cannot
change it) is the golden of the cases tests/passes/move_step*.yaml and of the test games kingdoms,
tile-bag, mask-forms and every-construct (tests/test_pass_goldens.py). Checked here: the step
without `end_once`, calling `_is_over`; a game whose end holds as it is set up still ends there;
and test games of each kind played in lockstep with and without the pass, with the trace of the
rules fired (scenarios and coverage read it) the same.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.core.paths import ruleset_file
from tests.helpers.compiled import method

GAMES = Path(__file__).parent / "games"


def test_without_end_once_the_written_step_calls_the_end_after_the_turn() -> None:
    """(What is written for each kind of rule set is the golden of the cases tests/passes/move_step*.yaml
    and of four test games, tests/test_pass_goldens.py.)"""
    turn_end = ("        # the end of the turn (`_turn_end` written out)\n"
                "        self._budget = rt.MAX_STEPS  # a fresh budget of work (runtime/limits.py `new_move`, "
                "written out)\n        self._trigger__turn_over()\n        self._trigger__last_turn()\n")
    unkept = method(compile_file(ruleset_file("china-schacht"), passes.ALL - {"end_once"}).source, "_do")
    assert "_kept_end" not in unkept and f"{turn_end}        if self._is_over():\n" in unkept


def test_a_game_over_as_it_is_set_up_ends_at_once() -> None:
    """The step's own start leaves out the test of the end; a new game's start (runtime `_init`) keeps it."""
    game = rulewright.load("china-cornett")
    state = game.new_state(2, 1)
    assert "without its test of the end" in method(compile_file(ruleset_file("china-cornett")).source, "_do")
    cls = game.state_class
    original = cls._is_over
    cls._is_over = lambda self: True  # type: ignore[method-assign]
    try:
        assert game.new_state(2, 1).terminal
    finally:
        cls._is_over = original  # type: ignore[method-assign]
    assert not state.terminal


@pytest.mark.parametrize("name", ["every-construct", "hidden-reads", "kingdoms", "war-support", "tile-bag",
                                  "ring-race", "face-down"])
def test_a_game_of_each_kind_plays_as_without_the_pass(name: str) -> None:
    path = GAMES / f"{name}.yaml"
    stepped, plain = rulewright.load_rules(path), rulewright.load_rules(path, passes=passes.ALL - {"move_step"})
    moves = 0
    for seed in range(6):
        players = stepped.info.players[seed % len(stepped.info.players)]
        a, b = stepped.new_state(players, seed), plain.new_state(players, seed)
        a.trace, b.trace = [], []
        chooser = random.Random(seed)
        while not a.terminal and a.moves < 400:
            la, lb = a.legal_actions(), b.legal_actions()
            assert [str(x) for x in la] == [str(x) for x in lb], f"seed {seed}, move {a.moves}"
            k = chooser.randrange(len(la))
            a.apply(la[k])
            b.apply(lb[k])
            assert a.to_json() == b.to_json() and a.trace == b.trace, f"seed {seed}, move {a.moves}"
            moves += 1
        assert a.terminal == b.terminal and (not a.terminal or a.scores() == b.scores())
    assert moves > 30
