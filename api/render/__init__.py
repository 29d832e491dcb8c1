"""States drawn as text for a person at a terminal.

`render_state(state)` draws any state: a game with a drawing of its own (games.py: Cornett's
China, Schacht's China, Mandarin, Chang Cheng, Yellow & Yangtze) gets it; any other game its
board drawn from the board's declaration and the viewer's observation (boards.py, from the same
data as the SVG drawing), then a listing of its other fields (listing.py). Everything drawn
reaches the terminal through `printable_lines` (rulewright.terminal): no control character of a
file or a state is sent.

The modules: listing.py, then boards.py, then games.py, each importing only those before it.
"""

from __future__ import annotations

from ..runtime.state import State
from ..terminal import printable_lines
from .boards import render_board
from .games import DRAWINGS
from .listing import WIDTH, render_generic

__all__ = ["DRAWINGS", "WIDTH", "render_board", "render_generic", "render_state"]


def render_state(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """The state as `viewer` (default: the seat to act, else P1) sees it, drawn within
    `width` columns when possible (None: as wide as the full drawing)."""
    drawer = DRAWINGS.get(state.game.info.id)
    if drawer is None and state.board.labels:
        drawer = render_board
    if drawer is not None:
        try:
            return printable_lines(drawer(state, viewer, width))
        except (AttributeError, KeyError):  # the rule set changed its fields: fall back to the listing
            pass
    return printable_lines(render_generic(state, viewer, width))
