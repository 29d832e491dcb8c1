"""Yellow & Yangtze's rule file, rewritten with records and optional values (issue 34), plays the
same games as the rule file before the rewrite, kept as it was in tests/games/yellow-yangtze-before/.

The fields changed (the war's sides are records now), so positions are not compared as JSON
(tests/helpers/lockstep.py does that for two compilations of one rule file): each seeded random game is
played in both, and after every move they must agree on the seat to act, the legal actions'
texts in order and the move played; at the end on the scores and the winners.

Since the rewrite, readings changed on purpose, and the comparison allows exactly those:
- a leader moved may no longer go back onto the cell it left (`to <that cell>`, a move doing
  nothing, is legal before only);
- the governor leader's point of strength is its owner's choice by default: the rewritten rule
  file plays under option governor_point always, the reading before;
- a war's side is named by the cell of its first leader in conflict, no longer by its state's
  first cell: the texts of `support` and `winning_side` are translated."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.runtime.state import Game, State

BEFORE = Path(__file__).parent / "games" / "yellow-yangtze-before"
MAX_MOVES = 3000

# The options of the games, in turn: the defaults, then every non-default choice of the options
# that reach the war, the revolt and the turn (what the rewrite touched).
OPTION_SETS: list[dict[str, str]] = [
    {},
    {"governor_bonus": "wars_too", "soldier_leader_discard": "not_counted"},
    {"unifying_tile": "every_side", "actions_per_turn": "exactly_two"},
    {"war_triangles": "excluded", "chain_after_declined_pagoda": "stops", "leader_joining": "revolt"},
]
# The options of the rule file after the rewrite only, giving the readings of before.
AFTER_ONLY: dict[str, str] = {"governor_point": "always"}


def legal_before_only(after: State) -> set[str]:
    """The legal actions before the rewrite that the rule file no longer allows, in the position
    `after` of the rewritten rule file."""
    seen = after.observation(0)
    lifted = seen["fields"]["lifted"]
    return {f"to {lifted['cell']}"} if seen["phase"] == "relocate" and isinstance(lifted, dict) else set()


def texts_before(after: State) -> dict[str, str]:
    """The texts before the rewrite of the legal actions of the position `after` whose text
    changed (the others are the same): a war's side, named by the cell of its first leader in
    conflict now, was named by the first cell of its state in board order."""
    seen = after.observation(0)
    if seen.get("question") not in ("support", "winning_side") or seen["fields"]["reunification"] is None:
        return {}
    index = after.board.index
    first = {f["at"]: min(f["cells"], key=lambda c: index[c]) for f in seen["fields"]["conflict"]}
    return {f"{seen['question']} {at}": f"{seen['question']} {cell}" for at, cell in first.items()}


def play_compared(before: Game, after: Game, players: int, seed: int, options: dict[str, str]) -> tuple[int, int]:
    """One seeded random game in both rule files; fails at the first move where they differ.
    Returns its length in moves and how many legal actions of before were told apart as such."""
    a, b = before.new_state(players, seed, options), after.new_state(players, seed, options | AFTER_ONLY)
    chooser = random.Random(seed)
    apart = 0
    where = f"seed {seed}, {players} players, options {options}"
    while not a.terminal:
        assert not b.terminal, f"{where}, move {a.moves}: the rewrite's game is over, not the other"
        assert a.to_act() == b.to_act(), f"{where}, move {a.moves}: another seat to act"
        texts = [str(x) for x in b.legal_actions()]
        old = [str(x) for x in a.legal_actions()]
        gone = legal_before_only(b)
        expected = [t for t in old if t not in gone]
        apart += len(old) - len(expected)
        renamed = texts_before(b)
        assert [renamed.get(t, t) for t in texts] == expected, f"{where}, move {a.moves}: other legal actions"
        text = texts[chooser.randrange(len(texts))]
        a.apply(renamed.get(text, text))
        b.apply(text)
        if a.moves >= MAX_MOVES:
            break
    assert b.terminal == a.terminal, f"{where}: one game ended, not the other"
    assert a.scores() == b.scores() and a.winners() == b.winners(), f"{where}: other scores or winners"
    return a.moves, apart


def compared(ruleset: str, before_file: str, games: int, players: tuple[int, ...]) -> dict[str, Any]:
    before = rulewright.load(BEFORE / before_file)
    after = rulewright.load(ruleset)
    moves = ended = apart = 0
    for seed in range(games):
        count = players[seed % len(players)]
        length, told = play_compared(before, after, count, seed, OPTION_SETS[seed % len(OPTION_SETS)])
        moves, apart, ended = moves + length, apart + told, ended + 1
    return {"games": ended, "moves": moves, "apart": apart}


def test_a_few_games_play_the_same_before_and_after_the_rewrite() -> None:
    """Three games, at 2, 3 and 4 players (most of the time goes to compiling the old file)."""
    result = compared("yellow-yangtze", "base.yaml", 3, (2, 3, 4))
    assert result["games"] == 3 and result["moves"] > 3 * 100


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "before_file", "players"),
                         [("yellow-yangtze", "base.yaml", (2, 3, 4)), ("yellow-yangtze/short", "short.yaml", (2,))])
def test_twenty_games_per_rule_set_play_the_same(ruleset: str, before_file: str, players: tuple[int, ...]) -> None:
    """Each of the 12 pairs of option set and player count of the base game at least once, each
    option set five times in the short game: fifty games each when the rewrite landed (issue 34),
    twenty since (they were the suite's slowest tests)."""
    result = compared(ruleset, before_file, 20, players)
    assert result["games"] == 20 and result["moves"] > 20 * 100
    assert result["apart"] > 0, "the games reach the moves that differ on purpose"
