"""Loops that stop (docs/language.md "Effects"): `while`, `break` and `continue`, through every stage,
on the test game tests/games/ring-capture.yaml; the budget of a `while true:` is in
tests/test_hostile_budgets.py, the checker's refusals in tests/broken/ (`break_outside_loop`,
`continue_in_ask`, `while_not_a_condition`)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.compiler import ast, passes
from rulewright.compiler import typed as t
from rulewright.compiler.driver import analyse, compile_file
from rulewright.compiler.parse import parse
from rulewright.compiler.typed_print import program as printed
from rulewright.compiler.unparse import unparse, unparse_block
from rulewright.core.source import SourceSpan
from rulewright.runtime.state import Game
from tests.helpers.compiled import method, typed_file
from tests.helpers.lockstep import play_in_lockstep

GAME = Path(__file__).parent / "games" / "ring-capture.yaml"
SPAN = SourceSpan("t.yaml", 1, 1, 1, 2)


@cache
def game(enabled: frozenset[str] = passes.ALL) -> Game:
    return rulewright.load_rules(GAME, passes=enabled)


def line(text: str) -> int:
    """The line of the test game holding `text` (once)."""
    (found,) = [n for n, written in enumerate(GAME.read_text().splitlines(), 1) if written.strip() == text]
    return found


def placed(state: Any) -> list[list[str]]:
    return [sorted(state.observation(0)["fields"]["placed"][p], key=int) for p in range(state.num_players)]


def test_a_while_walks_until_its_test_fails_and_a_break_leaves_the_inner_loop() -> None:
    state: Any = game().new_state(players=2, seed=1)
    for move in ("place 3", "place 2", "place 5", "place 4"):
        state.apply(move)
    assert placed(state) == [["3", "5"], ["2", "4"]] and list(state.taken) == [0, 0]
    # from 1 the walk passes 2 (the other seat's) and stops at 3 (its own): 2 is taken
    state.apply("place 1")
    assert placed(state) == [["1", "3", "5"], ["4"]] and list(state.taken) == [1, 0]
    # from 6 the walk stops at once (7 is empty): nothing is taken
    state.apply("place 6")
    assert placed(state) == [["1", "3", "5"], ["4", "6"]] and list(state.taken) == [1, 0]


def test_continue_skips_a_round_and_break_ends_a_while_true() -> None:
    state: Any = game().new_state(players=2, seed=1)
    for move in ("place 2", "place 3", "place 5", "place 6"):
        state.apply(move)
    assert "sweep" in [str(a) for a in state.legal_actions()]
    assert state.swept == 1 + 3 + 4  # (the setup's loop: 2 skipped)
    state.apply("sweep")  # from spot 1 on: 2 and 3 held (skipped), 4 empty, 5 and 6 held, 7 empty: two found
    assert state.swept == 8 + 2 and state.noted == 2  # (the procedure's loop: two rounds, then its break)
    # the opponent's stones, 3 and 6, walked in order: 3 is the first with an empty spot ahead
    assert state.observation(0)["fields"]["open_stone"] == "3"


def test_random_games_play_the_same_optimised_and_not() -> None:
    optimised, plain = game(), game(frozenset())
    moves = sum(play_in_lockstep(optimised, plain, 2 + seed % 2, seed) for seed in range(12))
    assert moves >= 12 * 20


def test_the_code_charges_each_round_of_a_while_and_writes_break_and_continue() -> None:
    source = compile_file(GAME).source
    place, sweep, note = (method(source, name) for name in ("_do__place", "_do__sweep", "note"))
    walk = line("- while at != s and held(at) and at not in placed[current]:")
    # the budget charged before each test; `while true:` is the charge alone
    assert re.search(rf"while rt.spend\(self, \d+, 'tests/games/ring-capture.yaml:{walk}'\) and at != s and "
                     r"self.held\(at\) and at not in self.placed\[self.current\]:", place)
    assert "        while rt.spend(self, " in sweep and "'):  # ring-capture.yaml" in sweep
    assert "        while rt.spend(self, " in note and "'):  # ring-capture.yaml" in note
    # the statements, each with its rule line, in the loop they stop or go on with
    assert f"\n                        continue  # ring-capture.yaml:{walk + 7}\n" in place
    assert f"\n                        break  # ring-capture.yaml:{walk + 11}\n" in place
    assert sweep.count("break  #") == 2 and sweep.count("continue  #") == 1 and note.count("break  #") == 1
    # `first(...)`: the walk stops at the first item found, a set walked in order
    assert "self.open_stone = rt.held(next((x for x in sorted(self.placed[" in sweep
    plain = compile_file(GAME, frozenset()).source
    assert "while rt.spend(self, " in method(plain, "_do__place")



def test_the_typed_program_and_its_print() -> None:
    program = typed_file(GAME)
    stmts = list(t.statements(next(a for a in program.actions if a.name == "sweep").effect))
    kinds = [type(s).__name__ for s in stmts]
    assert kinds.count("While") == 1 and kinds.count("Break") == 2 and kinds.count("Continue") == 1
    loop = next(s for s in stmts if isinstance(s, t.While))
    assert t.statement_expressions(loop) == (loop.test,)
    text = printed(program)
    assert "while true:  <each round charged>" in text and "\n        break\n" in text


@pytest.mark.parametrize("text", ["break", "continue"])
def test_break_and_continue_parse_and_unparse(text: str) -> None:
    node = parse(text, SPAN, "stmt")
    assert isinstance(node, ast.Break if text == "break" else ast.Continue)
    assert unparse(node) == text


def test_a_while_header_and_block_unparse() -> None:
    header = parse("while k < 3 and not done", SPAN, "header")
    assert isinstance(header, ast.WhileHeader) and unparse(header) == "while k < 3 and not done"
    block = ast.While(header.test, (parse("k += 1", SPAN, "stmt"), ast.Break(SPAN)), SPAN)
    assert unparse_block([block]) == "while k < 3 and not done:\n  k += 1\n  break"


def test_a_break_in_a_procedure_called_from_a_loop_is_refused(tmp_path: Path) -> None:
    text = GAME.read_text().replace("procedures:\n", "procedures:\n  stop:\n    - break\n", 1)
    text = text.replace("        - k += 1\n", "        - k += 1\n        - stop()\n", 1)
    assert "- stop()" in text
    path = tmp_path / "ring-capture.yaml"
    path.write_text(text)
    at = text.splitlines().index("    - break") + 1
    _, diagnostics, _ = analyse(path)
    assert [(d.span.line, d.span.col, d.message) for d in diagnostics] == [(at, 7, "`break` outside a loop")]
