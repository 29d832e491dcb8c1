"""Pass `inline_returns`: a call, in a definition's body, of a definition whose body is one `return`
of an expression, with names and constants as arguments, is that expression, its parameters read as
the arguments (docs/optimiser.md).

Othello's `can_place` asks `flips` of each of the eight directions, some 211 calls a move: a
definition `inline` leaves a method (it calls `closer`). Its lowered body is one expression:

    for d in range(8):  # `aggregate_loops`: `any` written out as a loop
        if self.flips(s, d, p):
    # after
    for d in range(8):
        if ((((len((_once__1 := self.board.rays[d][s])) >= 2 and ...

Taken: a definition whose body is one `return` of an expression (not kept between moves, cached,
remembered while the legal actions are listed, a generator, nor the version of a definition a
variant replaced, `base(...)`, which stays the method the variant's code names), of at most `SIZE` nodes, holding
no comprehension (its own scope), called in another definition's body with names and constants
only (the callee as it was before this pass: one level). Its parameters are replaced by the
arguments; the locals its expression names itself (a pass's `_once__<n>`: `share_values`) are
numbered past every one the caller has.

Why it is the same game: a call computes its arguments, then the body: with names and constants as
arguments there is nothing to compute, and the body reads the same values through them; a
definition changes nothing, so the expression, computed where the call was, gives what the call
gave and fails where it failed. The names it binds are new in the caller.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from ..analysis import Facts
from ..lowered import LoweredFunction, Program
from ..names import JOIN, PASS_LOCAL_BASE
from ..pyir import (
    EXPRESSIONS,
    Assign,
    Attribute,
    Call,
    Constant,
    DictComp,
    Expr,
    For,
    GeneratorExp,
    If,
    ListComp,
    Name,
    Paren,
    Return,
    SetComp,
    Stmt,
    While,
    Yield,
    each_operand,
    statements,
    walk,
)

SIZE = 80  # the largest expression written where it is called, in nodes
_SELF = Name("self")
_ONCE = f"_{PASS_LOCAL_BASE}{JOIN}"


def run(program: Program, facts: Facts) -> Program:
    bodies = {d.name: d for d in program.defines if _inlinable(d)}
    if not bodies:
        return program
    defines = [_define(d, bodies) for d in program.defines]
    if defines == program.defines:
        return program
    return replace(program, defines=defines)


def _inlinable(d: LoweredFunction) -> bool:
    if d.kept or d.cached or d.per_state or d.steps or d.remembered or d.version_of or not d.params \
            or len(d.body) != 1:
        return False
    only = d.body[0]
    if not isinstance(only, Return) or only.value is None:
        return False
    nodes = list(walk(only.value))
    return len(nodes) <= SIZE and not any(isinstance(n, ListComp | SetComp | GeneratorExp | DictComp | Yield)
                                          for n in nodes)


def _numbers(e: Expr) -> list[int]:
    return [int(n.id[len(_ONCE):]) for n in walk(e) if isinstance(n, Name) and n.id.startswith(_ONCE)
            and n.id[len(_ONCE):].isdigit()]


def _define(d: LoweredFunction, bodies: dict[str, LoweredFunction]) -> LoweredFunction:
    taken = [0]
    for s in statements(d.body):
        for e in _expressions(s):
            taken += _numbers(e)
    counter = [max(taken)]

    def call(node: Expr) -> Expr | None:
        if not (isinstance(node, Call) and isinstance(node.func, Attribute) and node.func.value == _SELF
                and node.func.attr in bodies and not node.keywords
                and all(isinstance(a, Name | Constant) for a in node.args)):
            return None
        callee = bodies[node.func.attr]
        if len(node.args) != len(callee.params):
            return None
        holes: dict[str, Expr] = {p: a for (p, _), a in zip(callee.params, node.args, strict=True)}
        body = callee.body[0]
        assert isinstance(body, Return) and body.value is not None
        own = sorted(set(_numbers(body.value)))
        for k in own:
            counter[0] += 1
            holes[f"{_ONCE}{k}"] = Name(f"{_ONCE}{counter[0]}")
        written = _substituted(body.value, holes)
        return written if isinstance(written, Paren) else Paren(written)  # (grouped once, as the call was)

    def expr(e: Expr) -> Expr:
        found = call(e)
        if found is not None:
            return found
        if isinstance(e, ListComp | SetComp | GeneratorExp | DictComp):
            return e
        changes: dict[str, Any] = {}
        for f in fields(e):
            if f.name == "span":
                continue
            v = getattr(e, f.name)
            new = each_operand(v, expr)
            if new is not v:
                changes[f.name] = new
        return replace(e, **changes) if changes else e

    def statement(s: Stmt) -> Stmt:
        if isinstance(s, Return) and s.value is not None:
            return replace(s, value=expr(s.value))
        if isinstance(s, Assign):
            return replace(s, value=expr(s.value))
        if isinstance(s, If):
            return replace(s, test=expr(s.test), body=block(s.body), orelse=block(s.orelse),
                           elifs=tuple(replace(e, test=expr(e.test), body=block(e.body)) for e in s.elifs))
        if isinstance(s, For):
            return replace(s, body=block(s.body))
        if isinstance(s, While):
            return replace(s, body=block(s.body))
        return s

    def block(b: tuple[Stmt, ...]) -> tuple[Stmt, ...]:
        return tuple(statement(s) for s in b)
    body = block(d.body)
    return d if body == d.body else replace(d, body=body)


def _substituted(e: Expr, holes: dict[str, Expr]) -> Expr:
    if isinstance(e, Name):
        return holes.get(e.id, e)
    changes: dict[str, Any] = {}
    for f in fields(e):
        if f.name == "span":
            continue
        v = getattr(e, f.name)
        new = each_operand(v, lambda x: _substituted(x, holes))
        if new is not v:
            changes[f.name] = new
    return replace(e, **changes) if changes else e


def _expressions(s: Stmt) -> list[Expr]:
    return [v for f in fields(s) for v in (getattr(s, f.name),) if isinstance(v, EXPRESSIONS)] + \
        [t for t in getattr(s, "targets", ())]
