"""Boards drawn as text from the rule set's board alone, for any game: the rows of a hexagon or a
hex map (`draw_hex_board`), and a game on a hex map or a wall with its per-spot fields on the
spots (`render_board_shape`)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from ..runtime.boards import HexBoard, HexMapBoard, WallBoard
from ..runtime.state import State
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


# -- hex maps and walls --------------------------------------------------------------------------
def _occupants(state: State, seen: dict[str, Any]) -> tuple[list[str], Callable[[str], str]]:
    """The per-spot fields drawn on the spots, and the text of a spot's occupants: each
    field's value cut to 3 letters, left out when it is the first value of its enumeration
    (`empty`, `free`: nothing there); a spot with something on it also shows its players
    (`P1`), so an owner shows where there is something to own."""
    drawn = [f for f in state.FIELDS if f.per == "spot" and f.name in seen and isinstance(seen[f.name], dict)]

    def text(label: str) -> str:
        parts: list[str] = []
        for f in drawn:
            value = seen[f.name].get(label)
            values = f.values or state.ENUMS.get(f.element, ())
            if f.kind == "enum" and values and value != values[0] and value is not None:
                parts.append(str(value)[:3])
        if parts:
            parts += [str(seen[f.name].get(label)) for f in drawn if f.kind == "entity" and f.element == "player"]
        return "/".join(parts) or "·"

    return [f.name for f in drawn], text


def render_board_shape(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """A game on a hex map or a wall: the board drawn, its per-spot fields on the spots, then
    every other field as the generic listing shows it."""
    player = viewer if viewer is not None else (state.to_act() or 0)
    seen = state.observation(player)["fields"]
    board = state.board
    lines = [heading(state), ""]
    drawn, occupants = _occupants(state, seen)
    if isinstance(board, HexMapBoard):
        label_width = max((len(label) for label in board.labels), default=1)

        def cell(spot: int) -> str:
            label = board.labels[spot]
            return f"{label:<{label_width}} {board.symbols[spot]} {occupants(label)}"

        lines += draw_hex_board(board, cell)
        lines.append("")
        lines.append(f"spot: label, map symbol, then {'/'.join(drawn) or 'nothing'} (· nothing on it)")
        lines += textwrap.wrap("map: " + "; ".join(f"{sym} {meaning}" for sym, meaning in board.legend),
                               width or WIDTH, subsequent_indent="    ")
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
                                   width or WIDTH, subsequent_indent="      ")
        laid = {board.face_piece[faces[str(n)]] for n in layout if str(n) in faces}
        waiting = [f"{p} ({'/'.join(board.face_names[f] for f, q in enumerate(board.face_piece) if q == i)})"
                   for i, p in enumerate(board.piece_names) if i not in laid]
        lines.append(f"not laid: {', '.join(waiting) or 'none'}")
        lines.append(f"space: label, then {'/'.join(drawn) or 'nothing'} (· nothing on it)")
    lines.append("")
    per = {f.name: f.per for f in state.FIELDS}
    for name, value in seen.items():
        if name not in drawn and not (isinstance(board, WallBoard) and per.get(name) is None and isinstance(value, list)
                                      and any(f.name == name and f.element == "wallface" for f in state.FIELDS)):
            lines.extend(field_lines(name, per.get(name), value, width or WIDTH, state._labels("player")))
    return "\n".join(lines)
