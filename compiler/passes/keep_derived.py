"""Pass `keep_derived`: definitions worth keeping are kept in the state between moves, and computed
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

The decision annotates each kept definition (`t.Define.kept`, the representation step) with
what it reads (compiler/analysis/reads.py) and which changes drop part of its values; lowering
(compiler/lower/) gives each a slot of the state, `_d__<name>` (a value, or a dict by
arguments), None while stale: every assignment to a field
drops the kept values that read it, a new phase or turn drops those that read the seat to act,
and anything written from outside the rules drops them all (`_fields_set`).

A variant's definition (written in a file other than its base's, and not called by the base's own
code: not one replacing the base's, whose slot the base's members drop) that reads a field the base's own
effects assign is remembered per state instead (`t.Define.per_state`: in `_derived`, as `cached: true`
is), where the base already remembers one of its own definitions so (its assignments drop `_derived`
already): kept in a slot, each of those assignments would drop that slot too, and the variant's
module could inherit none of the base's members holding one (compiler/inherit.py).
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.keeping import attribute_entries, entries, worth_keeping
from ..analysis.reads import Dependencies
from ..analysis.walk import expressions
from .count_items import walkless
from .keep_counts import served as counts_served
from .mask_spot_sets import MASK_USES


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    deps = facts.dependencies
    defines = {d.name: d for d in program.defines}
    constants = {name: value for name, value, _ in program.tables.constants}

    def no_walk(x: t.Expr) -> bool:  # (a count kept up to date, pass `keep_counts`: no walk either)
        return walkless(program, x, defines, constants) or (isinstance(x, t.Comprehension)
                                                            and counts_served(program, x, defines) is not None)

    def no_walk_but_lists(x: t.Expr) -> bool:  # a list of a mask's spots (`mask_spot_sets`) is made spot by spot
        return no_walk(x) and not (isinstance(x, t.Comprehension) and x.func == "list" and x.mask_read)

    # (not one pass `remember_values` remembers by value instead, nor one `compute_inside_kept` or
    # `compute_at_scoring` leave unkept; one whose value is the list of a mask's spots, where some rule calls it)
    called = _called(program)
    names = [d.name for d in program.defines if d.tabled is None and (
        worth_keeping(d, no_walk) or d.name in called and worth_keeping(d, no_walk_but_lists))]
    if not names:
        return program
    at_entry: dict[str, list[tuple[str, int]]] = {}
    for name, f, k in entries(program, names, deps):
        at_entry.setdefault(name, []).append((f, k))
    by_attribute: dict[str, list[tuple[str, int, str]]] = {}
    for name, f, k, table in attribute_entries(program, names, deps):
        by_attribute.setdefault(name, []).append((f, k, table))
    per_state = _per_state(program, names, deps)
    kept = {name: t.Kept(deps.defines[name], tuple(at_entry.get(name, ())), tuple(by_attribute.get(name, ())))
            for name in names if name not in per_state}
    return replace(program, defines=tuple(replace(d, kept=kept[d.name]) if d.name in kept
                                          else replace(d, per_state=True) if d.name in per_state else d
                                          for d in program.defines))


def _per_state(program: t.TypedProgram, names: list[str], deps: Dependencies) -> set[str]:
    """The definitions worth keeping that a variant adds (written in a file other than its base's,
    and called by none of the base's own code: not one replacing the base's) and that read a field
    the base's own effects assign, where the base remembers some of its own
    per state (`cached: true`, not kept): each is remembered per state too, in `_derived`, which
    every assignment already drops. Kept in a slot, each assignment of the base's that it reads
    would drop the slot too, and the variant's module re-emit every member of the base's holding
    one (compiler/inherit.py). Nothing for a rule set that extends none."""
    files = program.rules.files
    if len(files) < 2:
        return set()
    base = files[0]
    chosen = set(names)
    if not any(d.cached and d.span.path == base and d.name not in chosen for d in program.defines):
        return set()  # (the base drops no value remembered per state: `_derived` would cost each assignment)
    blocks = [pr.body for pr in program.procedures if pr.span.path == base]
    blocks += [a.effect for a in program.actions if a.span.path == base]
    blocks += [tr.effect for tr in program.triggers if tr.span.path == base]
    blocks += [ph.start for ph in program.phases if ph.span.path == base]
    blocks.append(tuple(s for s in program.setup if s.span.path == base))
    written = deps.writes(s for block in blocks for s in block)
    # (one the base's own code calls replaces the base's: the base's members drop its slot already)
    called = {e.define for e in expressions(program) if isinstance(e, t.DefineCall) and e.span.path == base}
    defines = {d.name: d for d in program.defines}
    return {name for name in names
            if defines[name].span.path != base and name not in called and deps.defines[name].fields & written}


def _called(program: t.TypedProgram) -> set[str]:
    """The definitions some rule calls for their value: not those read only through a mask in their
    stead (`straight_lines(n, face_down_spots)`, written from the mask by `mask_spot_sets`)."""
    through_mask: set[int] = set()
    for e in expressions(program):
        if isinstance(e, t.Builtin) and e.mask_read and e.func in MASK_USES:
            through_mask.add(id(e.args[MASK_USES[e.func][0]]))
    return {e.define for e in expressions(program) if isinstance(e, t.DefineCall) and id(e) not in through_mask}
