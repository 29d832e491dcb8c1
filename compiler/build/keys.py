"""The words of a rule file: every key a table may hold and every word a value may be.

Read by the builder's modules, by compiler/schema.py (the JSON Schema of a rule file) and by
tests/test_docs.py (each is named in docs/language.md).
"""

from __future__ import annotations

TOP_KEYS = (
    "rulewright", "game", "title", "author", "extends", "incompatible", "family", "players", "roles", "neutral",
    "enums", "components", "setup", "records",
    "options", "boards", "dice", "state", "define", "procedures", "phases", "actions", "triggers",
    "end", "scoring", "winner", "tie_break", "invariants", "drawing",
    "returns", "look",
)
DRAWING_KEYS = ("colours", "icons")
# The colour names a `drawing:` colour may be, beside `#rgb` and `#rrggbb` (api/draw.py draws each).
DRAWING_COLOURS = ("red", "yellow", "green", "blue", "violet", "purple", "orange", "black", "white", "brown",
                   "grey", "gray", "pink", "gold")
# `look:` (compiler/build/look.py, docs/language.md "Look"): its keys, and the words its values may be.
LOOK_KEYS = ("seats", "colours", "symbols", "pieces", "fields", "boards", "prompts", "moves")
LOOK_PIECE_KEYS = ("shape", "colour", "label", "back")
LOOK_FIELD_KEYS = ("as", "title", "by")
LOOK_BOARD_KEYS = ("spots", "labels", "size")
LOOK_SHAPES = ("disc", "square", "card", "hex", "cube", "house", "tower", "pawn", "token", "wall")
LOOK_AS = ("score", "hand", "row", "pile", "counter", "board", "hidden")
# Each colour name as `look:` writes it (`#rrggbb`): the colours api/draw.py gives these names (NAMED_COLOURS).
LOOK_COLOURS = {
    "red": "#e05050", "yellow": "#f2d33c", "green": "#5cb85c", "blue": "#4f86d9", "violet": "#9b6fd0",
    "purple": "#9b6fd0", "orange": "#f0983c", "black": "#333333", "white": "#f8f8f8", "brown": "#a0704a",
    "grey": "#999999", "gray": "#999999", "pink": "#f2a0c0", "gold": "#d4a017",
}


INVARIANT_KEYS = ("holds", "doc", "quote")
OPTION_KEYS = ("doc", "quote", "default", "choices")
BOARD_KEYS = ("hexagon", "ring", "graph", "regions", "borders", "expect", "players", "note", "hexmap", "wall",
              "grid")
GRAPH_KEYS = ("spots", "roads")
HEXMAP_KEYS = ("rows", "legend")
GRID_KEYS = ("rows", "columns", "legend", "connect")
REGION_KEYS = ("spots",)  # and the region's attributes: `Chu: {colour: violet, spots: [...]}`, and its `owner:`
REGION_KIND_KEYS = ("mirror_of", "rename")
EXPECT_KEYS = (
    "spots", "regions", "region_size", "contiguous", "cover_each_spot_once", "no_region_equal", "connected",
    "borders", "borders_match_roads", "attribute_counts", "bordering_differ", "pieces", "regions_per_face",
    "face_size", "largest_wall",
)
FIELD_KEYS = ("per", "type", "values", "init", "visible", "doc", "shown_if", "hide_items_if", "pool",
              "unseen", "range")
PHASE_KEYS = ("start", "actions", "when_stuck", "then", "actor", "simultaneous")
ACTION_KEYS = ("choose", "when", "text", "others_text", "revealed_when", "effect", "doc")
DEFINE_KEYS = ("value", "cached")  # a definition written as a mapping: `{value: "...", cached: true}`
RETURNS_KEYS = ("value", "sum", "range", "doc")  # `returns:` as a mapping: `{value: "...", sum: 0}`
TRIGGER_KEYS = ("after", "at", "when", "effect", "doc")
VISIBILITY = ("all", "owner", "none", "size")
# A field's `unseen:`: how a value a player does not see is drawn again in a sample (runtime/unseen.py):
# exchanged among the unseen entries (the default), or drawn afresh from the field's values (`range:` of an int)
UNSEEN = ("exchange", "redraw")
VISIBLE_TO_KEYS = ("to",)  # `visible: {to: <player over k>}`: entry or item k seen by that player only
WHEN_STUCK = ("pass", "end")  # a phase whose seat has no legal move: the turn passes, or the game ends
TRIGGER_MOMENTS = ("turn_end",)  # a trigger's `at:`
WINNER_RULES = ("highest_score", "lowest_score")


LANGUAGE_VERSION = 1


COMPONENT_KEYS = ("count", "all", "attributes", "doc")
