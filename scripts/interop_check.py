#!/usr/bin/env python3
"""The bridges on every bundled rule set, at full length: what docs/interop.md reports.

    .venv/bin/python scripts/interop_check.py [RULESET ...] [--simulations 10] [--rollout 30] [--json]

For each rule set (at its smallest player count): OpenSpiel's `random_sim_test` (one whole random
game, saved and loaded again along the way) and PettingZoo's `api_test` (1000 cycles) and
`seed_test`, timed; the length of the random game in decisions and chance nodes, the sizes of
the token set, of the observation vector and of the largest chance node. For each rule set two
can play: a whole game of OpenSpiel's MCTS against itself at two players (`--simulations` a
decision, random play-outs cut after `--rollout` decisions), timed, with its result.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import time
import warnings
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from pettingzoo.test import api_test, seed_test

import rulewright
from rulewright.core.paths import bundled_rulesets
from rulewright.interop import openspiel, pettingzoo


def random_game(game: Any) -> tuple[int, int]:
    """The decisions and chance nodes of one random game."""
    state, choose = game.new_initial_state(), random.Random(0)
    decisions = chances = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choose.choices(outcomes, probs)[0])
            chances += 1
        else:
            state.apply_action(choose.choice(state.legal_actions()))
            decisions += 1
    return decisions, chances


def mcts_game(ruleset: str, simulations: int, rollout: int) -> dict[str, Any]:
    game = openspiel.game(ruleset, players=2)
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs, max_length=rollout)
    bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rs)
    state = game.new_initial_state()
    started, decisions = time.perf_counter(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
            decisions += 1
    return {"decisions": decisions, "returns": state.returns(), "seconds": round(time.perf_counter() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--simulations", type=int, default=10)
    parser.add_argument("--rollout", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for ruleset in args.rulesets or [r for r, _ in bundled_rulesets()]:
        game = openspiel.game(ruleset)
        row: dict[str, Any] = {"ruleset": ruleset, "players": game.num_players(),
                               "tokens": game.num_distinct_actions(), "observation": game.observation_tensor_size(),
                               "chance_outcomes": game.max_chance_outcomes()}
        row["decisions"], row["chance_nodes"] = random_game(game)
        started = time.perf_counter()
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
        row["random_sim_test_s"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")  # (api_test's warnings of dict observations, and what it prints)
            api_test(pettingzoo.env(ruleset), num_cycles=1000)
            seed_test(lambda r=ruleset: pettingzoo.env(r), num_cycles=500)
        row["pettingzoo_tests_s"] = round(time.perf_counter() - started, 2)
        if 2 in rulewright.load(ruleset).info.players:
            row["mcts"] = mcts_game(ruleset, args.simulations, args.rollout)
        rows.append(row)
        if not args.json:
            print(json.dumps(row), flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
