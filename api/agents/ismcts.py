"""Information-set Monte Carlo tree search (single observer; Cowling, Powley, Whitehouse 2012).

The agent searches one tree over the moves of every seat, from the seat to act's information
set: each iteration draws a state consistent with what that seat sees (`state.sample_unseen`,
runtime/unseen.py), walks the tree down it with UCB1 over the actions legal in that sample
(counting how often each was available, not how often its parent was visited), adds one node,
plays the rest at random and backs the result up, each node scored for the seat that chose its
action. The move chosen is the root's most visited action.

No hidden value is ever read: `choose` calls only `to_act()`, `legal_actions()` and
`sample_unseen()` on the state it is given, and searches only samples, which depend on what the
seat sees and on the agent's generator alone (tests/test_ismcts.py poisons the hidden fields and
checks the move is the same, and plays through a state that refuses anything else).

Rewards, per seat, in [0, 1]: `1 - score_weight` shared by the winners of a finished game, plus
`score_weight` times the seat's score scaled between the lowest and the highest score (for a
rule set whose lowest score wins, the other way round). A play-out cut at `rollout_moves` moves
is weighed as MCTS weighs one (`evaluate.rewards`): by the seat's lead over the best other, in
score or in `estimate`, relative to their size, so a larger lead counts for more. Seeded and
deterministic: the same seed, state and calls give the same moves.

Simultaneous decisions (docs/language.md, "Simultaneous decisions"): what the other seats chose
already is hidden from the seat, so each sample takes it back (`State.reopened`) and the search
chooses for every seat of the decision at once, each seat by UCB1 over its own statistics of the
node (decoupled UCT), none seeing the others' choice; the joint choice leads to the next node.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..runtime.errors import IllegalAction
from ..runtime.rng import Rng
from ..runtime.state import Action, State
from .evaluate import returns_rewards
from .evaluate import rewards as cut_rewards


class _Node:
    """The action that led here (the seat that chose it), its visits, reward and availability."""

    __slots__ = ("actor", "visits", "reward", "available", "children", "seats")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        # the next nodes: by action; after a simultaneous decision, by the joint choice (a tuple)
        self.children: dict[Any, _Node] = {}
        # at a simultaneous decision: each seat's own statistics of its choices, by action
        self.seats: dict[int, dict[Action, _Node]] | None = None


class ISMCTSAgent:
    """Single-observer IS-MCTS: `iterations` samples of the seat's information set per move."""

    def __init__(self, seed: int, iterations: int = 400, exploration: float = 0.7,
                 rollout_moves: int = 0, score_weight: float = 0.1, estimate: str | None = None) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if not 0.0 <= score_weight <= 1.0:
            raise ValueError("score_weight must be between 0 and 1")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_moves = rollout_moves  # 0: play every play-out to the end of the game
        self.score_weight = score_weight
        # a definition over one player that a cut play-out is weighed by, rather than the score
        # (evaluate.standings): evaluated on the sampled state, so it reads nothing the seat cannot see
        self.estimate = estimate or None
        # when set (time.monotonic()), the search stops there after at least one sample (the web
        # board's limit on a move's time)
        self.deadline: float | None = None

    def choose(self, state: State) -> int:
        seat = state.to_act()
        legal = state.legal_actions()
        if seat is None or not legal:
            raise IllegalAction("no legal action: the game is over")
        if len(legal) == 1:
            return 0
        root = _Node(seat)
        deadline = self.deadline
        for k in range(self.iterations):
            if deadline is not None and k and time.monotonic() >= deadline:
                break
            sample = state.sample_unseen(seat, self.rng)
            if sample.is_simultaneous():  # the others' choices, hidden: taken back and searched
                sample = sample.reopened(seat)
            self._iterate(sample, root)
        children = root.children if root.seats is None else root.seats.get(seat, {})
        # the most visited; ties (many when the actions outnumber the iterations): the better mean
        # reward, then the first listed
        best = 0
        best_key = (-1, 0.0)
        for index, action in enumerate(legal):
            child = children.get(action)
            if child is None:
                continue
            key = (child.visits, child.reward / child.visits)
            if key > best_key:
                best, best_key = index, key
        return best

    def _iterate(self, state: State, root: _Node) -> None:
        rng = self.rng
        node = root
        path = [root]
        while not state.is_terminal():
            if state.is_simultaneous():
                joint, expanded = self._choose_together(state, node)
                path.extend(stats for _, stats in joint)
                if expanded:
                    break
                key = tuple(action for action, _ in joint)
                node = node.children.get(key) or node.children.setdefault(key, _Node(-1))
                continue
            legal = state.legal_actions()
            actor = state.to_act()
            assert actor is not None
            untried: list[int] = []
            for index, action in enumerate(legal):
                child = node.children.get(action)
                if child is None:
                    untried.append(index)
                else:
                    child.available += 1
            if untried:
                index = untried[rng.below(len(untried))]
                child = node.children[legal[index]] = _Node(actor)
                child.available += 1
                state.play(index)
                path.append(child)
                break
            index = self._select(node, legal)
            node = node.children[legal[index]]
            state.play(index)
            path.append(node)
        rewards = self._play_out(state)
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += rewards[visited.actor]

    def _choose_together(self, state: State, node: _Node) -> tuple[list[tuple[Action, _Node]], bool]:
        """A simultaneous decision in the tree: each seat still to choose picks by its own statistics
        at `node` (an untried choice first, at random), from its own legal actions, none seeing the
        others' picks; then they are played. The picks with their statistics, and whether one was new."""
        rng = self.rng
        seats = node.seats
        if seats is None:
            seats = node.seats = {}
        picks: list[tuple[int, Action, _Node]] = []
        expanded = False
        for seat in state.choosing():
            stats = seats.setdefault(seat, {})
            legal = state.legal_actions(seat)
            untried = [i for i, action in enumerate(legal) if action not in stats]
            for action in legal:
                if action in stats:
                    stats[action].available += 1
            if untried:
                action = legal[untried[rng.below(len(untried))]]
                stats[action] = chosen = _Node(seat)
                chosen.available += 1
                expanded = True
            else:
                action = legal[self._best(stats, legal)]
                chosen = stats[action]
            picks.append((seat, action, chosen))
        for seat, action, _ in picks:
            state.apply(action, seat=seat)
        return [(action, chosen) for _, action, chosen in picks], expanded

    def _select(self, node: _Node, legal: list[Action]) -> int:
        """UCB1 over the actions legal here, with how often each was available: the index of the best."""
        return self._best(node.children, legal)

    def _best(self, children: dict[Any, _Node], legal: list[Action]) -> int:
        """UCB1 over `children` of the actions legal here: the index of the best."""
        best = 0
        best_value = -math.inf
        c = self.exploration
        for index, action in enumerate(legal):
            child = children[action]
            value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = index, value
        return best

    def _play_out(self, state: State) -> list[float]:
        rng = self.rng
        limit = self.rollout_moves
        moves = 0
        while not state.is_terminal() and (limit <= 0 or moves < limit):
            state.play(rng.below(len(state.legal_actions())))
            moves += 1
        return self._rewards(state)

    def _rewards(self, state: State) -> list[float]:
        if not state.is_terminal():
            # by the lead, not only by who leads: with more actions than iterations each root
            # child is weighed by one play-out, and a binary reward would tie most of them
            return cut_rewards(state, self.estimate)
        if state.RETURNS:  # (`returns:`: the returns the game declares, placed between 0 and 1)
            return returns_rewards(state)
        n = state.num_players
        scores = state.scores()
        low, high = min(scores), max(scores)
        if high > low:
            scaled = [(s - low) / (high - low) for s in scores]
            if state.game.lowest_score_wins:
                scaled = [1.0 - v for v in scaled]
        else:
            scaled = [0.5] * n
        winners = state.winners()
        w = self.score_weight
        share = (1.0 - w) / len(winners) if winners else 0.0
        return [(share if p in winners else 0.0) + w * scaled[p] for p in range(n)]
