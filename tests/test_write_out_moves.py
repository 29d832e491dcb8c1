"""Pass `write_out_moves` (docs/optimiser.md): a move's step through the runtime written out per rule set.

What is written for each kind of rule set (no asks; asks in the setup only; actions that can ask;
a phase's start or the end of a turn that can ask, where every move runs as steps; phase starts
with effects; the tests of the end left out only where the turn's end or the phase's start cannot
change it) is the golden of the cases tests/passes/write_out_moves*.yaml and of the test games kingdoms,
tile-bag, mask-forms and every-construct (tests/test_pass_goldens.py). Checked here: the step
without `keep_end`, calling `_is_over`; a game whose end holds as it is set up still ends there;
and test games of each kind played in lockstep with and without the pass, with the trace of the
rules fired (scenarios and coverage read it) the same. The decisions are read from the lowered
program (`Program.move_step`), not from the module's text.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.lowered import MoveStep, Program
from rulewright.core.paths import ruleset_file

GAMES = Path(__file__).parent / "games"


def lowered(ruleset: str, enabled: frozenset[str] = passes.ALL) -> Program:
    """The lowered program a bundled rule set's module is laid out from (the lowered passes run)."""
    emitted = compile_file(ruleset_file(ruleset), enabled).emitted
    assert emitted is not None
    return emitted.program


def test_without_keep_end_the_written_step_calls_the_end_after_the_turn() -> None:
    """China (Schacht)'s turn-end triggers assign fields its end reads: the step tests the end again
    after them, and without `keep_end` (the end not kept) it calls `_is_over` there (what the step
    writes for each decision is the golden of tests/passes/write_out_moves.yaml, and for each kind of rule
    set, of the cases tests/passes/write_out_moves*.yaml and four test games, tests/test_pass_goldens.py)."""
    unkept = lowered("china-schacht", passes.ALL - {"keep_end"})
    assert unkept.end_kept == "" and unkept.turn_end
    assert unkept.move_step == MoveStep(end_turn_test=True, start_written=False)


def test_a_game_over_as_it_is_set_up_ends_at_once() -> None:
    """The step's own start leaves out the test of the end; a new game's start (runtime `_init`) keeps it."""
    game = rulewright.load("china-cornett")
    state = game.new_state(2, 1)
    assert lowered("china-cornett").move_step == MoveStep(end_turn_test=False, start_written=True)
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
    stepped, plain = rulewright.load_rules(path), rulewright.load_rules(path, passes=passes.ALL - {"write_out_moves"})
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
