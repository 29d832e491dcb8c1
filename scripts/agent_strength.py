#!/usr/bin/env python3
"""How often a search agent beats the random agent, with a 95% Wilson interval.

    .venv/bin/python scripts/agent_strength.py china-cornett -n 200 --iterations 400 --workers 2
    .venv/bin/python scripts/agent_strength.py china-cornett -n 200 --agent greedy

Game i is played from state seed derive_seed(seed, i); the search agent sits in seat i % 2 (in
a game of more players, seat i % players), so it plays first in half the games; every other
seat is the random agent of that game (the one `simulate` uses). The search agent's seed is
derived from the game's, so any game can be played again alone, and the result does not
depend on the number of workers. A win is a game the agent wins alone or shares (it is among
the winners); draws, games lost and games stopped by the move cap are counted apart. The
interval is scipy's exact binomial test's Wilson interval (scipy.stats.binomtest).

Search agents read the whole state: a rule set with hidden information is refused (IS-MCTS
is the agent for those).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from typing import Any

from rulewright import load
from rulewright.agents import Agent
from rulewright.match import GameResult, play_game
from rulewright.runtime.rng import derive_seed
from rulewright.search import GreedyAgent, MCTSAgent, hidden_fields

SEARCH_SEED_SALT = 0xA6E7  # the search agent's seed: derive_seed(game seed, this)


def make_agent(args: argparse.Namespace, seed: int) -> Agent:
    if args.agent == "greedy":
        return GreedyAgent(seed)
    return MCTSAgent(seed, iterations=args.iterations, exploration=args.exploration,
                     rollout_moves=args.rollout_moves)


def play_one(task: tuple[argparse.Namespace, int]) -> tuple[int, int, GameResult]:
    args, index = task
    game = load(args.ruleset)
    players = args.players or game.info.players[0]
    seed = derive_seed(args.seed, index)
    seat = index % players
    agent = make_agent(args, derive_seed(seed, SEARCH_SEED_SALT))
    return index, seat, play_game(game, players, seed, max_moves=args.max_moves, agents={seat: agent})


def wilson(wins: int, games: int) -> tuple[float, float]:
    from scipy.stats import binomtest  # type: ignore[import-untyped, unused-ignore]

    ci = binomtest(wins, games).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("-n", "--games", type=int, default=200)
    parser.add_argument("--agent", choices=("mcts", "greedy"), default="mcts")
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--exploration", type=float, default=1.4)
    parser.add_argument("--rollout-moves", type=int, default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = load(args.ruleset)
    hidden = hidden_fields(game)
    if hidden:
        print(f"agent_strength: error: {args.ruleset} has hidden information (fields {', '.join(hidden)}): "
              "search agents read the whole state; measure IS-MCTS there", file=sys.stderr)
        return 2
    players = args.players or game.info.players[0]
    tasks = [(args, i) for i in range(args.games)]
    started = time.perf_counter()
    wins = draws = losses = capped = errors = 0
    by_seat = [[0, 0] for _ in range(players)]  # per seat of the agent: wins, games
    if args.workers > 1:
        context = multiprocessing.get_context("spawn")
        with context.Pool(args.workers) as pool:
            outcomes = list(pool.imap(play_one, tasks, chunksize=1))
    else:
        outcomes = [play_one(t) for t in tasks]
    for _, seat, result in sorted(outcomes, key=lambda o: o[0]):
        if result.error:
            errors += 1
            continue
        if result.capped:
            capped += 1
            continue
        by_seat[seat][1] += 1
        if seat in result.winners:
            wins += 1
            by_seat[seat][0] += 1
            if len(result.winners) > 1:
                draws += 1
        else:
            losses += 1
    seconds = time.perf_counter() - started
    played = args.games
    low, high = wilson(wins, played) if played else (0.0, 0.0)
    report: dict[str, Any] = {
        "ruleset": args.ruleset, "players": players, "agent": args.agent, "iterations": args.iterations,
        "exploration": args.exploration, "rollout_moves": args.rollout_moves, "seed": args.seed,
        "games": played, "wins": wins, "shared_wins": draws, "losses": losses, "capped": capped, "errors": errors,
        "win_rate": round(wins / played, 4) if played else None,
        "wilson95": [round(low, 4), round(high, 4)],
        "win_rate_by_agent_seat": [round(w / g, 4) if g else None for w, g in by_seat],
        "seconds": round(seconds, 1), "workers": args.workers,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        what = args.agent if args.agent == "greedy" else (
            f"mcts (iterations {args.iterations}, exploration {args.exploration:g}, rollout moves "
            f"{args.rollout_moves if args.rollout_moves is not None else 'to the end'})")
        print(f"{args.ruleset}: {what} against random, {played} games, seats alternated")
        print(f"  won {wins} ({draws} shared), lost {losses}, capped {capped}, errors {errors}")
        print(f"  win rate {report['win_rate']:.3f}, 95% Wilson interval [{low:.3f}, {high:.3f}]")
        print("  by the agent's seat: " + ", ".join(
            f"seat {p + 1} {w}/{g}" for p, (w, g) in enumerate(by_seat)))
        print(f"  {seconds:.0f} s on {args.workers} worker(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
