"""JSON Schemas (draft 2020-12) of rule files and scenario files, for editors.

The keys come from the very tables the checker reads (`keys.TOP_KEYS`, `keys.ACTION_KEYS`,
..., `core/scenario_keys.FILE_KEYS`, ...): this module adds only the *type* of each key, in
`RULE_TYPES` and `SCENARIO_TYPES`, and `rule_schema()` refuses to build a schema while a key of
a table has no type here or a type names a key the table does not have (`SchemaDrift`), so a
key added to the checker and forgotten here fails the suite (tests/test_schema.py), never
silently.

A schema describes the *shape* a file may have, as an editor can check it while one types:
which keys a mapping may hold and what kind of value each takes. Whether an expression means
something, or a name is declared, is the checker's (`rulewright check`). Since a variant may
remove anything with `~` and patch a list with `key+:` / `key-:` (compiler/merge.py), every
value may also be null, and every key of a known mapping may be written with `+` or `-` after
it and a list as value.
"""

from __future__ import annotations

import re
from typing import Any

from . import resolve
from .build import keys
from .build.reader import SIGNATURE

Schema = dict[str, Any]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
RULES_ID = "https://rulewright.invalid/schema/rules.json"
SCENARIOS_ID = "https://rulewright.invalid/schema/scenarios.json"


class SchemaDrift(Exception):
    """A key of a checker's table without a type here, or a type for a key no table has."""


# What a scalar written in YAML can be; an expression is text (or a plain number or truth value).
_TEXT: Schema = {"type": "string"}
_INT: Schema = {"type": "integer"}
_BOOL: Schema = {"type": "boolean"}
_EXPR: Schema = {"type": ["string", "integer", "number", "boolean"], "description": "an expression"}
_SCALAR: Schema = {"type": ["string", "integer", "number", "boolean"]}
_MAP: Schema = {"type": "object"}
_LIST: Schema = {"type": "array"}
_NAMES: Schema = {"type": "array", "items": {"type": ["string", "integer"]}}
_EFFECT: Schema = {"type": ["array", "string"], "description": "an effect: a list of statements"}
_NAME_PATTERN = r"^[a-z_][a-z0-9_]*$"
_SIGNATURE_PATTERN = SIGNATURE.pattern  # a definition or procedure: `name(p: type, ...)`


def _nullable(s: Schema) -> Schema:
    """`s`, or `~` (a variant's removal, or an empty section)."""
    return {"anyOf": [s, {"type": "null"}]}


def _either(*schemas: Schema) -> Schema:
    return {"anyOf": list(schemas)}


def _strict(table: tuple[str, ...], types: dict[str, Schema], what: str, doc: str | None = None,
            variant: bool = True) -> Schema:
    """A mapping of exactly the keys of `table` (the checker's), each of the type in `types`;
    in a rule file (`variant`), a value may be `~` and `key+` / `key-` patch a list
    (compiler/merge.py)."""
    missing = [k for k in table if k not in types]
    extra = [k for k in types if k not in table]
    if missing or extra:
        raise SchemaDrift(f"{what}: keys without a type in compiler/schema.py: {missing}; types for keys the "
                          f"checker does not know: {extra}")
    out: Schema = {
        "type": "object",
        "properties": {k: _nullable(types[k]) if variant else types[k] for k in table},
        "additionalProperties": False,
    }
    if variant:
        out["patternProperties"] = {"^(" + "|".join(re.escape(k) for k in table) + ")[+-]$": _LIST}
    if doc:
        out["description"] = doc
    return out


def _named(entry: Schema, what: str, names: str = _NAME_PATTERN) -> Schema:
    """A section of named entries (`actions:`, `options:` ...): name -> entry, or `~`."""
    return {"type": "object", "description": what, "propertyNames": {"pattern": names},
            "additionalProperties": _nullable(entry)}


# One line on each top-level key, as docs/language.md's table "Top-level keys" says it (the
# suite checks they are the same): an editor shows it on hover and in completion.
TOP_DOCS: dict[str, str] = {
    "rulewright": "the language version: `1` (a file for another version is refused, not read "
                  "wrongly)",
    "game": "the id, lowercase with `-`: `china-cornett`",
    "title": "shown by `rulewright list` and in generated code",
    "author": "shown by `rulewright list` and in generated code",
    "extends": "a rule set id (`china-cornett`, `mandarin/money`), a path ending `.yaml`, or a list "
               "of them",
    "incompatible": "rule set ids or paths this variant cannot be used with (docs/variants.md)",
    "family": "`{name: event-cards, at_most: 2}`: this variant is one of a family of which at most 2 "
              "may be used together; `{name: event-cards, draws: 2}`: this file's rules put at most 2"
              " of the members it stacks in play (docs/variants.md, \"Families of variants\")",
    "players": "a number, or `[min, max]`",
    "neutral": "seats after the players that own pieces but never take a turn nor win: `[emperor]`; "
               "each name is a value of type `player`",
    "roles": "one name per seat, in seat order (`[mountains, rivers]`); `role(p)` gives a seat's role",
    "enums": "named sets of values: `{animal: [rat, ox, tiger]}`; the name also stands for the list "
             "of all its values",
    "options": "named readings and settings: `doc`, `quote` (the rulebook sentence), `default`, "
               "`choices`",
    "boards": "one or more boards; with several, an option `board` chooses; left out, the game has no board "
              "(dice, cards, bids: see Boards)",
    "dice": "kinds of dice, each a mapping of die name to its faces",
    "components": "numbered pieces with constant attributes: `tile: {count: 72, all: tiles, "
                  "attributes: {animal: \"animal[i // 6]\", emperor: \"i % 6 == 0\"}}`; `t.animal` reads "
                  "one",
    "records": "kinds of values made of named fields: `leader: {owner: player, colour: colour, at: "
               "spot}` (see Records and optional values)",
    "state": "the fields of a game state",
    "define": "named values computed from the state: `name: expr` or `\"name(p: player)\": expr`; "
              "`name: {value: expr, cached: true}` computes one once per state (see Derived values); "
              "a variant's new one may use the one it replaces, `2 * base(name(p))` (see Expressions)",
    "setup": "effects run once before the first turn, after every field has its `init` (chance "
             "allowed: shuffle, deal)",
    "procedures": "named effects with parameters: `\"collect(p: player, sector: region)\": [effects]`",
    "phases": "the turn structure: each phase's `start` effects, `actions`, `when_stuck`, `then`, "
              "`actor`, `simultaneous`",
    "actions": "what a player may do: `choose`, `when`, `text` (and `others_text`, `revealed_when`), `effect`",
    "triggers": "effects that run `after: [actions]` or `at: turn_end`, if `when` holds",
    "end": "the condition that ends the game",
    "scoring": "named terms added up per player (the variable `player` is the seat scored); a variant's "
               "new term may use the one it replaces, `2 * base(name)`",
    "winner": "`highest_score` (default) or `lowest_score`; a tie makes several winners",
    "tie_break": "an int over `player`: among players tied on score, those with the highest value "
                 "win; or a list of ints, compared item by item (the first that differs decides): "
                 "`\"sorted(points[player])\"`",
    "invariants": "named conditions every position holds, as the rulebook states them: `name: "
                  "\"condition\"` or `name: {holds: \"condition\", doc: ..., quote: ...}`; each a bool "
                  "that reads the game and draws no chance, checked on scenario positions and by "
                  "`simulate --check-invariants` (docs/scenarios.md, \"Invariants\")",
    "drawing": "presentation hints for `render` and the web board (docs/web.md): `colours:` a colour "
               "per value (`{gold_side: gold}`, `#rrggbb`), `icons:` one or two characters per "
               "component or dice kind (`{tile: \"▦\"}`); none is needed to draw a rule set",
    "look": "how the game looks in `render` and the web board: seat colours, pieces, which fields are shown "
            "as what, board positions, prompts and move texts (see Look); a file has `look:` or `drawing:`",
    "returns": "each seat's return once the game is over, an int over `player` (chips won or lost, "
               "points, 1/-1/0): `\"chips[player] - 10\"`, or `{value: ..., sum: 0, range: [-13, 13]}` "
               "(every game's returns add up to `sum`, each within `range`, checked at the end); the "
               "winners are then the seats of the highest return, none in a draw (see Returns)",
}


# The type of every key of every table the checker reads (compiler/build/keys.py).
RULE_TYPES: dict[str, dict[str, Schema]] = {
    "INVARIANT_KEYS": {"holds": _EXPR, "doc": _TEXT, "quote": _TEXT},
    "OPTION_KEYS": {"doc": _TEXT, "quote": _TEXT, "default": _SCALAR, "choices": {"type": "array", "items": _SCALAR}},
    "GRAPH_KEYS": {"spots": _either(_LIST, _MAP), "roads": _either(_LIST, _MAP)},
    "HEXMAP_KEYS": {"rows": _either(_LIST, _TEXT), "legend": _MAP},
    "GRID_KEYS": {"rows": _either(_INT, _LIST, _TEXT), "columns": _INT, "legend": _MAP,
                  "connect": {"enum": ["orthogonal", "all", "hex"]}},
    "REGION_KIND_KEYS": {"mirror_of": _TEXT, "rename": _MAP},
    "EXPECT_KEYS": {k: _either(_SCALAR, _LIST, _MAP) for k in keys.EXPECT_KEYS},
    "VISIBLE_TO_KEYS": {"to": _EXPR},
    "FAMILY_KEYS": {"name": _TEXT, "at_most": _INT, "draws": _INT, "doc": _TEXT, "quote": _TEXT},
    "FIELD_KEYS": {"per": _TEXT, "type": _TEXT, "values": _either(_LIST, _TEXT), "init": _either(_SCALAR, _LIST, _MAP),
                   "visible": {"enum": list(keys.VISIBILITY)}, "doc": _TEXT, "shown_if": _EXPR,
                   "hide_items_if": _EXPR, "pool": _TEXT, "unseen": {"enum": list(keys.UNSEEN)},
                   "range": {"type": "array", "items": _INT, "minItems": 2, "maxItems": 2}},
    "PHASE_KEYS": {"start": _EFFECT, "actions": _NAMES, "when_stuck": {"enum": list(keys.WHEN_STUCK)}, "then": _TEXT,
                   "actor": _EXPR, "simultaneous": _EXPR},
    "ACTION_KEYS": {"choose": _MAP, "when": _EXPR, "text": _TEXT, "others_text": _TEXT, "revealed_when": _EXPR,
                    "effect": _EFFECT, "doc": _TEXT},
    "DEFINE_KEYS": {"value": _EXPR, "cached": _BOOL},
    "RETURNS_KEYS": {"value": _EXPR, "sum": _INT, "range": {"type": "array", "items": _INT, "minItems": 2,
                                                             "maxItems": 2}, "doc": _TEXT},
    "TRIGGER_KEYS": {"after": _NAMES, "at": {"enum": list(keys.TRIGGER_MOMENTS)}, "when": _EXPR, "effect": _EFFECT,
                     "doc": _TEXT},
    "COMPONENT_KEYS": {"count": _INT, "all": _TEXT, "attributes": _MAP, "doc": _TEXT},
    "DRAWING_KEYS": {"colours": _MAP, "icons": _MAP},
    "LOOK_PIECE_KEYS": {"shape": {"enum": list(keys.LOOK_SHAPES)}, "colour": _TEXT, "label": _TEXT, "back": _TEXT},
    "LOOK_FIELD_KEYS": {"as": {"enum": list(keys.LOOK_AS)}, "title": _TEXT, "by": _TEXT},
    "LOOK_BOARD_KEYS": {"spots": _MAP, "labels": _MAP, "size": {"type": "number"}},
}


def _table(name: str) -> tuple[str, ...]:
    """The checker's table `name` (compiler/build/keys.py, or compiler/resolve.py for `family:`)."""
    table: tuple[str, ...] = getattr(resolve if name == "FAMILY_KEYS" else keys, name)
    return table


def _rule_parts() -> dict[str, Schema]:
    part = {name: _strict(_table(name), types, name) for name, types in RULE_TYPES.items()}
    family = part["FAMILY_KEYS"]
    field = part["FIELD_KEYS"]
    field["properties"]["visible"] = _nullable(_either(field["properties"]["visible"]["anyOf"][0],
                                                       part["VISIBLE_TO_KEYS"]))
    spots: Schema = {"type": "array", "items": _SCALAR}
    # A region: its spots, or `{spots: [...], colour: violet, ...}` (its attributes beside them).
    region = _either(spots, {"type": "object", "required": list(keys.REGION_KEYS),
                             "properties": {k: spots for k in keys.REGION_KEYS},
                             "additionalProperties": _SCALAR})
    mirror = part["REGION_KIND_KEYS"] | {"required": ["mirror_of"]}
    region_kind = _either(mirror, _named(region, "regions: name -> spots", r"^.+$"))
    board_types: dict[str, Schema] = {
        "hexagon": _INT, "ring": _INT, "graph": part["GRAPH_KEYS"], "regions": _named(region_kind, "region kinds"),
        "borders": _MAP,
        "expect": part["EXPECT_KEYS"], "players": _either(_INT, _LIST), "note": _TEXT, "hexmap": part["HEXMAP_KEYS"],
        "wall": _either(_MAP, _LIST),
        "grid": part["GRID_KEYS"],
    }
    board = _strict(keys.BOARD_KEYS, board_types, "BOARD_KEYS")
    place: Schema = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
    look_board = part["LOOK_BOARD_KEYS"]
    for key in ("spots", "labels"):
        look_board["properties"][key] = _nullable({"type": "object", "additionalProperties": _nullable(place)})
    look_types: dict[str, Schema] = {
        "seats": {"type": "array", "items": _TEXT, "description": "a colour per seat, the first seat's first"},
        "colours": _named(_TEXT, "a colour per value of an enumeration"),
        "symbols": _named(_TEXT, "a symbol of 1 to 3 characters per value of an enumeration or role"),
        "pieces": _named(part["LOOK_PIECE_KEYS"], "how each kind of thing is drawn, by kind"),
        "fields": _named(_either({"enum": list(keys.LOOK_AS)}, part["LOOK_FIELD_KEYS"]),
                         "how each state field is shown, by field"),
        "boards": _named(look_board, "where a board's spots are drawn and its regions' names written"),
        "prompts": _named(_TEXT, "the status bar's words for each decision, by action or ask"),
        "moves": _named(_TEXT, "a friendlier text for a move, by action or ask"),
    }
    look = _strict(keys.LOOK_KEYS, look_types, "LOOK_KEYS")
    top_types: dict[str, Schema] = {
        "rulewright": {"const": keys.LANGUAGE_VERSION, "description": "the language version"},
        "game": _TEXT, "title": _TEXT, "author": _TEXT,
        "extends": _either(_TEXT, {"type": "array", "items": _TEXT}),
        "incompatible": {"type": "array", "items": _TEXT},
        "family": _either(family, {"type": "array", "items": family}),
        "players": _either(_INT, {"type": "array", "items": _INT}),
        "roles": _NAMES, "neutral": _NAMES,
        "enums": _named(_NAMES, "enumerations: name -> its values"),
        "components": _named(part["COMPONENT_KEYS"], "components"),
        "setup": _EFFECT,
        "records": _named(_named(_TEXT, "a record's fields: name -> type"), "records"),
        "options": _named(part["OPTION_KEYS"], "options"),
        "boards": _named(board, "boards"),
        "dice": _named(_MAP, "dice kinds"),
        "state": _named(_either(field, _TEXT), "state fields"),
        "define": _named(_either(_EXPR, part["DEFINE_KEYS"]), "definitions: `name(param: type, ...)` -> expression",
                         _SIGNATURE_PATTERN),
        "procedures": _named(_EFFECT, "procedures: `name(param: type, ...)` -> effect", _SIGNATURE_PATTERN),
        "phases": _named(part["PHASE_KEYS"], "phases"),
        "actions": _named(part["ACTION_KEYS"], "actions"),
        "triggers": _named(part["TRIGGER_KEYS"], "triggers"),
        "end": _EXPR,
        "scoring": _named(_EXPR, "scoring terms: name -> expression"),
        "winner": {"enum": list(keys.WINNER_RULES)},
        "tie_break": _EXPR,
        "invariants": _named(_either(_EXPR, part["INVARIANT_KEYS"]), "invariants"),
        "drawing": part["DRAWING_KEYS"],
        "look": look,
        "returns": _either(_EXPR, part["RETURNS_KEYS"]),
    }
    top = _strict(keys.TOP_KEYS, top_types, "TOP_KEYS", "a rulewright rule file (docs/language.md)")
    for key, doc in TOP_DOCS.items():
        top["properties"][key]["description"] = doc
    return {"top": top}


def rule_schema() -> Schema:
    """The JSON Schema of a rule file (rules/<game>/<variant>.yaml)."""
    top = _rule_parts()["top"]
    # A rule set names its game; a variant names what it extends (and may name no game).
    needs = {"anyOf": [{"required": ["game"]}, {"required": ["extends"]}]}
    return {"$schema": DIALECT, "$id": RULES_ID, "title": "rulewright rule file", **top, **needs}


def scenario_schema() -> Schema:
    """The JSON Schema of a scenario file (docs/scenarios.md), from core/scenario_keys.py's tables."""
    from ..core.scenario_keys import DISTRIBUTION_KEYS, EXPECT_KEYS, FILE_KEYS, SCENARIO_KEYS

    options: Schema = {"type": "object", "additionalProperties": _SCALAR}
    common: dict[str, Schema] = {
        "ruleset": _TEXT, "options": options, "players": _INT, "seed": _INT,
        "names": {"type": "array", "items": _TEXT},
    }
    distribution = _strict(DISTRIBUTION_KEYS, {"of": _TEXT, "runs": _INT, "values": _either(_MAP, _LIST),
                                               "significance": {"type": "number"}}, "DISTRIBUTION_KEYS", variant=False)
    expect_types: dict[str, Schema] = {k: _either(_SCALAR, _LIST, _MAP) for k in EXPECT_KEYS}
    expect_types.update({"terminal": _BOOL, "to_act": _nullable(_SCALAR),
                         "distribution": _either(distribution, {"type": "array", "items": distribution})})
    expect = _strict(EXPECT_KEYS, expect_types, "EXPECT_KEYS", variant=False)
    scenario = _strict(SCENARIO_KEYS, {**common, "doc": _TEXT, "position": _MAP, "steps": _LIST,
                                       "expect": _either(expect, {"type": "array", "items": expect})},
                       "SCENARIO_KEYS", variant=False)
    file_types = {**common, "scenarios": {"type": "object", "additionalProperties": scenario}}
    top = _strict(FILE_KEYS, file_types, "FILE_KEYS", "a rulewright scenario file (docs/scenarios.md)",
                  variant=False)
    return {"$schema": DIALECT, "$id": SCENARIOS_ID, "title": "rulewright scenario file", **top}
