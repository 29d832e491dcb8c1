"""The square grid (runtime/boards/grid.py, `grid:` in docs/language.md): its labels and spot order,
the tables the board builds (steps, rays, neighbours, rows, columns, diagonals, straight lines) checked
against a brute-force walk of the cells, holes, the checker's refusals, and the test game that uses it
(tests/games/grid-drop.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.compiler import driver
from rulewright.core.source import CompileError
from rulewright.render import render_state
from rulewright.ruleindex import board_spots
from rulewright.runtime import GridBoard, Rng
from rulewright.runtime.boards import GRID_DIRECTIONS, GRID_STEPS, grid_cells

GRID_DROP = Path(__file__).resolve().parent / "games" / "grid-drop.yaml"
# a drawn grid: a hole at d3 and at a4 (the top-left), a rock at c4
DRAWN = [" .#..", "... .", ".....", "....."]


def board(text: list[str] | None = None, rows: int = 0, columns: int = 0, connect: str = "orthogonal") -> GridBoard:
    return GridBoard("g", rows, columns, text or (), connect, (), ())


def cells_of(b: GridBoard) -> dict[tuple[int, int], int]:
    return {(b.row_of[s], b.column_of[s]): s for s in b.spots}


def test_labels_are_chess_like_and_spots_run_from_a1_row_by_row() -> None:
    b = board(rows=3, columns=4)
    assert b.labels == ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3")
    assert (b.row_of[b.index["c2"]], b.column_of[b.index["c2"]]) == (2, 3)
    drawn = board(DRAWN)
    assert "a4" not in drawn.index and "d3" not in drawn.index and len(drawn.spots) == 18
    assert drawn.labels[:5] == ("a1", "b1", "c1", "d1", "e1") and drawn.labels[-3:] == ("c4", "d4", "e4")
    # the same grid indented keeps its labels: columns count from the leftmost character of any row
    assert grid_cells(0, 0, ["   " + row for row in DRAWN]) == grid_cells(0, 0, DRAWN)
    assert [c[3] for c in grid_cells(0, 0, DRAWN)[0] if c[0] == "c4"] == ["#"]


@pytest.mark.parametrize("text", [None, DRAWN], ids=["full", "drawn"])
def test_steps_rays_and_neighbours_are_the_cells_around_on_the_board(text: list[str] | None) -> None:
    b = board(text, rows=4, columns=5) if text is None else board(text)
    at = cells_of(b)
    for s in b.spots:
        r, c = b.row_of[s], b.column_of[s]
        for d, (dr, dc) in enumerate(GRID_STEPS):
            assert b.steps[d][s] == at.get((r + dr, c + dc))  # None off the board or on a hole
            ray, k = [], 1
            while (r + k * dr, c + k * dc) in at:
                ray.append(at[(r + k * dr, c + k * dc)])
                k += 1
            assert b.rays[d][s] == tuple(ray)
        orthogonal = {at[(r + dr, c + dc)] for dr, dc in GRID_STEPS[::2] if (r + dr, c + dc) in at}
        assert set(b.neighbours[s]) == orthogonal and list(b.neighbours[s]) == sorted(orthogonal)
    every = board(text, rows=4, columns=5, connect="all") if text is None else board(text, connect="all")
    corner = every.index["a1"]
    assert [every.labels[n] for n in every.neighbours[corner]] == ["b1", "a2", "b2"]
    assert GRID_DIRECTIONS[0] == "north" and GRID_STEPS[0] == (1, 0)  # north: up, to the next row number


def test_a_hex_board_s_six_neighbours_are_hex_s() -> None:
    """`connect: hex`: a rhombus of hexagons, c3 touching c2, d2, b3, d3, b4 and c4 (OpenSpiel's Hex)."""
    b = board(rows=11, columns=11, connect="hex")
    assert sorted(b.labels[n] for n in b.neighbours[b.index["c3"]]) == ["b3", "b4", "c2", "c4", "d2", "d3"]
    assert sorted(b.labels[n] for n in b.neighbours[b.index["a1"]]) == ["a2", "b1"]
    assert sorted(b.labels[n] for n in b.neighbours[b.index["k1"]]) == ["j1", "j2", "k2"]
    diagonal = [b.index[f"{chr(ord('a') + k)}{11 - k}"] for k in range(11)]  # a11 ... k1: joined corner to corner
    assert len(b.components(diagonal)) == 1
    other = [b.index[f"{chr(ord('a') + k)}{k + 1}"] for k in range(11)]  # a1 ... k11: no two touch
    assert len(b.components(other)) == 11


def test_holes_stop_rays_and_split_components() -> None:
    b = board(DRAWN)
    d2, d4 = b.index["d2"], b.index["d4"]
    assert b.steps[0][d2] is None and b.rays[0][d2] == ()  # d3 is a hole: nothing north of d2
    assert b.rays[4][d4] == ()
    # the column of d: d1 d2 (hole) d4 -- two groups orthogonally
    column = [b.index[x] for x in ("d1", "d2", "d4")]
    assert sorted(sorted(b.labels[s] for s in g) for g in b.components(column)) == [["d1", "d2"], ["d4"]]
    assert b.spot_at(3, 4) is None and b.spot_at(4, 1) is None and b.spot_at(0, 1) is None
    assert b.spot_at(4, 5) == b.index["e4"] and b.spot_at(27, 27) is None and b.spot_at(-1, 2) is None


def test_rows_columns_and_diagonals_are_the_runs_of_the_board() -> None:
    b = board(DRAWN)
    label = b.labels.__getitem__
    assert [" ".join(map(label, r)) for r in b.grid_rows] == [
        "a1 b1 c1 d1 e1", "a2 b2 c2 d2 e2", "a3 b3 c3 e3", "b4 c4 d4 e4"]
    assert [" ".join(map(label, c)) for c in b.grid_columns][2:4] == ["c1 c2 c3 c4", "d1 d2 d4"]
    at = cells_of(b)
    expected = []
    for dr, dc in ((1, 1), (1, -1)):  # north-east, then north-west; each from its southern end
        for s in b.spots:
            r, c = b.row_of[s], b.column_of[s]
            if (r - dr, c - dc) in at:
                continue
            run = [s]
            while (r + dr, c + dc) in at:
                r, c = r + dr, c + dc
                run.append(at[(r, c)])
            if len(run) > 1:
                expected.append(tuple(run))
    assert list(b.grid_diagonals) == expected
    diagonals = [" ".join(map(label, d)) for d in b.grid_diagonals]
    assert "b1 c2" in diagonals and "e1 d2 c3 b4" in diagonals  # b1 c2 (d3: a hole) e4: cut, e4 left alone
    assert all(len(d) >= 2 for d in b.grid_diagonals)


def test_straight_lines_run_along_four_axes_and_stop_at_holes() -> None:
    for b in (board(rows=5, columns=6), board(DRAWN)):
        at = cells_of(b)
        for n in (1, 2, 3, 4):
            brute = []
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):  # east, north, north-east, north-west
                for s in b.spots:
                    r, c = b.row_of[s], b.column_of[s]
                    run = [at.get((r + k * dr, c + k * dc)) for k in range(n)]
                    if None not in run and (n > 1 or (dr, dc) == (0, 1)):
                        brute.append(tuple(run))
            assert b.straight_lines(n, b.spots) == brute, n
            assert b.count_lines(n, b.spots) == len(brute)
            assert b.straight_lines_mask(n, b.all_mask) == brute
            assert [b.line_spots(k) for k in b.straight_line_numbers(n, b.spots)] == brute
    b = board(rows=4, columns=4)
    mine = [b.index[x] for x in ("a1", "b2", "c3", "d1", "d2")]
    assert [tuple(b.labels[s] for s in line) for line in b.straight_lines(3, mine)] == [("a1", "b2", "c3")]


def test_play_draws_the_grid_as_boxes_top_row_first_with_its_holes_filled() -> None:
    state: Any = rulewright.load_rules(GRID_DROP).new_state(players=2, seed=1)
    for text in ("drop c1", "drop c2", "drop d4"):
        state.apply(text)
    lines = render_state(state, 0, 100).splitlines()
    rows = [line for line in lines if line[:1].isdigit()]
    assert [line.split("|")[0].strip() for line in rows] == ["4", "3", "2", "1"]  # the top row first
    assert [cell.strip() for cell in rows[0].split("|")[1:-1]] == [". ·", ". ·", "# ·", ". occ/P1", ". ·"]
    assert rows[1].split("|")[4] == "░" * len(rows[1].split("|")[4])  # d3: a hole
    assert [cell.strip() for cell in rows[3].split("|")[1:-1]][2] == ". occ/P1"  # c1: P1's drop
    assert lines[2].split() == ["a", "b", "c", "d", "e"] and "grid: . ground plain; # ground rock" in lines
    narrow = render_state(state, 0, 40)  # too wide for 40 columns: listed cell by cell
    assert "cells, row by row from a1: a1 ·" in narrow


def test_the_lines_of_a_mask_bit_by_bit_are_those_byte_by_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native build reads a mask a bit at a time (runtime/boards/bits.py): the same lines of a grid."""
    from rulewright.runtime.boards import base, hexagon

    b = board(DRAWN, connect="all")
    masks = [0, b.all_mask, *(b.spots_mask(s for s in b.spots if (s * k) % 7 < 3) for k in range(1, 9))]

    def found() -> list[Any]:
        return [(b.mask_spots(m), [(b.straight_lines_mask(n, m), b.straight_line_numbers_mask(n, m))
                                   for n in range(b.longest + 1)]) for m in masks]

    by_bytes = found()
    monkeypatch.setattr(base, "_NATIVE", True)
    monkeypatch.setattr(hexagon, "_NATIVE", True)
    assert found() == by_bytes and b.tables.bit_spots is not None


def test_the_language_server_knows_the_cells_of_a_grid() -> None:
    ruleset, diagnostics, _ = driver.analyse(GRID_DROP)
    assert ruleset is not None and not diagnostics
    assert board_spots(ruleset.boards[0]) == list(rulewright.load_rules(GRID_DROP).new_state(2, 1).board.labels)


def compile_errors(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "g.yaml"
    path.write_text(text)
    with pytest.raises(CompileError) as caught:
        driver.compile_file(path)
    return [f"{d.span.line}: {d.message}" for d in caught.value.diagnostics]


def game(board_text: str, score: str = "count(taken[s] for s in spots)", more: str = "") -> str:
    return f"""rulewright: 1
game: g
title: G
players: 2
{more}boards:
{board_text}state:
  taken: {{per: spot, type: bool, init: "false"}}
phases:
  play:
    actions: [take]
actions:
  take:
    choose: {{s: "[s for s in spots if not taken[s]]"}}
    text: "take {{s}}"
    effect:
      - taken[s] = true
end: "all(taken[s] for s in spots)"
scoring:
  n: "{score}"
"""


def test_a_grid_game_compiles_and_plays(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(game("  b:\n    grid: {rows: 2, columns: 3}\n",
                         "count(taken[s] for s in ray(value_of(spot_at(1, 1)), east))"))
    state: Any = rulewright.load_rules(path).new_state(players=2, seed=1)
    assert [str(a) for a in state.legal_actions()] == ["take a1", "take b1", "take c1", "take a2", "take b2",
                                                      "take c2"]
    state.apply("take B1")  # a move's text is read whatever its case
    assert state.scores()[0] == 1


@pytest.mark.parametrize(("board_text", "score", "line", "message"), [
    ("  b:\n    hexagon: 3\n", "len(ray(value_of(spot_at(1, 1)), 2))", 0,
     "`ray` works on a grid, and no board is one"),
    ("  b:\n    grid: {rows: 2, columns: 3, connect: kings}\n", "0", 7,
     "`connect:` is `orthogonal` (neighbours share a side), `all` (a side or a corner) or `hex` (a hex board's six, "
     "laid out as a rhombus), not `kings`"),
    ("  b:\n    grid:\n      rows: |\n        .x\n      legend: {\".\": {}}\n", "0", 8,
     "board `b`: the symbol `x` (first at b1) is not in the legend"),
    ("  b:\n    grid: {rows: 2}\n", "0", 7, "a grid of `rows: R` needs `columns: C` too"),
    ("  b:\n    grid: {rows: [\"..\"], columns: 2}\n", "0", 7,
     "a drawn grid takes its columns from its rows: leave out `columns:`"),
    ("  b:\n    grid: {rows: 2, columns: 2}\n    regions: {half: {top: [a2, b2, c2]}}\n", "0", 8,
     "region top of board `b`: no spot `c2`"),
    ("  b:\n    grid:\n      rows: [\". .\"]\n    expect: {connected: true, spots: 3}\n", "0", 9,
     "board `b` does not match what is expected of it: 2 spots, expected 3"),
], ids=["builtin-without-grid", "connect", "legend", "columns-missing", "columns-drawn", "region-spot",
        "expect-spots"])
def test_the_checker_refuses(tmp_path: Path, board_text: str, score: str, line: int, message: str) -> None:
    text = game(board_text, score)
    line = line or text.splitlines().index(f'  n: "{score}"') + 1  # (0: the score's line)
    assert f"{line}: {message}" in compile_errors(tmp_path, text)


def test_expect_joins_cells_as_neighbours_do(tmp_path: Path) -> None:
    diagonal = "      rows: |\n        .#\n        #.\n      legend: {\".\": {g: a}, \"#\": {g: b}}\n"
    expect = "    expect: {connected: true, regions: {r: 1}, contiguous: true}\n    regions: {r: {x: [a1, b2]}}\n"
    errors = compile_errors(tmp_path, game(f"  b:\n    grid:\n{diagonal}{expect}", more="enums:\n  g: [a, b]\n"))
    assert [e.split(": ", 1)[1] for e in errors] == [
        "board `b` does not match what is expected of it: region x is not contiguous"]
    path = tmp_path / "all.yaml"
    path.write_text(game(f"  b:\n    grid:\n{diagonal}      connect: all\n{expect}", more="enums:\n  g: [a, b]\n"))
    driver.compile_file(path)  # corners join: contiguous, connected
    hexed = compile_errors(tmp_path, game(f"  b:\n    grid:\n{diagonal}      connect: hex\n{expect}",
                                          more="enums:\n  g: [a, b]\n"))
    assert [e.split(": ", 1)[1] for e in hexed] == [e.split(": ", 1)[1] for e in errors]  # a1 b2: no hex side


def test_a_grid_and_a_board_of_another_kind_are_refused_together(tmp_path: Path) -> None:
    text = game("  small:\n    grid: {rows: 2, columns: 2}\n  big:\n    hexagon: 3\n",
                more="options:\n  board: {choices: [small, big], default: small}\n")
    assert any("board `big` is no grid, but board `small` is" in e for e in compile_errors(tmp_path, text))


def test_a_rule_file_cannot_declare_the_directions_itself(tmp_path: Path) -> None:
    errors = compile_errors(tmp_path, game("  b:\n    grid: {rows: 2, columns: 2}\n",
                                           more="enums:\n  heading: [north, up]\n"))
    assert any("north" in e for e in errors), errors


def test_grid_drop_random_games() -> None:
    """100 here; 1,000 were run by hand (`rulewright simulate tests/games/grid-drop.yaml -n 1000`)."""
    rules = rulewright.load_rules(GRID_DROP)
    lengths = []
    for seed in range(100):
        state: Any = rules.new_state(players=2, seed=seed)
        agent = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert all(str(a).split()[1] not in ("c4", "d3") for a in legal)  # a rock, a hole
            state.apply(legal[agent.below(len(legal))])
        lengths.append(state.moves)
    assert 3 <= min(lengths) and max(lengths) <= 18
