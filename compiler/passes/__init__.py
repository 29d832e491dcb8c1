"""Stage 5b, passes: optimisations of the typed program (compiler/typed.py), between check and
lower, and of the lowered program (compiler/lowered.py), between lower and codegen. Each pass is a
module of this package with one entry point; before lowering,

    run(program: TypedProgram, facts: Facts) -> TypedProgram

a new program, the one given left as it is, at one of three levels (`LEVEL`): it rewrites the
program into an equivalent one (inlining, hoisting), or marks a node it takes with the form lowering
writes it in (`t.FORMS`: "typed"); or, a pass of the representation step, it annotates the
declarations of the program with how a value is stored or found, which lowering writes so (which
definitions to keep between moves and which changes drop part of them, `t.Define.kept`: "representation").
What a pass decided is in the program it gives, at the node it is about: lowering reads nothing
else (no side table, no test of which passes ran). `facts` are the analyses of the program that
several passes read (compiler/analysis/), made once per program, and the passes that run
(`facts.enabled`). A pass of the lowered level runs after lowering, on what
it wrote (`transform`):

    run(program: lowered.Program, facts: Facts) -> lowered.Program

a new lowered program, the one given left as it is; `facts` are those of the typed program lowered.
A pass imports only passes that run before it (or none), never lowering (tests/test_pass_order.py).
Every pass can be switched off on its own (`compile --no-pass NAME`), or all of them (`compile
--no-opt`): a game is the same game, move for move and byte for byte, with or without any of them;
tests/test_optimiser.py proves it on every scenario and on thousands of seeded random games.
docs/optimiser.md says what each pass does and why it is safe.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from .. import typed as t
from ..analysis import Facts
from ..lowered import Program


class Pass(Protocol):
    def __call__(self, program: t.TypedProgram, facts: Facts) -> t.TypedProgram: ...


class LoweredPass(Protocol):
    def __call__(self, program: Program, facts: Facts) -> Program: ...


# The passes, in the order they run, each with what it does in a line (`compile --help`, the
# docs, the header of a generated module).
PASSES: dict[str, str] = {
    "intersect_components": "a count or test of the attributes of the components in a set is a set operation against "
                            "the components having them, not a walk",
    "mask_values": "the spots where a field per spot holds a value named by a variable (a player), as a bit mask per "
                   "value kept up to date: counts, tests and lists of them, and of the spots empty or not, read it",
    "compute_inside_kept": "a small definition used only inside definitions kept between moves, and dropped with "
                           "them, is written into them, not kept itself",
    "compute_at_scoring": "a definition only the scores read, each of its values asked once per player scored, is "
                          "computed where the scores ask it, not kept between moves",
    "inline": "small definitions written where they are called, not called as methods",
    "inline_procedures": "small procedures without parameters written where they are called, not called as methods",
    "hoist": "work that does not change from item to item done once, before the loop",
    "mask_spot_sets": "the spots where a field holds a value, as a bit mask kept up to date: lists, line searches, "
                      "counts and all/any of them read it",
    "mask_spot_filters": "lists of spots filtered by fields per spot and by what the board fixes of each spot are "
                         "made from bit masks, each test computed once per value, not once per spot",
    "hoist_masks": "the masks a later choice of a listing joins alike for every item of the choices before it are "
                   "joined once, before the listing's loops",
    "hoist_choices": "the list a later choice of a listing walks, when it reads no earlier choice, is made once per "
                     "listing, the first time it is walked",
    "count_items": "how many of a list's items equal a value is the list's own count, not a walk",
    "unwrap_set_items": "a set joined with, or taken, items written out is its own union or difference with them, not "
                        "with a set made of them first",
    "unwrap_list_items": "a list joined with items written out is written with them, not joined with a tuple of them, "
                         "and such a join of a list read as it is, short, is sorted or searched at once, like the "
                         "list",
    "join_rounds": "a loop whose every round joins the same items to a list joins them all at once, the budget its "
                   "rounds would charge charged at once",
    "draw_out": "an item drawn from a list and then taken out of it is drawn and taken out in one call of the "
                "runtime, the list cut around it, not copied to a list and back",
    "bound_ranges": "a range from a length up to a bound known when compiling holds at most that bound: a loop over "
                    "it is proven small and walked without a check",
    "sort_sets": "a list of a set's items as they are is the set sorted, not a walk making the sorted list again",
    "remember_values": "a definition that is a function of one small value of the game (a hand of cards) is "
                       "remembered by that value, in a table of the board every state shares",
    "keep_counts": "a count, sum, any or all of a test of the spots of the board or of a region, reading fields at "
                   "the spot, is kept per region and per value of the players or values it reads, adjusted at "
                   "each write of those fields by what the spot adds after it less what it added before",
    "keep_derived": "definitions that loop are kept in the state between moves, recomputed once a field they read "
                    "changes",
    "drop_by_region": "a change of a field per spot drops, of a kept definition that reads it only in its region's "
                      "spots, the values of the regions holding that spot only",
    "nest_by_region": "a kept definition of several parameters dropped by region keeps its values nested by the "
                      "region: a change at a spot drops those of the regions holding it only",
    "unswitch": "a loop's list filtered by a test the same for every item or'd with the rest is the list itself where "
                "the test holds, filtered by the rest only where it does not",
    "drop_in_place": "a state that no copy shares its dicts of kept values with drops values from them in place, not "
                     "from a copy of each",
    "hoist_lazily": "work a loop's items need alike that can fail, or that no item may need, computed once, where the "
                    "first item needs it",
    "keep_end": "the end of the game is kept like a derived value: tested once per move, not after every step",
    "index_actions": "interned actions found by list index in tables per board, not by building and hashing keys",
    "gather_spots": "a listing's last choice, a spot made from bit masks, appends its actions a byte of the mask at a "
                    "time, and its tests of the earlier choices only are computed once per value of them",
    "remember_listings": "a listing whose actions are a function of a few small values of the game (a hand of cards) "
                         "is remembered by them, in a table of the board, and appended whole",
    "key_sorted_lists": "a listing remembered by a list the rules keep sorted is keyed by the list itself, not by a "
                        "set made of its items",
    "remember_list_changes": "a list the rules keep sorted, of values of a small enumeration, joined with an item "
                             "or taken one is changed by a look-up: what it becomes by each value found by the "
                             "list in a table of the board every state shares, made the plain way the first time",
    "find_rows_by_key": "a listing's first choice that walks a definition remembered by value (a hand's ways to pay) "
                        "finds the rows of its values by that value's key, once per listing, not by a tuple made and "
                        "hashed per value",
    "mask_regions": "a test of a kept definition of one region is kept as the mask of the regions where it holds, "
                    "made stale where their values are dropped; a listing's last choice of regions is made from masks "
                    "of regions and appended from its row by mask",
    "inline_guards": "an action's when: is tested where its listing starts, written out, not through a call of its "
                     "guard method",
    "write_out_moves": "a move's step through the runtime written out for the rule set, its known tests left out, "
                       "where no move can wait for a decision",
    "journal_changes": "where every move can wait for a decision, the state as a move began is made from the fields "
                       "it changed, only if it waits, not copied before every move",
    "aggregate_loops": "the sum, largest, smallest, any or all of a comprehension a definition's value computes first "
                       "written out as a loop, not a generator handed to a built-in",
    "bind_board_tables": "the tables of the board a listing or a definition reads (its interned actions, its values "
                         "remembered by value) found once as a game starts and kept on the state with their types, "
                         "not looked up by name at every call",
    "unwrap_filtered_loops": "a listing's loop over a filtered list walks the list's own loops and tests each item, "
                             "not a list made first by a comprehension",
    "share_values": "a value an expression of a definition computes twice (a definition called with the same "
                    "arguments, an item of an item) computed once, where first computed, and read again after",
    "inline_returns": "a call, in a definition, of a definition that is one return of an expression, with names "
                      "and constants as arguments, is that expression, not a call of a method",
    "bind_reads": "what a method reads of the state and its board again and again (a field, the seat to act, a "
                  "table of the board) read once into a local where it is first read, not looked up as an "
                  "attribute at every read",
}
ALL: frozenset[str] = frozenset(PASSES)

# The names the passes had before each was named by what it does (issue 35; the table in
# docs/optimiser.md, "Old names"). A name given from outside (`compile --no-pass`, `bench --no-pass`,
# `rulewright.load_rules(passes=...)`) is read through `current`: an old one is still understood.
RENAMED: dict[str, str] = {
    "component_sets": "intersect_components",
    "value_masks": "mask_values",
    "inner_defines": "compute_inside_kept",
    "score_only": "compute_at_scoring",
    "bitmask": "mask_spot_sets",
    "spot_filters": "mask_spot_filters",
    "listing_hoist": "hoist_masks",
    "choice_hoist": "hoist_choices",
    "set_items": "unwrap_set_items",
    "list_items": "unwrap_list_items",
    "range_bounds": "bound_ranges",
    "set_lists": "sort_sets",
    "value_tables": "remember_values",
    "derived": "keep_derived",
    "region_drops": "drop_by_region",
    "nested_drops": "nest_by_region",
    "own_drops": "drop_in_place",
    "lazy_hoist": "hoist_lazily",
    "end_once": "keep_end",
    "action_tables": "index_actions",
    "spot_rows": "gather_spots",
    "listing_tables": "remember_listings",
    "sorted_keys": "key_sorted_lists",
    "tabled_rows": "find_rows_by_key",
    "region_masks": "mask_regions",
    "guard_inline": "inline_guards",
    "move_step": "write_out_moves",
    "journal": "journal_changes",
    "board_tables": "bind_board_tables",
}

# Each pass's level (see the module's doc), "typed" unless named here: "typed", a rewrite of the typed
# program; "representation", the representation step, which annotates the typed program's declarations
# with how a value is stored or found (kept between moves, held as a bit mask, remembered in a table of
# the board); "lowered", a transform of the lowered program (compiler/lowered.py), after lowering, where
# the decision is only about the shape of the code written. The typed and representation passes run
# before lowering where PASSES puts them, not all at once: each where what it reads is decided
# (`compute_inside_kept` and `compute_at_scoring` before `inline`, which writes what they leave unkept where it is
# called; `keep_derived` after the passes that make a loop no loop); the lowered ones in PASSES order after it.
LEVEL: dict[str, str] = {
    "compute_inside_kept": "representation",
    "compute_at_scoring": "representation",
    "remember_values": "representation",
    "keep_counts": "representation",  # TypedProgram.kept_counts; marks Comprehension.kept_count
    "keep_derived": "representation",
    "drop_by_region": "representation",
    "nest_by_region": "representation",
    "drop_in_place": "representation",
    "keep_end": "representation",
    "intersect_components": "representation",  # TypedProgram.component_sets; marks Comprehension.component_set
    "mask_values": "representation",  # TypedProgram.value_masks, .masks; marks Comprehension.value_mask
    "mask_spot_sets": "representation",  # TypedProgram.masks; marks Comprehension/Builtin.mask_read
    "mask_spot_filters": "typed",  # Comprehension.spot_filter (and the masks of the empty spots it reads)
    "count_items": "typed",  # Comprehension.counted
    "inline_procedures": "typed",
    "hoist_masks": "typed",
    "hoist_choices": "typed",
    "index_actions": "representation",
    "gather_spots": "representation",
    "remember_listings": "representation",
    "key_sorted_lists": "representation",
    "remember_list_changes": "typed",  # Assign.remembered_change
    "find_rows_by_key": "representation",
    "mask_regions": "representation",
    "inline_guards": "typed",
    "write_out_moves": "lowered",  # lowered.Program.move_step
    "journal_changes": "representation",  # TypedProgram.journal
    "aggregate_loops": "lowered",  # the statements of a definition's value (LoweredFunction.value_at) and the end's
    "bind_board_tables": "lowered",  # lowered.Program.board_tables, and the statements that read them
    "unwrap_filtered_loops": "lowered",  # the loops of listings
    "share_values": "lowered",  # the values of definitions' statements
    "inline_returns": "lowered",  # the calls in definitions' statements
    "bind_reads": "lowered",  # the statements of definitions, listings and effects
}


def level(name: str) -> str:
    """The level pass `name` works at (`LEVEL`)."""
    return LEVEL.get(name, "typed")


def known(names: Iterable[str]) -> list[str]:
    """The names that are no pass (for an error message)."""
    return [n for n in names if n not in PASSES]


def current(name: str) -> str:
    """The pass's name now: `name` itself, or the new name of a pass `name` named before (`RENAMED`)."""
    return RENAMED.get(name, name)


def renamed_note(name: str) -> str | None:
    """What to tell whoever named a pass by a name it had before (`RENAMED`); None for any other name."""
    new = RENAMED.get(name)
    return None if new is None else f"pass `{name}` is called `{new}` now"


@dataclass(frozen=True, slots=True)
class Stage:
    """One pass as the pipeline ran it: the program it was given, and what it gave."""

    name: str
    program: t.TypedProgram
    after: t.TypedProgram


def stages(program: t.TypedProgram, enabled: frozenset[str] = ALL) -> Iterator[Stage]:
    """The enabled passes of the typed and representation levels run in their fixed order (PASSES)
    over a checked program, one stage at a time (tests/test_pass_goldens.py prints each). The
    analyses they share are made once per program: again only after a pass rewrote it."""
    facts = Facts(program, enabled)
    for name in PASSES:
        if name not in enabled or level(name) == "lowered":
            continue
        run: Pass = importlib.import_module(f"{__name__}.{name}").run
        rewritten = run(program, facts)
        yield Stage(name, program, rewritten)
        if rewritten is not program:
            program, facts = rewritten, Facts(rewritten, enabled)


def optimise(program: t.TypedProgram, enabled: frozenset[str] = ALL) -> t.TypedProgram:
    """Run the enabled passes of the typed and representation levels, in their fixed order
    (PASSES), over a checked program: what lowering writes."""
    for stage in stages(program, enabled):
        program = stage.after
    return program


@dataclass(frozen=True, slots=True)
class LoweredStage:
    """One pass of the lowered level as the pipeline ran it: the lowered program it was given, and what it gave."""

    name: str
    program: Program
    after: Program


def lowered_stages(program: Program, typed: t.TypedProgram, enabled: frozenset[str] = ALL) -> Iterator[LoweredStage]:
    """The enabled passes of the lowered level run in their fixed order (PASSES) over what lowering
    wrote of `typed` (the program `optimise` gave), one stage at a time."""
    facts = Facts(typed, enabled)
    for name in PASSES:
        if name not in enabled or level(name) != "lowered":
            continue
        run: LoweredPass = importlib.import_module(f"{__name__}.{name}").run
        after = run(program, facts)
        yield LoweredStage(name, program, after)
        program = after


def transform(program: Program, typed: t.TypedProgram, enabled: frozenset[str] = ALL) -> Program:
    """Run the enabled passes of the lowered level, in their fixed order (PASSES), over what
    lowering wrote of `typed`: what codegen lays out."""
    for stage in lowered_stages(program, typed, enabled):
        program = stage.after
    return program
