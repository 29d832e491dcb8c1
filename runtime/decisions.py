"""Sub-decisions: an effect hands a decision to a seat, and goes on where it was once it is made.

A rule that can wait for a decision (`ask p to choose side in sides:`, or a call of a procedure
that asks) is generated as a generator: it yields an `Ask` (the seat, the choice's name, the
items to choose among) and is sent back a tuple to walk: `(choice,)` once the seat has chosen,
`()` when there is nothing to choose (the body of the `ask` is then skipped). Rules that ask
call one another with `yield from`, so a decision can be asked at any depth: in a loop, in a
procedure called by a trigger after an action, at a phase's start, during the setup.

The state runs a move of such a rule set as steps (`run`): until the move is over or a seat
must decide. Then the state holds the interrupted move as a `Pending`: the live steps and the
question; `to_act()` is the seat asked, `legal_actions()` its answers, and `apply(answer)` goes
on. So that a state can be copied, saved and restored mid-way, the pending move is also kept
as data: the state as the move began, and the move and each answer since, as text. Replaying
them on that state gives the same steps at the same point, since every chance is drawn from the
state's own generator: that is how `clone()` and `state_from_json()` rebuild it.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .errors import GameError

if TYPE_CHECKING:
    from .state import Action, State

# What a move said of the phase after it (State.next_phase): nothing (the phase's `then:`, or
# the end of the turn), or `end_turn` (the end of the turn, whatever `then:` says); else a phase.
NO_GOTO: Final = -1
END_TURN: Final = -2

# What a rule that can ask is: it yields questions and is sent back what to walk.
Steps = Generator["Ask", tuple[Any, ...], None]


class Ask:
    """A question: the seat that decides, the choice's name (its answers' text starts with it),
    the items to choose among, and the rule line that asks."""

    __slots__ = ("seat", "name", "choices", "where")

    def __init__(self, seat: int, name: str, choices: Iterable[Any], where: str) -> None:
        self.seat = seat
        self.name = name
        self.choices = tuple(choices)
        self.where = where


@dataclass(slots=True)
class Pending:
    """A move waiting for a decision."""

    steps: Steps  # what remains of the move, live
    ask: Ask  # the question now
    before: State | None  # the state as the move began (None: the setup of a new game asks)
    played: list[str]  # the move and each answer given since, as text
    # A sample of the unseen (runtime/unseen.py) waiting for a decision: how to make it again,
    # which a copy of it does (playing the move again from `before` would give back what the
    # sample drew again).
    resample: Callable[[], State] | None = None


def run(state: State, steps: Steps, before: State | None, played: list[str],
        answer: tuple[Any, ...] | None = None, move: Action | None = None,
        began: Callable[[], State] | None = None) -> None:
    """Run `steps` (sent `answer` first, if given) until they end, or until a seat must choose
    among at least one item: then the state's pending move is that question. A question with
    nothing to choose is answered at once with nothing: its body is skipped. `move`: the action
    whose steps these are, written into `played` only if it waits (most moves never do; an
    action's text reads only its arguments and the rule set's names, never the state's fields).
    `began`: makes `before` once the move waits, if it was not made before the move (State.JOURNAL)."""
    try:
        ask = steps.send(answer) if answer is not None else next(steps)
        while True:
            if not 0 <= ask.seat < state.num_players:
                raise GameError(ask.where, f"`ask` names seat {ask.seat + 1}, who is not a player "
                                           f"(players 1 to {state.num_players})")
            if ask.choices:
                break
            ask = steps.send(())
    except StopIteration:
        state._pending = None
        return
    if move is not None:
        played.append(str(move))
    if began is not None:
        before = began()
    state._pending = Pending(steps, ask, before, played)


def move(state: State, action: Action) -> Steps:
    """One move, as steps: the action's effect, its triggers, the next phase or the end of the
    turn and the next turn's start (State._do, for rule sets whose rules can ask)."""
    state.next_phase = NO_GOTO
    if action.name != "pass":
        yield from state._perform(action) or ()
    yield from after_move(state)


def together(state: State, chosen: dict[int, Action]) -> Steps:
    """The move of a simultaneous phase once every seat has chosen, as steps: each seat's action in
    seat order, with `deciding` that seat, then what follows a move (State._choose)."""
    state.next_phase = NO_GOTO
    try:
        for seat in sorted(chosen):
            action = chosen[seat]
            state._simul_seat = seat
            state._derived = None
            state._seat_changed()
            if action.name != "pass":
                yield from state._perform(action) or ()
    finally:
        state._simul_seat = -1
    state._derived = None
    state._seat_changed()
    yield from after_move(state)


def after_move(state: State) -> Steps:
    """What follows a move's effect: the end, the next phase or the end of the turn, and the next
    turn's start."""
    if state._is_over():
        state.terminal = True
        return
    if state.next_phase >= 0:
        state.phase = state.next_phase
        state.next_phase = NO_GOTO
        yield from start_phase(state)
        if state.next_phase != END_TURN or state.terminal:
            return
        # the phase's start said `end_turn`: the turn ends without it (docs/language.md)
    yield from state._turn_end() or ()
    if state.TURN_END_TRIGGERS and state._is_over():
        state.terminal = True
        return
    state._next_turn()
    yield from start_phase(state)


def start_phase(state: State) -> Steps:
    """A phase's start, as steps (State._start_phase)."""
    state._legal_cache = None
    state._derived = None  # a new phase, perhaps a new seat to act: derived values are computed again
    yield from state._enter_phase() or ()
    state._phase_started()


def new_game(state: State) -> Steps:
    """The setup's effects and the first phase's start, as steps (after every field's init)."""
    yield from state._prepare() or ()
    yield from start_phase(state)


def answer(state: State, pending: Pending, action: Action) -> None:
    """The seat asked has chosen: the move goes on from where it waited."""
    pending.played.append(str(action))
    state._pending = None
    run(state, pending.steps, pending.before, pending.played, (action.args[0],))
    if pending.resample is not None and state._pending is not None:  # a sample: its copies too
        state._pending.resample = _then(pending.resample, str(action))


def _then(make: Callable[[], State], text: str) -> Callable[[], State]:
    def again() -> State:
        state = make()
        state.apply(text)
        return state
    return again


def rebuilt(state: State) -> State:
    """A copy of a state whose move waits for a decision: the state as the move began, with the
    move and the answers since played again (the live steps of a generator cannot be copied)."""
    pending = state._pending
    assert pending is not None
    if pending.resample is not None:
        return pending.resample()
    if pending.before is None:
        copy = state.game.new_state(state.num_players, state.seed, state.options)
    else:
        copy = pending.before.clone()
    for text in pending.played:
        copy.apply(text)
    return copy
