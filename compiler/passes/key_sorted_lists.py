"""Pass `key_sorted_lists`: a listing remembered by a list that the rules keep sorted (pass
`remember_listings`) is keyed by the list itself, not by the set of its items (docs/optimiser.md).

China (Schacht) lists at every turn which card of the hand to exchange, remembered by the colours
the hand holds:

    listed_key = frozenset(self.hand[self.current])

A set made of the hand, some 75 ns, for a look-up of some 20. Every assignment of the hand keeps it
sorted (`hand[p] = sorted(hand[p] + [c])`, `hand[current] = without(hand[current], card)`), so a
hand's tuple is already one of few (56 of three cards or fewer, against 31 sets; the face-up row,
which is laid out in the order drawn, has 781 orders): it is its own key.

    listed_key = self.hand[self.current]

Taken: a list keyed by the set of its items (read only through membership) that is a field, or a
field per entity, of a list type whose start is a list of at most one item, and every assignment
of which, anywhere in the rules (the setup, procedures, actions, triggers, phases' starts), gives
it a list sorted (`sorted(...)`), a list of at most one item, the field itself or an entry of it,
or `without(...)` of one of those (a sorted list less one item is sorted).

Why it is the same game: what the listing lists is a function of the set of the list's items
(`remember_listings`), so of the list itself: two equal lists hold the same items. The key tells
apart lists that hold the same items in another order or number, which only makes more keys met
(a state restored or a scenario's position may hold a hand in any order: a key of its own, listed
the plain way the first time). Nothing else changes: the same actions, the same charges of the
budget, before the table.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import bare
from .index_actions import listed_as
from .remember_listings import described


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """The keys of each listing remembered by value (`t.Listing.remembered`) that the rules keep
    sorted made the list itself."""
    if not any(a.listing.remembered is not None for a in program.actions):
        return program
    kept = kept_sorted(program)

    def how(a: t.Action) -> t.Listing | None:
        listed = a.listing.remembered
        if listed is None:
            return None
        codes = frozenset(key for key in listed.keys if key.member and key.field.name in kept)
        if not codes:
            return None
        keys = tuple(replace(key, member=key.member and key not in codes) for key in listed.keys)
        return replace(a.listing, remembered=replace(listed, keys=keys, what=described(listed.keys, listed.words,
                                                                                        codes)))

    return listed_as(program, how)


def kept_sorted(program: t.TypedProgram) -> frozenset[str]:
    """The fields (their names) of a list type that their start and every assignment of the rules
    keep sorted (of those the rules assign)."""
    fields = {f.decl.name for f in program.fields if f.decl.type.kind == "list" and _sorted(f.init, f.decl.name)}
    assigned: set[str] = set()
    bodies = [program.setup, *(p.body for p in program.procedures), *(trig.effect for trig in program.triggers),
              *(ph.start for ph in program.phases), *(a.effect for a in program.actions)]
    for body in bodies:
        for s in t.statements(body):
            if isinstance(s, t.Assign) and s.target.kind in ("field", "perfield") and s.target.name in fields:
                assigned.add(s.target.name)
                if s.op != "=" or s.item is not None or not _sorted(s.value, s.target.name):
                    fields.discard(s.target.name)
    return frozenset(assigned & fields)


def _sorted(e: t.Expr, name: str) -> bool:
    """Whether `e`, assigned to field `name` that is kept sorted, is a sorted list."""
    e = bare(e)
    match e:
        case t.Builtin(func="sorted"):
            return True
        case t.Builtin(func="without", args=(items, _)):
            return _sorted(items, name)
        case t.Ref(sym=sym):
            return sym.kind in ("field", "perfield") and sym.name == name
        case t.PerIndex(field=sym):
            return sym.name == name
    return _short(e)


def _short(e: t.Expr) -> bool:
    """A list written out with at most one item: sorted whatever it holds."""
    e = bare(e)
    return isinstance(e, t.Collection) and e.kind == "list" and len(e.items) <= 1

