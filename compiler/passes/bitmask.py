"""Pass `bitmask`: the spots where one field holds one value, as a bit mask kept up to date.

A field per spot of simple values (an enumeration, an entity, a number, a truth value) compared
with one constant picks a set of spots. The rules ask of such sets in a few forms, each of which
walks every spot (or every spot of a region) at each use:

    [s for s in spots if marker[s] == face_down]        the spots, as a list (`!=` too)
    straight_lines(n, <that list>), count_lines, len     searched for lines, counted
    all(marker[s] == removed for s in spots)             `any`, `count` too; over `sector` too

For each field and constant met in these forms, this pass keeps, beside the field, the mask of
the spots that hold that value (an int on the state, of the board's `spot_bit`), and the forms
read it: `board.straight_lines_mask(n, mask)`, `board.count_lines_mask`, `mask.bit_count()`,
`mask == board.all_mask`, `mask & board.region_mask[r]`, and the list itself
`board.mask_spots(mask)` (the same spots in the same order: spot order, the order of the walk).

The mask is kept exact:
- every assignment to the field (`marker[s] = v`, in any rule) is followed by the update of the
  mask: its bit set or cleared when the value stored is a constant, else set as the value read
  back from the field matches; an assignment of another form (the whole field, an index the
  pass cannot name twice) makes the mask again from the field;
- the state's `_fields_set()` (runtime/state.py: after the fields' inits, a saved state read, a
  scenario's position) makes every mask again from the fields; `clone` copies it (an int).
Nothing is chosen by a rule file: the pass finds the forms from the program's types.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...core.source import SourceSpan
from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import expressions
from ..names import joined
from ..pyir import AugAssign, Block, Code, If, Stmt, assign
from .plan import Mask, Plan
from .value_masks import paren

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


def run(program: t.TypedProgram, plan: Plan, facts: Facts) -> tuple[t.TypedProgram, Plan]:
    constants = {name: value for name, value, _ in program.tables.constants}
    defines = {d.name: d for d in program.defines}
    found: dict[tuple[str, int], Mask] = {(m.field, m.value): m for m in plan.masks}  # (pass `value_masks`: the empty)
    for e in expressions(program):
        key: Filter | None = None
        if isinstance(e, t.Builtin) and e.func in MASK_USES and len(e.args) > MASK_USES[e.func][0]:
            key = list_filter(e.args[MASK_USES[e.func][0]], defines, constants)
        elif isinstance(e, t.Comprehension):
            key = list_filter(e, {}, constants) or aggregate_filter(e, constants)
        if key is not None and (key.field, key.value) not in found:
            slot = joined("mask", key.field, key.value_py.lower())
            found[(key.field, key.value)] = Mask(key.field, key.value, key.value_py, slot, key.span)
    return program, replace(plan, masks=tuple(found.values()))


def _test(cond: t.Expr | None, var: t.Symbol, constants: dict[str, int]) -> tuple[str, int, str, str] | None:
    """`f[var] == C` (or `!=`), f a field per spot of simple values: (field, value, its code, op)."""
    if not (isinstance(cond, t.Binary) and cond.op in ("==", "!=")
            and isinstance(cond.left, t.PerIndex) and cond.left.field.per == "spot"
            and cond.left.field.kind in ("field", "perfield")
            and cond.left.ty.kind in ("enum", "entity", "int", "bool")
            and isinstance(cond.left.index, t.Ref) and cond.left.index.sym is var):
        return None
    value = _constant(cond.right, constants)
    return None if value is None else (cond.left.field.name, value[0], value[1], cond.op)


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


def _constant(e: t.Expr, constants: dict[str, int]) -> tuple[int, str] | None:
    """A value known when compiling: a named constant (an enum value, an entity's name), a number."""
    if isinstance(e, t.Ref) and e.sym.kind == "const" and e.sym.py in constants:
        return constants[e.sym.py], e.sym.py
    if isinstance(e, t.Num) and 0 <= e.value < 1 << 30:
        return e.value, str(e.value)
    if isinstance(e, t.Bool):
        return int(e.value), str(e.value)
    return None


# -- what lowering asks ---------------------------------------------------------------------------
def _mask_of(plan: Plan, f: Filter) -> str | None:
    """The code of the bit mask of a filter's spots, from the mask kept of its field and value."""
    mask = next((m for m in plan.masks if (m.field, m.value) == (f.field, f.value)), None)
    if mask is None:
        return None
    within = "self.board.all_mask" if f.region is None else f"self.board.region_mask[{f.region}]"
    if f.op == "==":
        return mask.py if f.region is None else f"{mask.py} & {within}"
    return f"{within} & ~{mask.py}"


def masked_call(plan: Plan, e: t.Builtin, defines: dict[str, t.Define], constants: dict[str, int]) -> str | None:
    """The code of a built-in call over a set kept as a mask, a format string over the lowered
    arguments ({0}, {1} ...), or None when it reads no mask."""
    if not plan.masks or e.func not in MASK_USES:
        return None
    at, code = MASK_USES[e.func]
    key = list_filter(e.args[at], defines, constants) if len(e.args) > at else None
    mask = _mask_of(plan, key) if key is not None else None
    return None if mask is None else code.replace("{mask}", mask if "{0}" in code else paren(mask))


def masked_comprehension(plan: Plan, e: t.Comprehension, constants: dict[str, int]) -> str | None:
    """The code of a comprehension that reads a set kept as a mask (the list of its spots, in spot
    order; whether all, any of them hold; how many), or None."""
    if not plan.masks:
        return None
    key = list_filter(e, {}, constants)
    if key is not None:
        mask = _mask_of(plan, key)
        return None if mask is None else f"self.board.mask_spots({mask})"
    key = aggregate_filter(e, constants)
    if key is None:
        return None
    # the spots walked that hold the test: how many (count), some (any), all of them (all)
    holding = _mask_of(plan, key)
    if holding is None:
        return None
    if e.func == "count":
        return f"{paren(holding)}.bit_count()"
    if e.func == "any":
        return f"({paren(holding)} != 0)"
    if key.op == "!=":  # none walked is C
        kept = next(m for m in plan.masks if (m.field, m.value) == (key.field, key.value))
        return f"(not {kept.py})" if key.region is None else f"(not ({kept.py} & self.board.region_mask[{key.region}]))"
    within = "self.board.all_mask" if key.region is None else f"self.board.region_mask[{key.region}]"
    return f"({paren(holding)} == {within})"


def after_assign(plan: Plan, s: t.Assign, constants: dict[str, int]) -> Block:
    """The statements that keep the masks over the field `s` assigns up to date."""
    if s.target.kind not in ("field", "perfield"):
        return ()
    out: list[Stmt] = []
    for m in plan.masks:
        if m.field != s.target.name:
            continue
        index = _simple(s.index) if s.index is not None else None
        if index is None or s.item is not None:  # the whole field, or an index not to evaluate twice
            out.append(assign(m.py, m.rebuild()))
            continue
        bit = f"self.board.spot_bit[{index}]"
        value = _constant(s.value, constants) if s.op == "=" and not m.empty else None
        if m.empty and s.op == "=" and isinstance(s.value, t.Collection):  # a list written out: empty or not
            out.append(_set(m.py, bit, not s.value.items))
        elif value is not None:
            out.append(_set(m.py, bit, value[0] == m.value))
        else:
            out.append(If(Code(m.holds(f"self.{m.field}[{index}]")), (_set(m.py, bit, True),),
                          orelse=(_set(m.py, bit, False),)))
    return tuple(out)


def _set(mask: str, bit: str, on: bool) -> AugAssign:
    """`mask |= bit` (`on`), else `mask &= ~bit`."""
    return AugAssign(Code(mask), "|" if on else "&", Code(bit if on else f"~{bit}"))


def _simple(e: t.Expr) -> str | None:
    """The code of an index that can be read twice at no cost and to the same value: a local, a number."""
    if isinstance(e, t.Ref) and e.sym.kind == "local":
        return e.sym.py
    if isinstance(e, t.Num):
        return str(e.value)
    return None
