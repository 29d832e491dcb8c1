"""The information-set MCTS agent (api/agents/ismcts.py): it never reads what its seat may not see, it is
seeded and deterministic, it plays any number of players, and it beats a random agent.

The poisoning test: in states of random games where a seat is to act, everything that seat may
not see is replaced by other values consistent with what it sees (another sample of the unseen);
the agent, with the same seed, chooses the same move. Stronger: the agent is handed a stand-in
of the state that answers only who is to act, the legal actions and samples of the unseen for
that seat, and fails the test on any other use; it chooses the same move through it.
The long measurement (200 games): scripts/ismcts_strength.py, its figures in docs/experiments.md.
"""

from __future__ import annotations

from typing import Any

import pytest

import rulewright
from rulewright.agents import ISMCTSAgent, make_agents, parse_agent_spec
from rulewright.match import play_game
from rulewright.runtime import Action, Rng, State

ITERATIONS = 12
PLAY_OUT = 40  # moves a play-out of the poisoning test lasts (what it checks does not need whole games)


class OnlyWhatTheSeatSees:
    """A state as the seat to act may use it: who is to act, his legal actions, samples of what he
    does not see. Anything else read of it fails the test."""

    def __init__(self, state: State) -> None:
        self._state = state
        self._seat = state.to_act()

    def to_act(self) -> int | None:
        return self._state.to_act()

    def legal_actions(self) -> list[Action]:
        return self._state.legal_actions()

    def sample_unseen(self, observer: int, rng: Rng) -> State:
        assert observer == self._seat, "a sample for another seat than the one to act"
        return self._state.sample_unseen(observer, rng)

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the agent read `{name}` of the state itself")


def deciding_states(ruleset: str, players: int, seed: int, every: int, moves: int) -> list[State]:
    game = rulewright.load(ruleset)
    state = game.new_state(players=players, seed=seed)
    agent = Rng(seed + 17)
    found = []
    for move in range(moves):
        if state.is_terminal():
            break
        waits = state._pending is not None and not any(s._pending is not None for s in found)
        if (move % every == every - 1 or waits) and len(state.legal_actions()) > 1:
            found.append(state.clone())
        state.play(agent.below(len(state.legal_actions())))
    return found


CASES = [  # rule set, players, game seed, a state every so many moves, moves
    ("china-schacht/two-player", 2, 3, 12, 60),
    ("china-schacht/bonus-tiles", 3, 3, 15, 60),
    ("chang-cheng", 3, 3, 9, 60),
    ("mandarin", 3, 3, 40, 240),
    ("yellow-yangtze/short", 2, 4, 30, 60),
]


@pytest.mark.parametrize(("ruleset", "players", "seed", "every", "moves"), CASES, ids=[c[0] for c in CASES])
def test_poisoned_hidden_fields_change_no_move(ruleset: str, players: int, seed: int, every: int, moves: int) -> None:
    states = deciding_states(ruleset, players, seed, every, moves)
    assert states
    if rulewright.load(ruleset).state_class.SUSPENDS:  # (a seat asked in the middle of a move)
        assert any(s._pending is not None for s in states)
    differ = 0
    for n, state in enumerate(states):
        seat = state.to_act()
        assert seat is not None
        chosen = ISMCTSAgent(n, iterations=ITERATIONS, rollout_moves=PLAY_OUT).choose(state)
        action = state.action_at(chosen)  # (an index of the legal actions, else IllegalAction)
        for q in (101, 202):
            poisoned = state.sample_unseen(seat, Rng(q))
            differ += poisoned.to_json()["fields"] != state.to_json()["fields"]
            again = ISMCTSAgent(n, iterations=ITERATIONS, rollout_moves=PLAY_OUT).choose(poisoned)
            assert poisoned.action_at(again) == action, (
                f"{ruleset} move {state.moves}: P{seat + 1}'s move changed with what he does not see")
        through = ISMCTSAgent(n, iterations=ITERATIONS, rollout_moves=PLAY_OUT).choose(OnlyWhatTheSeatSees(state))  # type: ignore[arg-type]
        assert through == chosen
    assert differ > 0, "the poisoning changed nothing"


def test_the_agent_is_seeded_and_deterministic() -> None:
    game = rulewright.load("chang-cheng/two-player")
    first = play_game(game, 2, 5, agents={0: ISMCTSAgent(1, iterations=6)}, record=True, max_moves=40)
    again = play_game(game, 2, 5, agents={0: ISMCTSAgent(1, iterations=6)}, record=True, max_moves=40)
    other = play_game(game, 2, 5, agents={0: ISMCTSAgent(2, iterations=6)}, record=True, max_moves=40)
    assert first.log == again.log
    assert first.log != other.log


def test_it_plays_every_seat_of_a_game_of_four() -> None:
    game = rulewright.load("chang-cheng")
    agents: dict[int, Any] = {p: ISMCTSAgent(p, iterations=3, rollout_moves=20) for p in range(4)}
    result = play_game(game, 4, 2, agents=agents, max_moves=30)
    assert result.error is None
    assert result.moves == 30 or result.winners


def test_the_registry_makes_it_from_a_spec() -> None:
    spec = parse_agent_spec("ismcts:iterations=7,exploration=1.2")
    agent = make_agents({1: spec}, 3)[1]
    assert isinstance(agent, ISMCTSAgent)
    assert (agent.iterations, agent.exploration, agent.rollout_moves) == (7, 1.2, 0)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSAgent(0, iterations=0)
    with pytest.raises(ValueError, match="score_weight"):
        ISMCTSAgent(0, score_weight=2.0)


def test_it_beats_random_on_a_two_player_game_with_hidden_information() -> None:
    """A quick check (4 games, 16 samples a move); the long one is scripts/ismcts_strength.py."""
    game = rulewright.load("chang-cheng/two-player")
    won = 0.0
    for i in range(4):
        seat = i % 2
        result = play_game(game, 2, 300 + i, agents={seat: ISMCTSAgent(i, iterations=16)})
        assert result.error is None
        won += 1 / len(result.winners) if seat in result.winners else 0
    assert won >= 3


class _WholeStateSearch(ISMCTSAgent):
    """What the poisoning test must catch: the same search on copies of the whole state."""

    def choose(self, state: State) -> int:
        real = state

        class Peeking:
            def to_act(self) -> int | None:
                return real.to_act()

            def legal_actions(self) -> list[Action]:
                return real.legal_actions()

            def sample_unseen(self, observer: int, rng: Rng) -> State:
                copy = real.clone()
                copy.rng = Rng(rng.next64())
                return copy

        return super().choose(Peeking())  # type: ignore[arg-type]


def test_the_poisoning_test_catches_a_search_that_reads_hidden_fields() -> None:
    caught = 0
    for ruleset, players, seed, every, moves in CASES[:3]:
        for n, state in enumerate(deciding_states(ruleset, players, seed, every, moves)):
            seat = state.to_act()
            assert seat is not None
            chosen = _WholeStateSearch(n, iterations=ITERATIONS, rollout_moves=PLAY_OUT).choose(state)
            for q in (101, 202):
                poisoned = state.sample_unseen(seat, Rng(q))
                again = _WholeStateSearch(n, iterations=ITERATIONS, rollout_moves=PLAY_OUT).choose(poisoned)
                caught += poisoned.action_at(again) != state.action_at(chosen)
    assert caught > 0
