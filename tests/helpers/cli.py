"""The command line as the tests drive it: a command run in-process (click's CliRunner), the shape
of a user's error (one line, no traceback), and the processes a command started."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner, Result

from rulewright.cli import cli


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    """`rulewright ARGS...` in this process, with `input` on its standard input."""
    return CliRunner().invoke(cli, list(args), input=input, env=env)


def assert_user_error(result: Result, *fragments: str) -> None:
    """The command failed with one line `rulewright: error: ...` holding each fragment, and no traceback."""
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulewright: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    assert "Traceback" not in result.output


def group_members(pgid: int) -> list[tuple[int, str]]:
    """Live processes of a process group, with their command lines (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append((int(entry), command))
    return found
