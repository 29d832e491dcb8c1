"""The hex map (a board of any outline drawn as rows of text, with cell attributes) and the
wall that grows during play (pieces with faces, laid at either end): their runtime boards,
the test games that use them (tests/games/river-map.yaml, growing-wall.yaml) and their
drawings at the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.render import render_state
from rulewright.runtime import GameError, HexMapBoard, Rng, WallBoard
from rulewright.runtime.boards import HEX_AXES, hexmap_cells

GAMES = Path(__file__).resolve().parent / "games"
RIVER_MAP = GAMES / "river-map.yaml"
GROWING_WALL = GAMES / "growing-wall.yaml"
ROWS = [". . ~ . . C", " . . ~ . .", "C . . ~ ~ . .", " . . . . ~ C", "    . C . ~ ."]


def board_of(rows: list[str]) -> HexMapBoard:
    cells, problems = hexmap_cells(rows)
    assert not problems
    return HexMapBoard("m", [(label, q, r) for label, q, r, _ in cells], "".join(s for *_, s in cells), (), (), ())


def play(path: Path, seed: int, moves: int | None = None) -> Any:
    state: Any = rulewright.load_rules(path).new_state(players=2, seed=seed)
    agent = Rng(seed)
    while not state.is_terminal() and (moves is None or state.moves < moves):
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    return state


# -- the hex map ---------------------------------------------------------------------------------
def test_labels_are_row_letter_and_place_from_the_left_edge_whatever_is_missing() -> None:
    cells, _ = hexmap_cells(ROWS)
    labels = [label for label, *_ in cells]
    assert labels[:6] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert labels[-5:] == ["E3", "E4", "E5", "E6", "E7"]  # row E starts two cells in
    # the same map indented (as a YAML block may strip), or with a cell taken out, keeps its labels
    shifted, _ = hexmap_cells(["  " + row for row in ROWS])
    assert [c[:3] for c in shifted] == [c[:3] for c in cells]
    holed, _ = hexmap_cells([ROWS[0].replace(". C", "  C"), *ROWS[1:]])
    assert {c[0] for c in holed} == {c[0] for c in cells} - {"A5"}


def test_neighbours_are_the_six_around_present_on_the_map() -> None:
    board = board_of(ROWS)
    at = {board.coords[s]: s for s in board.spots}
    for s in board.spots:
        q, r = board.coords[s]
        near = [(q + dq * k, r + dr * k) for dq, dr in HEX_AXES for k in (1, -1)]
        around = {at[c] for c in near if c in at}
        assert set(board.neighbours[s]) == around
    assert sorted(board.labels[n] for n in board.neighbours[board.index["D1"]]) == ["C1", "C2", "D2"]


def test_straight_lines_are_those_of_the_grid() -> None:
    board = board_of(ROWS)
    at = {board.coords[s]: s for s in board.spots}
    for n in (1, 2, 3, 4):
        brute = set()
        for (q, r) in at:
            for dq, dr in HEX_AXES if n > 1 else HEX_AXES[:1]:
                run = [(q + dq * k, r + dr * k) for k in range(n)]
                if all(c in at for c in run):
                    brute.add(tuple(at[c] for c in run))
        assert set(board.straight_lines(n, board.spots)) == brute
        assert board.count_lines(n, board.spots) == len(brute)
    subset = [board.index[x] for x in ("B1", "C2", "D2", "A1")]
    assert board.straight_lines(3, subset) == [tuple(board.index[x] for x in line)
                                                for line in (("A1", "B1", "C2"), ("B1", "C2", "D2"))]


def test_a_cell_off_the_grid_is_named_by_row_and_column() -> None:
    _, problems = hexmap_cells([". .", ".  ."])
    assert problems == ["row 2, column 1 (`.`): not on the hex grid; the cells of a row stand two characters "
                        "apart and each row is shifted one character from the one above"]


def test_rows_as_a_list_are_the_same_map(tmp_path: Path) -> None:
    text = RIVER_MAP.read_text(encoding="utf-8")
    block = text[text.index("      rows: |"):text.index("      legend:")]
    listed = "      rows:\n" + "".join(f"        - {line[8:]!r}\n" for line in block.splitlines()[1:])
    path = tmp_path / "river-map.yaml"
    path.write_text(text.replace(block, listed), encoding="utf-8")
    one = rulewright.load_rules(RIVER_MAP).new_state(players=2, seed=0).board
    two = rulewright.load_rules(path).new_state(players=2, seed=0).board
    assert isinstance(one, HexMapBoard) and isinstance(two, HexMapBoard)
    assert (one.labels, one.coords, one.symbols, one.spot_attributes) == (
        two.labels, two.coords, two.symbols, two.spot_attributes)


def test_cell_attributes_follow_the_legend() -> None:
    state: Any = rulewright.load_rules(RIVER_MAP).new_state(players=2, seed=0)
    board = state.board
    terrain, site = state.ENUMS["terrain"], state.ENUMS["site"]
    # attributes in name order: site, terrain
    for s in board.spots:
        symbol = board.symbols[s]
        assert terrain[board.spot_attributes[1][s]] == ("river" if symbol == "~" else "land")
        assert site[board.spot_attributes[0][s]] == ("capital" if symbol == "C" else "plain")


def test_river_map_random_games() -> None:
    """200 here; 1,000 were run by hand (`rulewright simulate tests/games/river-map.yaml -n 1000`)."""
    for seed in range(200):
        state = play(RIVER_MAP, seed)
        board = state.board
        for s in board.spots:  # never a soldier on a river
            if board.symbols[s] == "~":
                assert state.tile_on[s] != state.ENUMS["tile"].index("soldier")


# -- the wall ------------------------------------------------------------------------------------
def test_a_wall_grows_at_both_ends_and_its_neighbours_cross_the_joins() -> None:
    board = rulewright.load_rules(GROWING_WALL).new_state(players=2, seed=0).board
    assert isinstance(board, WallBoard)
    face = {name: i for i, name in enumerate(board.face_names)}
    layout = board.attach((), face["one_front"], True)
    layout = board.attach(layout, face["two_back"], True)
    layout = board.attach(layout, face["three_front"], False)
    assert [board.face_names[f] for f in layout] == ["three_front", "one_front", "two_back"]
    labels = [board.labels[s] for s in board.wall_spots(layout)]
    assert labels == ["3F1", "3F2", "3F3", "3F4", "1F1", "1F2", "1F3", "1F4", "2B1", "2B2", "2B3", "2B4"]
    around = {board.labels[n] for n in board.wall_neighbours(layout, board.index["1F1"])}
    assert around == {"3F4", "1F2"}
    assert board.wall_neighbours(layout, board.index["4F1"]) == ()  # not laid
    assert [board.labels[n] for n in board.wall_neighbours(layout, board.index["3F1"])] == ["3F2"]
    with pytest.raises(ValueError, match="piece one of the wall is already laid"):
        board.attach(layout, face["one_back"], False)


def test_wall_neighbours_are_the_spots_beside_along_the_run_of_every_layout() -> None:
    """`wall_neighbours` reads a table made once per layout: the spots just before and after
    along the run, whatever the layout (a list or a tuple), none for a spot not laid."""
    board = rulewright.load_rules(GROWING_WALL).new_state(players=2, seed=0).board
    assert isinstance(board, WallBoard)
    layouts: list[tuple[int, ...]] = [()]
    for f in range(len(board.face_names)):
        for layout in list(layouts):
            if board.face_piece[f] not in {board.face_piece[g] for g in layout} and len(layout) < 3:
                layouts += [board.attach(layout, f, True), board.attach(layout, f, False)]
    assert len(layouts) > 100
    for layout in layouts:
        run = board.wall_spots(layout)
        beside = {s: tuple(run[j] for j in (i - 1, i + 1) if 0 <= j < len(run)) for i, s in enumerate(run)}
        for s in board.spots:
            assert board.wall_neighbours(layout, s) == beside.get(s, ()), (layout, s)
            assert board.wall_neighbours(list(layout), s) == beside.get(s, ())


def test_laying_a_piece_twice_is_a_game_error_at_the_rule_line(tmp_path: Path) -> None:
    text = GROWING_WALL.read_text(encoding="utf-8").replace(
        'f: "[f for f in wallface if piece_of(f) not in wall_pieces(layout)]"', 'f: "[f for f in wallface]"')
    path = tmp_path / "growing-wall.yaml"
    path.write_text(text, encoding="utf-8")
    state: Any = rulewright.load_rules(path).new_state(players=2, seed=0)
    state.built = 4
    state._fields_set()  # (fields written from outside the rules: what the optimiser kept is made again)
    laid = state.board.face_names[state.layout[0]]
    with pytest.raises(GameError, match=r"growing-wall.yaml:\d+.*already laid"):
        state.apply(f"lay {laid} at the left end")


def test_growing_wall_random_games() -> None:
    """200 here; 1,000 were run by hand (`rulewright simulate tests/games/growing-wall.yaml -n 1000`)."""
    for seed in range(200):
        state = play(GROWING_WALL, seed)
        board = state.board
        assert len(state.layout) == 4
        assert sorted(board.face_piece[f] for f in state.layout) == [0, 1, 2, 3]
        laid = board.wall_spots(state.layout)
        tower = state.ENUMS["section"].index("tower")
        for a, b in zip(laid, laid[1:], strict=False):
            assert not (state.section_at[a] == tower and state.section_at[b] == tower)


# -- drawings ------------------------------------------------------------------------------------
def test_play_draws_the_hex_map_with_symbols_and_occupants() -> None:
    state = play(RIVER_MAP, 3, moves=9)
    text = render_state(state, 0, 100)
    lines = text.splitlines()
    assert lines[2].startswith("A1 . ")
    assert any(line.lstrip().startswith("E3 . ") for line in lines)  # row E indented as on the map
    assert "~ pea/" in text or "~ ·" in text
    assert "map: . terrain land, site plain; ~ terrain river, site plain; C terrain land, site capital" in text


def test_play_draws_the_wall_in_order_with_its_faces() -> None:
    state = play(GROWING_WALL, 3, moves=9)
    text = render_state(state, 0, 100)
    order = [state.board.face_names[f] for f in state.layout]
    drawn = [line.split("]")[0].strip(" [").split(" of ")[0] for line in text.splitlines() if line.startswith("  [")]
    assert drawn == order
    assert "not laid: " in text


# -- any board without a drawing of its own -------------------------------------------------------
def test_a_hexagon_is_drawn_with_what_stands_on_each_spot_and_its_regions() -> None:
    state = play(GAMES / "lanterns.yaml", 5, moves=8)
    text = render_state(state, 0, 100)
    lanterns = state.observation(0)["fields"]["lantern"]
    hung = {label: owner for label, owner in lanterns.items() if owner is not None}
    assert hung and all(f"{label} {owner}" in text for label, owner in hung.items()), text
    assert all(f"{label} ·" in text for label in lanterns if label not in hung), text
    assert "gardens: Plum A1 A2 B1 B2; " in text and "points: P1 " in text


def test_a_hexagon_too_wide_for_the_terminal_is_listed_row_by_row() -> None:
    state = play(GAMES / "kingdoms-lite.yaml", 5, moves=9)
    wide, narrow = render_state(state, 0, None), render_state(state, 0, 60)
    assert "spots, row by row:" not in wide and max(len(line) for line in wide.splitlines()) > 60
    # (the heading is one line, however long, in every drawing)
    assert "spots, row by row: A1 " in narrow and max(len(line) for line in narrow.splitlines()[1:]) <= 60
    assert "lai/P" in narrow  # a tile laid (a true `laid`) with its layer


def test_a_ring_and_a_graph_are_drawn_with_pawns_and_roads() -> None:
    ring = play(GAMES / "ring-race.yaml", 5, moves=5)
    text = render_state(ring, 0, 100)
    places = ring.observation(0)["fields"]["position"]
    assert "the ring, clockwise: 1 " in text and "then the seats' position" in text
    assert all(f"{label} " in text and f"P{p + 1}" in text for p, label in enumerate(places))
    roads = play(GAMES / "road-network.yaml", 5, moves=6)
    text = render_state(roads, 0, 100)
    assert "N1 " in text and "(roads to N2 W1)" in text and "lands: North N1 N2 N3 N4 W1 W2" in text
