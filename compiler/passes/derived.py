"""Pass `derived`: definitions worth keeping are kept in the state between moves, and computed
again only once a field they read has changed (docs/optimiser.md).

A definition is worth keeping when computing it walks something: a comprehension or aggregate
(`[s for s in spots if ...]`, `count(...)`), or a search of the runtime (`components`,
`straight_lines`, `road_chains` ...). A one-liner that only looks something up is cheaper to
compute than to keep (the `inline` pass substitutes those). Kept are definitions without
parameters, and those whose parameters are plain values (numbers, truth values, entities and
enumeration values: one kept value per arguments); not one whose value may be `none` (a kept
slot holds None while stale).

The decision (`Plan.derived`) names each kept definition and what it reads
(compiler/passes/reads.py); lowering (compiler/lower.py) gives each a slot of the state,
`_d_<name>` (a value, or a dict by arguments), None while stale: every assignment to a field
drops the kept values that read it, a new phase or turn drops those that read the seat to act,
and anything written from outside the rules drops them all (`_fields_set`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from .. import typed as t
from . import Plan
from .bitmask import masked_call, masked_comprehension
from .reads import Dependencies, analyse

# The searches of the runtime: a call walks a list, a region or the board.
SEARCHES = frozenset({
    "straight_lines", "count_lines", "regions_touching", "road_chains", "road_chains_best", "components",
    "component_of", "majority", "ranked", "wall_spots", "wall_runs", "wall_regions", "wall_pieces", "subsets",
    "sorted", "without",
})
# The parameters a kept value can be keyed by: plain values, cheap to hash, few in a game.
PLAIN = frozenset({"int", "bool", "entity", "enum"})


def run(program: t.TypedProgram, plan: Plan) -> tuple[t.TypedProgram, Plan]:
    deps = analyse(program)
    defines = {d.name: d for d in program.defines}
    constants = {name: value for name, value, _ in program.tables.constants}
    tabled = {tb.define for tb in plan.value_tables}  # (pass `value_tables`: remembered by value instead)
    kept = tuple((d.name, deps.defines[d.name]) for d in program.defines
                 if d.name not in tabled and worth_keeping(d, plan, defines, constants))
    return program, replace(plan, derived=kept, derived_entries=entries(program, (n for n, _ in kept), deps))


def worth_keeping(d: t.Define, plan: Plan, defines: dict[str, t.Define], constants: dict[str, int]) -> bool:
    """Whether a definition loops (see the module's doc) and can be kept in a slot. A loop the
    `bitmask` pass (which runs before) turns into a few operations on a mask is no loop."""
    if d.ty.kind in ("none", "optional", "any") or any(p.ty.kind not in PLAIN for p in d.params):
        return False
    return any(isinstance(x, t.Comprehension) and masked_comprehension(plan, x, constants) is None
               or isinstance(x, t.Builtin) and x.func in SEARCHES and masked_call(plan, x, defines, constants) is None
               for x in _nodes(d.body))


def _nodes(e: t.Expr) -> list[t.Expr]:
    out, todo = [], [e]
    while todo:
        x = todo.pop()
        out.append(x)
        todo.extend(t.subexpressions(x))
    return out


def entries(program: t.TypedProgram, kept: Iterable[str], deps: Dependencies) -> tuple[tuple[str, str, int], ...]:
    """For each kept definition with parameters and each field per entity it reads, the parameter
    (its position k) whose entity is the only one at which it reads that field, itself and
    through the definitions it uses (`complete(p)` reads `card[p]` only, `held(p, a)` called with
    `p` too): a change of the field at entity e changes only its values whose k-th argument is e.
    A read at another index, of the whole field, or through a definition that reads it otherwise,
    proves nothing: the field's assignments drop the whole slot then."""
    defines = {d.name: d for d in program.defines}
    memo: dict[tuple[str, str], int | None] = {}
    out = []
    for name in kept:
        d = defines[name]
        if not d.params:
            continue
        for f in sorted(deps.defines[name].fields):
            k = read_at_param(d, f, defines, deps, memo)
            if k is not None:
                out.append((name, f, k))
    return tuple(out)


def read_at_param(d: t.Define, field: str, defines: Mapping[str, t.Define], deps: Dependencies,
                  memo: dict[tuple[str, str], int | None]) -> int | None:
    """The position of the parameter of `d` at whose entity alone `d` reads `field` (each read a
    `field[p]` with `p` that parameter, or a call passing `p` where the callee reads it only at
    its own such parameter); None when it reads it otherwise, or not at all."""
    if (d.name, field) in memo:
        return memo[(d.name, field)]
    memo[(d.name, field)] = None  # (the checker refuses cycles; this ends one all the same)
    params = {id(p): i for i, p in enumerate(d.params)}

    def param(e: t.Expr) -> int | None:
        return params.get(id(e.sym)) if isinstance(e, t.Ref) else None

    found: set[int | None] = set()
    todo: list[t.Expr] = [d.body]
    while todo:
        x = todo.pop()
        if isinstance(x, t.PerIndex) and x.field.name == field:
            found.add(param(x.index))
            if param(x.index) is None:
                break
        elif isinstance(x, t.Ref) and x.sym.kind in ("field", "perfield") and x.sym.name == field:
            found.add(None)  # the whole field
            break
        elif isinstance(x, t.DefineCall) and field in deps.defines[x.define].fields:
            j = read_at_param(defines[x.define], field, defines, deps, memo)
            found.add(param(x.args[j]) if j is not None and j < len(x.args) else None)
            if None in found:
                break
        todo.extend(t.subexpressions(x))
    k = found.pop() if len(found) == 1 else None
    memo[(d.name, field)] = k
    return k
