"""Text for a terminal: whatever comes from a file (a rule file, a log, a scenario) or a state
reaches the terminal through `printable`: a control character (an escape sequence, a carriage
return, a bidirectional override) is shown as its escape, `\\x1b`, never sent to the terminal.
And a seat as the terminal names it (`seat_name`)."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .runtime.state import GameInfo


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, limit: int | None = None) -> str:
    """`text` safe to print on one line: control and format characters (category Cc, Cf:
    escape sequences, newlines, bidirectional overrides; not a tab, nor the zero-width joiner
    of emoji) escaped as `\\x1b`; cut to `limit` characters, with `...`."""
    cut = text if limit is None or len(text) <= limit else text[:limit]
    out = "".join(
        _escape(c) if c != "\t" and c != "\u200d" and unicodedata.category(c) in ("Cc", "Cf", "Cs") else c
        for c in cut
    )
    return out if cut is text else out + "..."


def printable_lines(text: str) -> str:
    """`text` of several lines, each made `printable`."""
    return "\n".join(printable(line) for line in text.split("\n"))


def seat_name(info: GameInfo, player: int) -> str:
    """`P1`, or `P1 (mountains)` when the game gives seats roles."""
    role = f" ({info.roles[player]})" if player < len(info.roles) else ""
    return f"P{player + 1}{role}"
