"""Pass `bound_ranges`: a range from a number that is never negative (a length) up to a bound known
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
negative, which the pass marks (`t.Builtin.from_nonnegative`), and whose `b` lowering proves at most
some number when compiling (a number written out, a constant, a sum of those: a fact of the limits
of a move only lowering has).

Why it is the same game: the loop runs the same rounds over the same numbers; only how its work is
accounted for changes. The work proven small runs unchecked, as lowering runs any loop it proves
small (compiler/budget.py: at most FREE_WORK steps); the limits of a move are those lowering keeps
for such a loop, so only a move at the very edge of its budget could tell.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from .rewrite import map_nodes

NAME = "bound_ranges"


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each range from a number never negative marked (`t.Builtin.from_nonnegative`): lowering
    takes it as holding at most what it proves of the bound."""
    return map_nodes(program, _marked)


def _marked(e: t.Expr) -> t.Expr:
    if isinstance(e, t.Builtin) and e.func == "range" and e.args and _nonnegative(e.args[0]):
        return replace(e, from_nonnegative=True)
    return e


def _nonnegative(e: t.Expr) -> bool:
    """A length, or a number written out that is not negative."""
    return (isinstance(e, t.Builtin) and e.func == "len") or (isinstance(e, t.Num) and e.value >= 0)
