"""Pass `inline_returns` (docs/optimiser.md): a call, in a definition's body, of a definition whose
body is one `return` of an expression, with names and constants as arguments, is that expression.

What is written in the test case, and what is written without the pass, is the golden of
tests/passes/inline_returns.golden (tests/test_pass_goldens.py). Checked here, on definitions made
by hand: the parameters read as the arguments and the callee's own names numbered anew; what is
left (computed arguments, a callee with a comprehension, one kept between moves, one of more than
one statement); and games played in lockstep with and without the pass: the test case, and the
bundled rule sets where it fires.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.lowered import LoweredFunction, Program
from rulewright.compiler.passes import inline_returns
from rulewright.compiler.pyir import Return
from rulewright.compiler.pyprint import text
from rulewright.core.paths import ruleset_file
from rulewright.core.source import SourceSpan
from tests.helpers.lockstep import moves_in_lockstep, play_in_lockstep
from tests.helpers.pyir_nodes import nodes

CASE = Path(__file__).parent / "passes" / "inline_returns.yaml"
SPAN = SourceSpan("x.yaml", 1, 1, 1, 2)


def _caller_after(callee: str, caller: str, kept: str = "", statements: int = 1) -> str:
    body = tuple(Return(nodes(callee)) for _ in range(statements))
    f = LoweredFunction("f", (("a", "int"), ("b", "int")), "int", body, SPAN, kept=kept)
    g = LoweredFunction("g", (("x", "int"),), "int", (Return(nodes(caller)),), SPAN)
    after = inline_returns.run(Program(defines=[f, g]), None)  # type: ignore[arg-type]  (reads no facts)
    value = after.defines[1].body[0]
    assert isinstance(value, Return) and value.value is not None
    return text(value.value)


def test_the_parameters_are_the_arguments_and_its_own_names_are_new() -> None:
    callee = "((_once__1 := self.t[a]) > b and _once__1 < 9)"
    assert _caller_after(callee, "((_once__1 := self.u[x]) + self.f(x, 3))") == \
        "((_once__1 := self.u[x]) + ((_once__2 := self.t[x]) > 3 and _once__2 < 9))"


@pytest.mark.parametrize(("callee", "caller", "kept", "statements"), [
    ("(self.t[a] + b)", "self.f(x + 1, 3)", "", 1),  # (a computed argument)
    ("sum(y for y in self.t if y > a)", "self.f(x, 3)", "", 1),  # (a comprehension)
    ("(self.t[a] + b)", "self.f(x, 3)", "recomputed once `t` changes", 1),  # (kept between moves)
    ("(self.t[a] + b)", "self.f(x, 3)", "", 2),  # (more than one statement)
])
def test_what_is_left_a_call(callee: str, caller: str, kept: str, statements: int) -> None:
    assert _caller_after(callee, caller, kept, statements) == caller


def test_the_case_plays_the_same_games_with_and_without_it() -> None:
    assert moves_in_lockstep(CASE, "inline_returns", seeds=6, players=(2,)) > 0


@pytest.mark.parametrize("ruleset", ["othello", "backgammon", "chang-cheng"])
def test_bundled_rule_sets_play_the_same_games_with_and_without_it(ruleset: str) -> None:
    path = ruleset_file(ruleset)
    optimised = rulewright.load_rules(path)
    without = rulewright.load_rules(path, passes=passes.ALL - {"inline_returns"})
    players = optimised.info.players[0]
    assert sum(play_in_lockstep(optimised, without, players, seed) for seed in range(2)) > 0
