"""The `Plan`: what the passes decided that lowering carries out. A module of its own, below the
passes, which import it, and the pipeline (compiler/passes/__init__.py), which runs them: it names
the types of the passes' decisions for the type checker only, so that at run time it imports no
pass (tests/test_pass_order.py)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..analysis.reads import Reads

if TYPE_CHECKING:
    from .action_tables import Table
    from .listing_tables import Listed
    from .region_masks import Choice as RegionChoice
    from .region_masks import Test as RegionTest
    from .spot_filters import Filter
    from .value_masks import Mask, ValueMask
    from .value_tables import Table as ValueTable


@dataclass(frozen=True, slots=True)
class Plan:
    """What the passes decided that lowering carries out. Each pass adds its own decisions; an
    empty plan is the unoptimised program."""

    passes: tuple[str, ...] = ()  # the passes that ran, in the order they ran
    enabled: frozenset[str] = frozenset()  # the passes that run (one defers to another that will)
    # -- each pass's decisions, one field per pass, below this line --
    # value_masks: the fields per spot whose spots holding each value (a player) are kept as a bit mask per value
    value_masks: tuple[ValueMask, ...] = ()
    # component_sets: the component attributes (their tables) whose sets of components the module holds,
    # each with its number of values (0: a truth value), for counts and tests over sets of components
    component_sets: tuple[tuple[str, int], ...] = ()
    # inner_defines: definitions `derived` would keep, used only inside kept definitions that drop with them:
    # not kept (written where they are called, when small)
    unkept: tuple[str, ...] = ()
    # score_only: definitions `derived` would keep that only the scores read, each value asked once per
    # player scored: not kept (computed where the scores ask them)
    score_only: tuple[str, ...] = ()
    # value_tables: the definitions remembered by the value of what they read, in tables of the board
    value_tables: tuple[ValueTable, ...] = ()
    # derived: the definitions kept between moves, each with what it reads (compiler/analysis/reads.py)
    derived: tuple[tuple[str, Reads], ...] = ()
    # derived: (definition, field per entity, k) for a kept definition with parameters that reads
    # that field only at the entity its k-th parameter names: an assignment at one index drops
    # only the values kept for that entity as k-th argument
    derived_entries: tuple[tuple[str, str, int], ...] = ()
    # derived: (definition, set field, k, attribute table) for a kept definition that reads that
    # field only through walks keeping the items whose attribute equals its k-th parameter: a change
    # of the field by one item drops only the values kept for that item's attribute
    derived_attributes: tuple[tuple[str, str, int, str], ...] = ()
    # region_drops: (definition, field per spot, k) for a kept definition that reads that field
    # only at the spots of the region its k-th parameter names: an assignment at one spot drops
    # only the values kept for the regions holding that spot as k-th argument
    region_drops: tuple[tuple[str, str, int], ...] = ()
    # nested_drops: (definition, k) for a kept definition of several parameters whose values are kept
    # nested by its k-th parameter, a region: dropped by region (and at one entity of that parameter)
    nested: tuple[tuple[str, int], ...] = ()
    # end_once: what the end condition reads, when its value is kept between moves (None: not kept)
    own_drops: bool = False  # own_drops: a state no copy shares its dicts of kept values with drops from them in place
    end_once: Reads | None = None
    masks: tuple[Mask, ...] = ()  # bitmask: the sets of spots kept as bit masks
    # spot_filters: the lists of spots made from masks, each by its comprehension's key (analysis.keys.key)
    spot_filters: tuple[tuple[Hashable, Filter], ...] = ()
    # listing_hoist: the lists of spots (by analysis.keys.key) of a listing's later choices whose joined masks
    # are joined once, before the listing's loops
    listing_hoists: tuple[Hashable, ...] = ()
    # choice_hoist: (action, k) for a later choice whose list, reading no earlier choice, is made once per listing
    choice_hoists: tuple[tuple[str, int], ...] = ()
    # count_items: the counts of a list's items equal to a value, by analysis.keys.key
    counted: tuple[Hashable, ...] = ()
    tables: tuple[Table, ...] = ()  # action_tables: how each action's listing finds its interned actions
    # spot_rows: the actions whose last choice, a spot made from masks, is gathered from a row of spots
    spot_rows: tuple[str, ...] = ()
    # listing_tables: the actions whose listing is remembered by the few values of the game it reads
    listing_tables: tuple[Listed, ...] = ()
    # region_masks: the tests of kept definitions of one region kept as masks of the regions where they
    # hold, and the actions whose last choice, a region, is made from masks of regions
    region_tests: tuple[RegionTest, ...] = ()
    region_choices: tuple[RegionChoice, ...] = ()
    move_step: bool = False  # move_step: a move's step written out for the rule set, where no move can wait
    # move_step: whether the end of a turn, or a phase's start, can change what the end of the game reads
    # (its fields; for a start, the seat to act too): else the written step does not test the end again there
    end_after_turn_end: bool = True
    end_after_start: bool = True
    journal: bool = False  # journal: a move notes the fields it changes, where every move runs as steps
    # inline_procedures: the procedures written where they are called (small, without parameters or locals)
    inline_procedures: tuple[str, ...] = ()
    # board_tables: the tables of the board that listings and definitions read found once, as a game starts,
    # and kept on the state with their types
    board_tables: bool = False
    # tabled_rows: the actions whose first choice, walking a definition remembered by value, finds its rows by
    # that value's key once per listing
    tabled_rows: tuple[str, ...] = ()
    # aggregate_loops: the aggregates a definition's value computes first written out as loops
    aggregate_loops: bool = False
