"""Pass `mask_values`: the spots where a field per spot holds a value named by a variable (a
player), as one bit mask per value kept up to date (docs/optimiser.md).

China (Schacht) asks, for every player q and province r, `palaces_in(q, r)`:
`count(p in palace_of[s] for s in r)`, and `palaces_total(r)`: `count(not free(s) for s in r)`
(`free(s)` is `not palace_of[s]`); `can_place(p)` asks `any(free(s) for s in spots)` and `build`
`not any(free(s) for s in province_of(space))`; `chains_of(p)` walks every spot for
`[s for s in spots if p in palace_of[s]]`. Each is a walk of the spots of the board or a region
at every use. The `mask_spot_sets` pass keeps a mask of the spots holding a constant; here the value is
a parameter, or a loop's variable:

- a field per spot of lists (or sets) of players or of an enumeration's values, tested for
  membership `v in f[s]` (`not in` too), or of simple such values compared `f[s] == v` (`!=` too),
  `v` reading none of the comprehension's locals and unable to fail: one mask per value, a list
  of ints on the state indexed by the value (`_has__palace_of[p]`: bit s set iff p is in
  palace_of[s]);
- a field of lists tested for emptiness (`not f[s]`, `free(s)`; `not not f[s]`): the mask of
  the empty spots `mask_spot_filters` keeps (`Mask` with `empty`), made here when an aggregate needs it.

The masks are a representation of the program (`TypedProgram.value_masks`, and `.masks` for the
empty spots), and each form they serve is marked (`t.Comprehension.value_mask`), which lowering
writes from them (compiler/lower/comprehensions.py `value_masks_code`). The forms: over the
board's spots (`for s in spots`) or a region's (`for s in r`, any expression of a region),
`count(T for s in D)` is the popcount of `mask & within` (`within & ~mask` for a negated test),
`any` whether it is not 0, `all` whether the opposite is 0; and the list
`[s for s in D if v in f[s]]` is `board.mask_spots(...)`, in spot order, the order of the walk. A test may be written
through a call of a definition of one spot whose body is such a test (`free(s)`, before `inline`
writes it out).

It runs before `inline` and `keep_derived`: a definition whose loops the masks serve is no loop, so
`keep_derived` does not keep it and `inline` may write it where it is called (`palaces_in`).

The masks are kept exact (lowering writes the updates, compiler/lower/masks.py): an assignment to
the field at one spot (an index read twice at no cost, a value that cannot fail) clears the bits
of the spot's old items before it and sets those of its new items after it; any other assignment
makes the masks again after it; `_fields_set()` makes them again from the fields, `_copy_fields`
copies the list (not shared: it changes in place). """

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ...core.source import SourceSpan
from ...runtime.limits import SMALL_LIST
from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import bare, expressions
from ..names import joined
from ..types import Ty
from .intersect_components import taken
from .rewrite import can_fail, free_locals, map_nodes

EMPTY = -1  # (as `mask_spot_filters`: the `value` of a mask of the spots whose field, of lists, is empty)
AGGREGATES = ("count", "any", "all")


@dataclass(frozen=True, slots=True)
class Test:
    """A test of a spot read from masks: `kind` "in" (`value in f[s]`), "==" (`f[s] == value`),
    "empty" (`not f[s]`); `negated` when it is the opposite that is written."""

    kind: str
    field: str
    value: t.Expr | None
    negated: bool
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Form:
    """`func(test for s in D)` (func count, any, all) or `[s for s in D if test]` (func list), D the
    board's spots (`region` None) or the region `region`."""

    func: str
    test: Test
    region: t.Expr | None


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """The masks kept (`TypedProgram.value_masks`, and the empty spots' in `TypedProgram.masks`), and
    each count, test or list they serve marked (`value_mask`): lowering writes it from the masks."""
    defines = {d.name: d for d in program.defines}
    counts = _counts(program)
    values: dict[tuple[str, str], t.ValueMask] = {}
    masks = list(program.masks)
    for e in expressions(program):
        if not isinstance(e, t.Comprehension):
            continue
        found = form(e, defines)
        if found is None:
            continue
        test = found.test
        if test.kind == "empty":
            if not any(m.field == test.field and m.empty for m in masks):
                masks.append(t.Mask(test.field, EMPTY, "()", joined("empty", test.field), test.span, empty=True))
            continue
        field = next(f for f in program.fields if f.decl.name == test.field)
        item = field.decl.type.elem if test.kind == "in" else field.decl.type
        count = counts.get(str(item)) if item is not None else None
        if count is None or (test.field, test.kind) in values or test.kind == "in" and not short(program, field):
            continue
        suffix = "has" if test.kind == "in" else "is"
        values[(test.field, test.kind)] = t.ValueMask(test.field, test.kind, count,
                                                      joined(suffix, test.field), test.span)
    if not masks and not values:
        return program
    kept = replace(program, masks=tuple(masks), value_masks=tuple(values.values()))

    def marked(e: t.Expr) -> t.Expr:
        if isinstance(e, t.Comprehension):
            found = form(e, defines)
            if found is not None and mask_of(kept, found.test) is not None:
                return replace(e, value_mask=True)
        return e

    return map_nodes(kept, marked)


def short(program: t.TypedProgram, field: t.Field) -> bool:
    """Whether every list a field of lists holds is written out, short: its init and every value
    assigned to it (at one spot) a list of at most SMALL_LIST items, or a choice between such lists.
    A list only the game bounds is counted against the budget of a move wherever a test walks it
    (lowering's `rt.walk`): there the plain code stays, and no mask is kept for nothing."""
    def written(e: t.Expr) -> bool:
        e = bare(e)
        if isinstance(e, t.Cond):
            return written(e.then) and written(e.orelse)
        return isinstance(e, t.Collection) and len(e.items) <= SMALL_LIST

    bodies: list[tuple[t.Stmt, ...]] = [program.setup, *(p.body for p in program.procedures),
                                        *(trig.effect for trig in program.triggers),
                                        *(ph.start for ph in program.phases), *(a.effect for a in program.actions)]
    for body in bodies:
        for s in t.statements(body):
            if isinstance(s, t.Assign) and s.target.kind in ("field", "perfield") \
                    and s.target.name == field.decl.name \
                    and not (s.op == "=" and s.index is not None and s.item is None and written(s.value)):
                return False
    return written(field.init)


def _counts(program: t.TypedProgram) -> dict[str, str]:
    """The code of how many values each finite type a mask can be indexed by has: the players
    (every seat, neutral ones too), each enumeration."""
    out = {"player": "self.num_seats"}
    for name, values in program.tables.enums:
        out[name] = str(len(values))
    return out


# -- the forms ------------------------------------------------------------------------------------
def form(e: t.Comprehension, defines: Mapping[str, t.Define]) -> Form | None:
    """The form `e` is, whichever masks the program keeps, or None."""
    if e.more:
        return None
    region: t.Expr | None
    domain = bare(e.domain)
    if isinstance(domain, t.Ref) and domain.sym.kind == "value" and domain.sym.name == "spots":
        region = None
    elif domain.ty.kind == "entity" and domain.ty.name == "region" and e.var not in free_locals(domain):
        region = e.domain
    else:
        return None
    if e.func in AGGREGATES and e.cond is None:
        test = spot_test(e.elt, e.var, defines)
    elif e.func == "list" and e.cond is not None and isinstance(bare(e.elt), t.Ref) \
            and bare(e.elt).sym is e.var:  # type: ignore[union-attr]
        test = spot_test(e.cond, e.var, defines)
        if test is not None and test.kind != "in":  # (the spots empty: `mask_spot_filters`; equal: a fused walk)
            return None
    else:
        return None
    return None if test is None else Form(e.func, test, region)


def spot_test(e: t.Expr, var: t.Symbol, defines: Mapping[str, t.Define], depth: int = 0) -> Test | None:
    """The test of the spot `var` that `e` is, or None."""
    e = bare(e)
    if isinstance(e, t.Unary) and e.op == "not":
        inner = spot_test(e.operand, var, defines, depth)
        return None if inner is None else replace(inner, negated=not inner.negated)
    if isinstance(e, t.DefineCall) and depth < 4 and len(e.args) == 1 and _is(e.args[0], var) \
            and e.define in defines and len(defines[e.define].params) == 1:
        d = defines[e.define]  # a definition of the spot (`free(s)`): its body's test, of its parameter
        return spot_test(d.body, d.params[0], defines, depth + 1)
    if _per_spot(e, var) and e.ty.kind in ("list", "set"):  # `f[s]` as a test: not empty
        assert isinstance(e, t.PerIndex)
        return Test("empty", e.field.name, None, True, e.span)
    if isinstance(e, t.Binary) and e.op in ("in", "not in"):
        right = bare(e.right)
        if _per_spot(right, var) and right.ty.kind in ("list", "set") and right.ty.elem is not None \
                and _finite(right.ty.elem) and e.left.ty == right.ty.elem and _outside(e.left, var, defines):
            assert isinstance(right, t.PerIndex)
            return Test("in", right.field.name, e.left, e.op == "not in", e.span)
    if isinstance(e, t.Binary) and e.op in ("==", "!="):
        left = bare(e.left)
        if _per_spot(left, var) and _finite(left.ty) and e.right.ty == left.ty and _outside(e.right, var, defines) \
                and not _constant(e.right):  # (a constant: pass `mask_spot_sets`)
            assert isinstance(left, t.PerIndex)
            return Test("==", left.field.name, e.right, e.op == "!=", e.span)
    return None


def _is(e: t.Expr, var: t.Symbol) -> bool:
    e = bare(e)
    return isinstance(e, t.Ref) and e.sym is var


def _per_spot(e: t.Expr, var: t.Symbol) -> bool:
    """`f[var]`, f a field per spot."""
    return (isinstance(e, t.PerIndex) and e.field.per == "spot" and e.field.kind in ("field", "perfield")
            and _is(e.index, var))


def _finite(ty: Ty) -> bool:
    return ty.kind == "enum" or ty.kind == "entity" and ty.name == "player"


def _outside(e: t.Expr, var: t.Symbol, defines: Mapping[str, t.Define]) -> bool:
    """Whether `e` is the same for every spot walked and cannot fail: computed once, not per spot."""
    return var not in free_locals(e) and not can_fail(e, dict(defines))


def _constant(e: t.Expr) -> bool:
    e = bare(e)
    return isinstance(e, (t.Num, t.Bool)) or isinstance(e, t.Ref) and e.sym.kind == "const"


def served(program: t.TypedProgram, e: t.Comprehension, defines: Mapping[str, t.Define]) -> Form | None:
    """The form of a comprehension the pass marked (`value_mask`), whose masks the program keeps
    (passes `keep_derived`, `inline`, `hoist_lazily`, `unswitch` ask: a comprehension so served is no loop;
    lowering writes it from the masks), or None."""
    if not e.value_mask:
        return None
    found = form(e, defines)
    if found is None:
        return None
    return found if mask_of(program, found.test) is not None else None


def walkless(program: t.TypedProgram, x: t.Expr, defines: dict[str, t.Define]) -> bool:
    """Whether lowering writes `x` as a few operations on masks or sets, not a walk, by a decision
    of this pass or of `intersect_components`: no loop to keep a definition for (passes `compute_inside_kept`,
    `compute_at_scoring`, `inline` ask, which run before `mask_spot_sets` and `count_items` decided anything:
    `count_items.walkless` asks those too)."""
    return isinstance(x, t.Comprehension) and (served(program, x, defines) is not None
                                               or taken(program, x, defines) is not None)


def mask_of(program: t.TypedProgram, test: Test) -> t.ValueMask | t.Mask | None:
    """The masks this pass or `mask_spot_sets` keeps that answer `test`, if any (what lowering reads of the program)."""
    if test.kind == "empty":
        return next((m for m in program.masks if m.field == test.field and m.empty), None)
    return next((m for m in program.value_masks if (m.field, m.op) == (test.field, test.kind)), None)


def at_one_spot(s: t.Assign, defines: Mapping[str, t.Define]) -> bool:
    """An assignment at one spot, read again at no cost (a local, a number), of a value that cannot
    fail: lowering clears the bits of the spot's old items before it and sets those of its new ones
    after it; any other assignment makes the masks again after it."""
    index = bare(s.index) if s.index is not None else None
    return (s.item is None and (isinstance(index, t.Ref) and index.sym.kind == "local" or isinstance(index, t.Num))
            and not can_fail(s.value, dict(defines)))
