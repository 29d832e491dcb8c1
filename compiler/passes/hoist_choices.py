"""Pass `hoist_choices`: the list a later choice of a listing walks, when it reads no choice before it,
is made once per listing, the first time it is walked, not once per item of the earlier choices
(docs/optimiser.md).

A listing walks its choices one inside the other, so the domain of a later choice is computed once
per item of the choices before it. China (Schacht)'s exchange of a card for a face-up one:

    card: "[c for c in colour if c in hand[current]]"
    taken: "[c for c in colour if c in face_up]"

made the list of face-up colours again for every card of the hand. This pass marks such a choice
(`t.Choice.made_once`), and lowering binds a local of the listing to None before its loops, and
the later choice walks it, made the first time it is needed:

    joined0: Sequence[int] | None = None  # ...; `hoist_choices`: ...
    for card in [c for c in range(5) if c in self.hand[self.current]]:
        ...
        for taken in (joined0 if joined0 is not None else (joined0 := [c for c in range(5) if c in self.face_up])):

Taken: a choice after the first whose domain is a list that reads no local (no earlier choice),
calls no definition, cannot fail (rewrite.can_fail) and whose code charges no work (no call of the
runtime's checks); not a list of spots `mask_spot_filters` makes (its masks have their own passes).

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
from .rewrite import can_fail, free_locals


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each such choice marked (`t.Choice.made_once`)."""
    defines = {d.name: d for d in program.defines}
    actions = []
    for a in program.actions:
        choices = tuple(replace(c, made_once=True) if i > 0 and _taken(c, defines) else c
                        for i, c in enumerate(a.choices))
        actions.append(a if choices == a.choices else replace(a, choices=choices))
    if all(new is old for new, old in zip(actions, program.actions, strict=True)):
        return program
    return replace(program, actions=tuple(actions))


def _taken(c: t.Choice, defines: dict[str, t.Define]) -> bool:
    if c.domain.ty.kind != "list" or free_locals(c.domain) or can_fail(c.domain, defines):
        return False
    if any(isinstance(n, t.DefineCall) for n in nodes(c.domain)):
        return False
    bare = unnoted(c.domain)
    return not (isinstance(bare, t.Comprehension) and bare.spot_filter is not None)
