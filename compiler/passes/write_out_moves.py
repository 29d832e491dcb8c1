"""Pass `write_out_moves`: a move's step through the runtime written out for the rule set (docs/optimiser.md).

The runtime plays a move (runtime/state.py `State._do`) for every rule set alike: it asks whether
the moves of this one can wait for a decision, calls the action's effect, tests the end, follows a
`goto`, tests whether a phase's start said `end_turn`, runs the end of the turn and tests the end
again if the turn-end triggers may have changed it, and starts the next phase (`_start_phase`:
forgets what the listing kept, runs the phase's start, then asks whether that start ended the game
or leaves a phase with nothing to play that ends it). Mandarin plays some 1,200 moves a game, most
of them a bid: what it asks of every move, whatever the rules, is a good part of their cost.

This pass, on the lowered program (after lowering: `Program.move_step`), has the module written,
for a rule set whose moves never wait for a decision (no action, trigger, phase start or end of
turn asks: only the setup may, whose answers still run as steps), with the move's step as a method
of its own class with what the compiler knows written in: no test of whether the move runs as steps
(only whether an answer to the setup is awaited, when the setup asks), the turn-end test of the end
only where a turn-end trigger exists, the test of an `end_turn` from a phase's start only where a
phase has start effects. Where no phase has start effects (nor a start that can end the game, nor
`when_stuck: end`), the phase's start is written too: the values kept that read the seat to act
dropped, and the phase's (empty) start entered only to say so in a trace.

The step also calls the action's effect itself (the name tests of `_perform`, written out: one
call less a move), and leaves out the tests of the end that the dependency analysis
(compiler/analysis/reads.py) answers: the end was tested after the effect and found not to hold; the
end of the turn's triggers that assign none of the fields it reads cannot make it hold, nor can a
phase's start that assigns none of them, where it does not read the seat to act (which a new turn
or phase changes). There the step does not test it again after the end of the turn, and starts
the phase without `_phase_started`'s test (`_start_phase` written out). The pass leaves those
tests out only where calling `_is_over` would do nothing else: where the end is kept (pass `keep_end`:
its value, not dropped, is returned as it is) or its code starts no budget of work of its own.

Why it is the same game: the written step does what the runtime's does, in the same order, with
the tests whose answer the compiler knows left out (each answered as the rule set's own tables,
`SUSPENDS`, `TURN_END_TRIGGERS`, `PHASE_STARTS` and `STUCK`, answer it for every move, or as the
fields the end reads and the turn's end and the phases' starts assign answer it); the effect, the
end and the triggers are the same calls. tests/test_optimiser.py plays every rule set with and
without it; tests/test_write_out_moves.py checks where it is written and where not.
"""

from __future__ import annotations

from dataclasses import replace

from ..analysis import Facts
from ..lowered import MoveStep, Program
from ..pyir import does_something


def run(program: Program, facts: Facts) -> Program:
    """The program with its step written out (`Program.move_step`): which tests of the end it
    leaves out is decided from what the end reads and what the end of the turn and the phases'
    starts assign, in the typed program lowered (`facts`), and from what lowering wrote (whether
    the end is kept, which rules start a budget of their own, which phases' starts do something)."""
    typed, found = facts.program, facts.dependencies
    end = found.end
    turn_end = found.writes(s for trig in typed.triggers if trig.at_turn_end for s in trig.effect)
    starts = found.writes(s for ph in typed.phases for s in ph.start)
    # whether the end of a turn, or a phase's start, can change what the end of the game reads (its
    # fields; for a start, the seat to act too): else the written step does not test the end again there
    end_after_turn_end = bool(turn_end & end.fields)
    end_after_start = end.volatile or bool(starts & end.fields)
    # where the end cannot have changed, the step leaves out a test only where `_is_over` would do nothing
    # else: after the end of the turn, and in a phase's start written out without `_phase_started` (whose
    # test of the end, or of a phase with nothing to play, is all it adds to `_enter_phase` there)
    quiet_end = bool(program.end_kept) or "end" not in program.resets
    phase_effects = any(does_something(p.start) for p in program.phases)
    stuck_end = any(p.stuck == "end" for p in program.phases)
    start_written = ((phase_effects or "start" in program.resets) and not stuck_end
                     and (not phase_effects or not end_after_start and quiet_end))
    # (whether a move can wait for a decision is the module's to say: the step is written or not)
    return replace(program, move_step=MoveStep(end_after_turn_end or not quiet_end, start_written))
