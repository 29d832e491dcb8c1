"""`rulewright explain`: what a rule set defines, and so what a variant can change.

`catalogue(ruleset, tree)` lists every option, enumeration, component, state field,
definition, procedure, phase, action, trigger, scoring term and invariant of a resolved rule
set (the IR as `driver.build` makes it, every node with the `file:line` of the file that last
set it), each with a signature in the rule language's own words, its doc and where it is
written. `explain_name` adds, for one name,
every place it is used (a name in an expression, a call, an assignment to it, a `goto`, an
action named by a phase or a trigger; a local variable of the same name counts too) and the
changes each variant built on the rule set makes to it (`compiler.diff.diff`, the same
comparison as `rulewright diff`), and, for a definition or scoring term a variant rewrote with
`base(...)`, the version that uses and where it is written (`replaced`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .compiler import ast, ir
from .compiler.diff import Change, diff, load_ruleset
from .compiler.names import base_use, base_version
from .compiler.types import Ty
from .compiler.unparse import unparse
from .core.load import YMap, YScalar
from .core.paths import display
from .core.source import CompileError, SourceSpan
from .runtime.errors import whole_number

# The kinds listed, in the order shown, with the rule file's key of each.
KINDS = ("option", "enum", "component", "field", "definition", "procedure", "phase", "action", "trigger", "scoring",
         "invariant", "returns")
# The IR's fields named differently in a rule file (as compiler/diff.py names them).
_SECTION = {"fields": "state", "defines": "define", "choices": "choose", "region_kinds": "regions"}
# The IR's fields that are the whole of what a rule file writes for a component (a definition's
# expression, a procedure's effect, a scoring term's expression): no key of their own.
_WHOLE = ("body", "expr")


@dataclass(frozen=True, slots=True)
class Entry:
    kind: str  # one of KINDS
    name: str
    signature: str  # in the rule language's words
    doc: str
    where: str  # file:line

    def to_json(self) -> dict[str, str]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class Use:
    rule: str  # the rule path it is used in: `actions.prospect.effect`
    where: str  # file:line


@dataclass(frozen=True, slots=True)
class VariantChange:
    variant: str  # the variant's id or file, as shown
    change: Change


def _params(params: tuple[ir.Param, ...]) -> str:
    return ", ".join(f"{p.name}: {p.type}" for p in params)


def _doc(tree: YMap | None, section: str, name: str) -> str:
    """The `doc:` written for a component, from the resolved tree (the IR keeps no doc of an action
    or trigger)."""
    node = tree.get(section) if tree is not None else None
    if not isinstance(node, YMap):
        return ""
    for key, value in node.items:
        if str(key.value) == name and isinstance(value, YMap):
            doc = value.get("doc")
            return str(doc.value).strip() if isinstance(doc, YScalar) and doc.value is not None else ""
    return ""


def define_signature(d: ir.Define, returns: Ty | None = None) -> str:
    """`most(n: int) -> int = n if n < left else left`: a definition in the rule language's words,
    with the type of its value when it is known."""
    ty = f" -> {returns}" if returns is not None else ""
    return f"{d.name}({_params(d.params)}){ty} = {unparse(d.body)}" + ("  (cached)" if d.cached else "")


def score_signature(s: ir.ScoreTerm) -> str:
    """`pebbles = kept[player]`: a scoring term in the rule language's words."""
    return f"{s.name} = {unparse(s.expr)}"


def catalogue(ruleset: ir.RuleSet, tree: YMap | None = None, returns: dict[str, Ty] | None = None) -> list[Entry]:
    """Every component a variant can change, in the order of KINDS, each in the order written;
    `returns`, the type of each definition's value (the checker's), completes its signature."""
    returns = returns or {}
    out: list[Entry] = []
    for o in ruleset.options:
        choices = " | ".join(o.choices)
        out.append(Entry("option", o.name, f"{o.name} = {o.default}" + (f"  ({choices})" if choices else ""),
                         o.doc.strip(), o.span.short))
    for en in ruleset.enums:
        out.append(Entry("enum", en.name, f"{en.name}: {', '.join(en.values)}", "", en.span.short))
    for c in ruleset.components:
        attributes = "".join(f", {a.name} = {unparse(a.value)}" for a in c.attributes)
        every = f", all: {c.all_name}" if c.all_name else ""
        out.append(Entry("component", c.name, f"{c.name}: {c.count}{every}{attributes}",
                         _doc(tree, "components", c.name), c.span.short))
    for f in ruleset.fields:
        per = f" per {f.per}" if f.per else ""
        out.append(Entry("field", f.name, f"{f.name}: {f.type}{per} = {unparse(f.init)}, visible: {f.visible}",
                         f.doc.strip(), f.span.short))
    for d in ruleset.defines:
        out.append(Entry("definition", d.name, define_signature(d, returns.get(d.name)), "", d.span.short))
    for p in ruleset.procedures:
        out.append(Entry("procedure", p.name, f"{p.name}({_params(p.params)})", "", p.span.short))
    for ph in ruleset.phases:
        then = f" -> {ph.then.name}" if ph.then else ""
        out.append(Entry("phase", ph.name, f"{ph.name}: {', '.join(a.name for a in ph.actions)}{then}", "",
                         ph.span.short))
    for a in ruleset.actions:
        choose = ", ".join(f"{c.name} in {unparse(c.domain)}" for c in a.choices)
        when = f" when {unparse(a.when)}" if a.when is not None else ""
        out.append(Entry("action", a.name, f"{a.name}({choose}){when}: \"{a.text}\"", _doc(tree, "actions", a.name),
                         a.span.short))
    for t in ruleset.triggers:
        at = [f"after {', '.join(n.name for n in t.after)}"] if t.after else []
        at += [f"at {t.at}"] if t.at else []
        at += [f"when {unparse(t.when)}"] if t.when is not None else []
        out.append(Entry("trigger", t.name, f"{t.name}: {'; '.join(at)}", _doc(tree, "triggers", t.name),
                         t.span.short))
    for s in ruleset.scoring:
        out.append(Entry("scoring", s.name, score_signature(s), "", s.span.short))
    for inv in ruleset.invariants:
        out.append(Entry("invariant", inv.name, f"{inv.name}: {unparse(inv.expr)}", inv.doc.strip(),
                         inv.span.short))
    if ruleset.returns is not None:  # (`returns:`: one per rule set, named by its key)
        r = ruleset.returns
        said = [f"sum: {r.sum}"] if r.sum is not None else []
        said += [f"range: [{r.range[0]}, {r.range[1]}]"] if r.range is not None else []
        node = tree.get("returns") if tree is not None else None
        doc = node.get("doc") if isinstance(node, YMap) else None
        out.append(Entry("returns", "returns", "; ".join([f"returns = {unparse(r.value)}", *said]),
                         str(doc.value).strip() if isinstance(doc, YScalar) and doc.value is not None else "",
                         r.span.short))
    return out


def uses(ruleset: ir.RuleSet, name: str) -> list[Use]:
    """Every place `name` is used, in the order of the rule set: each with its rule path."""
    found: list[Use] = []
    seen: set[Use] = set()

    def add(rule: str, span: SourceSpan) -> None:
        use = Use(rule, span.short)  # several uses on one line are one
        if use not in seen:
            seen.add(use)
            found.append(use)

    def walk(node: object, rule: str) -> None:
        if isinstance(node, tuple):
            for item in node:
                walk(item, rule)
            return
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            return
        if ((isinstance(node, ast.Name) and node.id == name) or (isinstance(node, ast.Call) and node.func == name)
                or (isinstance(node, ast.Goto) and node.phase == name)
                or (isinstance(node, ast.Target) and node.name == name)
                or (isinstance(node, ir.NameRef) and node.name == name)):
            add(rule, node.span)
        for f in dataclasses.fields(node):
            if f.name in ("span", "files"):
                continue
            walk(getattr(node, f.name), rule)

    for f in dataclasses.fields(ruleset):
        value = getattr(ruleset, f.name)
        section = _SECTION.get(f.name, f.name)
        if isinstance(value, tuple) and value and all(dataclasses.is_dataclass(v) and hasattr(v, "name")
                                                      for v in value):
            for component in value:
                for g in dataclasses.fields(component):
                    if g.name not in ("span", "name"):
                        part = "" if g.name in _WHOLE else f".{_SECTION.get(g.name, g.name)}"
                        walk(getattr(component, g.name), f"{section}.{component.name}{part}")
        else:
            walk(value, section)
    return sorted(found, key=lambda u: _line_key(u.where))


def _line_key(where: str) -> tuple[str, int]:
    file, _, line = where.rpartition(":")
    return file, whole_number(line) or 0


def variants_of(path: Path, ruleset: ir.RuleSet) -> list[tuple[str, ir.RuleSet]]:
    """The rule files of the same folder built on `path` (for a bundled rule set, its game's
    variants), each with its IR; one that does not build is left out."""
    own = display(path.resolve())
    out: list[tuple[str, ir.RuleSet]] = []
    for other in sorted(path.parent.glob("*.yaml")):
        if other.resolve() == path.resolve():
            continue
        try:
            built = load_ruleset(other)
        except CompileError:
            continue
        if own in built.files:
            out.append((display(other), built))
    return out


def changes_to(name: str, ruleset: ir.RuleSet, variants: list[tuple[str, ir.RuleSet]]) -> list[VariantChange]:
    """What each variant changes in the component `name` (its rule paths `SECTION.name...`)."""
    return [VariantChange(shown, c) for shown, other in variants for c in diff(ruleset, other)
            if c.path.split(".")[1:2] == [name]]


def replaced(ruleset: ir.RuleSet, kind: str, name: str, returns: dict[str, Ty] | None = None
             ) -> list[dict[str, str]]:
    """For a definition or scoring term that a variant rewrote in terms of the version it replaces
    (`base(...)`, docs/variants.md): that version, and the one it uses in turn, down the chain;
    each as `base(...)` names it, its signature (`returns`: the checker's types, by the version's
    method) and where it is written. Empty for any other name."""
    returns = returns or {}
    out: list[dict[str, str]] = []
    version: ir.Define | ir.ScoreTerm | None = None
    if kind == "definition":
        version = next((d for d in ruleset.defines if d.name == name), None)
    elif kind == "scoring":
        version = next((s for s in ruleset.scoring if s.name == name), None)
    depth = 0
    while version is not None and version.base is not None:
        earlier, depth = version.base, depth + 1
        if isinstance(earlier, ir.Define):
            method = base_version("define", name, depth)
            out.append({"base": base_use(name, "..." if earlier.params else None),
                        "is": define_signature(earlier, returns.get(method)), "where": earlier.span.short})
        else:
            out.append({"base": base_use(name), "is": score_signature(earlier), "where": earlier.span.short})
        version = earlier
    return out


def explain_name(entries: list[Entry], path: Path, ruleset: ir.RuleSet, name: str,
                 returns: dict[str, Ty] | None = None) -> dict[str, Any] | None:
    """What `name` is (among `entries`, the rule set's catalogue), where it is used and which
    variants change it; None if nothing is named so. A definition or scoring term that uses the
    version it replaces (`base(...)`) says which that is, and where (`replaces`: see `replaced`)."""
    defined = [e for e in entries if e.name == name]
    if not defined:
        return None
    definitions = []
    for e in defined:
        versions = replaced(ruleset, e.kind, name, returns)
        definitions.append({**e.to_json(), "replaces": versions} if versions else e.to_json())
    return {
        "name": name,
        "definitions": definitions,
        "uses": [dataclasses.asdict(u) for u in uses(ruleset, name)],
        "variants": [{"variant": v.variant, **v.change.to_json()}
                     for v in changes_to(name, ruleset, variants_of(path, ruleset))],
    }
