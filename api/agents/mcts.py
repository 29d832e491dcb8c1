"""Monte Carlo tree search (UCT) for games without hidden information, and how fast it runs.

Generic over every compiled rule set: it uses only the game API (`clone`, `legal_actions`, `play`,
`scores`, `winners`); like every agent it chooses an index in the legal actions
(api/agents/base.py), and plays its play-outs by index too. Seeded and deterministic: the same
state and seed give the same choice. Chance inside its look-ahead (a die, a tablet, a card drawn
by the rules) is drawn by the clone's generator reseeded from the agent's own: the agent never
foresees the draws the game itself will make (the game's generator state is not something a seat
sees), and it never disturbs them.

It reads the whole state, so it is for rule sets whose fields every seat sees
(`has_hidden_information`; the registry, api/agents/registry.py, where it is the kind `mcts`,
refuses the others): there an agent must search over states consistent with its observation
(IS-MCTS, api/agents/ismcts.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from ..runtime.rng import Rng, derive_seed
from ..runtime.state import Game, State
from .evaluate import no_move, rewards

DEFAULT_ITERATIONS = 400
DEFAULT_EXPLORATION = 1.4


def _reseed(state: State, rng: Rng) -> None:
    """Chance in `state` (a clone) from now on drawn from the agent's generator, not the game's."""
    state.rng.state = rng.next64()


class _Node:
    """A node of the open-loop tree: reached by a sequence of actions from the root, whatever
    chance drew on the way; its children by their action's name and arguments (not the Action,
    which holds on to the clone that listed it). `totals[p]`: the sum of seat p's rewards over the visits;
    `available`: how many times the node's action was legal when its parent was selected from
    (the count UCB1 takes the logarithm of, since chance changes what is legal)."""

    __slots__ = ("children", "visits", "available", "totals")

    def __init__(self, seats: int) -> None:
        self.children: dict[tuple[str, tuple[Any, ...]], _Node] = {}
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * seats


class MCTSAgent:
    """Monte Carlo tree search with UCB1 (UCT) for games without hidden information, for any
    number of players and with chance.

    Each iteration clones the position (its chance reseeded from the agent's generator), walks
    down the tree choosing, among the children legal in the simulated position, the one of
    highest UCB1 for the seat to act (its mean reward plus `exploration` * sqrt(ln(available) /
    visits)), adds one untried legal action as a new node, plays random moves to the end (or for
    `rollout_moves` moves, then weighs each seat's lead in score: see `rewards`), and adds each seat's
    reward to every node on the way. The tree is open-loop: a node is a sequence of actions,
    played again from the root at each iteration, so chance is sampled afresh each time. The
    action chosen is the root's most visited (ties: the better mean, then the first legal).
    `estimate` names a definition of the rule set over one player that a cut play-out is weighed
    by instead of the score (`standings`)."""

    __slots__ = ("rng", "iterations", "exploration", "rollout_moves", "estimate", "deadline")

    def __init__(self, seed: int, iterations: int = DEFAULT_ITERATIONS, exploration: float = DEFAULT_EXPLORATION,
                 rollout_moves: int | None = None, estimate: str | None = None) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if not exploration >= 0 or math.isinf(exploration):
            raise ValueError(f"exploration must be a number from 0, not {exploration}")
        if rollout_moves is not None and rollout_moves < 0:
            raise ValueError(f"rollout_moves must be at least 0, not {rollout_moves}")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_moves = rollout_moves
        self.estimate = estimate or None
        # when set (time.monotonic()), the search stops there after at least one iteration and the
        # move is chosen from the tree grown so far (the web board's limit on a move's time)
        self.deadline: float | None = None

    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise no_move(state)
        if len(legal) == 1:
            return 0
        root = self.search(state, self.iterations)
        seat = state.to_act()
        assert seat is not None
        best = 0
        best_key = (-1, 0.0)
        for index, action in enumerate(legal):  # (the root's own Action objects, in legal order)
            child = root.children.get((action.name, action.args))
            if child is None:
                continue
            key = (child.visits, child.totals[seat] / child.visits)
            if key > best_key:
                best, best_key = index, key
        return best

    def search(self, state: State, iterations: int) -> _Node:
        """The tree grown from `state` by `iterations` iterations."""
        seats = state.num_players
        root = _Node(seats)
        rng = self.rng
        c = self.exploration
        cap = self.rollout_moves
        log, sqrt = math.log, math.sqrt
        deadline = self.deadline
        for k in range(iterations):
            if deadline is not None and k and time.monotonic() >= deadline:
                break
            sim = state.clone()
            _reseed(sim, rng)
            node = root
            path = [root]
            # selection and expansion
            while not sim.terminal:
                legal = sim.legal_actions()
                children = node.children
                untried = [i for i, a in enumerate(legal) if (a.name, a.args) not in children]
                if untried:
                    index = untried[rng.below(len(untried))]
                    action = legal[index]
                    child = _Node(seats)
                    child.available = 1
                    children[action.name, action.args] = child
                    sim.play(index)
                    path.append(child)
                    break
                actor = sim.to_act()
                assert actor is not None
                chosen = -1
                chosen_node: _Node | None = None
                top = -math.inf
                for index, action in enumerate(legal):
                    child = children[action.name, action.args]
                    child.available += 1
                    value = child.totals[actor] / child.visits + c * sqrt(log(child.available) / child.visits)
                    if value > top:
                        top, chosen, chosen_node = value, index, child
                assert chosen_node is not None
                sim.play(chosen)
                node = chosen_node
                path.append(node)
            # rollout
            _rollout(sim, rng, cap)
            # backpropagation
            reward = rewards(sim, self.estimate)
            for visited in path:
                visited.visits += 1
                totals = visited.totals
                for p in range(seats):
                    totals[p] += reward[p]
        return root


def _rollout(sim: State, rng: Rng, cap: int | None) -> None:
    """Random moves from `sim` to the end of the game, or `cap` of them."""
    moves = 0
    while not sim.terminal and (cap is None or moves < cap):
        sim.play(rng.below(len(sim.legal_actions())))
        moves += 1


SPEED_ITERATIONS = 16  # iterations per search timed by `mcts_speed`


def mcts_speed(game: Game, players: int, budget: float, seed: int = 1,
               options: Mapping[str, str] | None = None) -> dict[str, Any]:
    """MCTS iterations per second (default exploration, rollouts to the end of the game): searches
    of SPEED_ITERATIONS iterations from the positions of random games, one search per position,
    timed until `budget` seconds have gone (one search at least). For any rule set, hidden
    information or not: it measures what a search costs (clone, replay and rollouts). The games are
    played with the rule `options` given (the defaults otherwise)."""
    clock = time.perf_counter
    agent = MCTSAgent(seed, SPEED_ITERATIONS)
    walker = Rng(seed)
    games = searches = 0
    spent = 0.0
    state: State | None = None
    while searches == 0 or spent < budget:
        if state is None or state.terminal:
            state = game.new_state(players, derive_seed(seed, games), options)
            games += 1
        started = clock()
        agent.search(state, SPEED_ITERATIONS)
        spent += clock() - started
        searches += 1
        state.play(walker.below(len(state.legal_actions())))
    return {"mcts_iterations_per_sec": round(searches * SPEED_ITERATIONS / spent, 1), "mcts_searches": searches}
