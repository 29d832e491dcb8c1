#!/usr/bin/env python3
"""How often the IS-MCTS agent beats a random agent: the long measurement of docs/experiments.md.

    .venv/bin/python scripts/ismcts_strength.py chang-cheng/two-player -n 200 --iterations 200 --workers 2

Game i is seeded `derive_seed(SEED, i)`; the agent plays seat 1 in the even games and seat 2 in
the odd ones (so neither seat's advantage counts for it), seeded `seat_agent_seed(game seed,
seat)`; the other seat is the game's random agent. A tie counts as a share of a win. Prints a
line per game (to stderr) and the result with its 95% Wilson interval (scipy) as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from scipy.stats import binomtest  # type: ignore[import-untyped, unused-ignore]

import rulewright
from rulewright.agents import ISMCTSAgent, seat_agent_seed
from rulewright.match import play_game
from rulewright.runtime import derive_seed


def one_game(ruleset: str, seed: int, index: int, iterations: int, rollout_moves: int,
             score_weight: float) -> tuple[int, int, list[int], int, str | None]:
    game = rulewright.load(ruleset)
    seat = index % 2
    game_seed = derive_seed(seed, index)
    agent = ISMCTSAgent(seat_agent_seed(game_seed, seat), iterations=iterations,
                        rollout_moves=rollout_moves, score_weight=score_weight)
    result = play_game(game, 2, game_seed, agents={seat: agent})
    return index, seat, result.winners, result.moves, result.error


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset")
    parser.add_argument("-n", "--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--rollout-moves", type=int, default=0,
                        help="moves a play-out may last, then the score decides (0: to the end)")
    parser.add_argument("--score-weight", type=float, default=0.1,
                        help="share of a play-out's reward given by the scaled score")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    start = time.monotonic()
    won = 0.0
    played = errors = 0
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(one_game, args.ruleset, args.seed, i, args.iterations,
                               args.rollout_moves, args.score_weight) for i in range(args.games)]
        for future in futures:
            index, seat, winners, moves, error = future.result()
            played += 1
            errors += error is not None
            share = 1 / len(winners) if seat in winners else 0.0
            won += share
            print(f"game {index}: IS-MCTS seat {seat + 1}, winners {[w + 1 for w in winners]}, {moves} moves, "
                  f"{won:g}/{played} so far", file=sys.stderr, flush=True)
    interval = binomtest(round(won), played).proportion_ci(0.95, method="wilson")
    print(json.dumps({
        "ruleset": args.ruleset, "games": played, "iterations": args.iterations,
        "rollout_moves": args.rollout_moves, "score_weight": args.score_weight, "seed": args.seed,
        "ismcts_wins": won, "win_rate": won / played, "wilson_95": [interval.low, interval.high],
        "errors": errors, "seconds": round(time.monotonic() - start, 1),
    }))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
