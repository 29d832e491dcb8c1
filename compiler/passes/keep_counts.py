"""Pass `keep_counts`: how many of the board's spots, or of a region's, pass a test (or the sum of a
number per spot), kept in the state for every region and every value of what the test reads, and
adjusted at each write of a field it reads by what the spot written adds after the write less what it
added before it: the delta rule of first-order view maintenance (docs/optimiser.md).

China (Schacht)'s bonus tiles ask `face_down_in(r)`: `any(covered[s] for s in r)` for every open space
and province their listings walk: a walk of the province's spaces, which `keep_derived` kept in a
dict dropped by region at every tile laid or turned. Found: a comprehension

- `count(T for s in D)`, `sum(V for s in D)`, `any(T for s in D)`, `all(T for s in D)`, one clause,
  no condition, not served by a pass before it (a mask, a count of a list, a set operation);
- D the board's spots (`spots`) or a region's (`r`, `spots_of(r)`: any expression of a region that
  reads not `s` and cannot fail);
- T (V, a number) reading the game only through fields per spot at `s` (`block_at[s]`), with
  constants, options, numbers, `s` itself, and locals of a finite type (a player, an enumeration's
  value: at most `MAX_PARAMS` of them), through operators; nothing that can fail (it is computed at
  every write, for every value of those locals, where the walk may not have computed it);
- asked as the legal actions are listed or the end tested (an action's choices or `when:`, a
  trigger's condition, the seat to act, the end, or a definition these read): each move, for each
  choice. One only effects, the scores or the checks read is asked about as often as the fields it
  reads are written: a table adjusted at each write would cost about what the walks it saves do,
  or more (Chang Cheng's `held`, `sections` and `full`, read as a province is scored: 3% more
  instructions a game kept so).

The table is a list of ints in a slot of the state (`t.KeptCount`), indexed by the region (when D is
one) and then by the value of each local in turn; one table serves every comprehension of the same
form. Lowering (compiler/lower/counts.py) writes the comprehension as a read of it, and, around each
assignment of a field it reads at one spot (a local or a number, a value that cannot fail:
`mask_values.at_one_spot`), the spot's contribution to each region holding it
(`board.spot_regions`), for every value of the locals (or, grouped, at the value a field holds),
taken off before and added after; any other assignment of the field makes the table stale (None),
and so does `_fields_set()` (inits, a saved state, a scenario's position, the journal's state a
waiting move began in): it is made again where it is first read. `_copy_fields` copies the list.
Nothing is chosen by a rule file: the pass finds the forms from the program's types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from .. import typed as t
from .. import typed_print
from ..analysis import Facts
from ..analysis.walk import bare, expressions, nodes
from ..names import joined
from .rewrite import can_fail, free_locals, map_nodes

AGGREGATES = ("count", "sum", "any", "all")
MAX_PARAMS = 2  # locals a test may read: the table holds the product of their numbers of values per region
MARKS = ("value_mask", "mask_read", "counted", "component_set", "sorted_set")


@dataclass(frozen=True, slots=True)
class Form:
    """A comprehension the pass takes: its func, the region walked (None: the board's spots), what one
    spot adds (`term`), the locals it reads (`params`), the fields per spot it reads, its table's key."""

    func: str
    region: t.Expr | None
    var: t.Symbol
    term: t.Expr
    params: tuple[t.Symbol, ...]
    fields: tuple[str, ...]
    key: str


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """The tables kept (`TypedProgram.kept_counts`), and each comprehension they serve marked (`kept_count`)."""
    defines = {d.name: d for d in program.defines}
    numbers = sizes(program)
    hot = _asked_each_move(program)
    found: dict[str, t.KeptCount] = {}
    for e in expressions(program):
        if not isinstance(e, t.Comprehension) or id(e) not in hot:
            continue
        f = form(e, defines, numbers)
        if f is None or f.key in found:
            continue
        name = joined("counts", str(len(found)))
        found[f.key] = t.KeptCount(name, f.key, f.func == "sum", f.region is not None, f.var, f.term, f.params,
                                   tuple(numbers[str(p.ty)] for p in f.params), f.fields, e.span)
    if not found:
        return program
    kept = replace(program, kept_counts=tuple(found.values()))

    def marked(e: t.Expr) -> t.Expr:
        if isinstance(e, t.Comprehension):
            f = form(e, defines, numbers)
            if f is not None and f.key in found:
                return replace(e, kept_count=True)
        return e

    return map_nodes(kept, marked)


def sizes(program: t.TypedProgram) -> dict[str, str]:
    """The code of how many values each type a table can be indexed by has: the players (every seat),
    each enumeration."""
    out = {"player": "self.num_seats"}
    for name, values in program.tables.enums:
        out[name] = str(len(values))
    return out


def _asked_each_move(program: t.TypedProgram) -> set[int]:
    """The nodes computed as the legal actions are listed or the end tested (each move, for each
    choice): of the actions' choices and `when:`, the triggers' conditions, the seat to act, the end,
    and of the definitions these read. A count only an effect reads (or the scores, the returns, the
    tie-break, the invariants) is asked about as often as a rule runs, as often as the fields it reads
    are written: the walk of one region then costs about what a table adjusted at each write does,
    and a table made again after a saved state, a copy's restore or a waiting move costs more."""
    roots: list[t.Expr] = []
    for a in program.actions:
        roots.extend(c.domain for c in a.choices)
        roots.extend(x for x in (a.when,) if x is not None)
    roots.extend(trig.when for trig in program.triggers if trig.when is not None)
    roots.extend(ph.actor for ph in program.phases if ph.actor is not None)
    roots.extend(ph.simultaneous for ph in program.phases if ph.simultaneous is not None)
    roots.extend(x for x in (program.end,) if x is not None)
    defines = {d.name: d for d in program.defines}
    out: set[int] = set()
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        for n in nodes(todo.pop()):
            out.add(id(n))
            if isinstance(n, t.DefineCall) and n.define not in seen and n.define in defines:
                seen.add(n.define)
                todo.append(defines[n.define].body)
    return out


def form(e: t.Comprehension, defines: Mapping[str, t.Define], sizes: Mapping[str, str]) -> Form | None:
    """The form `e` is, or None."""
    if e.func not in AGGREGATES or e.more or e.cond is not None or e.spot_filter is not None \
            or any(getattr(e, m) for m in MARKS):
        return None
    walks, region = _region(e)
    if not walks:
        return None
    fields: set[str] = set()
    if not _term(e.elt, e.var, fields) or not fields or can_fail(e.elt, dict(defines)):
        return None
    params = tuple(sorted(free_locals(e.elt) - {e.var}, key=lambda p: p.name))
    if len(params) > MAX_PARAMS or any(str(p.ty) not in sizes or not _finite(p) for p in params):
        return None
    if e.func == "sum" and e.elt.ty.kind != "int" or e.func != "sum" and e.elt.ty.kind != "bool":
        return None
    term = e.elt
    if e.func == "all":  # (how many fail: all hold when none does)
        term = t.Unary("not", e.elt, e.elt.ty, e.elt.span)
    what = "sum" if e.func == "sum" else "count"
    domain = "a region" if region is not None else "spots"
    by = f" by {', '.join(p.name for p in params)}" if params else ""
    key = f"{what}({typed_print.expr(term)} for {e.var.name} in {domain}){by}"
    return Form(e.func, region, e.var, term, params, tuple(sorted(fields)), key)


def _finite(p: t.Symbol) -> bool:
    return p.ty.kind == "enum" or p.ty.kind == "entity" and p.ty.name == "player"


def _region(e: t.Comprehension) -> tuple[bool, t.Expr | None]:
    """Whether `e` walks the board's spots (region None) or a region's (the region)."""
    d = bare(e.domain)
    if isinstance(d, t.Ref) and d.sym.kind == "value" and d.sym.name == "spots":
        return True, None
    if isinstance(d, t.Builtin) and d.func == "spots_of" and len(d.args) == 1:
        d = bare(d.args[0])
    if d.ty.kind == "entity" and d.ty.name == "region" and e.var not in free_locals(d) \
            and not any(isinstance(n, t.ListIndex | t.DefineCall | t.Builtin | t.Comprehension) for n in nodes(d)):
        return True, d
    return False, None


def _term(e: t.Expr, var: t.Symbol, fields: set[str]) -> bool:
    """Whether `e` reads the game only through fields per spot at `var` (noted in `fields`), constants,
    options, numbers and locals, through operators."""
    e = bare(e)
    match e:
        case t.PerIndex():
            index = bare(e.index)
            if e.field.per != "spot" or e.field.kind not in ("field", "perfield") \
                    or not (isinstance(index, t.Ref) and index.sym is var):
                return False
            fields.add(e.field.name)
            return True
        case t.Ref():
            return (e.sym.kind in ("const", "option", "local") or e.sym.kind == "value" and e.sym.fixed)
        case t.Num() | t.Bool():
            return True
        case t.Binary() | t.Unary() | t.Cond():
            return all(_term(x, var, fields) for x in t.subexpressions(e))
    return False


def served(program: t.TypedProgram, e: t.Comprehension, defines: Mapping[str, t.Define]) -> t.KeptCount | None:
    """The table a comprehension the pass marked (`kept_count`) is read from, or None (lowering writes
    it so; `keep_derived` asks: such a comprehension is no loop)."""
    if not e.kept_count:
        return None
    f = form(e, defines, sizes(program))
    if f is None:
        return None
    return next((k for k in program.kept_counts if k.key == f.key), None)
