"""Pass `bind_reads`: what a method reads of the state and of its board again and again (a field,
the seat to act, a table of the board) is read once into a local, where the method first reads it,
not looked up as an attribute at every read (docs/optimiser.md).

Breakthrough's listing walks each piece's neighbours (a loop of its own: `unwrap_filtered_loops`)
and reads, for every one of them, three tables of the board and two fields through `self`:

    for t in self.board.neighbours[s]:
        if (self.board.row_of[t] == _once__1 and (self.piece[t] is None or (self.board.column_of[t]
                != self.board.column_of[s] and self.piece[t] != self.current))):

Interpreted, each `self.board.row_of` is two attribute look-ups before the index; a careful
hand-written version reads each table once into a local. So this pass, of the lowered level, writes

    _read__piece = self.piece
    _read__board__row_of = self.board.row_of
    ...
    for t in _read__board__neighbours[s]:
        if (_read__board__row_of[t] == _once__1 and (_read__piece[t] is None ...

Taken: in a definition's body and a listing's (`index_actions`' listing), which change nothing of
the state, a read `self.<field>` of a field of the rules, `self.current`, `self.num_players`, and
`self.board.<table>` of a table every board has (`Board.__slots__`, set once as the board is made
and never replaced: `BOARD_TABLES`); in an effect, a trigger's or a procedure's body, the board's
tables, and the fields, seat and count only where the body assigns none of them and calls no
method but definitions (nor the runtime with the state but `rt.walk`, which charges the budget of
a move only). A read is bound where it is read many times as the body runs: three times or more
wherever the body runs (not in a branch, nor under the right of `and` or `or`), or once inside a
loop. A read in a comprehension's own scope (its items, tests, inner lists: all but its first
list) is neither bound nor counted: a local read there would be a cell of the method, made at every
call of it (`NESTED`). A body that can wait for a decision (a generator) is left as it is. The
local is bound right before the first statement of the body (at its top level) that holds the
read, which reads it in it and in every statement after it.

Why it is the same game: the local holds the very object the attribute holds (a list of a field,
a board's tuple, an int), and the attribute is not assigned while the body runs (nothing in a
definition or a listing changes the state; in an effect, none of the statements does, nor a call
it makes: the test above), so every read of the local gives what the attribute read would: an item
set in a list of a field is set in the one object both name. Reading it sooner than the first read
would have (a read under `and`, under a branch not taken) reads an attribute every state has once
its fields are set (its slots, the board's tables set as it is made), and so cannot fail, with one
exception this pass leaves alone: the fields of a definition that a field's `init:` may call (the
fields after it not set yet), where only the seat, the count and the board's tables are bound.
The locals are invented names (`_read__` and the names read, joined with `__`: compiler/names.py),
which no rule local can be.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields, replace
from typing import Any

from ..analysis import Facts
from ..lowered import LoweredFunction, Program
from ..names import READ_TAG, joined
from ..pyir import (
    EXPRESSIONS,
    Assign,
    Attribute,
    AugAssign,
    Block,
    BoolOp,
    Call,
    Comprehension,
    DictComp,
    Expr,
    ExprStmt,
    For,
    GeneratorExp,
    If,
    IfExp,
    Keyword,
    List,
    ListComp,
    Name,
    Return,
    SetComp,
    Stmt,
    Tuple,
    While,
    Yield,
    assign,
    inner_blocks,
    statements,
    subexpressions,
    walk,
)

# The tables every board has, set once as it is made and never replaced (runtime/boards/base.py
# `Board.__slots__`, less the mutable `tables` and `_groups`, and the board's name and labels).
BOARD_TABLES = frozenset({
    "spots", "neighbours", "region_names", "region_spots", "region_kind", "kinds", "region_of",
    "region_attributes", "border_regions", "regions_of_kind", "regions_at", "spot_attributes", "face_spots",
    "face_piece", "spot_bit", "all_mask", "region_mask", "spot_regions", "kind_masks", "region_bit",
    "spot_regions_mask", "region_owner", "row_of", "column_of", "steps", "rays", "grid_rows", "grid_columns",
    "grid_diagonals",
})
# What the state holds beside the fields that no rule code changes but the turn's machinery.
STATE_READS = frozenset({"current", "num_players"})
# The one function of the runtime given the state that an effect whose fields are bound may call:
# it charges the budget of a move (`_budget`), nothing else.
HARMLESS = frozenset({"walk"})
# A read is bound when the body surely reads it so many times or more (a read in a loop counts as
# many; one that only some runs make, under a test, none): read twice, an attribute look-up saved
# pays for the local's store and no more, and a read under a test not taken costs the store for nothing.
MANY = 3
# The weight of a read in a comprehension's own scope (its items, tests, inner lists: all but its first
# list): not bound, nor counted. A local read there is a cell of the method, made at every call of it
# (even one that returns a kept value at once) and passed to the comprehension's function: Backgammon's
# kept definitions were 8% slower so (interleaved runs). Where the listings walk, `unwrap_filtered_loops`
# has written their comprehensions as loops of the method's own.
NESTED = -1

_SELF = Name("self")
_BOARD = Attribute(_SELF, "board")


def run(program: Program, facts: Facts) -> Program:
    field_names = frozenset(f.name for f in program.fields)
    definitions = frozenset(d.name for d in program.defines)
    # a field's init that calls a definition: the definitions may run before every field is set
    early = any(_calls_method(f.init, definitions) for f in program.fields)
    pure_reads = _reads(field_names if not early else frozenset())
    all_reads = _reads(field_names)
    board_reads = _reads(frozenset(), state=False)

    def effect(body: Block) -> Block:
        if _waits(body):
            return body
        if not _calls_only_definitions(body, definitions):
            return _bound(body, board_reads)
        kept = _assigned(body)
        return _bound(body, lambda e: all_reads(e) and e not in kept)

    defines = [_define(d, pure_reads) for d in program.defines]
    procedures = [p if p.steps else replace(p, body=effect(p.body)) for p in program.procedures]
    actions = [replace(a, listing=_bound(a.listing, all_reads),
                       effect=a.effect if a.steps else effect(a.effect)) for a in program.actions]
    triggers = [t if t.steps else replace(t, effect=effect(t.effect)) for t in program.triggers]
    if (defines, procedures, actions, triggers) == (program.defines, program.procedures, program.actions,
                                                    program.triggers):
        return program
    return replace(program, defines=defines, procedures=procedures, actions=actions, triggers=triggers)


def _reads(fields: frozenset[str], state: bool = True) -> Callable[[Expr], bool]:
    """Whether an expression is a read this pass may bind: `self.board.<table>`, and (`state`)
    `self.<field>` of `fields`, `self.current`, `self.num_players`."""
    def bindable(e: Expr) -> bool:
        if not isinstance(e, Attribute):
            return False
        if e.value == _BOARD:
            return e.attr in BOARD_TABLES
        return state and e.value == _SELF and (e.attr in fields or e.attr in STATE_READS)
    return bindable


def _define(d: LoweredFunction, bindable: Callable[[Expr], bool]) -> LoweredFunction:
    if d.steps:
        return d
    body = _bound(d.body, bindable)
    if body == d.body:
        return d
    value_at = d.value_at
    if value_at is not None:  # (the statement of the value moves on by the lines put before it)
        value_at += len(body) - len(d.body)
    return replace(d, body=body, value_at=value_at)


def _bound(body: Block, bindable: Callable[[Expr], bool]) -> Block:
    """`body` with each read it repeats bound to a local before the first statement holding it."""
    counts: dict[Attribute, int] = {}
    first: dict[Attribute, int] = {}
    for k, s in enumerate(body):
        for e, weight in _statement_reads(s, 1):
            if isinstance(e, Attribute) and weight != NESTED and bindable(e):
                counts[e] = counts.get(e, 0) + weight
                first.setdefault(e, k)
    chosen = [e for e in first if counts[e] >= MANY]
    if not chosen:
        return body
    local = {e: Name(_local_name(e)) for e in chosen}
    out: list[Stmt] = []
    for k, s in enumerate(body):
        here: dict[Expr, Expr] = {e: local[e] for e in chosen if first[e] <= k}
        for e in chosen:
            if first[e] == k:
                out.append(assign(local[e], e, span=s.span, note="`bind_reads`: read once"))
        out.append(_replaced_stmt(s, here) if here else s)
    return tuple(out)


def _local_name(e: Attribute) -> str:
    return joined(READ_TAG, "board", e.attr) if e.value == _BOARD else joined(READ_TAG, e.attr)


# -- reading ----------------------------------------------------------------------------------------
def _statement_reads(s: Stmt, weight: int) -> Iterator[tuple[Expr, int]]:
    """Each expression `s` evaluates, with how much a read of it counts (`weight` for `s` itself):
    MANY where it is evaluated again and again as `s` runs once (in a loop's body, a `while`'s test,
    under a comprehension's first list), 1 where it is evaluated whenever `s` runs, 0 where only some
    runs evaluate it (in a branch, under the right of `and` or `or`)."""
    if isinstance(s, Assign):
        for target in s.targets:
            yield from _expr_reads(target, weight)
        yield from _expr_reads(s.value, weight)
    elif isinstance(s, AugAssign):
        yield from _expr_reads(s.target, weight)
        yield from _expr_reads(s.value, weight)
    elif isinstance(s, ExprStmt | Return):
        if s.value is not None:
            yield from _expr_reads(s.value, weight)
    elif isinstance(s, For):
        yield from _expr_reads(s.iterable, weight)
        yield from _expr_reads(s.target, MANY)
        for inner in s.body:
            yield from _statement_reads(inner, MANY)
    elif isinstance(s, While):
        yield from _expr_reads(s.test, MANY)
        for inner in s.body:
            yield from _statement_reads(inner, MANY)
    elif isinstance(s, If):
        yield from _expr_reads(s.test, weight)
        for elif_ in s.elifs:
            yield from _expr_reads(elif_.test, _sometimes(weight))
        for block in inner_blocks(s):
            for inner in block:
                yield from _statement_reads(inner, _sometimes(weight))


def _sometimes(weight: int) -> int:
    """The weight of a read that only some evaluations of its enclosing one make."""
    return weight if weight >= MANY or weight == NESTED else 0


def _expr_reads(e: Expr, weight: int) -> Iterator[tuple[Expr, int]]:
    yield e, weight
    if isinstance(e, ListComp | SetComp | GeneratorExp | DictComp):
        first, *rest = e.generators
        yield from _expr_reads(first.iter, weight)
        for sub in (first.target, *first.ifs, *(x for g in rest for x in (g.target, g.iter, *g.ifs)),
                    *((e.key, e.value) if isinstance(e, DictComp) else (e.elt,))):
            yield from _expr_reads(sub, NESTED)
        return
    if isinstance(e, BoolOp):
        yield from _expr_reads(e.values[0], weight)
        for sub in e.values[1:]:
            yield from _expr_reads(sub, _sometimes(weight))
        return
    if isinstance(e, IfExp):
        yield from _expr_reads(e.test, weight)
        yield from _expr_reads(e.body, _sometimes(weight))
        yield from _expr_reads(e.orelse, _sometimes(weight))
        return
    for sub in subexpressions(e):
        yield from _expr_reads(sub, weight)


def _waits(body: Block) -> bool:
    """Whether `body` can wait for a decision (a `yield` in it: a generator)."""
    return any(isinstance(e, Yield) for s in body for e, _ in _statement_reads(s, 1))


def _calls_method(e: Expr, methods: frozenset[str]) -> bool:
    return any(isinstance(n, Call) and isinstance(n.func, Attribute) and n.func.value == _SELF
               and n.func.attr in methods for n in walk(e))


def _assigned(body: Block) -> frozenset[Expr]:
    """The attributes of the state `body` assigns as a whole (`self.over = ...`, `self.left += 1`; an
    item of a field's list set, `self.disc[t] = ...`, is no such assignment)."""
    out: set[Expr] = set()
    for s in statements(body):
        for target in s.targets if isinstance(s, Assign) else (s.target,) if isinstance(s, AugAssign) else ():
            for e in target.elts if isinstance(target, Tuple | List) else (target,):
                if isinstance(e, Attribute) and e.value == _SELF:
                    out.add(e)
    return frozenset(out)


def _calls_only_definitions(body: Block, definitions: frozenset[str]) -> bool:
    """Whether `body` calls no method of the state but definitions, nor the runtime with the state
    but `rt.walk`: nothing it calls can assign a field, the seat or the count."""
    for s in body:
        for e, _ in _statement_reads(s, 1):
            if not isinstance(e, Call):
                continue
            func = e.func
            if isinstance(func, Attribute) and func.value == _SELF and func.attr not in definitions:
                return False
            given_state = any(a == _SELF for a in (*e.args, *(k.value for k in e.keywords)))
            if given_state and not (isinstance(func, Attribute) and func.value == Name("rt")
                                    and func.attr in HARMLESS):
                return False
    return True


# -- rewriting --------------------------------------------------------------------------------------
def _replaced(e: Expr, mapping: dict[Expr, Expr]) -> Expr:
    if e in mapping:
        return mapping[e]
    if isinstance(e, ListComp | SetComp | GeneratorExp | DictComp):  # (its first list only: the rest is its own scope)
        first, *rest = e.generators
        iter_ = _replaced(first.iter, mapping)
        return e if iter_ is first.iter else replace(e, generators=(replace(first, iter=iter_), *rest))
    changes: dict[str, Any] = {}
    for f in fields(e):
        if f.name == "span":
            continue
        value = getattr(e, f.name)
        new = _replaced_value(value, mapping)
        if new is not value:
            changes[f.name] = new
    return replace(e, **changes) if changes else e


def _replaced_value(v: object, mapping: dict[Expr, Expr]) -> object:
    if isinstance(v, tuple):
        items = tuple(_replaced_value(x, mapping) for x in v)
        return v if all(a is b for a, b in zip(items, v, strict=True)) else items
    if isinstance(v, Keyword):
        value = _replaced(v.value, mapping)
        return v if value is v.value else replace(v, value=value)
    if isinstance(v, Comprehension):
        target, iter_ = _replaced(v.target, mapping), _replaced(v.iter, mapping)
        ifs = tuple(_replaced(c, mapping) for c in v.ifs)
        if target is v.target and iter_ is v.iter and all(a is b for a, b in zip(ifs, v.ifs, strict=True)):
            return v
        return Comprehension(target, iter_, ifs)
    if isinstance(v, EXPRESSIONS):
        return _replaced(v, mapping)
    return v


def _replaced_stmt(s: Stmt, mapping: dict[Expr, Expr]) -> Stmt:
    def ex(e: Expr) -> Expr:
        return _replaced(e, mapping)

    def block(b: Block) -> Block:
        return tuple(_replaced_stmt(x, mapping) for x in b)
    if isinstance(s, Assign):
        return replace(s, targets=tuple(ex(t) for t in s.targets), value=ex(s.value))
    if isinstance(s, AugAssign):
        return replace(s, target=ex(s.target), value=ex(s.value))
    if isinstance(s, ExprStmt):
        return replace(s, value=ex(s.value))
    if isinstance(s, Return):
        return s if s.value is None else replace(s, value=ex(s.value))
    if isinstance(s, For):
        return replace(s, target=ex(s.target), iterable=ex(s.iterable), body=block(s.body))
    if isinstance(s, While):
        return replace(s, test=ex(s.test), body=block(s.body))
    if isinstance(s, If):
        return replace(s, test=ex(s.test), body=block(s.body), orelse=block(s.orelse),
                       elifs=tuple(replace(e, test=ex(e.test), body=block(e.body)) for e in s.elifs))
    return s
