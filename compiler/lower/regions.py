"""Lowering the tests of regions kept as masks (pass `mask_regions`, `t.Define.region_tests`): the
method that gives a kept test's mask among given regions, and the kept test a comprehension is.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import typed as t
from ..analysis.walk import bare as unnoted
from ..pyir import (
    AugAssign,
    BinOp,
    Block,
    Call,
    Comment,
    Compare,
    Constant,
    Expr,
    For,
    If,
    Name,
    Paren,
    Return,
    UnaryOp,
    assign,
    dotted,
    rt,
)
from ..typed import RegionChoice, RegionTest
from .masks import value

_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})


def test_of(defines: Mapping[str, t.Define], test: t.Expr, var: t.Symbol) -> RegionTest | None:
    """The kept test `test` is over the region `var` (`d(var) op c`, one of `d`'s `region_tests`), or None."""
    bare = unnoted(test)
    if not (isinstance(bare, t.Binary) and bare.op in _COMPARISONS):
        return None
    call, right = unnoted(bare.left), unnoted(bare.right)
    if not (isinstance(call, t.DefineCall) and len(call.args) == 1 and isinstance(unnoted(call.args[0]), t.Ref)
            and unnoted(call.args[0]).sym is var):  # type: ignore[union-attr]
        return None
    value = str(right.value) if isinstance(right, (t.Num, t.Bool)) else \
        right.sym.py if isinstance(right, t.Ref) and right.sym.kind == "const" else None
    d = defines.get(call.define)
    return None if d is None else next((tt for tt in d.region_tests if (tt.op, tt.value) == (bare.op, value)), None)


def any_of(defines: Mapping[str, t.Define], e: t.Comprehension) -> tuple[RegionTest, t.Expr] | None:
    """`any(d(r) op c for r in L)`, a kept test over regions whose mask is known exactly (`L` the
    regions of a kind, or a choice between such): the test and L."""
    if e.func != "any" or e.more or e.cond is not None:
        return None
    test = test_of(defines, e.elt, e.var)
    if test is None or not exact(e.domain):
        return None
    return test, e.domain


def exact(e: t.Expr) -> bool:
    """Whether the mask of the regions of a list is known without walking it: the regions of a kind
    (`regions_of(k)`), or `a if c else b` of such."""
    e = unnoted(e)
    match e:
        case t.Builtin(func="regions_of"):
            return True
        case t.Cond():
            return exact(e.then) and exact(e.orelse)
    return False


ORDERED = "rt.ordered_mask("  # (a mask that may be -1: its regions not in increasing order)


def ordered(regions: Expr) -> Call:
    """The mask of the regions of a list, -1 if they are not in increasing order (`ORDERED`)."""
    return rt("ordered_mask", regions)


def within_method(test: RegionTest) -> Block:
    """The body of the method giving the test's mask among the regions of `regions_mask`, computing
    again the bits that are not known."""
    held, stale = Name("_held_regions"), Name("_regions_stale")
    region, wanted = Name("_in_region"), Name("_regions_mask")
    slot, known = dotted(f"self.{test.slot}"), dotted(f"self.{test.known}")
    bit = BinOp(Constant(1), "<<", region)
    return (
        Comment(f"`mask_regions`: the regions of `_regions_mask` where `{test.text}`, kept in `{test.slot}` where "
                f"`{test.known}` says the bit is known (cleared where the kept value of `{test.define}` for a region "
                "is dropped)"),
        assign(stale, BinOp(wanted, "&", UnaryOp("~", known))),
        If(stale, (
            assign(held, slot),
            For(region, rt("bits", stale), (
                If(Compare(Call(dotted(f"self.{test.define}"), (region,)), (test.op,), (value(test.value),)),
                   (AugAssign(held, "|", bit),),
                   orelse=(AugAssign(held, "&", UnaryOp("~", Paren(bit))),)),
            )),
            assign(slot, held),
            AugAssign(known, "|", stale),
        ), note="(bits of regions whose kept value was dropped: computed again)"),
        Return(BinOp(slot, "&", wanted)),
    )


def fixed_count(choice: RegionChoice) -> int:
    return sum(1 for term in choice.terms if term.kept is None)

