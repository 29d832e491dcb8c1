"""Pass `mask_regions`: a test of a kept definition of one region kept as a mask of the regions where
it holds, and a listing's last choice of regions made from masks of regions (docs/optimiser.md).

China (Schacht) lists its emissaries per way to pay:

    cards: "all_payments(current)"
    province_to: "[r for r in open_provinces if pays_for(cards, r) and emissary_room(r) > 0]"

`emissary_room(r)` is kept by `keep_derived` in a dict by region, dropped for one region at a time where a
palace or an emissary is placed (`drop_by_region`, `keep_derived`'s drops at one entity). Per payment and
listing, every open province was walked, its colour tested against the payment and its room looked
up in the dict; `can_place(p)` asked `any(emissary_room(r) > 0 for r in provinces)` at every change of
a piece. With this pass:

- a kept definition of one region parameter compared with a constant (`emissary_room(r) > 0`) in
  such a listing is a test kept beside the dict: the mask of the regions where it holds and the mask
  of the regions whose bit is known, a bit made stale exactly where the dict's value for its region
  is dropped (a whole drop, `_forget_kept`: every bit), and computed again only for the stale
  regions a reader asks about (`within & ~known`): the second piece's listing, one open province,
  computes one region, not nine;
- the listing's regions are a mask: the regions it walks (`here if here else provinces`, the board's
  mask of a kind, a list of regions in increasing order; any other order is walked as the rules walk
  it), joined with each test in the order written: a test that reads only the earlier choices and
  what the board fixes of the region (`pays_for(cards, r)`) kept per row of the listing's table
  (`rt.RegionRow`, per value of the earlier choices), computed once per region; a kept test's mask.
  The row appends the actions of the mask's regions, in region order, from a tuple per mask;
- `any(emissary_room(r) > 0 for r in provinces)` reads the kept mask.

Taken: a listing through tables per board (`index_actions`) of two choices or more, not remembered by
value (`remember_listings`), whose last choice is a region indexed in its row, its domain a list
comprehension (after `hoist`'s one-item clauses) of its variable over regions that read no local and
cannot fail, filtered by a conjunction of such tests only. A kept test: a definition `keep_derived` keeps,
of one parameter, a region, that reads no seat to act and cannot fail, called with the variable and
compared with a number, a truth value or a constant known when compiling. A test of the earlier
choices: it reads, beside the variable, only the earlier choices, numbers, truth values, texts,
constants, `none`, operators, items and lengths of those and what the board fixes of the region (its
attributes); it may fail only where its failing parts read no region (it fails for every region or
for none). Lowering takes a kept test only when the definition's code charges nothing to the limits
of a move, and the listing only when its plain walk charges nothing itself (`rt.` in its code).

Why it is the same game: a kept bit is the test's value when last computed, and it is read back only
while the definition's value for its region is kept, that is while nothing it reads has changed;
the definition cannot fail and charges nothing, so computing it for a region the plain listing would
not have asked changes nothing (as `keep_derived` itself, it draws no chance and changes nothing else). A
test of the earlier choices is a function of the row (one board, one value of the earlier choices)
and of the region; it is computed only while some region reaches it, so one that fails raises where
the walk raised. The regions left are those the walk keeps; a mask's regions, lowest bit first, are
in region order, the order of a walk of regions in increasing order; the actions are the row's
interned ones. The limits of a move are counted on the plain code, as for `gather_spots`.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import bare as unnoted
from ..analysis.walk import nodes
from ..names import MAX_TABLE_CHOICES, joined
from ..typed import RegionChoice, RegionTerm, RegionTest
from .index_actions import listed_as
from .mask_spot_filters import _conjuncts, _failing, _put_back
from .rewrite import can_fail, free_locals, show

_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
# the nodes a test of the earlier choices may be made of (beside the locals it may read)
_PURE = (t.Num, t.Str, t.Bool, t.Binary, t.Unary, t.Cond, t.ListIndex, t.Note, t.Collection, t.RecordField, t.AttrOf)


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each action taken annotated with its choice of regions (`t.Listing.regions`), each definition
    with its kept tests (`t.Define.region_tests`); lowering keeps and reads them (compiler/lower/
    regions.py, listings.py)."""
    finder = _Finder(program)
    choices: dict[str, RegionChoice] = {}
    for a in program.actions:
        table = a.listing.table
        if table is None or len(a.choices) < 2 or table.levels[-1].how != "index" or a.listing.remembered is not None:
            continue
        found = finder.choice(a)
        if found is not None:
            choices[a.name] = found
    if not choices:
        return program
    program = listed_as(program, lambda a: replace(a.listing, regions=choices[a.name]) if a.name in choices else None)
    tests: dict[str, tuple[RegionTest, ...]] = {}
    for test in finder.tests.values():
        tests[test.define] = (*tests.get(test.define, ()), test)
    return replace(program, defines=tuple(replace(d, region_tests=tests[d.name]) if d.name in tests else d
                                          for d in program.defines))


class _Finder:
    def __init__(self, program: t.TypedProgram) -> None:
        self.defines = {d.name: d for d in program.defines}
        self.kept = {d.name: d.kept.reads for d in program.defines if d.kept is not None}
        self.constants = {name: value for name, value, _ in program.tables.constants}
        self.tests: dict[tuple[str, str, str], RegionTest] = {}

    def choice(self, a: t.Action) -> RegionChoice | None:
        last = a.choices[-1]
        e = unnoted(last.domain)
        if not (last.var.ty.kind == "entity" and last.var.ty.name == "region" and isinstance(e, t.Comprehension)
                and e.func == "list"):
            return None
        *hoisted, (var, domain, cond) = [(v, unnoted(d), c) for v, d, c in ((e.var, e.domain, e.cond), *e.more)]
        elt = unnoted(e.elt)
        if not (isinstance(elt, t.Ref) and elt.sym is var) or cond is None:
            return None
        bound: dict[t.Symbol, t.Expr] = {}
        for v, d, c in hoisted:  # one-item clauses: `for once in (v,)` (pass `hoist`)
            if c is not None or not (isinstance(d, t.Collection) and d.kind == "list" and len(d.items) == 1):
                return None
            bound[v] = _put_back(d.items[0], bound)
        if free_locals(domain) or can_fail(domain, self.defines) or domain.ty.kind != "list":
            return None
        earlier = {c.var for c in a.choices[:-1]}
        terms: list[RegionTerm] = []
        for test in _conjuncts(_put_back(cond, bound)):
            kept = self.kept_test(test, var)
            if kept is not None:
                if sum(1 for term in terms if term.kept is not None) >= MAX_TABLE_CHOICES:
                    return None  # (each kept test's mask a local of the listing: kept_regions<k>)
                terms.append(RegionTerm(kept=kept))
            elif self.fixed(test, var, earlier):
                terms.append(RegionTerm(test=test, var=var))
            else:
                return None
        return RegionChoice(a.name, domain, var, tuple(terms))

    def kept_test(self, test: t.Expr, var: t.Symbol) -> RegionTest | None:
        """`d(var) op c`, d a kept definition of one region that reads no seat to act and cannot fail,
        c a constant: the test kept as a mask (one per definition, operator and constant)."""
        bare = unnoted(test)
        if not (isinstance(bare, t.Binary) and bare.op in _COMPARISONS):
            return None
        call, value = unnoted(bare.left), self.constant(bare.right)
        if not (isinstance(call, t.DefineCall) and len(call.args) == 1 and value is not None
                and isinstance(unnoted(call.args[0]), t.Ref) and unnoted(call.args[0]).sym is var):  # type: ignore[union-attr]
            return None
        d = self.defines.get(call.define)
        reads = self.kept.get(call.define)
        if d is None or reads is None or reads.volatile or len(d.params) != 1 \
                or not (d.params[0].ty.kind == "entity" and d.params[0].ty.name == "region") \
                or can_fail(d.body, self.defines):
            return None
        key = (d.name, bare.op, value)
        if key not in self.tests:
            number = 1 + sum(1 for k in self.tests if k[0] == d.name)
            self.tests[key] = RegionTest(d.name, bare.op, value, joined("regions", d.name, str(number)), test.span,
                                   f"{d.name}(r) {bare.op} {show(bare.right, 24)}")
        return self.tests[key]

    def constant(self, e: t.Expr) -> str | None:
        """The code of a number, a truth value or a constant known when compiling, else None."""
        e = unnoted(e)
        match e:
            case t.Num():
                return str(e.value)
            case t.Bool():
                return str(e.value)
            case t.Ref() if e.sym.kind == "const" and e.sym.py in self.constants:
                return e.sym.py
        return None

    def fixed(self, test: t.Expr, var: t.Symbol, earlier: set[t.Symbol]) -> bool:
        """Whether a test reads, beside the region `var`, only the earlier choices and what no state
        changes (the board's attributes of the region): the same for every state on the board, per
        value of the earlier choices; one that can fail must fail alike for every region."""
        allowed = {var, *earlier}
        for n in nodes(test):
            if isinstance(n, t.Ref):
                if not (n.sym in allowed or n.sym.kind == "const" or n.sym.kind == "value" and n.sym.name == "none"):
                    return False
            elif not (isinstance(n, _PURE) or isinstance(n, t.Builtin) and n.func == "len"):
                return False
        if can_fail(test, self.defines):
            return not any(isinstance(n, t.Ref) and n.sym is var for part in _failing(test, self.defines)
                           for n in nodes(part))
        return True
