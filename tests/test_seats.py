"""Seat arithmetic (`seat`, `seat_at`, `next_seat`, `previous_seat`, `other`, `num_players`) and rule
sets without a board (issue 37), through tests/games/seat-dice.yaml: a dice game that leaves
`boards:` out. Its invariants state what the seat built-ins must give; they are checked at every
position of seeded random games, at every player count."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler.diff import diff, load_ruleset
from rulewright.compiler.driver import compile_file
from rulewright.coverage import run_games
from rulewright.draw import board_facts, draw_svg, view_of
from rulewright.leaks import find_leaks
from rulewright.render import render_state
from rulewright.runtime import (
    Game,
    GameError,
    RegionSpec,
    RingBoard,
    State,
    next_seat,
    other_seat,
    previous_seat,
    seat_at,
)
from rulewright.viewer import Sessions
from rulewright.web import WebApp
from tests.helpers.games import GAMES
from tests.helpers.web import PageClient, api

SEAT_DICE = GAMES / "seat-dice.yaml"


@cache
def seat_dice() -> Game:
    return rulewright.game_from_source(compile_file(SEAT_DICE).source, str(SEAT_DICE))


def play(players: int, seed: int) -> list[State]:
    """Every position of one seeded random game."""
    state = seat_dice().new_state(players, seed=seed)
    rng = random.Random(seed)
    seen = [state.clone()]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_invariants_of_seat_arithmetic_hold_in_every_position(players: int) -> None:
    dealt = 0
    for seed in range(3):
        positions = play(players, seed)
        assert positions[0].dealer == players - 1  # the setup gave the button to the last player
        for before, after in zip(positions, positions[1:], strict=False):
            assert after.broken_invariants() == [], (players, seed, after.turn)
            if before.dealer != after.dealer:  # `deal on`: the button goes to the next seat, round
                assert after.dealer == (before.dealer + 1) % players
                dealt += 1
    assert dealt  # (the button moved in these games)


def test_the_invariants_can_fail() -> None:
    """The invariants are read, not passed by default: a position that breaks one is named."""
    state = seat_dice().new_state(3, seed=1)
    state.chips[0] += 1  # a chip from nowhere
    state._fields_set()
    assert state.broken_invariants() == ["chips_kept"]


def test_seat_numbers_count_from_one_and_the_neutral_seats_follow() -> None:
    assert [seat_at(n, 3, 4, "r:1") for n in (1, 2, 3, 4)] == [0, 1, 2, 3]
    assert [next_seat(p, 3, "r:1") for p in range(3)] == [1, 2, 0]
    assert [previous_seat(p, 3, "r:1") for p in range(3)] == [2, 0, 1]
    assert [other_seat(p, 2, "r:1") for p in range(2)] == [1, 0]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: seat_at(0, 3, 4, "r.yaml:7"), "seat_at(0): this game has seats 1 to 4 (3 players, then the neutral"),
    (lambda: seat_at(5, 3, 3, "r.yaml:7"), "seat_at(5): this game has seats 1 to 3"),
    (lambda: next_seat(3, 3, "r.yaml:7"), "next_seat(p) of a neutral seat (seat 4)"),
    (lambda: previous_seat(3, 3, "r.yaml:7"), "previous_seat(p) of a neutral seat (seat 4)"),
    (lambda: other_seat(0, 3, "r.yaml:7"), "other(p) is the other player of two, and this game has 3"),
    (lambda: other_seat(2, 2, "r.yaml:7"), "other(p) of a neutral seat (seat 3)"),
])
def test_a_seat_that_is_not_there_is_a_game_error_at_the_rule_line(call: object, message: str) -> None:
    with pytest.raises(GameError) as err:
        call()  # type: ignore[operator]
    assert str(err.value).startswith("r.yaml:7: game error: ")
    assert message in str(err.value)


def test_other_at_more_players_stops_the_game_at_its_rule_line(tmp_path: Path) -> None:
    """`other` in a rule set for 2 to 4 players is allowed, and a game error where it runs at 3."""
    text = SEAT_DICE.read_text(encoding="utf-8").replace("last == 3 and num_players == 2", "last == 3")
    path = tmp_path / "seat-dice.yaml"
    path.write_text(text, encoding="utf-8")
    threes = rulewright.game_from_source(compile_file(path).source, str(path))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "other(current)" in row)
    with pytest.raises(GameError, match=rf"seat-dice.yaml:{line}: game error: other\(p\) is the other player"):
        for seed in range(50):
            state = threes.new_state(3, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))


def test_a_game_without_a_board_plays_on_an_empty_board_of_its_own() -> None:
    game = seat_dice()
    state = game.new_state(2, seed=0)
    assert state.board.spots == () and state.board.region_names == ()
    assert state.board is game.new_state(3, seed=1).board  # one per game: its interned actions
    assert game.board_for({}) is state.board


def test_a_game_without_a_board_is_drawn_without_one() -> None:
    state = play(3, 2)[5]
    text = render_state(state, 0)
    assert "chips" in text and "dealer" in text and "spot" not in text
    svg = draw_svg(state.board, view_of(state, 0), board_facts(state))
    assert "no board" in svg and "chips: " in svg and "graph board" not in svg


# -- regions owned by a seat (`owner:`), through tests/games/edge-link.yaml ---------------------------

EDGE_LINK = GAMES / "edge-link.yaml"


def edge_link() -> Game:
    """A game of its own each time (a test below changes its board)."""
    return rulewright.game_from_source(compile_file(EDGE_LINK).source, str(EDGE_LINK))


def test_owned_regions_hold_their_invariants_and_decide_the_game() -> None:
    game = edge_link()
    won = 0
    for seed in range(4):
        state = game.new_state(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert state.broken_invariants() == []
            state.apply(rng.choice(state.legal_actions()))
        won += len(state.winners()) == 1
    assert won  # (the edges a seat owns were joined in some game)


def test_the_owner_invariants_can_fail() -> None:
    game = edge_link()
    state = game.new_state(2, seed=0)
    board = state.board
    board.region_owner = (1, *board.region_owner[1:])  # the north edge given to white
    assert sorted(state.broken_invariants()) == ["owners_as_written", "two_edges_each"]


def test_an_owner_is_a_seat_played_or_none() -> None:
    """A seat's number, from 1; a seat a game does not play owns nothing there; a neutral seat
    comes after the players, however many play."""
    specs = [RegionSpec("zone", "a", ("1",), 2), RegionSpec("zone", "b", ("2",), -2),
             RegionSpec("zone", "c", ("3",)), RegionSpec("zone", "d", ("4",), 0)]
    board = RingBoard("track", 4, ("zone",), specs)
    assert [board.owner_of(r, 2) for r in range(4)] == [None, 2, None, 0]
    assert [board.owner_of(r, 3) for r in range(4)] == [2, 3, None, 0]
    assert board.owned(0, 0, 2) == (3,) and board.owned(2, 0, 3) == (0,) and board.owned(1, 0, 3) == ()


@pytest.mark.parametrize("board", [
    "ring: 4\n    regions:\n      zone: {a: {owner: 2, spots: [1, 2]}, b: [3, 4]}",
    "graph: {spots: [X, Y, Z], roads: [[X, Y, Z]]}\n    regions:\n"
    "      zone: {a: {owner: 2, spots: [X]}, b: {owner: 1, spots: [Y, Z]}}",
], ids=["ring", "graph"])
def test_every_kind_of_board_gives_its_regions_owners(board: str, tmp_path: Path) -> None:
    text = EDGE_LINK.read_text(encoding="utf-8")
    start, end = text.index("boards:"), text.index("state:")
    rules = (text[:start] + "boards:\n  other:\n    " + board + "\n\n" + text[end:]).replace(
        "owned_regions(p, edge)", "owned_regions(p, zone)").replace("regions_of(edge)", "regions_of(zone)")
    rules = rules[:rules.index("invariants:")]
    path = tmp_path / "edge-link.yaml"
    path.write_text(rules, encoding="utf-8")
    state = rulewright.game_from_source(compile_file(path).source, str(path)).new_state(2, seed=0)
    assert state.board.owner_of(0, 2) == 1 and state.board.owned(1, 0, 2) == (0,)


def test_the_web_board_plays_a_game_without_a_board() -> None:
    """The web board draws the players' areas and the fields, no board; a click names no spot."""
    client = PageClient(WebApp({"seat-dice": seat_dice}, Sessions()))  # (the game compiled once, above)
    form = {"ruleset": "seat-dice", "players": "2", "seed": "3", "seat1": "human", "seat2": "random"}
    made = client.post("/new", data=form)
    assert made.status_code == 303, made.text
    key = made.headers["Location"].removeprefix("/game/")
    data = api(client, f"/api/game/{key}?seat=1").json
    assert data is not None and data["history"][0].startswith("P1 roll (forced)")  # (P2 deals: P1 only rolls)
    assert "no board" in data["svg"] and "chips: " in data["svg"] and "<circle" in data["svg"]  # the players' areas
    for _ in range(100):  # the game is played to its end, P2's moves by its agent
        if data["terminal"]:
            break
        data = (api(client, f"/api/game/{key}/move", {"seat": 1, "text": data["moves"][-1]}) if data["moves"]
                else api(client, f"/api/game/{key}/agent", {"seat": "1"})).json
        assert data is not None and "illegal" not in data
    assert data["winners"] and "no board" in data["svg"]
    assert api(client, f"/api/game/{key}/click", {"seat": 1, "spot": "A1"}).status_code == 400


def test_diff_reports_a_changed_owner_and_nothing_of_lines_moved(tmp_path: Path) -> None:
    text = EDGE_LINK.read_text(encoding="utf-8")
    moved = tmp_path / "edge-link.yaml"
    text = text.replace("rulewright: 1\n", "rulewright: 1\n\n\n")  # every line moved down
    moved.write_text(text.replace("east: {owner: 2,", "east: {owner: 1,"), encoding="utf-8")
    changes = diff(load_ruleset(EDGE_LINK), load_ruleset(moved))
    assert [(c.path, c.old, c.new) for c in changes] == [("boards.small.regions.edge.east.owner", "2", "1")]


def test_leaks_and_coverage_run_on_a_game_without_a_board() -> None:
    """What a seat may see is checked without a board (the die under each cup stays its owner's),
    and the coverage build plays the game."""
    report = find_leaks(seat_dice(), 3, players=3)
    assert report.errors == [] and report.leaks == [] and report.states and report.hidden_fields == ["secret"]
    covered = run_games(SEAT_DICE, 4, 0, 2, {})
    assert covered.errors == [] and covered.runs == 4 and sum(1 for n in covered.hits if n) > len(covered.hits) // 2


def test_play_shows_each_region_s_owner() -> None:
    text = render_state(edge_link().new_state(2, seed=0), 0, width=200)
    assert "edges: north (P1) A1 A2 A3; south (P1) E1 E2 E3; west (P2) B1 C1 D1; east (P2) B4 C5 D4; centre (judge) " \
           "C3; rim C2 C4" in text
