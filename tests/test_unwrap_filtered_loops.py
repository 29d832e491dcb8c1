"""Pass `unwrap_filtered_loops` (docs/optimiser.md): a listing's loop over a filtered list walks the
list's own loops and tests each item, not a list made first by a comprehension.

What is written in the test case, and what is written without the pass, is the golden of
tests/passes/unwrap_filtered_loops.golden (tests/test_pass_goldens.py). Checked here, on listings
made by hand: the loops and tests written for each clause (a clause over one item, an assignment;
an item other than the loop's variable, assigned to it first), and what is left as it is (a body
that loops, breaks or calls anything but what appends an action; a comprehension whose variable
the listing reads elsewhere); and games played in lockstep with and without the pass: the test
case, and the bundled rule sets where it fires.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.analysis import Facts
from rulewright.compiler.driver import check_file
from rulewright.compiler.lowered import LoweredAction, Program
from rulewright.compiler.passes import unwrap_filtered_loops
from rulewright.compiler.pyir import (
    Block,
    Break,
    Call,
    Compare,
    Comprehension,
    Constant,
    ExprStmt,
    For,
    ListComp,
    Name,
    Stmt,
    Subscript,
    Tuple,
    dotted,
)
from rulewright.compiler.pyprint import lines
from rulewright.core.paths import ruleset_file
from rulewright.core.source import SourceSpan
from tests.helpers.lockstep import moves_in_lockstep, play_in_lockstep

CASE = Path(__file__).parent / "passes" / "unwrap_filtered_loops.yaml"
SPAN = SourceSpan("x.yaml", 1, 1, 1, 2)
APPEND = ExprStmt(Call(dotted("_actions.append"), (Subscript(Name("_table"), Name("s")),)))
EMPTY = Compare(Subscript(dotted("self.marker"), Name("s")), ("is",), (Constant(None),))


def _listing(*body: Stmt) -> Block:
    program = Program(actions=[LoweredAction("a", "_do__a", (), None, (), (), (), (), (), SPAN, listing=body)])
    return unwrap_filtered_loops.run(program, Facts(check_file(CASE).typed, passes.ALL)).actions[0].listing


def _over(comprehension: ListComp, *body: Stmt, target: str = "s") -> For:
    return For(Name(target), comprehension, body or (APPEND,))


def _filtered(elt: str = "s", *, first: tuple[Comprehension, ...] = ()) -> ListComp:
    return ListComp(Name(elt), (*first, Comprehension(Name("s"), dotted("self.board.spots"), (EMPTY,))))


def test_a_filtered_list_is_its_own_loop_and_test() -> None:
    assert lines(_listing(_over(_filtered()))) == [
        "for s in self.board.spots:  # `unwrap_filtered_loops`: the list's own loop, each item tested",
        "    if self.marker[s] is None:",
        "        _actions.append(_table[s])",
    ]


def test_a_clause_over_one_item_is_an_assignment_and_an_item_is_assigned_to_the_loops_variable() -> None:
    once = Comprehension(Name("_once__1"), Tuple((Constant(3),)))
    append = ExprStmt(Call(dotted("_actions.append"), (Subscript(Name("_table"), Name("n")),)))
    written = lines(_listing(_over(_filtered("s", first=(once,)), append, target="n")))
    assert [line.split("  #")[0] for line in written] == [
        "_once__1 = 3",
        "for s in self.board.spots:",
        "    if self.marker[s] is None:",
        "        n = s",
        "        _actions.append(_table[n])",
    ]


@pytest.mark.parametrize("body", [
    (For(Name("t"), Name("ts"), (APPEND,)),),
    (APPEND, Break()),
    (ExprStmt(Call(dotted("self.note"))),),
])
def test_a_body_that_loops_breaks_or_calls_more_is_left(body: Block) -> None:
    loop = _over(_filtered(), *body)
    assert _listing(loop) == (loop,)


def test_a_comprehension_whose_variable_the_listing_reads_elsewhere_is_left() -> None:
    loop = _over(_filtered(), target="n")
    after = ExprStmt(Call(dotted("_actions.append"), (Name("s"),)))
    assert _listing(loop, after) == (loop, after)


def test_the_case_plays_the_same_games_with_and_without_it() -> None:
    assert moves_in_lockstep(CASE, "unwrap_filtered_loops", seeds=6, players=(2,)) > 0


@pytest.mark.parametrize("ruleset", ["breakthrough", "othello", "mandarin", "chang-cheng", "china-schacht/bonus-tiles"])
def test_bundled_rule_sets_play_the_same_games_with_and_without_it(ruleset: str) -> None:
    path = ruleset_file(ruleset)
    optimised = rulewright.load_rules(path)
    without = rulewright.load_rules(path, passes=passes.ALL - {"unwrap_filtered_loops"})
    players = optimised.info.players[0]
    assert sum(play_in_lockstep(optimised, without, players, seed) for seed in range(2)) > 0
