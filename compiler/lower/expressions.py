"""Lowering an expression: its Python code, and what it is proven to be and cost (compiler/budget.py).
"""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING, assert_never

from ...runtime.limits import MAX_INT
from .. import typed as t
from ..budget import FREE_WORK, STORED, Facts, add_mag, join, mul_mag, number, sat
from ..builtins import BUILTINS, Lowering, counting
from ..passes import lazy_hoist
from ..passes.lazy_hoist import LAZY
from ..typed import Symbol
from ..types import ANY, Ty, entity
from . import boards, limits, masks
from .code import _SIMPLE, _one_operand, _pair_sorted, _parenthesised, _sorted, _unparenthesised

if TYPE_CHECKING:
    from .lowerer import Lowerer


_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


# -- expressions --------------------------------------------------------------------------
def expr(lo: Lowerer, e: t.Expr) -> str:
    lo.facts.discard(e)  # (facts are this walk's: a node walked again is found again)
    lo.canonical.discard(e)
    py = lower(lo, e)
    if e not in lo.facts:  # what the type alone says; the work is its parts' work
        lo.facts[e] = limits.type_facts(lo, e.ty).plus(sum(lo.fact(part).cost for part in t.subexpressions(e)))
    return py if lo.probe_expr is None else lo.probe_expr(e, py)


def lower(lo: Lowerer, e: t.Expr) -> str:
    match e:
        case t.Num():
            lo.facts[e] = number(e.value)
            return str(e.value)
        case t.Str():
            return repr(e.value)
        case t.Bool():
            return str(e.value)
        case t.Ref():
            lo.facts[e] = limits.symbol_facts(lo, e.sym)
            if e.sym.kind == "field" or e.sym.item:  # a field, or an item of a list or set
                lo.canonical.add(e)
            if e.sym.kind == "value" and e.sym.name == "deciding":
                lo.program.deciding = True
            return e.sym.py
        case t.DefineCall():
            d = lo.defines[e.define]
            args = arguments(lo, e.args, d.params)
            limits.passed(lo, d.name, d.params, e.args)
            lo.facts[e] = lo.define_call_facts(d, sum(lo.fact(arg).cost for arg in e.args))
            lo.called.add(e.define)
            return f"self.{e.define}({', '.join(args)})"
        case t.Builtin():
            return builtin(lo, e)
        case t.PerIndex():
            index = lo.expr(e.index)
            lo.facts[e] = limits.field_facts(lo, e.field.name, e.ty).priced(lo.fact(e.index).cost)
            lo.canonical.add(e)
            return f"{e.field.py}[{index}]"
        case t.ListIndex():
            obj, index = lo.expr(e.obj), lo.expr(e.index)
            item = lo.fact(e.obj).item or limits.type_facts(lo, e.obj.ty.elem or ANY)
            lo.facts[e] = item.priced(lo.fact(e.obj).cost + lo.fact(e.index).cost)
            lo.canonical.add(e)
            pair = _pair_sorted(e, obj)
            if pair is not None:
                return pair
            return f"{obj}[{index}]"
        case t.AttrOf():
            return f"{e.table}[{lo.expr(e.obj)}]"
        case t.Collection():
            parts = [canon(lo, item, item.ty, lo.expr(item)) for item in e.items]
            lo.facts[e] = limits.literal_facts(lo, e.items)
            lo.canonical.add(e)
            tupled = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
            if e.kind == "list":  # a list is a tuple: one representation, and it can be an item of a set
                return tupled
            return f"frozenset({tupled})" if parts else "frozenset()"
        case t.Comprehension():
            return lo.comprehension(e)
        case t.Unary():
            operand = lo.expr(e.operand)
            if e.op == "not":
                return f"not {operand}"
            lo.facts[e] = Facts(lo.fact(e.operand).cost, mag=lo.fact(e.operand).mag)
            return f"-{operand}"
        case t.Binary():
            return binary(lo, e)
        case t.Cond():
            test, then, orelse = lo.expr(e.test), lo.expr(e.then), lo.expr(e.orelse)
            lo.facts[e] = join(lo.fact(e.then), lo.fact(e.orelse)).plus(lo.fact(e.test).cost)
            if e.then in lo.canonical and e.orelse in lo.canonical:
                lo.canonical.add(e)
            return f"({then} if {test} else {orelse})"
        case t.RecordNew() | t.RecordField():
            return record(lo, e)
        case t.Note():
            return note(lo, e)
        case t.Invalid():
            raise AssertionError(f"{e.span}: an expression the checker refused is never lowered")
        case _:
            assert_never(e)


def record(lo: Lowerer, e: t.RecordNew | t.RecordField) -> str:
    """A record made, or one of its fields read."""
    match e:
        case t.RecordNew():  # a record is a tuple of its fields, in the order declared
            parts = [limits.checked_store(lo, canon(lo, arg, arg.ty, lo.expr(arg)), lo.fact(arg), arg.ty, arg.span)
                     for arg in e.args]
            lo.facts[e] = Facts(sat(len(parts) + sum(lo.fact(arg).cost for arg in e.args)))
            lo.canonical.add(e)
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        case t.RecordField():
            obj = lo.expr(e.obj)
            lo.facts[e] = limits.type_facts(lo, e.ty, STORED).priced(lo.fact(e.obj).cost)
            lo.canonical.add(e)
            return f"{obj}[{e.index}]"


def note(lo: Lowerer, e: t.Note) -> str:
    """A node a pass derived (t.Note): a cell, or a value read from it (pass `lazy_hoist`), a value
    bound once, or any other: its code, in parentheses, with a note for its line."""
    match e:
        case t.Note(verb=lazy_hoist.CELL):  # (pass `lazy_hoist`) a cell, bound once: `for cell in (rt.cell(),)`
            lo.facts[e] = Facts(1, 1, item=Facts())  # (one item: an empty list)
            return "(rt.cell(),)"
        case t.Note(verb=lazy_hoist.LAZY):  # (pass `lazy_hoist`) a value read from its cell
            return lazy_hoist_code(lo, e)
        case t.Note(expr=t.Collection(kind="list", items=(item,))):  # a value bound once: `for h in (v,)`
            # (the local is read only where `v` was: `v` as it is, not converted, and the same object)
            py = lo.expr(item)
            lo.facts[e] = limits.literal_facts(lo, (item,))
            lo.notes.setdefault(e.verb, {})[e.what] = None
            return f"({_unparenthesised(py)},)"
        case t.Note():  # derived by a pass: its code, in parentheses, and a note for its line
            py = lo.expr(e.expr)
            # (a body inlined costs the step of the call it was: the limits of a move are
            # counted as they were)
            lo.facts[e] = lo.fact(e.expr).plus(1 if e.verb == "inlined" else 0)
            if e.expr in lo.canonical:
                lo.canonical.add(e)
            lo.notes.setdefault(e.verb, {})[e.what] = None
            return _parenthesised(py)


def canon(lo: Lowerer, e: t.Expr, ty: Ty, py: str) -> str:
    """`py`, the code of `e`, giving the one runtime representation of its type: a list is a
    tuple and a set a frozenset, items too (`tuple(x)` of a tuple is that tuple itself)."""
    # Every set is made a frozenset, and every item put into a list or set is converted, so the
    # items of any list are in their one representation already: only the list itself may be
    # a Python list (a comprehension, `sorted`) or a range (`players`).
    if ty.kind != "list" or e in lo.canonical:
        return py
    if _parenthesised(py) == py and py.startswith("(") and _one_operand(py):  # `tuple(a if c else b)`
        return f"tuple{py}"
    return f"tuple({py})"


def iterable(lo: Lowerer, ty: Ty, py: str, ordered: bool = True) -> str:
    """How to walk the items of a list, a set or a region. A set is walked in increasing
    order where the order can reach the game (`ordered`: a loop, a choice, a list made from
    it): the order of a frozenset is Python's own, not the same under every interpreter, and
    for some items not under every hash seed."""
    if ty.kind == "set" and ordered:
        return _sorted(ty.elem or ANY, py)
    if ty == entity("region"):
        return f"self.board.region_spots[{py}]"
    return py


def binary(lo: Lowerer, e: t.Binary) -> str:
    lpy, rpy = lo.expr(e.left), lo.expr(e.right)
    lt, rt_ = e.left.ty, e.right.ty
    left, right = lo.fact(e.left), lo.fact(e.right)
    work = sat(left.cost + right.cost)
    lo.facts[e] = Facts(work)  # a truth value; numbers and lists say more below
    op = e.op
    if op in ("and", "or"):
        # Python's `and`/`or` give one of their operands: a list or set used as a condition
        # is made a bool, so the result is a bool as its type says (`mine(p) and n > 0`).
        if not e.truth_only:
            lpy, rpy = (py if ty.kind == "bool" else f"bool({py})" for ty, py in ((lt, lpy), (rt_, rpy)))
        return f"({lpy} {op} {rpy})"
    if op in _COMPARISONS:
        # Python chains `a == b == c`: a comparison (or a `not`) inside another keeps its parentheses.
        lpy, rpy = (f"({py})" if isinstance(side, t.Unary | t.Binary) and side.op in (*_COMPARISONS, "not")
                    else py for side, py in ((e.left, lpy), (e.right, rpy)))
    if op in ("==", "!=") and "none" in (lt.kind, rt_.kind):  # `x == none`: Python's `is None`
        return f"{lpy} {'is' if op == '==' else 'is not'} {rpy}"
    if op in ("==", "!="):
        if lt.kind in ("list", "set") or rt_.kind in ("list", "set"):  # compared item by item
            lpy, rpy = canon(lo, e.left, lt, lpy), canon(lo, e.right, rt_, rpy)
            sizes = [f.size for f in (left, right) if f.size is not None]
            if sizes and min(sizes) <= FREE_WORK:
                lo.facts[e] = Facts(sat(work + min(sizes)))
            else:
                lpy, _, _ = limits.over(lo, lpy, left, e.span)
        return f"{lpy} {op} {rpy}"
    if op in ("<", "<=", ">", ">="):
        return f"{lpy} {op} {rpy}"
    if op in ("in", "not in") and rt_.kind == "set":  # a frozenset: one look-up, whatever its size
        lpy = canon(lo, e.left, lt, lpy)
        lo.facts[e] = Facts(sat(work + 1))
        return f"{lpy} {op} {rpy}"
    if op in ("in", "not in"):
        walk = iterable(lo, rt_, rpy, ordered=False)
        lpy = canon(lo, e.left, lt, lpy)
        walk, searched, _ = limits.over(lo, walk, limits.domain_facts(lo, e.right), e.span)
        lo.facts[e] = Facts(sat(work + searched))
        return f"{lpy} {op} {walk}"
    if e.ty.kind in ("list", "set"):  # a list joined, a set's union or difference
        lpy, left_work, left_size = limits.over(lo, lpy, left, e.span)
        rpy, right_work, right_size = limits.over(lo, rpy, right, e.span)
        item = None if left.item is None or right.item is None else join(left.item, right.item)
        size = left_size if op == "-" else sat(left_size + right_size)
        lo.facts[e] = limits.clamp(lo, e.ty, Facts(sat(work + left_work + right_work), size, item=item))
        lo.canonical.add(e)
        if e.ty.kind == "list":
            written = list_items_joined(lo, e, lpy, rpy, _SIMPLE)  # (pass `list_items`)
            return written if written is not None else f"(*{lpy}, *{rpy})"
        items = set_items_joined(e.items_written, op == "+", lpy, rpy)  # (pass `set_items`)
        if items is not None:
            return items
        return f"({lpy} {'|' if op == '+' else '-'} {rpy})"
    if op in ("+", "-"):
        lo.facts[e] = Facts(work, mag=add_mag(left.mag, right.mag))
        return f"({lpy} {op} {rpy})"
    if op == "*":
        product = mul_mag(left.mag, right.mag)
        if product is None:  # a square, say, that repeated would grow without end: checked
            lo.facts[e] = Facts(work, mag=(MAX_INT, 0))
            return f"rt.num({lpy} * {rpy}, {limits.where(lo, e.span)})"
        lo.facts[e] = Facts(work, mag=product)
        return f"({lpy} * {rpy})"
    # `//` and `%`: a divisor that may be zero is a game error, not a crash
    lo.facts[e] = Facts(work, mag=left.mag if op == "//" else right.mag)
    if nonzero(lo, e.right):
        return f"({lpy} {op} {rpy})"
    return f"rt.{'div' if op == '//' else 'mod'}({lpy}, {rpy}, {limits.where(lo, e.span)})"


def builtin(lo: Lowerer, e: t.Builtin) -> str:
    if lo.line_numbers:  # a choice of lines listed by number (pass `action_tables`): the same lines, in order
        lo.line_numbers = False  # (not the lines an argument reads)
        try:
            py = builtin(lo, e)
        finally:
            lo.line_numbers = True
        return py.replace("self.board.straight_lines", "self.board.straight_line_numbers", 1) \
            if e.func == "straight_lines" else py
    masked = masks.masked_call(lo, e)
    if masked is not None:  # a set of spots kept as a bit mask (pass `bitmask`)
        lowered = []
        for k, arg in enumerate(e.args):
            called = set(lo.called)
            lowered.append(lo.expr(arg))
            if f"{{{k}}}" not in masked:  # (the list the mask stands for: its code is not written)
                lo.called = called
        lo.facts[e] = builtin_facts(lo, e, lowered, e.ty)  # (what the list's call is proven to cost)
        return masked.format(*lowered)
    counted = counting(e)  # `len(straight_lines(...))` as `count_lines(...)`: no list of lines made
    if counted is not None:
        py = builtin(lo, counted)
        lo.facts[e] = lo.fact(counted)
        return py
    lowered = [lo.expr(arg) for arg in e.args]
    lo.facts[e] = builtin_facts(lo, e, lowered, e.ty)
    if e.func == "sorted" and e.ty.elem is not None:  # in the order a set is walked in (_sorted)
        return _sorted(e.ty.elem, _unparenthesised(lowered[0]))  # (its one argument: no parentheses of its own)
    return BUILTINS[e.func].write(lowered, e.extra, limits.where(lo, e.span))


def arguments(lo: Lowerer, args: tuple[t.Expr, ...], params: tuple[Symbol, ...]) -> list[str]:
    """The arguments of a call to a definition or procedure: each a stored value
    (compiler/budget.py), so what is passed is checked as if stored."""
    return [limits.checked_store(lo, lo.expr(arg), lo.fact(arg), p.ty, arg.span)
            for arg, p in zip(args, params, strict=True)]


def nonzero(lo: Lowerer, e: t.Expr) -> bool:
    """Whether a divisor is zero in no game: a number, the length of an enumeration, of a
    component's list or of the players, or a product or negation of such."""
    match e:
        case t.Num():
            return e.value != 0
        case t.Unary(op="-"):
            return nonzero(lo, e.operand)
        case t.Binary(op="*"):
            return nonzero(lo, e.left) and nonzero(lo, e.right)
        case t.Builtin(func="len", args=(t.Ref(sym=sym),)):
            if sym.kind != "value" or sym.ty.elem is None:
                return False
            if sym.name in ("players", "owners"):
                return min(lo.rs.players, default=0) > 0
            kind = sym.ty.elem
            return (kind.kind == "enum" or kind.name in lo.component_count) and bool(boards.kind_count(lo, kind.name))
    return False


def builtin_facts(lo: Lowerer, e: t.Builtin, lowered: list[str], ret: Ty) -> Facts:
    """What a built-in function gives and costs: its facts rule (compiler/builtins/library.py),
    given what it may know of lowering. It wraps the arguments that need a check: a list whose
    size only the game knows, a number an auction keeps, a count of spots."""
    lowering = Lowering(boards.bounds(lo), partial(boards.kind_count, lo), partial(limits.over, lo),
                        partial(limits.checked_store, lo), partial(limits.type_facts, lo),
                        partial(limits.charged, lo), partial(limits.where, lo), lo.rs.dice,
                        lambda high: range_bounds_size(lo, e, high))  # (pass `range_bounds`)
    return BUILTINS[e.func].facts_of(e, lowered, [lo.fact(a) for a in e.args], ret, lowering)


def set_items_joined(marked: bool, plus: bool, left: str, right_py: str) -> str | None:
    """`left.union(items)` or `left.difference(items)` for a set operation that pass `set_items`
    marked (`marked`: its right operand a set written out), where that operand is lowered as
    `frozenset((...))` (`right_py`; not a set of more items than a move may walk unchecked), else None."""
    if not marked or not (right_py.startswith("frozenset((") and right_py.endswith("))")):
        return None
    items = right_py[len("frozenset("):-1]
    operand = left if left.replace(".", "").replace("_", "").replace("[", "").replace("]", "").isalnum() \
        else f"({left})"
    return f"{operand}.{'union' if plus else 'difference'}({items})"


def range_bounds_size(lo: Lowerer, e: t.Builtin, high_mag: tuple[int, int]) -> int | None:
    """At most how many items `range(a, b)` holds, `a` never negative (pass `range_bounds` marked
    it) and `b` proven at most `high_mag[0]` (none where `b` grows with the game's numbers); None if
    it is not so."""
    if not e.from_nonnegative or high_mag[1]:
        return None
    return max(high_mag[0], 0)


def list_items_joined(lo: Lowerer, e: t.Binary, left_py: str, right_py: str, simple: re.Pattern[str]) -> str | None:
    """`(*x, a, b)` or `(a, b, *x)` for a join of two lists that pass `list_items` marked, one written
    out with items (lowered as the tuple `(a, b)` or `(a,)`), else None. A join whose other list is
    `simple` (a match of the lists lowering reads as they are) is noted in `lo.short_joins`, for
    `limits.list_items_short`."""
    if not e.items_written:
        return None
    for written, written_py, other_py, first in ((e.right, right_py, left_py, False),
                                                 (e.left, left_py, right_py, True)):
        if isinstance(written, t.Collection) and written.kind == "list" and written.items:
            items = written_py[1:-1].removesuffix(",")
            py = f"({items}, *{other_py})" if first else f"(*{other_py}, {items})"
            if simple.fullmatch(other_py):
                lo.short_joins[py] = (other_py, len(written.items))
            return py
    return None


def lazy_hoist_code(lo: Lowerer, e: t.Note) -> str:
    """A value read from its cell (`lo`: the lowering): the cell's item once
    it holds one, else the value computed and put there. Its work is the value's, as the plain
    code's was for every item."""
    assert isinstance(e.expr, t.Collection)
    cell_ref, value = e.expr.items
    cell, py = lo.expr(cell_ref), lo.expr(value)
    lo.facts[e] = lo.fact(value)
    lo.notes.setdefault(LAZY, {})[e.what] = None
    return f"({cell} or rt.once({cell}, {py}))[0]"
