"""Stage 3, parse: expression and effect strings to AST nodes, with the lark grammar.

`parse(text, span, kind)` is the one entry point. Positions inside a string are shifted by the
span of the YAML scalar that held it, so every node's span points into the rule file.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from typing import Any, Literal

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta

from ..core.source import Diagnostic, SourceSpan
from . import ast

Kind = Literal["expr", "stmt", "header"]


class ParseError(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@functools.cache
def _parser() -> Lark:
    return Lark.open_from_package(
        "rulewright.grammar",
        "rules.lark",
        parser="lalr",
        start=["expr", "stmt", "header"],
        propagate_positions=True,
        maybe_placeholders=True,
        strict=True,
    )


_TOKEN_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "$END": "the end of the text",
}


def _describe_expected(names: set[str]) -> str:
    parser = _parser()
    words: set[str] = set()
    for name in names:
        if name in _TOKEN_WORDS:
            words.add(_TOKEN_WORDS[name])
            continue
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            words.add(name.lower())
            continue
        words.add(f"`{pattern.value}`" if pattern.type == "str" else name.lower())
    listed = sorted(words)
    if len(listed) > 6:
        listed = listed[:6] + ["..."]
    return ", ".join(listed)


# Deeper expressions are refused: the builder, the checker and Python's own parser of the
# generated code all recurse once (or more) per level.
MAX_DEPTH = 50


# Texts parsed before, with where they stand, and their trees: a rule set is compiled more than
# once in one process (its variants, `base()` versions, the optimiser's comparisons, the tests),
# and parsing is about half of a compilation. The key is the whole input (the text, its span in
# its file, what it is) and the nodes are frozen, so a tree is shared, never changed; a text that
# does not parse raises each time. Bounded by the characters kept: a tree takes some 46 bytes a
# character, so 500,000 characters are about 25 MB at worst (every bundled rule set's texts
# together: 1,157 texts, 38,910 characters, 1.8 MB); the least recently used go first.
PARSED_CHARS_KEPT = 500_000
_parsed: OrderedDict[tuple[str, SourceSpan, Kind], Any] = OrderedDict()
_parsed_chars = 0
_parsed_lock = threading.Lock()  # the language server checks off its request thread


def parse(text: str, span: SourceSpan, kind: Kind) -> Any:
    """Parse `text` as `kind`; returns an ast.Expr, ast.Stmt or ast.Header."""
    global _parsed_chars
    key = (text, span, kind)
    with _parsed_lock:
        tree = _parsed.get(key)
        if tree is not None:
            _parsed.move_to_end(key)
            return tree
    tree = _parse(text, span, kind)
    with _parsed_lock:
        if key not in _parsed:
            _parsed[key] = tree
            _parsed_chars += len(text) + 1
        while _parsed_chars > PARSED_CHARS_KEPT:
            (oldest, _, _), _ = _parsed.popitem(last=False)
            _parsed_chars -= len(oldest) + 1
    return tree


def _parse(text: str, span: SourceSpan, kind: Kind) -> Any:
    builder = _Builder(span)
    try:
        tree = _parser().parse(text, start=kind)
    except UnexpectedInput as exc:
        raise ParseError(_diagnose(exc, text, span, kind)) from None
    deepest = _too_deep(tree)
    if deepest is not None:
        raise ParseError(Diagnostic(_meta_span(span, deepest.meta),
                                    f"expression nested too deeply (more than {MAX_DEPTH} levels)",
                                    "split it with `define:` or `let`"))
    try:
        return builder.transform(tree)
    except VisitError as exc:  # an error raised inside the builder
        if isinstance(exc.orig_exc, ParseError):
            raise exc.orig_exc from None
        raise


def _too_deep(tree: Tree[Token]) -> Tree[Token] | None:
    """The first subtree more than MAX_DEPTH levels down, found without recursion."""
    todo: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_DEPTH:
            return node
        todo.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None


def _diagnose(exc: UnexpectedInput, text: str, span: SourceSpan, kind: Kind) -> Diagnostic:
    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    what = {"expr": "expression", "stmt": "effect", "header": "block header"}[kind]
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream if exc.pos_in_stream is not None else -1
        char = text[pos] if 0 <= pos < len(text) else "?"
        message = f"syntax error in {what}: unexpected character `{char}`"
        hint = "names are lowercase letters, digits and `_`" if char.isalpha() else None
    elif isinstance(exc, UnexpectedEOF):
        message = f"syntax error in {what}: it ends too early"
        hint = f"expected {_describe_expected(set(exc.expected))}" if exc.expected else None
        line, col = text.count("\n") + 1, len(text.rsplit("\n", 1)[-1]) + 1
    elif isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END":
            message = f"syntax error in {what}: it ends too early"
            line, col = text.count("\n") + 1, len(text.rsplit("\n", 1)[-1]) + 1
        else:
            message = f"syntax error in {what}: unexpected `{token}`"
        hint = f"expected {_describe_expected(set(exc.accepts or exc.expected))}"
        if kind == "stmt" and token.type == "EQUAL":
            hint = "to define a local value write `let name = ...`"
    else:  # pragma: no cover - lark has no other kinds
        message, hint = f"syntax error in {what}", None
    return Diagnostic(span.shifted(line, col, line, col + 1), message, hint)


def _meta_span(base: SourceSpan, meta: Meta) -> SourceSpan:
    if getattr(meta, "empty", True):
        return base
    return base.shifted(meta.line, meta.column, meta.end_line, meta.end_column)


_MAX_DIGITS = 100


@v_args(meta=True)
class _Builder(Transformer[Token, Any]):
    """Builds ast nodes; one method per grammar alias."""

    def __init__(self, base: SourceSpan) -> None:
        super().__init__()
        self.base = base

    def _s(self, meta: Meta) -> SourceSpan:
        return _meta_span(self.base, meta)

    # -- expressions
    def number(self, meta: Meta, c: list[Token]) -> ast.Num:
        if len(c[0]) > _MAX_DIGITS:  # int() itself refuses more than 4300 digits
            raise ParseError(Diagnostic(self._s(meta), f"number too long (more than {_MAX_DIGITS} digits)"))
        return ast.Num(int(c[0]), self._s(meta))

    def string(self, meta: Meta, c: list[Token]) -> ast.Str:
        return ast.Str(str(c[0])[1:-1], self._s(meta))

    def true(self, meta: Meta, c: list[Any]) -> ast.BoolLit:
        return ast.BoolLit(True, self._s(meta))

    def false(self, meta: Meta, c: list[Any]) -> ast.BoolLit:
        return ast.BoolLit(False, self._s(meta))

    def name(self, meta: Meta, c: list[Token]) -> ast.Name:
        return ast.Name(str(c[0]), self._s(meta))

    def attr(self, meta: Meta, c: list[Any]) -> ast.Attr:
        return ast.Attr(c[0], str(c[1]), self._s(meta))

    def index(self, meta: Meta, c: list[Any]) -> ast.Index:
        return ast.Index(c[0], c[1], self._s(meta))

    def call(self, meta: Meta, c: list[Any]) -> ast.Call:
        args: list[ast.Expr] = []
        keywords: list[ast.Keyword] = []
        for a in c[1] or []:
            if isinstance(a, ast.Keyword):
                keywords.append(a)
            elif keywords:
                raise ParseError(Diagnostic(a.span, "a positional argument cannot follow a keyword argument"))
            else:
                args.append(a)
        return ast.Call(str(c[0]), tuple(args), tuple(keywords), self._s(meta))

    def arguments(self, meta: Meta, c: list[Any]) -> list[Any]:
        return c

    def items(self, meta: Meta, c: list[Any]) -> list[Any]:
        return [x for x in c if x is not None]

    def keyword(self, meta: Meta, c: list[Any]) -> ast.Keyword:
        return ast.Keyword(str(c[0]), c[1], self._s(meta))

    def aggregate(self, meta: Meta, c: list[Any]) -> ast.Comprehension:
        return ast.Comprehension(str(c[0]), c[1], str(c[2]), c[3], c[4], self._s(meta), tuple(c[5:]))

    def listcomp(self, meta: Meta, c: list[Any]) -> ast.Comprehension:
        return ast.Comprehension("list", c[0], str(c[1]), c[2], c[3], self._s(meta), tuple(c[4:]))

    def comp_clause(self, meta: Meta, c: list[Any]) -> tuple[str, ast.Expr, ast.Expr | None]:
        return str(c[0]), c[1], c[2]

    def cond(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.Cond(c[1], c[0], c[2], self._s(meta))

    def not_(self, meta: Meta, c: list[Any]) -> ast.Unary:
        return ast.Unary("not", c[0], self._s(meta))

    def neg(self, meta: Meta, c: list[Any]) -> ast.Unary:
        return ast.Unary("-", c[0], self._s(meta))

    def _binary(self, op: str, meta: Meta, c: list[Any]) -> ast.Binary:
        return ast.Binary(op, c[0], c[1], self._s(meta))

    def or_(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("or", meta, c)

    def and_(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("and", meta, c)

    def eq(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("==", meta, c)

    def ne(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("!=", meta, c)

    def lt(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("<", meta, c)

    def le(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("<=", meta, c)

    def gt(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary(">", meta, c)

    def ge(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary(">=", meta, c)

    def in_(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("in", meta, c)

    def not_in(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("not in", meta, c)

    def add(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("+", meta, c)

    def sub(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("-", meta, c)

    def mul(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("*", meta, c)

    def floordiv(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("//", meta, c)

    def mod(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return self._binary("%", meta, c)

    # -- statements
    def target_name(self, meta: Meta, c: list[Any]) -> ast.Target:
        return ast.Target(str(c[0]), None, self._s(meta))

    def target_index(self, meta: Meta, c: list[Any]) -> ast.Target:
        return ast.Target(str(c[0]), c[1], self._s(meta))

    def target_item(self, meta: Meta, c: list[Any]) -> ast.Target:
        return ast.Target(str(c[0]), c[1], self._s(meta), c[2])

    def assign(self, meta: Meta, c: list[Any]) -> ast.Assign:
        return ast.Assign(c[0], "=", c[1], self._s(meta))

    def add_assign(self, meta: Meta, c: list[Any]) -> ast.Assign:
        return ast.Assign(c[0], "+=", c[1], self._s(meta))

    def sub_assign(self, meta: Meta, c: list[Any]) -> ast.Assign:
        return ast.Assign(c[0], "-=", c[1], self._s(meta))

    def let(self, meta: Meta, c: list[Any]) -> ast.Let:
        return ast.Let(str(c[0]), c[1], self._s(meta))

    def call_stmt(self, meta: Meta, c: list[Any]) -> ast.CallStmt:
        call = self.call(meta, c)
        return ast.CallStmt(call, call.span)

    def goto(self, meta: Meta, c: list[Any]) -> ast.Goto:
        return ast.Goto(str(c[0]), self._s(meta))

    def end_turn(self, meta: Meta, c: list[Any]) -> ast.EndTurn:
        return ast.EndTurn(self._s(meta))

    def pass_(self, meta: Meta, c: list[Any]) -> ast.Pass:
        return ast.Pass(self._s(meta))

    def break_(self, meta: Meta, c: list[Any]) -> ast.Break:
        return ast.Break(self._s(meta))

    def continue_(self, meta: Meta, c: list[Any]) -> ast.Continue:
        return ast.Continue(self._s(meta))

    def tell(self, meta: Meta, c: list[Token]) -> ast.Tell:
        """`tell "..."`: its text cut into literal parts and the expressions between braces, each
        parsed where it stands in the rule file (a move's `text:` names its choices alike)."""
        token = c[0]
        raw = str(token)[1:-1]
        line, col = token.line or 1, (token.column or 1) + 1  # where the text starts, inside the quotes
        parts: list[str | ast.Expr] = []
        pos = 0
        for m in re.finditer(r"\{([^{}]*)\}", raw):
            parts.extend(self._told_literal(raw[pos:m.start()], line, col + pos))
            start = col + m.start(1)
            inner = self.base.shifted(line, start, line, start + max(len(m.group(1)), 1))
            if not m.group(1).strip():
                raise ParseError(Diagnostic(inner, "`{}` in a told text names nothing",
                                            "write a name between the braces: `{winner}`"))
            parts.append(parse(m.group(1), inner, "expr"))
            pos = m.end()
        parts.extend(self._told_literal(raw[pos:], line, col + pos))
        return ast.Tell(tuple(parts), self._s(meta))

    def _told_literal(self, text: str, line: int, col: int) -> list[str | ast.Expr]:
        """A literal part of a told text; a brace left alone in it is an error."""
        for i, char in enumerate(text):
            if char in "{}":
                raise ParseError(Diagnostic(self.base.shifted(line, col + i, line, col + i + 1),
                                            f"a lone `{char}` in a told text",
                                            "braces hold a name: `{winner} wins`"))
        return [text] if text else []

    # -- headers
    def for_header(self, meta: Meta, c: list[Any]) -> ast.ForHeader:
        return ast.ForHeader(str(c[0]), c[1], self._s(meta))

    def if_header(self, meta: Meta, c: list[Any]) -> ast.IfHeader:
        return ast.IfHeader("if", c[0], self._s(meta))

    def while_header(self, meta: Meta, c: list[Any]) -> ast.WhileHeader:
        return ast.WhileHeader(c[0], self._s(meta))

    def elif_header(self, meta: Meta, c: list[Any]) -> ast.IfHeader:
        return ast.IfHeader("elif", c[0], self._s(meta))

    def else_header(self, meta: Meta, c: list[Any]) -> ast.IfHeader:
        return ast.IfHeader("else", None, self._s(meta))

    def ask_header(self, meta: Meta, c: list[Any]) -> ast.AskHeader:
        return ast.AskHeader(c[0], str(c[2]), c[3], self._s(meta), secret=c[1] is not None)

    # -- last, as their names hide the built-in `list` and `set` from the annotations after them
    def set(self, meta: Meta, c: list[Any]) -> ast.SetLit:
        return ast.SetLit(tuple(c[0] or ()), self._s(meta))

    def list(self, meta: Meta, c: list[Any]) -> ast.ListLit:
        return ast.ListLit(tuple(c[0] or ()), self._s(meta))
