#!/usr/bin/env python3
"""Play a classic in lockstep against OpenSpiel's own implementation (rulewright.interop.lockstep).

    .venv/bin/python scripts/lockstep_openspiel.py hex --games 10000 --seed 0
    .venv/bin/python scripts/lockstep_openspiel.py liars-dice --games 10000 --rules my-dice.yaml

Seeded random games (game n seeded SEED + n) choose among OpenSpiel's legal actions and force
its chance outcomes into rulewright; every decision is compared (whose turn, the legal actions
mapped, the end, the position) and the returns at the end. Prints the counts; exits 1 at the
first mismatch (or, with --all, after counting them), printing its seed, move, history and what
differs. RULEWRIGHT_NATIVE=1 runs it on the native build.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    from rulewright.interop.lockstep import ADAPTERS, run

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(ADAPTERS), help="the classic (its adapter)")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument("--rules", help="a rule file to play instead of the bundled rule set (a copy being written)")
    parser.add_argument("--all", action="store_true", help="go on after a mismatch and count them")
    args = parser.parse_args(argv)
    if not 0 < args.games <= 10_000_000:
        parser.error("--games must be from 1 to 10,000,000")
    if not 0 <= args.seed < 2**63:
        parser.error("--seed must be from 0 to 2**63 - 1")
    from rulewright.core.source import CompileError
    from rulewright.loading import load_rules
    from rulewright.runtime.errors import RulewrightError

    adapter = ADAPTERS[args.game]
    try:
        game = load_rules(args.rules) if args.rules else None
        report = run(adapter, args.games, args.seed, game=game, stop_at_first=not args.all)
    except (RulewrightError, CompileError, OSError) as exc:
        print(f"lockstep: error: {exc}", file=sys.stderr)
        return 2
    print(f"{adapter.ruleset} against OpenSpiel's {adapter.openspiel}: {report.games} games agree to the end, "
          f"{report.cut} cut at the move limit, {report.mismatches} mismatched; {report.decisions:,} decisions "
          f"compared in {report.seconds:.1f} s (seeds {args.seed} to {args.seed + args.games - 1})")
    if report.mismatch is not None:
        print(report.mismatch)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
