"""Every bundled rule set, whatever its game: random games to the end with clone, JSON,
observation and invariant checks at every step (OpenSpiel's random_sim_test)."""

from __future__ import annotations

import json

import pytest

import rulewright
from rulewright.runtime import IllegalAction, Rng
from tests.helpers.games import RULESETS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_games_respect_the_api(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    for seed in range(5):
        players = game.info.players[seed % len(game.info.players)]
        state = game.new_state(players=players, seed=seed)
        agent = Rng(seed + 99)
        steps = 0
        while not state.is_terminal():
            seat = state.to_act()
            assert seat is not None and 0 <= seat < players
            legal = state.legal_actions()
            assert legal, "a state that is not over has a legal action"
            # no two legal actions share a text as a move is found by it (State.parse_action: case
            # and spacing ignored), or a log would not replay: an action whose text leaves out a
            # choice must have it follow from those it names (China (Schacht)'s two-player
            # `emperor palace {space} with {cards}`: the province chosen is the space's, as no two
            # provinces share a space; 100 positions list it in these games)
            texts = [" ".join(str(a).lower().split()) for a in legal]
            assert len(set(texts)) == len(texts), f"two legal actions share a text: {sorted(texts)}"
            for p in range(players):
                json.dumps(state.observation(p))
            snapshot = state.to_json()
            restored = game.state_from_json(json.loads(json.dumps(snapshot)))
            assert restored.to_json() == snapshot
            twin = state.clone()
            action = legal[agent.below(len(legal))]
            assert state.parse_action(str(action)) == action
            state.apply(action)
            assert twin.to_json() == snapshot, "a clone does not move with its original"
            twin.apply(str(action))
            assert twin.to_json() == state.to_json(), "applying the text form is the same move"
            # the rule set's invariants (`invariants:`) hold after every move
            assert state.broken_invariants() == [], f"after `{action}` (seed {seed})"
            steps += 1
            assert steps < 100_000
        # a winner, or a draw the declared returns say (every seat's the same: docs/language.md, "Returns")
        assert state.winners() or (state.RETURNS and len(set(state.returns())) == 1)
        assert state.legal_actions() == []
        with pytest.raises(IllegalAction, match="game is over"):
            state.apply("pass")
