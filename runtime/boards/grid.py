"""A square grid: rows and columns of square cells, some of them off the board (holes), with the
eight directions of a chess board, the steps and rays along them, and straight lines along four axes.

Cells are labelled as chess boards and OpenSpiel's games print them: a column letter from the left
(`a` to `z`) and a row number from the bottom (`a1` is the bottom-left cell, `h8` the top-right of
an 8 x 8 board). Spots are numbered in that order too: the bottom row first, each row from the
left (`a1`, `b1`, ... `a2` ...), the order of a chess program's squares. North is up the drawing (to
higher row numbers), east to the right.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..limits import MAX_GRID_COLUMNS, MAX_GRID_ROWS
from .base import RegionSpec
from .hexagon import LineBoard

# The eight directions, in OpenSpiel's order for chess-like games (clockwise from north), with the
# step each is in rows and columns. The rule language's enumeration `direction` has these values, in
# this order (compiler/check/declare.py): direction d is GRID_DIRECTIONS[d].
GRID_DIRECTIONS: Final = ("north", "north_east", "east", "south_east", "south", "south_west", "west", "north_west")
GRID_STEPS: Final = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
# The directions of a cell's neighbours by the grid's `connect:` (numbers of GRID_DIRECTIONS): the
# cells sharing a side (rook steps); a side or a corner (king steps); or the six of a hex board laid
# out as a rhombus (Hex's: a side, and the corners north-west and south-east, so that `c3` touches
# c2, d2, b3, d3, b4 and c4, as OpenSpiel's and Ludii's Hex label their cells).
GRID_CONNECT: Final = {"orthogonal": (0, 2, 4, 6), "all": (0, 1, 2, 3, 4, 5, 6, 7), "hex": (0, 2, 3, 4, 6, 7)}


def grid_label(row: int, column: int) -> str:
    """A cell's label: its column letter (`a` the leftmost) and its row number (1 the bottom)."""
    return f"{chr(ord('a') + column - 1)}{row}"


def grid_cells(rows: int, columns: int, text: Sequence[str] = ()) -> tuple[list[tuple[str, int, int, str]], list[str]]:
    """The cells of a grid, and the problems found: every cell of `rows` x `columns`, or, drawn as
    rows of text (`text`, the top row first), each character other than a space a cell (a space
    is a cell off the board), its column counted from the leftmost character of any row (so how
    far the block is indented does not matter). Returns (label, row, column, symbol) in spot order:
    the bottom row first, each from the left; a cell of a full grid has the symbol `.`."""
    problems: list[str] = []
    if text:
        found = [(r, c, ch) for r, line in enumerate(text) for c, ch in enumerate(line) if ch != " "]
        if not found:
            return [], ["a grid needs at least one cell"]
        left = min(c for _, c, _ in found)
        rows = len(text)
        columns = max(c for _, c, _ in found) - left + 1
        drawn = [(rows - r, c - left + 1, ch) for r, c, ch in found]
    else:
        drawn = [(r, c, ".") for r in range(1, rows + 1) for c in range(1, columns + 1)]
    if not 1 <= rows <= MAX_GRID_ROWS:
        problems.append(f"a grid has 1 to {MAX_GRID_ROWS} rows, not {rows}")
    if not 1 <= columns <= MAX_GRID_COLUMNS:
        problems.append(f"a grid has 1 to {MAX_GRID_COLUMNS} columns, not {columns}")
    if problems:
        return [], problems
    return [(grid_label(r, c), r, c, ch) for r, c, ch in sorted(drawn)], problems


class GridBoard(LineBoard):
    """A grid of square cells (some may be holes: off the board), built once per board and shared
    by every state. Beside what every board answers, it knows each spot's row and column, the spot
    one step away in each direction (`steps[d][s]`, None off the board or on a hole) and the ray
    from a spot in each direction (`rays[d][s]`: the spots from it, exclusive, up to the edge or a
    hole), its rows, columns and diagonals. `neighbours` are the orthogonal ones, all eight with
    `connect: all`, or a hex board's six with `connect: hex` (GRID_CONNECT); components follow
    them. Its straight lines run along four axes (east, north, north-east, north-west), as on a
    padded bitboard with one empty column after each row."""

    # (its tables `row_of`, `column_of`, `steps`, `rays`, `grid_rows`, `grid_columns`, `grid_diagonals`
    # are slots of Board, empty on every other board: generated code reads them off a `Board`)
    __slots__ = ("rows", "columns", "symbols", "legend", "connect", "at")

    def __init__(
        self, name: str, rows: int, columns: int, text: Sequence[str], connect: str, kinds: Sequence[str],
        regions: Iterable[RegionSpec], attributes: Sequence[tuple[int, ...]] = (),
        legend: Sequence[tuple[str, str]] = (),
    ) -> None:
        cells, problems = grid_cells(rows, columns, text)
        if problems:
            raise ValueError(f"board {name}: {'; '.join(problems)}")
        self.name = name
        self.rows: int = len(text) if text else rows
        self.columns: int = max((c for _, _, c, _ in cells), default=0)
        self.connect: str = connect  # which cells are neighbours: GRID_CONNECT
        self.labels = tuple(label for label, _, _, _ in cells)
        self.symbols: str = "".join(symbol for _, _, _, symbol in cells)  # each cell's symbol, for drawings
        self.legend: tuple[tuple[str, str], ...] = tuple(legend)  # each symbol and what it stands for
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.spots = tuple(range(len(cells)))
        # The padded bitboard (LineBoard): cell (row, column) is bit (row - 1) * W + column - 1 with
        # W = columns + 1, so that a step along an axis never wraps onto the next row; the axes
        # east, north, north-east and north-west are the positive shifts 1, W, W + 1, W - 1.
        width = self.columns + 1
        self.bit = tuple(1 << ((r - 1) * width + c - 1) for _, r, c, _ in cells)
        self._steps = (1, width, width + 1, width - 1)
        self._line_counts({b.bit_length() - 1: s for s, b in enumerate(self.bit)}, max(self.rows, self.columns))
        self._regions(kinds, regions)
        self.spot_attributes = tuple(attributes)
        self.row_of = tuple(r for _, r, _, _ in cells)
        self.column_of = tuple(c for _, _, c, _ in cells)
        # the spot at each (row, column), None off the board: row 0 and column 0 are never on it
        at: list[list[int | None]] = [[None] * (self.columns + 2) for _ in range(self.rows + 2)]
        for s, (_, r, c, _) in enumerate(cells):
            at[r][c] = s
        self.at: tuple[tuple[int | None, ...], ...] = tuple(tuple(row) for row in at)
        self.steps = tuple(
            tuple(at[r + dr][c + dc] for _, r, c, _ in cells)  # (row 0 and column 0 hold no spot)
            for dr, dc in GRID_STEPS)
        self.rays = tuple(
            tuple(self._ray(d, s) for s in self.spots) for d in range(len(GRID_STEPS)))
        directions = GRID_CONNECT[connect]
        self.neighbours = tuple(
            tuple(sorted(n for d in directions if (n := self.steps[d][s]) is not None)) for s in self.spots)
        # rows bottom first, each from the left; columns from the left, each from the bottom;
        # diagonals of two spots or more, the north-east ones first, each from its southern end,
        # by where it starts (bottom row, then left column); then the north-west ones likewise
        self.grid_rows = tuple(
            line for r in range(1, self.rows + 1) if (line := tuple(s for s in at[r] if s is not None)))
        self.grid_columns = tuple(
            line for c in range(1, self.columns + 1)
            if (line := tuple(x for r in range(1, self.rows + 1) if (x := at[r][c]) is not None)))
        self.grid_diagonals = tuple(
            diagonal for d in (1, 7) for diagonal in self._diagonals(d))

    def _ray(self, d: int, s: int) -> tuple[int, ...]:
        """The spots from `s` (exclusive) in direction `d`, up to the edge or a hole."""
        out: list[int] = []
        step = self.steps[d]
        n = step[s]
        while n is not None:
            out.append(n)
            n = step[n]
        return tuple(out)

    def _diagonals(self, d: int) -> list[tuple[int, ...]]:
        """The diagonal runs of two spots or more in direction `d` (north-east or north-west), each
        from its southern end, a run broken by a hole being two."""
        back = self.steps[(d + 4) % 8]
        return [line for s in self.spots if back[s] is None and len(line := (s, *self.rays[d][s])) > 1]

    def spot_at(self, row: int, column: int) -> int | None:
        """The spot at a row (1 the bottom) and a column (1 the left), None off the board."""
        if 1 <= row <= self.rows and 1 <= column <= self.columns:
            return self.at[row][column]
        return None
