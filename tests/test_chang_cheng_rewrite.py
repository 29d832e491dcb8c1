"""Chang Cheng's rule files rewritten (issue 34: the wall's colours as `optional(player)`, the
peril token as one `optional(peril_token)` with what everyone sees of it, the reputation
token's field no longer named like the score term) play the same games as before.

tests/games/chang-cheng-before/ keeps the rule files as they were before the rewrite (their
`extends:` point at each other instead of at the bundled files). The fields changed, so
`to_json` cannot be compared: each move compares what a player meets instead (the seat to
act, the legal actions' texts in order, the move's text) and each end the scores and winners.
Each game draws its options at random among the rule set's choices (the same for both)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulewright
from rulewright.runtime.state import Game

BEFORE = Path(__file__).parent / "games" / "chang-cheng-before"
RULESETS = ["chang-cheng", "chang-cheng/two-player", "chang-cheng/diplomacy", "chang-cheng/domination",
            "chang-cheng/imperial-recognition", "chang-cheng/watchers", "chang-cheng/drawn-events"]
MAX_MOVES = 3000


def before(ruleset: str) -> Game:
    name = ruleset.split("/")[1] if "/" in ruleset else "base"
    return rulewright.load_rules(BEFORE / f"{name}.yaml")


def options_for(old: Game, new: Game, seed: int) -> dict[str, str]:
    """Default options for even seeds; for odd ones, each option both rule sets declare drawn
    among its choices."""
    if seed % 2 == 0:
        return {}
    pick = random.Random(seed)
    known = {o.name for o in new.info.options}
    return {o.name: pick.choice(o.choices) for o in old.info.options if o.name in known}


def same_game(old: Game, new: Game, players: int, seed: int, extra: dict[str, str] | None = None) -> int:
    """One random game in both rule sets (the new one with the options `extra` too); fails at
    the first difference a player would see. Returns its number of moves."""
    options = options_for(old, new, seed)
    a = old.new_state(players, seed, options=options)
    b = new.new_state(players, seed, options={**options, **(extra or {})})
    chooser = random.Random(seed)
    while not a.terminal and a.moves < MAX_MOVES:
        assert not b.terminal, f"seed {seed}, move {a.moves}: only the old game is over"
        assert a.to_act() == b.to_act(), f"seed {seed}, move {a.moves}: another seat to act"
        la, lb = a.legal_actions(), b.legal_actions()
        assert [str(x) for x in la] == [str(x) for x in lb], f"seed {seed}, move {a.moves}: other legal actions"
        k = chooser.randrange(len(la))
        actor = a.to_act()
        for seat in [None, *range(a.num_players)]:  # the move as each seat reads it (a card laid face down)
            assert a.move_text(la[k], seat, actor) == b.move_text(lb[k], seat, actor)
        a.apply(la[k])
        b.apply(lb[k])
    assert a.terminal == b.terminal, f"seed {seed}: only one game is over"
    assert a.scores() == b.scores() and a.winners() == b.winners(), f"seed {seed}: other scores"
    return a.moves


def lockstep(ruleset: str, seeds: range) -> int:
    """The games of `seeds`, at each player count the rule set now takes in turn."""
    old, new = before(ruleset), rulewright.load(ruleset)
    counts = new.info.players
    return sum(same_game(old, new, counts[seed % len(counts)], seed) for seed in seeds)


NO_NEUTRAL = {"neutral_supply": "no_sections"}


def test_two_players_without_neutral_sections_play_as_the_base_rules_did_at_two() -> None:
    """The base game is for three or four now; its two-player game before (no neutral walls,
    ending when both have passed) is chang-cheng/two-player with neutral_supply: no_sections."""
    old, new = before("chang-cheng"), rulewright.load("chang-cheng/two-player")
    assert sum(same_game(old, new, 2, seed, NO_NEUTRAL) for seed in range(3)) > 3 * 40


@pytest.mark.slow
def test_two_players_without_neutral_sections_play_as_the_base_rules_did_fifty_games() -> None:
    old, new = before("chang-cheng"), rulewright.load("chang-cheng/two-player")
    assert sum(same_game(old, new, 2, seed, NO_NEUTRAL) for seed in range(3, 53)) > 50 * 40


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_rewrite_plays_the_same_games_quick(ruleset: str) -> None:
    assert lockstep(ruleset, range(3)) > 3 * 40


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_rewrite_plays_the_same_fifty_games(ruleset: str) -> None:
    assert lockstep(ruleset, range(3, 53)) > 50 * 40
