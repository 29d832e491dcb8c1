"""Stage 6, lower: the typed program (compiler/typed.py) written as Python, with the checks of
the limits of a move it needs.

`lower(program)` returns the diagnostics (a component attribute too costly to compute) and the
`Program`: every expression and effect written as Python lines, each with the rule line it came
from, which the code generator (compiler/codegen.py) only lays out.

Lowering decides each value's one runtime representation (docs/language.md "Values": a list is
a tuple, a set a frozenset, converted only where the representation shows), the order a set is
walked in, and what code is proven to cost (compiler/budget.py): where a run-time check of
runtime/limits.py goes, and where none is needed. What each list field can hold is learnt from
every assignment to it: `lower` walks the program again until what it assumed of the fields holds.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import assert_never

from ..runtime.limits import MAX_ACTIONS, MAX_INT, MAX_ITEMS, MAX_STEPS, SMALL_LIST
from ..runtime.listing import SMALL_REGIONS
from . import typed as t
from .budget import (
    FREE_WORK,
    NOTHING,
    STORED,
    UNSAFE,
    Facts,
    Mag,
    add_mag,
    at_most,
    join,
    join_mag,
    loop_cost,
    mul_mag,
    number,
    sat,
    scale_mag,
    storable,
)
from .names import FILTER_LOCAL, MAX_TABLE_CHOICES, base_use, faces_constant, phase_constant
from .names import joined as invented
from .passes import (
    Plan,
    action_tables,
    aggregate_loops,
    bitmask,
    choice_hoist,
    component_sets,
    count_items,
    draw_out,
    guard_inline,
    inline_procedures,
    join_rounds,
    lazy_hoist,
    list_items,
    listing_tables,
    range_bounds,
    region_masks,
    set_items,
    set_lists,
    spot_filters,
    spot_rows,
    tabled_rows,
    value_masks,
    value_tables,
)
from .passes.action_tables import Bind
from .passes.rewrite import show
from .signatures import BUILTINS
from .source import Diagnostic, SourceSpan
from .typed import BoardTable, Symbol
from .types import ANY, INT, Ty, entity, needs_key, python_type, unify


@dataclass(frozen=True, slots=True)
class Line:
    """One line of lowered Python at an indentation depth, with the rule it came from."""

    depth: int
    code: str
    source: SourceSpan | None = None
    note: str = ""  # what the optimisation passes derived in it, after the rule line in its comment


@dataclass(frozen=True, slots=True)
class LoweredChoice:
    name: str
    py_name: str
    domain: str
    is_list: bool
    span: SourceSpan
    note: str = ""  # what the optimisation passes derived in its domain, for its line's comment


@dataclass(frozen=True, slots=True)
class LoweredAction:
    name: str
    method: str
    params: tuple[tuple[str, str], ...]  # python name, annotation
    when: str | None
    choices: tuple[LoweredChoice, ...]
    text_parts: tuple[tuple[str, str | None], ...]  # literal text, or (choice python name, format kind)
    effect: tuple[Line, ...]
    triggers: tuple[str, ...]  # trigger method names to run afterwards
    then: tuple[tuple[int, int], ...]  # (phase index, next phase index)
    span: SourceSpan
    listing_prelude: tuple[str, ...] = ()  # the checks its listing starts with (runtime/limits.py)
    fresh_listing: bool = False  # its listing (or guard) charges the budget of a move
    fresh_effect: bool = False  # its effect (or a trigger after it) does
    clear_cache: bool = False  # its choices can name ever new values (numbers): keep few actions interned
    count: int | None = None  # at most this many legal actions (None: only the game knows)
    steps: bool = False  # its effect (or a trigger after it) can wait for a decision: a generator
    listing: tuple[str, ...] = ()  # its listing through tables per board (pass `action_tables`), if so
    unguarded: str | None = None  # (pass `guard_inline`) its listing's test of the `when:`, written out
    others_parts: tuple[tuple[str, str | None], ...] | None = None  # what the other seats read (`others_text:`)
    revealed: str | None = None  # from when on everyone reads the text (`revealed_when:`), over the choices


@dataclass(frozen=True, slots=True)
class LoweredFunction:
    name: str
    params: tuple[tuple[str, str], ...]
    returns: str
    body: tuple[Line, ...]
    span: SourceSpan
    doc: str = ""
    steps: bool = False  # (a procedure) it can wait for a decision: a generator
    cached: bool = False  # a definition computed once per state (its body remembers its value)
    kept: str = ""  # (pass `derived`) kept between moves: when it is computed again, for its comment
    version_of: str = ""  # (a definition) the one whose replaced version it is, for its comment: `base(...)`
    note: str = ""  # (a definition) what a pass decided of it that its body does not show, for its comment

    @property
    def remembered(self) -> bool:
        """(A definition) its value is remembered while the legal actions are listed (`_memo`): no
        parameter, not kept nor cached, one `return` (the template writes its memo around it)."""
        return not (self.kept or self.cached or self.params or self.body[-1].depth != 2
                    or not self.body[-1].code.startswith("return "))


@dataclass(frozen=True, slots=True)
class LoweredTrigger:
    name: str
    method: str
    when: str | None
    effect: tuple[Line, ...]
    span: SourceSpan
    steps: bool = False  # it can wait for a decision: a generator


@dataclass(frozen=True, slots=True)
class LoweredField:
    name: str
    annotation: str
    init: str
    per: str | None
    copy: str  # how clone copies it
    info: str  # the FieldInfo(...) literal
    span: SourceSpan
    shown: str | None = None  # the condition under which everyone sees it
    hidden_item: str | None = None  # the condition (over k) under which item k is hidden
    seen_by: str | None = None  # `visible: {to: ...}`: the player (over k) who sees entry or item k


@dataclass(frozen=True, slots=True)
class LoweredPhase:
    name: str
    const: str
    start: tuple[Line, ...]
    actions: tuple[str, ...]  # action method suffixes
    stuck: str
    span: SourceSpan
    actor: str | None = None  # who decides, when not the seat whose turn it is
    many_actions: bool = False  # its legal actions may pass MAX_ACTIONS: counted once listed
    fresh_listing: bool = False  # listing its actions charges the budget of a move: a fresh one first
    steps: bool = False  # its start can wait for a decision: a generator


@dataclass
class Program:
    constants: list[tuple[str, int, str]] = field(default_factory=list)  # NAME, value, comment
    enums: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    dice: list[tuple[str, tuple[str, ...], tuple[tuple[int, ...], ...]]] = field(default_factory=list)
    component_tables: list[tuple[str, str, str, SourceSpan]] = field(default_factory=list)  # NAME, type, code
    options: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # name, slot, choices
    region_kinds: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    boards: list[BoardTable] = field(default_factory=list)
    fields: list[LoweredField] = field(default_factory=list)
    defines: list[LoweredFunction] = field(default_factory=list)
    procedures: list[LoweredFunction] = field(default_factory=list)
    phases: list[LoweredPhase] = field(default_factory=list)
    actions: list[LoweredAction] = field(default_factory=list)
    triggers: list[LoweredTrigger] = field(default_factory=list)
    turn_end: list[str] = field(default_factory=list)
    end: str = "False"
    end_span: SourceSpan | None = None
    end_loops: list[Line] = field(default_factory=list)  # (pass `aggregate_loops`) before the end's test
    scoring: list[tuple[str, str, SourceSpan]] = field(default_factory=list)
    setup: list[Line] = field(default_factory=list)
    tie_break: str | None = None
    tie_break_type: str = "int"  # or `tuple[int, ...]`: a list of ints, compared item by item
    deciding: bool = False  # whether the rules read `deciding`: the module gets `_deciding()`
    records: list[tuple[str, tuple[tuple[str, str], ...]]] = field(default_factory=list)  # name, (field, type)
    neutral: tuple[str, ...] = ()
    # The methods the runtime enters rule code by whose code charges the budget of a move
    # (runtime/limits.py): each starts a fresh one. "setup", "end", "start" (a phase's),
    # "turn_end", "guard", "actor", "score", "tie_break", "shown", "hidden", "seen"; an action's
    # listing and effect start one if theirs charges ("legal", "effect": some does).
    resets: frozenset[str] = frozenset()
    # Sub-decisions (`ask`): whether any rule can wait for one, then the runtime runs moves as
    # steps; the setup's own; each choice's name and how its values are written.
    suspends: bool = False
    setup_steps: bool = False
    turn_end_steps: bool = False
    journal: bool = False  # a move notes the fields it changes, as it first changes each (`Lowerer.journal`)
    asks: list[tuple[str, str]] = field(default_factory=list)
    secret_asks: tuple[str, ...] = ()  # (`ask p to choose secretly ...`)
    invariants: list[tuple[str, str, SourceSpan]] = field(default_factory=list)  # name, condition, where
    # Values kept between moves (passes `derived`, `end_once`): each slot and its annotation; the
    # slots a new phase or turn drops (they read the seat to act); the end's note, if it is kept.
    kept_slots: list[tuple[str, str]] = field(default_factory=list)
    own_drops: bool = False  # (pass `own_drops`) the state says whether a copy may share its dicts of kept values
    phase_drops: list[str] = field(default_factory=list)
    end_kept: str = ""
    # Whether some definition is `cached: true` (and not kept): only then is `_derived` forgotten.
    caching: bool = False
    # What the passes keep on the state beside the fields (pass `bitmask`): slot, annotation, note, copy;
    # and how `_fields_set()` makes it again from the fields.
    kept: list[tuple[str, str, str, str]] = field(default_factory=list)  # (and how `_copy_fields` copies it)
    fields_set: list[str] = field(default_factory=list)
    forget: list[str] = field(default_factory=list)  # (pass `region_masks`) what `_forget_kept` also resets
    # (pass `board_tables`) the tables of the board found once as a game starts: slot, annotation, the code
    # that finds or makes it, and what it holds
    board_tables: list[tuple[str, str, str, str]] = field(default_factory=list)
    # The definitions the code calls as methods (those inlined, or written otherwise by a pass, are not):
    # a listing needs its `_memo` only if one of them is remembered while the legal actions are listed.
    called: frozenset[str] = frozenset()

    @property
    def listing_memo(self) -> bool:
        return any(d.remembered and d.name in self.called for d in self.defines)


_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


class _Lowerer:
    # A coverage build's hook (compiler/probes.py): each effect statement's lines, given back with
    # the probes of its branches and loop bodies; None in every other build.
    probe: Callable[[t.Stmt, list[Line], int], list[Line]] | None = None
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
        self.suspending = _suspending(typed)  # the procedures that can wait for a decision
        # the triggers that can (their methods): an action after which one runs can wait too
        self.waiting = {trig.method for trig in typed.triggers if _asks(trig.effect, self.suspending)}
        # Every move runs as steps (the end of a turn or a phase's start can wait for a decision):
        # a move notes each field as it first changes it, so that the state as the move began is
        # made only for a move that waits, rather than copied before every move (`JOURNAL`,
        # runtime/state.py `_do_steps`; pass `journal`).
        self.journal = self.plan.journal and (
            any(trig.at_turn_end and trig.method in self.waiting for trig in typed.triggers)
            or any(_asks(ph.start, self.suspending) for ph in typed.phases))
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
        # Values kept between moves (passes `derived`, `end_once`): each kept definition's slot, and
        # the slots that an assignment to each field drops.
        self.kept = {name: invented("d", name) for name, _ in self.plan.derived}
        self.drops: dict[str, list[str]] = {}
        kept_reads = [(self.kept[name], reads) for name, reads in self.plan.derived]
        if self.plan.end_once is not None and typed.end is not None:
            kept_reads.append((END_SLOT, self.plan.end_once))
        for slot, reads in kept_reads:
            for name in sorted(reads.fields):
                self.drops.setdefault(name, []).append(slot)
        self.program.phase_drops = [slot for slot, reads in kept_reads if reads.volatile]
        # (pass `derived`) the kept slots that an assignment to a field at one entity drops only
        # the values of: field -> slot -> (position of the parameter naming that entity, how many)
        arity = {d.name: len(d.params) for d in typed.defines}
        self.entry_drops: dict[str, dict[str, tuple[int, int]]] = {}
        for name, field_name, k in self.plan.derived_entries:
            self.entry_drops.setdefault(field_name, {})[self.kept[name]] = (k, arity[name])
        # (pass `derived`) the kept slots that a change of a field of sets by one item drops only the
        # values of the item's attribute of: field -> slot -> (position, how many parameters, table)
        self.attribute_drops: dict[str, dict[str, tuple[int, int, str]]] = {}
        for name, field_name, k, table in self.plan.derived_attributes:
            self.attribute_drops.setdefault(field_name, {})[self.kept[name]] = (k, arity[name], table)
        # (pass `region_drops`) the kept slots that an assignment to a field per spot drops only the
        # values of the regions holding the spot of: field -> slot -> (position, how many parameters)
        self.region_drops: dict[str, dict[str, tuple[int, int]]] = {}
        for name, field_name, k in self.plan.region_drops:
            self.region_drops.setdefault(field_name, {})[self.kept[name]] = (k, arity[name])
        # (pass `nested_drops`) the kept slots whose values are nested by a region parameter: its position
        self.nested = {self.kept[name]: k for name, k in self.plan.nested}
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
        # list of spots (spot_filters.lowered: the masks joined first, each further group and its term)
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

    # -- expressions --------------------------------------------------------------------------
    def expr(self, e: t.Expr) -> str:
        self.facts.pop(id(e), None)  # (an id is reused once its node is gone: facts are this walk's)
        self.canonical.discard(id(e))
        py = self.lower(e)
        if id(e) not in self.facts:  # what the type alone says; the work is its parts' work
            self.facts[id(e)] = self.type_facts(e.ty).plus(sum(self.fact(part).cost for part in t.subexpressions(e)))
        return py if self.probe_expr is None else self.probe_expr(e, py)

    def lower(self, e: t.Expr) -> str:
        match e:
            case t.Num():
                self.facts[id(e)] = number(e.value)
                return str(e.value)
            case t.Str():
                return repr(e.value)
            case t.Bool():
                return str(e.value)
            case t.Ref():
                self.facts[id(e)] = self.symbol_facts(e.sym)
                if e.sym.kind == "field" or e.sym.item:  # a field, or an item of a list or set
                    self.canonical.add(id(e))
                if e.sym.kind == "value" and e.sym.name == "deciding":
                    self.program.deciding = True
                return e.sym.py
            case t.DefineCall():
                d = self.defines[e.define]
                args = self.arguments(e.args, d.params)
                self.passed(d.name, d.params, e.args)
                self.facts[id(e)] = self.define_call_facts(d, sum(self.fact(arg).cost for arg in e.args))
                self.called.add(e.define)
                return f"self.{e.define}({', '.join(args)})"
            case t.Builtin():
                return self.builtin(e)
            case t.PerIndex():
                index = self.expr(e.index)
                self.facts[id(e)] = self.field_facts(e.field.name, e.ty).priced(self.fact(e.index).cost)
                self.canonical.add(id(e))
                return f"{e.field.py}[{index}]"
            case t.ListIndex():
                obj, index = self.expr(e.obj), self.expr(e.index)
                item = self.fact(e.obj).item or self.type_facts(e.obj.ty.elem or ANY)
                self.facts[id(e)] = item.priced(self.fact(e.obj).cost + self.fact(e.index).cost)
                self.canonical.add(id(e))
                pair = _pair_sorted(e, obj)
                if pair is not None:
                    return pair
                return f"{obj}[{index}]"
            case t.AttrOf():
                return f"{e.table}[{self.expr(e.obj)}]"
            case t.Collection():
                parts = [self.canon(item, item.ty, self.expr(item)) for item in e.items]
                self.facts[id(e)] = self.literal_facts(e.items)
                self.canonical.add(id(e))
                tupled = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
                if e.kind == "list":  # a list is a tuple: one representation, and it can be an item of a set
                    return tupled
                return f"frozenset({tupled})" if parts else "frozenset()"
            case t.Comprehension():
                return self.comprehension(e)
            case t.Unary():
                operand = self.expr(e.operand)
                if e.op == "not":
                    return f"not {operand}"
                self.facts[id(e)] = Facts(self.fact(e.operand).cost, mag=self.fact(e.operand).mag)
                return f"-{operand}"
            case t.Binary():
                return self.binary(e)
            case t.Cond():
                test, then, orelse = self.expr(e.test), self.expr(e.then), self.expr(e.orelse)
                self.facts[id(e)] = join(self.fact(e.then), self.fact(e.orelse)).plus(self.fact(e.test).cost)
                if id(e.then) in self.canonical and id(e.orelse) in self.canonical:
                    self.canonical.add(id(e))
                return f"({then} if {test} else {orelse})"
            case t.RecordNew():  # a record is a tuple of its fields, in the order declared
                parts = [self.checked_store(self.canon(arg, arg.ty, self.expr(arg)), self.fact(arg), arg.ty, arg.span)
                         for arg in e.args]
                self.facts[id(e)] = Facts(sat(len(parts) + sum(self.fact(arg).cost for arg in e.args)))
                self.canonical.add(id(e))
                return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
            case t.RecordField():
                obj = self.expr(e.obj)
                self.facts[id(e)] = self.type_facts(e.ty, STORED).priced(self.fact(e.obj).cost)
                self.canonical.add(id(e))
                return f"{obj}[{e.index}]"
            case t.Note(verb=lazy_hoist.CELL):  # (pass `lazy_hoist`) a cell, bound once: `for cell in (rt.cell(),)`
                self.facts[id(e)] = Facts(1, 1, item=Facts())  # (one item: an empty list)
                return "(rt.cell(),)"
            case t.Note(verb=lazy_hoist.LAZY):  # (pass `lazy_hoist`) a value read from its cell
                return lazy_hoist.lowered(self, e)
            case t.Note(expr=t.Collection(kind="list", items=(item,))):  # a value bound once: `for h in (v,)`
                # (the local is read only where `v` was: `v` as it is, not converted, and the same object)
                py = self.expr(item)
                self.facts[id(e)] = self.literal_facts((item,))
                self.notes.setdefault(e.verb, {})[e.what] = None
                return f"({_unparenthesised(py)},)"
            case t.Note():  # derived by a pass: its code, in parentheses, and a note for its line
                py = self.expr(e.expr)
                # (a body inlined costs the step of the call it was: the limits of a move are
                # counted as they were)
                self.facts[id(e)] = self.fact(e.expr).plus(1 if e.verb == "inlined" else 0)
                if id(e.expr) in self.canonical:
                    self.canonical.add(id(e))
                self.notes.setdefault(e.verb, {})[e.what] = None
                return _parenthesised(py)
            case t.Invalid():
                raise AssertionError(f"{e.span}: an expression the checker refused is never lowered")
            case _:
                assert_never(e)

    def canon(self, e: t.Expr, ty: Ty, py: str) -> str:
        """`py`, the code of `e`, giving the one runtime representation of its type: a list is a
        tuple and a set a frozenset, items too (`tuple(x)` of a tuple is that tuple itself)."""
        # Every set is made a frozenset, and every item put into a list or set is converted, so the
        # items of any list are in their one representation already: only the list itself may be
        # a Python list (a comprehension, `sorted`) or a range (`players`).
        if ty.kind != "list" or id(e) in self.canonical:
            return py
        if _parenthesised(py) == py and py.startswith("(") and _one_operand(py):  # `tuple(a if c else b)`
            return f"tuple{py}"
        return f"tuple({py})"

    def iterable(self, ty: Ty, py: str, ordered: bool = True) -> str:
        """How to walk the items of a list, a set or a region. A set is walked in increasing
        order where the order can reach the game (`ordered`: a loop, a choice, a list made from
        it): the order of a frozenset is Python's own, not the same under every interpreter, and
        for some items not under every hash seed."""
        if ty.kind == "set" and ordered:
            return _sorted(ty.elem or ANY, py)
        if ty == entity("region"):
            return f"self.board.region_spots[{py}]"
        return py

    def comprehension(self, e: t.Comprehension) -> str:
        masked = bitmask.masked_comprehension(self.plan, e, self.constant_values)
        py = self.plain_comprehension(e)  # (its facts: what the plain code is proven to cost)
        if masked is None and not _CHARGES.search(py):  # (pass `value_masks`: masks per value, the empty spots)
            masked = value_masks.lowered(self, e)
        if masked is None and not _CHARGES.search(py):
            # (passes `spot_filters`, `count_items`, `component_sets`: where the plain code charges no work as it runs)
            masked = spot_filters.lowered(self, e) or count_items.lowered(self, e) or component_sets.lowered(self, e) \
                or set_lists.lowered(self, e) or self.region_any(e)
        return py if masked is None else masked  # a set of spots kept as a bit mask (pass `bitmask`)

    def plain_comprehension(self, e: t.Comprehension) -> str:
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

    def aggregate(self, e: t.Comprehension, head: str, epy: str, counted: str, walked: Facts,
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

    def nested_comprehension(self, e: t.Comprehension) -> str:
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

    def fused_filter(self, e: t.Comprehension) -> str | None:
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

    def binary(self, e: t.Binary) -> str:
        lpy, rpy = self.expr(e.left), self.expr(e.right)
        lt, rt_ = e.left.ty, e.right.ty
        left, right = self.fact(e.left), self.fact(e.right)
        work = sat(left.cost + right.cost)
        self.facts[id(e)] = Facts(work)  # a truth value; numbers and lists say more below
        op = e.op
        if op in ("and", "or"):
            # Python's `and`/`or` give one of their operands: a list or set used as a condition
            # is made a bool, so the result is a bool as its type says (`mine(p) and n > 0`).
            if not e.truth_only:
                lpy, rpy = (py if ty.kind == "bool" else f"bool({py})" for ty, py in ((lt, lpy), (rt_, rpy)))
            return f"({lpy} {op} {rpy})"
        if op in _COMPARISONS:
            # Python chains `a == b == c`: a comparison (or a `not`) inside another keeps its parentheses.
            lpy, rpy = (f"({py})" if isinstance(side, t.Unary | t.Binary) and side.op in (*_COMPARISONS, "not")
                        else py for side, py in ((e.left, lpy), (e.right, rpy)))
        if op in ("==", "!=") and "none" in (lt.kind, rt_.kind):  # `x == none`: Python's `is None`
            return f"{lpy} {'is' if op == '==' else 'is not'} {rpy}"
        if op in ("==", "!="):
            if lt.kind in ("list", "set") or rt_.kind in ("list", "set"):  # compared item by item
                lpy, rpy = self.canon(e.left, lt, lpy), self.canon(e.right, rt_, rpy)
                sizes = [f.size for f in (left, right) if f.size is not None]
                if sizes and min(sizes) <= FREE_WORK:
                    self.facts[id(e)] = Facts(sat(work + min(sizes)))
                else:
                    lpy, _, _ = self.over(lpy, left, e.span)
            return f"{lpy} {op} {rpy}"
        if op in ("<", "<=", ">", ">="):
            return f"{lpy} {op} {rpy}"
        if op in ("in", "not in") and rt_.kind == "set":  # a frozenset: one look-up, whatever its size
            lpy = self.canon(e.left, lt, lpy)
            self.facts[id(e)] = Facts(sat(work + 1))
            return f"{lpy} {op} {rpy}"
        if op in ("in", "not in"):
            walk = self.iterable(rt_, rpy, ordered=False)
            lpy = self.canon(e.left, lt, lpy)
            walk, searched, _ = self.over(walk, self.domain_facts(e.right), e.span)
            self.facts[id(e)] = Facts(sat(work + searched))
            return f"{lpy} {op} {walk}"
        if e.ty.kind in ("list", "set"):  # a list joined, a set's union or difference
            lpy, left_work, left_size = self.over(lpy, left, e.span)
            rpy, right_work, right_size = self.over(rpy, right, e.span)
            item = None if left.item is None or right.item is None else join(left.item, right.item)
            size = left_size if op == "-" else sat(left_size + right_size)
            self.facts[id(e)] = self.clamp(e.ty, Facts(sat(work + left_work + right_work), size, item=item))
            self.canonical.add(id(e))
            if e.ty.kind == "list":
                written = list_items.joined(self, e.left, lpy, e.right, rpy, _SIMPLE)  # (pass `list_items`)
                return written if written is not None else f"(*{lpy}, *{rpy})"
            items = set_items.joined(self, op == "+", lpy, e.right, rpy)  # (pass `set_items`)
            if items is not None:
                return items
            return f"({lpy} {'|' if op == '+' else '-'} {rpy})"
        if op in ("+", "-"):
            self.facts[id(e)] = Facts(work, mag=add_mag(left.mag, right.mag))
            return f"({lpy} {op} {rpy})"
        if op == "*":
            product = mul_mag(left.mag, right.mag)
            if product is None:  # a square, say, that repeated would grow without end: checked
                self.facts[id(e)] = Facts(work, mag=(MAX_INT, 0))
                return f"rt.num({lpy} * {rpy}, {self.where(e.span)})"
            self.facts[id(e)] = Facts(work, mag=product)
            return f"({lpy} * {rpy})"
        # `//` and `%`: a divisor that may be zero is a game error, not a crash
        self.facts[id(e)] = Facts(work, mag=left.mag if op == "//" else right.mag)
        if self.nonzero(e.right):
            return f"({lpy} {op} {rpy})"
        return f"rt.{'div' if op == '//' else 'mod'}({lpy}, {rpy}, {self.where(e.span)})"

    def builtin(self, e: t.Builtin) -> str:
        if self.line_numbers:  # a choice of lines listed by number (pass `action_tables`): the same lines, in order
            self.line_numbers = False  # (not the lines an argument reads)
            try:
                py = self.builtin(e)
            finally:
                self.line_numbers = True
            return py.replace("self.board.straight_lines", "self.board.straight_line_numbers", 1) \
                if e.func == "straight_lines" else py
        masked = bitmask.masked_call(self.plan, e, self.defines, self.constant_values)
        if masked is not None:  # a set of spots kept as a bit mask (pass `bitmask`)
            lowered = []
            for k, arg in enumerate(e.args):
                called = set(self.called)
                lowered.append(self.expr(arg))
                if f"{{{k}}}" not in masked:  # (the list the mask stands for: its code is not written)
                    self.called = called
            self.facts[id(e)] = self.builtin_facts(e, lowered, e.ty)  # (what the list's call is proven to cost)
            return masked.format(*lowered)
        if e.func == "len" and isinstance(e.args[0], t.Builtin) and e.args[0].func == "straight_lines":
            # Counting lines needs no list of them: a popcount on the board's bitboard.
            counted = t.Builtin("count_lines", e.args[0].args, (), e.ty, e.span)
            py = self.builtin(counted)
            self.facts[id(e)] = self.fact(counted)
            return py
        lowered = [self.expr(arg) for arg in e.args]
        self.facts[id(e)] = self.builtin_facts(e, lowered, e.ty)
        if e.func == "sorted" and e.ty.elem is not None:  # in the order a set is walked in (_sorted)
            return _sorted(e.ty.elem, _unparenthesised(lowered[0]))  # (its one argument: no parentheses of its own)
        if "{where}" in BUILTINS[e.func].python:  # a check that names its rule line
            return BUILTINS[e.func].python.format(*lowered, **dict(e.extra), where=self.where(e.span))
        return BUILTINS[e.func].python.format(*lowered, **dict(e.extra))

    def arguments(self, args: tuple[t.Expr, ...], params: tuple[Symbol, ...]) -> list[str]:
        """The arguments of a call to a definition or procedure: each a stored value
        (compiler/budget.py), so what is passed is checked as if stored."""
        return [self.checked_store(self.expr(arg), self.fact(arg), p.ty, arg.span)
                for arg, p in zip(args, params, strict=True)]

    # -- the limits of a move: what code is proven to cost, and its checks ----------------------
    # (compiler/budget.py says how; runtime/limits.py holds the limits and the checks)
    def fact(self, e: t.Expr) -> Facts:
        """What is known of an expression lowered in this walk."""
        return self.facts.get(id(e), NOTHING)

    def where(self, span: SourceSpan) -> str:
        """The rule's `file:line`, as the string literal a check names in its error."""
        return repr(span.short)

    def charged(self) -> None:
        """A check that charges the budget of a move is emitted."""
        self.charges += 1

    def mark(self, before: int, *entries: str) -> bool:
        """Whether the code lowered since the count was `before` charges the budget: then the
        runtime's entries into it start a fresh one."""
        if self.charges > before:
            self.resets.update(entries)
            return True
        return False

    def bounds(self) -> dict[str, int]:
        """How many spots, regions ... the largest board has: how long its lists can be."""
        if self.board_bounds is None:
            b = {"spot": 0, "region": 0, "border": 0, "region_size": 0, "per_spot": 0, "degree": 0, "longest": 0}
            for board in self.tables.boards:
                spots = len(board.graph) if board.graph else board.ring or 3 * board.side * (board.side - 1) + 1
                in_regions = Counter(spot for _, _, region in board.regions for spot in region)
                degree = max(Counter(s for road in board.roads for s in road).values(), default=0) if board.graph \
                    else 2 if board.ring else 6
                longest = 2 * board.side - 1 if board.side else 0
                if board.cells:  # a hex map: its lines are at most as long as it is wide or high
                    spots = len(board.cells)
                    longest = max(max(q for _, q, _ in board.cells) - min(q for _, q, _ in board.cells),
                                  max(r for _, _, r in board.cells) - min(r for _, _, r in board.cells)) + 1
                elif board.wall:
                    spots, degree = sum(len(f) for _, faces in board.wall for _, f in faces), 2
                for key, value in (("spot", spots), ("region", len(board.regions)), ("border", len(board.borders)),
                                   ("region_size", max((len(r) for _, _, r in board.regions), default=0)),
                                   ("per_spot", max(in_regions.values(), default=0)), ("degree", degree),
                                   ("longest", longest)):
                    b[key] = max(b[key], value)
            self.board_bounds = b
        return self.board_bounds

    def kind_count(self, kind: str) -> int | None:
        """How many values a kind of entity or an enumeration has (None: not a finite kind)."""
        if kind == "player":
            return max(self.rs.players, default=1) + len(self.rs.neutral)
        if kind in ("spot", "region", "border"):
            return self.bounds()[kind]
        if kind in self.component_count:
            return self.component_count[kind]
        for dice in self.rs.dice:
            if dice.name == kind:
                return len(dice.dice)
        for name, values in self.tables.enums:
            if name == kind:
                return len(values)
        return None

    def type_facts(self, ty: Ty, mag: Mag = UNSAFE) -> Facts:
        """What a value of type `ty` can be when nothing else is known (`mag`: a number's size)."""
        if ty.kind in ("list", "set") and ty.elem is not None:
            return self.clamp(ty, Facts(item=self.type_facts(ty.elem, mag)))
        return Facts(mag=mag if ty.kind == "int" else UNSAFE)

    def clamp(self, ty: Ty, facts: Facts) -> Facts:
        """`facts` of a set of a finite kind hold no more items than the kind has values."""
        if ty.kind == "set" and ty.elem is not None and ty.elem.kind in ("entity", "enum"):
            count = self.kind_count(ty.elem.name)
            if count is not None and (facts.size is None or facts.size > count):
                return Facts(facts.cost, count, facts.mag, facts.item)
        return facts

    def empty(self, ty: Ty) -> Facts:
        """A value of type `ty` with nothing in it (a list field never assigned)."""
        if ty.kind in ("list", "set") and ty.elem is not None:
            return Facts(size=0, item=self.empty(ty.elem))
        return Facts(mag=STORED)

    def field_facts(self, name: str, ty: Ty) -> Facts:
        """What a field's value (one entity's, for a field per entity) can be: a stored number,
        and a list as long as the rule set's assignments to it make it (lower() learns this)."""
        if ty.kind not in ("list", "set"):
            return Facts(mag=STORED)
        if self.assumed is None:  # the first walk: only the type is known
            return self.type_facts(ty, STORED)
        known = self.assumed.get(name)
        return self.clamp(ty, _stored(known) if known is not None else self.empty(ty))

    def derive(self, name: str, facts: Facts) -> None:
        """A value is stored in field `name`: what lower() learns the field can hold."""
        old = self.derived.get(name)
        self.derived[name] = facts.priced(0) if old is None else join(old, facts.priced(0))

    def stored(self, sym: Symbol, facts: Facts) -> None:
        if sym.kind in ("field", "perfield"):
            self.derive(sym.name, facts)

    def learnable(self) -> list[tuple[str, Ty]]:
        """The lists whose size lower() learns: list and set fields, and the list and set
        parameters of definitions and procedures (from every call: all are in the rules)."""
        out = [(f.name, f.type) for f in self.rs.fields]
        out += [(_param(d.name, p.name), p.ty) for d in self.typed.defines for p in d.params]
        out += [(_param(q.name, p.name), p.type) for q in self.rs.procedures for p in q.params]
        return [(key, ty) for key, ty in out if ty.kind in ("list", "set")]

    def found(self, key: str, ty: Ty) -> Facts:
        if key not in self.derived and "." in key:  # a parameter never given: only its type is known
            return self.type_facts(ty, STORED)
        return self.clamp(ty, self.derived.get(key, self.empty(ty)))

    def learnt(self, grown: Counter[str]) -> dict[str, Facts] | None:
        """What the list fields and parameters were found to hold, if it differs from what this
        walk assumed (None: the assumptions held, so the code lowered is sound). The first walk
        assumes only the types: what it finds is sound, and the next walk, assuming it, finds no
        more. (Should one find more, a list found larger twice is taken at its type's bound.)"""
        if self.assumed is None:
            first = {key: self.found(key, ty) for key, ty in self.learnable()}
            return first if any(first[key] != self.type_facts(ty, STORED) for key, ty in self.learnable()) else None
        changed = False
        out: dict[str, Facts] = {}
        for key, ty in self.learnable():
            if key in out:
                continue
            assumed, found = self.field_facts(key, ty), self.found(key, ty)
            if at_most(found, assumed):
                out[key] = assumed
                continue
            changed = True
            grown[key] += 1
            out[key] = join(assumed, found) if grown[key] < 2 else self.type_facts(ty, STORED)
        return out if changed else None

    def bind_params(self, func: str, params: tuple[Symbol, ...]) -> list[str]:
        """Binds a definition's or procedure's parameters, each with what its calls pass."""
        for p in params:
            self.bind(p)
            if p.ty.kind in ("list", "set"):
                self.set_local(p, self.field_facts(_param(func, p.name), p.ty))
        return [p.py for p in params]

    def passed(self, func: str, params: tuple[Symbol, ...], args: tuple[t.Expr, ...]) -> None:
        """A call: what it passes is what the parameters are learnt to hold."""
        for p, arg in zip(params, args, strict=False):
            if p.ty.kind in ("list", "set"):
                self.derive(_param(func, p.name), self.fact(arg).outside())

    def symbol_facts(self, sym: Symbol) -> Facts:
        """What a name stands for: a local's value, a field's, the list of a kind's values."""
        if sym.kind == "local":
            known = self.local_facts.get(sym)
            return known if known is not None else self.type_facts(sym.ty, STORED)
        if sym.kind == "field":
            return self.field_facts(sym.name, sym.ty)
        if sym.kind == "perfield":  # the whole list, one value per entity
            return Facts(size=self.kind_count(sym.per or ""), item=self.field_facts(sym.name, sym.ty))
        if sym.kind == "value" and sym.ty.kind == "list" and sym.ty.elem is not None:  # players, spots, an enum
            return Facts(size=self.kind_count(sym.ty.elem.name), item=Facts())
        return Facts()

    def set_local(self, sym: Symbol, facts: Facts | None) -> None:
        """What a local just bound holds, unless the rule assigns to it (then only its type is known)."""
        if facts is not None and sym.name not in self.assigned:
            self.local_facts[sym] = facts.priced(0)

    def literal_facts(self, items: tuple[t.Expr, ...]) -> Facts:
        item = Facts(size=0, mag=(0, 0))  # (no item at all)
        for part in items:
            item = join(item, self.fact(part).priced(0)) if part is not items[0] else self.fact(part).priced(0)
        return Facts(sat(len(items) + sum(self.fact(part).cost for part in items)), len(items), item=item)

    def domain_facts(self, node: t.Expr) -> Facts:
        """What a loop walks: a region is walked spot by spot."""
        if node.ty == entity("region"):
            return Facts(self.fact(node).cost, self.bounds()["region_size"], item=Facts())
        return self.fact(node)

    def loop(self, walk: str, domain: Facts, per_item: int, span: SourceSpan,
             lists: bool = False) -> tuple[str, int, int, bool]:
        """How to walk a loop's domain, the loop's unchecked work, and how many rounds it makes
        at most. A loop whose size is not known, or whose work is large, is counted as it
        starts (`rt.walk`): then its work is not unchecked."""
        per_item = min(per_item, MAX_STEPS + 1)
        work = loop_cost(domain.size, per_item)
        if work is not None and not lists:
            return walk, work, domain.size or 0, False
        small = loop_cost(SMALL_LIST, per_item)
        rounds = min(domain.size or MAX_ITEMS, MAX_ITEMS)  # (at most MAX_ITEMS: checked)
        if small is not None and not lists and (self.small_made(domain) or self.hoist(walk)):
            return walk, small, rounds, True
        self.charged()
        helper = "rt.walk_lists" if lists else "rt.walk"
        counted = f"{helper}(self, {walk}, {per_item}, {self.where(span)})"
        if small is not None and not lists and _SIMPLE.fullmatch(walk):  # a short list is walked at once
            return f"({walk} if len({walk}) <= {SMALL_LIST} else {counted})", small, rounds, False
        return counted, 0, rounds, False

    def small_made(self, facts: Facts) -> bool:
        """Whether `facts` are of a list made, in the rule being lowered, from lists it takes for
        small: an operation on it is one more the rule's start check accounts for."""
        if self.hoisted is None or not facts.small:
            return False
        self.hoist_sites += 1
        return True

    def over(self, py: str, facts: Facts, span: SourceSpan) -> tuple[str, int, int]:
        """An operation over each item of a list or set (a search, a join, a copy, a sort): the
        operand, lowered; the unchecked work; the most items it holds."""
        if facts.size is not None and facts.size <= FREE_WORK:
            return py, facts.size, facts.size
        size = min(facts.size or MAX_ITEMS, MAX_ITEMS)  # (at most MAX_ITEMS: checked)
        if self.small_made(facts) or self.hoist(py):  # its work is taken as small: checked as the rule starts
            return py, SMALL_LIST, size
        self.charged()
        counted = f"rt.walk(self, {py}, 1, {self.where(span)})"
        if self.prechecked(py):  # counted by the statement before the effect's line, if longer
            assert self.prechecks is not None
            self.prechecks.append(counted)
            return py, SMALL_LIST, size
        if _SIMPLE.fullmatch(py):  # a short list is handled at once, a longer one counted
            return f"({py} if len({py}) <= {SMALL_LIST} else {counted})", SMALL_LIST, size
        joined = list_items.short(self, py, counted)  # (pass `list_items`) such a list and items written out
        if joined is not None:
            return joined, SMALL_LIST, size
        return counted, 0, size

    def prechecked(self, py: str) -> bool:
        """Whether the list `py`, walked by the effect statement being lowered, can be counted by
        a statement before it: a field or a local that is known before the statement runs."""
        m = _SIMPLE.fullmatch(py)
        if self.prechecks is None or m is None:
            return False
        known = {py for scope in self.scopes[:self.statement_scopes] for py in scope}
        names = [n for n in (m.group(1), m.group(2)) if n is not None and not n.startswith("self.")]
        return all(n in known for n in names)

    def take_notes(self) -> str:
        """What the passes derived in the code lowered since the notes were last taken, for the
        comment of the line that holds it ("inlined free (base.yaml:290); hoisted ...")."""
        notes, self.notes = self.notes, {}
        return "; ".join(f"{verb} {', '.join(whats)}" for verb, whats in notes.items())

    def noted(self, lines: list[Line]) -> list[Line]:
        """`lines`, the first with the notes taken now."""
        note = self.take_notes()
        if not note or not lines:
            return lines
        return [replace(lines[0], note=note), *lines[1:]]

    def statement(self, depth: int, lower: Callable[[], list[Line]]) -> list[Line]:
        """An effect statement's lines, after the checks of the lists it walks (`prechecked`)."""
        outer = self.prechecks, self.statement_scopes
        self.prechecks, self.statement_scopes = [], len(self.scopes)
        self.take_notes()
        try:
            lines = self.noted(lower())
            checks = list(dict.fromkeys(self.prechecks))
        finally:
            self.prechecks, self.statement_scopes = outer
        before: list[Line] = []
        for counted in checks:
            walked = counted.removeprefix("rt.walk(self, ").split(", 1, ", 1)[0]
            before += [Line(depth, f"if len({walked}) > {SMALL_LIST}:"), Line(depth + 1, counted)]
        return [*before, *lines]

    def hoist(self, py: str) -> bool:
        """Whether the list `py` is checked at the start of the rule being lowered (then it is
        taken to hold at most SMALL_LIST items): a rule that only reads the game, and a list it
        can read at its start, a field (`self.hand[p]`) or a parameter."""
        if self.hoisted is None:
            return False
        m = _SIMPLE.fullmatch(py)
        if m is None:
            return False
        index, name = m.group(1), m.group(2)
        if name is not None and name not in self.entry:  # a local bound inside the rule
            return False
        if index is not None and not index.startswith("self.") and index not in self.entry:
            return False
        self.hoisted[py] = None
        self.hoist_sites += 1
        return True

    def begin_reading(self, entry: Iterable[str]) -> Reading:
        """A rule that only reads the game starts: the lists it takes for small are gathered."""
        saved = self.hoisted, self.hoist_sites, self.entry
        self.hoisted, self.hoist_sites, self.entry = {}, 0, frozenset(entry)
        return saved

    def end_reading(self, saved: Reading) -> Small:
        """The lists the rule just lowered took for small (its start checks them), and how many
        operations it does on them (one may be inside another)."""
        lists, sites = tuple(self.hoisted or ()), self.hoist_sites
        self.hoisted, self.hoist_sites, self.entry = saved
        if lists:
            self.charged()  # (its check charges more work when they are not small)
        return lists, sites

    def grown(self, small: Small, cost: int, span: SourceSpan) -> str:
        """What a rule's lists taken for small cost when they are not: its proven work, multiplied
        by how many times longer than SMALL_LIST the longest is, once for each operation on them
        (they may be nested), `rt.grown(...)`."""
        lists, sites = small
        return (f"rt.grown(self, {min(cost, MAX_STEPS + 1)}, {sites}, ({', '.join(lists)}{',' * (len(lists) == 1)}), "
                f"{self.where(span)})")

    def small_check(self, small: Small, cost: int, span: SourceSpan) -> str:
        """The check a rule that is one expression starts with: `len(...) <= 16 or rt.grown(...)`."""
        return f"{' and '.join(f'len({py}) <= {SMALL_LIST}' for py in small[0])} or {self.grown(small, cost, span)}"

    def checked_store(self, py: str, facts: Facts, ty: Ty, span: SourceSpan) -> str:
        """`py`, checked where what it stores (or passes as an argument) could be a number that
        grows without bound: at most 64 bits more than the game's numbers (compiler/budget.py)."""
        if ty.kind == "int" and not storable(facts.mag):
            return f"rt.num({py}, {self.where(span)})"
        if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind == "int" and (
                facts.item is None or not storable(facts.item.mag)):
            self.charged()
            return f"rt.nums(self, {py}, {self.where(span)})"
        return py

    def unit_expr(self, py: str, cost: int, span: SourceSpan, times: int = 1, lists: Small = ((), 0)) -> str:
        """A rule that is one expression (a condition, a score; `times` over, a field's start per
        entity): if its proven work is large, it charges it first, `rt.spend(...) and <py>`; the
        lists it took for small are checked first, `(len(...) <= 16 or rt.grown(...)) and <py>`."""
        if lists[0]:
            py = f"({self.small_check(lists, cost, span)}) and {py}"
        if sat(cost * times) <= FREE_WORK:
            return py
        self.charged()
        return f"rt.spend(self, {min(cost, MAX_STEPS + 1)}, {self.where(span)}) and {py}"

    def unit_lines(self, lines: list[Line], cost: int, span: SourceSpan) -> tuple[Line, ...]:
        """A rule's lines (effects, a definition): if their proven work is large, they charge it first."""
        if cost <= FREE_WORK:
            return tuple(lines)
        self.charged()
        return Line(2, f"rt.spend(self, {min(cost, MAX_STEPS + 1)}, {self.where(span)})", span), *lines

    def effects(self, stmts: tuple[t.Stmt, ...], span: SourceSpan, *bound: Symbol) -> tuple[Line, ...]:
        """The effects of a rule (an action's, a trigger's, a phase's start, the setup)."""
        self.assigned = frozenset(_assigned(stmts))
        self.scopes = [{sym.py for sym in bound}]
        lines = self.block(stmts, 2)
        return self.unit_lines(lines, self.block_cost, span)

    def procedure(self, p: t.Procedure) -> tuple[tuple[tuple[str, str], ...], tuple[Line, ...]]:
        """A procedure's parameters and body; remembers the unchecked work of a call to it."""
        self.scopes = [set()]
        self.assigned = frozenset(_assigned(p.body))
        before = self.charges
        params = tuple(zip(self.bind_params(p.name, p.params), (_annotation(x.ty) for x in p.params), strict=True))
        lines = self.block(p.body, 2)
        cost = sat(self.block_cost + 1)
        self.procedure_costs[p.name] = 1 if cost > FREE_WORK else cost  # (large: it charges its own)
        if cost > FREE_WORK:
            self.spending.add(p.name)
        body = self.unit_lines(lines, cost, p.span)
        if self.charges > before:
            self.charging.add(p.name)
        return params, body

    def procedure_cost(self, name: str) -> int:
        """The unchecked work of calling a procedure (lowered now if it is declared later)."""
        known = self.procedure_costs.get(name)
        p = self.procedures.get(name)
        if known is None and p is not None:
            self.procedure_costs[name] = 1  # (a procedure calling itself is refused: see check.cycles)
            saved = self.scopes, self.assigned
            self.procedure(p)
            self.scopes, self.assigned = saved
            known = self.procedure_costs[name]
        if name in self.charging:
            self.charges += 1
        return known if known is not None else 1

    def define_walk(self, d: t.Define) -> tuple[str, Small]:
        """A definition's body, lowered as a rule that only reads the game (its parameters known
        as it starts); remembers what a call to it gives and costs."""
        saved = self.scopes, self.assigned
        self.scopes, self.assigned = [set()], frozenset()
        entry = self.bind_params(d.name, d.params)
        before = self.charges
        reading = self.begin_reading(entry)
        self.take_notes()
        py = self.expr(d.body)
        lists = self.end_reading(reading)
        self.note_define(d, before)
        self.scopes, self.assigned = saved
        return py, lists

    def note_define(self, d: t.Define, before: int) -> None:
        """Remembers what a definition gives and the unchecked work of a call to it (one step if
        its work is large: then it charges its own), and whether it charges (count was `before`)."""
        body = self.fact(d.body)
        cost = sat(body.cost + 1)
        if d.cached:  # a call is a look-up; computing the value charges its work then (see `run`)
            self.define_facts[d.name] = (body.priced(0).outside(), 1)
            self.charging.add(d.name)
            return
        self.define_facts[d.name] = (body.priced(0).outside(), 1 if cost > FREE_WORK else cost)
        if self.charges > before or cost > FREE_WORK:
            self.charging.add(d.name)

    def define_call_facts(self, d: t.Define, args_cost: int) -> Facts:
        if d.name not in self.define_facts:  # (not lowered yet: declared later)
            self.define_facts[d.name] = (NOTHING, 1)  # (a definition using itself is refused: see check.cycles)
            self.define_walk(d)
        result, cost = self.define_facts.get(d.name, (NOTHING, 1))
        if d.name in self.charging:
            self.charges += 1
        return result.priced(sat(args_cost + cost))

    def nonzero(self, e: t.Expr) -> bool:
        """Whether a divisor is zero in no game: a number, the length of an enumeration, of a
        component's list or of the players, or a product or negation of such."""
        match e:
            case t.Num():
                return e.value != 0
            case t.Unary(op="-"):
                return self.nonzero(e.operand)
            case t.Binary(op="*"):
                return self.nonzero(e.left) and self.nonzero(e.right)
            case t.Builtin(func="len", args=(t.Ref(sym=sym),)):
                if sym.kind != "value" or sym.ty.elem is None:
                    return False
                if sym.name in ("players", "owners"):
                    return min(self.rs.players, default=0) > 0
                kind = sym.ty.elem
                return (kind.kind == "enum" or kind.name in self.component_count) and bool(self.kind_count(kind.name))
        return False

    def builtin_facts(self, e: t.Builtin, lowered: list[str], ret: Ty) -> Facts:
        """What a built-in function gives and costs. It wraps the arguments that need a check:
        a list whose size only the game knows, a number an auction keeps, a count of spots."""
        if len(e.args) != len(lowered):
            return self.type_facts(ret)
        args = [self.fact(a) for a in e.args]
        cost = sum(f.cost for f in args)
        bounds, seats = self.bounds(), self.kind_count("player") or 0

        def over(i: int) -> int:  # work over each item of argument i: how many it holds
            nonlocal cost
            lowered[i], work, size = self.over(lowered[i], args[i], e.args[i].span)
            cost += work
            return size

        def kept(i: int) -> None:  # a number the result keeps (an auction's bid): checked as stored
            lowered[i] = self.checked_store(lowered[i], args[i], INT, e.args[i].span)

        def literal(i: int) -> int | None:
            arg = e.args[i]
            return arg.value if isinstance(arg, t.Num) else None

        match e.func:
            case "len":
                return number(args[0].size if args[0].size is not None else MAX_INT, cost=cost)
            case "abs":
                return Facts(cost, mag=args[0].mag)
            case "min2" | "max2":
                return Facts(cost, mag=join_mag(args[0].mag, args[1].mag))
            case "die":
                return Facts(cost, mag=add_mag(args[0].mag, (1, 0)))
            case "range" | "steps":
                low, high = literal(0), literal(1)
                step = literal(2) if e.func == "steps" else 1
                size = None if low is None or high is None or step is None else len(range(low, high, max(step, 1)))
                if size is None and not args[0].mag[1] and not args[1].mag[1]:  # b - a <= |a| + |b|
                    size = sat(args[0].mag[0] + args[1].mag[0])
                bound = range_bounds.size(self, e, args[1].mag)  # (pass `range_bounds`) b - a <= b, a >= 0
                if bound is not None and (size is None or bound < size):
                    size = bound
                return Facts(cost, size, item=Facts(mag=join_mag(args[0].mag, args[1].mag)))
            case "straight_lines":
                over(1)
                lines = 3 * bounds["spot"]
                return Facts(sat(cost + lines), lines, item=Facts(size=bounds["longest"], item=Facts()))
            case "count_lines":
                over(1)
                return number(3 * bounds["spot"], cost=cost + 3)
            case "regions_touching":
                over(0)
                return Facts(cost, bounds["region"], item=Facts())
            case "regions_of":
                return Facts(cost, bounds["region"], item=Facts())
            case "regions_at":
                return Facts(cost, bounds["per_spot"], item=Facts())
            case "spots_of":
                return Facts(cost, bounds["region_size"], item=Facts())
            case "neighbours":
                return Facts(cost, bounds["degree"], item=Facts())
            case "border_regions":
                return Facts(cost, 2, item=Facts())
            case "wall_spots" | "wall_neighbours" | "wall_regions" | "wall_pieces":  # a walk along the wall
                over(0)
                size = {"wall_spots": bounds["spot"], "wall_neighbours": 2, "wall_regions": bounds["region"],
                        "wall_pieces": self.kind_count("wallface") or 0}[e.func]
                return Facts(sat(cost + bounds["spot"]), size, item=Facts())
            case "wall_runs":  # one walk along the wall; the runs hold the spots at most once in all
                over(0)
                over(1)
                return Facts(sat(cost + bounds["spot"]), bounds["spot"], item=Facts(size=bounds["spot"], item=Facts()))
            case "attach_left" | "attach_right":  # each piece laid once: at most as many faces as pieces
                over(0)
                faces = self.kind_count("wallface") or 0
                return Facts(sat(cost + faces), faces, item=Facts())
            case "face_spots":
                return Facts(cost, bounds["spot"], item=Facts())
            case "road_chains" | "road_chains_best":  # (a search over the board's roads)
                over(0)
                spots = bounds["spot"]
                return Facts(sat(cost + spots * spots), spots, item=Facts(size=spots, item=Facts()))
            case "components" | "component_of":  # a flood fill: each spot marked, each road looked along once
                over(len(args) - 1)
                spots = bounds["spot"]
                work = sat(spots * (bounds["degree"] + 1))
                if e.func == "component_of":
                    return Facts(sat(cost + work), spots, item=Facts())
                return Facts(sat(cost + work), spots, item=Facts(size=spots, item=Facts()))
            case "majority" | "ranked":  # a few passes over the counts, one per seat (and a sort)
                size = over(0)
                return Facts(sat(cost + 3 * size), size, item=Facts())
            case "passed":  # the spots between: as many as the steps
                k, m = args[1].mag
                if m == 0 and k <= FREE_WORK:
                    return Facts(sat(cost + k), k, item=Facts())
                self.charged()
                lowered[1] = f"rt.upto(self, {lowered[1]}, {self.where(e.args[1].span)})"
                return Facts(cost, MAX_ITEMS, item=Facts())
            case "seats_from":
                return Facts(sat(cost + seats), seats, item=Facts())
            case "open_auction":
                over(0)
                kept(1)
                kept(2)
                return Facts(sat(cost + seats))
            case "auction_bid":
                kept(1)
                return Facts(sat(cost + seats))
            case "auction_drop":
                return Facts(sat(cost + seats))
            case "auction_bids":  # from the lowest bid allowed up to the cap: only the game knows how many
                return Facts(cost, None, item=Facts(mag=join_mag(STORED, args[1].mag)))
            case "auction_winner":
                return Facts(cost, 1, item=Facts())
            case "auction_in":
                return Facts(cost, seats, item=Facts())
            case "auction_high_bid":
                return Facts(cost, mag=STORED)
            case "without" | "sorted":
                size = over(0)
                return Facts(cost, size, item=args[0].item)
            case "value_of":
                return self.type_facts(ret, STORED).priced(cost)
            case "subsets":  # counted and charged by rt.subsets itself, as it runs
                self.charged()
                n, most = args[0].size, literal(2)
                count = None if n is None or n > 16 else 1 << n
                longest = n if most is None else max(min(n if n is not None else most, most), 0)
                return Facts(cost, count, item=Facts(size=longest, item=args[0].item))
            case "draw":  # (sorts the set first)
                over(0)
                return (args[0].item or self.type_facts(ret)).priced(cost)
            case "draw_from":
                return (args[0].item or self.type_facts(ret)).priced(cost + 1)
            case "throw":
                over(0)
                most = sum(max((abs(face) for face in die.faces), default=0) for kind in self.rs.dice
                           for die in kind.dice)
                return number(most, cost=cost)
        return self.type_facts(ret).priced(cost)

    def keep_region_tests(self) -> None:
        """(pass `region_masks`) Keeps the tests of regions whose definition charges nothing to the
        limits of a move: computing it for a region the plain code would not ask changes no budget."""
        for test in self.plan.region_tests:
            d = self.defines[test.define]
            if d.name not in self.define_facts:
                self.define_walk(d)
            if d.name in self.charging:
                continue
            self.region_tests.append(test)
            slot = self.kept[d.name]
            self.region_known[slot] = (*self.region_known.get(slot, ()), test.known)

    def region_any(self, e: t.Comprehension) -> str | None:
        """(pass `region_masks`) `any(d(r) op c for r in L)` read from the kept mask of the test."""
        found = region_masks.any_of(self.plan, e)
        if found is None or found[0] not in self.region_tests:
            return None
        test, regions = found
        self.notes.setdefault("read from a kept mask of regions", {})[show(e, 40)] = None
        return f"self.{test.within}({region_masks.mask_code(self, regions)}) != 0"

    def region_choice(self, a: t.Action, i: int, domain_py: str, charges: int) -> tuple[
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
        mask = region_masks.mask_code(self, found.regions)
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

    def listing(self, a: t.Action, loops: list[tuple[t.Choice, str, str, Facts, Ty]],
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

    def finite(self, ty: Ty, facts: Facts | None) -> bool:
        """Whether the values of type `ty` (with these facts) are few: entities, enumerations, truth
        values, and short lists of them; not numbers."""
        if ty.kind in ("entity", "enum", "bool"):
            return True
        if ty.kind in ("list", "set") and ty.elem is not None:
            return facts is not None and facts.size is not None and self.finite(ty.elem, facts.item)
        return False

    # -- statements ---------------------------------------------------------------------------
    def block(self, stmts: tuple[t.Stmt, ...], depth: int) -> list[Line]:
        out: list[Line] = []
        self.scopes.append(set())
        last: tuple[t.Stmt, int] | None = None  # the statement before, and where its lines start
        for s in stmts:
            lines = self.stmt(s, depth)
            if last is not None and (both := draw_out.fused(self, last[0], s, out[last[1]:], lines)) is not None:
                del out[last[1]:]  # (pass `draw_out`) an item drawn, then taken out: one call
                lines = both
            last = s, len(out)
            out.extend(lines if self.probe is None else self.probe(s, lines, depth))
        self.scopes.pop()
        self.block_cost = sat(sum(self.costs.get(id(s), 1) for s in stmts))
        if not out:
            out.append(Line(depth, "pass"))
        return out

    def stmt(self, s: t.Stmt, depth: int) -> list[Line]:
        self.costs[id(s)] = 1  # the work of a statement, beyond that of its parts (set below)
        match s:
            case t.Assign():
                stale: list[Line] = []  # the values kept between moves that read the field: stale now
                if s.target.kind in ("field", "perfield"):
                    stale = _dropped_at(self.drops.get(s.target.name, ()), self.entry_drops.get(s.target.name, {}),
                                        _index_again(s), depth, s.span, self.region_drops.get(s.target.name, {}),
                                        self.nested, self.attribute_drops.get(s.target.name, {}), _item_again(s),
                                        own=self.plan.own_drops, known=self.region_known)
                # the bit masks kept over the field assigned (passes `bitmask`, `value_masks`)
                kept = [Line(depth + more, code, s.span)
                        for more, code in (*bitmask.after_assign(self.plan, s, self.constant_values),
                                           *value_masks.after_assign(self.plan, s, self.defines))]
                old = [Line(depth + more, code, s.span)  # (the old items' bits, cleared before)
                       for more, code in value_masks.before_assign(self.plan, s, self.defines)]
                journal = self.journal_lines(s, depth)
                if self.caching and s.target.kind in ("field", "perfield"):  # derived values are stale now
                    return journal + self.statement(depth, lambda: [*old, Line(depth, self.assign(s), s.span), *stale,
                                                                    *kept, Line(depth, "self._derived = None", s.span)])
                return journal + self.statement(depth, lambda: [*old, Line(depth, self.assign(s), s.span), *stale,
                                                                *kept])
            case t.Let():
                return self.statement(depth, lambda: self.let(s, depth))
            case t.CallEffect():
                return self.statement(depth, lambda: self.call_effect(s, depth))
            case t.Goto():
                return [Line(depth, f"self.next_phase = {phase_constant(s.phase)}", s.span)]
            case t.EndTurn():  # the turn ends after this move: no `then:`, no earlier goto
                return [Line(depth, "self.next_phase = rt.END_TURN", s.span)]
            case t.Pass():
                return [Line(depth, "pass", s.span)]
            case t.Tell():
                return self.statement(depth, lambda: [Line(depth, f"self._tell({self.told(s)})", s.span)])
            case t.For():
                self.take_notes()
                walk = self.iterable(s.domain.ty, self.expr(s.domain))
                note = self.take_notes()
                domain = self.domain_facts(s.domain)
                self.scopes.append(set())
                var = self.bind(s.var)
                self.set_local(s.var, domain.item)
                body = self.block(s.body, depth + 1)
                walk, work, _, _ = self.loop(walk, domain, 1 + self.block_cost, s.span)
                self.scopes.pop()
                self.costs[id(s)] = sat(1 + domain.cost + work)
                if not any(re.search(rf"\b{var}\b", line.code) for line in body):
                    var = "_"  # a loop run for its count only (`for k in range(0, 3)`)
                head = Line(depth, f"for {var} in {walk}:", s.span, note)
                joined = join_rounds.fused(self, s, head, body, depth)  # (pass `join_rounds`) at once
                return [head, *body] if joined is None else joined
            case t.Ask():
                return self.statement(depth, lambda: self.ask(s, depth))
            case t.If():
                lines: list[Line] = []
                tests = branches = 0
                for i, (test, branch) in enumerate(s.branches):
                    self.take_notes()
                    py = self.expr(test)
                    tests += self.fact(test).cost
                    lines.append(Line(depth, f"{'if' if i == 0 else 'elif'} {py}:", test.span, self.take_notes()))
                    lines.extend(self.block(branch, depth + 1))
                    branches = max(branches, self.block_cost)
                if s.orelse:
                    lines.append(Line(depth, "else:"))
                    lines.extend(self.block(s.orelse, depth + 1))
                    branches = max(branches, self.block_cost)
                self.costs[id(s)] = sat(1 + tests + branches)
                return lines
            case _:
                assert_never(s)

    def let(self, s: t.Let, depth: int) -> list[Line]:
        py = self.expr(s.value)
        name = self.bind(s.var)
        value = self.fact(s.value)
        if s.var.name in self.assigned:  # assigned again later: stored, and checked, as a field is
            # (in its one representation: a list a tuple, as what `xs[i] = v` gives back)
            py = self.checked_store(self.canon(s.value, s.value.ty, py), value, s.value.ty, s.value.span)
        else:
            self.set_local(s.var, value)
        self.costs[id(s)] = sat(1 + value.cost)
        if s.annotation is not None:  # `let x = []`: annotated, with the type later assignments give it
            return [Line(depth, f"{name}: {_annotation(_typed(s.annotation))} = {py}", s.span)]
        return [Line(depth, f"{name} = {py}", s.span)]

    def told(self, s: t.Tell) -> str:
        """The code of a told text: an f-string of its literal parts and its values, each written as
        a move's text writes a choice (`State._fmt`; a number as it is); where a part would not sit
        in an f-string (a quote, a backslash, a `:` or `!`), the parts joined by `+`."""
        args = iter(s.args)
        pieces: list[tuple[str, str | None]] = []  # (literal text, None) or (value's code, its format)
        for text, fmt in s.parts:
            pieces.append((text, None) if fmt is None else (self.expr(next(args)), fmt))
        self.costs[id(s)] = sat(1 + sum(self.fact(arg).cost for arg in s.args))
        codes = [code if fmt is None or fmt == "int" else f"self._fmt({fmt!r}, {code})" for code, fmt in pieces]
        fits = all(not set(text if fmt is None else code) & set('"\\{}' if fmt is None else '"\\{}:!')
                   for (text, fmt), code in zip(pieces, codes, strict=True))
        if fits:
            return 'f"' + "".join(text if fmt is None else "{" + code + "}"
                                  for (text, fmt), code in zip(pieces, codes, strict=True)) + '"'
        return " + ".join(repr(text) if fmt is None else f"str({code})" if fmt == "int" else code
                          for (text, fmt), code in zip(pieces, codes, strict=True)) or "''"

    def call_effect(self, s: t.CallEffect, depth: int) -> list[Line]:
        proc = self.procedures[s.procedure]
        args = self.arguments(s.args, proc.params)
        self.passed(proc.name, proc.params, s.args)
        cost = self.costs[id(s)] = sat(1 + sum(self.fact(arg).cost for arg in s.args) + self.procedure_cost(proc.name))
        if proc.name in self.plan.inline_procedures and self.probe is None and proc.name not in self.suspending \
                and proc.name not in self.spending:  # (pass `inline_procedures`) written out here
            body = self.block(proc.body, depth)
            self.costs[id(s)] = cost  # (the call's work, as counted for the call)
            return inline_procedures.written(proc, s, body, depth)
        call = f"self.{proc.name}({', '.join(args)})"
        if proc.name in self.suspending:  # it can wait for a decision: its steps are this rule's
            call = f"yield from {call}"
        return [Line(depth, call, s.span)]

    def ask(self, s: t.Ask, depth: int) -> list[Line]:
        """`ask p to choose x in xs:` the rule waits for seat p's choice among the items of xs
        (the runtime's `Ask`), then runs the body with it; with no item to choose, the runtime
        gives back nothing to walk, and the body is skipped."""
        seat = self.expr(s.seat)
        walk = self.iterable(s.domain.ty, self.expr(s.domain))
        domain = self.domain_facts(s.domain)
        walk, work, _ = self.over(walk, domain, s.span)  # (the choices are listed: each item handled)
        self.scopes.append(set())
        var = self.bind(s.var)
        self.set_local(s.var, domain.item)
        body = self.block(s.body, depth + 1)
        self.scopes.pop()
        self.costs[id(s)] = sat(1 + self.fact(s.seat).cost + domain.cost + work + self.block_cost)
        asked = f"rt.Ask({seat}, {s.var.name!r}, {walk}, {self.where(s.span)})"
        return [Line(depth, f"for {var} in (yield {asked}):", s.span), *body]

    def journal_lines(self, s: t.Assign, depth: int) -> list[Line]:
        """Before an assignment to a field, in a rule set whose every move runs as steps: the
        field as the move began, kept the first time the move changes it (copied as `clone`
        copies it), while the move notes them (runtime/state.py `_do_steps`)."""
        if not self.journal or s.target.kind not in ("field", "perfield"):
            return []
        name = s.target.name
        copy = f"self.{name}[:]" if s.target.kind == "perfield" else f"self.{name}"
        return [Line(depth, f"if self._journal is not None and {name!r} not in self._journal:", s.span),
                Line(depth + 1, f"self._journal[{name!r}] = {copy}", s.span)]

    def assign_item(self, s: t.Assign, item: t.Expr) -> str:
        """`xs[i] = v` (`f[e][i] = v`): the list, a tuple, rebuilt with item i replaced; an index
        outside it is a fault of the rules told by its rule line (rt.put), like a read's."""
        sym = s.target
        vpy = self.expr(s.value)
        value = self.fact(s.value)
        ipy = self.expr(item)
        lhs = sym.py
        cost = sat(1 + value.cost + self.fact(item).cost)
        if s.index is not None:
            lhs = f"{sym.py}[{self.expr(s.index)}]"
            cost = sat(cost + self.fact(s.index).cost)
        held = self.field_facts(sym.name, sym.ty) if sym.kind != "local" else self.symbol_facts(sym)
        old_py, old_work, _ = self.over(lhs, held, s.span)  # (the copy: every item handled)
        self.costs[id(s)] = sat(cost + old_work)
        elem = sym.ty.elem or ANY
        if s.op in ("+=", "-="):
            new = Facts(mag=STORED)  # (rt.add_at checks the sum as a stored number)
            amount = vpy if s.op == "+=" else f"-({vpy})"
            put = f"rt.add_at({old_py}, {ipy}, {amount}, {self.where(s.span)})"
        else:
            new = value
            put = f"rt.put({old_py}, {ipy}, {self.checked_store(self.canon(s.value, elem, vpy), value, elem, s.span)})"
        self.stored(sym, Facts(size=0, item=new.priced(0)))  # (the list keeps its length: only its items change)
        return f"{lhs} = {put}"

    def assign(self, s: t.Assign) -> str:
        if s.item is not None:
            return self.assign_item(s, s.item)
        sym = s.target
        vpy = self.expr(s.value)
        value = self.fact(s.value)
        self.costs[id(s)] = sat(1 + value.cost)
        lhs = sym.py
        if s.index is not None:
            ipy = self.expr(s.index)
            self.costs[id(s)] = sat(self.costs[id(s)] + self.fact(s.index).cost)
            lhs = f"{sym.py}[{ipy}]"
        if s.op in ("+=", "-=") and sym.ty.kind == "set":
            # a new set: every item of both is handled
            held = self.field_facts(sym.name, sym.ty) if sym.kind != "local" else self.symbol_facts(sym)
            old_py, old_work, old_size = self.over(lhs, held, s.span)
            new_py, new_work, new_size = self.over(vpy, value, s.span)
            self.costs[id(s)] = sat(self.costs[id(s)] + old_work + new_work)
            size = old_size if s.op == "-=" else sat(old_size + new_size)
            self.stored(sym, Facts(size=size, item=value.item))
            items = set_items.joined(self, s.op == "+=", old_py, s.value, new_py)  # (pass `set_items`)
            if items is not None:
                return f"{lhs} = {items}"
            return f"{lhs} = {old_py} {'|' if s.op == '+=' else '-'} {new_py}"
        if s.op in ("+=", "-="):
            if not storable((value.mag[0], value.mag[1] + 1)):  # `x += x` would double: the amount is checked
                vpy = f"rt.num({vpy}, {self.where(s.span)})"
            return f"{lhs} {s.op} {vpy}"
        self.stored(sym, value)
        vpy = self.canon(s.value, sym.ty, vpy)
        code = self.checked_store(vpy, value, sym.ty, s.span)
        if sym.kind == "field" and s.index is None and _narrows(_annotation(sym.ty), code):
            code = f"rt.held({code})"
        return f"{lhs} = {code}"

    def condition(self, e: t.Expr, tag: str, *entry: str) -> str:
        """An expression that is a rule of its own and only reads the game (a guard, the end,
        an actor, a score ...), its lists taken for small checked as it starts; `tag` marks its
        budget reset (none: the caller marks it)."""
        self.scopes = [set(entry)]
        before = self.charges
        reading = self.begin_reading(entry)
        py = self.expr(e)
        py = self.unit_expr(py, self.fact(e).cost, e.span, lists=self.end_reading(reading))
        if tag:
            self.mark(before, tag)
        return py

    # -- the rule set -------------------------------------------------------------------------
    def run(self) -> Program:
        typed, prog = self.typed, self.program
        loading = 0  # the work of the attribute tables so far: all of them at most a move's
        for attr in typed.components:
            self.scopes, self.assigned = [{"i"}], frozenset()
            charges = self.charges
            py = self.expr(attr.value)
            work = sat(max(self.fact(attr.value).cost, 1) * attr.count)
            if self.charges > charges or work > MAX_STEPS:
                self.error(attr.value.span, f"attribute `{attr.name}` of `{attr.component}` may take more work to "
                           f"compute than a move may do ({MAX_STEPS:,} steps for all {attr.count:,})",
                           "compute it from `i` with fewer or shorter loops")
                continue
            loading += work
            if loading > MAX_STEPS:
                self.error(attr.value.span, f"attribute `{attr.name}` of `{attr.component}` takes the work of the "
                           f"components' attributes, computed as the rules are loaded, past what a move may do "
                           f"({MAX_STEPS:,} steps for all of them)", "compute them from `i` with fewer or shorter "
                           "loops, or keep fewer attributes")
                continue
            prog.component_tables.append((attr.const, _annotation(attr.ty), f"tuple({py} for i in range({attr.count}))",
                                          attr.span))
        spans = {attr.const: attr.span for attr in typed.components}  # (pass `component_sets`: after the tables)
        prog.component_tables.extend((name, annotation, code, spans[table])
                                     for table, (name, annotation, code) in component_sets.tables(typed, self.plan))
        for f in typed.fields:
            prog.fields.append(self.field(f))
        self.keep_region_tests()
        for d in typed.defines:
            params = tuple(zip((p.py for p in d.params), (_annotation(p.ty) for p in d.params), strict=True))
            py, lists = self.define_walk(d)
            note = self.take_notes()
            checks = []
            if lists[0]:  # the lists it takes for small are checked as it starts, as a statement
                longer = " or ".join(f"len({lst}) > {SMALL_LIST}" for lst in lists[0])
                checks = [Line(2, f"if {longer}:"), Line(3, self.grown(lists, self.fact(d.body).cost + 1, d.span))]
            if d.cached:  # computed once per state: each computation charges its proven work
                self.charged()
                cost = min(sat(self.fact(d.body).cost + 1), MAX_STEPS + 1)
                body = (Line(2, f"rt.spend(self, {cost}, {self.where(d.span)})", d.span),
                        *checks, Line(2, f"return {py}", d.span, note))
                if d.name not in self.kept:
                    body = _cached(d, _annotation(d.ty), body)
            else:
                loops, py = self.aggregate_loops(py, {p.py for p in d.params}, d.span)
                body = self.unit_lines([*checks, *loops, Line(2, f"return {py}", d.span, note)],
                                       self.fact(d.body).cost + 1, d.span)
            kept = ""
            tabled = value_tables.table_of(self.plan, d.name)
            if tabled is not None:  # (pass `value_tables`) remembered by the value it is a function of
                body, kept = _tabled(d, _annotation(d.ty), tabled, body, self.board_table)
            if d.name in self.kept:  # (pass `derived`) kept in its slot between moves
                reads = dict(self.plan.derived)[d.name]
                nest = self.nested.get(self.kept[d.name])  # (pass `nested_drops`) by this parameter first
                slot_type = _annotation(d.ty) if not d.params else \
                    f"dict[{_key_annotation(params)}, {_annotation(d.ty)}]" if nest is None else \
                    f"dict[{params[nest][1]}, dict[{_key_annotation(params[:nest] + params[nest + 1:])}, " \
                    f"{_annotation(d.ty)}]]"
                prog.kept_slots.append((self.kept[d.name], f"{slot_type} | None"))
                body = _kept(d, _annotation(d.ty), self.kept[d.name], body, nest)
                kept = f"recomputed once {reads.told()} changes" if reads.fields or reads.volatile else \
                    f"computed once{' per arguments' if d.params else ''} (it reads nothing that changes)"
                partly = {k for k in range(len(d.params)) if len(d.params) == 1 or nest == k}  # (dropped by it)
                at = [f"a change of `{f}` at one `{d.params[k].name}`: the value{'s' if nest == k else ''} for "
                      f"that `{d.params[k].name}` only"
                      for name, f, k in self.plan.derived_entries if name == d.name and k in partly]
                at += [f"a change of `{f}` at one spot: the values of the regions holding it only"
                       for name, f, k in self.plan.region_drops if name == d.name and k in partly]
                at += [f"a change of `{f}` by one item: the value{'s' if nest == k else ''} for that item's "
                       f"`{d.params[k].name}` only"
                       for name, f, k, _ in self.plan.derived_attributes if name == d.name and k in partly]
                if nest is not None:
                    at.append(f"kept by `{d.params[nest].name}` first, `nested_drops`")
                if at:  # (a change of the field at one entity drops its values for that entity only)
                    kept += f" ({'; '.join(at)})"
            note = "not kept between moves: only the scores read it, once per player scored (`score_only`)" \
                if d.name in self.plan.score_only else ""
            prog.defines.append(LoweredFunction(d.name, params, _annotation(d.ty), body, d.span,
                                                cached=d.cached and not kept, kept=kept, version_of=_version_of(d),
                                                note=note))
        for p in typed.procedures:
            params, body = self.procedure(p)
            steps = p.name in self.suspending
            prog.procedures.append(LoweredFunction(p.name, params, "rt.Steps" if steps else "None", body, p.span,
                                                   steps=steps))
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
        for ph in typed.phases:
            before = self.charges
            start = self.effects(ph.start, ph.span)
            self.mark(before, "start")
            self.assigned = frozenset()
            actor = self.condition(ph.actor, "actor") if ph.actor is not None else None
            prog.phases.append(LoweredPhase(ph.name, ph.const, start, ph.actions, ph.stuck, ph.span, actor,
                                            steps=_asks(ph.start, self.suspending)))
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
        prog.records = [(r.name, tuple((name, str(ty)) for name, ty in r.fields)) for r in typed.rules.records]
        prog.resets = frozenset(self.resets)
        prog.called = frozenset(self.called)
        for m in self.plan.masks:  # the sets of spots kept as bit masks (pass `bitmask`)
            prog.kept.append((m.slot, "int", m.note(), m.py))
            prog.fields_set.append(f"{m.py} = {m.rebuild()}")
        for test in self.region_tests:  # (pass `region_masks`) the kept masks of tests of regions
            where = test.span.short
            prog.kept.append((test.slot, "int", f"region_masks: the regions where `{test.text}` ({where}), among "
                              f"those of {test.known}", f"self.{test.slot}"))
            prog.kept.append((test.known, "int", f"region_masks: the regions whose bit of {test.slot} is known "
                              f"(cleared where the kept value of `{test.define}` for the region is dropped)",
                              f"self.{test.known}"))
            prog.forget.append(f"self.{test.slot} = self.{test.known} = 0")
            after = next(k for k, d in enumerate(prog.defines) if d.name == test.define) + 1
            body = tuple(Line(2, code) for code in region_masks.within_method(test))
            prog.defines.insert(after, LoweredFunction(test.within, (("_regions_mask", "int"),), "int", body,
                                                       test.span))
        for vm in self.plan.value_masks:  # a bit mask per value, a list changed in place: copied (pass `value_masks`)
            prog.kept.append((vm.slot, "list[int]", vm.note(), f"{vm.py}[:]"))
            prog.fields_set.append(f"{vm.py} = {vm.rebuild()}")
        prog.board_tables = [(slot, *bound) for slot, bound in self.bound_tables.items()]
        return prog

    def board_table(self, code: str, slot: str, annotation: str, what: str) -> str:
        """The code that reads a table of the board: `code`, which finds it by name (or makes it), or,
        with pass `board_tables`, the slot `slot` of the state it is bound to as the game starts, of
        type `annotation` (`what`: what it holds, for the slot's comment)."""
        if not self.plan.board_tables:
            return code
        found = self.bound_tables.setdefault(slot, (annotation, code, what))
        assert found[1] == code, (slot, found[1], code)  # (a slot's name says which table it is)
        return f"self.{slot}"

    def field(self, typed: t.Field) -> LoweredField:
        f = typed.decl
        self.scopes, self.assigned = [set()], frozenset()
        before = self.charges
        py = self.expr(typed.init)
        py = self.canon(typed.init, f.type, py)
        self.derive(f.name, self.fact(typed.init))
        py = self.unit_expr(self.checked_store(py, self.fact(typed.init), f.type, f.init.span),
                            self.fact(typed.init).cost, f.init.span, (self.kind_count(f.per) or 1) if f.per else 1)
        self.mark(before, "setup")
        annotation = _annotation(f.type)
        if f.per:
            count = {
                "player": "self.num_seats",
                "spot": "len(self.board.spots)",
                "region": "len(self.board.region_names)",
            }.get(f.per, f"{self.component_count[f.per]}" if f.per in self.component_count
                  else f"len({faces_constant(f.per)})")
            init = f"[{py} for _ in range({count})]"
            annotation = f"list[{annotation}]"
            copy = f"self.{f.name}[:]"
        else:
            init, copy = py, f"self.{f.name}"
        element = f.type.elem.name if f.type.kind in ("list", "set") and f.type.elem else f.type.name
        # a list or set of numbers, truth values or lists: its whole type, to read saved states
        declared = f", declared={str(f.type)!r}" if f.type.kind in ("list", "set") and not element else ""
        if needs_key(f.type):  # records and optionals: read, saved and shown by their whole type
            element, declared = "", f", declared={str(f.type)!r}"
        pool = f", pool={f.pool!r}" if f.pool else ""  # (the fields whose unseen items are dealt together)
        # (a field everyone sees may still hide some of its items: the search agents must know)
        hides = ", hides_items=True" if f.hide_items_if is not None else ""
        info = (f"rt.FieldInfo({f.name!r}, {f.per!r}, {f.type.kind!r}, {element!r}, "
                f"{f.values!r}, {f.visible!r}, {f.doc!r}{declared}{pool}{hides})")
        shown = self.condition(typed.shown_if, "shown") if typed.shown_if is not None else None
        hidden = self.condition(typed.hide_items_if, "hidden", "k") if typed.hide_items_if is not None else None
        seen_by = self.condition(typed.visible_to, "seen", "k") if typed.visible_to is not None else None
        return LoweredField(f.name, annotation, init, f.per, copy, info, f.span, shown, hidden, seen_by)

    def action(self, a: t.Action) -> LoweredAction:
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
        region_row: tuple[region_masks.Choice, list[tuple[str | None, str | None]], list[tuple[str, str, str]]] \
            | None = None
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
            if regions is not None and lines and region_row is not None:
                listing_prelude += tuple(f"{name} = {code}  # {comment}" for name, code, comment in region_row[2])
            listing = tuple(lines if listed is None
                            else listing_tables.remembered(listed, a.name, lines, bindings, self.board_table))
        revealed = None
        if a.revealed is not None:  # a rule of its own, read with the move's choices bound
            revealed = self.condition(a.revealed, "revealed", *(c.var.py for c in a.choices))
        return LoweredAction(a.name, invented("do", a.name), params, when, choices, a.text_parts, effect, a.triggers,
                             a.then, a.span, others_parts=a.others_parts, revealed=revealed,
                             listing_prelude=listing_prelude, clear_cache=clear_cache, count=count,
                             fresh_listing=fresh_listing, fresh_effect=fresh_effect, steps=steps, listing=listing,
                             unguarded=guard_inline.written(self.plan, when and _unparenthesised(when),
                                                            _parenthesised(_unparenthesised(when or ""))))


    def aggregate_loops(self, py: str, params: set[str], span: SourceSpan) -> tuple[list[Line], str]:
        """(pass `aggregate_loops`) The loops of the aggregates a value (`py`, of a definition of
        parameters `params` or of the end) computes first, as lines from the body's depth, and the
        value reading their results; none, and `py` as it is, with the pass off."""
        if not self.plan.aggregate_loops:
            return [], py
        written, py = aggregate_loops.written_out(py, params)
        return [Line(2 + depth, code, span if why else None, why) for depth, code, why in written], py

    def tabled_rows(self, a: t.Action) -> tuple[str, str, str] | None:
        """(pass `tabled_rows`) The key the first choice's walk is remembered by (`value_tables`), the
        type of its values and what the key is in words; None for a listing the pass did not take."""
        first = a.choices[0] if a.choices else None
        if a.name not in self.plan.tabled_rows or first is None or not isinstance(first.domain, t.DefineCall):
            return None
        table = value_tables.table_of(self.plan, first.domain.define)
        if table is None:
            return None
        args = [self.expr(arg) for arg in first.domain.args]
        key = tabled_rows.key_code(table.py, table.at, table.params, args)
        field = table.field if table.at is None else f"{table.field}[{show(first.domain.args[table.at])}]"
        what = " and ".join([f"`{field}`", *(f"`{show(first.domain.args[k])}`" for k in table.params)])
        return key, _annotation(first.var.ty), what


# A list a rule can read at its start: a field, an entity's value of a field, a parameter.
# (`Small`: the lists a rule takes for small, and the number of operations it does on them.)
Small = tuple[tuple[str, ...], int]
Reading = tuple[dict[str, None] | None, int, frozenset[str]]  # what begin_reading saves
_SIMPLE = re.compile(r"self\.\w+(?:\[(self\.\w+|\w+)\])?|(\w+)")


def _cached(d: t.Define, annotation: str, body: tuple[Line, ...]) -> tuple[Line, ...]:
    """A definition's lines, remembering its value in the state's `_derived` (one dict per state,
    dropped by every change of the game: an assignment to a field, a new phase or turn, a restore)."""
    key = repr(d.name) if not d.params else f"({d.name!r}, {', '.join(p.py for p in d.params)})"
    *work, last = body
    assert last.depth == 2 and last.code.startswith("return "), last
    return (
        Line(2, "_memo = self._derived"),
        Line(2, "if _memo is None:"),
        Line(3, "_memo = self._derived = {}"),
        Line(2, f"elif {key} in _memo:"),
        Line(3, f"_remembered: {annotation} = _memo[{key}]"),
        Line(3, "return _remembered"),
        *work,
        Line(2, f"_value: {annotation} = {last.code.removeprefix('return ')}", last.source, last.note),
        Line(2, f"_memo[{key}] = _value"),
        Line(2, "return _value"),
    )


def _parenthesised(py: str) -> str:
    """`py` in parentheses, unless it is one operand already (a name, a call, an item, an
    attribute, or wrapped whole in one pair): a comparison stays one operand."""
    depth = 0
    for ch in py:
        depth += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1}.get(ch, 0)
        if depth == 0 and not (ch.isalnum() or ch in "_.)]}"):
            break
    else:
        if py and (py[0].isalpha() or py[0] in "_[({"):
            return py
    if py.startswith("(") and py.endswith(")") and _wrapped(py):
        return py
    return f"({py})"


def _unparenthesised(py: str) -> str:
    """`py` without the one pair of parentheses that wraps it whole, if it holds one operand."""
    if py.startswith("(") and _parenthesised(py) == py and _one_operand(py) and _wrapped(py):
        inner, depth = py[1:-1], 0
        for i, ch in enumerate(inner):  # (a generator's own parentheses stay)
            depth += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1}.get(ch, 0)
            if depth == 0 and inner.startswith(" for ", i):
                return py
        return inner
    return py


def _wrapped(py: str) -> bool:
    """Whether the parenthesis `py` starts with closes at its end (`(a & b)`, not `(a & b).bit_count()`)."""
    depth = 0
    for i, ch in enumerate(py):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return i == len(py) - 1
    return False


def _one_operand(py: str) -> bool:
    """Whether code wrapped whole in parentheses holds no comma outside brackets inside them
    (`(a if c else b)`, not the tuple `(a, b)`)."""
    depth = 0
    for ch in py[1:-1]:
        depth += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1}.get(ch, 0)
        if depth == 0 and ch == ",":
            return False
    return True


END_SLOT = "_kept_end"  # (pass `end_once`) the slot of the end's value


def _remembered(body: tuple[Line, ...], annotation: str, found: tuple[Line, ...], store: str,
                room: str | None = None) -> tuple[Line, ...]:
    """A definition's lines (`body`, ending with its `return`), with the lines that return its value
    when it is found remembered first (`found`) and the line that remembers it (`store`) last, if
    `room` holds."""
    *work, last = body
    assert last.depth == 2 and last.code.startswith("return "), last
    value = Line(2, f"_value: {annotation} = {last.code.removeprefix('return ')}", last.source)
    stored = (Line(2, store),) if room is None else (Line(2, f"if {room}:"), Line(3, store))
    return (*found, *work, value, *stored, Line(2, "return _value"))


def _kept(d: t.Define, annotation: str, slot: str, body: tuple[Line, ...], nest: int | None = None) -> tuple[Line, ...]:
    """A definition's lines, keeping its value in its slot of the state between moves (pass
    `derived`): a value, or for a definition with parameters a dict by arguments; None while
    stale (every assignment to a field it reads sets it so). `nest`: the position of the parameter
    the values are kept by first, each a dict by the others (pass `nested_drops`)."""
    if not d.params:
        return _remembered(body, annotation, (Line(2, f"_kept = self.{slot}"), Line(2, "if _kept is not None:"),
                                              Line(3, "return _kept")), f"self.{slot} = _value")
    # the dict the values are kept in (`kept`, or for one nested value `nested`: kept[its parameter]), by key
    held = "_kept"
    first: tuple[Line, ...] = ()
    if nest is not None:  # (pass `nested_drops`) by that parameter first, each a dict by the others
        rest = [p.py for i, p in enumerate(d.params) if i != nest]
        held, first = "_nested", (
            Line(2, f"_nested = _kept.get({d.params[nest].py})"),
            Line(2, "if _nested is None:"),
            Line(3, f"_nested = _kept[{d.params[nest].py}] = {{}}"),
        )
    else:
        rest = [p.py for p in d.params]
    key = rest[0] if len(rest) == 1 else f"({', '.join(rest)})"
    found = (Line(2, f"_kept = self.{slot}"), Line(2, "if _kept is None:"), Line(3, f"_kept = self.{slot} = {{}}"),
             *first, Line(2, f"elif {key} in {held}:"), Line(3, f"return {held}[{key}]"))
    keyed = [p for i, p in enumerate(d.params) if i != nest]
    if len(keyed) == 1 and keyed[0].ty.kind in ("entity", "enum", "bool"):  # (one per entity at most)
        return _remembered(body, annotation, found, f"{held}[{key}] = _value")
    # values by several arguments, or by a number or a list, are kept while the dict holds fewer than
    # rt.MAX_TABLED (docs/optimiser.md, "What a board keeps"): beyond, computed afresh at every call
    return _remembered(body, annotation, found, f"{held}[{key}] = _value", f"len({held}) < rt.MAX_TABLED")


def _tabled(d: t.Define, annotation: str, table: value_tables.Table, body: tuple[Line, ...],
            bound: Bind) -> tuple[tuple[Line, ...], str]:
    """A definition's lines, remembering its values in a table of the board by the value of the
    game it reads (and the parameters that join the key), pass `value_tables`; and what its
    comment says of it."""
    read = table.py if table.at is None else f"{table.py}[{d.params[table.at].py}]"
    parts = [read, *(d.params[k].py for k in table.params)]
    key = parts[0] if len(parts) == 1 else f"({', '.join(parts)})"
    find = f"self.board.value_tables.get({d.name!r}) or self.board.value_table({d.name!r})"
    table_code = bound(find, invented("values", d.name), f"dict[Any, {annotation}]",
                       f"the values of `{d.name}` by what they read (`value_tables`)")
    found = (
        Line(2, f"_table = {table_code}"),
        Line(2, f"_kept: {annotation} | None = _table.get({key})"),
        Line(2, "if _kept is not None:"),
        Line(3, "return _kept"),
    )
    what = f"`{table.field}`" if table.at is None else f"`{table.field}[{d.params[table.at].name}]`"
    joined = "".join(f" and `{d.params[k].name}`" for k in table.params)
    return _remembered(body, annotation, found, f"rt.remember(_table, {key}, _value, self.board)"), (
        f"remembered by the value of {what}{joined}, in a table of the board every state shares (`value_tables`)")


def _key_annotation(params: tuple[tuple[str, str], ...]) -> str:
    """The type of the key of a kept definition's values: its parameter's, or a tuple of theirs."""
    return params[0][1] if len(params) == 1 else f"tuple[{', '.join(ann for _, ann in params)}]"


# the runtime's checks of the work of a move, written inside an expression (runtime/limits.py)
_CHARGES = re.compile(r"\brt\.(walk|grown|spend|walk_lists|upto)\(")


def _dropped(slots: Iterable[str], depth: int, span: SourceSpan,
             known: Mapping[str, tuple[str, ...]] | None = None) -> list[Line]:
    """The lines that drop kept values (their slots set to None), a few to a line; and (pass
    `region_masks`) the bits known of the kept tests of their definitions (`known`, by slot)."""
    slots = list(slots)
    out = [Line(depth, " = ".join(f"self.{slot}" for slot in slots[i:i + 4]) + " = None", span)
           for i in range(0, len(slots), 4)]
    stale = [k for slot in slots for k in (known or {}).get(slot, ())]
    out += [Line(depth, " = ".join(f"self.{k}" for k in stale[i:i + 4]) + " = 0", span, "`region_masks`: no bit known")
            for i in range(0, len(stale), 4)]
    return out


def _index_again(s: t.Assign) -> str | None:
    """The code of the entity an assignment to a field per entity changes, to be evaluated again
    after it, to the same value and at no cost: a local, a number, a constant, `current`, another
    field (or an item of one at such an index); None otherwise (or when it assigns the whole field)."""
    def again(e: t.Expr) -> str | None:
        match e:
            case t.Num():
                return str(e.value)
            case t.Ref() if e.sym.kind in ("local", "const") or e.sym.kind == "value" and e.sym.name == "current" \
                    or e.sym.kind == "field" and e.sym.name != s.target.name:
                return e.sym.py
            case t.ListIndex():
                obj, index = again(e.obj), again(e.index)
                return None if obj is None or index is None else f"{obj}[{index}]"
        return None
    return again(s.index) if s.index is not None and s.target.kind == "perfield" else None


def _item_again(s: t.Assign) -> str | None:
    """The code of the one item an assignment adds to or takes from a set (`card[p] += {t}`,
    `dispenser -= {t}`), to be evaluated again after it like `_index_again`'s entity: a local, a
    number or a constant; None for any other assignment."""
    if s.op not in ("+=", "-=") or s.item is not None or s.target.ty.kind != "set" \
            or not isinstance(s.value, t.Collection) or len(s.value.items) != 1:
        return None
    match s.value.items[0]:
        case t.Num() as e:
            return str(e.value)
        case t.Ref() as e if e.sym.kind in ("local", "const"):
            return e.sym.py
    return None


def _dropped_at(slots: Iterable[str], at_entity: Mapping[str, tuple[int, int]], index: str | None, depth: int,
                span: SourceSpan, in_regions: Mapping[str, tuple[int, int]] | None = None,
                nested: Mapping[str, int] | None = None,
                by_attribute: Mapping[str, tuple[int, int, str]] | None = None, item: str | None = None,
                own: bool = False, known: Mapping[str, tuple[str, ...]] | None = None) -> list[Line]:
    """The lines that drop the kept values an assignment makes stale: whole slots (`_dropped`),
    but for a slot whose definition has one parameter and reads the field only at the entity it
    names (`at_entity`: its position, of how many), the value kept for the entity assigned
    (`index`), when it can be read again. A definition of several parameters is dropped whole
    (leaving out its values for one entity walks its whole dict, measured slower on Mandarin
    than computing again what it kept), unless its values are kept nested by that parameter
    (`nested`: slot -> position, pass `nested_drops`): then that entity's are dropped. Of a slot
    whose definition of one parameter reads a field of sets only through walks keeping the items
    whose attribute is that parameter (`by_attribute`: position, how many, the attribute's table),
    a change by one item (`item`, when it can be read again) drops the value kept for its attribute.
    `own` (pass `own_drops`): the state says whether a copy may share its dicts (`_kept_shared`); if
    none may, the values are dropped from them in place. `known` (pass `region_masks`): by slot, the
    masks of the bits known of kept tests of its definition, cleared where its values are dropped."""
    known = known or {}
    if index is None and item is None:
        return _dropped(slots, depth, span, known)
    nested = nested or {}

    def by(slot: str, found: tuple[int, int] | tuple[int, int, str] | None) -> bool:
        # dropped by the entity (or region, or attribute) its key names
        return found is not None and (found[1] == 1 or nested.get(slot) == found[0])

    some = [slot for slot in slots if index is not None and by(slot, at_entity.get(slot))]
    # (pass `region_drops`) a definition of one region that reads the field per spot only in its
    # region's spots: the values of the regions holding the spot assigned
    regions = [slot for slot in slots if index is not None and in_regions is not None
               and by(slot, in_regions.get(slot)) and slot not in some]
    attributes = {slot: found[2] for slot in slots if item is not None and by_attribute is not None
                  and by(slot, found := by_attribute.get(slot)) and found is not None
                  and slot not in some and slot not in regions}
    out = _dropped([slot for slot in slots if slot not in some and slot not in regions and slot not in attributes],
                   depth, span, known)
    shared = ", self._kept_shared" if own else ""
    one = [(slot, index) for slot in some] + [(slot, f"{table}[{item}]") for slot, table in attributes.items()]
    if own and one:  # (pass `own_drops`) from copies where a copy may share the dicts, else in place, no call
        out.append(Line(depth, "if self._kept_shared:", span))
        out.extend(Line(depth + 1, f"self.{slot} = rt.without_key(self.{slot}, {key})", span) for slot, key in one)
        out.append(Line(depth, "else:", span))
        for slot, key in one:
            out += [Line(depth + 1, f"if self.{slot} is not None:", span),
                    Line(depth + 2, f"self.{slot}.pop({key}, None)", span)]
    else:
        out.extend(Line(depth, f"self.{slot} = rt.without_key(self.{slot}, {key})", span) for slot, key in one)
    out.extend(Line(depth, f"self.{slot} = rt.without_keys(self.{slot}, self.board.spot_regions[{index}]{shared})",
                    span) for slot in regions)
    # (pass `region_masks`) the bits of the kept tests of those definitions, for the same regions
    note = "`region_masks`: the bit of its region no longer known"
    out += [Line(depth, f"self.{k} &= ~self.board.region_bit[{key}]", span, note)
            for slot, key in one for k in known.get(slot, ())]
    out += [Line(depth, f"self.{k} &= ~self.board.spot_regions_mask[{index}]", span,
                 "`region_masks`: the bits of the regions holding it no longer known")
            for slot in regions for k in known.get(slot, ())]
    return out


def _version_of(d: t.Define) -> str:
    """What a version of a definition or scoring term that `base(...)` uses is, for its comment."""
    if d.version_of is None:
        return ""
    section, name = d.version_of
    if section == "scoring":
        return f"scoring term `{name}` as it was before a variant replaced it: `{base_use(name)}`"
    use = base_use(name, "..." if d.params else None)
    return f"definition `{name}` as it was before a variant replaced it: `{use}`"


def _param(func: str, param: str) -> str:
    """The key of a parameter among what lower() learns (fields are keyed by their names)."""
    return f"{func}.{param}"


def _pair_sorted(e: t.ListIndex, obj: str) -> str | None:
    """`sorted([a, b])[0]` as `min(a, b)`, `[1]` as `max(a, b)`: the same item (of values in their
    natural order, two equal ones are the same value), without a list made and sorted (Chang
    Cheng's `sorted([s, n])[0] == s`, a test per neighbour of every space listed)."""
    items = e.obj.args[0] if isinstance(e.obj, t.Builtin) and e.obj.func == "sorted" and e.obj.args else None
    if (not isinstance(items, t.Collection) or len(items.items) != 2 or not isinstance(e.index, t.Num)
            or e.index.value not in (0, 1) or e.obj.ty.elem is None or needs_key(e.obj.ty.elem)
            or e.obj.ty.elem.kind == "set" or not (obj.startswith("sorted((") and obj.endswith("))"))):
        return None
    return ("min" if e.index.value == 0 else "max") + obj[len("sorted("):-1]


def _sorted(elem: Ty, py: str) -> str:
    """The items of a set in increasing order (a set of sets: by their items in order; records and
    `none`: by the runtime's total order, rt.sort_key)."""
    if needs_key(elem):
        return f"sorted({py}, key=rt.sort_key)"
    return f"sorted({py}, key=sorted)" if elem.kind == "set" else f"sorted({py})"


def _assigned(stmts: tuple[t.Stmt, ...]) -> set[str]:
    """The names a block of effects assigns to (`x = ...`, `x += ...`), in it or in its blocks."""
    return {s.target.name for s in t.statements(stmts) if isinstance(s, t.Assign)}


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


def answer_format(ty: Ty) -> str:
    """How the runtime writes a value of type `ty` in an action's text (`_fmt`)."""
    if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.name:
        return f"list:{ty.elem.name}"
    return ty.name or ty.kind


def _stored(facts: Facts) -> Facts:
    """`facts` of a value read back from the state: its numbers were checked as they were stored."""
    return Facts(0, facts.size, STORED, _stored(facts.item) if facts.item is not None else None)  # (not small)


def _typed(ty: Ty) -> Ty:
    """The type, with `int` for an item type nothing gave."""
    if ty.kind == "any":
        return INT
    return Ty(ty.kind, ty.name, _typed(ty.elem)) if ty.elem is not None else ty


def _annotation(ty: Ty) -> str:
    return python_type(ty)


def _narrows(annotation: str, code: str) -> bool:
    """Whether mypy would narrow a field so declared to a type of its own after `self.f = code`
    (an optional field to int or None; a list to a tuple of so many items), which the native
    build trusts even once a call has changed the field: such a value is assigned through
    rt.held, keeping the declared type (docs/native.md)."""
    display = code.startswith("(") and not code.startswith("(*")  # `(*xs, x)` is typed tuple[int, ...]
    return annotation.endswith("| None") or annotation.startswith("Sequence[") and display


def lower(typed: t.TypedProgram, plan: Plan | None = None,
          probe: Callable[[t.Stmt, list[Line], int], list[Line]] | None = None,
          probe_expr: Callable[[t.Expr, str], str] | None = None) -> tuple[list[Diagnostic], Program]:
    """Lower a checked program, carrying out what the optimisation passes decided (`plan`,
    compiler/passes/; none by default); returns its problems (the limits of a move it cannot
    keep) and the lowered program. `probe`, `probe_expr`: a coverage build's hooks
    (compiler/probes.py)."""
    plan = plan if plan is not None else Plan()
    # The walk runs again while it learns more of what the fields hold (how long a list field can
    # grow: compiler/budget.py); its code is kept once what it assumed of them holds.
    assumed: dict[str, Facts] | None = None
    grown: Counter[str] = Counter()
    while True:
        lowerer = _Lowerer(typed, assumed, plan)
        lowerer.probe, lowerer.probe_expr = probe, probe_expr
        try:
            program = lowerer.run()
        except RecursionError:  # the limits on nesting should make this unreachable; never a traceback, though
            lowerer.error(typed.rules.span, "the rules nest too deeply to be compiled",
                          "definitions using definitions, each deeply nested: flatten a few")
            return lowerer.diags, lowerer.program
        learnt = None if lowerer.diags else lowerer.learnt(grown)
        if learnt is None:
            return sorted(lowerer.diags, key=lambda d: (d.span.path, d.span.line, d.span.col)), program
        assumed = learnt

