"""A ring board: a closed track of spots (Mandarin's zodiac)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .base import Board, RegionSpec


class RingBoard(Board):
    """A closed track of spots labelled 1, 2, ... clockwise (Mandarin's zodiac)."""

    __slots__ = ("size",)

    def __init__(self, name: str, size: int, kinds: Sequence[str], regions: Iterable[RegionSpec]) -> None:
        self.name = name
        self.size = size
        self.labels = tuple(str(i + 1) for i in range(size))
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.spots = tuple(range(size))
        self.neighbours = tuple(((i - 1) % size, (i + 1) % size) for i in range(size))
        self._regions(kinds, regions)

    def ahead(self, spot: int, steps: int) -> int:
        """The spot `steps` further clockwise."""
        return (spot + steps) % self.size

    def passed(self, spot: int, steps: int) -> list[int]:
        """The spots strictly between `spot` and the spot `steps` ahead."""
        return [(spot + k) % self.size for k in range(1, steps)]

