"""Pass `move_step` (docs/optimiser.md): a move's step through the runtime written out per rule set.

Checked: what is written for each kind of rule set (no asks; asks in the setup only; actions that
can ask; a phase's start or the end of a turn that can ask, where every move runs as steps; phase
starts with effects and `end_turn`); and test games of each kind played in lockstep with and
without the pass, with the trace of the rules fired (scenarios and coverage read it) the same.
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
    assert "        self._turn_end()\n        if self._is_over():" in do  # turn-end triggers: the end tested again
    assert "            self._start_phase()\n            return\n" in do  # no phase start that can say end_turn
    assert "if self.trace is not None:" in start and "_phase_started" not in start
    mandarin = compile_file(ruleset_file("mandarin")).source
    do = method(mandarin, "_do")
    assert "        if self._pending is not None:  # (an answer: as steps)\n" in do  # its setup asks
    assert "_turn_end" not in do  # no turn-end trigger
    assert "        self._d_bidders = None\n" in method(mandarin, "_start_phase")  # reads the seat to act
    assert "self._do_steps(action)  # (a phase's start or the end of a turn can ask" in \
        method(compile_file(ruleset_file("chang-cheng")).source, "_do")
    kingdoms = compile_file(GAMES / "kingdoms.yaml").source
    assert "if self._pending is not None or action.name in self.ASKING_ACTIONS:" in method(kingdoms, "_do")
    construct = compile_file(GAMES / "every-construct.yaml").source
    assert "if self.next_phase != rt.END_TURN or self.terminal:" in method(construct, "_do")
    assert "        self._enter_phase()\n        self._phase_started()\n" in method(construct, "_start_phase")
    off = compile_file(ruleset_file("china-schacht"), passes.ALL - {"move_step"}).source
    assert "def _do(" not in off and "def _start_phase(" not in off


@pytest.mark.parametrize("name", ["every-construct", "hidden-reads", "kingdoms", "war-support", "tile-bag",
                                  "ring-race"])
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
