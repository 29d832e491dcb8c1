"""Beside the pipeline, diff: what one rule set changes in another, rule by rule, on the resolved IR.

`diff(a, b)` compares two `ir.RuleSet`s and returns the changes from `a` to `b`, each with
its rule path (`options.sector_collector.default`, `actions.prospect.when`,
`boards.hex6.regions.mountain.M3`), the old and new values written in the rule language's
own syntax, and the `file:line` of the new value (of the old one, for a removal).

The comparison walks the IR dataclasses generically (`dataclasses.fields`), so a kind of
node added to the IR later is compared too. Named components (options, actions, triggers,
fields, ...) are matched by name, wherever they are written; spans and file names are
ignored, so reformatting a file or reordering its keys is no change. Local names are
compared up to renaming (alpha-equivalence): `for s in line` and `for t in line` with the
same body are equal, as are `let`, comprehension variables and the parameters of
definitions and procedures. An action's choice names are not: they show in its text.
Order is a change only where it means something: triggers run in the order written, and
the first phase starts every turn.

Paths use the rule file's own keys: `state` (not the IR's `fields`), `define`, `choose`,
`regions`. `load_ruleset(path)` builds the IR to compare (resolve + build_ir) and raises
`CompileError` with the diagnostics of a rule file that does not build.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..core.load import YMap, YNode
from ..core.paths import ruleset_file
from ..core.source import CompileError, SourceSpan
from . import ast, ir
from .driver import build
from .merge import key_name
from .names import base_use
from .types import Ty
from .unparse import unparse, unparse_block

Kind = Literal["added", "removed", "changed"]
KINDS: tuple[Kind, ...] = ("added", "removed", "changed")


@dataclass(frozen=True, slots=True)
class Change:
    kind: Kind
    path: str  # `actions.prospect.when`
    old: str | None  # in the rule language's syntax; None when added
    new: str | None  # None when removed
    where: SourceSpan | None  # the new node (the old one, when removed)
    # a new version that uses the one it replaced (`base(gold)`): what `base(...)` in it is, and in
    # that one, and so on: each `(base(gold), its value, where)`
    uses: tuple[tuple[str, str, SourceSpan], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "path": self.path, "old": self.old, "new": self.new,
                               "where": self.where.short if self.where is not None else None}
        if self.uses:
            out["uses"] = [{"base": label, "is": value, "where": where.short} for label, value, where in self.uses]
        return out


# -- loading -----------------------------------------------------------------------------------
# The resolved trees of the rule sets built by `load_ruleset`, so that a change to a value
# without a span of its own (an option's default) is located at the line that set it.
_TREES: dict[int, tuple[ir.RuleSet, YMap]] = {}
_KEEP = 64


def load_ruleset(path: Path | str) -> ir.RuleSet:
    """The IR of a rule file (or of a bundled rule set named by its id, `china-cornett`).
    Raises CompileError with the diagnostics if it cannot be resolved or built."""
    file = Path(path)
    if isinstance(path, str) and not path.endswith((".yaml", ".yml")) and not file.is_file():
        file = ruleset_file(path)
    resolved, ruleset, diagnostics = build(file)
    errors = [d for d in diagnostics if d.severity == "error"]
    if ruleset is None or errors:
        raise CompileError(errors or diagnostics)
    if len(_TREES) >= _KEEP:
        del _TREES[next(iter(_TREES))]
    _TREES[id(ruleset)] = (ruleset, resolved.tree)
    return ruleset


def resolved_tree(ruleset: ir.RuleSet) -> YMap | None:
    """The resolved tree a rule set returned by `load_ruleset` was built from (its comments aside),
    while it is kept (the last few): where a rule writes its keys, and its `doc:`s."""
    known = _TREES.get(id(ruleset))
    return known[1] if known is not None and known[0] is ruleset else None


# -- comparing ---------------------------------------------------------------------------------
# IR fields named differently in a rule file; "" puts a field's components right under its owner.
_KEYS: dict[tuple[type, str], str] = {
    (ir.RuleSet, "fields"): "state",
    (ir.RuleSet, "defines"): "define",
    (ir.Board, "region_kinds"): "regions",
    (ir.RegionKind, "regions"): "",
    (ir.Action, "choices"): "choose",
}
# Not rules: which file, which variant name, where; and the version a new one replaced, which is
# shown with the new one that uses it (`Change.uses`).
_SKIP = {"span", "others_span", "owner_span", "files", "variant", "base"}
_STMTS = (ast.Assign, ast.Let, ast.CallStmt, ast.Goto, ast.EndTurn, ast.Pass, ast.Tell, ast.For, ast.If, ast.Ask,
          ast.While, ast.Break, ast.Continue)
_AST_NODES = (ast.Num, ast.Str, ast.BoolLit, ast.Name, ast.Attr, ast.Index, ast.Call, ast.Comprehension, ast.ListLit,
              ast.SetLit, ast.Unary, ast.Binary, ast.Cond, ast.Target, ast.Keyword, ast.ForHeader, ast.IfHeader,
              ast.AskHeader, ast.WhileHeader)


def diff(a: ir.RuleSet, b: ir.RuleSet) -> list[Change]:
    """The changes from rule set `a` to rule set `b`, in the order of the rule file."""
    differ = _Differ(resolved_tree(a), resolved_tree(b))
    differ.fields((), a, b)
    return differ.changes


def same(a: object, b: object) -> bool:
    """Equal as rules: spans, file names and the names of local variables aside."""
    return canonical(a) == canonical(b)


def canonical(node: object) -> object:
    """A value without spans, each local name replaced by the depth at which it is bound."""
    return _canon(node, {}, 0)


class _Differ:
    def __init__(self, tree_a: YMap | None, tree_b: YMap | None) -> None:
        self.trees = (tree_a, tree_b)
        self.changes: list[Change] = []

    def fields(self, path: tuple[str, ...], a: Any, b: Any) -> None:
        for f in dataclasses.fields(a):
            if f.name in _SKIP or f.name == "name":
                continue
            if isinstance(a, ir.RuleSet) and f.name == "colours" and a.look is not None and b.look is not None:
                continue  # (a look's colours, told under `look`)
            key = _KEYS.get((type(a), f.name), f.name)
            here = (*path, key) if key else path
            self.value(here, getattr(a, f.name), getattr(b, f.name), a, b)

    def value(self, path: tuple[str, ...], a: Any, b: Any, owner_a: Any, owner_b: Any) -> None:
        if same(a, b):
            return
        if isinstance(a, ir.Look) and isinstance(b, ir.Look):  # key by key, as the file writes it
            self.plain(path, json.loads(a.data), json.loads(b.data))
            return
        if a is None or b is None:
            kind: Kind = "added" if a is None else "removed"
            self.add(kind, path, a, b, owner_a, owner_b)
        elif _named(a) and _named(b):
            self.components(path, a, b)
        elif _component(a) and type(a) is type(b):
            self.fields(path, a, b)
        else:
            self.add("changed", path, a, b, owner_a, owner_b)

    def components(self, path: tuple[str, ...], a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
        by_a = {x.name: x for x in a}
        by_b = {y.name: y for y in b}
        for x in a:
            if x.name not in by_b:
                self.add("removed", (*path, x.name), x, None, x, None)
        for y in b:
            x = by_a.get(y.name)
            if x is None:
                self.add("added", (*path, y.name), None, y, None, y)
            elif not same(x, y):
                self.member((*path, y.name), x, y)
        order_a = [x.name for x in a if x.name in by_b]
        order_b = [y.name for y in b if y.name in by_a]
        if path == ("triggers",) and order_a != order_b:  # they run in the order written
            moved = next(by_b[n] for n, m in zip(order_b, order_a, strict=True) if n != m)
            self.changes.append(Change("changed", "triggers", _names(order_a), _names(order_b), moved.span))
        if path == ("phases",) and a and b and a[0].name != b[0].name:  # the first starts every turn
            self.changes.append(Change("changed", "phases", _names([x.name for x in a]),
                                       _names([y.name for y in b]), b[0].span))

    def member(self, path: tuple[str, ...], a: Any, b: Any) -> None:
        if hasattr(a, "params"):  # its parameters bind names in the rest: compared whole
            self.add("changed", path, a, b, a, b)
            return
        content = [f.name for f in dataclasses.fields(a) if f.name not in _SKIP and f.name != "name"]
        before = len(self.changes)
        if len(content) == 1 and _KEYS.get((type(a), content[0]), "x") != "":
            # one value under a name (a scoring term, a region, a die, a choice): the path is the name
            self.value(path, getattr(a, content[0]), getattr(b, content[0]), a, b)
        else:
            self.fields(path, a, b)
        if len(self.changes) == before and isinstance(b, ir.ScoreTerm):  # the same text, using another version
            self.value(path, a.expr, b.expr if not same(a.expr, b.expr) else _Same(b.expr), a, b)

    def plain(self, path: tuple[str, ...], a: object, b: object) -> None:
        """Plain data (a look's), compared key by key: each value shown as JSON."""
        if a == b:
            return
        if not (isinstance(a, dict) and isinstance(b, dict)):
            self.changes.append(Change("changed", ".".join(path), _json(a), _json(b), self.where(1, path, None, None)))
            return
        for key, value in a.items():
            if key not in b:
                self.changes.append(Change("removed", ".".join((*path, key)), _json(value), None,
                                           self.where(0, (*path, key), None, None)))
        for key, value in b.items():
            if key not in a:
                self.changes.append(Change("added", ".".join((*path, key)), None, _json(value),
                                           self.where(1, (*path, key), None, None)))
            else:
                self.plain((*path, key), a[key], value)

    def add(self, kind: Kind, path: tuple[str, ...], a: Any, b: Any, owner_a: Any, owner_b: Any) -> None:
        if kind == "removed":
            where = self.where(0, path, a, owner_a)
        else:
            where = self.where(1, path, b, owner_b)
        b = b.expr if isinstance(b, _Same) else b
        self.changes.append(Change(kind, ".".join(path), None if a is None else render(a, path),
                                   None if b is None else render(b, path), where,
                                   _uses(owner_b) if kind == "changed" else ()))

    def where(self, side: int, path: tuple[str, ...], value: Any, owner: Any) -> SourceSpan | None:
        """The span of a value: its own, else the line of the rule file that set it, else its owner's."""
        if dataclasses.is_dataclass(value) and hasattr(value, "span"):
            span: SourceSpan = value.span
            return span
        node = _lookup(self.trees[side], path)
        if node is not None:
            return node.span
        if isinstance(value, tuple) and value and hasattr(value[0], "span"):
            first: SourceSpan = value[0].span
            return first
        owned: SourceSpan | None = getattr(owner, "span", None)
        return owned


@dataclass(frozen=True, slots=True)
class _Same:
    """An expression written as before, which uses another version: shown as a change all the same."""

    expr: ast.Expr


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _uses(version: Any) -> tuple[tuple[str, str, SourceSpan], ...]:
    """What `base(...)` is in a new definition or scoring term, and in the version it uses, and so on."""
    out: list[tuple[str, str, SourceSpan]] = []
    while isinstance(version, ir.Define | ir.ScoreTerm) and version.base is not None:
        earlier = version.base
        if isinstance(earlier, ir.Define):
            out.append((base_use(earlier.name, "..." if earlier.params else None), render(earlier), earlier.span))
        else:
            out.append((base_use(earlier.name), unparse(earlier.expr), earlier.span))
        version = earlier
    return tuple(out)


def _named(value: Any) -> bool:
    """A tuple of named components (options, actions, regions...), matched by name."""
    return (isinstance(value, tuple) and bool(value)
            and all(_component(x) and hasattr(x, "name") and not isinstance(x, (ir.NameRef, ir.Param))
                    for x in value))


def _component(value: Any) -> bool:
    """A node of the IR itself (not an expression, not a type)."""
    return dataclasses.is_dataclass(value) and type(value).__module__ == ir.__name__


def _lookup(tree: YMap | None, path: tuple[str, ...]) -> YNode | None:
    node: YNode | None = tree
    for depth, segment in enumerate(path):
        if not isinstance(node, YMap):
            return None
        found = None
        for k, v in node.items:
            if key_name(path[:depth], str(k.value)) == segment:
                found = v
                break
        node = found
    return node


# -- the canonical form (alpha-equivalence) ----------------------------------------------------
def _ref(name: str, env: dict[str, int]) -> object:
    return ("bound", env[name]) if name in env else name


def _canon(x: object, env: dict[str, int], depth: int) -> object:
    if isinstance(x, tuple):
        if x and all(isinstance(s, _STMTS) for s in x):
            return _canon_block(x, env, depth)
        return tuple(_canon(i, env, depth) for i in x)
    if not dataclasses.is_dataclass(x) or isinstance(x, type):
        return x
    if isinstance(x, ast.Name):
        return ("Name", _ref(x.id, env))
    if isinstance(x, ast.Target):
        if x.item is not None:
            return ("Target", _ref(x.name, env), _canon(x.index, env, depth), _canon(x.item, env, depth))
        return ("Target", _ref(x.name, env), _canon(x.index, env, depth))
    if isinstance(x, ast.Comprehension):
        inner = env | {x.var: depth}
        if x.more:  # each clause sees the names bound before it
            clauses: list[object] = []
            for i, (var, domain, cond) in enumerate(x.more):
                clauses.append((_canon(domain, inner, depth + 1 + i),))
                inner = inner | {var: depth + 1 + i}
                clauses.append(_canon(cond, inner, depth + 2 + i))
            return ("Comprehension", x.func, _canon(x.domain, env, depth),
                    _canon(x.elt, inner, depth + 1 + len(x.more)),
                    _canon(x.cond, env | {x.var: depth}, depth + 1), tuple(clauses))
        return ("Comprehension", x.func, _canon(x.domain, env, depth),
                _canon(x.elt, inner, depth + 1), _canon(x.cond, inner, depth + 1))
    if isinstance(x, ast.For):
        return ("For", _canon(x.domain, env, depth), _canon_block(x.body, env | {x.var: depth}, depth + 1))
    if isinstance(x, ast.Ask):
        return ("Ask", x.secret, _canon(x.seat, env, depth), _canon(x.domain, env, depth),
                _canon_block(x.body, env | {x.var: depth}, depth + 1))
    if isinstance(x, ast.Let):  # outside a block: binds nothing after it
        return ("Let", _canon(x.value, env, depth))
    params = getattr(x, "params", None)
    if isinstance(params, tuple) and all(hasattr(p, "name") and hasattr(p, "type") for p in params):
        inner = dict(env)
        for i, p in enumerate(params):
            inner[p.name] = depth + i
        rest = tuple((f.name, _canon(getattr(x, f.name), inner, depth + len(params)))
                     for f in dataclasses.fields(x) if f.name not in ("span", "params"))
        return (type(x).__name__, tuple(_canon(p.type, env, depth) for p in params), rest)
    return (type(x).__name__,
            tuple((f.name, _canon(getattr(x, f.name), env, depth)) for f in dataclasses.fields(x)
                  if f.name != "span"))


def _canon_block(stmts: tuple[Any, ...], env: dict[str, int], depth: int) -> tuple[object, ...]:
    out: list[object] = []
    for s in stmts:
        if isinstance(s, ast.Let):  # binds its name for the rest of the block
            out.append(("Let", _canon(s.value, env, depth)))
            env = env | {s.name: depth}
            depth += 1
        else:
            out.append(_canon(s, env, depth))
    return tuple(out)


# -- rendering ---------------------------------------------------------------------------------
def render(value: Any, path: Sequence[str] = ()) -> str:
    """A value as a rule file would write it: expressions and effects in the rule language,
    names and numbers plainly, a component as its keys (one a line)."""
    if tuple(path) == ("players",) and isinstance(value, tuple) and value:
        return str(value[0]) if len(value) == 1 else f"[{value[0]}, {value[-1]}]"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, Ty):
        return str(value)
    if isinstance(value, tuple):
        if value and all(isinstance(s, _STMTS) for s in value):
            return unparse_block(value)
        if value and all(isinstance(p, tuple) and len(p) == 2 for p in value):
            return "{" + ", ".join(f"{render(k)}: {render(v)}" for k, v in value) + "}"
        return "[" + ", ".join(render(v) for v in value) + "]"
    if isinstance(value, _STMTS):
        return unparse(value)
    if isinstance(value, _AST_NODES):
        return unparse(value)
    if isinstance(value, ir.NameRef):
        return value.name
    if isinstance(value, ir.Param):
        return f"{value.name}: {value.type}"
    if isinstance(value, (ir.Define, ir.Procedure)):
        signature = value.name + (f"({', '.join(render(p) for p in value.params)})" if value.params else "")
        body = value.body
        if isinstance(body, tuple):
            return f"{signature}:\n" + unparse_block(body, 1)
        if isinstance(value, ir.Define) and value.cached:
            return f"{signature}: {{value: {unparse(body)}, cached: true}}"
        return f"{signature}: {unparse(body)}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _render_component(value)
    return str(value)


def _render_component(value: Any) -> str:
    content = [f.name for f in dataclasses.fields(value) if f.name not in _SKIP and f.name != "name"]
    if len(content) == 1 and _KEYS.get((type(value), content[0]), "x") != "":
        return render(getattr(value, content[0]))
    lines = []
    for name in content:
        v = getattr(value, name)
        if v is None or v == () or v == "":
            continue
        key = _KEYS.get((type(value), name), name)
        if _named(v):
            inner = "\n".join(_entry(x.name, render(x)) for x in v)
            text = inner if not key else f"{key}:\n" + _indent(inner)
            lines.append(text)
            continue
        lines.append(_entry(key, render(v)))
    return "\n".join(lines)


def _entry(key: str, shown: str) -> str:
    return f"{key}:\n{_indent(shown)}" if "\n" in shown else f"{key}: {shown}"


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _names(names: Sequence[str]) -> str:
    return "[" + ", ".join(names) + "]"
