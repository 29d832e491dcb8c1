"""Lowering the sets of spots kept as bit masks (`TypedProgram.masks` and `value_masks`, chosen by the
passes `bitmask`, `value_masks`, `spot_filters`): the slot of each on the state and how it is made
again from its field, the statements that keep it up to date around an assignment to the field,
and the code of a built-in or comprehension the pass `bitmask` marked (`mask_read`), read from its mask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import typed as t
from ..analysis.walk import bare
from ..names import FILTER_LOCAL
from ..passes import bitmask
from ..passes.value_masks import at_one_spot
from ..pyir import AugAssign, Block, Code, For, If, Stmt, assign

if TYPE_CHECKING:
    from .lowerer import Lowerer


# -- a mask kept ----------------------------------------------------------------------------------
def code(m: t.Mask | t.ValueMask) -> str:
    """The code of a mask (of masks per value: their list) on the state."""
    return f"self.{m.slot}"


def rebuild(m: t.Mask) -> str:
    """Code of the mask made again from the field."""
    if m.empty:
        return f"self.board.empty_mask(self.{m.field})"
    return f"self.board.value_mask(self.{m.field}, {m.value_py})"


def holds(m: t.Mask, value: str) -> str:
    """Code of whether the value `value` (of the field) is one of the mask's."""
    return f"not {value}" if m.empty else f"{value} == {m.value_py}"


def note(m: t.Mask) -> str:
    what, by = ("is empty", "spot_filters") if m.empty else (f"is {m.value_py}", "bitmask")
    return (f"`{by}`: the spots whose {m.field} {what}, as a bit mask (board.spot_bit) kept up "
            f"to date as {m.field} changes: the sets of spots it picks ({m.span.short} ...) are read from "
            "it, not found by walking every spot")


def rebuild_values(m: t.ValueMask) -> str:
    """Code of the masks per value made again from the field."""
    how = "item_masks" if m.op == "in" else "value_masks"
    return f"self.board.{how}(self.{m.field}, {m.count})"


def note_values(m: t.ValueMask) -> str:
    what = "holds" if m.op == "in" else "is"
    return (f"`value_masks`: for each value v, the spots whose {m.field} {what} v, as a bit mask "
            f"(board.spot_bit) kept up to date as {m.field} changes: the counts, tests and lists of "
            f"them ({m.span.short} ...) are read from it, not found by walking the spots")


def paren(py: str) -> str:
    """The code of a mask as an operand: in parentheses if it holds an operator."""
    return f"({py})" if " " in py else py


# -- reads of a mask (pass `bitmask`) --------------------------------------------------------------
def _mask_of(masks: tuple[t.Mask, ...], f: bitmask.Filter) -> str | None:
    """The code of the bit mask of a filter's spots, from the mask kept of its field and value."""
    mask = bitmask.kept(masks, f)
    if mask is None:
        return None
    within = "self.board.all_mask" if f.region is None else f"self.board.region_mask[{f.region}]"
    if f.op == "==":
        return code(mask) if f.region is None else f"{code(mask)} & {within}"
    return f"{within} & ~{code(mask)}"


def masked_call(lo: Lowerer, e: t.Builtin) -> str | None:
    """The code of a built-in call the pass marked, over a set kept as a mask, a format string over
    the lowered arguments ({0}, {1} ...), or None when it reads no mask."""
    masks = lo.typed.masks
    key = bitmask.served(masks, e, lo.defines, lo.constant_values)
    mask = _mask_of(masks, key) if key is not None else None
    if mask is None:
        return None
    written = bitmask.MASK_USES[e.func][1]
    return written.replace("{mask}", mask if "{0}" in written else paren(mask))


def masked_comprehension(lo: Lowerer, e: t.Comprehension) -> str | None:
    """The code of a comprehension the pass marked, that reads a set kept as a mask (the list of
    its spots, in spot order; whether all, any of them hold; how many), or None."""
    masks = lo.typed.masks
    key = bitmask.served(masks, e, {}, lo.constant_values)
    holding = _mask_of(masks, key) if key is not None else None
    if key is None or holding is None:
        return None
    if e.func == "list":
        return f"self.board.mask_spots({holding})"
    # the spots walked that hold the test: how many (count), some (any), all of them (all)
    if e.func == "count":
        return f"{paren(holding)}.bit_count()"
    if e.func == "any":
        return f"({paren(holding)} != 0)"
    if key.op == "!=":  # none walked is C
        kept = bitmask.kept(masks, key)
        assert kept is not None
        return f"(not {code(kept)})" if key.region is None \
            else f"(not ({code(kept)} & self.board.region_mask[{key.region}]))"
    within = "self.board.all_mask" if key.region is None else f"self.board.region_mask[{key.region}]"
    return f"({paren(holding)} == {within})"


# -- the masks kept up to date over an assignment ------------------------------------------------
def after_assign(lo: Lowerer, s: t.Assign) -> Block:
    """The statements that keep the masks over the field `s` assigns up to date (`TypedProgram.masks`)."""
    if s.target.kind not in ("field", "perfield"):
        return ()
    out: list[Stmt] = []
    for m in lo.typed.masks:
        if m.field != s.target.name:
            continue
        index = _simple(s.index) if s.index is not None else None
        if index is None or s.item is not None:  # the whole field, or an index not to evaluate twice
            out.append(assign(code(m), rebuild(m)))
            continue
        bit = f"self.board.spot_bit[{index}]"
        value = bitmask.constant(s.value, lo.constant_values) if s.op == "=" and not m.empty else None
        if m.empty and s.op == "=" and isinstance(s.value, t.Collection):  # a list written out: empty or not
            out.append(_set(code(m), bit, not s.value.items))
        elif value is not None:
            out.append(_set(code(m), bit, value[0] == m.value))
        else:
            out.append(If(Code(holds(m, f"self.{m.field}[{index}]")), (_set(code(m), bit, True),),
                          orelse=(_set(code(m), bit, False),)))
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


def before_assign_values(lo: Lowerer, s: t.Assign) -> Block:
    """The statements before an assignment to a field with masks per value (`TypedProgram.value_masks`):
    the bits of the spot's old items (or value) cleared, where its new ones are set after it."""
    return tuple(line for m in _of(lo.typed, s) if at_one_spot(s, lo.defines) for line in _update(m, s, "&= ~"))


def after_assign_values(lo: Lowerer, s: t.Assign) -> Block:
    """The statements after an assignment to a field with masks per value: the bits of the spot's new
    items (or value) set; or, for any other assignment, the masks made again."""
    out: list[Stmt] = []
    for m in _of(lo.typed, s):
        out.extend(_update(m, s, "|= ") if at_one_spot(s, lo.defines) else [assign(code(m), rebuild_values(m))])
    return tuple(out)


def _of(program: t.TypedProgram, s: t.Assign) -> list[t.ValueMask]:
    if s.target.kind not in ("field", "perfield"):
        return []
    return [m for m in program.value_masks if m.field == s.target.name]


def _update(m: t.ValueMask, s: t.Assign, op: str) -> list[Stmt]:
    index = bare(s.index) if s.index is not None else None
    at = index.sym.py if isinstance(index, t.Ref) else str(index.value) if isinstance(index, t.Num) else "?"
    bit = f"self.board.spot_bit[{at}]"
    value = bare(s.value)
    if op == "|= " and s.op == "=":  # a value written out, of names read again at no cost: its bits set at once
        if m.op == "==" and _again(value):
            return [_bits(f"{code(m)}[{_again(value)}]", op, bit)]
        if m.op == "in" and isinstance(value, t.Collection) and all(_again(x) for x in value.items):
            return [_bits(f"{code(m)}[{_again(x)}]", op, bit) for x in value.items]
    if m.op == "==":
        return [_bits(f"{code(m)}[self.{m.field}[{at}]]", op, bit)]
    item = FILTER_LOCAL.format(m.field)
    return [For(Code(item), Code(f"self.{m.field}[{at}]"), (_bits(f"{code(m)}[{item}]", op, bit),))]


def _bits(mask: str, op: str, bit: str) -> AugAssign:
    """`mask |= bit` (`op` "|= "), or `mask &= ~bit` (`op` "&= ~")."""
    return AugAssign(Code(mask), op[0], Code(op[3:] + bit))


def _again(e: t.Expr) -> str:
    """The code of a value the statement after an assignment reads again at no cost and to the same
    value (a local, a constant, the seat to act), or ""."""
    e = bare(e)
    if isinstance(e, t.Ref) and e.sym.kind in ("local", "const", "value") and e.sym.py.replace(".", "").isidentifier():
        return e.sym.py
    return ""
