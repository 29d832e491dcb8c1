"""`rulewright replay`: a game log replayed and checked identical (the replay itself: api/replay.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..replay import Divergence, replay_log
from ..terminal import printable
from .shared import plural


@click.command("replay")
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--ruleset", metavar="RULESET",
              help="Replay under this rule set (a bundled id, a rule file, or a generated module .py, whose "
                   "code runs) instead of the one the log's header names.")
def command(log_file: Path, ruleset: str | None) -> None:
    """Replay a game log (from `play --log` or `simulate --log`) and check it is identical.

    The header names its rule set by bundled id or by rule file (relative to the log); a log
    never names a Python module: name one with --ruleset. Exit 1 at the first line that does
    not replay, for a log with no moves and for a log cut short (no final state line)."""
    try:
        actions, finished = replay_log(log_file, ruleset)
    except Divergence as exc:
        where = f"{log_file}:{exc.line}" if exc.line else str(log_file)
        click.echo(f"{printable(where)}: error: {printable(exc.message)}", err=True)
        sys.exit(1)
    click.echo(f"replayed {plural(actions, 'action')}: identical")
    if not finished:
        click.echo("(the game was not finished: the log ends before the game does)")
