"""Pass `count_items`: `count(x == v for x in L)`, how many of a list's own items equal a value,
is the list's own count, `L.count(v)`, not a walk in Python (docs/optimiser.md).

China (Schacht) asks, at every listing of a placement, how many cards of each colour the hand
holds (`count(h == j for h in hand[p]) >= 2`, five colours); Python's `sum(1 for h in ... if h
== j)` runs a generator per colour, `hand[p].count(j)` one C loop.

Taken: a `count` of one clause over a list (not a set, a region, a board), with no condition,
whose value is `x == v` or `v == x` for its own variable `x` and a `v` that does not read `x` and
cannot fail; the pass marks it (`t.Comprehension.counted`), and lowering writes `L.count(v)`.
Why it is safe: a list's `count` compares each item with `==` (after an identity
test, which gives the same answer for every value of the language: numbers, truth values,
strings, tuples, sets, records), in order, as the walk did; `v` is pure, so computing it once
instead of once per item changes nothing, and it cannot fail, so computing it when the list is
empty (the walk never did) changes nothing either. The limits of a move are counted on the plain
code, as for `mask_spot_sets`.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from . import mask_values
from .mask_spot_sets import served
from .rewrite import can_fail, free_locals, map_nodes


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each count the pass takes marked (`t.Comprehension.counted`): lowering writes it `L.count(v)`."""
    defines = {d.name: d for d in program.defines}

    def marked(e: t.Expr) -> t.Expr:
        if isinstance(e, t.Comprehension) and counted(e, defines) is not None:
            return replace(e, counted=True)
        return e

    return map_nodes(program, marked)


def counted(e: t.Comprehension, defines: dict[str, t.Define]) -> t.Expr | None:
    """The value `v` of a `count(x == v for x in L)` the pass takes, or None."""
    if e.func != "count" or e.more or e.cond is not None or e.domain.ty.kind != "list":
        return None
    test = e.elt
    while isinstance(test, t.Note):
        test = test.expr
    if not (isinstance(test, t.Binary) and test.op == "=="):
        return None
    for mine, other in ((test.left, test.right), (test.right, test.left)):
        if isinstance(mine, t.Ref) and mine.sym is e.var and e.var not in free_locals(other) \
                and not can_fail(other, defines):
            return other
    return None


def walkless(program: t.TypedProgram, x: t.Expr, defines: dict[str, t.Define], constants: dict[str, int]) -> bool:
    """Whether lowering writes `x` (a comprehension, a search of the runtime) as a few operations,
    not a walk, by a decision of this pass or of those before it that can (`intersect_components`,
    `mask_values`, `mask_spot_sets`): no loop to keep a definition for (passes `remember_values`, `keep_derived`)."""
    if isinstance(x, t.Comprehension):
        return (served(program.masks, x, defines, constants) is not None
                or mask_values.walkless(program, x, defines) or x.counted and counted(x, defines) is not None)
    return isinstance(x, t.Builtin) and served(program.masks, x, defines, constants) is not None


