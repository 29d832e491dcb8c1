"""Values kept between moves (compiler pass `derived`, docs/optimiser.md): dropping the values one
change of a field per entity made stale, and no others.

A dict of kept values may be shared by a state and its clones (what either adds holds for both
while the fields it reads are equal in both), so it is never changed in place here: what is
left is a new dict, the state that changed holds it alone. It is a new dict even when it kept no
value for the key: the state goes on to compute that value afresh and add it, and a dict still
shared with a clone made before the change would hand the clone a value of fields it never had.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


def without_key(kept: dict[K, V] | None, key: Any, shared: bool = True) -> dict[K, V] | None:
    """A copy of `kept` without the value kept for `key` (see the module's doc: a copy even when it
    keeps none). Unless it may be `shared`: a state no copy shares its dicts with (it was never
    copied, or has forgotten every value since: pass `own_drops`) drops the value in place."""
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
    for the regions holding the spot (pass `region_drops`); in place unless it may be `shared`."""
    if kept is None:
        return kept
    out = dict(kept) if shared else kept  # (a copy even when it keeps none of them: see the module's doc)
    for key in keys:
        out.pop(key, None)
    return out


# At most so many values in one table of values remembered by value (pass `value_tables`): a table
# full is emptied, so that no game can make it grow without bound.
MAX_TABLED = 10_000


def remember(table: dict[Any, Any], key: Any, value: Any) -> None:
    """Remember `value` in `table` for `key` (the table emptied first when full)."""
    if len(table) >= MAX_TABLED:
        table.clear()
    table[key] = value


def cell() -> list[Any]:
    """An empty cell for a value computed once in a comprehension, where an item first needs it
    (pass `lazy_hoist`): `(cell or once(cell, value))[0]`."""
    return []


def once(cell: list[Any], value: Any) -> list[Any]:
    """The cell, `value` put in it for the next item that needs it (pass `lazy_hoist`)."""
    cell.append(value)
    return cell
