"""Lowering an action: its choices, the loops that list them, its effect.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...runtime.limits import MAX_ACTIONS, MAX_STEPS, SMALL_LIST
from ...runtime.listing import SMALL_REGIONS
from .. import typed as t
from ..budget import (
    FREE_WORK,
    Facts,
    sat,
)
from ..names import MAX_TABLE_CHOICES
from ..names import joined as invented
from ..passes import (
    action_tables,
    choice_hoist,
    guard_inline,
    listing_tables,
    region_masks,
    spot_rows,
    value_tables,
)
from ..passes.rewrite import show
from ..passes.tabled_rows import key_code
from ..types import Ty
from .code import _CHARGES, Reading, _annotation, _parenthesised, _unparenthesised
from .comprehensions import region_mask_code
from .effects import _asks, _assigned
from .program import LoweredAction, LoweredChoice

# (pass `region_masks`) the last choice made from masks of regions: its tests' code and the locals bound first
RegionRow = tuple[region_masks.Choice, list[tuple[str | None, str | None]], list[tuple[str, str, str]]]

if TYPE_CHECKING:
    from .lowerer import Lowerer


def region_choice(self: Lowerer, a: t.Action, i: int, domain_py: str, charges: int) -> tuple[
        region_masks.Choice, list[tuple[str | None, str | None]], list[tuple[str, str, str]]] | None:
    """(pass `region_masks`) The last choice of `a` made from masks of regions, if taken: its tests'
    code (a test of the earlier choices written over the comprehension's variable, or the local of a
    kept test's mask) and the locals bound before the loops (the regions walked, each kept test's
    mask). Not where the plain walk charges the limits of a move itself, nor a kept test's
    definition does (`charges`: the count before the choice was lowered)."""
    found = region_masks.choice_of(self.plan, a.name)
    if found is None or i != len(a.choices) - 1 or _CHARGES.search(domain_py) or self.charges > charges \
            or any(term.kept is not None and term.kept not in self.region_tests for term in found.terms):
        return None
    comment = a.choices[i].span.short
    mask = region_mask_code(self, found.regions)
    disorder = region_masks.ORDERED in mask
    bound = [("_regions_mask", mask, f"{comment}; `region_masks`: the regions `{a.choices[i].var.name}` walks, "
              f"as a bit mask{' (-1: not in region order)' if disorder else ''}")]
    terms: list[tuple[str | None, str | None]] = []
    for term in found.terms:
        if term.kept is not None:
            local = f"_kept_regions{len(bound) - 1}"
            kept = f"self.{term.kept.within}(_regions_mask)"
            bound.append((local, f"{kept} if _regions_mask > 0 else 0" if disorder else kept,
                          f"{comment}; `region_masks`: the regions where `{term.kept.text}`, from its kept mask"))
            terms.append((None, local))
        else:
            assert term.test is not None and term.var is not None
            self.scopes.append(set())
            self.bind(term.var)
            terms.append((self.expr(term.test), None))
            self.scopes.pop()
    return found, terms, bound


def listing(self: Lowerer, a: t.Action, loops: list[tuple[t.Choice, str, str, Facts, Ty]],
            reading: Reading) -> tuple[tuple[str, ...], bool, int | None]:
    """The loops that list an action's choices, one inside the other: each counted as it
    starts if need be (its walk is rewritten in `loops`). Returns the lines the listing starts
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
        walk, work, rounds, _ = self.loop(walk, domain, per_round, c.domain.span, lists=unknown_items)
        loops[i] = (c, py, walk, domain, elem)
        counted = walk.startswith("rt.")
        count = None if count is None or counted or domain.size is None else sat(count * domain.size)
        per_round = sat(1 + domain.cost + work)
    prelude: list[str] = []
    lists = self.end_reading(reading)
    if lists[0]:  # the lists it took for small are checked first
        prelude.append(f"if {' or '.join(f'len({py}) > {SMALL_LIST}' for py in lists[0])}:")
        prelude.append(f"    {self.grown(lists, per_round, a.span)}")
    if per_round > FREE_WORK:
        self.charged()
        prelude.append(f"rt.spend(self, {min(per_round, MAX_STEPS + 1)}, {self.where(a.span)})")
    clear_cache = not all(self.finite(elem, domain.item) for _, _, _, domain, elem in loops)
    return tuple(prelude), clear_cache, count


def action(self: Lowerer, a: t.Action) -> LoweredAction:
    self.scopes = [set()]
    self.assigned = frozenset(_assigned(a.effect))  # (a choice its effect assigns to is only its type)
    before = self.charges
    when = None
    if a.when is not None:
        when = self.condition(a.when, "")
        self.mark(before, "legal", "guard")
    self.scopes = [set()]
    loops: list[tuple[t.Choice, str, str, Facts, Ty]] = []
    reading = self.begin_reading(())
    notes: list[str] = []
    self.take_notes()
    table = action_tables.table_of(self.plan, a.name)
    spot_row: tuple[str, str, list[tuple[str, bool]]] | None = None
    region_row: RegionRow | None = None
    joined: list[tuple[str, str, str]] = []  # (pass `listing_hoist`) bound before the loops
    for i, c in enumerate(a.choices):
        self.line_numbers = table is not None and table.levels[i].how == "lines"
        self.listing_hoisted = (joined, c.var.name, tuple(ch.var.name for ch in a.choices[:i])) \
            if i > 0 and self.plan.listing_hoists else None
        self.spot_row = [] if i == len(a.choices) - 1 and a.name in self.plan.spot_rows else None
        charges = self.charges
        domain_py = self.expr(c.domain)
        if region_row is None:  # (pass `region_masks`) the last choice, a region, made from masks
            region_row = self.region_choice(a, i, domain_py, charges)
        if self.spot_row:  # (pass `spot_rows`) the list is the spots_of made of these parts
            first, groups = self.spot_row[-1]
            spot_row = (domain_py, first, [(code, term is not None and spot_rows.fixed(
                term, tuple(ch.var for ch in a.choices[:i]))) for code, term in groups])
        self.spot_row = None
        self.line_numbers = False
        self.listing_hoisted = None
        walk = self.iterable(c.domain.ty, domain_py)
        if (a.name, i) in self.plan.choice_hoists:  # (pass `choice_hoist`) made once, when first walked
            walk = choice_hoist.hoisted(joined, walk, _annotation(c.domain.ty), c.var.name, c.domain.span.short,
                                        MAX_TABLE_CHOICES)
        notes.append(self.take_notes())
        domain = self.domain_facts(c.domain)
        py = self.bind(c.var)
        self.set_local(c.var, domain.item)
        loops.append((c, py, walk, domain, c.var.ty))
    listing_prelude, clear_cache, count = self.listing(a, loops, reading)
    bindings = [f"{name} = {code}  # {comment}" for name, code, comment in joined]
    listed = listing_tables.listed_of(self.plan, a.name)
    if listed is not None and (table is None or clear_cache or any("rt." in walk for _, _, walk, _, _ in loops)):
        listed = None  # (pass `listing_tables`) a walk charges the budget itself: listed the plain way
    if listed is None:
        listing_prelude += tuple(bindings)
    fresh_listing = self.mark(before, "legal")
    choices = tuple(LoweredChoice(c.var.name, py, walk, elem.kind == "list", c.span, note)
                    for (c, py, walk, _, elem), note in zip(loops, notes, strict=True))
    params = tuple((c.var.py, _annotation(c.var.ty)) for c in a.choices)
    before = self.charges
    effect = self.unit_lines(self.block(a.effect, 2), self.block_cost, a.span)
    fresh_effect = self.mark(before, "effect") or any(trig in self.charging_triggers for trig in a.triggers)
    steps = _asks(a.effect, self.suspending) or any(trig in self.waiting for trig in a.triggers)
    listing: tuple[str, ...] = ()
    if table is not None:  # through tables per board (pass `action_tables`)
        listing, regions_bound = self.tabled_listing(a, table, choices, clear_cache, spot_row, region_row, listed,
                                                     bindings)
        listing_prelude += regions_bound
    revealed = None
    if a.revealed is not None:  # a rule of its own, read with the move's choices bound
        revealed = self.condition(a.revealed, "revealed", *(c.var.py for c in a.choices))
    return LoweredAction(a.name, invented("do", a.name), params, when, choices, a.text_parts, effect, a.triggers,
                         a.then, a.span, others_parts=a.others_parts, revealed=revealed,
                         listing_prelude=listing_prelude, clear_cache=clear_cache, count=count,
                         fresh_listing=fresh_listing, fresh_effect=fresh_effect, steps=steps, listing=listing,
                         unguarded=guard_inline.written(self.plan, when and _unparenthesised(when),
                                                        _parenthesised(_unparenthesised(when or ""))))


def tabled_listing(self: Lowerer, a: t.Action, table: action_tables.Table, choices: tuple[LoweredChoice, ...],
                   clear_cache: bool, spot_row: tuple[str, str, list[tuple[str, bool]]] | None,
                   region_row: RegionRow | None, listed: listing_tables.Listed | None,
                   bindings: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(pass `action_tables`) The lines that list an action's moves through tables per board, and the
    locals its listing binds first (pass `region_masks`: the masks of its last choice's regions);
    `spot_row`, `region_row`: the last choice as gathered by passes `spot_rows`, `region_masks`;
    `listed`: pass `listing_tables`'s list remembered by value, with its `bindings`."""
    walks = [(ch.py_name, ch.domain, ch.is_list, ch.span.short) for ch in choices]
    gather = spot_row[1:] if spot_row is not None and spot_row[0] == choices[-1].domain else None
    # (pass `listing_tables`) a list remembered by value
    into = "_actions" if listed is None else "_listed_actions"
    regions = None
    if region_row is not None and listed is None and gather is None:  # (pass `region_masks`)
        found, terms, bound = region_row
        regions = (terms, found.var.py, region_masks.fixed_count(found),
                   region_masks.ORDERED in bound[0][1], self.bounds()["region"] <= SMALL_REGIONS)
    lines = action_tables.listing(table, a.name, clear_cache, walks, self.board_table, gather, into, regions,
                                  self.tabled_rows(a))
    first: tuple[str, ...] = ()
    if regions is not None and lines and region_row is not None:
        first = tuple(f"{name} = {code}  # {comment}" for name, code, comment in region_row[2])
    listing = tuple(lines if listed is None
                    else listing_tables.remembered(listed, a.name, lines, bindings, self.board_table))
    return listing, first


def tabled_rows(self: Lowerer, a: t.Action) -> tuple[str, str, str] | None:
    """(pass `tabled_rows`) The key the first choice's walk is remembered by (`value_tables`), the
    type of its values and what the key is in words; None for a listing the pass did not take."""
    first = a.choices[0] if a.choices else None
    if a.name not in self.plan.tabled_rows or first is None or not isinstance(first.domain, t.DefineCall):
        return None
    table = value_tables.table_of(self.plan, first.domain.define)
    if table is None:
        return None
    args = [self.expr(arg) for arg in first.domain.args]
    key = key_code(table.py, table.at, table.params, args)
    field = table.field if table.at is None else f"{table.field}[{show(first.domain.args[table.at])}]"
    what = " and ".join([f"`{field}`", *(f"`{show(first.domain.args[k])}`" for k in table.params)])
    return key, _annotation(first.var.ty), what


def lower_actions(self: Lowerer) -> None:
    """The actions; a phase whose actions may list more than MAX_ACTIONS counts them when listed."""
    typed, prog = self.typed, self.program
    for a in typed.actions:
        prog.actions.append(self.action(a))
    # A phase whose actions may list more than MAX_ACTIONS counts them when listed.
    counts = {a.name: a.count for a in prog.actions}
    for i, phase in enumerate(prog.phases):
        numbers = [counts.get(name) for name in phase.actions]
        if any(n is None for n in numbers) or sum(n or 0 for n in numbers) > MAX_ACTIONS:
            prog.phases[i] = phase = replace(phase, many_actions=True)
        if any(a.fresh_listing for a in prog.actions if a.name in phase.actions):
            prog.phases[i] = replace(phase, fresh_listing=True)
