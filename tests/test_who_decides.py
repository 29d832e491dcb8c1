"""One notion of who decides: `State.to_act()` (a phase's `actor:`, else the seat whose turn it
is) is the seat `play` asks, whose agent answers, whose observation the person at the terminal
sees, the seat a log records and `replay` checks, and a scenario's `to_act`.

Every bundled rule set and every test game is played through `play` with a scripted person at
seat 1 (typing move numbers) against the random agent, and the log is checked move by move
against a model built on the API alone; every rule set's `simulate --log` log replays as
identical. Mandarin (birth signs, auctions) is where the seat that decides and the seat whose
turn it is differ, and the tests require that those moments occur."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.agents import RandomAgent, agent_seed, make_agents, parse_agent_spec
from rulewright.commands.play import PLAY_WIDTH
from rulewright.core.paths import bundled_rulesets
from rulewright.render import render_state
from rulewright.runtime.state import Game, State
from tests.helpers.cli import run

HERE = Path(__file__).parent
TEST_GAMES = sorted(str(p) for p in (HERE / "games").glob("*.yaml"))
RULESETS = [name for name, _ in bundled_rulesets()] + TEST_GAMES
MANDARIN = ("mandarin", "mandarin/money")
SEED = 7
PROMPT = "your move (number or text"


def game_of(ruleset: str) -> Game:
    return rulewright.load_rules(Path(ruleset)) if ruleset.endswith(".yaml") else rulewright.load(ruleset)


def read_log(path: Path) -> tuple[dict[str, Any], list[tuple[int, str]], dict[str, Any] | None]:
    """A log's header, its (seat, action) lines and its final state (None if it has none)."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    header, rest = lines[0], lines[1:]
    final = rest.pop()["final"] if rest and "final" in rest[-1] else None
    return header, [(entry["player"], entry["action"]) for entry in rest], final


def new_state(ruleset: str, header: dict[str, Any]) -> State:
    players: int = header["players"]
    seed: int = header["seed"]
    options: dict[str, str] = header["options"]
    return game_of(ruleset).new_state(players, seed, options)


@dataclass
class Model:
    """What `play` must do, told by the API alone: at every action the seat `to_act()` names
    decides: a person's seat takes the next typed number that names a legal move (others are
    refused and asked again), unless the person is alone at the game and has one legal move
    (`State.forced()`: played at once), any other seat the random agent of the seed."""

    state: State
    typed: list[int]
    humans: frozenset[int]
    robot: RandomAgent
    shown: list[str] = field(default_factory=list)  # what the person is shown before each move
    asked: int = 0  # times a person was asked (again after a number past the list)
    differs: dict[str, int] = field(default_factory=lambda: {"human": 0, "robot": 0})
    forced: int = 0  # a person's forced decisions, played at once (State.forced)

    def expect(self, seat: int, text: str) -> None:
        state = self.state
        deciding = state.to_act()
        assert seat == deciding, f"move {state.moves + 1}: the log names P{seat + 1}, the actor is {deciding}"
        assert deciding is not None
        if deciding != state.current:  # the seat that decides is not the seat whose turn it is
            self.differs["human" if deciding in self.humans else "robot"] += 1
        if deciding in self.humans and self.humans == {deciding} and state.forced() is not None:
            wanted = str(state.forced())  # the one person's forced decision: played at once, not asked
            self.forced += 1
        elif deciding in self.humans:
            legal = state.legal_actions()
            self.asked += 1
            self.shown.append(render_state(state, deciding, PLAY_WIDTH))
            while self.typed and not 1 <= self.typed[0] <= len(legal):
                self.typed.pop(0)
                self.asked += 1  # refused: asked again
            assert self.typed, f"move {state.moves + 1}: the person had typed nothing more"
            wanted = str(legal[self.typed.pop(0) - 1])
        else:
            wanted = str(state.action_at(self.robot.choose(state)))
        assert text == wanted, f"move {state.moves + 1} by P{seat + 1}"
        state.apply(text)


def typed_numbers(ruleset: str, count: int) -> list[int]:
    """Move numbers the scripted person types: small, some past the list (refused, asked again)."""
    rng = random.Random(f"{ruleset}:{SEED}")
    return [rng.randint(1, 6) for _ in range(count)]


def play_and_check(ruleset: str, tmp_path: Path, typed: list[int], humans: frozenset[int],
                   *extra: str) -> State:
    """Play `ruleset` through `play` with a person typing `typed` at the seats `humans` (from 0),
    check the log and the transcript against the model, and that the log replays; returns the
    state the game stopped at."""
    log = tmp_path / "play.jsonl"
    seats = [f"--seat={k + 1}=human" for k in sorted(humans)] + (["--seat=1=random"] if 0 not in humans else [])
    result = run("play", ruleset, "--seed", str(SEED), "--log", str(log), *seats, *extra,
                 input="".join(f"{n}\n" for n in typed))
    assert result.exit_code == 0, result.output
    header, actions, final = read_log(log)
    assert actions and final is not None
    model = Model(new_state(ruleset, header), list(typed), humans, RandomAgent(agent_seed(SEED)))
    for seat, text in actions:
        model.expect(seat, text)
    state = model.state
    assert final == json.loads(json.dumps(state.to_json()))
    if state.is_terminal():  # the end is drawn as the first person's seat sees it
        model.shown.append(render_state(state, min(humans), PLAY_WIDTH))
        assert "final scores: " in result.output
    else:  # the typed moves ran out: the game is abandoned when a person is next asked
        assert state.to_act() in humans and "game abandoned after" in result.output
        model.asked += len(model.typed) + 1  # the numbers left name no legal move; then the input ends
    assert result.output.count(PROMPT) == model.asked
    assert result.output.count("(forced: the only legal move)") == model.forced
    at = 0
    for view in model.shown:  # each person saw their own seat's view before each of their moves, in order
        found = result.output.find(view, at)
        assert found >= 0, f"the person was not shown their own observation:\n{view}"
        at = found + len(view)
    replayed = run("replay", str(log))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.startswith(f"replayed {len(actions)} actions: identical")
    if ruleset in MANDARIN:  # the cases the turn order alone gets wrong: birth signs, auctions
        assert model.differs["human"] > 0 and model.differs["robot"] > 0, model.differs
    return state


@pytest.mark.parametrize("ruleset", RULESETS)
def test_play_asks_the_seat_to_act_and_logs_it(ruleset: str, tmp_path: Path) -> None:
    state = play_and_check(ruleset, tmp_path, typed_numbers(ruleset, 1000), frozenset({0}))
    assert state.is_terminal(), "enough moves were typed to finish the game"


@pytest.mark.parametrize("ruleset", MANDARIN)
def test_play_with_two_people_cut_short(ruleset: str, tmp_path: Path) -> None:
    """Three players, people at seats 1 and 3: each is asked exactly when they decide (a bid
    in another's auction, a birth sign), and the log of the game they abandon replays."""
    state = play_and_check(ruleset, tmp_path, typed_numbers(ruleset, 60), frozenset({0, 2}), "--players", "3")
    assert not state.is_terminal()


def test_a_person_at_seat_2_sees_only_seat_2(tmp_path: Path) -> None:
    """Money hidden (mandarin/money's default): the person at seat 2 is shown seat 2's view
    before each of their moves and at the end, never seat 1's."""
    state = play_and_check("mandarin/money", tmp_path, typed_numbers("seat 2", 1000), frozenset({1}))
    assert state.is_terminal()
    assert render_state(state, 1, None) != render_state(state, 0, None)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_simulate_log_replays_identical(ruleset: str, tmp_path: Path) -> None:
    log = tmp_path / "sim.jsonl"
    simulated = run("simulate", ruleset, "-n", "1", "--seed", "3", "--log", str(log))
    assert simulated.exit_code == 0, simulated.output
    header, actions, final = read_log(log)
    assert final is not None
    state = new_state(ruleset, header)
    differs = 0
    for seat, text in actions:
        assert seat == state.to_act()
        differs += seat != state.current
        state.apply(text)
    replayed = run("replay", str(log))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.startswith(f"replayed {len(actions)} actions: identical")
    if ruleset in MANDARIN:
        assert differs > 0


@pytest.mark.parametrize("ruleset", MANDARIN)
def test_replay_refuses_a_log_naming_the_seat_whose_turn_it_is(ruleset: str, tmp_path: Path) -> None:
    """The mis-seated log the old `play` wrote: the action of the seat that decides credited
    to the seat whose turn it is."""
    log = tmp_path / "sim.jsonl"
    assert run("simulate", ruleset, "-n", "1", "--seed", "3", "--log", str(log)).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    header, actions, _ = read_log(log)
    state = new_state(ruleset, header)
    line = 1  # the header's
    for seat, text in actions:
        line += 1
        if state.current != seat:
            break
        state.apply(text)
    else:
        pytest.fail("no action of this game is decided by another seat than the one whose turn it is")
    lines[line - 1] = json.dumps({"player": state.current, "action": text})
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("replay", str(log))
    assert result.exit_code == 1
    assert result.output == (f"{log}:{line}: error: the log has P{state.current + 1} play `{text}`, "
                             f"but P{seat + 1} is to act\n")


CORPUS = HERE / "hostile" / "who-decides"
MIS_SEATED = {  # logs of Mandarin as the old `play` wrote them: each action credited to the seat whose turn it is
    "birth-sign-by-the-seat-whose-turn-it-is.jsonl":
        ":3: error: the log has P1 play `sign ox`, but P2 is to act",
    "bid-by-the-seat-whose-turn-it-is.jsonl": ":15: error: the log has P1 play `bid 2200`, but P2 is to act",
}


def test_the_corpus_of_mis_seated_logs_is_refused() -> None:
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(MIS_SEATED)
    for name, message in MIS_SEATED.items():
        path = CORPUS / name
        result = run("replay", str(path))
        assert (result.exit_code, result.output) == (1, f"{path}{message}\n"), name


MANDARIN_SCENARIO = """\
ruleset: mandarin
players: 3
names: [Alex, Barbara, Chris]
scenarios:
  bidder:
    position:
      phase: auction
      out: [tile10]
      sale: {bidders: [Alex, Barbara, Chris], bidder: Alex, minimum: 100, step: 100}
      to_act: {to_act}
    steps:
      - Alex: bid 100
    expect:
      to_act: Barbara
"""


def test_a_scenario_position_names_the_seat_that_decides(tmp_path: Path) -> None:
    from rulewright import scenarios

    path = tmp_path / "s.yaml"
    path.write_text(MANDARIN_SCENARIO.replace("{to_act}", "Alex"), encoding="utf-8")
    (agreed,), problems = scenarios.load_file(path)
    assert problems == []
    assert scenarios.run(agreed).passed
    path.write_text(MANDARIN_SCENARIO.replace("{to_act}", "Barbara"), encoding="utf-8")
    (wrong,), problems = scenarios.load_file(path)
    assert problems == []
    result = scenarios.run(wrong)
    assert result.problem == ("position: `to_act: Barbara`, but Alex decides in phase `auction` (its `actor:`); "
                              "set the fields that make Barbara the actor")


def test_an_agent_copied_for_undo_draws_as_the_original() -> None:
    """`play` keeps the agents, generator and all, where the person decides (for `undo`): a copy
    draws the same numbers as the original from there, on the native build too (where the
    generator's class is compiled and copying it by default would make it without its seed)."""
    state = rulewright.load("china-cornett").new_state(players=2, seed=3)
    agents: dict[int, Any] = {1: RandomAgent(agent_seed(3))} | make_agents({0: parse_agent_spec("greedy")}, 3)
    for agent in agents.values():
        agent.choose(state)
    copied = copy.deepcopy(agents)
    for p, agent in agents.items():
        alone = copy.copy(agent.rng)
        assert copied[p] is not agent and copied[p].rng is not agent.rng and alone is not agent.rng
        drawn = [agent.rng.below(1000) for _ in range(5)]
        assert [copied[p].rng.below(1000) for _ in range(5)] == drawn == [alone.below(1000) for _ in range(5)]
