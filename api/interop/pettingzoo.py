"""Every compiled rule set as a PettingZoo AEC environment (docs/interop.md).

    from rulewright.interop import pettingzoo
    env = pettingzoo.env("china-schacht/two-player", render_mode="ansi")
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        mask = observation["action_mask"]
        env.step(None if terminated or truncated else env.action_space(agent).sample(mask))

The agents are `player_0`, `player_1`, ... (seat 1 is `player_0`). An action is a token
(rulewright.interop.core: a move is chosen in steps, its name then its arguments; the same
agent acts again until its move is made), `Discrete(tokens)`; an observation is a dict of
`observation`, the seat's observation as a float32 vector made from the declared fields and
their visibility (`Box` with the bounds of each part), and `action_mask`, the legal tokens (int8;
all zeros for an agent not to act). Rewards come at the end: the rule set's `returns:` where it
declares them (`env.utility` says whether they are zero-sum, constant-sum or general-sum,
`env.reward_range` their least and most), else the winners share one point, centred so the game
is zero-sum. Chance is the game's own: a game is `rulewright`'s game of the
seed given to `reset` (without one, the next seed of those the last given one derives, from 0).
The rule set's options are fixed when the environment is made; `reset`'s `options` are not used.
A game longer than `max_game_length` decisions is truncated. `render()`: the text drawing of the
board as the agent to act sees it (render_mode `ansi` returns it, `human` prints it), or its SVG
drawing (render_mode `svg`). `step_action(action)` plays a whole move given as rulewright gives it
(what a rulewright agent chooses), token by token.

`parallel_env(...)` is the same game as a PettingZoo ParallelEnv, the form for a rule set with
simultaneous decisions (docs/language.md, "Simultaneous decisions"; any rule set works): every
agent gives an action at every step. At a simultaneous decision each seat choosing gives its next
token at once (a move of several tokens takes several steps; a seat whose tokens name its action
already gives the no-op token `pass`, as does every seat with nothing to choose); at any other
decision only the seat to act's token is played, and the others' masks hold the no-op alone (what
they give is not used). The observations, masks, rewards and truncation are the AEC env's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..runtime.errors import IllegalAction
from ..runtime.rng import derive_seed
from ..runtime.state import PASS, Action
from .core import DEFAULT_MAX_GAME_LENGTH, Bridge, Position, bridge, key

RENDER_MODES = ("ansi", "human", "svg")


def env(ruleset: str | os.PathLike[str], players: int | None = None, options: Mapping[str, str] | None = None,
        render_mode: str | None = None, max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> RulewrightEnv:
    """The AEC environment of a rule set (a bundled id or a rule file), at `players` (its
    smallest count unless told), with `options` (the defaults unless told)."""
    return RulewrightEnv(str(ruleset), players, options, render_mode, max_game_length)


class RulewrightEnv(AECEnv):  # type: ignore[misc]
    def __init__(self, ruleset: str, players: int | None = None, options: Mapping[str, str] | None = None,
                 render_mode: str | None = None, max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        self.bridge: Bridge = bridge(key(ruleset, players, options, max_game_length))
        b = self.bridge
        self.metadata = {"render_modes": list(RENDER_MODES), "name": _name(b), "is_parallelizable": False}
        self.render_mode = render_mode
        # what the rewards of a game add up to (`zero_sum`, `constant_sum` with `utility_sum`,
        # `general_sum`), and the least and most reward of one agent: PettingZoo has no field for them
        self.utility, self.utility_sum, self.reward_range = b.utility, b.utility_sum, b.utility_bounds
        self.possible_agents = [f"player_{p}" for p in range(b.players)]
        layout = b.layout
        tokens = len(b.vocabulary)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=layout.low, high=layout.high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(tokens,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(tokens) for agent in self.possible_agents}
        self._base_seed = 0
        self._episode = 0
        self.position: Position | None = None
        self.agents: list[str] = []

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._base_seed, self._episode = int(seed), 0
        game_seed = self._base_seed if self._episode == 0 else derive_seed(self._base_seed, self._episode)
        self._episode += 1
        self.position = self.bridge.live(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._playing()
        seat = self.possible_agents.index(agent)
        vector = np.zeros(self.bridge.layout.size, np.float32)
        self.bridge.layout.write(p.observation(seat), seat, p.own_prefix(seat), vector)
        mask = np.zeros(len(self.bridge.vocabulary), np.int8)
        if p.to_act() == seat:
            mask[p.legal()] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._playing()
        self._cumulative_rewards[agent] = 0.0
        p.apply(int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if p.is_terminal():
            if p.truncated:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.terminations = dict.fromkeys(self.agents, True)
            self.rewards = dict(zip(self.agents, p.returns(), strict=True))
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def step_action(self, action: Action | str) -> None:
        """Play a whole move of the agent to act, given as rulewright gives it (an action of the
        state's legal actions, or its text: what a rulewright agent chooses), token by token."""
        p = self._playing()
        assert p.state is not None
        seat = p.to_act()
        chosen = p.state.parse_action(action) if isinstance(action, str) else action
        if seat is None or chosen is None:
            raise IllegalAction(f"`{action}` cannot be played now")
        tokens = self.bridge.vocabulary.tokens(chosen)
        made = len(p.own_actions(seat))
        while len(p.own_actions(seat)) == made and not p.is_terminal():
            self.step(tokens[len(p.prefix)])

    def render(self) -> str | None:
        p = self._playing()
        assert p.state is not None
        seat = self.possible_agents.index(self.agent_selection) if self.agent_selection else 0
        if self.render_mode == "svg":
            from ..draw import render_svg

            return render_svg(p.state, seat)
        from ..render import render_state

        text = render_state(p.state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.position = None

    def _playing(self) -> Position:
        if self.position is None:
            raise RuntimeError("reset() the environment first")
        return self.position

    def _select(self) -> None:
        """The agent to act; once the game is over, the one who made the last move stays chosen
        (every agent then steps once, with None, to leave)."""
        seat = self._playing().to_act()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif not getattr(self, "agent_selection", None):
            self.agent_selection = self.agents[0]


def parallel_env(ruleset: str | os.PathLike[str], players: int | None = None,
                 options: Mapping[str, str] | None = None, render_mode: str | None = None,
                 max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> RulewrightParallelEnv:
    """The parallel environment of a rule set: every agent acts at every step (above)."""
    return RulewrightParallelEnv(str(ruleset), players, options, render_mode, max_game_length)


class RulewrightParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A rule set as a ParallelEnv: the seats of a simultaneous decision choose together."""

    def __init__(self, ruleset: str, players: int | None = None, options: Mapping[str, str] | None = None,
                 render_mode: str | None = None, max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> None:
        self._aec = RulewrightEnv(ruleset, players, options, render_mode, max_game_length)
        self.bridge = self._aec.bridge
        self.metadata = {**self._aec.metadata, "is_parallelizable": True}
        self.render_mode = render_mode
        self.possible_agents = self._aec.possible_agents
        self.observation_spaces = self._aec.observation_spaces
        self.action_spaces = self._aec.action_spaces
        self.agents: list[str] = []
        self._noop = self.bridge.vocabulary.name[PASS]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._aec.reset(seed, options)
        self.agents = self.possible_agents[:]
        return {agent: self._observe(agent) for agent in self.agents}, {agent: {} for agent in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                         dict[str, bool], dict[str, dict[str, Any]]]:
        p = self._aec._playing()
        if not self.agents or p.is_terminal():
            raise IllegalAction("the game is over: reset() the environment")
        missing = [agent for agent in self.agents if agent not in actions]
        if missing:
            raise IllegalAction(f"no action for {', '.join(missing)}: every agent acts at every step")
        if p.is_simultaneous():
            p.apply_joint([int(actions[agent]) for agent in self.possible_agents])
        else:
            seat = p.to_act()
            assert seat is not None
            p.apply(int(actions[self.possible_agents[seat]]))
        agents = self.agents
        observations = {agent: self._observe(agent) for agent in agents}
        rewards = dict.fromkeys(agents, 0.0)
        over = p.is_terminal()
        terminations = dict.fromkeys(agents, over and not p.truncated)
        truncations = dict.fromkeys(agents, over and p.truncated)
        if over:
            rewards = dict(zip(agents, p.returns(), strict=True))
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, {agent: {} for agent in agents}

    def render(self) -> str | None:
        return self._aec.render()

    def close(self) -> None:
        self._aec.close()

    def state(self) -> np.ndarray:
        raise NotImplementedError("a rule set's whole state is `position.state.to_json()`; no global vector")

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._aec._playing()
        seat = self.possible_agents.index(agent)
        vector = np.zeros(self.bridge.layout.size, np.float32)
        self.bridge.layout.write(p.observation(seat), seat, p.own_prefix(seat), vector)
        mask = np.zeros(len(self.bridge.vocabulary), np.int8)
        if not p.is_terminal():
            if p.is_simultaneous():
                mask[p.legal_of(seat)] = 1
            elif p.to_act() == seat:
                mask[p.legal()] = 1
            else:
                mask[self._noop] = 1
        return {"observation": vector, "action_mask": mask}


def _name(b: Bridge) -> str:
    return "rulewright_" + b.game.info.ruleset.replace("/", "_").replace("-", "_")


__all__ = ["RulewrightEnv", "RulewrightParallelEnv", "env", "parallel_env"]
