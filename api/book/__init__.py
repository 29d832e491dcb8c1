"""`rulewright book`: a rule set as a readable rulebook (docs/book.md).

`make(ruleset, file, against, against_file)` builds the book of a rule set (model.py): title,
components with the first position drawn, options, setup, phases and actions, scoring, the end,
the terms the rules use, its variants; each rule in words built from its declaration, the
declaration itself, the rulebook's words from the rule file's comments (quotes.py) and its
file:line; with `against`, `diff`'s changes marked at the rules they change. output.py writes it
as text, as one HTML page with nothing fetched from elsewhere, or as PDF (WeasyPrint)."""

from __future__ import annotations

from pathlib import Path

from ..compiler.diff import load_ruleset
from ..core.source import CompileError
from ..runtime.errors import RulewrightError
from .model import Book, build
from .output import MissingExtra, html, pdf, text

__all__ = ["Book", "MissingExtra", "first_position", "html", "make", "pdf", "text"]

SEED = 0  # the drawing's game: the same drawing every time


def first_position(ruleset: str) -> tuple[str, str] | None:
    """The drawing of the rule set's first position (a new game at its smallest player count, seed
    SEED, default options) as a spectator sees it: what every seat sees alike, nothing hidden from
    any seat (api/viewer.py `public_svg`); and its caption. None when the game cannot be set up."""
    from ..rulesets import load_game
    from ..viewer import public_svg

    try:
        game = load_game(ruleset)
        players = game.info.players[0]
        svg = public_svg(game.new_state(players, SEED))
    except (CompileError, RulewrightError):
        return None
    return svg, (f"The first position of a game at {players} player{'s' if players != 1 else ''} (its smallest "
                 f"table; seed {SEED}, the default options), drawn as every seat sees it alike: what any seat "
                 "may not see is not drawn.")


def make(ruleset: str, file: Path, against: str | None = None, against_file: Path | None = None) -> Book:
    """The book of `ruleset` (its rule file `file`), with the changes from `against` marked. Raises
    CompileError when a rule file does not build or check."""
    from ..compiler.check import check

    rules = load_ruleset(file)
    base = load_ruleset(against_file) if against_file is not None else None
    for built in (rules, *((base,) if base is not None else ())):
        problems, _ = check(built)  # what `rulewright check` says, before anything is drawn
        errors = [d for d in problems if d.severity == "error"]
        if errors:
            raise CompileError(errors)
    return build(ruleset, file, rules, against, base, first_position(ruleset))
