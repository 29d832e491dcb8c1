"""Pass `derived`: definitions worth keeping are kept in the state between moves, and computed
again only once a field they read has changed (docs/optimiser.md).

A definition is worth keeping when computing it walks something: a comprehension or aggregate
(`[s for s in spots if ...]`, `count(...)`), or a search of the runtime (`components`,
`straight_lines`, `road_chains` ...). A one-liner that only looks something up is cheaper to
compute than to keep (the `inline` pass substitutes those), and so is a count that the pass
`count_items` makes the list's own count (`emissaries[r].count(p)`: one C call against a dict
looked up by a tuple made and hashed twice). Kept are definitions without
parameters, and those whose parameters are plain values (numbers, truth values, entities and
enumeration values: one kept value per arguments); not one whose value may be `none` (a kept
slot holds None while stale). The test, and which part of a kept value a change drops, are
compiler/analysis/keeping.py; the passes that make a walk no walk are asked through
`count_items.walkless`.

The decision (`Plan.derived`) names each kept definition and what it reads
(compiler/analysis/reads.py); lowering (compiler/lower/) gives each a slot of the state,
`_d__<name>` (a value, or a dict by arguments), None while stale: every assignment to a field
drops the kept values that read it, a new phase or turn drops those that read the seat to act,
and anything written from outside the rules drops them all (`_fields_set`).
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.keeping import attribute_entries, entries, worth_keeping
from .count_items import walkless
from .plan import Plan


def run(program: t.TypedProgram, plan: Plan, facts: Facts) -> tuple[t.TypedProgram, Plan]:
    deps = facts.dependencies
    defines = {d.name: d for d in program.defines}
    constants = {name: value for name, value, _ in program.tables.constants}
    tabled = {tb.define for tb in plan.value_tables}  # (pass `value_tables`: remembered by value instead)
    not_kept = {*plan.unkept, *plan.score_only}  # (passes `inner_defines`, `score_only`)

    def no_walk(x: t.Expr) -> bool:
        return walkless(program, x, defines, constants)

    kept = tuple((d.name, deps.defines[d.name]) for d in program.defines
                 if d.name not in tabled and worth_keeping(d, no_walk, not_kept))
    names = [n for n, _ in kept]
    return program, replace(plan, derived=kept, derived_entries=entries(program, names, deps),
                            derived_attributes=attribute_entries(program, names, deps))
