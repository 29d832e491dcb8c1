"""Abstract syntax of the expression/effect language: frozen, slotted nodes with spans.

One node class per grammar alias family. The checker and the code generator dispatch on
these with `match`, ending in `assert_never` so a new node kind nobody handles is a mypy error.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.source import SourceSpan


@dataclass(frozen=True, slots=True)
class Num:
    value: int
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Str:
    value: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Name:
    id: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Attr:
    obj: Expr
    name: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Index:
    obj: Expr
    index: Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Keyword:
    name: str
    value: Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Call:
    func: str
    args: tuple[Expr, ...]
    keywords: tuple[Keyword, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Comprehension:
    """`func(elt for var in domain if cond)` or `[elt for var in domain if cond]` (func "list")."""

    func: str
    elt: Expr
    var: str
    domain: Expr
    cond: Expr | None
    span: SourceSpan
    # `for b in f(a) if c` clauses after the first, each inside the one before: (var, domain, cond)
    more: tuple[tuple[str, Expr, Expr | None], ...] = ()


@dataclass(frozen=True, slots=True)
class ListLit:
    items: tuple[Expr, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class SetLit:
    items: tuple[Expr, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-", "not"
    operand: Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # + - * // % and or == != < <= > >= in "not in"
    left: Expr
    right: Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Cond:
    test: Expr
    then: Expr
    orelse: Expr
    span: SourceSpan


Expr = Num | Str | BoolLit | Name | Attr | Index | Call | Comprehension | ListLit | SetLit | Unary | Binary | Cond


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    index: Expr | None
    span: SourceSpan
    item: Expr | None = None  # `f[e][i] = v`: the item of the list `f[e]` replaced


@dataclass(frozen=True, slots=True)
class Assign:
    target: Target
    op: str  # "=", "+=", "-="
    value: Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Let:
    name: str
    value: Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class CallStmt:
    call: Call
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Goto:
    phase: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class EndTurn:
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Pass:
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Tell:
    """`tell "{winner} wins the revolt in {k}"`: a line every seat reads after the move. Its parts:
    literal text, or an expression between braces (its own span within the string)."""
    parts: tuple[str | Expr, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Break:
    """`break`: the innermost `for` or `while` around it stops here."""

    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Continue:
    """`continue`: the innermost `for` or `while` around it goes on with its next round."""

    span: SourceSpan


@dataclass(frozen=True, slots=True)
class For:
    var: str
    domain: Expr
    body: tuple[Stmt, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class While:
    """`while test:` and its body, run again as long as the test holds (each round charged to
    the move's budget: runtime/limits.py)."""

    test: Expr
    body: tuple[Stmt, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class If:
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Ask:
    """`ask seat to choose var in domain:` and its body: the seat decides, the body runs with
    its choice (and not at all when there is nothing to choose)."""

    seat: Expr
    var: str
    domain: Expr
    body: tuple[Stmt, ...]
    span: SourceSpan
    secret: bool = False  # `ask p to choose secretly ...`: the others read the choice's name alone


Stmt = Assign | Let | CallStmt | Goto | EndTurn | Pass | Tell | For | If | Ask | While | Break | Continue


# Headers are what a YAML block key parses to, before the block is assembled.
@dataclass(frozen=True, slots=True)
class ForHeader:
    var: str
    domain: Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class IfHeader:
    kind: str  # "if", "elif", "else"
    test: Expr | None
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class WhileHeader:
    test: Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class AskHeader:
    seat: Expr
    var: str
    domain: Expr
    span: SourceSpan
    secret: bool = False


Header = ForHeader | IfHeader | AskHeader | WhileHeader
