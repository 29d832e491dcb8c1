"""Search agents for games without hidden information: greedy (one ply) and MCTS (UCT).

Both are generic over every compiled rule set: they use only the game API (`clone`,
`legal_actions`, `play`, `scores`, `winners`); like every agent they choose an index in the legal
actions (api/agents.py), and play their candidates and play-outs by index too. Both are seeded
and deterministic: the same state and seed give the same choice. Chance inside their look-ahead
(a die, a tablet, a card drawn by the rules) is drawn by the clone's generator reseeded from the
agent's own: an agent never foresees the draws the game itself will make (the game's generator
state is not something a seat sees), and it never disturbs them.

They read the whole state, so they are for rule sets whose fields every seat sees
(`has_hidden_information`; the registry of api/agents.py, where they are the kinds `greedy` and
`mcts`, refuses the others): there an agent must search over states consistent with its
observation (IS-MCTS).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from .agents import has_hidden_information, hidden_fields
from .runtime.errors import IllegalAction
from .runtime.rng import Rng, derive_seed
from .runtime.state import Game, State

DEFAULT_ITERATIONS = 400
DEFAULT_EXPLORATION = 1.4

__all__ = ["GreedyAgent", "MCTSAgent", "has_hidden_information", "hidden_fields", "mcts_speed", "rewards"]


def _no_move(state: State) -> IllegalAction:
    return IllegalAction("no legal action: the game is over")


def _reseed(state: State, rng: Rng) -> None:
    """Chance in `state` (a clone) from now on drawn from the agent's generator, not the game's."""
    state.rng.state = rng.next64()


def _lead(scores: Sequence[int], seat: int, lowest_wins: bool) -> tuple[int, int]:
    """The seat's lead over the best score of the others, and that score (the lowest where the
    lowest wins, the lead then turned round): the lead is above zero when the seat is ahead."""
    others = [s for p, s in enumerate(scores) if p != seat]
    if not others:
        return 0, scores[seat]
    if lowest_wins:
        best = min(others)
        return best - scores[seat], best
    best = max(others)
    return scores[seat] - best, best


def standings(state: State, estimate: str | None) -> list[int]:
    """What a search weighs a position by: the scores, or with `estimate` (the name of a
    definition of the rule set over one player, checked by `agents.check_estimate`) its value for
    each seat. For a rule set whose score says nothing before the end (Yellow & Yangtze's points
    are secret until then) a designer's estimate is what a short play-out can be weighed by."""
    if not estimate:
        return state.scores()
    value = getattr(state, estimate)
    return [int(value(p)) for p in range(state.num_players)]


class GreedyAgent:
    """One ply: plays each legal action on a clone and chooses the one after which the seat's
    score leads the best other score by most (a move that ends the game won comes first, one
    that ends it lost last); ties are broken by its seeded generator. Every candidate is played
    with the same chance draws (one reseed per decision), so chance does not decide between
    moves that are otherwise alike. With `estimate`, a definition of the rule set over one player,
    the lead is in that value rather than in score (see `standings`)."""

    __slots__ = ("rng", "estimate")

    def __init__(self, seed: int, estimate: str | None = None) -> None:
        self.rng = Rng(seed)
        self.estimate = estimate or None

    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise _no_move(state)
        seat = state.to_act()
        assert seat is not None
        if len(legal) == 1:
            return 0
        chance = self.rng.next64()
        best: list[int] = []
        best_key: tuple[int, int] | None = None
        for index in range(len(legal)):
            after = state.clone()
            after.rng.state = chance
            after.play(index)
            if after.terminal:
                won = seat in after.winners()
                outcome = 1 if won else -1
            else:
                outcome = 0
            key = (outcome, _lead(standings(after, self.estimate), seat, after.game.lowest_score_wins)[0])
            if best_key is None or key > best_key:
                best, best_key = [index], key
            elif key == best_key:
                best.append(index)
        return best[self.rng.below(len(best))]


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


def rewards(state: State, estimate: str | None = None) -> list[float]:
    """Each player's reward, 0 to 1, for a position a simulation ended at. A finished game:
    the winners share 1. A game cut short: by the seat's lead over the best other score, relative
    to the size of the two, 1/2 + tanh(lead / (|own| + |best other| + 1)) / 2: a half for level
    scores, towards 1 for a large lead, towards 0 for a large deficit (at two players the two
    rewards add up to 1). The lead counts, not only who leads: a move that gains points shows
    even where a short play-out does not change the order. With `estimate`, the lead is in that
    definition's value rather than in score (`standings`)."""
    n = state.num_players
    if state.terminal:
        winners = state.winners()
        share = 1.0 / len(winners) if winners else 0.0
        out = [0.0] * n
        for p in winners:
            out[p] = share
        return out
    if n == 1:
        return [0.5]
    scores = standings(state, estimate)
    lowest = state.game.lowest_score_wins
    out = []
    for p in range(n):
        lead, best = _lead(scores, p, lowest)
        out.append(0.5 + 0.5 * math.tanh(lead / (abs(scores[p]) + abs(best) + 1)))
    return out


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
            raise _no_move(state)
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


def mcts_speed(game: Game, players: int, budget: float, seed: int = 1) -> dict[str, Any]:
    """MCTS iterations per second (default exploration, rollouts to the end of the game): searches
    of SPEED_ITERATIONS iterations from the positions of random games, one search per position,
    timed until `budget` seconds have gone (one search at least). For any rule set, hidden
    information or not: it measures what a search costs (clone, replay and rollouts)."""
    clock = time.perf_counter
    agent = MCTSAgent(seed, SPEED_ITERATIONS)
    walker = Rng(seed)
    games = searches = 0
    spent = 0.0
    state: State | None = None
    while searches == 0 or spent < budget:
        if state is None or state.terminal:
            state = game.new_state(players, derive_seed(seed, games))
            games += 1
        started = clock()
        agent.search(state, SPEED_ITERATIONS)
        spent += clock() - started
        searches += 1
        state.play(walker.below(len(state.legal_actions())))
    return {"mcts_iterations_per_sec": round(searches * SPEED_ITERATIONS / spent, 1), "mcts_searches": searches}
