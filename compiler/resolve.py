"""Stage 2, resolve: follow `extends:` and merge a variant onto what it extends.

`resolve(path)` is the one entry point. Merge semantics, by name and never by list position:
  * mappings merge key by key, recursively (options, actions, triggers, state fields, ...);
  * a key set to `null` (`~`) in the variant removes that component;
  * any other value (a scalar, a list, an expression) replaces the one it overrides.
Every node keeps the span of the file it was written in, so errors and diffs name the variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .load import LoadError, YMap, YNode, YScalar, YSeq, load
from .paths import display, ruleset_file
from .source import Diagnostic, SourceSpan


@dataclass(frozen=True, slots=True)
class Resolved:
    tree: YMap
    files: tuple[Path, ...]  # every file used, the most basic first
    variant: str


class ResolveError(Exception):
    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def variant_name(path: Path) -> str:
    return path.stem


def resolve(path: Path) -> Resolved:
    files: list[Path] = []
    tree = _resolve(Path(path), [], files)
    return Resolved(tree, tuple(files), variant_name(Path(path)))


def _load(path: Path) -> YMap:
    shown = display(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResolveError([Diagnostic(SourceSpan(shown, 1, 1, 1, 1), "no such rule file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ResolveError([Diagnostic(SourceSpan(shown, 1, 1, 1, 1), f"cannot read rule file: {exc}")]) from None
    try:
        return load(shown, text)
    except LoadError as exc:
        raise ResolveError([exc.diagnostic]) from None


def _target(ref: str, here: Path) -> Path:
    if ref.endswith((".yaml", ".yml")):
        return (here.parent / ref).resolve()
    return ruleset_file(ref)


_MAX_CHAIN = 32


def _resolve(path: Path, stack: list[Path], files: list[Path]) -> YMap:
    tree = _load(path)
    node = tree.get("extends")
    refs: list[YScalar] = []
    if isinstance(node, YScalar) and isinstance(node.value, str):
        refs = [node]
    elif isinstance(node, YSeq) and all(isinstance(n, YScalar) and isinstance(n.value, str) for n in node.items):
        refs = [n for n in node.items if isinstance(n, YScalar)]
    elif node is not None:
        raise ResolveError([Diagnostic(node.span, "`extends:` takes a rule set id or a list of them",
                                       "e.g. extends: china-cornett")])
    merged: YMap | None = None
    here = path.resolve()
    for ref in refs:
        try:  # a name with a NUL byte, or too long for the file system, is no rule set either
            target = _target(str(ref.value), path)
            is_file = target.is_file()
            cyclic = target.resolve() == here or target.resolve() in [p.resolve() for p in stack]
        except (OSError, ValueError):
            raise ResolveError([Diagnostic(ref.span, f"`extends: {ref.value}`: not a usable rule set name",
                                           "bundled rule sets are named like china-cornett or mandarin/money")]
                               ) from None
        if cyclic:
            chain = " -> ".join(display(p) for p in [*stack, path, target])
            raise ResolveError([Diagnostic(ref.span, f"cyclic `extends:`: {chain}",
                                           "a rule set cannot extend itself, even through another")])
        if not is_file:
            raise ResolveError([Diagnostic(ref.span, f"`extends: {ref.value}`: no such rule set ({display(target)})",
                                           "bundled rule sets are named like china-cornett or mandarin/money")])
        if len(stack) >= _MAX_CHAIN:
            raise ResolveError([Diagnostic(ref.span, f"`extends:` chain longer than {_MAX_CHAIN} rule sets")])
        base = _resolve(target, [*stack, path], files)
        merged = base if merged is None else merge(merged, base)
    if path.resolve() not in [f.resolve() for f in files]:
        files.append(path)
    own = YMap(tuple((k, v) for k, v in tree.items if k.value != "extends"), tree.span)
    return own if merged is None else merge(merged, own)


def merge(base: YMap, over: YMap) -> YMap:
    """`over` merged onto `base`, by key."""
    items: list[tuple[YScalar, YNode]] = []
    over_keys = {k.value: (k, v) for k, v in over.items}
    for key, value in base.items:
        if key.value not in over_keys:
            items.append((key, value))
            continue
        okey, ovalue = over_keys[key.value]
        if isinstance(ovalue, YScalar) and ovalue.value is None and not isinstance(value, YScalar):
            continue  # removed by the variant
        if isinstance(value, YMap) and isinstance(ovalue, YMap):
            items.append((key, merge(value, ovalue)))
        else:
            items.append((okey, ovalue))
    base_keys = {k.value for k, _ in base.items}
    for key, value in over.items:
        if key.value not in base_keys and not (isinstance(value, YScalar) and value.value is None):
            items.append((key, value))
    return YMap(tuple(items), over.span)
