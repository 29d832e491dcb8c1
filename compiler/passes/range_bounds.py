"""Pass `range_bounds`: a range from a number that is never negative (a length) up to a bound known
when compiling holds at most that bound, and a loop over it is walked without a check of the
runtime (docs/optimiser.md).

China (Schacht) lays out face-up cards until there are four:

    - for k in range(len(face_up), 4):

The plain code knew only that the range holds at most `|len(face_up)| + 4` items, so no bound it
could prove (the row's length is not bounded by its assignments), and counted every such loop
against the budget of the move at run time, a call of the runtime at every turn:

    for _ in rt.walk(self, range(len(self.face_up), 4), 49, 'rules/china-schacht/base.yaml:502'):  # base.yaml:502

`range(a, b)` holds `max(0, b - a)` items: with `a` never negative that is at most `b`, at most
what is proven of `b`'s size. With this pass lowering knows it, and the loop, proven small, is
written as it is, as any loop over four items:

    for _ in range(len(self.face_up), 4):  # base.yaml:502

Taken: `range(a, b)` whose `a` is a length (`len(...)`) or a number written out that is not
negative, and whose `b` is proven at most some number when compiling (a number written out, a
constant, a sum of those).

Why it is the same game: the loop runs the same rounds over the same numbers; only how its work is
accounted for changes. The work proven small runs unchecked, as lowering runs any loop it proves
small (compiler/budget.py: at most FREE_WORK steps); the limits of a move are those lowering keeps
for such a loop, so only a move at the very edge of its budget could tell.
"""

from __future__ import annotations

from .. import typed as t
from ..analysis import Facts
from . import Plan

NAME = "range_bounds"


def run(program: t.TypedProgram, plan: Plan, facts: Facts) -> tuple[t.TypedProgram, Plan]:
    return program, plan  # (lowering takes the form where it meets it, when the pass is enabled)
