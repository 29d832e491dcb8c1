"""Pass `choice_hoist`: the list a later choice of a listing walks, when it reads no choice before it,
is made once per listing, the first time it is walked, not once per item of the earlier choices
(docs/optimiser.md).

A listing walks its choices one inside the other, so the domain of a later choice is computed once
per item of the choices before it. China (Schacht)'s exchange of a card for a face-up one:

    card: "[c for c in colour if c in hand[current]]"
    taken: "[c for c in colour if c in face_up]"

made the list of face-up colours again for every card of the hand. With this pass lowering binds a
local of the listing to None before its loops, and the later choice walks it, made the first time
it is needed:

    joined0: Sequence[int] | None = None  # ...; `choice_hoist`: ...
    for card in [c for c in range(5) if c in self.hand[self.current]]:
        ...
        for taken in (joined0 if joined0 is not None else (joined0 := [c for c in range(5) if c in self.face_up])):

Taken: a choice after the first whose domain is a list that reads no local (no earlier choice),
calls no definition, cannot fail (rewrite.can_fail) and whose code charges no work (no call of the
runtime's checks); not a list of spots `spot_filters` makes (its masks have their own passes).

Why it is the same game: the list reads only the state, which listing does not change, so it is the
same list for every item of the earlier choices; it is made only when the walk first reaches it, so
never where the plain code would not have made it, and never more often. The limits of a move are
counted on the plain code (no check is in the list's code).
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import bare as unnoted
from ..analysis.walk import nodes
from .plan import Plan
from .rewrite import can_fail, free_locals


def run(program: t.TypedProgram, plan: Plan, facts: Facts) -> tuple[t.TypedProgram, Plan]:
    defines = {d.name: d for d in program.defines}
    found: list[tuple[str, int]] = []
    for a in program.actions:
        for i, c in enumerate(a.choices):
            if i == 0 or c.domain.ty.kind != "list" or free_locals(c.domain) or can_fail(c.domain, defines):
                continue
            if any(isinstance(n, t.DefineCall) for n in nodes(c.domain)):
                continue
            bare = unnoted(c.domain)
            if isinstance(bare, t.Comprehension) and bare.spot_filter is not None:
                continue
            found.append((a.name, i))
    return program, replace(plan, choice_hoists=tuple(found))


# -- what lowering asks ---------------------------------------------------------------------------
def hoisted(joined: list[tuple[str, str | None, str, str]], walk: str, annotation: str, choice: str, span: str,
            limit: int) -> str:
    """The walk of a later choice the pass found, through a local of the listing (bound to None
    before its loops, in `joined`, pass `listing_hoist`'s bindings), made the first time it is
    walked; `walk` itself if it charges work or the listing's locals are all taken."""
    if "rt." in walk or len(joined) >= limit:
        return walk
    name = f"_joined{len(joined)}"
    joined.append((name, f"{annotation} | None", "None",
                   f"{span}; `choice_hoist`: the list `{choice}` walks, made once, the first time it is walked"))
    return f"({name} if {name} is not None else ({name} := {walk}))"
