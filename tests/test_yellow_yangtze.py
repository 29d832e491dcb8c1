"""Yellow & Yangtze (Reiner Knizia), what scenarios cannot show: a thousand seeded random games
per rule set with the 138 tiles, the 9 pagodas and every leader accounted for after every move,
saving and restoring anywhere (in the middle of a war too), what each player sees, and `diff`
listing exactly the short game's rules. The rulings, one by one, are the scenarios in
tests/scenarios/yellow-yangtze*/."""

from __future__ import annotations

import json

import pytest

import rulewright
from rulewright.compiler.diff import diff, load_ruleset
from rulewright.match import BatchSpec, play_game, run_batch


@pytest.mark.parametrize(("ruleset", "players"), [("yellow-yangtze", 3), ("yellow-yangtze/short", 2)])
def test_a_thousand_random_games_account_for_every_piece(ruleset: str, players: int) -> None:
    """The rule file's invariants (every_tile_accounted_for, racks_as_seen, every_leader_once,
    nine_pagodas, states_at_peace) are checked after every move of every game."""
    spec = BatchSpec(ruleset, players, seed=14, options={}, check_invariants=True)
    results = list(run_batch(spec, 1000, workers=2))
    assert len(results) == 1000
    errors = [r for r in results if r.error]
    assert errors == [], errors[0].error if errors else ""
    assert not any(r.capped for r in results)
    assert all(r.winners for r in results)


def test_a_game_saved_and_restored_anywhere_plays_on_the_same() -> None:
    """The save/restore property, in the middle of a war or a revolt too (a state waiting for a
    player's support or commitment): the restored game plays the rest exactly as the original."""
    game = rulewright.load("yellow-yangtze")
    in_war = 0
    for seed in range(3):
        moves = [move for _, move in play_game(game, 3, seed, record=True).log]
        end = game.new_state(players=3, seed=seed)
        for m in moves:
            end.apply(m)
        original = game.new_state(players=3, seed=seed)
        for k, move in enumerate(moves):
            saved = original.to_json()
            waiting = saved.get("pending") is not None
            if k % 10 == 0 or waiting:
                in_war += waiting and original.observation(0)["fields"]["conflict"] != []
                restored = game.state_from_json(json.loads(json.dumps(saved)))
                for rest in moves[k:]:
                    restored.apply(rest)
                assert restored.to_json() == end.to_json()
            original.apply(move)
    assert in_war > 0, "some saved states were in the middle of a conflict"


def test_what_each_player_sees() -> None:
    """Racks and victory points are their owners' (the size of each rack everyone's); the bag's
    tiles nobody's (its size everyone's); the market and the map everyone's."""
    game = rulewright.load("yellow-yangtze")
    state = game.new_state(players=3, seed=2)
    mine, theirs = state.observation(0)["fields"], state.observation(1)["fields"]
    assert len(mine["rack"][0]) == 6 and theirs["rack"][0] is None
    assert mine["rack_size"] == theirs["rack_size"] == [6, 6, 6]
    assert mine["points"][0] == [0, 0, 0, 0, 0] and theirs["points"][0] is None
    assert len(mine["market"]) == 6 and mine["market"] == theirs["market"]
    assert mine["bag"] == theirs["bag"] == 138 - 7 - 3 * 6 - 6, "the bag shows its size only"
    assert state.scores() == [0, 0, 0], "the score is secret until the end"


def test_diff_of_the_short_game_is_its_players_and_setup() -> None:
    changes = diff(load_ruleset("yellow-yangtze"), load_ruleset("yellow-yangtze/short"))
    assert {(c.kind, c.path) for c in changes} == {("changed", "players"), ("changed", "setup")}
    assert all(c.where is not None and c.where.short.startswith("rules/yellow-yangtze/short.yaml:") for c in changes)


def test_the_short_game_removes_twenty_four_tiles() -> None:
    base = rulewright.load("yellow-yangtze").new_state(players=2, seed=5).observation(0)["fields"]
    short = rulewright.load("yellow-yangtze/short").new_state(players=2, seed=5).observation(0)["fields"]
    assert json.dumps(base["bag"]) != json.dumps(short["bag"])
    sizes = [f["bag"] for f in (base, short)]
    assert all(isinstance(s, int) for s in sizes) and sizes[0] - sizes[1] == 24
