"""Language features beyond what the bundled games use, on the small games of tests/games/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.runtime import Rng

GAMES = Path(__file__).parent / "games"


def test_ring_board_enums_die_and_another_seat_deciding() -> None:
    game = rulewright.load_rules(GAMES / "ring-race.yaml")
    state: Any = game.new_state(players=3, seed=4)
    assert state.board.labels == tuple(str(i) for i in range(1, 13))
    assert 1 <= state.roll <= 6
    assert state.to_act() == 0
    assert sorted(str(a) for a in state.legal_actions()) == ["advance", "wait"]
    start = state.position[0]
    state.apply("advance")
    assert state.position[0] == (start + state.roll) % 12 or state.laps[0] == 1
    # the verdict phase: the next seat decides, though it is still seat 1's turn
    assert state.PHASES[state.phase] == "verdict" and state.current == 0
    assert state.to_act() == 1
    assert sorted(str(a) for a in state.legal_actions()) == ["approve blue", "approve red"]
    state.apply("approve blue")
    assert state.observation(0)["fields"]["flag"] == "blue"
    assert state.to_act() == 1 and state.current == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ring_race_random_games_end(players: int) -> None:
    game = rulewright.load_rules(GAMES / "ring-race.yaml")
    for seed in range(20):
        state = game.new_state(players=players, seed=seed)
        agent = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[agent.below(len(legal))])
        assert max(state.scores()) >= 2
        assert state.winners()


def test_components_with_attributes_drawn_from_a_bag() -> None:
    game = rulewright.load_rules(GAMES / "tile-bag.yaml")
    for seed in range(10):
        state: Any = game.new_state(players=2, seed=seed)
        agent = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[agent.below(len(legal))])
            assert len(state.bag) + sum(len(h) for h in state.hand) + len(state.drawn) == 12, "tiles kept"
        assert sum(len(h) for h in state.hand) == 12
        # 3 crowned tiles (one per colour) and 4 red ones, whoever holds them
        crowns = sum(sum(1 for t in h if t % 4 == 0) for h in state.hand)
        assert crowns == 3
        assert sum(state.scores()) == 3 + 4
    obs = game.new_state(players=2, seed=1).observation(0)
    assert "bag" not in obs["fields"], "a field visible to nobody is not observed"


def test_an_unknown_attribute_is_an_error(tmp_path: Path) -> None:
    from rulewright.compiler.driver import analyse

    text = (GAMES / "tile-bag.yaml").read_text(encoding="utf-8").replace("t.crowned for", "t.crown for")
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    _, problems, _ = analyse(path)
    rendered = "\n".join(d.render() for d in problems)
    assert "error: `tile` has no attribute `crown`" in rendered
    assert "did you mean `crowned`?" in rendered


def test_visibility_owner_shown_if_and_hidden_items() -> None:
    game = rulewright.load_rules(GAMES / "tile-bag.yaml")
    state: Any = game.new_state(players=2, seed=3)
    state.hand = [frozenset({0}), frozenset({5})]
    state._fields_set()  # (fields written from outside the rules: what the optimiser kept is made again)
    mine = state.observation(0)["fields"]
    assert mine["hand"] == [["tile1"], None], "each player sees only his own hand"
    opened = game.new_state(players=2, seed=3, options={"open_hands": "open"})
    assert opened.observation(1)["fields"]["hand"] == [[], []], "shown_if: everyone sees every hand"
    seen = set()
    for seed in range(20):
        state = game.new_state(players=2, seed=seed)
        shown = state.observation(1)["fields"]["drawn"]
        seen.add(shown[0] == "hidden")
        assert shown[0] == ("hidden" if not state.face_up[0] else state.label("tile", state.drawn[0]))
    assert seen == {True, False}, "a tile drawn face down is hidden, face up shown"


def test_a_graph_board_with_attributes_borders_a_neutral_seat_and_setup() -> None:
    game = rulewright.load_rules(GAMES / "road-network.yaml")
    state: Any = game.new_state(players=2, seed=5)
    board = state.board
    assert board.labels == ("N1", "N2", "N3", "N4", "S1", "S2", "S3", "E1", "W1", "W2")
    assert [board.labels[n] for n in board.neighbours[1]] == ["N1", "N3", "S1"]
    assert board.border_regions == ((0, 1), (0, 2))
    assert state.label("colour", board.region_attributes[0][1]) == "blue"
    # the neutral seat comes after the players, owns pieces, never acts nor scores
    assert state.num_seats == 3 and state.label("player", 2) == "bandit"
    assert state.owner[7] == (2,)  # a list is a tuple (one value model)
    assert len(state.scores()) == 2
    # setup drew one card per player from a pile of six, which everyone sees by its size only
    assert len(state.pile) == 4 and all(len(d) == 1 for d in state.drawn[:2])
    seen = state.observation(0)["fields"]
    assert seen["pile"] == 4 and seen["drawn"][1] is None
    assert state.odd_one(0) is True  # (0 == 0) == (1 == 1), not 0 == 0 == 1 == 1


@pytest.mark.parametrize(("chains", "points"), [("longest_first", 10), ("one_per_network", 7), ("best", 10)])
def test_road_chains_cut_a_branching_network(chains: str, points: int) -> None:
    """Three arms of three meet at N2: W2-W1-N1, N3-N4-E1 and S1-S2-S3 (under `best`, a chain
    through N1, the first spot, scores twice: road_chains_best's `doubled`)."""
    game = rulewright.load_rules(GAMES / "road-network.yaml")
    state: Any = game.new_state(players=2, seed=1, options={"chains": chains})
    state.owner = [[0]] * 10
    state._fields_set()  # (fields written from outside the rules: what the optimiser kept is made again)
    # the longest path takes two arms and N2 (7); the third arm is a chain of its own only
    # when chains are cut longest first
    assert state.score_terms(0)["chains"] == points
    state.owner = [[0], [0], [0], [0], [0], [0], [1], [2], [1], [1]]
    state._fields_set()
    # N1-N2-N3-N4 and N2-S1-S2: the longest, S2-S1-N2-N3-N4 (5), leaves only N1; under best,
    # N1-N2-N3-N4 holds N1 and scores twice (8), more than the 5 without it
    assert state.score_terms(0)["chains"] == (4 if chains == "best" else 5)


def test_the_tie_break_decides_between_equal_scores() -> None:
    game = rulewright.load_rules(GAMES / "road-network.yaml")
    state: Any = game.new_state(players=2, seed=2)
    state.owner = [[0], [1], [0], [1], [0], [1], [0], [2], [0], [1]]
    state._fields_set()
    state.terminal = True
    assert state.scores()[0] == state.scores()[1]
    red_holder = [p for p in (0, 1) if 0 in state.drawn[p]]
    assert state.winners() == (red_holder if len(red_holder) == 1 else [0, 1])


@pytest.mark.parametrize(("change", "message"), [
    (("        - [W2, W1, N1]\n", "        - [W2, W1, N1]\n        - [S3, E1]\n"),
     "rules.yaml:{line}:5: error: board `map` does not match what is expected of it: a road joins East and South, "
     "but no border between them is listed"),
    (("East: {colour: blue", "East: {colour: red"),
     "North and East border each other and are both colour red"),
    (("        - [N4, E1]\n", ""), "the roads do not join every spot: E1 cannot be reached from N1"),
    (("S3]}", "S3, N1]}"), "spot N1 is in 2 regions of kind `land`"),
    (("colour: {red: 1, blue: 2}", "colour: {red: 2, blue: 1}"), "1 regions with colour red, expected 2"),
    (("        - [N4, E1]\n", "        - [N4, E9]\n"), "a road goes through `E9`, which is not one of its spots"),
])
def test_graph_board_validators(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    from rulewright.compiler.driver import analyse

    text = (GAMES / "road-network.yaml").read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "rules.yaml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    _, problems, _ = analyse(path)
    rendered = "\n".join(d.render() for d in problems)
    expect_line = next(i for i, line in enumerate(path.read_text().splitlines(), 1) if "expect:" in line)
    assert message.format(line=expect_line).split("rules.yaml:")[-1] in rendered, rendered


AGGREGATES = """
rulewright: 1
game: aggregates
players: 2
boards:
  line:
    graph:
      spots: [A, B]
      roads:
        - [A, B]
state:
  moved: {type: int, init: 0}
  heights: {type: "list(int)", init: "[3, 1, 4, 1]"}
  marks: {type: "list(bool)", init: "[true, false]"}
  none_yet: {type: "list(int)", init: "[]"}
define:
  lowest: "min(n for n in heights)"
  highest: "max(n for n in heights + [moved * 5])"
  total: "sum(n for n in heights)"
  lowest_of_none: "min(n for n in none_yet)"
  total_of_none: "sum(n for n in none_yet)"
  some: "any(m for m in marks)"
  every: "all(m for m in marks)"
phases:
  turn: {actions: [move]}
actions:
  move:
    effect:
      - moved += 1
      - heights = heights + [moved]
end: "moved >= 2"
scoring:
  low: "lowest"
"""


def test_an_aggregate_of_the_items_themselves_takes_them_as_they_are(tmp_path: Path) -> None:
    """`min(n for n in xs)` and the like are written without a generator (`min(xs, default=0)`):
    the same values, an empty list's 0 too."""
    path = tmp_path / "aggregates.yaml"
    path.write_text(AGGREGATES)
    # (the shape lowering writes; pass `aggregate_loops` writes a definition's first aggregate out as a loop)
    source = compile_file(path, passes.ALL - {"aggregate_loops"}).source
    assert "for n in" not in source and "for m in" not in source
    assert "_value: int = min(self.heights, default=0)  # aggregates.yaml:17" in source
    assert "_value: bool = all(self.marks)  # aggregates.yaml:23" in source
    # (a list the game bounds is still charged as it is walked)
    assert "max(rt.walk(self, (*self.heights, (self.moved * 5)), 1, " in source
    game = rulewright.load_rules(path)
    state: Any = game.new_state(players=2, seed=1)
    assert (state.lowest(), state.highest(), state.total(), state.lowest_of_none(), state.total_of_none()) \
        == (1, 4, 9, 0, 0)
    assert (state.some(), state.every()) == (True, False)
    looped = rulewright.game_from_source(compile_file(path).source, str(path)).new_state(players=2, seed=1)
    assert (looped.lowest(), looped.highest(), looped.total(), looped.lowest_of_none(),  # type: ignore[attr-defined]
            looped.total_of_none(), looped.some(), looped.every()) == (1, 4, 9, 0, 0, True, False)  # type: ignore[attr-defined]
    state.apply("move")
    state.apply("move")
    assert (state.lowest(), state.highest(), state.total()) == (1, 10, 12)
