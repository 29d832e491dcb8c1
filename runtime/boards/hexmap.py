"""A hex map: a hex grid of any outline, drawn as rows of text, each cell a symbol of a legend
(Yellow & Yangtze). Its lines and regions work as on a hexagon."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..limits import MAX_MAP_PLACES, MAX_MAP_ROWS
from .base import RegionSpec
from .hexagon import HEX_AXES, HexBoard, hex_neighbours


class HexMapBoard(HexBoard):
    """A hex map of any outline, drawn as rows of text: each cell one symbol of a legend that
    gives its attributes (`~`: terrain river). Cells are at axial (q, r); the six neighbours
    of a cell are those of the map. Lines and regions work as on a hexagon."""

    __slots__ = ("symbols", "legend")

    def __init__(
        self, name: str, cells: Sequence[tuple[str, int, int]], symbols: str, kinds: Sequence[str],
        regions: Iterable[RegionSpec], attributes: Sequence[tuple[int, ...]],
        legend: Sequence[tuple[str, str]] = (),
    ) -> None:
        self.name = name
        self.side = 0
        coords = [(q, r) for _, q, r in cells]
        self.coords = tuple(coords)
        self.labels = tuple(label for label, _, _ in cells)
        self.symbols: str = symbols  # the legend symbol of each cell, for drawings
        self.legend: tuple[tuple[str, str], ...] = tuple(legend)  # each symbol and what it stands for
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.spots = tuple(range(len(coords)))
        self.neighbours = hex_neighbours(coords)
        q0 = min((q for q, _ in coords), default=0)
        r0 = min((r for _, r in coords), default=0)
        q_span = max((q for q, _ in coords), default=0) - q0 + 1
        r_span = max((r for _, r in coords), default=0) - r0 + 1
        # The padded bitboard of HexBoard: one empty column after each row, so a step never wraps.
        width = q_span + 1
        self.bit = tuple(1 << ((r - r0) * width + q - q0) for (q, r) in coords)
        self._steps = tuple(dr * width + dq for dq, dr in HEX_AXES)
        self._line_counts({((r - r0) * width + q - q0): i for i, (q, r) in enumerate(coords)}, max(q_span, r_span))
        self._regions(kinds, regions)
        self.spot_attributes = tuple(attributes)


def hexmap_cells(rows: Sequence[str]) -> tuple[list[tuple[str, int, int, str]], list[str]]:
    """The cells of a hex map drawn as rows of text, and the problems found.

    Each character other than a space is a cell; the cells of a row stand two characters
    apart, and each row is shifted one character from the next, as hexagons are drawn (the
    doubled-width layout). A cell at character `c` of row `r` is at axial (q, r) with
    q = (x - r) / 2, x its column counted from the map's leftmost (made even with r); it is
    labelled by its row letter (A first) and its place counted from the map's left edge in
    steps of two characters (`A1`; `B1` is down right of it when row A starts further left),
    so labels never depend on which cells are missing.
    Returns (label, q, r, symbol) in reading order."""
    problems: list[str] = []
    found = [(r, c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != " "]
    if len(rows) > MAX_MAP_ROWS:
        problems.append(f"a hex map has at most {MAX_MAP_ROWS} rows (A to Z), not {len(rows)}")
        return [], problems
    if not found:
        problems.append("a hex map needs at least one cell")
        return [], problems
    left = min(c for _, c, _ in found)
    wide = max((c - left) // 2 + 1 for _, c, _ in found)
    if wide > MAX_MAP_PLACES:
        problems.append(f"a hex map has at most {MAX_MAP_PLACES} places a row (A1 to A{MAX_MAP_PLACES}, two "
                        f"characters each), not {wide}")
        return [], problems
    parity = (found[0][0] + found[0][1] - left) % 2
    cells: list[tuple[str, int, int, str]] = []
    for r, c, ch in found:
        if (r + c - left) % 2 != parity:
            problems.append(f"row {r + 1}, column {c + 1} (`{ch}`): not on the hex grid; the cells of a row stand "
                            "two characters apart and each row is shifted one character from the one above")
            continue
        x = c - left + parity  # the doubled column: x + r is even
        cells.append((f"{chr(ord('A') + r)}{(c - left) // 2 + 1}", (x - r) // 2, r, ch))
    return cells, problems

