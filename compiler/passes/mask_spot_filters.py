"""Pass `mask_spot_filters`: a list of spots filtered by tests of the spot's place on the board and of
fields per spot, made from bit masks rather than by walking the spots (docs/optimiser.md).

China (Schacht) lists its palace placements, for every way to pay (up to ten), as

    [s for s in open_spaces if pays_for(cards, province_of(s))]
    open_spaces = [s for s in spots if free(s) and province_of(s) in open_provinces]

walking every free space of the board per payment, and every space to find the free ones.
Each test reads the spot in one of two ways:

- a field per spot of lists tested for emptiness (`not palace_of[s]`, `free(s)` inlined): the
  spots where it holds are a bit mask kept up to date beside the field (the `mask_spot_sets` pass's
  machinery: `TypedProgram.masks`, a `Mask` with `empty`), or a field compared with a constant whose
  mask the `mask_spot_sets` pass keeps;
- anything else that reads the spot only through one value the board fixes for it, its key
  (`province_of(s)`, `province_of(s).colour`: region_of, attributes of regions and components,
  constants): the board's spots grouped by the key's value, each group a mask, are made once per
  board (`board.tables.group_spots`); the test is computed once per value, not once per spot, and the
  masks of the values that pass are joined.

The list is then the spots of the masks' intersection (`board.spots_of(mask, groups...)`), in spot
order: the order the walk gave. The pass gives each such comprehension its filter
(`t.Comprehension.spot_filter`), which lowering writes. A domain that is itself such a list (a
definition without parameters whose body is one, `open_spaces`) joins its tests to the filter's,
before them.

Why it is safe: every test is a pure function of the spot and the state, so the set of spots
passing is the same; the order is spot order both ways. What differs is how often a test is
computed and whether: once per key value rather than once per spot walked. A test that cannot
fail may be computed for any value. A test that can (an item of a list, `cards[0]`) is allowed
only where its failing parts do not read the key (so it fails for every value or for none), in
the filter's own condition (not in a definition it walks, whose error would be told at another
rule line), and computed only when some spot reaches it: `spots_of` takes the groups in the
order the tests were written and stops as soon as no spot is left, as the walk, which computed a
test only for the spots that passed the tests before it. Hoisted values (`for once in (v,)`,
pass `hoist`) are put back in the test: they cannot fail (hoist only takes such) and are computed
once per value, not per spot. The limits of a move are counted on the plain code, as for
`mask_spot_sets`.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.keys import key
from ..analysis.walk import bare as unnoted
from ..analysis.walk import expressions, nodes
from ..names import PASS_LOCAL_BASE, joined
from .mask_spot_sets import NONE
from .rewrite import Names, can_fail, map_nodes, rebuild

# the built-ins whose value, for a spot, the board alone fixes
BOARD_BUILTINS = frozenset({"region_of"})


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each list of spots the pass makes from masks given its filter (`t.Comprehension.spot_filter`),
    and the masks of the empty spots it reads kept (`TypedProgram.masks`)."""
    finder = _Finder(program)
    found: dict[Hashable, t.Filter] = {}
    for e in expressions(program):
        if isinstance(e, t.Comprehension):
            k = key(e)
            if k not in found:
                f = finder.filter(e, own=True)
                if f is not None:
                    found[k] = f
    if not found:
        return program
    masks = list(program.masks)
    for f in found.values():
        for term in f.terms:
            if term.mask is not None and term.mask not in masks:
                masks.append(term.mask)

    def marked(e: t.Expr) -> t.Expr:
        if isinstance(e, t.Comprehension) and key(e) in found:
            return replace(e, spot_filter=found[key(e)])
        return e

    return map_nodes(replace(program, masks=tuple(masks)), marked)


class _Finder:
    def __init__(self, program: t.TypedProgram) -> None:
        self.defines = {d.name: d for d in program.defines}
        self.names = Names(program)
        self.masks = {(m.field, m.value): m for m in program.masks}
        self.constants = {name: value for name, value, _ in program.tables.constants}

    def filter(self, e: t.Comprehension, own: bool) -> t.Filter | None:
        """The filter `e` is, or None. `own`: the comprehension the list is made for (its tests may
        fail); else a definition's body it walks."""
        if e.func != "list":
            return None
        *hoisted, (var, domain, cond) = [(v, unnoted(d), c) for v, d, c in ((e.var, e.domain, e.cond), *e.more)]
        if not (isinstance(unnoted(e.elt), t.Ref) and unnoted(e.elt).sym is var):  # type: ignore[union-attr]
            return None
        bound: dict[t.Symbol, t.Expr] = {}
        for v, d, c in hoisted:  # one-item clauses: `for once in (v,)`
            if c is not None or not (isinstance(d, t.Collection) and d.kind == "list" and len(d.items) == 1):
                return None
            bound[v] = _put_back(d.items[0], bound)
        terms: list[t.FilterTerm] = []
        if isinstance(domain, t.DefineCall) and not domain.args and domain.define in self.defines \
                and not self.defines[domain.define].params:
            body = unnoted(self.defines[domain.define].body)
            inner = self.filter(body, own=False) if isinstance(body, t.Comprehension) and not body.more else None
            if inner is None:
                return None
            terms.extend(inner.terms)
        elif not (isinstance(domain, t.Ref) and domain.sym.kind == "value" and domain.sym.name == "spots"):
            return None
        for test in _conjuncts(_put_back(cond, bound)) if cond is not None else []:
            term = self.term(test, var)
            if term is None or (term.fails and not own):
                return None
            terms.append(term)
        if not terms:
            return None
        return t.Filter(tuple(terms))

    def term(self, test: t.Expr, var: t.Symbol) -> t.FilterTerm | None:
        """One test over the spot `var`: a mask kept (a field of lists empty or not, a field's
        value a mask of the `mask_spot_sets` pass keeps), else a test of a key, else None."""
        bare, negated = unnoted(test), False
        if isinstance(bare, t.Unary) and bare.op == "not":
            inner = unnoted(bare.operand)
            if isinstance(inner, t.Unary) and inner.op == "not":  # `not free(s)`, free inlined
                negated, inner = True, unnoted(inner.operand)
            if isinstance(inner, t.PerIndex) and _reads_spot(inner, var) and inner.ty.kind in ("list", "set"):
                name = inner.field.name
                mask = self.masks.get((name, EMPTY))
                if mask is None:
                    mask = self.masks[(name, EMPTY)] = t.Mask(name, EMPTY, "()", joined("empty", name),
                                                              inner.span, empty=True)
                return t.FilterTerm(mask=mask, negated=negated)
        if isinstance(bare, t.Binary) and bare.op in ("==", "!="):
            left, value = unnoted(bare.left), _constant(bare.right, self.constants)
            kept = self.masks.get((left.field.name, value)) \
                if isinstance(left, t.PerIndex) and _reads_spot(left, var) and value is not None else None
            if kept is not None:
                return t.FilterTerm(mask=kept, negated=bare.op == "!=")
        return self.keyed(test, var)

    def keyed(self, test: t.Expr, var: t.Symbol) -> t.FilterTerm | None:
        """A test that reads the spot only through one key the board fixes."""
        keys: list[t.Expr] = []

        def find(e: t.Expr) -> bool:  # whether `e` reads the spot outside a key (keys collected)
            if _board_constant(e, var, self.constants) and any(isinstance(n, t.Ref) and n.sym is var for n in nodes(e)):
                keys.append(unnoted(e))
                return False
            if isinstance(e, t.Ref) and e.sym is var:
                return True
            return any([find(part) for part in t.subexpressions(e)])

        if find(test) or not keys or len({key(k) for k in keys}) != 1 or keys[0].ty.kind not in ("enum", "entity"):
            return None
        k = keys[0]
        if isinstance(k, t.Ref):  # the spot itself: no grouping to gain
            return None
        name = self.names.symbol(var, ty=k.ty)
        ref = t.Ref(name, k.ty, k.span)
        the_key = key(k)
        test = _replace(test, lambda e: ref if key(unnoted(e)) == the_key else None)
        fails = can_fail(test, self.defines)
        if fails and any(isinstance(n, t.Ref) and n.sym is name for part in _failing(test, self.defines)
                         for n in nodes(part)):
            return None
        mask_var = self.names.symbol(var, PASS_LOCAL_BASE, ty=var.ty)
        return t.FilterTerm(spot=var, key=k, var=name, test=test, mask_var=mask_var, fails=fails)


EMPTY = -1  # the `value` of a mask of the spots whose field (of lists) is empty


def _conjuncts(e: t.Expr) -> list[t.Expr]:
    bare = unnoted(e)
    if isinstance(bare, t.Binary) and bare.op == "and":
        return [*_conjuncts(bare.left), *_conjuncts(bare.right)]
    return [e]


def _reads_spot(e: t.PerIndex, var: t.Symbol) -> bool:
    index = unnoted(e.index)
    return (e.field.per == "spot" and e.field.kind in ("field", "perfield") and isinstance(index, t.Ref)
            and index.sym is var)


def _board_constant(e: t.Expr, var: t.Symbol, constants: dict[str, int]) -> bool:
    """Whether `e`'s value is fixed by the board for the spot `var` (a key): it reads only the spot,
    constants known when compiling (not a neutral seat's, which counts the players), numbers and
    the board's tables."""
    for n in nodes(e):
        match n:
            case t.Ref():
                if not (n.sym is var or n.sym.kind == "const" and n.sym.py in constants):
                    return False
            case t.Num() | t.Bool() | t.Note():
                pass
            case t.Builtin():
                if n.func not in BOARD_BUILTINS:
                    return False
            case t.AttrOf():
                pass
            case _:
                return False
    return True


def _constant(e: t.Expr, constants: dict[str, int]) -> int | None:
    e = unnoted(e)
    if isinstance(e, t.Ref) and e.sym.kind == "const" and e.sym.py in constants:
        return constants[e.sym.py]
    if isinstance(e, t.Ref) and e.sym.kind == "value" and e.sym.name == "none":  # an optional field's `none`
        return NONE
    return None


def _replace(e: t.Expr, f: object) -> t.Expr:
    """`e` with each subexpression for which `f` gives a node replaced by it."""
    def go(x: t.Expr) -> t.Expr:
        new = f(x)  # type: ignore[operator]
        return new if new is not None else rebuild(x, go)
    return go(e)


def _put_back(e: t.Expr | None, bound: dict[t.Symbol, t.Expr]) -> t.Expr:
    """`e` with the hoisted values read again where they were computed (`once` -> its value)."""
    assert e is not None
    if not bound:
        return e
    return _replace(e, lambda x: bound.get(x.sym) if isinstance(x, t.Ref) else None)


def _failing(e: t.Expr, defines: dict[str, t.Define]) -> list[t.Expr]:
    """The parts of `e` that can fail, each whole (an item of a list with its list and its index)."""
    out: list[t.Expr] = []
    todo = [e]
    while todo:
        x = todo.pop()
        if not can_fail(x, defines):
            continue
        b = unnoted(x)
        if isinstance(b, (t.ListIndex, t.DefineCall, t.Builtin)) \
                or isinstance(b, t.Binary) and b.op in ("//", "%", "*"):
            out.append(x)
        else:
            todo.extend(t.subexpressions(x))
    return out


# -- what lowering and the passes after it ask -------------------------------------------------------
def joined_terms(found: t.Filter) -> list[t.FilterTerm]:
    """The terms of a filter joined into its first mask, in the order written: the masks kept
    beside the fields and the `key in L` tests (L computed once) up to the first other test; from
    that one on, each is a group of its own (compiler/lower/ `spot_filters_code`)."""
    out: list[t.FilterTerm] = []
    for term in found.terms:
        if term.mask is None and (among(term) is None or term.fails):
            break
        out.append(term)
    return out


def among(term: t.FilterTerm) -> t.Expr | None:
    """L of a test `key in L` whose L reads no key (and cannot fail: see `spot_filters_code`), else None."""
    test = unnoted(term.test) if term.test is not None else None
    if not (isinstance(test, t.Binary) and test.op == "in" and test.right.ty.kind == "list"):
        return None
    left = unnoted(test.left)
    if isinstance(left, t.Ref) and left.sym is term.var \
            and not any(isinstance(n, t.Ref) and n.sym is term.var for n in nodes(test.right)):
        return test.right
    return None
