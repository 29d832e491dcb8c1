"""The names generated code keeps for itself, and how a rule file's names are written in it.

A rule file's names reach a generated module in four places:

- module constants, in capitals: each value of an enumeration (roles, region kinds, option
  choices and the values of a field are enumerations too), each die, `PHASE_<phase>`,
  `<DICE>_FACES` and `<COMPONENT>_<ATTRIBUTE>`; and a function `_board_<board>` per board;
- members of the state class: fields, definitions and procedures under their own names, and
  `opt_<option>`, `_do_<action>`, `_legal_<action>`, `_guard_<action>`, `_start_<phase>` and
  `_trigger_<trigger>`;
- local variables of its methods: choices, `let` values, loop variables and parameters,
  written by `local_name`, which keeps them off every name the method itself uses;
- text only (strings and dictionary keys): enumerations' names, scoring terms, boards, region
  and spot names, neutral seats. Any name is safe there, as far as Python goes.

The tables below list what the runtime and the template already use in each place. A name that
would land on one of them is refused (build.py for constants, check.py for the rest) with a
message that says it is reserved; so are the few the rule language binds itself (`IMPLICIT`).
tests/test_hostile_names.py compiles games and fails when generated code uses a name these
tables do not list.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass

from ..runtime.state import BY_PLAYERS, PASS, State
from . import ast
from .source import SourceSpan

# -- module level -------------------------------------------------------------------------------
# What the template defines or imports at module level, besides the rule file's own names.
MODULE_NAMES = frozenset({"GAME", "ROLE_OF_SEAT", "rt", "Sequence", "Any", "ClassVar", "Final", "annotations"})
PHASE_CONSTANT = "PHASE_{}"
FACES_CONSTANT = "{}_FACES"
TABLE_CONSTANT = "{}_{}"  # a component's attribute: TILE_COLOUR
BOARD_FUNCTION = "_board_{}"
# (pass `component_sets`) the components having each value of an attribute: _TILE_ANIMAL_SETS
COMPONENT_SETS_CONSTANT = "_{}_SETS"

# -- the state class ----------------------------------------------------------------------------
# What the passes keep on a state beside its fields (pass `bitmask`: `_mask_<field>_<value>`):
# a rule file's names never start with `_` (check.py), so no member of a rule file takes one.
KEPT_PREFIX = "_mask_"
# At most this many choices of an action are listed through tables (their locals are reserved below).
MAX_TABLE_CHOICES = 8
# Members the template gives every generated state class (the runtime's State has most already).
TEMPLATE_MEMBERS = frozenset({
    "__slots__", "FIELDS", "PHASES", "STUCK", "PHASE_ACTIONS", "PHASE_STARTS", "TURN_END_TRIGGERS", "TEXT_PREFIX",
    "ENUMS", "NEUTRAL", "TIE_BREAK", "DICE", "_read_options", "_setup", "_prepare", "_enter_phase", "_actor",
    "_legal", "_guard", "_perform", "_turn_end", "_is_over", "score_terms", "_tie_break", "_shown",
    "_hidden_item", "_copy_fields", "_action_text", "_deciding", "_kept_end", "_forget_kept",
    "_budget",  # declared in the class for the native build (runtime/limits.py keeps it)
    "_kept_shared",  # (pass `own_drops`) whether a copy may share the state's dicts of kept values
})
# Every name a state has before the rule file adds its own: the runtime's attributes, methods
# and class constants (read from the class, so that a new one is reserved at once), and the template's.
# (State compiled by mypyc, in the native build, has neither __slots__ nor __annotations__: its
# attributes are all in dir())
STATE_MEMBERS = (frozenset(dir(State)) | frozenset(getattr(State, "__slots__", ()))
                 | frozenset(getattr(State, "__annotations__", {})) | TEMPLATE_MEMBERS)
# Names the annotations of the state class read (`zqfield: list[int]`, `FIELDS: ClassVar[...]`):
# a member of one of these names would hide it from them there (mypy reads them in the class).
ANNOTATION_NAMES = frozenset({"int", "bool", "str", "list", "tuple", "dict", "frozenset", "object", "rt", "ClassVar",
                              "Sequence", "Any", "Final"})
# The methods and slots made from a rule file's name, by what it names.
MEMBER_PATTERNS: dict[str, tuple[str, ...]] = {
    # (pass `board_tables`) the slots of an action's tables of the board: its interned actions, as rows of spots or
    # of regions or otherwise, its listings remembered by value, and the rows of its first choice by the key of
    # what it walks (pass `tabled_rows`)
    "action": ("_do_{}", "_legal_{}", "_guard_{}", "_actions_{}", "_spot_rows_{}", "_region_rows_{}", "_listed_{}",
               "_keyed_rows_{}", "_keyed_spot_rows_{}", "_keyed_region_rows_{}"),
    "phase": ("_start_{}",),
    "trigger": ("_trigger_{}",),
    "option": ("opt_{}",),
    # the slot of a value kept between moves (compiler/passes/derived.py); of its table of values remembered by
    # value (pass `board_tables`)
    "define": ("_d_{}", "_values_{}"),
}
# `base(rent(a))` in a variant's new `rent`: the version it replaced (docs/variants.md). `base` is
# no name a definition, procedure or record may take, and each version used is a method of its
# own: `_base_rent` the version replaced, `_base2_rent` the one that version replaced, and so on;
# a scoring term's, `_term_base_gold` (a scoring term may share a definition's name). No other
# member starts so, and a rule file's names never start with `_` (check.py).
BASE = "base"
BASE_VERSION = {"define": "_base{}_{}", "scoring": "_term_base{}_{}"}


def base_use(name: str, args: str | None = None) -> str:
    """How `base(...)` is written for `name`: `base(rent(a, b))` with `args` (`...` for any),
    `base(gold)` without."""
    return f"{BASE}({name})" if args is None else f"{BASE}({name}({args}))"


def base_version(section: str, name: str, depth: int) -> str:
    """The method of the version of a definition (`section` "define") or scoring term ("scoring")
    `depth` replacements back: `_base_rent`, `_base2_rent` ..."""
    return BASE_VERSION[section].format(depth if depth > 1 else "", name)


# The action the runtime plays for a player who has no other, and the choice of option `board`
# that picks the board by the number of players: no action, or board, may take these names.
RUNTIME_ACTIONS = frozenset({PASS})
RUNTIME_BOARDS = frozenset({BY_PLAYERS})

# -- locals -------------------------------------------------------------------------------------
# Names the template's methods use themselves (`cache`, `actions` and `action` in `_legal_<a>`,
# `name` and `args` in `_action_text`, `memo`, `value`, `remembered` and `kept` in a definition,
# `over` in `_is_over`, `other` in `_copy_fields`, `_` for a loop run for its count) and module
# names lowered code reads.
TEMPLATE_LOCALS = frozenset({
    "self", "actions", "action", "cache", "name", "args", "memo", "value", "remembered", "kept", "over", "other",
    "nested",  # a kept definition's values for one region (pass `nested_drops`)
    "render", "_", "rt", "annotations",
    # a listing through tables per board (pass `action_tables`): the table, and per choice its row and key
    "table", *(f"row{k}" for k in range(1, MAX_TABLE_CHOICES)), *(f"key{k}" for k in range(MAX_TABLE_CHOICES)),
    # the masks a listing joins once, before its loops (pass `listing_hoist`)
    *(f"joined{k}" for k in range(MAX_TABLE_CHOICES)),
    # the last choice's spots as a mask, a test kept per row, the actions of the mask (pass `spot_rows`)
    "spots_mask", "row_fixed", "gathered",
    # the rows of a listing's first choice found by the key of its walk (pass `tabled_rows`)
    "rows", "rows_key", "found_rows",
    # a listing remembered by value: its table, key and list (pass `listing_tables`)
    "listed", "listed_key", "listed_actions",
    # a region choice made from masks, a kept test's mask among given regions (pass `region_masks`)
    "regions_mask", "regions_stale", "held_regions", "in_region", "row_actions",
    *(f"kept_regions{k}" for k in range(MAX_TABLE_CHOICES)),
    "rounds",  # how many rounds a loop whose joins are made at once makes (pass `join_rounds`)
    # an aggregate written out as a loop: its result, whether an item is the first, an item's value
    # (pass `aggregate_loops`)
    "total", "most", "least", "found", "every", "first", "each", "cond",
})
# Locals the rule language binds itself, where a rule file's own cannot shadow them; no name the
# rule file declares may take them either (they would hide it there).
IMPLICIT: dict[str, str] = {
    "player": "the player scored in `scoring:` and `tie_break:`",
    "k": "the place of an item in `hide_items_if:`",
    "i": "the number of a component in its attributes",
}
IMPLICIT_LOCALS = frozenset(IMPLICIT)
PYTHON_WORDS = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
# A local of a rule file with one of these names is written with a `_` after it.
LOCAL_AVOID = PYTHON_WORDS | TEMPLATE_LOCALS
# The item of a per-spot field walked by a fused filter (`for s, marker_ in enumerate(self.marker)`):
# no rule-file local is spelled so, since `marker` is a field and `marker_` itself is `marker__`.
FILTER_LOCAL = "{}_"


# Locals the optimisation passes bind (compiler/passes/rewrite.py `Names`): a comprehension's
# variable renamed where a definition is inlined, a value bound once. Each is spelled as one of
# the rule set's own locals or definitions, or `once`, with a number after it where that name
# is taken, and like no other name of the rule set (so none can hide another).
PASS_LOCAL_BASE = "once"
PASS_CELL_BASE = "cell"  # (pass `lazy_hoist`) a comprehension's cell for a value computed once


def pass_local(name: str, bases: frozenset[str] | set[str]) -> bool:
    """Whether `name` is spelled as the passes spell a local: one of `bases` (the rule set's
    locals and definitions) or `once` (`cell`: pass `lazy_hoist`), and perhaps a number."""
    digits = len(name) - len(name.rstrip("0123456789"))
    return any(name[:len(name) - k] in bases or name[:len(name) - k] in (PASS_LOCAL_BASE, PASS_CELL_BASE)
               for k in range(digits + 1))


def local_name(name: str) -> str:
    """A rule file's local (choice, `let`, loop variable, parameter) as generated code spells it.

    A name the method or Python uses gets a `_` after it, and so does every name that already
    ends in `_`: no two names are spelled alike (`self` is `self_`, `self_` is `self__`), and
    none is spelled like a name the method uses.
    """
    return name + "_" if name in LOCAL_AVOID or name.endswith("_") else name


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
