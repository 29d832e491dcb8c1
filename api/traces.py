"""One game's course in a few numbers (`GameTrace`): what `rulewright metrics` measures of each
game, worked out where the game is played (a worker, a Dask task) from its per-move record, so
that only these numbers travel back, whatever the game's length.

The record of a game of `L` moves (api/match.py's `play_game(trace=True)`): before each move t
(1 to L), the number of legal actions of the seat to decide; after each move, every player's
score (`state.scores()`). Positions 1 to L - 1 are the game "before its end": there the lead is
read from the score; the end (position L) is the outcome's (the winners), whatever the score
says. The definitions (docs/experiments.md, "Metrics"), for a game with a single winner W:

- leader of a position: the one player with the best score there (the highest, or the lowest
  where the lowest score wins); none when several share the best score.
- a lead shows before the end when some position 1..L-1 has a leader: otherwise the score says
  nothing about who is ahead until the game is over (Hex, Connect four: 0 each until the last
  move) and decisiveness, drama and lead changes are nan for that game, never a made-up value.
- decisiveness: 1 - k / L, where k is the first move from which W leads at every position to the
  end (k = L when W does not lead at L - 1): the share of the game played with its winner
  already ahead for good (Ludii's DecisivenessMoves, with the lead by score for its threshold).
- drama: over the positions 1..L-1 where W trailed (another player had a better score), the mean
  of W's deficit to the best score, divided by the score range of the game (the highest score
  less the lowest, over every player and position 1..L-1); 0 when W never trailed.
- lead changes: how many times the leader changed (positions without a leader skipped; the end
  led by W), divided by L - 1, the most there can be (Ludii's LeadChange divides by L).
- branching: the mean number of legal actions per decision.

Curves (`--plot`): each game's moves split into BINS equal parts by fraction of the game; per
part, the mean legal actions, and the share of its positions where W leads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

BINS = 10  # parts of a game for the curves (by fraction of its moves)
NAN = math.nan


@dataclass(frozen=True, slots=True)
class GameTrace:
    """What `metrics` keeps of one game (see the module's docstring); nan where not defined."""

    first: int  # the seat that moved first
    moves: int  # L
    decisions: int  # decisions recorded (L, for a finished game)
    legal_sum: int  # legal actions summed over the decisions
    lead_shown: bool  # some position before the end has a leader
    decisiveness: float
    drama: float
    lead_changes: float  # per possible change (in [0, 1])
    lead_change_count: int
    branching_curve: tuple[float, ...]  # BINS values: mean legal actions in each part of the game
    lead_curve: tuple[float, ...]  # BINS values: share of positions in each part where the winner leads

    @property
    def branching(self) -> float:
        return self.legal_sum / self.decisions if self.decisions else NAN


def leader(scores: Sequence[int], lowest_wins: bool = False) -> int | None:
    """The one player with the best score, or None when several share it."""
    if not scores:
        return None
    best = min(scores) if lowest_wins else max(scores)
    found = [p for p, s in enumerate(scores) if s == best]
    return found[0] if len(found) == 1 else None


def _bin(t: int, length: int) -> int:
    """The part of the game (0 to BINS - 1) of move t (1 to length)."""
    return min(BINS - 1, (t - 1) * BINS // length)


def summarise(legal: Sequence[int], scores: Sequence[Sequence[int]], winners: Sequence[int], first: int,
              lowest_wins: bool = False, finished: bool = True) -> GameTrace:
    """The GameTrace of one game: `legal[t - 1]` the legal actions before move t, `scores[t - 1]`
    the scores after it (t = 1..L), `winners` the game's (several on a shared win, none on a draw
    by declared returns); `finished` False for a game stopped by a cap (no outcome: no measure of
    its lead)."""
    length = len(scores)
    sole = winners[0] if len(winners) == 1 else None
    branching_sums = [0] * BINS
    branching_counts = [0] * BINS
    for t, n in enumerate(legal, start=1):
        k = _bin(t, len(legal))
        branching_sums[k] += n
        branching_counts[k] += 1
    branching_curve = tuple(s / c if c else NAN for s, c in zip(branching_sums, branching_counts, strict=True))
    before = scores[:-1]  # positions 1..L-1
    leaders = [leader(s, lowest_wins) for s in before]
    lead_shown = any(p is not None for p in leaders)
    decisiveness = drama = lead_changes = NAN
    changes = 0
    lead_curve: tuple[float, ...] = (NAN,) * BINS
    if lead_shown and finished:
        # lead changes: the leaders in order, the end led by the sole winner (by no one on a draw)
        shown = [p for p in leaders if p is not None] + ([sole] if sole is not None else [])
        changes = sum(1 for a, b in zip(shown, shown[1:], strict=False) if a != b)
        lead_changes = changes / (length - 1)
    if lead_shown and finished and sole is not None:
        k = length
        while k > 1 and leaders[k - 2] == sole:  # position k - 1 (index k - 2) led by the winner
            k -= 1
        decisiveness = 1 - k / length
        sign = -1 if lowest_wins else 1
        values = [v for s in before for v in s]
        spread = max(values) - min(values)
        deficits = []
        for s in before:
            best = max(sign * v for v in s)
            gap = best - sign * s[sole]
            if gap > 0:
                deficits.append(gap / spread)
        drama = sum(deficits) / len(deficits) if deficits else 0.0
        led_sums = [0] * BINS
        led_counts = [0] * BINS
        for t, p in enumerate(leaders, start=1):
            led_sums[_bin(t, length)] += p == sole
            led_counts[_bin(t, length)] += 1
        lead_curve = tuple(s / c if c else NAN for s, c in zip(led_sums, led_counts, strict=True))
    return GameTrace(first, length, len(legal), sum(legal), lead_shown, decisiveness, drama, lead_changes, changes,
                     branching_curve, lead_curve)
