"""Pass `set_items`: a set joined with, or taken, items written out (`card[p] += {t}`) is the set's own
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

from .. import typed as t
from ..analysis import Facts
from . import Plan

NAME = "set_items"


def run(program: t.TypedProgram, plan: Plan, facts: Facts) -> tuple[t.TypedProgram, Plan]:
    return program, plan  # (lowering takes the form where it meets it, when the pass is enabled)
