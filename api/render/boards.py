"""Boards drawn as text from the rule set's own board, for any game: the rows of a hexagon or a
hex map (`draw_hex_board`), and a game on any board with its per-spot fields on the spots
(`render_board`), from the same board declaration and the same view of a seat (draw.view_of)
as the SVG drawing (api/draw.py)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from ..draw import View, short, view_of
from ..runtime.boards import Board, GridBoard, HexBoard, HexMapBoard, RingBoard, WallBoard
from ..runtime.state import HIDDEN, State
from .listing import WIDTH, field_lines, heading


# -- hexagonal boards --------------------------------------------------------------------------
def draw_hex_board(board: HexBoard, cell: Callable[[int], str]) -> list[str]:
    """The board as rows of text, one row of the hexagon per line, each row shifted by half
    a cell from the next as on the board; `cell(spot)` is the text of one spot."""
    texts = [cell(s) for s in board.spots]
    width = max((len(t) for t in texts), default=1)
    step = width + 1
    rows: dict[int, list[int]] = {}
    for s, (_, r) in enumerate(board.coords):
        rows.setdefault(r, []).append(s)
    left = min((2 * q + r for q, r in board.coords), default=0)
    lines = []
    for r in sorted(rows):
        line = ""
        for s in sorted(rows[r], key=lambda spot: board.coords[spot][0]):
            q = board.coords[s][0]
            line = line.ljust((2 * q + r - left) * step // 2) + texts[s].ljust(width)
        lines.append(line.rstrip())
    return lines


def region_names_of(board: HexBoard, spot: int) -> list[str]:
    """The name of the region of each kind that holds `spot` (`-` where none does)."""
    names = []
    for k in range(len(board.kinds)):
        region = board.region_of[k][spot]
        names.append(board.region_names[region] if region >= 0 else "-")
    return names


# -- square grids ------------------------------------------------------------------------------
HOLE = "░"  # a cell off the grid, filled in


def draw_grid_board(board: GridBoard, cell: Callable[[int], str]) -> list[str]:
    """The grid as a chess board is drawn: the top row first, each cell a box holding
    `cell(spot)` (a hole filled with HOLE), the row numbers on both sides and the column letters
    above and below (`a1` the bottom-left cell)."""
    texts = [cell(s) for s in board.spots]
    width = max((len(t) for t in texts), default=1)
    margin = len(str(board.rows))
    letters = " " * (margin + 1) + "".join(f" {chr(ord('a') + c):^{width + 2}}" for c in range(board.columns))
    rule = " " * (margin + 1) + "+" + "+".join("-" * (width + 2) for _ in range(board.columns)) + "+"
    lines = [letters.rstrip(), rule]
    for r in range(board.rows, 0, -1):
        boxes = []
        for c in range(1, board.columns + 1):
            s = board.at[r][c]
            boxes.append(HOLE * (width + 2) if s is None else f" {texts[s]:<{width}} ")
        lines += [f"{r:>{margin}} |" + "|".join(boxes) + f"| {r}", rule]
    lines.append(letters.rstrip())
    return lines


# -- any board, from its declaration ---------------------------------------------------------------
def _value_text(name: str, value: Any, seats: Sequence[str]) -> str:
    """A value of a per-spot field in a few letters, as the SVG drawing's chips show it
    (draw.short): nothing for none, false, 0 or empty; `?` hidden; a seat by its name; a list
    item by item (`P1+P2`); true as the field's name (`lai` for `laid`)."""
    if value is None or value is False or value == 0 and not isinstance(value, bool) or value in ("", [], {}):
        return ""
    if value == HIDDEN:
        return "?"
    if value is True:
        return short(name)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "+".join(t for t in (_value_text(name, v, seats) for v in value) if t)
    if isinstance(value, dict):
        owner = value.get("owner")
        return str(owner) if owner in seats else short(" ".join(str(v) for v in value.values()))
    return str(value) if str(value) in seats else short(str(value))


def _occupants(state: State, view: View) -> tuple[list[str], Callable[[str], str]]:
    """The per-spot fields drawn on the spots, and the text of a spot's occupants: an
    enumeration's value cut to 3 letters, left out when it is its first value (`empty`, `free`:
    nothing there); any other value in a few letters (`_value_text`), left out when it is none,
    false, 0 or empty; a spot with something on it also shows the players of its player fields
    (`P1`: a player field holds P1 where nothing stands), so an owner shows where there is
    something to own; and a seat whose per-player field names the spot (a pawn's place), where
    the SVG drawing puts its piece."""
    seen = view.fields
    drawn = [f for f in state.FIELDS if f.per == "spot" and f.name in seen and isinstance(seen[f.name], dict)]
    places: dict[str, list[str]] = {}
    place_fields: list[str] = []
    for name, per in view.per.items():
        if per == "player" and isinstance(seen.get(name), list):
            for p, value in enumerate(seen[name][:view.players]):
                if isinstance(value, str) and value in state.board.index:
                    places.setdefault(value, []).append(view.seats[p])
                    if name not in place_fields:
                        place_fields.append(name)

    def text(label: str) -> str:
        parts: list[str] = []
        for f in drawn:
            value = seen[f.name].get(label)
            values = view.enums.get(f.name, ())
            if f.kind == "enum":
                if values and value != values[0] and value is not None:
                    parts.append(str(value)[:3])
            elif not (f.kind == "entity" and f.element == "player"):
                parts.append(_value_text(f.name, value, view.seats))
        parts = [x for x in parts if x]
        if parts:
            parts += [str(seen[f.name].get(label)) for f in drawn if f.kind == "entity" and f.element == "player"]
        parts += places.get(label, [])
        return "/".join(parts) or "·"

    return [f.name for f in drawn] + [f"the seats' {name}" for name in place_fields], text


def _regions(board: Board, width: int, state: State | None = None) -> list[str]:
    """Each kind of region with its regions and their spots (`mountains: M1 A1 A2; M2 ...`), a region
    owned by a seat (`owner:`) with its owner (`north (P1) A1 A2 A3`)."""
    lines: list[str] = []
    seats = state._labels("player") if state is not None else ()

    def owned(r: int) -> str:
        owner = board.owner_of(r, state.num_players) if state is not None else None
        return f" ({seats[owner]})" if owner is not None and owner < len(seats) else ""

    for k, kind in enumerate(board.kinds):
        groups = [f"{board.region_names[r]}{owned(r)} " + " ".join(board.labels[s] for s in board.region_spots[r])
                  for r in board.regions_of_kind[k]]
        if groups:
            lines += textwrap.wrap(f"{kind}s: " + "; ".join(groups), width, subsequent_indent="    ",
                                   break_on_hyphens=False)
    return lines


def _fitted(drawing: list[str], given_width: int | None, title: str, cells: Callable[[], Sequence[str]],
            width: int) -> list[str]:
    """`drawing`, or where it is wider than the width asked, its cells listed under `title` (`_packed`)."""
    if given_width is not None and max((len(line) for line in drawing), default=0) > given_width:
        return _packed(title, cells(), width)
    return drawing


def _packed(title: str, cells: Sequence[str], width: int) -> list[str]:
    """`title` and the cells after it, as many on a line as `width` holds, never a cell cut."""
    lines = [title]
    for cell in cells:
        if lines[-1] == title:
            lines[-1] += " " + cell
        elif len(lines[-1]) + 3 + len(cell) > width:
            lines.append("    " + cell)
        else:
            lines[-1] += "   " + cell
    return lines


def render_board(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """Any game on a board, drawn from the board's declaration and the viewer's observation
    (draw.view_of, what the SVG drawing is made from): a hexagon or a hex map row by row, a grid
    as boxes in rows and columns, a
    wall face by face in the order it is laid, a ring clockwise, a graph spot by spot with its
    roads; the per-spot fields on the spots; then every other field as the listing shows it. A
    hexagon wider than `width` is listed row by row instead."""
    player = viewer if viewer is not None else (state.to_act() or 0)
    view = view_of(state, player)
    seen = view.fields
    board = state.board
    given_width, width = width, width or WIDTH
    lines = [heading(state), ""]
    drawn, occupants = _occupants(state, view)
    label_width = max((len(label) for label in board.labels), default=1)
    nothing = f"{'/'.join(drawn) or 'nothing'} (· nothing on it)"
    if not board.spots:  # a rule set without `boards:`: only the fields below
        lines.pop()
    elif isinstance(board, HexMapBoard):

        def cell(spot: int) -> str:
            label = board.labels[spot]
            return f"{label:<{label_width}} {board.symbols[spot]} {occupants(label)}"

        # (as a hexagon's: a map wider than the terminal, Hex's 11 x 11 rhombus, listed row by row)
        lines += _fitted(draw_hex_board(board, cell), given_width, "spots, row by row:",
                         lambda: [cell(s).rstrip() for s in board.spots], width)
        lines.append("")
        lines.append(f"spot: label, map symbol, then {nothing}")
        lines += textwrap.wrap("map: " + "; ".join(f"{sym} {meaning}" for sym, meaning in board.legend),
                               width, subsequent_indent="    ")
    elif isinstance(board, GridBoard):
        drawing = draw_grid_board(board, lambda s: (f"{board.symbols[s]} " if board.legend else "")
                                  + occupants(board.labels[s]))
        lines += _fitted(drawing, given_width, "cells, row by row from a1:",
                         lambda: [f"{board.labels[s]} {occupants(board.labels[s])}" for s in board.spots], width)
        lines.append("")
        lines.append(f"cell: {'its symbol, then ' if board.legend else ''}{nothing}; {HOLE} off the board")
        if board.legend:
            lines += textwrap.wrap("grid: " + "; ".join(f"{sym} {meaning}" for sym, meaning in board.legend),
                                   width, subsequent_indent="    ")
        lines += _regions(board, width)
    elif isinstance(board, HexBoard):
        drawing = draw_hex_board(board, lambda s: f"{board.labels[s]:<{label_width}} {occupants(board.labels[s])}")
        lines += _fitted(drawing, given_width, "spots, row by row:",
                         lambda: [f"{board.labels[s]} {occupants(board.labels[s])}" for s in board.spots], width)
        lines.append("")
        lines.append(f"spot: label, then {nothing}")
        lines += _regions(board, width, state)
    elif isinstance(board, WallBoard):
        layout_field = next((f.name for f in state.FIELDS if f.kind == "list" and f.element == "wallface"
                             and f.name in seen), None)
        layout: Sequence[str] = seen.get(layout_field, ()) if layout_field else ()
        faces = {name: i for i, name in enumerate(board.face_names)}
        lines.append(f"the wall, left to right ({layout_field or 'no layout field'}):")
        for name in layout:
            f = faces.get(str(name))
            if f is None:
                lines.append(f"  {name}: hidden")
                continue
            piece = board.piece_names[board.face_piece[f]]
            spaces = "  ".join(f"{board.labels[s]} {occupants(board.labels[s])}" for s in board.face_spots[f])
            regions = "; ".join(
                f"{kind} " + ", ".join(board.region_names[r] for r in board.regions_touching(board.face_spots[f], k))
                for k, kind in enumerate(board.kinds)
            )
            lines += textwrap.wrap(f"  [{name} of {piece}] {spaces}" + (f"  ({regions})" if regions else ""),
                                   width, subsequent_indent="      ")
        laid = {board.face_piece[faces[str(n)]] for n in layout if str(n) in faces}
        waiting = [f"{p} ({'/'.join(board.face_names[f] for f, q in enumerate(board.face_piece) if q == i)})"
                   for i, p in enumerate(board.piece_names) if i not in laid]
        lines.append(f"not laid: {', '.join(waiting) or 'none'}")
        lines.append(f"space: label, then {nothing}")
    elif isinstance(board, RingBoard):
        lines += _packed("the ring, clockwise:", [f"{board.labels[s]} {occupants(board.labels[s])}"
                                                  for s in board.spots], width)
        lines.append(f"spot: label, then {nothing}")
        lines += _regions(board, width, state)
    else:  # a graph board: each spot with its roads
        for s in board.spots:
            roads = " ".join(board.labels[n] for n in board.neighbours[s])
            lines += textwrap.wrap(f"{board.labels[s]:<{label_width}} {occupants(board.labels[s])}"
                                   + (f"  (roads to {roads})" if roads else ""), width, subsequent_indent="    ")
        lines.append("")
        lines.append(f"spot: label, then {nothing}")
        lines += _regions(board, width, state)
    lines.append("")
    per = {f.name: f.per for f in state.FIELDS}
    for name, value in seen.items():
        if name not in drawn and not (isinstance(board, WallBoard) and per.get(name) is None and isinstance(value, list)
                                      and any(f.name == name and f.element == "wallface" for f in state.FIELDS)):
            lines.extend(field_lines(name, per.get(name), value, width, state._labels("player")))
    return "\n".join(lines)
