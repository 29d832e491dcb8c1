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
from ..names import FILTER_LOCAL
from ..passes import (
    bitmask,
    component_sets,
    count_items,
    region_masks,
    set_lists,
    spot_filters,
    value_masks,
)
from ..passes.aggregate_loops import written_out
from ..passes.rewrite import show
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
        masked = value_masks.lowered(self, e)
    if masked is None and not _CHARGES.search(py):
        # (passes `spot_filters`, `count_items`, `component_sets`: where the plain code charges no work as it runs)
        masked = spot_filters.lowered(self, e) or count_items.lowered(self, e) or component_sets.lowered(self, e) \
            or set_lists.lowered(self, e) or self.region_any(e)
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
    return f"self.{test.within}({region_masks.mask_code(self, regions)}) != 0"


def aggregate_loops(self: Lowerer, py: str, params: set[str], span: SourceSpan) -> tuple[list[Line], str]:
    """(pass `aggregate_loops`) The loops of the aggregates a value (`py`, of a definition of
    parameters `params` or of the end) computes first, as lines from the body's depth, and the
    value reading their results; none, and `py` as it is, with the pass off."""
    if not self.plan.aggregate_loops:
        return [], py
    written, py = written_out(py, params)
    return [Line(2 + depth, code, span if why else None, why) for depth, code, why in written], py
