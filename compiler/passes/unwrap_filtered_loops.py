"""Pass `unwrap_filtered_loops`: a listing's loop over a filtered list walks the list's own loops and
tests each item itself, not a list made first by a comprehension (docs/optimiser.md).

Breakthrough lists, for each of its pieces, the cells it may step to:

    for t in [t for _once__1 in (...,) for t in self.board.neighbours[s] if (...)]:
        _action = _row1[t]
        ...
        _actions.append(_action)

Interpreted, the comprehension is a function made and called once per piece (Python 3.11 makes a
function object and a frame for it), and a list built item by item, then walked again by the
loop. A hand-written listing walks the neighbours and tests each. So this pass, of the lowered
level, writes

    _once__1 = ...
    for t in self.board.neighbours[s]:
        if (...):
            _action = _row1[t]
            ...

Taken: in a listing's body (`index_actions`' listing), a `for` over a list comprehension whose
body is the innermost of the listing, the lines that find an action and append it (no loop of its
own, no `break`, no `return`; it calls nothing but `rt.made`, `rt.Action` and `_actions.append`);
where the comprehension's variables, but the loop's own, are read nowhere else in the listing.
Each clause of the comprehension becomes a loop (a clause over a one-item tuple, an assignment),
each of its tests an `if` around what follows; an item that is not the loop's variable itself is
assigned to it first.

Why it is the same game: the loops walk the same items in the same order and test the same
conditions on each, in the order the comprehension did, and the body runs for the items the list
would have held, in its order. What differs is only when: the comprehension tested every item
before the body ran for any; here the body of an item runs before the next is tested. The body
changes nothing a test reads: it finds an interned action in a table of the board (making it, and
charging the board for it, `rt.made`, the first time) and appends it to the list being made, which
no test reads; a test that fails raises the same error (nothing but the list of actions, which the
error drops, was made before it). The comprehension's variables become the listing's locals: none
is read elsewhere in the listing (the test above), so none is seen with another value.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..analysis import Facts
from ..lowered import Program
from ..pyir import (
    Assign,
    AugAssign,
    Block,
    Break,
    Call,
    Expr,
    ExprStmt,
    For,
    If,
    ListComp,
    Name,
    Return,
    Stmt,
    Tuple,
    While,
    assign,
    statements,
    walk,
)
from ..pyprint import text

# What the innermost body of a listing calls: making an action, charging the board for it, appending it.
APPENDS = frozenset({"rt.made", "rt.Action", "_actions.append"})
NOTE = "`unwrap_filtered_loops`: the list's own loop, each item tested"


def run(program: Program, facts: Facts) -> Program:
    actions = [replace(a, listing=_unwrapped(a.listing, a.listing)) for a in program.actions]
    if actions == program.actions:
        return program
    return replace(program, actions=actions)


def _unwrapped(body: Block, whole: Block) -> Block:
    out: list[Stmt] = []
    for s in body:
        if isinstance(s, For) and isinstance(s.iterable, ListComp) and _appends_only(s.body) \
                and _own_names(s, whole):
            out.extend(_loops(s, s.iterable))
            continue
        if isinstance(s, For | While):
            s = replace(s, body=_unwrapped(s.body, whole))
        elif isinstance(s, If):
            s = replace(s, body=_unwrapped(s.body, whole), orelse=_unwrapped(s.orelse, whole),
                        elifs=tuple(replace(e, body=_unwrapped(e.body, whole)) for e in s.elifs))
        out.append(s)
    return tuple(out)


def _expressions(s: Stmt) -> Iterator[Expr]:
    if isinstance(s, Assign):
        yield from s.targets
        yield s.value
    elif isinstance(s, AugAssign):
        yield s.target
        yield s.value
    elif isinstance(s, ExprStmt):
        yield s.value
    elif isinstance(s, Return) and s.value is not None:
        yield s.value
    elif isinstance(s, For):
        yield s.target
        yield s.iterable
    elif isinstance(s, While | If):
        yield s.test
        if isinstance(s, If):
            yield from (e.test for e in s.elifs)


def _appends_only(body: Block) -> bool:
    """Whether `body` is a listing's innermost: no loop, `break` nor `return`, and no call but of APPENDS."""
    for s in statements(body):
        if isinstance(s, For | While | Break | Return):
            return False
        for e in _expressions(s):
            if any(isinstance(n, Call) and text(n.func) not in APPENDS for n in walk(e)):
                return False
    return True


def _own_names(loop: For, whole: Block) -> bool:
    """Whether the names the comprehension binds, but the loop's own, are read nowhere in the listing
    outside it."""
    comprehension = loop.iterable
    assert isinstance(comprehension, ListComp)
    own = {n.id for g in comprehension.generators for n in walk(g.target) if isinstance(n, Name)}
    if isinstance(loop.target, Name):
        own.discard(loop.target.id)
    if not own:
        return True
    elsewhere: set[str] = set()
    for s in statements(whole):
        for e in _expressions(s):
            if e is comprehension:
                continue
            elsewhere.update(n.id for n in walk(e) if isinstance(n, Name))
    return not own & elsewhere


def _loops(loop: For, comprehension: ListComp) -> Block:
    """The comprehension's clauses as loops and tests, around the loop's body."""
    body: Block = loop.body
    if comprehension.elt != loop.target:
        body = (assign(loop.target, comprehension.elt), *body)
    note = f"{loop.note}; {NOTE}" if loop.note else NOTE
    for k, clause in reversed(list(enumerate(comprehension.generators))):
        for test in reversed(clause.ifs):
            body = (If(test, body),)
        outer = k == 0
        if isinstance(clause.iter, Tuple) and len(clause.iter.elts) == 1 and isinstance(clause.target, Name):
            body = (assign(clause.target, clause.iter.elts[0]), *body)
        else:
            body = (For(clause.target, clause.iter, body, span=loop.span if outer else None,
                        note=note if outer else ""),)
        if outer and not isinstance(body[0], For):  # (the outer clause a one-item tuple: its line on the loop's)
            first = body[0]
            body = (replace(first, span=loop.span, note=note), *body[1:])
    return body
