"""Every bundled rule set as a PettingZoo AEC environment, judged by PettingZoo's own tests:
`api_test` (400 cycles: every rule set's game runs that many steps of each agent, or to its end)
and `seed_test` (two environments reset with one seed play the same).

PettingZoo's `api_test` warns that an observation is a dict, and that its space is not a Box,
for every environment but those of its own it names (its classic games with action masks give
dicts too): those two warnings are expected here, and nothing else is."""

from __future__ import annotations

import random

import numpy as np
import pytest

import rulewright
from tests.helpers.games import RULESETS

pettingzoo = pytest.importorskip(
    "pettingzoo", reason="pettingzoo cannot be installed for this interpreter: the PettingZoo bridge is not "
                         "tested (pip install 'rulewright[pettingzoo]')")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulewright.interop import pettingzoo as bridge  # noqa: E402
from rulewright.interop.core import utilities  # noqa: E402

DICT_OBSERVATIONS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box:UserWarning",
]


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoos_api_and_seed_tests_pass(ruleset: str) -> None:
    api_test(bridge.env(ruleset, render_mode="ansi"), num_cycles=400)
    seed_test(lambda: bridge.env(ruleset), num_cycles=100)


def play(env: bridge.RulewrightEnv, seed: int) -> list[tuple[str, int]]:
    """A game of random legal tokens to the end; each agent's move, and the returns."""
    choose = random.Random(seed)
    moves = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        token = choose.choice(np.flatnonzero(observation["action_mask"]).tolist())
        moves.append((agent, token))
        env.step(token)
    return moves


def test_a_game_is_the_game_of_its_seed_and_ends_with_the_returns() -> None:
    env = bridge.env("china-schacht/two-player")
    env.reset(seed=3)
    assert env.agents == ["player_0", "player_1"] and env.agent_selection == "player_0"
    state = env.position.state
    assert state is not None
    assert state.to_json() == rulewright.load("china-schacht/two-player").new_state(2, 3).to_json()
    rewards: dict[str, float] = {}
    choose = random.Random(0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(choose.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    final = env.position.state
    assert final is not None and final.is_terminal()
    assert [rewards[a] for a in ("player_0", "player_1")] == utilities(final.winners(), 2)
    env.reset(seed=3)
    first = play(env, 1)
    env.reset(seed=3)
    assert play(env, 1) == first
    env.reset()  # the next game of seed 3
    assert env.position.state.to_json() != rulewright.load("china-schacht/two-player").new_state(2, 3).to_json()


def test_the_observation_is_the_seats_and_the_mask_its_legal_tokens() -> None:
    env = bridge.env("chang-cheng/two-player")
    env.reset(seed=5)
    p = env.position
    seat = p.to_act()
    assert seat == 0
    mine, theirs = env.observe("player_0"), env.observe("player_1")
    assert np.flatnonzero(mine["action_mask"]).tolist() == p.legal() and not theirs["action_mask"].any()
    expected = np.zeros(env.bridge.layout.size, np.float32)
    env.bridge.layout.write(p.state.observation(1), 1, (), expected)
    assert np.array_equal(theirs["observation"], expected)
    assert env.observation_space("player_0").contains(mine)


def test_render_draws_the_board_as_the_agent_to_act_sees_it() -> None:
    from rulewright.render import render_state

    env = bridge.env("china-cornett", render_mode="ansi")
    env.reset(seed=2)
    assert env.render() == render_state(env.position.state, 0)
    svg = bridge.env("china-cornett", render_mode="svg")
    svg.reset(seed=2)
    assert str(svg.render()).startswith("<svg")
    with pytest.raises(ValueError, match="render_mode must be one of ansi, human, svg"):
        bridge.env("china-cornett", render_mode="rgb_array")


def test_a_long_game_is_truncated() -> None:
    env = bridge.env("mandarin", max_game_length=20)
    env.reset(seed=0)
    moves = play(env, 0)
    assert len(moves) == 20 and not env.agents
