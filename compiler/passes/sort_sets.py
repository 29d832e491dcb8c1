"""Pass `sort_sets`: a list of a set's items as they are, `[t for t in card[current]]`, is the set
sorted, not a walk of the sorted set making a list of it again (docs/optimiser.md).

A list made from a set walks its items in increasing order (lowering sorts them: the order of a
frozenset is Python's own), so the plain code of `[t for t in card[current]]` is `[t for t in
sorted(self.card[self.current])]`: a list made, then walked to make the same list again. Mandarin
lists its refunds and seizures so, at every turn. Taken: a list comprehension of one clause over a
set, with no condition, whose value is its own variable, where the plain code charges no work as
it runs: the pass marks it (`t.Comprehension.sorted_set`), and lowering writes it `sorted(S)` (with
the key lowering sorts such items by).

Why it is safe: `sorted` makes a new list of the set's items in the order the walk took them, which
is the list the comprehension made; nothing else is computed. The limits of a move are counted on
the plain code.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from .rewrite import map_nodes

NAME = "sort_sets"


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each such list marked (`t.Comprehension.sorted_set`): lowering writes it `sorted(S)`."""
    return map_nodes(program, _marked)


def _marked(e: t.Expr) -> t.Expr:
    return replace(e, sorted_set=True) if isinstance(e, t.Comprehension) and taken(e) else e


def taken(e: t.Comprehension) -> bool:
    """`[x for x in S]`: a list of one clause over a set, with no condition, of its own variable."""
    return e.func == "list" and not e.more and e.cond is None and e.domain.ty.kind == "set" \
        and isinstance(e.elt, t.Ref) and e.elt.sym is e.var
