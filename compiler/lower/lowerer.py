"""The lowering of one rule set: the state every part of lowering shares, and its walk.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import typed as t
from ..budget import (
    Facts,
)
from ..passes import (
    Plan,
    region_masks,
    spot_filters,
)
from ..source import Diagnostic, SourceSpan
from ..typed import Symbol
from . import actions, boards, comprehensions, definitions, expressions, limits
from . import effects as statements
from .code import answer_format
from .definitions import END_SLOT, Keeping
from .effects import Steps, _asks
from .program import Line, LoweredFunction, LoweredPhase, LoweredTrigger, Program


class Lowerer:
    # A coverage build's hook (compiler/probes.py): each effect statement's lines, given back with
    # the probes of its branches and loop bodies; None in every other build.
    probe: Callable[[t.Stmt, list[Line], int], list[Line]] | None = None
    probe_expr: Callable[[t.Expr, str], str] | None = None  # and each expression's code

    # expressions.py
    expr = expressions.expr
    lower = expressions.lower
    note = expressions.note
    canon = expressions.canon
    iterable = expressions.iterable
    binary = expressions.binary
    builtin = expressions.builtin
    arguments = expressions.arguments
    nonzero = expressions.nonzero
    builtin_facts = expressions.builtin_facts
    # comprehensions.py
    comprehension = comprehensions.comprehension
    plain_comprehension = comprehensions.plain_comprehension
    aggregate = comprehensions.aggregate
    nested_comprehension = comprehensions.nested_comprehension
    fused_filter = comprehensions.fused_filter
    region_any = comprehensions.region_any
    aggregate_loops = comprehensions.aggregate_loops
    # limits.py
    fact = limits.fact
    where = limits.where
    charged = limits.charged
    mark = limits.mark
    type_facts = limits.type_facts
    clamp = limits.clamp
    empty = limits.empty
    field_facts = limits.field_facts
    derive = limits.derive
    stored = limits.stored
    learnable = limits.learnable
    found = limits.found
    learnt = limits.learnt
    bind_params = limits.bind_params
    passed = limits.passed
    symbol_facts = limits.symbol_facts
    set_local = limits.set_local
    literal_facts = limits.literal_facts
    domain_facts = limits.domain_facts
    loop = limits.loop
    small_made = limits.small_made
    over = limits.over
    prechecked = limits.prechecked
    hoist = limits.hoist
    begin_reading = limits.begin_reading
    end_reading = limits.end_reading
    grown = limits.grown
    small_check = limits.small_check
    checked_store = limits.checked_store
    unit_expr = limits.unit_expr
    unit_lines = limits.unit_lines
    finite = limits.finite
    # effects.py (statements)
    take_notes = statements.take_notes
    noted = statements.noted
    statement = statements.statement
    effects = statements.effects
    block = statements.block
    stmt = statements.stmt
    let = statements.let
    told = statements.told
    call_effect = statements.call_effect
    ask = statements.ask
    journal_lines = statements.journal_lines
    assign_item = statements.assign_item
    assign = statements.assign
    condition = statements.condition
    # definitions.py
    define_walk = definitions.define_walk
    note_define = definitions.note_define
    define_call_facts = definitions.define_call_facts
    field = definitions.field
    procedure = definitions.procedure
    procedure_cost = definitions.procedure_cost
    component_tables = definitions.component_tables
    define = definitions.define
    # actions.py
    region_choice = actions.region_choice
    listing = actions.listing
    action = actions.action
    tabled_listing = actions.tabled_listing
    tabled_rows = actions.tabled_rows
    lower_actions = actions.lower_actions
    # boards.py
    bounds = boards.bounds
    kind_count = boards.kind_count
    keep_region_tests = boards.keep_region_tests
    board_table = boards.board_table
    kept_masks = boards.kept_masks

    def __init__(self, typed: t.TypedProgram, assumed: dict[str, Facts] | None = None,
                 plan: Plan | None = None) -> None:
        self.typed = typed
        self.plan = plan if plan is not None else Plan()  # what the optimisation passes decided
        self.rs = typed.rules
        self.tables = typed.tables
        self.component_count = dict(typed.tables.component_count)
        self.defines = {d.name: d for d in typed.defines}
        self.procedures = {p.name: p for p in typed.procedures}
        # The procedures and triggers (their methods) that can wait for a decision, and whether a
        # move notes each field as it first changes it (effects.Steps)
        steps = Steps.of(typed, self.plan)
        self.suspending, self.waiting, self.journal = steps.suspending, steps.waiting, steps.journal
        self.diags: list[Diagnostic] = []
        tables = typed.tables
        self.program = Program(constants=list(tables.constants), enums=list(tables.enums), dice=list(tables.dice),
                               options=list(tables.options), region_kinds=tables.region_kinds, roles=tables.roles,
                               boards=list(tables.boards), neutral=tables.neutral)
        # The py names of the locals bound, scope by scope (`prechecked` asks which are known
        # before the statement being lowered).
        self.scopes: list[set[str]] = []
        # The limits of a move (compiler/budget.py): what each expression is known to be and to
        # cost, by node; `assumed` is what lower() learnt the fields hold, `derived` what this
        # walk finds stored in them.
        self.assumed = assumed
        self.derived: dict[str, Facts] = {}
        self.facts: dict[int, Facts] = {}
        # The nodes whose code gives its type's one runtime representation already (docs/language.md,
        # "Values"): a list is a tuple, a set a frozenset, all the way down. Others are converted
        # where the representation shows: stored, compared, or put into a list or set.
        self.canonical: set[int] = set()
        # (pass `list_items`) the joins of a list read as it is and items written out: the list, how many items
        self.short_joins: dict[str, tuple[str, int]] = {}
        self.local_facts: dict[Symbol, Facts] = {}
        self.costs: dict[int, int] = {}  # the unchecked work of each statement
        self.block_cost = 0  # of the block lowered last
        self.assigned: frozenset[str] = frozenset()  # the names the rule being lowered assigns to
        self.define_facts: dict[str, tuple[Facts, int]] = {}  # result, and the work of a call
        self.procedure_costs: dict[str, int] = {}
        self.board_bounds: dict[str, int] | None = None
        self.resets: set[str] = set()
        self.called: set[str] = set()  # the definitions called as methods (Program.called)
        # (pass `board_tables`) each table of the board bound to a slot of the state: its slot's name, and
        # the annotation, the code that finds it and what it holds (Program.board_tables), in the order met
        self.bound_tables: dict[str, tuple[str, str, str]] = {}
        self.charges = 0  # checks that charge the budget, met so far (in code, or in what it calls)
        self.charging: set[str] = set()  # definitions and procedures whose code charges it
        self.spending: set[str] = set()  # procedures whose proven work is large: each charges it as it starts
        self.charging_triggers: set[str] = set()  # the methods of triggers whose code does
        # A rule that only reads the game checks at its start that the lists it searches are small
        # (`hoisted`, in the order met; None: this rule changes the game, each operation is checked
        # where it is); `entry` are its parameters, known at its start.
        self.hoisted: dict[str, None] | None = None
        self.hoist_sites = 0  # the operations on them, which may be nested one in another
        self.entry: frozenset[str] = frozenset()
        # While an effect statement is lowered: the lists it walks whose size is checked by a
        # statement of its own just before it (`if len(x) > 16: rt.walk(...)`), and how many
        # scopes were open when it began (a name bound deeper is a comprehension's own).
        self.prechecks: list[str] | None = None
        self.statement_scopes = 0
        # What the passes derived in the code lowered since the last line that took them (t.Note):
        # each verb ("inlined", "hoisted") with what, in the order met.
        self.notes: dict[str, dict[str, None]] = {}
        # Values kept between moves (passes `derived`, `end_once`, `region_drops`, `nested_drops`): each
        # kept definition's slot, and the slots each change of a field drops (definitions.Keeping)
        keeping = Keeping.of(self.plan, typed)
        self.kept, self.drops, self.nested = keeping.kept, keeping.drops, keeping.nested
        self.entry_drops, self.attribute_drops = keeping.entry_drops, keeping.attribute_drops
        self.region_drops = keeping.region_drops
        self.program.phase_drops = keeping.phase_drops
        # Some definition is `cached: true` (and not kept): every change of a field forgets the values remembered.
        self.caching = self.program.caching = any(d.cached and d.name not in self.kept for d in typed.defines)
        self.constant_values = {name: value for name, value, _ in tables.constants}
        # While an action's choice of lines is lowered as the lines' numbers (pass `action_tables`)
        self.line_numbers = False
        # While a later choice of a listing is lowered (pass `listing_hoist`): the masks joined once,
        # before the listing's loops (each local, its code and the comment of its line), the choice's
        # name and the names of the choices before it
        self.listing_hoisted: tuple[list[tuple[str, str, str]], str, tuple[str, ...]] | None = None
        # While the last choice of a listing pass `spot_rows` gathers is lowered: the parts of its
        # list of spots (spot_filters_code: the masks joined first, each further group and its term)
        self.spot_row: list[tuple[str, list[tuple[str, spot_filters.Term | None]]]] | None = None
        # (pass `region_masks`) the kept tests of regions lowering keeps (their definitions charge nothing
        # to the limits of a move), and by the slot of each definition the masks of known bits its drops
        # make stale; decided once the fields are lowered (`keep_region_tests`)
        self.region_tests: list[region_masks.Test] = []
        self.region_known: dict[str, tuple[str, ...]] = {}

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, message, hint))

    def bind(self, sym: Symbol) -> str:
        """A local is bound in the innermost scope (`prechecked` asks what is bound where)."""
        self.scopes[-1].add(sym.py)
        return sym.py

    # -- the rule set -------------------------------------------------------------------------
    def run(self) -> Program:
        typed, prog = self.typed, self.program
        self.component_tables()
        for f in typed.fields:
            prog.fields.append(self.field(f))
        self.keep_region_tests()
        for d in typed.defines:
            prog.defines.append(self.define(d))
        for p in typed.procedures:
            params, body = self.procedure(p)
            steps = p.name in self.suspending
            prog.procedures.append(LoweredFunction(p.name, params, "rt.Steps" if steps else "None", body, p.span,
                                                   steps=steps))
        self.triggers()
        self.phases()
        self.lower_actions()
        # setup: effects run once before the first turn, after every field has its init
        before = self.charges
        prog.setup = list(self.effects(typed.setup, typed.rules.span))
        self.mark(before, "setup")
        prog.setup_steps = _asks(typed.setup, self.suspending)
        prog.asks = [(name, answer_format(ty)) for name, ty in typed.asks]
        prog.secret_asks = typed.secret_asks
        prog.journal = self.journal
        prog.suspends = (prog.setup_steps or prog.turn_end_steps or any(a.steps for a in prog.actions)
                         or any(ph.steps for ph in prog.phases))
        self.ending()
        prog.records = [(r.name, tuple((name, str(ty)) for name, ty in r.fields)) for r in typed.rules.records]
        prog.resets = frozenset(self.resets)
        prog.called = frozenset(self.called)
        self.kept_masks()
        prog.board_tables = [(slot, *bound) for slot, bound in self.bound_tables.items()]
        return prog

    def triggers(self) -> None:
        """The triggers, each a rule of its own: its condition and its effects."""
        typed, prog = self.typed, self.program
        for trig in typed.triggers:
            before = self.charges
            self.assigned = frozenset()
            when = self.condition(trig.when, "") if trig.when is not None else None
            effect = self.effects(trig.effect, trig.span)
            if self.mark(before, "effect", *(("turn_end",) if trig.at_turn_end else ())):
                self.charging_triggers.add(trig.method)
            steps = trig.method in self.waiting
            prog.triggers.append(LoweredTrigger(trig.name, trig.method, when, effect, trig.span, steps))
            if trig.at_turn_end:
                prog.turn_end.append(trig.method)
                prog.turn_end_steps |= steps

    def phases(self) -> None:
        """The phases: each one's start (its effects) and who acts in it."""
        typed, prog = self.typed, self.program
        for ph in typed.phases:
            before = self.charges
            start = self.effects(ph.start, ph.span)
            self.mark(before, "start")
            self.assigned = frozenset()
            actor = self.condition(ph.actor, "actor") if ph.actor is not None else None
            prog.phases.append(LoweredPhase(ph.name, ph.const, start, ph.actions, ph.stuck, ph.span, actor,
                                            steps=_asks(ph.start, self.suspending)))

    def ending(self) -> None:
        """How the game ends: the end's test, the invariants, the scores and the tie break."""
        typed, prog = self.typed, self.program
        self.assigned = frozenset()
        if typed.end is not None:
            prog.end = self.condition(typed.end, "end")
            prog.end_span = typed.end.span
            prog.end_loops, prog.end = self.aggregate_loops(prog.end, set(), typed.end.span)
            if self.plan.end_once is not None:  # (pass `end_once`) kept in its slot between moves
                prog.kept_slots.append((END_SLOT, "bool | None"))
                reads = self.plan.end_once
                prog.end_kept = f"tested again once {reads.told()} changes" if reads.fields or reads.volatile \
                    else "tested once (it reads nothing that changes)"
        # (pass `own_drops`) a state whose dicts of kept values no copy shares drops values from them in place
        prog.own_drops = self.plan.own_drops and any(ann.startswith("dict[") for _, ann in prog.kept_slots)
        before = self.charges
        for inv in typed.invariants:
            prog.invariants.append((inv.name, self.condition(inv.expr, ""), inv.span))
        self.mark(before, "invariant")
        before = self.charges
        for term in typed.scoring:
            prog.scoring.append((term.name, self.condition(term.expr, "", "player"), term.span))
        self.mark(before, "score")
        if typed.tie_break is not None:
            prog.tie_break = self.condition(typed.tie_break, "tie_break", "player")
            if typed.tie_break.ty.kind == "list":  # compared item by item: a tuple
                prog.tie_break, prog.tie_break_type = f"tuple({prog.tie_break})", "tuple[int, ...]"
