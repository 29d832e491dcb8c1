"""Stage 2, resolve: follow `extends:` and merge each variant onto what it extends.

`resolve(path)` is the one entry point. It loads the file and, recursively, every rule set it
extends (`extends: a` or, stacking, `extends: [a, b]`), each file once, and hands them to
`merge.stack`, which holds the merge semantics (by name, `~` removes, `key+`/`key-` patch
lists, conflicts between stacked variants, `incompatible:`, `family:`). Every node keeps the span of the
file it was written in, so errors and diffs name the variant.

Every file, the one named and each one it extends, is looked at before it is read: its path
must be plain and its name a module name (`paths.path_problem`), and it must be a regular file
of at most 1 MiB (`load.read_rule_file`); anything else is one error at `path:1:1`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.load import LoadError, YMap, YNode, YScalar, YSeq, load, read_rule_file
from ..core.paths import RULESET_ID, bundled_rulesets, display, path_problem, rules_dir, ruleset_file, shown_safely
from ..core.source import Diagnostic, SourceSpan, did_you_mean
from ..runtime.errors import is_int, shown
from .merge import Family, Layer, MergeError, Stacked, own_keys, stacked


@dataclass(frozen=True, slots=True)
class Resolved:
    tree: YMap
    files: tuple[Path, ...]  # every file used, the most basic first
    variant: str
    texts: tuple[str, ...] = ()  # the text of each file, as it was read
    # what each definition and scoring term replaced, for `base(...)` (merge.Stacked)
    merged: Stacked | None = None


class ResolveError(Exception):
    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def variant_name(path: Path) -> str:
    return path.stem


def ruleset_id(path: Path) -> str:
    """`china-cornett` for rules/china-cornett/base.yaml, `mandarin/money` for
    rules/mandarin/money.yaml; a file elsewhere is named by its path."""
    try:
        relative = path.resolve().relative_to(rules_dir().resolve())
    except ValueError:
        return display(path)
    if len(relative.parts) != 2:
        return display(path)
    return relative.parts[0] if path.stem == "base" else f"{relative.parts[0]}/{path.stem}"


def resolve(path: Path) -> Resolved:
    layers: dict[Path, Layer] = {}
    files: list[Path] = []
    texts: dict[Path, str] = {}
    _resolve(Path(path), [], layers, files, texts, None)
    order = list(layers.values())  # each file after every file it extends
    try:
        merged = stacked(order[0], order[1:])
    except MergeError as exc:
        raise ResolveError(exc.diagnostics) from None
    return Resolved(merged.tree, tuple(files), variant_name(Path(path)), tuple(texts[f] for f in files), merged)


def _load(path: Path, named_at: SourceSpan | None) -> tuple[YMap, str]:
    """The tree and text of one rule file, refused whole (at `path:1:1`) if its path cannot be
    written into generated code or it is no regular file of a readable size."""
    shown = display(path)
    where = SourceSpan(shown_safely(shown), 1, 1, 1, 1)
    hint = f"`extends:` names it at {named_at}" if named_at is not None else None
    try:
        text = read_rule_file(path, where.path)
    except LoadError as exc:
        d = exc.diagnostic
        raise ResolveError([Diagnostic(d.span, d.message, hint or d.hint, d.severity)]) from None
    problem = path_problem(path)
    if problem is not None:
        message, how = problem
        raise ResolveError([Diagnostic(where, message, f"{hint}; {how}" if hint else how)])
    try:
        return load(shown, text), text
    except LoadError as exc:
        raise ResolveError([exc.diagnostic]) from None


def _target(ref: str, here: Path) -> Path:
    if ref.endswith((".yaml", ".yml")):
        return (here.parent / ref).resolve()
    if not RULESET_ID.fullmatch(ref):  # `china-cornett/../../x` names no bundled rule set
        raise ValueError(ref)
    return ruleset_file(ref)


_MAX_CHAIN = 32


def bundled_ids() -> list[str]:
    """The ids of the bundled rule sets (rules/<game>/<name>.yaml), for a did-you-mean."""
    return sorted(rid for rid, _ in bundled_rulesets())


def _refs(node: YNode | None, key: str) -> list[YScalar]:
    """The rule sets named by `extends:` or `incompatible:`: one name or a list of them."""
    if node is None:
        return []
    if isinstance(node, YScalar) and isinstance(node.value, str):
        return [node]
    if isinstance(node, YSeq) and all(isinstance(n, YScalar) and isinstance(n.value, str) for n in node.items):
        return [n for n in node.items if isinstance(n, YScalar)]
    raise ResolveError([Diagnostic(node.span, f"`{key}:` takes a rule set id or a list of them",
                                   f"e.g. {key}: china-cornett")])


def _existing(ref: YScalar, path: Path, key: str, stack: list[Path] | None) -> Path:
    """The rule file `ref` names; with `stack`, also refuses a cycle."""
    here = path.resolve()
    try:  # a name with a NUL byte, or too long for the file system, is no rule set either
        target = _target(str(ref.value), path)
        try:
            os.stat(target)  # (a FIFO or device is not opened here: reading it is refused later)
            exists = True
        except FileNotFoundError:
            exists = False
        cyclic = stack is not None and (target.resolve() == here
                                        or target.resolve() in [p.resolve() for p in stack])
    except (OSError, ValueError):
        shown = shown_safely(str(ref.value))
        raise ResolveError([Diagnostic(ref.span, f"`{key}: {shown}`: not a usable rule set name",
                                       "bundled rule sets are named like china-cornett or mandarin/money")]
                           ) from None
    if cyclic:
        assert stack is not None
        chain = " -> ".join(shown_safely(display(p)) for p in [*stack, path, target])
        raise ResolveError([Diagnostic(ref.span, f"cyclic `extends:`: {chain}",
                                       "a rule set cannot extend itself, even through another")])
    if not exists:
        close = did_you_mean(str(ref.value), bundled_ids()) if RULESET_ID.fullmatch(str(ref.value)) else None
        raise ResolveError([Diagnostic(ref.span, f"`{key}: {shown_safely(str(ref.value))}`: no such rule set "
                                                f"({shown_safely(display(target))})",
                                       close or "bundled rule sets are named like china-cornett or mandarin/money")])
    return target


def _resolve(path: Path, stack: list[Path], layers: dict[Path, Layer], files: list[Path],
             texts: dict[Path, str], named_at: SourceSpan | None) -> Layer:
    """Load `path` and everything it extends, adding each file's layer once, bases first."""
    known = layers.get(path.resolve())
    if known is not None:  # a base shared by two stacked variants is applied once
        return known
    tree, text = _load(path, named_at)
    extends = tree.get("extends")
    bases: list[str] = []
    for ref in _refs(extends, "extends"):
        target = _existing(ref, path, "extends", stack)
        if len(stack) >= _MAX_CHAIN:
            raise ResolveError([Diagnostic(ref.span, f"`extends:` chain longer than {_MAX_CHAIN} rule sets")])
        base = _resolve(target, [*stack, path], layers, files, texts, ref.span)
        bases.extend(f for f in (*base.bases, base.file) if f not in bases)
    refused = tuple((ref, display(_existing(ref, path, "incompatible", None)))
                    for ref in _refs(tree.get("incompatible"), "incompatible"))
    families = _families(tree.get("family"))
    layer = Layer(display(path), ruleset_id(path), own_keys(tree), tuple(bases), refused, extends, families)
    layers[path.resolve()] = layer
    files.append(path)
    texts[path] = text
    return layer


FAMILY_KEYS = ("name", "at_most", "draws", "doc", "quote")
_FAMILY_NAME = re.compile(r"[a-z][a-z0-9_-]*")
_FAMILY_EXAMPLE = "e.g. `family: {name: event-cards, at_most: 2}`"


def _families(node: YNode | None) -> tuple[Family, ...]:
    """The `family:` declarations of one file: one mapping or a list of them, each
    `{name: NAME, at_most: N}` (a member) or `{name: NAME, draws: N}` (a file whose rules draw
    among the members), with an optional `doc:` and `quote:`. Refuses every malformed one."""
    if node is None:
        return ()
    problems: list[Diagnostic] = []
    out: list[Family] = []
    items = node.items if isinstance(node, YSeq) else (node,)
    for item in items:
        if not isinstance(item, YMap):
            problems.append(Diagnostic(item.span, "`family:` takes a mapping, or a list of them",
                                       f"{_FAMILY_EXAMPLE} (a member), or `{{name: event-cards, draws: 2}}`"))
            continue
        family = _family(item, problems)
        if family is None:
            continue
        twice = next((f for f in out if f.name == family.name), None)
        if twice is not None:
            problems.append(Diagnostic(family.name_node.span, f"the family `{family.name}` is declared twice here",
                                       f"the other declaration is at {twice.name_node.span}"))
            continue
        out.append(family)
    if problems:
        raise ResolveError(problems)
    return tuple(out)


def _family(node: YMap, problems: list[Diagnostic]) -> Family | None:
    """One `family:` mapping, or None (with its problems added)."""
    before = len(problems)
    unknown = False
    for key, value in node.items:
        word = str(key.value)
        if word not in FAMILY_KEYS:
            unknown = True
            problems.append(Diagnostic(key.span, f"unknown key `{shown_safely(word)}` in `family:`",
                                       did_you_mean(word, FAMILY_KEYS) or f"known keys: {', '.join(FAMILY_KEYS)}"))
        elif word in ("doc", "quote") and not (isinstance(value, YScalar) and isinstance(value.value, str)):
            problems.append(Diagnostic(value.span, f"`family:` `{word}:` must be text"))
    name = node.get("name")
    if name is None:
        problems.append(Diagnostic(node.span, "`family:` needs a `name:`", _FAMILY_EXAMPLE))
    elif not (isinstance(name, YScalar) and isinstance(name.value, str) and _FAMILY_NAME.fullmatch(name.value)):
        problems.append(Diagnostic(name.span, "a family's `name:` is a lowercase name, like `event-cards`"))
    at_most, draws = node.key_node("at_most"), node.key_node("draws")
    if at_most is not None and draws is not None:
        second = max(at_most, draws, key=lambda k: (k.span.line, k.span.col))
        problems.append(Diagnostic(second.span, "`family:` takes `at_most:` or `draws:`, not both",
                                   "`at_most: N` makes this file a member of the family; `draws: N` says its "
                                   "rules put at most N of the members in play"))
    elif at_most is None and draws is None and not unknown:  # (a misspelt one is reported as such)
        problems.append(Diagnostic(node.span, "`family:` needs `at_most: N` or `draws: N`",
                                   "`at_most: N`: this file is one of a family of variants of which at most N may "
                                   "be used together; `draws: N`: this file's rules put at most N of them in play"))
    word = "at_most" if at_most is not None else "draws"
    count = node.get(word)
    if count is not None and not (isinstance(count, YScalar) and is_int(count.value) and count.value >= 1):
        said = ("a list" if isinstance(count, YSeq) else "a mapping" if isinstance(count, YMap)
                 else "nothing" if count.value is None else str(count.value).lower()
                 if isinstance(count.value, bool) else shown(count.value))
        problems.append(Diagnostic(count.span, f"`{word}:` must be a whole number of at least 1, not {said}",
                                   f"e.g. `family: {{name: event-cards, {word}: 2}}`"))
    if len(problems) > before:
        return None
    assert isinstance(name, YScalar) and isinstance(count, YScalar) and is_int(count.value)
    return Family(str(name.value), name, count.value, count, draws is not None)
