"""Lowering an expression: its code (expression nodes, compiler/pyir.py), and what it is proven to
be and cost (compiler/budget.py).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, assert_never

from ...core.source import SourceSpan
from ...runtime.limits import MAX_INT
from .. import pyir
from .. import typed as t
from ..budget import FREE_WORK, STORED, Facts, add_mag, join, mul_mag, number, sat
from ..builtins import BUILTINS, Lowering, counting
from ..builtins.spec import template
from ..passes import hoist_lazily
from ..passes.hoist_lazily import LAZY
from ..pyir import Attribute, BinOp, BoolOp, Call, Compare, Constant, IfExp, Keyword, Name, Paren, Starred, Subscript
from ..pyir import Tuple as TupleNode
from ..pyprint import text
from ..typed import Symbol
from ..types import ANY, Ty, entity, needs_key
from . import boards, limits, masks
from .code import parenthesised, simple, unparenthesised

if TYPE_CHECKING:
    from .lowerer import Lowerer


_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


# -- expressions --------------------------------------------------------------------------
def expr(lo: Lowerer, e: t.Expr) -> pyir.Expr:
    lo.facts.discard(e)  # (facts are this walk's: a node walked again is found again)
    lo.canonical.discard(e)
    py = lower(lo, e)
    if e not in lo.facts:  # what the type alone says; the work is its parts' work
        lo.facts[e] = limits.type_facts(lo, e.ty).plus(sum(lo.fact(part).cost for part in t.subexpressions(e)))
    return py if lo.probe_expr is None else lo.probe_expr(e, py)


def lower(lo: Lowerer, e: t.Expr) -> pyir.Expr:
    match e:
        case t.Num():
            lo.facts[e] = number(e.value)
            return Constant(e.value, span=e.span)
        case t.Str():
            return Constant(e.value, span=e.span)
        case t.Bool():
            return Constant(e.value, span=e.span)
        case t.Ref():
            lo.facts[e] = limits.symbol_facts(lo, e.sym)
            if e.sym.kind == "field" or e.sym.item:  # a field, or an item of a list or set
                lo.canonical.add(e)
            if e.sym.kind == "value" and e.sym.name == "deciding":
                lo.program.deciding = True
            return value_code(e.sym.py, e.span)
        case t.DefineCall():
            d = lo.defines[e.define]
            args = arguments(lo, e.args, d.params)
            limits.passed(lo, d.name, d.params, e.args)
            lo.facts[e] = lo.define_call_facts(d, sum(lo.fact(arg).cost for arg in e.args))
            lo.called.add(e.define)
            return Call(Attribute(Name("self"), e.define), tuple(args), span=e.span)
        case t.Builtin():
            return builtin(lo, e)
        case t.PerIndex():
            index = lo.node(e.index)
            lo.facts[e] = limits.field_facts(lo, e.field.name, e.ty).priced(lo.fact(e.index).cost)
            lo.canonical.add(e)
            return Subscript(pyir.dotted(e.field.py), index, e.span)
        case t.ListIndex():
            obj, index = lo.node(e.obj), lo.node(e.index)
            item = lo.fact(e.obj).item or limits.type_facts(lo, e.obj.ty.elem or ANY)
            lo.facts[e] = item.priced(lo.fact(e.obj).cost + lo.fact(e.index).cost)
            lo.canonical.add(e)
            pair = pair_sorted(e, obj)
            if pair is not None:
                return pair
            return Subscript(obj, index, e.span)
        case t.AttrOf():
            return Subscript(value_code(e.table, e.span), lo.node(e.obj), e.span)
        case t.Collection():
            parts = tuple(canon(lo, item, item.ty, lo.node(item)) for item in e.items)
            lo.facts[e] = limits.literal_facts(lo, e.items)
            lo.canonical.add(e)
            if e.kind == "list":  # a list is a tuple: one representation, and it can be an item of a set
                return TupleNode(parts, e.span)
            return Call(Name("frozenset"), (TupleNode(parts),) if parts else (), span=e.span)
        case t.Comprehension():
            return lo.comprehension(e)
        case t.Unary():
            inner = lo.node(e.operand)
            if e.op == "not":
                return pyir.UnaryOp("not", inner, e.span)
            lo.facts[e] = Facts(lo.fact(e.operand).cost, mag=lo.fact(e.operand).mag)
            return pyir.UnaryOp("-", inner, e.span)
        case t.Binary():
            return binary(lo, e)
        case t.Cond():
            test, then, orelse = lo.node(e.test), lo.node(e.then), lo.node(e.orelse)
            lo.facts[e] = join(lo.fact(e.then), lo.fact(e.orelse)).plus(lo.fact(e.test).cost)
            if e.then in lo.canonical and e.orelse in lo.canonical:
                lo.canonical.add(e)
            return Paren(IfExp(then, test, orelse), e.span)
        case t.RecordNew() | t.RecordField():
            return record(lo, e)
        case t.Note():
            return note(lo, e)
        case t.Invalid():
            raise AssertionError(f"{e.span}: an expression the checker refused is never lowered")
        case _:
            assert_never(e)


def value_code(py: str, span: SourceSpan | None = None) -> pyir.Expr:
    """The nodes of a name as the checker gives it (`x`, `self.hand`), or of a value of the language
    (`range(self.num_players)`, compiler/builtins/values.py)."""
    if all(part.isidentifier() for part in py.split(".")):
        return pyir.dotted(py, span)
    return replace(template(py), span=span)


def pair_sorted(e: t.ListIndex, obj: pyir.Expr) -> pyir.Expr | None:
    """`sorted([a, b])[0]` as `min(a, b)`, `[1]` as `max(a, b)`: the same item (of values in their
    natural order, two equal ones are the same value), without a list made and sorted (Chang
    Cheng's `sorted([s, n])[0] == s`, a test per neighbour of every space listed)."""
    items = e.obj.args[0] if isinstance(e.obj, t.Builtin) and e.obj.func == "sorted" and e.obj.args else None
    if (not isinstance(items, t.Collection) or len(items.items) != 2 or not isinstance(e.index, t.Num)
            or e.index.value not in (0, 1) or e.obj.ty.elem is None or needs_key(e.obj.ty.elem)
            or e.obj.ty.elem.kind == "set"):
        return None
    if not (isinstance(obj, Call) and obj.func == Name("sorted") and len(obj.args) == 1 and not obj.keywords
            and isinstance(obj.args[0], TupleNode)):
        return None
    return Call(Name("min" if e.index.value == 0 else "max"), obj.args[0].elts, span=e.span)


def record(lo: Lowerer, e: t.RecordNew | t.RecordField) -> pyir.Expr:
    """A record made, or one of its fields read."""
    match e:
        case t.RecordNew():  # a record is a tuple of its fields, in the order declared
            parts = tuple(limits.checked_store(lo, canon(lo, arg, arg.ty, lo.node(arg)), lo.fact(arg), arg.ty,
                                               arg.span) for arg in e.args)
            lo.facts[e] = Facts(sat(len(parts) + sum(lo.fact(arg).cost for arg in e.args)))
            lo.canonical.add(e)
            return TupleNode(parts, e.span)
        case t.RecordField():
            obj = lo.node(e.obj)
            lo.facts[e] = limits.type_facts(lo, e.ty, STORED).priced(lo.fact(e.obj).cost)
            lo.canonical.add(e)
            return Subscript(obj, Constant(e.index), e.span)


def note(lo: Lowerer, e: t.Note) -> pyir.Expr:
    """A node a pass derived (t.Note): a cell, or a value read from it (pass `hoist_lazily`), a value
    bound once, or any other: its code, in parentheses, with a note for its line."""
    match e:
        case t.Note(verb=hoist_lazily.CELL):  # (pass `hoist_lazily`) a cell, bound once: `for cell in (rt.cell(),)`
            lo.facts[e] = Facts(1, 1, item=Facts())  # (one item: an empty list)
            return TupleNode((pyir.rt("cell"),), e.span)
        case t.Note(verb=hoist_lazily.LAZY):  # (pass `hoist_lazily`) a value read from its cell
            return lazy_hoist_code(lo, e)
        case t.Note(expr=t.Collection(kind="list", items=(item,))):  # a value bound once: `for h in (v,)`
            # (the local is read only where `v` was: `v` as it is, not converted, and the same object)
            py = lo.node(item)
            lo.facts[e] = limits.literal_facts(lo, (item,))
            lo.notes.setdefault(e.verb, {})[e.what] = None
            return TupleNode((unparenthesised(py),), e.span)
        case t.Note():  # derived by a pass: its code, in parentheses, and a note for its line
            py = lo.node(e.expr)
            # (a body inlined costs the step of the call it was: the limits of a move are
            # counted as they were)
            lo.facts[e] = lo.fact(e.expr).plus(1 if e.verb == "inlined" else 0)
            if e.expr in lo.canonical:
                lo.canonical.add(e)
            lo.notes.setdefault(e.verb, {})[e.what] = None
            return parenthesised(py)


def canon(lo: Lowerer, e: t.Expr, ty: Ty, py: pyir.Expr) -> pyir.Expr:
    """`py`, the code of `e`, giving the one runtime representation of its type: a list is a
    tuple and a set a frozenset, items too (`tuple(x)` of a tuple is that tuple itself)."""
    # Every set is made a frozenset, and every item put into a list or set is converted, so the
    # items of any list are in their one representation already: only the list itself may be
    # a Python list (a comprehension, `sorted`) or a range (`players`).
    if ty.kind != "list" or e in lo.canonical:
        return py
    if isinstance(py, Paren):  # `tuple(a or b)`
        return Call(Name("tuple"), (py.value,))
    if isinstance(py, TupleNode) and not py.elts:
        return Call(Name("tuple"), ())
    return Call(Name("tuple"), (py,))


def iterable(lo: Lowerer, ty: Ty, py: pyir.Expr, ordered: bool = True) -> pyir.Expr:
    """How to walk the items of a list, a set or a region. A set is walked in increasing
    order where the order can reach the game (`ordered`: a loop, a choice, a list made from
    it): the order of a frozenset is Python's own, not the same under every interpreter, and
    for some items not under every hash seed."""
    if ty.kind == "set" and ordered:
        return sorted_items(ty.elem or ANY, py)
    if ty == entity("region"):
        return Subscript(pyir.dotted("self.board.region_spots"), py)
    return py


def binary(lo: Lowerer, e: t.Binary) -> pyir.Expr:
    lpy, rpy = lo.node(e.left), lo.node(e.right)
    lt, rt_ = e.left.ty, e.right.ty
    left, right = lo.fact(e.left), lo.fact(e.right)
    work = sat(left.cost + right.cost)
    lo.facts[e] = Facts(work)  # a truth value; numbers and lists say more below
    op = e.op
    if op in ("and", "or"):
        # Python's `and`/`or` give one of their operands: a list or set used as a condition
        # is made a bool, so the result is a bool as its type says (`mine(p) and n > 0`).
        if not e.truth_only:
            lpy, rpy = (py if ty.kind == "bool" else Call(Name("bool"), (py,)) for ty, py in ((lt, lpy), (rt_, rpy)))
        return Paren(BoolOp(op, (lpy, rpy)), e.span)
    if op in _COMPARISONS:
        # Python chains `a == b == c`: a comparison (or a `not`) inside another keeps its parentheses.
        lpy, rpy = (Paren(py) if isinstance(side, t.Unary | t.Binary) and side.op in (*_COMPARISONS, "not")
                    else py for side, py in ((e.left, lpy), (e.right, rpy)))
    if op in ("==", "!=") and "none" in (lt.kind, rt_.kind):  # `x == none`: Python's `is None`
        return Compare(lpy, ("is" if op == "==" else "is not",), (rpy,), e.span)
    if op in ("==", "!="):
        if lt.kind in ("list", "set") or rt_.kind in ("list", "set"):  # compared item by item
            lpy, rpy = canon(lo, e.left, lt, lpy), canon(lo, e.right, rt_, rpy)
            sizes = [f.size for f in (left, right) if f.size is not None]
            if sizes and min(sizes) <= FREE_WORK:
                lo.facts[e] = Facts(sat(work + min(sizes)))
            else:
                lpy, _, _ = limits.over(lo, lpy, left, e.span)
        return Compare(lpy, (op,), (rpy,), e.span)
    if op in ("<", "<=", ">", ">="):
        return Compare(lpy, (op,), (rpy,), e.span)
    if op in ("in", "not in") and rt_.kind == "set":  # a frozenset: one look-up, whatever its size
        lpy = canon(lo, e.left, lt, lpy)
        lo.facts[e] = Facts(sat(work + 1))
        return Compare(lpy, (op,), (rpy,), e.span)
    if op in ("in", "not in"):
        walk = iterable(lo, rt_, rpy, ordered=False)
        lpy = canon(lo, e.left, lt, lpy)
        walk, searched, _ = limits.over(lo, walk, limits.domain_facts(lo, e.right), e.span)
        lo.facts[e] = Facts(sat(work + searched))
        return Compare(lpy, (op,), (walk,), e.span)
    if e.ty.kind in ("list", "set"):  # a list joined, a set's union or difference
        lpy, left_work, left_size = limits.over(lo, lpy, left, e.span)
        rpy, right_work, right_size = limits.over(lo, rpy, right, e.span)
        item = None if left.item is None or right.item is None else join(left.item, right.item)
        size = left_size if op == "-" else sat(left_size + right_size)
        lo.facts[e] = limits.clamp(lo, e.ty, Facts(sat(work + left_work + right_work), size, item=item))
        lo.canonical.add(e)
        if e.ty.kind == "list":
            written = list_items_joined(lo, e, lpy, rpy)  # (pass `unwrap_list_items`)
            return written if written is not None else TupleNode((Starred(lpy), Starred(rpy)), e.span)
        items = set_items_joined(e.items_written, op == "+", lpy, rpy)  # (pass `unwrap_set_items`)
        if items is not None:
            return items
        return Paren(BinOp(lpy, "|" if op == "+" else "-", rpy), e.span)
    if op in ("+", "-"):
        lo.facts[e] = Facts(work, mag=add_mag(left.mag, right.mag))
        return Paren(BinOp(lpy, op, rpy), e.span)
    if op == "*":
        product = mul_mag(left.mag, right.mag)
        if product is None:  # a square, say, that repeated would grow without end: checked
            lo.facts[e] = Facts(work, mag=(MAX_INT, 0))
            return pyir.rt("num", BinOp(lpy, "*", rpy), limits.at(lo, e.span))
        lo.facts[e] = Facts(work, mag=product)
        return Paren(BinOp(lpy, "*", rpy), e.span)
    # `//` and `%`: a divisor that may be zero is a game error, not a crash
    lo.facts[e] = Facts(work, mag=left.mag if op == "//" else right.mag)
    if nonzero(lo, e.right):
        return Paren(BinOp(lpy, op, rpy), e.span)
    return pyir.rt("div" if op == "//" else "mod", lpy, rpy, limits.at(lo, e.span))


def builtin(lo: Lowerer, e: t.Builtin) -> pyir.Expr:
    if lo.line_numbers:  # a choice of lines listed by number (pass `index_actions`): the same lines, in order
        lo.line_numbers = False  # (not the lines an argument reads)
        try:
            py = builtin(lo, e)
        finally:
            lo.line_numbers = True
        return by_number(py) if e.func == "straight_lines" else py
    masked = masks.masked_call(lo, e)
    if masked is not None:  # a set of spots kept as a bit mask (pass `mask_spot_sets`)
        lowered = []
        for k, arg in enumerate(e.args):
            called = set(lo.called)
            lowered.append(lo.node(arg))
            if masks.hole(k) not in pyir.walk(masked):  # (the list the mask stands for: its code is not written)
                lo.called = called
        lo.facts[e] = builtin_facts(lo, e, lowered, e.ty)  # (what the list's call is proven to cost)
        return replace(pyir.substituted(masked, {masks.hole(k).id: py for k, py in enumerate(lowered)}), span=e.span)
    counted = counting(e)  # `len(straight_lines(...))` as `count_lines(...)`: no list of lines made
    if counted is not None:
        py = builtin(lo, counted)
        lo.facts[e] = lo.fact(counted)
        return py
    lowered = [lo.node(arg) for arg in e.args]
    lo.facts[e] = builtin_facts(lo, e, lowered, e.ty)
    if e.func == "sorted" and e.ty.elem is not None:  # in the order a set is walked in (sorted_items)
        return sorted_items(e.ty.elem, unparenthesised(lowered[0]))  # (its one argument: no parentheses of its own)
    return BUILTINS[e.func].write(lowered, e.extra, limits.at(lo, e.span))


_STRAIGHT_LINES = pyir.dotted("self.board.straight_lines")
_STRAIGHT_LINES_MASK = pyir.dotted("self.board.straight_lines_mask")


def by_number(py: pyir.Expr) -> pyir.Expr:
    """A call of `straight_lines` as the call listing the same lines by their numbers."""
    if isinstance(py, Call) and py.func in (_STRAIGHT_LINES, _STRAIGHT_LINES_MASK):  # (`mask_spot_sets`: the mask's)
        assert isinstance(py.func, Attribute)
        numbers = py.func.attr.replace("straight_lines", "straight_line_numbers", 1)
        return Call(Attribute(py.func.value, numbers), py.args, py.keywords, py.span)
    raise AssertionError(f"straight_lines lowered as {text(py)}")


def sorted_items(elem: Ty, py: pyir.Expr) -> pyir.Expr:
    """The items of a set in increasing order (a set of sets: by their items in order; records and
    `none`: by the runtime's total order, rt.sort_key)."""
    if needs_key(elem):
        return Call(Name("sorted"), (py,), (Keyword("key", pyir.dotted("rt.sort_key")),))
    return Call(Name("sorted"), (py,), (Keyword("key", Name("sorted")),)) if elem.kind == "set" \
        else Call(Name("sorted"), (py,))


def arguments(lo: Lowerer, args: tuple[t.Expr, ...], params: tuple[Symbol, ...]) -> list[pyir.Expr]:
    """The arguments of a call to a definition or procedure: each a stored value
    (compiler/budget.py), so what is passed is checked as if stored."""
    return [limits.checked_store(lo, lo.node(arg), lo.fact(arg), p.ty, arg.span)
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
        case t.Ref(sym=sym) if sym.kind == "value" and sym.name == "num_players":
            return min(lo.rs.players, default=0) > 0
        case t.Builtin(func="len", args=(t.Ref(sym=sym),)):
            if sym.kind != "value" or sym.ty.elem is None:
                return False
            if sym.name in ("players", "owners"):
                return min(lo.rs.players, default=0) > 0
            kind = sym.ty.elem
            return (kind.kind == "enum" or kind.name in lo.component_count) and bool(boards.kind_count(lo, kind.name))
    return False


def builtin_facts(lo: Lowerer, e: t.Builtin, lowered: list[pyir.Expr], ret: Ty) -> Facts:
    """What a built-in function gives and costs: its facts rule (compiler/builtins/library.py),
    given what it may know of lowering. It wraps the arguments that need a check: a list whose
    size only the game knows, a number an auction keeps, a count of spots."""
    lowering = Lowering(boards.bounds(lo), partial(boards.kind_count, lo),
                        lambda py, facts, span: limits.over(lo, py, facts, span),
                        lambda py, facts, ty, span: limits.checked_store(lo, py, facts, ty, span),
                        partial(limits.type_facts, lo),
                        partial(limits.charged, lo), partial(limits.at, lo), lo.rs.dice,
                        lambda high: range_bounds_size(lo, e, high))  # (pass `bound_ranges`)
    return BUILTINS[e.func].facts_of(e, lowered, [lo.fact(a) for a in e.args], ret, lowering)


def set_items_joined(marked: bool, plus: bool, left: pyir.Expr, right_py: pyir.Expr) -> pyir.Expr | None:
    """`left.union(items)` or `left.difference(items)` for a set operation that pass `unwrap_set_items`
    marked (`marked`: its right operand a set written out), where that operand is lowered as
    `frozenset((...))` (`right_py`; not a set of more items than a move may walk unchecked), else None."""
    if not marked or not (isinstance(right_py, Call) and right_py.func == Name("frozenset") and len(right_py.args) == 1
                          and isinstance(right_py.args[0], TupleNode) and not right_py.keywords):
        return None
    subject = left if _plain(left) else Paren(left)
    return Call(Attribute(subject, "union" if plus else "difference"), right_py.args)


def _plain(py: pyir.Expr) -> bool:
    """Whether `py` is written with letters, digits, `_`, `.` and brackets only (a name, an
    attribute, an item of such)."""
    match py:
        case Name():
            return text(py).replace("_", "").isalnum()
        case Constant():
            return text(py).replace("_", "").isalnum()
        case Attribute():
            return _plain(py.value) and py.attr.replace("_", "").isalnum()
        case Subscript():
            return _plain(py.value) and _plain(py.index)
    return False


def range_bounds_size(lo: Lowerer, e: t.Builtin, high_mag: tuple[int, int]) -> int | None:
    """At most how many items `range(a, b)` holds, `a` never negative (pass `bound_ranges` marked
    it) and `b` proven at most `high_mag[0]` (none where `b` grows with the game's numbers); None if
    it is not so."""
    if not e.from_nonnegative or high_mag[1]:
        return None
    return max(high_mag[0], 0)


def list_items_joined(lo: Lowerer, e: t.Binary, left_py: pyir.Expr, right_py: pyir.Expr) -> pyir.Expr | None:
    """`(*x, a, b)` or `(a, b, *x)` for a join of two lists that pass `unwrap_list_items` marked, one written
    out with items (lowered as the tuple `(a, b)` or `(a,)`), else None. A join whose other list is
    `simple` (a list lowering reads as it is) is noted in `lo.short_joins`, for
    `limits.list_items_short`."""
    if not e.items_written:
        return None
    for written, written_py, other_py, first in ((e.right, right_py, left_py, False),
                                                 (e.left, left_py, right_py, True)):
        if isinstance(written, t.Collection) and written.kind == "list" and written.items:
            assert isinstance(written_py, TupleNode), written_py
            items = written_py.elts
            py = TupleNode((*items, Starred(other_py)) if first else (Starred(other_py), *items), e.span)
            if simple(other_py) is not None:
                lo.short_joins[text(py)] = (other_py, len(written.items))
            return py
    return None


def lazy_hoist_code(lo: Lowerer, e: t.Note) -> pyir.Expr:
    """A value read from its cell (`lo`: the lowering): the cell's item once
    it holds one, else the value computed and put there. Its work is the value's, as the plain
    code's was for every item."""
    assert isinstance(e.expr, t.Collection)
    cell_ref, value = e.expr.items
    cell, py = lo.node(cell_ref), lo.node(value)
    lo.facts[e] = lo.fact(value)
    lo.notes.setdefault(LAZY, {})[e.what] = None
    return Subscript(Paren(BoolOp("or", (cell, pyir.rt("once", cell, py)))), Constant(0), e.span)
