"""The agents that search no tree: random, the agent of every seat nobody else plays, and greedy,
one ply. Like every agent they choose an index in the legal actions (api/agents/base.py)."""

from __future__ import annotations

from ..runtime.errors import IllegalAction
from ..runtime.rng import Rng
from ..runtime.state import State
from .evaluate import no_move, seat_lead, standings


class RandomAgent:
    """Chooses uniformly among the legal actions, reproducibly from its seed."""

    __slots__ = ("rng",)

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise IllegalAction("no legal action: the game is over")
        return self.rng.below(len(legal))


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
            raise no_move(state)
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
            key = (outcome, seat_lead(standings(after, self.estimate), seat, after.game.lowest_score_wins)[0])
            if best_key is None or key > best_key:
                best, best_key = [index], key
            elif key == best_key:
                best.append(index)
        return best[self.rng.below(len(best))]
