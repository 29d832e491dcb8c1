"""The state every part of lowering shares (`Lowerer`), passed to the functions of each module that
lowers one kind of syntax (expressions.py, comprehensions.py, effects.py, definitions.py, actions.py,
boards.py; the limits of a move, limits.py; the walk of the rule set, rules.py), as mypyc's
`IRBuilder` is to its transforms.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import typed as t
from ..budget import NOTHING, Facts
from ..passes import Plan, region_masks, spot_filters
from ..pyir import Stmt
from ..source import Diagnostic, SourceSpan
from ..typed import Symbol
from . import expressions
from .definitions import Keeping
from .effects import Steps
from .program import Program


class Lowerer:
    # A coverage build's hook (compiler/probes.py): each effect statement's statements, given back
    # with the probes of its branches and loop bodies; None in every other build.
    probe: Callable[[t.Stmt, list[Stmt]], list[Stmt]] | None = None
    probe_expr: Callable[[t.Expr, str], str] | None = None  # and each expression's code

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

    def expr(self, e: t.Expr) -> str:
        """The code of an expression (expressions.py), its facts kept for `fact`."""
        return expressions.expr(self, e)

    def fact(self, e: t.Expr) -> Facts:
        """What is known of an expression lowered in this walk."""
        return self.facts.get(id(e), NOTHING)

    def bind(self, sym: Symbol) -> str:
        """A local is bound in the innermost scope (`prechecked` asks what is bound where)."""
        self.scopes[-1].add(sym.py)
        return sym.py
