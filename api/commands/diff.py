"""`rulewright diff`: what rule set B changes in rule set A, rule by rule."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..core.source import CompileError
from ..terminal import printable
from .shared import CliError, plural, print_diagnostics, rule_file_of


class DiffProblem(CliError):
    """An error of `rulewright diff`: exit status 2 (1 means "they differ")."""

    exit_code = 2


CHANGE_SIGNS = {"added": "+", "removed": "-", "changed": "~"}


def format_change(change: Any) -> list[str]:
    """One change of `rulewright diff`: `~ path: old -> new  (file:line)`, or indented blocks
    for values of several lines."""
    sign = CHANGE_SIGNS[change.kind]
    where = f"  ({change.where.short})" if change.where is not None else ""
    values = [v for v in (change.old, change.new) if v is not None]
    if all("\n" not in v for v in values) and sum(len(v) for v in values) <= 72:
        shown = " -> ".join(values)
        return [f"  {sign} {change.path}: {shown}{where}", *_uses_lines(change)]
    lines = [f"  {sign} {change.path}{where}"]
    for label, value in (("was", change.old), ("now", change.new)):
        if value is None:
            continue
        if change.kind != "changed":
            lines.extend("      " + line for line in value.splitlines())
            continue
        lines.append(f"      {label}:")
        lines.extend("        " + line for line in value.splitlines())
    return lines + _uses_lines(change)


def _uses_lines(change: Any) -> list[str]:
    """What `base(...)` in a new version is (the version it replaced), and in that one, and so on."""
    lines = []
    for i, (label, value, where) in enumerate(change.uses):
        lead = "where" if i == 0 else "and in it,"
        if "\n" in value:
            lines.append(f"      {lead} {label} is  ({where.short})")
            lines.extend("        " + line for line in value.splitlines())
        else:
            lines.append(f"      {lead} {label} is {value}  ({where.short})")
    return lines


@click.command("diff")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def command(a: str, b: str, as_json: bool) -> None:
    """What rule set B changes in rule set A, rule by rule.

    A and B are bundled rule sets (china-cornett) or rule files (my-variant.yaml). The
    resolved rules are compared, not their text: reformatting, reordering keys or renaming a
    local variable is no change. Exit 0 when they are the same, 1 when they differ, 2 on an
    error."""
    from ..compiler import diff as rules_diff

    try:
        files = [rule_file_of(a), rule_file_of(b)]
    except CliError as exc:
        raise DiffProblem(exc.format_message()) from None
    rulesets = []
    problems = 0
    for f in files:
        try:
            rulesets.append(rules_diff.load_ruleset(f))
        except CompileError as exc:
            problems += print_diagnostics(exc.diagnostics)
    if problems:
        raise DiffProblem(f"{plural(problems, 'problem')} in the rules")
    changes = rules_diff.diff(rulesets[0], rulesets[1])
    if as_json:
        click.echo(json.dumps({"a": a, "b": b, "a_files": list(rulesets[0].files), "b_files": list(rulesets[1].files),
                               "equal": not changes, "changes": [c.to_json() for c in changes]}, indent=2))
    elif not changes:
        click.echo(f"{a} and {b}: the same rules")
    else:
        counts = ", ".join(f"{sum(1 for c in changes if c.kind == k)} {k}" for k in rules_diff.KINDS
                           if any(c.kind == k for c in changes))
        click.echo(f"{a} -> {b}: {plural(len(changes), 'change')} ({counts})")
        for kind in rules_diff.KINDS:
            group = [c for c in changes if c.kind == kind]
            if not group:
                continue
            click.echo()
            click.echo(f"{kind}:")
            for change in group:
                for line in format_change(change):
                    click.echo(printable(line))
    sys.exit(1 if changes else 0)
