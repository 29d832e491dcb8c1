"""The state every part of lowering shares (`Lowerer`), passed to the functions of each module that
lowers one kind of syntax (expressions.py, comprehensions.py, effects.py, definitions.py, actions.py
and its listings, listings.py, boards.py and its kept tests of regions, regions.py; the limits of a
move, limits.py; the walk of the rule set, rules.py), as mypyc's
`IRBuilder` is to its transforms.

Each of those modules imports this one and the modules below it, never one above: where a part
needs one lowered above it (an expression its comprehension or the facts of a definition it calls,
an effect the cost of a procedure, the boards a definition), it calls it through the shared state
(`lo.node(e)`, `lo.comprehension(e)` ...), which reaches it through `Transforms`, filled by the
package's entry point (lower/__init__.py), as mypyc's `IRBuilder.accept` reaches its transforms
through the visitor its caller gives it. The modules, bottom up: lowerer (with the state of the
limits of a move, `MoveLimits`, and what the rules' values kept between moves and their decisions
waited for are, `Keeping` and `Steps`), regions, boards, limits, expressions, comprehensions,
effects, definitions, listings, actions, rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...core.source import Diagnostic, SourceSpan
from .. import typed as t
from ..budget import NOTHING, Facts
from ..lowered import Program
from ..names import joined as invented
from ..pyir import Expr, Stmt
from ..typed import Symbol
from .code import Small

END_SLOT = "_kept_end"  # (pass `keep_end`) the slot of the end's value


@dataclass(frozen=True)
class Transforms:
    """The transforms the shared state reaches for the parts of lowering that call a part above
    their own (lower/__init__.py fills it)."""

    expr: Callable[[Lowerer, t.Expr], Expr]  # expressions.expr
    comprehension: Callable[[Lowerer, t.Comprehension], Expr]  # comprehensions.comprehension
    define_walk: Callable[[Lowerer, t.Define], tuple[Expr, Small]]  # definitions.define_walk
    define_call_facts: Callable[[Lowerer, t.Define, int], Facts]  # definitions.define_call_facts
    procedure_cost: Callable[[Lowerer, str], int]  # definitions.procedure_cost


@dataclass(eq=False)  # (compared, and hashed, as the one object it is)
class MoveLimits:
    """The state of the limits of a move (compiler/budget.py, limits.py) that lowering shares, part
    of `Lowerer`: what each expression is known to be and to cost, by node, and where the checks
    of runtime/limits.py go."""

    assumed: dict[str, Facts] | None = None  # what lower() learnt the fields hold
    derived: dict[str, Facts] = field(default_factory=dict)  # what this walk finds stored in them
    facts: t.ByNode[t.Expr, Facts] = field(default_factory=t.ByNode)
    local_facts: dict[Symbol, Facts] = field(default_factory=dict)
    costs: t.ByNode[t.Stmt, int] = field(default_factory=t.ByNode)  # the unchecked work of each statement
    block_cost: int = 0  # of the block lowered last
    define_facts: dict[str, tuple[Facts, int]] = field(default_factory=dict)  # result, and the work of a call
    procedure_costs: dict[str, int] = field(default_factory=dict)
    charges: int = 0  # checks that charge the budget, met so far (in code, or in what it calls)
    charging: set[str] = field(default_factory=set)  # definitions and procedures whose code charges it
    # procedures whose proven work is large: each charges it as it starts
    spending: set[str] = field(default_factory=set)
    charging_triggers: set[str] = field(default_factory=set)  # the methods of triggers whose code does
    # A rule that only reads the game checks at its start that the lists it searches are small
    # (`hoisted`, by their code, in the order met; None: this rule changes the game, each operation
    # is checked where it is); `entry` are its parameters, known at its start.
    hoisted: dict[str, Expr] | None = None
    hoist_sites: int = 0  # the operations on them, which may be nested one in another
    entry: frozenset[str] = frozenset()
    # While an effect statement is lowered: the lists it walks whose size is checked by a
    # statement of its own just before it (`if len(x) > 16: rt.walk(...)`: each list and its walk), and how many
    # scopes were open when it began (a name bound deeper is a comprehension's own).
    prechecks: list[tuple[Expr, Expr, Expr]] | None = None  # (list, its walk's code, its rule line)
    # Each such check written, by the code of its walk: the list it counts and its rule line
    # (`draw_out`, `join_rounds` ask it of the statements lowered, rather than parse them)
    walk_checks: dict[Expr, tuple[Expr, Expr]] = field(default_factory=dict)
    statement_scopes: int = 0


class Lowerer(MoveLimits):
    """The state every part of lowering shares: the rule set's tables, the passes' decisions, the
    program being written, the scopes bound, and (`MoveLimits`) the limits of a move."""

    # A coverage build's hook (compiler/probes.py): each effect statement's statements, given back
    # with the probes of its branches and loop bodies; None in every other build.
    probe: Callable[[t.Stmt, list[Stmt]], list[Stmt]] | None = None
    probe_expr: Callable[[t.Expr, Expr], Expr] | None = None  # and each expression's code

    def __init__(self, typed: t.TypedProgram, transforms: Transforms, assumed: dict[str, Facts] | None = None
                 ) -> None:
        self.typed = typed
        self.transforms = transforms
        self.rs = typed.rules
        self.tables = typed.tables
        self.component_count = dict(typed.tables.component_count)
        self.defines = {d.name: d for d in typed.defines}
        self.procedures = {p.name: p for p in typed.procedures}
        # The procedures and triggers (their methods) that can wait for a decision, and whether a
        # move notes each field as it first changes it (`Steps`)
        steps = Steps.of(typed)
        self.suspending, self.waiting, self.journal = steps.suspending, steps.waiting, steps.journal
        MoveLimits.__init__(self, assumed)  # (the state of the limits of a move: `MoveLimits`)
        self.diags: list[Diagnostic] = []
        tables = typed.tables
        self.program = Program(constants=list(tables.constants), enums=list(tables.enums), dice=list(tables.dice),
                               options=list(tables.options), region_kinds=tables.region_kinds, roles=tables.roles,
                               boards=list(tables.boards), neutral=tables.neutral)
        # The py names of the locals bound, scope by scope (`prechecked` asks which are known
        # before the statement being lowered).
        self.scopes: list[set[str]] = []
        # The nodes whose code gives its type's one runtime representation already (docs/language.md,
        # "Values"): a list is a tuple, a set a frozenset, all the way down. Others are converted
        # where the representation shows: stored, compared, or put into a list or set.
        self.canonical: t.NodeSet[t.Expr] = t.NodeSet()
        # (pass `unwrap_list_items`) the joins of a list read as it is and items written out: the list, how many items
        self.short_joins: dict[str, tuple[Expr, int]] = {}
        self.assigned: frozenset[str] = frozenset()  # the names the rule being lowered assigns to
        self.board_bounds: dict[str, int] | None = None
        self.resets: set[str] = set()
        self.called: set[str] = set()  # the definitions called as methods (Program.called)
        # Each table of the board the code finds by name: the slot of the state it would be bound to, and
        # the annotation, the code that finds it and what it holds (Program.board_lookups), in the order met
        self.board_lookups: dict[str, tuple[str, Expr, str]] = {}
        # What the passes keep_derived in the code lowered since the last line that took them (t.Note):
        # each verb ("inlined", "hoisted") with what, in the order met.
        self.notes: dict[str, dict[str, None]] = {}
        # Values kept between moves (passes `keep_derived`, `keep_end`, `drop_by_region`, `nest_by_region`, as they
        # annotated the program): each kept definition's slot, and the slots each change of a field drops (`Keeping`)
        keeping = Keeping.of(typed)
        self.kept, self.drops, self.nested = keeping.kept, keeping.drops, keeping.nested
        self.entry_drops, self.attribute_drops = keeping.entry_drops, keeping.attribute_drops
        self.region_drops = keeping.region_drops
        self.program.phase_drops = keeping.phase_drops
        # Some definition is `cached: true` (and not kept), or remembered per state (`t.Define.per_state`): every
        # change of a field forgets the values remembered.
        self.caching = self.program.caching = any(d.cached and d.name not in self.kept or d.per_state
                                                  for d in typed.defines)
        self.constant_values = {name: value for name, value, _ in tables.constants}
        # While an action's choice of lines is lowered as the lines' numbers (pass `index_actions`)
        self.line_numbers = False
        # While a later choice of a listing is lowered (pass `hoist_masks`): the masks joined once,
        # before the listing's loops (each local, its annotation, its code and the comment of its line), the choice's
        # name and the names of the choices before it
        self.listing_hoisted: tuple[list[tuple[str, str | None, Expr, str]], str, tuple[str, ...]] | None = None
        # While the last choice of a listing pass `gather_spots` gathers is lowered: the parts of its
        # list of spots (spot_filters_code: the masks joined first, each further group and its term's position)
        self.spot_row: list[tuple[Expr, list[tuple[Expr, int | None]]]] | None = None
        # (pass `mask_regions`) the kept tests of regions lowering keeps (their definitions charge nothing
        # to the limits of a move), and by the slot of each definition the masks of known bits its drops
        # make stale; decided once the fields are lowered (`keep_region_tests`)
        self.region_tests: list[t.RegionTest] = []
        self.region_known: dict[str, tuple[str, ...]] = {}

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, message, hint))

    def node(self, e: t.Expr) -> Expr:
        """The code of an expression (expressions.py), its facts kept for `fact`."""
        return self.transforms.expr(self, e)

    def comprehension(self, e: t.Comprehension) -> Expr:
        """The code of a comprehension (comprehensions.py), its facts kept for `fact`."""
        return self.transforms.comprehension(self, e)

    def define_walk(self, d: t.Define) -> tuple[Expr, Small]:
        """A definition's body lowered (definitions.py), what a call gives and costs remembered."""
        return self.transforms.define_walk(self, d)

    def define_call_facts(self, d: t.Define, args_cost: int) -> Facts:
        """What a call of a definition gives and costs (definitions.py), with its arguments' work."""
        return self.transforms.define_call_facts(self, d, args_cost)

    def procedure_cost(self, name: str) -> int:
        """The unchecked work of calling a procedure (definitions.py)."""
        return self.transforms.procedure_cost(self, name)

    def fact(self, e: t.Expr) -> Facts:
        """What is known of an expression lowered in this walk."""
        return self.facts.get(e, NOTHING)

    def bind(self, sym: Symbol) -> str:
        """A local is bound in the innermost scope (`prechecked` asks what is bound where)."""
        self.scopes[-1].add(sym.py)
        return sym.py


@dataclass(frozen=True)
class Keeping:
    """The values kept between moves, as the representation step annotated the program (`t.Define.kept`,
    `TypedProgram.end_kept`: passes `keep_derived`, `keep_end` ...): each kept definition's slot, and the
    slots each change of a field drops."""

    kept: dict[str, str]  # each kept definition's slot
    drops: dict[str, list[str]]  # the slots that an assignment to each field drops
    phase_drops: list[str]  # the slots a new phase or turn drops (they read the seat to act)
    # (pass `keep_derived`) the kept slots that an assignment to a field at one entity drops only
    # the values of: field -> slot -> (position of the parameter naming that entity, how many)
    entry_drops: dict[str, dict[str, tuple[int, int]]]
    # (pass `keep_derived`) the kept slots that a change of a field of sets by one item drops only the
    # values of the item's attribute of: field -> slot -> (position, how many parameters, table)
    attribute_drops: dict[str, dict[str, tuple[int, int, str]]]
    # (pass `drop_by_region`) the kept slots that an assignment to a field per spot drops only the
    # values of the regions holding the spot of: field -> slot -> (position, how many parameters)
    region_drops: dict[str, dict[str, tuple[int, int]]]
    # (pass `nest_by_region`) the kept slots whose values are nested by a region parameter: its position
    nested: dict[str, int]

    @staticmethod
    def of(typed: t.TypedProgram) -> Keeping:
        annotated = [(d, d.kept) for d in typed.defines if d.kept is not None]
        kept = {d.name: invented("d", d.name) for d, _ in annotated}
        drops: dict[str, list[str]] = {}
        kept_reads = [(kept[d.name], how.reads) for d, how in annotated]
        if typed.end_kept is not None and typed.end is not None:
            kept_reads.append((END_SLOT, typed.end_kept))
        for slot, reads in kept_reads:
            for name in sorted(reads.fields):
                drops.setdefault(name, []).append(slot)
        entry_drops: dict[str, dict[str, tuple[int, int]]] = {}
        attribute_drops: dict[str, dict[str, tuple[int, int, str]]] = {}
        region_drops: dict[str, dict[str, tuple[int, int]]] = {}
        for d, how in annotated:
            for field_name, k in how.entries:
                entry_drops.setdefault(field_name, {})[kept[d.name]] = (k, len(d.params))
            for field_name, k, table in how.attributes:
                attribute_drops.setdefault(field_name, {})[kept[d.name]] = (k, len(d.params), table)
            for field_name, k in how.regions:
                region_drops.setdefault(field_name, {})[kept[d.name]] = (k, len(d.params))
        return Keeping(kept, drops, [slot for slot, reads in kept_reads if reads.volatile], entry_drops,
                       attribute_drops, region_drops,
                       {kept[d.name]: how.nested for d, how in annotated if how.nested is not None})


@dataclass(frozen=True)
class Steps:
    """What can wait for a decision (`ask`): the procedures, and the triggers (their methods): an
    action after which one runs can wait too. Every move runs as steps if the end of a turn or a
    phase's start can: then a move notes each field as it first changes it (`journal_changes`), so that the
    state as the move began is made only for a move that waits, rather than copied before every
    move (`JOURNAL`, runtime/state.py `_do_steps`; pass `journal_changes`, `TypedProgram.journal`)."""

    suspending: set[str]
    waiting: set[str]
    journal: bool

    @staticmethod
    def of(typed: t.TypedProgram) -> Steps:
        suspending = _suspending(typed)
        waiting = {trig.method for trig in typed.triggers if _asks(trig.effect, suspending)}
        journal = typed.journal and (
            any(trig.at_turn_end and trig.method in waiting for trig in typed.triggers)
            or any(_asks(ph.start, suspending) for ph in typed.phases))
        return Steps(suspending, waiting, journal)


def _asks(stmts: tuple[t.Stmt, ...], suspending: set[str]) -> bool:
    """Whether a block of effects can wait for a decision: an `ask`, or a call of a procedure
    that can (`suspending`), in it or in its blocks."""
    return any(isinstance(s, t.Ask) or isinstance(s, t.CallEffect) and s.procedure in suspending
               for s in t.statements(stmts))


def _suspending(typed: t.TypedProgram) -> set[str]:
    """The procedures that can wait for a decision, directly or through the procedures they call."""
    out: set[str] = set()
    while True:
        more = {p.name for p in typed.procedures if p.name not in out and _asks(p.body, out)}
        if not more:
            return out
        out |= more
