"""Records, optional values, item assignment, nested comprehensions, subset choices, the
lexicographic tie-break and `deciding` (issue 11): their one runtime representation, their
save and restore, their limits, on tests/games/dynasties.yaml and small rule files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.compiler.types import INT, NONE, compatible, entity, optional_of, unify
from rulewright.runtime import BadSetup, Game, GameError, RingBoard, Rng, State, limits, sort_key, subsets

GAMES = Path(__file__).parent / "games"
DYNASTIES = GAMES / "dynasties.yaml"

SMALL = """\
rulewright: 1
game: shapes
title: Shapes
players: 2
enums:
  colour: [black, red, blue]
records:
  claim: {owner: player, colour: colour, at: optional(spot)}
boards:
  hex2: {hexagon: 2, regions: {}}
state:
  claims: {type: set(claim), init: "{}"}
  ordered: {type: list(claim), init: "[]"}
  tally: {type: list(int), init: "[0, 0, 0]"}
  hands: {per: player, type: list(int), init: "[1, 2]"}
  seen: {type: list(optional(spot)), init: "[none, spots[0]]"}
  n: {type: int, init: 0}
define:
  pairs: "[[a, b] for a in range(0, 3) for b in range(a, 3) if a + b != 2]"
  pair_count: "count(a < b for a in range(0, 4) for b in range(0, 4))"
  pair_sum: "sum(a * b for a in range(0, 3) if a > 0 for b in range(0, 3))"
  pair_any: "any(a == b for a in range(0, 3) for b in range(3, 5))"
  pair_all: "all(a != b for a in range(0, 3) for b in range(3, 5))"
  pair_min: "min(a + b for a in range(1, 3) for b in range(2, 4))"
  pair_max: "max(a + b for a in range(1, 3) for b in range(2, 4))"
  pair_set: "set(a + b for a in range(0, 3) for b in range(0, 3))"
  "owned(p: player)": "[c for c in ordered if c.owner == p]"
phases:
  turn:
    actions: [mark, poke]
actions:
  mark:
    choose: {c: colour}
    text: "mark {c}"
    effect:
      - let here = none
      - if n < 3:
        - here = spots[n]
      - claims += {claim(owner=current, colour=c, at=here)}
      - ordered = [x for x in sorted([y for y in claims])]
      - tally[n % 3] += 1
      - hands[current][0] = n
      - seen[1] = here
      - n += 1
  poke:
    choose: {i: "range(0, 2)"}
    when: "n == 7"
    text: "poke {i}"
    effect:
      - tally[i + 5] = 1
end: "n >= 8"
scoring:
  claims: "len(owned(player))"
tie_break: "n"
"""


def small_game(tmp_path: Path, text: str = SMALL) -> Game:
    path = tmp_path / "shapes.yaml"
    path.write_text(text, encoding="utf-8")
    return rulewright.load_rules(path)


def restored(game: Game, state: State) -> State:
    return game.state_from_json(json.loads(json.dumps(state.to_json())))


def test_optional_types_fit_and_unify() -> None:
    spot = entity("spot")
    assert compatible(optional_of(spot), spot) and compatible(optional_of(spot), NONE)
    assert not compatible(spot, optional_of(spot)), "an optional is no plain value"
    assert unify(spot, NONE) == optional_of(spot) == unify(NONE, optional_of(spot))
    assert unify(INT, optional_of(spot)) is None
    assert optional_of(optional_of(spot)) == optional_of(spot)


def test_nested_comprehensions_of_every_aggregate(tmp_path: Path) -> None:
    state: Any = small_game(tmp_path).new_state(seed=1)
    assert list(state.pairs()) == [(0, 0), (0, 1), (1, 2), (2, 2)]  # (each clause inside the one before)
    assert state.pair_count() == 6
    assert state.pair_sum() == (1 + 2) * (0 + 1 + 2)
    assert state.pair_any() is False and state.pair_all() is True
    assert (state.pair_min(), state.pair_max()) == (3, 5)
    assert state.pair_set() == frozenset({0, 1, 2, 3, 4})


def test_records_and_none_in_their_one_representation_save_and_restore(tmp_path: Path) -> None:
    game = small_game(tmp_path)
    state: Any = game.new_state(seed=3)
    for text in ("mark red", "mark black", "mark red", "mark blue", "mark black"):
        state.apply(text)
        copy: Any = restored(game, state)
        assert copy.to_json() == state.to_json()
        assert copy.claims == state.claims and copy.seen == state.seen
        assert all(type(c) is tuple for c in copy.claims) and type(copy.claims) is frozenset
    # a record is a tuple of its fields; `none` is None, saved as null, first in the order
    assert state.seen == (None, None) and state.to_json()["fields"]["seen"] == [None, None]
    assert state.ordered == tuple(sorted(state.claims, key=sort_key))
    assert state.ordered[:2] == ((0, 0, None), (0, 1, 0)), "item by item, `none` before any spot"
    assert state.tally == (2, 2, 1) and type(state.tally) is tuple
    assert state.hands[0] == (4, 2) and state.hands[1] == (3, 2)
    shown = state.observation(0)["fields"]
    assert shown["ordered"][0] == {"owner": "P1", "colour": "black", "at": None}
    assert {"owner": "P1", "colour": "red", "at": "A1"} in shown["claims"]
    assert shown["seen"] == [None, None]


def test_a_saved_record_of_the_wrong_shape_is_a_clean_error(tmp_path: Path) -> None:
    game = small_game(tmp_path)
    state = game.new_state(seed=3)
    state.apply("mark red")
    data = json.loads(json.dumps(state.to_json()))
    data["fields"]["ordered"] = [[0, 1]]
    with pytest.raises(BadSetup, match="field `ordered` item 0: expected a claim: a list of its 3 fields"):
        game.state_from_json(data)
    data["fields"]["ordered"] = [[0, 9, None]]
    with pytest.raises(BadSetup, match="field `ordered` item 0 field `colour`: expected a colour from 0 to 2"):
        game.state_from_json(data)
    data["fields"]["ordered"] = [[0, 1, 99]]
    with pytest.raises(BadSetup, match="field `at`: expected a spot"):
        game.state_from_json(data)


def test_an_item_assigned_outside_its_list_is_a_game_error_at_its_rule_line(tmp_path: Path) -> None:
    game = small_game(tmp_path)
    state = game.new_state(seed=3)
    for _ in range(7):
        state.apply("mark red")
    with pytest.raises(GameError, match=r"shapes\.yaml:50: game error: list index out of range"):
        state.apply("poke 0")


def test_subsets_are_listed_once_each_smallest_first_within_the_limits() -> None:
    class Budget:
        pass

    assert subsets(Budget(), (2, 1, 2), 1, 2, "x") == [(1,), (2,), (1, 2), (2, 2)]
    assert subsets(Budget(), (3, 1), 0, 9, "x") == [(), (1,), (3,), (1, 3)]
    assert subsets(Budget(), (1,), 2, 1, "x") == []
    with pytest.raises(GameError, match="1,048,576 subsets, more than the limit"):
        subsets(Budget(), tuple(range(20)), 0, 20, "here:3")


def test_subsets_remembered_by_the_board_are_the_same_and_charge_the_same_work() -> None:
    class Plain:
        pass

    class OnBoard:
        def __init__(self) -> None:
            self.board = RingBoard("r", 4, [], [])

    state, plain = OnBoard(), Plain()
    asked = [((3, 1, 3, 2), 1, 3), ((3, 1, 3, 2), 1, 3), ((2, 2), 3, 5), ((2, 2), 3, 5), ((1,), 0, 1)]
    for items, least, most in asked:
        state._budget = plain._budget = 1000  # type: ignore[attr-defined]
        assert subsets(state, items, least, most, "x") == subsets(plain, items, least, most, "x")
        assert state._budget == plain._budget  # type: ignore[attr-defined]
    assert len(state.board.tables.values[limits.SUBSETS_TABLE]) == 3, "made once per call site and items"
    state._budget = 20  # type: ignore[attr-defined]
    with pytest.raises(GameError, match="more than 1,000,000 steps"):
        subsets(state, (3, 1, 3, 2), 1, 3, "x")  # (remembered: its work charged again, over the budget)
    state._budget = 1000  # type: ignore[attr-defined]
    assert subsets(state, tuple(range(17)), 17, 17, "x") == [tuple(range(17))]  # (a long list: not remembered)
    assert len(state.board.tables.values[limits.SUBSETS_TABLE]) == 3


def test_the_tie_break_compares_lists_item_by_item_and_deciding_is_the_actor() -> None:
    game = rulewright.load_rules(DYNASTIES)
    state: Any = game.new_state(players=2, seed=5)
    state.points = [(3, 1, 1, 2), (1, 2, 1, 1), (0, 0, 0, 0)][:2]
    state.leaders = ()
    state._fields_set()  # (fields written from outside the rules: what the optimiser kept is made again)
    assert state._tie_break(0) == (1, 1, 2, 3, 0) and state._tie_break(1) == (1, 1, 1, 2, 0)
    state.terminal = True
    assert state.winners() == [0], "both weakest 1; second weakest 1 against 1; third 2 against 1"
    # a revolt: the defender decides, and `deciding` is he
    state = game.new_state(players=2, seed=5)
    state.leaders = ((1, 1, 7),)
    state._fields_set()
    spot = state.board.labels[8]
    assert state.board.labels[7] in [state.board.labels[n] for n in state.board.neighbours[8]]
    state._legal_cache = None
    state.apply(f"leader red {spot}")
    assert state.to_act() == 1 == state._deciding() and state.current == 0


def test_a_thousand_seeded_games_of_dynasties_end_without_error() -> None:
    game = rulewright.load_rules(DYNASTIES)
    for seed in range(100):  # (1,000 run by hand, at each player count: see the report of issue 11)
        state = game.new_state(players=2 + seed % 2, seed=seed)
        agent = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[agent.below(len(legal))])
        assert state.winners()


def test_sorted_sets_of_sets_go_by_their_items_in_order(tmp_path: Path) -> None:
    """`sorted` of a set of sets (Yellow & Yangtze's states beside a cell, whose first cells name
    the sides of a war) orders them by their items, as iterating such a set does: Python's `<` on
    sets is inclusion, under which disjoint sets keep the set's own (hash) order."""
    text = SMALL.replace(
        '  "owned(p: player)"',
        '  groups: "sorted(set(set(x for x in [spots[i], spots[i + 1]]) for i in range(0, 6)))"\n  "owned(p: player)"')
    state: Any = small_game(tmp_path, text).new_state(seed=1)
    assert [sorted(g) for g in state.groups()] == [[i, i + 1] for i in range(0, 6)]
