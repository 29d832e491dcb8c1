"""Pass `inline_procedures` (docs/optimiser.md): a small procedure without parameters is written where
it is called, not called as a method.

What is written (an assignment and a test, `pass`, a goto and procedures written out in another,
an item that may not be there, taken; a parameter, a local, a loop, a long body, not) is the golden
of the case tests/passes/inline_procedures.yaml and of the test game
tests/games/inline-procedures.yaml (tests/test_pass_goldens.py). Checked here: what is taken of
China (Schacht)'s, and its two-player game, which gives `own_turn_over` a body of its own, written
in its own methods; the test game played in lockstep with and without the pass and against the
plain code, the traces of the rules that fired and the budget left compared after every move,
saved states restored mid-game; and a fault of the rules inside a procedure written out named by
the same rule line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulewright
from rulewright import game_from_source
from rulewright.compiler import passes
from rulewright.compiler.check import check
from rulewright.compiler.driver import build, compile_file
from rulewright.core.paths import ruleset_file
from rulewright.runtime.errors import GameError
from tests.helpers.compiled import method
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "inline-procedures.yaml"


def taken(path: Path) -> tuple[str, ...]:
    _, ruleset, _ = build(path)
    assert ruleset is not None
    _, typed = check(ruleset)
    assert typed is not None
    return tuple(p.name for p in passes.optimise(typed).procedures if p.written_out)


def test_schacht_writes_its_small_procedures_where_they_are_called() -> None:
    """(How a procedure is written out, the method kept, is the golden of tests/passes/inline_procedures*.golden,
    tests/test_pass_goldens.py; a variant's own body of a procedure is written in its own methods.)"""
    assert set(taken(ruleset_file("china-schacht"))) == {"next_piece", "refill_hand", "own_turn_over", "deck_check"}
    two = compile_file(ruleset_file("china-schacht/two-player")).source
    exchange = method(two, "_do__exchange_blind")
    assert "# two-player.yaml:254: own_turn_over, written out where it is called" in exchange
    assert "self.refill_face_up()  # two-player.yaml:257" in exchange


def test_what_is_taken() -> None:
    """(What is written is the golden of the test game, tests/passes/inline_procedures-inline-procedures.golden.)"""
    assert set(taken(GAME)) == {"tally", "rest", "settle", "peek"}


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "inline_procedures", 10)
    assert moves >= 10 * 2 * 40


def test_traces_and_budgets_are_the_plain_codes_and_restore_alike() -> None:
    optimised = rulewright.load_rules(GAME)
    without = rulewright.load_rules(GAME, passes=passes.ALL - {"inline_procedures"})
    fired = 0
    for seed in range(6):
        sa, sb = optimised.new_state(2 + seed % 2, seed), without.new_state(2 + seed % 2, seed)
        chooser = random.Random(seed)
        while not sa.terminal:
            sa.trace, sb.trace = [], []
            la, lb = sa.legal_actions(), sb.legal_actions()
            assert [str(x) for x in la] == [str(x) for x in lb]
            k = chooser.randrange(len(la))
            sa.play(k)
            sb.play(k)
            assert sa.trace == sb.trace, f"seed {seed}, move {sa.moves}"
            fired += sum(name.startswith("procedures.") for name in sa.trace)
            assert getattr(sa, "_budget", None) == getattr(sb, "_budget", None)
            assert sa.to_json() == sb.to_json()
            if sa.moves % 5 == 0:  # (a saved state restored mid-game plays on alike)
                sa, sb = optimised.state_from_json(sa.to_json()), without.state_from_json(sb.to_json())
    assert fired > 100


def test_a_fault_inside_is_told_by_the_same_rule_line() -> None:
    said = []
    for enabled in (passes.ALL, frozenset()):
        # (each made as it is played: the lines faults are told by are its own, not another
        # compilation's of the same rule file, which load_rules remembers)
        game = game_from_source(compile_file(GAME, enabled).source, str(GAME))
        saved = game.new_state(2, 1).to_json()
        saved["fields"].update(made=4, pile=[0, 1, 2, 0, 1], reach=7)  # (`look` listed; no item 7)
        state = game.state_from_json(saved)
        with pytest.raises(GameError) as raised:
            state.apply("look")
        said.append(str(raised.value))
    assert said[0] == said[1] and "inline-procedures.yaml:93" in said[0] and "list index out of range" in said[0]
