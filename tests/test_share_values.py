"""Pass `share_values` (docs/optimiser.md): a value an expression of a definition computes twice or
more is computed once, where it is first computed (an assignment expression), and read again.

What is written in the test case, and what is written without the pass, is the golden of
tests/passes/share_values.golden (tests/test_pass_goldens.py). Checked here, on values made by
hand: what is named and where (the first computation in the order Python evaluates, an `if`
expression's test before its branches), what is left (a first computation under the right of `and`,
one inside a comprehension, a call of anything but a definition, a value computed once); that each
value written gives what the plain one gives, on random states; and games played in lockstep with
and without the pass: the test case, and the bundled rule sets where it fires.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.lowered import LoweredFunction, Program
from rulewright.compiler.passes import share_values
from rulewright.compiler.pyir import Return
from rulewright.compiler.pyprint import text
from rulewright.core.paths import ruleset_file
from rulewright.core.source import SourceSpan
from tests.helpers.lockstep import moves_in_lockstep, play_in_lockstep
from tests.helpers.pyir_nodes import nodes

CASE = Path(__file__).parent / "passes" / "share_values.yaml"
SPAN = SourceSpan("x.yaml", 1, 1, 1, 2)


def _shared(code: str) -> str:
    d = LoweredFunction("v", (), "int", (Return(nodes(code)),), SPAN)
    program = Program(defines=[d, LoweredFunction("f", (("x", "int"),), "int", (Return(nodes("0")),), SPAN)])
    after = share_values.run(program, None)  # type: ignore[arg-type]  (the pass reads no facts)
    value = after.defines[0].body[0]
    assert isinstance(value, Return) and value.value is not None
    return text(value.value)


@pytest.mark.parametrize(("code", "expected"), [
    ("(self.f(a) > 1 and self.f(a) < 3)", "((_once__1 := self.f(a)) > 1 and _once__1 < 3)"),
    ("(len(self.r[d][s]) >= 2 and self.m[self.r[d][s][0]] == 1)",
     "(len((_once__1 := self.r[d][s])) >= 2 and self.m[_once__1[0]] == 1)"),
    ("(self.f(a) if self.f(a) else 0)", "(_once__1 if (_once__1 := self.f(a)) else 0)"),
    ("(self.g(a) > 1 and self.g(a) < 3)", "(self.g(a) > 1 and self.g(a) < 3)"),  # (not a definition)
    ("(a and self.f(a) > 1 and self.f(a) < 3)", "(a and (_once__1 := self.f(a)) > 1 and _once__1 < 3)"),
    ("((a or self.f(a) > 1) and self.f(a) < 3)", "((a or self.f(a) > 1) and self.f(a) < 3)"),  # (first under `or`)
    ("(self.f(a) + sum(self.f(a) for b in c))", "(self.f(a) + sum(self.f(a) for b in c))"),  # (in a comprehension)
    ("(self.f(a) + self.f(b))", "(self.f(a) + self.f(b))"),  # (other arguments)
])
def test_what_is_named_and_what_is_left(code: str, expected: str) -> None:
    assert _shared(code) == expected


@pytest.mark.parametrize("code", [
    "(self.f(a) > 1 and self.f(a) < 3)",
    "(len(self.w[d][s]) >= 2 and self.m[self.w[d][s][0]] == 1)",
    "(self.f(a) if self.f(a) else self.f(a) + 1)",
    "((self.r[a][0] > 0 or self.r[a][1] > 0) and self.r[a][0] + self.f(a) > self.f(a) * 2)",
])
def test_each_value_gives_what_the_plain_one_gives(code: str) -> None:
    shared = _shared(code)
    assert shared != code
    chooser = random.Random(3)

    class State:
        calls = 0

        def __init__(self) -> None:
            self.r = [[chooser.randrange(-2, 3) for _ in range(3)] for _ in range(3)]
            self.m = [chooser.randrange(0, 3) for _ in range(3)]
            self.w = [[[chooser.randrange(0, 3) for _ in range(chooser.randrange(0, 4))] for _ in range(3)]
                      for _ in range(3)]

        def f(self, x: int) -> int:
            return x * 2 - 1

    plain = compile(ast.parse(code, mode="eval"), "<plain>", "eval")
    written = compile(ast.parse(shared, mode="eval"), "<shared>", "eval")
    for _ in range(300):
        state = State()
        names = {"self": state, **{k: chooser.randrange(0, 3) for k in ("a", "d", "s")}}
        assert eval(written, {}, dict(names)) == eval(plain, {}, dict(names))  # noqa: S307 - the test's own code


def test_the_case_plays_the_same_games_with_and_without_it() -> None:
    assert moves_in_lockstep(CASE, "share_values", seeds=6, players=(2,)) > 0


@pytest.mark.parametrize("ruleset", ["othello", "backgammon", "leduc-poker", "china-schacht/two-player"])
def test_bundled_rule_sets_play_the_same_games_with_and_without_it(ruleset: str) -> None:
    path = ruleset_file(ruleset)
    optimised = rulewright.load_rules(path)
    without = rulewright.load_rules(path, passes=passes.ALL - {"share_values"})
    players = optimised.info.players[0]
    assert sum(play_in_lockstep(optimised, without, players, seed) for seed in range(2)) > 0
