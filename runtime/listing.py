"""The actions of a listing's last choice, a spot, gathered from a bit mask (pass `gather_spots`,
docs/optimiser.md).

A listing through tables per board (pass `index_actions`) keeps, per value of its earlier choices,
a row of interned actions by spot. Where the spots of the last choice are made from bit masks (pass
`mask_spot_filters`), the row is a `SpotRow`: besides the actions by spot, the tuple of the actions of
each value of each byte of a mask, so that the actions of a mask's spots are made a byte at a
time (in spot order, the order the plain listing appends them), the actions of the masks met last,
kept whole by the mask (`by_mask`, read in place by the listing), and the masks of the tests that
read only the earlier choices, kept once computed (`fixed`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from .boards import Board
from .kept import ACTION, DICT, ENTRY, OBJECT
from .kept import made as charge
from .state import Action

# How many masks a row of spots keeps the actions of, whole: China (Schacht)'s palaces meet the
# same few masks again and again (the free spaces of the provinces a payment pays for, early in a
# game: some 4 in 5 of the masks a row gathers are among its last thousand), each then one look-up
# instead of a walk of the mask's bytes; a row holds at most this many, some 200 bytes each, and
# at most MASK_ACTIONS actions in all of them (a mask of a large board holds hundreds).
MASKS_KEPT: Final = 1024
MASK_ACTIONS: Final = 16_384
# The units (runtime/kept.py) of a mask kept whole, beside its actions: its entry and its tuple.
MASK_UNITS: Final = ENTRY + OBJECT
# The units of the list of the 256 values of one byte of a mask (`by_byte`).
BYTE_UNITS: Final = 256 + OBJECT

# What a row keeps is charged to what its board keeps (runtime/kept.py `made`) as it grows: the row
# itself as it is made, each action, each list of a byte's values and tuple of a value's actions as
# they are made, and its masks kept whole up to the most they ever held (emptied when full, they
# are charged again only past that: a row keeps at most MASKS_KEPT * MASK_UNITS + MASK_ACTIONS so).


class SpotRow:
    """The interned actions `name` whose earlier choices are `args`, one per spot of `board`."""

    __slots__ = ("name", "args", "render", "at", "spots", "by_byte", "size", "fixed", "by_mask", "kept", "board",
                 "charged")

    def __init__(self, name: str, args: tuple[Any, ...], render: Callable[[Action], str], board: Board,
                 fixed: int) -> None:
        self.spots = board.byte_spots()
        charge(board, 4 * OBJECT + 2 * DICT + len(self.spots) + fixed)  # (the row, its lists and dicts)
        self.board = board
        self.name = name
        self.args = args
        self.render = render
        # the actions made, by spot (a dict: a row is made per value of the earlier choices, on a
        # board of up to MAX_SPOTS spots, most with few actions)
        self.at: dict[int, Action] = {}
        # per byte of a mask (None: none of its values met yet) and each of its values, the actions of
        # its spots in spot order (None: not made yet)
        self.by_byte: list[list[tuple[Action, ...] | None] | None] = [None] * len(self.spots)
        self.size = len(self.spots)
        # the masks of the tests that read only the earlier choices (None: not computed yet)
        self.fixed: list[int | None] = [None] * fixed
        # the actions of the masks met last, whole (at most MASKS_KEPT masks and MASK_ACTIONS actions
        # in all, `kept`: emptied when full); the most units they held, charged (`charged`)
        self.by_mask: dict[int, tuple[Action, ...]] = {}
        self.kept = 0
        self.charged = 0

    def gather(self, actions: list[Action], mask: int) -> None:
        """Append to `actions` the action of each spot of `mask`, in spot order."""
        found = self.by_mask.get(mask)
        if found is None:
            found = self.made(mask)
        actions += found

    def made(self, mask: int) -> tuple[Action, ...]:
        """The actions of the spots of `mask`, in spot order, a byte of the mask at a time;
        remembered by the mask."""
        by_byte = self.by_byte
        made: list[Action] = []
        k = 0
        for b in mask.to_bytes(self.size, "little"):
            if b:
                values = by_byte[k]
                if values is None:
                    charge(self.board, BYTE_UNITS)
                    values = by_byte[k] = [None] * 256
                items = values[b]
                if items is None:
                    items = tuple(map(self.action, self.spots[k][b]))
                    charge(self.board, OBJECT + len(items))
                    values[b] = items
                made += items
            k += 1
        kept = self.kept + len(made)
        if len(self.by_mask) >= MASKS_KEPT or kept > MASK_ACTIONS:
            self.by_mask.clear()
            kept = len(made)
        self.kept = kept
        units = kept + (len(self.by_mask) + 1) * MASK_UNITS
        if units > self.charged:  # (more than the masks kept ever held: the rest charged)
            charge(self.board, units - self.charged)
            self.charged = units
        found = self.by_mask[mask] = tuple(made)
        return found

    def action(self, spot: int) -> Action:
        """The action of `spot`, made the first time (interned: the same object ever after)."""
        found = self.at.get(spot)
        if found is None:
            charge(self.board, ACTION + ENTRY + len(self.args) + 1)
            found = self.at[spot] = Action(self.name, (*self.args, spot), self.render)
        return found


def union(masks: Iterable[int]) -> int:
    """The masks joined (board.spots_of's join of one test's groups)."""
    joined = 0
    for m in masks:
        joined |= m
    return joined


# A row of regions keeps the tuple of the actions of each mask of regions when the board has at most
# this many regions (a list of 2 ** n entries), else of each value of each byte of a mask.
SMALL_REGIONS: Final = 10
# the set bits of each mask below 2 ** _BITS_BELOW, made the first time they are asked (bits)
_BITS_BELOW: Final = 12
_BITS: Final[list[tuple[int, ...] | None]] = [None] * (1 << _BITS_BELOW)


def bits(mask: int) -> tuple[int, ...]:
    """The numbers of the set bits of `mask` (not negative), lowest first: the regions of a mask of
    regions, in region order (pass `mask_regions`)."""
    if mask < 1 << _BITS_BELOW:
        found = _BITS[mask]
        if found is None:
            found = _BITS[mask] = tuple(k for k in range(mask.bit_length()) if mask >> k & 1)
        return found
    return tuple(k for k in range(mask.bit_length()) if mask >> k & 1)


def ordered_mask(regions: Iterable[int]) -> int:
    """The mask of `regions` (1 << r each) when they are in strictly increasing order, none
    negative, so that the mask's regions in region order are the list itself; else -1 (pass
    `mask_regions`: the listing then walks the list as the rules do)."""
    mask = 0
    last = -1
    for r in regions:
        if r <= last:
            return -1
        mask |= 1 << r
        last = r
    return mask


class RegionRow:
    """The interned actions `name` whose earlier choices are `args`, one per region of `board`, and
    the masks of the tests of the last choice that read only the earlier choices, each as the
    regions where it holds among those whose bit is known (computed for a region the first time a
    listing asks: `fixed`, `known`) (pass `mask_regions`)."""

    __slots__ = ("name", "args", "render", "at", "by_mask", "by_byte", "fixed", "known", "board")

    def __init__(self, name: str, args: tuple[Any, ...], render: Callable[[Action], str], board: Board,
                 fixed: int) -> None:
        count = len(board.region_names)
        # (the row and its lists, charged to what the board keeps: a list of 2 ** count entries on a
        # board of few regions, of a byte's values else)
        lists = (1 << count) if count <= SMALL_REGIONS else (count + 7) // 8
        charge(board, 4 * OBJECT + DICT + lists + 4 * fixed)
        self.board = board
        self.name = name
        self.args = args
        self.render = render
        # the actions made, by region (a dict, as SpotRow's; the -1 `region_of` gives a spot in no
        # region has its own entry, as the last entry of a table of pass `index_actions` is)
        self.at: dict[int, Action] = {}
        # the actions of each mask's regions in region order (None: not made yet): by the whole mask
        # on a board of few regions, else by each value of each byte of the mask
        self.by_mask: list[tuple[Action, ...] | None] = [None] * (1 << count) if count <= SMALL_REGIONS else []
        self.by_byte: list[list[tuple[Action, ...] | None] | None] = \
            [] if count <= SMALL_REGIONS else [None] * ((count + 7) // 8)  # (a byte's values: made when met)
        self.fixed: list[int] = [0] * fixed
        self.known: list[int] = [0] * fixed

    def gather(self, actions: list[Action], mask: int) -> None:
        """Append to `actions` the action of each region of `mask` (not negative), in region order."""
        by_mask = self.by_mask
        if by_mask:
            items = by_mask[mask]
            if items is None:
                items = self.made(mask)
            actions += items
            return
        by_byte = self.by_byte
        k = 0
        for b in mask.to_bytes(len(by_byte), "little"):
            if b:
                values = by_byte[k]
                if values is None:
                    charge(self.board, BYTE_UNITS)
                    values = by_byte[k] = [None] * 256
                found = values[b]
                if found is None:
                    found = tuple(self.action(8 * k + r) for r in bits(b))
                    charge(self.board, OBJECT + len(found))
                    values[b] = found
                actions += found
            k += 1

    def made(self, mask: int) -> tuple[Action, ...]:
        """The actions of the regions of `mask` (on a board of few regions), in region order, made the
        first time the mask is met and kept in `by_mask` (generated code reads `by_mask` itself)."""
        items = tuple(map(self.action, bits(mask)))
        charge(self.board, OBJECT + len(items))
        self.by_mask[mask] = items
        return items

    def action(self, region: int) -> Action:
        """The action of `region`, made the first time (interned: the same object ever after)."""
        found = self.at.get(region)
        if found is None:
            charge(self.board, ACTION + ENTRY + len(self.args) + 1)
            found = self.at[region] = Action(self.name, (*self.args, region), self.render)
        return found
