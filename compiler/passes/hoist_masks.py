"""Pass `hoist_masks`: the masks a later choice of a listing joins the same way for every item of
the choices before it are joined once, before the listing's loops (docs/optimiser.md).

A listing walks its choices one inside the other, so the domain of a later choice is computed once
per item of the choices before it. China (Schacht) lists its palace placements per way to pay:

    cards: "all_payments(current)"
    space: "[s for s in open_spaces if pays_for(cards, province_of(s))]"

and `mask_spot_filters` makes the spaces from bit masks: the free spaces' mask and the open provinces'
groups (`open_spaces`), joined, then the groups of the colours `cards` pays for. The first part
reads nothing the payment changes, yet it was joined again for every payment. This pass finds,
in the domain of every choice after the first, each list `mask_spot_filters` makes whose joined part
(the masks kept beside the fields, and the groups of `key in L` tests, before the first test
computed per key value: mask_spot_filters.joined_terms) reads no local at all: only the state, the
board and constants, which listing does not change, and marks it (`t.Comprehension.joined_once`).
Lowering joins it once, in a local of the listing (`joined0`, before its loops), and the choice's
list is made from that local.

Why it is the same game: the joined masks are computed from what the listing never changes (the
state is only read while actions are listed; a local of the rules is the only thing that varies
from item to item, and the part reads none), so their value is the same for every item. What
differs is that they are joined once even when the earlier choice has no item at all: they
cannot fail (a kept mask, a table of the board, a `key in L` test whose L cannot fail,
`mask_spot_filters` takes no other in that part), and charge nothing (the limits of a move are counted
on the plain code, as for `mask_spot_filters`).
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from .mask_spot_filters import among, joined_terms
from .rewrite import free_locals, map_expression


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each such list of a later choice marked (`t.Comprehension.joined_once`)."""

    def mark(e: t.Expr) -> t.Expr:
        return replace(e, joined_once=True) if isinstance(e, t.Comprehension) and invariant(e) else e

    actions = []
    for a in program.actions:  # (the lists inside first)
        choices = (*a.choices[:1], *(replace(c, domain=map_expression(c.domain, mark)) for c in a.choices[1:]))
        same = all(new.domain is old.domain for new, old in zip(choices, a.choices, strict=True))
        actions.append(a if same else replace(a, choices=choices))
    if all(new is old for new, old in zip(actions, program.actions, strict=True)):
        return program
    return replace(program, actions=tuple(actions))


def invariant(e: t.Comprehension) -> bool:
    """Whether `e` is a list `mask_spot_filters` makes whose joined part has something to join beside
    the board's mask and reads no local."""
    found = e.spot_filter
    if found is None:
        return False
    terms = joined_terms(found)
    lists = [among(term) for term in terms if term.mask is None]
    return bool(terms) and all(lst is not None and not free_locals(lst) for lst in lists)
