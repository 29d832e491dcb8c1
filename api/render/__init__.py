"""States drawn as text for a person at a terminal.

`render_state(state)` draws any state: a game with a drawing of its own (games.py: Cornett's
China, Schacht's China, Mandarin, Chang Cheng, Yellow & Yangtze) gets it, a game on a hex map or
a wall the board drawn from its declaration (boards.py), every other game a listing of what the
player to act observes (listing.py). Everything drawn reaches the terminal through
`printable_lines` (rulewright.terminal): no control character of a file or a state is sent.

The modules: listing.py, then boards.py, then games.py, each importing only those before it.
"""

from __future__ import annotations

from ..runtime.boards import HexMapBoard, WallBoard
from ..runtime.state import State
from ..terminal import printable_lines
from .boards import render_board_shape
from .games import DRAWINGS
from .listing import WIDTH, render_generic

__all__ = ["DRAWINGS", "WIDTH", "render_board_shape", "render_generic", "render_state"]


def render_state(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """The state as `viewer` (default: the seat to act, else P1) sees it, drawn within
    `width` columns when possible (None: as wide as the full drawing)."""
    drawer = DRAWINGS.get(state.game.info.id)
    if drawer is None and isinstance(state.board, HexMapBoard | WallBoard):
        drawer = render_board_shape
    if drawer is not None:
        try:
            return printable_lines(drawer(state, viewer, width))
        except (AttributeError, KeyError):  # the rule set changed its fields: fall back to the listing
            pass
    return printable_lines(render_generic(state, viewer, width))
