"""The actions of a listing's last choice, a spot, gathered from a bit mask (pass `spot_rows`,
docs/optimiser.md).

A listing through tables per board (pass `action_tables`) keeps, per value of its earlier choices,
a row of interned actions by spot. Where the spots of the last choice are made from bit masks (pass
`spot_filters`), the row is a `SpotRow`: besides the actions by spot, the tuple of the actions of
each value of each byte of a mask, so that the actions of a mask's spots are appended a byte at a
time (in spot order, the order the plain listing appends them), and the masks of the tests that
read only the earlier choices, kept once computed (`fixed`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .board import Board
from .state import Action


class SpotRow:
    """The interned actions `name` whose earlier choices are `args`, one per spot of `board`."""

    __slots__ = ("name", "args", "render", "at", "spots", "by_byte", "size", "fixed")

    def __init__(self, name: str, args: tuple[Any, ...], render: Callable[[Action], str], board: Board,
                 fixed: int) -> None:
        self.name = name
        self.args = args
        self.render = render
        self.at: list[Action | None] = [None] * len(board.spots)
        self.spots = board.byte_spots()
        # per byte of a mask and each of its values, the actions of its spots in spot order (None: not
        # made yet)
        self.by_byte: list[list[tuple[Action, ...] | None]] = [[None] * 256 for _ in self.spots]
        self.size = len(self.spots)
        # the masks of the tests that read only the earlier choices (None: not computed yet)
        self.fixed: list[int | None] = [None] * fixed

    def gather(self, actions: list[Action], mask: int) -> None:
        """Append to `actions` the action of each spot of `mask`, in spot order."""
        by_byte = self.by_byte
        k = 0
        for b in mask.to_bytes(self.size, "little"):
            if b:
                items = by_byte[k][b]
                if items is None:
                    items = by_byte[k][b] = tuple(map(self.action, self.spots[k][b]))
                actions += items
            k += 1

    def action(self, spot: int) -> Action:
        """The action of `spot`, made the first time (interned: the same object ever after)."""
        found = self.at[spot]
        if found is None:
            found = self.at[spot] = Action(self.name, (*self.args, spot), self.render)
        return found


def union(masks: Iterable[int]) -> int:
    """The masks joined (board.spots_of's join of one test's groups)."""
    joined = 0
    for m in masks:
        joined |= m
    return joined
