"""Agents: whoever chooses the move of a seat that no person plays.

An agent only needs `choose(state) -> Action`, called when `state.to_act()` is its seat.
"""

from __future__ import annotations

from typing import Protocol

from .runtime.errors import IllegalAction
from .runtime.rng import Rng
from .runtime.state import Action, State

# The random agent of a game draws from its own generator, seeded apart from the state's:
# the moves chosen never disturb the chance of the game itself (dice, draws).
AGENT_SEED_SALT = 0x5EED


def agent_seed(game_seed: int) -> int:
    """The seed of the random agent that plays a game started with `game_seed`."""
    return game_seed ^ AGENT_SEED_SALT


class Agent(Protocol):
    def choose(self, state: State) -> Action: ...


class RandomAgent:
    """Chooses uniformly among the legal actions, reproducibly from its seed."""

    __slots__ = ("rng",)

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise IllegalAction("no legal action: the game is over")
        return legal[self.rng.below(len(legal))]
