"""The `Plan`: what the passes decided that lowering carries out, and the types of those decisions
(a mask kept, a table of an action's listing, ...). A module of its own, below the passes, which
import it, the pipeline (compiler/passes/__init__.py), which runs them, and lowering, which reads
it: it imports no pass, not even for the type checker (tests/test_pass_order.py)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ...core.source import SourceSpan
from .. import typed as t
from ..analysis.reads import Reads

# -- value_masks, bitmask, spot_filters: sets of spots kept as bit masks ----------------------


@dataclass(frozen=True, slots=True)
class Mask:
    """One set of spots kept as a bit mask: the spots whose `field` is the constant `value`
    (`value_py` in generated code), in the state's slot `slot`. Made by the passes `bitmask` and,
    `empty`, `value_masks` and `spot_filters`."""

    field: str
    value: int
    value_py: str
    slot: str
    span: SourceSpan  # where such a set is first written
    empty: bool = False  # (pass `spot_filters`) the spots whose field, of lists, is empty: `value` unused

    @property
    def py(self) -> str:
        return f"self.{self.slot}"

    def rebuild(self) -> str:
        """Code of the mask made again from the field."""
        if self.empty:
            return f"self.board.empty_mask(self.{self.field})"
        return f"self.board.value_mask(self.{self.field}, {self.value_py})"

    def holds(self, code: str) -> str:
        """Code of whether the value `code` (of the field) is one of the mask's."""
        return f"not {code}" if self.empty else f"{code} == {self.value_py}"

    def note(self) -> str:
        what, by = ("is empty", "spot_filters") if self.empty else (f"is {self.value_py}", "bitmask")
        return (f"`{by}`: the spots whose {self.field} {what}, as a bit mask (board.spot_bit) kept up "
                f"to date as {self.field} changes: the sets of spots it picks ({self.span.short} ...) are read from "
                "it, not found by walking every spot")


@dataclass(frozen=True, slots=True)
class ValueMask:
    """The masks of a field per spot, one per value of its items (`op` "in": a field of lists or
    sets) or of its values (`op` "==": a field of simple values), in the state's slot `slot`, a
    list of `count` ints (its code: `self.num_seats`, a number)."""

    field: str
    op: str
    count: str
    slot: str
    span: SourceSpan  # where such a test is first written

    @property
    def py(self) -> str:
        return f"self.{self.slot}"

    def rebuild(self) -> str:
        """Code of the masks made again from the field."""
        how = "item_masks" if self.op == "in" else "value_masks"
        return f"self.board.{how}(self.{self.field}, {self.count})"

    def note(self) -> str:
        what = "holds" if self.op == "in" else "is"
        return (f"`value_masks`: for each value v, the spots whose {self.field} {what} v, as a bit mask "
                f"(board.spot_bit) kept up to date as {self.field} changes: the counts, tests and lists of "
                f"them ({self.span.short} ...) are read from it, not found by walking the spots")


# -- value_tables -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ValueTable:
    """A definition remembered by value: the field it reads, at which parameter (None: a field
    with one value), and the positions of the parameters that join the key."""

    define: str
    field: str
    py: str  # how generated code reads the field (`self.hand`)
    at: int | None
    params: tuple[int, ...]


# -- spot_filters -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FilterTerm:
    """One test of a filter, in the order written: a kept mask (`mask`, the spots where the test
    holds; `within & ~mask` when `negated`), or a test of the spot's key (`key`, over the spot
    variable `spot`) written over the key variable `var` (`test`), whose failing parts read no key."""

    mask: Mask | None = None
    negated: bool = False
    spot: t.Symbol | None = None
    key: t.Expr | None = None
    var: t.Symbol | None = None
    test: t.Expr | None = None
    mask_var: t.Symbol | None = None  # the local the groups' masks are bound to
    fails: bool = False


@dataclass(frozen=True, slots=True)
class Filter:
    """A list of spots made from masks: its tests, in the order the walk computed them."""

    terms: tuple[FilterTerm, ...]


# -- the plan ----------------------------------------------------------------------------------


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
    # count_items: the counts of a list's items equal to a value, by analysis.keys.key
    counted: tuple[Hashable, ...] = ()
    move_step: bool = False  # move_step: a move's step written out for the rule set, where no move can wait
    # move_step: whether the end of a turn, or a phase's start, can change what the end of the game reads
    # (its fields; for a start, the seat to act too): else the written step does not test the end again there
    end_after_turn_end: bool = True
    end_after_start: bool = True
    journal: bool = False  # journal: a move notes the fields it changes, where every move runs as steps
    # board_tables: the tables of the board that listings and definitions read found once, as a game starts,
    # and kept on the state with their types
    board_tables: bool = False
    # aggregate_loops: the aggregates a definition's value computes first written out as loops
    aggregate_loops: bool = False
