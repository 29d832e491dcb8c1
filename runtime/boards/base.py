"""The board every kind of board is: spots with labels and neighbours, regions of several kinds over
them, and the queries every kind answers (groups of spots, regions touching spots, sets of spots as
bit masks); the queries of other kinds (rings, roads, lines, walls) fail here with a clear message.

Everything a game asks of the board at run time (the regions a spot lies in, its neighbours) is
computed once, when the board is built, in time and memory linear in its spots and regions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..errors import RulewrightError
from ..kept import ENTRY, OBJECT, made
from .bits import _NATIVE, _bit_lookup, _byte_lookup, _gather, _gather_bits
from .tables import BoardTables

# At most so many joins of groups remembered by the tuple of values joined (Board.keys_mask)
MAX_JOINS: Final = 10_000


# The groups component_of found last: the spots it was given, each spot's group, the set of them.
Grouped = tuple[object, dict[int, frozenset[int]], frozenset[int]]
# At most so many spots added or taken away since the last groups found, and they are mended.
MENDED: Final = 4
_NO_SPOTS: Final[frozenset[int]] = frozenset()


@dataclass(frozen=True, slots=True)
class RegionSpec:
    kind: str
    name: str
    spots: tuple[str, ...]
    # its owner (`owner:`): -1 none, k >= 0 the player of seat k (none in a game of k players or
    # fewer), -2 - j the neutral seat j (`Board.owner_of`)
    owner: int = -1


class Board:
    """What every board has: spots with labels, and regions of several kinds over them."""

    __slots__ = (
        "name", "labels", "index", "spots", "neighbours", "region_names", "region_spots", "region_kind",
        "kinds", "region_of", "region_attributes", "border_regions", "regions_of_kind", "regions_at",
        "spot_attributes", "face_spots", "face_piece", "_groups", "_asked", "spot_bit", "all_mask", "region_mask",
        "spot_regions", "kind_masks", "region_bit", "spot_regions_mask", "road_masks", "road_cuts", "tables",
        "region_owner",
        "row_of", "column_of", "steps", "rays", "grid_rows", "grid_columns", "grid_diagonals",
    )

    name: str
    labels: tuple[str, ...]
    index: dict[str, int]
    spots: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]

    def _regions(self, kinds: Sequence[str], regions: Iterable[RegionSpec]) -> None:
        # Each spot's bit in a set of spots held as a bit mask (the `mask_spot_sets` pass): 1 << spot,
        # but a hex board's own padded bitboard (HexBoard.bit), so its line searches take the mask
        # as it is. Bits grow with the spot number on every board: a mask's spots, lowest bit
        # first, are in spot order. The mask of every spot, and of each region's spots.
        self.spot_bit: tuple[int, ...] = self._spot_bits()
        self.all_mask: int = sum(self.spot_bit)
        # what the optimised code keeps on the board, shared by every state on it: interned actions,
        # values remembered by value, spots grouped by a key, the lookups of a mask's bits
        # (runtime/boards/tables.py), bounded as runtime/kept.py says
        self.tables: BoardTables = BoardTables(self.spot_bit)
        # the groups of the spots last given to component_of, and the spots themselves
        self._groups: Grouped | None = None
        # the spots component_of was last asked of once only, whose groups it did not find
        self._asked: object = None
        self.kinds: tuple[str, ...] = tuple(kinds)
        names: list[str] = []
        region_spots: list[tuple[int, ...]] = []
        region_kind: list[int] = []
        owners: list[int] = []
        regions_at: list[list[list[int]]] = [[[] for _ in self.spots] for _ in self.kinds]
        for spec in regions:
            k = self.kinds.index(spec.kind)
            idx = len(names)
            names.append(spec.name)
            members = tuple(sorted(self.index[s] for s in spec.spots))
            region_spots.append(members)
            region_kind.append(k)
            owners.append(spec.owner)
            for s in members:
                regions_at[k][s].append(idx)
        self.region_names: tuple[str, ...] = tuple(names)
        # the owner of each region, as RegionSpec.owner numbers it (owner_of, owned)
        self.region_owner: tuple[int, ...] = tuple(owners)
        self.region_spots: tuple[tuple[int, ...], ...] = tuple(region_spots)
        self.region_mask: tuple[int, ...] = tuple(sum(self.spot_bit[s] for s in members) for members in region_spots)
        self.region_kind: tuple[int, ...] = tuple(region_kind)
        # every region of a kind holding a spot (two for a border post in two provinces)
        self.regions_at: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(rs) for rs in by_spot) for by_spot in regions_at)
        # the region of a kind a spot lies in (-1: none; the last listed, for a spot in two)
        # every region of every kind holding a spot, in increasing order (pass `drop_by_region`)
        self.spot_regions: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(r for by_spot in regions_at for r in by_spot[s])) for s in self.spots)
        self.region_of: tuple[tuple[int, ...], ...] = tuple(
            tuple(rs[-1] if rs else -1 for rs in by_spot) for by_spot in self.regions_at)
        self.regions_of_kind: tuple[tuple[int, ...], ...] = tuple(
            tuple(i for i, k in enumerate(region_kind) if k == kind) for kind in range(len(self.kinds)))
        # regions as bit masks (pass `mask_regions`): region r's bit is 1 << r (`region_bit`, where
        # -1 names the last region, as an index of a field per region does); the mask of the regions
        # of each kind, and of the regions holding each spot (every kind's)
        self.region_bit: tuple[int, ...] = tuple(1 << r for r in range(len(names)))
        self.kind_masks: tuple[int, ...] = tuple(sum(1 << r for r in rs) for rs in self.regions_of_kind)
        self.spot_regions_mask: tuple[int, ...] = tuple(sum(1 << r for r in rs) for rs in self.spot_regions)
        self.region_attributes: tuple[tuple[int, ...], ...] = ()
        self.border_regions: tuple[tuple[int, int], ...] = ()
        # per spot attribute (a hex map's `terrain`), its value for each spot
        self.spot_attributes: tuple[tuple[int, ...], ...] = ()
        # a wall's faces: the spots of each, left to right, and the piece it is a side of
        self.face_spots: tuple[tuple[int, ...], ...] = ()
        self.face_piece: tuple[int, ...] = ()
        # a grid's tables (runtime/boards/grid.py GridBoard, which sets them after this): each spot's row
        # and column, per direction each spot's step and ray, the rows, columns and diagonals; empty on
        # every other board, where the checker refuses the built-ins that read them
        self.row_of: tuple[int, ...] = ()
        self.column_of: tuple[int, ...] = ()
        self.steps: tuple[tuple[int | None, ...], ...] = ()
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = ()
        self.grid_rows: tuple[tuple[int, ...], ...] = ()
        self.grid_columns: tuple[tuple[int, ...], ...] = ()
        self.grid_diagonals: tuple[tuple[int, ...], ...] = ()


    def owner_of(self, region: int, players: int) -> int | None:
        """The seat owning a region (`owner:`) in a game of `players` players: none if it has no
        owner, or if its owner's seat is not played."""
        owner = self.region_owner[region]
        if owner >= 0:
            return owner if owner < players else None
        return players - 2 - owner if owner < -1 else None

    def owned(self, seat: int, kind: int, players: int) -> tuple[int, ...]:
        """The regions of a kind that a seat owns, in board order."""
        return tuple(r for r in self.regions_of_kind[kind] if self.owner_of(r, players) == seat)

    def components(self, spots: Iterable[int]) -> tuple[frozenset[int], ...]:
        """The connected groups among `spots`, joined by the board's neighbour relation (hex
        neighbours, roads, ring neighbours, or what a board of another kind gives as
        `neighbours`), the group of the lowest spot first. A flood fill, iterative."""
        inside = bytearray(len(self.neighbours))
        for s in spots:
            inside[s] = 1
        return tuple(self._flood(inside, start) for start in range(len(inside)) if inside[start])

    def component_of(self, spot: int, spots: Iterable[int]) -> frozenset[int]:
        """The spots of `spots` connected to `spot` within them (nothing if `spot` is not among
        them): the group components() would give that holds it. Asked again and again of the
        same `spots` (a cached definition's value: the rules never change a list or set in place),
        the groups are found once and looked up after that; asked of other spots that differ
        from the last ones by a few (a tile placed, a leader lifted: Yellow & Yangtze's groups),
        the last groups are mended rather than all found again (`_regrouped`). Asked of spots for
        the first time, where the last groups do not mend, the group asked is found alone
        (`_group_of`): all of them are found at a second ask only."""
        found = self._groups
        if found is None or found[0] is not spots:
            again = self._asked is spots
            self._asked = spots
            regrouped = self._regrouped(spots, found, again)
            if regrouped is None:  # (a first ask the last groups do not mend: its group alone)
                return self._group_of(spot, spots)
            found = self._groups = regrouped
        return found[1].get(spot, _NO_SPOTS)

    def _group_of(self, spot: int, spots: Iterable[int]) -> frozenset[int]:
        """The group of `spots` holding `spot` (nothing if it is not among them), found alone: a
        flood fill from it, not every group of `spots` found (Hex asks the group of the stone just
        placed among the mover's, a new list at every move: the groups of all of them were found,
        and then all but one dropped)."""
        inside = bytearray(len(self.neighbours))
        for s in spots:
            inside[s] = 1
        if not inside[spot]:
            return _NO_SPOTS
        return self._flood(inside, spot)

    def _regrouped(self, spots: Iterable[int], last: Grouped | None, whole: bool = True) -> Grouped | None:
        """The groups of `spots` (each spot's own), with the set of them: the last groups mended
        where at most MENDED spots were added or taken away since, else found afresh. Either way
        they are the groups components() finds: a spot taken away splits its group into the
        parts of the rest joined within it (a flood fill of that group only), a spot added joins
        its own group with those of its neighbours among the spots. The last dict is never
        changed (another thread may be reading it): a changed copy is made. None where they do not
        mend and `whole` is false (a first ask: component_of finds the one group asked)."""
        members = frozenset(spots)
        if last is not None:
            added, gone = members - last[2], last[2] - members
            if not added and not gone:
                return spots, last[1], members
            if len(added) + len(gone) <= MENDED:
                groups = dict(last[1])
                near = self.neighbours
                for s in sorted(gone):
                    rest = groups.pop(s) - {s}
                    inside = bytearray(len(near))
                    for r in rest:
                        inside[r] = 1
                    for r in rest:
                        if inside[r]:
                            part = self._flood(inside, r)
                            groups.update(dict.fromkeys(part, part))
                for s in sorted(added):
                    joined = frozenset((s,)).union(*[groups[n] for n in near[s] if n in groups])
                    groups.update(dict.fromkeys(joined, joined))
                return spots, groups, members
        if not whole:
            return None
        inside = bytearray(len(self.neighbours))
        for s in members:
            inside[s] = 1
        groups = {}
        for start in range(len(inside)):
            if inside[start]:
                part = self._flood(inside, start)
                groups.update(dict.fromkeys(part, part))
        return spots, groups, members

    def _flood(self, inside: bytearray, start: int) -> frozenset[int]:
        """The spots marked in `inside` joined to `start` through marked spots (unmarked as
        they are found, so a group is found once): an iterative flood fill."""
        near = self.neighbours
        inside[start] = 0
        part, todo = [start], [start]
        while todo:
            for nxt in near[todo.pop()]:
                if inside[nxt]:
                    inside[nxt] = 0
                    part.append(nxt)
                    todo.append(nxt)
        return frozenset(part)

    def regions_touching(self, spots: Iterable[int], kind: int) -> list[int]:
        """The regions of one kind that contain any of `spots`, in board order."""
        # every region holding each spot, both for a border post in two regions of the kind
        # (region_of keeps only the last); a spot in none adds nothing
        at = self.regions_at[kind]
        if isinstance(spots, (tuple, list)) and len(spots) == 1:  # (one spot: its regions, in order)
            return list(at[spots[0]])
        # (a plain loop: a C loop natively, where itertools.chain(map(...)) is calls through Python,
        # and a third quicker interpreted too, for 2 spots or 45)
        found: set[int] = set()
        for s in spots:
            for r in at[s]:
                found.add(r)
        return sorted(found)

    def straight_lines(self, n: int, spots: Iterable[int]) -> list[tuple[int, ...]]:
        return []

    def ahead(self, spot: int, steps: int) -> int:
        raise RulewrightError(f"board {self.name} is not a ring: nothing is ahead of a spot")

    def passed(self, spot: int, steps: int) -> list[int]:
        raise RulewrightError(f"board {self.name} is not a ring: no spot is passed")

    def count_lines(self, n: int, spots: Iterable[int]) -> int:
        return 0

    # -- sets of spots as bit masks (the `mask_spot_sets` pass), and lines by number (`index_actions`) --
    def _spot_bits(self) -> tuple[int, ...]:
        return tuple(1 << s for s in self.spots)

    def spots_mask(self, spots: Iterable[int]) -> int:
        """The bit mask (spot_bit) of a set of spots."""
        bit = self.spot_bit
        mask = 0
        for s in spots:
            mask |= bit[s]
        return mask

    def value_mask(self, values: Sequence[Any], value: Any) -> int:
        """The bit mask of the spots whose entry of `values` (a field per spot) is `value`."""
        bit = self.spot_bit
        mask = 0
        for s, v in enumerate(values):
            if v == value:
                mask |= bit[s]
        return mask

    def empty_mask(self, values: Sequence[Any]) -> int:
        """The bit mask of the spots whose entry of `values` (a field per spot of lists) is empty."""
        bit = self.spot_bit
        mask = 0
        for s, v in enumerate(values):
            if not v:
                mask |= bit[s]
        return mask

    def item_masks(self, values: Sequence[Iterable[int]], count: int) -> list[int]:
        """For each value v below `count`, the bit mask of the spots whose entry of `values` (a field
        per spot of lists or sets of players, of an enumeration's values) holds v (pass `mask_values`)."""
        bit = self.spot_bit
        masks = [0] * count
        for s, items in enumerate(values):
            for v in items:
                masks[v] |= bit[s]
        return masks

    def value_masks(self, values: Sequence[int], count: int) -> list[int]:
        """For each value v below `count`, the bit mask of the spots whose entry of `values` (a field
        per spot of players, of an enumeration's values) is v (pass `mask_values`)."""
        bit = self.spot_bit
        masks = [0] * count
        for s, v in enumerate(values):
            masks[v] |= bit[s]
        return masks

    def keys_mask(self, groups: dict[Any, int], values: Iterable[Any]) -> int:
        """The mask of the spots whose key (`groups`: BoardTables.group_spots) is one of `values`. For
        a tuple of values (a list field; the board's regions of a kind, joined at every listing of
        China (Schacht)'s placements) it is remembered by the values (`tables.group_joins`, emptied
        when full)."""
        if type(values) is tuple:
            key = (id(groups), values)
            found = self.tables.group_joins.get(key)
            if found is not None:
                return found
        mask = 0
        for v in values:
            mask |= groups.get(v, 0)
        if type(values) is tuple:
            made(self, ENTRY + OBJECT + len(values))
            joins = self.tables.group_joins
            if len(joins) >= MAX_JOINS:
                joins.clear()
            joins[(id(groups), values)] = mask
        return mask

    def spots_of(self, mask: int, *more: Iterable[int]) -> list[int]:
        """The spots of `mask` and of each of `more` (each the masks of a test's groups, joined), in
        spot order (mask_spots). Each of `more` is taken only while some spot is left, in order: a
        test is computed (as its generator runs) only if a spot reaches it (pass `mask_spot_filters`)."""
        for masks in more:
            if not mask:
                break
            union = 0
            for m in masks:
                union |= m
            mask &= union
        return self.mask_spots(mask) if mask else []

    def mask_spots(self, mask: int) -> list[int]:
        """The spots of a bit mask (spot_bit), in spot order."""
        if _NATIVE:
            spots: list[int] = []
            lookup = self.tables.bit_spots
            if lookup is None:
                lookup = self.tables.bit_spots = _bit_lookup(
                    {b.bit_length() - 1: s for s, b in enumerate(self.spot_bit)})
            _gather_bits(spots, lookup, mask)
            return spots
        return _gather(self.tables.byte_spots or self.byte_spots(), mask)  # (made the first time: no call after)

    def byte_spots(self) -> list[list[tuple[Any, ...]]]:
        """For each byte of a bit mask (spot_bit) and each of its 256 values, the spots of its set
        bits, in spot order (_byte_lookup)."""
        lookup = self.tables.byte_spots
        if lookup is None:
            lookup = self.tables.byte_spots = _byte_lookup({b.bit_length() - 1: s for s, b in enumerate(self.spot_bit)})
        return lookup

    def straight_lines_mask(self, n: int, mask: int) -> list[tuple[int, ...]]:
        """straight_lines(n, spots) of the spots of a bit mask: the same lines, in the same order."""
        return []

    def count_lines_mask(self, n: int, mask: int) -> int:
        """count_lines(n, spots) of the spots of a bit mask."""
        return 0

    def line_count(self) -> int:
        """How many straight lines the board has, of every length (their numbers: 0 to this)."""
        return 0

    def line_spots(self, line: int) -> tuple[int, ...]:
        """The spots of straight line number `line` (numbered by straight_line_numbers)."""
        raise RulewrightError(f"board {self.name} has no straight lines")

    def straight_line_numbers(self, n: int, spots: Iterable[int]) -> list[int]:
        """The numbers of the lines straight_lines(n, spots) gives, in its order."""
        return []

    def straight_line_numbers_mask(self, n: int, mask: int) -> list[int]:
        """The numbers of the lines straight_lines_mask(n, mask) gives, in its order."""
        return []

    def forget_tables(self) -> None:
        """Empty what the board keeps for its states once it would keep more than MAX_KEPT units
        (runtime/kept.py `made`): its tables (BoardTables.forget) and its kind's own."""
        self.tables.forget()
        self._forget_own()

    def _forget_own(self) -> None:
        """Empty the tables a kind of board keeps of its own (a wall's layouts, a graph's cuts)."""

    def road_chains(self, spots: Iterable[int], least: int, one_per_network: bool) -> list[tuple[int, ...]]:
        raise RulewrightError(f"board {self.name} has no roads: it is not a graph board")

    def best_road_chains(self, spots: Iterable[int], least: int, doubled: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        raise RulewrightError(f"board {self.name} has no roads: it is not a graph board")

    def wall_spots(self, layout: Sequence[int]) -> tuple[int, ...]:
        raise RulewrightError(f"board {self.name} is not a wall: it has no faces to lay")

    def wall_neighbours(self, layout: Sequence[int], spot: int) -> tuple[int, ...]:
        raise RulewrightError(f"board {self.name} is not a wall: it has no faces to lay")

    def wall_regions(self, layout: Sequence[int], kind: int) -> tuple[int, ...]:
        raise RulewrightError(f"board {self.name} is not a wall: it has no faces to lay")

    def wall_runs(self, layout: Sequence[int], spots: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        raise RulewrightError(f"board {self.name} is not a wall: it has no faces to lay")

    def attach(self, layout: Sequence[int], face: int, right: bool) -> tuple[int, ...]:
        raise RulewrightError(f"board {self.name} is not a wall: it has no faces to lay")

    def spot_at(self, row: int, column: int) -> int | None:
        raise RulewrightError(f"board {self.name} is not a grid: it has no rows and columns")

    def wall_pieces(self, layout: Sequence[int]) -> tuple[int, ...]:
        """The pieces of a wall's layout, left to right."""
        return tuple(self.face_piece[f] for f in layout)

