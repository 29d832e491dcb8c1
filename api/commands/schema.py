"""`rulewright schema`: the JSON Schemas of rule files and scenario files, for editors (docs/editors.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ..compiler.schema import rule_schema, scenario_schema
from .shared import CliError

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


@click.command("schema")
@click.option("--rules", "kinds", flag_value="rules", multiple=True, help="The schema of rule files.")
@click.option("--scenarios", "kinds", flag_value="scenarios", multiple=True, help="The schema of scenario files.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write rules.schema.json and/or scenarios.schema.json into this directory.")
def command(kinds: tuple[str, ...], out_dir: Path | None) -> None:
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
