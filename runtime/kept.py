"""Values kept between moves (compiler pass `derived`, docs/optimiser.md): dropping the values one
change of a field per entity made stale, and no others.

A dict of kept values may be shared by a state and its clones (what either adds holds for both
while the fields it reads are equal in both), so it is never changed in place here: what is
left is a new dict, the state that changed holds it alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


def without_key(kept: dict[K, V] | None, key: Any) -> dict[K, V] | None:
    """`kept` without the value kept for `key` (itself when it keeps none)."""
    if kept is None or key not in kept:
        return kept
    out = dict(kept)
    del out[key]
    return out



def without_keys(kept: dict[K, V] | None, keys: Iterable[Any]) -> dict[K, V] | None:
    """`kept` without the values kept for any of `keys` (itself when it keeps none of them): a
    change of a field at one spot, for the regions holding the spot (pass `region_drops`)."""
    if kept is None:
        return kept
    out: dict[K, V] | None = None
    for key in keys:
        if key in kept:
            if out is None:
                out = dict(kept)
            del out[key]
    return kept if out is None else out


# At most so many values in one table of values remembered by value (pass `value_tables`): a table
# full is emptied, so that no game can make it grow without bound.
MAX_TABLED = 10_000


def remember(table: dict[Any, Any], key: Any, value: Any) -> None:
    """Remember `value` in `table` for `key` (the table emptied first when full)."""
    if len(table) >= MAX_TABLED:
        table.clear()
    table[key] = value
