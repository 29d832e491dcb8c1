"""`rulewright check`: rule files checked without compiling them, every problem with where it is."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..compiler import driver
from ..core.paths import display, shown_safely
from .shared import plural, print_diagnostics


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def command(files: tuple[Path, ...]) -> None:
    """Check rule files without compiling them: every problem, with where it is.

    A folder stands for every .yaml file under it."""
    bad_files = problems = 0
    expanded: list[Path] = []
    for p in files:
        found = sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
        if not found:
            click.echo(f"{shown_safely(display(p))}: error: no rule files (*.yaml) in this folder", err=True)
            bad_files, problems = bad_files + 1, problems + 1
        expanded += found
    for path in expanded:
        _, diagnostics, _ = driver.analyse(path)
        errors = [d for d in diagnostics if d.severity == "error"]
        print_diagnostics(diagnostics)
        if errors:
            bad_files += 1
            problems += len(errors)
        else:
            warned = f" ({plural(len(diagnostics), 'warning')})" if diagnostics else ""
            click.echo(f"{path}: ok{warned}")
    if bad_files:
        click.echo(f"rulewright: error: {plural(problems, 'problem')} in {plural(bad_files, 'rule file')}",
                   err=True)
        sys.exit(1)
