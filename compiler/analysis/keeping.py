"""Derived-value dependencies: which definitions are worth keeping between moves, and how a
change of a field drops only part of a kept definition's values (passes `compute_inside_kept`,
`compute_at_scoring`, `inline`, `remember_values` and `keep_derived` ask; docs/optimiser.md, `keep_derived`).

A definition is worth keeping when computing it walks something: a comprehension or aggregate,
or a search of the runtime, that no earlier pass made a few operations on masks or sets (the
passes that can are asked by the caller, through `walkless`: this module imports no pass). Kept
are definitions without parameters, and those whose parameters are plain values (numbers, truth
values, entities and enumeration values: one kept value per arguments); not one whose value may
be `none` (a kept slot holds None while stale).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .. import typed as t
from .reads import Dependencies

# Whether lowering writes an expression (a comprehension, a search) as a few operations on masks
# or sets, by a decision of a pass that ran before the one asking: then it is no walk.
Walkless = Callable[[t.Expr], bool]

# The searches of the runtime: a call walks a list, a region or the board.
SEARCHES = frozenset({
    "straight_lines", "count_lines", "regions_touching", "road_chains", "road_chains_best", "components",
    "component_of", "majority", "ranked", "wall_spots", "wall_runs", "wall_regions", "wall_pieces", "subsets",
    "sorted", "without",
})
# The parameters a kept value can be keyed by: plain values, cheap to hash, few in a game.
PLAIN = frozenset({"int", "bool", "entity", "enum"})


def worth_keeping_names(program: t.TypedProgram, walkless: Walkless) -> set[str]:
    """The definitions `worth_keeping` finds worth keeping, by name (passes `compute_inside_kept` and
    `compute_at_scoring` take some of them out of what `keep_derived` keeps)."""
    return {d.name for d in program.defines if worth_keeping(d, walkless)}


def worth_keeping(d: t.Define, walkless: Walkless) -> bool:
    """Whether a definition loops (see the module's doc) and can be kept in a slot; not one an
    earlier pass annotated as not kept (`t.Define.unkept`: `compute_inside_kept`, `compute_at_scoring`)."""
    if d.ty.kind in ("none", "optional", "any") or any(p.ty.kind not in PLAIN for p in d.params):
        return False
    if d.unkept:
        return False
    return any((isinstance(x, t.Comprehension) or isinstance(x, t.Builtin) and x.func in SEARCHES)
               and not walkless(x) for x in _nodes(d.body))


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


def _param_position(d: t.Define) -> Callable[[t.Expr], int | None]:
    """The position of the parameter of `d` that an expression names (None: it names none)."""
    params = {p: i for i, p in enumerate(d.params)}  # (a symbol is its own key: compared by identity)
    return lambda e: params.get(e.sym) if isinstance(e, t.Ref) else None


def read_at_param(d: t.Define, field: str, defines: Mapping[str, t.Define], deps: Dependencies,
                  memo: dict[tuple[str, str], int | None]) -> int | None:
    """The position of the parameter of `d` at whose entity alone `d` reads `field` (each read a
    `field[p]` with `p` that parameter, or a call passing `p` where the callee reads it only at
    its own such parameter); None when it reads it otherwise, or not at all."""
    if (d.name, field) in memo:
        return memo[(d.name, field)]
    memo[(d.name, field)] = None  # (the checker refuses cycles; this ends one all the same)
    param = _param_position(d)

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


def attribute_entries(program: t.TypedProgram, kept: Iterable[str],
                      deps: Dependencies) -> tuple[tuple[str, str, int, str], ...]:
    """For each kept definition with parameters and each field of sets it reads (per entity or
    not; a list field's changes are not items added or taken), the parameter (its position k)
    and the attribute (its table) such that the definition reads the field only through walks of
    its sets that keep the items whose attribute equals that parameter, itself and through the
    definitions it uses (Mandarin's `controller(a)` reads `card` through `controls(p, a)`,
    `held(q, a)`: `count(t.animal == a for t in card[q])`, and `has_emperor(p, a)`:
    `any(t.animal == a and t.emperor for t in card[p])`): a change of the field by one item
    changes only its values whose k-th argument is that item's attribute."""
    defines = {d.name: d for d in program.defines}
    sets = {f.decl.name for f in program.fields if f.decl.type.kind == "set"}  # (lowering drops by a set's item)
    memo: dict[tuple[str, str], tuple[int, str] | None] = {}
    out = []
    for name in kept:
        d = defines[name]
        if not d.params:
            continue
        for f in sorted(deps.defines[name].fields & sets):
            found = read_by_attribute(d, f, defines, deps, memo)
            if found is not None:
                out.append((name, f, found[0], found[1]))
    return tuple(out)


def read_by_attribute(d: t.Define, field: str, defines: Mapping[str, t.Define], deps: Dependencies,
                      memo: dict[tuple[str, str], tuple[int, str] | None]) -> tuple[int, str] | None:
    """The position of the parameter of `d` and the attribute's table such that every read of
    `field` in `d` walks the field's items keeping only those whose attribute equals that
    parameter (see `attribute_entries`), or is a call passing that parameter where the callee
    has the property; None when it reads the field otherwise, or not at all.

    A walk keeps an item only if it is `func(elt for v in field... if cond)` with `cond` the test
    `v.attr == param` or an `and` that begins with it (the rest is not computed for other
    items), or, for `count` and `any` (to which an item whose value is false adds nothing), `elt`
    such a test or such an `and`; no second clause, and the test first, so that no item of
    another attribute is computed anything of but its attribute."""
    if (d.name, field) in memo:
        return memo[(d.name, field)]
    memo[(d.name, field)] = None  # (the checker refuses cycles; this ends one all the same)
    param = _param_position(d)

    def test(e: t.Expr | None, var: t.Symbol) -> tuple[int, str] | None:  # `var.attr == param` first
        while isinstance(e, t.Binary) and e.op == "and":
            e = e.left
        if not isinstance(e, t.Binary) or e.op != "==":
            return None
        for item, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(item, t.AttrOf) and isinstance(item.obj, t.Ref) and item.obj.sym is var:
                k = param(other)
                if k is not None:
                    return k, item.table
        return None

    def reads_field(x: t.Expr) -> bool:
        return (isinstance(x, t.PerIndex) and x.field.name == field
                or isinstance(x, t.Ref) and x.sym.kind in ("field", "perfield") and x.sym.name == field)

    found: set[tuple[int, str] | None] = set()
    todo: list[t.Expr] = [d.body]
    while todo and None not in found:
        x = todo.pop()
        if isinstance(x, t.Comprehension) and reads_field(x.domain) and not x.more:
            kept = test(x.cond, x.var) if x.cond is not None else \
                test(x.elt, x.var) if x.func in ("count", "any") else None
            found.add(kept)
            if isinstance(x.domain, t.PerIndex):
                todo.append(x.domain.index)
            todo.extend(e for e in (x.cond, x.elt) if e is not None)
            continue
        if reads_field(x):
            found.add(None)  # a read that keeps every item
        elif isinstance(x, t.DefineCall) and field in deps.defines[x.define].fields:
            callee = read_by_attribute(defines[x.define], field, defines, deps, memo)
            if callee is None or callee[0] >= len(x.args):
                found.add(None)
            else:
                k = param(x.args[callee[0]])
                found.add(None if k is None else (k, callee[1]))
        todo.extend(t.subexpressions(x))
    result = found.pop() if len(found) == 1 else None
    memo[(d.name, field)] = result
    return result
