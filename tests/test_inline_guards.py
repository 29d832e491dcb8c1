"""Pass `inline_guards` (docs/optimiser.md): an action's `when:` is tested where its listing starts,
written out, not through a call of its guard method.

What is written (and that the guard methods stay) is the golden of tests/passes/inline_guards.yaml
(tests/test_pass_goldens.py). Checked here: how each form of test is negated, and two test games
with guards (tests/games/remember-listings.yaml, tests/games/unwrap-list-items.yaml) played in lockstep with
and without the pass and against the plain code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.compiler.driver import compile_file
from rulewright.compiler.lower.listings import guard_written as written
from rulewright.compiler.pyir import (
    BinOp,
    BoolOp,
    Compare,
    Constant,
    Expr,
    IfExp,
    Name,
    Paren,
    Subscript,
    UnaryOp,
    dotted,
)
from rulewright.compiler.pyprint import text
from tests.helpers.lockstep import moves_in_lockstep

GAMES = Path(__file__).parent / "games"


_X, _S = Name("x"), dotted("self.specials")
_NODES = [
    (dotted("self.deck"), "not self.deck"),
    (UnaryOp("not", dotted("self.first_turn")), "self.first_turn"),
    (Compare(Name("X"), ("not in",), (Name("s"),)), "X in s"),
    (Compare(BinOp(Name("a"), "+", Name("b")), ("in",), (Name("s"),)), "a + b not in s"),
    (UnaryOp("not", Paren(BoolOp("and", (Name("a"), Name("b"))))), "a and b"),
    (Compare(_X, ("in",), (Subscript(_S, dotted("self.current")),)), "x not in self.specials[self.current]"),
    (Compare(dotted("self.last"), ("is",), (Constant(None),)), "self.last is not None"),
    (Compare(Paren(Compare(Name("a"), ("==",), (Name("b"),))), ("in",), (Name("s"),)), "(a == b) not in s"),
    (Compare(_X, ("in",), (Paren(IfExp(Name("s"), Name("c"), Name("t"))),)), "x not in (s if c else t)"),
    (BoolOp("and", (Compare(Name("a"), ("in",), (Name("s"),)), Name("b"))), "not (a in s and b)"),
    (Compare(Name("a"), ("<", "<"), (Name("b"), Name("c"))), "not (a < b < c)"),
]


@pytest.mark.parametrize(("when", "test"), _NODES)
def test_each_form_is_negated(when: Expr, test: str) -> None:
    negated = written(True, when)
    assert negated is not None and text(negated) == test
    assert written(False, when) is None  # (an action the pass did not mark)
    assert written(True, None) is None


@pytest.mark.parametrize("game", ["remember-listings.yaml", "unwrap-list-items.yaml"])
def test_the_games_play_as_without_the_pass_and_as_the_plain_code(game: str) -> None:
    source = compile_file(GAMES / game).source
    assert "written out (`inline_guards`)" in source and "if not self._guard_" not in source
    assert moves_in_lockstep(GAMES / game, "inline_guards", 6) >= 6 * 3 * 25
