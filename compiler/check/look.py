"""`look:` against the rule set once its boards are built: the spots and regions `look: boards:` places
(compiler/build/look.py checked the rest of the section as it read it)."""

from __future__ import annotations

from collections.abc import Callable

from ...core.source import SourceSpan, did_you_mean
from ...runtime.boards import hex_labels
from .. import ir
from ..typed import BoardTable


def spot_names(table: BoardTable) -> list[str]:
    """The spots of a built board, in the runtime's order."""
    if table.graph:
        return list(table.graph)
    if table.cells:
        return [label for label, _, _ in table.cells]
    if table.wall:
        return [spot for _, faces in table.wall for _, spots in faces for spot in spots]
    if table.grid_cells:
        return [label for label, _, _ in table.grid_cells]
    if table.ring:
        return [str(i + 1) for i in range(table.ring)]
    return list(hex_labels(table.side).values()) if table.side > 0 else []


def check_look_boards(look: ir.Look, tables: list[BoardTable],
                      error: Callable[[SourceSpan, str, str | None], None]) -> None:
    """Each board's `spots:` names its spots, all of them or none; `labels:` names its regions."""
    by_name = {t.name: t for t in tables}
    for entry in look.boards:
        table = by_name.get(entry.board)
        if table is None:  # (a board refused: reported already)
            continue
        spots = spot_names(table)
        known = set(spots)
        unknown = [(name, span) for name, span in entry.spots if name not in known]
        for name, span in unknown:
            error(span, f"board `{entry.board}` has no spot `{name}`",
                  did_you_mean(name, spots) or "`spots:` places the board's own spots")
        placed = {name for name, _ in entry.spots}
        missing = [s for s in spots if s not in placed]
        if placed and missing and not unknown:
            error(entry.span, f"`look: boards: {entry.board}: spots:` places {len(placed & known)} of the "
                  f"{len(spots)} spots of the board, not `{missing[0]}`"
                  + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""),
                  "place every spot of the board, or none (then it is drawn as its kind of board is)")
        regions = sorted({name for _, name, _ in table.regions})
        for name, span in entry.labels:
            if name not in regions:
                error(span, f"board `{entry.board}` has no region `{name}`",
                      did_you_mean(name, regions) or "`labels:` places the names of the board's regions")
