"""`rulewright explain`: what a rule set defines, and so what a variant of it can change (docs/editors.md)."""

from __future__ import annotations

import json

import click
from rich.table import Table

from ..core.source import CompileError, did_you_mean
from .shared import CliError, literal, plural, print_diagnostics, rule_file_of, stdout_console


@click.command("explain")
@click.argument("ruleset", metavar="RULESET")
@click.argument("name", required=False, default=None)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def command(ruleset: str, name: str | None, as_json: bool) -> None:
    """What RULESET defines, and so what a variant of it can change: every option, enumeration,
    component, state field, definition, procedure, phase, action, trigger, scoring term,
    invariant and `returns:`, with its signature, doc and file:line. With NAME: its definition,
    every place it is used, and what each variant built on RULESET (the rule files of its folder)
    changes in it."""
    from ..compiler import driver
    from ..compiler.check import check
    from ..explain import KINDS, catalogue, explain_name

    path = rule_file_of(ruleset)
    try:
        resolved, built, diagnostics = driver.build(path)
    except CompileError as exc:
        raise CliError(f"{plural(print_diagnostics(exc.diagnostics), 'problem')} in the rules") from None
    errors = [d for d in diagnostics if d.severity == "error"]
    if built is None or errors:
        raise CliError(f"{plural(print_diagnostics(errors or diagnostics), 'problem')} in the rules")
    checked, typed = check(built)  # what `rulewright check` says, and each definition's type
    errors = [d for d in checked if d.severity == "error"]
    if typed is None or errors:
        raise CliError(f"{plural(print_diagnostics(errors or checked), 'problem')} in the rules")
    entries = catalogue(built, resolved.tree, {d.name: d.ty for d in typed.defines})
    if name is None:
        if as_json:
            click.echo(json.dumps({"ruleset": ruleset, "files": list(built.files),
                                   "entries": [e.to_json() for e in entries]}, indent=2))
            return
        table = Table(title=literal(f"{built.title}: what a variant can change"), title_justify="left")
        for column in ("kind", "name", "where"):  # never cut: a name or file:line is copied whole
            table.add_column(column, no_wrap=True)
        table.add_column("signature", overflow="fold", ratio=3)
        table.add_column("doc", overflow="fold", ratio=2)
        for kind in KINDS:
            for e in (e for e in entries if e.kind == kind):
                table.add_row(e.kind, literal(e.name), literal(e.where), literal(e.signature), literal(e.doc))
        stdout_console().print(table)
        return
    found = explain_name(entries, path, built, name, {d.name: d.ty for d in typed.defines})
    if found is None:
        hint = did_you_mean(name, sorted({e.name for e in entries}))
        raise CliError(f"{ruleset} defines nothing named `{name}` (no {', '.join(KINDS)})"
                       + (f": {hint}" if hint else ""))
    if as_json:
        click.echo(json.dumps({"ruleset": ruleset, **found}, indent=2))
        return
    console = stdout_console()
    for d in found["definitions"]:
        console.print(literal(f"{d['kind']} {d['name']}  ({d['where']})"))
        console.print(literal(f"  {d['signature']}"))
        if d["doc"]:
            console.print(literal(f"  {d['doc']}"))
        for i, v in enumerate(d.get("replaces", ())):  # `base(...)`: the version it uses, and so on
            which = "uses the version it replaces" if i == 0 else "which uses the version it replaced"
            console.print(literal(f"  {which}, {v['base']}  ({v['where']}):"))
            console.print(literal(f"    {v['is']}"))
    uses = found["uses"]
    console.print(literal(f"used {plural(len(uses), 'time')}" + (":" if uses else "")))
    for u in uses:
        console.print(literal(f"  {u['where']}  {u['rule']}"))
    changes = found["variants"]
    console.print(literal(f"changed by {plural(len({c['variant'] for c in changes}), 'variant')}"
                          + (":" if changes else "")))
    for c in changes:
        console.print(literal(f"  {c['variant']}: {c['kind']} {c['path']}  ({c['where']})"))
        for label in ("old", "new"):
            if c[label] is not None:
                console.print(literal(f"    {label}: {c[label]}"))
        for i, u in enumerate(c.get("uses", ())):  # the new value uses the version it replaces, as `diff` says
            lead = "where" if i == 0 else "and in it,"
            console.print(literal(f"    {lead} {u['base']} is {u['is']}  ({u['where']})"))
