"""A sample of the unseen (`State.sample_unseen`, runtime/unseen.py), on every bundled rule set.

In states sampled from seeded random games, for every player: his observation is the same in
the sample, and so are his legal actions when he is to act; the sample keeps the rule set's
invariants and conserves the items and values the game conserves; it depends on what he sees
and on the generator only (a sample of a sample, drawn with the same generator, is the same
state); and it does draw again (some samples differ from the state they were drawn from).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import rulewright
from rulewright.runtime import Game, Rng, State
from rulewright.runtime.unseen import Unseen
from tests.helpers.games import GAMES, RULESETS, TEST_GAMES

MOVES = 70
SAMPLE_EVERY = 11


def saved(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def listed(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def conserved(state: State) -> tuple[Counter[Any], Counter[str]]:
    """Every item of every list and set field, by item type (and the components of records but
    their numbers, which copy values: a sighting of a token); the sum of each per-entity int field."""
    items: Counter[Any] = Counter()
    sums: Counter[str] = Counter()
    for info in state.FIELDS:
        value = getattr(state, info.name)
        if info.per is None and info.kind == "set" and value and value <= _others(state, info):
            continue  # a mark on items held elsewhere (Mandarin's `plain`: which tiles of `out` fell face down)
        entries = value if info.per is not None else [value]
        if info.kind in ("list", "set") and info.element:
            for entry in entries:
                items.update((info.element, item) for item in entry)
        elif info.kind in ("list", "set") and info.declared[len(info.kind) + 1:-1] in state.RECORDS:
            types = [ty for _, ty in state.RECORDS[info.declared[len(info.kind) + 1:-1]]]
            for entry in entries:  # the components of records, by their type (an int may copy a value)
                items.update((ty, record[c]) for record in entry for c, ty in enumerate(types) if ty != "int")
        elif info.kind == "int" and info.per is not None:
            sums[info.name] += sum(entries)
    return items, sums


def _others(state: State, info: Any) -> set[Any]:
    return {item for f in state.FIELDS
            if f.name != info.name and f.element == info.element and f.kind in ("list", "set")
            for entry in (getattr(state, f.name) if f.per else [getattr(state, f.name)]) for item in entry}


def unseen_values(state: State, player: int) -> str:
    unseen = Unseen(state, player)
    return json.dumps({name: state.to_json()["fields"][name] for name in unseen.fields()}, sort_keys=True)


def sampled_states(game: Game, seed: int) -> list[State]:
    players = game.info.players[seed % len(game.info.players)]
    state = game.new_state(players=players, seed=seed)
    agent = Rng(seed + 3)
    found = []
    for move in range(MOVES):
        if state.is_terminal():
            break
        if move % SAMPLE_EVERY == 0:
            found.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    return found


def check_samples(game: Game, seed: int) -> tuple[int, int]:
    """The checks of this file on one seeded game; (samples drawn, samples that differ)."""
    drawn = differ = 0
    for n, state in enumerate(sampled_states(game, seed)):
        items, sums = conserved(state)
        for player in range(state.num_players):
            rng_seed = seed * 1000 + n * 10 + player
            sample = state.sample_unseen(player, Rng(rng_seed))
            where = f"{game.info.ruleset} seed {seed} move {state.moves}, P{player + 1}"
            assert sample.observation(player) == state.observation(player), where
            if state.to_act() == player:
                assert listed(sample) == listed(state), where
            assert sample.broken_invariants() == [], where
            assert conserved(sample) == (items, sums), f"{where}: the items or sums are not conserved"
            again = sample.sample_unseen(player, Rng(rng_seed))
            assert saved(again) == saved(sample), f"{where}: the sample depends on where the unseen values are"
            assert saved(sample.clone()) == saved(sample), where
            assert saved(state.sample_unseen(player, Rng(rng_seed))) == saved(sample), f"{where}: not reproducible"
            drawn += 1
            differ += unseen_values(sample, player) != unseen_values(state, player)
    return drawn, differ


def _hides(game: Game) -> bool:
    return any(f.visible != "all" for f in game.state_class.FIELDS)


# Liar's dice hides one number per seat, the die under each cup: at two players the other seat's
# die is the one unseen entry, which sample_unseen keeps (docs/experiments.md, "A sample of the
# unseen": a value with nothing to be exchanged with), a leak for a die nobody can know. Drawing it
# again needs the sampler to know the field holds a die's throw: known, failing until it does.
LEAKS_A_LONE_DIE = pytest.mark.xfail(strict=True, reason="sample_unseen keeps a lone hidden value: the other "
                                     "seat's die at liar's dice (issue 37)")


@pytest.mark.parametrize("ruleset", [pytest.param(r, marks=LEAKS_A_LONE_DIE) if r == "liars-dice" else r
                                     for r in RULESETS])
def test_a_sample_of_the_unseen_is_consistent_with_what_the_player_sees(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    drawn, differ = check_samples(game, 1)
    assert drawn > 0
    if _hides(game):
        assert differ > 0, "no sample drew anything again"
    else:
        assert differ == 0


@pytest.mark.parametrize("name", TEST_GAMES)
def test_a_sample_of_the_unseen_of_a_test_game(name: str) -> None:
    game = rulewright.load_rules(GAMES / name)
    drawn, differ = check_samples(game, 1)
    assert drawn > 0
    if not _hides(game):
        assert differ == 0


def test_the_state_s_own_generator_is_drawn_again() -> None:
    state = rulewright.load("china-schacht").new_state(players=3, seed=2)
    assert state.sample_unseen(0, Rng(1)).rng.state != state.rng.state
    assert state.sample_unseen(0, Rng(1)).rng.state != state.sample_unseen(0, Rng(2)).rng.state


def test_cards_in_other_hands_and_the_deck_are_one_pool() -> None:
    state: Any = rulewright.load("china-schacht/two-player").new_state(players=2, seed=5)
    seen = state.hand[0]
    hands = {tuple(state.sample_unseen(0, Rng(k)).hand[1]) for k in range(20)}
    assert len(hands) > 1 and all(len(h) == len(state.hand[1]) for h in hands)
    assert all(tuple(state.sample_unseen(0, Rng(k)).hand[0]) == tuple(seen) for k in range(5))


def test_two_players_money_is_what_the_ledger_leaves() -> None:
    """Mandarin: with two players, the other's money is the visible ledger less one's own: kept;
    with three, the others' sums are exchanged between them."""
    game = rulewright.load("mandarin")
    two: Any = game.new_state(players=2, seed=1)
    while two._pending is not None:  # (the setup asks: a state waiting for an answer is copied by playing it again)
        two.apply(two.legal_actions()[0])
    two.money = [2500, 1700]
    assert all(two.sample_unseen(0, Rng(k)).money == [2500, 1700] for k in range(5))
    three: Any = game.new_state(players=3, seed=1)
    while three._pending is not None:
        three.apply(three.legal_actions()[0])
    three.money = [2500, 1700, 900]
    monies = {tuple(three.sample_unseen(0, Rng(k)).money) for k in range(20)}
    assert monies == {(2500, 1700, 900), (2500, 900, 1700)}


def test_tiles_that_fell_face_down_are_followed_by_their_mark() -> None:
    """Mandarin: a tile of `out` that fell plain side up is hidden because it is in `plain`: the
    tile dealt in its place is in `plain` in the sample."""
    game = rulewright.load("mandarin")
    state: Any = game.new_state(players=3, seed=4)
    agent = Rng(9)
    while not state.plain:
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    hidden = [k for k, t in enumerate(state.out) if t in state.plain]
    for k in range(10):
        sample: Any = state.sample_unseen(0, Rng(k))
        assert sample.plain == frozenset(sample.out[i] for i in hidden)
        assert not sample.plain & sample.dispenser


def test_a_hand_of_one_card_of_each_kind_is_dealt_again_with_its_owner_s_face_down_cards() -> None:
    """Chang Cheng: each player holds one card of each kind, in hand or laid face down; his own
    sightings of a peril token keep its value, the others' sightings follow the values moved."""
    game = rulewright.load("chang-cheng")
    state: Any = game.new_state(players=3, seed=3)
    agent = Rng(2)
    while not (state.placed[1] and state.placed[2] and state.to_act() == 0):
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    kinds = [sorted(set(state.hand[p]) | {c[1] for c in state.placed[p]}) for p in range(3)]
    changed = False
    for k in range(12):
        sample: Any = state.sample_unseen(0, Rng(k))
        for p in (1, 2):
            assert sorted(set(sample.hand[p]) | {c[1] for c in sample.placed[p]}) == kinds[p]
            assert [(c[0], c[2]) for c in sample.placed[p]] == [(c[0], c[2]) for c in state.placed[p]]
            for m, threat in sample.sightings[p]:
                assert sample.peril[m] == threat
        for m, threat in state.sightings[0]:
            assert sample.peril[m] == threat
        changed |= sample.hand[1] != state.hand[1] or sample.placed[1] != state.placed[1]
    assert changed


def test_a_sample_waiting_for_a_decision_is_copied_as_itself() -> None:
    """A move that asks a seat is held as steps; a copy of a sample of it is the same sample, and
    the seat asked can answer in it."""
    game = rulewright.load("yellow-yangtze/short")
    state = game.new_state(players=2, seed=0)
    agent = Rng(1)
    while state._pending is None:
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    seat = state.to_act()
    assert seat is not None
    sample = state.sample_unseen(seat, Rng(7))
    assert sample.observation(seat) == state.observation(seat)
    assert saved(sample.clone()) == saved(sample)
    copy = sample.clone()
    copy.apply(copy.legal_actions()[0])
    again = sample.clone()
    again.apply(again.legal_actions()[0])
    assert saved(copy) == saved(again)


def test_a_player_outside_the_game_is_refused() -> None:
    state = rulewright.load("china-schacht").new_state(players=3, seed=0)
    with pytest.raises(rulewright.BadSetup, match="no player 3"):
        state.sample_unseen(3, Rng(0))


def test_fields_of_a_declared_pool_are_dealt_apart() -> None:
    """China (Schacht) bonus tiles: of the card colours, but `pool: bonus_tiles`: in every sample
    the face-down tiles are still six of each bonus colour, never cards."""
    game = rulewright.load("china-schacht/bonus-tiles")
    state: Any = game.new_state(players=3, seed=1)
    tiles = Counter(c for under in state.tile_under for c in under)
    assert sorted(tiles.values()) == [6, 6, 6]
    placements = set()
    for k in range(8):
        sample: Any = state.sample_unseen(0, Rng(k))
        assert Counter(c for under in sample.tile_under for c in under) == tiles
        assert Counter(c for hand in sample.hand[1:] for c in hand) + Counter(sample.deck) == (
            Counter(c for hand in state.hand[1:] for c in hand) + Counter(state.deck))
        placements.add(tuple(tuple(under) for under in sample.tile_under))
    assert len(placements) > 1
