"""Agent specs and line-ups: `--agent K=SPEC` on play and simulate, the registry of kinds,
and the seeds that keep a batch reproducible (api/agents/registry.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from click.testing import CliRunner

from rulewright import load
from rulewright.agents import (
    AGENT_KINDS,
    AgentKind,
    AgentSpec,
    BadAgent,
    Param,
    check_agents,
    make_agents,
    parse_agent_option,
    parse_agent_options,
    parse_agent_spec,
    register,
    seat_agent_seed,
)
from rulewright.cli import cli
from rulewright.match import BatchSpec, run_batch
from rulewright.runtime.state import State


class FirstAgent:
    """Always the first legal action (or the `pick`-th, wrapping): a deterministic test kind."""

    def __init__(self, seed: int, pick: int) -> None:
        self.seed = seed
        self.pick = pick

    def choose(self, state: State) -> int:
        return self.pick % len(state.legal_actions())


def _first(seed: int, params: Mapping[str, Any]) -> FirstAgent:
    return FirstAgent(seed, params["pick"])


@pytest.fixture
def extra_kinds() -> Iterator[None]:
    register(AgentKind("first", "the pick-th legal action", _first,
                       {"pick": Param(int, 0, "which legal action", least=0)}))
    register(AgentKind("oracle", "a search that reads the whole state", _first,
                       {"pick": Param(int, 0, "which legal action", least=0)}, perfect_information=True))
    yield
    del AGENT_KINDS["first"], AGENT_KINDS["oracle"]


def test_specs_parse_to_their_canonical_text(extra_kinds: None) -> None:
    assert parse_agent_spec("random") == AgentSpec("random")
    spec = parse_agent_spec(" First : pick = 3 ")
    assert spec == AgentSpec("first", (("pick", "3"),))
    assert str(spec) == "first:pick=3"
    assert spec.values() == {"pick": 3}
    assert parse_agent_spec("first").values() == {"pick": 0}  # the default
    assert parse_agent_option("2=first:pick=1", 3) == (1, AgentSpec("first", (("pick", "1"),)))


@pytest.mark.parametrize(("text", "message"), [
    ("alphazero", "no agent kind `alphazero`: the kinds are "),
    ("first:depth=3", "agent `first` has no parameter `depth` (its parameters: pick)"),
    ("first:pick=many", "agent `first`: `pick` must be an int, not `many`"),
    ("first:pick=-1", "agent `first`: `pick` must be at least 0, not `-1`"),
    ("first:pick", "bad agent parameter `pick` in `first:pick`: expected NAME=VALUE"),
    ("first:pick=1,pick=2", "agent parameter `pick` given twice"),
])
def test_bad_specs_say_what_is_wrong(extra_kinds: None, text: str, message: str) -> None:
    with pytest.raises(BadAgent) as caught:
        parse_agent_spec(text)
    assert message in str(caught.value)


def test_bad_seats_are_refused(extra_kinds: None) -> None:
    with pytest.raises(BadAgent, match="seats are 1 to 2 in this game"):
        parse_agent_option("3=random", 2)
    with pytest.raises(BadAgent, match="expected K=KIND"):
        parse_agent_option("first", 2)
    with pytest.raises(BadAgent, match=r"seat 1 is given two agents \(`first` and `random`\)"):
        parse_agent_options(["1=first", "1=random"], 2)


def test_a_search_with_the_whole_state_is_refused_where_information_is_hidden(extra_kinds: None) -> None:
    check_agents(load("china-cornett"), {0: parse_agent_spec("oracle")})  # nothing hidden there
    with pytest.raises(BadAgent, match=r"agent `oracle` \(seat 2\) searches with the whole state, but mandarin hides"):
        check_agents(load("mandarin"), {1: parse_agent_spec("oracle")})


def test_each_seat_agent_has_its_own_seed(extra_kinds: None) -> None:
    agents = make_agents({0: parse_agent_spec("first"), 1: parse_agent_spec("random")}, 77)
    assert set(agents) == {0}  # `random` seats are the game's shared random agent
    first = agents[0]
    assert isinstance(first, FirstAgent) and first.seed == seat_agent_seed(77, 0) != seat_agent_seed(77, 1)


def _simulate(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["simulate", "china-cornett", "-n", "3", "--seed", "5", "--json", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_naming_random_changes_no_game() -> None:
    plain = _simulate()
    named = _simulate("--agent", "2=random")
    assert plain.pop("games_per_sec") >= 0 and named.pop("games_per_sec") >= 0
    assert named == plain
    assert plain["agents"] == ["random", "random"]


def test_a_seat_agent_plays_every_game_of_a_batch(extra_kinds: None) -> None:
    data = _simulate("--agent", "1=first")
    assert data["agents"] == ["first", "random"]
    spec = BatchSpec("china-cornett", 2, 5, {}, agents=((0, parse_agent_spec("first")),), record=True)
    games = list(run_batch(spec, 3, 1))
    again = list(run_batch(spec, 3, 1))
    assert [g.log for g in games] == [g.log for g in again]  # reproducible
    assert data["moves_mean"] == round(sum(g.moves for g in games) / 3, 3)
    for g in games:
        state = load("china-cornett").new_state(2, g.seed)
        for seat, text in g.log:  # seat 1 always played its first legal action
            if seat == 0:
                assert text == str(state.legal_actions()[0])
            state.apply(text)


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "china-cornett", "--agent", "1=alphazero"], "rulewright: error: no agent kind `alphazero`"),
    (["simulate", "china-cornett", "--agent", "3=random"],
     "rulewright: error: bad --agent `3=random`: seats are 1 to 2"),
    (["simulate", "china-cornett", "--agent", "1=random", "--agent", "1=random"], "seat 1 is given two agents"),
    (["play", "china-cornett", "--seat", "2=alphazero"], "rulewright: error: bad --seat `2=alphazero`: no agent kind"),
    (["play", "china-cornett", "--seat", "2=random", "--agent", "2=random"],
     "rulewright: error: seat 2 is given by both --seat and --agent"),
])
def test_bad_line_ups_are_one_line_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_play_with_agents_on_every_seat_runs_to_the_end(extra_kinds: None) -> None:
    args = ["play", "china-cornett", "--seed", "3", "--seat", "1=first", "--agent", "2=random"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "seed 3: P1 (mountains) first, P2 (rivers) random" in result.output
    assert "P1 (mountains) plays prospect A1-A2-A3" in result.output  # its first legal action
    assert "winner:" in result.output
