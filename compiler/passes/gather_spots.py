"""Pass `gather_spots`: the actions of a listing's last choice, a spot made from bit masks, gathered a
byte of the mask at a time, and the tests of that choice that read only the earlier choices
computed once per value of them (docs/optimiser.md).

China (Schacht) lists its palace placements per way to pay:

    cards: "all_payments(current)"
    space: "[s for s in open_spaces if pays_for(cards, province_of(s))]"

`mask_spot_filters` makes the spaces from masks (the free spaces of the open provinces, joined once
before the loops by `hoist_masks`, then the groups of the colours `cards` pays for, the test
computed once per colour) and `index_actions` finds each action in a row of interned actions per
payment, by spot. Per payment and listing, the colours' test was computed again for each of the
five colours, the mask's spots made into a list, and each spot's action found in the row and
appended. The test reads nothing but `cards` and the colour: for a given payment it passes the
same colours in every state on the board. With this pass the row of the last choice is an
`rt.SpotRow` (runtime/listing.py): it keeps the joined groups of such a test once computed
(`fixed`), and the actions of a mask's spots, made a byte of the mask at a time, from tuples of
the actions of each value of each byte, made the first time they are met; the actions of the
masks it met last it keeps whole, by the mask (`by_mask`, at most `rt.MASKS_KEPT`), read in place
by the listing: one look-up for a mask met before.

Taken: an action listed through tables per board (`index_actions`) of two choices or more, whose
last choice is a spot indexed in its row and whose domain is a list `mask_spot_filters` makes. A test
is kept per row (`fixed`) only when it reads nothing but its key, the earlier choices, numbers,
truth values, texts, constants, `none`, operators, items and lengths of those (no field, option,
seat, definition or other built-in).

Why it is the same game: the spots are those of the same masks joined in the same order, and each
test is computed only while some spot is left, as `board.spots_of` computes them; the actions
appended are the row's interned actions of those spots in spot order (a mask's bits are in spot
order, bytes from the lowest), the order the plain listing appends them (those kept by mask were
made so). A test kept per row is a function of the row's earlier choices and the board's groups
alone (the row belongs to one board and one value of the earlier choices), so its mask is the one
the walk would compute again; one that fails raises before anything is kept, and so fails again
wherever the walk would compute it. The limits of a move are counted on the plain code, as for
`mask_spot_filters`.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import bare, nodes
from .index_actions import listed_as

# the nodes a test kept per row may be made of (beside the locals it may read)
_PURE = (t.Num, t.Str, t.Bool, t.Binary, t.Unary, t.Cond, t.ListIndex, t.Note, t.Collection, t.RecordField)


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each action taken annotated with the tests of its filter kept per row (`t.Listing.spot_row`);
    lowering gathers its row (compiler/lower/listings.py `gathered_spots`)."""

    def how(a: t.Action) -> t.Listing | None:
        kept = _kept(a)
        return None if kept is None else replace(a.listing, spot_row=kept)

    return listed_as(program, how)


def _kept(a: t.Action) -> tuple[int, ...] | None:
    """The positions, among the tests of the filter of the last choice's spots, of those kept per
    row, if the pass takes the action; else None."""
    table = a.listing.table
    if table is None or len(a.choices) < 2 or table.levels[-1].how != "index":
        return None
    last = a.choices[-1]
    domain = bare(last.domain)
    if not (last.var.ty.kind == "entity" and last.var.ty.name == "spot" and isinstance(domain, t.Comprehension)):
        return None
    found = domain.spot_filter
    if found is None:
        return None
    earlier = tuple(c.var for c in a.choices[:-1])
    return tuple(k for k, term in enumerate(found.terms) if fixed(term, earlier))


def fixed(term: t.FilterTerm, earlier: tuple[t.Symbol, ...]) -> bool:
    """Whether a key test of a filter reads, beside its key, only the earlier choices `earlier`
    (and what no state changes): its mask is then the same for every state on the board."""
    if term.mask is not None or term.test is None:
        return False
    allowed = {term.var, term.mask_var, *earlier}
    for n in nodes(term.test):
        if isinstance(n, t.Ref):
            if not (n.sym in allowed or n.sym.kind == "const" or n.sym.kind == "value" and n.sym.name == "none"):
                return False
        elif not (isinstance(n, _PURE) or isinstance(n, t.Builtin) and n.func == "len"):
            return False
    return True
