"""Pass `bind_board_tables`: the tables of the board a listing or a definition reads are found once, as
a game starts, and kept on the state, each with its exact type (docs/optimiser.md).

Several passes keep tables on the board that every state on it shares: the interned actions of
each listing (`index_actions`, with their rows of spots or regions, `gather_spots`, `mask_regions`),
the values of a definition remembered by value (`remember_values`) and whole listings remembered by
value (`remember_listings`). Each listing found its table by name at every call:

    table = self.board.tables.actions.get('build') or self.board.tables.action_dict('build')

a dictionary looked up by a string, and then a value of type `Any`: the native build (mypyc,
docs/native.md) reads the row found in it, and calls its methods, as generic Python objects.
China (Schacht) looks up a dozen of them a move. With this pass each is found (or made) once, when
the state is made (`_bind_tables`, called by runtime/state.py `_init` as soon as the board is
chosen), kept in a slot of the state that `clone` copies, and declared with its type:

    _actions__build: dict[Any, rt.SpotRow]  # the interned actions of `build` (`index_actions`)
    ...
    table = self._actions__build

Why it is the same game: a table of the board is never replaced, only filled (and a full table
of values emptied in place, `rt.remember`), so the object a state finds when it is made is the
one every later lookup by name would find; what is looked up in it, and in what order, does not
change. Making a table when the game starts rather than at its first listing makes an empty list
or dictionary sooner, and nothing else: the size of a table of actions is the board's or the
declarations' (never the players': `index_actions`), and making one reads nothing that can fail.
The pass runs on the lowered program: lowering writes each table found by name, the whole value
of the statement that reads it (`_table = ...`), and notes it with the slot it would be bound to,
its type and what it holds (`Program.board_lookups`); the pass binds each one noted (the slots of
`_bind_tables`, `Program.board_tables`) and reads the slot where that code stood (a statement whose
value is that code's nodes, equal).

The sets of spots of the board grouped by a key (`mask_spot_filters`, `board.tables.spot_groups`) are left to be
found where they are used: making one reads the board through rule code, which may fail on a
board a game never lists it on.
"""

from __future__ import annotations

from dataclasses import replace

from ..analysis import Facts
from ..lowered import Program, each_statement
from ..pyir import Assign, Attribute, Block, Name, Stmt
from ..pyprint import text


def run(program: Program, facts: Facts) -> Program:
    if not program.board_lookups:
        return program
    slots = {code: Attribute(Name("self"), slot) for slot, _, code, _ in program.board_lookups}

    def bound(s: Stmt) -> Stmt:
        if isinstance(s, Assign) and s.value in slots:  # (finds a table: its code, as lowering noted it)
            return replace(s, value=slots[s.value])
        return s

    def rewrite(body: Block) -> Block:
        return each_statement(body, bound)
    found = [(slot, annotation, text(code), what) for slot, annotation, code, what in program.board_lookups]
    return replace(program.with_bodies(rewrite), board_tables=found)
