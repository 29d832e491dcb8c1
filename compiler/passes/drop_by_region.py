"""Pass `drop_by_region`: a change of a field per spot drops, of a kept definition that reads the
field only at the spots of the region its parameter names, only the values kept for the
regions holding that spot (docs/optimiser.md).

China (Schacht)'s `emissary_room(r)` reads `palace_of` only at the spots of `r` (through
`palaces_in(q, r)`, `count(q in palace_of[s] for s in r)`): a palace placed on one space
changes the room of its own province only, yet the whole kept slot used to be dropped, and the
room of all nine provinces was computed again at the next listing of emissaries.

The analysis: a definition reads a field per spot `f` only in the region named by its k-th
parameter `r` (of type region) when every read of `f` in its body is `f[s]` with `s` a
comprehension's variable walking `r` itself (`for s in r`), or a call passing `r` as the
argument at which the callee has that property. A read at any other index, of the whole field,
or through a definition that reads it otherwise proves nothing (the whole slot is dropped, as
before). A region's spots are the board's, fixed for the game, so after `f[i] = ...` only the
values of the regions holding spot `i` (`board.spot_regions[i]`, every kind) may have changed.

The decision (`t.Kept.regions` of the definition: field, k) is carried out by lowering for kept
definitions of one parameter (`rt.without_keys(slot, self.board.spot_regions[i])`, where the
spot assigned can be read again), like `keep_derived`'s drops at one entity; a definition of several
parameters is dropped whole (filtering its dict measured slower than computing it again).
Without the `keep_derived` pass nothing is kept, and this pass decides nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.reads import Dependencies


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    deps = facts.dependencies
    defines = {d.name: d for d in program.defines}
    spot_fields = {f.decl.name for f in program.fields if f.decl.per == "spot"}
    memo: dict[tuple[str, str], int | None] = {}
    found: dict[str, tuple[tuple[str, int], ...]] = {}
    for d in program.defines:
        if d.kept is None:  # (pass `keep_derived`: without it nothing is kept, and this pass decides nothing)
            continue
        ks = [(f, read_in_region(d, f, defines, deps, memo)) for f in sorted(d.kept.reads.fields & spot_fields)]
        regions = tuple((f, k) for f, k in ks if k is not None)
        if regions:
            found[d.name] = regions
    if not found:
        return program
    return replace(program, defines=tuple(
        replace(d, kept=replace(d.kept, regions=found[d.name])) if d.kept is not None and d.name in found else d
        for d in program.defines))


def read_in_region(d: t.Define, field: str, defines: Mapping[str, t.Define], deps: Dependencies,
                   memo: dict[tuple[str, str], int | None]) -> int | None:
    """The position of the region parameter of `d` in whose spots alone `d` reads the field per
    spot `field` (see the module's doc); None when it reads it otherwise, or not at all."""
    if (d.name, field) in memo:
        return memo[(d.name, field)]
    memo[(d.name, field)] = None  # (the checker refuses cycles; this ends one all the same)
    regions = {p: i for i, p in enumerate(d.params) if p.ty.kind == "entity" and p.ty.name == "region"}

    def param(e: t.Expr) -> int | None:
        return regions.get(e.sym) if isinstance(e, t.Ref) else None

    # the comprehensions' variables that walk a region parameter's spots: variable -> position
    walking: dict[t.Symbol, int] = {}
    todo: list[t.Expr] = [d.body]
    while todo:
        x = todo.pop()
        if isinstance(x, t.Comprehension):
            for var, domain in ((x.var, x.domain), *((v, dom) for v, dom, _ in x.more)):
                k = param(domain)
                if k is not None:
                    walking[var] = k
        todo.extend(t.subexpressions(x))
    found: set[int | None] = set()
    todo = [d.body]
    while todo and None not in found:
        x = todo.pop()
        if isinstance(x, t.PerIndex) and x.field.name == field:
            index = x.index
            found.add(walking.get(index.sym) if isinstance(index, t.Ref) else None)
        elif isinstance(x, t.Ref) and x.sym.kind in ("field", "perfield") and x.sym.name == field:
            found.add(None)  # the whole field
        elif isinstance(x, t.DefineCall) and field in deps.defines[x.define].fields:
            j = read_in_region(defines[x.define], field, defines, deps, memo)
            found.add(param(x.args[j]) if j is not None and j < len(x.args) else None)
        todo.extend(t.subexpressions(x))
    k = found.pop() if len(found) == 1 else None
    memo[(d.name, field)] = k
    return k
