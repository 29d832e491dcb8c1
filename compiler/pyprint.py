"""The printer of the lowered IR (compiler/pyir.py): each statement's lines, indented from the
depth of a method's body, each ending with the comment of its rule line (`# file:line`) and what
the passes derived in it; the template (compiler/templates/game.py.j2) places them. An expression
is printed by `text`: exactly as its nodes say, parentheses only where a node holds them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import assert_never

from ..core.paths import shown_safely
from ..core.source import SourceSpan
from .pyir import (
    Assign,
    Attribute,
    AugAssign,
    BinOp,
    Block,
    BoolOp,
    Break,
    Call,
    Code,
    Comment,
    Compare,
    Comprehension,
    Constant,
    Continue,
    Dict,
    DictComp,
    Expr,
    ExprStmt,
    For,
    GeneratorExp,
    If,
    IfExp,
    JoinedStr,
    List,
    ListComp,
    Name,
    NamedExpr,
    Paren,
    Pass,
    Return,
    Set,
    SetComp,
    Slice,
    Starred,
    Subscript,
    Tuple,
    UnaryOp,
    While,
    Yield,
)

INDENT = "    "


def comment(span: SourceSpan | None, note: str) -> str:
    """The comment ending a line: its rule line, then what the passes derived in it."""
    out = f"  # {shown_safely(PurePosixPath(span.path).name)}:{span.line}" if span else ""
    if note:
        out = f"{out}; {shown_safely(note)}" if out else f"  # {shown_safely(note)}"
    return out


@dataclass(frozen=True, slots=True)
class Printed:
    """One line as printed: its depth (0: a method's body), its code, its rule line and notes."""

    depth: int
    code: str
    span: SourceSpan | None
    note: str


def lines(body: Block) -> list[str]:
    """The lines of `body`, from the depth of a method's body (no indentation)."""
    return [INDENT * depth + code + comment(span, note) for depth, code, span, note in _lines(body, 0)]


def printed(body: Block) -> list[Printed]:
    """Each line of `body` as printed, apart: its depth, code, rule line and notes."""
    return [Printed(*line) for line in _lines(body, 0)]


def codes(body: Block) -> list[str]:
    """The code of each line of `body`, without indentation nor comment."""
    return [code for _, code, _, _ in _lines(body, 0)]


def _lines(body: Block, depth: int) -> Iterator[tuple[int, str, SourceSpan | None, str]]:
    for s in body:
        match s:
            case Assign():
                targets = " = ".join(text(t) for t in s.targets)
                annotated = f"{targets}: {s.annotation}" if s.annotation is not None else targets
                yield depth, f"{annotated} = {text(s.value)}", s.span, s.note
            case AugAssign():
                yield depth, f"{text(s.target)} {s.op}= {text(s.value)}", s.span, s.note
            case ExprStmt():
                yield depth, text(s.value), s.span, s.note
            case Return():
                yield depth, "return" if s.value is None else f"return {text(s.value)}", s.span, s.note
            case Pass():
                yield depth, "pass", s.span, s.note
            case Break():
                yield depth, "break", s.span, s.note
            case Continue():
                yield depth, "continue", s.span, s.note
            case While():
                yield depth, f"while {text(s.test)}:", s.span, s.note
                yield from _lines(s.body, depth + 1)
            case Comment():
                yield depth, f"# {s.text}", s.span, s.note
            case For():
                yield depth, f"for {text(s.target)} in {text(s.iterable)}:", s.span, s.note
                yield from _lines(s.body, depth + 1)
            case If():
                yield depth, f"if {text(s.test)}:", s.span, s.note
                yield from _lines(s.body, depth + 1)
                for e in s.elifs:
                    yield depth, f"elif {text(e.test)}:", e.span, e.note
                    yield from _lines(e.body, depth + 1)
                if s.orelse:
                    yield depth, "else:", s.else_span, s.else_note
                    yield from _lines(s.orelse, depth + 1)
            case _:
                assert_never(s)


def text(e: Expr) -> str:
    """The Python of an expression, as its nodes say (no parentheses but a `Paren`'s and a tuple's)."""
    match e:
        case Code():
            return e.text
        case Name():
            return e.id
        case Constant():
            return e.written if e.written is not None else repr(e.value)
        case Attribute():
            return f"{text(e.value)}.{e.attr}"
        case Subscript():
            return f"{text(e.value)}[{bare(e.index)}]"
        case Slice():
            return ("" if e.lower is None else text(e.lower)) + ":" + ("" if e.upper is None else text(e.upper))
        case Starred():
            return f"*{text(e.value)}"
        case Call():
            args = [bare(a) for a in e.args]
            args += [f"{k.arg}={text(k.value)}" if k.arg is not None else f"**{text(k.value)}" for k in e.keywords]
            return f"{text(e.func)}({', '.join(args)})"
        case UnaryOp():
            return f"not {text(e.operand)}" if e.op == "not" else f"{e.op}{text(e.operand)}"
        case BinOp():
            return f"{text(e.left)} {e.op} {text(e.right)}"
        case BoolOp():
            return f" {e.op} ".join(text(v) for v in e.values)
        case Compare():
            return text(e.left) + "".join(f" {op} {text(c)}" for op, c in zip(e.ops, e.comparators, strict=True))
        case IfExp():
            return f"{text(e.body)} if {text(e.test)} else {text(e.orelse)}"
        case Tuple():
            items = ", ".join(text(x) for x in e.elts) + ("," if len(e.elts) == 1 else "")
            return f"({items})" if e.parenthesised else items
        case List():
            return "[" + ", ".join(text(x) for x in e.elts) + "]"
        case Set():
            return "{" + ", ".join(text(x) for x in e.elts) + "}"
        case Dict():
            return "{" + ", ".join(f"{text(k)}: {text(v)}" for k, v in zip(e.keys, e.values, strict=True)) + "}"
        case ListComp():
            return f"[{text(e.elt)} {clauses(e.generators)}]"
        case SetComp():
            return f"{{{text(e.elt)} {clauses(e.generators)}}}"
        case DictComp():
            return f"{{{text(e.key)}: {text(e.value)} {clauses(e.generators)}}}"
        case GeneratorExp():
            return f"{text(e.elt)} {clauses(e.generators)}"
        case Yield():
            return f"yield from {text(e.value)}" if e.from_ else f"yield {text(e.value)}"
        case NamedExpr():
            return f"{text(e.target)} := {text(e.value)}"
        case JoinedStr():
            return 'f"' + "".join(v if isinstance(v, str) else "{" + text(v) + "}" for v in e.values) + '"'
        case Paren():
            return f"({text(e.value)})"
        case _:
            assert_never(e)


def bare(e: Expr) -> str:
    """An expression alone in its brackets (a call's argument, a subscript's index): a `Paren` around
    it written without its parentheses, as a careful person writes `f(n - 1)` and `xs[i + 1]`, not
    `f((n - 1))` (ruff's UP034); a generator, `yield` or `:=` keeps them."""
    if isinstance(e, Paren) and not isinstance(e.value, (GeneratorExp, NamedExpr, Yield)):
        return bare(e.value)
    return text(e)


def clauses(generators: tuple[Comprehension, ...]) -> str:
    """The `for ... in ... if ...` clauses of a comprehension."""
    return " ".join(f"for {text(g.target)} in {text(g.iter)}" + "".join(f" if {text(c)}" for c in g.ifs)
                    for g in generators)
