"""Pass `find_rows_by_key`: a listing whose first choice walks a definition remembered by value finds
the rows of that choice's values once per listing, by the value's key, not once per value
(docs/optimiser.md).

China (Schacht) lists its placements by the ways to pay from the hand, then the places each pays
for:

    build:
      choose:
        cards: "all_payments(current)"
        space: "[s for s in open_spaces if pays_for(cards, province_of(s))]"

`remember_values` remembers `all_payments(p)` by the hand (`self.hand[p]`), and `index_actions` keeps
a row of interned actions per way to pay (a list of cards: a dictionary by the list made a
tuple). So every listing, for every way to pay, made the tuple, hashed it and looked its row up
(`key0 = tuple(cards); row1 = table.get(key0)`): four or five times a listing, twice a move (the
palaces and the emissaries). Yet the ways to pay are a function of the hand alone, and so are
their rows: this pass remembers, per action, the list of (way to pay, its row) by the key the
definition's value is remembered by, in a table of the board every state shares:

    found_rows = rows.get(self.hand[self.current])
    if found_rows is None:  # (the first listing with this hand: its ways to pay and their rows)
        ...
    for cards, row1 in found_rows:

One look-up by the hand, then the rows in order. A listing is taken when its first choice is
kept in a table of actions by key (`index_actions`: a list of values of an enumeration, made a
tuple), the table has a row per value (a later choice: its actions are in the row, not in the
dictionary), the action's choices can name no ever new values (whose table is emptied when large,
its rows made again), and the first choice walks a definition remembered by value
(`remember_values`) at arguments that are names or numbers (the key is read from them again, never
computed twice).

Why it is the same game: the definition's value is a function of its key alone (`remember_values`),
so the values the first choice walks, in their order, are those the key found the first time,
and the row of each value is the one the dictionary holds for it (a table of actions is only
filled, never emptied, where the choices name no new values). The listing appends the same
actions in the same order; only how the rows are found changes. A table of rows holds at most
`rt.MAX_TABLED` lists, emptied when full, like a table of values; where the key is met again
after that, its rows are found again through the definition, as the first time.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from .index_actions import listed_as


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each action taken annotated (`t.Listing.tabled_rows`); lowering finds its rows by the key
    (compiler/lower/listings.py `rows_lines`)."""
    defines = {d.name: d for d in program.defines}
    return listed_as(program, lambda a: replace(a.listing, tabled_rows=True) if _taken(a, defines) else None)


def _taken(a: t.Action, defines: dict[str, t.Define]) -> bool:
    table = a.listing.table
    if table is None or len(table.levels) < 2 or table.levels[0].how != "key" or not a.choices:
        return False
    first = a.choices[0]
    if first.var.ty.kind != "list" or not isinstance(first.domain, t.DefineCall):
        return False
    return defines[first.domain.define].tabled is not None and all(map(_plain, first.domain.args))


def _plain(e: t.Expr) -> bool:
    """An argument read again at no cost and with no fault: a number, a constant, a value of the
    language (the seat to act)."""
    return isinstance(e, t.Num) or (isinstance(e, t.Ref) and e.sym.kind in ("value", "const"))
