"""The one total order over the values of the rules, in which sets are walked, saved and shown
(`sort_key`): below the limits and the mechanics library, which both sort by it."""

from __future__ import annotations

from typing import Any


def sort_key(item: object) -> Any:
    """A total order over the values of one type that may hold `none` (None, first) or records
    (tuples of their fields): numbers by value, lists and records item by item, sets by their
    items in order. Sets of such values are walked, saved and shown in this order."""
    if item is None:
        return (0,)
    if isinstance(item, tuple):
        return (1, tuple(sort_key(x) for x in item))
    if isinstance(item, frozenset):
        return (1, tuple(sorted(sort_key(x) for x in item)))
    return (1, item)
