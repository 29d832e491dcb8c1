"""Pass `inline_procedures`: a small procedure without parameters is written where it is called, not
called as a method (docs/optimiser.md).

China (Schacht) calls `deck_check` after every card drawn (some eighty a game), `own_turn_over`
(whose body is `pass` in the base game) and `refill_hand` at the end of every turn, `next_piece`
after every piece placed. Each call of a method costs more than what most of them do:

    self.deck_check()  # base.yaml:485

This pass marks such a procedure (`t.Procedure.written_out`), and lowering writes its body there,
as the method's own lines (each with its rule line), after the line that records the procedure in a
trace, as the method does:

    # base.yaml:486: deck_check, written out where it is called, base.yaml:485 (`inline_procedures`)
    if self.trace is not None:
        self.trace.append("procedures.deck_check")
    if not self.deck:  # base.yaml:492
        self.exhausted += 1  # base.yaml:493
        ...
    # base.yaml:485: deck_check written out above

Taken: a procedure without parameters whose body binds no local (no `let`, no loop, no `ask`) and
holds at most SMALL statements, counting those of the procedures it calls that are taken too (they
are written out in it); not one that can wait for a decision, nor one whose proven work is large (it
charges it as it starts); nor in code written with coverage probes. The procedure stays a method
(tools, tests and scenarios call it; a variant's module overrides it as its own).

Why it is the same game: the body runs where the call ran, in the same order, with nothing bound
(no parameter, no local): the same fields read and assigned, with the same drops of kept values and
updates of masks after each assignment (lowering writes each statement as the method writes it).
The trace records the procedure as the method does, first. The budget: the call's proven work is
counted as before, and what the body charges as it runs (a walk of a list only the game bounds) it
charges alike, with the same rule lines. A fault of a rule names the rule line that failed: each
line of the body ends with its rule line, the comment before it names the procedure's, and the
comment after it the call's, so a line without a comment of its own is told by the same line as
before (runtime/faults.py walks back to the last comment).
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts

SMALL = 12  # statements of a procedure written where it is called, those it writes out included


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    procedures = {p.name: p for p in program.procedures}
    sizes: dict[str, int | None] = {}

    def size(name: str) -> int | None:
        """The statements of `name` written out with the procedures it calls that are, or None if
        it is not taken."""
        if name in sizes:
            return sizes[name]
        sizes[name] = None  # (a procedure calling itself is refused by the checker: see check.cycles)
        p = procedures[name]
        total: int | None = 0 if not p.params else None
        for s in t.statements(p.body):
            if total is None:
                break
            if isinstance(s, t.Let | t.For | t.Ask | t.While):
                total = None
            elif isinstance(s, t.CallEffect):
                inner = size(s.procedure)
                total = total + 1 if inner is None else total + inner
            else:
                total += 1
        sizes[name] = total if total is not None and total <= SMALL else None
        return sizes[name]

    if all(size(p.name) is None for p in program.procedures):
        return program
    marked = tuple(replace(p, written_out=True) if size(p.name) is not None else p for p in program.procedures)
    return replace(program, procedures=marked)
