"""Pass `move_step` (docs/optimiser.md): a move's step through the runtime written out per rule set.

Checked: what is written for each kind of rule set (no asks; asks in the setup only; actions that
can ask; a phase's start or the end of a turn that can ask, where every move runs as steps; phase
starts with effects and `end_turn`); the action's effect called by the step itself; the end's
kept value read by the step, `_is_over` called only while it is stale (pass `end_once`); the tests of
the end left out only where the turn's end or the phase's start cannot change it (China (Cornett):
the turn's end changes the tablets and the start the roll, the end reads the markers; China
(Schacht): the last turn's trigger sets `finished`, which the end reads); a game whose end holds
as it is set up still ends there; and test games of each kind played in lockstep with and without
the pass, with the trace of the rules fired (scenarios and coverage read it) the same.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file

GAMES = Path(__file__).parent / "games"


def method(source: str, name: str) -> str:
    start = source.index(f"    def {name}(")
    return source[start:source.index("\n    def ", start + 1)]


def test_what_is_written_for_each_kind_of_rule_set() -> None:
    schacht = compile_file(ruleset_file("china-schacht")).source
    do, start = method(schacht, "_do"), method(schacht, "_start_phase")
    assert "_pending" not in do and "_do_steps" not in do  # nothing in it asks
    assert "_perform" not in do.replace("(`_perform` written out)", "")  # (the effect called by the step)
    assert "        if _name == 'build':\n            self._do__build(_args[0], _args[1])\n" in do
    kept = ("        _over = self._kept_end  # (`_is_over` written out: called only while its kept value is stale)\n"
            "        if _over is None:\n            _over = self._is_over()\n        if _over:\n")
    turn_end = ("        # the end of the turn (`_turn_end` written out)\n"
                "        self._budget = rt.MAX_STEPS  # a fresh budget of work (runtime/limits.py `new_move`, "
                "written out)\n        self._trigger__turn_over()\n        self._trigger__last_turn()\n")
    assert f"{turn_end}{kept}" in do  # turn-end triggers, written out: the end tested again
    assert do.count(kept) == 2  # (after the effect too: its value is kept, pass `end_once`)
    # no phase start that can say end_turn, nor any with effects: `_start_phase` written out
    assert ("            # the phase starts: `_start_phase` written out (no phase has start effects)\n"
            "            if self.trace is not None:\n                self._enter_phase()\n            return\n") in do
    assert "self._start_phase()" not in do
    assert "if self.trace is not None:" in start and "_phase_started" not in start
    mandarin = compile_file(ruleset_file("mandarin")).source
    do = method(mandarin, "_do")
    assert "        if self._pending is not None:  # (an answer: as steps)\n" in do  # its setup asks
    assert "_turn_end" not in do  # no turn-end trigger
    assert "        self._d__bidders = None\n" in method(mandarin, "_start_phase")  # reads the seat to act
    assert do.count("        self._d__bidders = None\n") == 2  # (and in the step's own starts of a phase)
    assert "self._do_steps(_action)  # (a phase's start or the end of a turn can ask" in \
        method(compile_file(ruleset_file("chang-cheng")).source, "_do")
    kingdoms = compile_file(GAMES / "kingdoms.yaml").source
    assert "if self._pending is not None or _action.name in self.ASKING_ACTIONS:" in method(kingdoms, "_do")
    construct = compile_file(GAMES / "every-construct.yaml").source
    assert "if self.next_phase != rt.END_TURN or self.terminal:" in method(construct, "_do")
    assert "        self._enter_phase()\n        self._phase_started()\n" in method(construct, "_start_phase")
    off = compile_file(ruleset_file("china-schacht"), passes.ALL - {"move_step"}).source
    assert "def _do(" not in off and "def _start_phase(" not in off
    unkept = method(compile_file(ruleset_file("china-schacht"), passes.ALL - {"end_once"}).source, "_do")
    assert "_kept_end" not in unkept and f"{turn_end}        if self._is_over():\n" in unkept
    cornett = compile_file(ruleset_file("china-cornett")).source
    do = method(cornett, "_do")
    assert do.count("_over = self._is_over()") == 1 and "_phase_started" not in do and "self._start_phase()" not in do
    assert do.endswith("        self._trigger__third_reduction()\n        # (the end is not tested again: the end of "
                       "the turn assigns none of the fields it reads)\n        self._next_turn()\n"
                       "        # the phase starts: `_start_phase` written out, without its test of the end "
                       "(which no start can change)\n"
                       "        self._enter_phase()\n")
    assert "        self._enter_phase()\n        self._phase_started()\n" in method(cornett, "_start_phase")
    # tile-bag and mask-forms: a phase's start can change what the end reads (the step tests it, through
    # `_start_phase`); every-construct: a phase with nothing to play ends the game (`when_stuck: end`)
    for name in ("tile-bag", "mask-forms", "every-construct"):
        do = method(compile_file(GAMES / f"{name}.yaml").source, "_do")
        assert "without its test of the end" not in do and "self._start_phase()" in do


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
