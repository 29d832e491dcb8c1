"""`rulewright book`: a rule set as a readable rulebook, as text, one HTML page or PDF (docs/book.md)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from ..core.source import CompileError
from ..terminal import printable
from .shared import CliError, UsageProblem, plural, print_diagnostics, rule_file_of


def _write(target: Path, data: bytes) -> None:
    """Write `data` to `target` whole or not at all: a temporary file beside it, renamed."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise CliError(f"cannot write {printable(str(target))}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise CliError(f"cannot write {printable(str(target))}: {exc.strerror or exc}") from None


@click.command("book")
@click.argument("ruleset", metavar="RULESET")
@click.option("--against", metavar="BASE", default=None,
              help="Mark what RULESET adds, removes and changes from BASE (a rule set or rule file), at each rule.")
@click.option("--html", "html_dir", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="DIR",
              help="Write the book as one HTML page, DIR/index.html (nothing fetched from elsewhere).")
@click.option("--pdf", "pdf_file", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Write the book as PDF, each part from a new page (needs the `book` extra: weasyprint).")
def command(ruleset: str, against: str | None, html_dir: Path | None, pdf_file: Path | None) -> None:
    """RULESET as a rulebook: its title, components (the first position drawn), options, setup,
    phases and actions, scoring, end, the terms the rules use and its variants; each rule in words,
    with its declaration, the rulebook's words quoted in its rule file and the file:line it comes
    from. With --against BASE, what RULESET adds, removes and changes is marked in place. Without
    --html or --pdf, the book as text."""
    from .. import book

    if html_dir is not None and pdf_file is not None:
        raise UsageProblem("--html and --pdf: give one of them (run the command twice for both)")
    file = rule_file_of(ruleset)
    against_file = rule_file_of(against) if against is not None else None
    try:
        made = book.make(ruleset, file, against, against_file)
    except CompileError as exc:
        raise CliError(f"{plural(print_diagnostics(exc.diagnostics), 'problem')} in the rules") from None
    if html_dir is not None:
        target = html_dir / "index.html"
        _write(target, book.html(made).encode("utf-8"))
        click.echo(f"wrote {printable(str(target))}")
    elif pdf_file is not None:
        try:
            data, pages = book.pdf(made)
        except book.MissingExtra as exc:
            raise CliError(str(exc)) from None
        _write(pdf_file, data)
        click.echo(f"wrote {printable(str(pdf_file))} ({plural(pages, 'page')})")
    else:
        for line in book.text(made).splitlines():
            click.echo(printable(line))
