"""The names generated code keeps for itself, and how a rule file's names are written in it.

Two namespaces that cannot meet, by construction (issue 33):

- **rule names** (fields, values, definitions, procedures, actions, phases, triggers, options,
  components and their attributes, dice, boards, records, locals ...) are lowercase letters and
  digits in words joined by one `_`: `[a-z][a-z0-9]*(_[a-z0-9]+)*` (RULE_NAME). They never start
  or end with `_` and never hold `__`; build/reader.py and check/ refuse any other at the name itself.
- **every name the compiler invents** starts with `_` (`_found`, `_kept_end`, `_legal`), or,
  for a constant in capitals, holds a `__` join; and where it is made from rule names it joins
  them to a tag with `__` (`joined`): `_mask__marker__face_down`, `_do__claim`, `_d__rent`,
  `_opt__board`, `PHASE__TURN`, `ATTR__TILE__COLOUR`. Cut at each `__`, such a name gives back
  its tag and the rule names it was made from, so no two are alike; and no rule name has a
  `__`, so none is like one of them.

A rule file's names reach a generated module in four places:

- module constants, in capitals: each value of an enumeration (roles, region kinds, option
  choices and the values of a field are enumerations too) and each die, as the name in capitals
  (`face_down` is FACE_DOWN: never a `__` in it, never a leading `_`), beside the invented
  `PHASE__<phase>`, `FACES__<dice>`, `ATTR__<component>__<attribute>`,
  `SETS__<component>__<attribute>`, `REGIONS__<board>` and `_ROLE_OF_SEAT`; a function
  `_board__<board>` per board.
  The module's one public name, `GAME`, is the only one in capitals a value could take: the
  checker refuses a value `game` by name (MODULE_API);
- members of the state class: fields, definitions and procedures under their own names, and
  the invented `_opt__<option>`, `_do__<action>`, `_legal__<action>`, `_guard__<action>`,
  `_start__<phase>`, `_trigger__<trigger>` ... (MEMBER_PATTERNS). The runtime's and the
  template's own members start with `_` and hold no `__` join, or are class constants in
  capitals (no rule name has a capital), or are the State's public API (`apply`, `clone`,
  `phase`, `board`, `num_seats` ... STATE_API, read from the class): a field, definition or
  procedure of one of those names is refused by name (tests/test_hostile_names.py proves every
  member of State is one of these three);
- local variables of its methods: choices, `let` values, loop variables and parameters, under
  their own names, except Python's words and the two names generated code reads unqualified
  (`self`, `rt`: METHOD_NAMES): those get a `_` after them (`len_`, `self_`), which no rule name
  ends with (LOCAL_AVOID, local_name). Every local the template, the lowering or a pass binds
  itself starts with one `_` and holds no `__` (`_actions`, `_cache`, `_row1`, `_found`, `_cond`:
  TEMPLATE_LOCALS, INVENTED_LOCALS), and a pass's fresh local is `_<local>__<n>` (`_s__2`,
  `_once__1`: rewrite.Names), or a read bound once, `_read__<names>` (`_read__board__rays`: pass
  `bind_reads`), so no list of names keeps a rule file's locals off them. (Never
  `__` first: Python mangles such a name inside a class.);
- text only (strings and dictionary keys): enumerations' names, scoring terms, boards, region
  and spot names, neutral seats. Any name is safe there, as far as Python goes.

What stays refused by name is fixed and small: Python's keywords and built-ins as members, the
State's public API, the rule language's own words (`player`, `k`, `i`, `base`, `pass`,
`by_players`, the built-in functions and values) and the module's `GAME`.
tests/test_hostile_names.py compiles games and fails when generated code uses a name outside
these namespaces, and a property test names rules adversarially against every invented name.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass

from ..core.source import SourceSpan
from ..runtime.state import BY_PLAYERS, PASS, State
from . import ast

# -- the two namespaces ---------------------------------------------------------------------------
# A rule name: lowercase words of letters and digits joined by one `_` (never `_` first or last,
# never `__`); every name the compiler invents is outside this.
RULE_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
RULE_NAME_HINT = ("a name is lowercase letters and digits, words joined by one `_` (`gold_side`); names starting "
                  "or ending with `_`, or holding `__`, are the ones generated code makes for itself")
JOIN = "__"


def rule_name_problem(name: str) -> str | None:
    """Why `name` (already lowercase letters, digits and `_`) is no rule name, or None."""
    if RULE_NAME.fullmatch(name):
        return None
    if name.startswith("_"):
        return "starts with `_`"
    if name.endswith("_"):
        return "ends with `_`"
    if JOIN in name:
        return "holds `__`"
    return "does not start with a letter"


def joined(tag: str, *parts: str) -> str:
    """An invented name made from rule names (or invented ones): `_` and the tag, then each part
    after a `__`: joined("mask", "marker", "face_down") is `_mask__marker__face_down`."""
    return "_" + tag + "".join(JOIN + p for p in parts)


def joined_const(tag: str, *parts: str) -> str:
    """An invented module constant made from rule names: the tag, then each name in capitals
    after a `__`: joined_const("ATTR", "tile", "colour") is `ATTR__TILE__COLOUR`."""
    return tag + "".join(JOIN + const_name(p) for p in parts)


# -- module level -------------------------------------------------------------------------------
# What the template defines or imports at module level, besides the rule file's own names: the
# one public name in capitals (`GAME`, which loaders read: a value `game` is refused by name),
# and names no rule constant can be (mixed case, lowercase, or starting with `_`).
MODULE_API = frozenset({"GAME"})
ROLE_OF_SEAT = "_ROLE_OF_SEAT"
MODULE_NAMES = MODULE_API | frozenset({ROLE_OF_SEAT, "rt", "Sequence", "Any", "ClassVar", "Final", "annotations"})
PHASE_TAG, FACES_TAG, ATTR_TAG, SETS_TAG, REGIONS_TAG = "PHASE", "FACES", "ATTR", "SETS", "REGIONS"


def phase_constant(phase: str) -> str:
    """`PHASE__TURN`: a phase's number."""
    return joined_const(PHASE_TAG, phase)


def regions_constant(board: str) -> str:
    """`REGIONS__FACE_3_4`: the regions of a board, written once where other boards have them too."""
    return joined_const(REGIONS_TAG, board)


def faces_constant(dice: str) -> str:
    """`FACES__TABLET`: the faces of each die of a kind."""
    return joined_const(FACES_TAG, dice)


def table_constant(component: str, attribute: str) -> str:
    """`ATTR__TILE__COLOUR`: a component attribute's value per component."""
    return joined_const(ATTR_TAG, component, attribute)


def component_sets_constant(table: str) -> str:
    """(pass `intersect_components`) the components having each value of an attribute, made from its
    table's name: `SETS__TILE__ANIMAL` for `ATTR__TILE__ANIMAL`."""
    assert table.startswith(ATTR_TAG + JOIN)
    return SETS_TAG + table[len(ATTR_TAG):]


def board_function(board: str) -> str:
    """`_board__hex6`: the function that makes a board."""
    return joined("board", board)


# -- the state class ----------------------------------------------------------------------------
# What the passes keep on a state beside its fields: (pass `mask_spot_sets`) the spots holding a value,
# `_mask__<field>__<value>`; (passes `mask_values`, `mask_spot_filters`) the spots whose list or set
# is empty, `_empty__<field>`, the spots holding each value, `_has__<field>` or `_is__<field>`;
# (pass `mask_regions`) the regions passing a test of a kept definition, `_regions__<define>__<n>`,
# and those whose bit of it is known, `_regions_known__<define>__<n>` (`_regions_within__...` a method);
# (pass `keep_counts`) a table of counts kept up to date, `_counts__<n>` (a number: no rule name is one), and
# the method making it again, `_recounts__<n>`.
# (pass `remember_list_changes`) the board's table of what a list field becomes, `_withouts__<field>` or
# `_sorted_joins__<field>`, read through the state.
KEPT_TAGS = ("mask", "empty", "has", "is", "regions", "regions_known", "regions_within", "counts", "recounts",
             "withouts", "sorted_joins")
# At most this many choices of an action are listed through tables (each has its locals: TEMPLATE_LOCALS).
MAX_TABLE_CHOICES = 8
# Members the template gives every generated state class (the runtime's State has most already).
TEMPLATE_MEMBERS = frozenset({
    "__slots__", "FIELDS", "PHASES", "STUCK", "PHASE_ACTIONS", "PHASE_STARTS", "TURN_END_TRIGGERS", "TEXT_PREFIX",
    "ENUMS", "NEUTRAL", "TIE_BREAK", "DICE", "_read_options", "_setup", "_prepare", "_enter_phase", "_actor",
    "_legal", "_guard", "_perform", "_turn_end", "_is_over", "score_terms", "_tie_break", "_shown",
    "_hidden_item", "_copy_fields", "_action_text", "_deciding", "_kept_end", "_forget_kept",
    "_budget",  # declared in the class for the native build (runtime/limits.py keeps it)
    "RETURNS", "RETURNS_SUM", "RETURNS_RANGE", "_returns",  # (`returns:`)
    "_kept_shared",  # (pass `drop_in_place`) whether a copy may share the state's dicts of kept values
})
# Every name a state has before the rule file adds its own: the runtime's attributes, methods
# and class constants (read from the class, so that a new one is reserved at once), and the template's.
# (State compiled by mypyc, in the native build, has neither __slots__ nor __annotations__: its
# attributes are all in dir())
STATE_MEMBERS = (frozenset(dir(State)) | frozenset(getattr(State, "__slots__", ()))
                 | frozenset(getattr(State, "__annotations__", {})) | TEMPLATE_MEMBERS)
# The State's public API: its members in lowercase not starting with `_` (`apply`, `clone`, `phase`,
# `board`, `num_seats` ...), the only ones a rule name could take; a field, definition or procedure
# of one of these names is refused by name (check/symbols.py). Every other member starts with `_` and holds
# no `__` join, or is a class constant in capitals (tests/test_hostile_names.py).
STATE_API = frozenset(m for m in STATE_MEMBERS if not m.startswith("_") and m.lower() == m)
# Names the annotations of the state class read (`zqfield: list[int]`, `FIELDS: ClassVar[...]`):
# a member of one of these names would hide it from them there (mypy reads them in the class).
ANNOTATION_NAMES = frozenset({"int", "bool", "str", "list", "tuple", "dict", "frozenset", "object", "rt", "ClassVar",
                              "Sequence", "Any", "Final"})
# The methods and slots made from a rule file's name, by what it names.
MEMBER_TAGS: dict[str, tuple[str, ...]] = {
    # (pass `bind_board_tables`) the slots of an action's tables of the board: its interned actions, as rows of spots or
    # of regions or otherwise, its listings remembered by value, and the rows of its first choice by the key of
    # what it walks (pass `find_rows_by_key`)
    "action": ("do", "legal", "guard", "actions", "spot_rows", "region_rows", "listed", "keyed_rows",
               "keyed_spot_rows", "keyed_region_rows"),
    "phase": ("start",),
    "trigger": ("trigger",),
    "option": ("opt",),
    # the slot of a value kept between moves (compiler/passes/keep_derived.py); of its table of values remembered by
    # value (pass `bind_board_tables`)
    "define": ("d", "values"),
    # `look:`: an action's prompt and move text, an ask's (compiler/check/look.py)
    "look_action": ("prompt", "move"),
    "look_ask": ("ask_prompt", "ask_move"),
}
MEMBER_PATTERNS: dict[str, tuple[str, ...]] = {kind: tuple(joined(tag, "{}") for tag in tags)
                                               for kind, tags in MEMBER_TAGS.items()}
# `base(rent(a))` in a variant's new `rent`: the version it replaced (docs/variants.md). `base` is
# no name a definition, procedure or record may take, and each version used is a method of its
# own: `_base__rent` the version replaced, `_base2__rent` the one that version replaced, and so
# on; a scoring term's, `_term_base__gold` (a scoring term may share a definition's name).
BASE = "base"
BASE_VERSION = {"define": "base{}", "scoring": "term_base{}"}


def base_use(name: str, args: str | None = None) -> str:
    """How `base(...)` is written for `name`: `base(rent(a, b))` with `args` (`...` for any),
    `base(gold)` without."""
    return f"{BASE}({name})" if args is None else f"{BASE}({name}({args}))"


def base_version(section: str, name: str, depth: int) -> str:
    """The method of the version of a definition (`section` "define") or scoring term ("scoring")
    `depth` replacements back: `_base__rent`, `_base2__rent` ..."""
    return joined(BASE_VERSION[section].format(depth if depth > 1 else ""), name)


# The action the runtime plays for a player who has no other, and the choice of option `board`
# that picks the board by the number of players: no action, or board, may take these names.
RUNTIME_ACTIONS = frozenset({PASS})
RUNTIME_BOARDS = frozenset({BY_PLAYERS})

# -- locals -------------------------------------------------------------------------------------
# The two names every method reads unqualified: the state, and the runtime module.
METHOD_NAMES = frozenset({"self", "rt"})
# The locals the template's methods, the lowering and the passes bind themselves: each starts with
# `_` and holds no `__`, so that no rule local (never starting with `_`) and no pass's fresh local
# (`_<local>__<n>`) is one of them, with no list of names to keep a rule file's locals off them.
# `_actions`, `_cache` and `_action` in `_legal__<a>`; `_name`, `_args`, `_action` in `_perform` and
# `_action_text`; `_memo`, `_value`, `_remembered`, `_kept`, `_nested`, `_table` in a definition;
# `_over` in `_is_over`; `_other` in `_copy_fields`; `_` for a loop run for its count.
TEMPLATE_LOCALS = frozenset({
    "_", "_actions", "_action", "_cache", "_name", "_args", "_memo", "_value", "_remembered", "_kept", "_over",
    "_other",
    "_asked",  # `look:` texts: whether the one asked for is an `ask`'s (State._look_prompt, _look_move)
    "_nested",  # a kept definition's values for one region (pass `nest_by_region`)
    # a listing through tables per board (pass `index_actions`): the table, and per choice its row and key
    "_table", *(f"_row{k}" for k in range(1, MAX_TABLE_CHOICES)), *(f"_key{k}" for k in range(MAX_TABLE_CHOICES)),
    # the masks a listing joins once, before its loops (pass `hoist_masks`)
    *(f"_joined{k}" for k in range(MAX_TABLE_CHOICES)),
    # the last choice's spots as a mask, a test kept per row, the actions of the mask (pass `gather_spots`)
    "_spots_mask", "_row_fixed", "_gathered",
    # the rows of a listing's first choice found by the key of its walk (pass `find_rows_by_key`)
    "_rows", "_rows_key", "_found_rows",
    # a listing remembered by value: its table, key and list (pass `remember_listings`)
    "_listed", "_listed_key", "_listed_actions",
    # a region choice made from masks, a kept test's mask among given regions (pass `mask_regions`)
    "_regions_mask", "_regions_stale", "_held_regions", "_in_region", "_row_actions",
    *(f"_kept_regions{k}" for k in range(MAX_TABLE_CHOICES)),
    "_rounds",  # how many rounds a loop whose joins are made at once makes (pass `join_rounds`)
    # a count kept up to date: the region of a spot, each value of a local, the table made again (pass `keep_counts`)
    "_count_at", "_count_spot", "_count_value", "_count_key0", "_count_key1", "_counted",
})
# Locals that start with `_`, so that no rule local can be one of them (no list of names to keep a rule
# file's locals off them): an aggregate written out as a loop, its result, whether an item is the
# first, an item's value, a test kept first and the first item found (pass `aggregate_loops`).
INVENTED_LOCALS = frozenset({"_total", "_most", "_least", "_found", "_every", "_first", "_each", "_cond", "_met"})
# Locals the rule language binds itself, where a rule file's own cannot shadow them; no name the
# rule file declares may take them either (they would hide it there).
IMPLICIT: dict[str, str] = {
    "player": "the player scored in `scoring:` and `tie_break:`, or whose return `returns:` gives",
    "k": "the place of an item in `hide_items_if:`",
    "i": "the number of a component in its attributes",
}
IMPLICIT_LOCALS = frozenset(IMPLICIT)
PYTHON_WORDS = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
# A local of a rule file with one of these names is written with a `_` after it (`len_`, `self_`).
LOCAL_AVOID = PYTHON_WORDS | METHOD_NAMES
# The item of a per-spot field walked by a fused filter (`for s, _item__marker in enumerate(self.marker)`):
# an invented name (a local `self` is `self_`, and so was the item of a field `self` once).
FILTER_LOCAL = joined("item", "{}")


# Locals the optimisation passes bind (compiler/passes/rewrite.py `Names`): a comprehension's
# variable renamed where a definition is inlined, a value bound once. Each is `_<base>__<n>`: the
# rule local or definition it stands for, or `once` (`cell`: pass `hoist_lazily`), and a number,
# which no rule name, nor a fixed invented local (none holds `__`), can be.
PASS_LOCAL_BASE = "once"
PASS_CELL_BASE = "cell"  # (pass `hoist_lazily`) a comprehension's cell for a value computed once


# (pass `bind_reads`) a read of the state or its board bound once to a local: `_read__` joined with
# the names read (`_read__disc`, `_read__board__rays`): rule names after the tag, never a number last,
# so never a `_<base>__<n>` either.
READ_TAG = "read"
# (pass `remember_list_changes`) the locals of a list change found in a table, `_<tag>__<field>`: the
# table, the list before, its row, the list after (a field's name last, never a number: never a
# `_<base>__<n>` either).
CHANGE_TAGS = ("withouts", "sorted_joins", "old", "row", "changed")


def pass_local(name: str, bases: frozenset[str] | set[str]) -> bool:
    """Whether `name` is spelled as the passes spell a local: `_<base>__<n>`, its base one of
    `bases` (the rule set's locals and definitions) or `once` or `cell`; or a read bound once,
    `_read__<name>...` (READ_TAG); or a list change's, `_<tag>__<field>` (CHANGE_TAGS)."""
    head, _, number = name.rpartition(JOIN)
    tag, _, read = name.partition(JOIN)
    if tag == "_" + READ_TAG and read and all(RULE_NAME.fullmatch(part) for part in read.split(JOIN)):
        return True
    if tag[1:] in CHANGE_TAGS and tag.startswith("_") and RULE_NAME.fullmatch(read):
        return True
    return (head.startswith("_") and number.isdigit()
            and (head[1:] in bases or head[1:] in (PASS_LOCAL_BASE, PASS_CELL_BASE)))


def local_name(name: str) -> str:
    """A rule file's local (choice, `let`, loop variable, parameter) as generated code spells it.

    A Python word (keyword or built-in) or a name every method reads (`self`, `rt`) gets a `_`
    after it (`len_`, `self_`), which no rule name ends with: no two names are spelled alike. Every
    other name a method binds starts with `_` (TEMPLATE_LOCALS, INVENTED_LOCALS, pass locals),
    which no rule name does.
    """
    return name + "_" if name in LOCAL_AVOID else name


def const_name(name: str) -> str:
    """A rule file's name as a module constant: `phase_play` -> PHASE_PLAY."""
    return re.sub(r"[^A-Z0-9_]", "_", name.upper())


def member_clash(kind: str, name: str) -> str | None:
    """The member of the state class that an action, phase, trigger or option of this name
    would overwrite, or None."""
    for pattern in MEMBER_PATTERNS.get(kind, ()):
        member = pattern.format(name)
        if member in STATE_MEMBERS:
            return member
    return None


def base_calls(node: object) -> Iterator[ast.Call]:
    """Every `base(...)` in an expression, in the order written (outer ones first)."""
    return (item for item in _nodes(node) if isinstance(item, ast.Call) and item.func == BASE)


def references(node: object) -> Iterator[tuple[str, SourceSpan]]:
    """Every name an expression or a block of effects names or calls (`x`, `f(...)`, an effect
    `p(...)`), with where; walked with a list, not recursion, as expressions nest deeply."""
    for item in _nodes(node):
        if isinstance(item, ast.Name):
            yield item.id, item.span
        elif isinstance(item, ast.Call):
            yield item.func, item.span


def _nodes(node: object) -> Iterator[object]:
    """Every node of an expression or a block of effects, in the order written."""
    todo: list[object] = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, tuple):
            todo.extend(reversed(item))
            continue
        yield item
        if is_dataclass(item) and not isinstance(item, type | SourceSpan):
            todo.extend(reversed([getattr(item, f.name) for f in fields(item) if f.name != "span"]))
