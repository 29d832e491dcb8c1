"""Pass `inline_procedures` (docs/optimiser.md): a small procedure without parameters is written where
it is called, not called as a method.

Checked: what is written for China (Schacht) (`next_piece`, `refill_hand`, `own_turn_over`,
`deck_check`, each still a method; its two-player game, which gives `own_turn_over` a body of its
own, writes that one in its own methods), and on a test game (tests/games/inline-procedures.yaml)
what is taken (an assignment and a test, `pass`, a goto and procedures written out in another, an
item that may not be there) and what is not (a parameter, a local, a loop, a long body); the test
game played in lockstep with and without the pass and against the plain code, the traces of the
rules that fired and the budget left compared after every move, saved states restored mid-game;
and a fault of the rules inside a procedure written out named by the same rule line.
The code written for the test game is checked by its golden, tests/passes/inline_procedures-inline-procedures.golden
(tests/test_pass_goldens.py), the rest here.
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
from rulewright.compiler.paths import ruleset_file
from rulewright.runtime.errors import GameError
from tests.lockstep import moves_in_lockstep
from tests.test_listing_hoist import method

GAME = Path(__file__).parent / "games" / "inline-procedures.yaml"


def taken(path: Path) -> tuple[str, ...]:
    _, ruleset, _ = build(path)
    assert ruleset is not None
    _, typed = check(ruleset)
    assert typed is not None
    return passes.optimise(typed)[1].inline_procedures


def test_schacht_writes_its_small_procedures_where_they_are_called() -> None:
    assert set(taken(ruleset_file("china-schacht"))) == {"next_piece", "refill_hand", "own_turn_over", "deck_check"}
    source = compile_file(ruleset_file("china-schacht")).source
    build_ = method(source, "_do__build")
    assert ("        # base.yaml:461: next_piece, written out where it is called, base.yaml:390 (`inline_procedures`)\n"
            "        if self.trace is not None:\n"
            "            self.trace.append(\"procedures.next_piece\")\n"
            "        self.placed += 1  # base.yaml:465\n") in build_
    assert "self.next_piece()" not in build_ and "self.refill_hand()" not in build_
    assert "        # base.yaml:390: next_piece written out above\n" in build_
    blind = method(source, "draw_blind")
    assert "self.deck_check()" not in blind and "        if not self.deck:  # base.yaml:492\n" in blind
    for name in ("next_piece", "refill_hand", "own_turn_over", "deck_check"):
        assert f"    def {name}(self) -> None:\n" in source, name  # (still a method: tools and tests call it)
    assert "self.pay(cards)" in build_ and "self.draw_blind(self.current)" in method(source, "_do__draw_card")
    off = compile_file(ruleset_file("china-schacht"), passes.ALL - {"inline_procedures"}).source
    assert "self.next_piece()  # base.yaml:390" in method(off, "_do__build") and "`inline_procedures`" not in off
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
