"""What the searches weigh a position by: the seat's lead over the best other score (or over
the best other value of a designer's estimate, `standings`), and the reward of each seat, 0 to 1,
at the end of a play-out (`rewards`). Shared by greedy (api/agents/simple.py), MCTS
(api/agents/mcts.py) and IS-MCTS (api/agents/ismcts.py) for a play-out cut short."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..runtime.errors import IllegalAction
from ..runtime.state import State


def no_move(state: State) -> IllegalAction:
    """The error of a search asked to choose in a finished game."""
    return IllegalAction("no legal action: the game is over")


def seat_lead(scores: Sequence[int], seat: int, lowest_wins: bool) -> tuple[int, int]:
    """The seat's lead over the best score of the others, and that score (the lowest where the
    lowest wins, the lead then turned round): the lead is above zero when the seat is ahead."""
    others = [s for p, s in enumerate(scores) if p != seat]
    if not others:
        return 0, scores[seat]
    if lowest_wins:
        best = min(others)
        return best - scores[seat], best
    best = max(others)
    return scores[seat] - best, best


def standings(state: State, estimate: str | None) -> list[int]:
    """What a search weighs a position by: the scores, or with `estimate` (the name of a
    definition of the rule set over one player, checked by `registry.check_estimate`) its value for
    each seat. For a rule set whose score says nothing before the end (Yellow & Yangtze's points
    are secret until then) a designer's estimate is what a short play-out can be weighed by."""
    if not estimate:
        return state.scores()
    value = getattr(state, estimate)
    return [int(value(p)) for p in range(state.num_players)]


def returns_rewards(state: State) -> list[float]:
    """Each player's reward, 0 to 1, for a finished game of a rule set declaring `returns:`: its
    return placed in the declared `range:` (chips count, not only who won), else between the
    least and the most return of the game (the best 1, the worst 0); 1/players each where the
    range is one number or every return is the same (a draw, as the winners' share of one)."""
    values = state.declared_returns()
    low, high = state.RETURNS_RANGE if state.RETURNS_RANGE is not None else (min(values), max(values))
    if high == low:
        return [1.0 / len(values)] * len(values)
    return [(r - low) / (high - low) for r in values]


def rewards(state: State, estimate: str | None = None) -> list[float]:
    """Each player's reward, 0 to 1, for a position a simulation ended at. A finished game:
    the winners share 1. A game cut short: by the seat's lead over the best other score, relative
    to the size of the two, 1/2 + tanh(lead / (|own| + |best other| + 1)) / 2: a half for level
    scores, towards 1 for a large lead, towards 0 for a large deficit (at two players the two
    rewards add up to 1). The lead counts, not only who leads: a move that gains points shows
    even where a short play-out does not change the order. With `estimate`, the lead is in that
    definition's value rather than in score (`standings`)."""
    n = state.num_players
    if state.terminal and state.RETURNS:
        return returns_rewards(state)
    if state.terminal:
        winners = state.winners()
        share = 1.0 / len(winners) if winners else 0.0
        out = [0.0] * n
        for p in winners:
            out[p] = share
        return out
    if n == 1:
        return [0.5]
    scores = standings(state, estimate)
    lowest = state.game.lowest_score_wins
    out = []
    for p in range(n):
        lead, best = seat_lead(scores, p, lowest)
        out.append(0.5 + 0.5 * math.tanh(lead / (abs(scores[p]) + abs(best) + 1)))
    return out
