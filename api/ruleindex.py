"""What `rulewright lsp` knows of a rule file or a scenario file being edited (api/lsp.py serves it).

`analyse(path, text, unsaved)` reads one file as the editor holds it (`unsaved`: the texts of
every file open in the editor, by real path, read instead of the disk, so a variant is checked
against its base as the base is being edited) and gives an `Analysis`: its problems, found by
the very functions `rulewright check` and `rulewright scenario` use (`driver.analyse`,
`scenarios.load_file`), and an index of what the rule set names: every definition, action,
phase, trigger, scoring term, option, field, enumeration and its values, component, record,
board, region, spot and built-in, each with its signature (api/explain.py's catalogue), type
(the checker's), doc, rulebook quote and the rule file that declares it, and which files of
an `extends:` chain write it; and each version of a definition or scoring term that `base(...)`
in a variant's new one uses (docs/variants.md), with where it is written.

Positions are 0-based lines and columns counted in characters; api/lsp.py converts them to the
client's units. What may be written where comes from the JSON Schemas made from the checker's
own tables of keys (compiler/schema.py) and from the index.

A rule file stays data here: nothing in it runs. A scenario file's rule set is compiled and its
game loaded, as `rulewright scenario` does to check a scenario's position and steps (generated
code holds text from a rule file only as a checked name or through repr; docs/security.md), but
no scenario is played.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, is_dataclass
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from .compiler import driver, ir
from .compiler import typed as t
from .compiler.build.keys import LOOK_COLOURS
from .compiler.builtins import AGGREGATES, BUILTINS, VALUES
from .compiler.check import check_partial
from .compiler.merge import key_name
from .compiler.names import BASE, base_use, base_version
from .compiler.resolve import bundled_ids
from .compiler.schema import rule_schema, scenario_schema
from .compiler.typed import Symbol
from .compiler.types import Ty
from .core.files import MAX_RULE_FILE_BYTES, NotARuleFile, read_file_safely
from .core.load import LoadError, YMap, YNode, YScalar, YSeq, load, unsaved
from .core.paths import checkout_root, display, is_ruleset_id, rules_dir, ruleset_file
from .core.source import CompileError, Diagnostic, SourceSpan
from .explain import catalogue, define_signature, score_signature

Schema = dict[str, Any]

# The sections of a rule file that name their entries, the kind of entry each holds (as
# api/explain.py names kinds), and the kind of symbol an outline shows it as (api/lsp.py).
SECTIONS: dict[str, str] = {
    "options": "option", "enums": "enum", "components": "component", "records": "record", "state": "field",
    "define": "definition", "procedures": "procedure", "phases": "phase", "actions": "action",
    "triggers": "trigger", "scoring": "scoring", "invariants": "invariant", "boards": "board", "dice": "dice",
}
# Words of the rule language that are no names (grammar/rules.lark), offered where an expression
# or an effect is written.
KEYWORDS = ("and", "or", "not", "in", "if", "elif", "else", "for", "let", "goto", "end_turn", "pass", "tell", "ask",
            "to", "choose", "true", "false", "none",
            "while", "break", "continue")
# The kinds of entity a field may be kept per, besides the dice kinds of the rule set.
ENTITY_KINDS = ("player", "spot", "region", "border")
# The keys whose values are prose, not names.
PROSE = frozenset({"doc", "quote", "title", "author", "note"})
# The words of the language that name a type (docs/language.md, "Types").
TYPE_WORDS = frozenset({"int", "bool", "str", "player", "spot", "region", "border", "role", "regionkind", "auction",
                        "wallpiece", "wallface", "list", "set", "optional"})
# The plain types a field or parameter may have, besides enumerations, records and entity kinds.
PLAIN_TYPES = ("int", "bool", "str", "auction", "list(int)", "set(int)", "optional(int)")

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]|$)")
_SCENARIO_RULESET = re.compile(r"ruleset[ \t]*:[ \t]*['\"]?([^'\"#\s]+)")


# -- positions ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Place:
    """A region of a file: 0-based lines and character columns, the end exclusive."""

    path: Path
    line: int
    col: int
    end_line: int
    end_col: int


def _place(span: SourceSpan, path: Path) -> Place:
    line, col = max(span.line - 1, 0), max(span.col - 1, 0)
    end_line, end_col = max(span.end_line - 1, 0), max(span.end_col - 1, 0)
    if (end_line, end_col) <= (line, col):
        end_line, end_col = line, col + 1
    return Place(path, line, col, end_line, end_col)


def _contains(span: SourceSpan, line: int, col: int) -> bool:
    """Whether the 0-based position lies in `span` (its end counted in: a word's last letter)."""
    return (span.line - 1, span.col - 1) <= (line, col) <= (span.end_line - 1, span.end_col - 1)


def _size(span: SourceSpan) -> tuple[int, int]:
    return span.end_line - span.line, span.end_col - span.col if span.end_line == span.line else 1 << 30


def word_at(text: str, line: int, col: int) -> tuple[str, int, int] | None:
    """The name (letters, digits, `_`) at or just before the position: it, its start and end column."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    row = lines[line]
    for m in _WORD.finditer(row):
        if m.start() <= col <= m.end():
            return m.group(), m.start(), m.end()
    return None


# -- what the file is ----------------------------------------------------------------------------
def kind_of(path: Path, text: str) -> str | None:
    """`rules` for a rule file, `scenarios` for a scenario file, None for any other YAML: told by
    its top-level keys (read line by line, so a file half typed is told too), else by its place
    (rules/<game>/)."""
    keys = {m.group(1) for line in text.split("\n")[:2000] if (m := _TOP_KEY.match(line))}
    if "scenarios" in keys:
        return "scenarios"
    if keys & {"game", "extends", "rulewright"}:
        return "rules"
    try:
        if path.resolve().parent.parent == rules_dir().resolve():
            return "rules"
    except OSError:
        pass
    return "scenarios" if "ruleset" in keys else None


# -- the index -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Def:
    """One thing a rule set names."""

    kind: str  # option, enum, value, component, field, definition, procedure, phase, action, ...
    name: str
    span: SourceSpan | None  # where it is declared (for a variant: by the file that last set it)
    signature: str = ""
    type: str = ""
    doc: str = ""
    quote: str = ""
    section: str = ""  # the rule file's key that holds it (`actions`), when a variant can change it
    # a version of a definition or scoring term that a variant replaced, which `base(...)` in the
    # new one uses: how it is named there (`base(most(...))`); `span` is where that version is written
    version: str = ""


@dataclass(frozen=True, slots=True)
class Written:
    """A file of an `extends:` chain that writes an entry: declares, changes or removes it."""

    file: str  # as shown
    span: SourceSpan
    removed: bool


@dataclass(frozen=True, slots=True)
class Problem:
    """A diagnostic of the file analysed, where it is shown in that file; `elsewhere`: the file and
    place of a problem in another file (a base), shown at this file's `extends:` (or `ruleset:`)."""

    place: Place
    message: str
    hint: str | None
    severity: str
    elsewhere: Place | None = None
    diagnostic: Diagnostic | None = None


@dataclass
class Analysis:
    path: Path  # the file, absolute
    shown: str  # as messages show it
    text: str
    kind: str | None
    problems: list[Problem] = field(default_factory=list)
    tree: YMap | None = None  # this file's own YAML, when it parses
    files: dict[str, Path] = field(default_factory=dict)  # every file read (as shown -> path)
    texts: dict[Path, str] = field(default_factory=dict)  # ... and the text each was read as
    layers: list[tuple[str, YMap]] = field(default_factory=list)  # each rule file's own keys, base first
    ruleset: ir.RuleSet | None = None
    program: t.TypedProgram | None = None  # typed, even with problems elsewhere in the rules
    defs: dict[str, list[Def]] = field(default_factory=dict)  # name -> what it names
    # the versions `base(...)` uses (docs/variants.md), by their methods (`_base_most`, `_term_base_gold`)
    versions: dict[str, Def] = field(default_factory=dict)
    rules: Analysis | None = None  # a scenario file: the analysis of the rule set it names
    scenario_rules: dict[str, Analysis] = field(default_factory=dict)  # ... and of those its scenarios name
    # the nodes of the typed program written in this file that name something, by the lines their
    # spans cover (0-based; a span of more than WIDE lines under `wide`), and those that bind or
    # read a local, by its name: what a hover looks at, without walking the whole program
    by_line: dict[int, list[object]] = field(default_factory=dict)
    wide: list[object] = field(default_factory=list)
    by_local: dict[str, list[tuple[SourceSpan, Symbol]]] = field(default_factory=dict)

    @property
    def depends(self) -> set[str]:
        """The real paths of every file read: a change to one of them changes this analysis."""
        found = {os.path.realpath(p) for p in self.files.values()} | {os.path.realpath(self.path)}
        for other in ([self.rules] if self.rules is not None else []) + list(self.scenario_rules.values()):
            found |= other.depends
        return found


def analyse(path: Path, text: str, texts: Mapping[str, str], rules_cache: dict[Path, Analysis] | None = None
            ) -> Analysis:
    """The file `path` as the editor holds it (`text`), every file open in the editor read from
    `texts` (real path -> text). `rules_cache` keeps the analyses of the rule sets scenario files
    name, by rule file (its caller empties it when any file changes)."""
    path = Path(os.path.abspath(path))
    a = Analysis(path, display(path), text.replace("\r\n", "\n").replace("\r", "\n"), kind_of(path, text))
    a.files[a.shown] = path
    a.texts[path] = a.text
    texts = {**texts, os.path.realpath(path): text}
    with unsaved(texts):
        if a.kind == "rules":
            _analyse_rules(a)
        elif a.kind == "scenarios":
            _analyse_scenarios(a, texts, {} if rules_cache is None else rules_cache)
    _index_places(a)
    return a


# A file being edited is read as YAML for a view on the last index (`on_last_index`) up to this
# many characters (0.05 s or so); a larger one waits for its check (1 MiB of YAML takes a second).
VIEW_TREE_CHARS = 64 * 1024


def on_last_index(path: Path, text: str, last: Analysis | None) -> Analysis:
    """A view of `text` (the file as the editor holds it, not checked yet) on `last`, an analysis
    of an earlier text of it: at once, whatever the size of the file. Its names, types, signatures
    and docs are the last analysis's, where they are declared its places (in this file they may
    have moved since); nothing is looked up by a place of the program in this file (`by_line`
    and `by_local` are empty), so a hover names what a word names in the rule set, not what it
    meant where it was; its YAML is read if it is small (keys, outline), else it has none. The
    checker's problems are not in it: they come with the check."""
    path = Path(os.path.abspath(path))
    a = Analysis(path, display(path), text.replace("\r\n", "\n").replace("\r", "\n"), kind_of(path, text))
    if len(a.text) <= VIEW_TREE_CHARS:
        _own_tree(a)
    if last is not None:
        a.files, a.texts, a.layers = dict(last.files), dict(last.texts), last.layers
        a.ruleset, a.program, a.defs, a.versions = last.ruleset, last.program, last.defs, last.versions
        a.rules, a.scenario_rules = last.rules, last.scenario_rules
    a.files[a.shown] = path
    a.texts[path] = a.text
    return a


# A node whose span covers more lines than this is looked at for any line (a block: an `ask`,
# a `for`), not listed under each: the index stays linear in the file.
WIDE = 64


def _index_places(a: Analysis) -> None:
    """`a.by_line`, `a.wide` and `a.by_local`, from one walk of the program."""
    for node in _candidates(a):
        span, named = _spans_of(node), _named_by(node)
        if span is None or named is None or span.path != a.shown:
            continue
        if named[1] is not None:
            a.by_local.setdefault(named[0], []).append((span, named[1]))
        if span.end_line - span.line >= WIDE:
            a.wide.append(node)
            continue
        for line in range(span.line - 1, span.end_line):
            a.by_line.setdefault(line, []).append(node)


def _own_tree(a: Analysis) -> None:
    if len(a.text.encode("utf-8", "surrogatepass")) > MAX_RULE_FILE_BYTES:
        return
    try:
        a.tree = load(a.shown, a.text)
    except LoadError:
        a.tree = None


def _analyse_rules(a: Analysis) -> None:
    _own_tree(a)
    _, diagnostics, _ = driver.analyse(a.path)  # what `rulewright check` says, as it says it
    try:
        resolved, ruleset, _ = driver.build(a.path)
    except CompileError:
        resolved, ruleset = None, None
    if resolved is not None:
        for f, text in zip(resolved.files, resolved.texts, strict=False):
            shown = display(f)
            a.files[shown] = Path(os.path.abspath(f))
            a.texts[a.files[shown]] = text
            try:
                a.layers.append((shown, load(shown, text)))
            except LoadError:
                pass
    a.problems = [_problem(a, d) for d in diagnostics]
    if ruleset is not None:
        a.ruleset = ruleset
        a.program, symbols = _typed(ruleset)
        a.defs = _index(ruleset, a.program, symbols, resolved.tree if resolved is not None else None)
        a.versions = _versions(ruleset, a.program)


def _typed(ruleset: ir.RuleSet) -> tuple[t.TypedProgram | None, dict[str, Symbol]]:
    """The typed program and the global names of a rule set, as the checker sees them, even while
    the rules have a problem (a file being edited has one most of the time): its problems are
    ignored here, driver.analyse reports them."""
    checked = check_partial(ruleset)
    return checked.program, checked.names


def _problem(a: Analysis, d: Diagnostic, at: YNode | None = None) -> Problem:
    """A diagnostic shown in `a`'s file: where it is, or, for one in another file, at `at` (the
    node naming that file), else at the top of the file."""
    if d.span.path == a.shown:
        return Problem(_place(d.span, a.path), d.message, d.hint, d.severity, diagnostic=d)
    other = file_of(d.span.path, a.files)
    if other is not None:  # (a base that does not load: mending it changes this file's problems)
        a.files.setdefault(d.span.path, other)
    if at is None and a.tree is not None:
        at = a.tree.get("extends") or a.tree.get("ruleset")
    where = _place(at.span, a.path) if at is not None else Place(a.path, 0, 0, 0, 1)
    elsewhere = _place(d.span, other) if other is not None else None
    return Problem(where, f"{d.span}: {d.message}", d.hint, d.severity, elsewhere, d)


def file_of(shown: str, files: Mapping[str, Path]) -> Path | None:
    """The file a span's path names (as `display` shows it)."""
    if shown in files:
        return files[shown]
    candidates = [Path(shown)] if os.path.isabs(shown) else [Path.cwd() / shown]
    root = checkout_root()
    if root is not None and not os.path.isabs(shown):
        candidates.append(root / shown)
    for c in candidates:
        if c.is_file():
            return Path(os.path.abspath(c))
    return None


def _doc_of(tree: YMap | None, section: str, name: str, key: str) -> str:
    node = tree.get(section) if tree is not None else None
    if not isinstance(node, YMap):
        return ""
    for k, v in node.items:
        if key_name((section,), str(k.value)) == name and isinstance(v, YMap):
            value = v.get(key)
            return str(value.value).strip() if isinstance(value, YScalar) and value.value is not None else ""
    return ""


def _index(rs: ir.RuleSet, program: t.TypedProgram | None, symbols: dict[str, Symbol], tree: YMap | None
           ) -> dict[str, list[Def]]:
    """Every name of the rule set, and what it names."""
    returns = {d.name: d.ty for d in program.defines} if program is not None else {}
    entries = {(e.kind, e.name): e for e in catalogue(rs, tree, returns)}
    out: dict[str, list[Def]] = {}

    def add(d: Def) -> None:
        out.setdefault(d.name, []).append(d)

    def component(kind: str, section: str, name: str, span: SourceSpan, ty: str = "", doc: str = "",
                  quote: str = "") -> None:
        e = entries.get((kind, name))
        add(Def(kind, name, span, e.signature if e else name, ty, doc or (e.doc if e else ""), quote, section))

    for o in rs.options:
        component("option", "options", o.name, o.span, o.name, o.doc.strip(), o.quote.strip())
    for en in rs.enums:
        component("enum", "enums", en.name, en.span, f"list({en.name})")
    for c in rs.components:
        component("component", "components", c.name, c.span)
    for r in rs.records:
        add(Def("record", r.name, r.span, f"{r.name}({', '.join(f'{n}: {ty}' for n, ty in r.fields)})", r.name,
                section="records"))
    for f in rs.fields:
        component("field", "state", f.name, f.span, str(f.type) + (f" per {f.per}" if f.per else ""))
    for d in rs.defines:
        component("definition", "define", d.name, d.span, str(returns[d.name]) if d.name in returns else "")
    for p in rs.procedures:
        component("procedure", "procedures", p.name, p.span)
    for ph in rs.phases:
        component("phase", "phases", ph.name, ph.span)
    for ac in rs.actions:
        component("action", "actions", ac.name, ac.span)
    for tr in rs.triggers:
        component("trigger", "triggers", tr.name, tr.span)
    for s in rs.scoring:
        component("scoring", "scoring", s.name, s.span, "int")
    for inv in rs.invariants:
        component("invariant", "invariants", inv.name, inv.span, "bool", inv.doc.strip(),
                  _doc_of(tree, "invariants", inv.name, "quote"))
    for b in rs.boards:
        add(Def("board", b.name, b.span, f"board {b.name}: {len(board_spots(b))} spots", section="boards"))
        for kind in b.region_kinds:
            for region in kind.regions:
                add(Def("region", region.name, region.span, f"{region.name}: {', '.join(region.spots)}",
                        f"region ({kind.name})"))
        for spot in board_spots(b):
            add(Def("spot", spot, b.span, f"spot {spot} of board {b.name}", "spot"))
    for dk in rs.dice:
        component("dice", "dice", dk.name, dk.span)
    named = {name for name, defs in out.items() for d in defs if d.kind not in ("region", "board")}
    for name, sym in symbols.items():  # enumeration values, seats, dice, lists of all values ...
        if name in named or name in VALUES:  # (the language's own values are built-ins)
            continue
        what = {"const": "value", "value": "list", "option": "option", "field": "field", "perfield": "field"}
        add(Def(what.get(sym.kind, sym.kind), name, sym.span, f"{name}: {sym.ty}", str(sym.ty),
                _value_doc(sym)))
    return out


def _versions(rs: ir.RuleSet, program: t.TypedProgram | None) -> dict[str, Def]:
    """Each version of a definition or scoring term that `base(...)` uses, by its method: the
    version the rule set's own replaced (`_base_most`), the one that one uses (`_base2_most`) ..."""
    returns = {d.name: d.ty for d in program.defines} if program is not None else {}
    out: dict[str, Def] = {}
    for section, kind, newest in [("define", "definition", d) for d in rs.defines] + \
            [("scoring", "scoring", s) for s in rs.scoring]:
        version, depth = newest.base, 1
        while version is not None:
            method = base_version(section, newest.name, depth)
            used = base_use(newest.name, "..." if isinstance(version, ir.Define) and version.params else None)
            # (a version that uses the one before it in turn says which)
            doc = f"Its own `{used}` is the version at `{version.base.span.short}`." if version.base else ""
            if isinstance(version, ir.Define):
                ty = returns.get(method)
                out[method] = Def(kind, newest.name, version.span, define_signature(version, ty), str(ty or ""),
                                  doc, version=used)
            else:
                out[method] = Def(kind, newest.name, version.span, score_signature(version), "int", doc, version=used)
            version, depth = version.base, depth + 1
    return out


def _value_doc(sym: Symbol) -> str:
    if sym.kind == "const" and sym.ty.kind == "enum":
        return f"a value of `{sym.ty.name}`"
    if sym.kind == "const" and sym.ty.kind == "entity":
        return f"a {sym.ty.name}"
    if sym.kind == "value" and sym.ty.elem is not None:
        return f"every {sym.ty.elem}"
    return ""


def board_spots(b: ir.Board) -> list[str]:
    """The names of a board's spots, as the runtime names them."""
    from .runtime.boards import grid_cells, hex_labels, hexmap_cells

    if b.hexagon:
        return list(hex_labels(b.hexagon).values())
    if b.ring:
        return [str(i + 1) for i in range(b.ring)]
    if b.graph:
        return list(b.graph)
    if b.hexmap is not None:
        return [label for label, _, _, _ in hexmap_cells(b.hexmap.rows)[0]]
    if b.grid is not None:
        return [label for label, _, _, _ in grid_cells(b.grid.rows, b.grid.columns, b.grid.text)[0]]
    return [s for piece in b.wall for face in piece.faces for s in face.spots]


def written(a: Analysis, section: str, name: str) -> list[Written]:
    """Each file of the chain that writes `section.name`, base first."""
    out: list[Written] = []
    for shown, tree in a.layers:
        node = tree.get(section)
        if not isinstance(node, YMap):
            continue
        for k, v in node.items:
            if key_name((section,), str(k.value)) == name:
                out.append(Written(shown, k.span, isinstance(v, YScalar) and v.value is None and len(a.layers) > 1))
    return out


# -- scenario files --------------------------------------------------------------------------------
def _analyse_scenarios(a: Analysis, texts: Mapping[str, str], cache: dict[Path, Analysis]) -> None:
    from .scenarios import load_file

    _own_tree(a)
    _, diagnostics = load_file(a.path, _ScenarioLoader(texts))  # what `rulewright scenario` says of it
    a.rules = scenario_rules(a, None, texts, cache)
    block = a.tree.get("scenarios") if a.tree is not None else None
    for k, v in block.items if isinstance(block, YMap) else ():
        if isinstance(v, YMap) and v.get("ruleset") is not None:
            own = scenario_rules(a, str(k.value), texts, cache)
            if own is not None:
                a.scenario_rules[str(k.value)] = own
    for rules in [a.rules, *a.scenario_rules.values()]:
        if rules is not None:
            a.files.update(rules.files)
            a.texts.update(rules.texts)
    a.problems = [_problem(a, d) for d in diagnostics]


class _ScenarioLoader:
    """The game a scenario names, as `scenarios.default_loader` loads it, except that a rule set
    whose files are open in the editor is compiled from them as they are there."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts

    def __call__(self, ruleset: str, here: Path) -> Any:
        from .loading import game_from_source, load_named

        path = rule_file_named(ruleset, here)
        if path is not None and path.is_file():
            try:
                resolved = driver.build(path)[0]
            except CompileError:
                resolved = None
            if resolved is not None and any(os.path.realpath(f) in self.texts for f in resolved.files):
                compiled = _compiled(path, tuple(resolved.texts))
                return game_from_source(compiled.source, str(path))
        return load_named(ruleset, here)


_COMPILED: dict[tuple[Path, tuple[str, ...]], driver.Compiled] = {}


def _compiled(path: Path, texts: tuple[str, ...]) -> driver.Compiled:
    """A rule set compiled as the editor holds it; the last few kept (one per edit would pile up)."""
    key = (path, texts)
    if key not in _COMPILED:
        if len(_COMPILED) >= 4:
            _COMPILED.pop(next(iter(_COMPILED)))
        _COMPILED[key] = driver.compile_file(path)
    return _COMPILED[key]


def rule_file_named(ruleset: str, here: Path) -> Path | None:
    """The rule file a scenario's `ruleset:` names: a bundled id, or a `.yaml` relative to it."""
    if ruleset.endswith((".yaml", ".yml")):
        return Path(os.path.abspath(here.parent / ruleset))
    if is_ruleset_id(ruleset):
        return ruleset_file(ruleset)
    return None


def scenario_rules(a: Analysis, scenario: str | None, texts: Mapping[str, str], cache: dict[Path, Analysis]
                   ) -> Analysis | None:
    """The analysis of the rule set a scenario file (or one of its scenarios) names."""
    named: str | None = None
    if a.tree is not None:
        block = a.tree.get("scenarios")
        node = block.get(scenario) if isinstance(block, YMap) and scenario is not None else None
        value = (node.get("ruleset") if isinstance(node, YMap) else None) or a.tree.get("ruleset")
        named = str(value.value) if isinstance(value, YScalar) and isinstance(value.value, str) else None
    else:
        m = _SCENARIO_RULESET.match(next((ln for ln in a.text.split("\n") if ln.startswith("ruleset")), ""))
        named = m.group(1) if m else None
    path = rule_file_named(named, a.path) if named else None
    if path is None or not path.is_file():
        return None
    if path not in cache:
        try:  # (a file named, not open: read as the compiler reads one, up to its size limit)
            text = texts.get(os.path.realpath(path)) or read_file_safely(path, MAX_RULE_FILE_BYTES).decode("utf-8")
        except (OSError, UnicodeDecodeError, ValueError, NotARuleFile):
            return None
        cache[path] = analyse(path, text, texts)
    return cache[path]


# -- what is at a position ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Found:
    """What a name at a position denotes."""

    word: str
    defs: tuple[Def, ...]  # a name of the rule set (several, when a name is several things)
    local: Symbol | None = None  # a parameter, choice, `let` or loop variable
    builtin: str = ""  # a built-in function or value: its signature
    builtin_doc: str = ""
    key: str = ""  # a key of the file format: its description
    declaring: bool = False  # the position is where the name is declared


def _walk(node: object) -> Iterator[object]:
    """Every dataclass node under `node` (a typed program, or a part of it), with a list, not
    recursion: expressions nest deeply."""
    todo: list[object] = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, tuple | list):
            todo.extend(item)
            continue
        if not is_dataclass(item) or isinstance(item, type | SourceSpan | Ty | ir.RuleSet):
            continue
        yield item
        todo.extend(getattr(item, f.name) for f in dataclass_fields(item) if f.name not in ("span", "ty", "decl"))


def _named_by(node: object) -> tuple[str, Symbol | None, str] | None:
    """The name a typed node writes, the local it binds or reads (if any), and what else it is."""
    match node:
        case t.Ref(sym=sym):
            return sym.name, sym if sym.kind == "local" else None, ""
        case t.DefineCall(define=name) | t.CallEffect(procedure=name) | t.Goto(phase=name):
            return name, None, ""
        case t.Builtin(func=name):
            return name, None, "builtin"
        case t.AttrOf(name=name) | t.RecordField(name=name):
            return name, None, "attribute"
        case t.RecordNew(record=name):
            return name, None, ""
        case t.Assign(target=sym):
            return sym.name, sym if sym.kind == "local" else None, ""
        case t.Let(var=sym) | t.For(var=sym) | t.Ask(var=sym) | t.Choice(var=sym):
            return sym.name, sym, ""
        case t.Comprehension(var=sym):
            return sym.name, sym, ""
        case ir.NameRef(name=name):
            return name, None, ""
    return None


def _spans_of(node: object) -> SourceSpan | None:
    span = getattr(node, "span", None)
    return span if isinstance(span, SourceSpan) else None


def found_at(a: Analysis, line: int, col: int) -> Found | None:
    """What the name at a position of `a`'s file denotes, if anything."""
    at = word_at(a.text, line, col)
    if at is None:
        return None
    word, start, _ = at
    ctx = context_at(a.text, line, start)
    if ctx.key in PROSE or (ctx.key is None and ctx.path[-1:] and ctx.path[-1] in PROSE):
        return None  # a word of a `doc:` or `quote:` is prose, whatever it spells
    if a.kind == "scenarios":
        return _found_in_scenario(a, word, line, start)
    key = _key_at(a.tree, line, start) if a.tree is not None else None
    if key is not None:  # a key: a component's own name, or a key of the format
        path, key_node = key
        if len(path) == 2 and path[0] in SECTIONS and key_name(path[:1], path[1]) == word:
            defs = tuple(d for d in a.defs.get(word, ()) if d.section == path[0])
            if defs:
                return Found(word, defs, declaring=True)
        if str(key_node.value) in (word, word + "+", word + "-"):
            described = key_description(_schema("rules"), path)
            if described:
                return Found(word, (), key=described)
    best: tuple[tuple[int, int], Found] | None = None
    for node in [*a.by_line.get(line, ()), *a.wide]:
        span = _spans_of(node)
        named = _named_by(node)
        if span is None or named is None or span.path != a.shown or not _contains(span, line, start):
            continue
        name, local, what = named
        version = a.versions.get(name) if isinstance(node, t.DefineCall) else None
        if version is not None and word in (BASE, version.name):  # `base(most(n))`: the version it uses
            found = Found(word, (version,))
        elif name != word:
            continue
        elif local is not None:
            found = Found(word, (), local=local, declaring=local.span == span)
        elif what == "builtin":
            found = _builtin(word) or Found(word, ())
        elif what == "attribute":
            found = Found(word, tuple(d for d in _attributes(a) if d.name == word))
        else:
            found = Found(word, tuple(a.defs.get(name, ()))) if name in a.defs else _builtin(word) or Found(word, ())
        if best is None or _size(span) < best[0]:
            best = (_size(span), found)
    if best is not None:
        return best[1]
    local = _local_in_scope(a, word, line)
    if local is not None:
        return Found(word, (), local=local)
    if word in a.defs:
        return Found(word, tuple(a.defs[word]))
    return _builtin(word)


def _candidates(a: Analysis) -> Iterator[object]:
    if a.program is not None:
        yield from _walk(a.program)
    if a.ruleset is not None:
        for ph in a.ruleset.phases:
            yield from ph.actions
            if ph.then is not None:
                yield ph.then
        for tr in a.ruleset.triggers:
            yield from tr.after


def _builtin(word: str) -> Found | None:
    if word in TYPE_WORDS:
        return Found(word, (), builtin=f"type {word}", builtin_doc="A type of the rule language (docs/language.md, "
                     "\"Types\"); `list(T)`, `set(T)` and `optional(T)` combine them.")
    if word in BUILTINS:
        s = BUILTINS[word]
        return Found(word, (), builtin=s.signature, builtin_doc=s.described)
    if word in AGGREGATES:
        return Found(word, (), builtin=f"{word}(expr for x in items if cond)",
                     builtin_doc="An aggregate over a comprehension: `count(marker[s] == gold for s in sector)`.")
    if word in VALUES:
        ty, _, doc = VALUES[word]
        return Found(word, (), builtin=f"{word}: {ty}", builtin_doc=doc)
    return None


def _attributes(a: Analysis) -> list[Def]:
    """The attributes of components and the fields of records: what `x.name` reads."""
    out: list[Def] = []
    if a.ruleset is None:
        return out
    for c in a.ruleset.components:
        for attr in c.attributes:
            out.append(Def("attribute", attr.name, attr.span, f"{c.name}.{attr.name}",
                           doc=f"an attribute of `{c.name}`"))
    for r in a.ruleset.records:
        for name, ty in r.fields:
            out.append(Def("attribute", name, r.span, f"{r.name}.{name}: {ty}", str(ty), f"a field of `{r.name}`"))
    return out


def _key_at(tree: YMap, line: int, col: int) -> tuple[tuple[str, ...], YScalar] | None:
    """The key at a position, and the keys down to it (`('actions', 'take')`)."""
    todo: list[tuple[tuple[str, ...], YNode]] = [((), tree)]
    while todo:
        path, node = todo.pop()
        if not _contains(node.span, line, col) and node is not tree:
            continue
        if isinstance(node, YMap):
            for k, v in node.items:
                here = (*path, str(k.value))
                if _contains(k.span, line, col):
                    return here, k
                todo.append((here, v))
        elif isinstance(node, YSeq):
            todo.extend((path, item) for item in node.items)
    return None


def _local_in_scope(a: Analysis, word: str, line: int) -> Symbol | None:
    """A local of the entry (a definition, procedure, action ...) whose lines hold `line`, named
    `word`, when no node of the typed program is at the position: a signature's own parameters,
    an action's `text:`, and the lines of a folded block (`>-`), whose positions the checker
    does not map back line by line."""
    if a.tree is None:
        return None
    for section, node in a.tree.items:
        if not isinstance(node, YMap):
            continue
        for k, v in node.items:
            if not k.span.line - 1 <= line <= v.span.end_line - 1:
                continue
            for sym in _locals(a, (str(section.value), str(k.value))):
                if sym.name == word:
                    return sym
            for span, sym in a.by_local.get(word, ()):
                if k.span.line <= span.line <= v.span.end_line:
                    return sym
    return None


def _found_in_scenario(a: Analysis, word: str, line: int, col: int) -> Found | None:
    path = context_at(a.text, line, col).path
    rules = a.scenario_rules.get(path[1], a.rules) if len(path) > 1 and path[0] == "scenarios" else a.rules
    if rules is not None:
        defs = rules.defs.get(word)
        if defs:
            return Found(word, tuple(defs))
    described = key_description(_schema("scenarios"), (*path, word))
    return Found(word, (), key=described) if described else _builtin(word)


# -- hover ---------------------------------------------------------------------------------------
def hover(a: Analysis, line: int, col: int) -> str | None:
    """Markdown on the name at a position: what it is, its type, signature, doc and rulebook quote,
    where it is declared and, in a variant, which file declares it and which change it."""
    f = found_at(a, line, col)
    if f is None:
        return None
    if f.key:
        return f"`{f.word}`: {f.key}"
    if f.builtin:
        return f"built-in `{f.builtin}`\n\n{f.builtin_doc}"
    if f.local is not None:
        where = f" (bound at {f.local.span.short})" if f.local.span is not None else ""
        return f"local `{f.local.name}`: `{f.local.ty}`{where}"
    parts: list[str] = []
    rules = a.rules if a.kind == "scenarios" and a.rules is not None else a
    for d in f.defs:
        if d.version:
            parts.append(_version_hover(d))
            continue
        head = f"**{d.kind}** `{d.name}`" + (f": `{d.type}`" if d.type and d.type != d.name else "")
        text = [head, f"```\n{d.signature}\n```" if d.signature and d.signature != d.name else ""]
        if d.doc:
            text.append(d.doc)
        if d.quote:
            text.append("> " + d.quote.replace("\n", "\n> "))
        text.append(_origin(rules, d))
        used = rules.versions.get(base_version(d.section, d.name, 1)) if d.section in ("define", "scoring") else None
        if used is not None and used.span is not None:
            text.append(f"Uses the version it replaces, `{used.version}`, written at `{used.span.short}`.")
        parts.append("\n\n".join(x for x in text if x))
    return "\n\n---\n\n".join(parts) if parts else None


def _version_hover(d: Def) -> str:
    """Markdown on `base` or the name in `base(most(n))`: the version it uses, not the current one."""
    head = f"**{d.kind}** `{d.name}` as it was before this version, `{d.version}`" + (f": `{d.type}`" if d.type
                                                                                         else "")
    where = f"Written at `{d.span.short}`: the version this one replaces." if d.span is not None else ""
    return "\n\n".join(x for x in (head, f"```\n{d.signature}\n```", where, d.doc) if x)


def _origin(a: Analysis, d: Def) -> str:
    """Where `d` is declared; in a variant, which files declare and change it."""
    if d.span is None:
        return ""
    chain = written(a, d.section, d.name) if d.section else []
    if len(a.layers) < 2 or len(chain) < 1:
        return f"Declared at `{d.span.short}`."
    first, changes = chain[0], chain[1:]
    said = f"Declared in `{first.file}:{first.span.line}`"
    if first.file == a.shown:
        said += " (this file)" if not any(c.file == a.shown for c in changes) else ""
    if not changes:
        return said + ("; this variant adds it." if first.file == a.layers[-1][0] and len(a.layers) > 1
                       else "; not changed by this variant.")
    overridden = ", ".join(f"`{c.file}:{c.span.line}`" + (" (this file)" if c.file == a.shown else "")
                           for c in changes)
    return f"{said}; overridden by {overridden}."


# -- go to definition --------------------------------------------------------------------------------
def definition(a: Analysis, line: int, col: int) -> list[Place]:
    """Where the name at a position is declared: across `extends:` files. On a variant's own
    entry, the entries it overrides in the files it extends."""
    f = found_at(a, line, col)
    if f is None:
        return []
    rules = a.rules if a.kind == "scenarios" and a.rules is not None else a
    if f.local is not None and f.local.span is not None:
        path = file_of(f.local.span.path, rules.files)
        return [_place(f.local.span, path)] if path is not None else []
    out: list[Place] = []
    for d in f.defs:
        if f.declaring and d.section:
            earlier = [w for w in written(rules, d.section, d.name) if w.file != a.shown and not w.removed]
            spans = [w.span for w in earlier]
        else:
            spans = [d.span] if d.span is not None else []
        for span in spans:
            path = file_of(span.path, rules.files)
            if path is not None:
                out.append(_place(span, path))
    return out


# -- outline --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Outline:
    name: str
    kind: str  # a kind of SECTIONS, a section (`section`), `scenario`, or a top-level key (`rule`)
    detail: str
    place: Place  # the whole entry
    name_place: Place  # its name
    children: tuple[Outline, ...] = ()


def _entry(a: Analysis, key: YScalar, value: YNode, lines: list[str]) -> Place:
    """The lines of an entry, from its key to the end of its value (not the blank lines and
    comments after it, which YAML counts in); `lines`: the file's."""
    end_line, end_col = value.span.end_line - 1, value.span.end_col - 1
    if end_line >= len(lines):
        end_line, end_col = len(lines) - 1, len(lines[-1])
    while end_line > key.span.line - 1 and (end_col == 0 or not lines[end_line][:end_col].strip()
                                              or lines[end_line].lstrip().startswith("#")):
        end_line -= 1
        end_col = len(lines[end_line]) if end_line < len(lines) else 0
    return Place(a.path, key.span.line - 1, key.span.col - 1, end_line, max(end_col, 0))


# The most entries an outline lists (a rule file of 1 MiB may hold 18,000 definitions: 5 MB of
# symbols, seconds for an editor to take in), though each section may list OUTLINE_SECTION_ENTRIES;
# past them, a section says how many more it holds.
MAX_OUTLINE_ENTRIES = 2000
OUTLINE_SECTION_ENTRIES = 50


def outline(a: Analysis) -> list[Outline]:
    """The file's sections and their entries (definitions, actions, phases, triggers, scoring terms,
    options, fields ...), or its scenarios, each with where it is: MAX_OUTLINE_ENTRIES at most."""
    if a.tree is None:
        return []
    out: list[Outline] = []
    lines = a.text.split("\n")
    signatures = {(d.section, d.name): d.signature for defs in a.defs.values() for d in defs if d.section}
    room = MAX_OUTLINE_ENTRIES
    for k, v in a.tree.items:
        section = str(k.value)
        whole = _entry(a, k, v, lines)
        children: list[Outline] = []
        base = section.rstrip("+-")
        if isinstance(v, YMap) and (base in SECTIONS or (a.kind == "scenarios" and base == "scenarios")):
            for n, (ck, cv) in enumerate(v.items):
                if n == max(room, OUTLINE_SECTION_ENTRIES):  # (the rest: one entry, to the section's end)
                    rest = Place(a.path, ck.span.line - 1, ck.span.col - 1, whole.end_line, whole.end_col)
                    children.append(Outline(f"... {len(v.items) - n:,} more", "rule", "", rest,
                                            _place(ck.span, a.path)))
                    break
                name = key_name((base,), str(ck.value))
                entry = _entry(a, ck, cv, lines)
                kind = "scenario" if a.kind == "scenarios" else SECTIONS[base]
                detail = _scenario_doc(cv) if a.kind == "scenarios" else signatures.get((base, name), "")
                children.append(Outline(name, kind, detail, entry, _place(ck.span, a.path)))
        room -= min(room, len(children))
        out.append(Outline(section, "section" if children else "rule", "", whole, _place(k.span, a.path),
                           tuple(children)))
    return out


def _scenario_doc(node: YNode) -> str:
    doc = node.get("doc") if isinstance(node, YMap) else None
    text = str(doc.value).strip() if isinstance(doc, YScalar) and doc.value is not None else ""
    return text if len(text) <= 80 else text[:77] + "..."


# -- where the cursor is, from the text alone ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Context:
    """Where a position is in the YAML, read from the lines alone (a file half typed does not parse)."""

    path: tuple[str, ...]  # the keys of the mappings around the position, outermost first
    key: str | None  # the key whose value is written here; None at a key
    prefix: str  # the part of a name typed before the position
    before: str  # the text of the line before the position
    item: bool = False  # an item of a block list (`- ...`)


# A block key: its indent and any `- ` before it; then the key, quoted or plain, then `:` and a
# space or the end of the line. Read in two steps, each linear in the line: one regex of the
# whole (a lazy key, then `[ \t]*:`) takes time quadratic in a line of spaces or letters.
_LINE_LEAD = re.compile(r"([ \t]*)((?:-[ \t]+)*)")
_QUOTED_KEY = re.compile(r"""("(?:[^"\\]|\\.)*"|'[^']*')[ \t]*:(?=[ \t]|$)""")
_KEY_END = re.compile(r":(?=[ \t]|$)")
_NOT_IN_KEY = re.compile(r"[#{}\[\]]")
_NAME_END = re.compile(r"[A-Za-z0-9_]*")  # (matched on a line reversed: the name typed before the cursor)


def _line_key(row: str) -> tuple[int, str, int] | None:
    """The block key a line starts with (after any `- `): its column, the key, and where its value starts."""
    lead = _LINE_LEAD.match(row)
    assert lead is not None  # (it matches the empty text)
    start = lead.end()
    if start == len(row):
        return None
    if row[start] in "\"'":
        quoted = _QUOTED_KEY.match(row, start)
        if quoted is None:
            return None
        key, end = quoted.group(1)[1:-1], quoted.end()
    elif row[start] in "#'\"{}[],:-" or row[start].isspace():
        return None
    else:  # a plain key runs to the first `: ` (or `:` at the end), through no `#`, `{`, `}`, `[`, `]`
        colon = _KEY_END.search(row, start + 1)
        if colon is None or _NOT_IN_KEY.search(row, start, colon.start()) is not None:
            return None
        key, end = row[start:colon.start()].rstrip(" \t"), colon.end()
    return len(lead.group(1)) + len(lead.group(2)), key, end


def _unpatched(key: str) -> str:
    """`actions` for a variant's `actions+` or `actions-`."""
    return key[:-1] if len(key) > 1 and key[-1] in "+-" else key


def context_at(text: str, line: int, col: int) -> Context:
    lines = text.split("\n")
    row = lines[line] if 0 <= line < len(lines) else ""
    col = max(0, min(col, len(row)))
    before = row[:col]
    prefix = _NAME_END.match(before[::-1])  # (reversed: a search for `[...]*$` is quadratic in a long line)
    own = _line_key(row)
    item = own is None and before.lstrip(" \t").startswith("-")
    tail: list[str] = []
    key: str | None = None
    if own is not None and col >= own[2]:  # after `key:`: its value
        limit = own[0]
        flow = _flow(row[own[2]:col], own[1])
        tail, key = flow if flow is not None else ([], own[1])
    elif item:  # (a key at the same column as the dash holds the list)
        limit = len(before) - len(before.lstrip(" \t")) + 1
    else:
        limit = len(before) - len(before.lstrip(" \t-"))
    parents: list[str] = []
    for above in reversed(lines[:line] if 0 <= line < len(lines) and limit > 0 else []):  # (at column 0: none)
        stripped = above.strip()
        if not stripped or stripped.startswith("#"):
            continue
        found = _line_key(above)
        column = found[0] if found is not None else len(above) - len(above.lstrip(" \t"))
        if column >= limit:
            continue
        if found is not None:
            parents.insert(0, found[1])
        limit = column
        if limit == 0:
            break
    path = [_unpatched(k) for k in parents + tail]
    if item and key is None and path:  # a list item: the value of the key above
        key = path.pop()
    return Context(tuple(path), _unpatched(key) if key is not None else None,
                   prefix.group()[::-1] if prefix else "", before, item)


def _flow(value: str, owner: str) -> tuple[list[str], str | None] | None:
    """Inside a flow collection opened after `owner:` on this line (`{type: int, vis`): the keys
    of the mappings entered, and the key whose value is written (None at a key); None if the
    value is not a flow collection, or is closed before the position."""
    text = value.lstrip()
    if not text.startswith(("{", "[")):
        return None
    frames: list[tuple[str, str | None]] = []  # each collection entered: its opener, and whose value it is
    current: str | None = None  # in a mapping: the key whose value is being written
    segment = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":  # a quoted scalar: its brackets and commas are text
            end = text.find(ch, i + 1)
            segment += text[i:] if end < 0 else text[i:end + 1]
            i = len(text) if end < 0 else end + 1
            continue
        if ch in "{[":
            frames.append((ch, current if frames else owner))
            current, segment = None, ""
        elif ch in "}]":
            if frames:
                frames.pop()
            if not frames:
                return None
            current, segment = None, ""
        elif ch == ",":
            current, segment = None, ""
        elif ch == ":" and frames and frames[-1][0] == "{" and (i + 1 == len(text) or text[i + 1] in " \t"):
            current, segment = segment.strip().strip("\"'"), ""
        else:
            segment += ch
        i += 1
    owners = [o for _, o in frames if o is not None]
    if frames and frames[-1][0] == "{":
        return owners, current
    return owners[:-1], owners[-1] if owners else None


# -- the JSON Schemas, read for keys and values ------------------------------------------------------
@functools.cache
def _schema(kind: str) -> Schema:
    return rule_schema() if kind == "rules" else scenario_schema()


def _alternatives(s: object) -> list[Schema]:
    """The schemas a value may match (`anyOf` opened), and the items of those that are lists."""
    out: list[Schema] = []
    todo: list[object] = [s]
    while todo:
        x = todo.pop(0)
        if not isinstance(x, dict):
            continue
        if "anyOf" in x:
            todo.extend(x["anyOf"])
            if not x.keys() & {"type", "properties", "additionalProperties", "enum"}:
                continue  # (a schema with its own keys beside `anyOf` is one of its alternatives too)
        out.append(x)
        todo.append(x.get("items"))
    return out


def schema_at(schema: Schema, path: tuple[str, ...]) -> list[Schema]:
    """What the value at `path` (keys from the top) may be."""
    current: list[object] = [schema]
    for key in path:
        nested: list[object] = []
        for s in current:
            for alt in _alternatives(s):
                props = alt.get("properties")
                if isinstance(props, dict) and key in props:
                    nested.append(props[key])
                elif isinstance(alt.get("additionalProperties"), dict):
                    nested.append(alt["additionalProperties"])
        current = nested
    return [alt for s in current for alt in _alternatives(s)]


def keys_at(schema: Schema, path: tuple[str, ...]) -> dict[str, str]:
    """The keys the mapping at `path` may hold, each with its description."""
    out: dict[str, str] = {}
    for alt in schema_at(schema, path):
        props = alt.get("properties")
        if isinstance(props, dict):
            for k, v in props.items():
                out.setdefault(k, describe(v))
    return out


def key_description(schema: Schema, path: tuple[str, ...]) -> str:
    return keys_at(schema, path[:-1]).get(_unpatched(path[-1]), "") if path else ""


def enum_at(schema: Schema, path: tuple[str, ...]) -> list[str]:
    """The values the schema allows at `path`, when it lists them."""
    out: list[str] = []
    for alt in schema_at(schema, path):
        for v in alt.get("enum", ()):
            if str(v) not in out:
                out.append(str(v))
    return out


def describe(s: object) -> str:
    """A value's schema in words: its description, the values it takes, or its kinds."""
    alts = _alternatives(s)
    for alt in ([s] if isinstance(s, dict) else []) + alts:
        if isinstance(alt.get("description"), str):
            return str(alt["description"])
    values = [str(v) for alt in alts for v in alt.get("enum", ())]
    if values:
        return "one of " + ", ".join(f"`{v}`" for v in values)
    kinds: list[str] = []
    for alt in alts:
        ty = alt.get("type")
        for k in [ty] if isinstance(ty, str) else ty if isinstance(ty, list) else []:
            word = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
                    "number": "a number", "boolean": "true or false"}.get(str(k))
            if word and word not in kinds:
                kinds.append(word)
    return " or ".join(kinds)


# -- completion --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Item:
    label: str
    kind: str  # `key`, `value`, `keyword`, `builtin`, `local`, `spot`, `type`, `file`, or a kind of Def
    detail: str = ""
    doc: str = ""


def complete(a: Analysis, line: int, col: int, known: Analysis | None = None) -> list[Item]:
    """What may be written at a position: keys (from the schema), names (definitions, fields,
    actions, phases ...), enumeration values, board spots and built-ins. `known`: the last
    analysis of the file that indexed its rule set, for names while the file does not build."""
    ctx = context_at(a.text, line, col)
    if a.kind == "scenarios":
        return _complete_scenario(a, ctx)
    names = a if a.defs or known is None else known
    schema = _schema("rules")
    if ctx.key is None:
        items = [Item(k, "key", doc=d) for k, d in keys_at(schema, ctx.path).items()]
        if ctx.path[:1] == ("look",):
            items += _look_keys(names, ctx.path)
        if len(ctx.path) == 1 and ctx.path[0] in SECTIONS:
            # a variant: the entries of the rule sets it extends, which it may change or remove
            layers = (a.layers if len(a.layers) > 1 else names.layers)[:-1]
            signatures = {d.name: d for defs in names.defs.values() for d in defs if d.section == ctx.path[0]}
            for _, tree in layers:
                node = tree.get(ctx.path[0])
                for k, _ in node.items if isinstance(node, YMap) else ():
                    name = key_name(ctx.path, str(k.value))
                    d = signatures.get(name)
                    items.append(Item(name, SECTIONS[ctx.path[0]], d.signature if d else "", d.doc if d else ""))
        return items
    key, path = ctx.key, ctx.path
    values = enum_at(schema, (*path, key))
    if values:
        return [Item(v, "value") for v in values]
    section = path[0] if path else key
    if key in ("extends", "incompatible"):
        return _rule_sets(a.path)
    if key == "then" and section == "phases":
        return _defs_of(names, "phase")
    if (key == "actions" and section == "phases") or (key == "after" and section == "triggers"):
        return _defs_of(names, "action")
    if key == "per" and section == "state":
        return [Item(k, "type") for k in ENTITY_KINDS] + _defs_of(names, "dice")
    if (key == "type" and section == "state") or (section == "records" and len(path) == 2):
        return _types(names)
    if key == "default" and section == "options" and len(path) == 2 and names.ruleset is not None:
        return [Item(c, "value") for o in names.ruleset.options if o.name == path[1] for c in o.choices]
    if section == "look":
        found = _look_names(names, path, key)
        if found is not None:
            return found
    if section == "boards":
        return _spots(names, path[1] if len(path) > 1 else None)
    if section in ("enums", "title", "author", "game", "roles", "neutral", "drawing", "family") \
            or key in ("doc", "quote", "text", "choices"):
        return []
    return _expression_names(names, ctx, line)


def _look_names(a: Analysis, path: tuple[str, ...], key: str) -> list[Item] | None:
    """What a value of `look:` names (docs/language.md, "Look"): a colour, a piece's attribute or field,
    an enumeration, a board's spots or regions; None where it is an expression (a prompt's)."""
    part = path[1] if len(path) > 1 else key
    colours = [Item(c, "value", LOOK_COLOURS[c]) for c in LOOK_COLOURS]
    if part in ("seats", "colours") or (part == "pieces" and key in ("colour", "back")):
        rs = a.ruleset
        if part == "pieces" and key == "colour" and rs is not None and len(path) > 2:
            kind = path[2]
            own = [at.name for c in rs.components if c.name == kind for at in c.attributes]
            own += [n for r in rs.records if r.name == kind for n, _ in r.fields]
            own += [f.name for f in rs.fields if f.per == kind]
            return [Item(n, "attribute", f"something of `{kind}`") for n in dict.fromkeys((*own, "owner"))] + colours
        return colours
    if part == "fields" and key == "by":
        return _defs_of(a, "enum")
    if part in ("prompts", "moves"):
        return None
    return []


def _look_keys(a: Analysis, path: tuple[str, ...]) -> list[Item]:
    """The names a table of `look:` is keyed by: kinds, values, fields, boards, spots, regions, actions."""
    part = path[1] if len(path) > 1 else ""
    if part == "pieces" and len(path) == 2:
        kinds = [d for defs in a.defs.values() for d in defs if d.kind in ("component", "record", "enum", "dice")]
        return [Item("player", "type", "a value of type player drawn as a piece")] + [
            Item(d.name, d.kind, d.signature, d.doc) for d in kinds]
    if part in ("colours", "symbols") and len(path) == 2:
        return _defs_of(a, "value")
    if part == "fields" and len(path) == 2:
        return _defs_of(a, "field")
    if part in ("prompts", "moves") and len(path) == 2:
        asks = [Item(name, "value", f"what an `ask` chooses: {ty}") for name, ty in a.program.asks] \
            if a.program is not None else []
        return _defs_of(a, "action") + asks
    if part == "boards" and len(path) == 2:
        return _defs_of(a, "board")
    if part == "boards" and len(path) == 4 and a.ruleset is not None:
        if path[3] == "spots":
            return _spots(a, path[2])
        if path[3] == "labels":
            return [Item(r.name, "region", f"a region of {b.name}") for b in a.ruleset.boards if b.name == path[2]
                    for k in b.region_kinds for r in k.regions]
    return []


def _defs_of(a: Analysis, kind: str) -> list[Item]:
    return [Item(d.name, d.kind, d.signature, d.doc) for defs in a.defs.values() for d in defs if d.kind == kind]


def _rule_sets(here: Path) -> list[Item]:
    items = [Item(rid, "file", "a bundled rule set") for rid in bundled_ids()]
    try:
        siblings = sorted(p.name for p in here.parent.glob("*.yaml") if p.name != here.name)
    except OSError:
        siblings = []
    return items + [Item(name, "file", "a rule file beside this one") for name in siblings]


def _types(a: Analysis) -> list[Item]:
    items = [Item(ty, "type") for ty in (*PLAIN_TYPES, *ENTITY_KINDS)]
    return items + [Item(d.name, "type", d.signature) for defs in a.defs.values() for d in defs
                    if d.kind in ("enum", "record", "dice", "component", "option")]


def _spots(a: Analysis, board: str | None) -> list[Item]:
    if a.ruleset is None:
        return []
    out: list[Item] = []
    for b in a.ruleset.boards:
        if board is None or b.name == board:
            out += [Item(s, "spot", f"a spot of {b.name}") for s in board_spots(b)]
    return out


def _expression_names(a: Analysis, ctx: Context, line: int) -> list[Item]:
    before = ctx.before[: len(ctx.before) - len(ctx.prefix)]
    if before.endswith("."):
        return [Item(d.name, "attribute", d.signature, d.doc) for d in _attributes(a)]
    if re.search(r"\bgoto\s+$", before):
        return _defs_of(a, "phase")
    effect = ctx.key in ("effect", "start", "setup") or (ctx.path[:1] == ("procedures",))
    items = [Item(d.name, d.kind, d.signature, d.doc) for defs in a.defs.values() for d in defs
             if d.kind not in ("board", "region", "phase", "action", "trigger", "scoring", "invariant", "record")
             and (effect or d.kind != "procedure")]
    items += [Item(d.name, "record", d.signature) for defs in a.defs.values() for d in defs if d.kind == "record"]
    for name in (*BUILTINS, *AGGREGATES, *VALUES):
        f = _builtin(name)
        if f is not None:
            items.append(Item(name, "builtin", f.builtin, f.builtin_doc))
    items += [Item(w, "keyword") for w in KEYWORDS]
    items += [Item(sym.name, "local", str(sym.ty)) for sym in _locals(a, ctx.path)]
    if ctx.path[:1] in (("scoring",), ("returns",)) or ctx.key in ("tie_break", "returns"):
        items.append(Item("player", "local", "player", "the seat scored"))
    return items + _base_items(a, ctx)


def _base_items(a: Analysis, ctx: Context) -> list[Item]:
    """`base(most(n))` in a variant's new version of a definition (`base(pebbles)` of a scoring
    term) that replaces one: only there, as `base(...)` may only use the version of the name it is
    written in (docs/variants.md)."""
    if ctx.path == ("define",) or ctx.path == ("scoring",):
        section, key = ctx.path[0], ctx.key
    elif len(ctx.path) == 2 and ctx.path[0] == "define" and ctx.key == "value":  # `{value: ..., cached: true}`
        section, key = ctx.path
    else:
        return []
    if key is None:
        return []
    name = key_name((section,), key)
    earlier: list[tuple[YScalar, YNode]] = []  # what the files it extends write for it, the last first
    for _, tree in reversed([(shown, tree) for shown, tree in a.layers if shown != a.shown]):
        node = tree.get(section)
        earlier += [(k, v) for k, v in (node.items if isinstance(node, YMap) else ())
                    if key_name((section,), str(k.value)) == name]
    if not earlier or (isinstance(earlier[0][1], YScalar) and earlier[0][1].value is None):
        return []  # new here, or removed before: it replaces nothing
    args: str | None = None
    if section == "define":  # the parameters of the version replaced: the last that states them
        signed = next((str(k.value) for k, _ in earlier if "(" in str(k.value)), f"{name}()")
        params = signed[signed.index("(") + 1:signed.rindex(")")] if ")" in signed else ""
        args = ", ".join(p.partition(":")[0].strip() for p in params.split(",") if p.strip()) or None
    k, v = earlier[0]
    value = v.get("value") if isinstance(v, YMap) else v
    shown = f"```\n{value.value}\n```" if isinstance(value, YScalar) and value.value is not None else ""
    return [Item(base_use(name, args), "version", f"the `{name}` this one replaces ({k.span.short})", shown)]


def _locals(a: Analysis, path: tuple[str, ...]) -> list[Symbol]:
    """The parameters or choices of the definition, procedure or action at `path`."""
    if a.program is None or len(path) < 2:
        return []
    name = key_name(path[:1], path[1])
    if path[0] == "define":
        return [s for d in a.program.defines if d.name == name for s in d.params]
    if path[0] == "procedures":
        return [s for p in a.program.procedures if p.name == name for s in p.params]
    if path[0] == "actions":
        return [c.var for ac in a.program.actions if ac.name == name for c in ac.choices]
    return []


def _complete_scenario(a: Analysis, ctx: Context) -> list[Item]:
    schema = _schema("scenarios")
    path, key = ctx.path, ctx.key
    rules = a.scenario_rules.get(path[1], a.rules) if len(path) > 1 and path[0] == "scenarios" else a.rules
    fields = _defs_of(rules, "field") if rules is not None else []
    if key is None:
        if path[-1:] == ("position",):
            return fields + [Item(k, "key") for k in ("to_act", "phase", "chance")]
        if path[-1:] == ("options",) and rules is not None:
            return _defs_of(rules, "option")
        if path[-2:] == ("expect", "fields"):
            return fields
        if path[-2:] == ("expect", "score_terms") and rules is not None:
            return _defs_of(rules, "scoring")
        return [Item(k, "key", doc=d) for k, d in keys_at(schema, path).items()]
    if key == "ruleset":
        return _rule_sets(a.path)
    values = enum_at(schema, (*path, key))
    if values:
        return [Item(v, "value") for v in values]
    if rules is None or rules.ruleset is None:
        return []
    if path[-1:] == ("options",):
        return [Item(c, "value") for o in rules.ruleset.options if o.name == key for c in o.choices]
    if key in ("steps", "legal", "legal_includes", "legal_excludes", "illegal"):
        return _defs_of(rules, "action")
    if "position" in path or "fields" in path:
        values_of = [Item(d.name, d.kind, d.signature) for defs in rules.defs.values() for d in defs
                     if d.kind == "value"]
        return values_of + _spots(rules, None)
    return []
