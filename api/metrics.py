"""The standard measures of a game from simulated play (`rulewright metrics`, docs/experiments.md
"Metrics"), each with its interval: seat balance, completion and draws, length, decisiveness,
drama, lead changes, branching and, when asked, how much a stronger agent wins against random.

`measure()` plays `games` games (game i from seed `derive_seed(seed, i)`, as `simulate` does:
the same games on one worker, many or a Dask cluster), each with its course summed up where it
is played (api/traces.py), and estimates every measure over them: a rate with its Wilson score
interval, a mean of per-game values with its bootstrap interval (api/compare.py's functions,
resampling seeded from `seed`), so that the same arguments give the same `Metrics`, byte for
byte in `to_json()`. A measure that does not apply is nan with a note saying why (a game whose
score shows no leader before its end has no decisiveness), never a made-up value.

The measures, in this fixed order (`MEASURES`; `rulewright tune --target` names them):
    win_rate.P1 ... win_rate.PN, first_player_advantage, first_player_win, balance,
    completion, draws, length, length_median, turns, decisiveness, drama, lead_changes,
    branching, strength (only when asked)

numpy and scipy are needed (`pip install 'rulewright[experiments]'`), as for `compare`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .agents import AgentSpec, BadAgent, check_agents, check_estimate, parse_agent_spec
from .compare import BCA_AT_MOST, DIGITS, RESAMPLES, _batch, _rng, balance_of, mean_interval, need, wilson
from .match import DEFAULT_MAX_MOVES, BatchSpec, GameResult, run_batches
from .runtime.errors import RulewrightError
from .traces import BINS

if TYPE_CHECKING:
    from .runtime.state import Game

NAN = math.nan
GAMES_AT_MOST = 1_000_000  # games of one measurement (the CLI's -n is bounded by it too)
WORKERS_AT_MOST = 256  # processes (--workers)

# the intervals, by the word a note names them with (Metrics.to_json()'s "methods")
METHODS = {
    "Wilson": "Wilson score interval of a proportion (scipy's binomtest)",
    "bootstrap": f"bootstrap interval of the mean over games: BCa up to {BCA_AT_MOST} games, percentile beyond, "
                 f"{RESAMPLES} resamples seeded from the seed",
    "percentile": f"percentile bootstrap interval over games, {RESAMPLES} resamples seeded from the seed",
}


class BadMeasurement(RulewrightError):
    """Arguments of `measure()` that name no playable setting: an unknown option or choice, a
    player count the rule set does not allow, a bad agent spec, a number out of its range."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """One measure: its value and interval at the measurement's confidence (nan when it does
    not apply), the games it is measured over, and a note (why nan, or the method)."""

    value: float
    low: float
    high: float
    games: int
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"value": _json(self.value), "low": _json(self.low), "high": _json(self.high), "games": self.games,
                "note": self.note}


def _json(x: float) -> float | None:
    """A number as JSON holds it: rounded; None for nan (JSON has no NaN)."""
    return None if math.isnan(x) else round(x, DIGITS) + 0.0


@dataclass(frozen=True, slots=True)
class Metrics:
    """The measures of a rule set's play (`measure()`), by name in the order of `names()`."""

    ruleset: str
    options: Mapping[str, str]  # all, resolved
    players: int
    games: int
    seed: int
    confidence: float
    estimates: Mapping[str, Estimate]
    agents: Mapping[int, str] = field(default_factory=dict)  # seat (from 0) -> spec; random elsewhere
    strength_agent: str | None = None
    max_moves: int = DEFAULT_MAX_MOVES
    lead: str | None = None  # the definition the lead is read from (None: the score)
    finished: int = 0
    capped: int = 0
    errors: int = 0
    first_error: Mapping[str, Any] | None = None
    # the curves over the game, each BINS values (nan where no game had a move there): the mean
    # legal actions, and the share of positions where the eventual winner leads by score
    branching_curve: tuple[float, ...] = ()
    lead_curve: tuple[float, ...] = ()
    lengths: tuple[int, ...] = ()  # the moves of each finished game, in game order (the histogram)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "options": dict(self.options),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "confidence": self.confidence,
            "agents": {str(seat + 1): spec for seat, spec in sorted(self.agents.items())},
            "strength_agent": self.strength_agent,
            "max_moves": self.max_moves,
            "lead": self.lead,
            "finished": self.finished,
            "capped": self.capped,
            "errors": self.errors,
            "first_error": dict(self.first_error) if self.first_error is not None else None,
            "estimates": {name: e.to_json() for name, e in self.estimates.items()},
            "methods": dict(METHODS),
            "curves": {"bins": BINS, "branching": [_json(x) for x in self.branching_curve],
                       "winner_leads": [_json(x) for x in self.lead_curve]},
        }


def names(players: int, strength: bool = False) -> list[str]:
    """The measures' names, in their fixed order."""
    return ([f"win_rate.P{p + 1}" for p in range(players)]
            + ["first_player_advantage", "first_player_win", "balance", "completion", "draws", "length",
               "length_median", "turns", "decisiveness", "drama", "lead_changes", "branching"]
            + (["strength"] if strength else []))


MEASURES = tuple(names(2, True))  # (for two players; `names(players)` for others)


def check_lead(game: Game, lead: str, shown: str) -> None:
    """Refuse (BadAgent) a `--lead` that is not a definition of the rule set over one player giving
    a number, naming the rule set as `shown` (the command line's words)."""
    check_estimate(game, lead, use="to read the lead from", what="a lead", shown=shown)


def measure(ruleset: str, *, options: Mapping[str, str] | None = None, players: int | None = None,
            games: int = 200, seed: int = 0, agents: Mapping[int, AgentSpec] | None = None,
            workers: int = 1, dask: str | None = None, confidence: float = 0.95,
            strength: str | None = None, max_moves: int = DEFAULT_MAX_MOVES, lead: str | None = None,
            game: Game | None = None, advance: Callable[[], None] | None = None) -> Metrics:
    """Play `games` games of `ruleset` (a bundled id or a rule file, as `simulate` takes) and
    estimate every measure. `options`: the rule options set (the others take their defaults);
    `agents`: seat (from 0) -> agent spec, random elsewhere; `strength`: an agent spec (`greedy`,
    `mcts:iterations=200`) played in each seat in turn against random others, ceil(games /
    players) games per seat, for the measure `strength`; None leaves it out. `lead`: the name of
    a definition of the rule set over one player that the lead is read from instead of the score
    (as an agent's `estimate=`: Yellow & Yangtze's `level`). `game`: the rule set already loaded;
    `advance`: called after each game played (a progress bar)."""
    need("statistics", "metrics")
    from .match import _game

    for name, value, least, most in (("games", games, 1, GAMES_AT_MOST), ("workers", workers, 1, WORKERS_AT_MOST),
                                     ("max_moves", max_moves, 1, 10**9), ("seed", seed, 0, 2**64 - 1)):
        if not least <= value <= most:
            raise BadMeasurement(f"{name} must be {least} to {most}, not {value}")
    if not 0 < confidence < 1:
        raise BadMeasurement(f"confidence must be between 0 and 1 (exclusive), not {confidence}")
    g = game if game is not None else _game(ruleset)
    resolved = g.resolve_options(dict(options or {}))
    count = g.info.players[0] if players is None else players
    if count not in g.info.players:
        raise BadMeasurement(f"{g.info.ruleset} is played by {', '.join(map(str, g.info.players))} players, "
                             f"not {count}")
    g.new_state(count, 0, resolved)  # checks the setup
    seats = dict(agents or {})
    if any(not 0 <= seat < count for seat in seats):
        raise BadMeasurement(f"agents are given for seats 1 to {count} only")
    strong: AgentSpec | None = None
    try:
        check_agents(g, seats)
        if lead:
            check_lead(g, lead, ruleset)
        if strength is not None:
            strong = parse_agent_spec(strength)
            check_agents(g, {0: strong})
    except BadAgent as exc:
        raise BadMeasurement(str(exc)) from None
    step = advance or (lambda: None)
    spec = BatchSpec(ruleset, count, seed, resolved, max_moves, agents=tuple(sorted(seats.items())), trace=True,
                     lead=lead or "")
    results: list[GameResult] = []
    with contextlib.closing(run_batches([spec], games, workers, [g], dask=dask)) as batch:
        for _, result in batch:
            results.append(result)
            step()
    strength_results: list[list[GameResult]] = []
    if strong is not None:
        per_seat = math.ceil(games / count)
        specs = [BatchSpec(ruleset, count, seed, resolved, max_moves, agents=((s, strong),)) for s in range(count)]
        strength_results = [[] for _ in range(count)]
        with contextlib.closing(run_batches(specs, per_seat, workers, [g] * count, dask=dask)) as batch:
            for k, result in batch:
                strength_results[k].append(result)
                step()
    return estimate(ruleset, resolved, count, seed, confidence, results, strength_results,
                    agents={s: str(a) for s, a in seats.items()}, strength=str(strong) if strong else None,
                    max_moves=max_moves, lead=lead or None)


def estimate(ruleset: str, options: Mapping[str, str], players: int, seed: int, confidence: float,
             results: Sequence[GameResult], strength_results: Sequence[Sequence[GameResult]] = (), *,
             agents: Mapping[int, str] | None = None, strength: str | None = None,
             max_moves: int = DEFAULT_MAX_MOVES, lead: str | None = None) -> Metrics:
    """The measures of games played (their traces, `GameResult.trace`, for the measures of the
    game's course), in the order of `names()`."""
    import numpy as np

    done = [r for r in results if r.finished]
    n = len(done)
    out: dict[str, Estimate] = {}
    salts = iter(range(1, 1000))

    def rate(count: int, total: int, note: str = "") -> Estimate:
        if total == 0:
            return Estimate(NAN, NAN, NAN, 0, "no game finished")
        low, high = wilson(count, total, confidence)
        return Estimate(count / total, low, high, total, _joined(note, "Wilson"))

    def mean(values: Sequence[float], none: str, note: str = "") -> Estimate:
        salt = next(salts)
        kept = np.array([v for v in values if not math.isnan(v)], dtype=float)
        if len(kept) == 0:
            return Estimate(NAN, NAN, NAN, 0, none)
        low, high = mean_interval(kept, confidence, seed, salt)
        return Estimate(float(np.mean(kept)), low, high, len(kept), _joined(note, "bootstrap"))

    sole = [r.winners[0] if len(r.winners) == 1 else -1 for r in done]
    firsts = [r.trace.first if r.trace is not None else 0 for r in done]
    for p in range(players):
        out[f"win_rate.P{p + 1}"] = rate(sum(1 for w in sole if w == p), n)
    advantage = [float(f in r.winners) - len(r.winners) / players for f, r in zip(firsts, done, strict=True)]
    out["first_player_advantage"] = mean(advantage, "no game finished")
    out["first_player_win"] = rate(sum(1 for f, w in zip(firsts, sole, strict=True) if f == w), n)
    out["balance"] = _balance(np.array(sole, dtype=np.int64), players, confidence, seed, next(salts))
    out["completion"] = rate(n, len(results)) if results else Estimate(NAN, NAN, NAN, 0, "no game played")
    out["draws"] = rate(sum(1 for w in sole if w < 0), n)
    moves = [float(r.moves) for r in done]
    out["length"] = mean(moves, "no game finished")
    out["length_median"] = _median(np.array(moves, dtype=float), confidence, seed, next(salts))
    out["turns"] = mean([float(r.turns) for r in done], "no game finished")
    traces = [r.trace for r in done if r.trace is not None]
    shown = sum(1 for t in traces if t.lead_shown)
    by = f"`{lead}`" if lead else "score"
    no_lead = (f"no {by} leads before the end (all {len(traces)} games)" if traces else "no game finished")
    blind = len(traces) - shown
    hidden = f"{blind} game{'s' if blind != 1 else ''} without a lead before the end left out" if blind else ""
    winners = sum(1 for t in traces if t.lead_shown and not math.isnan(t.decisiveness))
    draws = f"{shown - winners} draw{'s' if shown - winners != 1 else ''} left out" if winners < shown else ""
    single = no_lead if not shown else "no game with a single winner shows a lead before the end"
    out["decisiveness"] = mean([t.decisiveness for t in traces], single, _joined(hidden, draws))
    out["drama"] = mean([t.drama for t in traces], single, _joined(hidden, draws))
    changes = [t.lead_change_count for t in traces if not math.isnan(t.lead_changes)]
    per_game = f"{sum(changes) / len(changes):.3g} changes per game" if changes else ""
    out["lead_changes"] = mean([t.lead_changes for t in traces], no_lead, _joined(per_game, hidden))
    out["branching"] = mean([t.branching for t in traces], "no game finished")
    if strength is not None:
        wins = total = 0
        for seat, batch in enumerate(strength_results):
            for r in batch:
                if r.finished:
                    total += 1
                    wins += r.winners == [seat]
        out["strength"] = rate(wins, total, f"{strength} vs random, fair share {1 / players:.3g}")
    errors = [r for r in results if r.error is not None]
    first = errors[0] if errors else None
    return Metrics(
        ruleset, dict(options), players, len(results), seed, confidence, out, agents=dict(agents or {}),
        strength_agent=strength, max_moves=max_moves, lead=lead, finished=n,
        capped=sum(1 for r in results if r.capped),
        errors=len(errors),
        first_error=None if first is None else {"game": first.index, "seed": first.seed, "message": first.error},
        branching_curve=_curve([t.branching_curve for t in traces]),
        lead_curve=_curve([t.lead_curve for t in traces]),
        lengths=tuple(r.moves for r in done),
    )


def _joined(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _curve(curves: Sequence[tuple[float, ...]]) -> tuple[float, ...]:
    """The mean of each part over the games that have a value there (nan where none has)."""
    out = []
    for k in range(BINS):
        values = [c[k] for c in curves if not math.isnan(c[k])]
        out.append(sum(values) / len(values) if values else NAN)
    return tuple(out)


def _balance(sole: Any, players: int, confidence: float, seed: int, salt: int) -> Estimate:
    """Browne's balance, 1 - (highest - lowest win rate of the seats) (`compare.balance_of`), with a
    percentile bootstrap interval over the games (`sole`: each finished game's only winner, -1 if
    none)."""
    return _percentile(sole, lambda x, axis=-1: balance_of(x, players), confidence, seed, salt)


def _median(values: Any, confidence: float, seed: int, salt: int) -> Estimate:
    """The median of `values` with a percentile bootstrap interval."""
    import numpy as np

    return _percentile(values, np.median, confidence, seed, salt)


def _percentile(values: Any, statistic: Callable[..., Any], confidence: float, seed: int, salt: int) -> Estimate:
    """`statistic` of `values` (vectorized: along the last axis) with a percentile bootstrap interval
    over them; nan with a note when there are none."""
    import numpy as np
    from scipy.stats import bootstrap  # type: ignore[import-untyped, unused-ignore]

    n = len(values)
    if n == 0:
        return Estimate(NAN, NAN, NAN, 0, "no game finished")
    value = float(statistic(values))
    note = "percentile"
    if np.all(values == values[0]):
        return Estimate(value, value, value, n, note)
    result = bootstrap((values,), statistic, confidence_level=confidence, n_resamples=RESAMPLES, batch=_batch(n),
                       method="percentile", rng=_rng(seed, salt), vectorized=True)
    low, high = result.confidence_interval
    return Estimate(value, float(low), float(high), n, note)
