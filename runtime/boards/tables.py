"""The tables the optimised code keeps on a board (`Board.tables`), shared by every state on it and by
every game played on it in one process (docs/optimiser.md, "What a board keeps").

Generated code finds a table by a name the compiler writes: an action's name (`'build'`), a
definition's (`'payments'`), a kind of table and an action's (`'listing exchange_blind'`,
`'keyed_spot_rows build'`), or the key spots are grouped by, written from the key's structure
(`'region_of(spot, PROVINCE)'`, compiler/lower/comprehensions.py `group_key`), never from the
Python it lowers to. It reads a table where it is (`tables.values.get(name)`) and makes it the
first time (`tables.value_table(name)`): one lookup of a dict by an interned text either way.

Every table is bounded as runtime/kept.py says: what is put in a table is charged to `units` as it is
made (runtime/kept.py `made`, MAX_KEPT at most); past that the board empties every one of them in
place (`Board.forget_tables`: states hold them) and counts again from nothing. The lookups of a
mask's bits (`byte_spots`, `bit_spots`, `line_lookups`) are the board's shape, made once: linear in
its spots and lines, never emptied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..state import Action


class BoardTables:
    """What the optimised code keeps on one board, by the name the compiler gives each table."""

    __slots__ = ("units", "actions", "values", "interned", "spot_groups", "group_joins", "spot_bit", "byte_spots",
                 "bit_spots", "line_lookups")

    def __init__(self, spot_bit: tuple[int, ...]) -> None:
        # the units of what the tables below (and the board's own, a wall's layouts, a graph's cuts)
        # keep, made as games are played (runtime/kept.py `made`: at most MAX_KEPT, every table
        # emptied when it would pass)
        self.units = 0
        # Interned actions as tables (the `index_actions` pass): a list per action, indexed by
        # the number of its choice (a spot, a region, a line ...), or a dict by value, built as the
        # actions are met; or the rows of its last choice (`gather_spots`, `mask_regions`) by the values
        # of the earlier ones.
        self.actions: dict[str, Any] = {}
        # Values remembered by the small value of the game they are a function of: a definition's
        # (the `remember_values` pass), a whole listing's (`remember_listings`), the rows of a listing by a
        # key (`find_rows_by_key`): by name, a dict by that value, shared by every state
        self.values: dict[str, dict[Any, Any]] = {}
        # Interned actions of a listing no table numbers (the plain listing, compiler/templates):
        # by action, a dict by its choices
        self.interned: dict[str, dict[Any, Action]] = {}
        # the spots grouped by a value the board fixes for each (pass `mask_spot_filters`): by the name
        # of the key, each value with the mask of its spots (group_spots)
        self.spot_groups: dict[str, dict[Any, int]] = {}
        # the joins of those groups' masks for a tuple of values (Board.keys_mask): by the groups
        # (their id: each lives in spot_groups as long as the board) and the values
        self.group_joins: dict[tuple[int, tuple[Any, ...]], int] = {}
        # each spot's bit in a mask (Board.spot_bit)
        self.spot_bit = spot_bit
        # what the set bits of each byte of a mask stand for (bits.py `_gather`), made as first asked:
        # the spots (`byte_spots`; the native build's bit lookup, `bit_spots`), and by 8 * n + kind
        # the lines of n spots of a hex board (kind 1) or their numbers (kind 2) per axis, their bit
        # lookups kind 5 and 6 (an int key, hashed without making a tuple: HexBoard._axis_lookups)
        self.byte_spots: list[list[tuple[Any, ...]]] | None = None
        self.bit_spots: list[Any] | None = None
        self.line_lookups: dict[int, Any] = {}

    def action_table(self, name: str, size: int) -> list[Any]:
        """The table of interned actions `name` (`None` where no action is made yet), of `size`
        entries: one per board, shared by every state on it."""
        table = self.actions.get(name)
        if table is None:
            table = self.actions[name] = [None] * size
        return table

    def action_dict(self, name: str) -> dict[Any, Any]:
        """The dictionary of interned actions `name`, for a choice of values no table numbers: by
        value, each entry an action or the row of the next choice."""
        found = self.actions.get(name)
        if found is None:
            found = self.actions[name] = {}
        return found

    def value_table(self, name: str) -> dict[Any, Any]:
        """The table of the values `name` by what they are a function of (pass `remember_values`): one
        per board, shared by every state on it."""
        found = self.values.get(name)
        if found is None:
            found = self.values[name] = {}
        return found

    def group_spots(self, name: str, keys: Sequence[Any]) -> dict[Any, int]:
        """The spots grouped by their entry of `keys` (one per spot, a value the board fixes for the
        spot: its province, the province's colour): each value, in the order first met, with the
        mask of its spots; remembered as `spot_groups[name]` (pass `mask_spot_filters`)."""
        groups: dict[Any, int] = {}
        bit = self.spot_bit
        for s, k in enumerate(keys):
            groups[k] = groups.get(k, 0) | bit[s]
        self.spot_groups[name] = groups
        return groups

    def forget(self) -> None:
        """Empty every table that grows as games are played, in place (states hold them): the
        actions, the values and the joins of groups (Board.forget_tables). What is forgotten is made
        again as it is met, the same values (a new object for an action: an equal one); a listing
        that holds a row of a table emptied so goes on with it."""
        for table in self.actions.values():
            if isinstance(table, list):
                table[:] = [None] * len(table)
            else:
                table.clear()
        for values in self.values.values():
            values.clear()
        for cache in self.interned.values():
            cache.clear()
        self.group_joins.clear()
        self.units = 0
