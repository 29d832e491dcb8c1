"""Pass `remember_values`: a definition whose value is a function of one small value of the game
(a hand of cards: a list of values of an enumeration) is remembered by that value, in a table of
the board that every state shares, not computed again each time the value changes
(docs/optimiser.md).

China (Schacht) lists its ways to pay from the hand at every listing of a placement:

    "all_payments(p: player)": >-
      [[c] for c in colour if c in hand[p]] + [[j, j] for j in colour if count(h == j for h in hand[p]) >= 2]

`keep_derived` keeps the value per player, but the hand changes at almost every move of its owner (a
card paid, drawn, exchanged), and the two walks over the colours ran again after each change. Yet
the value depends on nothing but the hand itself, and a hand of three or four cards of five
colours is one of a few dozen: this pass finds such definitions (`t.Define.tabled`, the
representation step) and lowering remembers their
values by the hand (`self.hand[p]`, a tuple), in a dict of the board (`board.tables.values`), where
every state on the board finds them:

    table = self.board.tables.values.get('all_payments') or self.board.tables.value_table('all_payments')
    kept = table.get(self.hand[p])
    if kept is not None:
        return kept

A definition is taken when its body reads of the game exactly one value: one entry of a field
per entity at one of its parameters (`hand[p]`), or a field with one value (`deck`); that value
is a list or a set of values of an enumeration (or truth values: their lists and sets of a
game's length are few); everything else it reads is fixed for the rule set and the board (its
other parameters, which join the key; numbers, constants, the enumerations themselves; the
board's tables through built-ins that read nothing else of the state); it reads no option, no
seat to act or count of players, calls no definition (those small enough were inlined into it);
its value is never `none` (an empty slot of the table is None); it has parameters (the value of
one without is kept by `keep_derived` in a slot read without hashing anything: cheaper, where the
value it reads changes seldom, as Chang Cheng's wall layout); and it loops (`keep_derived`'s test: a
lookup alone is cheaper to compute than to look up). `keep_derived` then keeps nothing of it.

Why it is safe: the value is a function of the key alone: the same key gives the same value in
any state on the board (the board's tables are its own, fixed for the game; what would differ
from state to state, fields, options, the players, is read by no definition taken), and values
are immutable, so one computed in one state is the one another would compute. A key is the
value itself, never stale: no drop is needed, and a table outlives any state. A table holds at
most `rt.MAX_TABLED` values, emptied when full, so no game can grow it without bound. What a
value's computation costs counts against the limits of a move when it is computed, as for a
kept value; finding it costs nothing.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.keeping import PLAIN, worth_keeping
from ..builtins import BUILTINS
from ..types import Ty
from .count_items import walkless


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    defines = {d.name: d for d in program.defines}
    constants = {name: value for name, value, _ in program.tables.constants}
    found = {}
    for d in program.defines:
        table = tabled(d)
        if table is not None and worth_keeping(d, lambda x: walkless(program, x, defines, constants)):
            found[d.name] = table
    if not found:
        return program
    return replace(program, defines=tuple(replace(d, tabled=found[d.name]) if d.name in found else d
                                          for d in program.defines))


def tabled(d: t.Define) -> t.ValueTable | None:
    """The table `d` can be remembered in (see the module's doc), or None."""
    if not d.params or d.ty.kind in ("none", "optional", "any") or any(p.ty.kind not in PLAIN for p in d.params):
        return None  # (one without parameters: `keep_derived`'s slot, read without hashing the value, is cheaper)
    params = {p: i for i, p in enumerate(d.params)}
    reads: set[tuple[str, str, int | None]] = set()
    keyed: set[int] = set()
    field_ty: Ty | None = None
    todo: list[t.Expr] = [d.body]
    while todo:
        x = todo.pop()
        match x:
            case t.PerIndex() if x.field.kind == "perfield" and isinstance(x.index, t.Ref) \
                    and x.index.sym in params:
                reads.add((x.field.name, x.field.py, params[x.index.sym]))
                field_ty = x.ty
                continue  # (the parameter read as the entity only: not part of the key)
            case t.PerIndex():
                return None  # another field per entity, or at another index
            case t.Ref() if x.sym.kind == "field":
                reads.add((x.sym.name, x.sym.py, None))
                field_ty = x.ty
            case t.Ref() if x.sym.kind == "local":
                if x.sym in params:
                    keyed.add(params[x.sym])
            case t.Ref() if x.sym.kind == "value":
                if not x.sym.fixed:
                    return None  # the players, the seat to act, the board's spots ...
            case t.Ref() if x.sym.kind == "const":
                if not x.sym.fixed:
                    return None  # a neutral seat: numbered after the players
            case t.Ref():
                return None  # an option, a whole field per entity
            case t.DefineCall():
                return None
            case t.Builtin():
                sig = BUILTINS.get(x.func)
                if sig is None or sig.chance or "self" in sig.python.replace("self.board", ""):
                    return None
        todo.extend(t.subexpressions(x))
    if len(reads) != 1 or field_ty is None or not _small(field_ty):
        return None
    (name, py, at), = reads
    return t.ValueTable(name, py, at, tuple(sorted(keyed)))


def _small(ty: Ty) -> bool:
    """A list or set of values of an enumeration or truth values: few values in a game."""
    return ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind in ("enum", "bool")

