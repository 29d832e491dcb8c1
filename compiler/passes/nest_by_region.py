"""Pass `nest_by_region`: a kept definition of several parameters whose values a change of a field
per spot drops by region keeps them nested by that region, so that the change drops those of the
regions holding the spot only (docs/optimiser.md).

`drop_by_region` finds, for each kept definition, the region parameter in whose spots alone it reads
a field per spot; lowering then drops, after `f[i] = ...`, only the values of the regions holding
spot `i`, but for a definition of one parameter only: the values of a definition of several are
kept in one dict by all their arguments, and leaving out those of some regions would walk it all.
China (Schacht)'s `palaces_in(p, r)` (`count(p in palace_of[s] for s in r)`) was so dropped whole
at every palace placed, and computed again for all nine provinces. This pass chooses, for each kept
definition of several parameters that `drop_by_region` found, the layout nested by that region
parameter: a dict by region of dicts by the other arguments (`_d_palaces_in[r][p]`), and lowering
drops the regions' inner dicts (`rt.without_keys(slot, board.spot_regions[i])`, a copy of the outer
dict of a few entries). A change at one entity the nesting parameter names (a field per region
read at `r` only: `keep_derived.entries`) drops that entity's inner dict the same way.

Not by an entity: Mandarin's `held(p, a)` and `has_emperor(p, a)`, read at their player only,
nested by the player measured 4% more instructions per game than kept flat and dropped whole
(every change of a card drops what reads every player's cards as well, and the player's own
values, nearly all that is read again, are computed again either way); so only region drops,
where a spot's regions are few of many, choose the nesting.

Why it is safe: the values kept are those `keep_derived` keeps, in another layout; a value is dropped
wherever `drop_by_region` (or `keep_derived`'s drop at one entity) would have dropped it, or its whole
slot. An inner dict may be shared by a state and its clones as the flat dict was: a state reaches
it only while it has dropped neither the whole slot nor that region's values since the copy, so
whatever either adds to it holds for both (compiler/passes/keep_derived.py, runtime/kept.py).
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    # (each definition by the first region parameter `drop_by_region` found)
    nested = {d.name: d.kept.regions[0][1] for d in program.defines
              if d.kept is not None and d.kept.regions and len(d.params) > 1}
    if not nested:
        return program
    return replace(program, defines=tuple(
        replace(d, kept=replace(d.kept, nested=nested[d.name])) if d.kept is not None and d.name in nested else d
        for d in program.defines))
