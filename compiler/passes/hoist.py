"""Pass `hoist`: work that gives the same value for every item of a loop done once, before it.

In a comprehension, the condition, the value and the domain of an inner clause are computed
once per item. A part of them that reads none of the comprehension's variables from some clause
on gives the same value for every item of that clause: it is computed once, in a clause of its
own, before that clause walks its items, and read from there. So is a definition's call that
one clause computes twice with the same arguments (`palaces_in(q, r)` in the condition and in
the value): once per item, in a clause of its own. A clause of its own is a one-item domain,

    [s for s in open_spaces if (len(cards) == 1) == (cards[0] == colour(s))]
    -> [s for one in (len(cards) == 1,) for s in open_spaces if one == (cards[0] == colour(s))]

(`for x in (v,)` binds `x` once; CPython compiles it to an assignment). In a listing, the domain
of a choice is computed once per item of the choices before it, so a condition over the items of
a choice that reads only an earlier choice (`cards`) is computed once per item of that choice.
The generated line says what was hoisted (`# base.yaml:379; hoisted len(cards) == 1 out of the
loop`, `shared palaces_in(...), once per q`).

Why it is the same game: definitions and conditions only read the game, so the value is the
same wherever it is computed; what differs is whether it is computed at all where the loop has
no item. So only what cannot fail is hoisted (compiler/passes/rewrite.py `can_fail`: no item of
a list that may not be there, no division, no checked number); `cards[0]` above stays where it
is. And only what every item computes (not under `and`, `or` or `if`: there it may be computed
for no item at all, and hoisting a costly call from there costs more than it saves), but for
what costs one call of a built-in and a few look-ups at most (`_cheap`); a
definition's call computed twice in one clause is shared only when one of the two is computed
for every item anyway, so it is never computed where it was not. The limits of a move stay
sound: lowering counts the work of the code it is given, one-item clauses included.

A comprehension lowering fuses with the field it filters (`[s for s, m in enumerate(self.marker)
if m == v]`, compiler/lower/comprehensions.py `fused_filter`) is left as it is: that is faster still.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .. import typed as t
from ..analysis import Facts
from ..analysis.keys import key
from ..analysis.walk import bare, clauses, nodes
from ..types import Ty
from .rewrite import Names, can_fail, free_locals, fused_shape, map_program, rebuild, show, with_clauses

Clause = tuple[t.Symbol, t.Expr, t.Expr | None]


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    hoister = Hoister(program)

    def root(e: t.Expr) -> t.Expr:
        hoister.names.begin()
        return hoister.expr(e)

    try:
        return map_program(program, root)
    except RecursionError:  # (nesting is limited by the parser; even so) the program as it is, not optimised
        return program


@dataclass
class _Found:
    """An expression met in a comprehension: the clause it needs (`level`, its variable read;
    0: none), and where it was met: each time, the clause it was computed once per item of,
    whether in that clause's condition, and whether where every item reaching it computes it
    (not under `and`, `or` or `if`, nor in a loop of its own)."""

    expr: t.Expr
    level: int
    at: list[tuple[int, bool, bool]]
    cheap: bool = False

    def hoisted(self) -> bool:
        """Computed for every item of a clause inside the one it needs: taken out of that loop.
        (Only where every item computes it, or where it is cheap: one computed under `and`, `or`
        or `if` may be computed for no item at all, and is left there unless computing it once
        costs a few look-ups; `_cheap`.)"""
        return any(level > self.level and (always or self.cheap) for level, _, always in self.at)

    def in_condition(self) -> bool:
        """Read by the condition of the clause it is bound in: bound before it."""
        return any(level == self.level and cond for level, cond, _ in self.at)

    def shared(self) -> bool:
        """Computed twice by one clause, and once at least wherever it is bound (before the
        condition: by the condition; after it: by what comes after): never where it was not."""
        here = [(cond, always) for level, cond, always in self.at if level == self.level]
        if len(here) < 2:
            return False
        if self.in_condition():
            return any(cond and always for cond, always in here)
        return any(always for _, always in here)


class Hoister:
    def __init__(self, program: t.TypedProgram) -> None:
        self.defines = {d.name: d for d in program.defines}
        self.names = Names(program)
        self.failing: dict[str, bool] = {}

    def expr(self, e: t.Expr) -> t.Expr:
        e = rebuild(e, self.expr)  # the comprehensions inside first: theirs is hoisted out of them
        if isinstance(e, t.Comprehension) and not fused_shape(e):
            return self.comprehension(e)
        return e

    def comprehension(self, e: t.Comprehension) -> t.Expr:
        old = clauses(e)
        found = self.found(e, old)
        chosen = [f for f in found.values() if f.hoisted() or f.shared()]
        if not chosen:
            return e
        # Each bound once, in the clause it needs, the smaller (what others may hold) first.
        chosen.sort(key=lambda f: (f.level, _size(f.expr)))
        binders: dict[Hashable, tuple[t.Symbol, _Found]] = {}
        for f in chosen:
            base = _called(f.expr) or "once"
            binders[key(f.expr)] = (self.names.symbol(_like(f.expr, base), base, f.expr.ty), f)
        return _rewritten(e, old, binders)

    def found(self, e: t.Comprehension, old: list[Clause]) -> dict[Hashable, _Found]:
        """What `e` computes that reads none of the variables of some clause on, or calls a
        definition, each with where it is computed."""
        levels = {var: i + 1 for i, (var, _, _) in enumerate(old)}
        found: dict[Hashable, _Found] = {}

        def visit(x: t.Expr, level: int, cond: bool, inner: frozenset[t.Symbol], always: bool) -> None:
            """`x`, computed once per item of clause `level` (in its condition: `cond`), inside
            comprehensions of its own binding `inner`."""
            if isinstance(x, t.Note):
                once = _bound_once(x)
                if once is not None:
                    x = once  # bound once by a comprehension inside: out further, perhaps
                elif _called(x) is None:  # (a note of no call: its parts may be)
                    visit(x.expr, level, cond, inner, always)
                    return
            reads = free_locals(x)
            if not reads & inner and _worth(x) and not can_fail(x, self.defines, self.failing):
                needs = max((levels[s] for s in reads if s in levels), default=0)
                if needs < level or _called(x) is not None:
                    found.setdefault(key(x), _Found(x, needs, [], _cheap(x))).at.append((level, cond, always))
                    if needs < level:
                        return  # hoisted whole: what is inside it goes with it
            match bare(x):
                case t.Binary(op="and" | "or") as b:
                    visit(b.left, level, cond, inner, always)
                    visit(b.right, level, cond, inner, False)
                case t.Cond() as c:
                    visit(c.test, level, cond, inner, always)
                    visit(c.then, level, cond, inner, False)
                    visit(c.orelse, level, cond, inner, False)
                case t.Comprehension() as comp:
                    bound = set(inner)
                    for i, (var, domain, test) in enumerate(clauses(comp)):
                        visit(domain, level, cond, frozenset(bound), always and i == 0)
                        bound.add(var)
                        if test is not None:
                            visit(test, level, cond, frozenset(bound), False)
                    visit(comp.elt, level, cond, frozenset(bound), False)
                case other:
                    for part in t.subexpressions(other):
                        visit(part, level, cond, inner, always)

        for i, (_, domain, test) in enumerate(old):
            if i > 0:  # an inner domain: computed once per item of the clause before that passes its condition
                visit(domain, i, False, frozenset(), True)
            if test is not None:
                visit(test, i + 1, True, frozenset(), True)
        visit(e.elt, len(old), False, frozenset(), True)
        return found


def _rewritten(e: t.Comprehension, old: list[Clause], binders: dict[Hashable, tuple[t.Symbol, _Found]],
               ) -> t.Expr:
    """`e` with each value of `binders` bound once, in a clause of its own, and read from there."""
    # A value a comprehension inside bound once, bound here instead: its clause there is
    # dropped, and its local read as this one.
    aliases: dict[Hashable, t.Symbol] = {}

    def use(x: t.Expr, skip: Hashable | None = None) -> t.Expr:
        k = key(x)
        if k in binders and k != skip:
            sym = binders[k][0]
            return t.Ref(sym, x.ty, x.span)
        if k in aliases:
            return t.Ref(aliases[k], x.ty, x.span)
        if isinstance(x, t.Comprehension):
            kept = []
            for var, domain, cond in clauses(x):
                item = _bound_once(domain)
                if item is not None and cond is None and key(item) in binders and key(item) != skip:
                    aliases[key(t.Ref(var, var.ty, x.span))] = binders[key(item)][0]
                    continue
                kept.append((var, domain, cond))
            if len(kept) < len(clauses(x)):
                x = with_clauses(x, kept, x.elt)
        return rebuild(x, lambda part: use(part, skip))

    # The clauses: after each original clause (before the first, for level 0) the values bound
    # once per its item, then that clause's condition, which may read them.
    new: list[Clause] = []
    for level in range(len(old) + 1):
        cond = None
        if level > 0:
            var, domain, cond = old[level - 1]
            new.append((var, use(domain), None))
        here = [(k, sym, f) for k, (sym, f) in binders.items() if f.level == level]
        # what the condition reads is bound before it; the rest after it, for the items it passes
        for before in (True, False):
            for k, sym, f in here:
                if f.in_condition() != before:
                    continue
                what = show(f.expr) + (f", once per {old[level - 1][0].name}" if level else " out of the loop")
                one = t.Collection("list", (use(f.expr, k),), _list_of(f.expr.ty), f.expr.span)
                new.append((sym, t.Note("hoisted" if f.hoisted() else "shared", what, one, one.ty, f.expr.span),
                            None))
            if before and cond is not None:
                var, domain, _ = new[-1]
                new[-1] = (var, domain, use(cond))
    return with_clauses(e, new, use(e.elt))


def _bound_once(e: t.Expr) -> t.Expr | None:
    """The value a clause of this pass binds once (its domain: a note over a list of it)."""
    if isinstance(e, t.Note) and e.verb in ("hoisted", "shared") and isinstance(e.expr, t.Collection):
        return e.expr.items[0]
    return None


def _called(e: t.Expr) -> str | None:
    """The definition `e` calls, or computes inlined (and it is work: a loop, or a call), if so."""
    match e:
        case t.DefineCall():
            return e.define
        case t.Note(verb="inlined"):
            if any(isinstance(n, t.Comprehension | t.DefineCall) for n in nodes(e.expr)):
                return e.what.split(" ")[0]
        case t.Note():
            return _called(e.expr)
    return None


def _like(e: t.Expr, base: str) -> t.Symbol:
    return t.Symbol("local", base, e.ty, base, e.span)


def _list_of(ty: Ty) -> Ty:
    return Ty("list", "", ty)


def _size(e: t.Expr) -> int:
    return 1 + sum(_size(part) for part in t.subexpressions(e))


# Built-ins that look a value up in the board's tables or the rules' (`region_of(s, k)`,
# `spots_of(r)`), or compute on numbers, or make their list in one pass over a list already made
# (`regions_touching(built, province)`: a look-up per spot of `built`): `_cheap`.
_CHEAP_BUILTINS = frozenset({"len", "abs", "min2", "max2", "role", "region_of", "regions_at", "spots_of",
                             "neighbours", "regions_touching"})
# Built-ins of a list-typed value that compute it (not a table's list looked up, nor a range):
# worth computing once (`_worth`).
_LIST_MAKERS = frozenset({"regions_touching"})


def _cheap(e: t.Expr) -> bool:
    """Whether computing `e` costs a few look-ups at most: names, literals, fields and their
    items, attributes, arithmetic and comparisons of numbers, and `_CHEAP_BUILTINS` of such; no
    loop, no definition's call, no list built or searched (`in`); and at least one such built-in
    called (a field's item alone is read as fast as the clause binding it once is walked). Such a
    value, if it cannot fail either, is hoisted even from under `and`, `or` or `if`, where the
    loop computed it for some items only: computed once where it may have been computed for no
    item, it costs a call and a few look-ups, and saves them for every item that did compute it
    (Chang Cheng's `r in regions_touching(built, province)` under `not protected[r] and ...`)."""
    if not any(isinstance(n, t.Builtin) for n in nodes(e)):
        return False
    for n in nodes(e):
        match n:
            case t.Num() | t.Str() | t.Bool() | t.Ref() | t.PerIndex() | t.AttrOf() | t.RecordField() | t.Unary() \
                    | t.Cond() | t.Note():
                pass
            case t.Builtin():
                if n.func not in _CHEAP_BUILTINS:
                    return False
            case t.Binary():
                if n.op in ("in", "not in") or n.ty.kind in ("list", "set") or n.left.ty.kind in ("list", "set"):
                    return False
            case _:
                return False
    return True


def _worth(e: t.Expr) -> bool:
    """Whether computing `e` is work: a call, an item or attribute looked up, a length, an
    aggregate (not a name or a literal alone, nor a list or record built of them). A list or
    set only if computed by a definition, a loop or a built-in that makes it (`_LIST_MAKERS`):
    one read from the state (`hand[p]`) is
    checked by lowering as the rule starts, which it could not do for a local holding it, and
    one made by a built-in (`range(0, 5)`) is made as fast as a copy is."""
    if e.ty.kind in ("list", "set"):  # (only one computed: a copy would cost what it saves)
        return (_called(e) is not None or any(isinstance(n, t.Comprehension) for n in nodes(e))
                or isinstance(e, t.Builtin) and e.func in _LIST_MAKERS)
    match e:
        case t.Num() | t.Str() | t.Bool() | t.Ref() | t.Invalid():
            return False
        case t.DefineCall() | t.Builtin() | t.PerIndex() | t.ListIndex() | t.AttrOf() | t.RecordField() \
                | t.Comprehension():
            return True
    return any(_worth(part) for part in t.subexpressions(e))
