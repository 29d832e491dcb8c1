"""What an expression computes, as a key: two expressions that compute the same thing have the
same key (`key`). `mask_spot_filters` gives every comprehension of one key the same filter;
`hoist` and `unswitch` compare expressions by it.

A key is built of the nodes' kinds, types and values, of the names of what they read and of the
symbols of the locals they read but do not bind: a symbol is its own part of a key (symbols are
compared by identity, compiler/typed.py `Symbol`: two locals of one name are two symbols), not
its number in memory, which a symbol dropped meanwhile could hand on to another.
"""

from __future__ import annotations

from collections.abc import Hashable

from .. import typed as t
from .walk import clauses


def key(e: t.Expr, bound: dict[t.Symbol, int] | None = None) -> Hashable:
    """What `e` computes, as a value two expressions share when they compute the same thing:
    the same nodes with the same names read, up to the names of the locals they bind themselves
    (`count(x for s in r)` and `count(x for s2 in r)` are one), notes, spans and the forms a pass
    marked for lowering (`t.FORMS`: they compute the same) left out."""
    bound = {} if bound is None else bound
    match e:
        case t.Note():
            return key(e.expr, bound)
        case t.Num() | t.Str() | t.Bool():
            return (type(e).__name__, e.value, str(e.ty))
        case t.Ref():
            return ("ref", bound[e.sym]) if e.sym in bound else ("ref", e.sym)
        case t.Comprehension():
            inner = dict(bound)
            parts: list[Hashable] = ["comp", e.func, str(e.ty)]
            for var, domain, cond in clauses(e):
                parts.append(key(domain, inner))
                inner[var] = len(inner) + 1_000_000  # bound here: by its place, not its name
                parts.append(None if cond is None else key(cond, inner))
            parts.append(key(e.elt, inner))
            return tuple(parts)
    fields: list[Hashable] = [type(e).__name__, str(e.ty)]
    for name in e.__slots__:
        if name in ("ty", "span") or name in t.FORMS:
            continue
        value = getattr(e, name)
        if isinstance(value, tuple) and all(isinstance(v, _EXPR_TYPES) for v in value):
            fields.append(tuple(key(v, bound) for v in value))
        elif isinstance(value, _EXPR_TYPES):
            fields.append(key(value, bound))
        elif isinstance(value, t.Symbol):
            fields.append(value)
        else:
            fields.append(value)
    return tuple(fields)


_EXPR_TYPES = (t.Num, t.Str, t.Bool, t.Ref, t.Invalid, t.DefineCall, t.Builtin, t.PerIndex, t.ListIndex, t.AttrOf,
               t.Collection, t.Comprehension, t.Unary, t.Binary, t.Cond, t.RecordNew, t.RecordField, t.Note)
