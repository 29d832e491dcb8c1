"""`look:` against the rule set once its boards are built and its rules typed: the spots and regions
`look: boards:` places, and the texts of `look: prompts:` and `look: moves:`, typed as told texts
are and refused where they read what some player may not see (compiler/build/look.py checked the
rest of the section as it read it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from ...core.source import SourceSpan, did_you_mean
from ...runtime.boards import hex_labels
from .. import ir
from .. import typed as t
from ..analysis.reads import analyse
from ..names import local_name
from ..typed import BoardTable, Symbol
from ..types import Ty
from .texts import told

if TYPE_CHECKING:
    from .exprs import ExprTyper


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


def look_texts(x: ExprTyper, rs: ir.RuleSet, actions: Sequence[t.Action],
               asks: Mapping[str, tuple[Ty, SourceSpan]]) -> tuple[t.LookText, ...]:
    """The texts of `look: prompts:` and `look: moves:` typed as told texts are: each for an action or
    an ask of the rules, a prompt reading the game, a move's text its choices too (an action's
    choices, or the value an ask's answer chose, by the ask's name)."""
    if rs.look is None:
        return ()
    by_action = {a.name: a for a in actions}
    out: list[t.LookText] = []
    for move, templates in ((False, rs.look.prompts), (True, rs.look.moves)):
        section = "moves" if move else "prompts"
        for text in templates:
            action = by_action.get(text.name)
            asked = text.name in asks
            if action is None and not asked and text.span.path != rs.span.path:
                # A text the rule set inherits, for an action or ask a variant took away (`actions:
                # turn_back: ~`): it goes with what it named, as the variant holds only what differs.
                continue
            if action is None and not asked:
                x.error(text.span, f"`look: {section}:` names `{text.name}`, which is no action nor ask of the rules",
                        did_you_mean(text.name, sorted(set(by_action) | set(asks)))
                        or "a text is given to an action (`actions:`) or to what an `ask` chooses, by its name")
                continue
            if action is not None and asked:
                x.error(text.span, f"`look: {section}:` names `{text.name}`, which is both an action and what an "
                        "`ask` chooses: the text could be for either", "name the ask's choice otherwise")
                continue
            params: tuple[Symbol, ...] = ()
            if move and action is not None:
                params = tuple(c.var for c in action.choices)
            elif move:
                ty, span = asks[text.name]
                params = (Symbol("local", text.name, ty, local_name(text.name), span, item=True),)
            x.scopes, x.context = [{p.name: p for p in params}], "legal"
            typed = told(x, text.parts, text.text_span, f"a text of `look: {section}:`")
            out.append(t.LookText(text.name, move, asked and action is None, params, typed, text.text_span))
    return tuple(out)


def check_look_reads(program: t.TypedProgram, error: Callable[[SourceSpan, str, str | None], None]) -> None:
    """A prompt or a move's text is shown to every seat: it reads no field some player may not see,
    itself or through the definitions it uses (compiler/analysis/reads.py)."""
    if not program.look_texts:
        return
    hidden = {f.name: f for f in program.rules.fields if f.visible != "all" or f.shown_if is not None
              or f.hide_items_if is not None or f.visible_to is not None}
    found = analyse(program)
    for text in program.look_texts:
        for arg in text.told.args:
            read = sorted(found.reads(arg).fields & set(hidden))
            if read:
                f = hidden[read[0]]
                how = "`hide_items_if:`" if f.visible == "all" else f"`visible: {f.visible}`"
                error(arg.span, f"a text of `look: {'moves' if text.move else 'prompts'}:` reads `{f.name}` "
                      f"({how}), which not every player sees", "every seat reads a prompt and a move's text: "
                      "read only fields every player sees (`visible: all`), here or in the definitions used")
