"""Pass `unswitch`: a list filtered by a test that is the same for every item, or'd with the rest,
is the list itself when that test holds, and filtered by the rest only otherwise (docs/optimiser.md).

Mandarin lists the bids of a sale as `[a for a in auction_bids(sale, money[bidder] + 100) if
bidder not in defaulted or a <= money[bidder]]`: `hoist` computes `bidder not in defaulted` once
(`for once in (...,)`), yet every one of some thirty amounts is still walked, and `once or ...`
tested, to give back the whole list nearly always. A loop's domain so written is now

    (D if once_value else [a for a in D if rest])

the walk left only where the test fails (loop unswitching).

Taken: the domain of a choice or of a `for` (only walked: its items, in order, are all that is
read of it) that is a list comprehension of one walking clause over a list, after one-item clauses
of `hoist` only, whose value is its own variable and whose condition is `x or rest`, `x` one of
those one-item clauses' variables (read nowhere else), the others read by `rest` only. Not one a
pass that takes comprehensions by their form (`mask_spot_sets`, `mask_spot_filters`, `count_items`,
`hoist_masks`) took.

Why it is safe: `x` is computed first, as its clause did; the list is computed next in either
branch, as the walk's domain was; where `x` holds every item passed the condition without `rest`
being computed, so the items are the list's, in its order; where it does not, the condition of
each item is `rest`, computed as before. The limits of a move are counted on the code given (the
walk of the list the comprehension made is not made where `x` holds: only a game at the limit of its
budget could tell).
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import clauses
from .mask_spot_sets import served as masked
from .mask_values import served
from .rewrite import free_locals, show, with_clauses

VERB = "unswitched"


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    constants = {name: value for name, value, _ in program.tables.constants}
    defines = {d.name: d for d in program.defines}

    def domain(e: t.Expr) -> t.Expr:
        if isinstance(e, t.Comprehension) and not e.counted and e.spot_filter is None \
                and masked(program.masks, e, {}, constants) is None and served(program, e, defines) is None:
            return unswitched(e) or e
        return e

    def block(stmts: tuple[t.Stmt, ...]) -> tuple[t.Stmt, ...]:
        return tuple(stmt(s) for s in stmts)

    def stmt(s: t.Stmt) -> t.Stmt:
        match s:
            case t.For():
                return replace(s, domain=domain(s.domain), body=block(s.body))
            case t.If():
                return replace(s, branches=tuple((test, block(b)) for test, b in s.branches), orelse=block(s.orelse))
            case t.Ask() | t.While():
                return replace(s, body=block(s.body))
        return s

    return replace(
        program,
        procedures=tuple(replace(p, body=block(p.body)) for p in program.procedures),
        triggers=tuple(replace(tr, effect=block(tr.effect)) for tr in program.triggers),
        phases=tuple(replace(ph, start=block(ph.start)) for ph in program.phases),
        actions=tuple(replace(a, choices=tuple(replace(c, domain=domain(c.domain)) for c in a.choices),
                              effect=block(a.effect)) for a in program.actions),
        setup=block(program.setup),
    )


def unswitched(e: t.Comprehension) -> t.Expr | None:
    """`(D if x else [v for v in D if rest])` for `[v for ... for v in D if x or rest]`, or None."""
    *once, (var, walked, cond) = clauses(e)
    if e.func != "list" or not once or walked.ty.kind != "list" or not isinstance(e.elt, t.Ref) \
            or e.elt.sym is not var or not isinstance(cond, t.Binary) or cond.op != "or":
        return None
    values: dict[t.Symbol, t.Expr] = {}
    for v, dom, c in once:
        if c is not None or not (isinstance(dom, t.Note) and dom.verb in ("hoisted", "shared")
                                 and isinstance(dom.expr, t.Collection) and len(dom.expr.items) == 1):
            return None
        values[v] = dom.expr.items[0]
    test = cond.left
    if not isinstance(test, t.Ref) or test.sym not in values or test.ty.kind != "bool":
        return None
    if test.sym in free_locals(cond.right) | free_locals(walked) or any(s in values for s in free_locals(walked)):
        return None  # (`x` read elsewhere; or the list reads a value bound once, out of reach of the first branch)
    others = [c for c in once if c[0] is not test.sym]
    rest = with_clauses(e, [*others, (var, walked, cond.right)], e.elt)
    value = values[test.sym]
    return t.Note(VERB, f"on {show(value)}", t.Cond(value, walked, rest, e.ty, e.span), e.ty, e.span)
