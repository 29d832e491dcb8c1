"""A second game of simultaneous decisions, written into a test's folder by the tests that play it
(tests/test_simultaneous.py, tests/test_simultaneous_interop.py): a card game after OpenSpiel's
goofspiel, at 2 or 3 seats, each bidding a card of its own hand at once for a prize thrown by a
die at the round's start; the seats listed are those with cards left (an expression, not `players`)."""

from __future__ import annotations

from pathlib import Path

PRIZE_BIDS = """\
rulewright: 1
game: prize-bids
title: Prize bids
players: [2, 3]
boards:
  table: {ring: 2, regions: {}}
state:
  hand: {per: player, type: set(int), init: "set(n for n in range(1, 5))"}
  played: {per: player, type: int, init: 0}
  prize: {type: int, init: 0}
  points: {per: player, type: int, init: 0}
  rounds: {type: int, init: 0}
phases:
  bid:
    start:
      - prize = die(4)
    simultaneous: "[p for p in players if hand[p]]"
    actions: [play]
actions:
  play:
    choose: {c: "sorted([c for c in hand[deciding]])"}
    text: "play {c}"
    effect:
      - hand[deciding] -= {c}
      - played[deciding] = c
triggers:
  award:
    at: turn_end
    effect:
      - rounds += 1
      - let best = max(played[p] for p in players)
      - if count(played[p] == best for p in players) == 1:
        - for p in players:
          - if played[p] == best:
            - points[p] += prize
end: "rounds == 4"
scoring:
  points: "points[player]"
"""


def prize_bids(folder: Path) -> Path:
    """The rule file, written in `folder`."""
    path = folder / "prize-bids.yaml"
    path.write_text(PRIZE_BIDS, encoding="utf-8")
    return path
