"""`define:`, `procedures:`, `scoring:` and `invariants:`: the named expressions and effects; with
each definition and scoring term, the versions it replaced that `base(...)` uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from ...core.load import YMap, YNode, YScalar
from ...core.source import SourceSpan, did_you_mean
from .. import ir
from ..merge import Stacked, key_name
from ..names import base_calls, base_use
from .keys import DEFINE_KEYS, INVARIANT_KEYS
from .reader import Reader


def read_defines(r: Reader, node: YNode | None, span: SourceSpan, entity_kinds: set[str], enums: set[str],
                 merged: Stacked | None, files: tuple[str, ...]) -> tuple[ir.Define, ...]:
    """`define:`, each definition with the versions it replaced that `base(...)` uses."""
    defines: list[ir.Define] = []
    define_node = r.mapping(node, "define") or YMap((), span)
    define_names = [key_name(("define",), str(k.value)) for k, _ in define_node.items]
    for key, value in define_node.items:
        define = _define(r, key, value, entity_kinds, enums)
        if define is not None:
            defines.append(_with_bases(r, "define", define, merged, files, lambda reader, k, v: _define(
                reader, k, v, entity_kinds, enums), define_names))
    return tuple(defines)


def read_procedures(r: Reader, node: YNode | None, span: SourceSpan, entity_kinds: set[str], enums: set[str],
                    ) -> tuple[ir.Procedure, ...]:
    """`procedures:`, each a signature and a block of effects."""
    procedures: list[ir.Procedure] = []
    for key, value in (r.mapping(node, "procedures") or YMap((), span)).items:
        sig = r.signature(key, entity_kinds, enums)
        body_stmts = r.block(value, f"procedure `{key.value}`")
        if sig:
            procedures.append(ir.Procedure(sig[0], sig[1], body_stmts, key.span))
    return tuple(procedures)


def read_scoring(r: Reader, node: YNode | None, span: SourceSpan, merged: Stacked | None, files: tuple[str, ...],
                 ) -> tuple[ir.ScoreTerm, ...]:
    """`scoring:`, each term with the versions it replaced that `base(...)` uses."""
    scoring: list[ir.ScoreTerm] = []
    scoring_node = r.mapping(node, "scoring") or YMap((), span)
    for key, value in scoring_node.items:
        term = _score_term(r, key, value)
        if term is not None:
            scoring.append(_with_bases(r, "scoring", term, merged, files, _score_term, scoring_node.keys()))
    return tuple(scoring)


def _define(r: Reader, key: YScalar, value: YNode, entity_kinds: set[str], enums: set[str]) -> ir.Define | None:
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


def _score_term(r: Reader, key: YScalar, value: YNode) -> ir.ScoreTerm | None:
    """One scoring term, an expression over `player`."""
    term = r.declared(key, "a scoring term")
    expr = r.expr(value, f"scoring term `{key.value}`")
    return ir.ScoreTerm(term, expr, key.span) if term is not None and expr is not None else None


_Versioned = TypeVar("_Versioned", ir.Define, ir.ScoreTerm)


def _with_bases(r: Reader, section: str, newest: _Versioned, merged: Stacked | None, files: tuple[str, ...],
                make: Callable[[Reader, YScalar, YNode], _Versioned | None], names: list[str]) -> _Versioned:
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


def read_invariants(r: Reader, node: YNode | None) -> tuple[ir.Invariant, ...]:
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
