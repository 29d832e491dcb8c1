"""Pass `bind_reads` (docs/optimiser.md): what a method reads again and again of the state and its
board is read once into a local, where it is first read.

What is bound in the test case, and what is written without the pass, is the golden of
tests/passes/bind_reads.golden (tests/test_pass_goldens.py). Checked here: what is bound and what
is left, on bodies made by hand (a read once, a read in a loop, a read under a comprehension's
items, a field assigned as a whole, a method called, a field's init that calls a definition); that
the locals are invented names no rule name can be; and games played in lockstep with and without the
pass: the test case, and the bundled rule sets where it binds most (the classics, the big games).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.analysis import Facts
from rulewright.compiler.driver import check_file
from rulewright.compiler.lower import lower
from rulewright.compiler.lowered import LoweredField, LoweredFunction, Program
from rulewright.compiler.names import RULE_NAME
from rulewright.compiler.passes import bind_reads
from rulewright.compiler.pyir import (
    Assign,
    Attribute,
    AugAssign,
    Block,
    Call,
    Compare,
    Comprehension,
    Constant,
    ExprStmt,
    For,
    If,
    ListComp,
    Name,
    Return,
    Subscript,
    assign,
    dotted,
)
from rulewright.compiler.pyprint import text
from rulewright.core.paths import ruleset_file
from rulewright.core.source import SourceSpan
from tests.helpers.lockstep import moves_in_lockstep, play_in_lockstep

CASE = Path(__file__).parent / "passes" / "bind_reads.yaml"
SPAN = SourceSpan("x.yaml", 1, 1, 1, 2)
DISC = Attribute(Name("self"), "disc")
RAYS = Attribute(Attribute(Name("self"), "board"), "rays")


def _bound_reads(body: Block) -> list[str]:
    """What `body` binds to a local of this pass, in order."""
    return [text(s.value) for s in body
            if isinstance(s, Assign) and isinstance(s.targets[0], Name) and s.targets[0].id.startswith("_read__")]


def _program(*bodies: Block, field_init: Call | None = None) -> Program:
    fields = [LoweredField("disc", "list[int | None]", field_init or Constant(None), "spot", Constant(None), "", SPAN),
              LoweredField("over", "bool", Constant(False), None, Constant(None), "", SPAN)]
    defines = [LoweredFunction(f"d{k}", (("s", "int"),), "int", body, SPAN) for k, body in enumerate(bodies)]
    return Program(fields=fields, defines=defines)


def _run(program: Program) -> Program:
    return bind_reads.run(program, Facts(check_file(CASE).typed, passes.ALL))


def _loop_reading(read: Attribute) -> Block:
    return (For(Name("t"), Subscript(RAYS, Name("s")), (ExprStmt(Call(Name("f"), (Subscript(read, Name("t")),))),)),)


def test_a_read_in_a_loop_is_bound_before_the_statement_holding_it() -> None:
    body = (assign(Name("n"), Constant(0)), *_loop_reading(DISC), Return(Name("n")))
    after = _run(_program(body)).defines[0].body
    assert _bound_reads(after) == ["self.disc"]
    assert after[1] == assign(Name("_read__disc"), DISC, note="`bind_reads`: read once")
    loop = after[2]
    assert isinstance(loop, For) and isinstance(loop.body[0], ExprStmt)
    assert text(loop.body[0].value) == "f(_read__disc[t])"


def test_a_read_twice_is_left_and_a_read_three_times_is_bound() -> None:
    twice = (Return(Compare(Subscript(DISC, Name("s")), ("==",), (Subscript(DISC, Constant(0)),))),)
    thrice = (Return(Compare(Subscript(DISC, Name("s")), ("==", "=="), (Subscript(DISC, Constant(0)),
                                                                        Subscript(DISC, Constant(1))))),)
    program = _run(_program(twice, thrice))
    assert program.defines[0].body == twice
    assert _bound_reads(program.defines[1].body) == ["self.disc"]
    local = Name("_read__disc")
    assert program.defines[1].body[1] == Return(Compare(Subscript(local, Name("s")), ("==", "=="),
                                                        (Subscript(local, Constant(0)), Subscript(local, Constant(1)))))


def test_a_read_in_a_comprehensions_own_scope_is_left_its_first_list_is_bound() -> None:
    """A read in a comprehension's items, tests or inner lists would be a cell of the method, made at
    every call: neither counted nor bound; its first list is computed in the method's own scope."""
    items = ListComp(Subscript(DISC, Name("t")), (Comprehension(Name("t"), Subscript(RAYS, Name("s")),
                                                                (Subscript(DISC, Name("t")),)),))
    body = (assign(Name("x"), Subscript(RAYS, Constant(0))), assign(Name("y"), Subscript(RAYS, Constant(1))),
            Return(items))
    after = _run(_program(body)).defines[0].body
    assert _bound_reads(after) == ["self.board.rays"]
    assert isinstance(after[-1], Return) and after[-1].value is not None
    assert text(after[-1].value) == "[self.disc[t] for t in _read__board__rays[s] if self.disc[t]]"


def test_the_value_of_a_definition_moves_on_by_the_lines_put_before_it() -> None:
    program = _program(_loop_reading(DISC) + (Return(Constant(1)),))
    program.defines[0] = LoweredFunction("d0", (), "int", program.defines[0].body, SPAN, value_at=1)
    assert _run(program).defines[0].value_at == 2


def test_no_field_is_bound_in_a_definition_a_fields_init_may_call() -> None:
    """A field's init that calls a definition: the definitions may run before every field is set,
    so only the board's tables (and the seat, the count) are bound in them."""
    body = (For(Name("t"), Subscript(RAYS, Name("s")), (ExprStmt(Call(Name("f"), (Subscript(DISC, Name("t")),
                                                                                   Subscript(RAYS, Name("t"))))),)),)
    program = _run(_program(body, field_init=Call(dotted("self.d0"))))
    assert _bound_reads(program.defines[0].body) == ["self.board.rays"]


def _effect(*body: object) -> Program:
    from rulewright.compiler.lowered import LoweredAction
    action = LoweredAction("a", "_do__a", (), None, (), (), tuple(body), (), (), SPAN)  # type: ignore[arg-type]
    return Program(fields=_program().fields, actions=[action])


def test_an_effect_binds_no_field_it_assigns_as_a_whole_nor_any_where_it_calls_a_method() -> None:
    loop = _loop_reading(DISC)[0]
    assert isinstance(loop, For)
    over = dotted("self.over")
    reads_over = (If(over, (AugAssign(Subscript(DISC, Constant(0)), "+", Constant(1)),)),)
    sets_over = assign(over, Constant(True))
    both = _run(_effect(loop, *reads_over, *reads_over, sets_over)).actions[0].effect
    assert _bound_reads(both) == ["self.disc"]  # (the rays read once; `over` assigned: read where it is)
    assert [text(s.test) for s in both if isinstance(s, If)] == ["self.over", "self.over"]
    calls = _run(_effect(loop, loop, loop, ExprStmt(Call(dotted("self.note"))))).actions[0].effect
    assert _bound_reads(calls) == ["self.board.rays"]
    given = _run(_effect(loop, loop, loop, ExprStmt(Call(dotted("rt.shuffle"), (Name("self"),))))).actions[0].effect
    assert _bound_reads(given) == ["self.board.rays"]
    walked = _run(_effect(loop, loop, loop, ExprStmt(Call(dotted("rt.walk"), (Name("self"),))))).actions[0].effect
    assert _bound_reads(walked) == ["self.board.rays", "self.disc"]


def test_the_locals_are_invented_names() -> None:
    program = lower(passes.optimise(check_file(CASE).typed))[1]
    bound = passes.transform(program, passes.optimise(check_file(CASE).typed))
    names = {target.id for a in bound.actions for s in (*a.listing, *a.effect)
             if isinstance(s, Assign) and isinstance(target := s.targets[0], Name) and target.id.startswith("_read")}
    assert names >= {"_read__marker", "_read__current", "_read__board__row_of"}
    assert not any(RULE_NAME.fullmatch(n) for n in names) and all("__" in n for n in names)


def test_the_case_plays_the_same_games_with_and_without_it() -> None:
    assert moves_in_lockstep(CASE, "bind_reads", seeds=6, players=(2,)) > 0


@pytest.mark.parametrize("ruleset", ["othello", "breakthrough", "hex", "connect-four", "backgammon", "china-cornett"])
def test_bundled_rule_sets_play_the_same_games_with_and_without_it(ruleset: str) -> None:
    path = ruleset_file(ruleset)
    optimised = rulewright.load_rules(path)
    without = rulewright.load_rules(path, passes=passes.ALL - {"bind_reads"})
    players = optimised.info.players[0]
    assert sum(play_in_lockstep(optimised, without, players, seed) for seed in range(3)) > 0
