#!/usr/bin/env python3
"""Rule coverage of every bundled rule set in N random games, and what the coverage build costs.

    .venv/bin/python scripts/coverage_all.py -n 200 [--vary-options] [RULESET ...]

Prints two markdown tables (docs/experiments.md, "Rule coverage"): per rule set, the share of
outcomes seen per kind of point, overall and in the variant's own file; then the CPU seconds
of the same N games (the games `simulate` plays) on the generated module (optimised), on the
module compiled with every pass off, and on the coverage build (every pass off, probes), and
the coverage build's slowdown against each.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from rulewright import coverage as cov
from rulewright import load, load_rules
from rulewright.compiler.probes import KINDS, Point
from rulewright.core.paths import bundled_rulesets, ruleset_file
from rulewright.match import play_game
from rulewright.runtime.rng import derive_seed
from rulewright.runtime.state import Game


def cpu_seconds(game: Game, games: int, seed: int) -> float:
    started = time.process_time()
    for i in range(games):
        result = play_game(game, None, derive_seed(seed, i))
        assert result.error is None, result.error
    return time.process_time() - started


def percent(report: cov.Report, kind: str, points: Sequence[Point] | None = None) -> str:
    _, total, seen = report.tally(report.points if points is None else points).get(kind, (0, 0, 0))
    return f"{100 * seen / total:.0f}" if total else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="bundled rule sets (default: all)")
    parser.add_argument("-n", "--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vary-options", action="store_true")
    parser.add_argument("--no-speed", action="store_true", help="coverage only, no timing of the other builds")
    args = parser.parse_args()
    names = args.rulesets or [r for r, _ in bundled_rulesets()]
    coverage_rows, speed_rows = [], []
    for name in names:
        path = ruleset_file(name)
        build = cov.instrument(path)
        started = time.process_time()
        report = cov.run_games(path, args.games, args.seed, None, {}, args.vary_options)
        probed = time.process_time() - started
        own = [p for p in report.points if p.file == report.files[-1]] if len(report.files) > 1 else None
        n_points = len(report.points)
        never = sum(1 for p in report.points if len(report.missing(p)) == len(p.outcomes))
        coverage_rows.append([name, str(report.settings["players"]), str(n_points), str(never),
                              *(percent(report, k) for k in KINDS), percent(report, "overall"),
                              percent(report, "overall", own) if own is not None else ""])
        if not args.no_speed:
            optimised = cpu_seconds(load(name), args.games, args.seed)
            plain = cpu_seconds(load_rules(Path(path), frozenset()), args.games, args.seed)
            speed_rows.append([name, f"{optimised:.1f}", f"{plain:.1f}", f"{probed:.1f}", f"{probed / optimised:.2f}",
                               f"{probed / plain:.2f}"])
        print(f"... {name}: {percent(report, 'overall')}% of {sum(len(p.outcomes) for p in report.points)} outcomes"
              f" ({len(build.probed.source):,} bytes of probed module)", flush=True)
    print()
    print(f"Coverage in {args.games} random games (seed {args.seed}, fewest players, "
          f"{'options varied' if args.vary_options else 'default options'}), % of outcomes seen:")
    print()
    head = ["rule set", "players", "points", "never", *KINDS, "overall", "own file"]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for row in coverage_rows:
        print("| " + " | ".join(row) + " |")
    if speed_rows:
        print()
        print(f"CPU seconds of the same {args.games} games, and the coverage build's slowdown:")
        print()
        head = ["rule set", "optimised", "no passes", "coverage build", "× optimised", "× no passes"]
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        for row in speed_rows:
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
