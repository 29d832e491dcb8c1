"""Reachability: every phase can be reached from the first, along the phases' `then:` and the
`goto`s of the rules (a `goto` anywhere may run from any phase)."""

from __future__ import annotations

from collections.abc import Callable

from ...core.source import SourceSpan
from .. import ir


def reachability(rs: ir.RuleSet, gotos: list[tuple[str, SourceSpan]],
                 error: Callable[[SourceSpan, str, str], None]) -> None:
    """Refuses each phase after the first that no `then:` nor `goto` (`gotos`: the phases the
    effects go to, as typing found them) leads to."""
    if not rs.phases:
        return
    edges: dict[str, set[str]] = {p.name: set() for p in rs.phases}
    goto_targets = {name for name, _ in gotos}
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
            error(ph.span, f"phase `{ph.name}` can never be reached",
                  f"turns start in `{rs.phases[0].name}`; reach it with `then: {ph.name}` or `goto {ph.name}`")
