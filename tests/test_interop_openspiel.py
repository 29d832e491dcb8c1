"""Every bundled rule set as an OpenSpiel game, judged by OpenSpiel's own tests.

`pyspiel.random_sim_test` plays a whole random game of each rule set (clones compared at every
move, chance outcomes sampled by their probabilities, observation and information-state tensors
and strings of every player checked at every decision, the game saved and loaded again by its
history, returns checked against the game's utility), and OpenSpiel's MCTS plays a game of each
rule set made for two players, with a small search (2 simulations a decision, play-outs of 5
decisions; `scripts/interop_check.py` plays every rule set that two can play with a larger one).
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from rulewright.runtime import Rng
from tests.helpers.games import RULESETS

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel has no wheel for this interpreter: the OpenSpiel bridge is not tested "
                      "(pip install 'rulewright[openspiel]' where it has one)")
openspiel = pytest.importorskip("rulewright.interop.openspiel")

TWO_PLAYER = ["chang-cheng/two-player", "china-cornett", "china-schacht/two-player", "china-schacht/two-player-light",
              "yellow-yangtze/short"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_openspiels_random_simulation_test_passes(ruleset: str) -> None:
    game = openspiel.game(ruleset)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_bundled_rule_set_is_registered_under_its_short_name() -> None:
    names = {t.short_name for t in pyspiel.registered_games()}
    assert {openspiel.short_name(r) for r in RULESETS} <= names
    assert openspiel.short_name("china-schacht/two-player") == "rulewright_china_schacht_two_player"
    game = pyspiel.load_game("rulewright_china_cornett(board=hex5)")
    assert game.get_parameters()["board"] == "hex5" and game.num_players() == 2
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    three = pyspiel.load_game("rulewright_china_schacht", {"players": 4})
    assert three.num_players() == 4 and three.min_utility() == pytest.approx(-1 / 3) and three.max_utility() == 1.0
    assert three.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert three.max_chance_outcomes() == 5  # a card of one of the five colours


def test_a_rule_file_is_a_game_registered_by_its_id() -> None:
    path = Path(__file__).parent / "games" / "every-construct.yaml"
    game = openspiel.game(str(path))
    # (a rule file that extends nothing is the rule set `<game>/<file name>`)
    assert game.get_type().short_name == "rulewright_every_construct_every_construct"
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    again = pyspiel.load_game("rulewright_every_construct_every_construct")
    assert again.num_distinct_actions() == game.num_distinct_actions()


def test_a_game_is_made_with_its_player_count_and_options_or_refused() -> None:
    game = openspiel.game("mandarin", players=3, options={"defaulter": "bids_again"})
    assert game.num_players() == 3 and game.get_parameters()["defaulter"] == "bids_again"
    with pytest.raises(Exception, match="played by 2, 3, 4, 5 players, not 7"):
        openspiel.game("mandarin", players=7)


def play_to_the_end(state: pyspiel.State, choose: random.Random) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choose.choices(outcomes, probs)[0])
        else:
            state.apply_action(choose.choice(state.legal_actions()))


def test_chance_nodes_come_first_with_their_probabilities() -> None:
    state = openspiel.game("china-schacht/two-player").new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0) and len(outcomes) == 5
    assert all(state.action_to_string(pyspiel.PlayerId.CHANCE, o).startswith(f"outcome {o}: ") for o, _ in outcomes)
    play_to_the_end(state, random.Random(3))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_moves_are_chosen_in_tokens_named_by_their_parts() -> None:
    state = openspiel.game("china-cornett").new_initial_state()
    while state.is_chance_node():  # the highest faces: a throw of 5, lines of 5 markers
        state.apply_action(state.chance_outcomes()[-1][0])
    texts = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert texts and all(t.startswith("spot ") for t in texts)  # only prospecting: the name is chosen at once
    halfway = []  # the first spot of a line of two or more: the move is not made yet
    for token in state.legal_actions():
        after = state.clone()
        after.apply_action(token)
        if not after.is_chance_node() and after.current_player() == 0:
            halfway.append(after)
    assert halfway
    assert "\nchoosing: prospect spot " in halfway[0].observation_string(0)
    assert "choosing" not in halfway[0].observation_string(1)  # the tokens chosen are the chooser's
    assert halfway[0].observation_tensor(0) != halfway[0].observation_tensor(1)


def test_observations_are_what_a_seat_sees_and_its_own_moves() -> None:
    game = openspiel.game("china-schacht/two-player")
    state = game.new_initial_state()
    choose = random.Random(1)
    while state.is_chance_node() or state.current_player() != 0 or len(state.history()) < 60:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
        else:
            state.apply_action(choose.choice(state.legal_actions()))
    position = state.position
    seen = position.state.observation(0)
    assert state.observation_string(0).startswith(position.bridge.observation_text(seen, ())[:200])
    info = state.information_state_string(0)
    assert info.startswith(state.observation_string(0)) and "own moves: " in info
    assert state.information_state_string(1) != info
    # the hands drawn again, as P1 cannot tell: the same observation and information state of P1
    other = state.clone()
    other.position.state = position.state.sample_unseen(0, Rng(5))
    assert other.position.state.to_json()["fields"]["hand"] != position.state.to_json()["fields"]["hand"]
    other.position._seen = {}
    assert other.observation_string(0) == state.observation_string(0)
    assert other.observation_tensor(0) == state.observation_tensor(0)
    assert other.information_state_tensor(0) == state.information_state_tensor(0)
    assert other.observation_tensor(1) != state.observation_tensor(1)


def test_a_state_saved_is_loaded_again() -> None:
    game = openspiel.game("mandarin")
    state = game.new_initial_state()
    choose = random.Random(8)
    for _ in range(200):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(choose.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()


def test_a_long_game_is_cut_short_as_a_draw() -> None:
    game = openspiel.game("mandarin", max_game_length=30)
    assert game.max_game_length() == 30
    state = game.new_initial_state()
    play_to_the_end(state, random.Random(0))
    assert state.returns() == [0.0, 0.0]


@pytest.mark.parametrize("ruleset", TWO_PLAYER)
def test_openspiels_mcts_plays_a_game(ruleset: str) -> None:
    check = _script("interop_check")  # (the game scripts/interop_check.py plays, with a larger search)
    played = check.mcts_game(ruleset, simulations=2, rollout=5)
    assert played["returns"] in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0]) and played["decisions"] > 20


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, Path(__file__).parent.parent / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
