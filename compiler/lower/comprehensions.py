"""Lowering a comprehension and its aggregate (`all`, `any`, `count`, `sum`, `min`, `max`, a list or
set made), and the code the passes choose for some of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import pyir
from .. import typed as t
from ..analysis.walk import bare as bare_of
from ..budget import FREE_WORK, Facts, join_mag, number, sat, scale_mag
from ..names import FILTER_LOCAL, MAX_TABLE_CHOICES, component_sets_constant
from ..passes.count_items import counted
from ..passes.intersect_components import taken
from ..passes.mask_spot_filters import among, joined_terms
from ..passes.mask_values import mask_of, served
from ..passes.rewrite import show
from ..pyir import BinOp, Call, Compare, Comprehension, Constant, GeneratorExp, Keyword, Name, Paren, UnaryOp
from ..pyprint import text
from ..typed import Symbol
from ..types import unify
from . import boards, counts, expressions, limits, masks
from .code import charges, items_of_names, reads, unparenthesised
from .regions import any_of, ordered

if TYPE_CHECKING:
    from .lowerer import Lowerer


def comprehension(lo: Lowerer, e: t.Comprehension) -> pyir.Expr:
    masked = masks.masked_comprehension(lo, e)
    py = plain_comprehension(lo, e)  # (its facts: what the plain code is proven to cost)
    if masked is None and not charges(py):  # (pass `mask_values`: masks per value, the empty spots)
        masked = value_masks_code(lo, e)
    if masked is None and not charges(py):  # (pass `keep_counts`: a count kept up to date)
        masked = counts.read(lo, e)
    if masked is None and not charges(py):
        # (passes `mask_spot_filters`, `count_items`, `intersect_components`: where the plain code
        # charges no work as it runs)
        masked = spot_filters_code(lo, e) or count_items_code(lo, e) or component_sets_code(lo, e) \
            or set_lists_code(lo, e) or region_any(lo, e)
    return py if masked is None else masked  # (a set of spots kept as a bit mask, pass `mask_spot_sets`, and the like)


def plain_comprehension(lo: Lowerer, e: t.Comprehension) -> pyir.Expr:
    if e.more:
        return nested_comprehension(lo, e)
    fused = fused_filter(lo, e)
    if fused is not None:
        return fused
    dpy = lo.node(e.domain)
    # only a list made from a set, and the first item found in it, show the order its items are walked in
    walk = expressions.iterable(lo, e.domain.ty, dpy, ordered=e.func in ("list", "first"))
    domain = limits.domain_facts(lo, e.domain)
    lo.scopes.append(set())
    var = lo.bind(e.var)
    limits.set_local(lo, e.var, domain.item)
    cond_py = lo.node(e.cond) if e.cond is not None else None
    epy = lo.node(e.elt)
    if e.func in ("list", "set", "first"):
        epy = expressions.canon(lo, e.elt, e.elt.ty, epy)
    lo.scopes.pop()
    each = lo.fact(e.elt)
    walk, work, rounds, small = limits.loop(lo, walk, domain, 1 + each.cost + (lo.fact(e.cond).cost if e.cond else 0),
                                          e.span)
    cost = sat(domain.cost + work)
    target = Name(var)
    head = (Comprehension(target, walk, (cond_py,) if cond_py is not None else ()),)
    counted = _count((Comprehension(target, walk, (pyir.BoolOp("and", (cond_py, epy)),)),) if cond_py is not None
                     else (Comprehension(target, walk, (epy,)),))
    # (`min(n for n in xs)`: the aggregate of the items themselves, walked by it without a generator)
    items = walk if cond_py is None and isinstance(e.elt, t.Ref) and e.elt.sym is e.var else None
    return aggregate(lo, e, head, epy, counted, Facts(cost, rounds, item=each, small=small), items)


def _count(head: tuple[Comprehension, ...]) -> pyir.Expr:
    """`sum(1 for ... if ...)`: how many rounds of the clauses pass their tests."""
    return Call(Name("sum"), (GeneratorExp(pyir.Constant(1), head),))


def aggregate(lo: Lowerer, e: t.Comprehension, head: tuple[Comprehension, ...], epy: pyir.Expr,
              counted: pyir.Expr, walked: Facts, items: pyir.Expr | None = None) -> pyir.Expr:
    """A comprehension's aggregate over its clauses (`head`), of `epy` for each item walked;
    `counted` is its `count`; `walked`: its work, its rounds, what each item gives, and
    whether it is made from lists taken for small; `items`, for one clause without a
    condition whose value is its own variable, the code of what it walks: an `all`, `any`,
    `sum`, `min` or `max` of them takes that as it is (the same items in the same order, the
    same work counted)."""
    cost, rounds, each = walked.cost, walked.size or 0, walked.item or Facts()
    match e.func:
        case "count":
            lo.facts[e] = number(rounds, cost=cost)
            return counted
        case "all" | "any":
            lo.facts[e] = Facts(cost)
            return Call(Name(e.func), (GeneratorExp(epy, head) if items is None else items,))
        case "sum" | "min" | "max":
            mag = scale_mag(each.mag, rounds) if e.func == "sum" else join_mag(each.mag, (0, 0))
            lo.facts[e] = Facts(cost, mag=mag)
            if e.func == "sum":
                return Call(Name("sum"), (GeneratorExp(epy, head) if items is None else items,))
            return Call(Name(e.func), (Paren(GeneratorExp(epy, head)) if items is None else items,), _DEFAULT)
        case "first":  # the first item found, or none: the walk stops there (its work counted whole)
            lo.facts[e] = each.priced(cost)
            return Call(Name("next"), (Paren(GeneratorExp(epy, head)), pyir.Constant(None)))
        case "set":
            lo.facts[e] = limits.clamp(lo, e.ty, Facts(cost, rounds, item=each.priced(0), small=walked.small))
            lo.canonical.add(e)
            return Call(Name("frozenset"), (GeneratorExp(epy, head),))
        case _:
            lo.facts[e] = Facts(cost, rounds, item=each.priced(0), small=walked.small)
            return pyir.ListComp(epy, head)


_DEFAULT = (Keyword("default", pyir.Constant(0)),)


def nested_comprehension(lo: Lowerer, e: t.Comprehension) -> pyir.Expr:
    """`[elt for a in xs if c for b in f(a) if d]`: each clause walked inside the one before.
    Its work is the product of the sizes (each inner loop counted as it starts if need be)."""
    clauses = ((e.var, e.domain, e.cond), *e.more)
    lowered: list[tuple[Symbol, t.Expr, t.Expr | None, pyir.Expr, pyir.Expr | None, Facts]] = []
    for var, domain, cond in clauses:
        dpy = lo.node(domain)
        walk = expressions.iterable(lo, domain.ty, dpy, ordered=e.func in ("list", "first"))
        facts = limits.domain_facts(lo, domain)
        lo.scopes.append(set())
        lo.bind(var)
        limits.set_local(lo, var, facts.item)
        cond_py = lo.node(cond) if cond is not None else None
        lowered.append((var, domain, cond, walk, cond_py, facts))
    epy = lo.node(e.elt)
    if e.func in ("list", "set", "first"):
        epy = expressions.canon(lo, e.elt, e.elt.ty, epy)
    each = lo.fact(e.elt)
    # from the innermost clause out: each round of a loop does the work of the loops inside it
    inner_work, rounds = each.cost, 1
    heads: list[Comprehension] = []
    for var, domain, cond, walk, cond_py, facts in reversed(lowered):
        lo.scopes.pop()
        per_item = 1 + inner_work + (lo.fact(cond).cost if cond is not None else 0)
        walk, work, n, _ = limits.loop(lo, walk, facts, per_item, domain.span)
        inner_work, rounds = sat(facts.cost + work), sat(rounds * n)
        heads.insert(0, Comprehension(Name(var.py), walk, (cond_py,) if cond_py is not None else ()))
    head = tuple(heads)
    last = head[-1]
    counted = _count((*head[:-1], Comprehension(last.target, last.iter, (*last.ifs, epy))))
    return aggregate(lo, e, head, epy, counted, Facts(inner_work, rounds, item=each))


def fused_filter(lo: Lowerer, e: t.Comprehension) -> pyir.Expr | None:
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
    lo.scopes.append(set())
    var = lo.bind(e.var)
    value_py = lo.node(e.cond.right)
    lo.scopes.pop()
    if reads(value_py, var) or unify(field_sym.ty, e.cond.right.ty) is None:
        return None  # the value depends on the spot, or is mistyped: take the general path
    spots = boards.kind_count(lo, "spot") or 0
    work = sat(spots * (1 + lo.fact(e.cond.right).cost))
    if work > FREE_WORK:
        return None  # more work than may go unchecked: the general path counts it
    lo.facts[e] = Facts(work, spots, item=Facts())
    item = FILTER_LOCAL.format(field_sym.name)
    op = e.cond.op
    if "none" in (e.cond.left.ty.kind, e.cond.right.ty.kind):  # `x != none`: Python's `is not None`
        op = "is" if op == "==" else "is not"
    pair = pyir.Tuple((Name(var), Name(item)), parenthesised=False)
    each = pyir.Compare(Name(item), (op,), (value_py,))
    return pyir.ListComp(Name(var), (Comprehension(pair, Call(Name("enumerate"), (pyir.dotted(field_sym.py),)),
                                                   (each,)),))


def region_any(lo: Lowerer, e: t.Comprehension) -> pyir.Expr | None:
    """(pass `mask_regions`) `any(d(r) op c for r in L)` read from the kept mask of the test."""
    found = any_of(lo.defines, e)
    if found is None or found[0] not in lo.region_tests:
        return None
    test, regions = found
    lo.notes.setdefault("read from a kept mask of regions", {})[show(e, 40)] = None
    return Compare(Call(pyir.dotted(f"self.{test.within}"), (region_mask(lo, regions),)), ("!=",), (Constant(0),))


def value_masks_code(lo: Lowerer, e: t.Comprehension) -> pyir.Expr | None:
    """The code of a comprehension the masks serve (`lo`: the lowering, whose
    `node` writes the region and the value), or None. The region is computed first, then the value,
    as the walk computed them (each once: neither reads the spot)."""
    found = served(lo.typed, e, lo.defines)
    if found is None:
        return None
    within = _ALL if found.region is None else masks.region_mask(lo.node(found.region))
    kept = mask_of(lo.typed, found.test)
    assert kept is not None
    mask: pyir.Expr = masks.code(kept)
    if isinstance(kept, t.ValueMask):
        assert found.test.value is not None
        mask = pyir.Subscript(mask, unparenthesised(lo.node(found.test.value)))
    positive = not found.test.negated
    region = found.region is not None
    holding = (BinOp(within, "&", mask) if region else mask) if positive else BinOp(within, "&", UnaryOp("~", mask))
    lo.notes.setdefault("read from bit masks (`mask_values`):", {})[show(e, 40)] = None
    if found.func == "list":
        return Call(pyir.dotted("self.board.mask_spots"), (holding,))
    if found.func == "count":
        return Call(pyir.Attribute(masks.paren(holding), "bit_count"))
    if found.func == "any":
        return Paren(Compare(masks.paren(holding), ("!=",), (Constant(0),)))
    # all: no spot walked fails the test
    failing = BinOp(within, "&", UnaryOp("~", mask)) if positive else (BinOp(within, "&", mask) if region else mask)
    return Paren(UnaryOp("not", masks.paren(failing)))


_ALL = pyir.dotted("self.board.all_mask")


def spot_filters_code(lo: Lowerer, e: t.Comprehension) -> pyir.Expr | None:
    """The code of a filter the pass found `e` to be (`lo`: the lowering, whose
    `node` writes the keys and tests), or None. Masks are joined in the order the tests were
    written; from the first test that can fail on, each is a group of its own, so that
    `board.spots_of` computes it only while some spot is left. The joined part may be read from a
    local of the listing (pass `hoist_masks`)."""
    found = e.spot_filter
    if found is None:
        return None
    first: list[pyir.Expr] = [_ALL]
    more: list[pyir.Expr] = []
    keyed: dict[int, int] = {}  # the groups of `more` that are key tests: their term's position, by position
    joined = len(joined_terms(found))
    for at, term in enumerate(found.terms):
        if term.mask is not None:
            code: pyir.Expr = UnaryOp("~", masks.code(term.mask)) if term.negated else masks.code(term.mask)
            (first if at < joined else more).append(code if at < joined else pyir.Tuple((code,)))
            continue
        assert term.spot is not None and term.key is not None and term.var is not None and term.test is not None
        assert term.mask_var is not None
        lo.scopes.append(set())
        spot = lo.bind(term.spot)
        key_py = lo.node(term.key)
        lo.scopes.pop()
        name = Constant(group_key(term.key, term.spot))
        made = pyir.ListComp(key_py, (Comprehension(Name(spot), pyir.dotted("self.board.spots")),))
        groups = Paren(pyir.BoolOp("or", (Call(pyir.dotted("self.board.tables.spot_groups.get"), (name,)),
                                          Call(pyir.dotted("self.board.tables.group_spots"), (name, made)))))
        listed = among(term)
        if listed is not None and not term.fails:  # `key in L`: the groups of L's values, L computed once
            code = Call(pyir.dotted("self.board.keys_mask"), (groups, lo.node(listed)))
            (first if at < joined else more).append(code if at < joined else pyir.Tuple((code,)))
            continue
        lo.scopes.append(set())
        var, mask = lo.bind(term.var), lo.bind(term.mask_var)
        test_py = lo.node(term.test)
        lo.scopes.pop()
        pairs = pyir.Tuple((Name(var), Name(mask)), parenthesised=False)
        more.append(Paren(GeneratorExp(Name(mask), (Comprehension(pairs, Call(pyir.Attribute(groups, "items")),
                                                                  (test_py,)),))))
        keyed[len(more) - 1] = at
    lo.notes.setdefault("made from bit masks", {})[show(e, 40)] = None
    joined_code = listing_hoist_code(lo, e, _joined(first))
    # (pass `gather_spots`: the parts, and which group is a test of which term, by position)
    if lo.spot_row is not None:
        lo.spot_row.append((joined_code, [(m, keyed.get(i)) for i, m in enumerate(more)]))
    return Call(pyir.dotted("self.board.spots_of"), (joined_code, *more))


def _joined(masks: list[pyir.Expr]) -> pyir.Expr:
    """`a & b & c`: the masks joined, left to right."""
    out = masks[0]
    for m in masks[1:]:
        out = BinOp(out, "&", m)
    return out


def group_key(e: t.Expr, spot: Symbol) -> str:
    """The name of the board's table of the spots grouped by the key `e` of the spot `spot` (pass
    `mask_spot_filters`), written from the key's structure as the rules write it, the spot named `spot`
    and a constant by its module name: `region_of(spot, PROVINCE).colour`. The same key met twice,
    whatever a rule names its spot, is one table; two keys are two names (each node below is written
    whole and none of them writes `spot`, a word no constant is). A key holds nothing else
    (spot_filters `_board_constant`): anything else is refused here, never given a name of chance."""
    match e:
        case t.Note():
            return group_key(e.expr, spot)
        case t.Ref() if e.sym is spot:
            return "spot"
        case t.Ref() if e.sym.kind == "const":
            return e.sym.py
        case t.Num():
            return str(e.value)
        case t.Bool():
            return "true" if e.value else "false"
        case t.Builtin() if not e.extra:
            return f"{e.func}({', '.join(group_key(a, spot) for a in e.args)})"
        case t.AttrOf():
            return f"{group_key(e.obj, spot)}.{e.name}"
    raise AssertionError(f"spot_filters: no key of a spot is {type(e).__name__} {show(e, 40)}")


def set_lists_code(lo: Lowerer, e: t.Comprehension) -> pyir.Expr | None:
    """`sorted(S)` for `[x for x in S]` over a set that pass `sort_sets` marked (`lo`: the lowering),
    else None."""
    if not e.sorted_set:
        return None
    walk = expressions.iterable(lo, e.domain.ty, lo.node(e.domain), ordered=True)
    lo.notes.setdefault("the set sorted:", {})[show(e, 40)] = None
    return walk


def region_mask(lo: Lowerer, e: t.Expr) -> pyir.Expr:
    """The code of the mask of the regions of a list `e` in increasing order (-1: they are not; only
    where `exact` does not hold: the code calls `ORDERED`), written by `lo`."""
    bare = bare_of(e)
    match bare:
        case t.Builtin(func="regions_of"):
            return pyir.Subscript(pyir.dotted("self.board.kind_masks"), lo.node(bare.args[0]))
        case t.Cond():
            then, test = region_mask(lo, bare.then), lo.node(bare.test)  # (in the order written)
            return Paren(pyir.IfExp(then, test, region_mask(lo, bare.orelse)))
    return ordered(lo.node(e))


def listing_hoist_code(lo: Lowerer, e: t.Comprehension, joined: pyir.Expr) -> pyir.Expr:
    """The code to read the joined masks `joined` of the list `e` from: a local of the listing,
    bound once before its loops, when this pass found `e` and an action's later choice is being
    lowered (`lo.listing_hoisted`: the listing's bindings so far, the choice, those before it:
    lower/actions.py writes them); else `joined` itself."""
    if lo.listing_hoisted is None or not e.joined_once:
        return joined
    bound: list[tuple[str, str | None, pyir.Expr, str]]
    bound, choice, before = lo.listing_hoisted
    for name, _, code, _ in bound:
        if text(code) == text(joined):  # (the same masks, as written)
            return Name(name)
    if len(bound) >= MAX_TABLE_CHOICES:
        return joined
    name = f"_joined{len(bound)}"  # (compiler/names.py TEMPLATE_LOCALS)
    earlier = " and ".join(f"`{b}`" for b in before)
    bound.append((name, None, joined, f"{e.span.short}; `hoist_masks`: the masks the spots of `{choice}` are "
                  f"made from, the same for every {earlier}, joined once before the loops"))
    return Name(name)


def count_items_code(lo: Lowerer, e: t.Comprehension) -> pyir.Expr | None:
    """`(L).count(v)` for a comprehension the pass took (`lo`: the lowering),
    else None."""
    if not e.counted:
        return None
    value = counted(e, lo.defines)
    if value is None:
        return None
    domain = lo.node(e.domain)
    lo.notes.setdefault("counted as the list's own count", {})[show(e, 40)] = None
    if not items_of_names(domain, nested=False):
        domain = Paren(domain)
    return Call(pyir.Attribute(domain, "count"), (lo.node(value),))


def component_sets_code(lo: Lowerer, e: t.Comprehension) -> pyir.Expr | None:
    """The set operation for a comprehension the pass takes (`lo`: the lowering,
    compiler/lower/), else None. A table is used only once the module has written it (not in an
    attribute's own table)."""
    found = taken(lo.typed, e, lo.defines)
    if found is None:
        return None
    written = {name for name, _, _, _ in lo.program.component_tables}
    tables = [component_sets_constant(table) for table, _ in found.tests]
    sets = [pyir.Subscript(Name(name), pyir.Constant(True) if value is None else lo.node(value))
            for name, (_, value) in zip(tables, found.tests, strict=True)]
    if any(name not in written for name in tables) or found.made and found.made not in written:
        return None
    domain = _operand(lo.node(found.domain))
    lo.notes.setdefault("a set operation for", {})[show(e, 40)] = None
    if found.func == "set":
        return Call(Name("frozenset"), (Call(Name("map"), (pyir.dotted(f"{found.made}.__getitem__"), domain)),))
    if found.func == "count":
        return Call(Name("len"), (_both(domain, *sets),))
    if found.func == "all":
        return pyir.Compare(domain, ("<=",), (sets[0] if len(sets) == 1 else Paren(_both(*sets)),))
    if not sets:
        return Call(Name("bool"), (domain,))
    if len(sets) == 1:
        return Paren(pyir.UnaryOp("not", Call(pyir.Attribute(domain, "isdisjoint"), (sets[0],))))
    return Call(Name("bool"), (_both(domain, *sets),))


def _both(first: pyir.Expr, *more: pyir.Expr) -> pyir.Expr:
    """`a & b & c`: the items in every one of the sets."""
    out = first
    for x in more:
        out = pyir.BinOp(out, "&", x)
    return out


def _operand(py: pyir.Expr) -> pyir.Expr:
    """`py` as an operand of `&` or of a method call: in parentheses unless a name, an attribute or an item."""
    return py if items_of_names(py, nested=True) else Paren(py)
