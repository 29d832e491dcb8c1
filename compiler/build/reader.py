"""Stage 4, build: the resolved YAML tree to a `RuleSet`, parsing every embedded expression.

`build_ir(tree, game_files)` is the one entry point. It checks the *shape* of the file (known
keys, the right kinds of values) and parses the expression strings; the checker then checks
what the expressions mean.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TypeVar

from ...core.load import YMap, YNode, YScalar, YSeq
from ...core.source import Diagnostic, SourceSpan, did_you_mean
from ...runtime.errors import is_int
from ...runtime.limits import MAX_ATTRIBUTE_VALUES, MAX_COMPONENTS
from .. import ast, ir
from ..merge import Stacked, key_name
from ..names import (
    IMPLICIT,
    MODULE_API,
    RULE_NAME_HINT,
    base_calls,
    base_use,
    const_name,
    rule_name_problem,
)
from ..parse import Kind, ParseError, parse
from ..types import ANY, Ty, parse_type, record

TOP_KEYS = (
    "rulewright", "game", "title", "author", "extends", "incompatible", "family", "players", "roles", "neutral",
    "enums", "components", "setup", "records",
    "options", "boards", "dice", "state", "define", "procedures", "phases", "actions", "triggers",
    "end", "scoring", "winner", "tie_break", "invariants", "drawing",
)
DRAWING_KEYS = ("colours", "icons")
# The colour names a `drawing:` colour may be, beside `#rgb` and `#rrggbb` (api/draw.py draws each).
DRAWING_COLOURS = ("red", "yellow", "green", "blue", "violet", "purple", "orange", "black", "white", "brown",
                   "grey", "gray", "pink", "gold")
_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")
INVARIANT_KEYS = ("holds", "doc", "quote")
OPTION_KEYS = ("doc", "quote", "default", "choices")
BOARD_KEYS = ("hexagon", "ring", "graph", "regions", "borders", "expect", "players", "note", "hexmap", "wall")
GRAPH_KEYS = ("spots", "roads")
HEXMAP_KEYS = ("rows", "legend")
REGION_KEYS = ("spots",)  # and the region's attributes: `Chu: {colour: violet, spots: [...]}`
REGION_KIND_KEYS = ("mirror_of", "rename")
EXPECT_KEYS = (
    "spots", "regions", "region_size", "contiguous", "cover_each_spot_once", "no_region_equal", "connected",
    "borders", "borders_match_roads", "attribute_counts", "bordering_differ", "pieces", "regions_per_face",
    "face_size", "largest_wall",
)
FIELD_KEYS = ("per", "type", "values", "init", "visible", "doc", "shown_if", "hide_items_if", "pool")
PHASE_KEYS = ("start", "actions", "when_stuck", "then", "actor")
ACTION_KEYS = ("choose", "when", "text", "others_text", "revealed_when", "effect", "doc")
DEFINE_KEYS = ("value", "cached")  # a definition written as a mapping: `{value: "...", cached: true}`
TRIGGER_KEYS = ("after", "at", "when", "effect", "doc")
VISIBILITY = ("all", "owner", "none", "size")
VISIBLE_TO_KEYS = ("to",)  # `visible: {to: <player over k>}`: entry or item k seen by that player only
WHEN_STUCK = ("pass", "end")  # a phase whose seat has no legal move: the turn passes, or the game ends
TRIGGER_MOMENTS = ("turn_end",)  # a trigger's `at:`
WINNER_RULES = ("highest_score", "lowest_score")

_SIGNATURE = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*$")
_NAME = re.compile(r"[a-z_][a-z0-9_]*")  # always used with fullmatch: `$` would allow a final newline
# Effects nest as Python blocks do, and Python refuses more than 20 nested loops.
_MAX_BLOCK_DEPTH = 12
_MAX_TYPE_DEPTH = 8


@dataclass
class _Reader:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Names that become module constants (each value of an enumeration, each die): name, what, where.
    values: list[tuple[str, str, SourceSpan]] = field(default_factory=list)
    # The records declared so far (`records:`), by name: their types, which a type may name.
    records: dict[str, Ty] = field(default_factory=dict)

    def constants(self, refs: tuple[ir.NameRef, ...], what: str) -> tuple[str, ...]:
        """The names of `refs`, remembered as names of module constants."""
        self.values.extend((ref.name, what, ref.span) for ref in refs)
        return tuple(ref.name for ref in refs)

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(span, message, hint))

    def entries(
        self, node: YNode | None, section: str, what: str, declared_as: str, allowed: tuple[str, ...] | None
    ) -> Iterator[tuple[str, YScalar, YMap]]:
        """The named entries of a section (`options:`, `actions:` ...): each entry's name, key and
        mapping, once the name is a proper one and (given `allowed`) its keys are known ones."""
        for key, value in (self.mapping(node, section) or YMap((), SourceSpan("", 0, 0, 0, 0))).items:
            m = self.mapping(value, f"{what} `{key.value}`")
            name = self.declared(key, declared_as)
            if m is None or name is None:
                continue
            if allowed is not None:
                self.keys(m, allowed, f"{what} `{key.value}`")
            yield name, key, m

    def mapping(self, node: YNode | None, what: str) -> YMap | None:
        if node is None:
            return None
        if isinstance(node, YMap):
            return node
        if isinstance(node, YScalar) and node.value is None:
            return YMap((), node.span)
        self.error(node.span, f"{what} must be a mapping")
        return None

    def sequence(self, node: YNode | None, what: str) -> YSeq | None:
        if node is None:
            return None
        if isinstance(node, YSeq):
            return node
        if isinstance(node, YScalar) and node.value is None:
            return YSeq((), node.span)
        self.error(node.span, f"{what} must be a list")
        return None

    def keys(self, node: YMap, allowed: tuple[str, ...], what: str) -> None:
        for key, _ in node.items:
            name = str(key.value)
            if name not in allowed:
                hint = did_you_mean(name, allowed) or f"known keys: {', '.join(allowed)}"
                self.error(key.span, f"unknown key `{name}` in {what}", hint)

    def text(self, node: YNode | None, what: str, default: str | None = None) -> str | None:
        if node is None:
            return default
        if isinstance(node, YScalar) and isinstance(node.value, str):
            return node.value
        if isinstance(node, YScalar) and is_int(node.value):
            return str(node.value)
        self.error(node.span, f"{what} must be text")
        return default

    def declared(self, key: YScalar, what: str) -> str | None:
        """The name a key declares (it becomes a Python name), or None if it is not a name."""
        name = str(key.value)
        if isinstance(key.value, str) and _NAME.fullmatch(name):
            self.rule_name(name, key.span, what)  # (reported, and kept: no "unknown name" where it is used)
            return name
        self.error(key.span, f"{what} `{name}` is not a name", "names are lowercase letters, digits and `_`")
        return None

    def rule_name(self, name: str, span: SourceSpan, what: str) -> bool:
        """Refuses a name that is lowercase letters, digits and `_` but no rule name (`_x`, `x_`,
        `a__b`: generated code's own, compiler/names.py); True if it is one. A name refused is
        still read (the rule file is refused), so that its uses do not report it unknown."""
        problem = rule_name_problem(name)
        if problem is not None:
            self.error(span, f"{what} `{name}` is not a rule name: it {problem}", RULE_NAME_HINT)
        return problem is None

    def name(self, node: YNode | None, what: str) -> ir.NameRef | None:
        value = self.text(node, what)
        if value is None or node is None:
            return None
        if not _NAME.fullmatch(value):
            self.error(node.span, f"{what} `{value}` is not a name", "names are lowercase letters, digits and `_`")
            return None
        self.rule_name(value, node.span, what)  # (reported, and kept: no "unknown name" where it is used)
        return ir.NameRef(value, node.span)

    def names(self, node: YNode | None, what: str) -> tuple[ir.NameRef, ...]:
        if isinstance(node, YScalar) and isinstance(node.value, str):
            ref = self.name(node, what)
            return (ref,) if ref else ()
        seq = self.sequence(node, what)
        if seq is None:
            return ()
        return tuple(r for r in (self.name(n, what) for n in seq.items) if r is not None)

    def integer(self, node: YNode | None, what: str) -> int | None:
        if node is None:
            return None
        if isinstance(node, YScalar) and is_int(node.value):
            return node.value
        self.error(node.span, f"{what} must be a whole number")
        return None

    def boolean(self, node: YNode | None, what: str) -> bool:
        if node is None:
            return False
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            return node.value
        self.error(node.span, f"{what} must be true or false")
        return False

    def parse(self, node: YNode | None, kind: Kind, what: str) -> object | None:
        if node is None:
            return None
        if not isinstance(node, YScalar) or node.value is None or isinstance(node.value, float):
            self.error(node.span, f"{what} must be an expression written as text")
            return None
        raw = node.value
        text = ("true" if raw else "false") if isinstance(raw, bool) else str(raw)
        try:
            result: object = parse(text, node.text_span, kind)
        except ParseError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None
        return result

    def expr(self, node: YNode | None, what: str) -> ast.Expr | None:
        result = self.parse(node, "expr", what)
        return result  # type: ignore[return-value]

    def block(self, node: YNode | None, what: str, depth: int = 0) -> tuple[ast.Stmt, ...]:
        """A list of effects; `for ...` / `if ...` / `elif` / `else` / `ask ...` keys open nested blocks."""
        if node is None:
            return ()
        if isinstance(node, YScalar) and isinstance(node.value, str):
            node = YSeq((node,), node.span)
        seq = self.sequence(node, what)
        if seq is None:
            return ()
        out: list[ast.Stmt] = []
        for item in seq.items:
            if isinstance(item, YMap):
                if len(item.items) != 1:
                    self.error(item.span,
                               "a block is one `for ...`, `if ...`, `elif ...`, `else` or `ask ...` key with a list")
                    continue
                key, body_node = item.items[0]
                if depth >= _MAX_BLOCK_DEPTH:
                    self.error(key.span, f"effects nested too deeply (more than {_MAX_BLOCK_DEPTH} blocks)",
                               "move the inner part into a procedure")
                    continue
                header = self.parse(key, "header", "block header")
                if header is None:
                    continue
                body = self.block(body_node, what, depth + 1)
                if isinstance(header, ast.ForHeader):
                    out.append(ast.For(header.var, header.domain, body, header.span))
                elif isinstance(header, ast.AskHeader):
                    out.append(ast.Ask(header.seat, header.var, header.domain, body, header.span, header.secret))
                elif isinstance(header, ast.IfHeader):
                    self._add_branch(out, header, body)
            else:
                stmt = self.parse(item, "stmt", "effect")
                if stmt is not None:
                    out.append(stmt)  # type: ignore[arg-type]
        return tuple(out)

    def _add_branch(self, out: list[ast.Stmt], header: ast.IfHeader, body: tuple[ast.Stmt, ...]) -> None:
        if header.kind == "if":
            assert header.test is not None
            out.append(ast.If(((header.test, body),), (), header.span))
            return
        previous = out[-1] if out else None
        if not isinstance(previous, ast.If) or previous.orelse:
            self.error(header.span, f"`{header.kind}` without an `if` before it")
            return
        if header.kind == "elif":
            assert header.test is not None
            out[-1] = ast.If(previous.branches + ((header.test, body),), (), previous.span)
        else:
            out[-1] = ast.If(previous.branches, body or (ast.Pass(header.span),), previous.span)

    def type_of(self, text: str, span: SourceSpan, entity_kinds: set[str], enums: set[str]) -> Ty | None:
        """A type written in a rule file, or None (with an error)."""
        if text.count("(") > _MAX_TYPE_DEPTH:
            self.error(span, f"type nested too deeply (more than {_MAX_TYPE_DEPTH} levels)")
            return None
        ty = parse_type(text, entity_kinds, enums, self.records)
        if isinstance(ty, str):
            self.error(span, ty, did_you_mean(text.strip(), sorted(entity_kinds | enums | set(self.records))
                                              + ["int", "bool"]))
            return None
        return ty

    def signature(
        self, key: YScalar, entity_kinds: set[str], enums: set[str]
    ) -> tuple[str, tuple[ir.Param, ...]] | None:
        """`collect(p: player, sector: region)` -> name and typed parameters."""
        text = str(key.value)
        match = _SIGNATURE.match(text)
        if not match:
            self.error(key.span, f"`{text}` is not a name or a `name(param: type, ...)` signature")
            return None
        self.rule_name(match.group(1), key.span, "the name")
        params: list[ir.Param] = []
        if match.group(2):
            for part in match.group(2).split(","):
                pname, sep, ptype = part.partition(":")
                pname = pname.strip()
                if not sep or not _NAME.fullmatch(pname):
                    self.error(key.span, f"parameter `{part.strip()}` must be written `name: type`")
                    return None
                self.rule_name(pname, key.span, "parameter")
                ty = self.type_of(ptype, key.span, entity_kinds, enums)
                if ty is None:
                    return None
                params.append(ir.Param(pname, ty, key.span))
        return match.group(1), tuple(params)


LANGUAGE_VERSION = 1


def _version_and_variant(r: _Reader, tree: YMap) -> None:
    """`rulewright:` is the language version, checked (a file for another version would be
    read wrongly, not refused); `variant:` was once accepted and ignored: now refused."""
    version = tree.get("rulewright")
    if version is not None and not (isinstance(version, YScalar) and type(version.value) is int
                                    and version.value == LANGUAGE_VERSION):
        shown = (f"`{str(version.value)[:20]}`" if isinstance(version, YScalar)
                 else "a mapping" if isinstance(version, YMap) else "a list")
        r.error(version.span, f"language version {shown}: this rulewright reads version {LANGUAGE_VERSION} of the "
                "rule language only", f"write `rulewright: {LANGUAGE_VERSION}` (the language version, not the "
                "tool's), or use the rulewright the file was written for")
    variant = tree.get("variant")
    if variant is not None:
        key = next(k for k, _ in tree.items if k.value == "variant")
        r.error(key.span, "`variant:` is not a key of a rule file: a variant is named by its file",
                "remove it: `rules/<game>/<name>.yaml` is the rule set `<game>/<name>`, and a variant "
                "says what it builds on with `extends:`")


def build_ir(tree: YMap, files: tuple[str, ...], variant: str = "base", merged: Stacked | None = None,
             ) -> tuple[ir.RuleSet | None, list[Diagnostic]]:
    """Build the IR of one resolved rule set; returns it (None if unusable) and the problems.
    `merged`: what its definitions and scoring terms replaced, for `base(...)` in them."""
    r = _Reader()
    _version_and_variant(r, tree)
    r.keys(tree, TOP_KEYS + (("variant",) if tree.get("variant") is not None else ()), "a rule file")
    game = r.text(tree.get("game"), "game")
    if game is None:
        r.error(tree.span, "a rule set needs `game:` (its id, e.g. china-cornett)")
        game = "unnamed"
    elif not re.fullmatch(r"[a-z][a-z0-9-]*", game):
        node = tree.get("game")
        assert node is not None
        r.error(node.span, f"game id `{game}` must be lowercase letters, digits and `-`")

    players = _players(r, tree.get("players"))
    roles = r.constants(r.names(tree.get("roles"), "a role"), "a role")
    neutral_refs = r.names(tree.get("neutral"), "a neutral seat")
    neutral = tuple(ref.name for ref in neutral_refs)
    options = _options(r, tree.get("options"))
    boards = _boards(r, tree.get("boards"))
    dice = _dice(r, tree.get("dice"))
    components = _components(r, tree.get("components"))

    enum_decls: list[ir.EnumDecl] = []
    for key, value in (r.mapping(tree.get("enums"), "enums") or YMap((), tree.span)).items:
        enum_name = r.declared(key, "an enumeration")
        values = r.constants(r.names(value, "a value"), f"a value of `{key.value}`")
        if enum_name is not None and not values:
            r.error(key.span, f"enumeration `{enum_name}` needs a list of value names")
        elif enum_name is not None:
            enum_decls.append(ir.EnumDecl(enum_name, values, key.span))

    entity_kinds = {"player", "spot", "region", "border"} | {d.name for d in dice} | {c.name for c in components}
    enums = {"role", "regionkind"} | {o.name for o in options} | {e.name for e in enum_decls}
    if any(b.wall for b in boards):
        enums |= {"wallpiece", "wallface"}
    state = r.mapping(tree.get("state"), "state") or YMap((), tree.span)
    for key, value in state.items:  # (_fields reports what is wrong with them)
        if isinstance(value, YMap) and value.get("values") is not None:
            enums.add(str(key.value))
    records = _records(r, tree.get("records"), entity_kinds, enums)
    fields = _fields(r, state, entity_kinds, enums)

    defines: list[ir.Define] = []
    define_node = r.mapping(tree.get("define"), "define") or YMap((), tree.span)
    define_names = [key_name(("define",), str(k.value)) for k, _ in define_node.items]
    for key, value in define_node.items:
        define = _define(r, key, value, entity_kinds, enums)
        if define is not None:
            defines.append(_with_bases(r, "define", define, merged, files, lambda reader, k, v: _define(
                reader, k, v, entity_kinds, enums), define_names))

    procedures: list[ir.Procedure] = []
    for key, value in (r.mapping(tree.get("procedures"), "procedures") or YMap((), tree.span)).items:
        sig = r.signature(key, entity_kinds, enums)
        body_stmts = r.block(value, f"procedure `{key.value}`")
        if sig:
            procedures.append(ir.Procedure(sig[0], sig[1], body_stmts, key.span))

    setup = r.block(tree.get("setup"), "setup") if tree.get("setup") is not None else ()
    phases = _phases(r, tree.get("phases"))
    actions = _actions(r, tree.get("actions"))
    triggers = _triggers(r, tree.get("triggers"))

    end = r.expr(tree.get("end"), "end")
    scoring: list[ir.ScoreTerm] = []
    scoring_node = r.mapping(tree.get("scoring"), "scoring") or YMap((), tree.span)
    for key, value in scoring_node.items:
        term = _score_term(r, key, value)
        if term is not None:
            scoring.append(_with_bases(r, "scoring", term, merged, files, _score_term, scoring_node.keys()))
    tie_break = r.expr(tree.get("tie_break"), "tie_break") if tree.get("tie_break") is not None else None
    invariants = _invariants(r, tree.get("invariants"))
    winner = r.text(tree.get("winner"), "winner", "highest_score") or "highest_score"
    if winner not in WINNER_RULES:
        node = tree.get("winner")
        assert node is not None
        r.error(node.span, f"unknown winner rule `{winner}`", did_you_mean(winner, WINNER_RULES))

    title = r.text(tree.get("title"), "title", game) or game
    author = r.text(tree.get("author"), "author", "") or ""
    for what, text in (("title", title), ("author", author)):
        node = tree.get(what)
        if node is not None and not (text.isprintable() and "\\" not in text and '"""' not in text):
            r.error(node.span, f"{what} must be one line of plain text", 'with no backslash and no `"""`')

    _constants(r, phases, dice, components)
    colours, icons = _drawing(r, tree.get("drawing"), {name for name, _, _ in r.values},
                              {d.name for d in dice} | {c.name for c in components})
    for ref in neutral_refs:
        _implicit(r, ref.name, ref.span)
        if re.fullmatch(r"p[0-9]+", ref.name):  # (a move's text is read whatever its case: compiler/boards.py)
            r.error(ref.span, f"a neutral seat named `{ref.name}` would be read as the player {ref.name.upper()} in a "
                    "move's text (read whatever its case)", "name it apart from P1, P2 ...")
    ruleset = ir.RuleSet(
        game=game,
        variant=variant,
        title=title,
        author=author,
        players=players,
        roles=roles,
        options=options,
        boards=boards,
        dice=dice,
        fields=fields,
        defines=tuple(defines),
        procedures=tuple(procedures),
        phases=phases,
        actions=actions,
        triggers=triggers,
        end=end,
        scoring=tuple(scoring),
        winner=winner,
        files=files,
        span=tree.span,
        enums=tuple(enum_decls),
        components=components,
        neutral=neutral,
        setup=setup,
        tie_break=tie_break,
        records=records,
        colours=colours,
        icons=icons,
        invariants=invariants,
    )
    return ruleset, r.diagnostics


def _define(r: _Reader, key: YScalar, value: YNode, entity_kinds: set[str], enums: set[str]) -> ir.Define | None:
    """One definition: `name(params): "expression"` or `{value: "expression", cached: true}`."""
    sig = r.signature(key, entity_kinds, enums)
    cached = False
    if isinstance(value, YMap):  # `{value: "...", cached: true}`
        r.keys(value, DEFINE_KEYS, f"definition `{key.value}`")
        flag = value.get("cached")
        cached = isinstance(flag, YScalar) and flag.value is True
        if flag is not None and not (isinstance(flag, YScalar) and isinstance(flag.value, bool)):
            r.error(flag.span, "`cached` must be true or false",
                    "true: the value is computed once per state and reused until the state changes")
        written = value.get("value")
        if written is None:
            r.error(value.span, f"definition `{key.value}` needs `value:`, the expression it stands for",
                    'write `name: "expression"`, or `name: {value: "expression", cached: true}`')
            return None
        value = written
    body = r.expr(value, f"definition `{key.value}`")
    if sig and body is not None:
        return ir.Define(sig[0], sig[1], body, key.span, cached)
    return None


def _score_term(r: _Reader, key: YScalar, value: YNode) -> ir.ScoreTerm | None:
    """One scoring term, an expression over `player`."""
    term = r.declared(key, "a scoring term")
    expr = r.expr(value, f"scoring term `{key.value}`")
    return ir.ScoreTerm(term, expr, key.span) if term is not None and expr is not None else None


_Versioned = TypeVar("_Versioned", ir.Define, ir.ScoreTerm)


def _with_bases(r: _Reader, section: str, newest: _Versioned, merged: Stacked | None, files: tuple[str, ...],
                make: Callable[[_Reader, YScalar, YNode], _Versioned | None], names: list[str]) -> _Versioned:
    """A definition or scoring term with the versions it replaced that `base(...)` uses, each the
    `base` of the one after it (`merged.versions`: what each replaced). `base(...)` in a version
    that replaced none is refused here, where it is known why: its file extends nothing, or adds
    the name (`names`: the section's, for a did-you-mean). (What `base(...)` says, and where it may
    be, the checker checks.)"""
    chain = merged.versions.get((section, newest.name), ()) if merged is not None else ()
    built = [newest]  # the newest first
    while True:
        call = next(base_calls(built[-1].body if isinstance(built[-1], ir.Define) else built[-1].expr), None)
        if call is None:
            break
        if len(built) > len(chain):  # uses a version, and there is none before it
            where = call.span.path
            roots = merged.roots if merged is not None else frozenset(files[:1])
            what = "definition" if section == "define" else "scoring term"
            if where in roots:
                r.error(call.span, f"`base(...)` uses the version of a {what} that a variant replaces, but {where} "
                        "extends nothing", f"`{_base_example(newest)}` belongs in a variant (a file with `extends:`) "
                        f"that redefines `{newest.name}`")
            else:
                r.error(call.span, f"`base(...)`: there is no earlier `{newest.name}` to use: {where} adds it, and "
                        f"the rule set it extends has no {what} `{newest.name}`",
                        did_you_mean(newest.name, [n for n in names if n != newest.name])
                        or f"to redefine a {what}, give it the name the rule set it extends gives it")
            break
        key, value = chain[len(chain) - len(built)]
        older = make(r, key, value)
        if older is None:  # (its problems are reported)
            break
        built.append(older)
    result = built[-1]
    for version in reversed(built[:-1]):
        result = replace(version, base=result)
    return result


def _base_example(version: ir.Define | ir.ScoreTerm) -> str:
    """`base(rent(...))`, `base(bonus)`, `base(gold)`: how `base(...)` uses it."""
    return base_use(version.name, "..." if isinstance(version, ir.Define) and version.params else None)


def _records(r: _Reader, node: YNode | None, entity_kinds: set[str], enums: set[str]) -> tuple[ir.RecordDecl, ...]:
    """`records: {leader: {owner: player, colour: colour, at: spot}}`: each record's fields and their
    types, in the order written; a record may hold the records declared before it."""
    out: list[ir.RecordDecl] = []
    for name, key, m in r.entries(node, "records", "record", "a record", None):
        fields: list[tuple[str, Ty]] = []
        for fkey, fvalue in m.items:
            field_name = r.declared(fkey, "a field of a record")
            tname = r.text(fvalue, f"the type of `{fkey.value}`")
            if field_name is None or tname is None:
                continue
            if field_name in (f for f, _ in fields):
                r.error(fkey.span, f"record `{name}` has two fields `{field_name}`")
                continue
            ty = r.type_of(tname, fvalue.span, entity_kinds, enums)
            if ty is not None:
                fields.append((field_name, ty))
        if not m.items:
            r.error(key.span, f"record `{name}` needs fields: `{name}: {{owner: player, at: spot}}`")
            continue
        if name in r.records:
            r.error(key.span, f"record `{name}` is declared twice")
            continue
        r.records[name] = record(name, tuple(fields))
        out.append(ir.RecordDecl(name, tuple(fields), key.span))
    return tuple(out)


def _constants(r: _Reader, phases: tuple[ir.Phase, ...], dice: tuple[ir.DiceKind, ...],
               components: tuple[ir.Component, ...]) -> None:
    """Refuses a value whose module constant would be the module's own public `GAME` (names.MODULE_API).
    No other can meet a name of generated code: a value in capitals never holds `__` nor starts
    with `_`, and every constant the compiler makes does one or the other (compiler/names.py).
    (Two values of one name are the checker's "declared twice".)"""
    seen: set[str] = set()
    for name, what, span in r.values:
        if name not in seen:
            seen.add(name)
            if not _implicit(r, name, span) and const_name(name) in MODULE_API:
                r.error(span, f"`{name}` is reserved: as {what} it would be written `{const_name(name)}` in generated "
                        "code, the module's own public name", "choose another name")


def _implicit(r: _Reader, name: str, span: SourceSpan) -> bool:
    """Refuses a value or seat named like a local the rules bind themselves (`player`); True if so."""
    if name in IMPLICIT:
        r.error(span, f"`{name}` is reserved: the rules use it for {IMPLICIT[name]}", "choose another name")
        return True
    return False


def _players(r: _Reader, node: YNode | None) -> tuple[int, ...]:
    if node is None:
        return (2,)
    if isinstance(node, YScalar):
        n = r.integer(node, "players")
        if n is not None and not 1 <= n <= 8:
            r.error(node.span, "players must be between 1 and 8")
        return (n,) if n is not None and 1 <= n <= 8 else (2,)
    seq = r.sequence(node, "players")
    bounds = [r.integer(n, "players") for n in seq.items] if seq else []
    if len(bounds) != 2 or bounds[0] is None or bounds[1] is None or not 1 <= bounds[0] <= bounds[1] <= 8:
        r.error(node.span, "players must be a number or [min, max] between 1 and 8")
        return (2,)
    return tuple(range(bounds[0], bounds[1] + 1))


def _options(r: _Reader, node: YNode | None) -> tuple[ir.Option, ...]:
    out: list[ir.Option] = []
    for name, key, m in r.entries(node, "options", "option", "an option", OPTION_KEYS):
        choice_refs = r.names(m.get("choices"), "a choice")
        # (the choices of option `board` are boards, not values)
        choices = r.constants(choice_refs, f"a choice of option `{name}`") if name != "board" else tuple(
            ref.name for ref in choice_refs)
        default = r.text(m.get("default"), "default")
        if not choices:
            r.error(m.span, f"option `{key.value}` needs `choices:`, a list of names")
            continue
        if default is None:
            default = choices[0]
        elif default not in choices:
            dnode = m.get("default")
            assert dnode is not None
            r.error(dnode.span, f"default `{default}` is not one of the choices ({', '.join(choices)})",
                    did_you_mean(default, choices))
        out.append(
            ir.Option(
                name, default, choices, r.text(m.get("doc"), "doc", "") or "",
                (r.text(m.get("quote"), "quote", "") or "").strip(), key.span,
            )
        )
    return tuple(out)


def _boards(r: _Reader, node: YNode | None) -> tuple[ir.Board, ...]:
    out: list[ir.Board] = []
    for board_name, key, m in r.entries(node, "boards", "board", "a board", BOARD_KEYS):
        ring = 0
        graph: tuple[str, ...] = ()
        graph_spans: tuple[SourceSpan, ...] = ()
        roads: list[tuple[str, ...]] = []
        hexmap: ir.HexMap | None = None
        wall: tuple[ir.WallPiece, ...] = ()
        side: int | None = 0
        shapes = [k for k in ("hexagon", "ring", "graph", "hexmap", "wall") if m.get(k) is not None]
        if len(shapes) > 1 and {"hexmap", "wall"} & set(shapes):
            r.error(m.key_node(shapes[1]).span,  # type: ignore[union-attr]
                    f"board `{board_name}` is both a {shapes[0]} and a {shapes[1]}", "give it one shape")
        if shapes[:1] == ["hexmap"]:
            hexmap = _hexmap(r, m.get("hexmap"))
            if hexmap is None:
                continue
        elif shapes[:1] == ["wall"]:
            wall = _wall(r, m.get("wall"))
            if not wall:
                continue
        elif m.get("graph") is not None and m.get("hexagon") is None and m.get("ring") is None:
            gm = r.mapping(m.get("graph"), "graph")
            if gm is None:
                continue
            r.keys(gm, GRAPH_KEYS, "graph")
            gseq = r.sequence(gm.get("spots"), "spots")
            graph = tuple(r.text(s, "a spot") or "?" for s in gseq.items) if gseq else ()
            graph_spans = tuple(s.span for s in gseq.items) if gseq else ()
            if not graph:
                r.error(gm.span, "a graph board needs `spots: [...]`, the names of its spots")
                continue
            for road in (r.sequence(gm.get("roads"), "roads") or YSeq((), gm.span)).items:
                path = r.sequence(road, "a road")
                if path is not None:
                    if len(path.items) < 2:
                        r.error(path.span, "a road is a path of at least two spots: [A, B, ...]")
                    roads.append(tuple(r.text(s, "a spot") or "?" for s in path.items))
        elif m.get("ring") is not None and m.get("hexagon") is None:
            ring = r.integer(m.get("ring"), "ring") or 0
            side = 0
            if not 2 <= ring <= 1000:
                r.error(m.get("ring").span,  # type: ignore[union-attr]
                        "`ring: N` needs the number of spots of the track (2 to 1000)")
                continue
        else:
            side = r.integer(m.get("hexagon"), "hexagon")
            if side is None or not 2 <= side <= 20:
                r.error(m.span if m.get("hexagon") is None else m.get("hexagon").span,  # type: ignore[union-attr]
                        "a board needs `hexagon: N` (spots along an edge, 2 to 20), `ring: N` (spots of a "
                        "track), `graph: {spots, roads}`, `hexmap: {rows, legend}` or `wall: {piece: {face: "
                        "[spots]}}`")
                continue
        board_players = None
        if m.get("players") is not None:
            counts_allowed = _players(r, m.get("players"))
            board_players = (min(counts_allowed), max(counts_allowed))
        kinds: list[ir.RegionKind] = []
        for kkey, kvalue in (r.mapping(m.get("regions"), "regions") or YMap((), m.span)).items:
            km = r.mapping(kvalue, f"region kind `{kkey.value}`")
            kind_name = r.declared(kkey, "a region kind")
            if kind_name is not None:
                r.values.append((kind_name, "a region kind", kkey.span))
            if km is None or kind_name is None:
                continue
            if km.get("mirror_of") is not None:
                r.keys(km, REGION_KIND_KEYS, f"region kind `{kkey.value}`")
                source = r.text(km.get("mirror_of"), "mirror_of")
                rename_map = r.mapping(km.get("rename"), "rename")
                rename = (tuple((str(a.value), r.text(b, "rename") or "") for a, b in rename_map.items)
                          if rename_map else ())
                kinds.append(ir.RegionKind(kind_name, (), source, rename, kkey.span))
                continue
            regions = []
            for rkey, rvalue in km.items:
                attributes: list[tuple[str, str]] = []
                if isinstance(rvalue, YMap):  # `Chu: {colour: violet, spots: [...]}`
                    for akey, avalue in rvalue.items:
                        if akey.value != "spots":
                            attr = r.declared(akey, "a region attribute")
                            value = r.name(avalue, f"attribute `{akey.value}`")
                            if attr is not None and value is not None:
                                attributes.append((attr, value.name))
                    if rvalue.get("spots") is None:
                        r.error(rvalue.span, f"region `{rkey.value}` needs `spots: [...]` beside its attributes")
                    rvalue = rvalue.get("spots") or YSeq((), rvalue.span)
                seq = r.sequence(rvalue, f"region `{rkey.value}`")
                spots = tuple(r.text(s, "a spot") or "?" for s in seq.items) if seq else ()
                regions.append(ir.Region(str(rkey.value), spots, rkey.span, tuple(attributes)))
            kinds.append(ir.RegionKind(kind_name, tuple(regions), None, (), kkey.span))
        expect = None
        em = r.mapping(m.get("expect"), "expect")
        if em is not None:
            r.keys(em, EXPECT_KEYS, "expect")
            counts = r.mapping(em.get("regions"), "regions")
            size = _bounds(r, em.get("region_size"), "region_size")
            unequal = tuple(x.name for x in r.names(em.get("no_region_equal"), "a region kind"))
            if em.get("no_region_equal") is not None and len(unequal) != 2:
                r.error(em.get("no_region_equal").span,  # type: ignore[union-attr]
                        "no_region_equal names two region kinds, e.g. [mountain, river]")
            expect = ir.BoardExpect(
                spots=r.integer(em.get("spots"), "spots"),
                regions=tuple((str(k.value), r.integer(v, "a count") or 0) for k, v in counts.items) if counts else (),
                region_size=size,
                contiguous=r.boolean(em.get("contiguous"), "contiguous"),
                cover_each_spot_once=r.boolean(em.get("cover_each_spot_once"), "cover_each_spot_once"),
                no_region_equal=unequal,
                span=(m.key_node("expect") or em).span,
                connected=r.boolean(em.get("connected"), "connected"),
                borders=tuple((str(k.value), r.integer(v, "a count") or 0)
                              for k, v in (r.mapping(em.get("borders"), "borders") or YMap((), em.span)).items),
                borders_match_roads=r.text(em.get("borders_match_roads"), "borders_match_roads"),
                attribute_counts=tuple(
                    (str(k.value), tuple((str(vk.value), r.integer(vv, "a count") or 0)
                                         for vk, vv in (r.mapping(v, "counts") or YMap((), em.span)).items))
                    for k, v in (r.mapping(em.get("attribute_counts"), "attribute_counts") or YMap((), em.span)).items
                ),
                bordering_differ=r.text(em.get("bordering_differ"), "bordering_differ"),
                pieces=r.integer(em.get("pieces"), "pieces"),
                regions_per_face=tuple((str(k.value), r.integer(v, "a count") or 0) for k, v in (
                    r.mapping(em.get("regions_per_face"), "regions_per_face") or YMap((), em.span)).items),
                face_size=_bounds(r, em.get("face_size"), "face_size"),
                largest_wall=tuple((r.integer(k, "a number of faces") or 0, r.integer(v, "a number of spaces") or 0)
                                   for k, v in (r.mapping(em.get("largest_wall"), "largest_wall")
                                                or YMap((), em.span)).items),
            )
        borders: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        for bkey, bvalue in (r.mapping(m.get("borders"), "borders") or YMap((), m.span)).items:
            pairs: list[tuple[str, str]] = []
            for pair in (r.sequence(bvalue, f"borders of `{bkey.value}`") or YSeq((), m.span)).items:
                ends = r.sequence(pair, "a border")
                names = [r.text(x, "a region") for x in ends.items] if ends is not None else []
                if len(names) != 2 or names[0] is None or names[1] is None:
                    r.error(pair.span, "a border joins two regions: [Wei, Chin]")
                    continue
                pairs.append((names[0], names[1]))
            borders.append((str(bkey.value), tuple(pairs)))
        out.append(ir.Board(board_name, side or 0, tuple(kinds), expect, key.span, ring, graph, tuple(roads),
                            tuple(borders), board_players, hexmap, wall, graph_spans))
    return tuple(out)


def _hexmap(r: _Reader, node: YNode | None) -> ir.HexMap | None:
    """`hexmap: {rows: <block of text, or a list of rows>, legend: {symbol: {attribute: value}}}`."""
    hm = r.mapping(node, "hexmap")
    if hm is None:
        return None
    r.keys(hm, HEXMAP_KEYS, "hexmap")
    rows_node = hm.get("rows")
    rows: list[str] = []
    if isinstance(rows_node, YScalar) and isinstance(rows_node.value, str):
        rows = rows_node.value.split("\n")
    elif isinstance(rows_node, YSeq):
        rows = [r.text(x, "a row of the map") or "" for x in rows_node.items]
    else:
        r.error((rows_node or hm).span, "a hex map needs `rows:`, its rows of cells as a block of text (`rows: |`) "
                "or a list of strings", "each character a cell: a symbol of the legend, a space for no cell")
        return None
    while rows and not rows[-1].strip():
        rows.pop()
    legend: list[ir.LegendEntry] = []
    lm = r.mapping(hm.get("legend"), "legend")
    if lm is None:
        r.error(hm.span, "a hex map needs `legend:`, what each symbol of its rows stands for",
                'e.g. legend: {".": {terrain: land}, "~": {terrain: river}}')
        return None
    for skey, svalue in lm.items:
        symbol = skey.value if isinstance(skey.value, str) else None
        if symbol is None or len(symbol) != 1 or symbol == " ":
            r.error(skey.span, f"a legend symbol is one character other than a space, not `{skey.value}`",
                    'quote symbols YAML reads otherwise: "~", "#", "?"')
            continue
        am = r.mapping(svalue, f"symbol `{symbol}`")
        attributes: list[tuple[str, str]] = []
        for akey, avalue in (am.items if am is not None else ()):
            attr = r.declared(akey, "a cell attribute")
            value = r.name(avalue, f"attribute `{akey.value}`")
            if attr is not None and value is not None:
                attributes.append((attr, value.name))
        legend.append(ir.LegendEntry(symbol, tuple(attributes), skey.span))
    return ir.HexMap(tuple(rows), tuple(legend), (rows_node or hm).span)



def _bounds(r: _Reader, node: YNode | None, what: str) -> tuple[int, int] | None:
    """`[min, max]`, two whole numbers (an expect's `region_size`, `face_size`)."""
    seq = r.sequence(node, what)
    if seq is None:
        return None
    bounds = [r.integer(x, what) for x in seq.items]
    if len(bounds) == 2 and bounds[0] is not None and bounds[1] is not None:
        return (bounds[0], bounds[1])
    r.error(seq.span, f"{what} must be [min, max]")
    return None


def _wall(r: _Reader, node: YNode | None) -> tuple[ir.WallPiece, ...]:
    """`wall: {piece: {face: [spots left to right], ...}, ...}`: the pieces a wall grows by."""
    pieces: list[ir.WallPiece] = []
    wm = r.mapping(node, "wall")
    for pkey, pvalue in (wm.items if wm is not None else ()):
        piece = r.declared(pkey, "a wall piece")
        pm = r.mapping(pvalue, f"wall piece `{pkey.value}`")
        if piece is None or pm is None:
            continue
        r.values.append((piece, "a wall piece", pkey.span))
        faces: list[ir.WallFace] = []
        for fkey, fvalue in pm.items:
            face = r.declared(fkey, "a face of a wall piece")
            seq = r.sequence(fvalue, f"face `{fkey.value}`")
            if face is None or seq is None:
                continue
            r.values.append((face, "a face of a wall piece", fkey.span))
            spots = tuple(r.text(s, "a spot") or "?" for s in seq.items)
            if not spots:
                r.error(fkey.span, f"face `{face}` needs its spaces, left to right: [{face}1, {face}2, ...]")
                continue
            faces.append(ir.WallFace(face, spots, fkey.span))
        if not faces:
            r.error(pkey.span, f"wall piece `{piece}` needs faces: {{front: [spots], back: [spots]}}")
            continue
        pieces.append(ir.WallPiece(piece, tuple(faces), pkey.span))
    if not pieces and wm is not None:
        r.error(wm.span, "a wall needs pieces: {piece: {face: [spots left to right]}}")
    return tuple(pieces)


COMPONENT_KEYS = ("count", "all", "attributes", "doc")


def _components(r: _Reader, node: YNode | None) -> tuple[ir.Component, ...]:
    out: list[ir.Component] = []
    total = values = 0  # components of every kind so far, and their attribute values
    for name, key, m in r.entries(node, "components", "component", "a component", COMPONENT_KEYS):
        count = r.integer(m.get("count"), "count")
        if count is None or not 1 <= count <= MAX_COMPONENTS:
            r.error(m.span if m.get("count") is None else m.get("count").span,  # type: ignore[union-attr]
                    f"component `{name}` needs `count: N`, how many there are (1 to {MAX_COMPONENTS})")
            continue
        total += count
        if total > MAX_COMPONENTS:
            r.error(m.get("count").span,  # type: ignore[union-attr]
                    f"component `{name}` makes {total:,} components of every kind, more than the limit of "
                    f"{MAX_COMPONENTS:,} components", "every state holds a value per component of each field per "
                    "component: their number is bounded (docs/language.md, \"Limits\")")
            continue
        all_ref = r.name(m.get("all"), "all") if m.get("all") is not None else None
        attributes: list[ir.Attribute] = []
        for akey, avalue in (r.mapping(m.get("attributes"), "attributes") or YMap((), m.span)).items:
            attr = r.declared(akey, "an attribute")
            expr = r.expr(avalue, f"attribute `{akey.value}`")
            if attr is not None and expr is not None:
                attributes.append(ir.Attribute(attr, expr, akey.span))
        values += count * len(attributes)
        if values > MAX_ATTRIBUTE_VALUES:
            r.error(key.span, f"component `{name}` makes {values:,} attribute values of components (their number "
                    f"times their attributes, over every kind), more than the limit of {MAX_ATTRIBUTE_VALUES:,}",
                    "each is computed as the rules are loaded (docs/language.md, \"Limits\")")
            continue
        out.append(ir.Component(name, count, all_ref.name if all_ref else None, tuple(attributes), key.span,
                                all_ref.span if all_ref else None))
    return tuple(out)


def _dice(r: _Reader, node: YNode | None) -> tuple[ir.DiceKind, ...]:
    out: list[ir.DiceKind] = []
    for kind_name, key, m in r.entries(node, "dice", "dice", "a dice kind", None):
        dice: list[ir.Die] = []
        for dkey, dvalue in m.items:
            die_name = r.declared(dkey, "a die")
            seq = r.sequence(dvalue, f"die `{dkey.value}`")
            faces = tuple(f for f in (r.integer(x, "a face") for x in seq.items) if f is not None) if seq else ()
            if not faces:
                r.error(dkey.span, f"die `{dkey.value}` needs a list of faces, e.g. [0, 1]")
                continue
            if die_name is not None:
                dice.append(ir.Die(die_name, faces, dkey.span))
                r.values.append((die_name, "a die", dkey.span))
        out.append(ir.DiceKind(kind_name, tuple(dice), key.span))
    return tuple(out)


def _fields(r: _Reader, state: YMap, entity_kinds: set[str], enums: set[str]) -> tuple[ir.Field, ...]:
    out: list[ir.Field] = []
    for key, value in state.items:
        m = r.mapping(value, f"field `{key.value}`")
        declared = r.declared(key, "a field")
        if m is None or declared is None:
            continue
        name = declared
        r.keys(m, FIELD_KEYS, f"field `{name}`")
        per_ref = r.name(m.get("per"), "per") if m.get("per") is not None else None
        per = per_ref.name if per_ref else None
        if per_ref is not None and per not in entity_kinds:
            r.error(per_ref.span, f"unknown kind `{per}` for `per:`", did_you_mean(per or "", entity_kinds))
            per = None
        values = (r.constants(r.names(m.get("values"), "a value"), f"a value of field `{name}`")
                  if m.get("values") is not None else ())
        ty: Ty | str
        if values:
            ty = Ty("enum", name)
            if m.get("type") is not None:
                r.error(m.get("type").span, "a field with `values:` has no `type:`")  # type: ignore[union-attr]
        else:
            type_node = m.get("type")
            tname = r.text(type_node, "type")
            if tname is None:
                r.error(key.span, f"field `{name}` needs `type:` or `values:`")
                continue
            assert type_node is not None
            # (a field of an unknown type is kept as `any`, so that its uses raise no more errors)
            ty = r.type_of(tname, type_node.span, entity_kinds, enums) or ANY
        init = r.expr(m.get("init"), "init")
        if init is None:
            if m.get("init") is None:
                r.error(key.span, f"field `{name}` needs `init:`, its value at setup")
            continue
        vnode_ = m.get("visible")
        visible_to = None
        if isinstance(vnode_, YMap):  # `visible: {to: <player over k>}`: entry or item k seen by that player only
            r.keys(vnode_, VISIBLE_TO_KEYS, "`visible:`")
            visible = "to"
            visible_to = r.expr(vnode_.get("to"), "visible: to") if vnode_.get("to") is not None else None
            if vnode_.get("to") is None and not vnode_.items:  # (another key is refused as unknown)
                r.error(vnode_.span, "`visible: {to: ...}` needs `to:`, the player (over k) who sees entry or item k")
            elif per == "player" or (per is None and ty.kind != "list"):
                r.error(vnode_.span, "`visible: {to: ...}` is for a per-spot, per-region or per-die field, or the "
                        "items of a list field: entry or item k is seen by the player `to` names",
                        "a per-player field seen by its own player is `visible: owner`" if per == "player"
                        else "use `visible: none` to hide it from every player")
        else:
            visible = r.text(vnode_, "visible", "all") or "all"
        if visible == "to":
            pass
        elif visible not in VISIBILITY:
            vnode = m.get("visible")
            assert vnode is not None
            r.error(vnode.span, f"visible must be one of {', '.join(VISIBILITY)}", did_you_mean(visible, VISIBILITY))
        elif visible == "size" and (per is not None or ty.kind not in ("list", "set")):
            vnode = m.get("visible")
            assert vnode is not None
            r.error(vnode.span, "`visible: size` is for a list or set field (not per entity): a face-down pile",
                    "everyone sees how many items it holds, nobody which")
        elif visible == "owner" and per != "player" and (per_ref is None or per in entity_kinds):
            # (anything but a per-player field has no owner: refused, never shown to everyone)
            vnode = m.get("visible")
            assert vnode is not None
            whose = "a field with no `per:`" if per_ref is None else f"a per-{per} field"
            r.error(vnode.span, f"`visible: owner` is for a per-player field (`per: player`): {whose} has no owner",
                    "use `visible: none` to hide it from every player, or `per: player` to give each player his own"
                    if per_ref is None else "use `visible: none` to hide it from every player, or "
                    "`visible: {to: <a player over k>}` to show entry k to that player only")
        if m.get("shown_if") is not None and visible == "all":
            r.error(m.get("shown_if").span,  # type: ignore[union-attr]
                    f"`shown_if` shows a hidden field to everyone, but field `{name}` is `visible: all`: seen already",
                    "give the field `visible: owner`, `none` or `size`, or drop `shown_if`")
        if m.get("hide_items_if") is not None and visible in ("none", "size") and m.get("shown_if") is None:
            r.error(m.get("hide_items_if").span,  # type: ignore[union-attr]
                    f"`hide_items_if` hides items of a field players see, but field `{name}` is `visible: {visible}`: "
                    "nobody sees its items", "drop `hide_items_if`, or give the field `shown_if` (when it is shown)")
        shown_if = r.expr(m.get("shown_if"), "shown_if") if m.get("shown_if") is not None else None
        hide_items_if = r.expr(m.get("hide_items_if"), "hide_items_if") if m.get("hide_items_if") is not None else None
        pool = ""
        pool_node = m.get("pool")
        if pool_node is not None:  # (which unseen items are drawn again together: runtime/unseen.py)
            pool_ref = r.name(pool_node, "pool")
            pool = pool_ref.name if pool_ref is not None else ""
            if pool and (values or ty.kind not in ("list", "set")):
                r.error(pool_node.span, f"`pool:` names the pool of the items of a list or set field, but field "
                        f"`{name}` holds no items", "drop `pool:`")
        out.append(ir.Field(name, per, ty, values, init, visible, r.text(m.get("doc"), "doc", "") or "", key.span,
                            shown_if, hide_items_if, visible_to, pool))
    return tuple(out)


def _phases(r: _Reader, node: YNode | None) -> tuple[ir.Phase, ...]:
    out: list[ir.Phase] = []
    for phase_name, key, m in r.entries(node, "phases", "phase", "a phase", PHASE_KEYS):
        stuck = r.text(m.get("when_stuck"), "when_stuck", "pass") or "pass"
        if stuck not in WHEN_STUCK:
            node_ = m.get("when_stuck")
            assert node_ is not None
            r.error(node_.span, "when_stuck must be `pass` (the turn passes) or `end` (the game ends)")
        then = r.name(m.get("then"), "then") if m.get("then") is not None else None
        actor = r.expr(m.get("actor"), "actor") if m.get("actor") is not None else None
        out.append(ir.Phase(phase_name, r.block(m.get("start"), "start"), r.names(m.get("actions"), "an action"),
                            stuck, then, key.span, actor))
    return tuple(out)


def _actions(r: _Reader, node: YNode | None) -> tuple[ir.Action, ...]:
    out: list[ir.Action] = []
    for name, key, m in r.entries(node, "actions", "action", "an action", ACTION_KEYS):
        choices: list[ir.Choice] = []
        for ckey, cvalue in (r.mapping(m.get("choose"), "choose") or YMap((), m.span)).items:
            choice = r.declared(ckey, "a choice")
            domain = r.expr(cvalue, f"choice `{ckey.value}`")
            if choice is not None and domain is not None:
                choices.append(ir.Choice(choice, domain, ckey.span))
        text = r.text(m.get("text"), "text", name.replace("_", " ")) or name
        others_node = m.get("others_text")
        others = r.text(others_node, "others_text") if others_node is not None else None
        out.append(ir.Action(name, tuple(choices), r.expr(m.get("when"), "when"), text,
                             r.block(m.get("effect"), "effect"), key.span, others,
                             others_node.span if others_node is not None else None,
                             r.expr(m.get("revealed_when"), "revealed_when")))
    return tuple(out)


def _triggers(r: _Reader, node: YNode | None) -> tuple[ir.Trigger, ...]:
    out: list[ir.Trigger] = []
    for trigger_name, key, m in r.entries(node, "triggers", "trigger", "a trigger", TRIGGER_KEYS):
        after = r.names(m.get("after"), "an action") if m.get("after") is not None else ()
        at = r.text(m.get("at"), "at")
        if at is not None and at not in TRIGGER_MOMENTS:
            anode = m.get("at")
            assert anode is not None
            r.error(anode.span, f"unknown moment `{at}`", "triggers run `after: [actions]` or `at: turn_end`")
        if not after and at is None:
            r.error(key.span, f"trigger `{key.value}` needs `after: [actions]` or `at: turn_end`")
        out.append(ir.Trigger(trigger_name, after, at, r.expr(m.get("when"), "when"),
                              r.block(m.get("effect"), "effect"), key.span))
    return tuple(out)


def _invariants(r: _Reader, node: YNode | None) -> tuple[ir.Invariant, ...]:
    """`invariants: {name: "condition"}`, or `{name: {holds: "condition", doc: ..., quote: ...}}`:
    conditions every position of the game holds (docs/scenarios.md, "Invariants")."""
    out: list[ir.Invariant] = []
    mapping = r.mapping(node, "invariants")
    for key, value in mapping.items if mapping is not None else ():
        name = r.declared(key, "an invariant")
        doc = ""
        if isinstance(value, YMap):
            r.keys(value, INVARIANT_KEYS, f"invariant `{key.value}`")
            doc = r.text(value.get("doc"), "doc", "") or ""
            held = value.get("holds")
            if held is None:
                r.error(value.span, f"invariant `{key.value}` needs `holds:`, the condition every position holds")
                continue
            value = held
        expr = r.expr(value, f"invariant `{key.value}`")
        if name is not None and expr is not None:
            out.append(ir.Invariant(name, expr, doc, key.span))
    return tuple(out)


def _drawing(r: _Reader, node: YNode | None, values: set[str], kinds: set[str]
             ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """`drawing:`, the rule file's presentation hints, checked: `colours:` a colour (`#rrggbb`,
    `#rgb` or a name of DRAWING_COLOURS) per value of the rule set; `icons:` one or two
    characters per component or dice kind. Only names and checked texts reach the module."""
    m = r.mapping(node, "`drawing:`")
    if m is None:
        return (), ()
    r.keys(m, DRAWING_KEYS, "`drawing:`")
    colours: list[tuple[str, str]] = []
    icons: list[tuple[str, str]] = []
    for key, value in (r.mapping(m.get("colours"), "`drawing: colours:`") or YMap((), m.span)).items:
        name = str(key.value)
        colour = r.text(value, f"the colour of `{name}`")
        if name not in values:
            r.error(key.span, f"`drawing: colours:` names `{name}`, which is no value of the rule set",
                    did_you_mean(name, sorted(values)) or "a colour is given to a value of an enumeration")
        elif colour is not None and not (_HEX_COLOUR.fullmatch(colour) or colour in DRAWING_COLOURS):
            r.error(value.span, f"`{colour}` is not a colour",
                    f"write #rrggbb, #rgb or one of {', '.join(DRAWING_COLOURS)}")
        elif colour is not None:
            colours.append((name, colour.lower()))
    for key, value in (r.mapping(m.get("icons"), "`drawing: icons:`") or YMap((), m.span)).items:
        name = str(key.value)
        icon = r.text(value, f"the icon of `{name}`")
        if name not in kinds:
            r.error(key.span, f"`drawing: icons:` names `{name}`, which is no component or dice kind",
                    did_you_mean(name, sorted(kinds)) or "an icon is given to a kind of components or dice")
        elif icon is not None and not (1 <= len(icon) <= 2 and icon.isprintable() and not icon.isspace()
                                       and " " not in icon):
            r.error(value.span, f"the icon of `{name}` must be one or two characters, not `{icon}`")
        elif icon is not None:
            icons.append((name, icon))
    return tuple(colours), tuple(icons)
