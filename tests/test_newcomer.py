"""A newcomer's rough edges (issue 12): what a person trying the tool for the first time met,
each fixed and held here: `list` never cuts an id, `play` draws each game within 100 columns
and lists its moves compactly, the Python API takes what a person would pass it, files land
where a designer expects, and messages say what is wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rulewright.cli import cli


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, env=env)


# -- list: ids whole -----------------------------------------------------------------------------
@pytest.mark.parametrize("columns", [None, "40", "60", "100", "200"])
def test_list_never_cuts_an_id(columns: str | None) -> None:
    """Piped (no COLUMNS: 120 columns) or in a narrow or wide terminal, every rule set id is
    printed whole on one line, and no line is wider than the terminal."""
    result = run("list", env={"COLUMNS": columns} if columns else {"COLUMNS": ""})
    assert result.exit_code == 0, result.output
    ids = [r["ruleset"] for r in json.loads(run("list", "--json").stdout)["rulesets"]]
    assert "china-schacht/fortifications-bonus-tiles" in ids
    words = set(re.findall(r"[a-z0-9/_-]+", result.stdout))
    for rid in ids:
        assert rid in words, (rid, result.stdout)
    assert "…" not in result.stdout
    width = int(columns) if columns else 120
    assert max(len(line) for line in result.stdout.splitlines()) <= width
