"""Walking the typed program (compiler/typed.py): every expression of a program, every node of an
expression, a comprehension's clauses, an expression without the notes the passes wrap around
what they derived. The passes, the analyses and the bridges (api/interop) share these walks.

Expressions nest deeply in some rule sets; `nodes` recurses (as lowering does), and lowering turns
a RecursionError into a diagnostic; `expressions` walks with a list.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import typed as t


def expressions(program: t.TypedProgram) -> Iterator[t.Expr]:
    """Every expression of the program, each subexpression too (for passes that look for forms)."""
    roots: list[t.Expr] = [c.value for c in program.components]
    for f in program.fields:
        roots.extend(x for x in (f.init, f.shown_if, f.hide_items_if, f.visible_to) if x is not None)
    roots.extend(d.body for d in program.defines)
    for a in program.actions:
        roots.extend(c.domain for c in a.choices)
        roots.extend(x for x in (a.when, a.revealed) if x is not None)
    for trig in program.triggers:
        if trig.when is not None:
            roots.append(trig.when)
    roots.extend(ph.actor for ph in program.phases if ph.actor is not None)
    roots.extend(ph.simultaneous for ph in program.phases if ph.simultaneous is not None)
    roots.extend(x for x in (program.end, program.tie_break, program.returns) if x is not None)
    roots.extend(sc.expr for sc in program.scoring)
    roots.extend(inv.expr for inv in program.invariants)
    roots.extend(arg for lt in program.look_texts for arg in lt.told.args)
    bodies: list[tuple[t.Stmt, ...]] = [program.setup, *(p.body for p in program.procedures),
                                        *(trig.effect for trig in program.triggers),
                                        *(ph.start for ph in program.phases), *(a.effect for a in program.actions)]
    for body in bodies:
        roots.extend(t.effect_expressions(body))
    todo = roots[::-1]
    while todo:
        e = todo.pop()
        yield e
        todo.extend(reversed(t.subexpressions(e)))


def nodes(e: t.Expr) -> Iterator[t.Expr]:
    """`e` and every expression inside it."""
    yield e
    for part in t.subexpressions(e):
        yield from nodes(part)


def clauses(e: t.Comprehension) -> list[tuple[t.Symbol, t.Expr, t.Expr | None]]:
    """A comprehension's clauses, the first one first."""
    return [(e.var, e.domain, e.cond), *e.more]


def bare(e: t.Expr) -> t.Expr:
    """`e` without the notes the passes wrap around what they derived (`t.Note`)."""
    while isinstance(e, t.Note):
        e = e.expr
    return e
