"""Typing, the texts players read: an action's text templates (`{choice}` parts, each shown
as a value of its type is shown) and a `tell`'s text, each part between braces a value written
as a move's text writes a choice of its type."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core.source import SourceSpan, did_you_mean
from .. import ast, ir
from .. import typed as t
from ..typed import Symbol

if TYPE_CHECKING:
    from .exprs import ExprTyper


def tell(x: ExprTyper, s: ast.Tell) -> t.Tell:
    """`tell "{winner} wins the revolt in {k}"`: each part between braces an expression in
    scope here, written as a move's text writes a choice of its type."""
    return told(x, s.parts, s.span, "a told text")


def told(x: ExprTyper, written: tuple[str | ast.Expr, ...], span: SourceSpan, what: str) -> t.Tell:
    """A text of literal parts and expressions (a `tell`'s, a `look:` prompt's or move's), each
    expression in scope here, written as a move's text writes a choice of its type."""
    parts: list[tuple[str, str | None]] = []
    args: list[t.Expr] = []
    for part in written:
        if isinstance(part, str):
            parts.append((part, None))
            continue
        arg = x.expr(part)
        ty = arg.ty.elem if arg.ty.kind == "optional" and arg.ty.elem is not None else arg.ty
        if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind in ("int", "bool", "entity",
                                                                                    "enum", "record"):
            fmt = f"list:{ty.elem.name or ty.elem.kind}"
        elif ty.kind in ("int", "bool", "str", "entity", "enum", "record"):
            fmt = ty.name or ty.kind
        else:
            if not isinstance(arg, t.Invalid):  # (an unknown name: told already)
                x.error(part.span, f"{what} cannot show a value of type {arg.ty}",
                        "show a number, a name (a seat, a spot, a value), or a list of them: `{score[p]}`")
            fmt = "int"
        parts.append(("", fmt))
        args.append(arg)
    return t.Tell(tuple(parts), tuple(args), span)


def text_parts(x: ExprTyper, text: str, a: ir.Action, kinds: dict[str, Symbol | None], span: SourceSpan,
               what: str) -> tuple[list[tuple[str, str | None]], set[str], bool]:
    """A text template of `a` as parts (literal text, or a choice's python name and format kind),
    the choices it names, and whether it names something that is not one of them."""
    parts: list[tuple[str, str | None]] = []
    named: set[str] = set()
    unknown = False
    pos = 0
    for m in re.finditer(r"\{([^{}]*)\}", text):
        if m.start() > pos:
            parts.append((text[pos:m.start()], None))
        sym = kinds.get(m.group(1))
        if sym is None:
            unknown = True
            x.error(span, f"{what} of `{a.name}` names `{{{m.group(1)}}}`, which is not one of its choices",
                    did_you_mean(m.group(1), kinds) or f"choices: {', '.join(kinds) or 'none'}")
        else:
            named.add(m.group(1))
            ty = sym.ty
            if ty.kind == "optional" and ty.elem is not None:  # (`none` is shown as such)
                ty = ty.elem
            fmt = f"list:{ty.elem.name}" if ty.kind in ("list", "set") and ty.elem else (ty.name or ty.kind)
            parts.append((sym.py, fmt))
        pos = m.end()
    if pos < len(text):
        parts.append((text[pos:], None))
    return parts, named, unknown
