"""Simultaneous decisions through the bridges (docs/interop.md): the OpenSpiel game of a rule set
with a `simultaneous:` phase is of SIMULTANEOUS dynamics (joint actions, `legal_actions(player)`
for each seat), judged by `pyspiel.random_sim_test`; its PettingZoo ParallelEnv passes
`parallel_api_test`; both play the game rulewright plays."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulewright import load_rules

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel has no wheel for this interpreter: the OpenSpiel bridge is not tested")
openspiel = pytest.importorskip("rulewright.interop.openspiel")
pettingzoo = pytest.importorskip("pettingzoo", reason="pettingzoo cannot be installed for this interpreter")
from pettingzoo.test import parallel_api_test  # noqa: E402

from rulewright.interop import pettingzoo as bridge  # noqa: E402
from rulewright.runtime import IllegalAction  # noqa: E402

SUMO = str(Path(__file__).parent / "games" / "sumo-bids.yaml")
DICT_OBSERVATIONS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box:UserWarning",
]


def test_openspiel_exports_a_simultaneous_game() -> None:
    game = openspiel.game(SUMO)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_plays_the_game_rulewright_plays() -> None:
    """Joint choices of random bids, played in OpenSpiel and in rulewright, give the same states."""
    rng = random.Random(3)
    state = openspiel.game(SUMO).new_initial_state()
    ours = load_rules(SUMO).new_state(2, 0)
    while not state.is_terminal():
        assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
        assert [state.legal_actions(p) for p in range(2)] != [[], []]
        bids = [rng.choice(ours.legal_actions(p)) for p in range(2)]
        # each bid is one token, its digit (at most 5 coins), or the one token of a seat's only bid
        state.apply_actions([next(a for a in state.legal_actions(p) if len(state.legal_actions(p)) == 1
                                  or state.action_to_string(p, a) == f"digit {str(b).split()[1]}")
                             for p, b in enumerate(bids)])
        for p, b in reversed(list(enumerate(bids))):  # (any order: the same game)
            ours.apply(b, seat=p)
        assert state.position.state is not None
        assert state.position.state.to_json()["fields"] == ours.to_json()["fields"]
    assert ours.is_terminal()
    winners = ours.winners()
    assert state.returns() == ([0.0, 0.0] if len(winners) == 2 else [1.0 if p in winners else -1.0 for p in range(2)])


def test_a_joint_choice_that_is_none_is_refused() -> None:
    state = openspiel.game(SUMO).new_initial_state()
    legal = state.legal_actions(0)
    with pytest.raises(IllegalAction, match="for each of the 2 seats"):
        state.position.apply_joint([legal[0]])
    with pytest.raises(IllegalAction, match="not legal for P2"):
        state.position.apply_joint([legal[0], 0])


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
def test_pettingzoo_parallel_env_passes_its_api_test() -> None:
    parallel_api_test(bridge.parallel_env(SUMO), num_cycles=100)


def test_the_parallel_env_takes_every_seat_at_once() -> None:
    env = bridge.parallel_env(SUMO)
    observations, _ = env.reset(seed=5)
    masks = {agent: o["action_mask"].nonzero()[0].tolist() for agent, o in observations.items()}
    assert masks["player_0"] == masks["player_1"] and len(masks["player_0"]) == 6  # bid 0 .. bid 5, both
    ours = load_rules(SUMO).new_state(2, 5)
    while env.agents:
        actions = {agent: masks[agent][-1] for agent in env.agents}  # the highest bid each
        for p in (1, 0):
            ours.apply(ours.legal_actions(p)[-1], seat=p)
        observations, rewards, terminations, _, _ = env.step(actions)
        masks = {agent: o["action_mask"].nonzero()[0].tolist() for agent, o in observations.items()}
        position = env._aec._playing()
        assert position.state is not None and position.state.to_json()["fields"] == ours.to_json()["fields"]
    assert all(terminations.values()) and ours.is_terminal()


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
def test_a_card_game_at_three_seats_with_chance_passes_both_tests(tmp_path: Path) -> None:
    """Chance nodes (a die at each round's start) between simultaneous decisions of three seats,
    the seats listed by an expression: OpenSpiel's and PettingZoo's own tests pass."""
    from tests.helpers.simultaneous import prize_bids

    path = str(prize_bids(tmp_path))
    game = openspiel.game(path, players=3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert len({tuple(state.legal_actions(p)) for p in range(3)}) == 1  # each its own hand, all alike now
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    parallel_api_test(bridge.parallel_env(path, players=3), num_cycles=60)
