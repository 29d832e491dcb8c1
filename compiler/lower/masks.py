"""Lowering the sets of spots kept as bit masks (`TypedProgram.masks` and `mask_values`, chosen by the
passes `mask_spot_sets`, `mask_values`, `mask_spot_filters`): the slot of each on the state and how it is made
again from its field, the statements that keep it up to date around an assignment to the field,
and the code of a built-in or comprehension the pass `mask_spot_sets` marked (`mask_read`), read from its mask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import typed as t
from ..analysis.walk import bare
from ..builtins.spec import template
from ..names import FILTER_LOCAL
from ..passes import mask_spot_sets
from ..passes.mask_values import at_one_spot
from ..pyir import (
    Attribute,
    AugAssign,
    BinOp,
    Block,
    Call,
    Compare,
    Constant,
    Expr,
    For,
    If,
    Name,
    Paren,
    Stmt,
    Subscript,
    Tuple,
    UnaryOp,
    assign,
    dotted,
    substituted,
)
from ..pyprint import text

if TYPE_CHECKING:
    from .lowerer import Lowerer


# -- a mask kept ----------------------------------------------------------------------------------
def code(m: t.Mask | t.ValueMask) -> Attribute:
    """The code of a mask (of masks per value: their list) on the state."""
    return Attribute(Name("self"), m.slot)


def value(py: str) -> Expr:
    """The code of a constant as a pass wrote it (`RED`, `3`, `True`, `()`), as nodes."""
    if py.lstrip("-").isdigit():
        return Constant(int(py), written=py)
    if py in ("True", "False"):
        return Constant(py == "True")
    if py == "None":
        return Constant(None)
    if py == "()":
        return Tuple(())
    return dotted(py)


def rebuild(m: t.Mask) -> Call:
    """Code of the mask made again from the field."""
    field = Attribute(Name("self"), m.field)
    if m.empty:
        return Call(dotted("self.board.empty_mask"), (field,))
    return Call(dotted("self.board.value_mask"), (field, value(m.value_py)))


def holds(m: t.Mask, item: Expr) -> Expr:
    """Code of whether the value `item` (of the field) is one of the mask's."""
    if m.empty:
        return UnaryOp("not", item)
    return Compare(item, ("is" if m.value_py == "None" else "==",), (value(m.value_py),))


def note(m: t.Mask) -> str:
    what, by = ("is empty", "mask_spot_filters") if m.empty else (f"is {m.value_py}", "mask_spot_sets")
    return (f"`{by}`: the spots whose {m.field} {what}, as a bit mask (board.spot_bit) kept up "
            f"to date as {m.field} changes: the sets of spots it picks ({m.span.short} ...) are read from "
            "it, not found by walking every spot")


def rebuild_values(m: t.ValueMask) -> Call:
    """Code of the masks per value made again from the field."""
    how = "item_masks" if m.op == "in" else "value_masks"
    return Call(dotted(f"self.board.{how}"), (Attribute(Name("self"), m.field), value(m.count)))


def note_values(m: t.ValueMask) -> str:
    what = "holds" if m.op == "in" else "is"
    return (f"`mask_values`: for each value v, the spots whose {m.field} {what} v, as a bit mask "
            f"(board.spot_bit) kept up to date as {m.field} changes: the counts, tests and lists of "
            f"them ({m.span.short} ...) are read from it, not found by walking the spots")


def paren(py: Expr) -> Expr:
    """The code of a mask as an operand: in parentheses if it holds an operator (a space, as written)."""
    return Paren(py) if " " in text(py) else py


_ALL = dotted("self.board.all_mask")


def region_mask(region: Expr) -> Subscript:
    """The mask of the spots of a region, `self.board.region_mask[region]`."""
    return Subscript(dotted("self.board.region_mask"), region)


def _within(region: str | None) -> Expr:
    return _ALL if region is None else region_mask(value(region))


# -- reads of a mask (pass `mask_spot_sets`) --------------------------------------------------------------
def _mask_of(masks: tuple[t.Mask, ...], f: mask_spot_sets.Filter) -> Expr | None:
    """The code of the bit mask of a filter's spots, from the mask kept of its field and value."""
    mask = mask_spot_sets.kept(masks, f)
    if mask is None:
        return None
    within = _within(f.region)
    if f.op == "==":
        return code(mask) if f.region is None else BinOp(code(mask), "&", within)
    return BinOp(within, "&", UnaryOp("~", code(mask)))


def masked_call(lo: Lowerer, e: t.Builtin) -> Expr | None:
    """The code of a built-in call the pass marked, over a set kept as a mask: the pass's template
    (`mask_spot_sets.MASK_USES`) as nodes, the mask filled in and each argument still a name of its own
    (`{0}`, `{1}` ...: `hole`), or None when it reads no mask."""
    masks = lo.typed.masks
    key = mask_spot_sets.served(masks, e, lo.defines, lo.constant_values)
    mask = _mask_of(masks, key) if key is not None else None
    if mask is None:
        return None
    written = mask_spot_sets.MASK_USES[e.func][1]
    return substituted(template(written), {"{mask}": mask if "{0}" in written else paren(mask)})


def hole(k: int) -> Name:
    """The name standing for the `k`th argument in a template of `masked_call`."""
    return Name(f"{{{k}}}")


def masked_comprehension(lo: Lowerer, e: t.Comprehension) -> Expr | None:
    """The code of a comprehension the pass marked, that reads a set kept as a mask (the list of
    its spots, in spot order; whether all, any of them hold; how many), or None."""
    masks = lo.typed.masks
    key = mask_spot_sets.served(masks, e, {}, lo.constant_values)
    holding = _mask_of(masks, key) if key is not None else None
    if key is None or holding is None:
        return None
    if e.func == "list":
        return Call(dotted("self.board.mask_spots"), (holding,))
    # the spots walked that hold the test: how many (count), some (any), all of them (all)
    if e.func == "count":
        return Call(Attribute(paren(holding), "bit_count"))
    if e.func == "any":
        return Paren(Compare(paren(holding), ("!=",), (Constant(0),)))
    if key.op == "!=":  # none walked is C
        kept = mask_spot_sets.kept(masks, key)
        assert kept is not None
        return Paren(UnaryOp("not", code(kept))) if key.region is None \
            else Paren(UnaryOp("not", Paren(BinOp(code(kept), "&", _within(key.region)))))
    return Paren(Compare(paren(holding), ("==",), (_within(key.region),)))


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
        bit = _bit(index)
        constant = mask_spot_sets.constant(s.value, lo.constant_values) if s.op == "=" and not m.empty else None
        if m.empty and s.op == "=" and isinstance(s.value, t.Collection):  # a list written out: empty or not
            out.append(_set(code(m), bit, not s.value.items))
        elif constant is not None:
            out.append(_set(code(m), bit, constant[0] == m.value))
        elif m.value_py == "None" and s.op == "=" and s.value.ty.kind not in ("optional", "none"):
            out.append(_set(code(m), bit, False))  # (a value its type says is no `none`: the spot is not free)
        else:
            out.append(If(holds(m, Subscript(Attribute(Name("self"), m.field), index)), (_set(code(m), bit, True),),
                          orelse=(_set(code(m), bit, False),)))
    return tuple(out)


def _bit(index: Expr) -> Subscript:
    """The bit of the spot `index`, `self.board.spot_bit[index]`."""
    return Subscript(dotted("self.board.spot_bit"), index)


def _set(mask: Expr, bit: Expr, on: bool) -> AugAssign:
    """`mask |= bit` (`on`), else `mask &= ~bit`."""
    return AugAssign(mask, "|", bit) if on else AugAssign(mask, "&", UnaryOp("~", bit))


def _simple(e: t.Expr) -> Expr | None:
    """The code of an index that can be read twice at no cost and to the same value: a local, a number."""
    if isinstance(e, t.Ref) and e.sym.kind == "local":
        return dotted(e.sym.py)
    if isinstance(e, t.Num):
        return Constant(e.value)
    return None


def before_assign_values(lo: Lowerer, s: t.Assign) -> Block:
    """The statements before an assignment to a field with masks per value (`TypedProgram.value_masks`):
    the bits of the spot's old items (or value) cleared, where its new ones are set after it."""
    return tuple(line for m in _of(lo.typed, s) if at_one_spot(s, lo.defines) for line in _update(m, s, set_=False))


def after_assign_values(lo: Lowerer, s: t.Assign) -> Block:
    """The statements after an assignment to a field with masks per value: the bits of the spot's new
    items (or value) set; or, for any other assignment, the masks made again."""
    out: list[Stmt] = []
    for m in _of(lo.typed, s):
        out.extend(_update(m, s, set_=True) if at_one_spot(s, lo.defines) else [assign(code(m), rebuild_values(m))])
    return tuple(out)


def _of(program: t.TypedProgram, s: t.Assign) -> list[t.ValueMask]:
    if s.target.kind not in ("field", "perfield"):
        return []
    return [m for m in program.value_masks if m.field == s.target.name]


def _update(m: t.ValueMask, s: t.Assign, set_: bool) -> list[Stmt]:
    """The statements setting (`set_`) or clearing the bits of the spot `s` assigns at (one spot,
    a local or a number: `at_one_spot`) in the masks per value `m`."""
    index = _simple(bare(s.index)) if s.index is not None else None
    assert index is not None, "masks per value: an assignment not at one spot is followed by the masks made again"
    bit = _bit(index)
    value = bare(s.value)
    if set_ and s.op == "=":  # a value written out, of names read again at no cost: its bits set at once
        again = _again(value)
        if m.op == "==" and again is not None:
            return [_set(Subscript(code(m), again), bit, set_)]
        items = [_again(x) for x in value.items] if m.op == "in" and isinstance(value, t.Collection) else None
        if items is not None and all(x is not None for x in items):
            return [_set(Subscript(code(m), x), bit, set_) for x in items if x is not None]
    field = Subscript(Attribute(Name("self"), m.field), index)
    if m.op == "==":
        return [_set(Subscript(code(m), field), bit, set_)]
    item = Name(FILTER_LOCAL.format(m.field))
    return [For(item, field, (_set(Subscript(code(m), item), bit, set_),))]


def _again(e: t.Expr) -> Expr | None:
    """The code of a value the statement after an assignment reads again at no cost and to the same
    value (a local, a constant, the seat to act), or None."""
    e = bare(e)
    if isinstance(e, t.Ref) and e.sym.kind in ("local", "const", "value") and e.sym.py.replace(".", "").isidentifier():
        return dotted(e.sym.py)
    return None
