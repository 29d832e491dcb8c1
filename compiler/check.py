"""Stage 5, check: every name resolves, every call fits its signature, types agree, every
phase can be reached and the game can end.

`check(ruleset)` returns the diagnostics and, when there are none, a `Program`: each
expression and effect already written as Python, which the code generator only lays out.
Checking and lowering are one walk so they can never disagree about what a name means.
"""

from __future__ import annotations

import keyword
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import assert_never

from ..runtime.board import GraphBoard, hex_labels, validate_regions
from ..runtime.limits import MAX_ACTIONS, MAX_INT, MAX_ITEMS, MAX_STEPS, SMALL_LIST
from . import ast, ir
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
from .names import (
    ANNOTATION_NAMES,
    FILTER_LOCAL,
    IMPLICIT,
    RUNTIME_ACTIONS,
    RUNTIME_BOARDS,
    STATE_MEMBERS,
    const_name,
    local_name,
    member_clash,
    references,
)
from .signatures import AGGREGATES, BUILTINS, VALUES
from .source import Diagnostic, SourceSpan, did_you_mean
from .types import ANY, BOOL, INT, STR, Ty, compatible, entity, enum, list_of, parse_type, set_of, unify

# Names a field, definition or procedure may not take: every member a state has already
# (names.STATE_MEMBERS: the runtime's and the template's), and the rule language's own
# `player` and values (`current`, `spots` ...). compiler/names.py says where each name lives.
RESERVED = STATE_MEMBERS | frozenset({"player"}) | frozenset(VALUES)
# More phases or actions than this make generated code Python cannot compile.
_MAX_COMPONENTS = 1000
# Typing a definition types those it uses first: a chain longer than this is refused.
_MAX_DEFINE_CHAIN = 40
# Kinds of values a type can name: no enum, dice kind or component may take these names.
_KIND_WORDS = frozenset({"int", "bool", "str", "auction", "list", "set", "any", "none", "player", "spot", "region",
                         "role", "regionkind", "board", "border"})


@dataclass(frozen=True, slots=True)
class Line:
    """One line of lowered Python at an indentation depth, with the rule it came from."""

    depth: int
    code: str
    source: SourceSpan | None = None


@dataclass(frozen=True, slots=True)
class LoweredChoice:
    name: str
    py_name: str
    domain: str
    is_list: bool
    span: SourceSpan


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


@dataclass(frozen=True, slots=True)
class LoweredFunction:
    name: str
    params: tuple[tuple[str, str], ...]
    returns: str
    body: tuple[Line, ...]
    span: SourceSpan
    doc: str = ""


@dataclass(frozen=True, slots=True)
class LoweredTrigger:
    name: str
    method: str
    when: str | None
    effect: tuple[Line, ...]
    span: SourceSpan


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


@dataclass(frozen=True, slots=True)
class LoweredBoard:
    name: str
    side: int
    regions: tuple[tuple[str, str, tuple[str, ...]], ...]  # kind, name, spots
    span: SourceSpan
    ring: int = 0
    graph: tuple[str, ...] = ()  # a graph board's spots
    roads: tuple[tuple[str, str], ...] = ()  # its road segments, each joining two spots
    borders: tuple[tuple[str, str], ...] = ()  # bordering regions, in the order numbered
    attributes: tuple[tuple[int, ...], ...] = ()  # per region attribute, its value for each region (-1: none)


@dataclass
class Program:
    constants: list[tuple[str, int, str]] = field(default_factory=list)  # NAME, value, comment
    enums: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    dice: list[tuple[str, tuple[str, ...], tuple[tuple[int, ...], ...]]] = field(default_factory=list)
    component_tables: list[tuple[str, str, str, SourceSpan]] = field(default_factory=list)  # NAME, type, code
    options: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # name, slot, choices
    region_kinds: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    boards: list[LoweredBoard] = field(default_factory=list)
    fields: list[LoweredField] = field(default_factory=list)
    defines: list[LoweredFunction] = field(default_factory=list)
    procedures: list[LoweredFunction] = field(default_factory=list)
    phases: list[LoweredPhase] = field(default_factory=list)
    actions: list[LoweredAction] = field(default_factory=list)
    triggers: list[LoweredTrigger] = field(default_factory=list)
    turn_end: list[str] = field(default_factory=list)
    end: str = "False"
    end_span: SourceSpan | None = None
    scoring: list[tuple[str, str, SourceSpan]] = field(default_factory=list)
    setup: list[Line] = field(default_factory=list)
    tie_break: str | None = None
    neutral: tuple[str, ...] = ()
    # The methods the runtime enters rule code by whose code charges the budget of a move
    # (runtime/limits.py): each starts a fresh one. "setup", "end", "start" (a phase's),
    # "turn_end", "guard", "actor", "score", "tie_break", "shown", "hidden", "seen"; an action's
    # listing and effect start one if theirs charges ("legal", "effect": some does).
    resets: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class _Sym:
    kind: str  # field, perfield, const, option, value, local, define
    ty: Ty
    py: str
    span: SourceSpan | None = None
    per: str | None = None
    untyped: str = ""  # a `let x = []`: the marker its annotation is written at (`_typed_lets`)


_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


class _Checker:
    def __init__(self, rs: ir.RuleSet, assumed: dict[str, Facts] | None = None) -> None:
        self.rs = rs
        # The limits of a move (compiler/budget.py): what each expression is known to be and to
        # cost, by node; `assumed` is what check() learnt the fields hold, `derived` what this
        # walk finds stored in them.
        self.assumed = assumed
        self.derived: dict[str, Facts] = {}
        # `let` values started from an empty `[]` or `{}`: their annotation, by marker, is written
        # once the block is lowered, with the item type later assignments give (`_typed_lets`).
        self.untyped: dict[str, Ty] = {}
        # The nodes lowered as conditions: only their truth is used (`test`).
        self.tested: set[int] = set()
        self.lets = 0
        self.facts: dict[int, Facts] = {}
        # The nodes whose code gives its type's one runtime representation already (docs/language.md,
        # "Values"): a list is a tuple, a set a frozenset, all the way down. Others are converted
        # where the representation shows: stored, compared, or put into a list or set.
        self.canonical: set[int] = set()
        self.items: set[_Sym] = set()  # the locals that walk the items of a list or set
        self.local_facts: dict[int, tuple[_Sym, Facts]] = {}  # (the symbol too: its id is not reused)
        self.costs: dict[int, int] = {}  # the unchecked work of each statement
        self.block_cost = 0  # of the block lowered last
        self.assigned: frozenset[str] = frozenset()  # the names the rule being lowered assigns to
        self.define_facts: dict[str, tuple[Facts, int]] = {}  # result, and the work of a call
        self.procedure_costs: dict[str, int] = {}
        self.board_bounds: dict[str, int] | None = None
        self.resets: set[str] = set()
        self.charges = 0  # checks that charge the budget, met so far (in code, or in what it calls)
        self.charging: set[str] = set()  # definitions and procedures whose code charges it
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
        self.diags: list[Diagnostic] = []
        self.globals: dict[str, _Sym] = {}
        self.scopes: list[dict[str, _Sym]] = []
        self.functions: dict[str, ir.Define] = {}
        self.define_types: dict[str, Ty] = {}
        self.define_depth = 0  # definitions being typed, one inside another
        self.procedures: dict[str, ir.Procedure] = {}
        self.context = ""  # "effect" allows chance
        self.gotos: list[tuple[str, SourceSpan]] = []
        self.program = Program()
        self.entity_kinds = {"player", "spot", "region", "border"} | {d.name for d in rs.dice}
        self.region_attributes: list[str] = []  # the names of region attributes, in table order
        self.enum_names: set[str] = {"role", "regionkind"}
        self.kinds: set[str] = set()  # enumerations, dice kinds and components declared so far
        self.component_count: dict[str, int] = {}
        self.attributes: dict[str, dict[str, tuple[Ty, str]]] = {}

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, message, hint))

    # -- declarations -------------------------------------------------------------------------
    def declare(self, name: str, sym: _Sym) -> None:
        if name in IMPLICIT:
            if sym.span is not None and sym.kind != "const":  # (values and seats: build.py says so, where they are)
                self.error(sym.span, f"`{name}` is reserved: the rules use it for {IMPLICIT[name]}",
                           "choose another name")
            return
        if name in self.globals:
            old = self.globals[name]
            where = f" (first declared at {old.span})" if old.span else ""
            if sym.span is not None:
                self.error(sym.span, f"`{name}` is declared twice{where}", "every name in a rule set must be unique")
            return
        self.globals[name] = sym

    def new_kind(self, name: str, span: SourceSpan) -> bool:
        """Whether `name` can name a new kind of value (an enumeration, a dice kind, a component):
        kinds share one namespace with the built-in ones (`int`, `player`, `role` ...)."""
        if name in _KIND_WORDS:
            self.error(span, f"`{name}` is reserved: it is the name of a built-in kind of value", "choose another name")
            return False
        if name in self.kinds or name in self.entity_kinds:  # (entity kinds: the dice kinds, declared later)
            self.error(span, f"`{name}` is already the name of a kind of value", "choose another name")
            return False
        self.kinds.add(name)
        return True

    def declare_enum(self, enum_name: str, values: tuple[str, ...], span: SourceSpan, comment: str) -> bool:
        """Declares an enumeration and each of its values (a module constant); False if its name
        is taken."""
        if enum_name not in ("role", "regionkind") and not self.new_kind(enum_name, span):
            return False
        self.enum_names.add(enum_name)
        self.program.enums.append((enum_name, values))
        for i, value in enumerate(values):
            const = const_name(value)
            self.declare(value, _Sym("const", enum(enum_name), const, span))
            self.program.constants.append((const, i, f"{enum_name}: {comment}"))
        return True

    def declarations(self) -> None:
        rs = self.rs
        for name, (tname, py, _doc) in VALUES.items():
            ty = parse_type(tname, self.entity_kinds, self.enum_names)
            assert isinstance(ty, Ty)
            self.globals[name] = _Sym("value", ty, py)
        if not rs.roles:
            roles = tuple(f"seat{i + 1}" for i in range(max(rs.players)))
        else:
            roles = rs.roles
            if len(roles) < max(rs.players):
                self.error(rs.span, f"{len(roles)} roles for up to {max(rs.players)} players",
                           "give one role per seat, in seat order")
        self.program.roles = roles
        self.declare_enum("role", roles, rs.span, "the roles, in seat order")
        # Neutral seats come after the players: they own pieces but never take a turn nor win.
        self.program.neutral = rs.neutral
        for i, name in enumerate(rs.neutral):
            self.declare(name, _Sym("const", entity("player"), f"(self.num_players + {i})", rs.span))
        for decl in rs.enums:
            if not self.declare_enum(decl.name, decl.values, decl.span, f"values of `{decl.name}`"):
                continue
            # The enumeration's name stands for the list of all its values: `for a in animal`.
            self.declare(decl.name, _Sym("value", list_of(enum(decl.name)), f"range({len(decl.values)})", decl.span))
        # boards and their region kinds
        kinds: tuple[str, ...] | None = None
        for board in rs.boards:
            names = tuple(k.name for k in board.region_kinds)
            if kinds is None:
                kinds = names
            elif names != kinds:
                self.error(board.span, f"board `{board.name}` has region kinds {', '.join(names) or 'none'}, "
                           f"but the first board has {', '.join(kinds) or 'none'}", "every board needs the same kinds")
            self.board(board)
        if not rs.boards:
            self.error(rs.span, "a rule set needs `boards:` with at least one board")
        self.program.region_kinds = kinds or ()
        self.declare_enum("regionkind", kinds or (), rs.span, "the kinds of regions on the board")
        for board in rs.boards:
            if board.name in RUNTIME_BOARDS:
                self.error(board.span, f"`{board.name}` is reserved: as a choice of option `board` it picks the "
                           "board by the number of players", "choose another name")
        option = next((o for o in rs.options if o.name == "board"), None)
        board_names = tuple(b.name for b in rs.boards)
        if len(rs.boards) > 1 and option is None:
            self.error(rs.boards[1].span, "several boards need an option `board` to choose between them")
        elif option is not None and set(option.choices) - set(RUNTIME_BOARDS) != set(board_names):
            self.error(option.span, f"option `board` must choose among the boards: {', '.join(board_names)}")
        for opt in rs.options:
            self.reserved_member("option", opt.name, opt.span)
            slot = f"opt_{opt.name}"
            self.program.options.append((opt.name, slot, opt.choices))
            self.declare(opt.name, _Sym("option", enum(opt.name), f"self.{slot}", opt.span))
            if opt.name != "board":
                self.declare_enum(opt.name, opt.choices, opt.span, f"choices of option `{opt.name}`")
            else:
                self.enum_names.add("board")
                self.program.enums.append(("board", opt.choices))
        for comp in rs.components:
            self.component(comp)
        for kind in rs.dice:
            if kind.name in _KIND_WORDS or kind.name in self.kinds:  # (dice kinds are entity kinds from the start)
                self.new_kind(kind.name, kind.span)  # refuses it, saying why
            names = tuple(d.name for d in kind.dice)
            self.program.dice.append((kind.name, names, tuple(d.faces for d in kind.dice)))
            for i, die in enumerate(kind.dice):
                const = const_name(die.name)
                self.declare(die.name, _Sym("const", entity(kind.name), const, die.span))
                self.program.constants.append((const, i, f"{kind.name} {die.faces}"))
        for f in rs.fields:
            if f.values:
                self.declare_enum(f.name, f.values, f.span, f"values of field `{f.name}`")
        for f in rs.fields:
            if self.reserved(f.name, f.span):
                continue
            sym_kind = "perfield" if f.per else "field"
            self.declare(f.name, _Sym(sym_kind, f.type, f"self.{f.name}", f.span, f.per))
        for d in rs.defines:
            if not self.reserved(d.name, d.span) and (d.name in self.functions or d.name in self.globals):
                self.error(d.span, f"`{d.name}` is declared twice")
            self.functions[d.name] = d
        for p in rs.procedures:
            taken = p.name in self.functions or p.name in self.procedures or p.name in self.globals
            if not self.reserved(p.name, p.span) and taken:
                self.error(p.span, f"`{p.name}` is declared twice")
            self.procedures[p.name] = p
        for ph in rs.phases:
            self.reserved_member("phase", ph.name, ph.span)
        for a in rs.actions:
            self.reserved_member("action", a.name, a.span)
        for trig in rs.triggers:
            self.reserved_member("trigger", trig.name, trig.span)

    def reserved(self, name: str, span: SourceSpan) -> bool:
        """Refuses a field, definition or procedure name that generated code or the rule language
        already uses (they are members of the state class); True if it did."""
        if name in STATE_MEMBERS:
            self.error(span, f"`{name}` is reserved: every state already has a member `{name}`", "choose another name")
        elif name in RESERVED:
            self.error(span, f"`{name}` is reserved: the rules already use it for themselves", "choose another name")
        elif name in ANNOTATION_NAMES:
            self.error(span, f"`{name}` is reserved: the type annotations of the state class use it",
                       "choose another name")
        elif name.startswith("_") or name.startswith("opt_"):
            self.error(span, f"`{name}` is reserved: names starting with `{name[:name.index('_') + 1]}` are "
                       "kept for generated code", "choose another name")
        elif keyword.iskeyword(name):
            self.error(span, f"`{name}` is a Python keyword, so it is reserved", "choose another name")
        elif name in BUILTINS or name in AGGREGATES:
            self.error(span, f"`{name}` is reserved: it is the name of a built-in function", "choose another name")
        else:
            return False
        return True

    def reserved_member(self, kind: str, name: str, span: SourceSpan) -> None:
        """Refuses an action, phase, trigger or option whose method or slot (`_do_<action>`,
        `_start_<phase>` ...) would be one that every state has already."""
        member = member_clash(kind, name)
        if member is not None:
            self.error(span, f"`{name}` is reserved: {kind} `{name}` would be written `{member}` in generated "
                       "code, which every state has already", "choose another name")
        elif kind == "action" and name in RUNTIME_ACTIONS:
            self.error(span, f"`{name}` is reserved: it is the action the runtime plays for a player who has no "
                       "other", "choose another name")

    def cycles(self) -> None:
        """Refuses definitions that use themselves and procedures that call themselves, directly
        or through others: either would recurse at run time until Python gives up."""
        rs = self.rs
        defines = {d.name: d for d in reversed(rs.defines)}  # (the first of a name declared twice)
        procedures = {p.name: p for p in reversed(rs.procedures)}
        uses = {name: sorted({n for n, _ in references(d.body) if n in defines}) for name, d in defines.items()}
        calls = {name: sorted({n for n, _ in references(p.body) if n in procedures})
                 for name, p in procedures.items()}
        for graph, spans, what, verb, hint in (
            (uses, {d.name: d.span for d in rs.defines}, "definition", "uses",
             "a definition cannot use itself, directly or through others: its value would never be found"),
            (calls, {p.name: p.span for p in rs.procedures}, "procedure", "calls",
             "a procedure cannot call itself, directly or through others: repeat with `for` instead"),
        ):
            reported: set[str] = set()
            for start in spans:
                if start in reported:
                    continue
                path = _cycle(graph, start)
                if path is not None:
                    reported.update(path)
                    self.error(spans[start], f"{what} `{start}` {verb} itself: {' -> '.join(path)}", hint)

    def component(self, comp: ir.Component) -> None:
        """A fixed set of numbered pieces: an entity kind, its list, and tables of attributes."""
        if not self.new_kind(comp.name, comp.span):
            return
        self.component_count[comp.name] = comp.count
        labels = tuple(f"{comp.name}{i + 1}" for i in range(comp.count))
        self.program.dice.append((comp.name, labels, ()))
        if comp.all_name is not None:
            self.declare(comp.all_name, _Sym("value", list_of(entity(comp.name)), f"range({comp.count})", comp.span))
        table: dict[str, tuple[Ty, str]] = {}
        for attr in comp.attributes:
            self.scopes, self.context = [{"i": _Sym("local", INT, "i", attr.span)}], "init"
            charges = self.charges
            ty, py = self.expr(attr.value)
            self.scopes = []
            if self.charges > charges or sat(self.fact(attr.value).cost * comp.count) > MAX_STEPS:
                self.error(attr.value.span, f"attribute `{attr.name}` of `{comp.name}` may take more work to compute "
                           f"than a move may do ({MAX_STEPS:,} steps for all {comp.count:,})",
                           "compute it from `i` with fewer or shorter loops")
                continue
            if "self." in py:
                self.error(attr.value.span, f"attribute `{attr.name}` of `{comp.name}` must not depend on the game "
                           "state", "use the number `i`, enumerations and constants")
                continue
            const = f"{const_name(comp.name)}_{const_name(attr.name)}"
            table[attr.name] = (ty, const)
            self.program.component_tables.append(
                (const, _annotation(ty), f"tuple({py} for i in range({comp.count}))", attr.span))
        self.attributes[comp.name] = table

    def attribute(self, e: ast.Attr) -> tuple[Ty, str]:
        t, py = self.expr(e.obj)
        if t.kind == "any":
            return ANY, "None"
        table = self.attributes.get(t.name) if t.kind == "entity" else None
        if table is None:
            self.error(e.span, f"`.{e.name}`: a value of type {t} has no attributes",
                       "components have attributes (components: tile: attributes: ...)")
            return ANY, "None"
        if e.name not in table:
            self.error(e.span, f"`{t.name}` has no attribute `{e.name}`", did_you_mean(e.name, table)
                       or f"its attributes: {', '.join(table) or 'none'}")
            return ANY, "None"
        ty, const = table[e.name]
        return ty, f"{const}[{py}]"

    def board(self, board: ir.Board) -> None:
        if board.ring:
            self.ring_board(board)
            return
        if board.graph:
            self.graph_board(board)
            return
        regions: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        by_kind = {k.name: k for k in board.region_kinds}
        at = hex_labels(board.hexagon)
        labels = list(at.values())
        on_board = set(labels)
        # mirror_label(s, side) for every spot at once (it builds the board's labels on each call)
        mirror = {label: at[(r, q)] for (q, r), label in at.items()}
        for kind in board.region_kinds:
            if kind.mirror_of is not None:
                source = by_kind.get(kind.mirror_of)
                if source is None or source.mirror_of is not None:
                    self.error(kind.span, f"cannot mirror `{kind.mirror_of}`: no region kind of that name listed "
                               "before it", did_you_mean(kind.mirror_of, by_kind))
                    continue
                rename = dict(kind.rename)
                mirrored = []
                for region in source.regions:
                    name = region.name
                    for old, new in rename.items():
                        if name.startswith(old):
                            name = new + name[len(old):]
                    try:
                        spots = tuple(mirror[s] for s in region.spots)
                    except KeyError:
                        spots = ()
                    mirrored.append((name, spots))
                regions[kind.name] = mirrored
            else:
                regions[kind.name] = [(r.name, r.spots) for r in kind.regions]
        # Spots that are not on the board, shown at the region that names them.
        for kind in board.region_kinds:
            for region in kind.regions:
                for spot in region.spots:
                    if spot not in on_board:
                        self.error(region.span, f"region {region.name} of board `{board.name}`: no spot `{spot}` "
                                   "on this board", did_you_mean(spot, labels) or
                                   f"spots are {labels[0]} to {labels[-1]}: a row letter, then the place in the row")
        exp = board.expect
        if exp is not None:
            problems = validate_regions(
                board.hexagon, regions, exp.spots, dict(exp.regions), exp.region_size, exp.contiguous,
                exp.cover_each_spot_once, exp.no_region_equal,
            )
            for problem in problems:
                if ": no spot `" not in problem:
                    self.error(exp.span, f"board `{board.name}` does not match what is expected of it: {problem}")
        else:
            for problem in validate_regions(board.hexagon, regions, None, {}, None, False, False, ()):
                if ": no spot `" not in problem:
                    self.error(board.span, f"board `{board.name}`: {problem}")
        names = Counter(n for kind_regions in regions.values() for n, _ in kind_regions)
        dupes = sorted(n for n, count in names.items() if count > 1)
        if dupes:
            self.error(board.span, f"board `{board.name}` names several regions {', '.join(dupes)}")
        self.program.boards.append(
            LoweredBoard(
                board.name, board.hexagon,
                tuple((k, n, s) for k, rs_ in regions.items() for n, s in rs_), board.span,
            )
        )

    def graph_board(self, board: ir.Board) -> None:
        """Named spots joined by roads, with regions over them and the borders between regions."""
        labels = list(board.graph)
        on_board = set(labels)
        where = f"board `{board.name}`"
        for spot, count in Counter(labels).items():
            if count > 1:
                self.error(board.span, f"{where} lists spot `{spot}` {count} times")
        edges: list[tuple[str, str]] = []
        for road in board.roads:
            for spot in road:
                if spot not in on_board:
                    self.error(board.span, f"{where}: a road goes through `{spot}`, which is not one of its spots",
                               did_you_mean(spot, labels))
            edges += [(a, b) for a, b in zip(road, road[1:], strict=False) if a in on_board and b in on_board]
        regions: list[tuple[str, str, tuple[str, ...]]] = []
        region_of: dict[str, dict[str, list[str]]] = {}
        for kind in board.region_kinds:
            if kind.mirror_of is not None:
                self.error(kind.span, "a graph board has no mirror image", "list the regions")
            of: dict[str, list[str]] = region_of.setdefault(kind.name, {})
            for region in kind.regions:
                for spot in region.spots:
                    if spot not in on_board:
                        self.error(region.span, f"region {region.name} of {where}: no spot `{spot}`",
                                   did_you_mean(spot, labels))
                    of.setdefault(spot, []).append(region.name)
                regions.append((kind.name, region.name, region.spots))
        borders: list[tuple[str, str]] = []
        for kind_name, pairs in board.borders:
            kind_regions = {r.name for k in board.region_kinds if k.name == kind_name for r in k.regions}
            if not kind_regions:
                self.error(board.span, f"{where}: borders of `{kind_name}`, which is no region kind of it")
            for a, b in pairs:
                for end in (a, b):
                    if end not in kind_regions:
                        self.error(board.span, f"{where}: a border names `{end}`, no region of kind `{kind_name}`",
                                   did_you_mean(end, kind_regions))
                if (a, b) in borders or (b, a) in borders:
                    self.error(board.span, f"{where}: the border {a}-{b} is listed twice")
                borders.append((a, b))
        # Region attributes: each a table over every region, its values of one enumeration.
        attr_names = sorted({a for k in board.region_kinds for r in k.regions for a, _ in r.attributes})
        tables: list[tuple[int, ...]] = []
        for attr in attr_names:
            if attr not in self.region_attributes:
                self.region_attributes.append(attr)
        for attr in self.region_attributes:
            row: list[int] = []
            enum_of: str | None = None
            for k in board.region_kinds:
                for r in k.regions:
                    value = dict(r.attributes).get(attr)
                    if value is None:
                        row.append(-1)
                        continue
                    sym = self.globals.get(value)
                    if sym is None or sym.kind != "const" or sym.ty.kind != "enum":
                        self.error(r.span, f"attribute `{attr}` of {r.name}: `{value}` is no value of an enumeration",
                                   "declare it under `enums:`")
                        row.append(-1)
                        continue
                    if enum_of not in (None, sym.ty.name):
                        self.error(r.span, f"attribute `{attr}` of {r.name} is a {sym.ty.name}, elsewhere a {enum_of}")
                    enum_of = sym.ty.name
                    row.append(next((v for n, v, _ in self.program.constants if n == sym.py), -1))
            tables.append(tuple(row))
            if enum_of is not None:
                self.attributes.setdefault("region", {})[attr] = (
                    enum(enum_of), f"self.board.region_attributes[{self.region_attributes.index(attr)}]")
        if board.expect is not None:
            self.graph_expect(board, labels, edges, region_of, borders)
        self.program.boards.append(LoweredBoard(
            board.name, 0, tuple(regions), board.span, 0, tuple(labels), tuple(edges), tuple(borders),
            tuple(tables),
        ))

    def graph_expect(self, board: ir.Board, labels: list[str], edges: list[tuple[str, str]],
                     region_of: dict[str, dict[str, list[str]]], borders: list[tuple[str, str]]) -> None:
        """The validators of a graph board: each count and property its `expect:` states."""
        exp = board.expect
        assert exp is not None
        problems: list[str] = []
        if exp.spots is not None and exp.spots != len(labels):
            problems.append(f"{len(labels)} spots, expected {exp.spots}")
        kinds = {k.name: k for k in board.region_kinds}
        for kind_name, count in exp.regions:
            found = len(kinds[kind_name].regions) if kind_name in kinds else 0
            if found != count:
                problems.append(f"{found} regions of kind `{kind_name}`, expected {count}")
        if exp.region_size is not None:
            low, high = exp.region_size
            for kind_name, _ in exp.regions:
                for r in kinds[kind_name].regions if kind_name in kinds else ():
                    if not low <= len(r.spots) <= high:
                        problems.append(f"region {r.name} has {len(r.spots)} spots, not {low} to {high}")
        if exp.connected and labels:
            roads = GraphBoard(board.name, labels, edges, (), (), (), ())
            first, *others = roads.networks(frozenset(roads.spots))
            if others:
                cut = sorted(set(labels) - {labels[s] for s in first})
                problems.append(f"the roads do not join every spot: {', '.join(cut[:6])} cannot be reached "
                                f"from {labels[0]}")
        if exp.cover_each_spot_once:
            for kind_name, _ in exp.regions:
                of = region_of.get(kind_name, {})
                for spot in labels:
                    if len(of.get(spot, [])) != 1:
                        problems.append(f"spot {spot} is in {len(of.get(spot, []))} regions of kind `{kind_name}`")
        for kind_name, count in exp.borders:
            found = sum(1 for k, pairs in board.borders if k == kind_name for _ in pairs)
            if found != count:
                problems.append(f"{found} borders between regions of kind `{kind_name}`, expected {count}")
        if exp.borders_match_roads is not None:
            of = region_of.get(exp.borders_match_roads, {})
            crossing: set[frozenset[str]] = set()
            for a, b in edges:
                for ra in of.get(a, []):
                    for rb in of.get(b, []):
                        if ra != rb:
                            crossing.add(frozenset((ra, rb)))
            for owners in of.values():  # a spot in two regions joins them (a border post)
                for i, ra in enumerate(owners):
                    for rb in owners[i + 1:]:
                        crossing.add(frozenset((ra, rb)))
            listed = {frozenset(p) for k, pairs in board.borders if k == exp.borders_match_roads for p in pairs}
            for pair in sorted(crossing - listed, key=sorted):
                problems.append(f"a road joins {' and '.join(sorted(pair))}, but no border between them is listed")
            for pair in sorted(listed - crossing, key=sorted):
                problems.append(f"the border {'-'.join(sorted(pair))} is crossed by no road")
        attributes = {(r.name, a): v for k in board.region_kinds for r in k.regions for a, v in r.attributes}
        for attr, counts in exp.attribute_counts:
            found_counts = Counter(v for (_, a), v in attributes.items() if a == attr)
            for value, count in counts:
                if found_counts.get(value, 0) != count:
                    problems.append(f"{found_counts.get(value, 0)} regions with {attr} {value}, expected {count}")
            extra = set(found_counts) - {v for v, _ in counts}
            if extra:
                problems.append(f"regions with {attr} {', '.join(sorted(extra))}, which `expect` does not list")
        if exp.bordering_differ is not None:
            for a, b in borders:
                va, vb = attributes.get((a, exp.bordering_differ)), attributes.get((b, exp.bordering_differ))
                if va is not None and va == vb:
                    problems.append(f"{a} and {b} border each other and are both {exp.bordering_differ} {va}")
        for problem in problems:
            self.error(exp.span, f"board `{board.name}` does not match what is expected of it: {problem}")

    def ring_board(self, board: ir.Board) -> None:
        """A closed track of spots 1..N; regions are lists of spot numbers."""
        labels = [str(i + 1) for i in range(board.ring)]
        on_board = set(labels)
        regions: list[tuple[str, str, tuple[str, ...]]] = []
        for kind in board.region_kinds:
            if kind.mirror_of is not None:
                self.error(kind.span, "a ring board has no mirror image", "list the regions")
            seen: dict[str, str] = {}
            for region in kind.regions:
                for spot in region.spots:
                    if spot not in on_board:
                        self.error(region.span, f"region {region.name} of board `{board.name}`: no spot `{spot}` "
                                   f"on this ring", f"spots are 1 to {board.ring}")
                    elif spot in seen:
                        self.error(region.span, f"spot {spot} is in both {seen[spot]} and {region.name}")
                    else:
                        seen[spot] = region.name
                regions.append((kind.name, region.name, region.spots))
            exp = board.expect
            if exp is not None:
                counts = dict(exp.regions)
                if kind.name in counts and counts[kind.name] != len(kind.regions):
                    self.error(exp.span, f"board `{board.name}`: {len(kind.regions)} regions of kind `{kind.name}`, "
                               f"expected {counts[kind.name]}")
                if exp.cover_each_spot_once and len(seen) != board.ring and kind.name in counts:
                    missing = [label for label in labels if label not in seen]
                    self.error(exp.span, f"board `{board.name}`: spots in no region of kind `{kind.name}`: "
                               f"{', '.join(missing[:8])}")
        if board.expect is not None and board.expect.spots not in (None, board.ring):
            self.error(board.expect.span, f"board `{board.name}` has {board.ring} spots, "
                       f"expected {board.expect.spots}")
        self.program.boards.append(LoweredBoard(board.name, 0, tuple(regions), board.span, board.ring))

    # -- scopes -------------------------------------------------------------------------------
    def lookup(self, name: str) -> _Sym | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.globals.get(name)

    def visible_names(self) -> list[str]:
        names = set(self.globals) | set(self.functions)
        for scope in self.scopes:
            names |= set(scope)
        return sorted(names)

    def bind(self, name: str, ty: Ty, span: SourceSpan) -> str:
        if self.lookup(name) is not None or name in self.functions or name in self.procedures:
            self.error(span, f"`{name}` is already a name here", "choose another name for the local value")
        py = local_name(name)
        self.scopes[-1][name] = _Sym("local", ty, py, span)
        return py

    # -- expressions --------------------------------------------------------------------------
    def expr(self, e: ast.Expr) -> tuple[Ty, str]:
        self.facts.pop(id(e), None)  # (an id is reused once its node is gone: facts are this walk's)
        self.canonical.discard(id(e))
        t, py = self.lower(e)
        if id(e) not in self.facts:  # what the type alone says; the work is its parts' work
            self.facts[id(e)] = self.type_facts(t).plus(sum(self.fact(part).cost for part in _parts(e)))
        return t, py

    def lower(self, e: ast.Expr) -> tuple[Ty, str]:
        match e:
            case ast.Num():
                if e.value > MAX_INT:
                    self.error(e.span, f"a number larger than the limit of whole numbers, {MAX_INT:,} (64 bits)",
                               "numbers in a game stay within 64 bits")
                    return INT, "0"
                self.facts[id(e)] = number(e.value)
                return INT, str(e.value)
            case ast.Str():
                return STR, repr(e.value)
            case ast.BoolLit():
                return BOOL, str(e.value)
            case ast.Name():
                return self.name(e)
            case ast.Attr():
                return self.attribute(e)
            case ast.Index():
                return self.index(e)
            case ast.Call():
                return self.call(e)
            case ast.Comprehension():
                return self.comprehension(e)
            case ast.ListLit():
                lowered = self.collection(e.items, "list", e.span)
                self.facts[id(e)] = self.literal_facts(e.items)
                self.canonical.add(id(e))
                return lowered
            case ast.SetLit():
                lowered = self.collection(e.items, "set", e.span)
                self.facts[id(e)] = self.literal_facts(e.items)
                self.canonical.add(id(e))
                return lowered
            case ast.Unary():
                t, py = self.test(e.operand) if e.op == "not" else self.expr(e.operand)
                if e.op == "not":
                    self.truth(t, e.operand.span)
                    return BOOL, f"not {py}"
                self.want(INT, t, e.operand.span, "`-`")
                self.facts[id(e)] = Facts(self.fact(e.operand).cost, mag=self.fact(e.operand).mag)
                return INT, f"-{py}"
            case ast.Binary():
                return self.binary(e)
            case ast.Cond():
                tt, tpy = self.test(e.test)
                self.truth(tt, e.test.span)
                at, apy = self.expr(e.then)
                bt, bpy = self.expr(e.orelse)
                common = unify(at, bt)
                if common is None:
                    self.error(e.span, f"type mismatch: one branch is {at}, the other {bt}")
                    common = at
                self.facts[id(e)] = join(self.fact(e.then), self.fact(e.orelse)).plus(self.fact(e.test).cost)
                if id(e.then) in self.canonical and id(e.orelse) in self.canonical:
                    self.canonical.add(id(e))
                return common, f"({apy} if {tpy} else {bpy})"
            case _:
                assert_never(e)

    def name(self, e: ast.Name) -> tuple[Ty, str]:
        sym = self.lookup(e.id)
        if sym is not None:
            self.facts[id(e)] = self.symbol_facts(e.id, sym)
            if sym.kind == "field" or sym in self.items:  # a field, or an item of a list or set
                self.canonical.add(id(e))
            return sym.ty, sym.py
        if e.id in self.functions:
            d = self.functions[e.id]
            if d.params:
                self.error(e.span, f"`{e.id}` takes {len(d.params)} argument(s)", f"call it: {e.id}(...)")
                return ANY, "None"
            ty = self.define_type(d)
            self.facts[id(e)] = self.define_call_facts(d, 0)
            return ty, f"self.{e.id}()"
        self.error(e.span, f"unknown name `{e.id}`", did_you_mean(e.id, self.visible_names()))
        return ANY, "None"

    def index(self, e: ast.Index) -> tuple[Ty, str]:
        if isinstance(e.obj, ast.Name):
            sym = self.lookup(e.obj.id)
            if sym is not None and sym.kind == "perfield":
                it, ipy = self.expr(e.index)
                self.want(entity(sym.per or ""), it, e.index.span, f"the index of `{e.obj.id}`")
                self.facts[id(e)] = self.field_facts(e.obj.id, sym.ty).priced(self.fact(e.index).cost)
                self.canonical.add(id(e))
                return sym.ty, f"{sym.py}[{ipy}]"
        t, py = self.expr(e.obj)
        it, ipy = self.expr(e.index)
        if t.kind == "list":
            self.want(INT, it, e.index.span, "a list index")
            item = self.fact(e.obj).item or self.type_facts(t.elem or ANY)
            self.facts[id(e)] = item.priced(self.fact(e.obj).cost + self.fact(e.index).cost)
            self.canonical.add(id(e))
            return t.elem or ANY, f"{py}[{ipy}]"
        if t.kind != "any":
            self.error(e.obj.span, f"a value of type {t} cannot be indexed")
        return ANY, "None"

    def collection(self, items: tuple[ast.Expr, ...], kind: str, span: SourceSpan) -> tuple[Ty, str]:
        elem = ANY
        parts = []
        for item in items:
            t, py = self.expr(item)
            u = unify(elem, t)
            if u is None:
                self.error(item.span, f"type mismatch: {t} among items of type {elem}")
            else:
                elem = u
            parts.append(self.canon(item, t, py))
        tupled = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        if kind == "list":  # a list is a tuple: one representation, and it can be an item of a set
            return list_of(elem), tupled
        if not parts:
            return set_of(elem), "frozenset()"
        return set_of(elem), f"frozenset({tupled})"

    def canon(self, e: ast.Expr, t: Ty, py: str) -> str:
        """`py`, the code of `e`, giving the one runtime representation of its type: a list is a
        tuple and a set a frozenset, items too (`tuple(x)` of a tuple is that tuple itself)."""
        # Every set is made a frozenset, and every item put into a list or set is converted, so the
        # items of any list are in their one representation already: only the list itself may be
        # a Python list (a comprehension, `sorted`) or a range (`players`).
        if t.kind != "list" or id(e) in self.canonical:
            return py
        return f"tuple({py})"

    def iterable(self, t: Ty, py: str, span: SourceSpan, ordered: bool = True) -> tuple[Ty, str]:
        """The element type of something a `for` can walk, and how to walk it. A set is walked in
        increasing order where the order can reach the game (`ordered`: a loop, a choice, a list
        made from it): the order of a frozenset is Python's own, not the same under every
        interpreter, and for some items not under every hash seed."""
        if t.kind == "set" and ordered:
            return t.elem or ANY, _sorted(t.elem or ANY, py)
        if t.kind in ("list", "set"):
            return t.elem or ANY, py
        if t == entity("region"):
            return entity("spot"), f"self.board.region_spots[{py}]"
        if t.kind != "any":
            self.error(span, f"cannot iterate over a value of type {t}", "iterate over a list, a set or a region")
        return ANY, py

    def comprehension(self, e: ast.Comprehension) -> tuple[Ty, str]:
        if e.func not in AGGREGATES:
            self.error(e.span, f"`{e.func}(... for ...)`: unknown aggregate",
                       did_you_mean(e.func, AGGREGATES) or f"aggregates: {', '.join(AGGREGATES)}")
        fused = self.fused_filter(e)
        if fused is not None:
            return fused
        dt, dpy = self.expr(e.domain)
        # only a list made from a set shows the order its items are walked in
        elem, walk = self.iterable(dt, dpy, e.domain.span, ordered=e.func == "list")
        domain = self.domain_facts(e.domain, dt)
        self.scopes.append({})
        var = self.bind(e.var, elem, e.span)
        self.items.add(self.scopes[-1][e.var])
        self.set_local(e.var, domain.item)
        cond_py = None
        if e.cond is not None:
            ct, cond_py = self.test(e.cond)
            self.truth(ct, e.cond.span)
        et, epy = self.expr(e.elt)
        if e.func in ("list", "set"):
            epy = self.canon(e.elt, et, epy)
        self.scopes.pop()
        each = self.fact(e.elt)
        walk, work, rounds, small = self.loop(walk, domain, 1 + each.cost + (self.fact(e.cond).cost if e.cond else 0),
                                              e.span)
        cost = sat(domain.cost + work)
        head = f"for {var} in {walk}" + (f" if {cond_py}" if cond_py else "")
        match e.func:
            case "count":
                self.want(BOOL, et, e.elt.span, "what `count` counts")
                self.facts[id(e)] = number(rounds, cost=cost)
                if cond_py:
                    return INT, f"sum(1 for {var} in {walk} if {cond_py} and {epy})"
                return INT, f"sum(1 for {var} in {walk} if {epy})"
            case "all" | "any":
                self.truth(et, e.elt.span)
                self.facts[id(e)] = Facts(cost)
                return BOOL, f"{e.func}({epy} {head})"
            case "sum" | "min" | "max":
                self.want(INT, et, e.elt.span, f"what `{e.func}` adds up")
                mag = scale_mag(each.mag, rounds) if e.func == "sum" else join_mag(each.mag, (0, 0))
                self.facts[id(e)] = Facts(cost, mag=mag)
                if e.func == "sum":
                    return INT, f"sum({epy} {head})"
                return INT, f"{e.func}(({epy} {head}), default=0)"
            case "set":
                self.facts[id(e)] = self.clamp(set_of(et), Facts(cost, rounds, item=each.priced(0), small=small))
                self.canonical.add(id(e))
                return set_of(et), f"frozenset({epy} {head})"
            case _:
                self.facts[id(e)] = Facts(cost, rounds, item=each.priced(0), small=small)
                return list_of(et), f"[{epy} {head}]"

    def fused_filter(self, e: ast.Comprehension) -> tuple[Ty, str] | None:
        """`[s for s in spots if marker[s] == v]` walks the field itself, not the spots and then
        the field: `[s for s, m in enumerate(self.marker) if m == V]`, three times faster."""
        if not (e.func == "list" and isinstance(e.domain, ast.Name) and e.domain.id == "spots"
                and self.lookup("spots") is self.globals.get("spots")
                and isinstance(e.elt, ast.Name) and e.elt.id == e.var
                and isinstance(e.cond, ast.Binary) and e.cond.op in ("==", "!=")
                and isinstance(e.cond.left, ast.Index) and isinstance(e.cond.left.obj, ast.Name)
                and isinstance(e.cond.left.index, ast.Name) and e.cond.left.index.id == e.var):
            return None
        field_sym = self.lookup(e.cond.left.obj.id)
        if field_sym is None or field_sym.kind != "perfield" or field_sym.per != "spot":
            return None
        self.scopes.append({})
        var = self.bind(e.var, entity("spot"), e.span)
        value_t, value_py = self.expr(e.cond.right)
        self.scopes.pop()
        if var in value_py or unify(field_sym.ty, value_t) is None:
            return None  # the value depends on the spot, or is mistyped: take the general path
        spots = self.kind_count("spot") or 0
        work = sat(spots * (1 + self.fact(e.cond.right).cost))
        if work > FREE_WORK:
            return None  # more work than may go unchecked: the general path counts it
        self.facts[id(e)] = Facts(work, spots, item=Facts())
        item = FILTER_LOCAL.format(e.cond.left.obj.id)
        return list_of(entity("spot")), (
            f"[{var} for {var}, {item} in enumerate({field_sym.py}) if {item} {e.cond.op} {value_py}]"
        )

    def test(self, e: ast.Expr) -> tuple[Ty, str]:
        """A condition, whose truth only is used (an `if`, a `when`, a filter): `and`/`or` in it
        may give a list or set operand as it is (see `binary`)."""
        self.tested.add(id(e))
        return self.expr(e)

    def binary(self, e: ast.Binary) -> tuple[Ty, str]:
        if e.op in ("and", "or") and id(e) in self.tested:
            self.tested.update((id(e.left), id(e.right)))
        lt, lpy = self.expr(e.left)
        rt_, rpy = self.expr(e.right)
        left, right = self.fact(e.left), self.fact(e.right)
        work = sat(left.cost + right.cost)
        self.facts[id(e)] = Facts(work)  # a truth value; numbers and lists say more below
        op = e.op
        if op in ("and", "or"):
            self.truth(lt, e.left.span)
            self.truth(rt_, e.right.span)
            # Python's `and`/`or` give one of their operands: a list or set used as a condition
            # is made a bool, so the result is a bool as its type says (`mine(p) and n > 0`).
            if id(e) not in self.tested:
                lpy, rpy = (py if t.kind == "bool" else f"bool({py})" for t, py in ((lt, lpy), (rt_, rpy)))
            return BOOL, f"({lpy} {op} {rpy})"
        if op in _COMPARISONS:
            # Python chains `a == b == c`: a comparison (or a `not`) inside another keeps its parentheses.
            lpy, rpy = (f"({py})" if isinstance(side, ast.Unary | ast.Binary) and side.op in (*_COMPARISONS, "not")
                        else py for side, py in ((e.left, lpy), (e.right, rpy)))
        if op in ("==", "!="):
            if unify(lt, rt_) is None:
                self.error(e.span, f"type mismatch: comparing {lt} with {rt_}")
            if lt.kind in ("list", "set") or rt_.kind in ("list", "set"):  # compared item by item
                lpy, rpy = self.canon(e.left, lt, lpy), self.canon(e.right, rt_, rpy)
                sizes = [f.size for f in (left, right) if f.size is not None]
                if sizes and min(sizes) <= FREE_WORK:
                    self.facts[id(e)] = Facts(sat(work + min(sizes)))
                else:
                    lpy, _, _ = self.over(lpy, left, e.span)
            return BOOL, f"{lpy} {op} {rpy}"
        if op in ("<", "<=", ">", ">="):
            self.want(INT, lt, e.left.span, f"`{op}`")
            self.want(INT, rt_, e.right.span, f"`{op}`")
            return BOOL, f"{lpy} {op} {rpy}"
        if op in ("in", "not in"):
            elem, walk = self.iterable(rt_, rpy, e.right.span, ordered=False)
            lpy = self.canon(e.left, lt, lpy)
            if unify(elem, lt) is None:
                self.error(e.span, f"type mismatch: looking for {lt} among {elem}")
            walk, searched, _ = self.over(walk, self.domain_facts(e.right, rt_), e.span)
            self.facts[id(e)] = Facts(sat(work + searched))
            return BOOL, f"{lpy} {op} {walk}"
        if op == "+" and lt.kind in ("list", "set") or rt_.kind in ("list", "set") and op in ("+", "-"):
            common = unify(lt, rt_)
            if common is None:
                self.error(e.span, f"type mismatch: {lt} {op} {rt_}")
                return lt, "None"
            lpy, left_work, left_size = self.over(lpy, left, e.span)
            rpy, right_work, right_size = self.over(rpy, right, e.span)
            item = None if left.item is None or right.item is None else join(left.item, right.item)
            size = left_size if op == "-" else sat(left_size + right_size)
            self.facts[id(e)] = self.clamp(common, Facts(sat(work + left_work + right_work), size, item=item))
            self.canonical.add(id(e))
            if common.kind == "list":
                if op == "-":
                    self.error(e.span, "lists cannot be subtracted", "filter with [x for x in a if x not in b]")
                return common, f"(*{lpy}, *{rpy})"
            return common, f"({lpy} {'|' if op == '+' else '-'} {rpy})"
        self.want(INT, lt, e.left.span, f"`{op}`")
        self.want(INT, rt_, e.right.span, f"`{op}`")
        if op in ("+", "-"):
            self.facts[id(e)] = Facts(work, mag=add_mag(left.mag, right.mag))
            return INT, f"({lpy} {op} {rpy})"
        if op == "*":
            product = mul_mag(left.mag, right.mag)
            if product is None:  # a square, say, that repeated would grow without end: checked
                self.facts[id(e)] = Facts(work, mag=(MAX_INT, 0))
                return INT, f"rt.num({lpy} * {rpy}, {self.where(e.span)})"
            self.facts[id(e)] = Facts(work, mag=product)
            return INT, f"({lpy} * {rpy})"
        # `//` and `%`: a divisor that may be zero is a game error, not a crash
        self.facts[id(e)] = Facts(work, mag=left.mag if op == "//" else right.mag)
        if self.nonzero(e.right):
            return INT, f"({lpy} {op} {rpy})"
        return INT, f"rt.{'div' if op == '//' else 'mod'}({lpy}, {rpy}, {self.where(e.span)})"

    def call(self, e: ast.Call) -> tuple[Ty, str]:
        if e.func in self.functions:
            d = self.functions[e.func]
            args = self.arguments(e, tuple((p.name, p.type) for p in d.params))
            result = self.define_type(d)
            self.passed(d.name, d.params, e.args)
            self.facts[id(e)] = self.define_call_facts(d, sum(self.fact(arg).cost for arg in e.args))
            return result, f"self.{e.func}({', '.join(args)})"
        if e.func in self.procedures:
            self.error(e.span, f"`{e.func}` is a procedure: it changes the game and gives no value",
                       "call it as an effect of its own")
            return ANY, "None"
        if e.func == "len" and len(e.args) == 1 and isinstance(e.args[0], ast.Call) and not e.keywords:
            inner = e.args[0]
            if (inner.func == "straight_lines" and inner.func not in self.functions and len(inner.args) == 2
                    and not inner.keywords):
                # Counting lines needs no list of them: a popcount on the board's bitboard.
                counted = ast.Call("count_lines", inner.args, inner.keywords, e.span)
                lowered_count = self.call(counted)
                self.facts[id(e)] = self.fact(counted)
                return lowered_count
        sig = BUILTINS.get(e.func)
        if sig is None:
            if e.func in AGGREGATES:
                self.error(e.span, f"`{e.func}` takes a comprehension: {e.func}(x for x in items)")
            else:
                self.error(e.span, f"unknown function `{e.func}`",
                           did_you_mean(e.func, list(BUILTINS) + list(self.functions) + list(self.procedures)))
            return ANY, "None"
        if sig.chance and self.context != "effect":
            self.error(e.span, f"`{e.func}` draws chance, so it can only be used in an effect",
                       "legal actions, guards, definitions and scoring must not use chance")
        bindings: dict[str, Ty] = {}
        param_types: list[tuple[str, Ty]] = []
        for pname, ptype in sig.params:
            ty = parse_type(ptype, self.entity_kinds | {"T"}, self.enum_names)
            assert isinstance(ty, Ty), ty
            param_types.append((pname, ty))
        lowered: list[str] = []
        arg_types: list[Ty] = []
        if e.keywords:
            self.error(e.keywords[0].span, f"`{e.func}` takes no keyword arguments")
        if len(e.args) != len(param_types):
            self.error(e.span, f"`{e.func}` takes {len(param_types)} argument(s), {len(e.args)} given",
                       f"{e.func}({', '.join(f'{n}: {t}' for n, t in sig.params)})")
        for arg, (pname, pty) in zip(e.args, param_types, strict=False):
            at, apy = self.expr(arg)
            arg_types.append(at)
            if not self.generic_fits(pty, at, bindings):
                self.error(arg.span, f"argument `{pname}` of `{e.func}` must be {pty}, not {at}")
            lowered.append(apy)
        for arg in e.args[len(param_types):]:
            self.expr(arg)
        while len(lowered) < len(param_types):
            lowered.append("None")
        ret = parse_type(sig.returns, self.entity_kinds | {"T"}, self.enum_names)
        assert isinstance(ret, Ty)
        if ret == entity("T"):  # a generic result: the element type its argument fixed
            ret = bindings.get("T", ANY)
        elif ret.kind in ("list", "set") and ret.elem == entity("T"):
            ret = Ty(ret.kind, elem=bindings.get("T", ANY))
        extra: dict[str, str] = {}
        if e.func == "throw":
            dice_kind = bindings.get("T") or ANY
            if dice_kind.kind == "entity" and dice_kind.name in {d.name for d in self.rs.dice}:
                extra["faces"] = f"{const_name(dice_kind.name)}_FACES"
            else:
                extra["faces"] = "()"
                if dice_kind.kind != "any":  # an empty set throws nothing; a set of anything else is wrong
                    self.error(e.span, "throw() takes a set of dice", f"not a set of {dice_kind}")
        self.facts[id(e)] = self.builtin_facts(e, lowered, ret)
        return ret, sig.python.format(*lowered, **extra)

    def generic_fits(self, want: Ty, got: Ty, bindings: dict[str, Ty]) -> bool:
        if want.kind == "entity" and want.name == "T":
            bound = bindings.get("T")
            if bound is None:
                bindings["T"] = got
                return True
            return compatible(bound, got)
        if want.kind in ("list", "set") and want.elem is not None and want.elem.name == "T":
            if got.kind == "any":
                return True
            # a generic list(T) parameter takes any collection (len of a set); set(T) only a set
            if got.kind not in ("list", "set") or (want.kind == "set" and got.kind != "set"):
                return False
            return self.generic_fits(want.elem, got.elem or ANY, bindings)
        return compatible(want, got)

    def arguments(self, e: ast.Call, params: tuple[tuple[str, Ty], ...]) -> list[str]:
        if e.keywords:
            self.error(e.keywords[0].span, f"`{e.func}` takes no keyword arguments")
        if len(e.args) != len(params):
            self.error(e.span, f"`{e.func}` takes {len(params)} argument(s), {len(e.args)} given",
                       f"{e.func}({', '.join(f'{n}: {t}' for n, t in params)})")
        out = []
        for i, arg in enumerate(e.args):
            at, apy = self.expr(arg)
            if i < len(params) and not compatible(params[i][1], at):
                self.error(arg.span, f"argument `{params[i][0]}` of `{e.func}` must be {params[i][1]}, not {at}")
            # a parameter is a stored value (compiler/budget.py): what is passed is checked as if stored
            out.append(self.checked_store(apy, self.fact(arg), params[i][1], arg.span) if i < len(params) else apy)
        return out

    def define_type(self, d: ir.Define) -> Ty:
        known = self.define_types.get(d.name)
        if known is not None:
            return known
        if self.define_depth >= _MAX_DEFINE_CHAIN:
            self.error(d.span, f"`{d.name}` is reached through a chain of more than {_MAX_DEFINE_CHAIN} definitions",
                       "definitions that use definitions that use ... nest too deeply: flatten a few")
            return ANY
        self.define_types[d.name] = ANY  # recursion guard: a define that uses itself is `any`
        saved_scopes, saved_context, saved_assigned = self.scopes, self.context, self.assigned
        self.scopes, self.context, self.assigned = [{}], "define", frozenset()
        self.define_depth += 1
        entry = self.bind_params(d.name, d.params)
        before = self.charges
        reading = self.begin_reading(entry)
        ty, _ = self.expr(d.body)
        self.end_reading(reading)
        self.note_define(d, before)
        self.define_depth -= 1
        self.scopes, self.context, self.assigned = saved_scopes, saved_context, saved_assigned
        self.define_types[d.name] = ty
        return ty

    # -- helpers ------------------------------------------------------------------------------
    def want(self, expected: Ty, got: Ty, span: SourceSpan, what: str) -> None:
        if not compatible(expected, got):
            self.error(span, f"type mismatch: {what} must be {expected}, not {got}")

    def truth(self, t: Ty, span: SourceSpan) -> None:
        """A condition: a bool, or a list or set (true when not empty)."""
        if t.kind not in ("bool", "list", "set", "any"):
            self.error(span, f"type mismatch: a condition must be bool, not {t}")

    # -- the limits of a move: what code is proven to cost, and its checks ----------------------
    # (compiler/budget.py says how; runtime/limits.py holds the limits and the checks)
    def fact(self, e: ast.Expr) -> Facts:
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
            for board in self.program.boards:
                spots = len(board.graph) if board.graph else board.ring or 3 * board.side * (board.side - 1) + 1
                in_regions = Counter(spot for _, _, region in board.regions for spot in region)
                degree = max(Counter(s for road in board.roads for s in road).values(), default=0) if board.graph \
                    else 2 if board.ring else 6
                for key, value in (("spot", spots), ("region", len(board.regions)), ("border", len(board.borders)),
                                   ("region_size", max((len(r) for _, _, r in board.regions), default=0)),
                                   ("per_spot", max(in_regions.values(), default=0)), ("degree", degree),
                                   ("longest", 2 * board.side - 1 if board.side else 0)):
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
        for name, values in self.program.enums:
            if name == kind:
                return len(values)
        return None

    def type_facts(self, t: Ty, mag: Mag = UNSAFE) -> Facts:
        """What a value of type `t` can be when nothing else is known (`mag`: a number's size)."""
        if t.kind in ("list", "set") and t.elem is not None:
            return self.clamp(t, Facts(item=self.type_facts(t.elem, mag)))
        return Facts(mag=mag if t.kind == "int" else UNSAFE)

    def clamp(self, t: Ty, facts: Facts) -> Facts:
        """`facts` of a set of a finite kind hold no more items than the kind has values."""
        if t.kind == "set" and t.elem is not None and t.elem.kind in ("entity", "enum"):
            count = self.kind_count(t.elem.name)
            if count is not None and (facts.size is None or facts.size > count):
                return Facts(facts.cost, count, facts.mag, facts.item)
        return facts

    def empty(self, t: Ty) -> Facts:
        """A value of type `t` with nothing in it (a list field never assigned)."""
        if t.kind in ("list", "set") and t.elem is not None:
            return Facts(size=0, item=self.empty(t.elem))
        return Facts(mag=STORED)

    def field_facts(self, name: str, t: Ty) -> Facts:
        """What a field's value (one entity's, for a field per entity) can be: a stored number,
        and a list as long as the rule set's assignments to it make it (check() learns this)."""
        if t.kind not in ("list", "set"):
            return Facts(mag=STORED)
        if self.assumed is None:  # the first walk: only the type is known
            return self.type_facts(t, STORED)
        known = self.assumed.get(name)
        return self.clamp(t, _stored(known) if known is not None else self.empty(t))

    def derive(self, name: str, facts: Facts) -> None:
        """A value is stored in field `name`: what check() learns the field can hold."""
        old = self.derived.get(name)
        self.derived[name] = facts.priced(0) if old is None else join(old, facts.priced(0))

    def stored(self, name: str, sym: _Sym, facts: Facts) -> None:
        if sym.kind in ("field", "perfield"):
            self.derive(name, facts)

    def learnable(self) -> list[tuple[str, Ty]]:
        """The lists whose size check() learns: list and set fields, and the list and set
        parameters of definitions and procedures (from every call: all are in the rules)."""
        out = [(f.name, f.type) for f in self.rs.fields]
        out += [(_param(d.name, p.name), p.type) for d in self.rs.defines for p in d.params]
        out += [(_param(q.name, p.name), p.type) for q in self.rs.procedures for p in q.params]
        return [(key, t) for key, t in out if t.kind in ("list", "set")]

    def found(self, key: str, t: Ty) -> Facts:
        if key not in self.derived and "." in key:  # a parameter never given: only its type is known
            return self.type_facts(t, STORED)
        return self.clamp(t, self.derived.get(key, self.empty(t)))

    def learnt(self, grown: Counter[str]) -> dict[str, Facts] | None:
        """What the list fields and parameters were found to hold, if it differs from what this
        walk assumed (None: the assumptions held, so the code lowered is sound). The first walk
        assumes only the types: what it finds is sound, and the next walk, assuming it, finds no
        more. (Should one find more, a list found larger twice is taken at its type's bound.)"""
        if self.assumed is None:
            first = {key: self.found(key, t) for key, t in self.learnable()}
            return first if any(first[key] != self.type_facts(t, STORED) for key, t in self.learnable()) else None
        changed = False
        out: dict[str, Facts] = {}
        for key, t in self.learnable():
            if key in out:
                continue
            assumed, found = self.field_facts(key, t), self.found(key, t)
            if at_most(found, assumed):
                out[key] = assumed
                continue
            changed = True
            grown[key] += 1
            out[key] = join(assumed, found) if grown[key] < 2 else self.type_facts(t, STORED)
        return out if changed else None

    def bind_params(self, func: str, params: tuple[ir.Param, ...]) -> list[str]:
        """Binds a definition's or procedure's parameters, each with what its calls pass."""
        names = []
        for p in params:
            names.append(self.bind(p.name, p.type, p.span))
            if p.type.kind in ("list", "set"):
                self.set_local(p.name, self.field_facts(_param(func, p.name), p.type))
        return names

    def passed(self, func: str, params: tuple[ir.Param, ...], args: tuple[ast.Expr, ...]) -> None:
        """A call: what it passes is what the parameters are learnt to hold."""
        for p, arg in zip(params, args, strict=False):
            if p.type.kind in ("list", "set"):
                self.derive(_param(func, p.name), self.fact(arg).outside())

    def symbol_facts(self, name: str, sym: _Sym) -> Facts:
        """What a name stands for: a local's value, a field's, the list of a kind's values."""
        if sym.kind == "local":
            known = self.local_facts.get(id(sym))
            return known[1] if known is not None and known[0] is sym else self.type_facts(sym.ty, STORED)
        if sym.kind == "field":
            return self.field_facts(name, sym.ty)
        if sym.kind == "perfield":  # the whole list, one value per entity
            return Facts(size=self.kind_count(sym.per or ""), item=self.field_facts(name, sym.ty))
        if sym.kind == "value" and sym.ty.kind == "list" and sym.ty.elem is not None:  # players, spots, an enum
            return Facts(size=self.kind_count(sym.ty.elem.name), item=Facts())
        return Facts()

    def set_local(self, name: str, facts: Facts | None) -> None:
        """What a local just bound holds, unless the rule assigns to it (then only its type is known)."""
        sym = self.scopes[-1].get(name) if self.scopes else None
        if sym is not None and facts is not None and name not in self.assigned:
            self.local_facts[id(sym)] = sym, facts.priced(0)

    def literal_facts(self, items: tuple[ast.Expr, ...]) -> Facts:
        item = Facts(size=0, mag=(0, 0))  # (no item at all)
        for part in items:
            item = join(item, self.fact(part).priced(0)) if part is not items[0] else self.fact(part).priced(0)
        return Facts(sat(len(items) + sum(self.fact(part).cost for part in items)), len(items), item=item)

    def domain_facts(self, node: ast.Expr, t: Ty) -> Facts:
        """What a loop walks: a region is walked spot by spot."""
        if t == entity("region"):
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
        return counted, 0, size

    def prechecked(self, py: str) -> bool:
        """Whether the list `py`, walked by the effect statement being lowered, can be counted by
        a statement before it: a field or a local that is known before the statement runs."""
        m = _SIMPLE.fullmatch(py)
        if self.prechecks is None or m is None:
            return False
        known = {sym.py for scope in self.scopes[:self.statement_scopes] for sym in scope.values()}
        names = [n for n in (m.group(1), m.group(2)) if n is not None and not n.startswith("self.")]
        return all(n in known for n in names)

    def statement(self, depth: int, lower: Callable[[], list[Line]]) -> list[Line]:
        """An effect statement's lines, after the checks of the lists it walks (`prechecked`)."""
        outer = self.prechecks, self.statement_scopes
        self.prechecks, self.statement_scopes = [], len(self.scopes)
        try:
            lines = lower()
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

    def checked_store(self, py: str, facts: Facts, t: Ty, span: SourceSpan) -> str:
        """`py`, checked where what it stores (or passes as an argument) could be a number that
        grows without bound: at most 64 bits more than the game's numbers (compiler/budget.py)."""
        if t.kind == "int" and not storable(facts.mag):
            return f"rt.num({py}, {self.where(span)})"
        if t.kind in ("list", "set") and t.elem is not None and t.elem.kind == "int" and (
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

    def effects(self, stmts: tuple[ast.Stmt, ...], span: SourceSpan) -> tuple[Line, ...]:
        """The effects of a rule (an action's, a trigger's, a phase's start, the setup)."""
        self.assigned = frozenset(_assigned(stmts))
        lines = self._typed_lets(self.block(stmts, 2))
        return self.unit_lines(lines, self.block_cost, span)

    def _typed_lets(self, lines: list[Line]) -> list[Line]:
        """The lines with the annotation of each `let` started from an empty collection written
        in: an item type nothing gave is `int` (every scalar is an int at run time)."""
        if not self.untyped:
            return lines
        out = []
        for line in lines:
            for marker, t in list(self.untyped.items()):
                if marker in line.code:
                    line = replace(line, code=line.code.replace(marker, _annotation(_typed(t))))
                    del self.untyped[marker]
            out.append(line)
        return out

    def procedure(self, p: ir.Procedure) -> tuple[tuple[tuple[str, str], ...], tuple[Line, ...]]:
        """A procedure's parameters and body; remembers the unchecked work of a call to it."""
        self.scopes, self.context = [{}], "effect"
        self.assigned = frozenset(_assigned(p.body))
        before = self.charges
        params = tuple(zip(self.bind_params(p.name, p.params), (_annotation(x.type) for x in p.params), strict=True))
        lines = self._typed_lets(self.block(p.body, 2))
        cost = sat(self.block_cost + 1)
        self.procedure_costs[p.name] = 1 if cost > FREE_WORK else cost  # (large: it charges its own)
        body = self.unit_lines(lines, cost, p.span)
        if self.charges > before:
            self.charging.add(p.name)
        return params, body

    def procedure_cost(self, name: str) -> int:
        """The unchecked work of calling a procedure (lowered now if it is declared later)."""
        known = self.procedure_costs.get(name)
        p = self.procedures.get(name)
        if known is None and p is not None:
            self.procedure_costs[name] = 1  # (a procedure calling itself is refused: see cycles)
            saved = self.scopes, self.context, self.assigned
            self.procedure(p)
            self.scopes, self.context, self.assigned = saved
            known = self.procedure_costs[name]
        if name in self.charging:
            self.charges += 1
        return known if known is not None else 1

    def note_define(self, d: ir.Define, before: int) -> None:
        """Remembers what a definition gives and the unchecked work of a call to it (one step if
        its work is large: then it charges its own), and whether it charges (count was `before`)."""
        body = self.fact(d.body)
        cost = sat(body.cost + 1)
        self.define_facts[d.name] = (body.priced(0).outside(), 1 if cost > FREE_WORK else cost)
        if self.charges > before or cost > FREE_WORK:
            self.charging.add(d.name)

    def define_call_facts(self, d: ir.Define, args_cost: int) -> Facts:
        if d.name not in self.define_facts:
            self.define_type(d)
        result, cost = self.define_facts.get(d.name, (NOTHING, 1))
        if d.name in self.charging:
            self.charges += 1
        return result.priced(sat(args_cost + cost))

    def nonzero(self, e: ast.Expr) -> bool:
        """Whether a divisor is zero in no game: a number, the length of an enumeration, of a
        component's list or of the players, or a product or negation of such."""
        match e:
            case ast.Num():
                return e.value != 0
            case ast.Unary(op="-"):
                return self.nonzero(e.operand)
            case ast.Binary(op="*"):
                return self.nonzero(e.left) and self.nonzero(e.right)
            case ast.Call(func="len", args=(ast.Name() as named,), keywords=()) if "len" not in self.functions:
                sym = self.lookup(named.id)
                if sym is None or sym.kind != "value" or sym.ty.elem is None:
                    return False
                if named.id in ("players", "owners") and sym is self.globals.get(named.id):
                    return min(self.rs.players, default=0) > 0
                kind = sym.ty.elem
                return (kind.kind == "enum" or kind.name in self.component_count) and bool(self.kind_count(kind.name))
        return False

    def builtin_facts(self, e: ast.Call, lowered: list[str], ret: Ty) -> Facts:
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
            return arg.value if isinstance(arg, ast.Num) else None

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
            case "road_chains":  # (a search over the board's roads)
                over(0)
                spots = bounds["spot"]
                return Facts(sat(cost + spots * spots), spots, item=Facts(size=spots, item=Facts()))
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

    def listing(self, a: ir.Action, loops: list[tuple[ir.Choice, str, str, Facts, Ty]],
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

    def finite(self, t: Ty, facts: Facts | None) -> bool:
        """Whether the values of type `t` (with these facts) are few: entities, enumerations, truth
        values, and short lists of them; not numbers."""
        if t.kind in ("entity", "enum", "bool"):
            return True
        if t.kind in ("list", "set") and t.elem is not None:
            return facts is not None and facts.size is not None and self.finite(t.elem, facts.item)
        return False

    # -- statements ---------------------------------------------------------------------------
    def block(self, stmts: tuple[ast.Stmt, ...], depth: int) -> list[Line]:
        out: list[Line] = []
        self.scopes.append({})
        for s in stmts:
            out.extend(self.stmt(s, depth))
        self.scopes.pop()
        self.block_cost = sat(sum(self.costs.get(id(s), 1) for s in stmts))
        if not out:
            out.append(Line(depth, "pass"))
        return out

    def stmt(self, s: ast.Stmt, depth: int) -> list[Line]:
        self.costs[id(s)] = 1  # the work of a statement, beyond that of its parts (set below)
        match s:
            case ast.Assign():
                return self.statement(depth, lambda: [Line(depth, self.assign(s), s.span)])
            case ast.Let():
                return self.statement(depth, lambda: self.let(s, depth))
            case ast.CallStmt():
                return self.statement(depth, lambda: self.call_effect(s, depth))
            case ast.Goto():
                phases = [p.name for p in self.rs.phases]
                if s.phase not in phases:
                    self.error(s.span, f"unknown phase `{s.phase}`", did_you_mean(s.phase, phases))
                self.gotos.append((s.phase, s.span))
                return [Line(depth, f"self.next_phase = PHASE_{const_name(s.phase)}", s.span)]
            case ast.EndTurn():
                return [Line(depth, "self.next_phase = -1", s.span)]
            case ast.Pass():
                return [Line(depth, "pass", s.span)]
            case ast.For():
                dt, dpy = self.expr(s.domain)
                elem, walk = self.iterable(dt, dpy, s.domain.span)
                domain = self.domain_facts(s.domain, dt)
                self.scopes.append({})
                var = self.bind(s.var, elem, s.span)
                self.items.add(self.scopes[-1][s.var])
                self.set_local(s.var, domain.item)
                body = self.block(s.body, depth + 1)
                walk, work, _, _ = self.loop(walk, domain, 1 + self.block_cost, s.span)
                self.scopes.pop()
                self.costs[id(s)] = sat(1 + domain.cost + work)
                if not any(re.search(rf"\b{var}\b", line.code) for line in body):
                    var = "_"  # a loop run for its count only (`for k in range(0, 3)`)
                head = Line(depth, f"for {var} in {walk}:", s.span)
                return [head, *body]
            case ast.If():
                lines: list[Line] = []
                tests = branches = 0
                for i, (test, branch) in enumerate(s.branches):
                    t, py = self.test(test)
                    self.truth(t, test.span)
                    tests += self.fact(test).cost
                    lines.append(Line(depth, f"{'if' if i == 0 else 'elif'} {py}:", test.span))
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

    def let(self, s: ast.Let, depth: int) -> list[Line]:
        t, py = self.expr(s.value)
        name = self.bind(s.name, t, s.span)
        value = self.fact(s.value)
        if s.name in self.assigned:  # assigned again later: stored, and checked, as a field is
            py = self.checked_store(py, value, t, s.value.span)
        else:
            self.set_local(s.name, value)
        self.costs[id(s)] = sat(1 + value.cost)
        if _untyped(t):  # `let x = []`: annotated, with the type later assignments give it
            self.lets += 1
            marker = f"\0{self.lets}\0"
            self.untyped[marker] = t
            self.scopes[-1][s.name] = replace(self.scopes[-1][s.name], untyped=marker)
            return [Line(depth, f"{name}: {marker} = {py}", s.span)]
        return [Line(depth, f"{name} = {py}", s.span)]

    def call_effect(self, s: ast.CallStmt, depth: int) -> list[Line]:
        code = self.call_stmt(s.call)
        if s.call.func in self.procedures:
            self.passed(s.call.func, self.procedures[s.call.func].params, s.call.args)
        self.costs[id(s)] = sat(1 + sum(self.fact(arg).cost for arg in s.call.args)
                                + self.procedure_cost(s.call.func))
        return [Line(depth, code, s.span)]

    def over_k(self, e: ast.Expr, index: Ty, span: SourceSpan, tag: str) -> tuple[Ty, str]:
        """A visibility condition over `k` (an item's place, or the entity of a per field),
        lowered as a rule that only reads the game; `tag` marks its budget reset."""
        self.scopes, self.context = [{"k": _Sym("local", index, "k", span)}], "legal"
        before = self.charges
        reading = self.begin_reading(("k",))
        t, py = self.expr(e)
        py = self.unit_expr(py, self.fact(e).cost, e.span, lists=self.end_reading(reading))
        self.mark(before, tag)
        return t, py

    def assign(self, s: ast.Assign) -> str:
        target = s.target
        vt, vpy = self.expr(s.value)
        value = self.fact(s.value)
        self.costs[id(s)] = sat(1 + value.cost)
        sym = self.lookup(target.name)
        if sym is None:
            hint = did_you_mean(target.name, self.visible_names()) or f"declare it: let {target.name} = ..."
            self.error(target.span, f"unknown name `{target.name}`", hint)
            return "pass"
        if sym.kind not in ("field", "perfield", "local"):
            self.error(target.span, f"`{target.name}` cannot be changed", "only state fields and local values can")
            return "pass"
        if self.context != "effect":
            self.error(s.span, "an effect cannot run here")
        lhs = sym.py
        if sym.kind == "perfield":
            if target.index is None:
                self.error(target.span, f"`{target.name}` has one value per {sym.per}: say which, "
                           f"`{target.name}[...] = ...`")
                return "pass"
            it, ipy = self.expr(target.index)
            self.want(entity(sym.per or ""), it, target.index.span, f"the index of `{target.name}`")
            self.costs[id(s)] = sat(self.costs[id(s)] + self.fact(target.index).cost)
            lhs = f"{sym.py}[{ipy}]"
        elif target.index is not None:
            self.error(target.span, f"`{target.name}` is a single value and takes no index")
            return "pass"
        if s.op in ("+=", "-="):
            if sym.ty.kind == "set" and compatible(sym.ty, vt):
                # a new set: every item of both is handled
                held = self.field_facts(target.name, sym.ty) if sym.kind != "local" else self.symbol_facts(
                    target.name, sym)
                old_py, old_work, old_size = self.over(lhs, held, s.span)
                new_py, new_work, new_size = self.over(vpy, value, s.span)
                self.costs[id(s)] = sat(self.costs[id(s)] + old_work + new_work)
                size = old_size if s.op == "-=" else sat(old_size + new_size)
                self.stored(target.name, sym, Facts(size=size, item=value.item))
                return f"{lhs} = {old_py} {'|' if s.op == '+=' else '-'} {new_py}"
            self.want(INT, sym.ty, target.span, f"the target of `{s.op}`")
            self.want(INT, vt, s.value.span, f"the value added with `{s.op}`")
            if not storable((value.mag[0], value.mag[1] + 1)):  # `x += x` would double: the amount is checked
                vpy = f"rt.num({vpy}, {self.where(s.span)})"
            return f"{lhs} {s.op} {vpy}"
        if not compatible(sym.ty, vt):
            self.error(s.value.span, f"type mismatch: `{target.name}` is {sym.ty}, the value is {vt}")
        elif sym.untyped in self.untyped and _untyped(sym.ty):
            # a `let x = []` given items: its type (and annotation) is now theirs
            common = unify(sym.ty, vt) or sym.ty
            self.untyped[sym.untyped] = common
            for scope in reversed(self.scopes):
                if scope.get(target.name) is sym:
                    scope[target.name] = sym = replace(sym, ty=common)
                    break
        self.stored(target.name, sym, value)
        vpy = self.canon(s.value, sym.ty, vpy)
        return f"{lhs} = {self.checked_store(vpy, value, sym.ty, s.span)}"

    def call_stmt(self, c: ast.Call) -> str:
        proc = self.procedures.get(c.func)
        if proc is None:
            if c.func in self.functions or c.func in BUILTINS:
                self.error(c.span, f"`{c.func}(...)` gives a value; as an effect it does nothing",
                           "use it inside an assignment or a condition")
            else:
                self.error(c.span, f"unknown procedure `{c.func}`", did_you_mean(c.func, self.procedures))
            return "pass"
        args = self.arguments(c, tuple((p.name, p.type) for p in proc.params))
        return f"self.{c.func}({', '.join(args)})"

    # -- the rule set -------------------------------------------------------------------------
    def run(self) -> Program:
        rs = self.rs
        self.declarations()
        self.cycles()
        prog = self.program
        # fields
        for f in rs.fields:
            self.scopes, self.context = [{}], "init"
            before = self.charges
            t, py = self.expr(f.init)
            if not compatible(f.type, t):
                self.error(f.init.span, f"type mismatch: field `{f.name}` is {f.type}, its init is {t}")
            py = self.canon(f.init, f.type, py)
            self.derive(f.name, self.fact(f.init))
            py = self.unit_expr(self.checked_store(py, self.fact(f.init), f.type, f.init.span), self.fact(f.init).cost,
                                f.init.span, (self.kind_count(f.per) or 1) if f.per else 1)
            self.mark(before, "setup")
            annotation = _annotation(f.type)
            if f.per:
                count = {
                    "player": "self.num_seats",
                    "spot": "len(self.board.spots)",
                    "region": "len(self.board.region_names)",
                }.get(f.per, f"{self.component_count[f.per]}" if f.per in self.component_count
                      else f"len({const_name(f.per)}_FACES)")
                init = f"[{py} for _ in range({count})]"
                annotation = f"list[{annotation}]"
                copy = f"self.{f.name}[:]"
            else:
                init, copy = py, f"self.{f.name}"
            element = f.type.elem.name if f.type.kind in ("list", "set") and f.type.elem else f.type.name
            # a list or set of numbers, truth values or lists: its whole type, to read saved states
            declared = f", declared={str(f.type)!r}" if f.type.kind in ("list", "set") and not element else ""
            info = (f"rt.FieldInfo({f.name!r}, {f.per!r}, {f.type.kind!r}, {element!r}, "
                    f"{f.values!r}, {f.visible!r}, {f.doc!r}{declared})")
            shown = hidden = None
            if f.shown_if is not None:
                self.scopes, self.context = [{}], "legal"
                before = self.charges
                reading = self.begin_reading(())
                shown_t, shown = self.expr(f.shown_if)
                shown = self.unit_expr(shown, self.fact(f.shown_if).cost, f.shown_if.span,
                                       lists=self.end_reading(reading))
                self.mark(before, "shown")
                self.want(BOOL, shown_t, f.shown_if.span, "`shown_if`")
            if f.hide_items_if is not None:
                if f.type.kind != "list" or f.per is not None:
                    self.error(f.hide_items_if.span, "`hide_items_if` is for a list field (not per entity)",
                               "it hides item k of the list while the condition holds")
                hidden_t, hidden = self.over_k(f.hide_items_if, INT, f.span, "hidden")
                self.want(BOOL, hidden_t, f.hide_items_if.span, "`hide_items_if`")
            seen_by = None
            if f.visible_to is not None:  # (k: the spot, region or die of a per field, the item's place in a list)
                seen_t, seen_by = self.over_k(f.visible_to, entity(f.per) if f.per else INT, f.span, "seen")
                if not compatible(entity("player"), seen_t):
                    self.error(f.visible_to.span, f"`visible: {{to: ...}}` names the player who sees entry or item k: "
                               f"it must be a player, not {seen_t}",
                               "e.g. `visible: {to: \"layer[k]\"}`, with `layer` a per-spot field of type player")
            prog.fields.append(LoweredField(f.name, annotation, init, f.per, copy, info, f.span, shown, hidden,
                                            seen_by))
        # defines and procedures
        for d in rs.defines:
            self.scopes, self.context, self.assigned = [{}], "define", frozenset()
            names = self.bind_params(d.name, d.params)
            params = tuple(zip(names, (_annotation(p.type) for p in d.params), strict=True))
            before = self.charges
            reading = self.begin_reading(name for name, _ in params)
            t, py = self.expr(d.body)
            lists = self.end_reading(reading)
            self.define_types.setdefault(d.name, t)
            self.note_define(d, before)
            checks = []
            if lists[0]:  # the lists it takes for small are checked as it starts, as a statement
                longer = " or ".join(f"len({lst}) > {SMALL_LIST}" for lst in lists[0])
                checks = [Line(2, f"if {longer}:"), Line(3, self.grown(lists, self.fact(d.body).cost + 1, d.span))]
            body = self.unit_lines([*checks, Line(2, f"return {py}", d.span)], self.fact(d.body).cost + 1, d.span)
            prog.defines.append(LoweredFunction(d.name, params, _annotation(t), body, d.span))
        for p in rs.procedures:
            params, body = self.procedure(p)
            prog.procedures.append(LoweredFunction(p.name, params, "None", body, p.span))
        # triggers
        action_names = {a.name for a in rs.actions}
        after: dict[str, list[str]] = {a: [] for a in action_names}
        for trig in rs.triggers:
            self.scopes, self.context = [{}], "effect"
            before = self.charges
            when = None
            if trig.when is not None:
                reading = self.begin_reading(())
                wt, when = self.test(trig.when)
                self.truth(wt, trig.when.span)
                when = self.unit_expr(when, self.fact(trig.when).cost, trig.when.span,
                                      lists=self.end_reading(reading))
            effect = self.effects(trig.effect, trig.span)
            method = f"_trigger_{trig.name}"
            if self.mark(before, "effect", *(("turn_end",) if trig.at == "turn_end" else ())):
                self.charging_triggers.add(method)
            prog.triggers.append(LoweredTrigger(trig.name, method, when, effect, trig.span))
            for ref in trig.after:
                if ref.name not in action_names:
                    self.error(ref.span, f"unknown action `{ref.name}`", did_you_mean(ref.name, action_names))
                else:
                    after[ref.name].append(method)
            if trig.at == "turn_end":
                prog.turn_end.append(method)
        # phases
        for what, parts in (("phases", rs.phases), ("actions", rs.actions)):
            if len(parts) > _MAX_COMPONENTS:  # each is one `elif` of a chain, and Python's compiler recurses on those
                self.error(parts[_MAX_COMPONENTS].span, f"more than {_MAX_COMPONENTS} {what}")
        phase_names = [p.name for p in rs.phases]
        if not rs.phases:
            self.error(rs.span, "a rule set needs `phases:`, with at least one phase listing its actions")
        for i, ph in enumerate(rs.phases):
            self.scopes, self.context = [{}], "effect"
            before = self.charges
            start = self.effects(ph.start, ph.span)
            self.mark(before, "start")
            listed: set[str] = set()
            for ref in ph.actions:
                if ref.name not in action_names:
                    self.error(ref.span, f"unknown action `{ref.name}`", did_you_mean(ref.name, action_names))
                elif ref.name in listed:
                    self.error(ref.span, f"action `{ref.name}` is listed twice in phase `{ph.name}`")
                listed.add(ref.name)
            if ph.then is not None and ph.then.name not in phase_names:
                self.error(ph.then.span, f"unknown phase `{ph.then.name}`", did_you_mean(ph.then.name, phase_names))
            if not ph.actions:
                self.error(ph.span, f"phase `{ph.name}` lists no actions", "give it `actions: [...]`")
            actor = None
            if ph.actor is not None:
                self.scopes, self.context = [{}], "legal"
                before = self.charges
                reading = self.begin_reading(())
                actor_type, actor = self.expr(ph.actor)
                actor = self.unit_expr(actor, self.fact(ph.actor).cost, ph.actor.span, lists=self.end_reading(reading))
                self.mark(before, "actor")
                self.want(entity("player"), actor_type, ph.actor.span, f"the actor of phase `{ph.name}`")
            prog.phases.append(LoweredPhase(ph.name, f"PHASE_{const_name(ph.name)}", start,
                                            tuple(r.name for r in ph.actions), ph.when_stuck,
                                            ph.span, actor))
            prog.constants.append((f"PHASE_{const_name(ph.name)}", i, "phase"))
        in_phase = {r.name for ph in rs.phases for r in ph.actions}
        for a in rs.actions:
            if a.name not in in_phase:
                self.error(a.span, f"action `{a.name}` belongs to no phase, so it can never be played",
                           "list it in a phase's `actions:`")
            prog.actions.append(self.action(a, after.get(a.name, [])))
        # A phase whose actions may list more than MAX_ACTIONS counts them when listed.
        counts = {a.name: a.count for a in prog.actions}
        for i, phase in enumerate(prog.phases):
            numbers = [counts.get(name) for name in phase.actions]
            if any(n is None for n in numbers) or sum(n or 0 for n in numbers) > MAX_ACTIONS:
                prog.phases[i] = phase = replace(phase, many_actions=True)
            if any(a.fresh_listing for a in prog.actions if a.name in phase.actions):
                prog.phases[i] = replace(phase, fresh_listing=True)
        self.reachability()
        # setup: effects run once before the first turn, after every field has its init
        self.scopes, self.context = [{}], "effect"
        before = self.charges
        prog.setup = list(self.effects(rs.setup, rs.span))
        self.mark(before, "setup")
        # end and scoring
        self.scopes, self.context = [{}], "end"
        before = self.charges
        if rs.end is None:
            self.error(rs.span, "the game has no end condition", "add `end: <condition>` (when the game is over)")
        else:
            reading = self.begin_reading(())
            t, prog.end = self.test(rs.end)
            self.truth(t, rs.end.span)
            prog.end = self.unit_expr(prog.end, self.fact(rs.end).cost, rs.end.span, lists=self.end_reading(reading))
            self.mark(before, "end")
            prog.end_span = rs.end.span
        if not rs.scoring:
            self.error(rs.span, "the game has no scoring",
                       "add `scoring:` with at least one term, e.g. gold: gold[player]")
        before = self.charges
        for term in rs.scoring:
            prog.scoring.append((term.name, self.per_player(term.expr, f"scoring term `{term.name}`"), term.span))
        self.mark(before, "score")
        if rs.tie_break is not None:
            before = self.charges
            prog.tie_break = self.per_player(rs.tie_break, "`tie_break`")
            self.mark(before, "tie_break")
        prog.resets = frozenset(self.resets)
        return prog

    def per_player(self, e: ast.Expr, what: str) -> str:
        """A number computed for each player (`player` in it): a scoring term, the tie-break."""
        self.scopes, self.context = [{"player": _Sym("local", entity("player"), "player", e.span)}], "score"
        reading = self.begin_reading(("player",))
        t, py = self.expr(e)
        self.want(INT, t, e.span, what)
        return self.unit_expr(py, self.fact(e).cost, e.span, lists=self.end_reading(reading))

    def action(self, a: ir.Action, triggers: list[str]) -> LoweredAction:
        self.scopes, self.context = [{}], "legal"
        self.assigned = frozenset(_assigned(a.effect))  # (a choice its effect assigns to is only its type)
        before = self.charges
        when = None
        if a.when is not None:
            reading = self.begin_reading(())
            wt, when = self.test(a.when)
            self.truth(wt, a.when.span)
            when = self.unit_expr(when, self.fact(a.when).cost, a.when.span, lists=self.end_reading(reading))
            self.mark(before, "legal", "guard")
        choices: list[LoweredChoice] = []
        params: list[tuple[str, str]] = []
        loops: list[tuple[ir.Choice, str, str, Facts, Ty]] = []
        reading = self.begin_reading(())
        for c in a.choices:
            dt, dpy = self.expr(c.domain)
            elem, walk = self.iterable(dt, dpy, c.domain.span)
            domain = self.domain_facts(c.domain, dt)
            py = self.bind(c.name, elem, c.span)
            self.items.add(self.scopes[-1][c.name])
            self.set_local(c.name, domain.item)
            loops.append((c, py, walk, domain, elem))
            params.append((py, _annotation(elem)))
        listing_prelude, clear_cache, count = self.listing(a, loops, reading)
        fresh_listing = self.mark(before, "legal")
        for c, py, walk, _, elem in loops:
            choices.append(LoweredChoice(c.name, py, walk, elem.kind == "list", c.span))
        kinds = {c.name: self.lookup(c.name) for c in a.choices}
        parts: list[tuple[str, str | None]] = []
        unknown = False
        pos = 0
        for m in re.finditer(r"\{([^{}]*)\}", a.text):
            if m.start() > pos:
                parts.append((a.text[pos:m.start()], None))
            sym = kinds.get(m.group(1))
            if sym is None:
                unknown = True
                self.error(a.span, f"the text of `{a.name}` names `{{{m.group(1)}}}`, which is not one of its choices",
                           did_you_mean(m.group(1), kinds) or f"choices: {', '.join(kinds) or 'none'}")
            else:
                ty = sym.ty
                fmt = f"list:{ty.elem.name}" if ty.kind in ("list", "set") and ty.elem else (ty.name or ty.kind)
                parts.append((sym.py, fmt))
            pos = m.end()
        if pos < len(a.text):
            parts.append((a.text[pos:], None))
        if not any(fmt for _, fmt in parts) and a.choices and not unknown:
            self.error(a.span, f"the text of `{a.name}` must show its choices",
                       f"e.g. text: \"{a.name} {{{a.choices[0].name}}}\"")
        self.context = "effect"
        before = self.charges
        effect = self.effects(a.effect, a.span)
        fresh_effect = self.mark(before, "effect") or any(t in self.charging_triggers for t in triggers)
        then = tuple(
            (i, next(j for j, q in enumerate(self.rs.phases) if q.name == ph.then.name))
            for i, ph in enumerate(self.rs.phases)
            if ph.then is not None and any(r.name == a.name for r in ph.actions)
            and any(q.name == ph.then.name for q in self.rs.phases)
        )
        return LoweredAction(a.name, f"_do_{a.name}", tuple(params), when, tuple(choices), tuple(parts), effect,
                             tuple(triggers), then, a.span, listing_prelude=listing_prelude, clear_cache=clear_cache,
                             count=count, fresh_listing=fresh_listing, fresh_effect=fresh_effect)

    def reachability(self) -> None:
        rs = self.rs
        if not rs.phases:
            return
        edges: dict[str, set[str]] = {p.name: set() for p in rs.phases}
        goto_targets = {name for name, _ in self.gotos}
        for ph in rs.phases:
            if ph.then is not None:
                edges[ph.name].add(ph.then.name)
            edges[ph.name] |= goto_targets  # a goto anywhere may run from any phase
        seen, todo = {rs.phases[0].name}, [rs.phases[0].name]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen and nxt in edges:
                    seen.add(nxt)
                    todo.append(nxt)
        for ph in rs.phases[1:]:
            if ph.name not in seen:
                self.error(ph.span, f"phase `{ph.name}` can never be reached",
                           f"turns start in `{rs.phases[0].name}`; reach it with `then: {ph.name}` or `goto {ph.name}`")


# A list a rule can read at its start: a field, an entity's value of a field, a parameter.
# (`Small`: the lists a rule takes for small, and the number of operations it does on them.)
Small = tuple[tuple[str, ...], int]
Reading = tuple[dict[str, None] | None, int, frozenset[str]]  # what begin_reading saves
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # an expression node's fields, by its class
_SIMPLE = re.compile(r"self\.\w+(?:\[(self\.\w+|\w+)\])?|(\w+)")


def _param(func: str, param: str) -> str:
    """The key of a parameter among what check() learns (fields are keyed by their names)."""
    return f"{func}.{param}"


def _sorted(elem: Ty, py: str) -> str:
    """The items of a set in increasing order (a set of sets: by their items in order)."""
    return f"sorted({py}, key=sorted)" if elem.kind == "set" else f"sorted({py})"


def _parts(e: ast.Expr) -> list[ast.Expr]:
    """The expressions directly inside `e` (its work includes theirs)."""
    out: list[ast.Expr] = []
    names = _FIELD_NAMES.get(type(e))
    if names is None:
        names = _FIELD_NAMES[type(e)] = tuple(f.name for f in fields(e) if f.name != "span")
    for name in names:
        value = getattr(e, name)
        for part in value if isinstance(value, tuple) else (value,):
            part = part.value if isinstance(part, ast.Keyword) else part
            if isinstance(part, ast.Expr):
                out.append(part)
    return out


def _assigned(stmts: tuple[ast.Stmt, ...]) -> set[str]:
    """The names a block of effects assigns to (`x = ...`, `x += ...`), in it or in its blocks."""
    out: set[str] = set()
    todo = list(stmts)
    while todo:
        s = todo.pop()
        if isinstance(s, ast.Assign):
            out.add(s.target.name)
        elif isinstance(s, ast.For):
            todo.extend(s.body)
        elif isinstance(s, ast.If):
            todo.extend(s.orelse)
            for _, branch in s.branches:
                todo.extend(branch)
    return out


def _stored(facts: Facts) -> Facts:
    """`facts` of a value read back from the state: its numbers were checked as they were stored."""
    return Facts(0, facts.size, STORED, _stored(facts.item) if facts.item is not None else None)  # (not small)


def _cycle(graph: dict[str, list[str]], start: str) -> list[str] | None:
    """The shortest way from `start` back to itself along `graph` (`[a, b, a]`), or None."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for nxt in graph.get(node, ()):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if nxt not in came_from:
                    came_from[nxt] = node
                    following.append(nxt)
        frontier = following
    return None


def _untyped(t: Ty) -> bool:
    """Whether a type holds the item type of an empty `[]` or `{}`, unknown."""
    return t.kind == "any" or t.elem is not None and _untyped(t.elem)


def _typed(t: Ty) -> Ty:
    """The type, with `int` for an item type nothing gave."""
    if t.kind == "any":
        return INT
    return Ty(t.kind, t.name, _typed(t.elem)) if t.elem is not None else t


def _annotation(t: Ty) -> str:
    from .types import python_type

    return python_type(t)


def check(rs: ir.RuleSet) -> tuple[list[Diagnostic], Program]:
    """Check a rule set; returns its problems and the lowered program."""
    # The walk runs again while it learns more of what the fields hold (how long a list field can
    # grow: compiler/budget.py); its code is kept once what it assumed of them holds.
    assumed: dict[str, Facts] | None = None
    grown: Counter[str] = Counter()
    while True:
        checker = _Checker(rs, assumed)
        try:
            program = checker.run()
        except RecursionError:  # the limits on nesting should make this unreachable; never a traceback, though
            checker.error(rs.span, "the rules nest too deeply to be checked",
                          "definitions using definitions, each deeply nested: flatten a few")
            program = checker.program
            break
        learnt = None if checker.diags else checker.learnt(grown)
        if learnt is None:
            break
        assumed = learnt
    unique: dict[tuple[SourceSpan, str], Diagnostic] = {}
    for d in checker.diags:
        unique.setdefault((d.span, d.message), d)
    ordered = sorted(unique.values(), key=lambda d: (d.span.path, d.span.line, d.span.col))
    return ordered, program
