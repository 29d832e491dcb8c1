"""How a finished game's rule set plays, for the web board (docs/web.md, "Playing together").

A game played in the browser is one sample; a designer playtesting a variant wants to know how
the variant plays against what it changes. `compare_plan` says what to compare a game's rule set
with (its base, its default options, or its first variant) and the `rulewright compare` command
that does it over hundreds of paired games; `run_compare` plays a small, bounded comparison of
the same plan in the server itself (COMPARE_GAMES pairs, random agents, one at a time in all:
api/web.py), and gives `compare`'s own verdict lines, with intervals as wide as so few games
make them. The rule sets compared are names the server offers, never a name from a request.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from shlex import quote as sh
from typing import Any

from .runtime.errors import RulewrightError
from .terminal import printable

COMPARE_GAMES = 100  # pairs a finished game's page may play in the server (the command plays 200 or more)
COMPARE_SEED = 0  # the seeds of the pairs: derive_seed(COMPARE_SEED, i), as `compare`'s default
COMPARES_KEPT = 8  # comparisons played and kept to be shown again (the oldest one finished goes first)


@dataclass(frozen=True)
class ComparePlan:
    """What a finished game's rule set is compared with: A and B (names the server offers), the
    players, the options of both sides and of B only, the command, and what it compares in words."""

    command: str
    why: str
    a: str = ""
    b: str = ""
    players: int = 0
    options: tuple[str, ...] = ()  # NAME=VALUE of both sides
    options_b: tuple[str, ...] = ()  # NAME=VALUE of B only

    @property
    def key(self) -> tuple[str, str, int, tuple[str, ...], tuple[str, ...]]:
        return self.a, self.b, self.players, self.options, self.options_b


def compare_plan(name: str, info: Any, players: int, options: Mapping[str, str],
                 rulesets: Sequence[str]) -> ComparePlan:
    """How a game's rule set plays against its base (a variant), or with this game's options
    against the default ones, or (a base played with its defaults) against its first variant;
    no plan (`command` empty) when there is nothing to compare it with."""
    changed = {o.name: options[o.name] for o in info.options if o.name in options and options[o.name] != o.default}
    pairs = tuple(f"{k}={v}" for k, v in changed.items())
    if info.variant != "base":
        shared = "".join(f" --option {sh(p)}" for p in pairs)
        return ComparePlan(f"rulewright compare {sh(info.id)} {sh(name)} --players {players}{shared} -n 200",
                           f"{name} against its base, {info.id}, on the same 200 seeds",
                           info.id, name, players, pairs)
    if changed:
        flags = "".join(f" --option-b {sh(p)}" for p in pairs)
        return ComparePlan(f"rulewright compare {sh(name)} --players {players}{flags} -n 200",
                           f"{name} with this game's options against its default ones, on the same 200 seeds",
                           name, name, players, (), pairs)
    variants = [r for r in rulesets if r.startswith(f"{info.id}/")]
    if variants:
        return ComparePlan(f"rulewright compare {sh(name)} {sh(variants[0])} --players {players} -n 200",
                           f"{name} is a base rule set: this compares it with its variant {variants[0]} "
                           f"(its variants: {', '.join(variants)})", name, variants[0], players)
    return ComparePlan("", f"{name} is a base rule set played with its default options: there is nothing to "
                           "compare it with")


@dataclass
class CompareRun:
    """A comparison the server plays (`run_compare`): how far it is, then `compare`'s verdict lines
    (or why it could not be played)."""

    plan: ComparePlan
    games: int = COMPARE_GAMES
    played: int = 0
    lines: list[str] | None = None
    error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def done(self) -> bool:
        return self.lines is not None or self.error is not None

    def to_json(self) -> dict[str, Any]:
        with self.lock:
            state = "failed" if self.error is not None else "done" if self.lines is not None else "playing"
            return {"state": state, "what": self.plan.why.replace("200", str(self.games)), "played": self.played,
                    "of": 2 * self.games, "lines": list(self.lines or []), "error": self.error,
                    "command": self.plan.command}


def run_compare(run: CompareRun) -> None:
    """Play `run`'s plan as `rulewright compare` plays it (random agents, one process) and keep
    its verdict lines; an error (the `experiments` extra missing, a game that raised) is kept in
    one line, never raised: this runs in a worker of the server."""
    from . import compare as cmp
    from .commands.compare import compare_sides
    from .commands.shared import CliError
    from .match import DEFAULT_MAX_MOVES

    plan = run.plan

    def advance() -> None:
        with run.lock:
            run.played += 1

    try:
        cmp.need("statistics")
        loaded, count, resolved, changed = compare_sides(plan.a, plan.b, plan.players, plan.options, (),
                                                         plan.options_b)
        sides = tuple(cmp.Side(side, ruleset, resolved[k], {}, changed[k])
                      for k, (side, ruleset) in enumerate((("A", plan.a), ("B", plan.b))))
        comparison = cmp.run((sides[0], sides[1]), (loaded[0], loaded[1]), count, run.games, seed=COMPARE_SEED,
                             alpha=0.05, max_moves=DEFAULT_MAX_MOVES, max_turns=None, workers=1, dask=None,
                             advance=advance)
        lines = [f"A: {sides[0].label}; B: {sides[1].label}; {run.games} games each on the same seeds"]
        lines += [str(m["verdict"]) for m in comparison.measures]
        lines.append(cmp.significant_line(comparison))
        with run.lock:
            run.lines = [printable(line, 400) for line in lines]
    except (RulewrightError, CliError) as exc:
        with run.lock:
            run.error = printable(str(exc), 400)
    except Exception as exc:  # noqa: BLE001 - a worker's failure is said on the page, not lost
        with run.lock:
            run.error = printable(f"{type(exc).__name__}: {exc}", 400)
