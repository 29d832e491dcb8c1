"""`rulewright schema` and `rulewright explain`: what an editor, and a person writing a variant,
needs to know of the rule language and of a rule set (docs/editors.md). Registered on the CLI
group by api/cli.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from .cli import cli
from .commands.shared import CliError, literal, plural, print_diagnostics, rule_file_of, stdout_console
from .compiler.schema import rule_schema, scenario_schema
from .compiler.source import CompileError, did_you_mean
from .runtime.errors import whole_number

# The file names `schema --out DIR` writes, and the ones bundled in schema/ (kept up to date by
# tests/test_schema.py), which a rule file's `# yaml-language-server: $schema=` comment names.
SCHEMA_FILES = {"rules": "rules.schema.json", "scenarios": "scenarios.schema.json"}


SCHEMA_USAGE = """\
rulewright schema prints one JSON Schema, or writes both:
  rulewright schema --rules          the schema of rule files, on standard output
  rulewright schema --scenarios      the schema of scenario files, on standard output
  rulewright schema --out DIR        write DIR/rules.schema.json and DIR/scenarios.schema.json
The repository's copies are in schema/ (docs/editors.md says how an editor uses them)."""


def schema_text(kind: str) -> str:
    """The JSON Schema of `kind` (`rules` or `scenarios`) as written: the same bytes every time."""
    schema: dict[str, Any] = rule_schema() if kind == "rules" else scenario_schema()
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


@cli.command("schema")
@click.option("--rules", "kinds", flag_value="rules", multiple=True, help="The schema of rule files.")
@click.option("--scenarios", "kinds", flag_value="scenarios", multiple=True, help="The schema of scenario files.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write rules.schema.json and/or scenarios.schema.json into this directory.")
def schema_command(kinds: tuple[str, ...], out_dir: Path | None) -> None:
    """The JSON Schema (draft 2020-12) of rule files (--rules) or scenario files (--scenarios),
    made from the checker's own tables of keys: printed, or with --out DIR written there (both
    unless one is chosen). Editors check a file against it as one types (docs/editors.md)."""
    chosen = tuple(dict.fromkeys(kinds)) or ("rules", "scenarios")
    if out_dir is None:
        if not kinds:  # nothing asked: say what there is (two schemas printed would not be one JSON document)
            click.echo(SCHEMA_USAGE)
            return
        if len(chosen) != 1:
            raise CliError("choose --rules or --scenarios to print one schema, or give --out DIR to write both")
        click.echo(schema_text(chosen[0]), nl=False)
        return
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for kind in chosen:
            target = out_dir / SCHEMA_FILES[kind]
            target.write_text(schema_text(kind), encoding="utf-8")
            click.echo(f"wrote {target}")
    except OSError as exc:
        raise CliError(f"cannot write the schema: {exc.strerror or exc}: {exc.filename or out_dir}") from None


@cli.command("explain")
@click.argument("ruleset", metavar="RULESET")
@click.argument("name", required=False, default=None)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def explain_command(ruleset: str, name: str | None, as_json: bool) -> None:
    """What RULESET defines, and so what a variant of it can change: every option, enumeration,
    component, state field, definition, procedure, phase, action, trigger, scoring term and
    invariant, with its signature, doc and file:line. With NAME: its definition, every place it
    is used, and what each variant built on RULESET (the rule files of its folder) changes in it."""
    from .compiler import driver
    from .compiler.check import check
    from .explain import KINDS, catalogue, explain_name

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


def tcp_address(text: str) -> tuple[str, int]:
    """`--tcp [HOST:]PORT` as (host, port); the host is 127.0.0.1 unless given."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    number = whole_number(port)
    if number is None or not 1 <= number <= 65535 or not host:
        raise CliError(f"bad --tcp `{text}`: expected PORT or HOST:PORT, a port from 1 to 65535, e.g. --tcp 2087")
    return host, number


@cli.command("lsp")
@click.option("--tcp", "tcp", metavar="[HOST:]PORT", default=None,
              help="Listen on TCP (for debugging; the host is 127.0.0.1 unless given) instead of stdio.")
def lsp_command(tcp: str | None) -> None:
    """The language server of rule and scenario files, for editors (docs/editors.md): the
    checker's problems as you type, hover, go to definition across `extends:` files, completion
    and the outline of a file. Speaks the Language Server Protocol on stdin and stdout."""
    address = tcp_address(tcp) if tcp is not None else None
    try:
        from .lsp import Refused, serve
    except ImportError as exc:
        raise CliError(f"`rulewright lsp` needs pygls and lsprotocol ({exc.name or exc} is missing): "
                       "pip install 'rulewright[lsp]'") from None
    try:
        serve(address)
    except Refused as exc:
        raise CliError(f"refused standard input: {exc}") from None
    except OSError as exc:
        where = f"{address[0]}:{address[1]}" if address else "stdio"
        raise CliError(f"cannot serve on {where}: {exc.strerror or exc}") from None
