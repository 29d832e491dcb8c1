"""Pass `set_lists`: a list of a set's items as they are, `[t for t in card[current]]`, is the set
sorted, not a walk of the sorted set making a list of it again (docs/optimiser.md).

A list made from a set walks its items in increasing order (lowering sorts them: the order of a
frozenset is Python's own), so the plain code of `[t for t in card[current]]` is `[t for t in
sorted(self.card[self.current])]`: a list made, then walked to make the same list again. Mandarin
lists its refunds and seizures so, at every turn. Taken: a list comprehension of one clause over a
set, with no condition, whose value is its own variable, where the plain code charges no work as
it runs. Written `sorted(S)` (with the key lowering sorts such items by).

Why it is safe: `sorted` makes a new list of the set's items in the order the walk took them, which
is the list the comprehension made; nothing else is computed. The limits of a move are counted on
the plain code.
"""

from __future__ import annotations

from .. import typed as t
from ..analysis import Facts
from . import Plan

NAME = "set_lists"


def run(program: t.TypedProgram, plan: Plan, facts: Facts) -> tuple[t.TypedProgram, Plan]:
    return program, plan  # (lowering takes the form where it meets it, when the pass is enabled)
