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
from dataclasses import dataclass, field
from typing import assert_never

from ..runtime.board import GraphBoard, hex_labels, validate_regions
from . import ast, ir
from .signatures import AGGREGATES, BUILTINS, VALUES
from .source import Diagnostic, SourceSpan, did_you_mean
from .types import ANY, BOOL, INT, STR, Ty, compatible, entity, enum, list_of, parse_type, set_of, unify

# Names the State base class and generated code use: fields, defines and procedures may not
# take them.
RESERVED = frozenset(
    {
        "game", "num_players", "options", "seed", "rng", "board", "current", "phase", "turn", "moves",
        "terminal", "next_phase", "to_act", "legal_actions", "apply", "parse_action", "is_terminal",
        "scores", "winners", "observation", "clone", "to_json", "label", "opponent", "players", "spots",
        "regions", "player", "trace", "why_illegal",
    }
)
_PY_AVOID = frozenset({"self", "rt", "actions", "render", "action", "len", "range", "sum", "all", "any",
                       "min", "max", "list", "tuple", "frozenset", "int", "bool", "str", "abs", "sorted",
                       "cache", "name", "args"})  # (the last three: locals of generated methods)
# More phases or actions than this make generated code Python cannot compile.
_MAX_COMPONENTS = 1000
# Typing a definition types those it uses first: a chain longer than this is refused.
_MAX_DEFINE_CHAIN = 40
# Kinds of values a type can name: no enum or dice kind may take these names.
_KIND_WORDS = frozenset({"int", "bool", "str", "auction", "list", "set", "any", "none", "player", "spot", "region",
                         "role", "regionkind", "board"})


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


@dataclass(frozen=True, slots=True)
class LoweredPhase:
    name: str
    const: str
    start: tuple[Line, ...]
    actions: tuple[str, ...]  # action method suffixes
    stuck: str
    span: SourceSpan
    actor: str | None = None  # who decides, when not the seat whose turn it is


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


@dataclass(frozen=True, slots=True)
class _Sym:
    kind: str  # field, perfield, const, option, value, local, define
    ty: Ty
    py: str
    span: SourceSpan | None = None
    per: str | None = None


def const_name(name: str) -> str:
    return re.sub(r"[^A-Z0-9_]", "_", name.upper())


_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


class _Checker:
    def __init__(self, rs: ir.RuleSet) -> None:
        self.rs = rs
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
        self.component_count: dict[str, int] = {}
        self.attributes: dict[str, dict[str, tuple[Ty, str]]] = {}

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, message, hint))

    # -- declarations -------------------------------------------------------------------------
    def declare(self, name: str, sym: _Sym) -> None:
        if name in self.globals:
            old = self.globals[name]
            where = f" (first declared at {old.span})" if old.span else ""
            if sym.span is not None:
                self.error(sym.span, f"`{name}` is declared twice{where}", "every name in a rule set must be unique")
            return
        self.globals[name] = sym

    def declare_enum(self, enum_name: str, values: tuple[str, ...], span: SourceSpan, comment: str) -> None:
        if any(name == enum_name for name, _ in self.program.enums) or enum_name in self.entity_kinds:
            self.error(span, f"`{enum_name}` is already the name of a kind of value", "choose another name")
            return
        self.enum_names.add(enum_name)
        self.program.enums.append((enum_name, values))
        for i, value in enumerate(values):
            const = const_name(value)
            self.declare(value, _Sym("const", enum(enum_name), const, span))
            self.program.constants.append((const, i, f"{enum_name}: {comment}"))

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
            if decl.name in self.enum_names or decl.name in self.entity_kinds or decl.name in ("int", "bool", "str"):
                self.error(decl.span, f"`{decl.name}` is already the name of a kind of value", "choose another name")
                continue
            self.declare_enum(decl.name, decl.values, decl.span, f"values of `{decl.name}`")
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
        if len(rs.boards) > 1:
            option = next((o for o in rs.options if o.name == "board"), None)
            board_names = tuple(b.name for b in rs.boards)
            if option is None:
                self.error(rs.boards[1].span, "several boards need an option `board` to choose between them")
            elif set(option.choices) - {"by_players"} != set(board_names):
                self.error(option.span, f"option `board` must choose among the boards: {', '.join(board_names)}")
        for opt in rs.options:
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
            if kind.name in _KIND_WORDS:
                self.error(kind.span, f"`{kind.name}` is already the name of a kind of value", "choose another name")
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
            self.reserved(f.name, f.span)
            sym_kind = "perfield" if f.per else "field"
            self.declare(f.name, _Sym(sym_kind, f.type, f"self.{f.name}", f.span, f.per))
        for d in rs.defines:
            self.reserved(d.name, d.span)
            if d.name in self.functions or d.name in self.globals:
                self.error(d.span, f"`{d.name}` is declared twice")
            self.functions[d.name] = d
        for p in rs.procedures:
            self.reserved(p.name, p.span)
            if p.name in self.functions or p.name in self.procedures or p.name in self.globals:
                self.error(p.span, f"`{p.name}` is declared twice")
            self.procedures[p.name] = p

    def reserved(self, name: str, span: SourceSpan) -> None:
        if name in RESERVED or name.startswith("_") or name.startswith("opt_"):
            self.error(span, f"`{name}` is a name rulewright keeps for itself", "choose another name")
        elif keyword.iskeyword(name):
            self.error(span, f"`{name}` is a Python keyword, so it cannot name this", "choose another name")
        elif name in BUILTINS or name in AGGREGATES:
            self.error(span, f"`{name}` is the name of a built-in function", "choose another name")

    def component(self, comp: ir.Component) -> None:
        """A fixed set of numbered pieces: an entity kind, its list, and tables of attributes."""
        if comp.name in _KIND_WORDS or comp.name in self.enum_names:
            self.error(comp.span, f"`{comp.name}` is already the name of a kind of value", "choose another name")
            return
        self.component_count[comp.name] = comp.count
        labels = tuple(f"{comp.name}{i + 1}" for i in range(comp.count))
        self.program.dice.append((comp.name, labels, ()))
        if comp.all_name is not None:
            self.declare(comp.all_name, _Sym("value", list_of(entity(comp.name)), f"range({comp.count})", comp.span))
        table: dict[str, tuple[Ty, str]] = {}
        for attr in comp.attributes:
            self.scopes, self.context = [{"i": _Sym("local", INT, "i", attr.span)}], "init"
            ty, py = self.expr(attr.value)
            self.scopes = []
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
        py = name + "_" if keyword.iskeyword(name) or name in _PY_AVOID else name
        self.scopes[-1][name] = _Sym("local", ty, py, span)
        return py

    # -- expressions --------------------------------------------------------------------------
    def expr(self, e: ast.Expr) -> tuple[Ty, str]:
        match e:
            case ast.Num():
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
                return self.collection(e.items, "list", e.span)
            case ast.SetLit():
                return self.collection(e.items, "set", e.span)
            case ast.Unary():
                t, py = self.expr(e.operand)
                if e.op == "not":
                    self.truth(t, e.operand.span)
                    return BOOL, f"not {py}"
                self.want(INT, t, e.operand.span, "`-`")
                return INT, f"-{py}"
            case ast.Binary():
                return self.binary(e)
            case ast.Cond():
                tt, tpy = self.expr(e.test)
                self.truth(tt, e.test.span)
                at, apy = self.expr(e.then)
                bt, bpy = self.expr(e.orelse)
                common = unify(at, bt)
                if common is None:
                    self.error(e.span, f"type mismatch: one branch is {at}, the other {bt}")
                    common = at
                return common, f"({apy} if {tpy} else {bpy})"
            case _:
                assert_never(e)

    def name(self, e: ast.Name) -> tuple[Ty, str]:
        sym = self.lookup(e.id)
        if sym is not None:
            return sym.ty, sym.py
        if e.id in self.functions:
            d = self.functions[e.id]
            if d.params:
                self.error(e.span, f"`{e.id}` takes {len(d.params)} argument(s)", f"call it: {e.id}(...)")
                return ANY, "None"
            return self.define_type(d), f"self.{e.id}()"
        self.error(e.span, f"unknown name `{e.id}`", did_you_mean(e.id, self.visible_names()))
        return ANY, "None"

    def index(self, e: ast.Index) -> tuple[Ty, str]:
        if isinstance(e.obj, ast.Name):
            sym = self.lookup(e.obj.id)
            if sym is not None and sym.kind == "perfield":
                it, ipy = self.expr(e.index)
                self.want(entity(sym.per or ""), it, e.index.span, f"the index of `{e.obj.id}`")
                return sym.ty, f"{sym.py}[{ipy}]"
        t, py = self.expr(e.obj)
        it, ipy = self.expr(e.index)
        if t.kind == "list":
            self.want(INT, it, e.index.span, "a list index")
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
            parts.append(py)
        if kind == "list":
            return list_of(elem), "[" + ", ".join(parts) + "]" if parts else "()"
        if not parts:
            return set_of(elem), "frozenset()"
        return set_of(elem), "frozenset((" + ", ".join(parts) + ("," if len(parts) == 1 else "") + "))"

    def iterable(self, t: Ty, py: str, span: SourceSpan) -> tuple[Ty, str]:
        """The element type of something a `for` can walk, and how to walk it."""
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
        elem, walk = self.iterable(dt, dpy, e.domain.span)
        self.scopes.append({})
        var = self.bind(e.var, elem, e.span)
        cond_py = None
        if e.cond is not None:
            ct, cond_py = self.expr(e.cond)
            self.truth(ct, e.cond.span)
        et, epy = self.expr(e.elt)
        self.scopes.pop()
        head = f"for {var} in {walk}" + (f" if {cond_py}" if cond_py else "")
        match e.func:
            case "count":
                self.want(BOOL, et, e.elt.span, "what `count` counts")
                if cond_py:
                    return INT, f"sum(1 for {var} in {walk} if {cond_py} and {epy})"
                return INT, f"sum(1 for {var} in {walk} if {epy})"
            case "all" | "any":
                self.truth(et, e.elt.span)
                return BOOL, f"{e.func}({epy} {head})"
            case "sum" | "min" | "max":
                self.want(INT, et, e.elt.span, f"what `{e.func}` adds up")
                if e.func == "sum":
                    return INT, f"sum({epy} {head})"
                return INT, f"{e.func}(({epy} {head}), default=0)"
            case "set":
                return set_of(et), f"frozenset({epy} {head})"
            case _:
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
        item = f"{e.cond.left.obj.id}_"
        return list_of(entity("spot")), (
            f"[{var} for {var}, {item} in enumerate({field_sym.py}) if {item} {e.cond.op} {value_py}]"
        )

    def binary(self, e: ast.Binary) -> tuple[Ty, str]:
        lt, lpy = self.expr(e.left)
        rt_, rpy = self.expr(e.right)
        op = e.op
        if op in ("and", "or"):
            self.truth(lt, e.left.span)
            self.truth(rt_, e.right.span)
            return BOOL, f"({lpy} {op} {rpy})"
        if op in _COMPARISONS:
            # Python chains `a == b == c`: a comparison (or a `not`) inside another keeps its parentheses.
            lpy, rpy = (f"({py})" if isinstance(side, ast.Unary | ast.Binary) and side.op in (*_COMPARISONS, "not")
                        else py for side, py in ((e.left, lpy), (e.right, rpy)))
        if op in ("==", "!="):
            if unify(lt, rt_) is None:
                self.error(e.span, f"type mismatch: comparing {lt} with {rt_}")
            return BOOL, f"{lpy} {op} {rpy}"
        if op in ("<", "<=", ">", ">="):
            self.want(INT, lt, e.left.span, f"`{op}`")
            self.want(INT, rt_, e.right.span, f"`{op}`")
            return BOOL, f"{lpy} {op} {rpy}"
        if op in ("in", "not in"):
            elem, walk = self.iterable(rt_, rpy, e.right.span)
            if unify(elem, lt) is None:
                self.error(e.span, f"type mismatch: looking for {lt} among {elem}")
            return BOOL, f"{lpy} {op} {walk}"
        if op == "+" and lt.kind in ("list", "set") or rt_.kind in ("list", "set") and op in ("+", "-"):
            common = unify(lt, rt_)
            if common is None:
                self.error(e.span, f"type mismatch: {lt} {op} {rt_}")
                return lt, "None"
            if common.kind == "list":
                if op == "-":
                    self.error(e.span, "lists cannot be subtracted", "filter with [x for x in a if x not in b]")
                return common, f"[*{lpy}, *{rpy}]"
            return common, f"({lpy} {'|' if op == '+' else '-'} {rpy})"
        self.want(INT, lt, e.left.span, f"`{op}`")
        self.want(INT, rt_, e.right.span, f"`{op}`")
        return INT, f"({lpy} {op} {rpy})"

    def call(self, e: ast.Call) -> tuple[Ty, str]:
        if e.func in self.functions:
            d = self.functions[e.func]
            args = self.arguments(e, tuple((p.name, p.type) for p in d.params))
            return self.define_type(d), f"self.{e.func}({', '.join(args)})"
        if e.func in self.procedures:
            self.error(e.span, f"`{e.func}` is a procedure: it changes the game and gives no value",
                       "call it as an effect of its own")
            return ANY, "None"
        if e.func == "len" and len(e.args) == 1 and isinstance(e.args[0], ast.Call) and not e.keywords:
            inner = e.args[0]
            if (inner.func == "straight_lines" and inner.func not in self.functions and len(inner.args) == 2
                    and not inner.keywords):
                # Counting lines needs no list of them: a popcount on the board's bitboard.
                return self.call(ast.Call("count_lines", inner.args, inner.keywords, e.span))
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
            out.append(apy)
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
        saved_scopes, saved_context = self.scopes, self.context
        self.scopes, self.context = [{}], "define"
        self.define_depth += 1
        for p in d.params:
            self.bind(p.name, p.type, p.span)
        ty, _ = self.expr(d.body)
        self.define_depth -= 1
        self.scopes, self.context = saved_scopes, saved_context
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

    # -- statements ---------------------------------------------------------------------------
    def block(self, stmts: tuple[ast.Stmt, ...], depth: int) -> list[Line]:
        out: list[Line] = []
        self.scopes.append({})
        for s in stmts:
            out.extend(self.stmt(s, depth))
        self.scopes.pop()
        if not out:
            out.append(Line(depth, "pass"))
        return out

    def stmt(self, s: ast.Stmt, depth: int) -> list[Line]:
        match s:
            case ast.Assign():
                return [Line(depth, self.assign(s), s.span)]
            case ast.Let():
                t, py = self.expr(s.value)
                name = self.bind(s.name, t, s.span)
                return [Line(depth, f"{name} = {py}", s.span)]
            case ast.CallStmt():
                return [Line(depth, self.call_stmt(s.call), s.span)]
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
                self.scopes.append({})
                var = self.bind(s.var, elem, s.span)
                body = self.block(s.body, depth + 1)
                self.scopes.pop()
                if not any(re.search(rf"\b{var}\b", line.code) for line in body):
                    var = "_"  # a loop run for its count only (`for k in range(0, 3)`)
                head = Line(depth, f"for {var} in {walk}:", s.span)
                return [head, *body]
            case ast.If():
                lines: list[Line] = []
                for i, (test, branch) in enumerate(s.branches):
                    t, py = self.expr(test)
                    self.truth(t, test.span)
                    lines.append(Line(depth, f"{'if' if i == 0 else 'elif'} {py}:", test.span))
                    lines.extend(self.block(branch, depth + 1))
                if s.orelse:
                    lines.append(Line(depth, "else:"))
                    lines.extend(self.block(s.orelse, depth + 1))
                return lines
            case _:
                assert_never(s)

    def assign(self, s: ast.Assign) -> str:
        target = s.target
        vt, vpy = self.expr(s.value)
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
            lhs = f"{sym.py}[{ipy}]"
        elif target.index is not None:
            self.error(target.span, f"`{target.name}` is a single value and takes no index")
            return "pass"
        if s.op in ("+=", "-="):
            if sym.ty.kind == "set" and compatible(sym.ty, vt):
                return f"{lhs} = {lhs} {'|' if s.op == '+=' else '-'} {vpy}"
            self.want(INT, sym.ty, target.span, f"the target of `{s.op}`")
            self.want(INT, vt, s.value.span, f"the value added with `{s.op}`")
            return f"{lhs} {s.op} {vpy}"
        if not compatible(sym.ty, vt):
            self.error(s.value.span, f"type mismatch: `{target.name}` is {sym.ty}, the value is {vt}")
        return f"{lhs} = {vpy}"

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
        prog = self.program
        # fields
        for f in rs.fields:
            self.scopes, self.context = [{}], "init"
            t, py = self.expr(f.init)
            if not compatible(f.type, t):
                self.error(f.init.span, f"type mismatch: field `{f.name}` is {f.type}, its init is {t}")
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
            info = (f"rt.FieldInfo({f.name!r}, {f.per!r}, {f.type.kind!r}, {element!r}, "
                    f"{f.values!r}, {f.visible!r}, {f.doc!r})")
            shown = hidden = None
            if f.shown_if is not None:
                self.scopes, self.context = [{}], "legal"
                shown_t, shown = self.expr(f.shown_if)
                self.want(BOOL, shown_t, f.shown_if.span, "`shown_if`")
            if f.hide_items_if is not None:
                if f.type.kind != "list" or f.per is not None:
                    self.error(f.hide_items_if.span, "`hide_items_if` is for a list field (not per entity)",
                               "it hides item k of the list while the condition holds")
                self.scopes, self.context = [{"k": _Sym("local", INT, "k", f.span)}], "legal"
                hidden_t, hidden = self.expr(f.hide_items_if)
                self.want(BOOL, hidden_t, f.hide_items_if.span, "`hide_items_if`")
            prog.fields.append(LoweredField(f.name, annotation, init, f.per, copy, info, f.span, shown, hidden))
        # defines and procedures
        for d in rs.defines:
            self.scopes, self.context = [{}], "define"
            params = tuple((self.bind(p.name, p.type, p.span), _annotation(p.type)) for p in d.params)
            t, py = self.expr(d.body)
            self.define_types.setdefault(d.name, t)
            prog.defines.append(LoweredFunction(d.name, params, _annotation(t), (Line(2, f"return {py}", d.span),),
                                                d.span))
        for p in rs.procedures:
            self.scopes, self.context = [{}], "effect"
            params = tuple((self.bind(x.name, x.type, x.span), _annotation(x.type)) for x in p.params)
            body = tuple(self.block(p.body, 2))
            prog.procedures.append(LoweredFunction(p.name, params, "None", body, p.span))
        # triggers
        action_names = {a.name for a in rs.actions}
        after: dict[str, list[str]] = {a: [] for a in action_names}
        for trig in rs.triggers:
            self.scopes, self.context = [{}], "effect"
            when = None
            if trig.when is not None:
                wt, when = self.expr(trig.when)
                self.truth(wt, trig.when.span)
            effect = tuple(self.block(trig.effect, 2))
            method = f"_trigger_{trig.name}"
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
            start = tuple(self.block(ph.start, 2))
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
                actor_type, actor = self.expr(ph.actor)
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
        self.reachability()
        # setup: effects run once before the first turn, after every field has its init
        self.scopes, self.context = [{}], "effect"
        prog.setup = list(self.block(rs.setup, 2))
        # end and scoring
        self.scopes, self.context = [{}], "end"
        if rs.end is None:
            self.error(rs.span, "the game has no end condition", "add `end: <condition>` (when the game is over)")
        else:
            t, prog.end = self.expr(rs.end)
            self.truth(t, rs.end.span)
            prog.end_span = rs.end.span
        if not rs.scoring:
            self.error(rs.span, "the game has no scoring",
                       "add `scoring:` with at least one term, e.g. gold: gold[player]")
        for term in rs.scoring:
            prog.scoring.append((term.name, self.per_player(term.expr, f"scoring term `{term.name}`"), term.span))
        if rs.tie_break is not None:
            prog.tie_break = self.per_player(rs.tie_break, "`tie_break`")
        return prog

    def per_player(self, e: ast.Expr, what: str) -> str:
        """A number computed for each player (`player` in it): a scoring term, the tie-break."""
        self.scopes, self.context = [{"player": _Sym("local", entity("player"), "player", e.span)}], "score"
        t, py = self.expr(e)
        self.want(INT, t, e.span, what)
        return py

    def action(self, a: ir.Action, triggers: list[str]) -> LoweredAction:
        self.scopes, self.context = [{}], "legal"
        when = None
        if a.when is not None:
            wt, when = self.expr(a.when)
            self.truth(wt, a.when.span)
        choices: list[LoweredChoice] = []
        params: list[tuple[str, str]] = []
        for c in a.choices:
            dt, dpy = self.expr(c.domain)
            elem, walk = self.iterable(dt, dpy, c.domain.span)
            py = self.bind(c.name, elem, c.span)
            choices.append(LoweredChoice(c.name, py, walk, elem.kind == "list", c.span))
            params.append((py, _annotation(elem)))
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
        effect = tuple(self.block(a.effect, 2))
        then = tuple(
            (i, next(j for j, q in enumerate(self.rs.phases) if q.name == ph.then.name))
            for i, ph in enumerate(self.rs.phases)
            if ph.then is not None and any(r.name == a.name for r in ph.actions)
            and any(q.name == ph.then.name for q in self.rs.phases)
        )
        return LoweredAction(a.name, f"_do_{a.name}", tuple(params), when, tuple(choices), tuple(parts), effect,
                             tuple(triggers), then, a.span)

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


def _annotation(t: Ty) -> str:
    from .types import python_type

    return python_type(t)


def check(rs: ir.RuleSet) -> tuple[list[Diagnostic], Program]:
    """Check a rule set; returns its problems and the lowered program."""
    checker = _Checker(rs)
    try:
        program = checker.run()
    except RecursionError:  # the limits on nesting should make this unreachable; never a traceback, though
        checker.error(rs.span, "the rules nest too deeply to be checked",
                      "definitions using definitions, each deeply nested: flatten a few")
        program = checker.program
    unique: dict[tuple[SourceSpan, str], Diagnostic] = {}
    for d in checker.diags:
        unique.setdefault((d.span, d.message), d)
    ordered = sorted(unique.values(), key=lambda d: (d.span.path, d.span.line, d.span.col))
    return ordered, program
