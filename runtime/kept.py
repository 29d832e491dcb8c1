"""Values kept between moves (compiler pass `derived`, docs/optimiser.md): dropping the values one
change of a field per entity made stale, and no others.

A dict of kept values may be shared by a state and its clones (what either adds holds for both
while the fields it reads are equal in both), so it is never changed in place here: what is
left is a new dict, the state that changed holds it alone.
"""

from __future__ import annotations

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

