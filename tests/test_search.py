"""The search agents (api/agents/simple.py, api/agents/mcts.py): greedy and MCTS choose legal, reproducible, sensible
moves on any rule set, never read the game's future chance, and are for rule sets without
hidden information. The long measurement of their strength is scripts/agent_strength.py
(docs/experiments.md, "Agents"); here a short one, fixed by its seeds."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulewright
from rulewright.agents import (
    Agent,
    BadAgent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    check_agents,
    has_hidden_information,
    hidden_fields,
    make_agents,
    parse_agent_spec,
    seat_agent_seed,
)
from rulewright.agents.evaluate import rewards, standings
from rulewright.agents.mcts import SPEED_ITERATIONS, mcts_speed
from rulewright.cli import cli
from rulewright.match import play_game
from rulewright.runtime.errors import IllegalAction
from rulewright.runtime.rng import derive_seed
from rulewright.runtime.state import State

TESTS = Path(__file__).parent
TAKE_AWAY = TESTS / "agents" / "take-away.yaml"
RING_RACE = TESTS / "games" / "ring-race.yaml"
WAR_SUPPORT = TESTS / "games" / "war-support.yaml"  # seats asked to decide inside moves (`ask`)


def take_away(*moves: str) -> State:
    state = rulewright.load_rules(TAKE_AWAY).new_state(2, seed=0)
    for move in moves:
        state.apply(move)
    return state


def cornett_midgame(seed: int = 3, moves: int = 12) -> State:
    state = rulewright.load("china-cornett").new_state(2, seed=seed)
    agent = RandomAgent(seed)
    for _ in range(moves):
        state.play(agent.choose(state))
    return state


def chosen(agent: Agent, state: State) -> str:
    """The text of the action `agent` chooses (by its index in the legal actions)."""
    return str(state.action_at(agent.choose(state)))


def test_greedy_takes_the_move_that_scores_most() -> None:
    assert chosen(GreedyAgent(0), take_away()) == "take 3"
    assert chosen(GreedyAgent(0), take_away("take 2")) == "take 3"  # (one ply: it cannot see the trap)


def test_greedy_breaks_ties_by_its_seed() -> None:
    """Every opening move of the race scores nothing: the choice is the seeded generator's."""
    state = rulewright.load_rules(RING_RACE).new_state(2, seed=1)
    choices = {chosen(GreedyAgent(seed), state) for seed in range(12)}
    assert choices == {"advance", "wait"}


def test_mcts_takes_the_winning_move_and_sees_past_one_ply() -> None:
    # three left: taking them all ends the game won
    assert chosen(MCTSAgent(0, iterations=100), take_away("take 2", "take 2")) == "take 3"
    # five left: only `take 1` wins (four left for the other, who cannot take the last); greedy takes 3
    five = take_away("take 2")
    assert [chosen(MCTSAgent(seed, iterations=300), five) for seed in range(3)] == ["take 1"] * 3


def test_same_state_and_seed_same_choice() -> None:
    state = cornett_midgame()
    for make in (lambda: GreedyAgent(7), lambda: MCTSAgent(7, iterations=60),
                 lambda: MCTSAgent(7, iterations=40, rollout_moves=5, exploration=0.5)):
        first, again = make(), make()
        assert [first.choose(state) for _ in range(3)] == [again.choose(state) for _ in range(3)]


def test_the_agents_neither_change_nor_read_the_games_chance() -> None:
    """China draws its tablets during the move: an agent's look-ahead draws them from its own
    generator, so a choice is the same whatever the game's generator holds, and the state is left
    as it was (its generator included)."""
    state = cornett_midgame()
    other = state.clone()
    other.rng.state ^= 0x5A5A5A5A
    for make in (lambda: GreedyAgent(2), lambda: MCTSAgent(2, iterations=80)):
        before = state.to_json()
        assert make().choose(state) == make().choose(other)
        assert state.to_json() == before


@pytest.mark.parametrize("agent", ["greedy", "mcts"])
def test_every_choice_is_legal_on_games_of_chance_other_deciders_and_four_players(agent: str) -> None:
    """Ring race: a die, a phase decided by the next seat, four players; war support: seats asked
    in the middle of moves; China: two."""
    cases = [(rulewright.load_rules(RING_RACE), 4), (rulewright.load_rules(RING_RACE), 2),
             (rulewright.load_rules(WAR_SUPPORT), 4), (rulewright.load("china-cornett"), 2)]
    for game, players in cases:
        state = game.new_state(players, seed=5)
        players_agents = [GreedyAgent(p) if agent == "greedy" else MCTSAgent(p, iterations=12, rollout_moves=8)
                          for p in range(players)]
        moves = 0
        while not state.terminal and moves < 150:
            seat = state.to_act()
            assert seat is not None
            choice = players_agents[seat].choose(state)
            assert 0 <= choice < len(state.legal_actions())
            state.play(choice)
            moves += 1
        assert moves > 20


@pytest.mark.parametrize("agent", [GreedyAgent(0), MCTSAgent(0, iterations=10)], ids=["greedy", "mcts"])
def test_a_finished_game_has_no_move_to_choose(agent: GreedyAgent | MCTSAgent) -> None:
    over = take_away("take 3", "take 3", "take 1")
    assert over.is_terminal()
    with pytest.raises(IllegalAction) as random_refused:
        RandomAgent(0).choose(over)
    with pytest.raises(IllegalAction) as refused:
        agent.choose(over)
    assert str(refused.value) == str(random_refused.value)


def test_rewards_winners_share_and_cut_games_weigh_the_lead() -> None:
    assert rewards(take_away("take 3", "take 3", "take 1")) == [1.0, 0.0]  # P1: 3 + 1 + 10 against 3
    assert rewards(take_away("take 2", "take 2")) == [0.5, 0.5]
    behind, ahead = rewards(take_away("take 1", "take 3"))  # not over: 1 against 3
    assert behind == pytest.approx(0.5 - 0.5 * math.tanh(2 / 5)) and behind + ahead == pytest.approx(1.0)
    _, less_ahead = rewards(take_away("take 1", "take 3", "take 1"))  # 2 against 3: a smaller lead
    assert 0.5 < less_ahead < ahead < 1.0
    race = rulewright.load_rules(RING_RACE).new_state(4, seed=0)
    assert rewards(race) == [0.5] * 4  # four tied at nought laps


def test_bad_parameters_are_refused() -> None:
    for bad in ({"iterations": 0}, {"exploration": -1.0}, {"exploration": float("nan")}, {"rollout_moves": -1}):
        with pytest.raises(ValueError):
            MCTSAgent(0, **bad)


def test_hidden_information_from_the_declared_visibility() -> None:
    assert not has_hidden_information(rulewright.load("china-cornett"))
    assert not has_hidden_information(rulewright.load_rules(TAKE_AWAY))
    assert hidden_fields(rulewright.load("china-schacht/two-player")) == ["hand", "deck"]
    for ruleset in ("mandarin", "yellow-yangtze/short", "chang-cheng/two-player"):
        assert has_hidden_information(rulewright.load(ruleset)), ruleset


def test_mcts_beats_random_in_short_games_of_china() -> None:
    """100 iterations, rollouts of 10 moves, the smaller board, seats alternated: fixed seeds,
    so this is one measurement, not a draw that may fail (the 200-game measurement is in
    docs/experiments.md)."""
    game = rulewright.load("china-cornett")
    won = 0
    for i in range(10):
        seat = i % 2
        seed = derive_seed(16, i)
        result = play_game(game, 2, seed, {"board": "hex5"},
                           agents={seat: MCTSAgent(derive_seed(seed, 1), iterations=100, rollout_moves=10)})
        assert result.finished
        won += seat in result.winners
    assert won >= 8


@pytest.mark.slow
def test_mcts_without_playouts_beats_greedy_in_short_games_of_china() -> None:
    """The claim of docs/experiments.md ("MCTS against greedy") at a small scale: 400 iterations and
    no play-out (`mcts:rollout=false`) against greedy on the smaller board, seats alternated, fixed
    seeds: one measurement, 7 of 10 when written (5.4 s of CPU), not a draw that may fail."""
    game = rulewright.load("china-cornett")
    won = 0
    for i in range(10):
        seat = i % 2
        seed = derive_seed(34, i)
        result = play_game(game, 2, seed, {"board": "hex5"},
                           agents={seat: MCTSAgent(derive_seed(seed, 1), iterations=400, rollout_moves=0),
                                   1 - seat: GreedyAgent(derive_seed(seed, 2))})
        assert result.finished
        won += seat in result.winners
    assert won >= 6


def test_mcts_speed_times_whole_searches() -> None:
    """`bench`'s MCTS column: at least one search, whatever the budget."""
    speed = mcts_speed(rulewright.load_rules(TAKE_AWAY), 2, budget=0.0)
    assert speed["mcts_searches"] == 1 and speed["mcts_iterations_per_sec"] > SPEED_ITERATIONS


def test_the_registry_makes_them_from_their_specs() -> None:
    agents = make_agents({0: parse_agent_spec("greedy"),
                          1: parse_agent_spec("mcts:iterations=50,exploration=0.5,rollout_moves=8")}, 9)
    greedy, mcts = agents[0], agents[1]
    assert isinstance(greedy, GreedyAgent) and isinstance(mcts, MCTSAgent)
    assert (mcts.iterations, mcts.exploration, mcts.rollout_moves) == (50, 0.5, 8)
    assert mcts.rng.state == MCTSAgent(seat_agent_seed(9, 1)).rng.state
    default = make_agents({0: parse_agent_spec("mcts")}, 9)[0]
    assert isinstance(default, MCTSAgent)
    assert (default.iterations, default.exploration, default.rollout_moves) == (400, 1.4, None)  # 0: to the end
    # rollout=false: no play-out at all, a new node weighed at once (MCTSAgent's rollout_moves=0)
    for spec in ("mcts:rollout=false", "mcts:rollout_moves=5,rollout=false"):
        bare = make_agents({0: parse_agent_spec(spec)}, 9)[0]
        assert isinstance(bare, MCTSAgent) and bare.rollout_moves == 0, spec
    with pytest.raises(BadAgent, match="`rollout` must be a bool, not `sometimes`"):
        parse_agent_spec("mcts:rollout=sometimes")


def test_the_registry_refuses_them_where_information_is_hidden() -> None:
    check_agents(rulewright.load("china-cornett"), {0: parse_agent_spec("mcts"), 1: parse_agent_spec("greedy")})
    for kind in ("mcts", "greedy"):
        with pytest.raises(BadAgent, match=f"agent `{kind}` \\(seat 1\\) searches with the whole state, but "
                                           "china-schacht/two-player hides `hand`, `deck`"):
            check_agents(rulewright.load("china-schacht/two-player"), {0: parse_agent_spec(kind)})
    result = CliRunner().invoke(cli, ["simulate", "mandarin", "-n", "1", "--agent", "1=mcts:iterations=10"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert result.output.startswith("rulewright: error: agent `mcts` (seat 1) searches with the whole state")
    assert len(result.output.strip().splitlines()) == 1


def test_simulate_with_search_agents_is_reproducible() -> None:
    args = ["simulate", "china-cornett", "-n", "2", "--seed", "4", "--json", "--option", "board=hex5",
            "--agent", "1=greedy", "--agent", "2=mcts:iterations=20,rollout_moves=5"]
    runs = []
    for _ in range(2):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        data.pop("games_per_sec")
        runs.append(data)
    assert runs[0] == runs[1]
    assert runs[0]["agents"] == ["greedy", "mcts:iterations=20,rollout_moves=5"] and runs[0]["finished"] == 2


def test_a_list_that_hides_some_items_is_hidden_information(tmp_path: Path) -> None:
    """`visible: all` with `hide_items_if:` hides items all the same: `mcts` must refuse it too."""
    text = TAKE_AWAY.read_text(encoding="utf-8")
    text = text.replace('  points: {per: player, type: int, init: 0}\n',
                        '  points: {per: player, type: int, init: 0}\n'
                        '  taken: {type: list(int), init: "[]", hide_items_if: "k == 0"}\n')
    text = text.replace("      - pile -= k\n", "      - pile -= k\n      - taken = taken + [k]\n")
    rules = tmp_path / "take-away-hidden.yaml"
    rules.write_text(text, encoding="utf-8")
    game = rulewright.load_rules(rules)
    assert hidden_fields(game) == ["taken"]
    with pytest.raises(BadAgent, match="hides `taken`"):
        check_agents(game, {0: parse_agent_spec("mcts")})


def test_an_estimate_weighs_positions_instead_of_the_score() -> None:
    """`estimate=modesty` (minus the points): greedy now takes the least, and a cut play-out is
    weighed by that lead instead of the score's."""
    assert standings(take_away("take 1", "take 3"), None) == [1, 3]
    assert standings(take_away("take 1", "take 3"), "modesty") == [-1, -3]
    assert chosen(GreedyAgent(0, estimate="modesty"), take_away()) == "take 1"
    ahead, behind = rewards(take_away("take 1", "take 3"), "modesty")
    assert ahead > 0.5 > behind
    agent = make_agents({0: parse_agent_spec("greedy:estimate=modesty")}, 0)[0]
    assert chosen(agent, take_away()) == "take 1"


def test_an_estimate_must_be_a_definition_over_one_player_giving_a_number() -> None:
    game = rulewright.load_rules(TAKE_AWAY)
    check_agents(game, {0: parse_agent_spec("mcts:estimate=modesty")})
    for spec, message in (("mcts:estimate=modsty", "no definition `modsty` to estimate with: did you mean `modesty`?"),
                          ("greedy:estimate=gap", "does not take one player: an estimate is a definition like"),
                          ("mcts:estimate=scored", "is not a number: an estimate must give one per player"),
                          ("mcts:estimate=points", "has no definition `points`")):
        with pytest.raises(BadAgent, match=re.escape(message)):
            check_agents(game, {0: parse_agent_spec(spec)})
    with pytest.raises(BadAgent, match="`estimate` must be a name, not `0-points`"):
        parse_agent_spec("ismcts:estimate=0-points")
