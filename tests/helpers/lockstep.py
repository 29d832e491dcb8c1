"""Games played in lockstep, the optimiser's tests' one way to show two compilations play the same
games: `play_in_lockstep` plays one seeded random game in two compiled games at once and fails at
the first difference; `moves_in_lockstep` plays a test game with every pass, without one, with
none, and with that one alone.

A helper module, not a test file: pytest collects nothing from it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import rulewright
from rulewright.compiler import passes
from rulewright.runtime.state import Game

MAX_MOVES = 3000  # a game still going after so many moves stops there (both sides: the same point)


def play_in_lockstep(a: Game, b: Game, players: int, seed: int) -> int:
    """One random game in both: the same setup, seat to act, legal actions in the same order and
    position after every move, the same end, scores and winners; fails at the first difference.
    Returns its length."""
    sa, sb = a.new_state(players, seed), b.new_state(players, seed)
    assert sa.to_json() == sb.to_json(), f"seed {seed}: the setups differ"
    chooser = random.Random(seed)
    while not sa.terminal:
        assert not sb.terminal, f"seed {seed}, move {sa.moves}: one game is over, not the other"
        assert sa.to_act() == sb.to_act(), f"seed {seed}, move {sa.moves}: another seat to act"
        la, lb = sa.legal_actions(), sb.legal_actions()
        assert [str(x) for x in la] == [str(x) for x in lb], f"seed {seed}, move {sa.moves}: other legal actions"
        k = chooser.randrange(len(la))
        sa.apply(la[k])
        sb.apply(lb[k])
        assert sa.to_json() == sb.to_json(), f"seed {seed}, move {sa.moves}: the positions differ after {la[k]}"
        if sa.moves >= MAX_MOVES:
            break
    assert sb.terminal == sa.terminal
    if sa.terminal:
        assert sa.scores() == sb.scores() and sa.winners() == sb.winners()
    return sa.moves


def moves_in_lockstep(game: Path, name: str, seeds: int, alone: frozenset[str] | None = frozenset(),
                      players: Sequence[int] = (2, 3)) -> int:
    """The moves of `seeds` random games of a test game (at each of `players` in turn), each
    played in lockstep with every pass against every pass but `name`, and against the plain code;
    and, unless `alone` is None, with `name` alone (with the passes it builds on, `alone`) against
    the plain code."""
    optimised = rulewright.load_rules(game)
    without = rulewright.load_rules(game, passes=passes.ALL - {name})
    plain = rulewright.load_rules(game, passes=frozenset())
    only = rulewright.load_rules(game, passes=alone | {name}) if alone is not None else None
    moves = 0
    for seed in range(seeds):
        count = players[seed % len(players)]
        moves += play_in_lockstep(optimised, without, count, seed)
        moves += play_in_lockstep(optimised, plain, count, seed)
        if only is not None:
            moves += play_in_lockstep(only, plain, count, seed)
    return moves
