"""The lowered IR: the generated Python as a small tree of statements, each with the rule line it
came from, which lowering (compiler/lower/) and the passes that write code build and the printer
(compiler/pyprint.py) lays out; the template only places what it is given.

Modelled on CPython's `ast` and mypyc's lowered IR: small frozen dataclasses, bodies as tuples of
statements (no depth stored: the printer indents), so that two lowered members compare by value
(`==`). Each statement carries the span of the rule it came from (`span`, printed as the
`# file:line` comment of its first line) and what the passes derived in it (`note`, printed after
the rule line). An `If`'s `elif` and `else` lines have their own.

Expressions are nodes too, modelled on CPython's `ast` (`Name`, `Attribute`, `Call`, `BinOp` ...),
printed by `pyprint.text`. Where the code has parentheses, a node says so (`Paren`, a tuple
display's own): the printer does not guess them from precedence, so that it writes exactly the
text lowering chose. An expression's span (the rule expression it was lowered from) is not part
of its value: two nodes that print the same Python are equal. `Code` is a leaf of text that
lowering no longer builds (tests use it as a leaf, `codegen` still takes one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..core.source import SourceSpan


@dataclass(frozen=True, slots=True)
class Code:
    """One expression (or an assignment's target), as the code that writes it, and the rule
    expression it was lowered from (not printed: each line's comment tells its statement's)."""

    text: str
    span: SourceSpan | None = None


# -- expressions ----------------------------------------------------------------------------
# (`span`: the rule expression a node was lowered from, where lowering knows it; not compared)

@dataclass(frozen=True, slots=True)
class Name:
    """A name: a local, a module constant, `self`, `rt`, a built-in function."""

    id: str
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Constant:
    """A number, a string, `True`, `False` or `None`: printed with `repr`, or as `written`."""

    value: int | str | bool | None
    written: str | None = None
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Attribute:
    """`value.attr`."""

    value: Expr
    attr: str
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Subscript:
    """`value[index]`."""

    value: Expr
    index: Expr
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Slice:
    """`lower:upper`, an index of a subscript (either may be left out: `xs[:]`, a copy)."""

    lower: Expr | None = None
    upper: Expr | None = None
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Starred:
    """`*value`, in a call's arguments or a display."""

    value: Expr
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Keyword:
    """`arg=value` in a call (`**value` when `arg` is None)."""

    arg: str | None
    value: Expr


@dataclass(frozen=True, slots=True)
class Call:
    """`func(args..., keywords...)`; an argument may be `Starred`, or a bare `GeneratorExp` (its only one)."""

    func: Expr
    args: tuple[Expr, ...] = ()
    keywords: tuple[Keyword, ...] = ()
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class UnaryOp:
    """`not x`, `-x`, `~x` (`op`: "not", "-", "~")."""

    op: str
    operand: Expr
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class BinOp:
    """`left op right` (`+ - * // % & | ^ << >>`), without parentheses of its own."""

    left: Expr
    op: str
    right: Expr
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class BoolOp:
    """`a and b and c` (`op`: "and" or "or")."""

    op: str
    values: tuple[Expr, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Compare:
    """`left op1 c1 op2 c2 ...` (a chain; `ops`: "==", "<", "in", "not in", "is", "is not" ...)."""

    left: Expr
    ops: tuple[str, ...]
    comparators: tuple[Expr, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class IfExp:
    """`body if test else orelse`, without parentheses of its own."""

    body: Expr
    test: Expr
    orelse: Expr
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Tuple:
    """A tuple display, `(a, b)`, `(a,)`, `()`: with its parentheses, or without them where
    lowering writes none (`parenthesised`: a loop's or an assignment's targets, `for s, m in ...`)."""

    elts: tuple[Expr, ...]
    span: SourceSpan | None = field(default=None, compare=False)
    parenthesised: bool = True


@dataclass(frozen=True, slots=True)
class List:
    """A list display, `[a, b]`."""

    elts: tuple[Expr, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Set:
    """A set display, `{a, b}` (never empty: `set()` is a call)."""

    elts: tuple[Expr, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Dict:
    """A dict display, `{k: v, ...}`."""

    keys: tuple[Expr, ...]
    values: tuple[Expr, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Comprehension:
    """One `for target in iter` clause of a comprehension, with its `if`s."""

    target: Expr
    iter: Expr
    ifs: tuple[Expr, ...] = ()


@dataclass(frozen=True, slots=True)
class ListComp:
    """`[elt for ... if ...]`."""

    elt: Expr
    generators: tuple[Comprehension, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SetComp:
    """`{elt for ... if ...}`."""

    elt: Expr
    generators: tuple[Comprehension, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class DictComp:
    """`{key: value for ... if ...}`."""

    key: Expr
    value: Expr
    generators: tuple[Comprehension, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class GeneratorExp:
    """`elt for ... if ...`, printed without parentheses: a call's only argument, or in a `Paren`."""

    elt: Expr
    generators: tuple[Comprehension, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Yield:
    """`yield value` (`yield from value` when `from_`), printed without parentheses."""

    value: Expr
    from_: bool = False
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class NamedExpr:
    """`target := value`, printed without parentheses (put it in a `Paren`)."""

    target: Name
    value: Expr
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class JoinedStr:
    """An f-string, `f"text{value}..."`: its literal parts (text with no quote, backslash nor brace)
    and the expressions between them (none holding a quote, backslash, brace, `:` or `!`)."""

    values: tuple[str | Expr, ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Paren:
    """`(value)`: the parentheses lowering writes, said where they are."""

    value: Expr
    span: SourceSpan | None = field(default=None, compare=False)


Expr = (Code | Name | Constant | Attribute | Subscript | Slice | Starred | Call | UnaryOp | BinOp | BoolOp | Compare
        | IfExp | Tuple | List | Set | Dict | ListComp | SetComp | DictComp | GeneratorExp | Yield | NamedExpr
        | JoinedStr | Paren)
EXPRESSIONS = (Code, Name, Constant, Attribute, Subscript, Slice, Starred, Call, UnaryOp, BinOp, BoolOp, Compare, IfExp,
               Tuple, List, Set, Dict, ListComp, SetComp, DictComp, GeneratorExp, Yield, NamedExpr, JoinedStr,
               Paren)


@dataclass(frozen=True, slots=True)
class Assign:
    """`target = value`, or `a = b = value` (several targets), or `name: annotation = value`."""

    targets: tuple[Expr, ...]
    value: Expr
    annotation: str | None = None
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class AugAssign:
    """`target op= value` (`op`: `+`, `-`, `|`, `&` ...)."""

    target: Expr
    op: str
    value: Expr
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class ExprStmt:
    """An expression run for what it does (a call; `yield from` a call)."""

    value: Expr
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Return:
    value: Expr | None = None
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
class Continue:
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class While:
    """`while test:` (a rule's `while`: its test charges each round to the move's budget)."""

    test: Expr
    body: Block
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

    target: Expr
    iterable: Expr
    body: Block
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Elif:
    """An `elif` of an `If`, with its own line's rule and notes."""

    test: Expr
    body: Block
    span: SourceSpan | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class If:
    """`if test:` its body, then each `elif`, then `else:` its `orelse` (none when empty)."""

    test: Expr
    body: Block
    elifs: tuple[Elif, ...] = ()
    orelse: Block = ()
    span: SourceSpan | None = None
    note: str = ""
    else_span: SourceSpan | None = None
    else_note: str = ""


Stmt = Assign | AugAssign | ExprStmt | Return | Pass | Break | Continue | Comment | For | If | While
Block = tuple[Stmt, ...]


def subexpressions(e: Expr) -> Iterator[Expr]:
    """The expressions `e` holds, directly (a call's function and arguments, a keyword's value,
    a comprehension clause's target, list and tests)."""
    for f in fields(e):
        value = getattr(e, f.name)
        for v in value if isinstance(value, tuple) else (value,):
            if isinstance(v, Keyword):
                yield v.value
            elif isinstance(v, Comprehension):
                yield v.target
                yield v.iter
                yield from v.ifs
            elif isinstance(v, EXPRESSIONS):
                yield v


def walk(e: Expr) -> Iterator[Expr]:
    """`e` and every expression inside it, outside in."""
    yield e
    for sub in subexpressions(e):
        yield from walk(sub)


def each_operand(v: object, f: Callable[[Expr], Expr]) -> object:
    """The value of a field of an expression with `f` applied to the expressions it holds directly:
    each item of a tuple, a keyword's value; a comprehension clause as it is (its names are its own).
    The same object where `f` changed nothing (passes `inline_returns`, `share_values`)."""
    if isinstance(v, tuple):
        items = tuple(each_operand(x, f) for x in v)
        return v if all(a is b for a, b in zip(items, v, strict=True)) else items
    if isinstance(v, Keyword):
        value = f(v.value)
        return v if value is v.value else replace(v, value=value)
    if isinstance(v, Comprehension):
        return v
    if isinstance(v, EXPRESSIONS):
        return f(v)
    return v


def substituted(e: Expr, holes: Mapping[str, Expr]) -> Expr:
    """`e` with each name that `holes` holds replaced by its expression (a template filled in)."""
    if isinstance(e, Name):
        return holes.get(e.id, e)

    def each(v: object) -> object:
        if isinstance(v, tuple):
            return tuple(each(x) for x in v)
        if isinstance(v, Keyword):
            return Keyword(v.arg, substituted(v.value, holes))
        if isinstance(v, Comprehension):
            return Comprehension(substituted(v.target, holes), substituted(v.iter, holes),
                                 tuple(substituted(c, holes) for c in v.ifs))
        return substituted(v, holes) if isinstance(v, EXPRESSIONS) else v
    changes: dict[str, Any] = {f.name: each(getattr(e, f.name)) for f in fields(e) if f.name != "span"}
    return replace(e, **changes)


def dotted(py: str, span: SourceSpan | None = None) -> Expr:
    """A name as lowering writes it (`x`, `self.hand`, `self.board.spots`): a `Name` and its
    attributes. (Any other text is a compiler error: `expressions.value_code` reads a value's.)"""
    first, *rest = py.split(".")
    if not first.isidentifier() or not all(a.isidentifier() for a in rest):
        raise ValueError(f"not a dotted name: {py!r}")
    node: Expr = Name(first, span if not rest else None)
    for k, attr in enumerate(rest):
        node = Attribute(node, attr, span if k == len(rest) - 1 else None)
    return node


def rt(function: str, *args: Expr, keywords: tuple[Keyword, ...] = ()) -> Call:
    """A call of a function of the runtime, `rt.function(args...)`."""
    return Call(Attribute(Name("rt"), function), args, keywords)


def assign(target: Expr, value: Expr, span: SourceSpan | None = None, note: str = "",
           annotation: str | None = None) -> Assign:
    """`target = value` (the common case)."""
    return Assign((target,), value, annotation, span, note)


def call(code: Expr, span: SourceSpan | None = None, note: str = "") -> ExprStmt:
    """A statement that is one expression (a call)."""
    return ExprStmt(code, span, note)


def if_(test: Expr, *body: Stmt, span: SourceSpan | None = None, note: str = "") -> If:
    """`if test:` and its body, without `elif` nor `else`."""
    return If(test, body, span=span, note=note)


def spanned(stmts: Block, span: SourceSpan | None) -> Block:
    """`stmts` with every line of theirs (nested ones, `elif` and `else` lines too) told by `span`."""
    out: list[Stmt] = []
    for s in stmts:
        if isinstance(s, For | While):
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
    """The blocks a statement holds: a `for`'s or `while`'s body; an `if`'s body, each `elif`'s and its `else`."""
    if isinstance(s, For | While):
        return (s.body,)
    if isinstance(s, If):
        return (s.body, *(e.body for e in s.elifs), s.orelse)
    return ()


def statements(body: Block) -> Iterator[Stmt]:
    """Every statement of `body`, each before those of its blocks (inner_blocks), in order."""
    for s in body:
        yield s
        for inner in inner_blocks(s):
            yield from statements(inner)


def declared(body: Block) -> Iterator[str]:
    """The annotation of each local `body` declares (`x: T = ...`), nested ones too."""
    for s in statements(body):
        if isinstance(s, Assign) and s.annotation is not None:
            yield s.annotation
