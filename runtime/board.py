"""Boards as data: a hexagonal grid or a ring of spots, partitioned into named regions of several kinds.

Spots are numbered in reading order and labelled by row letter and position (A1, A2, ... K6).
Everything a game asks of the board at run time (the regions a spot lies in, its neighbours) is
computed once, when the board is built, in time and memory linear in its spots and regions; the
straight lines of n spots of a hex board, the first time a rule asks for lines of n spots.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import FunctionType
from typing import TYPE_CHECKING, Any, Final

from .errors import RulewrightError
from .kept import ENTRY, OBJECT, made, weight
from .limits import MAX_MAP_PLACES, MAX_MAP_ROWS, MAX_STEPS, SearchTooLong

# At most so many joins of groups remembered by the tuple of values joined (Board.keys_mask)
MAX_JOINS: Final = 10_000

if TYPE_CHECKING:
    from .state import Action

# The widest bitboard whose line searches read a mask a byte at a time (HexBoard._lines_of_mask): the
# bundled boards' are 85 to 236 bits, the largest a board may be (a hexagon of side 20, a hex map
# of 26 rows of 40 places) some 1,500.
BYTE_LOOKUP_BITS: Final = 512

# The three axes of a hex grid in axial coordinates; the other three are their opposites.
HEX_AXES: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1))


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


# At most so many best cuts of road networks remembered by a board (GraphBoard._best_cut): a table
# full is emptied, so that no game can make it grow without bound.
MAX_CUTS = 10_000


def _too_dense() -> SearchTooLong:
    return SearchTooLong(f"the best cut into road chains: more than {MAX_STEPS:,} paths searched in one move, the "
                         "limit of a move's work (a network with this many forks is too dense for road_chains_best)")


# The groups component_of found last: the spots it was given, each spot's group, the set of them.
Grouped = tuple[object, dict[int, frozenset[int]], frozenset[int]]
# At most so many spots added or taken away since the last groups found, and they are mended.
MENDED = 4
_NO_SPOTS: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class LineTable:
    """The straight lines of n spots of a hex board (HexBoard._lines): per axis, each line by the
    bit of its first spot (`by_axis`) and its number (`numbers`); and the lines in number order."""

    by_axis: tuple[dict[int, tuple[int, ...]], ...]
    numbers: tuple[dict[int, int], ...]
    ordered: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class RegionSpec:
    kind: str
    name: str
    spots: tuple[str, ...]


class Board:
    """What every board has: spots with labels, and regions of several kinds over them."""

    __slots__ = (
        "name", "labels", "index", "spots", "neighbours", "region_names", "region_spots", "region_kind",
        "kinds", "region_of", "action_cache", "region_attributes", "border_regions",
        "regions_of_kind", "regions_at",
        "spot_attributes", "face_spots", "face_piece", "_groups", "spot_bit", "action_tables",
        "all_mask", "region_mask", "_lookups", "spot_regions", "key_masks", "value_tables", "_byte_spots",
        "_bit_spots", "kind_masks", "region_bit", "spot_regions_mask", "road_masks", "road_cuts", "key_joins",
        "kept_units",
    )

    name: str
    labels: tuple[str, ...]
    index: dict[str, int]
    spots: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]

    def _regions(self, kinds: Sequence[str], regions: Iterable[RegionSpec]) -> None:
        # the units of what the tables below keep, made as games are played (runtime/kept.py `made`:
        # at most MAX_KEPT, every table emptied when it would pass)
        self.kept_units = 0
        # Interned actions, shared by every state on this board (see the generated _legal_*).
        self.action_cache: dict[str, dict[Any, Action]] = {}
        # Interned actions as tables (the `action_tables` pass): a list per action, indexed by
        # the number of its choice (a spot, a region, a line ...), built as the actions are met.
        self.action_tables: dict[str, Any] = {}
        # Values of definitions remembered by the small value of the game they are a function of
        # (the `value_tables` pass): by definition, a dict by that value, shared by every state
        self.value_tables: dict[str, dict[Any, Any]] = {}
        # Each spot's bit in a set of spots held as a bit mask (the `bitmask` pass): 1 << spot,
        # but a hex board's own padded bitboard (HexBoard.bit), so its line searches take the mask
        # as it is. Bits grow with the spot number on every board: a mask's spots, lowest bit
        # first, are in spot order. The mask of every spot, and of each region's spots.
        self.spot_bit: tuple[int, ...] = self._spot_bits()
        self.all_mask: int = sum(self.spot_bit)
        # the spots grouped by a value the board fixes for each (pass `spot_filters`): by the code
        # of the value, each value with the mask of its spots (group_keys)
        self.key_masks: dict[str, dict[Any, int]] = {}
        # the joins of those groups' masks for a tuple of values (keys_mask): by the groups (their id:
        # each lives in key_masks as long as the board) and the values
        self.key_joins: dict[tuple[int, tuple[Any, ...]], int] = {}
        # what the set bits of each byte of a mask stand for (_gather), made as first asked: by
        # 4 * n + kind, the lines of n spots (kind 1) or their numbers (kind 2) per axis (an int
        # key, hashed without making a tuple); the spots themselves in a slot of their own
        self._lookups: dict[int, Any] = {}
        self._byte_spots: list[list[tuple[Any, ...]]] | None = None
        self._bit_spots: list[Any] | None = None  # the native build's: the spot of each bit (_gather_bits)
        # the groups of the spots last given to component_of, and the spots themselves
        self._groups: Grouped | None = None
        self.kinds: tuple[str, ...] = tuple(kinds)
        names: list[str] = []
        region_spots: list[tuple[int, ...]] = []
        region_kind: list[int] = []
        regions_at: list[list[list[int]]] = [[[] for _ in self.spots] for _ in self.kinds]
        for spec in regions:
            k = self.kinds.index(spec.kind)
            idx = len(names)
            names.append(spec.name)
            members = tuple(sorted(self.index[s] for s in spec.spots))
            region_spots.append(members)
            region_kind.append(k)
            for s in members:
                regions_at[k][s].append(idx)
        self.region_names: tuple[str, ...] = tuple(names)
        self.region_spots: tuple[tuple[int, ...], ...] = tuple(region_spots)
        self.region_mask: tuple[int, ...] = tuple(sum(self.spot_bit[s] for s in members) for members in region_spots)
        self.region_kind: tuple[int, ...] = tuple(region_kind)
        # every region of a kind holding a spot (two for a border post in two provinces)
        self.regions_at: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(rs) for rs in by_spot) for by_spot in regions_at)
        # the region of a kind a spot lies in (-1: none; the last listed, for a spot in two)
        # every region of every kind holding a spot, in increasing order (pass `region_drops`)
        self.spot_regions: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(r for by_spot in regions_at for r in by_spot[s])) for s in self.spots)
        self.region_of: tuple[tuple[int, ...], ...] = tuple(
            tuple(rs[-1] if rs else -1 for rs in by_spot) for by_spot in self.regions_at)
        self.regions_of_kind: tuple[tuple[int, ...], ...] = tuple(
            tuple(i for i, k in enumerate(region_kind) if k == kind) for kind in range(len(self.kinds)))
        # regions as bit masks (pass `region_masks`): region r's bit is 1 << r (`region_bit`, where
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
        the last groups are mended rather than all found again (`_regrouped`)."""
        found = self._groups
        if found is None or found[0] is not spots:
            found = self._regrouped(spots, found)
            self._groups = found
        return found[1].get(spot, _NO_SPOTS)

    def _regrouped(self, spots: Iterable[int], last: Grouped | None) -> Grouped:
        """The groups of `spots` (each spot's own), with the set of them: the last groups mended
        where at most MENDED spots were added or taken away since, else found afresh. Either way
        they are the groups components() finds: a spot taken away splits its group into the
        parts of the rest joined within it (a flood fill of that group only), a spot added joins
        its own group with those of its neighbours among the spots. The last dict is never
        changed (another thread may be reading it): a changed copy is made."""
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

    # -- sets of spots as bit masks (the `bitmask` pass), and lines by number (`action_tables`) --
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
        per spot of lists or sets of players, of an enumeration's values) holds v (pass `value_masks`)."""
        bit = self.spot_bit
        masks = [0] * count
        for s, items in enumerate(values):
            for v in items:
                masks[v] |= bit[s]
        return masks

    def value_masks(self, values: Sequence[int], count: int) -> list[int]:
        """For each value v below `count`, the bit mask of the spots whose entry of `values` (a field
        per spot of players, of an enumeration's values) is v (pass `value_masks`)."""
        bit = self.spot_bit
        masks = [0] * count
        for s, v in enumerate(values):
            masks[v] |= bit[s]
        return masks

    def group_keys(self, name: str, keys: Sequence[Any]) -> dict[Any, int]:
        """The spots grouped by their entry of `keys` (one per spot, a value the board fixes for the
        spot: its province, the province's colour): each value, in the order first met, with the
        mask of its spots; remembered as `key_masks[name]` (pass `spot_filters`)."""
        groups: dict[Any, int] = {}
        for s, k in enumerate(keys):
            groups[k] = groups.get(k, 0) | self.spot_bit[s]
        self.key_masks[name] = groups
        return groups

    def keys_mask(self, groups: dict[Any, int], values: Iterable[Any]) -> int:
        """The mask of the spots whose key (`groups`: group_keys) is one of `values`. For a tuple of
        values (a list field; the board's regions of a kind, joined at every listing of China
        (Schacht)'s placements) it is remembered by the values (`key_joins`, emptied when full)."""
        if type(values) is tuple:
            key = (id(groups), values)
            found = self.key_joins.get(key)
            if found is not None:
                return found
        mask = 0
        for v in values:
            mask |= groups.get(v, 0)
        if type(values) is tuple:
            made(self, ENTRY + OBJECT + len(values))
            if len(self.key_joins) >= MAX_JOINS:
                self.key_joins.clear()
            self.key_joins[(id(groups), values)] = mask
        return mask

    def spots_of(self, mask: int, *more: Iterable[int]) -> list[int]:
        """The spots of `mask` and of each of `more` (each the masks of a test's groups, joined), in
        spot order (mask_spots). Each of `more` is taken only while some spot is left, in order: a
        test is computed (as its generator runs) only if a spot reaches it (pass `spot_filters`)."""
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
            lookup = self._bit_spots
            if lookup is None:
                lookup = self._bit_spots = _bit_lookup({b.bit_length() - 1: s for s, b in enumerate(self.spot_bit)})
            _gather_bits(spots, lookup, mask)
            return spots
        return _gather(self.byte_spots(), mask)

    def byte_spots(self) -> list[list[tuple[Any, ...]]]:
        """For each byte of a bit mask (spot_bit) and each of its 256 values, the spots of its set
        bits, in spot order (_byte_lookup)."""
        lookup = self._byte_spots
        if lookup is None:
            lookup = self._byte_spots = _byte_lookup({b.bit_length() - 1: s for s, b in enumerate(self.spot_bit)})
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

    def action_table(self, key: str, size: int) -> list[Any]:
        """The table of interned actions `key` (`None` where no action is made yet), of `size`
        entries: one per board, shared by every state on it."""
        table = self.action_tables.get(key)
        if table is None:
            table = self.action_tables[key] = [None] * size
        return table

    def value_table(self, name: str) -> dict[Any, Any]:
        """The table of the values of definition `name` by what they are a function of (pass
        `value_tables`): one per board, shared by every state on it."""
        found = self.value_tables.get(name)
        if found is None:
            found = self.value_tables[name] = {}
        return found

    def action_dict(self, key: str) -> dict[Any, Any]:
        """The dictionary of interned actions `key`, for a choice of values no table numbers: by
        value, each entry an action or the row of the next choice."""
        found = self.action_tables.get(key)
        if found is None:
            found = self.action_tables[key] = {}
        return found

    def forget_tables(self) -> None:
        """Empty every table the board keeps for its states, in place (states hold them: pass
        `board_tables`), once they would keep more than MAX_KEPT units (runtime/kept.py `made`).
        What is forgotten is made again as it is met, the same values (a new object for an action:
        an equal one); a listing that holds a row of a table emptied so goes on with it."""
        for table in self.action_tables.values():
            if isinstance(table, list):
                table[:] = [None] * len(table)
            else:
                table.clear()
        for values in self.value_tables.values():
            values.clear()
        for cache in self.action_cache.values():
            cache.clear()
        self.key_joins.clear()
        self._forget_own()
        self.kept_units = 0

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

    def wall_pieces(self, layout: Sequence[int]) -> tuple[int, ...]:
        """The pieces of a wall's layout, left to right."""
        return tuple(self.face_piece[f] for f in layout)


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


class GraphBoard(Board):
    """Named spots joined by roads (China's palace spaces), regions over them, borders between regions."""

    __slots__ = ()

    def __init__(
        self, name: str, labels: Sequence[str], roads: Iterable[tuple[str, str]], kinds: Sequence[str],
        regions: Iterable[RegionSpec], borders: Iterable[tuple[str, str]], attributes: Sequence[tuple[int, ...]],
    ) -> None:
        self.name = name
        self.labels = tuple(labels)
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.spots = tuple(range(len(self.labels)))
        near: list[set[int]] = [set() for _ in self.spots]
        for a, b in roads:
            near[self.index[a]].add(self.index[b])
            near[self.index[b]].add(self.index[a])
        self.neighbours = tuple(tuple(sorted(n)) for n in near)
        # each spot's neighbours along the roads as a mask, bit s for spot s (`_networks_of`)
        self.road_masks: tuple[int, ...] = tuple(sum(1 << m for m in n) for n in self.neighbours)
        # the best cuts of networks found (_best_cut), by the network's shape: shared by every state
        self.road_cuts: dict[tuple[Any, ...], tuple[int, list[tuple[int, ...]]]] = {}
        self._regions(kinds, regions)
        by_name = {n: i for i, n in enumerate(self.region_names)}
        self.border_regions = tuple((by_name[a], by_name[b]) for a, b in borders)
        self.region_attributes = tuple(attributes)

    def _forget_own(self) -> None:
        self.road_cuts.clear()

    def road_chains(self, spots: Iterable[int], least: int, one_per_network: bool) -> list[tuple[int, ...]]:
        """Cut the road network among `spots` into chains of at least `least` spots.

        A chain is a path along roads that never forks; each spot is in at most one chain. The
        longest path is taken first (ties: the one whose spots come first on the board), its spots
        are taken out, and the longest path left is next, until none is `least` long. With
        `one_per_network`, only the longest path of each connected network counts.
        """
        chains: list[tuple[int, ...]] = []
        if one_per_network:
            # (a network of fewer than `least` spots holds no path that long: not searched)
            for network in self._networks_of(spots, least):
                best = self._longest_path(network)
                if len(best) >= least:
                    chains.append(best)
            return chains
        left = frozenset(spots)
        while left:
            best = self._longest_path(left)
            if len(best) < least:
                break
            chains.append(best)
            left = left - set(best)
        return chains

    def best_road_chains(self, spots: Iterable[int], least: int, doubled: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """The cut of the road network among `spots` into chains of at least `least` spots that
        scores the most: a chain scores its length, twice if it holds one of `doubled`.

        A chain is a path along roads that never forks; each spot is in at most one chain. An
        exact search, network by network: the lowest spot left is either in no chain or in one
        of the paths through it, and each set of spots left is solved once. Its work is counted
        and bounded like `road_chains` (SearchTooLong past MAX_STEPS). Of cuts that score the
        same, the one with the longest chain through the lowest spot is kept (then the first
        found, the paths through it in the order of the roads). Each chain starts at its lower
        end.
        """
        bonus = frozenset(doubled)
        least = max(least, 1)  # (a chain holds a spot at least)
        steps = [0]
        chains: list[tuple[int, ...]] = []
        for network in self._networks_of(spots, least):
            chains.extend(self._best_cut(network, least, bonus, steps))
        return tuple(chains)

    def _networks_of(self, spots: Iterable[int], least: int) -> list[frozenset[int]]:
        """The networks of `spots` (networks(): the groups the roads join them in, the one of the
        lowest spot first) that hold `least` spots or more, the others left out: a network too
        small for a chain is no input of a chain search. Found as bit masks (bit s for spot s): a
        spot with no neighbour among the others, a network of one, is left out at once (where
        `least` is more than one); each network is grown from its lowest spot by the roads' masks
        of the spots it gained, until it gains none; only a network kept is made a set of spots.
        China (Schacht)'s players hold some 9 networks each at the end of a game, 6.6 of them of
        one spot and 0.2 of four or more (measured over 300 random three-player games)."""
        near = self.road_masks
        members = list(spots)
        left = 0
        for s in members:
            left |= 1 << s
        if least > 1:  # (a spot with no neighbour among the others is a network of one: left out)
            linked = 0
            for s in members:
                if near[s] & left:
                    linked |= 1 << s
            left = linked
        found: list[frozenset[int]] = []
        while left:
            group = edge = left & -left
            while edge:  # the spots the group gained last: their neighbours among those left
                grown = 0
                while edge:
                    bit = edge & -edge
                    grown |= near[bit.bit_length() - 1]
                    edge ^= bit
                edge = grown & left & ~group
                group |= edge
            left ^= group
            if group.bit_count() >= least:
                members = []
                while group:
                    bit = group & -group
                    members.append(bit.bit_length() - 1)
                    group ^= bit
                found.append(frozenset(members))
        return found

    def _best_cut(self, network: frozenset[int], least: int, bonus: frozenset[int],
                  steps: list[int]) -> list[tuple[int, ...]]:
        """The best cut of one connected network (best_road_chains), iteratively: spots are bits
        of a mask, and a stack of the masks still to solve replaces recursion.

        The search reads nothing of the network but its shape: its spots numbered in increasing
        order (bit i for the i-th), the roads between them, `least` and the doubled spots. So a
        cut found is remembered by that shape in a table of the board (`road_cuts`, emptied
        when it holds MAX_CUTS), with the steps its search spent; a network of the same shape
        met again (China (Schacht)'s four to eight palaces along a road, in a few shapes) takes
        the cut found, its spots renumbered, and charges the same steps, so that a search past
        MAX_STEPS fails as it would have (the steps of a move only grow as they are spent: the
        search fails if and only if what it spends in all takes them past the limit)."""
        order = sorted(network)
        bit = {s: i for i, s in enumerate(order)}
        near = tuple(tuple(bit[n] for n in self.neighbours[s] if n in network) for s in order)
        doubled_mask = sum(1 << bit[s] for s in bonus if s in network)
        shape = (near, least, doubled_mask)
        known = self.road_cuts.get(shape)
        if known is not None:
            steps[0] += known[0]
            if steps[0] > MAX_STEPS:
                raise _too_dense()
            return [self._oriented(order, taken) for taken in known[1]]
        before = steps[0]

        def spend(n: int) -> None:
            steps[0] += n
            if steps[0] > MAX_STEPS:  # a dense network has more cuts than a move may search
                raise _too_dense()

        def paths_from(v: int, allowed: int) -> list[tuple[tuple[int, ...], int]]:
            """Every simple path from v among the `allowed` spots, with the mask of its spots."""
            out: list[tuple[tuple[int, ...], int]] = []
            todo: list[tuple[tuple[int, ...], int]] = [((v,), 1 << v)]
            room = MAX_STEPS - steps[0]
            while todo:
                path, on = todo.pop()
                out.append((path, on))
                if len(out) > room:
                    spend(len(out))  # (raises: past the limit before the list is whole)
                for n in near[path[-1]]:
                    if allowed >> n & 1 and not on >> n & 1:
                        todo.append(((*path, n), on | 1 << n))
            spend(len(out))
            return out

        # best[mask] = (score, the chain taken from mask or None, the mask left after it)
        best: dict[int, tuple[int, tuple[int, ...] | None, int]] = {}
        moves: dict[int, list[tuple[int, tuple[int, ...] | None, int]]] = {}
        full = (1 << len(order)) - 1
        todo: list[int] = [full]
        while todo:
            mask = todo.pop()
            if mask in best:
                continue
            if mask.bit_count() < least:
                best[mask] = (0, None, 0)
                continue
            if mask not in moves:
                low = mask & -mask
                v = low.bit_length() - 1
                options: list[tuple[int, tuple[int, ...] | None, int]] = [(0, None, mask & ~low)]
                for a, on_a in paths_from(v, mask):
                    for b, on_b in paths_from(v, mask & ~(on_a & ~low)):
                        if len(a) + len(b) - 1 < least or not (len(b) == 1 or (len(a) > 1 and a[1] < b[1])):
                            continue  # too short, or the same path read from its other end
                        on = on_a | on_b
                        chain = (*reversed(b), *a[1:])
                        options.append((len(chain) * (2 if on & doubled_mask else 1), chain, mask & ~on))
                spend(len(options))
                moves[mask] = options
                todo.append(mask)
                todo.extend(rest for _, _, rest in options if rest not in best)
                continue
            top: tuple[int, tuple[int, ...] | None, int] = (-1, None, 0)
            length = -1
            for score, taken, rest in moves.pop(mask):
                total = score + best[rest][0]
                if total > top[0] or (total == top[0] and taken is not None and len(taken) > length):
                    top = (total, taken, rest)
                    length = len(taken) if taken is not None else 0
            best[mask] = top
        cut: list[tuple[int, ...]] = []
        mask = full
        while mask.bit_count() >= least:
            _, taken, mask = best[mask]
            if taken is not None:
                cut.append(taken)
        made(self, weight(shape) + weight(cut) + ENTRY + OBJECT + 2)
        if len(self.road_cuts) >= MAX_CUTS:
            self.road_cuts.clear()
        self.road_cuts[shape] = (steps[0] - before, cut)
        return [self._oriented(order, taken) for taken in cut]

    @staticmethod
    def _oriented(order: list[int], taken: tuple[int, ...]) -> tuple[int, ...]:
        """A chain of a cut, its bits the spots of `order`: from its lower end."""
        found = tuple(order[i] for i in taken)
        return found if found[0] <= found[-1] else found[::-1]

    def networks(self, spots: frozenset[int]) -> tuple[frozenset[int], ...]:
        """The spots cut into the networks the roads join them in, the one of the lowest spot first
        (a graph board's neighbours are its roads: these are its connected components)."""
        return self.components(spots)

    def _longest_path(self, spots: frozenset[int]) -> tuple[int, ...]:
        """The longest simple path among `spots` (a depth-first search: networks here are small)."""
        best: tuple[int, ...] = ()
        near = {s: [n for n in self.neighbours[s] if n in spots] for s in spots}
        steps = 0

        def walk(path: list[int], on: set[int]) -> None:
            nonlocal best, steps
            steps += 1
            if steps > MAX_STEPS:  # a dense network has more paths than a move may search
                raise SearchTooLong(f"the longest road chain: more than {MAX_STEPS:,} paths searched in one "
                                    "move, the limit of a move's work (a network with this many forks is "
                                    "too dense for road_chains)")
            extended = False
            for nxt in near[path[-1]]:
                if nxt not in on:
                    extended = True
                    path.append(nxt)
                    on.add(nxt)
                    walk(path, on)
                    on.discard(nxt)
                    path.pop()
            if not extended:
                # the same path read from either end counts once: keep the one that starts lower
                candidate = tuple(path) if path[0] <= path[-1] else tuple(reversed(path))
                if len(candidate) > len(best) or (len(candidate) == len(best) and candidate < best):
                    best = candidate

        for start in sorted(spots):
            walk([start], {start})
        return best


class HexBoard(Board):
    """A hexagon of spots with regions; built once per board and shared by every state.

    Its straight lines are not made as the board is built: a board of N spots whose longest line
    is L spots has some 3 * N * L / 2 lines of every length, holding some N * L * L / 2 spots in
    all (a hex map 170 cells wide: 540 MB, half a minute). Built, the board knows only how many
    lines of each length run along each axis (from the run of spots ahead of each spot, a walk of
    the spots per axis: `_line_counts`), so it can number them; the lines of one length are made
    the first time they are asked for (`_lines`), as rules ask for a few lengths only."""

    __slots__ = ("side", "coords", "longest", "bit", "_steps", "_spot_at_bit", "_runs", "_line_base",
                 "_line_total", "_line_tables", "_by_bits")

    def __init__(self, name: str, side: int, kinds: Sequence[str], regions: Iterable[RegionSpec]) -> None:
        self.name = name
        self.side = side
        coords = hex_coords(side)
        labels = hex_labels(side)
        self.coords: tuple[tuple[int, int], ...] = tuple(coords)
        self.labels: tuple[str, ...] = tuple(labels[c] for c in coords)
        self.index: dict[str, int] = {label: i for i, label in enumerate(self.labels)}
        self.spots: tuple[int, ...] = tuple(range(len(coords)))
        at = {c: i for i, c in enumerate(coords)}
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                at[(q + dq * sign, r + dr * sign)]
                for dq, dr in HEX_AXES
                for sign in (1, -1)
                if (q + dq * sign, r + dr * sign) in at
            )
            for (q, r) in coords
        )
        # A padded bitboard for fast line searches: spot (q, r) is bit (r+R)*W + (q+R), with one
        # empty column so that a step along an axis never wraps onto the next row.
        width = 2 * side
        radius = side - 1
        self.bit: tuple[int, ...] = tuple(1 << ((r + radius) * width + q + radius) for (q, r) in coords)
        self._steps: tuple[int, ...] = tuple(dr * width + dq for dq, dr in HEX_AXES)
        self._line_counts({((r + radius) * width + q + radius): i for i, (q, r) in enumerate(coords)},
                          2 * side - 1)
        self._regions(kinds, regions)

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
        if n == 1:
            return [allowed, 0, 0]
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
        lookups = self._axis_lookups(n, kind)
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
        found: tuple[Any, ...] | None = self._lookups.get(8 * n + kind)
        if found is None:
            table = self._lines(n)
            by_axis = table.by_axis if kind % 4 == 1 else table.numbers
            found = self._lookups[8 * n + kind] = tuple(
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


def _byte_lookup(at: dict[int, Any]) -> list[list[tuple[Any, ...]]]:
    """For each byte of a bit mask and each of its 256 values, what `at` gives for its set bits
    (by bit position), lowest first: a mask's items a byte at a time (_gather)."""
    nothing: list[tuple[Any, ...]] = [()] * 256  # (shared by the bytes that stand for no item)
    lookup: list[list[tuple[Any, ...]]] = []
    for k in range(max(at, default=0) // 8 + 1):
        items = [(at[8 * k + i],) if 8 * k + i in at else () for i in range(8)]
        if not any(items):
            lookup.append(nothing)
            continue
        table = nothing[:]
        for v in range(1, 256):  # a value's items: those of its lowest bit, then those of the rest
            low = (v & -v).bit_length() - 1
            table[v] = items[low] + table[v & (v - 1)]
        lookup.append(table)
    return lookup


def _gather(lookup: list[list[tuple[Any, ...]]], mask: int) -> list[Any]:
    """What the set bits of `mask` stand for (its lookup: _byte_lookup), lowest bit first."""
    # A loop over the bytes, not map(list.__getitem__, lookup, bytes): as fast interpreted and
    # some 1.5 times as fast on the native build (docs/native.md), whose list and bytes indexing
    # by a machine integer is a C call, where map's is a call through Python.
    found: list[Any] = []
    k = 0
    for byte in mask.to_bytes(len(lookup), "little"):
        if byte:
            found += lookup[k][byte]
        k += 1
    return found


def _bit_lookup(at: dict[int, Any]) -> list[Any]:
    """What `at` gives for each bit of a mask, by bit position (None for none), as many bits as
    _byte_lookup's bytes hold: the native build's lookup (_gather_bits)."""
    return [at.get(b) for b in range(8 * (max(at, default=0) // 8 + 1))]


def _gather_bits(found: list[Any], lookup: list[Any], mask: int) -> None:
    """_gather on the native build: append to `found` what the set bits of `mask` stand for, lowest
    bit first, each bit of a byte found by its bit_length. Compiled, this is machine arithmetic on
    a byte, where _gather's tables (a tuple for each of 256 values of each byte, some hundred
    thousand bytes a board) miss the processor's cache: they were a tenth of a native Cornett
    game. Interpreted, each bit is a few bytecodes, so there _gather's tables stay."""
    k = -1
    for byte in mask.to_bytes(len(lookup) // 8, "little"):
        while byte:
            low = byte & -byte
            item = lookup[k + low.bit_length()]
            if item is not None:
                found.append(item)
            byte ^= low
        k += 8


# Whether this module is compiled by mypyc (the native build, docs/native.md): a compiled function
# is not a Python function.
_NATIVE: Final = not isinstance(_gather_bits, FunctionType)


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
        at = {c: i for i, c in enumerate(coords)}
        self.neighbours = tuple(
            tuple(
                at[(q + dq * sign, r + dr * sign)]
                for dq, dr in HEX_AXES
                for sign in (1, -1)
                if (q + dq * sign, r + dr * sign) in at
            )
            for (q, r) in coords
        )
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


class WallBoard(Board):
    """A wall that grows during play (Chang Cheng): pieces, each with faces (its sides), each
    face a stretch of spaces from left to right. Every space of every face is a spot, so a
    per-spot field has a value for each; which faces are laid, and in which order, is not the
    board's but the game's: a `list(wallface)` of the state, left end first (the layout). The
    wall's spots are the spots of its faces in that order; two spots are neighbours along the
    wall when they follow each other, across the join of two faces too."""

    __slots__ = ("_laid", "_laid_near", "_laid_regions", "face_names", "piece_names")

    def __init__(
        self, name: str, pieces: Sequence[tuple[str, Sequence[tuple[str, Sequence[str]]]]], kinds: Sequence[str],
        regions: Iterable[RegionSpec],
    ) -> None:
        self.name = name
        labels: list[str] = []
        face_spots: list[tuple[int, ...]] = []
        face_piece: list[int] = []
        face_names: list[str] = []
        for p, (_, faces) in enumerate(pieces):
            for face, spots in faces:
                face_spots.append(tuple(range(len(labels), len(labels) + len(spots))))
                face_piece.append(p)
                face_names.append(face)
                labels.extend(spots)
        self.labels = tuple(labels)
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.spots = tuple(range(len(labels)))
        self.piece_names: tuple[str, ...] = tuple(p for p, _ in pieces)
        self.face_names: tuple[str, ...] = tuple(face_names)
        near: list[list[int]] = [[] for _ in self.spots]
        for run in face_spots:
            for a, b in zip(run, run[1:], strict=False):
                near[a].append(b)
                near[b].append(a)
        # within a face only: the joins between faces are the layout's (see wall_neighbours)
        self.neighbours = tuple(tuple(sorted(n)) for n in near)
        self._regions(kinds, regions)
        self.face_spots = tuple(face_spots)
        self.face_piece = tuple(face_piece)
        # Each layout met, its spots left to right and where each spot stands among them: a game
        # asks the same few layouts again and again (a layout is a tuple, so it cannot change).
        self._laid: dict[tuple[int, ...], tuple[tuple[int, ...], dict[int, int]]] = {}
        self._laid_regions: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._laid_near: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}

    def _forget_own(self) -> None:
        self._laid.clear()
        self._laid_regions.clear()
        self._laid_near.clear()

    def _wall(self, layout: Sequence[int]) -> tuple[tuple[int, ...], dict[int, int]]:
        key = tuple(layout)
        found = self._laid.get(key)
        if found is None:
            run = tuple(s for f in key for s in self.face_spots[f])
            made(self, 3 * OBJECT + len(key) + len(run) + ENTRY * (len(run) + 1))  # (the key, the run, its places)
            if len(self._laid) >= 1024:  # faces in every order: bounded all the same
                self._laid.clear()
            found = self._laid[key] = (run, {s: i for i, s in enumerate(run)})
        return found

    def wall_spots(self, layout: Sequence[int]) -> tuple[int, ...]:
        """The spots of the faces laid, from the left end to the right."""
        return self._wall(layout)[0]

    def wall_neighbours(self, layout: Sequence[int], spot: int) -> tuple[int, ...]:
        """The spots just left and right of `spot` along the wall (none if it is not laid)."""
        near = self._laid_near.get(layout if isinstance(layout, tuple) else tuple(layout))
        if near is None:
            near = self._near_along(layout)
        return near[spot]

    def _near_along(self, layout: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """Each spot's neighbours along the wall of `layout` (none for a spot not laid), made once per
        layout: rules ask them of every space at every listing."""
        key = tuple(layout)
        run, place = self._wall(key)
        made(self, (len(self.spots) + 2) * OBJECT + len(key) + 2 * len(run) + ENTRY)  # (a tuple per spot)
        if len(self._laid_near) >= 1024:  # (as `_laid`: bounded)
            self._laid_near.clear()
        near: list[tuple[int, ...]] = [() for _ in self.spots]
        for spot, i in place.items():
            near[spot] = run[max(i - 1, 0):i] + run[i + 1:i + 2]
        found = self._laid_near[key] = tuple(near)
        return found

    def wall_runs(self, layout: Sequence[int], spots: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """The unbroken runs of laid spaces among `spots`, each left to right, the leftmost run
        first: spaces side by side along the wall, across the joins of the faces laid too."""
        among = set(spots)
        runs: list[tuple[int, ...]] = []
        run: list[int] = []
        for s in self.wall_spots(layout):
            if s in among:
                run.append(s)
            elif run:
                runs.append(tuple(run))
                run = []
        if run:
            runs.append(tuple(run))
        return tuple(runs)

    def wall_regions(self, layout: Sequence[int], kind: int) -> tuple[int, ...]:
        """The regions of one kind with a spot on the wall, left to right (by their leftmost spot)."""
        key = (*layout, -1 - kind)  # (a layout holds no negative face)
        found = self._laid_regions.get(key)
        if found is None:
            seen: dict[int, None] = {}
            for s in self.wall_spots(layout):
                for r in self.regions_at[kind][s]:
                    seen.setdefault(r)
            made(self, 2 * OBJECT + len(key) + len(seen) + ENTRY)
            if len(self._laid_regions) >= 1024:
                self._laid_regions.clear()
            found = self._laid_regions[key] = tuple(seen)
        return found

    def attach(self, layout: Sequence[int], face: int, right: bool) -> tuple[int, ...]:
        """The layout with `face` laid at its right (else left) end; its piece must not be laid."""
        piece = self.face_piece[face]
        if any(self.face_piece[f] == piece for f in layout):
            # (a fault of the rules, told as a game error at the rule line that laid it)
            raise ValueError(f"piece {self.piece_names[piece]} of the wall is already laid: "
                             f"face {self.face_names[face]} cannot be added")
        return (*layout, face) if right else (face, *layout)
