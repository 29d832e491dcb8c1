"""Paired comparisons (`rulewright compare`, docs/experiments.md): two rule sets, two option
settings of one, or two agent line-ups, played on the same seeds, and what differs in play.

Game `i` of both sides is started from seed `derive_seed(seed, i)`, so the two games of a
pair share their chance as far as the rules let them: the differences are measured pair by
pair, which takes out much of the noise of two independent batches. For every measure, the
statistics give each side's value with its interval, the difference B - A with its interval,
a test suited to the measure (named in the output) and a verdict at the chosen level:

- proportions (the win rate of each seat, draws, the first mover's win alone, capped or failed
  games): the Wilson score interval of each side's rate; the exact McNemar test of the
  difference (a two-sided binomial test on the discordant pairs: A's game won and B's not, or
  the other way);
- means (each seat's score, game length in moves and turns, first-player advantage, and the
  per-game measures of `rulewright metrics`: decisiveness, drama, lead changes, branching, over
  the pairs where both games have them, api/traces.py): mean,
  standard deviation and quartiles of each side, the interval of each side's mean; the paired
  permutation test of the mean difference (the two games of a pair swapped at random), or
  beyond PERMUTATION_AT_MOST pairs, where it would cost minutes, the paired t-test;
- the interval of a difference of rates: Newcombe's hybrid score interval for paired
  proportions; of a mean or a difference of means: the bootstrap (BCa) over the pairs;
- balance (1 - the spread of the seats' win rates), no mean of per-game values: percentile
  bootstrap intervals of each side and of the difference (pairs resampled together), and a
  paired permutation test of the difference.

Resampling is seeded from the comparison's seed: the same games give the same report, byte
for byte. Wins, draws, scores and lengths count the pairs whose two games both finished;
capped or failed games are compared over all pairs. The first-player advantage of a game is
the win of the seat that moved first (1 or 0) less its fair share of that game's wins (the
number of winners over the number of players): its mean is 0 for a fair game, whatever the
draws. No correction is made for testing many measures at once (docs/experiments.md).

numpy and scipy are imported when the statistics are computed (`pip install
'rulewright[experiments]'`): the rest of rulewright runs without them.
"""

from __future__ import annotations

import contextlib
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .agents import AgentSpec
from .match import BatchSpec, GameResult, run_batches
from .runtime.errors import RulewrightError
from .runtime.rng import derive_seed
from .runtime.state import Game

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Array = npt.NDArray[np.float64]

RESAMPLES = 9999  # bootstrap resamples and permutations of each test
BATCH_VALUES = 2_000_000  # values resampled at once: bounds the memory of a long comparison
BCA_AT_MOST = 5000  # pairs up to which a bootstrap interval is BCa, percentile beyond
PERMUTATION_AT_MOST = 2000  # pairs up to which means are compared by permutations, by a t-test beyond
DIGITS = 6  # decimals kept in the report


class MissingExtra(RulewrightError):
    """A command needs a library of the `experiments` extra that is not installed."""


def need(what: str, command: str = "compare") -> None:
    """Import numpy and scipy (and matplotlib for charts) or say how to install them; `command`:
    the command that needs them, as the message names it."""
    import importlib

    modules = ["numpy", "scipy.stats"] + (["matplotlib"] if what == "charts" else [])
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            name = module.split(".")[0]
            raise MissingExtra(f"the {what} of `{command}` need {name}: "
                               "pip install 'rulewright[experiments]'") from None


# -- the sides ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison: a rule set with its options (all of them, resolved) and the
    agents of its seats (seat from 0 -> spec; seats not listed play random)."""

    name: str  # "A" or "B"
    ruleset: str
    options: Mapping[str, str]
    agents: Mapping[int, AgentSpec] = field(default_factory=dict)
    changed: Mapping[str, str] = field(default_factory=dict)  # the options set on the command line

    @property
    def label(self) -> str:
        parts = [self.ruleset] + [f"{k}={v}" for k, v in sorted(self.changed.items())]
        parts += [f"P{seat + 1}={agent}" for seat, agent in sorted(self.agents.items())]
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "ruleset": self.ruleset, "options": dict(self.options),
                "agents": {str(seat + 1): str(agent) for seat, agent in sorted(self.agents.items())}}


# -- per-game values ---------------------------------------------------------------------------
@dataclass(slots=True)
class Games:
    """The games of one side, as arrays over the game index (one entry per game)."""

    finished: Any  # bool
    unfinished: Any  # bool: capped or raised
    capped: int
    errors: int
    first_error: dict[str, Any] | None
    won: list[Any]  # per seat, bool (False for an unfinished game)
    scores: list[Any]  # per seat, float (nan for an unfinished game)
    moves: Any
    turns: Any
    draws: Any  # bool: several winners, or none (a draw by declared returns)
    advantage: Any  # float: first mover's win less its fair share
    # (a rule set declaring `returns:`) per seat, float (nan for an unfinished game); else None
    returns: list[Any] | None = None
    # the measures of `rulewright metrics` (api/traces.py), float, nan where a game has none
    first_win: Any = None  # bool: the seat that moved first the only winner
    sole: Any = None  # int: the only winner, -1 for none (or an unfinished game)
    decisiveness: Any = None
    drama: Any = None
    lead_changes: Any = None
    branching: Any = None
    course: bool = True  # the games were played with their course recorded (not `compare --no-course`)

    @staticmethod
    def of(results: Sequence[GameResult], players: int, first_movers: Sequence[int]) -> Games:
        import numpy as np

        n = len(results)
        finished = np.array([r.finished for r in results], dtype=bool)
        won = [np.array([r.finished and p in r.winners for r in results], dtype=bool) for p in range(players)]
        scores = [np.array([float(r.scores[p]) if r.finished else math.nan for r in results]) for p in range(players)]
        winners = np.array([len(r.winners) if r.finished else 0 for r in results], dtype=float)
        first_won = np.array([r.finished and first_movers[i] in r.winners for i, r in enumerate(results)], dtype=float)
        errors = [r for r in results if r.error is not None]
        first = errors[0] if errors else None

        def traced(name: str) -> Any:
            return np.array([float(getattr(r.trace, name)) if r.finished and r.trace is not None else math.nan
                             for r in results])

        sole = np.array([r.winners[0] if r.finished and len(r.winners) == 1 else -1 for r in results], dtype=np.int64)
        return Games(
            finished=finished,
            unfinished=~finished,
            capped=sum(1 for r in results if r.capped),
            errors=len(errors),
            first_error=None if first is None else {"game": first.index, "seed": first.seed, "message": first.error},
            won=won,
            scores=scores,
            moves=np.array([r.moves for r in results], dtype=float).reshape(n),
            turns=np.array([r.turns for r in results], dtype=float).reshape(n),
            draws=np.array([r.finished and len(r.winners) != 1 for r in results], dtype=bool),
            advantage=first_won - winners / players,
            returns=[np.array([float(r.returns[p]) if r.finished and r.returns is not None else math.nan
                               for r in results]) for p in range(players)]
            if any(r.returns is not None for r in results) else None,
            first_win=np.array([bool(s == first_movers[i]) for i, s in enumerate(sole)], dtype=bool),
            sole=sole,
            decisiveness=traced("decisiveness"),
            drama=traced("drama"),
            lead_changes=traced("lead_changes"),
            branching=traced("branching"),
            course=any(r.trace is not None for r in results) or not results,
        )


# -- statistics --------------------------------------------------------------------------------
METHODS = {
    "rate_interval": "Wilson score interval",
    "mean_interval": f"bootstrap, BCa ({BCA_AT_MOST} pairs at most; percentile beyond), {RESAMPLES} resamples",
    "rate_difference_interval": "Newcombe's hybrid score interval for paired proportions (1998, method 10)",
    "mean_difference_interval": f"paired bootstrap of the mean difference, BCa ({BCA_AT_MOST} pairs at most; "
                                f"percentile beyond), {RESAMPLES} resamples",
    "rate_test": "exact McNemar test (two-sided binomial test on the discordant pairs)",
    "mean_test": f"paired permutation test of the mean difference (two-sided, {RESAMPLES} random swaps within "
                 f"pairs, exact when there are fewer arrangements), up to {PERMUTATION_AT_MOST} pairs",
    "mean_test_many": f"paired t-test of the mean difference (two-sided), beyond {PERMUTATION_AT_MOST} pairs",
    "balance_interval": f"balance (1 - spread of the seats' win rates): percentile bootstrap over the pairs, "
                        f"{RESAMPLES} resamples",
    "balance_test": f"paired permutation test of the balance difference (two-sided, {RESAMPLES} random swaps "
                    f"within pairs)",
}


def _r(value: Any) -> float:
    return round(float(value), DIGITS) + 0.0  # +0.0: no -0.0 in the report


def wilson(count: int, n: int, confidence: float) -> tuple[float, float]:
    """The Wilson score interval of `count` successes in `n` trials (scipy)."""
    from scipy.stats import binomtest  # type: ignore[import-untyped, unused-ignore]

    ci = binomtest(count, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def mcnemar(a: Array, b: Array) -> tuple[float, int, int]:
    """The exact McNemar test of paired binary outcomes: (p, pairs where only B's is true,
    pairs where only A's is true); p is 1 when no pair is discordant."""
    from scipy.stats import binomtest

    b_only = int(((b > 0) & ~(a > 0)).sum())
    a_only = int(((a > 0) & ~(b > 0)).sum())
    if b_only + a_only == 0:
        return 1.0, 0, 0
    return float(binomtest(b_only, b_only + a_only, 0.5).pvalue), b_only, a_only


def newcombe(a: Array, b: Array, confidence: float) -> tuple[float, float]:
    """The interval of the difference of paired proportions, mean(b) - mean(a): Newcombe's
    hybrid score interval for paired data (Newcombe 1998, Statistics in Medicine 17, 2635,
    method 10), from the Wilson intervals of both rates and the correlation of the pairs (phi,
    its product term reduced by n/2 when positive). Unlike a bootstrap, it stays sound when few
    pairs are discordant (a rare event seen only on one side)."""
    n = len(a)
    ya, yb = a > 0, b > 0
    both, a_only = int((ya & yb).sum()), int((ya & ~yb).sum())
    b_only, neither = int((~ya & yb).sum()), int((~ya & ~yb).sum())
    pa, pb = (both + a_only) / n, (both + b_only) / n
    la, ua = wilson(both + a_only, n, confidence)
    lb, ub = wilson(both + b_only, n, confidence)
    margins = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    cross = both * neither - a_only * b_only
    corrected = cross - n / 2 if cross > n / 2 else min(cross, 0)
    phi = corrected / math.sqrt(margins) if margins > 0 else 0.0
    # for pb - pa: below by B's distance to its lower bound and A's to its upper, and the other way
    below = math.sqrt(max(0.0, (pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2))
    above = math.sqrt(max(0.0, (ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2))
    return max(-1.0, pb - pa - below), min(1.0, pb - pa + above)


def _rng(seed: int, salt: int) -> Any:
    import numpy as np

    return np.random.default_rng([seed & 0xFFFFFFFFFFFFFFFF, salt])


def mean_interval(values: Array, confidence: float, seed: int, salt: int) -> tuple[float, float]:
    """The bootstrap interval of the mean of `values` (BCa up to BCA_AT_MOST values, whose
    jackknife grows with the square of their number; percentile beyond, where they agree); a
    point when they are all equal."""
    import numpy as np
    from scipy.stats import bootstrap

    if len(values) == 0:
        return math.nan, math.nan
    if np.all(values == values[0]):
        return float(values[0]), float(values[0])
    low = high = math.nan
    batch = _batch(len(values))
    if len(values) <= BCA_AT_MOST:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a degenerate resampling is not an interval
            try:
                result = bootstrap((values,), np.mean, confidence_level=confidence, n_resamples=RESAMPLES,
                                   batch=batch, method="BCa", rng=_rng(seed, salt), vectorized=True)
                low, high = result.confidence_interval
            except Warning:
                pass
    if math.isnan(low) or math.isnan(high):  # large, or BCa undefined on this sample: percentiles
        result = bootstrap((values,), np.mean, confidence_level=confidence, n_resamples=RESAMPLES, batch=batch,
                           method="percentile", rng=_rng(seed, salt), vectorized=True)
        low, high = result.confidence_interval
    return float(low), float(high)


def permutation_p(a: Array, b: Array, seed: int, salt: int) -> float:
    """The two-sided paired permutation test of mean(b - a) = 0: the two games of a pair
    swapped, which flips the sign of their difference (scipy's one-sample `samples`
    permutation); exact when 2**pairs <= RESAMPLES. 1 when every pair is equal."""
    import numpy as np
    from scipy.stats import permutation_test

    d = b - a
    if np.all(d == 0):
        return 1.0

    def statistic(x: Array, axis: int) -> Array:
        return np.mean(x, axis=axis)  # type: ignore[no-any-return]

    result = permutation_test((d,), statistic, permutation_type="samples", vectorized=True,
                              n_resamples=RESAMPLES, batch=_batch(len(d)), alternative="two-sided",
                              rng=_rng(seed, salt))
    return min(1.0, float(result.pvalue))


def paired_t_p(a: Array, b: Array) -> float:
    """The two-sided paired t-test of mean(b - a) = 0 (scipy's ttest_rel): for many pairs, where
    the mean difference is normal and a permutation test costs minutes. 1 when every pair is
    equal, 0 when every pair differs by the same amount."""
    import numpy as np
    from scipy.stats import ttest_rel

    d = b - a
    if np.all(d == d[0]):
        return 1.0 if d[0] == 0 else 0.0
    return float(ttest_rel(b, a).pvalue)


def _batch(n: int) -> int:
    """Resamples computed at once: about BATCH_VALUES values in memory."""
    return max(1, min(RESAMPLES, BATCH_VALUES // max(1, n)))


def describe(values: Array) -> dict[str, float | None]:
    import numpy as np

    if len(values) == 0:
        return {k: None for k in ("mean", "sd", "min", "q1", "median", "q3", "max")}
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return {"mean": _r(np.mean(values)), "sd": _r(np.std(values, ddof=1)) if len(values) > 1 else 0.0,
            "min": _r(np.min(values)), "q1": _r(q1), "median": _r(median), "q3": _r(q3), "max": _r(np.max(values))}


@dataclass(frozen=True, slots=True)
class Measure:
    key: str  # "win_rate.P1", "score.P1", "moves", ...
    name: str  # "win rate P1"
    kind: str  # "rate" or "mean"
    a: Any  # per-pair values of A
    b: Any
    unit: str = ""  # "" or "%" (rates are shown as percentages)
    missing: str = "no pair where both games finished"  # why no pair counts, when none does
    players: int = 0  # (kind "balance") the seats whose win rates it compares
    # what its resampling is seeded with, besides the seed: set by `measures_of` (see there)
    salt: int = -1


def analyse_measure(m: Measure, alpha: float, seed: int, salt: int) -> dict[str, Any]:
    import numpy as np

    confidence = 1 - alpha
    a, b = np.asarray(m.a, dtype=float), np.asarray(m.b, dtype=float)
    n = len(a)
    out: dict[str, Any] = {"key": m.key, "name": m.name, "kind": m.kind, "pairs": n}
    if n == 0:
        return out | {"a": None, "b": None, "difference": None, "test": None, "significant": None,
                      "verdict": f"{m.name}: no pair to compare ({m.missing})"}
    if m.kind == "balance":
        return out | _analyse_balance(m, a.astype(np.int64), b.astype(np.int64), alpha, seed, salt)
    sides: dict[str, Any] = {}
    for name, values, side_salt in (("a", a, 1), ("b", b, 2)):
        if m.kind == "rate":
            count = int(values.sum())
            low, high = wilson(count, n, confidence)
            sides[name] = {"count": count, "n": n, "rate": _r(count / n), "low": _r(low), "high": _r(high)}
        else:
            low, high = mean_interval(values, confidence, seed, salt * 16 + side_salt)
            sides[name] = describe(values) | {"n": n, "low": _r(low), "high": _r(high)}
    d = b - a
    if m.kind == "rate":
        low, high = newcombe(a, b, confidence)
        method = METHODS["rate_difference_interval"]
    else:
        low, high = mean_interval(d, confidence, seed, salt * 16 + 3)
        method = METHODS["mean_difference_interval"]
    difference = {"value": _r(float(np.mean(d))), "low": _r(low), "high": _r(high), "method": method}
    if m.kind == "rate":
        p, b_only, a_only = mcnemar(a, b)
        test = {"name": "exact McNemar", "method": METHODS["rate_test"], "p": _r(p),
                "b_only": b_only, "a_only": a_only}
    elif n <= PERMUTATION_AT_MOST:
        p = permutation_p(a, b, seed, salt * 16 + 4)
        test = {"name": "paired permutation", "method": METHODS["mean_test"], "p": _r(p)}
    else:
        p = paired_t_p(a, b)
        test = {"name": "paired t-test", "method": METHODS["mean_test_many"], "p": _r(p)}
    significant = p <= alpha
    out |= {"a": sides["a"], "b": sides["b"], "difference": difference, "test": test, "significant": significant}
    out["verdict"] = verdict_line(out, alpha)
    return out


def balance_of(sole: Array, players: int) -> Array:
    """Browne's balance, 1 - (highest - lowest win rate of the seats), of each row of `sole`
    (each game's only winner, -1 for none), the games along the last axis."""
    import numpy as np

    rates = np.stack([np.mean(sole == p, axis=-1) for p in range(players)])
    return 1 - (rates.max(axis=0) - rates.min(axis=0))  # type: ignore[no-any-return]


def _analyse_balance(m: Measure, a: Array, b: Array, alpha: float, seed: int, salt: int) -> dict[str, Any]:
    """Balance, A and B over the same pairs: each side's value with its percentile bootstrap
    interval, the difference with the percentile interval of the pairs resampled together, and
    the paired permutation test (the two games of random pairs swapped) of the difference."""
    import numpy as np

    n, confidence = len(a), 1 - alpha
    observed_a, observed_b = float(balance_of(a, m.players)), float(balance_of(b, m.players))
    observed = observed_b - observed_a
    rng = _rng(seed, salt * 16 + 5)
    boot_a, boot_b, swapped = [], [], []
    done = 0
    while done < RESAMPLES:
        k = min(_batch(n), RESAMPLES - done)
        rows = rng.integers(0, n, size=(k, n))
        boot_a.append(balance_of(a[rows], m.players))
        boot_b.append(balance_of(b[rows], m.players))
        swap = rng.random((k, n)) < 0.5
        swapped.append(balance_of(np.where(swap, a, b), m.players) - balance_of(np.where(swap, b, a), m.players))
        done += k
    ba, bb, perm = np.concatenate(boot_a), np.concatenate(boot_b), np.concatenate(swapped)
    tail = (1 - confidence) / 2 * 100

    def interval(values: Array) -> tuple[float, float]:
        low, high = np.percentile(values, [tail, 100 - tail])
        return float(low), float(high)

    sides = {}
    for name, value, boot in (("a", observed_a, ba), ("b", observed_b, bb)):
        low, high = interval(boot)
        sides[name] = {"value": _r(value), "n": n, "low": _r(low), "high": _r(high)}
    low, high = interval(bb - ba)
    p = 1.0 if np.all(a == b) else float((np.sum(np.abs(perm) >= abs(observed) - 1e-12) + 1) / (len(perm) + 1))
    out: dict[str, Any] = {
        "a": sides["a"], "b": sides["b"],
        "difference": {"value": _r(observed), "low": _r(low), "high": _r(high), "method": METHODS["balance_interval"]},
        "test": {"name": "paired permutation", "method": METHODS["balance_test"], "p": _r(p)},
        "significant": p <= alpha,
    }
    out["verdict"] = verdict_line({"name": m.name, "kind": m.kind} | out, alpha)
    return out


def side_value(m: Mapping[str, Any], side: str) -> float:
    """A side's value of an analysed measure: its rate, mean or (balance) value."""
    kind = m["kind"]
    return float(m[side]["rate"] if kind == "rate" else m[side]["value"] if kind == "balance" else m[side]["mean"])


def _shown(value: float, kind: str, signed: bool = False) -> str:
    if kind == "rate":
        text = f"{value * 100:+.1f}" if signed else f"{value * 100:.1f}%"
        return text + (" points" if signed else "")
    return number(value, signed)


def number(value: float, signed: bool = False) -> str:
    """Four significant digits, three decimals at most: 3848, 26.13, 0.019, -0.029."""
    if not math.isfinite(value) or value == 0:
        return f"{value:+g}" if signed else f"{value:g}"
    decimals = max(0, min(3, 3 - math.floor(math.log10(abs(value)))))
    text = f"{value:+.{decimals}f}" if signed else f"{value:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _interval(d: Mapping[str, float], kind: str) -> str:
    if kind == "rate":
        return f"[{d['low'] * 100:+.1f}, {d['high'] * 100:+.1f}]"
    return f"[{number(d['low'], True)}, {number(d['high'], True)}]"


def verdict_line(m: Mapping[str, Any], alpha: float) -> str:
    """`win rate P1: 51.0% -> 47.5%, B-A -3.5 points [-9.0, +2.0]; exact McNemar p = 0.23:
    not significant at 0.05`."""
    kind = m["kind"]
    a, b = side_value(m, "a"), side_value(m, "b")
    d = m["difference"]
    interval = _interval(d, kind)
    p = m["test"]["p"]
    p_text = f"{p:.2g}" if p >= 0.001 else "< 0.001"
    p_part = f"p = {p_text}" if p >= 0.001 else f"p {p_text}"
    word = "significant" if m["significant"] else "not significant"
    return (f"{m['name']}: {_shown(a, kind)} -> {_shown(b, kind)}, B-A {_shown(d['value'], kind, True)} {interval}; "
            f"{m['test']['name']} {p_part}: {word} at {alpha:g}")


def significant_line(c: Comparison) -> str:
    """The one line `compare` prints under its table (which holds each measure's verdict, as
    --json does): the measures that differ significantly, or that none does."""
    found = [m["name"] for m in c.measures if m.get("significant")]
    if not found:
        return f"no measure differs significantly at {c.alpha:g}"
    return f"significant at {c.alpha:g}: {', '.join(found)}"


def measures_of(ga: Games, gb: Games, players: int) -> list[Measure]:
    import numpy as np

    both = ga.finished & gb.finished
    out = [Measure(f"win_rate.P{p + 1}", f"win rate P{p + 1}", "rate", ga.won[p][both], gb.won[p][both])
           for p in range(players)]
    out.append(Measure("draws", "draws (shared wins)", "rate", ga.draws[both], gb.draws[both]))
    out.append(Measure("first_player_advantage", "first-player advantage", "mean", ga.advantage[both],
                       gb.advantage[both]))
    added = [Measure("first_player_win", "first-player win (alone)", "rate", ga.first_win[both], gb.first_win[both]),
             Measure("balance", "balance", "balance", ga.sole[both], gb.sole[both], players=players)]
    out += [Measure(f"score.P{p + 1}", f"score P{p + 1}", "mean", ga.scores[p][both], gb.scores[p][both])
            for p in range(players)]
    if ga.returns is not None and gb.returns is not None:  # (both rule sets declare `returns:`)
        out += [Measure(f"return.P{p + 1}", f"return P{p + 1}", "mean", ga.returns[p][both], gb.returns[p][both])
                for p in range(players)]
    out.append(Measure("moves", "game length (moves)", "mean", ga.moves[both], gb.moves[both]))
    out.append(Measure("turns", "game length (turns)", "mean", ga.turns[both], gb.turns[both]))
    # the measures of the game's course (rulewright metrics), over the pairs where both games have one;
    # none when the games were played without their course (`compare --no-course`)
    courses = (("decisiveness", "decisiveness", "a lead shown before the end and a single winner"),
               ("drama", "drama", "a lead shown before the end and a single winner"),
               ("lead_changes", "lead changes", "a lead shown before the end"),
               ("branching", "branching", "a move"))
    for key, name, why in courses if ga.course and gb.course else ():
        va, vb = getattr(ga, key), getattr(gb, key)
        kept = both & ~np.isnan(va) & ~np.isnan(vb)
        added.append(Measure(key, name, "mean", va[kept], vb[kept], missing=f"no pair where both games have {why}"))
    out.append(Measure("unfinished", "capped or failed games", "rate", ga.unfinished, gb.unfinished))
    # Each measure's resampling is seeded by its place in this list; those of `metrics` (added since)
    # are seeded after the others, so that the others' intervals stay what they were, whatever the
    # place each is shown at: after the first-player advantage, and after the game length.
    salted = [replace(m, salt=k) for k, m in enumerate(out + added)]
    shown, extra = salted[:len(out)], salted[len(out):]
    after_advantage = next(k for k, m in enumerate(shown) if m.key == "first_player_advantage") + 1
    after_turns = next(k for k, m in enumerate(shown) if m.key == "turns") + 1
    return (shown[:after_advantage] + extra[:2] + shown[after_advantage:after_turns] + extra[2:]
            + shown[after_turns:])


@dataclass(slots=True)
class Comparison:
    """A comparison played: its report (`to_json`) and the per-game values behind it (charts)."""

    a: Side
    b: Side
    players: int
    seed: int
    games: int
    alpha: float
    max_moves: int
    max_turns: int | None
    games_a: Games
    games_b: Games
    measures: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        def side(games: Games) -> dict[str, Any]:
            return {"games": self.games, "finished": int(games.finished.sum()), "capped": games.capped,
                    "errors": games.errors, "first_error": games.first_error}

        return {
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "players": self.players,
            "seed": self.seed,
            "games": self.games,
            "pairs": int((self.games_a.finished & self.games_b.finished).sum()),
            "alpha": self.alpha,
            "confidence": _r(1 - self.alpha),
            "max_moves": self.max_moves,
            "max_turns": self.max_turns,
            "methods": dict(METHODS),
            "sides": {"a": side(self.games_a), "b": side(self.games_b)},
            "measures": self.measures,
        }


def analyse(a: Side, b: Side, results_a: Sequence[GameResult], results_b: Sequence[GameResult], *,
            players: int, seed: int, alpha: float, first_movers: tuple[Sequence[int], Sequence[int]],
            max_moves: int, max_turns: int | None) -> Comparison:
    """The statistics of two sides' results, game i of each paired."""
    need("statistics")
    if len(results_a) != len(results_b):
        raise ValueError("the two sides played different numbers of games")
    ga = Games.of(results_a, players, first_movers[0])
    gb = Games.of(results_b, players, first_movers[1])
    measures = [analyse_measure(m, alpha, seed, m.salt) for m in measures_of(ga, gb, players)]
    return Comparison(a, b, players, seed, len(results_a), alpha, max_moves, max_turns, ga, gb, measures)


# -- playing -----------------------------------------------------------------------------------
def play(specs: tuple[BatchSpec, BatchSpec], games: int, workers: int, dask: str | None,
         loaded: tuple[Game, Game], advance: Callable[[], None]) -> tuple[list[GameResult], list[GameResult]]:
    """Games 0 to `games - 1` of both sides, in one run of workers (or of the Dask cluster)."""
    out: tuple[list[GameResult], list[GameResult]] = ([], [])
    with contextlib.closing(run_batches(list(specs), games, workers, list(loaded), dask=dask)) as batch:
        for k, result in batch:
            out[k].append(result)
            advance()
    return out


def run(sides: tuple[Side, Side], loaded: tuple[Game, Game], players: int, games: int, *, seed: int, alpha: float,
        max_moves: int, max_turns: int | None, workers: int, dask: str | None,
        advance: Callable[[], None], course: bool = True) -> Comparison:
    """Play both sides' games 0 to `games - 1` on the same seeds and analyse them: what
    `rulewright compare` does, and the web board's small comparison of a finished game's rule set
    (api/webcompare.py). `course`: each game's course recorded, for the measures of `metrics`
    (decisiveness, drama, lead changes, branching), which read the score after every move; without
    it, the games are played as `simulate` plays them (up to 2.5 times as fast) and those measures
    are left out."""
    specs = tuple(BatchSpec(s.ruleset, players, seed, s.options, max_moves, max_turns=max_turns,
                            agents=tuple(sorted(s.agents.items())), trace=course) for s in sides)
    results = play((specs[0], specs[1]), games, workers, dask, loaded, advance)
    movers = (first_movers(loaded[0], specs[0], games), first_movers(loaded[1], specs[1], games))
    return analyse(sides[0], sides[1], results[0], results[1], players=players, seed=seed, alpha=alpha,
                   first_movers=movers, max_moves=max_moves, max_turns=max_turns)


def first_movers(game: Game, spec: BatchSpec, games: int) -> list[int]:
    """The seat that moves first in each game of a batch (seat 0 when the setup fails: that
    game failed, and counts in no measure of wins)."""
    seats = []
    for i in range(games):
        try:
            seat = game.new_state(spec.players, derive_seed(spec.seed, i), spec.options).to_act()
        except Exception:  # noqa: BLE001 - the game itself reports it
            seat = None
        seats.append(seat or 0)
    return seats


# -- shown at the terminal ---------------------------------------------------------------------
def tables(c: Comparison) -> list[Any]:
    """The report as rich tables: the sides, then one row per measure."""
    from rich.table import Table
    from rich.text import Text

    from .terminal import printable_lines

    data = c.to_json()
    title = Text(f"compare: {data['games']} games per side on the same seeds (seed {c.seed}), "
                 f"{c.players} players, {data['pairs']} pairs where both finished")
    head = Table(show_header=False)
    head.add_column("side")
    head.add_column("what")
    for name, side, info in (("A", c.a, data["sides"]["a"]), ("B", c.b, data["sides"]["b"])):
        unfinished = f"{info['capped']} capped, {info['errors']} failed"
        if info["first_error"]:
            e = info["first_error"]
            unfinished += f" (first: game {e['game']}, seed {e['seed']}: {e['message']})"
        head.add_row(name, Text(printable_lines(f"{side.label}; {unfinished}")))
    level = f"{(1 - c.alpha) * 100:g}%"
    rows = Table(title=f"B - A, {level} intervals; significant at {c.alpha:g}", title_justify="left")
    for column, justify in (("measure", "left"), ("A", "right"), ("B", "right"), ("B - A", "right"),
                            (f"{level} interval", "right"), ("test", "left"), ("p", "right"), ("", "left")):
        rows.add_column(column, justify=justify)  # type: ignore[arg-type]
    for m in c.measures:
        if m["a"] is None:
            rows.add_row(m["name"], "-", "-", "-", "-", "-", "-", "no pairs")
            continue
        kind = m["kind"]
        a, b = side_value(m, "a"), side_value(m, "b")
        d = m["difference"]
        rows.add_row(m["name"], _shown(a, kind), _shown(b, kind), _shown(d["value"], kind, True).replace(" points", ""),
                     _interval(d, kind), m["test"]["name"],
                     f"{m['test']['p']:.2g}" if m["test"]["p"] >= 0.001 else "< 0.001",
                     "significant" if m["significant"] else "")
    return [title, head, rows]
