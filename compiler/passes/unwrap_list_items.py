"""Pass `unwrap_list_items`: a list joined with items written out (`hand[p] + [c]`) is written with those
items, not joined with a tuple made of them first; and such a join of a list read as it is and a
few items, short, is handled at once where it is sorted or searched, like the list itself, and
counted against the budget of the move only when longer (docs/optimiser.md).

China (Schacht) adds a card to a hand at every card drawn or taken:

    hand[p] = sorted(hand[p] + [c])

The plain code made a tuple of the one card, joined the two, and counted the joined list against
the budget of the move (a call of the runtime) before sorting it, however short:

    self.hand[p] = tuple(sorted(rt.walk(self, (*self.hand[p], *(c,)), 1, 'rules/china-schacht/base.yaml:484')))

With this pass:

    self.hand[p] = tuple(sorted((*self.hand[p], c) if len(self.hand[p]) <= 15 else rt.walk(...)))

Taken: `+` of two lists, one of them written out with items (`[c]`, `[a, b]`): its items are written
in the join (`(*x, c)`, `(c, *x)`). Where the other is a list lowering reads as it is (a field, an
entity's entry of one, a local: what lowering already handles at once when short), an operation
over each item of the join (a sort, a search) that would be counted at every run is counted only
when the join holds more than SMALL_LIST items, as that list alone would be.

Why it is the same game: `(*x, c)` is the tuple `(*x, *(c,))` is, the items computed once, in the
same order. The join is computed once either way (one branch of the `if` runs); the test reads
the list's length only. The limits of a move are those lowering keeps for a list read as it is:
the work over a short list is proven small and runs unchecked, a longer one is counted as before,
with the same checks of its size (so only a move at the very edge of its budget could tell).
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from .rewrite import map_nodes

NAME = "unwrap_list_items"


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each such join marked (`t.Binary.items_written`): lowering writes it with the items."""
    return map_nodes(program, _marked)


def _marked(e: t.Expr) -> t.Expr:
    if isinstance(e, t.Binary) and e.op == "+" and e.ty.kind == "list" and (_written(e.left) or _written(e.right)):
        return replace(e, items_written=True)
    return e


def _written(e: t.Expr) -> bool:
    """A list written out with items (`[c]`, `[a, b]`)."""
    return isinstance(e, t.Collection) and e.kind == "list" and bool(e.items)
