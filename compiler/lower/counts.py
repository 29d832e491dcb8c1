"""Lowering the counts and sums kept up to date at each write (`TypedProgram.kept_counts`, pass
`keep_counts`): the slot of each table on the state and the method that makes it again from the
fields, the statements that adjust it around an assignment to a field it reads, and the code of a
comprehension the pass marked (`kept_count`), read from its table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import typed as t
from ..analysis.walk import bare
from ..lowered import LoweredFunction
from ..passes import keep_counts
from ..passes.mask_values import at_one_spot
from ..passes.rewrite import free_locals, map_expression
from ..pyir import (
    Assign,
    AugAssign,
    BinOp,
    Block,
    BoolOp,
    Call,
    Compare,
    Constant,
    Expr,
    For,
    If,
    List,
    Name,
    Paren,
    Return,
    Stmt,
    Subscript,
    assign,
    dotted,
)
from ..pyprint import text

if TYPE_CHECKING:
    from .lowerer import Lowerer

SPOT = "_count_spot"  # a spot walked as the table is made again
REGION = "_count_at"  # the region a spot written is in, or walked (an invented local: compiler/names.py)
TABLE = "_counted"  # the table made again
VALUE = "_count_value"  # the value a field holds at the spot, where a count is grouped by it (`_grouped`)
KEYS = tuple(f"_count_key{k}" for k in range(keep_counts.MAX_PARAMS))  # each value of a local the test reads
REGION_COUNT = Call(Name("len"), (dotted("self.board.region_spots"),))


def _number(size: str) -> Expr:
    """The code of how many values a local has (`self.num_seats`, a number)."""
    return Constant(int(size)) if size.isdigit() else dotted(size)


def code(k: t.KeptCount) -> Expr:
    return dotted(f"self.{k.slot}")


def _index(k: t.KeptCount, region: Expr | None, keys: list[Expr]) -> Expr:
    """The place in the table of a region (None: the board's spots) and of the locals' values: by
    region, then by each local in turn (mixed radix)."""
    at: Expr | None = region
    for key, size in zip(keys, k.sizes, strict=True):
        at = key if at is None else BinOp(BinOp(Paren(at) if " " in text(at) else at, "*", _number(size)), "+", key)
    return Constant(0) if at is None else at


def _size(k: t.KeptCount) -> Expr:
    at: Expr = REGION_COUNT if k.region else Constant(1)
    for size in k.sizes:
        at = BinOp(at, "*", _number(size))
    return at


# -- reads ----------------------------------------------------------------------------------------
def read(lo: Lowerer, e: t.Comprehension) -> Expr | None:
    """The code of a comprehension the pass marked, read from its table, or None."""
    k = keep_counts.served(lo.typed, e, lo.defines)
    if k is None:
        return None
    f = keep_counts.form(e, lo.defines, keep_counts.sizes(lo.typed))
    region = lo.node(f.region) if f is not None and f.region is not None else None
    keys = [lo.node(t.Ref(p, p.ty, e.span)) for p in k.params]
    # (None while stale: made again from the fields where it is first read)
    table = Paren(BoolOp("or", (code(k), Call(dotted(f"self.{method(k)}")))))
    value = Subscript(table, _index(k, region, keys))
    if e.func == "any":
        return Paren(Compare(value, ("!=",), (Constant(0),)))
    if e.func == "all":  # (the table counts the spots failing the test)
        return Paren(Compare(value, ("==",), (Constant(0),)))
    return value


# -- the table kept, made again -------------------------------------------------------------------
def _keyed(k: t.KeptCount, term: t.Expr) -> t.Expr:
    """The term with each local it reads replaced by a local of the table's own (`KEYS`)."""
    keys = {p: t.Symbol("local", name[1:], p.ty, name) for p, name in zip(k.params, KEYS, strict=False)}

    def swap(n: t.Expr) -> t.Expr:
        return t.Ref(keys[n.sym], n.ty, n.span) if isinstance(n, t.Ref) and n.sym in keys else n

    return map_expression(term, swap)


def _grouped(k: t.KeptCount, term: t.Expr) -> tuple[t.Expr | None, t.PerIndex] | None:
    """A count whose term is `f[s] == q` or `A and f[s] == q` (either way round), q the table's one local
    and read nowhere else: (A, f[s]). The spot counts for the value of q that f holds there only."""
    if k.summed or len(k.params) != 1:
        return None
    q = k.params[0]

    def equal(x: t.Expr) -> t.PerIndex | None:
        x = bare(x)
        if isinstance(x, t.Binary) and x.op == "==":
            for a, b in ((x.left, x.right), (x.right, x.left)):
                a, b = bare(a), bare(b)
                if isinstance(b, t.Ref) and b.sym is q and isinstance(a, t.PerIndex) and q not in free_locals(a) \
                        and (a.ty == q.ty or a.ty.kind == "optional" and a.ty.elem == q.ty):
                    return a
        return None

    e = bare(term)
    found = equal(e)
    if found is not None:
        return None, found
    if isinstance(e, t.Binary) and e.op == "and":
        for a, b in ((e.left, e.right), (e.right, e.left)):
            found = equal(b)
            if found is not None and q not in free_locals(a):
                return a, found
    return None


def _add(lo: Lowerer, k: t.KeptCount, table: Expr, term: t.Expr, region: Expr | None, op: str) -> Block:
    """`table[place] op= term` (a sum) or `if term: table[place] op= 1` (a count), for every value of the
    locals (a loop over each); a count grouped by the value of a field (`_grouped`), at that value only."""
    grouped = _grouped(k, term)
    if grouped is not None:
        rest, held = grouped
        key = Name(VALUE)
        one: Stmt = AugAssign(Subscript(table, _index(k, region, [key])), op, Constant(1))
        test = lo.node(rest) if rest is not None else None
        if held.ty.kind == "optional":
            none = Compare(key, ("is not",), (Constant(None),))
            test = none if test is None else BoolOp("and", (none, test))
        return (assign(key, lo.node(held)), one if test is None else If(test, (one,)))
    keys: list[Expr] = [Name(name) for name in KEYS[:len(k.params)]]
    lo.scopes.append(set())
    lo.scopes[-1].update(KEYS[:len(k.params)])
    value = lo.node(_keyed(k, term))
    lo.scopes.pop()
    place = Subscript(table, _index(k, region, keys))
    line: Stmt = AugAssign(place, op, value) if k.summed else If(value, (AugAssign(place, op, Constant(1)),))
    for name, size in reversed(list(zip(KEYS, k.sizes, strict=False))):
        line = For(Name(name), Call(Name("range"), (_number(size),)), (line,))
    return (line,)


def method(k: t.KeptCount) -> str:
    """The method that makes a table again from the fields, where it is read stale."""
    return "_re" + k.slot[1:]


def remake(lo: Lowerer, k: t.KeptCount) -> LoweredFunction:
    """The method making the table again from the fields, every spot's term added, and keeping it."""
    table = Name(TABLE)
    spot = t.Symbol("local", "count_spot", k.var.ty, SPOT)
    term = map_expression(k.term, lambda n: t.Ref(spot, n.ty, n.span) if isinstance(n, t.Ref) and n.sym is k.var
                          else n)
    lo.scopes.append({SPOT, REGION, TABLE})
    if k.region:
        walk: Stmt = For(Name(REGION), Call(Name("range"), (REGION_COUNT,)), (
            For(Name(SPOT), Subscript(dotted("self.board.region_spots"), Name(REGION)),
                _add(lo, k, table, term, Name(REGION), "+")),))
    else:
        walk = For(Name(SPOT), dotted("self.board.spots"), _add(lo, k, table, term, None, "+"))
    lo.scopes.pop()
    body: Block = (
        Assign((table,), BinOp(List((Constant(0),)), "*", Paren(_size(k)) if k.sizes or k.region else _size(k)),
               annotation="list[int]"),
        walk,
        assign(code(k), table),
        Return(table),
    )
    return LoweredFunction(method(k), (), "list[int]", body, k.span,
                           kept="`keep_counts`: the table made again from the fields, where it is read stale")


def note(k: t.KeptCount) -> str:
    return (f"`keep_counts`: {k.key}, a list by region and value (None while stale), adjusted at each write of "
            f"{', '.join(k.fields)} by what the spot written adds after it less what it added before "
            f"({k.span.short} ...)")


def kept(lo: Lowerer) -> None:
    """The tables on the state: a slot each, made again with the fields, copied with them."""
    prog = lo.program
    for k in lo.typed.kept_counts:
        slot = text(code(k))
        prog.kept.append((k.slot, "list[int] | None", note(k), f"None if {slot} is None else {slot}[:]"))
        prog.fields_set.append(assign(code(k), Constant(None)))  # (made again where it is first read)
        prog.defines.append(remake(lo, k))


# -- the tables adjusted over an assignment -------------------------------------------------------
def _of(lo: Lowerer, s: t.Assign) -> list[t.KeptCount]:
    if s.target.kind not in ("field", "perfield"):
        return []
    return [k for k in lo.typed.kept_counts if s.target.name in k.fields]


def _spot_term(k: t.KeptCount, index: t.Expr) -> t.Expr:
    """The term of the spot `index` (a local or a number: read again at no cost)."""
    def swap(n: t.Expr) -> t.Expr:
        return index if isinstance(n, t.Ref) and n.sym is k.var else n

    return map_expression(k.term, swap)


def _adjust(lo: Lowerer, k: t.KeptCount, s: t.Assign, op: str) -> Block:
    """The spot's term taken off the table (`op` "-") or added to it ("+"), unless the table is stale."""
    assert s.index is not None
    term = _spot_term(k, s.index)
    table = Name(TABLE)
    lo.scopes.append({REGION, TABLE})
    if not k.region:
        lines = _add(lo, k, table, term, None, op)
    else:
        lines = (For(Name(REGION), Subscript(dotted("self.board.spot_regions"), lo.node(s.index)),
                     _add(lo, k, table, term, Name(REGION), op)),)
    lo.scopes.pop()
    return (assign(table, code(k)), If(Compare(table, ("is not",), (Constant(None),)), lines))


def before_assign(lo: Lowerer, s: t.Assign) -> Block:
    """Before an assignment at one spot of a field a table reads: the spot's term taken off."""
    return tuple(line for k in _of(lo, s) if at_one_spot(s, lo.defines) for line in _adjust(lo, k, s, "-"))


def after_assign(lo: Lowerer, s: t.Assign) -> Block:
    """After it: the spot's term added; after any other assignment of the field, the table made again."""
    out: list[Stmt] = []
    for k in _of(lo, s):
        out.extend(_adjust(lo, k, s, "+") if at_one_spot(s, lo.defines) else (assign(code(k), Constant(None)),))
    return tuple(out)
