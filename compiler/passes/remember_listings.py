"""Pass `remember_listings`: a listing whose actions are a function of a few small values of the game
(a hand of cards, the face-up row) is remembered by those values, in a table of the board every
state shares, and its list appended whole (docs/optimiser.md).

China (Schacht) lists, at most moves, which card of the hand to exchange and for which face-up
card, or which face-up card to take:

    exchange_face_up:
      card: "[c for c in colour if c in hand[current]]"
      taken: "[c for c in colour if c in face_up]"
    take_face_up:
      taken: "[c for c in colour if c in face_up]"

Each listing tested the five colours against the hand and the row, and found and appended a
dozen interned actions. Yet what it lists depends on nothing but the hand and the row, and on
those only through which colours they hold: lowering remembers the list by that key
(`board.tables.values`, as pass `remember_values` remembers a definition by its hand), computes it
the plain way the first time a key is met, and appends it whole after that:

    listed = self.board.tables.values.get('listing exchange_face_up') or ...
    listed_key = (frozenset(self.hand[self.current]), frozenset(self.face_up))
    listed_actions = listed.get(listed_key)
    if listed_actions is None:
        listed_actions = []
        ... (the plain listing, appending to `listed_actions`)
        rt.remember(listed, listed_key, listed_actions, self.board)
    actions += listed_actions

Taken: an action listed through tables per board (`index_actions`) whose every choice is indexed
by a value the board or the declarations number (its interned actions are never forgotten); not
one whose last choice `gather_spots` gathers; whose choices' lists read of the game only a few values
(at most MAX_KEYS), each a field with one value or one entity's entry of a field per entity at
`current`, `opponent` or a constant, whose value is a list or set of values of an enumeration (or
truth values), or one such value: few in a game; and otherwise the earlier choices, locals they
bind themselves, numbers, constants, the enumerations, and built-ins that read nothing of the
state but the board. No definition's call, no option, no seat or count of players, no chance, no
value that can fail (rewrite.can_fail). A list read only on the right of `in` and `not in` is
keyed by the set of its items (`frozenset`): which of them it holds is all such a listing can
tell of it, and there are far fewer sets than orders (the face-up row: 32 against 781). Lowering
takes the action only if no choice's walk charges the budget of the move itself (`rt.` in its
code): only the listing's first lines do (`rt.grown`, `rt.spend`), and they stay before the table.

Why it is the same game: the list is a function of the key alone. Listing reads the game and
changes nothing, so the choices' lists are computed from the key's values (and from the earlier
choices, themselves computed from them), and from what every state on the board shares; a list
read only through membership tests gives the same tests for the same set of items. The actions
are the board's interned ones, found through the same tables, in the same order, never forgotten,
so the list remembered holds the very objects the plain listing would append. The limits of a
move are charged as the plain code charges them, before the table is consulted: the checks of
the lists taken for small (`rt.grown`) and the charge of the listing's proven work; the walks
themselves charge nothing. A table holds at most `rt.MAX_TABLED` lists, emptied when full.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..builtins import BUILTINS
from ..typed import Listed, ListedKey
from ..types import Ty
from .index_actions import listed_as
from .rewrite import can_fail, free_locals

MAX_KEYS = 3  # values of the game a listing remembered by value may read
_SEATS = ("current", "opponent")  # the seats an entry of a field per player may be read at


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each action taken annotated with what its listing is remembered by (`t.Listing.remembered`);
    lowering remembers it so (compiler/lower/listings.py `remembered`)."""
    defines = {d.name: d for d in program.defines}

    def how(a: t.Action) -> t.Listing | None:
        table = a.listing.table
        if table is None or not a.choices or a.listing.spot_row is not None \
                or any(level.how != "index" for level in table.levels):
            return None
        listed = _listed(a, defines)
        return None if listed is None else replace(a.listing, remembered=listed)

    return listed_as(program, how)


def _listed(a: t.Action, defines: dict[str, t.Define]) -> Listed | None:
    reads: dict[tuple[str, str | None], tuple[ListedKey, str]] = {}  # (by how code spells it) the key, rule words
    earlier: set[t.Symbol] = set()

    def note(key: ListedKey, words: str) -> None:
        was = reads.get(key.spelled)
        reads[key.spelled] = (replace(key, member=key.member and (was is None or was[0].member)), words)

    def visit(e: t.Expr, member: bool = False) -> bool:
        match e:
            case t.Note():
                return visit(e.expr, member)
            case t.Binary(op="in" | "not in"):
                return visit(e.left) and visit(e.right, True)
            case t.PerIndex():
                index = _index(e.index)
                if e.field.kind != "perfield" or index is None or not _few(e.ty):
                    return False
                note(ListedKey(e.field, index, member and e.ty.kind == "list"), f"{e.field.name}[{_words(e.index)}]")
                return True
            case t.Ref(sym=sym):
                if sym.kind == "field":
                    if not _few(e.ty):
                        return False
                    note(ListedKey(sym, None, member and e.ty.kind == "list"), sym.name)
                    return True
                if sym.kind == "value":
                    return sym.fixed  # (all an enumeration's values, `none`: not the players, the board's spots)
                if sym.kind == "const":
                    return sym.fixed  # (a neutral seat is numbered after the players)
                return sym.kind == "local"  # (not an option, nor a whole field per entity)
            case t.DefineCall() | t.Invalid():
                return False
            case t.Builtin():
                sig = BUILTINS.get(e.func)
                if sig is None or sig.chance or "self" in sig.python.replace("self.board", ""):
                    return False
        return all(visit(x) for x in t.subexpressions(e))

    for c in a.choices:
        if not free_locals(c.domain) <= earlier or can_fail(c.domain, defines) or not visit(c.domain):
            return None
        earlier.add(c.var)
    if len(reads) > MAX_KEYS:
        return None
    keys = tuple(key for key, _ in reads.values())
    words = tuple(words for _, words in reads.values())
    return Listed(a.name, keys, described(keys, words), words)


def described(keys: tuple[ListedKey, ...], words: tuple[str, ...],
              kept_sorted: frozenset[ListedKey] = frozenset()) -> str:
    """The values a listing is remembered by, in the rule language's words (`kept_sorted`: the
    lists keyed as they are, since the rules keep them sorted: pass `key_sorted_lists`)."""
    said = [f"`{w}` (kept sorted, `key_sorted_lists`)" if key in kept_sorted
            else f"the items of `{w}`" if key.member else f"`{w}`"
            for key, w in zip(keys, words, strict=True)]
    what = " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 2 else said)
    return what or "nothing that changes"


def _index(e: t.Expr) -> t.Symbol | None:
    """The entity an entry is read at: a seat whose turn it is, or a constant; None for anything
    else (a local, a number that may be out of range)."""
    match e:
        case t.Ref(sym=sym) if sym.kind == "value" and sym.name in _SEATS:
            return sym
        case t.Ref(sym=sym) if sym.kind == "const" and sym.fixed:
            return sym
    return None


def _words(e: t.Expr) -> str:
    return e.sym.name if isinstance(e, t.Ref) else "..."


def _few(ty: Ty) -> bool:
    """A value of few values in a game: a list or set of an enumeration's values or truth values,
    or one such value."""
    if ty.kind in ("enum", "bool"):
        return True
    return ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind in ("enum", "bool")
