"""What every agent is and shares: the `Agent` protocol, the seeds that keep a game's agents
apart from its own chance, and the test for hidden information that the searches reading the
whole state are refused by. Imports nothing else of the package: the other modules build on it."""

from __future__ import annotations

from typing import Protocol

from ..runtime.rng import derive_seed
from ..runtime.state import Game, State

# The random agent of a game draws from its own generator, seeded apart from the state's:
# the moves chosen never disturb the chance of the game itself (dice, draws).
AGENT_SEED_SALT = 0x5EED


def agent_seed(game_seed: int) -> int:
    """The seed of the random agent that plays a game started with `game_seed`."""
    return game_seed ^ AGENT_SEED_SALT


def seat_agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent (other than the shared random one) of `seat` (from 0)."""
    return derive_seed(agent_seed(game_seed), seat + 1)


class Agent(Protocol):
    def choose(self, state: State) -> int:
        """The index, in `state.legal_actions()`, of the action to play."""
        ...


def hidden_fields(game: Game) -> list[str]:
    """The state fields some player may not see: declared `visible:` other than `all`, or a list
    that hides some of its items (`hide_items_if:`)."""
    return [info.name for info in game.state_class.FIELDS if info.visible != "all" or info.hides_items]


def has_hidden_information(game: Game) -> bool:
    """Whether some player may not see part of a position of `game` (a hidden field): the
    search agents that read the whole state (`perfect_information` kinds) refuse such a rule set."""
    return bool(hidden_fields(game))
