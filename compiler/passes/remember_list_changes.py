"""Pass `remember_list_changes`: a list the rules keep sorted, of values of an enumeration of few
values, joined with an item or taken one (`hand[p] = sorted(hand[p] + [c])`, `hand[p] =
without(hand[p], c)`), is changed by a look-up: what the list becomes by each value is a slot of
the list's row in a table of the board every state shares, made the plain way only where the slot
is empty (docs/optimiser.md).

China (Schacht) changes a hand of three or four cards of five colours at almost every move: a card
drawn joins it, a card played or exchanged leaves it. The plain code makes a tuple of the hand and
the card, a sorted list of it and a tuple again, some 470 ns with its checks; or a list of the
hand, `remove`, and a tuple again:

    if len(self.hand[p]) > 16:
        rt.walk(self, self.hand[p], 1, 'rules/china-schacht/base.yaml:484')
    self.hand[p] = tuple(sorted((*self.hand[p], c) if len(self.hand[p]) <= 15 else rt.walk(...)))

A hand the rules keep sorted is a multiset: one of a few dozen values (56 of three cards or fewer
of five colours), and what each colour makes of it one of a row of five hands. With this pass, some
100 ns where the hand's row has the card's slot filled:

    _sorted_joins__hand = self._sorted_joins__hand  # (the board's table, found once: `bind_board_tables`)
    _old__hand = self.hand[p]
    _row__hand = _sorted_joins__hand.get(_old__hand)
    _changed__hand = None if _row__hand is None else _row__hand[c]
    if _changed__hand is None:
        <the plain lines>
        if len(_old__hand) < 16:
            rt.remember_item(_sorted_joins__hand, _old__hand, c, self.hand[p], 5, self.board)
    else:
        self.hand[p] = _changed__hand

Taken: an assignment `x = sorted(x + [c])` or `x = without(x, c)` (the join written either way, `x +
[c]` or items written out by `unwrap_list_items`), x a field or one entity's entry of a field per
entity read at a name (as `draw_out` takes it), of a list type whose items are values of an
enumeration of at most MAX_KINDS values, that the rules keep sorted (pass `key_sorted_lists`'s test)
and take items from somewhere (a `without` of it): what makes its values few and met again (a list
only ever joined to grows through new values, each met once a game: China (Schacht)'s two-player
`kept[p]`, 552 values in 100 games, a row made at nearly every change), c a name or a constant;
not an assignment `draw_out` marked. Lowering writes the plain lines as before when they are not
of the shape it knows (checks of the list's length, then the assignment).

Why it is the same game: what the list becomes by an item is a function of the list and the item
alone, the same in every state, on every board; tuples are immutable, so the value found is the one
the plain lines made the first time, item for item (a restored list in any order is a key of its
own). A value is remembered only for a list of fewer than SMALL_LIST items: there the plain lines
charge nothing to the budget of the move (their checks count only longer lists), so a value found
charges nothing either, and a longer list is changed the plain way, charged as before, every time.
The table holds at most `rt.MAX_TABLED` rows, emptied when full, and what it keeps is charged to
its board as `rt.remember` charges it (`rt.remember_item`), as `remember_values`' tables are.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.walk import bare
from ..types import Ty
from .draw_out import _assigned
from .key_sorted_lists import kept_sorted
from .rewrite import map_statements

NAME = "remember_list_changes"
MAX_KINDS = 16  # an enumeration of at most this many values has few kinds


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each assignment joining an item to, or taking one from, a list of few kinds the rules keep
    sorted marked (`t.Assign.remembered_change`): lowering finds its value in a row of a table of the board."""
    enums = {name: len(values) for name, values in program.tables.enums}
    kept = frozenset(f.decl.name for f in program.fields if _few_kinds(f.decl.type.elem, enums)) \
        & kept_sorted(program)
    # (a list only ever joined to grows through ever new values, each met once a game: a row made for
    # nothing at nearly every change; one the rules also take items from keeps coming back to a few)
    kept &= _taken_from(program)
    if not kept:
        return program

    def marked(stmts: tuple[t.Stmt, ...]) -> tuple[t.Stmt, ...]:
        return tuple(replace(s, remembered_change=True) if isinstance(s, t.Assign) and _taken(s, kept) else s
                     for s in stmts)

    return map_statements(program, marked)


def _taken_from(program: t.TypedProgram) -> frozenset[str]:
    """The fields an assignment of the rules gives `without(...)` of themselves."""
    bodies = [program.setup, *(p.body for p in program.procedures), *(trig.effect for trig in program.triggers),
              *(ph.start for ph in program.phases), *(a.effect for a in program.actions)]
    return frozenset(s.target.name for body in bodies for s in t.statements(body)
                     if isinstance(s, t.Assign) and s.target.kind in ("field", "perfield")
                     and (found := _parts(s.value)) is not None and found[0] == "without" and _assigned(found[1], s))


def _few_kinds(ty: Ty | None, enums: dict[str, int]) -> bool:
    """Whether a list's items have few values: an enumeration of at most MAX_KINDS."""
    return ty is not None and ty.kind == "enum" and enums.get(ty.name, MAX_KINDS + 1) <= MAX_KINDS


def _taken(s: t.Assign, kept: frozenset[str]) -> bool:
    """`x = sorted(x + [c])` or `x = without(x, c)`, x a list of `kept` (as `draw_out` reads it)."""
    if s.target.name not in kept or s.op != "=" or s.item is not None or s.drawn_out:
        return False
    found = _parts(s.value)
    return found is not None and _assigned(found[1], s) and _name(found[2])


def change(s: t.Assign) -> tuple[str, t.Expr]:
    """How an assignment this pass marked changes its list (`sorted`: an item joined, `without`: one
    taken) and the item (for lowering)."""
    found = _parts(s.value)
    assert found is not None, s
    return found[0], found[2]


def _parts(value: t.Expr) -> tuple[str, t.Expr, t.Expr] | None:
    """`sorted(x + [c])` or `without(x, c)`: which, x and c."""
    value = bare(value)
    if isinstance(value, t.Builtin) and value.func == "without" and len(value.args) == 2:
        return "without", value.args[0], value.args[1]
    if isinstance(value, t.Builtin) and value.func == "sorted" and len(value.args) == 1:
        joined = bare(value.args[0])
        if not (isinstance(joined, t.Binary) and joined.op == "+"):
            return None
        one = bare(joined.right)
        if isinstance(one, t.Collection) and one.kind == "list" and len(one.items) == 1:
            return "sorted", joined.left, one.items[0]
    return None


def _name(e: t.Expr) -> bool:
    """A value read without work or failure: a local (a parameter), a constant, a number."""
    e = bare(e)
    return isinstance(e, t.Num | t.Bool) or isinstance(e, t.Ref) and e.sym.kind in ("local", "const")
