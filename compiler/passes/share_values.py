"""Pass `share_values`: a value an expression of a definition computes twice or more (a definition
called with the same arguments, an item of an item) is computed once, where it is first computed,
and read again after (docs/optimiser.md).

Othello's `flips` tests the next cell of a ray, and the first cell that is not the opponent's:

    return ((((len(self.board.rays[d][s]) >= 2 and self.disc[self.board.rays[d][s][0]] is not None)
              and self.disc[self.board.rays[d][s][0]] != p) and self.closer(s, d, p) is not None)
            and self.disc[rt.value_of(self.closer(s, d, p), ...)] == p)

`closer` is called twice, the ray found three times, its first cell's disc twice. This pass, of the
lowered level, names each such value where it is first computed (an assignment expression) and
reads the name after:

    return ((((len((_once__1 := self.board.rays[d][s])) >= 2 and (_once__2 := self.disc[_once__1[0]])
              is not None) and _once__2 != p) and (_once__3 := self.closer(s, d, p)) is not None)
            and self.disc[rt.value_of(_once__3, ...)] == p)

Taken: in a definition's body, in the value of a statement (its `return`, an assignment, an `if`'s
test), a call of a definition of the rules whose arguments are names and constants, or an item of
an item or of a call (`a[i][j]`, `a[b[i]]`) of names, constants and attributes, that the value computes
twice or more, where its first computation (in the order Python evaluates the value) is one the
value always makes once it reaches the operand of `and` or `or` holding it (not under the right of
a nested `and`, `or`, a branch of `if`), and none is inside a comprehension. The name is a pass's
local, `_once__<n>`, its number one the method uses nowhere else (compiler/names.py). Never a call of
a definition that charges a move's budget (`Program.charging`, a fact of lowering): the plain code's
work is what a move is charged.

Why it is the same game: a definition reads the state and changes nothing, so computing one (or an
item of a list, of a board's table) again in the same expression gives the value it gave the first
time: no part of the expression changes the state in between (its calls are of definitions and of
the runtime's functions of values). The first computation stays where it was, computed as it was,
so it fails where it failed; every later one is after it in the order Python evaluates the
expression (a later operand of `and` or `or` is evaluated only after the earlier ones; within an
operand, after it), and reads the name it was given.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

from ..analysis import Facts
from ..lowered import LoweredFunction, Program
from ..names import JOIN, PASS_LOCAL_BASE
from ..pyir import (
    EXPRESSIONS,
    Assign,
    Attribute,
    BoolOp,
    Call,
    Compare,
    Constant,
    Dict,
    DictComp,
    Expr,
    For,
    GeneratorExp,
    If,
    IfExp,
    ListComp,
    Name,
    NamedExpr,
    Paren,
    Return,
    SetComp,
    Stmt,
    Subscript,
    While,
    each_operand,
    inner_blocks,
    statements,
    subexpressions,
    walk,
)

_SELF = Name("self")
_SCOPES = (ListComp, SetComp, GeneratorExp, DictComp, Dict)  # (a dict display: keys and values interleaved)


def run(program: Program, facts: Facts) -> Program:
    # (a call that charges the budget stays as the plain code makes it: the move is charged the same)
    definitions = frozenset(d.name for d in program.defines) - program.charging
    defines = [_define(d, definitions) for d in program.defines]
    if defines == program.defines:
        return program
    return replace(program, defines=defines)


def _define(d: LoweredFunction, definitions: frozenset[str]) -> LoweredFunction:
    taken = [0]
    for s in statements(d.body):
        for e in _values(s):
            for n in walk(e):
                if isinstance(n, Name) and n.id.startswith(f"_{PASS_LOCAL_BASE}{JOIN}"):
                    number = n.id.rpartition(JOIN)[2]
                    if number.isdigit():
                        taken.append(int(number))
    counter = [max(taken)]

    def shared(e: Expr) -> Expr:
        while True:
            found = _repeated(e, definitions)
            if found is None:
                return e
            counter[0] += 1
            e = _named(e, found, Name(f"_{PASS_LOCAL_BASE}{JOIN}{counter[0]}"))

    def statement(s: Stmt) -> Stmt:
        if isinstance(s, Return) and s.value is not None:
            return replace(s, value=shared(s.value))
        if isinstance(s, Assign):
            return replace(s, value=shared(s.value))
        if isinstance(s, If):
            return replace(s, test=shared(s.test), body=block(s.body), orelse=block(s.orelse),
                           elifs=tuple(replace(e, body=block(e.body)) for e in s.elifs))
        return s

    def block(b: tuple[Stmt, ...]) -> tuple[Stmt, ...]:
        return tuple(statement(s) if not inner_blocks(s) or isinstance(s, If) else _nested(s, block) for s in b)
    body = block(d.body)
    return d if body == d.body else replace(d, body=body)


def _nested(s: Stmt, block: Any) -> Stmt:
    if isinstance(s, For | While):
        return replace(s, body=block(s.body))
    return s


def _values(s: Stmt) -> Iterator[Expr]:
    if isinstance(s, Assign):
        yield from s.targets
        yield s.value
    elif isinstance(s, Return) and s.value is not None:
        yield s.value
    elif isinstance(s, If):
        yield s.test
        yield from (e.test for e in s.elifs)
    else:
        for f in fields(s):
            v = getattr(s, f.name)
            if isinstance(v, EXPRESSIONS):
                yield v


def _bare(e: Expr) -> Expr:
    while isinstance(e, Paren):
        e = e.value
    return e


def _simple(e: Expr) -> bool:
    """A name, a constant, or an attribute of a name (`self.disc`, `_read__x`)."""
    e = _bare(e)
    return isinstance(e, Name | Constant) or isinstance(e, Attribute) and _simple(e.value)


def _candidate(e: Expr, definitions: frozenset[str]) -> bool:
    """A call of a definition of names and constants, or an item of an item or of such a call."""
    if isinstance(e, Call):
        return (isinstance(e.func, Attribute) and e.func.value == _SELF and e.func.attr in definitions
                and not e.keywords and all(_simple(a) for a in e.args))
    if isinstance(e, Subscript):
        parts = (_bare(e.value), _bare(e.index))
        if not all(_simple(p) or _candidate(p, definitions) or isinstance(p, Subscript) and _pure(p, definitions)
                   for p in parts):
            return False
        return any(isinstance(p, Subscript | Call) for p in parts)
    return False


def _pure(e: Expr, definitions: frozenset[str]) -> bool:
    """An item of names, constants, attributes and items of those."""
    e = _bare(e)
    if _simple(e):
        return True
    if isinstance(e, Subscript):
        return _pure(e.value, definitions) and _pure(e.index, definitions)
    return isinstance(e, Call) and _candidate(e, definitions)


def _order(e: Expr, sure: bool) -> Iterator[tuple[Expr, bool]]:
    """The parts of `e` in the order Python evaluates them (a part before the whole), each with
    whether it is evaluated whenever `e` is (`sure`); a comprehension's own parts marked by
    yielding the comprehension itself, unsure, and not entered."""
    if isinstance(e, _SCOPES):
        yield e, False
        return
    if isinstance(e, BoolOp):
        for k, v in enumerate(e.values):
            yield from _order(v, sure and k == 0)
    elif isinstance(e, IfExp):
        yield from _order(e.test, sure)
        yield from _order(e.body, False)
        yield from _order(e.orelse, False)
    elif isinstance(e, Compare):
        yield from _order(e.left, sure)
        for k, c in enumerate(e.comparators):
            yield from _order(c, sure and k == 0)
    else:
        for sub in subexpressions(e):
            yield from _order(sub, sure)
    yield e, sure


def _operands(e: Expr) -> list[Expr]:
    """The operands of an `and` or `or` chain (nested in parentheses too), else `e` alone."""
    bare = _bare(e)
    if not isinstance(bare, BoolOp):
        return [e]
    out: list[Expr] = []
    for v in bare.values:
        inner = _bare(v)
        out += _operands(v) if isinstance(inner, BoolOp) and inner.op == bare.op else [v]
    return out


def _repeated(e: Expr, definitions: frozenset[str]) -> Expr | None:
    """The first candidate `e` computes twice or more whose first computation is sure within its
    operand (of the top `and`/`or` chain) and no computation inside a comprehension; None if none."""
    order: list[tuple[Expr, bool]] = []
    for operand in _operands(e):
        order += _order(operand, True)
    scoped = [n for n, _ in order if isinstance(n, _SCOPES)]
    inside = {id(x) for c in scoped for x in walk(c)}
    seen: dict[Expr, list[tuple[int, bool]]] = {}
    for node, sure in order:
        if _candidate(node, definitions):
            seen.setdefault(node, []).append((id(node), sure))
    for node, found in seen.items():
        if len(found) < 2 or not found[0][1]:
            continue
        if any(x in inside for x, _ in found):
            continue
        return node
    return None


def _named(e: Expr, value: Expr, name: Name) -> Expr:
    """`e` with its first computation of `value` (in evaluation order) named `name`, every later one
    reading it."""
    first = [True]

    def each(node: Expr) -> Expr:
        if isinstance(node, _SCOPES):
            return node
        if node == value:
            if first[0]:
                first[0] = False
                return Paren(NamedExpr(name, node))
            return name
        if isinstance(node, IfExp):  # (its test first, as Python evaluates it)
            test = each(node.test)
            body, orelse = each(node.body), each(node.orelse)
            if test is node.test and body is node.body and orelse is node.orelse:
                return node
            return replace(node, test=test, body=body, orelse=orelse)
        changes: dict[str, Any] = {}
        for f in fields(node):
            if f.name == "span":
                continue
            v = getattr(node, f.name)
            new = each_operand(v, each)
            if new is not v:
                changes[f.name] = new
        return replace(node, **changes) if changes else node
    return each(e)

