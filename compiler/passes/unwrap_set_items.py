"""Pass `unwrap_set_items`: a set joined with, or taken, items written out (`card[p] += {t}`) is the set's own
union or difference with those items, not with a set made of them first (docs/optimiser.md).

The plain code of `card[current] -= {tile}` is `self.card[self.current] - frozenset((tile,))`: a
set of one item made, then the difference of two sets made. Mandarin changes a card, the dispenser
or the plain tiles so at every tile drawn, kept, sold, refunded or taken. Here it is
`self.card[self.current].difference((tile,))`, and a union `.union((t,))`: one set made.

Why it is safe: a frozenset's `union` and `difference` of the items of a tuple give the set that
`|` and `-` give with the set of those items, a frozenset (the left operand's type), the items
compared by hash and equality alike; the items are computed once, in order, as the set written out
computed them. The limits of a move are counted on the plain code.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from .rewrite import map_nodes, map_statements

NAME = "unwrap_set_items"


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each such operation marked (`items_written` of `t.Binary` and `t.Assign`): lowering writes it
    with the items."""
    return map_statements(map_nodes(program, _marked), _assignments)


def _marked(e: t.Expr) -> t.Expr:
    if isinstance(e, t.Binary) and e.op in ("+", "-") and e.ty.kind == "set" and _written(e.right):
        return replace(e, items_written=True)
    return e


def _assignments(stmts: tuple[t.Stmt, ...]) -> tuple[t.Stmt, ...]:
    return tuple(replace(s, items_written=True)
                 if isinstance(s, t.Assign) and s.item is None and s.op in ("+=", "-=")
                 and s.target.ty.kind == "set" and _written(s.value) else s for s in stmts)


def _written(e: t.Expr) -> bool:
    """A set written out with items (`{x}`, `{x, y}`)."""
    return isinstance(e, t.Collection) and e.kind == "set" and bool(e.items)
