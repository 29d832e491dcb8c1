"""`rulewright leaks`: what a seat may not see, drawn again; its observation and legal moves must stay the same."""

from __future__ import annotations

import sys

import click

from ..terminal import printable
from .shared import CliError, WholeNumber, plural, progress_bar, setup, stdout_console


@click.command("leaks")
@click.argument("ruleset")
@click.option("-n", "--games", type=WholeNumber(min=1), default=10, show_default=True,
              help="Random games to sample states from.")
@click.option("--players", type=WholeNumber(), help="Number of players (default: the smallest allowed).")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Seed of the games: game i is seeded derive_seed(SEED, i).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def command(ruleset: str, games: int, players: int | None, seed: int, options: tuple[str, ...], as_json: bool) -> None:
    """Check that the rules of RULESET show no seat what it may not see.

    In states of random games, everything a seat may not see is drawn again consistently with
    what it sees; its observation and its legal actions must stay the same. Each hidden field
    that changes them is reported with the line it is declared at and the rule lines concerned
    (docs/experiments.md). Exits 1 when a leak is found, or a game fails."""
    from ..leaks import find_leaks, leak_tables, report_json

    game, count, chosen = setup(ruleset, players, options)
    show = not as_json and games > 1 and sys.stderr.isatty()
    with progress_bar(games, f"{ruleset}: sampling the unseen", show) as advance:
        report = find_leaks(game, games, seed, count, chosen, advance)
    if as_json:
        click.echo(report_json(report))
    else:
        console = stdout_console()
        for table in leak_tables(report):
            console.print(table)
    if report.errors:
        raise CliError(printable(f"{plural(len(report.errors), 'game')} failed; the first: {report.errors[0]}"))
    if report.leaks:
        fields = ", ".join(f"`{leak.field}` ({leak.declared})" for leak in report.leaks)
        raise CliError(printable(f"{report.ruleset} shows a seat what it may not see: {fields}"))
