"""China (Schacht): a thousand seeded random games per rule set, with the pieces, cards and
tiles conserved after every move, and the things of the base game a scenario cannot show
(the deck's composition, hidden hands, the choice of board face by player count).

The rulebook's worked examples and each placement rule are scenarios, under
tests/scenarios/china-schacht*/.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import rulewright
from rulewright.core.paths import bundled_rulesets
from rulewright.runtime import BadSetup, State

GAMES = 1000
MAX_MOVES = 5000


def china_rulesets() -> list[str]:
    """Every bundled China (Schacht) rule set: the base game and each variant file."""
    return sorted(r for r, _ in bundled_rulesets() if r.partition("/")[0] == "china-schacht")


def _totals(state: State) -> dict[str, Any]:
    """What must never change during a game: per owner, pieces on the board and in supply; the
    number of items of each kind (cards of each colour, bonus tiles) over every list field."""
    fields = {f.name: f for f in state.FIELDS}
    totals: dict[str, Any] = {}
    items: Counter[tuple[str, int]] = Counter()
    for info in state.FIELDS:
        if info.kind != "list" or info.element in ("player", "spot", "region"):
            continue
        values = getattr(state, info.name)
        for value in values if info.per else [values]:
            for item in value:
                items[(info.element, item)] += 1
    totals["items"] = items
    owners = range(state.num_seats)
    on_board: Counter[tuple[str, int]] = Counter()
    if "palace_of" in fields:
        for owner_list in state.palace_of:  # type: ignore[attr-defined]
            for o in owner_list:
                on_board[("palace", o)] += 1
    if "emissaries" in fields:
        for owner_list in state.emissaries:  # type: ignore[attr-defined]
            for o in owner_list:
                on_board[("emissary", o)] += 1
    if "fortified" in fields:  # fortifications are neutral once placed: only their number is kept
        totals["fortification"] = sum(state.fortified) + sum(state.fortifications_left)  # type: ignore[attr-defined]
    for kind, supply in (("palace", "palaces_left"), ("emissary", "emissaries_left")):
        if supply in fields:
            left = getattr(state, supply)
            totals[kind] = [on_board[(kind, o)] + left[o] for o in owners]
    return totals


def _play_checked(ruleset: str, players: int, seed: int) -> tuple[int, int, str | None]:
    """One random game, checked after every move; (moves, terminal, problem or None)."""
    game = rulewright.load(ruleset)
    state = game.new_state(players=players, seed=seed)
    agent = random.Random(seed)
    start = _totals(state)
    moves = 0
    while not state.is_terminal() and moves < MAX_MOVES:
        legal = state.legal_actions()
        state.apply(agent.choice(legal))
        moves += 1
        now = _totals(state)
        if now != start:
            return moves, 0, f"seed {seed}, move {moves}: {start} became {now}"
        if moves % 50 == 0:  # observing never fails, whatever the position
            for p in range(players):
                state.observation(p)
    if not state.is_terminal():
        return moves, 0, f"seed {seed}: not over after {MAX_MOVES} moves"
    if not state.winners():
        return moves, 1, f"seed {seed}: over without a winner"
    return moves, 1, None


def _player_counts(ruleset: str) -> list[int]:
    return list(rulewright.load(ruleset).info.players)


def test_the_china_rulesets_are_bundled() -> None:
    assert "china-schacht" in china_rulesets()


# One test per rule set, so that the suite's two workers share them (a pool of processes inside
# one worker overloaded the two cores while the other worker ran tests of its own).
@pytest.mark.parametrize("ruleset", china_rulesets())
def test_a_thousand_random_games_per_ruleset_conserve_everything(ruleset: str) -> None:
    counts = _player_counts(ruleset)
    problems: list[str] = []
    finished = 0
    for seed in range(GAMES):
        _, terminal, problem = _play_checked(ruleset, counts[seed % len(counts)], seed)
        finished += terminal
        if problem:
            problems.append(problem)
    assert problems == [], problems[:3]
    assert finished == GAMES


@pytest.mark.parametrize(("players", "cards"), [(3, 47), (4, 52), (5, 57)])
def test_the_deck_loses_one_card_per_colour_at_four_and_two_at_three(players: int, cards: int) -> None:
    state = rulewright.load("china-schacht").new_state(players=players, seed=7)
    every_card = [*state.deck, *state.face_up, *state.discard]  # type: ignore[attr-defined]
    for hand in state.hand:  # type: ignore[attr-defined]
        every_card += hand
    assert len(every_card) == cards
    removed = {3: 2, 4: 1, 5: 0}[players]
    by_colour = Counter(state.label("colour", c) for c in every_card)
    assert by_colour == {"violet": 10 - removed, "yellow": 11 - removed, "orange": 11 - removed,
                         "green": 12 - removed, "red": 13 - removed}
    assert all(len(hand) == 3 for hand in state.hand[:players])  # type: ignore[attr-defined]
    assert len(state.face_up) == 4  # type: ignore[attr-defined]


def test_hands_are_seen_by_their_owner_and_the_deck_by_its_size_only() -> None:
    state = rulewright.load("china-schacht").new_state(players=3, seed=3)
    seen = state.observation(1)["fields"]
    assert seen["hand"][0] is None and seen["hand"][2] is None
    assert len(seen["hand"][1]) == 3
    assert seen["deck"] == len(state.deck)  # type: ignore[attr-defined]
    assert len(seen["face_up"]) == 4


@pytest.mark.parametrize(("players", "board"), [(3, "face_3_4"), (4, "face_3_4"), (5, "face_4_5")])
def test_the_board_face_follows_the_number_of_players(players: int, board: str) -> None:
    assert rulewright.load("china-schacht").new_state(players=players).board.name == board


def test_a_face_for_other_player_counts_is_refused() -> None:
    game = rulewright.load("china-schacht")
    assert game.new_state(players=4, options={"board": "face_4_5"}).board.name == "face_4_5"
    with pytest.raises(BadSetup, match="board `face_3_4` is for 3 to 4 players, not 5"):
        game.new_state(players=5, options={"board": "face_3_4"})


def test_the_board_is_drawn_province_by_province_with_only_what_the_viewer_sees() -> None:
    from rulewright.render import render_state

    state: Any = rulewright.load("china-schacht").new_state(players=3, seed=1)
    state.apply("palace Chu1 with violet")
    text = render_state(state, viewer=0)
    assert "Chu (violet)  emissaries: ·  palaces: Chu1:P1-Chu2:·" in text
    assert "hand: P1 [" in text and "P2 ?" in text
    assert f"deck: {len(state.deck)}" in text
