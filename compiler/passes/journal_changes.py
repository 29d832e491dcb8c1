"""Pass `journal_changes`: the state as a move began made only for a move that waits (docs/optimiser.md).

A move that can wait for a decision (`ask`) keeps the state as it began: a copy of the waiting
state is that state with the move and the answers since played again (runtime/decisions.py), and
a saved one holds it (`pending.before`). The runtime copies the state before every such move,
every field of it; where the end of a turn or a phase's start can ask, that is every move (Chang
Cheng's), and a tenth of them wait.

This pass annotates the typed program (`TypedProgram.journal`, a representation of the state as
a move began) so that lowering, for such a rule set, writes before each assignment to a field a note
of the field as it was, the first time the move changes it (`_journal`, copied as `clone` copies
it), and the class to say so (`JOURNAL`): the runtime then notes the seat, phase, turn and count of
moves and the generator's state as the move begins, and makes the state it began in only if the
move waits (runtime/state.py `_do_steps`, `_began`): a copy of the state then, the fields the move
changed put back as they were, what is kept beside the fields made again from them.

Why it is the same game: the moves run as they did; only how the state a waiting move began in is
made changes, and it is the copy it replaces, field for field, the generator included (every
change of a field during a move is an assignment of the rules, each noted; the runtime's own are
noted as the move begins). tests/test_journal_changes.py compares both on random games of every Chang
Cheng rule set; tests/test_optimiser.py plays every rule set with and without the pass.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    if program.journal:
        return program
    # (lowering knows whether every move runs as steps: where it does, it notes the fields)
    return replace(program, journal=True)
