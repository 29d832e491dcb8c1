"""Where the time of random playouts goes, by rule line: `rulewright bench --profile`.

A sampling profiler. A timer (`signal.setitimer(ITIMER_REAL)`) interrupts the playouts every
`INTERVAL` seconds; its handler notes the stack it interrupted, the code and line of each frame, and
nothing more (sampled, the games run at about 0.92 of their speed). The process's CPU-time timer
(ITIMER_PROF) would be the natural one, but Linux advances it by the kernel's tick (4 ms here: a
quarter of the samples asked). A wall-clock sample is as fair for a single-threaded playout that
never waits: when the process was off the CPU, the signal is taken where it resumes, a point as
random as any but for a system call (the scheduler takes the CPU back at their return); the
playouts make none, and the sampling loop reads the wall clock (a vDSO call), not the CPU clock (a
system call), to stop.

Afterwards each generated line is read as its rule line: generated code ends every line made from
a rule with a comment naming it (`# base.yaml:112`) and opens every method with its rule
(`# rules/x/base.yaml:104: pick`), the map runtime/faults.py reads for the errors of rules; a line
without a comment is its block's or method's.

Sampling rather than tracing: `sys.settrace`'s line events (and `sys.monitoring`'s, Python 3.12+)
cost the same for a cheap line as for a dear one, so they make cheap lines look dear and slow the
game many times over; cProfile times functions, and one generated method holds many rule lines.
Python runs a signal's handler between bytecodes of the frame running then, so a sample taken inside
a function written in C (`sorted`, `any`, a set's union) counts for the line that called it, which is
where its cost belongs. A share is a count of samples: with n samples its error is about
sqrt(share × n) / n (at 1,000 samples a 10 % share is ±1 %).

Interpreted code only: the native build's compiled functions have no Python frames to sample.
"""

from __future__ import annotations

import linecache
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from .match import play_game
from .runtime import rng as rng_module
from .runtime.faults import _RULE_LINE, _comment_at, _full
from .runtime.rng import derive_seed
from .runtime.state import Game, State

INTERVAL = 0.001  # seconds between samples
HEADER_LINES = 6  # lines after a method's `def` in which its opening comment is looked for
RULE_TEXT = 200  # characters of a rule line's text kept at most

# The parts of the time, as `Profile.parts` names them.
RULES = "rule lines (generated code)"
RUNTIME_OF_RULES = "runtime, called by rule lines"
RUNTIME_OF_MOVES = "runtime, the rest (the moves' machinery, setup)"
AGENT = "agent loop (random choices)"
OTHER = "other (the playout's harness)"

Frame = tuple[CodeType, int]


class ProfileUnavailable(Exception):
    """This platform has no interval timer to sample with."""


class PlayoutFailed(Exception):
    """A random game raised (the message says which, and the error)."""


@dataclass
class LineShare:
    """The share of the samples at one rule line: its own code (`self_`, builtins it calls
    included), the runtime functions it calls (`runtime`), and everything under it (`total`: the
    rule lines it calls too), each a fraction of all samples."""

    where: str  # `rules/x/base.yaml:112`, or `(compiler-made) method` for code of no rule line
    text: str  # the rule line's text, stripped and cut; "" for compiler-made code
    self_: float = 0.0
    runtime: float = 0.0
    total: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "rule": self.text, "self_pct": _pct(self.self_),
                "runtime_pct": _pct(self.runtime), "total_pct": _pct(self.total)}


@dataclass
class Profile:
    samples: int
    cpu_seconds: float
    playouts: int
    moves: int
    parts: dict[str, float]  # fractions of all samples, by the names above
    lines: list[LineShare]  # by self_ + runtime, dearest first
    runtime_functions: list[tuple[str, float]] = field(default_factory=list)  # self time, dearest first

    def to_json(self) -> dict[str, Any]:
        return {"samples": self.samples, "interval_ms": INTERVAL * 1000, "cpu_seconds": round(self.cpu_seconds, 3),
                "playouts": self.playouts, "moves": self.moves,
                "parts_pct": {name: _pct(share) for name, share in self.parts.items()},
                "lines": [line.to_json() for line in self.lines],
                "runtime_functions": [{"function": name, "self_pct": _pct(share)}
                                      for name, share in self.runtime_functions]}


def _pct(share: float) -> float:
    return round(share * 100, 1)


def available() -> bool:
    return hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")


def sample_playouts(game: Game, players: int, seconds: float, options: Mapping[str, str] | None = None
                    ) -> tuple[Counter[tuple[Frame, ...]], int, int, float]:
    """Random playouts of `game` (seeds derive_seed(0, 0), derive_seed(0, 1), ..., as `bench`
    plays them) for `seconds` at least (one playout at least), sampled: the stacks
    seen (innermost frame first, up to this function), the playouts, their moves and the CPU time."""
    if not available():
        raise ProfileUnavailable("--profile needs an interval timer (signal.setitimer), which this platform lacks")
    if threading.current_thread() is not threading.main_thread():
        raise ProfileUnavailable("playouts are sampled on the main thread only (where Python runs signal handlers)")
    # The stacks counted by the identities of their code objects (hashing a code object reads all of
    # it), so that the memory grows with the stacks seen, not with the samples.
    taken: Counter[tuple[tuple[int, int], ...]] = Counter()
    codes: dict[int, CodeType] = {}
    here = sys._getframe()

    def take(signum: int, frame: FrameType | None) -> None:
        if frame is not None and frame.f_code is take.__code__:
            return  # (a signal come while the handler ran, off the CPU: a sample of the sampler)
        stack = []
        while frame is not None and frame is not here:
            code = frame.f_code
            if id(code) not in codes:
                codes[id(code)] = code
            stack.append((id(code), frame.f_lineno or 0))
            frame = frame.f_back
        taken[tuple(stack)] += 1

    playouts = moves = 0
    previous = signal.signal(signal.SIGALRM, take)
    # (the loop reads the wall clock, as `bench` does: the CPU clock is a system call, at whose return
    # a busy machine's scheduler takes the CPU away, so that the samples pending meanwhile fell on
    # this loop: 15 % of them at a load average of 12)
    started, clock = time.process_time(), time.perf_counter()
    armed = signal.setitimer(signal.ITIMER_REAL, INTERVAL, INTERVAL)  # (a timer already set is set again below)
    try:
        while True:
            result = play_game(game, players, derive_seed(0, playouts), options)
            if result.error:
                raise PlayoutFailed(f"random game {playouts} (seed {result.seed}) raised {result.error}")
            playouts += 1
            moves += result.moves
            if time.perf_counter() - clock >= seconds:
                break
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, previous)
        if armed[0] > 0:  # (whoever had set it, a test's timeout: its alarm comes, late at worst by a sample)
            signal.setitimer(signal.ITIMER_REAL, max(armed[0] - (time.perf_counter() - clock), INTERVAL), armed[1])
    cpu = time.process_time() - started
    stacks: Counter[tuple[Frame, ...]] = Counter()
    for stack, n in taken.items():
        stacks[tuple((codes[code], line) for code, line in stack)] += n
    return stacks, playouts, moves, cpu


def generated_files(game: Game) -> set[str]:
    """The file names of the generated code of `game`'s state class (a variant's and its base's)."""
    runtime = State.__module__.rsplit(".", 1)[0] + "."
    modules = {c.__module__ for c in game.state_class.__mro__ if not c.__module__.startswith((runtime, "builtins"))}
    return {name for m in modules if (name := getattr(sys.modules.get(m), "__file__", None))}


def profile(game: Game, players: int, seconds: float, options: Mapping[str, str] | None = None,
            rule_files: Iterable[Path] = ()) -> Profile:
    """The profile of `seconds` of random playouts of `game`; `rule_files` are the rule set's
    files, read for the text of its lines (as `game.info.files` names them, through `display`)."""
    stacks, playouts, moves, cpu = sample_playouts(game, players, seconds, options)
    return attribute(stacks, game, playouts, moves, cpu, rule_files)


def attribute(stacks: Counter[tuple[Frame, ...]], game: Game, playouts: int, moves: int, cpu: float,
              rule_files: Iterable[Path] = ()) -> Profile:
    """The samples `stacks` told by rule line, runtime function and part."""
    from .core.paths import display

    files: tuple[str, ...] = game.info.files
    generated = generated_files(game)
    rng_file = rng_module.__file__ or ""
    runtime_dir = os.path.dirname(rng_file) + os.sep
    play_randomly = State.play_randomly.__code__
    texts = {display(p): p for p in rule_files}
    lines_of: dict[str, list[str]] = {}
    keys: dict[Frame, str] = {}
    shown: dict[str, str] = {}

    def key_of(code: CodeType, line: int) -> str:
        found = keys.get((code, line))
        if found is None:
            where = _comment_at(code.co_filename, line, code.co_firstlineno, files) or _header(code, files)
            # (code of no rule line: the compiler's own, by its method: `_do`, `_legal`, not a comprehension's name)
            method = code.co_qualname.split(".<locals>")[0].rpartition(".")[2]
            found = keys[(code, line)] = where or f"(compiler-made) {method}"
            if found not in shown:
                shown[found] = rule_text(where) if where else ""
        return found

    def rule_text(where: str) -> str:
        name, _, number = where.rpartition(":")
        if name not in lines_of:
            path = texts.get(name) or texts.get(_full(name, tuple(texts)))
            try:
                lines_of[name] = path.read_text(encoding="utf-8").splitlines() if path else []
            except (OSError, UnicodeDecodeError):
                lines_of[name] = []
        text = lines_of[name]
        n = int(number)
        said = " ".join(text[n - 1].split()) if 0 < n <= len(text) else ""
        return said if len(said) <= RULE_TEXT else said[:RULE_TEXT - 1] + "…"

    total = sum(stacks.values()) or 1
    self_: Counter[str] = Counter()
    runtime: Counter[str] = Counter()
    under: Counter[str] = Counter()
    parts: Counter[str] = Counter()
    functions: Counter[str] = Counter()
    for stack, n in stacks.items():
        inner_rule: str | None = None
        seen = set()
        for code, line in stack:
            if code.co_filename in generated:
                key = key_of(code, line)
                inner_rule = inner_rule or key
                seen.add(key)
        for key in seen:
            under[key] += n
        if not stack:  # (the sampler's own loop, between playouts)
            parts[OTHER] += n
            continue
        code = stack[0][0]
        if code.co_filename in generated:
            parts[RULES] += n
            self_[inner_rule or ""] += n
        elif code is play_randomly or (code.co_filename == rng_file and len(stack) > 1
                                       and stack[1][0] is play_randomly):
            parts[AGENT] += n
        elif code.co_filename.startswith(runtime_dir):
            functions[f"{_runtime_path(code.co_filename, runtime_dir)}:{code.co_firstlineno} "
                      f"{code.co_qualname}"] += n
            if inner_rule is not None:
                parts[RUNTIME_OF_RULES] += n
                runtime[inner_rule] += n
            else:
                parts[RUNTIME_OF_MOVES] += n
        else:
            parts[OTHER] += n
    lines = [LineShare(key, shown.get(key, ""), self_[key] / total, runtime[key] / total, under[key] / total)
             for key in under]
    lines.sort(key=lambda s: (-(s.self_ + s.runtime), -s.total, s.where))
    return Profile(
        samples=sum(stacks.values()), cpu_seconds=cpu, playouts=playouts, moves=moves,
        parts={name: parts[name] / total for name in (RULES, RUNTIME_OF_RULES, RUNTIME_OF_MOVES, AGENT, OTHER)},
        lines=lines,
        runtime_functions=sorted(((name, n / total) for name, n in functions.items()), key=lambda f: (-f[1], f[0])),
    )


def _header(code: CodeType, files: tuple[str, ...]) -> str | None:
    """The rule of the method of `code` by the comment opening its body (`# rules/x/base.yaml:104: pick`):
    for a sample at its `def` line (a call being made), above the first commented line."""
    for n in range(code.co_firstlineno + 1, code.co_firstlineno + HEADER_LINES):
        text = linecache.getline(code.co_filename, n).strip()
        if text.startswith("#"):
            match = _RULE_LINE.search(text)
            return _full(match.group(1), files) + ":" + match.group(2) if match else None
    return None


def _runtime_path(filename: str, runtime_dir: str) -> str:
    return "runtime/" + filename[len(runtime_dir):].replace(os.sep, "/")
