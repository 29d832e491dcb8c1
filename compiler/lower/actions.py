"""Lowering an action: its choices, the loops that list them, its effect.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from ...runtime.limits import MAX_ACTIONS, MAX_STEPS, SMALL_LIST
from ...runtime.listing import SMALL_REGIONS
from .. import typed as t
from ..budget import FREE_WORK, Facts, sat
from ..lowered import LoweredAction, LoweredChoice
from ..names import MAX_TABLE_CHOICES
from ..names import joined as invented
from ..passes.rewrite import show
from ..pyir import (
    Attribute,
    Block,
    BoolOp,
    Call,
    Compare,
    Constant,
    Expr,
    IfExp,
    Name,
    Stmt,
    Subscript,
    assign,
    call,
    dotted,
    if_,
    rt,
)
from ..pyir import walk as each_node
from ..typed import Listed, RegionChoice, Table
from ..types import Ty
from . import boards, effects, expressions, limits, listings
from .code import Reading, _annotation
from .code import charges as charging
from .comprehensions import region_mask
from .effects import _assigned
from .lowerer import _asks
from .regions import ORDERED, fixed_count

if TYPE_CHECKING:
    from .lowerer import Lowerer

# (pass `mask_regions`) the last choice made from masks of regions: its tests' code and the locals bound first
RegionRow = tuple[RegionChoice, list[tuple[Expr | None, str | None]], list[tuple[str, Expr, str]]]


def region_choice(lo: Lowerer, a: t.Action, i: int, domain: Expr, charges: int) -> RegionRow | None:
    """(pass `mask_regions`) The last choice of `a` made from masks of regions, if taken: its tests'
    code (a test of the earlier choices written over the comprehension's variable, or the local of a
    kept test's mask) and the locals bound before the loops (the regions walked, each kept test's
    mask). Not where the plain walk charges the limits of a move itself, nor a kept test's
    definition does (`charges`: the count before the choice was lowered; `domain`: the choice's list, lowered)."""
    found = a.listing.regions
    if found is None or i != len(a.choices) - 1 or charging(domain) or lo.charges > charges \
            or any(term.kept is not None and term.kept not in lo.region_tests for term in found.terms):
        return None
    comment = a.choices[i].span.short
    mask = region_mask(lo, found.regions)
    disorder = _ordered_mask(mask)
    bound: list[tuple[str, Expr, str]] = [(
        "_regions_mask", mask, f"{comment}; `mask_regions`: the regions `{a.choices[i].var.name}` walks, "
        f"as a bit mask{' (-1: not in region order)' if disorder else ''}")]
    terms: list[tuple[Expr | None, str | None]] = []
    for term in found.terms:
        if term.kept is not None:
            local = f"_kept_regions{len(bound) - 1}"
            regions_mask = Name("_regions_mask")
            kept = Call(dotted(f"self.{term.kept.within}"), (regions_mask,))
            bound.append((local, IfExp(kept, Compare(regions_mask, (">",), (Constant(0),)), Constant(0)) if disorder
                          else kept,
                          f"{comment}; `mask_regions`: the regions where `{term.kept.text}`, from its kept mask"))
            terms.append((None, local))
        else:
            assert term.test is not None and term.var is not None
            lo.scopes.append(set())
            lo.bind(term.var)
            terms.append((lo.node(term.test), None))
            lo.scopes.pop()
    return found, terms, bound


def listing_loops(lo: Lowerer, a: t.Action, loops: list[tuple[t.Choice, str, Expr, Facts, Ty]],
                  reading: Reading) -> tuple[Block, bool, int | None]:
    """The loops that list an action's choices, one inside the other: each counted as it
    starts if need be (its walk is rewritten in `loops`). Returns the statements the listing starts
    with (checks of its lists, the charge of its proven work when large), whether the interned
    actions must be kept few (a choice of numbers can name ever new values), and at most how
    many actions it lists."""
    # the innermost round builds one action, copying each list chosen into its key
    per_round = sat(1 + sum(domain.item.size or 0 for _, _, _, domain, elem in loops
                            if elem.kind == "list" and domain.item is not None))
    count: int | None = 1
    for i in reversed(range(len(loops))):
        c, py, walk, domain, elem = loops[i]
        unknown_items = elem.kind == "list" and (domain.item is None or domain.item.size is None)
        walk, work, rounds, _ = limits.loop(lo, walk, domain, per_round, c.domain.span, lists=unknown_items)
        loops[i] = (c, py, walk, domain, elem)
        counted = _runtime_first(walk)
        count = None if count is None or counted or domain.size is None else sat(count * domain.size)
        per_round = sat(1 + domain.cost + work)
    prelude: list[Stmt] = []
    lists = limits.end_reading(lo, reading)
    if lists[0]:  # the lists it took for small are checked first
        longer = tuple(Compare(Call(Name("len"), (py,)), (">",), (Constant(SMALL_LIST),)) for py in lists[0])
        prelude.append(if_(longer[0] if len(longer) == 1 else BoolOp("or", longer),
                           call(limits.grown(lo, lists, per_round, a.span))))
    if per_round > FREE_WORK:
        limits.charged(lo)
        prelude.append(call(rt("spend", Name("self"), Constant(min(per_round, MAX_STEPS + 1)), limits.at(lo, a.span))))
    clear_cache = not all(limits.finite(lo, elem, domain.item) for _, _, _, domain, elem in loops)
    return tuple(prelude), clear_cache, count


def action(lo: Lowerer, a: t.Action) -> LoweredAction:
    lo.scopes = [set()]
    lo.assigned = frozenset(_assigned(a.effect))  # (a choice its effect assigns to is only its type)
    before = lo.charges
    when = None
    if a.when is not None:
        when = effects.condition_node(lo, a.when, "")
        limits.mark(lo, before, "legal", "guard")
    lo.scopes = [set()]
    loops: list[tuple[t.Choice, str, Expr, Facts, Ty]] = []
    reading = limits.begin_reading(lo, ())
    notes: list[str] = []
    effects.take_notes(lo)
    table = a.listing.table
    spot_row: tuple[Expr, Expr, list[tuple[Expr, bool]]] | None = None
    region_row: RegionRow | None = None
    joined: list[tuple[str, str | None, Expr, str]] = []  # (pass `hoist_masks`) bound before the loops
    for i, c in enumerate(a.choices):
        lo.line_numbers = table is not None and table.levels[i].how == "lines"
        lo.listing_hoisted = (joined, c.var.name, tuple(ch.var.name for ch in a.choices[:i])) \
            if i > 0 else None
        lo.spot_row = [] if i == len(a.choices) - 1 and a.listing.spot_row is not None else None
        charges = lo.charges
        domain_py = lo.node(c.domain)
        if region_row is None:  # (pass `mask_regions`) the last choice, a region, made from masks
            region_row = region_choice(lo, a, i, domain_py, charges)
        if lo.spot_row:  # (pass `gather_spots`) the list is the spots_of made of these parts
            first, groups = lo.spot_row[-1]
            fixed = a.listing.spot_row or ()  # (the filter's tests computed once per row)
            spot_row = (domain_py, first, [(code, at is not None and at in fixed) for code, at in groups])
        lo.spot_row = None
        lo.line_numbers = False
        lo.listing_hoisted = None
        walk = expressions.iterable(lo, c.domain.ty, domain_py)
        if c.made_once:  # (pass `hoist_choices`) made once, when first walked
            walk = listings.hoisted(joined, walk, _annotation(c.domain.ty), c.var.name, c.domain.span.short,
                                    MAX_TABLE_CHOICES, runtime)
        notes.append(effects.take_notes(lo))
        domain = limits.domain_facts(lo, c.domain)
        py = lo.bind(c.var)
        limits.set_local(lo, c.var, domain.item)
        loops.append((c, py, walk, domain, c.var.ty))
    listing_prelude, clear_cache, count = listing_loops(lo, a, loops, reading)
    bindings: list[Stmt] = [assign(Name(name), code, note=comment, annotation=annotation)
                            for name, annotation, code, comment in joined]
    listed = a.listing.remembered
    if listed is not None and (table is None or clear_cache or any(runtime(walk) for _, _, walk, _, _ in loops)):
        listed = None  # (pass `remember_listings`) a walk charges the budget itself: listed the plain way
    if listed is None:
        listing_prelude += tuple(bindings)
    fresh_listing = limits.mark(lo, before, "legal")
    choices = tuple(LoweredChoice(c.var.name, py, walk, elem.kind == "list", c.span, note)
                    for (c, py, walk, _, elem), note in zip(loops, notes, strict=True))
    params = tuple((c.var.py, _annotation(c.var.ty)) for c in a.choices)
    before = lo.charges
    effect = limits.unit_lines(lo, effects.block(lo, a.effect), lo.block_cost, a.span)
    fresh_effect = limits.mark(lo, before, "effect") or any(trig in lo.charging_triggers for trig in a.triggers)
    steps = _asks(a.effect, lo.suspending) or any(trig in lo.waiting for trig in a.triggers)
    listing: Block = ()
    if table is not None:  # through tables per board (pass `index_actions`)
        listing, regions_bound = tabled_listing(lo, a, table, choices, clear_cache, spot_row, region_row, listed,
                                                     bindings)
        listing_prelude += regions_bound
    revealed = None
    if a.revealed is not None:  # a rule of its own, read with the move's choices bound
        revealed = effects.condition_node(lo, a.revealed, "revealed", *(c.var.py for c in a.choices))
    return LoweredAction(a.name, invented("do", a.name), params, when, choices, a.text_parts, effect, a.triggers,
                         a.then, a.span, others_parts=a.others_parts, revealed=revealed,
                         listing_prelude=listing_prelude, clear_cache=clear_cache, count=count,
                         fresh_listing=fresh_listing, fresh_effect=fresh_effect, steps=steps, listing=listing,
                         unguarded=listings.guard_written(a.when_written_out, when))


def tabled_listing(lo: Lowerer, a: t.Action, table: Table, choices: tuple[LoweredChoice, ...],
                   clear_cache: bool, spot_row: tuple[Expr, Expr, list[tuple[Expr, bool]]] | None,
                   region_row: RegionRow | None, listed: Listed | None,
                   bindings: list[Stmt]) -> tuple[Block, Block]:
    """(pass `index_actions`) The statements that list an action's moves through tables per board, and the
    locals its listing binds first (pass `mask_regions`: the masks of its last choice's regions);
    `spot_row`, `region_row`: the last choice as gathered by passes `gather_spots`, `mask_regions`;
    `listed`: pass `remember_listings`'s list remembered by value, with its `bindings`."""
    walks = [(ch.py_name, ch.domain, ch.is_list, ch.span.short) for ch in choices]
    gather = spot_row[1:] if spot_row is not None and spot_row[0] == choices[-1].domain else None
    # (pass `remember_listings`) a list remembered by value
    into = "_actions" if listed is None else "_listed_actions"
    regions = None
    if region_row is not None and listed is None and gather is None:  # (pass `mask_regions`)
        found, terms, bound = region_row
        regions = (terms, found.var.py, fixed_count(found),
                   _ordered_mask(bound[0][1]), boards.bounds(lo)["region"] <= SMALL_REGIONS)
    board_table = partial(boards.board_table, lo)
    lines = listings.listing(table, a.name, clear_cache, walks, board_table, gather, into, regions,
                             tabled_rows(lo, a))
    first: Block = ()
    if regions is not None and lines and region_row is not None:
        first = tuple(assign(Name(name), code, note=comment) for name, code, comment in region_row[2])
    listing = tuple(lines if listed is None
                    else listings.remembered(listed, a.name, lines, bindings, board_table))
    return listing, first


def tabled_rows(lo: Lowerer, a: t.Action) -> tuple[Expr, str, str] | None:
    """(pass `find_rows_by_key`) The key the first choice's walk is remembered by (`remember_values`), the
    type of its values and what the key is in words; None for a listing the pass did not take."""
    first = a.choices[0] if a.choices else None
    if not a.listing.tabled_rows or first is None or not isinstance(first.domain, t.DefineCall):
        return None
    table = lo.defines[first.domain.define].tabled  # (pass `remember_values`)
    if table is None:
        return None
    args = [lo.node(arg) for arg in first.domain.args]
    key = listings.key_code(table.py, table.at, table.params, args)
    field = table.field if table.at is None else f"{table.field}[{show(first.domain.args[table.at])}]"
    what = " and ".join([f"`{field}`", *(f"`{show(first.domain.args[k])}`" for k in table.params)])
    return key, _annotation(first.var.ty), what


def runtime(e: Expr) -> bool:
    """Whether `e` reads anything of the runtime (`rt.walk(...)`, `rt.union(...)`): a walk that may
    charge the work of a move, or that is not the list itself."""
    return any(isinstance(x, Name) and x.id == "rt" for x in each_node(e))


def _ordered_mask(mask: Expr) -> bool:
    """Whether the mask of a choice's regions (`region_mask`) calls `ORDERED`: it may be -1, its
    regions not in increasing order. Asked of the nodes."""
    ordered = Attribute(Name("rt"), ORDERED.removeprefix("rt.").removesuffix("("))
    return any(isinstance(x, Call) and x.func == ordered for x in each_node(mask))


def _runtime_first(e: Expr) -> bool:
    """Whether `e` starts with something of the runtime (`rt.walk(self, ...)`): its leftmost part,
    asked of the nodes."""
    match e:
        case Name():
            return e.id == "rt"
        case Call():
            return _runtime_first(e.func)
        case Attribute() | Subscript():
            return _runtime_first(e.value)
    return False


def lower_actions(lo: Lowerer) -> None:
    """The actions; a phase whose actions may list more than MAX_ACTIONS counts them when listed."""
    typed, prog = lo.typed, lo.program
    for a in typed.actions:
        prog.actions.append(action(lo, a))
    # A phase whose actions may list more than MAX_ACTIONS counts them when listed.
    counts = {a.name: a.count for a in prog.actions}
    for i, phase in enumerate(prog.phases):
        numbers = [counts.get(name) for name in phase.actions]
        if any(n is None for n in numbers) or sum(n or 0 for n in numbers) > MAX_ACTIONS:
            prog.phases[i] = phase = replace(phase, many_actions=True)
        if any(a.fresh_listing for a in prog.actions if a.name in phase.actions):
            prog.phases[i] = replace(phase, fresh_listing=True)
