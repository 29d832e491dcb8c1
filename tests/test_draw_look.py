"""The drawing follows the rule set's `look:` (issue 39; docs/web.md, "The drawing"; docs/language.md, "Look").

Every bundled rule set with a look draws, at its start and after random moves, for a seat and for the
referee, no component id and no engine field name in its text (no `tile62`, no `exhausted`): things
are drawn by their kind's look, fields by their title. The look says how each thing of the games is
drawn (a piece for every kind shown) and how each field is shown (every field named). Drawn from a
look on a small game: shapes, colours by attribute and by owner, labels from symbols, the words a
move uses on each piece (`data-names`), a face-down thing as a back, hands, rows, piles and counters
with their titles, `hidden` fields nowhere, one score per player (at the end the final one with its
terms), positions of spots from the look, region names clear of the spots, a readable wall, the
drawing fitted to its box (`viewBox`, width 100%); `render --png`.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulewright
from rulewright.cli import cli
from rulewright.draw import BoardFacts, board_facts, draw_svg, render_svg, view_of
from rulewright.runtime import State
from tests.helpers.games import GAMES, RULESETS, played

SVG = "{http://www.w3.org/2000/svg}"
LOOKED = [r for r in RULESETS if rulewright.load(r).info.look]
# the games of the rulebooks (their looks are this suite's to check even before they have one); every
# look names every field (a field not named is shown as it is without a look, by its name)
RULEBOOKS = ("chang-cheng", "china-cornett", "china-schacht", "mandarin", "yellow-yangtze")


def texts(svg: str) -> list[str]:
    """What the drawing writes: its text nodes and its tooltips."""
    root = ET.fromstring(svg)
    return [e.text or "" for e in root.iter() if e.tag in (f"{SVG}text", f"{SVG}title")]


def words(svg: str) -> set[str]:
    return {w for t in texts(svg) for w in re.split(r"[^\w]+", t) if w}


def component_ids(state: State) -> set[str]:
    """The ids of the components (not of dice: a die's face is what it shows)."""
    kinds = state.game.info.attributes
    return {label for kind, labels in state.DICE.items() if kind in kinds for label in labels}


def engine_names(state: State) -> set[str]:
    """The field names a drawing with a look must not write: every field the look hides, and every
    field whose title the look words otherwise (its name is then bookkeeping's, not the players')."""
    fields = state.game.info.look.get("fields", {})
    players_words = {w for how in fields.values() for w in how["title"].split()}  # (`peril token`: a word)
    return {name for name, how in fields.items()
            if (how["as"] == "hidden" or how["title"] != name and "_" in name) and name not in players_words}


@pytest.mark.skipif(not LOOKED, reason="no bundled rule set declares a look yet")
@pytest.mark.parametrize("ruleset", LOOKED or ["none"])
def test_a_drawing_with_a_look_writes_no_id_nor_engine_field(ruleset: str) -> None:
    state = rulewright.load(ruleset).new_state(seed=3)
    ids, names = component_ids(state), engine_names(state)
    for position in (state.clone(), played(state.clone(), 30), played(state, 120, seed=11)):
        for seat in (0, None):
            written = words(render_svg(position, seat))
            assert not written & ids, f"{ruleset}: ids {sorted(written & ids)[:5]} drawn"
            assert not written & names, f"{ruleset}: engine fields {sorted(written & names)} drawn"


@pytest.mark.parametrize("ruleset", sorted(set(LOOKED) | {r for r in RULESETS if r.split("/")[0] in RULEBOOKS}))
def test_a_look_names_every_field_and_draws_every_kind_it_shows(ruleset: str) -> None:
    state = rulewright.load(ruleset).new_state(seed=1)
    look = state.game.info.look
    fields = look.get("fields", {})
    assert sorted(f.name for f in state.FIELDS if f.name not in fields) == []
    pieces = set(look.get("pieces", {}))
    records = set(getattr(state, "RECORDS", {}))
    for f in state.FIELDS:
        kind = f.element or f.declared.rsplit("(", 1)[-1].rstrip(")")
        if fields[f.name]["as"] != "hidden" and (kind in state.game.info.attributes or kind in records):
            assert kind in pieces, f"{ruleset}: `{f.name}` shows {kind}s, and the look draws no `{kind}`"


# -- a look on a small game ----------------------------------------------------------------------------------
TILES = """\
rulewright: 1
game: tiles
title: Tiles
players: 2
enums:
  colour: [amber, jade]
components:
  tile: {count: 6, all: tiles, attributes: {colour: "amber if i < 3 else jade", big: "i == 0"}}
records:
  chief: {owner: player, colour: colour}
boards:
  line:
    graph:
      spots: [a, b, c, d]
      roads: [[a, b, c, d]]
    regions:
      side:
        west: {spots: [a, b]}
        east: {spots: [c, d]}
state:
  tile_at: {per: spot, type: "optional(tile)", init: none}
  chief_at: {per: spot, type: "optional(chief)", init: none}
  rack: {per: player, type: list(tile), init: "[]", visible: owner}
  market: {type: list(tile), init: "[]"}
  bag: {type: list(tile), init: "[]", visible: size}
  points: {per: player, type: int, init: "0"}
  by_colour: {per: player, type: list(int), init: "[0, 0]"}
  done_count: {type: int, init: "0"}
setup:
  - bag = tiles
  - rack[players[0]] = [tiles[0], tiles[3]]
  - rack[players[1]] = [tiles[1]]
  - market = [tiles[2], tiles[4]]
phases:
  turn:
    actions: [put]
actions:
  put:
    choose: {s: "[s for s in spots if tile_at[s] == none]"}
    text: "put {s}"
    effect:
      - tile_at[s] = tiles[5]
      - chief_at[s] = chief(owner=current, colour=jade)
      - points[current] = points[current] + 2
      - done_count = done_count + 1
end: "done_count >= 2"
scoring:
  points: "points[player]"
  bonus: "1"
"""

LOOK: dict[str, Any] = {
    "seats": ["#112233", "#445566"],
    "colours": {"amber": "#ffbf00", "jade": "#00a86b"},
    "symbols": {"amber": "Am", "jade": "J"},
    "pieces": {"tile": {"shape": "hex", "colour": "colour", "label": "{colour}{big}", "back": "#333333"},
               "chief": {"shape": "pawn", "colour": "owner", "label": "{colour}"}},
    "fields": {"tile_at": {"as": "board", "title": "tile"}, "chief_at": {"as": "board", "title": "chief"},
               "rack": {"as": "hand", "title": "your tiles"}, "market": {"as": "row", "title": "market"},
               "bag": {"as": "pile", "title": "bag"}, "points": {"as": "score", "title": "points"},
               "by_colour": {"as": "counter", "title": "by colour", "by": "colour"},
               "done_count": {"as": "hidden", "title": "done count"}},
    "boards": {"line": {"spots": {"a": [100, 500], "b": [400, 500], "c": [600, 520], "d": [900, 500]},
                        "labels": {"west": [250, 400]}}},
}


def tiles_game(tmp_path: Path) -> State:
    path = tmp_path / "tiles.yaml"
    path.write_text(TILES, encoding="utf-8")
    return rulewright.load_rules(path).new_state(seed=1)


def looked(state: State, seat: int | None, look: dict[str, Any] | None = None) -> str:
    """`state` drawn for `seat` with LOOK (the components' attributes as GameInfo gives them)."""
    view = dataclasses.replace(view_of(state, seat), look=look if look is not None else LOOK,
                               attributes={"tile": {"colour": ("amber",) * 3 + ("jade",) * 3,
                                                    "big": (True,) + (False,) * 5}})
    return draw_svg(state.board, view, board_facts(state))


def test_pieces_are_drawn_by_their_kind_s_look_never_by_id(tmp_path: Path) -> None:
    state = tiles_game(tmp_path)
    state.apply("put b")
    svg = looked(state, 0)
    root = ET.fromstring(svg)
    assert not {f"tile{i}" for i in range(1, 7)} & words(svg)  # no id written
    spot = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("data-spot") == "b")
    tile, chief = [g for g in spot.iter(f"{SVG}g") if "mark" in g.attrib.get("class", "")]
    assert tile.attrib["data-names"] == "tile6 jade" and chief.attrib["data-names"] == "jade"
    assert tile.find(f"{SVG}polygon").attrib["fill"] == "#00a86b"  # a hex, in its colour's colour
    assert tile.find(f"{SVG}text").text == "J" and tile.find(f"{SVG}title").text == "jade tile"
    assert chief.find(f"{SVG}circle").attrib["fill"] == "#112233"  # a pawn in its owner's seat colour
    hand = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("data-field") == "rack")
    labels = [t.text for t in hand.iter(f"{SVG}text") if t.attrib.get("class") == "marktext"]
    assert labels == ["Am★", "J"]  # tile1 is big: a flag written as a star
    assert [g.attrib["data-names"] for g in hand.iter(f"{SVG}g") if "data-names" in g.attrib] == \
        ["tile1 amber big", "tile4 jade"]


def test_fields_are_shown_as_the_look_says(tmp_path: Path) -> None:
    state = tiles_game(tmp_path)
    state.apply("put a")
    mine, theirs = looked(state, 0), looked(state, 1)
    written = " | ".join(texts(mine))
    assert "your tiles" in written and "market" in written and "bag: 6" in written
    assert "P1 — you — points 2" in written and "P2 — to act — points 0" in written  # the score, beside each seat
    assert "done" not in written and "done_count" not in written  # hidden: nowhere
    assert "by colour: amber 0" in written  # a counter by enumeration: a chip per value, titled
    assert "tile_at" not in written and "rack" not in written
    # the other seat's hand is not drawn for P2, nor anything of it
    assert "tile4" not in " ".join(ET.fromstring(theirs).itertext()) and 'data-names="tile4' not in theirs
    assert 'data-field="rack"' in theirs  # (P2's own)


def test_at_the_end_one_score_per_player_with_its_terms(tmp_path: Path) -> None:
    state = tiles_game(tmp_path)
    state.apply("put a")
    state.apply("put b")
    assert state.is_terminal()
    written = " | ".join(texts(looked(state, None)))
    assert "P1 — score 3" in written and "final score 3 = points 2 + bonus 1" in written
    assert "points 2 |" not in written and "— points" not in written  # never two scores side by side


def test_a_face_down_thing_is_drawn_as_its_back(tmp_path: Path) -> None:
    state = tiles_game(tmp_path)
    view = view_of(state, 0)
    hidden = dataclasses.replace(view, look=LOOK, fields={**view.fields, "market": ["hidden", "tile5"]},
                                 attributes={"tile": {"colour": ("amber",) * 3 + ("jade",) * 3, "big": (False,) * 6}})
    svg = draw_svg(state.board, hidden, board_facts(state))
    row = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.attrib.get("data-field") == "market")
    backs = [g for g in row.iter(f"{SVG}g") if g.attrib.get("class") == "mark back"]
    assert len(backs) == 1 and backs[0].find(f"{SVG}polygon").attrib["fill"] == "#333333"


def test_spots_stand_where_the_look_puts_them_and_names_lie_beside_them(tmp_path: Path) -> None:
    state = tiles_game(tmp_path)
    svg = looked(state, 0)
    root = ET.fromstring(svg)
    centres = {g.attrib["data-spot"]: (float(c.attrib["cx"]), float(c.attrib["cy"]), float(c.attrib["r"]))
               for g in root.iter(f"{SVG}g") if "data-spot" in g.attrib for c in [g.find(f"{SVG}circle")]}
    (ax, ay, _), (bx, _, _), (_, cy, _) = centres["a"], centres["b"], centres["c"]
    assert bx - ax == pytest.approx(300) and cy - ay == pytest.approx(20)  # the look's places, to scale
    names = {g.attrib["data-region"]: g.find(f"{SVG}text").attrib for g in root.iter(f"{SVG}g")
             if "data-region" in g.attrib}
    assert float(names["west"]["x"]) == pytest.approx(ax + 150) and float(names["west"]["y"]) == pytest.approx(ay - 100)
    ex, ey = float(names["east"]["x"]), float(names["east"]["y"])  # computed: clear of every spot
    assert all(abs(ex - x) > r + 10 or abs(ey - 4 - y) > r + 2 for x, y, r in centres.values())
    assert ".regionname text, .label, .facename { pointer-events: none; }" in svg


def test_a_drawing_with_a_look_fits_its_box(tmp_path: Path) -> None:
    root = ET.fromstring(looked(tiles_game(tmp_path), 0))
    assert root.attrib["width"] == "100%" and "height" not in root.attrib
    assert re.fullmatch(r"0 0 \d+ \d+", root.attrib["viewBox"])
    assert root.find(f"{SVG}g[@id='drawing-board']") is not None
    assert root.find(f"{SVG}g[@id='drawing-panels']") is not None
    plain = ET.fromstring(looked(tiles_game(tmp_path), 0, {}))  # no look: as always
    assert plain.attrib["width"] != "100%"


@pytest.mark.skipif("chang-cheng" not in LOOKED, reason="Chang Cheng declares no look yet")
def test_the_great_wall_is_drawn_at_a_readable_size_in_rows_that_fit() -> None:
    state = played(rulewright.load("chang-cheng").new_state(seed=2), 60)
    root = ET.fromstring(render_svg(state, 0))
    width = float(root.attrib["viewBox"].split()[2])
    cells = [g.find(f"{SVG}rect") for g in root.iter(f"{SVG}g") if "data-spot" in g.attrib]
    assert width <= 1_050 and min(float(c.attrib["width"]) for c in cells) >= 34
    assert all(float(c.attrib["x"]) + float(c.attrib["width"]) <= width for c in cells)


def test_hints_without_a_look_draw_as_before() -> None:
    state = rulewright.load_rules(GAMES / "grid-drop.yaml").new_state(seed=1)
    view = view_of(state, 0)
    assert view.look == {}
    svg = draw_svg(state.board, view, BoardFacts({}, None))
    assert 'width="100%"' not in svg


# -- render --png -----------------------------------------------------------------------------------------
def test_render_writes_a_png_of_the_same_drawing(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="`render --png` needs the render extra (cairosvg)")
    import json

    state = played(rulewright.load("china-cornett").new_state(seed=2), 6)
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(state.to_json()))
    png, svg = tmp_path / "board.png", tmp_path / "board.svg"
    result = CliRunner().invoke(cli, ["render", str(saved), "--seat", "1", "--svg", str(svg), "--png", str(png),
                                      "--width", "400"])
    assert result.exit_code == 0, result.output
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(data[16:20], "big") == 400
    assert svg.read_text() == render_svg(state, 0)


def test_render_asks_for_somewhere_to_draw(tmp_path: Path) -> None:
    import json

    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(rulewright.load("china-cornett").new_state(seed=2).to_json()))
    result = CliRunner().invoke(cli, ["render", str(saved)])
    assert result.exit_code != 0 and "--svg FILE, --png FILE" in result.output
    result = CliRunner().invoke(cli, ["render", str(saved), "--svg", str(tmp_path / "x.svg"), "--width", "20"])
    assert result.exit_code != 0 and "give --png FILE too" in result.output
