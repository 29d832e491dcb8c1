"""The limits of a move (compiler/budget.py says how; runtime/limits.py holds the limits and the checks):
what code is proven to cost, what the lists it walks hold, and where a run-time check goes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ...core.source import SourceSpan
from ...runtime.limits import MAX_ITEMS, MAX_STEPS, SMALL_LIST
from .. import pyir
from .. import typed as t
from ..budget import FREE_WORK, STORED, UNSAFE, Facts, Mag, at_most, join, loop_cost, number, sat, storable
from ..pyir import Block, Stmt, call
from ..pyprint import text
from ..typed import Symbol
from ..types import Ty, entity
from . import boards
from .code import Reading, Small, _param, _stored, simple

if TYPE_CHECKING:
    from .lowerer import Lowerer


# -- the limits of a move: what code is proven to cost, and its checks ----------------------
# (compiler/budget.py says how; runtime/limits.py holds the limits and the checks)

def where(lo: Lowerer, span: SourceSpan) -> str:
    """The rule's `file:line`, as the string literal a check names in its error."""
    return repr(span.short)


def at(lo: Lowerer, span: SourceSpan) -> pyir.Expr:
    """The rule's `file:line`, as the string literal a check names in its error (a node)."""
    return pyir.Constant(span.short)


def _short(lo: Lowerer, py: pyir.Expr, counted: pyir.Expr) -> pyir.Expr:
    """`(py if len(py) <= SMALL_LIST else counted)`: a short list handled at once, a longer one counted."""
    return pyir.Paren(pyir.IfExp(py, pyir.Compare(pyir.Call(pyir.Name("len"), (py,)), ("<=",),
                                                           (pyir.Constant(SMALL_LIST),)), counted))


def charged(lo: Lowerer) -> None:
    """A check that charges the budget of a move is emitted."""
    lo.charges += 1


def mark(lo: Lowerer, before: int, *entries: str) -> bool:
    """Whether the code lowered since the count was `before` charges the budget: then the
    runtime's entries into it start a fresh one."""
    if lo.charges > before:
        lo.resets.update(entries)
        return True
    return False


def type_facts(lo: Lowerer, ty: Ty, mag: Mag = UNSAFE) -> Facts:
    """What a value of type `ty` can be when nothing else is known (`mag`: a number's size)."""
    if ty.kind in ("list", "set") and ty.elem is not None:
        return clamp(lo, ty, Facts(item=type_facts(lo, ty.elem, mag)))
    return Facts(mag=mag if ty.kind == "int" else UNSAFE)


def clamp(lo: Lowerer, ty: Ty, facts: Facts) -> Facts:
    """`facts` of a set of a finite kind hold no more items than the kind has values."""
    if ty.kind == "set" and ty.elem is not None and ty.elem.kind in ("entity", "enum"):
        count = boards.kind_count(lo, ty.elem.name)
        if count is not None and (facts.size is None or facts.size > count):
            return Facts(facts.cost, count, facts.mag, facts.item)
    return facts


def empty(lo: Lowerer, ty: Ty) -> Facts:
    """A value of type `ty` with nothing in it (a list field never assigned)."""
    if ty.kind in ("list", "set") and ty.elem is not None:
        return Facts(size=0, item=empty(lo, ty.elem))
    return Facts(mag=STORED)


def field_facts(lo: Lowerer, name: str, ty: Ty) -> Facts:
    """What a field's value (one entity's, for a field per entity) can be: a stored number,
    and a list as long as the rule set's assignments to it make it (lower() learns this)."""
    if ty.kind not in ("list", "set"):
        return Facts(mag=STORED)
    if lo.assumed is None:  # the first walk: only the type is known
        return type_facts(lo, ty, STORED)
    known = lo.assumed.get(name)
    return clamp(lo, ty, _stored(known) if known is not None else empty(lo, ty))


def derive(lo: Lowerer, name: str, facts: Facts) -> None:
    """A value is stored in field `name`: what lower() learns the field can hold."""
    old = lo.derived.get(name)
    lo.derived[name] = facts.priced(0) if old is None else join(old, facts.priced(0))


def stored(lo: Lowerer, sym: Symbol, facts: Facts) -> None:
    if sym.kind in ("field", "perfield"):
        derive(lo, sym.name, facts)


def learnable(lo: Lowerer) -> list[tuple[str, Ty]]:
    """The lists whose size lower() learns: list and set fields, and the list and set
    parameters of definitions and procedures (from every call: all are in the rules)."""
    out = [(f.name, f.type) for f in lo.rs.fields]
    out += [(_param(d.name, p.name), p.ty) for d in lo.typed.defines for p in d.params]
    out += [(_param(q.name, p.name), p.type) for q in lo.rs.procedures for p in q.params]
    return [(key, ty) for key, ty in out if ty.kind in ("list", "set")]


def found_facts(lo: Lowerer, key: str, ty: Ty) -> Facts:
    if key not in lo.derived and "." in key:  # a parameter never given: only its type is known
        return type_facts(lo, ty, STORED)
    return clamp(lo, ty, lo.derived.get(key, empty(lo, ty)))


def learnt(lo: Lowerer, grown: Counter[str]) -> dict[str, Facts] | None:
    """What the list fields and parameters were found to hold, if it differs from what this
    walk assumed (None: the assumptions held, so the code lowered is sound). The first walk
    assumes only the types: what it finds is sound, and the next walk, assuming it, finds no
    more. (Should one find more, a list found larger twice is taken at its type's bound.)"""
    if lo.assumed is None:
        first = {key: found_facts(lo, key, ty) for key, ty in learnable(lo)}
        return first if any(first[key] != type_facts(lo, ty, STORED) for key, ty in learnable(lo)) else None
    changed = False
    out: dict[str, Facts] = {}
    for key, ty in learnable(lo):
        if key in out:
            continue
        assumed, found = field_facts(lo, key, ty), found_facts(lo, key, ty)
        if at_most(found, assumed):
            out[key] = assumed
            continue
        changed = True
        grown[key] += 1
        out[key] = join(assumed, found) if grown[key] < 2 else type_facts(lo, ty, STORED)
    return out if changed else None


def bind_params(lo: Lowerer, func: str, params: tuple[Symbol, ...]) -> list[str]:
    """Binds a definition's or procedure's parameters, each with what its calls pass."""
    for p in params:
        lo.bind(p)
        if p.ty.kind in ("list", "set"):
            set_local(lo, p, field_facts(lo, _param(func, p.name), p.ty))
    return [p.py for p in params]


def passed(lo: Lowerer, func: str, params: tuple[Symbol, ...], args: tuple[t.Expr, ...]) -> None:
    """A call: what it passes is what the parameters are learnt to hold."""
    for p, arg in zip(params, args, strict=False):
        if p.ty.kind in ("list", "set"):
            derive(lo, _param(func, p.name), lo.fact(arg).outside())


def symbol_facts(lo: Lowerer, sym: Symbol) -> Facts:
    """What a name stands for: a local's value, a field's, the list of a kind's values."""
    if sym.kind == "local":
        known = lo.local_facts.get(sym)
        return known if known is not None else type_facts(lo, sym.ty, STORED)
    if sym.kind == "field":
        return field_facts(lo, sym.name, sym.ty)
    if sym.kind == "perfield":  # the whole list, one value per entity
        return Facts(size=boards.kind_count(lo, sym.per or ""), item=field_facts(lo, sym.name, sym.ty))
    if sym.kind == "value" and sym.name == "num_players":  # at most the seats
        return number(boards.kind_count(lo, "player") or 0)
    if sym.kind == "value" and sym.ty.kind == "list" and sym.ty.elem is not None:  # players, spots, an enum
        return Facts(size=boards.kind_count(lo, sym.ty.elem.name), item=Facts())
    return Facts()


def set_local(lo: Lowerer, sym: Symbol, facts: Facts | None) -> None:
    """What a local just bound holds, unless the rule assigns to it (then only its type is known)."""
    if facts is not None and sym.name not in lo.assigned:
        lo.local_facts[sym] = facts.priced(0)


def literal_facts(lo: Lowerer, items: tuple[t.Expr, ...]) -> Facts:
    item = Facts(size=0, mag=(0, 0))  # (no item at all)
    for part in items:
        item = join(item, lo.fact(part).priced(0)) if part is not items[0] else lo.fact(part).priced(0)
    return Facts(sat(len(items) + sum(lo.fact(part).cost for part in items)), len(items), item=item)


def domain_facts(lo: Lowerer, node: t.Expr) -> Facts:
    """What a loop walks: a region is walked spot by spot."""
    if node.ty == entity("region"):
        return Facts(lo.fact(node).cost, boards.bounds(lo)["region_size"], item=Facts())
    return lo.fact(node)


def loop(lo: Lowerer, walk: pyir.Expr, domain: Facts, per_item: int, span: SourceSpan,
         lists: bool = False) -> tuple[pyir.Expr, int, int, bool]:
    """How to walk a loop's domain, the loop's unchecked work, and how many rounds it makes
    at most. A loop whose size is not known, or whose work is large, is counted as it
    starts (`rt.walk`): then its work is not unchecked."""
    node = walk
    per_item = min(per_item, MAX_STEPS + 1)
    work = loop_cost(domain.size, per_item)
    if work is not None and not lists:
        return walk, work, domain.size or 0, False
    small = loop_cost(SMALL_LIST, per_item)
    rounds = min(domain.size or MAX_ITEMS, MAX_ITEMS)  # (at most MAX_ITEMS: checked)
    if small is not None and not lists and (small_made(lo, domain) or hoist(lo, node)):
        return walk, small, rounds, True
    charged(lo)
    counted = pyir.rt("walk_lists" if lists else "walk", pyir.Name("self"), node, pyir.Constant(per_item), at(lo, span))
    if small is not None and not lists and simple(node) is not None:  # a short list is walked at once
        return _short(lo, node, counted), small, rounds, False
    return counted, 0, rounds, False


def small_made(lo: Lowerer, facts: Facts) -> bool:
    """Whether `facts` are of a list made, in the rule being lowered, from lists it takes for
    small: an operation on it is one more the rule's start check accounts for."""
    if lo.hoisted is None or not facts.small:
        return False
    lo.hoist_sites += 1
    return True


def over(lo: Lowerer, py: pyir.Expr, facts: Facts, span: SourceSpan) -> tuple[pyir.Expr, int, int]:
    """An operation over each item of a list or set (a search, a join, a copy, a sort): the
    operand, lowered; the unchecked work; the most items it holds."""
    node = py
    if facts.size is not None and facts.size <= FREE_WORK:
        return py, facts.size, facts.size
    size = min(facts.size or MAX_ITEMS, MAX_ITEMS)  # (at most MAX_ITEMS: checked)
    if small_made(lo, facts) or hoist(lo, node):  # its work is taken as small: checked as the rule starts
        return py, SMALL_LIST, size
    charged(lo)
    counted = pyir.rt("walk", pyir.Name("self"), node, pyir.Constant(1), at(lo, span))
    if prechecked(lo, node):  # counted by the statement before the effect's line, if longer
        assert lo.prechecks is not None
        lo.prechecks.append((node, counted, at(lo, span)))
        return py, SMALL_LIST, size
    if simple(node) is not None:  # a short list is handled at once, a longer one counted
        return _short(lo, node, counted), SMALL_LIST, size
    joined = list_items_short(lo, node, counted)  # (pass `unwrap_list_items`) such a list and items written out
    if joined is not None:
        return joined, SMALL_LIST, size
    return counted, 0, size


def prechecked(lo: Lowerer, py: pyir.Expr) -> bool:
    """Whether the list `py`, walked by the effect statement being lowered, can be counted by
    a statement before it: a field or a local that is known before the statement runs."""
    m = simple(py)
    if lo.prechecks is None or m is None:
        return False
    known = {name for scope in lo.scopes[:lo.statement_scopes] for name in scope}
    names = [n for n in m if n is not None and not n.startswith("self.")]
    return all(n in known for n in names)


def hoist(lo: Lowerer, py: pyir.Expr) -> bool:
    """Whether the list `py` is checked at the start of the rule being lowered (then it is
    taken to hold at most SMALL_LIST items): a rule that only reads the game, and a list it
    can read at its start, a field (`self.hand[p]`) or a parameter."""
    if lo.hoisted is None:
        return False
    m = simple(py)
    if m is None:
        return False
    index, name = m
    if name is not None and name not in lo.entry:  # a local bound inside the rule
        return False
    if index is not None and not index.startswith("self.") and index not in lo.entry:
        return False
    lo.hoisted.setdefault(text(py), py)
    lo.hoist_sites += 1
    return True


def begin_reading(lo: Lowerer, entry: Iterable[str]) -> Reading:
    """A rule that only reads the game starts: the lists it takes for small are gathered."""
    saved = lo.hoisted, lo.hoist_sites, lo.entry
    lo.hoisted, lo.hoist_sites, lo.entry = {}, 0, frozenset(entry)
    return saved


def end_reading(lo: Lowerer, saved: Reading) -> Small:
    """The lists the rule just lowered took for small (its start checks them), and how many
    operations it does on them (one may be inside another)."""
    lists, sites = tuple((lo.hoisted or {}).values()), lo.hoist_sites
    lo.hoisted, lo.hoist_sites, lo.entry = saved
    if lists:
        charged(lo)  # (its check charges more work when they are not small)
    return lists, sites


def grown(lo: Lowerer, small: Small, cost: int, span: SourceSpan) -> pyir.Expr:
    """What a rule's lists taken for small cost when they are not: its proven work, multiplied
    by how many times longer than SMALL_LIST the longest is, once for each operation on them
    (they may be nested), `rt.grown(...)`."""
    lists, sites = small
    return pyir.rt("grown", pyir.Name("self"), pyir.Constant(min(cost, MAX_STEPS + 1)), pyir.Constant(sites),
                   pyir.Tuple(lists), at(lo, span))


def small_check(lo: Lowerer, small: Small, cost: int, span: SourceSpan) -> pyir.Expr:
    """The check a rule that is one expression starts with: `len(...) <= 16 or rt.grown(...)`."""
    short = [pyir.Compare(pyir.Call(pyir.Name("len"), (py,)), ("<=",), (pyir.Constant(SMALL_LIST),))
             for py in small[0]]
    return pyir.BoolOp("or", (short[0] if len(short) == 1 else pyir.BoolOp("and", tuple(short)),
                              grown(lo, small, cost, span)))


def checked_store(lo: Lowerer, py: pyir.Expr, facts: Facts, ty: Ty, span: SourceSpan) -> pyir.Expr:
    """`py`, checked where what it stores (or passes as an argument) could be a number that
    grows without bound: at most 64 bits more than the game's numbers (compiler/budget.py)."""
    if ty.kind == "int" and not storable(facts.mag):
        return pyir.rt("num", py, at(lo, span))
    if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind == "int" and (
            facts.item is None or not storable(facts.item.mag)):
        charged(lo)
        return pyir.rt("nums", pyir.Name("self"), py, at(lo, span))
    return py


def unit_expr(lo: Lowerer, py: pyir.Expr, cost: int, span: SourceSpan, times: int = 1,
              lists: Small = ((), 0)) -> pyir.Expr:
    """A rule that is one expression (a condition, a score; `times` over, a field's start per
    entity): if its proven work is large, it charges it first, `rt.spend(...) and <py>`; the
    lists it took for small are checked first, `(len(...) <= 16 or rt.grown(...)) and <py>`."""
    node = py
    if lists[0]:
        node = pyir.BoolOp("and", (pyir.Paren(small_check(lo, lists, cost, span)), node))
    if sat(cost * times) > FREE_WORK:
        charged(lo)
        node = pyir.BoolOp("and", (spend(lo, cost, span), node))
    return node


def unit_lines(lo: Lowerer, lines: list[Stmt], cost: int, span: SourceSpan) -> Block:
    """A rule's statements (effects, a definition): if their proven work is large, they charge it first."""
    if cost <= FREE_WORK:
        return tuple(lines)
    charged(lo)
    return call(spend(lo, cost, span), span), *lines


def spend(lo: Lowerer, cost: int, span: SourceSpan) -> pyir.Expr:
    """`rt.spend(self, cost, 'file:line')`: the proven work of what follows, charged at once."""
    return pyir.rt("spend", pyir.Name("self"), pyir.Constant(min(cost, MAX_STEPS + 1)), at(lo, span))


def finite(lo: Lowerer, ty: Ty, facts: Facts | None) -> bool:
    """Whether the values of type `ty` (with these facts) are few: entities, enumerations, truth
    values, and short lists of them; not numbers."""
    if ty.kind in ("entity", "enum", "bool"):
        return True
    if ty.kind in ("list", "set") and ty.elem is not None:
        return facts is not None and facts.size is not None and finite(lo, ty.elem, facts.item)
    return False


def list_items_short(lo: Lowerer, py: pyir.Expr, counted: pyir.Expr) -> pyir.Expr | None:
    """An operation over each item of the join `py` (from `list_items_joined`): handled at once while it
    holds at most SMALL_LIST items, `counted` otherwise; None for any other list."""
    found = lo.short_joins.get(text(py))  # (only joins pass `unwrap_list_items` marked)
    if found is None:
        return None
    other, count = found
    return pyir.Paren(pyir.IfExp(py, pyir.Compare(pyir.Call(pyir.Name("len"), (other,)), ("<=",),
                                                           (pyir.Constant(SMALL_LIST - count),)), counted))
