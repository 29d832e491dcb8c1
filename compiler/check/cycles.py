"""Name binding, the cycles: definitions that use themselves and procedures that call
themselves, directly or through others, are refused (either would recurse at run time until
Python gives up). Lowering and the passes count on it (`see check.cycles` in their comments)."""

from __future__ import annotations

from collections.abc import Callable

from ...core.source import SourceSpan
from .. import ast, ir
from ..names import base_calls, base_use, references


def cycles(rs: ir.RuleSet, error: Callable[[SourceSpan, str, str], None]) -> None:
    """Refuses definitions that use themselves and procedures that call themselves, directly
    or through others: either would recurse at run time until Python gives up."""
    defines = {d.name: d for d in reversed(rs.defines)}  # (the first of a name declared twice)
    procedures = {p.name: p for p in reversed(rs.procedures)}
    uses, define_spans = _define_uses(rs.defines, defines)
    calls = {name: sorted({n for n, _ in references(p.body) if n in procedures})
             for name, p in procedures.items()}
    for graph, spans, what, verb, hint in (
        (uses, define_spans, "definition", "uses",
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
                error(spans[start], f"{what} `{start}` {verb} itself: {' -> '.join(path)}", hint)


def _define_uses(declared: tuple[ir.Define, ...], defines: dict[str, ir.Define],
                 ) -> tuple[dict[str, list[str]], dict[str, SourceSpan]]:
    """Which definitions each definition uses, and where each is, for `cycles`: `base(rent(a))`
    in `rent` uses the version it replaced (`base(rent)`, a definition of its own), not `rent`."""
    uses: dict[str, list[str]] = {}
    spans = {d.name: d.span for d in declared}
    for name, d in defines.items():
        label, version = name, d
        while True:
            calls = list(base_calls(version.body))
            inner = {(a.func if isinstance(a, ast.Call) else a.id, a.span) for c in calls for a in c.args[:1]
                     if isinstance(a, ast.Call | ast.Name)}
            used = {n for n, where in references(version.body) if n in defines and (n, where) not in inner}
            if not calls or version.base is None:
                uses[label] = sorted(used)
                break
            earlier = base_use(label)
            uses[label] = sorted(used | {earlier})
            spans.setdefault(earlier, version.base.span)
            label, version = earlier, version.base
    return uses, spans


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
