"""Boards drawn as SVG from board data (api/draw.py) and `rulewright render` (issue 17).

Every bundled rule set's start position and a position in mid-game draw as well-formed SVG with
every spot of the board; every kind of board of the language draws (a hexagon, hex maps of any
outline, a graph board, a ring, a growing wall); a seat's drawing is made from its observation
only: changing what the seat may not see leaves the drawing byte for byte as it was; text from
a state is escaped; the drawing is the same every time.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulewright
from rulewright.cli import cli
from rulewright.draw import (
    GRID_SHADES,
    REGION_FILLS,
    BoardFacts,
    View,
    _spot_fill,
    action_spots,
    draw_svg,
    graph_positions,
    render_svg,
    view_of,
)
from rulewright.runtime import GridBoard
from tests.helpers.games import GAMES, RULESETS, played
from tests.helpers.hidden import perturbations

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def drawn_spots(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    return [g.attrib["data-spot"] for g in root.iter(f"{SVG}g") if "data-spot" in g.attrib]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_rule_set_draws_its_start_and_a_mid_game_position_with_every_spot(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    state = game.new_state(seed=3)
    labels = sorted(state.board.labels)
    for position in (state.clone(), played(state, 25)):
        for seat in (0, None):
            spots = drawn_spots(render_svg(position, seat))
            assert sorted(spots) == labels


@pytest.mark.parametrize("name, kind", [("river-map.yaml", "hex map"), ("ring-race.yaml", "ring"),
                                        ("growing-wall.yaml", "wall"), ("road-network.yaml", "graph"),
                                        ("border-post.yaml", "graph"), ("grid-drop.yaml", "grid")])
def test_every_kind_of_board_draws(name: str, kind: str) -> None:
    game = rulewright.load_rules(GAMES / name)
    state = played(game.new_state(seed=1), 12)
    svg = render_svg(state, 0)
    assert sorted(drawn_spots(svg)) == sorted(state.board.labels), kind
    for region in state.board.region_names:
        assert f'data-region="{region}"' in svg or not state.board.region_spots, region


def test_a_hexagon_is_drawn_with_its_regions_filled_and_outlined() -> None:
    state = rulewright.load("china-cornett").new_state(seed=1)
    svg = render_svg(state, 0)
    assert svg.count("<polygon") == 91
    assert REGION_FILLS[0] in svg
    assert 'class="edge1"' in svg and 'class="edge2"' in svg  # mountains and rivers outlined


def test_a_grid_is_drawn_as_a_chess_board_with_its_holes_left_out() -> None:
    state = rulewright.load_rules(GAMES / "grid-drop.yaml").new_state(seed=1)
    root = ET.fromstring(render_svg(state, 0))
    cells = {g.attrib["data-spot"]: g.find(f"{SVG}rect").attrib  # (every spot is one rect)
             for g in root.iter(f"{SVG}g") if "data-spot" in g.attrib}
    assert len(cells) == 19 and "d3" not in cells  # 5 x 4, less the hole at d3
    x, y = ({k: float(a[axis]) for k, a in cells.items()} for axis in ("x", "y"))
    assert x["a1"] == x["a4"] < x["b1"] < x["e1"] and y["a4"] < y["a3"] < y["a1"] == y["e1"]  # a1 bottom-left
    assert float(cells["a1"]["width"]) == float(cells["a1"]["height"])  # square cells
    plain = GridBoard("g", 2, 2, (), "orthogonal", (), ())  # no regions: light and dark cells, a1 dark
    assert [_spot_fill(plain, s, {}) for s in plain.spots] == [GRID_SHADES[1], GRID_SHADES[0], GRID_SHADES[0],
                                                               GRID_SHADES[1]]
    shown = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "facename"]
    assert sorted(set(shown)) == ["1", "2", "3", "4", "a", "b", "c", "d", "e"]  # rows and columns named


def test_a_graph_board_is_laid_out_the_same_every_time_with_its_roads() -> None:
    board = rulewright.load("china-schacht").new_state(players=3, seed=1).board
    first = graph_positions(board)
    assert graph_positions(board) == first
    assert len(set(first)) == len(first)  # no two spots on one place
    state = rulewright.load_rules(GAMES / "road-network.yaml").new_state(seed=1)  # (a board the look places not)
    svg = render_svg(state, 0)
    roads = sum(len(n) for n in state.board.neighbours) // 2
    assert svg.count('class="road"') == roads
    assert "laid out by their roads" in svg  # the drawing says its places are made up


def test_a_wall_draws_the_faces_laid_in_order_and_the_others_faded() -> None:
    state = played(rulewright.load("chang-cheng").new_state(seed=2), 30)
    layout = state.observation(0)["fields"]["layout"]
    svg = render_svg(state, 0)
    where = [svg.index(f">{face.replace('_', ' ')}<") for face in layout]  # (the look names faces in words)
    assert where == sorted(where)
    assert 'class="spot unlaid"' in svg


def test_pieces_by_owner_counters_and_backs_are_drawn_from_fields() -> None:
    state = played(rulewright.load("china-schacht").new_state(players=3, seed=1), 20)
    svg = render_svg(state, 0)
    palaces = sum(len(v) for v in state.observation(0)["fields"]["palace_of"].values())
    assert palaces > 0
    assert svg.count("<title>palace of: P") == palaces  # one piece per palace, in its owner's colour
    deck = state.observation(0)["fields"]["deck"]
    assert f"draw pile: {deck}</text>" in svg  # a face-down pile shows how many


@pytest.mark.parametrize("ruleset", ["mandarin", "china-schacht", "yellow-yangtze", "chang-cheng"])
def test_a_seat_s_drawing_never_shows_what_it_may_not_see(ruleset: str) -> None:
    """Changing anything a seat may not see (tests/helpers/hidden.py's perturbations) leaves its
    drawing byte for byte as it was; a change it sees shows (so the test has teeth)."""
    game = rulewright.load(ruleset)
    state = played(game.new_state(seed=4), 30, seed=9)
    hidden = seen = 0
    for seat in range(state.num_players):
        before = render_svg(state, seat)
        for what, changed, sees in perturbations(state, seat):
            if changed.observation(seat) == state.observation(seat) and sees:
                continue  # (a change that moves nothing shown)
            after = render_svg(changed, seat)
            if sees:
                seen += after != before
            else:
                assert after == before, f"{ruleset}: P{seat + 1}'s drawing shows {what}, which he may not see"
                hidden += 1
    assert hidden > 0 and seen > 0


def test_other_seats_hidden_values_are_absent_from_a_seat_s_drawing() -> None:
    state = played(rulewright.load("yellow-yangtze").new_state(seed=1), 6)
    rack = state.observation(1)["fields"]["rack"][1]
    svg = render_svg(state, 0)
    mine = render_svg(state, 1)

    def hand(svg: str, seat: int) -> list[str]:  # the tiles drawn in a seat's hand, by the words moves use
        area = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.attrib.get("id") == f"drawing-player-{seat}")
        return [g.attrib["data-names"].split()[0] for g in area.iter(f"{SVG}g") if "data-names" in g.attrib
                and g.attrib["data-names"].startswith("tile")]

    assert hand(mine, 2) == rack and hand(svg, 2) == []
    assert not any(f'data-names="{tile} ' in svg for tile in rack)
    assert hand(render_svg(state, None), 2) == rack  # the referee sees all


def test_text_from_a_state_is_escaped() -> None:
    state = rulewright.load("china-cornett").new_state(seed=1)
    view = view_of(state, 0)
    hostile = View(**{**view.__dict__, "title": "<script>alert(1)</script>",
                      "fields": {**view.fields, "tablets": ["<b>&"]}})
    svg = draw_svg(state.board, hostile, BoardFacts({}, None))
    root = ET.fromstring(svg)
    assert not any(e.tag.endswith("script") for e in root.iter())
    assert "&lt;script&gt;" in svg and "&lt;b&gt;&amp;" in svg


def test_the_drawing_is_the_same_every_time() -> None:
    for ruleset in ("china-schacht", "yellow-yangtze"):
        a = played(rulewright.load(ruleset).new_state(seed=7), 15)
        b = played(rulewright.load(ruleset).new_state(seed=7), 15)
        assert render_svg(a, 0) == render_svg(b, 0)


def test_action_spots_finds_the_spots_an_action_names() -> None:
    state = rulewright.load("china-cornett").new_state(seed=1)
    found = action_spots(state, ["prospect A1-A2", "turn back", "prospect B1-A1"])
    assert found == {"A1": ["prospect A1-A2", "prospect B1-A1"], "A2": ["prospect A1-A2"],
                     "B1": ["prospect B1-A1"]}


# -- rulewright render -------------------------------------------------------------------------------
def test_render_draws_a_saved_state_and_a_log_at_a_move(tmp_path: Path) -> None:
    state = played(rulewright.load("china-cornett").new_state(seed=2), 6)
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(state.to_json()))
    runner = CliRunner()
    out = tmp_path / "s.svg"
    result = runner.invoke(cli, ["render", str(saved), "--svg", str(out), "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert out.read_text() == render_svg(state, 0)
    log = tmp_path / "game.jsonl"
    result = runner.invoke(cli, ["simulate", "china-cornett", "-n", "1", "--seed", "4", "--log", str(log)])
    assert result.exit_code == 0, result.output
    header = json.loads(log.read_text().splitlines()[0])
    replayed = rulewright.load("china-cornett").new_state(header["players"], header["seed"], header["options"])
    for line in log.read_text().splitlines()[1:4]:
        replayed.apply(json.loads(line)["action"])
    result = runner.invoke(cli, ["render", str(log), "--move", "3", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == render_svg(replayed, None)  # the referee's, by default


@pytest.mark.parametrize("args, message", [
    (["--seat", "7"], "no seat `7`: the seats are 1 to 2, or referee"),
    (["--move", "3"], "--move is for a log"),
])
def test_render_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(rulewright.load("china-cornett").new_state(seed=2).to_json()))
    result = CliRunner().invoke(cli, ["render", str(saved), "--svg", str(tmp_path / "x.svg"), *args])
    assert result.exit_code != 0
    assert message in result.output and "Traceback" not in result.output


def test_render_refuses_a_file_that_is_no_state_nor_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"ruleset": "china-cornett", "fields": {}}')
    result = CliRunner().invoke(cli, ["render", str(bad), "--svg", str(tmp_path / "x.svg")])
    assert result.exit_code == 1 and "saved state" in result.output
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n")
    result = CliRunner().invoke(cli, ["render", str(garbage), "--svg", str(tmp_path / "x.svg")])
    assert result.exit_code == 1 and "not a JSON line" in result.output


def test_the_readme_shows_one_picture_per_bundled_game_drawn_by_render() -> None:
    readme = (ROOT / "README.md").read_text()
    games = sorted({r.split("/")[0] for r in RULESETS})
    for game in games:
        picture = ROOT / "docs" / "images" / f"{game}.svg"
        assert f"](docs/images/{game}.svg)" in readme, game
        svg = picture.read_text()
        assert sorted(drawn_spots(svg)) == sorted(rulewright.load(game).new_state(seed=2).board.labels)
        assert "seen by P1" in svg and picture.stat().st_size < 120_000


# -- presentation hints (`drawing:`) ----------------------------------------------------------------
HINTED = """\
rulewright: 1
game: hinted
title: Hinted
players: 2
enums:
  mark: [blank, cross, nought]
components:
  stone: {count: 4, all: stones}
drawing:
  colours: {cross: "#ff0000", nought: gold}
  icons: {stone: "◆"}
boards:
  tiny:
    hexagon: 2
state:
  at: {per: spot, type: mark, init: blank}
  stone_at: {per: spot, type: "optional(stone)", init: none}
phases:
  turn:
    actions: [put]
actions:
  put:
    choose: {s: "[s for s in spots if at[s] == blank]"}
    text: "put {s}"
    effect:
      - at[s] = cross
      - stone_at[s] = stones[1]
end: "all(at[s] != blank for s in spots)"
scoring:
  marks: "0"
"""


def test_a_rule_file_s_hints_colour_values_and_mark_components(tmp_path: Path) -> None:
    path = tmp_path / "hinted.yaml"
    path.write_text(HINTED, encoding="utf-8")
    game = rulewright.load_rules(path)
    assert game.info.drawing == {"colours": {"cross": "#ff0000", "nought": "gold"}, "icons": {"stone": "◆"}}
    state = game.new_state(seed=1)
    state.apply(state.legal_actions()[0])
    svg = render_svg(state, 0)
    assert 'fill="#ff0000"' in svg  # the cross, in its colour
    assert ">◆2</text>" in svg  # the stone, by its icon and number
    variant = tmp_path / "greener.yaml"
    variant.write_text("rulewright: 1\nextends: hinted.yaml\ndrawing:\n  colours: {cross: green}\n", encoding="utf-8")
    assert rulewright.load_rules(variant).info.drawing["colours"] == {"cross": "green", "nought": "gold"}
    plain = rulewright.load("china-schacht").new_state(players=3, seed=1).game.info
    assert plain.drawing == {}  # none is needed


@pytest.mark.parametrize("hints, message", [
    ("colours: {crosss: red}", "`drawing: colours:` names `crosss`, which is no value of the rule set"),
    ("colours: {cross: \"red; fill: url(x)\"}", "is not a colour"),
    ("icons: {stone: abc}", "the icon of `stone` must be one or two characters"),
    ("icons: {stones: x}", "`drawing: icons:` names `stones`, which is no component or dice kind"),
    ("shapes: {cross: star}", "unknown key `shapes` in `drawing:`"),
])
def test_bad_hints_are_errors_at_their_line(tmp_path: Path, hints: str, message: str) -> None:
    from rulewright.core.source import CompileError

    bad = HINTED.replace('  colours: {cross: "#ff0000", nought: gold}\n  icons: {stone: "◆"}\n', f"  {hints}\n")
    path = tmp_path / "bad.yaml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(CompileError) as caught:
        rulewright.load_rules(path)
    assert any(message in d.message and d.span.line == 10 for d in caught.value.diagnostics), caught.value.diagnostics


def test_the_colour_names_the_compiler_accepts_are_the_drawing_s() -> None:
    from rulewright.compiler.build.keys import DRAWING_COLOURS
    from rulewright.draw import NAMED_COLOURS

    assert set(DRAWING_COLOURS) == set(NAMED_COLOURS)
