"""`rulewright coverage`: which rule points fired in random games of a rule set."""

from __future__ import annotations

import json
import sys

import click

from ..match import DEFAULT_MAX_MOVES
from .shared import CliError, WholeNumber, parse_options, progress_bar, rule_file_of, stdout_console


@click.command("coverage")
@click.argument("ruleset")
@click.option("-n", "--games", default=200, show_default=True, type=WholeNumber(min=1),
              help="Random games to play.")
@click.option("--players", type=WholeNumber(), help="Number of players (default: the fewest the rule set allows).")
@click.option("--seed", default=0, show_default=True, type=WholeNumber(),
              help="Seed of the batch: the games are those `simulate` plays with it.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule set option (repeatable).")
@click.option("--vary-options", is_flag=True,
              help="Each game draws every option not set by --option at random (seeded), so that "
                   "option-dependent rules can fire.")
@click.option("--variant-only", is_flag=True, help="Only the points of the rule set's own file (a variant's rules).")
@click.option("--max-moves", default=DEFAULT_MAX_MOVES, show_default=True, type=WholeNumber(min=1),
              help="Stop a game after this many actions.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def command(ruleset: str, games: int, players: int | None, seed: int, options: tuple[str, ...],
             vary_options: bool, variant_only: bool, max_moves: int, as_json: bool) -> None:
    """Which rule points fired in N random games of RULESET (a bundled id or a rule file).

    Actions (listed as legal, taken), choices (offered, with several values), guards (true,
    false), each branch of an `if` and of `a if c else b`, effects, triggers, definitions,
    scoring terms and options (docs/experiments.md): a table per kind and rule file, then every
    point never or only partly fired with its file:line and rule path. The games run on a
    coverage build (every optimisation pass off, a probe at each point: compiler/probes.py)
    compiled in memory; they are the games `simulate` plays. Exits 1 if a game raised an error."""
    from .. import coverage as cov

    if ruleset.endswith(".py"):
        raise CliError("coverage reads the rules: name a bundled rule set or a rule file (.yaml), "
                       "not a generated module")
    path = rule_file_of(ruleset)
    chosen = parse_options(options)
    build = cov.instrument(path)
    if variant_only and len(build.probed.files) < 2:
        raise CliError(f"{ruleset} is no variant: it extends no rule set (--variant-only shows a variant's own rules)")
    if players is not None and players not in build.game.info.players:
        allowed = ", ".join(str(n) for n in build.game.info.players)
        raise CliError(f"{build.probed.ruleset} is played by {allowed} players, not {players}")
    show = not as_json and games > 1 and sys.stderr.isatty()
    with progress_bar(games, f"{build.probed.ruleset}: coverage", show) as advance:
        report = cov.run_games(path, games, seed, players, chosen, vary_options, max_moves, advance)
    report.ruleset = ruleset  # as named on the command line (a rule file by its path)
    if variant_only:
        report = report.only(build.probed.files[-1:])
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        cov.render(report, stdout_console())
    sys.exit(1 if report.errors else 0)
