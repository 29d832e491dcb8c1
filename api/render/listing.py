"""A state as a listing: its heading, then every field the viewer observes, one per line (per-spot
fields grouped by value); what every drawing falls back to, and how a drawing lists the fields it
does not draw."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from ..runtime.state import GameInfo, State
from ..terminal import seat_name

WIDTH = 100  # wrap long generic listings at this width


def heading(state: State) -> str:
    info = state.game.info
    to_act = state.to_act()
    who = "game over" if to_act is None else f"{seat_name(info, to_act)} to act"
    phase = f", phase {state.PHASES[state.phase]}" if len(state.PHASES) > 1 else ""
    return f"{info.title} ({info.ruleset}): turn {state.turn}{phase}, {who}"


def render_generic(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """Every field `viewer` observes, one per line; per-spot fields grouped by value."""
    player = viewer if viewer is not None else (state.to_act() or 0)
    seen = state.observation(player)["fields"]
    per = {f.name: f.per for f in state.FIELDS}
    lines = [heading(state)]
    for name, value in seen.items():
        lines.extend(field_lines(name, per.get(name), value, width or WIDTH, state._labels("player")))
    return "\n".join(lines)


def field_lines(name: str, per: str | None, value: Any, width: int, seats: Sequence[str] = ()) -> list[str]:
    """One field as lines of text; `seats` names the seats (`P1` ..., then neutral ones)."""
    if per == "player":
        items = value.values() if isinstance(value, dict) else value
        shown = ", ".join(
            f"{seats[p] if p < len(seats) else f'P{p + 1}'} {'?' if v is None else plain_text(v)}"
            for p, v in enumerate(items)
        )
        return textwrap.wrap(f"{name}: {shown}", width, subsequent_indent="    ", break_on_hyphens=False,
                             break_long_words=False) or [f"{name}:"]
    if isinstance(value, dict) and len(value) > 12:
        groups: dict[str, list[str]] = {}
        for key, v in value.items():
            groups.setdefault(plain_text(v), []).append(str(key))
        text = f"{name}: " + "; ".join(f"{v}: {' '.join(keys)}" for v, keys in groups.items())
        return textwrap.wrap(text, width, subsequent_indent="    ")
    if isinstance(value, dict):
        text = f"{name}: " + ", ".join(f"{k} {plain_text(v)}" for k, v in value.items())
        return textwrap.wrap(text, width, subsequent_indent="    ")
    return textwrap.wrap(f"{name}: {plain_text(value)}", width, subsequent_indent="    ") or [f"{name}:"]


def plain_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + " ".join(plain_text(v) for v in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def final_scores(state: State, info: GameInfo, title: str, width: int) -> list[str]:
    """At the end: each seat's score and the terms it adds up (`P1 (seat1): 24 (reputation 32 + mongols -8)`)."""
    lines = ["", title]
    for p in range(state.num_players):
        terms = state.score_terms(p)
        detail = " + ".join(f"{t} {v}" for t, v in terms.items())
        lines += textwrap.wrap(f"  {seat_name(info, p)}: {sum(terms.values())} ({detail})", width,
                               subsequent_indent="      ")
    return lines
