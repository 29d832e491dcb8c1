"""The `Plan`: what the passes decided that lowering carries out, and the types of those decisions
(a table of an action's listing, ...). A module of its own, below the passes, which import it,
the pipeline (compiler/passes/__init__.py), which runs them, and lowering, which reads it: it
imports no pass, not even for the type checker (tests/test_pass_order.py). The passes that choose
how a set of spots is held as bit masks (`bitmask`, `value_masks`, `spot_filters`) or how a count
or test is written (`component_sets`, `count_items`) record it in the typed program instead
(compiler/typed.py: `Mask`, `ValueMask`, `Filter`, the forms they mark)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ...core.source import SourceSpan
from .. import typed as t

# -- action_tables ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """How one choice's values find their row: `how` is "index" (a list of `size` entries indexed
    by the value), "lines" (indexed by the line's number, the value is `board.line_spots(k)`) or
    "key" (a dictionary by the value, a list made a tuple)."""

    how: str
    size: str = ""  # code of the size of an index level


@dataclass(frozen=True, slots=True)
class Table:
    """How an action's listing finds its interned actions: one level per choice."""

    action: str
    levels: tuple[Level, ...]  # one per choice, in order


# -- listing_tables ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Listed:
    """An action whose listing is remembered by value: each value it reads, as generated code
    reads it, and whether it is keyed by the set of its items (read only through membership)."""

    action: str
    keys: tuple[tuple[str, bool], ...]
    what: str  # the values read, in the rule language's words, for the comment
    words: tuple[str, ...] = ()  # each value read, in the rule language's words (`hand[current]`)


# -- region_masks -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RegionTest:
    """`define(r) op value`, kept as the mask of the regions where it holds (`slot`), beside the mask of
    the regions whose bit is known (`known`); `within` is the method giving the mask among given regions."""

    define: str
    op: str
    value: str  # the code of the constant compared with
    slot: str
    span: SourceSpan  # where it was first met
    text: str  # in the rule language's words, for notes

    @property
    def known(self) -> str:
        return "_regions_known" + self.slot[len("_regions"):]  # `_regions_known__<define>__<n>`

    @property
    def within(self) -> str:
        return "_regions_within" + self.slot[len("_regions"):]  # `_regions_within__<define>__<n>`


@dataclass(frozen=True, slots=True)
class RegionTerm:
    """One test of a region choice, in the order written: a kept test, or a test of the earlier
    choices (`test`, over the choice's variable `var`, hoisted values put back)."""

    kept: RegionTest | None = None
    test: t.Expr | None = None
    var: t.Symbol | None = None


@dataclass(frozen=True, slots=True)
class RegionChoice:
    """An action whose last choice, a region, is made from masks: the regions it walks and its tests."""

    action: str
    regions: t.Expr  # the list of regions its comprehension walks
    var: t.Symbol  # the comprehension's variable
    terms: tuple[RegionTerm, ...]


# -- the plan ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """What the passes decided that lowering carries out. Each pass adds its own decisions; an
    empty plan is the unoptimised program."""

    passes: tuple[str, ...] = ()  # the passes that ran, in the order they ran
    enabled: frozenset[str] = frozenset()  # the passes that run (one defers to another that will)
    # -- each pass's decisions, one field per pass, below this line --
    # listing_hoist: the lists of spots (by analysis.keys.key) of a listing's later choices whose joined masks
    # are joined once, before the listing's loops
    listing_hoists: tuple[Hashable, ...] = ()
    # choice_hoist: (action, k) for a later choice whose list, reading no earlier choice, is made once per listing
    choice_hoists: tuple[tuple[str, int], ...] = ()
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
