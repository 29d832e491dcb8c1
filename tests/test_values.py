"""One value model (issue 10): a list is a tuple and a set a frozenset, items too, whether the
value comes from a literal, an effect, a saved state or a scenario position; and no set is walked
in an order that reaches the game, so a seed plays the same game under any hash seed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright import scenarios
from rulewright.core.paths import rules_dir
from rulewright.runtime import Game, Rng, State

RULESETS = sorted(
    p.parent.name if p.stem == "base" else f"{p.parent.name}/{p.stem}"
    for p in Path(rules_dir()).glob("*/*.yaml")
)
GAMES = Path(__file__).parent / "games"
TEST_GAMES = sorted(p.name for p in GAMES.glob("*.yaml"))
VALUE_MODEL = GAMES / "value-model.yaml"
MOVES = 120  # per game: enough to reach auctions, refunds and the scoring of every rule set
FOLLOW_EVERY = 15  # a restored state is played on to the end of the game from every 15th move


def restored(game: Game, state: State) -> State:
    return game.state_from_json(json.loads(json.dumps(state.to_json())))


def same_position(a: State, b: State) -> None:
    assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]
    assert a.to_act() == b.to_act()
    assert a.scores() == b.scores()
    for p in range(a.num_players):
        assert a.observation(p) == b.observation(p)


def save_and_restore_at_every_move(game: Game, seed: int) -> None:
    players = game.info.players[seed % len(game.info.players)]
    state = game.new_state(players=players, seed=seed)
    agent = Rng(seed + 7)
    followers: list[State] = []
    for move in range(MOVES):
        if state.is_terminal():
            break
        copy = restored(game, state)
        same_position(state, copy)
        if move % FOLLOW_EVERY == 0:
            followers.append(copy)
        legal = state.legal_actions()
        action = legal[agent.below(len(legal))]
        for follower in followers:
            follower.apply(str(action))
        state.apply(action)
    for follower in followers:  # played on from its restore with the same actions: the same game
        assert follower.to_json() == state.to_json()
        same_position(state, follower)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_restored_state_plays_on_as_the_saved_one_in_every_rule_set(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    for seed in range(2):
        save_and_restore_at_every_move(game, seed)


@pytest.mark.parametrize("name", TEST_GAMES)
def test_a_restored_state_plays_on_as_the_saved_one_in_every_test_game(name: str) -> None:
    game = rulewright.load_rules(GAMES / name)
    for seed in range(4):
        save_and_restore_at_every_move(game, seed)


# -- the known bugs ------------------------------------------------------------------------------
def test_a_list_compared_with_a_literal_is_equal_after_a_restore() -> None:
    """`marks == [n]` was false once `marks` came back from JSON (a tuple against a list): a
    player's tally changed after one save and restore."""
    game = rulewright.load_rules(VALUE_MODEL)
    state = game.new_state(players=2, seed=1)
    state.apply("mark 1")  # marks = [1]: P1 scores -1
    state = restored(game, state)
    assert state.marks == (1,)
    state.apply("mark 1")  # marks == [1]: P2 scores 10
    assert state.tally == [(-1,), (10,)]
    assert state.scores() == [-1, 10]
    state = restored(game, state)
    assert state.scores() == [-1, 10]


def test_every_list_is_a_tuple_and_every_set_a_frozenset_items_too() -> None:
    game = rulewright.load_rules(VALUE_MODEL)
    state = game.new_state(players=2, seed=3)
    state.apply("mark 0")
    state.apply("group 2")
    state.apply("take 3")
    for s in (state, restored(game, state), state.clone()):
        assert type(s.marks) is tuple and type(s.rows) is tuple and all(type(r) is tuple for r in s.rows)
        assert type(s.groups) is tuple and all(type(g) is frozenset for g in s.groups)
        assert type(s.taken) is frozenset
        assert all(type(t) is tuple for t in s.tally)
        assert s.rows == ((0, 1),) and s.groups == (frozenset({1}),) and s.taken == frozenset({2})


def test_a_list_of_sets_field_saves_and_restores() -> None:
    """A `list(set(spot))` field compiled but could not be restored (`int() argument must be ...
    not 'frozenset'`)."""
    game = rulewright.load_rules(VALUE_MODEL)
    state = game.new_state(players=2, seed=4)
    state.apply("group 1")
    state.apply("group 4")
    saved = json.loads(json.dumps(state.to_json()))
    assert saved["fields"]["groups"] == [[0], [3]]
    back = game.state_from_json(saved)
    assert back.groups == (frozenset({0}), frozenset({3}))
    assert back.to_json() == saved


def scenario_file(tmp_path: Path, position: str, expect: str) -> Path:
    path = tmp_path / "values.yaml"
    path.write_text(
        f"ruleset: {VALUE_MODEL}\nplayers: 2\nscenarios:\n  given:\n    position:\n{position}"
        f"    steps:\n      - P1: mark 2\n    expect:\n{expect}",
        encoding="utf-8",
    )
    return path


def test_a_scenario_position_gives_list_fields_in_the_one_representation(tmp_path: Path) -> None:
    """A position giving a `list(int)` field crashed the runner (`KeyError: ''`); a list it gave
    was a tuple while `[2]` in the rules was a list, so `marks == [n]` failed."""
    path = scenario_file(
        tmp_path,
        "      marks: [2]\n      tally: {P1: [5, 6], P2: []}\n      rows: [[0, 1], [2]]\n"
        "      groups: [[1, 2], []]\n      taken: [3]\n",
        "      scores: {P1: 22, P2: 1}\n",  # 5 + 6 + 10, and each sees the row [0, 1]
    )
    found, problems = scenarios.load_file(path)
    assert problems == []
    (scenario,) = found
    result = scenarios.run(scenario)
    assert result.passed, result.report()
    state = scenarios.fresh_state(scenario, rulewright.load_rules(VALUE_MODEL))
    scenarios.apply_position(scenario, state)
    assert state.marks == (2,) and state.tally == [(5, 6), ()]
    assert state.rows == ((0, 1), (2,)) and state.groups == (frozenset({0, 1}), frozenset())


def test_a_scenario_position_with_a_wrong_item_is_a_clean_error(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, "      rows: [[0, x]]\n      groups: [[9]]\n", "      scores: {P1: 0}\n")
    _, problems = scenarios.load_file(path)
    assert [p.message for p in problems] == [
        "`rows` holds whole numbers",
        "no spot `9` for `groups`",
    ]


# -- order-independent chance ------------------------------------------------------------------
def simulated_logs(tmp_path: Path, ruleset: str, hash_seed: str) -> list[str]:
    logs = tmp_path / f"{ruleset.replace('/', '-')}-{hash_seed}"
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-m", "rulewright", "simulate", ruleset, "-n", "2", "--seed", "5", "--log-dir", str(logs)],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    return [p.read_text(encoding="utf-8") for p in sorted(logs.glob("*.jsonl"))]


@pytest.mark.parametrize("ruleset", ["mandarin", "china-schacht"])
def test_a_seed_plays_the_same_game_under_any_hash_seed(tmp_path: Path, ruleset: str) -> None:
    first = simulated_logs(tmp_path, ruleset, "1")
    second = simulated_logs(tmp_path, ruleset, "4242")
    assert len(first) == 2 and first == second


def test_no_generated_code_walks_a_set_in_its_own_order() -> None:
    """Mandarin's `refund_tile` listed its choices by walking a frozenset: now in increasing order."""
    code = (Path(rulewright.__file__).parent / "generated" / "mandarin" / "base.py").read_text(encoding="utf-8")
    assert "for tile in sorted(self.card[self.current])" in code  # (pass `sort_sets` writes the walk as the sort)
    assert not re.search(r"for \w+ in self\.card\[self\.current\]", code)


def test_a_list_made_from_a_set_is_in_increasing_order() -> None:
    game = rulewright.load_rules(VALUE_MODEL)
    state: Any = game.new_state(players=2, seed=0)
    for spot in ("5", "1", "3"):
        state.apply(f"take {spot}")
    assert [str(a) for a in state.legal_actions() if a.name == "take"] == ["take 2", "take 4", "take 6"]


SET_ORDER = """\
rulewright: 1
game: set-order
title: Set order
players: [2, 3]
boards:
  track:
    ring: 6
    regions: {}
state:
  groups: {type: list(set(spot)), init: "[]"}
  order: {type: list(set(spot)), init: "[]"}
phases:
  turn:
    actions: [group]
actions:
  group:
    choose:
      s: "list(x for x in spots)"
    text: "group {s}"
    effect:
      - groups = groups + [{s}]
      - order = sorted(set(g for g in groups))
end: "len(groups) >= 5"
scoring:
  none: "0"
"""


def test_sorted_sets_of_sets_are_in_increasing_order(tmp_path: Path) -> None:
    """`sorted` of sets compares them by their items in order, not by Python's `<` (a subset
    test, under which disjoint sets keep Python's set order): Yellow & Yangtze's states beside a
    cell, `sorted(set(group_of(n) ...))`, came out in hash order."""
    path = tmp_path / "set-order.yaml"
    path.write_text(SET_ORDER, encoding="utf-8")
    game = rulewright.load_rules(path)
    state: Any = game.new_state(players=2, seed=0)
    for spot in ("6", "1", "5", "2"):
        state.apply(f"group {spot}")
    assert [sorted(g) for g in state.order] == [[0], [1], [4], [5]]
