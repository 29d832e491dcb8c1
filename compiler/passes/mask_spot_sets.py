"""Pass `mask_spot_sets`: the spots where one field holds one value, as a bit mask kept up to date.

A field per spot of simple values (an enumeration, an entity, a number, a truth value; or of
optional ones, `none` a value too: Hex's `stone[s] == none`, its free cells; or of optional
values of any type compared with `none`) compared with one constant picks a set of spots. The
rules ask of such sets in a few forms, each of which walks every spot (or every spot of a region)
at each use:

    [s for s in spots if marker[s] == face_down]        the spots, as a list (`!=` too)
    straight_lines(n, <that list>), count_lines, len     searched for lines, counted
    all(marker[s] == removed for s in spots)             `any`, `count` too; over `sector` too

For each field and constant met in these forms, this pass keeps, beside the field, the mask of the
spots that hold that value (an int on the state, of the board's `spot_bit`): a representation of
the program, `TypedProgram.masks`; and it marks each form that reads one (`mask_read`), which
lowering (compiler/lower/masks.py) writes from the mask: `board.straight_lines_mask(n, mask)`,
`board.count_lines_mask`, `mask.bit_count()`, `mask == board.all_mask`,
`mask & board.region_mask[r]`, and the list itself `board.mask_spots(mask)` (the same spots in the same
order: spot order, the order of the walk).

The mask is kept exact (lowering writes the updates, compiler/lower/masks.py):
- every assignment to the field (`marker[s] = v`, in any rule) is followed by the update of the
  mask: its bit set or cleared when the value stored is a constant, else set as the value read
  back from the field matches; an assignment of another form (the whole field, an index the
  pass cannot name twice) makes the mask again from the field;
- the state's `_fields_set()` (runtime/state.py: after the fields' inits, a saved state read, a
  scenario's position) makes every mask again from the fields; `clone` copies it (an int).
A set read only by the scores, the returns or the tie-break (computed once a game is over) is no
mask of its own: the mask would cost a line at every write of the field for one read (`_read_once`).
Nothing is chosen by a rule file: the pass finds the forms from the program's types.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...core.source import SourceSpan
from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import expressions, nodes
from ..names import joined
from ..types import Ty
from .rewrite import map_nodes

# the built-ins that read a set of spots as a mask: argument index, and the call written with it
MASK_USES: dict[str, tuple[int, str]] = {
    "straight_lines": (1, "self.board.straight_lines_mask({0}, {mask})"),
    "count_lines": (1, "self.board.count_lines_mask({0}, {mask})"),
    "len": (0, "{mask}.bit_count()"),
}


@dataclass(frozen=True, slots=True)
class Filter:
    """`[s for s in D if f[s] == C]` (op `!=` too) and the like: the field, the constant (its number
    and code), the op, and the spots walked (`spots`: the board's; else a region's, by its code)."""

    field: str
    value: int
    value_py: str
    op: str
    region: str | None
    span: SourceSpan


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """The masks kept (`TypedProgram.masks`, after the empty spots' of `mask_values`), and each
    list, count, test or built-in that reads one marked (`mask_read`): lowering writes it from the mask."""
    constants = {name: value for name, value, _ in program.tables.constants}
    defines = {d.name: d for d in program.defines}
    found: dict[tuple[str, int], t.Mask] = {(m.field, m.value): m for m in program.masks}  # (`mask_values`: the empty)
    once = _read_once(program)
    for e in expressions(program):
        key = _filter(e, defines, constants)
        if key is not None and (key.field, key.value) not in found and id(e) not in once:
            slot = joined("mask", key.field, key.value_py.lower())
            found[(key.field, key.value)] = t.Mask(key.field, key.value, key.value_py, slot, key.span)
    masks = tuple(found.values())

    def marked(e: t.Expr) -> t.Expr:
        if isinstance(e, t.Builtin | t.Comprehension):
            key = _filter(e, defines, constants)
            if key is not None and kept(masks, key) is not None:
                return replace(e, mask_read=True)
        return e

    marking = map_nodes(program, marked)
    return (marking if masks == program.masks else replace(marking, masks=masks))


def _read_once(program: t.TypedProgram) -> set[int]:
    """The nodes of the scores, the returns and the tie-break: computed once a game is over, where a
    mask kept at every write of its field would cost more than the walk it saves (Othello's count of
    the discs on the board, read by its returns only). A mask some other rule reads is read there too."""
    roots = [sc.expr for sc in program.scoring] + [x for x in (program.returns, program.tie_break) if x is not None]
    return {id(n) for root in roots for n in nodes(root)}


def _filter(e: t.Expr, defines: dict[str, t.Define], constants: dict[str, int]) -> Filter | None:
    """The set of spots `e` reads, where it is one of the forms the pass takes, or None."""
    if isinstance(e, t.Builtin) and e.func in MASK_USES and len(e.args) > MASK_USES[e.func][0]:
        return list_filter(e.args[MASK_USES[e.func][0]], defines, constants)
    if isinstance(e, t.Comprehension):
        return list_filter(e, {}, constants) or aggregate_filter(e, constants)
    return None


def kept(masks: tuple[t.Mask, ...], f: Filter) -> t.Mask | None:
    """The mask kept of a filter's field and value, if any."""
    return next((m for m in masks if (m.field, m.value) == (f.field, f.value)), None)


def served(masks: tuple[t.Mask, ...], e: t.Builtin | t.Comprehension, defines: dict[str, t.Define],
           constants: dict[str, int]) -> Filter | None:
    """The set of spots a node the pass marked (`mask_read`) reads from its kept mask, or None
    (lowering writes it so; passes `unswitch`, `hoist_lazily`, `keep_derived`, `remember_values` ask: no loop)."""
    if not e.mask_read:
        return None
    found = _filter(e, defines, constants)
    return found if found is not None and kept(masks, found) is not None else None


SIMPLE = ("enum", "entity", "int", "bool")  # the kinds of value a mask is kept of
NONE = -2  # the `value` of a mask of the spots whose optional field is `none` (`EMPTY`, -1: a list field empty)


def simple(ty: Ty) -> bool:
    """Whether a field's values are ones a mask is kept of: simple values, or optional ones (`none` a value too)."""
    return ty.kind in SIMPLE or ty.kind == "optional" and ty.elem is not None and ty.elem.kind in SIMPLE


def _test(cond: t.Expr | None, var: t.Symbol, constants: dict[str, int]) -> tuple[str, int, str, str] | None:
    """`f[var] == C` (or `!=`), f a field per spot of simple values (or optional ones, C `none` too;
    or of optional values of any type, C `none`): (field, value, its code, op)."""
    if not (isinstance(cond, t.Binary) and cond.op in ("==", "!=")
            and isinstance(cond.left, t.PerIndex) and cond.left.field.per == "spot"
            and cond.left.field.kind in ("field", "perfield")
            and (simple(cond.left.ty) or cond.left.ty.kind == "optional")
            and isinstance(cond.left.index, t.Ref) and cond.left.index.sym is var):
        return None
    value = constant(cond.right, constants)
    if value is None or not simple(cond.left.ty) and value[0] != NONE:  # (of optional records: `none` only)
        return None
    return cond.left.field.name, value[0], value[1], cond.op


def _domain(e: t.Comprehension) -> tuple[bool, str | None]:
    """Whether a comprehension walks the board's spots (region None) or one region's (its code)."""
    d = e.domain
    if isinstance(d, t.Ref) and d.sym.kind == "value" and d.sym.name == "spots":
        return True, None
    if isinstance(d, t.Ref) and d.sym.kind == "local" and d.ty.kind == "entity" and d.ty.name == "region":
        return True, d.sym.py
    return False, None


def list_filter(e: t.Expr, defines: dict[str, t.Define], constants: dict[str, int]) -> Filter | None:
    """The filter `e` is, `[s for s in spots if f[s] == C]` (or of a region's spots, or a
    definition without parameters whose value is one), or None."""
    if isinstance(e, t.DefineCall) and not e.args and e.define in defines and not defines[e.define].params:
        e = defines[e.define].body
    if not (isinstance(e, t.Comprehension) and e.func == "list" and not e.more
            and isinstance(e.elt, t.Ref) and e.elt.sym is e.var):
        return None
    walks, region = _domain(e)
    test = _test(e.cond, e.var, constants)
    if not walks or test is None:
        return None
    return Filter(test[0], test[1], test[2], test[3], region, e.span)


def aggregate_filter(e: t.Comprehension, constants: dict[str, int]) -> Filter | None:
    """`all(f[s] == C for s in spots)`, `any(...)`, `count(...)` (op `!=` too, of a region's spots too)."""
    if e.func not in ("all", "any", "count") or e.more or e.cond is not None:
        return None
    walks, region = _domain(e)
    test = _test(e.elt, e.var, constants)
    if not walks or test is None:
        return None
    return Filter(test[0], test[1], test[2], test[3], region, e.span)


def constant(e: t.Expr, constants: dict[str, int]) -> tuple[int, str] | None:
    """A value known when compiling: a named constant (an enum value, an entity's name), a number,
    a truth value, `none` (`NONE`, written `None`)."""
    if isinstance(e, t.Ref) and e.sym.kind == "value" and e.sym.name == "none":
        return NONE, "None"
    if isinstance(e, t.Ref) and e.sym.kind == "const" and e.sym.py in constants:
        return constants[e.sym.py], e.sym.py
    if isinstance(e, t.Num) and 0 <= e.value < 1 << 30:
        return e.value, str(e.value)
    if isinstance(e, t.Bool):
        return int(e.value), str(e.value)
    return None
