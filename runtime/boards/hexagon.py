"""A hexagonal board: a hexagon of spots in axial coordinates, its straight lines numbered and found
from bit masks; the checks of a hexagon's regions.

Spots are numbered in reading order and labelled by row letter and position (A1, A2, ... K6); the
straight lines of n spots, the first time a rule asks for lines of n spots.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .base import Board, RegionSpec
from .bits import _NATIVE, BYTE_LOOKUP_BITS, _bit_lookup, _byte_lookup, _gather_bits

# The three axes of a hex grid in axial coordinates; the other three are their opposites.
HEX_AXES: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1))


def hex_neighbours(coords: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    """The neighbours of each cell (by index in `coords`), axis by axis, each way: the cells of a
    hexagon or of a hex map."""
    at = {c: i for i, c in enumerate(coords)}
    return tuple(
        tuple(
            at[(q + dq * sign, r + dr * sign)]
            for dq, dr in HEX_AXES
            for sign in (1, -1)
            if (q + dq * sign, r + dr * sign) in at
        )
        for (q, r) in coords
    )


def hex_coords(side: int) -> list[tuple[int, int]]:
    """Axial (q, r) of every spot of a hexagon with `side` spots per edge, in reading order."""
    radius = side - 1
    cells = [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]
    return sorted(cells, key=lambda c: (c[1], c[0]))


def hex_labels(side: int) -> dict[tuple[int, int], str]:
    """Row letter (by r) and 1-based position in the row (by q): A1 ... for every spot."""
    labels: dict[tuple[int, int], str] = {}
    radius = side - 1
    for row, r in enumerate(range(-radius, radius + 1)):
        in_row = sorted(q for (q, rr) in hex_coords(side) if rr == r)
        for pos, q in enumerate(in_row, start=1):
            labels[(q, r)] = f"{chr(ord('A') + row)}{pos}"
    return labels


def mirror_label(label: str, side: int) -> str:
    """The spot seen in the mirror (q, r) -> (r, q)."""
    by_label = {v: k for k, v in hex_labels(side).items()}
    q, r = by_label[label]
    return hex_labels(side)[(r, q)]


@dataclass(frozen=True, slots=True)
class LineTable:
    """The straight lines of n spots of a hex board (HexBoard._lines): per axis, each line by the
    bit of its first spot (`by_axis`) and its number (`numbers`); and the lines in number order."""

    by_axis: tuple[dict[int, tuple[int, ...]], ...]
    numbers: tuple[dict[int, int], ...]
    ordered: tuple[tuple[int, ...], ...]



class LineBoard(Board):
    """A board whose spots lie on a lattice with straight lines along a few axes (a hexagon or a hex
    map: three; a square grid: four), held as a padded bitboard (`bit`) where a step along an axis
    is a positive shift (`_steps`) that never wraps onto another row: its straight lines numbered
    and found from bit masks. A subclass sets `bit` and `_steps`, then calls `_line_counts`."""

    __slots__ = ("longest", "bit", "_steps", "_spot_at_bit", "_runs", "_line_base", "_line_total", "_line_tables",
                 "_by_bits")

    bit: tuple[int, ...]
    _steps: tuple[int, ...]

    def _line_counts(self, spot_at_bit: dict[int, int], longest: int) -> None:
        """What the board knows of its straight lines as it is built, in time linear in its spots:
        `longest`, the most spots a line can hold; per axis, the run of spots from each spot's bit
        onwards (`_runs`); and where the numbers of the lines of each length start (`_line_base`):
        lines are numbered by length, then axis, then first spot (as straight_lines lists them),
        and the lines of n spots along an axis start at the spots whose run holds n or more."""
        self.longest: int = longest
        self._spot_at_bit: dict[int, int] = spot_at_bit
        # a bitboard too wide for _gather's tables (256 tuples for each byte, for each length of
        # line asked and each axis: 300 MB on the largest hex map, every length asked) is read a bit
        # at a time (_gather_bits), as the native build reads every one
        self._by_bits: bool = max(spot_at_bit, default=0) >= BYTE_LOOKUP_BITS
        firsts = sorted(spot_at_bit, reverse=True)
        runs: list[dict[int, int]] = []
        at_least: list[list[int]] = []  # per axis, how many runs hold n spots or more, by n
        for step in self._steps:  # (every step is positive: a run's next spot has a higher bit)
            run: dict[int, int] = {}
            counts = [0] * (longest + 2)
            for b in firsts:
                length = run[b] = run.get(b + step, 0) + 1
                counts[min(length, longest + 1)] += 1
            for n in range(longest, -1, -1):
                counts[n] += counts[n + 1]
            runs.append(run)
            at_least.append(counts)
        self._runs: tuple[dict[int, int], ...] = tuple(runs)
        base = [0, 0]  # the number of the first line of n spots, by n (none has 0 spots)
        for n in range(1, longest + 1):  # (a spot is one line, of the first axis)
            base.append(base[-1] + (at_least[0][n] if n == 1 else sum(c[n] for c in at_least)))
        self._line_base: tuple[int, ...] = tuple(base)
        self._line_total: int = base[-1]
        # by n, the lines of n spots once asked for (`_lines`)
        self._line_tables: dict[int, LineTable] = {}

    def _lines(self, n: int) -> LineTable:
        """The lines of n spots (1 <= n <= longest), made the first time they are asked for: per
        axis, each line by the bit of its first spot, and its number; and the lines in number order."""
        found = self._line_tables.get(n)
        if found is not None:
            return found
        at = self._spot_at_bit
        by_axis: list[dict[int, tuple[int, ...]]] = []
        numbers: list[dict[int, int]] = []
        ordered: list[tuple[int, ...]] = []
        number = self._line_base[n]
        for axis, step in enumerate(self._steps):
            lines: dict[int, tuple[int, ...]] = {}
            numbered: dict[int, int] = {}
            if n > 1 or axis == 0:  # (a spot is one line, of the first axis)
                run = self._runs[axis]
                for b in sorted(at):
                    if run[b] >= n:
                        line = lines[b] = tuple(at[b + k * step] for k in range(n))
                        numbered[b] = number
                        number += 1
                        ordered.append(line)
            by_axis.append(lines)
            numbers.append(numbered)
        found = self._line_tables[n] = LineTable(tuple(by_axis), tuple(numbers), tuple(ordered))
        return found

    def _spot_bits(self) -> tuple[int, ...]:
        return self.bit  # (the padded bitboard: its line searches take a mask as it is)

    def _starts(self, n: int, spots: Iterable[int]) -> list[int]:
        """Per axis, a bit mask of the first spots of the n-runs lying wholly within `spots`."""
        allowed = sum(map(self.bit.__getitem__, spots))  # distinct bits: the sum is their union
        return self._starts_mask(n, allowed)

    def _starts_mask(self, n: int, allowed: int) -> list[int]:
        """Per axis, a bit mask of the first spots of the n-runs lying wholly within the spots of
        the bit mask `allowed` (of `bit`)."""
        if n == 1:  # (a spot is a run of one along the first axis only; a list display for a hexagon's
            # three axes and a grid's four, as cheap as the hexagon's was before grids: China (Cornett))
            axes = len(self._steps)
            return [allowed, 0, 0] if axes == 3 else [allowed, 0, 0, 0] if axes == 4 else [allowed] + [0] * (axes - 1)
        out = []
        for step in self._steps:
            m = allowed
            for k in range(1, n):
                m &= allowed >> (k * step)
                if not m:
                    break
            out.append(m)
        return out

    def straight_lines(self, n: int, spots: Iterable[int]) -> list[tuple[int, ...]]:
        """Every straight run of exactly `n` spots that all belong to `spots`, by axis then
        by first spot in reading order."""
        if n < 1 or n > self.longest:
            return []
        found: list[tuple[int, ...]] = []
        by_axis = self._lines(n).by_axis
        for axis, m in enumerate(self._starts(n, spots)):
            table = by_axis[axis]
            while m:
                low = m & -m
                found.append(table[low.bit_length() - 1])
                m ^= low
        return found

    def count_lines(self, n: int, spots: Iterable[int]) -> int:
        """How many straight runs of exactly `n` spots lie wholly within `spots`."""
        if n < 1 or n > self.longest:
            return 0
        return sum(m.bit_count() for m in self._starts(n, spots))

    def straight_lines_mask(self, n: int, mask: int) -> list[tuple[int, ...]]:
        """straight_lines(n, spots) of the spots of a bit mask (of `bit`): the same lines, in the
        same order, with no bitboard to build."""
        lines: list[tuple[int, ...]] = self._lines_of_mask(n, mask, 1)
        return lines

    def _lines_of_mask(self, n: int, mask: int, kind: int) -> list[Any]:
        """The lines of n spots among those of a bit mask, in board order: the lines themselves
        (kind 1) or their numbers (kind 2)."""
        if n < 1 or n > self.longest:
            return []
        found: list[Any] = []
        starts = self._starts_mask(n, mask)
        if _NATIVE or self._by_bits:
            by_bit = self._axis_lookups(n, kind + 4)
            for axis in range(len(starts)):
                m = starts[axis]
                if m:
                    _gather_bits(found, by_bit[axis], m)
            return found
        # (made the first time: found here after that, with no call)
        lookups = self.tables.line_lookups.get(8 * n + kind) or self._axis_lookups(n, kind)
        for axis in range(len(starts)):  # (by index, not zip: a call through Python natively)
            m = starts[axis]
            if m:  # (_gather, written out: once per axis of every listing)
                lookup = lookups[axis]
                k = 0
                for byte in m.to_bytes(len(lookup), "little"):
                    if byte:
                        found += lookup[k][byte]
                    k += 1
        return found

    def _axis_lookups(self, n: int, kind: int) -> tuple[Any, ...]:
        """Per axis, the byte lookup (_gather) of the lines of n spots by their first spot's bit:
        the lines themselves (kind 1), or their numbers (kind 2); the native build's bit lookup
        (_gather_bits) of the same, kind 5 and 6."""
        found: tuple[Any, ...] | None = self.tables.line_lookups.get(8 * n + kind)
        if found is None:
            table = self._lines(n)
            by_axis = table.by_axis if kind % 4 == 1 else table.numbers
            found = self.tables.line_lookups[8 * n + kind] = tuple(
                _byte_lookup(by_first) if kind < 4 else _bit_lookup(by_first) for by_first in by_axis)
        return found

    def count_lines_mask(self, n: int, mask: int) -> int:
        """count_lines(n, spots) of the spots of a bit mask (of `bit`)."""
        if n < 1 or n > self.longest:
            return 0
        return sum(m.bit_count() for m in self._starts_mask(n, mask))

    def line_count(self) -> int:
        return self._line_total

    def line_spots(self, line: int) -> tuple[int, ...]:
        if not 0 <= line < self._line_total:
            raise IndexError(f"no straight line {line} on board {self.name}")
        n = bisect_right(self._line_base, line) - 1
        return self._lines(n).ordered[line - self._line_base[n]]

    def straight_line_numbers(self, n: int, spots: Iterable[int]) -> list[int]:
        return self.straight_line_numbers_mask(n, sum(map(self.bit.__getitem__, spots)))

    def straight_line_numbers_mask(self, n: int, mask: int) -> list[int]:
        numbers: list[int] = self._lines_of_mask(n, mask, 2)
        return numbers



class HexBoard(LineBoard):
    """A hexagon of spots with regions; built once per board and shared by every state.

    Its straight lines are not made as the board is built: a board of N spots whose longest line
    is L spots has some 3 * N * L / 2 lines of every length, holding some N * L * L / 2 spots in
    all (a hex map 170 cells wide: 540 MB, half a minute). Built, the board knows only how many
    lines of each length run along each axis (from the run of spots ahead of each spot, a walk of
    the spots per axis: `_line_counts`), so it can number them; the lines of one length are made
    the first time they are asked for (`_lines`), as rules ask for a few lengths only."""

    __slots__ = ("side", "coords")

    def __init__(self, name: str, side: int, kinds: Sequence[str], regions: Iterable[RegionSpec]) -> None:
        self.name = name
        self.side = side
        coords = hex_coords(side)
        labels = hex_labels(side)
        self.coords: tuple[tuple[int, int], ...] = tuple(coords)
        self.labels: tuple[str, ...] = tuple(labels[c] for c in coords)
        self.index: dict[str, int] = {label: i for i, label in enumerate(self.labels)}
        self.spots: tuple[int, ...] = tuple(range(len(coords)))
        self.neighbours: tuple[tuple[int, ...], ...] = hex_neighbours(coords)
        # A padded bitboard for fast line searches: spot (q, r) is bit (r+R)*W + (q+R), with one
        # empty column so that a step along an axis never wraps onto the next row.
        width = 2 * side
        radius = side - 1
        self.bit: tuple[int, ...] = tuple(1 << ((r + radius) * width + q + radius) for (q, r) in coords)
        self._steps: tuple[int, ...] = tuple(dr * width + dq for dq, dr in HEX_AXES)
        self._line_counts({((r + radius) * width + q + radius): i for i, (q, r) in enumerate(coords)},
                          2 * side - 1)
        self._regions(kinds, regions)


def validate_regions(
    side: int,
    regions: dict[str, list[tuple[str, tuple[str, ...]]]],
    spots: int | None,
    counts: dict[str, int],
    size: tuple[int, int] | None,
    contiguous: bool,
    cover_each_spot_once: bool,
    no_region_equal: Sequence[str],
) -> list[str]:
    """Check a board's regions against what is known of it; returns the problems found."""
    problems: list[str] = []
    coords = hex_coords(side)
    labels = hex_labels(side)
    by_label = {v: k for k, v in labels.items()}
    if spots is not None and len(coords) != spots:
        problems.append(f"a hexagon of side {side} has {len(coords)} spots, expected {spots}")
    for kind, expected in counts.items():
        got = len(regions.get(kind, []))
        if got != expected:
            problems.append(f"{got} regions of kind `{kind}`, expected {expected}")
    for kind, members in regions.items():
        seen: dict[str, str] = {}
        for name, spot_labels in members:
            for label in spot_labels:
                if label not in by_label:
                    problems.append(f"region {name}: no spot `{label}` on this board")
                elif label in seen:
                    problems.append(f"spot {label} is in both {seen[label]} and {name}")
                else:
                    seen[label] = name
            if size is not None and not size[0] <= len(spot_labels) <= size[1]:
                problems.append(f"region {name} has {len(spot_labels)} spots, expected {size[0]} to {size[1]}")
            if contiguous and spot_labels and all(s in by_label for s in spot_labels):
                if not hex_joined([by_label[s] for s in spot_labels]):
                    problems.append(f"region {name} is not contiguous")
        if cover_each_spot_once:
            missing = [labels[c] for c in coords if labels[c] not in seen]
            if missing:
                problems.append(f"spots in no region of kind `{kind}`: {', '.join(missing[:8])}")
    if len(no_region_equal) == 2:
        a, b = no_region_equal
        first = {frozenset(s): n for n, s in regions.get(a, [])}
        for name, spot_labels in regions.get(b, []):
            twin = first.get(frozenset(spot_labels))
            if twin is not None:
                problems.append(f"region {name} is the same set of spots as {twin}")
    return problems


def hex_joined(cells: list[tuple[int, int]]) -> bool:
    """Whether hex cells (axial) are all joined through one another."""
    todo, seen = [cells[0]], {cells[0]}
    members = set(cells)
    while todo:
        q, r = todo.pop()
        for dq, dr in HEX_AXES:
            for sign in (1, -1):
                n = (q + dq * sign, r + dr * sign)
                if n in members and n not in seen:
                    seen.add(n)
                    todo.append(n)
    return len(seen) == len(members)

