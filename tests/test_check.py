"""Stage 5, check (compiler/check/, docs/compiler.md): `check(ruleset)` gives the typed program
between checking and code (compiler/typed.py), or the problems.

For every bundled rule set and every test game: checking gives a program of frozen nodes in
which every expression has its type and span, every name is bound to a symbol, every call names
a definition, procedure or built-in the program has, and nothing the checker refused is left;
it holds no Python (lowering writes that: tests/test_lower.py), and a program it refuses is never
lowered. Each error it gives, at its line and column: tests/broken/ (tests/test_diagnostics.py).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulewright.compiler import typed as t
from rulewright.compiler.builtins import BUILTINS
from rulewright.compiler.check import check
from rulewright.compiler.driver import build, compile_file
from rulewright.compiler.lower import lower
from rulewright.compiler.pyprint import lines
from rulewright.compiler.types import Ty
from rulewright.core.paths import rules_dir
from rulewright.core.source import CompileError, SourceSpan
from tests.helpers.compiled import typed_file

TESTS = Path(__file__).parent
RULE_FILES = sorted(rules_dir().glob("*/*.yaml")) + sorted((TESTS / "games").glob("*.yaml")) + sorted(
    (TESTS / "typing").glob("*.yaml"))


def expressions(e: t.Expr) -> Iterator[t.Expr]:
    yield e
    for part in t.subexpressions(e):
        yield from expressions(part)


def rules_of(program: t.TypedProgram) -> tuple[list[t.Expr], list[t.Stmt]]:
    """Every expression a rule starts from, and every effect, of the whole program."""
    exprs: list[t.Expr] = [c.value for c in program.components]
    blocks: list[tuple[t.Stmt, ...]] = [program.setup]
    for f in program.fields:
        exprs += [e for e in (f.init, f.shown_if, f.hide_items_if, f.visible_to) if e is not None]
    exprs += [d.body for d in program.defines]
    blocks += [p.body for p in program.procedures]
    for trig in program.triggers:
        exprs += [trig.when] if trig.when is not None else []
        blocks.append(trig.effect)
    for phase in program.phases:
        exprs += [phase.actor] if phase.actor is not None else []
        blocks.append(phase.start)
    for action in program.actions:
        exprs += ([action.when] if action.when is not None else []) + [c.domain for c in action.choices]
        blocks.append(action.effect)
    exprs += [program.end] if program.end is not None else []
    exprs += [s.expr for s in program.scoring] + ([program.tie_break] if program.tie_break is not None else [])
    stmts = [s for block in blocks for s in t.statements(block)]
    exprs += [e for s in stmts for e in t.statement_expressions(s)]
    return [node for e in exprs for node in expressions(e)], stmts


EXPRS = t.Expr.__args__  # type: ignore[attr-defined]
STMTS = t.Stmt.__args__  # type: ignore[attr-defined]


def held_expressions(value: object) -> Iterator[t.Expr]:
    """The expressions a statement's fields hold, found by walking its dataclass fields (not
    into the statements of its blocks)."""
    if isinstance(value, EXPRS):
        yield value  # type: ignore[misc]
    elif isinstance(value, tuple):
        for item in value:
            yield from held_expressions(item)


def test_the_walk_of_a_statement_finds_every_expression_it_holds() -> None:
    # typed.statement_expressions is the one walk the passes, the probes and these tests use:
    # whatever a statement holds (an `elif`'s test, an ask's seat and items) it gives
    seen: set[type] = set()
    for path in RULE_FILES:
        _, stmts = rules_of(typed_file(path))
        for s in stmts:
            seen.add(type(s))
            held = [e for f in dataclasses.fields(s) if not isinstance(getattr(s, f.name), STMTS)
                    for e in held_expressions(getattr(s, f.name))]
            walked = t.statement_expressions(s)
            assert len(walked) == len(held) and {id(e) for e in walked} == {id(e) for e in held}, s.span
    assert seen == set(STMTS)


def top_level_any(ty: Ty) -> bool:
    """`any` as a whole type (an item type nothing gave, `[]`, is allowed)."""
    return ty.kind == "any"


@pytest.mark.parametrize("rule_file", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_node_is_typed_resolved_and_placed(rule_file: Path) -> None:
    program = typed_file(rule_file)
    exprs, stmts = rules_of(program)
    assert exprs and stmts
    defines = {d.name for d in program.defines}
    procedures = {p.name for p in program.procedures}
    phases = {p.name for p in program.phases}
    for e in exprs:
        params = type(e).__dataclass_params__  # type: ignore[union-attr]
        assert params.frozen, e
        assert isinstance(e.span, SourceSpan) and e.span.line > 0, e
        assert isinstance(e.ty, Ty), e
        assert not isinstance(e, t.Invalid), e
        assert not top_level_any(e.ty) or (isinstance(e, t.Ref) and e.sym.kind == "local"), (e.span, e.ty)
        match e:
            case t.Ref():
                assert isinstance(e.sym, t.Symbol) and e.sym.ty == e.ty
            case t.DefineCall():
                assert e.define in defines
            case t.Builtin():
                assert e.func in BUILTINS
            case t.PerIndex():
                assert e.field.kind == "perfield" and e.field.per is not None
    for s in stmts:
        assert isinstance(s.span, SourceSpan) and s.span.line > 0, s
        match s:
            case t.CallEffect():
                assert s.procedure in procedures
            case t.Goto():
                assert s.phase in phases
            case t.Assign():
                assert s.target.kind in ("field", "perfield", "local")


def test_nodes_are_frozen() -> None:
    program = typed_file(rules_dir() / "china-cornett" / "base.yaml")
    with pytest.raises(dataclasses.FrozenInstanceError):
        program.scoring[0].expr.ty = Ty("int")  # type: ignore[misc]


def test_checking_writes_no_python() -> None:
    """What check gives holds no Python but the spellings declarations chose: lowering writes it."""
    program = typed_file(rules_dir() / "mandarin" / "base.yaml")
    exprs, _ = rules_of(program)
    assert not any(isinstance(getattr(e, "py", None), str) for e in exprs)
    _, lowered = lower(program)
    assert lowered.actions
    for a in lowered.actions:  # (its statements, printed, are a method's body)
        ast.parse("def effect(self):\n" + "".join(f"    {line}\n" for line in lines(a.effect)))


def test_a_symbol_is_its_binding() -> None:
    """Two locals of one name in two rules are two symbols."""
    program = typed_file(rules_dir() / "china-cornett" / "base.yaml")
    exprs, _ = rules_of(program)
    by_name: dict[str, set[int]] = {}
    for e in exprs:
        if isinstance(e, t.Ref) and e.sym.kind == "local":
            by_name.setdefault(e.sym.name, set()).add(id(e.sym))
    assert any(len(ids) > 1 for ids in by_name.values())


def test_a_refused_program_is_never_lowered(tmp_path: Path) -> None:
    """A rule set the checker refuses gives no typed program; the error is the checker's."""
    bad = tmp_path / "bad.yaml"
    source = (TESTS / "typing" / "let-empty.yaml").read_text()
    bad.write_text(source.replace('end: "len(groups) >= 6"', 'end: "len(groups) >= true"'))
    _, ruleset, problems = build(bad)
    assert ruleset is not None and not problems
    problems, program = check(ruleset)
    assert program is None
    assert [p.message for p in problems] == ["type mismatch: `>=` must be int, not bool"]
    with pytest.raises(CompileError):
        compile_file(bad)
