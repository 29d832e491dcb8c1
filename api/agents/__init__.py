"""Agents: whoever chooses the move of a seat that no person plays.

An agent only needs `choose(state) -> int`, called when `state.to_act()` is its seat: the index,
in `state.legal_actions()`, of the action it plays. Whoever plays for it hands the index to
`state.play(index)` (`state.action_at(index)` is the action, for its text): the action is taken from
the list without a search of it, and an index that names no legal action is refused (IllegalAction).
The games, the search agents' play-outs, batches and `simulate` all play through that one path.

Agents are named on the command line by a spec, `KIND` or `KIND:NAME=VALUE,NAME=VALUE`
(`mcts:iterations=400`), and given to seats by `K=SPEC` (`--agent 1=mcts:iterations=400`,
seats counted from 1): the registry of kinds, `AGENT_KINDS`, and the specs are registry.py's.

Seeds: every agent is seeded apart from the state's generator, so the moves chosen never
disturb the game's own chance (dice, draws). The seats left to chance share one random agent
seeded `agent_seed(game_seed)`, as they always have; `random` named for a seat is that same
agent, so `--agent 2=random` plays the very games of no `--agent` at all. Any other agent of
seat k (from 0) is seeded `derive_seed(agent_seed(game_seed), k + 1)`.

The modules, each importing only those listed before it:
    base.py      the `Agent` protocol, the seeds, the test for hidden information
    evaluate.py  what a search weighs a position by (the lead in score or estimate, the rewards)
    simple.py    `RandomAgent`, and `GreedyAgent` (one ply)
    mcts.py      `MCTSAgent` (UCT, for games without hidden information), `mcts_speed`
    ismcts.py    `ISMCTSAgent` (information-set MCTS, for any game)
    registry.py  the kinds (`AGENT_KINDS`), the specs and the agents made from them
This module only gathers their public names, as httpx's root does.
"""

from __future__ import annotations

from .base import AGENT_SEED_SALT, Agent, agent_seed, has_hidden_information, hidden_fields, seat_agent_seed
from .ismcts import ISMCTSAgent
from .mcts import MCTSAgent
from .registry import (
    AGENT_KINDS,
    ESTIMATE,
    AgentKind,
    AgentSpec,
    BadAgent,
    Param,
    check_agents,
    check_estimate,
    make_agents,
    parse_agent_option,
    parse_agent_options,
    parse_agent_spec,
    register,
)
from .simple import GreedyAgent, RandomAgent

__all__ = [
    "AGENT_KINDS", "AGENT_SEED_SALT", "ESTIMATE", "Agent", "AgentKind", "AgentSpec", "BadAgent", "GreedyAgent",
    "ISMCTSAgent", "MCTSAgent", "Param", "RandomAgent", "agent_seed", "check_agents", "check_estimate",
    "has_hidden_information", "hidden_fields", "make_agents", "parse_agent_option", "parse_agent_options",
    "parse_agent_spec", "register", "seat_agent_seed",
]
