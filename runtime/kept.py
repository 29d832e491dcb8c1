"""Values kept between moves (compiler pass `keep_derived`, docs/optimiser.md): dropping the values one
change of a field per entity made stale, and no others.

A dict of kept values may be shared by a state and its clones (what either adds holds for both
while the fields it reads are equal in both), so it is never changed in place here: what is
left is a new dict, the state that changed holds it alone. It is a new dict even when it kept no
value for the key: the state goes on to compute that value afresh and add it, and a dict still
shared with a clone made before the change would hand the clone a value of fields it never had.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:  # (a board's tables are charged here: typed, the native build reads them as fields)
    from .boards.base import Board

K = TypeVar("K")
V = TypeVar("V")


def without_key(kept: dict[K, V] | None, key: Any, shared: bool = True) -> dict[K, V] | None:
    """A copy of `kept` without the value kept for `key` (see the module's doc: a copy even when it
    keeps none). Unless it may be `shared`: a state no copy shares its dicts with (it was never
    copied, or has forgotten every value since: pass `drop_in_place`) drops the value in place."""
    if kept is None:
        return kept
    if not shared:
        kept.pop(key, None)
        return kept
    out = dict(kept)
    out.pop(key, None)
    return out


def without_keys(kept: dict[K, V] | None, keys: Iterable[Any], shared: bool = True) -> dict[K, V] | None:
    """A copy of `kept` without the values kept for any of `keys`: a change of a field at one spot,
    for the regions holding the spot (pass `drop_by_region`); in place unless it may be `shared`."""
    if kept is None:
        return kept
    out = dict(kept) if shared else kept  # (a copy even when it keeps none of them: see the module's doc)
    for key in keys:
        out.pop(key, None)
    return out


# At most so many values in one table of values remembered by value (pass `remember_values`): a table
# full is emptied, so that no game can make it grow without bound.
MAX_TABLED: Final = 10_000

# What a board keeps for its states, shared by every state on it and over every game played on it
# in one process (docs/optimiser.md, "What a board keeps"; its tables: runtime/boards/tables.py):
# its interned actions (pass `index_actions`, the rows of `gather_spots` and `mask_regions`, the
# unoptimised listing's `interned`), the values and listings remembered by value (`remember_values`,
# `remember_listings`, `find_rows_by_key`, `rt.subsets`), the joins of groups of spots (`keys_mask`), a
# wall's layouts and a graph board's cuts of roads. Each is charged as it is made, in units of about 8 bytes (an object
# as its references and its header, OBJECT, DICT, ENTRY and ACTION below; a row of the optimiser as
# it grows: runtime/listing.py). A board that would pass MAX_KEPT units empties every one of them
# (in place: states hold them) and counts again from nothing, so that a board keeps at most MAX_KEPT
# units, about 32 MB (tests/test_kept_bounds.py measures 7 bytes a unit). Emptied, they are made
# again as they are met: the same values, the same actions (equal ones, a new object each: `apply`
# compares actions by value), only slower.
MAX_KEPT = 4_000_000
# The units of an object beyond its references: its header (a tuple's 40 bytes, a dict's 64 ...).
OBJECT: Final = 8
# The units of a dictionary or set itself, with the room for its first entries (a dict of one entry
# takes some 230 bytes, a set 220).
DICT: Final = 30
# The units of an entry of a dictionary: its hash, key and value, and the room a dictionary keeps
# free (an entry takes 72 bytes at most, just after the dictionary has grown).
ENTRY: Final = 9
# The units of an interned action: its object, and the tuple of its choices (each item one more).
ACTION: Final = 16
# A value weighing more than this (a list of 100,000 legal actions) is not remembered at all.
MOST_REMEMBERED: Final = MAX_KEPT // 16


# The types met that hold nothing `weight` walks (an interned action): a few classes.
_PLAIN: Final[set[type]] = set()


def weight(value: Any, most: int = MOST_REMEMBERED) -> int:
    """About how many units `value` takes at most (see MAX_KEPT): a list, tuple, set or dict its
    items' and OBJECT (DICT for a set or dict), a text OBJECT and its length, a large int 5, anything
    else 1 (a small int, an entity, an interned action: counted once, where it is made). The walk
    stops once past `most` (after the list it is counting: a list made within a move's budget),
    the weight then more than `most`."""
    total = 0
    todo = [value]
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is tuple or kind is list or (kind is not int and isinstance(item, (tuple, list))):
            total += OBJECT + len(item)
            for x in item:  # (a small int is its reference alone; what else an item holds is walked)
                inner = type(x)
                if inner is int:
                    if not -5 <= x <= 256:  # (an int of its own, not a shared small one)
                        total += 5
                elif inner in _PLAIN:
                    total += 1
                elif inner is not bool:
                    todo.append(x)
        elif isinstance(item, (frozenset, set)):
            total += DICT + 4 * len(item)  # (a set keeps room for half as many again, 16 bytes each)
            todo.extend(item)
        elif isinstance(item, dict):
            total += DICT + ENTRY * len(item)
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, str):
            total += OBJECT + len(item) // 8
        elif kind is int:
            if not -5 <= item <= 256:
                total += 5
        else:
            total += 1
            _PLAIN.add(kind)  # (a type that holds nothing to walk: an action, an entity's number)
        if total > most:
            break
    return total


def made(board: Board, units: int) -> None:
    """Charge `units` to what `board` keeps (`board.tables.units`), before a table of it is given
    something new: the board empties every table it keeps first (`Board.forget_tables`) where that
    would pass MAX_KEPT."""
    tables = board.tables
    total = tables.units + units
    if total > MAX_KEPT:
        board.forget_tables()
        total = units
    tables.units = total


def remember(table: dict[Any, Any], key: Any, value: Any, board: Board) -> None:
    """Remember `value` in `table` for `key` (the table emptied first when full), charged to what
    `board` keeps (the board of the table); not remembered at all where it weighs more than
    MOST_REMEMBERED (see MAX_KEPT)."""
    units = weight(key) + weight(value) + ENTRY
    if units > MOST_REMEMBERED:
        return
    made(board, units)
    if len(table) >= MAX_TABLED:
        table.clear()
    table[key] = value


def cell() -> list[Any]:
    """An empty cell for a value computed once in a comprehension, where an item first needs it
    (pass `hoist_lazily`): `(cell or once(cell, value))[0]`."""
    return []


def once(cell: list[Any], value: Any) -> list[Any]:
    """The cell, `value` put in it for the next item that needs it (pass `hoist_lazily`)."""
    cell.append(value)
    return cell
