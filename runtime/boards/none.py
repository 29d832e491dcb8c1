"""No board at all: a rule set that leaves `boards:` out (dice, cards, bids: issue 37) plays on this.

It has no spot and no region, so `spots` and `regions` are empty; the checker refuses the built-ins
that read a board in such a rule set (compiler/check/calls.py), so none of the queries is asked of
it. It is still a board for what every state keeps on its board whatever the rules: the actions
interned and the other tables of the optimiser (runtime/boards/tables.py), each game its own
(`Game.board_for`).
"""

from __future__ import annotations

from .base import Board


class NoBoard(Board):
    """The board of a rule set without one: no spots, no regions."""

    __slots__ = ()

    def __init__(self) -> None:
        self.name = ""
        self.labels = ()
        self.index = {}
        self.spots = ()
        self.neighbours = ()
        self._regions((), ())
