"""Pass `intersect_components`: a count, `any` or `all` over a set of components that tests only their
attributes is a set operation against the components having those attributes, not a walk in
Python (docs/optimiser.md).

Mandarin asks how many tiles of an animal a card holds (`held(p, a)`: `count(t.animal == a for t
in card[p])`) and whether it holds the animal's Emperor (`any(t.animal == a and t.emperor for t
in card[p])`) for every player and animal whose control it tests. Every component's attributes are
fixed for the rule set, so the tiles of each animal, and the Emperors, are sets known once the
module is loaded: the count is `len(card[p] & _TILE_ANIMAL_SETS[a])`, an intersection in C; the
`any`, `not card[p].isdisjoint(...)`. A set of attribute values made from one
(`set(t.animal for t in card[p])`) is `frozenset(map(TILE_ANIMAL.__getitem__, card[p]))`.

Taken: `count` or `any` of one clause over a set of components (its condition and value
together), or `all` with no condition, whose tests are an `and` of the item's truth-value
attributes (`t.emperor`), of its enumeration attributes compared with a value (`t.animal == a`,
`a == t.animal`) that reads no variable of the comprehension and cannot fail, and of `true`;
and `set(t.attr for t in S)`. One-item clauses before it (`for a2 in (v,)`, written by `inline`
and `hoist`) are put back where their variable is read, when their value cannot fail. For each
attribute so tested the module holds `_<TABLE>_SETS`, the components having each value of it, by
value (a truth value's by False and True), written after the attribute tables (a representation
of the program, `TypedProgram.component_sets`; each comprehension taken is marked
`t.Comprehension.component_set`, which lowering writes as the set operation); a test uses one
only once it is written (not in an attribute's own table).

Why it is safe: a set holds each component once, so how many of its items pass a test is the
size of its intersection with the components that pass it, and some pass it when that
intersection is not empty; each item's attributes are the module's tables, the same ones the
sets are made from. A value compared is computed once rather than once per item (perhaps when
there is no item at all), which changes nothing since it reads the game only and cannot fail.
A set of the attributes holds the same values whichever way it is made, inserted in the same
order (the set walked the same way). The limits of a move are counted on the plain code, as
for `count_items`; and since such a count is no loop, `keep_derived` does not keep a definition for it
(`held` is written where it is called by `inline`, its value a few C operations).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.sizes import size
from ..analysis.walk import bare, clauses, expressions
from .rewrite import can_fail, free_locals, map_nodes, rebuild


@dataclass(frozen=True, slots=True)
class Shape:
    """A comprehension taken: `func` (count, any, all, set) over `domain`, testing each item's
    attributes: (table, value compared, or None for a truth-value attribute that holds); for `set`, the
    table of the attribute whose values it makes."""

    func: str
    domain: t.Expr
    tests: tuple[tuple[str, t.Expr | None], ...]
    made: str = ""


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    kinds = attribute_kinds(program)
    defines = {d.name: d for d in program.defines}
    used: dict[str, None] = {}
    for e in expressions(program):
        if isinstance(e, t.Comprehension):
            found = shape(e, kinds, defines)
            if found is not None:
                used.update((table, None) for table, _ in found.tests)
    ordered = tuple((c.const, kinds[c.const]) for c in program.components if c.const in used)
    if not ordered:
        return program

    def marked(e: t.Expr) -> t.Expr:
        if isinstance(e, t.Comprehension) and shape(e, kinds, defines) is not None:
            return replace(e, component_set=True)
        return e

    return map_nodes(replace(program, component_sets=ordered), marked)


def attribute_kinds(program: t.TypedProgram) -> dict[str, int]:
    """Each component attribute's table whose sets the pass can make: an enumeration attribute by
    its number of values, a truth-value attribute by 0."""
    enums = {name: len(values) for name, values in program.tables.enums}
    out: dict[str, int] = {}
    for c in program.components:
        if c.ty.kind == "bool":
            out[c.const] = 0
        elif c.ty.kind == "enum" and c.ty.name in enums:
            out[c.const] = enums[c.ty.name]
    return out


def shape(e: t.Comprehension, kinds: dict[str, int], defines: dict[str, t.Define]) -> Shape | None:
    """What a comprehension the pass takes computes (see the module's doc), or None."""
    every = clauses(e)
    *once, (var, domain, cond) = every
    subst: dict[t.Symbol, t.Expr] = {}
    names = {v for v, _, _ in every}
    for v, dom, c in once:  # `for a2 in (v,)`: its value put back where `a2` is read
        one = dom.expr if isinstance(dom, t.Note) else None
        if c is not None or not isinstance(one, t.Collection) or len(one.items) != 1:
            return None
        item = one.items[0]
        if any(s in names for s in free_locals(item)) or can_fail(item, defines):
            return None
        subst[v] = item
    domain, elt = _put(domain, subst), _put(e.elt, subst)
    cond = None if cond is None else _put(cond, subst)
    ty = domain.ty
    if ty.kind != "set" or ty.elem is None or ty.elem.kind != "entity" or var in free_locals(domain):
        return None
    if e.func == "set":
        inner = bare(elt)
        if cond is None and isinstance(inner, t.AttrOf) and _is_item(inner.obj, var):
            return Shape("set", domain, (), inner.table)
        return None
    if e.func not in ("count", "any", "all") or e.func == "all" and cond is not None:
        return None
    tests = _tests(elt, var, kinds, defines)
    if cond is not None and tests is not None:
        more = _tests(cond, var, kinds, defines)
        tests = None if more is None else more + tests
    if tests is None or e.func == "all" and not tests:
        return None
    return Shape(e.func, domain, tuple(tests))


def _is_item(e: t.Expr, var: t.Symbol) -> bool:
    e = bare(e)
    return isinstance(e, t.Ref) and e.sym is var


def _put(e: t.Expr, subst: dict[t.Symbol, t.Expr]) -> t.Expr:
    """`e` with each one-item clause's variable replaced by its value."""
    if not subst:
        return e
    if isinstance(e, t.Ref) and e.sym in subst:
        return subst[e.sym]
    return rebuild(e, lambda x: _put(x, subst))


def _tests(e: t.Expr, var: t.Symbol, kinds: dict[str, int],
           defines: dict[str, t.Define]) -> list[tuple[str, t.Expr | None]] | None:
    """The attribute tests an `and` of them is made of (`true` is none), or None."""
    e = bare(e)
    match e:
        case t.Bool(value=True):
            return []
        case t.Binary(op="and"):
            left, right = _tests(e.left, var, kinds, defines), _tests(e.right, var, kinds, defines)
            return None if left is None or right is None else left + right
        case t.AttrOf() if _is_item(e.obj, var) and kinds.get(e.table) == 0:
            return [(e.table, None)]
        case t.Binary(op="=="):
            for mine, other in ((e.left, e.right), (e.right, e.left)):
                mine = bare(mine)
                if isinstance(mine, t.AttrOf) and _is_item(mine.obj, var) and kinds.get(mine.table, 0) > 0 \
                        and var not in free_locals(other) and not can_fail(other, defines):
                    return [(mine.table, other)]
    return None


def taken(program: t.TypedProgram, e: t.Comprehension, defines: dict[str, t.Define]) -> Shape | None:
    """The shape of a comprehension the pass marked (`component_set`), which lowering writes as a set
    operation, not a loop, or None (`keep_derived` keeps nothing for it; `inline` writes a body holding it
    where it is called)."""
    if not e.component_set:
        return None
    kinds = dict(program.component_sets)
    found = shape(e, kinds, defines)
    return found if found is not None and all(table in kinds for table, _ in found.tests) else None


def sized(program: t.TypedProgram, e: t.Expr, defines: dict[str, t.Define]) -> int:
    """The nodes of `e` (analysis.sizes.size), a comprehension written as a set operation counted as the
    operation is written: one node and those of its set and of the values it compares (`inline`'s
    measure of a small body: Mandarin's `held(p, a)`, three times in `controls`, is one `len(... & ...)`)."""
    if isinstance(e, t.Note):  # (a note is no node of its own)
        return sized(program, e.expr, defines)
    if isinstance(e, t.Comprehension):
        found = taken(program, e, defines)
        if found is not None:
            return 1 + size(found.domain) + sum(size(value) for _, value in found.tests if value is not None)
    return 1 + sum(sized(program, part, defines) for part in t.subexpressions(e))
