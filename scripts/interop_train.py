#!/usr/bin/env python3
"""Train a small agent on a rule set through the PettingZoo bridge, then measure it against the
random agent and against rulewright's MCTS agent (docs/interop.md).

    .venv/bin/python scripts/interop_train.py china-cornett --option board=hex5 --episodes 3000 -n 100

The agent: a linear action-value function, one weight vector per token, over the seat's
observation vector (rulewright.interop.core.Layout; clipped to [-10, 10] and scaled by 1/10,
with a bias), trained by Monte Carlo control: it plays epsilon-greedy (--epsilon at the start,
down to 0.02 at the end) against the random agent, seat 1 and seat 2 in turn, and after each game
moves the value of each token it chose towards the game's return (1 won, -1 lost, 0 a draw), by
--rate of the error (a normalised step: the features' squared length divides it). CPU only,
numpy only. Then, greedy, it plays -n games against the random agent and -n
against rulewright's MCTS agent (`mcts:iterations=N`, played into the environment with
`env.step_action`), half in each seat, on seeds apart from the training's; the untrained agent
(every value 0: it plays the lowest legal token) plays the random agent, and the random agent the
MCTS agent, for scale. Wins with a 95% Wilson interval (a shared win counts
half).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from rulewright.agents import MCTSAgent
from rulewright.interop import pettingzoo
from rulewright.runtime.rng import derive_seed

sys.path.insert(0, str(Path(__file__).parent))
from agent_strength import wilson  # noqa: E402


class Linear:
    """Q(observation, token) = w[token] . features(observation)."""

    def __init__(self, size: int, tokens: int, seed: int) -> None:
        self.w = np.zeros((tokens, size + 1), np.float64)
        self.rng = np.random.default_rng(seed)

    @staticmethod
    def features(observation: np.ndarray) -> np.ndarray:
        return np.append(np.clip(observation, -10.0, 10.0) / 10.0, 1.0)

    def act(self, observation: dict[str, np.ndarray], epsilon: float) -> tuple[int, np.ndarray]:
        x = self.features(observation["observation"])
        legal = np.flatnonzero(observation["action_mask"])
        if epsilon and self.rng.random() < epsilon:
            return int(self.rng.choice(legal)), x
        return int(legal[int(np.argmax(self.w[legal] @ x))]), x

    def learn(self, trajectory: list[tuple[int, np.ndarray]], result: float, rate: float) -> None:
        for token, x in trajectory:  # (normalised: a step of `rate` of the error, however many features)
            self.w[token] += rate * (result - self.w[token] @ x) * x / (x @ x)


class Seat(Protocol):
    def play(self, env: pettingzoo.RulewrightEnv, observation: dict[str, np.ndarray]) -> None: ...


class Learner:
    def __init__(self, agent: Linear, epsilon: float) -> None:
        self.agent, self.epsilon = agent, epsilon
        self.trajectory: list[tuple[int, np.ndarray]] = []

    def play(self, env: pettingzoo.RulewrightEnv, observation: dict[str, np.ndarray]) -> None:
        token, x = self.agent.act(observation, self.epsilon)
        self.trajectory.append((token, x))
        env.step(token)


class RandomTokens:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def play(self, env: pettingzoo.RulewrightEnv, observation: dict[str, np.ndarray]) -> None:
        env.step(int(self.rng.choice(np.flatnonzero(observation["action_mask"]))))


class Searcher:
    """rulewright's MCTS agent: it chooses a whole move on the state, played token by token."""

    def __init__(self, seed: int, iterations: int) -> None:
        self.mcts = MCTSAgent(seed, iterations=iterations)

    def play(self, env: pettingzoo.RulewrightEnv, observation: dict[str, np.ndarray]) -> None:
        state = env.position.state if env.position is not None else None
        assert state is not None
        env.step_action(state.action_at(self.mcts.choose(state)))


def game(env: pettingzoo.RulewrightEnv, seed: int, seats: list[Seat]) -> list[float]:
    """One game; the returns, by seat."""
    env.reset(seed=seed)
    returns: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            returns[agent] = float(reward)
            env.step(None)
            continue
        seats[env.possible_agents.index(agent)].play(env, observation)
    return [returns[a] for a in env.possible_agents]


def match(env: pettingzoo.RulewrightEnv, games: int, seed: int, measured: Any, other: Any) -> dict[str, Any]:
    """`measured` against `other` (factories of a seat from a seed), seat 1 and seat 2 in turn."""
    wins = 0.0
    for i in range(games):
        s = derive_seed(seed, i)
        first = i % 2 == 0
        seats = [measured(s), other(s + 1)] if first else [other(s + 1), measured(s)]
        result = game(env, s, seats)[0 if first else 1]
        wins += 1.0 if result == 1.0 else 0.5 if result == 0.0 else 0.0
    low, high = wilson(round(wins), games)
    return {"games": games, "wins": wins, "win_rate": round(wins / games, 3),
            "wilson95": [round(low, 3), round(high, 3)]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("ruleset", nargs="?", default="china-cornett")
    parser.add_argument("--option", action="append", default=[], help="K=V, an option of the rule set")
    parser.add_argument("--episodes", type=int, default=3000, help="training games")
    parser.add_argument("-n", "--games", type=int, default=100, help="games of each match (an even number)")
    parser.add_argument("--iterations", type=int, default=50, help="the MCTS agent's iterations per move")
    parser.add_argument("--rate", type=float, default=0.2, help="the learning rate (of the error, per step)")
    parser.add_argument("--epsilon", type=float, default=0.2, help="exploration at the start (down to 0.02)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    env = pettingzoo.env(args.ruleset, options=options)
    if env.bridge.players != 2:
        print("interop_train: a two-player rule set, please", file=sys.stderr)
        return 2
    size, tokens = env.bridge.layout.size, len(env.bridge.vocabulary)
    agent = Linear(size, tokens, args.seed)
    untrained = Linear(size, tokens, args.seed)  # all values 0: the lowest legal token, always
    started = time.perf_counter()
    trained: list[float] = []
    for episode in range(args.episodes):
        epsilon = max(0.02, args.epsilon * (1 - episode / max(1, args.episodes)))
        learner = Learner(agent, epsilon)
        seat = episode % 2
        seats: list[Seat] = [learner, RandomTokens(episode)] if seat == 0 else [RandomTokens(episode), learner]
        result = game(env, derive_seed(args.seed, episode), seats)[seat]
        agent.learn(learner.trajectory, result, args.rate)
        trained.append(result)
    training = time.perf_counter() - started

    def greedy(seed: int) -> Seat:
        return Learner(agent, 0.0)

    def lowest(seed: int) -> Seat:
        return Learner(untrained, 0.0)

    def random_tokens(seed: int) -> Seat:
        return RandomTokens(seed)

    def mcts(seed: int) -> Seat:
        return Searcher(seed, args.iterations)

    evaluation_seed = derive_seed(args.seed, 1_000_003)
    started = time.perf_counter()
    report = {
        "ruleset": args.ruleset, "options": options, "episodes": args.episodes,
        "observation_size": size, "tokens": tokens, "training_seconds": round(training, 1),
        "training_return_first_tenth": round(float(np.mean(trained[: max(1, len(trained) // 10)])), 3),
        "training_return_last_tenth": round(float(np.mean(trained[-max(1, len(trained) // 10):])), 3),
        "untrained_vs_random": match(env, args.games, evaluation_seed, lowest, random_tokens),
        "trained_vs_random": match(env, args.games, evaluation_seed, greedy, random_tokens),
        f"trained_vs_mcts{args.iterations}": match(env, args.games, evaluation_seed, greedy, mcts),
        f"untrained_vs_mcts{args.iterations}": match(env, args.games, evaluation_seed, lowest, mcts),
        f"random_vs_mcts{args.iterations}": match(env, args.games, evaluation_seed, random_tokens, mcts),
    }
    report["evaluation_seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
