"""A variant's module as a subclass of the module of the rule set it extends.

A variant holds only what differs from its base, and so can its generated module: `derive`
compares the two complete modules the code generator wrote, keeps in the variant only the
members whose code differs (or that are new), and imports the rest from the base module, whose
state class it subclasses. Both texts come from the same compiler run, so the result is as
deterministic as they are.

It gives up (returns None, and the complete module is kept) wherever inheriting could change
what the code means: a module-level name both define differently that code inherited from the
base still reads (a phase or value numbered otherwise), or a field whose type changed.
"""

from __future__ import annotations

import ast
import functools
import re
import textwrap
from dataclasses import dataclass

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CONTINUED = ("elif", "else:", "except", "finally:", ")", "]", "}")


@dataclass(frozen=True, slots=True)
class _Member:
    name: str  # what it defines ("" for a docstring)
    kind: str  # def, value, annotation, doc, import, other
    text: str  # its lines, as written


def _lines(lines: list[str], node: ast.stmt) -> str:
    """The whole lines of a statement, trailing comment included (`lines`: the module's, split once)."""
    return "\n".join(lines[node.lineno - 1 : (node.end_lineno or node.lineno)])


def _target(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def _members(source: str, body: list[ast.stmt]) -> list[_Member]:
    out = []
    lines = source.splitlines()
    for node in body:
        name = _target(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            out.append(_Member("", "doc", _lines(lines, node)))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            out.append(_Member("", "import", _lines(lines, node)))
        elif name is None:
            out.append(_Member("", "other", _lines(lines, node)))
        elif isinstance(node, ast.FunctionDef):
            out.append(_Member(name, "def", _lines(lines, node)))
        elif isinstance(node, ast.AnnAssign) and node.value is None:
            out.append(_Member(name, "annotation", _lines(lines, node)))
        else:
            out.append(_Member(name, "value", _lines(lines, node)))
    return out


def _names(text: str) -> set[str]:
    return set(_WORD.findall(re.sub(r"#.*|'[^'\n]*'|\"[^\"\n]*\"", "", text)))


def _state_class(tree: ast.Module) -> ast.ClassDef | None:
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    return classes[0] if len(classes) == 1 else None


@functools.lru_cache(maxsize=8)
def _tree(source: str) -> ast.Module:
    """A generated module's syntax tree, read only: `compile` parses a base module once to find
    what it defines and again to derive each of its variants from it."""
    return ast.parse(source)


def defines(source: str) -> set[str]:
    """The names a module defines at its top level (not the ones it imports)."""
    return {name for node in _tree(source).body if (name := _target(node)) is not None}


def derive(base_source: str, variant_source: str, base_module: str, origins: dict[str, str]) -> str | None:
    """The variant's module importing what it shares with the base, or None. `base_module` is
    the base's module, `origins` the module that defines each name the base's module has."""
    base_tree, variant_tree = _tree(base_source), _tree(variant_source)
    base_class, variant_class = _state_class(base_tree), _state_class(variant_tree)
    if base_class is None or variant_class is None:
        return None
    base_top = {m.name: m for m in _members(base_source, base_tree.body) if m.name}
    base_body = {m.name: m for m in _members(base_source, base_class.body) if m.name}
    top = [m for m in _members(variant_source, variant_tree.body) if m.kind != "import"]
    body = _members(variant_source, variant_class.body)

    # The class: the members whose code differs, the new ones, and the new slots.
    kept: list[str] = []
    overridden: set[str] = set()
    for m in body:
        old = base_body.get(m.name)
        if m.kind == "doc":
            kept.append(m.text + "\n")
        elif m.name == "__slots__":
            slots = ast.literal_eval(m.text.split("=", 1)[1].strip())
            base_slots = ast.literal_eval(old.text.split("=", 1)[1].strip()) if old else ()
            new = tuple(s for s in slots if s not in base_slots)
            kept.append(f"    __slots__ = {new!r}")
        elif old is None or old.text != m.text:
            if m.kind == "annotation" and old is not None:
                return None  # a field whose type changed: the base's code would read it as before
            text = _appended(old.text, m, base_class.name) if old is not None else None
            text = text or m.text
            kept.append("\n" + text if m.kind == "def" else text)
            overridden.add(m.name)
    inherited = [m for name, m in base_body.items() if name not in overridden]
    inherited_reads = set().union(*(_names(m.text) for m in inherited)) if inherited else set()

    # Module level: what differs is defined here, unless inherited code reads the base's.
    header: list[str] = []
    for line in variant_source.splitlines():
        if not line.startswith("#"):
            break
        header.append(line)
    defined: list[str] = []
    doc = ""
    for m in top:
        if m.kind == "doc":
            doc = m.text
            continue
        if m.name == variant_class.name:
            continue
        old = base_top.get(m.name)
        if old is not None and old.text == m.text:
            continue
        if old is not None and m.name in inherited_reads and m.name != "GAME":
            return None
        defined.append(m.text)
    class_text = "\n".join(kept)
    own = "\n".join(defined)
    used = _names(class_text) | _names(own)
    imported = sorted(n for n in base_top if n in used and n not in _names_defined(defined) and n != "GAME")
    by_module: dict[str, list[str]] = {base_module: [base_class.name]}
    for n in imported:
        by_module.setdefault(origins.get(n, base_module), []).append(n)
    typing_names = [n for n in ("Any", "ClassVar", "Final") if re.search(rf"\b{n}\b", class_text + own)]
    lines = [*header, doc, "", "from __future__ import annotations", ""]
    if "Sequence[" in class_text + own:
        lines.append("from collections.abc import Sequence")
    if typing_names:
        lines.append(f"from typing import {', '.join(typing_names)}")
    if lines[-1] != "":
        lines.append("")
    lines.append("from rulewright import runtime as rt")
    for module in sorted(by_module):
        lines.append(f"from {module} import (")
        lines += [f"    {n}," for n in _isort(by_module[module])]
        lines.append(")")
    constants = [d for d in defined if not d.startswith(("def ", "GAME"))]
    functions = [d for d in defined if d.startswith("def ")]
    game = [d for d in defined if d.startswith("GAME")]
    lines.append("")
    if constants:
        lines.append("# -- Names this variant adds or numbers otherwise ------------------------------------------")
        lines += constants
        lines.append("")
    for f in functions:
        lines += ["", f, ""]
    lines += ["", f"class {variant_class.name}({base_class.name}):"]
    lines.append(class_text)
    lines += ["", "", *game]
    text = re.sub(r"\n{4,}", "\n\n\n", "\n".join(lines) + "\n")
    try:
        compile(text, "<derived module>", "exec")
    except SyntaxError:  # never expected; the whole module is always right
        return None
    return text


def _appended(old: str, new: _Member, base_class: str) -> str | None:
    """`new` written as `old` plus what it adds, where it only adds at the end: a method that
    returns nothing calls the base's first (`super()._copy_fields(other)`), a tuple or a dict
    of the class extends the base's (`ChinaSchachtState.FIELDS + (...)`)."""
    before, after = old.splitlines(), new.text.splitlines()
    if len(after) <= len(before) or after[0] != before[0]:
        return None
    if new.kind == "def":
        if not after[0].rstrip().endswith("-> None:") or after[: len(before)] != before:
            return None
        node = ast.parse(textwrap.dedent(new.text)).body[0]
        assert isinstance(node, ast.FunctionDef)
        args = ", ".join(a.arg for a in node.args.args[1:])
        opening = node.body[0]  # its docstring, all of its lines, if it has one
        has_doc = isinstance(opening, ast.Expr) and isinstance(opening.value, ast.Constant) \
            and isinstance(opening.value.value, str)
        doc = after[1 : opening.end_lineno or 2] if has_doc else []
        indent = after[1][: len(after[1]) - len(after[1].lstrip())]
        first = after[len(before)]
        if not first.startswith(indent) or first[len(indent)].isspace() or first.split()[0] in _CONTINUED:
            return None  # what it adds continues the base's last statement (an `elif` of a chain)
        return "\n".join([after[0], *doc, f"{indent}super().{new.name}({args})", *after[len(before):]])
    closing = before[-1].strip()
    if new.kind != "value" or closing not in (")", "}") or after[-1] != before[-1]:
        return None
    if after[: len(before) - 1] != before[:-1] or not after[0].rstrip().endswith(("(", "{")):
        return None
    head = after[0].rstrip()[:-1]
    added = after[len(before) - 1 : -1]
    if closing == ")":
        return "\n".join([f"{head}{base_class}.{new.name} + (", *added, after[-1]])
    indent = added[0][: len(added[0]) - len(added[0].lstrip())] if added else "        "
    return "\n".join([f"{head}{{", f"{indent}**{base_class}.{new.name},", *added, after[-1]])


def _names_defined(defined: list[str]) -> set[str]:
    out = set()
    for text in defined:
        match = re.match(r"(?:def\s+)?([A-Za-z_][A-Za-z0-9_]*)", text)
        if match:
            out.add(match.group(1))
    return out


def _isort(names: list[str]) -> list[str]:
    """In the order isort (and ruff's `I`) wants: CONSTANTS, then Classes, then the others."""
    def kind(n: str) -> int:
        if n.isupper() or (n.upper() == n and any(c.isalpha() for c in n)):
            return 0
        return 1 if n[:1].isupper() else 2
    return sorted(set(names), key=lambda n: (kind(n), n))
