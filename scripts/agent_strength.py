#!/usr/bin/env python3
"""How often an agent beats the random agent (or another, --against), with a 95% Wilson interval.

    .venv/bin/python scripts/agent_strength.py china-cornett -n 200 --agent mcts:iterations=200 --workers 2
    .venv/bin/python scripts/agent_strength.py china-cornett -n 200 --agent greedy

The agent is named by an agent spec, as `simulate --agent` takes it (api/agents/registry.py). The games
are played in as many batches as the rule set has seats, on the same seeds: in batch k the agent
plays seat k and the random agent every other seat (simulate's: `--agent K=SPEC` and nothing
else), or the agent of --against (each seat its own, seeded by its seat). So with two players
each seed is played twice, the agent first in one game and second in the other, and -n 200 is
100 seeds. Batches run through match.run_batch (its process pool with --workers), so any game
can be played again alone: `rulewright simulate RULESET --seed S --agent K=SPEC`, game i.

A win is a game the agent is among the winners of (a shared win counts, and is also reported
apart); games lost, stopped by the move cap or that raised are counted apart. The interval is
the Wilson score interval of scipy.stats.binomtest.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from rulewright import load
from rulewright.agents import BadAgent, check_agents, parse_agent_spec
from rulewright.match import BatchSpec, run_batch


def wilson(wins: int, games: int) -> tuple[float, float]:
    from scipy.stats import binomtest  # type: ignore[import-untyped, unused-ignore]

    ci = binomtest(wins, games).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("-n", "--games", type=int, default=200, help="games in all (a multiple of the players)")
    parser.add_argument("--agent", default="mcts", help="the agent measured, a spec: mcts:iterations=200, greedy")
    parser.add_argument("--against", default="random", help="the agent of every other seat, a spec")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = load(args.ruleset)
    players = args.players or game.info.players[0]
    try:
        spec = parse_agent_spec(args.agent)
        against = parse_agent_spec(args.against)
        check_agents(game, {0: spec, 1: against})
    except BadAgent as exc:
        print(f"agent_strength: error: {exc}", file=sys.stderr)
        return 2
    per_seat = args.games // players
    if per_seat < 1 or per_seat * players != args.games:
        print(f"agent_strength: error: -n must be a multiple of the {players} players", file=sys.stderr)
        return 2
    started = time.perf_counter()
    wins = shared = losses = capped = errors = 0
    by_seat: list[int] = []
    for seat in range(players):
        line_up = tuple((p, spec if p == seat else against) for p in range(players))
        batch = BatchSpec(args.ruleset, players, args.seed, {}, max_moves=args.max_moves, agents=line_up)
        won_here = 0
        for result in run_batch(batch, per_seat, workers=args.workers, game=game):
            if result.error is not None:
                errors += 1
            elif result.capped:
                capped += 1
            elif seat in result.winners:
                wins += 1
                won_here += 1
                shared += len(result.winners) > 1
            else:
                losses += 1
        by_seat.append(won_here)
    seconds = time.perf_counter() - started
    low, high = wilson(wins, args.games)
    report: dict[str, Any] = {
        "ruleset": args.ruleset, "players": players, "agent": str(spec), "agent_values": spec.values(),
        "against": str(against),
        "seed": args.seed, "games": args.games, "wins": wins, "shared_wins": shared, "losses": losses,
        "capped": capped, "errors": errors, "win_rate": round(wins / args.games, 4),
        "wilson95": [round(low, 4), round(high, 4)], "wins_by_agent_seat": by_seat, "games_per_seat": per_seat,
        "seconds": round(seconds, 1), "workers": args.workers,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        values = ", ".join(f"{k}={v}" for k, v in spec.values().items())
        print(f"{args.ruleset}: {spec.kind}{f' ({values})' if values else ''} against {against}, {args.games} games "
              f"({per_seat} seeds, the agent in each seat)")
        print(f"  won {wins} ({shared} shared), lost {losses}, capped {capped}, errors {errors}")
        print(f"  win rate {wins / args.games:.3f}, 95% Wilson interval [{low:.3f}, {high:.3f}]")
        print("  won in the agent's seat: " + ", ".join(f"seat {p + 1} {w}/{per_seat}" for p, w in enumerate(by_seat)))
        print(f"  {seconds:.0f} s on {args.workers} worker(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
