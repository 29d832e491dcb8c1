"""Pass `keep_end`: the end of the game is tested once per move, not at every point the runtime
asks (after the effect, after the end of the turn, after a phase's start: State._do).

The end condition's value is kept in the state like a derived value (pass `keep_derived`): computed
when asked while stale, dropped by every assignment to a field it reads, by a new phase or turn
if it reads the seat to act, and by anything written from outside the rules. The decision
(`TypedProgram.end_kept`, the representation step) is what the end reads (compiler/analysis/reads.py);
lowering keeps it in the slot `_kept_end`.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    if program.end is None:  # (no end: `_is_over` is `False`, nothing to keep)
        return program
    return replace(program, end_kept=facts.dependencies.end)
