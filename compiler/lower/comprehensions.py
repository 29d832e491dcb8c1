"""Lowering a comprehension and its aggregate (`all`, `any`, `count`, `sum`, `min`, `max`, a list or
set made), and the code the passes choose for some of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import typed as t
from ..budget import (
    FREE_WORK,
    Facts,
    join_mag,
    number,
    sat,
    scale_mag,
)
from ..names import FILTER_LOCAL, MAX_TABLE_CHOICES, component_sets_constant
from ..passes import (
    bitmask,
    region_masks,
    set_lists,
)
from ..passes.aggregate_loops import written_out
from ..passes.bitmask import paren
from ..passes.component_sets import _operand, taken
from ..passes.count_items import SIMPLE, counted
from ..passes.listing_hoist import LOCAL
from ..passes.region_masks import ORDERED
from ..passes.rewrite import key, show
from ..passes.spot_filters import Term, _bare, among, joined_terms, lookup
from ..passes.value_masks import ValueMask, _masks, _unparen, served
from ..source import SourceSpan
from ..typed import Symbol
from ..types import unify
from .code import _CHARGES
from .program import Line

if TYPE_CHECKING:
    from .lowerer import Lowerer


def comprehension(self: Lowerer, e: t.Comprehension) -> str:
    masked = bitmask.masked_comprehension(self.plan, e, self.constant_values)
    py = self.plain_comprehension(e)  # (its facts: what the plain code is proven to cost)
    if masked is None and not _CHARGES.search(py):  # (pass `value_masks`: masks per value, the empty spots)
        masked = value_masks_code(self, e)
    if masked is None and not _CHARGES.search(py):
        # (passes `spot_filters`, `count_items`, `component_sets`: where the plain code charges no work as it runs)
        masked = spot_filters_code(self, e) or count_items_code(self, e) or component_sets_code(self, e) \
            or set_lists_code(self, e) or self.region_any(e)
    return py if masked is None else masked  # a set of spots kept as a bit mask (pass `bitmask`)


def plain_comprehension(self: Lowerer, e: t.Comprehension) -> str:
    if e.more:
        return self.nested_comprehension(e)
    fused = self.fused_filter(e)
    if fused is not None:
        return fused
    dpy = self.expr(e.domain)
    # only a list made from a set shows the order its items are walked in
    walk = self.iterable(e.domain.ty, dpy, ordered=e.func == "list")
    domain = self.domain_facts(e.domain)
    self.scopes.append(set())
    var = self.bind(e.var)
    self.set_local(e.var, domain.item)
    cond_py = self.expr(e.cond) if e.cond is not None else None
    epy = self.expr(e.elt)
    if e.func in ("list", "set"):
        epy = self.canon(e.elt, e.elt.ty, epy)
    self.scopes.pop()
    each = self.fact(e.elt)
    walk, work, rounds, small = self.loop(walk, domain, 1 + each.cost + (self.fact(e.cond).cost if e.cond else 0),
                                          e.span)
    cost = sat(domain.cost + work)
    head = f"for {var} in {walk}" + (f" if {cond_py}" if cond_py else "")
    counted = f"sum(1 for {var} in {walk} if {cond_py} and {epy})" if cond_py else f"sum(1 {head} if {epy})"
    # (`min(n for n in xs)`: the aggregate of the items themselves, walked by it without a generator)
    items = walk if cond_py is None and isinstance(e.elt, t.Ref) and e.elt.sym is e.var else None
    return self.aggregate(e, head, epy, counted, Facts(cost, rounds, item=each, small=small), items)


def aggregate(self: Lowerer, e: t.Comprehension, head: str, epy: str, counted: str, walked: Facts,
              items: str | None = None) -> str:
    """A comprehension's aggregate over its clauses (`head`), of `epy` for each item walked;
    `counted` is its `count`; `walked`: its work, its rounds, what each item gives, and
    whether it is made from lists taken for small; `items`, for one clause without a
    condition whose value is its own variable, the code of what it walks: an `all`, `any`,
    `sum`, `min` or `max` of them takes that as it is (the same items in the same order, the
    same work counted)."""
    cost, rounds, each = walked.cost, walked.size or 0, walked.item or Facts()
    match e.func:
        case "count":
            self.facts[id(e)] = number(rounds, cost=cost)
            return counted
        case "all" | "any":
            self.facts[id(e)] = Facts(cost)
            return f"{e.func}({epy} {head})" if items is None else f"{e.func}({items})"
        case "sum" | "min" | "max":
            mag = scale_mag(each.mag, rounds) if e.func == "sum" else join_mag(each.mag, (0, 0))
            self.facts[id(e)] = Facts(cost, mag=mag)
            if items is not None:
                return f"sum({items})" if e.func == "sum" else f"{e.func}({items}, default=0)"
            return f"sum({epy} {head})" if e.func == "sum" else f"{e.func}(({epy} {head}), default=0)"
        case "set":
            self.facts[id(e)] = self.clamp(e.ty, Facts(cost, rounds, item=each.priced(0), small=walked.small))
            self.canonical.add(id(e))
            return f"frozenset({epy} {head})"
        case _:
            self.facts[id(e)] = Facts(cost, rounds, item=each.priced(0), small=walked.small)
            return f"[{epy} {head}]"


def nested_comprehension(self: Lowerer, e: t.Comprehension) -> str:
    """`[elt for a in xs if c for b in f(a) if d]`: each clause walked inside the one before.
    Its work is the product of the sizes (each inner loop counted as it starts if need be)."""
    clauses = ((e.var, e.domain, e.cond), *e.more)
    lowered: list[tuple[Symbol, t.Expr, t.Expr | None, str, str | None, Facts]] = []
    for var, domain, cond in clauses:
        dpy = self.expr(domain)
        walk = self.iterable(domain.ty, dpy, ordered=e.func == "list")
        facts = self.domain_facts(domain)
        self.scopes.append(set())
        self.bind(var)
        self.set_local(var, facts.item)
        cond_py = self.expr(cond) if cond is not None else None
        lowered.append((var, domain, cond, walk, cond_py, facts))
    epy = self.expr(e.elt)
    if e.func in ("list", "set"):
        epy = self.canon(e.elt, e.elt.ty, epy)
    each = self.fact(e.elt)
    # from the innermost clause out: each round of a loop does the work of the loops inside it
    inner_work, rounds = each.cost, 1
    heads: list[str] = []
    for var, domain, cond, walk, cond_py, facts in reversed(lowered):
        self.scopes.pop()
        per_item = 1 + inner_work + (self.fact(cond).cost if cond is not None else 0)
        walk, work, n, _ = self.loop(walk, facts, per_item, domain.span)
        inner_work, rounds = sat(facts.cost + work), sat(rounds * n)
        heads.insert(0, f"for {var.py} in {walk}" + (f" if {cond_py}" if cond_py else ""))
    head = " ".join(heads)
    return self.aggregate(e, head, epy, f"sum(1 {head} if {epy})", Facts(inner_work, rounds, item=each))


def fused_filter(self: Lowerer, e: t.Comprehension) -> str | None:
    """`[s for s in spots if marker[s] == v]` walks the field itself, not the spots and then
    the field: `[s for s, m in enumerate(self.marker) if m == V]`, three times faster."""
    if not (e.func == "list" and isinstance(e.domain, t.Ref) and e.domain.sym.kind == "value"
            and e.domain.sym.name == "spots"
            and isinstance(e.elt, t.Ref) and e.elt.sym is e.var
            and isinstance(e.cond, t.Binary) and e.cond.op in ("==", "!=")
            and isinstance(e.cond.left, t.PerIndex) and e.cond.left.field.per == "spot"
            and isinstance(e.cond.left.index, t.Ref) and e.cond.left.index.sym is e.var):
        return None
    field_sym = e.cond.left.field
    self.scopes.append(set())
    var = self.bind(e.var)
    value_py = self.expr(e.cond.right)
    self.scopes.pop()
    if var in value_py or unify(field_sym.ty, e.cond.right.ty) is None:
        return None  # the value depends on the spot, or is mistyped: take the general path
    spots = self.kind_count("spot") or 0
    work = sat(spots * (1 + self.fact(e.cond.right).cost))
    if work > FREE_WORK:
        return None  # more work than may go unchecked: the general path counts it
    self.facts[id(e)] = Facts(work, spots, item=Facts())
    item = FILTER_LOCAL.format(field_sym.name)
    op = e.cond.op
    if "none" in (e.cond.left.ty.kind, e.cond.right.ty.kind):  # `x != none`: Python's `is not None`
        op = "is" if op == "==" else "is not"
    return f"[{var} for {var}, {item} in enumerate({field_sym.py}) if {item} {op} {value_py}]"


def region_any(self: Lowerer, e: t.Comprehension) -> str | None:
    """(pass `region_masks`) `any(d(r) op c for r in L)` read from the kept mask of the test."""
    found = region_masks.any_of(self.plan, e)
    if found is None or found[0] not in self.region_tests:
        return None
    test, regions = found
    self.notes.setdefault("read from a kept mask of regions", {})[show(e, 40)] = None
    return f"self.{test.within}({region_mask_code(self, regions)}) != 0"


def aggregate_loops(self: Lowerer, py: str, params: set[str], span: SourceSpan) -> tuple[list[Line], str]:
    """(pass `aggregate_loops`) The loops of the aggregates a value (`py`, of a definition of
    parameters `params` or of the end) computes first, as lines from the body's depth, and the
    value reading their results; none, and `py` as it is, with the pass off."""
    if not self.plan.aggregate_loops:
        return [], py
    written, py = written_out(py, params)
    return [Line(2 + depth, code, span if why else None, why) for depth, code, why in written], py


def value_masks_code(lower: Lowerer, e: t.Comprehension) -> str | None:
    """The code of a comprehension the masks serve (`lower`: the lowering, whose
    `expr` writes the region and the value), or None. The region is computed first, then the value,
    as the walk computed them (each once: neither reads the spot)."""
    found = served(lower.plan, e, lower.defines)
    if found is None:
        return None
    within = "self.board.all_mask" if found.region is None else f"self.board.region_mask[{lower.expr(found.region)}]"
    kept = _masks(lower.plan, found.test)
    assert kept is not None
    if isinstance(kept, ValueMask):
        assert found.test.value is not None
        mask = f"{kept.py}[{_unparen(lower.expr(found.test.value))}]"
    else:
        mask = kept.py
    positive = not found.test.negated
    region = found.region is not None
    holding = (f"{within} & {mask}" if region else mask) if positive else f"{within} & ~{mask}"
    lower.notes.setdefault("read from bit masks (`value_masks`):", {})[show(e, 40)] = None
    if found.func == "list":
        return f"self.board.mask_spots({holding})"
    if found.func == "count":
        return f"{paren(holding)}.bit_count()"
    if found.func == "any":
        return f"({paren(holding)} != 0)"
    # all: no spot walked fails the test
    failing = f"{within} & ~{mask}" if positive else (f"{within} & {mask}" if region else mask)
    return f"(not {paren(failing)})"


def spot_filters_code(lower: Lowerer, e: t.Comprehension) -> str | None:
    """The code of a filter the pass found `e` to be (`lower`: the lowering, whose
    `expr` writes the keys and tests), or None. Masks are joined in the order the tests were
    written; from the first test that can fail on, each is a group of its own, so that
    `board.spots_of` computes it only while some spot is left. The joined part may be read from a
    local of the listing (pass `listing_hoist`)."""
    found = lookup(lower.plan, e)
    if found is None:
        return None
    first = ["self.board.all_mask"]
    more: list[str] = []
    keyed: dict[int, Term] = {}  # the groups of `more` that are key tests, by position
    joined = len(joined_terms(found))
    for at, term in enumerate(found.terms):
        if term.mask is not None:
            code = f"~{term.mask.py}" if term.negated else term.mask.py
            (first if at < joined else more).append(code if at < joined else f"({code},)")
            continue
        assert term.spot is not None and term.key is not None and term.var is not None and term.test is not None
        assert term.mask_var is not None
        lower.scopes.append(set())
        spot = lower.bind(term.spot)
        key_py = lower.expr(term.key)
        lower.scopes.pop()
        name = repr(f"[{key_py} for {spot} in spots]")
        groups = (f"(self.board.key_masks.get({name}) or "
                  f"self.board.group_keys({name}, [{key_py} for {spot} in self.board.spots]))")
        listed = among(term)
        if listed is not None and not term.fails:  # `key in L`: the groups of L's values, L computed once
            code = f"self.board.keys_mask({groups}, {lower.expr(listed)})"
            (first if at < joined else more).append(code if at < joined else f"({code},)")
            continue
        lower.scopes.append(set())
        var, mask = lower.bind(term.var), lower.bind(term.mask_var)
        test_py = lower.expr(term.test)
        lower.scopes.pop()
        more.append(f"({mask} for {var}, {mask} in {groups}.items() if {test_py})")
        keyed[len(more) - 1] = term
    lower.notes.setdefault("made from bit masks", {})[show(e, 40)] = None
    joined_code = listing_hoist_code(lower, e, ' & '.join(first))
    if lower.spot_row is not None:  # (pass `spot_rows`: the parts, and which group is a test of which term)
        lower.spot_row.append((joined_code, [(m, keyed.get(i)) for i, m in enumerate(more)]))
    return f"self.board.spots_of({joined_code}{''.join(', ' + m for m in more)})"


def set_lists_code(lower: Lowerer, e: t.Comprehension) -> str | None:
    """`sorted(S)` for `[x for x in S]` over a set (`lower`: the lowering), else None."""
    if set_lists.NAME not in lower.plan.enabled or e.func != "list" or e.more or e.cond is not None \
            or e.domain.ty.kind != "set" or not isinstance(e.elt, t.Ref) or e.elt.sym is not e.var:
        return None
    walk: str = lower.iterable(e.domain.ty, lower.expr(e.domain), ordered=True)
    lower.notes.setdefault("the set sorted:", {})[show(e, 40)] = None
    return walk


def region_mask_code(lower: Lowerer, e: t.Expr) -> str:
    """The code of the mask of the regions of a list `e` in increasing order (-1: they are not; only
    where `exact` does not hold: the code calls `ORDERED`), written by `lower`."""
    bare = _bare(e)
    expr = lower.expr
    match bare:
        case t.Builtin(func="regions_of"):
            return f"self.board.kind_masks[{expr(bare.args[0])}]"
        case t.Cond():
            then, test = region_mask_code(lower, bare.then), expr(bare.test)  # (in the order written)
            return f"({then} if {test} else {region_mask_code(lower, bare.orelse)})"
    return f"{ORDERED}{expr(e)})"


def listing_hoist_code(lower: Lowerer, e: t.Comprehension, joined: str) -> str:
    """The code to read the joined masks `joined` of the list `e` from: a local of the listing,
    bound once before its loops, when this pass found `e` and an action's later choice is being
    lowered (`lower.listing_hoisted`: the listing's bindings so far, the choice, those before it);
    else `joined` itself."""
    if lower.listing_hoisted is None or key(e) not in lower.plan.listing_hoists:
        return joined
    bound: list[tuple[str, str, str]]
    bound, choice, before = lower.listing_hoisted
    for name, code, _ in bound:
        if code == joined:
            return name
    if len(bound) >= MAX_TABLE_CHOICES:
        return joined
    name = LOCAL.format(len(bound))
    earlier = " and ".join(f"`{b}`" for b in before)
    bound.append((name, joined, f"{e.span.short}; `listing_hoist`: the masks the spots of `{choice}` are made "
                                f"from, the same for every {earlier}, joined once before the loops"))
    return name


def count_items_code(lower: Lowerer, e: t.Comprehension) -> str | None:
    """`(L).count(v)` for a comprehension the pass took (`lower`: the lowering),
    else None."""
    if key(e) not in set(lower.plan.counted):
        return None
    value = counted(e, lower.defines)
    if value is None:
        return None
    domain = lower.expr(e.domain)
    lower.notes.setdefault("counted as the list's own count", {})[show(e, 40)] = None
    if not SIMPLE.match(domain):
        domain = f"({domain})"
    return f"{domain}.count({lower.expr(value)})"


def component_sets_code(lower: Lowerer, e: t.Comprehension) -> str | None:
    """The set operation for a comprehension the pass takes (`lower`: the lowering,
    compiler/lower/), else None. A table is used only once the module has written it (not in an
    attribute's own table)."""
    found = taken(lower.plan, e, lower.defines)
    if found is None:
        return None
    written = {name for name, _, _, _ in lower.program.component_tables}
    sets = [f"{component_sets_constant(table)}[{'True' if value is None else lower.expr(value)}]"
            for table, value in found.tests]
    if any(name.partition("[")[0] not in written for name in sets) or found.made and found.made not in written:
        return None
    domain = _operand(lower.expr(found.domain))
    lower.notes.setdefault("a set operation for", {})[show(e, 40)] = None
    if found.func == "set":
        return f"frozenset(map({found.made}.__getitem__, {domain}))"
    if found.func == "count":
        return f"len({' & '.join([domain, *sets])})"
    if found.func == "all":
        return f"{domain} <= {sets[0]}" if len(sets) == 1 else f"{domain} <= ({' & '.join(sets)})"
    if not sets:
        return f"bool({domain})"
    if len(sets) == 1:
        return f"(not {domain}.isdisjoint({sets[0]}))"
    return f"bool({' & '.join([domain, *sets])})"
