"""Saved states are untrusted data: `state_from_json` refuses, with one BadSetup naming the key or
field, anything no game of the rule set can hold, and `apply` refuses anything but an action of
the game or its text.

The corpus, tests/hostile/states/: `real/` holds real saved states of the bundled games (random
games stopped after a few moves, remade here by `REAL`), and each other file is one of them with
one thing broken, named `<real>--<what is broken>.json`; `HOSTILE` says what is broken and the
message expected. `python tests/test_hostile_states.py` writes the corpus again.
"""

from __future__ import annotations

import copy
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import rulewright
from rulewright.runtime import NO_AUCTION, Action, BadSetup, Game, IllegalAction, Rng, State

CORPUS = Path(__file__).parent / "hostile" / "states"

# name -> (rule set, players, seed, moves): a random game (agent Rng(seed + 1)) stopped after `moves`
REAL: dict[str, tuple[str, int, int, int]] = {
    "china-cornett": ("china-cornett", 2, 7, 12),
    "mandarin": ("mandarin", 3, 11, 276),  # in the middle of an auction
    "china-schacht": ("china-schacht", 3, 3, 20),
    "china-schacht-two-player": ("china-schacht/two-player", 2, 2, 15),  # and the emperor, a neutral seat
    "chang-cheng": ("chang-cheng", 3, 3, 30),  # a wall of two pieces, cards face down, peeks
}

@functools.cache
def play(name: str) -> dict[str, Any]:
    """The real state `name` (callers copy it before they change it)."""
    ruleset, players, seed, moves = REAL[name]
    state = rulewright.load(ruleset).new_state(players, seed)
    agent = Rng(seed + 1)
    for _ in range(moves):
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    saved: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    return saved


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def game_of(name: str) -> Game:
    return rulewright.load(REAL[name][0])


Change = Callable[[dict[str, Any]], None]


def _at(data: dict[str, Any], where: str) -> tuple[Any, Any]:
    """The container of the value at `where` ("fields/gold/1"), and its key there."""
    *path, last = [int(k) if k.isdigit() else k for k in where.split("/")]
    for key in path:
        data = data[key]
    return data, last


def put(where: str, value: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        parent, key = _at(data, where)
        parent[key] = value
    return change


def drop(where: str) -> Change:
    def change(data: dict[str, Any]) -> None:
        parent, key = _at(data, where)
        del parent[key]
    return change


def edit(where: str, how: Callable[[Any], Any]) -> Change:
    def change(data: dict[str, Any]) -> None:
        parent, key = _at(data, where)
        parent[key] = how(parent[key])
    return change


def broken(stem: str) -> dict[str, Any]:
    """The hostile state `stem`: its real state, broken as HOSTILE says."""
    data = copy.deepcopy(play(stem.split("--")[0]))
    HOSTILE[stem][0](data)
    return data


def _breaks(ruleset: str, invariant: str) -> str:
    """The message for a saved position that breaks one of the rule file's invariants."""
    where = rulewright.load(ruleset).info.rules[f"invariants.{invariant}"]
    return f"the position breaks invariant `{invariant}` of {ruleset} ({where}): no game of the rules reaches it"


# file stem -> (how the real state is broken, the message of its BadSetup after "saved state: ")
HOSTILE: dict[str, tuple[Change, str]] = {
    # -- china-cornett: the keys of a saved state ------------------------------------------
    "china-cornett--terminal-string": (put("terminal", "false"), "`terminal`: expected true or false, got 'false'"),
    "china-cornett--terminal-int": (put("terminal", 0), "`terminal`: expected true or false, got 0"),
    "china-cornett--current-minus-one": (
        put("current", -1),
        "`current`: expected the seat whose turn it is, from 0 to 1, got -1"),
    "china-cornett--current-five": (
        put("current", 5),
        "`current`: expected the seat whose turn it is, from 0 to 1, got 5"),
    "china-cornett--current-bool": (
        put("current", True),
        "`current`: expected the seat whose turn it is, from 0 to 1, got True"),
    "china-cornett--turn-zero": (put("turn", 0), "`turn`: expected a turn number from 1, got 0"),
    "china-cornett--moves-negative": (put("moves", -3), "`moves`: expected a count of moves from 0, got -3"),
    "china-cornett--moves-float": (edit("moves", float), "`moves`: expected a count of moves from 0, got 12.0"),
    "china-cornett--phase-unknown": (
        put("phase", "auction"),
        "`phase`: expected a phase of china-cornett (turn), got 'auction'"),
    "china-cornett--phase-index": (put("phase", 0), "`phase`: expected a phase of china-cornett (turn), got 0"),
    "china-cornett--rng-negative": (
        put("rng", -1),
        "`rng`: expected the generator's state, an int from 0 to 2**64 - 1, got -1"),
    "china-cornett--rng-too-large": (
        put("rng", 2**64),
        "`rng`: expected the generator's state, an int from 0 to 2**64 - 1, got 18446744073709551616"),
    "china-cornett--rng-string": (
        put("rng", "1234"),
        "`rng`: expected the generator's state, an int from 0 to 2**64 - 1, got '1234'"),
    "china-cornett--seed-float": (put("seed", 7.5), "`seed`: expected an int, got 7.5"),
    "china-cornett--players-three": (
        put("players", 3),
        "`players`: expected a player count of china-cornett (2), got 3"),
    "china-cornett--players-string": (
        put("players", "2"),
        "`players`: expected a player count of china-cornett (2), got '2'"),
    "china-cornett--ruleset-other": (put("ruleset", "mandarin"), "`ruleset`: expected 'china-cornett', got 'mandarin'"),
    "china-cornett--ruleset-path": (
        put("ruleset", "../../../x.py"),
        "`ruleset`: expected 'china-cornett', got '../../../x.py'"),
    "china-cornett--key-missing": (drop("rng"), "missing key `rng`"),
    "china-cornett--key-unknown": (
        put("score", [3, 0]),
        "unknown key 'score' (expected: ruleset, players, seed, options, rng, current, phase, turn, moves, "
        "terminal, fields)"),
    "china-cornett--options-not-object": (put("options", ["hex6"]), "`options`: expected a JSON object, got ['hex6']"),
    "china-cornett--option-missing": (drop("options/sector_collector"), "`options`: missing option `sector_collector`"),
    "china-cornett--option-unknown": (
        put("options/money_shown", "open"),
        "`options`: unknown option 'money_shown' (expected: board, sector_collector, reduction_reading)"),
    "china-cornett--option-bad-choice": (
        put("options/board", "hex7"),
        "option `board`: expected one of hex6, hex5, got 'hex7'"),
    "china-cornett--option-not-text": (
        put("options/reduction_reading", 1),
        "option `reduction_reading`: expected one of at_most_one, none_left, got 1"),
    "china-cornett--fields-not-object": (put("fields", []), "`fields`: expected a JSON object, got []"),
    "china-cornett--field-missing": (drop("fields/gold"), "`fields`: missing field `gold`"),
    "china-cornett--field-unknown": (
        put("fields/silver", [0, 0]),
        "`fields`: unknown field 'silver' (expected: marker, gold, tablets, roll, turned)"),
    # -- china-cornett: each field against its declared type -------------------------------
    "china-cornett--gold-item-string": (put("fields/gold/1", "x"), "field `gold` item 1: expected an int, got 'x'"),
    "china-cornett--gold-item-bool": (put("fields/gold/0", True), "field `gold` item 0: expected an int, got True"),
    "china-cornett--gold-item-null": (put("fields/gold/0", None), "field `gold` item 0: expected an int, got None"),
    "china-cornett--gold-too-long": (
        edit("fields/gold", lambda gold: [*gold, 0]),
        "field `gold`: expected a list of 2 items (one per player), got 3 items"),
    "china-cornett--gold-too-short": (
        edit("fields/gold", lambda gold: gold[:-1]),
        "field `gold`: expected a list of 2 items (one per player), got 1 items"),
    "china-cornett--gold-not-list": (
        put("fields/gold", 8),
        "field `gold`: expected a list of 2 items (one per player), got 8"),
    "china-cornett--marker-out-of-range": (
        put("fields/marker/3", 3),
        "field `marker` item 3: expected a marker from 0 to 2, got 3"),
    "china-cornett--marker-negative": (
        put("fields/marker/0", -1),
        "field `marker` item 0: expected a marker from 0 to 2, got -1"),
    "china-cornett--marker-name": (
        put("fields/marker/5", "gold_side"),
        "field `marker` item 5: expected a marker from 0 to 2, got 'gold_side'"),
    "china-cornett--marker-too-short": (
        edit("fields/marker", lambda marker: marker[:-1]),
        "field `marker`: expected a list of 91 items (one per spot), got 90 items"),
    "china-cornett--tablets-repeated": (
        put("fields/tablets", [0, 1, 1]),
        "field `tablets`: expected the items of a set in increasing order, each once, got [0, 1, 1]"),
    "china-cornett--tablets-unsorted": (
        put("fields/tablets", [2, 0, 1]),
        "field `tablets`: expected the items of a set in increasing order, each once, got [2, 0, 1]"),
    "china-cornett--tablets-unknown-die": (
        put("fields/tablets/2", 3),
        "field `tablets` item 2: expected a tablet from 0 to 2, got 3"),
    "china-cornett--tablets-object": (
        put("fields/tablets", {"0": True}),
        "field `tablets`: expected a set (a JSON list), got {'0': True}"),
    "china-cornett--roll-float": (edit("fields/roll", float), "field `roll`: expected an int, got 4.0"),
    "china-cornett--roll-beyond-64-bits": (
        put("fields/roll", 2**63),
        "field `roll`: expected an int of 64 bits (at most 9,223,372,036,854,775,807 either way), the limit of a "
        "game, got 9223372036854775808"),
    "china-cornett--turned-off-board": (
        put("fields/turned", [45, 91]),
        "field `turned` item 1: expected a spot from 0 to 90, got 91"),
    "china-cornett--turned-string": (
        put("fields/turned", "E3-E4-E5"),
        "field `turned`: expected a list, got 'E3-E4-E5'"),
    # -- mandarin: nested values and the auction -------------------------------------------
    "mandarin--money-item-null": (put("fields/money/2", None), "field `money` item 2: expected an int, got None"),
    "mandarin--money-beyond-64-bits": (
        put("fields/money/0", -(10**30)),
        "field `money` item 0: expected an int of 64 bits (at most 9,223,372,036,854,775,807 either way), the "
        "limit of a game, got -1000000000000000000000000000000"),
    "mandarin--card-too-long": (
        edit("fields/card", lambda card: [*card, []]),
        "field `card`: expected a list of 3 items (one per player), got 4 items"),
    "mandarin--card-item-not-set": (
        put("fields/card/2", 5),
        "field `card` item 2: expected a set (a JSON list), got 5"),
    "mandarin--card-tile-out-of-range": (
        edit("fields/card/0", lambda tiles: [*tiles, 72]),
        "field `card` item 0 item 1: expected a tile from 0 to 71, got 72"),
    "mandarin--dispenser-repeated": (
        edit("fields/dispenser", lambda tiles: [tiles[0], *tiles]),
        "field `dispenser`: expected the items of a set in increasing order, each once, got "
        "[2, 2, 3, 4, 5, 7, ...]"),
    "mandarin--position-off-board": (
        put("fields/position/1", 36),
        "field `position` item 1: expected a spot from 0 to 35, got 36"),
    "mandarin--last-roll-bool": (put("fields/last_roll", True), "field `last_roll`: expected an int, got True"),
    "mandarin--creditor-item-bool": (
        put("fields/creditor", [False]),
        "field `creditor` item 0: expected a player from 0 to 2, got False"),
    "mandarin--stage-out-of-range": (put("fields/stage", 2), "field `stage`: expected a stage from 0 to 1, got 2"),
    "mandarin--creditor-not-seat": (
        put("fields/creditor", [3]),
        "field `creditor` item 0: expected a player from 0 to 2, got 3"),
    "mandarin--sale-string": (
        put("fields/sale", "none"),
        "field `sale`: expected an auction (a JSON object), got 'none'"),
    "mandarin--sale-key-missing": (drop("fields/sale/step"), "field `sale`: missing key `step`"),
    "mandarin--sale-key-unknown": (
        put("fields/sale/winner", 1),
        "field `sale`: unknown key 'winner' (an auction has bidders, turn, still_in, high_bid, high_bidder, "
        "minimum, step)"),
    "mandarin--sale-turn-out-of-range": (
        put("fields/sale/turn", 3),
        "field `sale` key `turn`: expected an index into `bidders` (0 to 2), got 3"),
    "mandarin--sale-bidder-unknown-seat": (
        put("fields/sale/bidders/1", 5),
        "field `sale` key `bidders` item 1: expected a seat from 0 to 2, got 5"),
    "mandarin--sale-bidder-twice": (
        put("fields/sale/bidders/2", 1),
        "field `sale` key `bidders`: expected each seat once, got [1, 2, 1]"),
    "mandarin--sale-still-in-unsorted": (
        put("fields/sale/still_in", [2, 0, 1]),
        "field `sale` key `still_in`: expected bidders in increasing order, each once, got [2, 0, 1]"),
    "mandarin--sale-step-zero": (
        put("fields/sale/step", 0),
        "field `sale` key `step`: expected a step of at least 1, got 0"),
    "mandarin--sale-minimum-beyond-64-bits": (
        put("fields/sale/minimum", 2**64),
        "field `sale` key `minimum`: expected an int of 64 bits (at most 9,223,372,036,854,775,807 either way), "
        "the limit of a game, got 18446744073709551616"),
    "mandarin--sale-high-bid-string": (
        edit("fields/sale/high_bid", str),
        "field `sale` key `high_bid`: expected an int, got '700'"),
    "mandarin--sale-high-bidder-unknown": (
        put("fields/sale/high_bidder", 4),
        "field `sale` key `high_bidder`: expected -1 (nobody) or a bidder still in, got 4"),
    "mandarin--sale-high-bid-below-minimum": (
        put("fields/sale/high_bid", 50),
        "field `sale` key `high_bid`: expected a bid of at least the minimum 100, got 50"),
    # every field in range, but no game of Mandarin holds the auction phase without an auction
    "mandarin--sale-none-in-auction-phase": (
        put("fields/sale", NO_AUCTION.to_json()),
        "not a position of mandarin: the seat to act in phase `auction` would be -1, not a player"),
    # -- china-schacht ---------------------------------------------------------------------
    "china-schacht--option-board-for-other-players": (
        put("options/board", "face_4_5"),
        "board `face_4_5` is for 4 to 5 players, not 3"),
    "china-schacht--hand-colour-out-of-range": (
        put("fields/hand/0/0", 5),
        "field `hand` item 0 item 0: expected a colour from 0 to 4, got 5"),
    "china-schacht--emissaries-too-short": (
        edit("fields/emissaries", lambda each: each[:-1]),
        "field `emissaries`: expected a list of 9 items (one per region), got 8 items"),
    "china-schacht--palace-of-not-list": (
        put("fields/palace_of/4", 0),
        "field `palace_of` item 4: expected a list, got 0"),
    "china-schacht--scored-int": (put("fields/scored/2", 0), "field `scored` item 2: expected true or false, got 0"),
    "china-schacht--deck-name": (
        put("fields/deck/0", "red"),
        "field `deck` item 0: expected a colour from 0 to 4, got 'red'"),
    "china-schacht--end-announced-string": (
        put("fields/end_announced", "no"),
        "field `end_announced`: expected true or false, got 'no'"),
    # -- china-schacht/two-player: per-player fields hold the emperor's seat too --------------
    "china-schacht-two-player--palaces-left-players-only": (
        edit("fields/palaces_left", lambda left: left[:2]),
        "field `palaces_left`: expected a list of 3 items (one per player and neutral seat), got 2 items"),
    "china-schacht-two-player--specials-out-of-range": (
        put("fields/specials/0/0", 3),
        "field `specials` item 0 item 0: expected a special_card from 0 to 2, got 3"),
    "china-schacht-two-player--emperor-turn-out-of-range": (
        put("fields/emperor_turn", 3),
        "field `emperor_turn`: expected an emperor_step from 0 to 2, got 3"),
    "china-schacht-two-player--current-emperor": (
        put("current", 2),
        "`current`: expected the seat whose turn it is, from 0 to 1, got 2"),
    # -- chang-cheng: a wall, records, optional seats and the rule file's invariants --------
    "chang-cheng--layout-piece-twice": (
        edit("fields/layout", lambda faces: [*faces, faces[0]]), _breaks("chang-cheng", "each_piece_laid_once")),
    "chang-cheng--layout-face-unknown": (
        put("fields/layout/1", 9), "field `layout` item 1: expected a wallface from 0 to 7, got 9"),
    "chang-cheng--placed-card-unknown": (
        put("fields/placed/0/0/1", 9), "field `placed` item 0 item 0 field `kind`: expected a card from 0 to 5, got 9"),
    "chang-cheng--reserved-not-a-seat": (
        put("fields/reserved/0", 7), "field `reserved` item 0: expected a player from 0 to 2, got 7"),
    "chang-cheng--sighting-threat-text": (
        put("fields/sightings/0/0/1", "x"),
        "field `sightings` item 0 item 0 field `threat`: expected an int, got 'x'"),
    "chang-cheng--singles-too-many": (put("fields/singles/0", 15), _breaks("chang-cheng", "sections_conserved")),
}


# -- the corpus ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(REAL))
def test_real_states_are_what_a_game_saves_and_load_unchanged(name: str) -> None:
    saved = read(CORPUS / "real" / f"{name}.json")
    assert saved == play(name), f"real/{name}.json is not the state REAL describes: run this file to write it"
    state = game_of(name).state_from_json(saved)
    assert state.to_json() == saved
    assert state.legal_actions()


def test_the_corpus_is_the_table() -> None:
    assert sorted(p.stem for p in CORPUS.glob("*.json")) == sorted(HOSTILE)
    assert sorted(p.stem for p in (CORPUS / "real").glob("*.json")) == sorted(REAL)


@pytest.mark.parametrize("stem", sorted(HOSTILE))
def test_a_hostile_state_is_refused_with_its_message(stem: str) -> None:
    data = read(CORPUS / f"{stem}.json")
    assert data == broken(stem), f"{stem}.json is not the state HOSTILE describes: run this file to write it"
    with pytest.raises(BadSetup) as caught:
        game_of(stem.split("--")[0]).state_from_json(data)
    assert str(caught.value) == f"saved state: {HOSTILE[stem][1]}"


@pytest.mark.parametrize("data", [None, [], "[]", 7, b"7"])  # (a text or bytes is read as JSON first)
def test_what_is_not_an_object_is_refused(data: Any) -> None:
    with pytest.raises(BadSetup, match=r"^saved state: expected a JSON object, got "):
        rulewright.load("china-cornett").state_from_json(data)


def test_a_state_of_a_variant_is_not_one_of_its_base() -> None:
    saved = read(CORPUS / "real" / "china-schacht.json")
    with pytest.raises(BadSetup, match=r"`ruleset`: expected 'china-schacht/bonus-tiles', got 'china-schacht'$"):
        rulewright.load("china-schacht/bonus-tiles").state_from_json(saved)


def test_huge_numbers_are_refused_by_range_without_printing_them() -> None:
    data = read(CORPUS / "real" / "china-cornett.json")
    data["fields"]["marker"][0] = 10**5000  # repr() of it would fail: a message must not
    with pytest.raises(BadSetup, match=r"item 0: expected a marker from 0 to 2, got a number of 4153 hex digits$"):
        rulewright.load("china-cornett").state_from_json(data)


def test_a_refused_state_leaves_its_input_as_it_was() -> None:
    data = read(CORPUS / "china-cornett--gold-item-string.json")
    before = copy.deepcopy(data)
    with pytest.raises(BadSetup):
        rulewright.load("china-cornett").state_from_json(data)
    assert data == before


def test_a_loaded_state_shares_nothing_with_its_input() -> None:
    data = read(CORPUS / "real" / "mandarin.json")
    state = game_of("mandarin").state_from_json(data)
    data["fields"]["money"][0] = -5
    data["fields"]["card"][0].append(70)
    data["options"]["unsold"] = "originator_keeps"
    assert state.to_json() == read(CORPUS / "real" / "mandarin.json")


def test_fields_of_every_shape_are_checked_item_by_item(tmp_path: Path) -> None:
    """Truth values in a list, lists of lists, one value per component: shapes the bundled games
    do not use (the small game of tests/games/tile-bag.yaml, with two fields more)."""
    text = (Path(__file__).parent / "games" / "tile-bag.yaml").read_text(encoding="utf-8").replace(
        '  face_up: {type: list(bool), init: "[]"}\n',
        '  face_up: {type: list(bool), init: "[]"}\n'
        '  pairs: {type: list(list(tile)), init: "[[t, t] for t in tiles if t.crowned]"}\n'
        '  seen: {per: tile, type: int, init: 0}\n')
    (tmp_path / "shapes.yaml").write_text(text, encoding="utf-8")
    game = rulewright.load_rules(tmp_path / "shapes.yaml")
    saved = json.loads(json.dumps(game.new_state(2, 5).to_json()))
    assert saved["fields"]["pairs"] == [[0, 0], [4, 4], [8, 8]] and saved["fields"]["face_up"] in ([True], [False])
    assert game.state_from_json(saved).to_json() == saved
    for where, value, message in [
        (("face_up", 0), 1, "field `face_up` item 0: expected true or false, got 1"),
        (("pairs", 1, 0), 12, "field `pairs` item 1 item 0: expected a tile from 0 to 11, got 12"),
        (("pairs", 2), 2, "field `pairs` item 2: expected a list, got 2"),
        (("seen",), [0] * 11, "field `seen`: expected a list of 12 items (one per tile), got 11 items"),
        (("hand", 1), [4, 3], "field `hand` item 1: expected the items of a set in increasing order, each once, "
                              "got [4, 3]"),
    ]:
        data = copy.deepcopy(saved)
        parent = data["fields"]
        for key in where[:-1]:
            parent = parent[key]
        parent[where[-1]] = value
        with pytest.raises(BadSetup) as caught:
            game.state_from_json(data)
        assert str(caught.value) == f"saved state: {message}"


# -- mutations of real states: a clean refusal, or a state that round-trips and plays ----------
def paths(value: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [where]
    if isinstance(value, dict):
        for k, v in value.items():
            found += paths(v, (*where, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += paths(v, (*where, i))
    return found


@functools.cache
def real_state(name: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """A real saved state, and the path to every value in it."""
    saved: dict[str, Any] = read(CORPUS / "real" / f"{name}.json")
    return saved, paths(saved)[1:]


# Whole numbers stay small: a field of type int has no declared range, and a huge one where a
# choice counts up to it (a bid up to one's money) is for the per-move budget to stop.
ODD = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 120), st.sampled_from([-(2**64), 2**64, 1.5, 0.0, float("nan")]),
    st.text(max_size=4), st.sampled_from(["0", "true", "false", "turn", "hex6"]),
    st.lists(st.integers(-2, 80), max_size=4), st.dictionaries(st.text(max_size=3), st.integers(0, 3), max_size=2),
)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, dict[str, Any], str]:
    name = draw(st.sampled_from(sorted(REAL)))
    saved, every = real_state(name)
    data = copy.deepcopy(saved)
    where = draw(st.sampled_from(every))
    parent: Any = data
    for key in where[:-1]:
        parent = parent[key]
    key = where[-1]
    op = draw(st.sampled_from(["drop", "add", "replace", "shift", "swap"]))
    if op == "drop":
        del parent[key]
    elif op == "add":
        if isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "score", "winner", "Gold"]))] = draw(ODD)
        else:
            parent.insert(key, copy.deepcopy(parent[key]) if draw(st.booleans()) else draw(ODD))
    elif op == "replace":
        parent[key] = draw(ODD)
    elif op == "shift" and type(parent[key]) is int:
        parent[key] += draw(st.sampled_from([-100, -2, -1, 1, 2, 3, 100]))
    elif op == "swap":  # a value of the right shape from elsewhere in the state
        other = data
        for k in draw(st.sampled_from(every)):
            other = other[k]
        parent[key] = copy.deepcopy(other)
    return name, data, f"{op} {'/'.join(map(str, where))}"


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(mutated())
def test_a_mutated_state_is_refused_or_is_a_playable_state(case: tuple[str, dict[str, Any], str]) -> None:
    name, data, _ = case
    game = game_of(name)
    try:
        state = game.state_from_json(data)
    except BadSetup as exc:
        assert str(exc).startswith("saved state: ") and "\n" not in str(exc)
        event("refused")
        return
    event("accepted")
    assert state.to_json() == data
    legal = state.legal_actions()
    assert legal or state.is_terminal()
    for p in range(state.num_players):
        json.dumps(state.observation(p))
    if legal:
        twin = state.clone()
        twin.apply(legal[0])
        assert state.to_json() == data


# -- apply, why_illegal, parse_action: only an action of this game, or its text ---------------
NOT_ACTIONS = [5, None, [0], b"pass", 2.5, {"name": "pass"}, ("prospect", ())]


@pytest.mark.parametrize("thing", NOT_ACTIONS, ids=repr)
def test_apply_refuses_what_is_no_action_and_changes_nothing(thing: Any) -> None:
    state = rulewright.load("china-cornett").new_state(2, 7)
    before = state.to_json()
    expected = (r"^not an action: expected an action of china-cornett or its text, got .+ "
                rf"\({type(thing).__name__}\)$")
    with pytest.raises(IllegalAction, match=expected):
        state.apply(thing)
    with pytest.raises(IllegalAction, match=expected):
        state.why_illegal(thing)
    with pytest.raises(IllegalAction, match=expected):
        state.parse_action(thing)
    assert state.to_json() == before
    state.apply(state.legal_actions()[0])  # and it still plays


def pair(base: str, other: str) -> tuple[State, Action]:
    """A state of `base` and an action of `other` equal (by name and arguments) to a legal one."""
    for seed in range(20):
        mine = rulewright.load(base).new_state(3, seed)
        theirs = rulewright.load(other).new_state(3, seed)
        for action in theirs.legal_actions():
            if action in mine.legal_actions():
                return mine, action
    raise AssertionError("no common action")


@pytest.mark.parametrize("other", ["china-schacht/bonus-tiles", "china-schacht/border-quarrels"])
def test_an_action_of_another_rule_set_is_illegal(other: str) -> None:
    state, action = pair("china-schacht", other)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=rf"`{action}` is an action of {other}, not of china-schacht "):
        state.apply(action)
    assert state.why_illegal(action) == (f"`{action}` is an action of {other}, not of china-schacht",
                                         "phases.turn.actions")
    assert state.to_json() == before
    state.apply(str(action))  # its text is the text of this game's action


def test_an_action_of_another_game_is_illegal() -> None:
    state = rulewright.load("china-cornett").new_state(2, 7)
    before = state.to_json()
    foreign = rulewright.load("mandarin").new_state(2, 1).legal_actions()[0]
    with pytest.raises(IllegalAction, match=rf"`{foreign}` is an action of mandarin, not of china-cornett"):
        state.apply(foreign)
    assert state.to_json() == before


def test_an_action_made_outside_any_game_is_illegal() -> None:
    state = rulewright.load("china-cornett").new_state(2, 7)
    legal = state.legal_actions()[0]
    forged = Action(legal.name, legal.args, lambda a: "prospect")
    with pytest.raises(IllegalAction, match="is an action made outside any game, not of china-cornett"):
        state.apply(forged)


def test_an_equal_action_of_another_state_of_the_game_is_legal() -> None:
    game = rulewright.load("china-cornett")
    state, other = game.new_state(2, 7), game.new_state(2, 7)
    legal = state.legal_actions()[3]
    state.apply(Action(legal.name, legal.args, other._action_text))  # equal, not the same object
    assert state.moves == 1


def test_a_very_long_text_is_quoted_short() -> None:
    state = rulewright.load("china-cornett").new_state(2, 7)
    with pytest.raises(IllegalAction) as caught:
        state.apply("prospect " + "A1-" * 100_000)
    assert len(str(caught.value)) < 1000


if __name__ == "__main__":  # write the corpus again (after a change of the games or of HOSTILE)
    (CORPUS / "real").mkdir(parents=True, exist_ok=True)
    for old in [*CORPUS.glob("*.json"), *(CORPUS / "real").glob("*.json")]:
        old.unlink()
    for real_name in REAL:
        (CORPUS / "real" / f"{real_name}.json").write_text(json.dumps(play(real_name)) + "\n", encoding="utf-8")
    for hostile in HOSTILE:
        (CORPUS / f"{hostile}.json").write_text(json.dumps(broken(hostile)) + "\n", encoding="utf-8")
    sys.exit(0)
