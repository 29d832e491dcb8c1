"""The limits of a move (compiler/budget.py says how; runtime/limits.py holds the limits and the checks):
what code is proven to cost, what the lists it walks hold, and where a run-time check goes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ...runtime.limits import MAX_ITEMS, MAX_STEPS, SMALL_LIST
from .. import typed as t
from ..budget import (
    FREE_WORK,
    NOTHING,
    STORED,
    UNSAFE,
    Facts,
    Mag,
    at_most,
    join,
    loop_cost,
    sat,
    storable,
)
from ..source import SourceSpan
from ..typed import Symbol
from ..types import Ty, entity
from .code import _SIMPLE, Reading, Small, _param, _stored
from .expressions import list_items_short
from .program import Line

if TYPE_CHECKING:
    from .lowerer import Lowerer


# -- the limits of a move: what code is proven to cost, and its checks ----------------------
# (compiler/budget.py says how; runtime/limits.py holds the limits and the checks)
def fact(self: Lowerer, e: t.Expr) -> Facts:
    """What is known of an expression lowered in this walk."""
    return self.facts.get(id(e), NOTHING)


def where(self: Lowerer, span: SourceSpan) -> str:
    """The rule's `file:line`, as the string literal a check names in its error."""
    return repr(span.short)


def charged(self: Lowerer) -> None:
    """A check that charges the budget of a move is emitted."""
    self.charges += 1


def mark(self: Lowerer, before: int, *entries: str) -> bool:
    """Whether the code lowered since the count was `before` charges the budget: then the
    runtime's entries into it start a fresh one."""
    if self.charges > before:
        self.resets.update(entries)
        return True
    return False


def type_facts(self: Lowerer, ty: Ty, mag: Mag = UNSAFE) -> Facts:
    """What a value of type `ty` can be when nothing else is known (`mag`: a number's size)."""
    if ty.kind in ("list", "set") and ty.elem is not None:
        return self.clamp(ty, Facts(item=self.type_facts(ty.elem, mag)))
    return Facts(mag=mag if ty.kind == "int" else UNSAFE)


def clamp(self: Lowerer, ty: Ty, facts: Facts) -> Facts:
    """`facts` of a set of a finite kind hold no more items than the kind has values."""
    if ty.kind == "set" and ty.elem is not None and ty.elem.kind in ("entity", "enum"):
        count = self.kind_count(ty.elem.name)
        if count is not None and (facts.size is None or facts.size > count):
            return Facts(facts.cost, count, facts.mag, facts.item)
    return facts


def empty(self: Lowerer, ty: Ty) -> Facts:
    """A value of type `ty` with nothing in it (a list field never assigned)."""
    if ty.kind in ("list", "set") and ty.elem is not None:
        return Facts(size=0, item=self.empty(ty.elem))
    return Facts(mag=STORED)


def field_facts(self: Lowerer, name: str, ty: Ty) -> Facts:
    """What a field's value (one entity's, for a field per entity) can be: a stored number,
    and a list as long as the rule set's assignments to it make it (lower() learns this)."""
    if ty.kind not in ("list", "set"):
        return Facts(mag=STORED)
    if self.assumed is None:  # the first walk: only the type is known
        return self.type_facts(ty, STORED)
    known = self.assumed.get(name)
    return self.clamp(ty, _stored(known) if known is not None else self.empty(ty))


def derive(self: Lowerer, name: str, facts: Facts) -> None:
    """A value is stored in field `name`: what lower() learns the field can hold."""
    old = self.derived.get(name)
    self.derived[name] = facts.priced(0) if old is None else join(old, facts.priced(0))


def stored(self: Lowerer, sym: Symbol, facts: Facts) -> None:
    if sym.kind in ("field", "perfield"):
        self.derive(sym.name, facts)


def learnable(self: Lowerer) -> list[tuple[str, Ty]]:
    """The lists whose size lower() learns: list and set fields, and the list and set
    parameters of definitions and procedures (from every call: all are in the rules)."""
    out = [(f.name, f.type) for f in self.rs.fields]
    out += [(_param(d.name, p.name), p.ty) for d in self.typed.defines for p in d.params]
    out += [(_param(q.name, p.name), p.type) for q in self.rs.procedures for p in q.params]
    return [(key, ty) for key, ty in out if ty.kind in ("list", "set")]


def found(self: Lowerer, key: str, ty: Ty) -> Facts:
    if key not in self.derived and "." in key:  # a parameter never given: only its type is known
        return self.type_facts(ty, STORED)
    return self.clamp(ty, self.derived.get(key, self.empty(ty)))


def learnt(self: Lowerer, grown: Counter[str]) -> dict[str, Facts] | None:
    """What the list fields and parameters were found to hold, if it differs from what this
    walk assumed (None: the assumptions held, so the code lowered is sound). The first walk
    assumes only the types: what it finds is sound, and the next walk, assuming it, finds no
    more. (Should one find more, a list found larger twice is taken at its type's bound.)"""
    if self.assumed is None:
        first = {key: self.found(key, ty) for key, ty in self.learnable()}
        return first if any(first[key] != self.type_facts(ty, STORED) for key, ty in self.learnable()) else None
    changed = False
    out: dict[str, Facts] = {}
    for key, ty in self.learnable():
        if key in out:
            continue
        assumed, found = self.field_facts(key, ty), self.found(key, ty)
        if at_most(found, assumed):
            out[key] = assumed
            continue
        changed = True
        grown[key] += 1
        out[key] = join(assumed, found) if grown[key] < 2 else self.type_facts(ty, STORED)
    return out if changed else None


def bind_params(self: Lowerer, func: str, params: tuple[Symbol, ...]) -> list[str]:
    """Binds a definition's or procedure's parameters, each with what its calls pass."""
    for p in params:
        self.bind(p)
        if p.ty.kind in ("list", "set"):
            self.set_local(p, self.field_facts(_param(func, p.name), p.ty))
    return [p.py for p in params]


def passed(self: Lowerer, func: str, params: tuple[Symbol, ...], args: tuple[t.Expr, ...]) -> None:
    """A call: what it passes is what the parameters are learnt to hold."""
    for p, arg in zip(params, args, strict=False):
        if p.ty.kind in ("list", "set"):
            self.derive(_param(func, p.name), self.fact(arg).outside())


def symbol_facts(self: Lowerer, sym: Symbol) -> Facts:
    """What a name stands for: a local's value, a field's, the list of a kind's values."""
    if sym.kind == "local":
        known = self.local_facts.get(sym)
        return known if known is not None else self.type_facts(sym.ty, STORED)
    if sym.kind == "field":
        return self.field_facts(sym.name, sym.ty)
    if sym.kind == "perfield":  # the whole list, one value per entity
        return Facts(size=self.kind_count(sym.per or ""), item=self.field_facts(sym.name, sym.ty))
    if sym.kind == "value" and sym.ty.kind == "list" and sym.ty.elem is not None:  # players, spots, an enum
        return Facts(size=self.kind_count(sym.ty.elem.name), item=Facts())
    return Facts()


def set_local(self: Lowerer, sym: Symbol, facts: Facts | None) -> None:
    """What a local just bound holds, unless the rule assigns to it (then only its type is known)."""
    if facts is not None and sym.name not in self.assigned:
        self.local_facts[sym] = facts.priced(0)


def literal_facts(self: Lowerer, items: tuple[t.Expr, ...]) -> Facts:
    item = Facts(size=0, mag=(0, 0))  # (no item at all)
    for part in items:
        item = join(item, self.fact(part).priced(0)) if part is not items[0] else self.fact(part).priced(0)
    return Facts(sat(len(items) + sum(self.fact(part).cost for part in items)), len(items), item=item)


def domain_facts(self: Lowerer, node: t.Expr) -> Facts:
    """What a loop walks: a region is walked spot by spot."""
    if node.ty == entity("region"):
        return Facts(self.fact(node).cost, self.bounds()["region_size"], item=Facts())
    return self.fact(node)


def loop(self: Lowerer, walk: str, domain: Facts, per_item: int, span: SourceSpan,
         lists: bool = False) -> tuple[str, int, int, bool]:
    """How to walk a loop's domain, the loop's unchecked work, and how many rounds it makes
    at most. A loop whose size is not known, or whose work is large, is counted as it
    starts (`rt.walk`): then its work is not unchecked."""
    per_item = min(per_item, MAX_STEPS + 1)
    work = loop_cost(domain.size, per_item)
    if work is not None and not lists:
        return walk, work, domain.size or 0, False
    small = loop_cost(SMALL_LIST, per_item)
    rounds = min(domain.size or MAX_ITEMS, MAX_ITEMS)  # (at most MAX_ITEMS: checked)
    if small is not None and not lists and (self.small_made(domain) or self.hoist(walk)):
        return walk, small, rounds, True
    self.charged()
    helper = "rt.walk_lists" if lists else "rt.walk"
    counted = f"{helper}(self, {walk}, {per_item}, {self.where(span)})"
    if small is not None and not lists and _SIMPLE.fullmatch(walk):  # a short list is walked at once
        return f"({walk} if len({walk}) <= {SMALL_LIST} else {counted})", small, rounds, False
    return counted, 0, rounds, False


def small_made(self: Lowerer, facts: Facts) -> bool:
    """Whether `facts` are of a list made, in the rule being lowered, from lists it takes for
    small: an operation on it is one more the rule's start check accounts for."""
    if self.hoisted is None or not facts.small:
        return False
    self.hoist_sites += 1
    return True


def over(self: Lowerer, py: str, facts: Facts, span: SourceSpan) -> tuple[str, int, int]:
    """An operation over each item of a list or set (a search, a join, a copy, a sort): the
    operand, lowered; the unchecked work; the most items it holds."""
    if facts.size is not None and facts.size <= FREE_WORK:
        return py, facts.size, facts.size
    size = min(facts.size or MAX_ITEMS, MAX_ITEMS)  # (at most MAX_ITEMS: checked)
    if self.small_made(facts) or self.hoist(py):  # its work is taken as small: checked as the rule starts
        return py, SMALL_LIST, size
    self.charged()
    counted = f"rt.walk(self, {py}, 1, {self.where(span)})"
    if self.prechecked(py):  # counted by the statement before the effect's line, if longer
        assert self.prechecks is not None
        self.prechecks.append(counted)
        return py, SMALL_LIST, size
    if _SIMPLE.fullmatch(py):  # a short list is handled at once, a longer one counted
        return f"({py} if len({py}) <= {SMALL_LIST} else {counted})", SMALL_LIST, size
    joined = list_items_short(self, py, counted)  # (pass `list_items`) such a list and items written out
    if joined is not None:
        return joined, SMALL_LIST, size
    return counted, 0, size


def prechecked(self: Lowerer, py: str) -> bool:
    """Whether the list `py`, walked by the effect statement being lowered, can be counted by
    a statement before it: a field or a local that is known before the statement runs."""
    m = _SIMPLE.fullmatch(py)
    if self.prechecks is None or m is None:
        return False
    known = {py for scope in self.scopes[:self.statement_scopes] for py in scope}
    names = [n for n in (m.group(1), m.group(2)) if n is not None and not n.startswith("self.")]
    return all(n in known for n in names)


def hoist(self: Lowerer, py: str) -> bool:
    """Whether the list `py` is checked at the start of the rule being lowered (then it is
    taken to hold at most SMALL_LIST items): a rule that only reads the game, and a list it
    can read at its start, a field (`self.hand[p]`) or a parameter."""
    if self.hoisted is None:
        return False
    m = _SIMPLE.fullmatch(py)
    if m is None:
        return False
    index, name = m.group(1), m.group(2)
    if name is not None and name not in self.entry:  # a local bound inside the rule
        return False
    if index is not None and not index.startswith("self.") and index not in self.entry:
        return False
    self.hoisted[py] = None
    self.hoist_sites += 1
    return True


def begin_reading(self: Lowerer, entry: Iterable[str]) -> Reading:
    """A rule that only reads the game starts: the lists it takes for small are gathered."""
    saved = self.hoisted, self.hoist_sites, self.entry
    self.hoisted, self.hoist_sites, self.entry = {}, 0, frozenset(entry)
    return saved


def end_reading(self: Lowerer, saved: Reading) -> Small:
    """The lists the rule just lowered took for small (its start checks them), and how many
    operations it does on them (one may be inside another)."""
    lists, sites = tuple(self.hoisted or ()), self.hoist_sites
    self.hoisted, self.hoist_sites, self.entry = saved
    if lists:
        self.charged()  # (its check charges more work when they are not small)
    return lists, sites


def grown(self: Lowerer, small: Small, cost: int, span: SourceSpan) -> str:
    """What a rule's lists taken for small cost when they are not: its proven work, multiplied
    by how many times longer than SMALL_LIST the longest is, once for each operation on them
    (they may be nested), `rt.grown(...)`."""
    lists, sites = small
    return (f"rt.grown(self, {min(cost, MAX_STEPS + 1)}, {sites}, ({', '.join(lists)}{',' * (len(lists) == 1)}), "
            f"{self.where(span)})")


def small_check(self: Lowerer, small: Small, cost: int, span: SourceSpan) -> str:
    """The check a rule that is one expression starts with: `len(...) <= 16 or rt.grown(...)`."""
    return f"{' and '.join(f'len({py}) <= {SMALL_LIST}' for py in small[0])} or {self.grown(small, cost, span)}"


def checked_store(self: Lowerer, py: str, facts: Facts, ty: Ty, span: SourceSpan) -> str:
    """`py`, checked where what it stores (or passes as an argument) could be a number that
    grows without bound: at most 64 bits more than the game's numbers (compiler/budget.py)."""
    if ty.kind == "int" and not storable(facts.mag):
        return f"rt.num({py}, {self.where(span)})"
    if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind == "int" and (
            facts.item is None or not storable(facts.item.mag)):
        self.charged()
        return f"rt.nums(self, {py}, {self.where(span)})"
    return py


def unit_expr(self: Lowerer, py: str, cost: int, span: SourceSpan, times: int = 1, lists: Small = ((), 0)) -> str:
    """A rule that is one expression (a condition, a score; `times` over, a field's start per
    entity): if its proven work is large, it charges it first, `rt.spend(...) and <py>`; the
    lists it took for small are checked first, `(len(...) <= 16 or rt.grown(...)) and <py>`."""
    if lists[0]:
        py = f"({self.small_check(lists, cost, span)}) and {py}"
    if sat(cost * times) <= FREE_WORK:
        return py
    self.charged()
    return f"rt.spend(self, {min(cost, MAX_STEPS + 1)}, {self.where(span)}) and {py}"


def unit_lines(self: Lowerer, lines: list[Line], cost: int, span: SourceSpan) -> tuple[Line, ...]:
    """A rule's lines (effects, a definition): if their proven work is large, they charge it first."""
    if cost <= FREE_WORK:
        return tuple(lines)
    self.charged()
    return Line(2, f"rt.spend(self, {min(cost, MAX_STEPS + 1)}, {self.where(span)})", span), *lines


def finite(self: Lowerer, ty: Ty, facts: Facts | None) -> bool:
    """Whether the values of type `ty` (with these facts) are few: entities, enumerations, truth
    values, and short lists of them; not numbers."""
    if ty.kind in ("entity", "enum", "bool"):
        return True
    if ty.kind in ("list", "set") and ty.elem is not None:
        return facts is not None and facts.size is not None and self.finite(ty.elem, facts.item)
    return False
