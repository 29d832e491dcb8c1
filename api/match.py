"""Playing games to the end: one game (`play_game`), batches of them (`run_batch`), their
statistics (`Summary`) and their logs.

Game `i` of a batch started with seed `S` is played from state seed `derive_seed(S, i)` by
random agents seeded `derive_seed(S, i) ^ 0x5EED`, so that any game of a batch can be played
again alone, and a batch gives the same results however it is split among processes.

A game log is JSON lines: a header `{"ruleset", "players", "seed", "options"}`, one line
`{"player": seat, "action": text}` per action (seats count from 0, as `State.to_act()`), and
`{"final": state.to_json()}`, the state the log ends at: a log without it was cut short (a
game that raised has none either: its last line is the action that raised). The header names
its rule set by bundled id or by rule file, relative to the log's folder: what a log says
never names a Python module (see `rulewright.load_named`).

Signals: `stop_on_signals()` turns SIGINT and SIGTERM into `Interrupted`, which no game code
catches; `run_batch` then ends its worker processes before the exception goes on. Workers
ignore SIGINT (a Ctrl-C reaches the whole process group: the parent ends them) and die on the
SIGTERM the parent sends; a Ctrl-C in the few milliseconds it takes to start them is lost
(see `_starting_workers`). Logs are written whole under a temporary name and renamed, so a
log file that exists is complete.
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import signal
import stat
import sys
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import IO, Any

from .agents import Agent, AgentSpec, RandomAgent, agent_seed, make_agents
from .agents.evaluate import standings
from .runtime.errors import RulewrightError
from .runtime.rng import derive_seed
from .runtime.state import Game, State
from .traces import GameTrace, summarise

DEFAULT_MAX_MOVES = 100_000


@dataclass(slots=True)
class GameResult:
    """How one game went. `scores` and `winners` are empty for a game that raised or was
    stopped by the move cap; `error` is the first line of the exception it raised."""

    index: int
    seed: int
    scores: list[int]
    winners: list[int]
    turns: int
    moves: int
    capped: bool = False
    error: str | None = None
    log: list[tuple[int, str]] = field(default_factory=list)  # (seat, action text), if recorded
    # each seat's return (`State.returns()`) of a finished game of a rule set declaring them (`returns:`)
    returns: list[float] | None = None
    final: dict[str, Any] | None = None  # state.to_json() at the end, if recorded
    # the game's course in a few numbers (api/traces.py), if asked (`trace`); None for a game that raised
    trace: GameTrace | None = None

    @property
    def finished(self) -> bool:
        return not self.capped and self.error is None


def play_game(
    game: Game,
    players: int | None,
    seed: int,
    options: Mapping[str, str] | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
    *,
    max_turns: int | None = None,
    agents: Mapping[int, Agent] | None = None,
    record: bool = False,
    index: int = 0,
    check_invariants: bool = False,
    trace: bool = False,
    lead: str = "",
) -> GameResult:
    """Play one game to its end (or to `max_moves` actions). Seats without an agent in
    `agents` are played by the random agent of this seed. Never raises for a fault of the
    game: the exception is reported in the result. `check_invariants`: the rule set's invariants
    are checked on the first position and after every move (BrokenInvariant names the move).
    `trace`: the legal actions before each move and the scores after it are recorded and summed
    up in the result's `trace` (api/traces.py), for `rulewright metrics`; `lead`: the name of a
    definition over one player recorded instead of the score (as an agent's `estimate=`)."""
    if not agents and not record and not check_invariants and not trace:
        # Every seat the random agent's, nothing recorded or checked: the loop below played by the
        # runtime (State.play_randomly: the same calls, compiled in the native build). A game that
        # raises is played again below, move by move, to tell the moves it made before the error.
        try:
            state = game.new_state(players, seed, options)
            state.play_randomly(RandomAgent(agent_seed(seed)).rng, max_moves, max_turns)
            if not state.terminal:
                return GameResult(index, seed, [], [], state.turn, state.moves, capped=True)
            scores = state.scores()
            return GameResult(index, seed, scores, state._winners(scores), state.turn, state.moves,
                              returns=_declared(state))
        except Exception:  # noqa: BLE001, S110 - played again below, where the error is reported
            pass
    default = RandomAgent(agent_seed(seed))
    chosen: Mapping[int, Agent] = agents or {}
    log: list[tuple[int, str]] = []
    legal: list[int] = []  # (trace) the legal actions before each move
    course: list[list[int]] = []  # (trace) the scores after each move
    first = 0
    turns = moves = 0
    try:
        state = game.new_state(players, seed, options)
        seat_agents = [chosen.get(p, default) for p in range(state.num_players)]
        first = state.to_act() or 0
        if check_invariants:
            _check_invariants(state, "the setup")
        while not state.terminal:
            if state.moves >= max_moves or (max_turns is not None and state.turn > max_turns):
                return GameResult(index, seed, [], [], state.turn, state.moves, capped=True, log=log,
                                  final=state.to_json() if record else None,
                                  trace=summarise(legal, course, [], first, game.lowest_score_wins, finished=False)
                                  if trace else None)
            player = state.to_act()
            assert player is not None
            if trace:
                legal.append(len(state.legal_actions()))
            choice = seat_agents[player].choose(state)  # (an index in the legal actions: api/agents/base.py)
            if record:  # (before the move: the log of a game that raised ends with the move that raised)
                log.append((player, str(state.action_at(choice))))
            action = state.play(choice)
            turns, moves = state.turn, state.moves
            if trace:
                course.append(standings(state, lead))
            if check_invariants:
                _check_invariants(state, f"move {state.moves} (`{action}` by {state.label('player', player)})")
        scores = state.scores()
        winners = state._winners(scores)
        return GameResult(index, seed, scores, winners, state.turn, state.moves, log=log,
                          final=state.to_json() if record else None, returns=_declared(state),
                          trace=summarise(legal, course, winners, first, game.lowest_score_wins) if trace else None)
    except Exception as exc:  # noqa: BLE001 - a faulty game is counted, not fatal
        message = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return GameResult(index, seed, [], [], turns, moves, error=message, log=log)


def _declared(state: State) -> list[float] | None:
    """The returns of a game over, where its rule set declares them (`returns:`); else None."""
    return state.returns() if state.RETURNS else None


class BrokenInvariant(RulewrightError):
    """A position reached in play breaks an invariant of its rule set (`invariants:`)."""


def _check_invariants(state: State, after: str) -> None:
    broken = state.broken_invariants()
    if broken:
        names = ", ".join(f"`{name}` ({state.game.info.rules.get(f'invariants.{name}', '?')})" for name in broken)
        raise BrokenInvariant(f"after {after}: the position breaks invariant {names}")


# -- batches -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BatchSpec:
    """What every game of a batch shares. `ruleset` is a bundled rule set, a generated module
    (.py, named by a person: it is imported) or a rule file (.yaml), compiled in memory."""

    ruleset: str
    players: int
    seed: int
    options: Mapping[str, str]
    max_moves: int = DEFAULT_MAX_MOVES
    record: bool = False
    max_turns: int | None = None  # a turn cap, beside the move cap (None: none)
    check_invariants: bool = False  # the rule set's invariants checked after every move
    # The seats' agents (seat from 0, spec), made anew for each game from its seed
    # (agents.make_agents); the seats not named are played by the random agent.
    agents: tuple[tuple[int, AgentSpec], ...] = ()
    trace: bool = False  # each game's course summed up (GameResult.trace, for `rulewright metrics`)
    lead: str = ""  # (trace) a definition over one player the lead is read from, rather than the score


_GAMES: dict[str, Game] = {}


def _game(ruleset: str) -> Game:
    """The game of a bundled rule set, a generated module (.py) or a rule file (.yaml)."""
    game = _GAMES.get(ruleset)
    if game is None:
        from .core.paths import RULE_FILE_SUFFIXES
        from .loading import load, load_module_file, load_rules

        if ruleset.endswith(RULE_FILE_SUFFIXES):
            game = load_rules(Path(ruleset))
        elif ruleset.endswith(".py"):
            game = load_module_file(Path(ruleset))
        else:
            game = load(ruleset)
        _GAMES[ruleset] = game
    return game


def play_range(spec: BatchSpec, start: int, stop: int, game: Game | None = None) -> list[GameResult]:
    """Games `start` to `stop - 1` of a batch, in order."""
    g = game or _game(spec.ruleset)
    seats = dict(spec.agents)
    results = []
    for i in range(start, stop):
        raise_if_interrupted()
        seed = derive_seed(spec.seed, i)
        results.append(play_game(g, spec.players, seed, spec.options, spec.max_moves, max_turns=spec.max_turns,
                                 agents=make_agents(seats, seed), record=spec.record, index=i,
                                 check_invariants=spec.check_invariants, trace=spec.trace,
                                 lead=spec.lead))
    return results


def _play_chunk(task: tuple[BatchSpec, int, int]) -> list[GameResult]:
    spec, start, stop = task
    return play_range(spec, start, stop)


def _worker_start(rulesets: Sequence[str] = ()) -> None:
    """In each worker: a Ctrl-C is the parent's to handle (it ends the workers); SIGTERM, the
    parent's way to end a worker, keeps its default action. The games of `rulesets` are loaded
    while the parent plays its timing game (a rule set that fails to load fails in the task)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for ruleset in rulesets:
        with contextlib.suppress(Exception):
            _game(ruleset)


POLL_SECONDS = 0.05  # how often the parent looks up from waiting for workers (for a signal)


TASK_SECONDS = 0.05  # the least work worth sending to another process
DASK_CONNECT_SECONDS = 3  # how long to try reaching a Dask scheduler before giving up


def chunk_ranges(first: int, games: int, workers: int, seconds_per_game: float) -> list[tuple[int, int]]:
    """Contiguous ranges covering games `first` to `games - 1`, in order, shrinking as they go
    (guided scheduling): each about a quarter of what is left per worker, so that the workers
    finish together, and worth TASK_SECONDS of play at least (one game at least). Which range
    a game falls in changes nothing in its result."""
    left = games - first
    if left <= 0:
        return []
    least = max(1, math.ceil(TASK_SECONDS / seconds_per_game)) if seconds_per_game > 0 else 1
    ranges: list[tuple[int, int]] = []
    start = first
    while start < games:
        size = max(least, (games - start) // (workers * 4))
        size = min(size, math.ceil(left / workers))
        ranges.append((start, min(start + size, games)))
        start += size
    return ranges


def run_batch(
    spec: BatchSpec,
    games: int,
    workers: int = 1,
    game: Game | None = None,
    *,
    dask: str | None = None,
) -> Generator[GameResult, None, None]:
    """Every game of a batch, in index order, played here, by `workers` processes or on the
    Dask cluster whose scheduler is at `dask` (see `run_batches`)."""
    batches = run_batches([spec], games, workers, [game], dask=dask)
    try:
        for _, result in batches:
            yield result
    finally:
        batches.close()


def run_batches(
    specs: Sequence[BatchSpec],
    games: int,
    workers: int = 1,
    loaded: Sequence[Game | None] | None = None,
    *,
    dask: str | None = None,
) -> Generator[tuple[int, GameResult], None, None]:
    """Games 0 to `games - 1` of each batch of `specs`, batch after batch, each in index order,
    as (the batch's place in `specs`, result); `loaded`: their games, if already loaded.

    Played here (one worker), by `workers` processes (started first, then game 0 of each
    batch is played here to time a game and size the tasks, `chunk_ranges`), or on the Dask
    cluster at `dask` (a scheduler address, tcp://host:8786: the same tasks, sized for the
    cluster's threads). A game's result depends on its batch and index only, never on who
    played it: the three give the same results.
    """
    given = list(loaded) if loaded is not None else [None] * len(specs)
    gs = [g if g is not None else _game(s.ruleset) for g, s in zip(given, specs, strict=True)]
    if dask is None and (workers <= 1 or games <= 1):
        for k, (spec, g) in enumerate(zip(specs, gs, strict=True)):
            for i in range(games):
                yield from ((k, r) for r in play_range(spec, i, i + 1, g))
        return
    with _runner(dask, workers, games - 1, [s.ruleset for s in specs]) as (submit, slots):
        firsts: list[GameResult] = []
        pending: list[tuple[int, Waiter]] = []
        for k, (spec, g) in enumerate(zip(specs, gs, strict=True)):
            started = time.perf_counter()
            firsts.extend(play_range(spec, 0, 1, g))
            per_game = time.perf_counter() - started
            pending.extend((k, submit((spec, a, b))) for a, b in chunk_ranges(1, games, slots, per_game))
            if k == 0:
                yield 0, firsts[0]
        shown = 0
        for k, wait in pending:
            while shown < k:  # the first game of the next batch, played here
                shown += 1
                yield shown, firsts[shown]
            yield from ((k, r) for r in _waited(wait))
        while shown < len(specs) - 1:
            shown += 1
            yield shown, firsts[shown]


Waiter = Callable[[float], list[GameResult]]  # the results of a task, waiting at most so many seconds


def _waited(wait: Waiter) -> list[GameResult]:
    """A task's results. A signal may reach any thread; a main thread blocked on a lock would
    not see it until the result (minutes away): wait in short steps instead."""
    while True:
        raise_if_interrupted()
        try:
            return wait(POLL_SECONDS)
        except (multiprocessing.TimeoutError, TimeoutError):
            continue


@contextlib.contextmanager
def _runner(dask: str | None, workers: int, tasks_at_most: int,
            rulesets: Sequence[str]) -> Iterator[tuple[Callable[[tuple[BatchSpec, int, int]], Waiter], int]]:
    """(submit a task, how many run at once): a process pool of `workers` or a Dask cluster.
    On leaving, normally or by an exception (Interrupted) or a generator's close, every worker
    process is ended, or the cluster's tasks cancelled."""
    if dask is not None:
        with _dask_client(dask) as client:
            executor = client.get_executor(pure=False)  # a task is played again, never looked up
            slots = max(1, sum(client.nthreads().values()))
            try:
                yield (lambda task: executor.submit(_play_chunk, task).result), slots
            finally:
                executor.shutdown(wait=False)  # cancels what is left
        return
    context = multiprocessing.get_context("spawn")  # no fork of a process that may run threads
    pool = None
    try:
        with _starting_workers(), _main_left_out():
            pool = context.Pool(max(1, min(workers, tasks_at_most)), initializer=_worker_start,
                                initargs=(tuple(dict.fromkeys(rulesets)),))
        started = pool
        yield (lambda task: started.apply_async(_play_chunk, (task,)).get), workers
    finally:
        if pool is not None:
            pool.terminate()


class DaskUnavailable(RulewrightError):
    """--dask without dask.distributed installed, or a scheduler that cannot be reached."""


@contextlib.contextmanager
def _dask_client(address: str) -> Iterator[Any]:
    """A client of the scheduler at `address`, closed on leaving. The scheduler is reached
    first with a bare connection (a Client that fails to connect would linger, then print a
    traceback as it is collected): anything that goes wrong there is one DaskUnavailable."""
    try:
        import asyncio

        import distributed
        from distributed.comm import core
    except ImportError:
        raise DaskUnavailable("--dask needs dask.distributed: pip install 'rulewright[experiments]'") from None

    connect: Any = core.connect  # untyped in distributed

    async def probe() -> None:
        comm = await connect(address, timeout=DASK_CONNECT_SECONDS)
        await comm.close()

    try:
        asyncio.run(probe())
        make: Any = distributed.Client  # untyped in distributed: called through Any
        client: Any = make(address, timeout=DASK_CONNECT_SECONDS, set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - whatever the address or the far end does, one line
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if isinstance(exc, MemoryError):  # a frame length read from whatever answered
            reason = "something answered, but not a Dask scheduler"
        raise DaskUnavailable(f"cannot use the Dask scheduler at {address}: {reason}") from None
    try:
        yield client
    finally:
        client.close()


@contextlib.contextmanager
def _main_left_out() -> Iterator[None]:
    """While worker processes are started: a spawned process runs the parent's main module again
    first (as `__mp_main__`, multiprocessing's "safe importing of main module"): for the
    `rulewright` command that is the whole command line (click, rich, every command), more than
    half of a worker's start-up. Workers need none of it (a task is `_play_chunk` and data):
    the main module's file and spec are hidden from multiprocessing meanwhile."""
    import sys

    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved: dict[str, Any] = {key: main.__dict__[key] for key in ("__file__", "__spec__") if key in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


@contextlib.contextmanager
def _starting_workers() -> Iterator[None]:
    """While worker processes are started (a few milliseconds: the pool does not wait for them
    to boot). They inherit SIGINT ignored (an ignored signal stays ignored through exec, and
    Python then installs no KeyboardInterrupt handler), so that a Ctrl-C while they boot
    prints no traceback: the parent ends them. A SIGTERM is held meanwhile and raised again
    once the pool exists, so that no worker is left unaccounted for; a Ctrl-C in this short
    window is lost. (Blocking signals instead is not reliable: starting a process resets the
    signal mask of the thread that starts it, in CPython 3.11.)"""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
    sigterm = signal.signal(signal.SIGTERM, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if sigint is None else sigint)
        signal.signal(signal.SIGTERM, signal.SIG_DFL if sigterm is None else sigterm)
    if held:
        signal.raise_signal(held[0])


# -- signals -----------------------------------------------------------------------------------
class Interrupted(BaseException):  # like KeyboardInterrupt: no `except Exception` catches it
    """SIGINT or SIGTERM arrived while `stop_on_signals()` was in force."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(self.name)

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a process ended by it (130, 143)."""
        return 128 + self.signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While in force, SIGINT and SIGTERM raise `Interrupted` in the main thread (once: a
    second signal during the clean-up that follows is ignored; where the first is lost in a
    finalizer, `raise_if_interrupted` raises it again). The previous handlers are put back on
    leaving. Does nothing outside the main thread."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal raised
        if not raised:
            raised = True
            _fired.append(signum)
            raise Interrupted(signum)

    hook = sys.unraisablehook

    def unraisable(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, Interrupted):
            hook(unraisable)
        # (else: lost in a finalizer, raised again by `raise_if_interrupted`: no traceback shown)

    signums = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.signal(s, handler) for s in signums}
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)
        sys.unraisablehook = hook
        _fired.clear()


# The signal that raised `Interrupted` while `stop_on_signals()` is in force. A handler's exception
# is lost where it lands in code run by the garbage collector (a finalizer, such as SQLAlchemy's
# for a connection that tune's study left: Python prints it and goes on): this keeps it.
_fired: list[int] = []


def raise_if_interrupted() -> None:
    """Raise `Interrupted` again if a signal raised it where it was lost (see `_fired`): called
    between games and between a batch's waits, so that a lost one stops the work there."""
    if _fired:
        raise Interrupted(_fired[0])


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held while inside, the first of them raised again on leaving: a few steps
    that belong together are not cut between them (`tune`: a trial asked for of the study, and
    named as this process's, or a signal there would leave it running for good). Does nothing
    outside the main thread."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    previous = {s: signal.signal(s, hold) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, signal.SIG_DFL if old is None else old)
    if held:
        signal.raise_signal(held[0])


# -- statistics --------------------------------------------------------------------------------
@dataclass(slots=True)
class Summary:
    """Running statistics of a batch; fed in index order, so the same games always give the
    same numbers. Wins, turns, moves and scores count finished games only: games stopped by
    the move cap and games that raised are counted apart (`capped`, `errors`)."""

    ruleset: str
    players: int
    seed: int
    options: dict[str, str]
    max_moves: int
    max_turns: int | None = None
    agents: list[str] = field(default_factory=list)  # each seat's agent spec (`random` if none named)
    games: int = 0
    finished: int = 0
    capped: int = 0
    errors: int = 0
    first_error: dict[str, Any] | None = None
    draws: int = 0
    wins: list[int] = field(default_factory=list)
    score_sums: list[int] = field(default_factory=list)
    return_sums: list[float] | None = None  # (a rule set declaring `returns:`) each seat's, summed
    turn_sum: int = 0
    turn_min: int | None = None
    turn_max: int | None = None
    move_sum: int = 0
    move_min: int | None = None
    move_max: int | None = None
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.wins = [0] * self.players
        self.score_sums = [0] * self.players
        if not self.agents:
            self.agents = ["random"] * self.players

    def add(self, result: GameResult) -> None:
        self.games += 1
        if result.error is not None:
            self.errors += 1
            if self.first_error is None:
                self.first_error = {"game": result.index, "seed": result.seed, "message": result.error}
            return
        if result.capped:
            self.capped += 1
            return
        self.finished += 1
        for p in result.winners:
            self.wins[p] += 1
        if len(result.winners) != 1:  # (no winner at all only by declared returns: a draw, every return the same)
            self.draws += 1
        for p, s in enumerate(result.scores):
            self.score_sums[p] += s
        if result.returns is not None:
            if self.return_sums is None:
                self.return_sums = [0.0] * self.players
            for p, r in enumerate(result.returns):
                self.return_sums[p] += r
        self.turn_sum += result.turns
        self.turn_min = result.turns if self.turn_min is None else min(self.turn_min, result.turns)
        self.turn_max = result.turns if self.turn_max is None else max(self.turn_max, result.turns)
        self.move_sum += result.moves
        self.move_min = result.moves if self.move_min is None else min(self.move_min, result.moves)
        self.move_max = result.moves if self.move_max is None else max(self.move_max, result.moves)

    def _mean(self, total: float) -> float | None:
        return round(total / self.finished, 3) if self.finished else None

    @property
    def games_per_sec(self) -> float:
        return round(self.games / self.seconds, 1) if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "max_moves": self.max_moves,
            "max_turns": self.max_turns,
            "agents": list(self.agents),
            "games": self.games,
            "finished": self.finished,
            "capped": self.capped,
            "errors": self.errors,
            "first_error": self.first_error,
            "wins_by_seat": list(self.wins),
            "draws": self.draws,
            "turns_mean": self._mean(self.turn_sum),
            "turns_min": self.turn_min,
            "turns_max": self.turn_max,
            "moves_mean": self._mean(self.move_sum),
            "moves_min": self.move_min,
            "moves_max": self.move_max,
            "scores_mean_by_seat": [self._mean(s) for s in self.score_sums],
            "games_per_sec": self.games_per_sec,
            # (a rule set declaring `returns:`, from its first game finished)
            **({"returns_mean_by_seat": [self._mean(r) for r in self.return_sums]}
               if self.return_sums is not None else {}),
        }


# -- logs --------------------------------------------------------------------------------------
def log_header(ruleset: str, players: int, seed: int, options: Mapping[str, str],
               log_path: Path | None = None) -> dict[str, Any]:
    """The header of a log: a rule file or module (`x.yaml`, `x.py`) is named relative to the
    folder of `log_path`, as `replay` reads it."""
    return {"ruleset": header_ruleset(ruleset, log_path), "players": players, "seed": seed,
            "options": dict(options)}


def header_ruleset(ruleset: str, log_path: Path | None) -> str:
    """`ruleset` as a log at `log_path` names it: an id as it is, a file relative to the log."""
    if log_path is None or not ruleset.endswith((".yaml", ".yml", ".py")):
        return ruleset
    target = os.path.abspath(ruleset)
    try:
        return Path(os.path.relpath(target, os.path.abspath(log_path.parent))).as_posix()
    except ValueError:  # another drive (Windows)
        return Path(target).as_posix()


class LogWriter:
    """Writes a game log line by line, flushed as it goes, so that an abandoned game keeps
    the moves played."""

    def __init__(self, path: Path, header: Mapping[str, Any]) -> None:
        self.path = path
        self._file: IO[str] = path.open("w", encoding="utf-8", newline="\n")
        self._line(dict(header))
        self._ends = [self._file.tell()]  # where the header and each action line end (`rewind`)

    def _line(self, data: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self._file.flush()

    def action(self, player: int, text: str) -> None:
        self._line({"player": player, "action": text})
        self._ends.append(self._file.tell())

    def rewind(self, actions: int) -> None:
        """Keep the header and the first `actions` action lines only (`play`'s undo)."""
        self._file.seek(self._ends[actions])
        self._file.truncate()
        self._file.flush()
        del self._ends[actions + 1:]

    def final(self, state_json: Mapping[str, Any]) -> None:
        self._line({"final": dict(state_json)})

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def write_log(path: Path, header: Mapping[str, Any], actions: Sequence[tuple[int, str]],
              final: Mapping[str, Any] | None) -> None:
    """Write a whole log at once: under a temporary name in the same folder, renamed to `path`
    when complete. Interrupted (even by a signal), it leaves no file at `path` and removes the
    temporary one; only a hard kill (SIGKILL) can leave a `.<name>.<pid>.tmp` behind."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with LogWriter(temporary, header) as log:
            for player, text in actions:
                log.action(player, text)
            if final is not None:
                log.final(final)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


# -- reading files from outside ----------------------------------------------------------------
class RefusedFile(OSError):
    """A path refused before it is read: a FIFO, a device, a socket or a folder where a file
    is expected, or a file larger than the limit."""


def open_regular(path: Path, limit: int | None = None, what: str = "file") -> IO[bytes]:
    """`path` opened for reading bytes, only if it is a regular file (of at most `limit`
    bytes): never blocks on a FIFO or reads a device. Raises FileNotFoundError, PermissionError
    or RefusedFile (its message says what the path is)."""
    from .core.files import SAFE_OPEN_FLAGS, file_kind

    fd = os.open(path, SAFE_OPEN_FLAGS)  # non-blocking: opening a FIFO does not wait for a writer
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise RefusedFile(f"not a {what}: it is {file_kind(mode)}")
        size = os.fstat(fd).st_size
        if limit is not None and size > limit:
            raise RefusedFile(f"{what} too large: {size:,} bytes, more than the limit of {limit:,}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def first_difference(expected: Any, got: Any, where: str = "") -> str | None:
    """Where two JSON values first differ (`fields.gold[1]: log has 3, replay has 4`), or None."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in list(expected) + [k for k in got if k not in expected]:
            path = f"{where}.{key}" if where else str(key)
            if key not in got:
                return f"{path}: in the log, not in the replayed state"
            if key not in expected:
                return f"{path}: in the replayed state, not in the log"
            found = first_difference(expected[key], got[key], path)
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list):
        for i, (a, b) in enumerate(zip(expected, got, strict=False)):
            found = first_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        if len(expected) != len(got):
            return f"{where}: the log has {len(expected)} items, the replay {len(got)}"
        return None
    if expected != got or type(expected) is not type(got):
        return f"{where or 'state'}: the log has {json.dumps(expected)}, the replay {json.dumps(got)}"
    return None

