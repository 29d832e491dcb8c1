"""`rulewright scenario`: scenario files run (rulebook examples and rulings as data); --against a
variant, --coverage."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..rulesets import load_game
from ..terminal import printable, printable_lines
from .shared import CliError, plural, print_diagnostics, stdout_console


@click.command("scenario")
@click.argument("paths", nargs=-1, required=True, metavar="FILE|DIR...", type=click.Path(path_type=Path))
@click.option("--against", "against", metavar="RULESET",
              help="Also run them under this rule set (a variant) and report which outcomes change.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--coverage", "coverage", is_flag=True,
              help="Run them on each rule set's coverage build and report which rule points fired (as "
                   "`rulewright coverage` does for random games).")
def command(paths: tuple[Path, ...], against: str | None, as_json: bool, coverage: bool = False) -> None:
    """Run scenarios: rulebook examples and rulings as executable data (docs/scenarios.md).

    One line per scenario; a failure shows expected against actual and the rule lines that
    fired. Exit 1 if any fails. With --against, exit 1 if any outcome changes; scenarios of a
    rule set the variant does not extend are skipped, one line per file. With --coverage, a
    table of the rule points they fired follows, per rule set."""
    from .. import coverage as cov
    from .. import scenarios as sc

    for path in paths:
        if not path.exists():
            raise CliError(f"no such scenario file or folder: {path}")
    if coverage and against is not None:
        raise CliError("--coverage runs the scenarios on their own rule sets: not with --against")
    loader = cov.RecordingLoader()  # (the scenarios' own loader, remembering each rule file for --coverage)
    found, problems = sc.load_all(list(paths), loader if coverage else sc.default_loader)
    if problems:
        count = print_diagnostics(problems)
        raise CliError(f"{plural(count, 'problem')} in the scenarios")
    if not found:
        raise CliError("no scenarios found")
    if against is not None:
        other = load_game(against)
        comparisons = [sc.compare(s, other) for s in found]
        changed = sum(1 for c in comparisons if c.changes)
        skipped = sum(1 for c in comparisons if c.skipped is not None)
        if as_json:
            click.echo(json.dumps({"against": against, "scenarios": len(found), "changed": changed,
                                   "skipped": skipped, "results": [c.to_json() for c in comparisons]}, indent=2))
        else:
            skipped_files: dict[tuple[str, str], int] = {}  # one line per file written for another rule set
            for c in comparisons:
                if c.skipped is not None:
                    key = (c.scenario.file, c.skipped)
                    skipped_files[key] = skipped_files.get(key, 0) + 1
                else:
                    click.echo(printable_lines(c.report(against)))
            for (file, why), count in skipped_files.items():
                click.echo(printable(f"skipped  {file} ({plural(count, 'scenario')}): {why}"))
            tail = (f" ({skipped} skipped: written for rule sets that {against} does not extend)"
                    if skipped else "")
            click.echo(printable(f"{plural(len(found), 'scenario')}: {changed} changed under {against}{tail}"))
        sys.exit(1 if changed else 0)
    reports: list[cov.Report] = []
    if coverage:
        reports, results = cov.run_scenarios(found, loader)
    else:
        results = [sc.run(s) for s in found]
    failed = sum(1 for r in results if not r.passed)
    if as_json:
        data: dict[str, Any] = {"scenarios": len(results), "passed": len(results) - failed, "failed": failed,
                                "results": [r.to_json() for r in results]}
        if coverage:
            data["coverage"] = [report.to_json() for report in reports]
        click.echo(json.dumps(data, indent=2))
    else:
        for r in results:
            click.echo(printable_lines(r.report()))
        click.echo(f"{len(results) - failed} passed, {failed} failed")
        for report in reports:
            cov.render(report, stdout_console())
    sys.exit(1 if failed else 0)
