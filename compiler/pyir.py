"""The lowered IR: the generated Python as a small tree of statements, each with the rule line it
came from, which lowering (compiler/lower/) and the passes that write code build and the printer
(compiler/pyprint.py) lays out; the template only places what it is given.

Modelled on CPython's `ast` and mypyc's lowered IR: small frozen dataclasses, bodies as tuples of
statements (no depth stored: the printer indents), so that two lowered members compare by value
(`==`). Each statement carries the span of the rule it came from (`span`, printed as the
`# file:line` comment of its first line) and what the passes derived in it (`note`, printed after
the rule line). An `If`'s `elif` and `else` lines have their own.

Expressions are leaves (`Code`): the text of one expression, as lowering writes it, with the span
of the rule expression it was lowered from where lowering knows it (the test of an `if`, the list a
loop walks, the value assigned or returned). Their structure (names, calls, operators) is not
modelled yet: lowering writes them as text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..core.source import SourceSpan


@dataclass(frozen=True, slots=True)
class Code:
    """One expression (or an assignment's target), as the code that writes it, and the rule
    expression it was lowered from (not printed: each line's comment tells its statement's)."""

    text: str
    span: SourceSpan | None = None


@dataclass(frozen=True, slots=True)
class Assign:
    """`target = value`, or `a = b = value` (several targets), or `name: annotation = value`."""

    targets: tuple[Code, ...]
    value: Code
    annotation: str | None = None
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class AugAssign:
    """`target op= value` (`op`: `+`, `-`, `|`, `&` ...)."""

    target: Code
    op: str
    value: Code
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class ExprStmt:
    """An expression run for what it does (a call; `yield from` a call)."""

    value: Code
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Return:
    value: Code | None = None
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Pass:
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Break:
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Comment:
    """A line of its own that only says something (`# ...`): where a procedure written out began."""

    text: str
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class For:
    """`for target in iterable:` (the iterable may be `(yield rt.Ask(...))`: a decision waited for)."""

    target: Code
    iterable: Code
    body: Block
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Elif:
    """An `elif` of an `If`, with its own line's rule and notes."""

    test: Code
    body: Block
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class If:
    """`if test:` its body, then each `elif`, then `else:` its `orelse` (none when empty)."""

    test: Code
    body: Block
    elifs: tuple[Elif, ...] = ()
    orelse: Block = ()
    span: SourceSpan | None = None
    note: str = ""
    else_span: SourceSpan | None = None
    else_note: str = ""


Stmt = Assign | AugAssign | ExprStmt | Return | Pass | Break | Comment | For | If
Block = tuple[Stmt, ...]


def assign(target: str, value: str, span: SourceSpan | None = None, note: str = "",
           annotation: str | None = None) -> Assign:
    """`target = value` (the common case, from code)."""
    return Assign((Code(target),), Code(value), annotation, span, note)


def call(code: str, span: SourceSpan | None = None, note: str = "") -> ExprStmt:
    """A statement that is one expression (a call), from its code."""
    return ExprStmt(Code(code), span, note)


def if_(test: str, *body: Stmt, span: SourceSpan | None = None, note: str = "") -> If:
    """`if test:` and its body, without `elif` nor `else`."""
    return If(Code(test), body, span=span, note=note)


def spanned(stmts: Block, span: SourceSpan | None) -> Block:
    """`stmts` with every line of theirs (nested ones, `elif` and `else` lines too) told by `span`."""
    out: list[Stmt] = []
    for s in stmts:
        if isinstance(s, For):
            s = replace(s, body=spanned(s.body, span))
        elif isinstance(s, If):
            s = replace(s, body=spanned(s.body, span), orelse=spanned(s.orelse, span), else_span=span if s.orelse
                        else s.else_span, elifs=tuple(replace(e, body=spanned(e.body, span), span=span)
                                                      for e in s.elifs))
        out.append(replace(s, span=span))
    return tuple(out)


def does_something(body: Block) -> bool:
    """Whether `body` is more than `pass` (a phase's start, the setup: only then is it called)."""
    return any(not isinstance(s, Pass) for s in body)


def inner_blocks(s: Stmt) -> tuple[Block, ...]:
    """The blocks a statement holds: a `for`'s body; an `if`'s body, each `elif`'s and its `else`."""
    if isinstance(s, For):
        return (s.body,)
    if isinstance(s, If):
        return (s.body, *(e.body for e in s.elifs), s.orelse)
    return ()


def declared(body: Block) -> Iterator[str]:
    """The annotation of each local `body` declares (`x: T = ...`), nested ones too."""
    for s in body:
        if isinstance(s, Assign) and s.annotation is not None:
            yield s.annotation
        for inner in inner_blocks(s):
            yield from declared(inner)
