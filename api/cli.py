"""The `rulewright` command line: list, check, compile, play, simulate, replay, bench, scenario.

Every user error (an unknown rule set, a bad option, a missing file, any RulewrightError)
prints one line `rulewright: error: ...` and exits non-zero; problems of a rule file print
its diagnostics, `path:line:col: error: ...`, with the source line.

This module is the group only: each command is a module of rulewright.commands, named in its
table (commands/__init__.py) and imported when the command is run, or listed by `--help`.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from .commands import COMMANDS
from .commands.shared import CliError, UsageProblem, plural, print_diagnostics
from .core._version import __version__
from .core.source import CompileError
from .rulesets import UnknownRuleset
from .runtime.errors import RulewrightError


class RulewrightGroup(click.Group):
    """The group of the commands: each loaded from its module when first asked for (COMMANDS),
    and the errors a user can cause turned into one-line messages: never a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            command = importlib.import_module(COMMANDS[cmd_name]).command
            assert isinstance(command, click.Command), COMMANDS[cmd_name]
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                            list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            # click (8.4 and later) suggests the commands closest to a mistyped one among those
            # loaded (self.commands): among them all, as before they were loaded lazily
            if type(exc).__name__ != "NoSuchCommand" or not hasattr(exc, "command_name"):
                raise
            raise click.exceptions.NoSuchCommand(exc.command_name, possibilities=self.list_commands(ctx),
                                                 ctx=ctx) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CliError:
            raise
        except click.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":
                raise
            where = exc.ctx.command_path if exc.ctx is not None else "rulewright"
            raise UsageProblem(f"{exc.format_message()} (see `{where} --help`)") from None
        except CompileError as exc:  # (a RulewrightError too: its diagnostics are printed one by one)
            problems = print_diagnostics(exc.diagnostics)
            raise CliError(f"{plural(problems, 'problem')} in the rules") from None
        except (RulewrightError, UnknownRuleset) as exc:
            raise CliError(str(exc)) from None
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError) as exc:
            raise CliError(f"{exc.strerror or exc}: {exc.filename}") from None


@click.group(cls=RulewrightGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulewright")
def cli() -> None:
    """Board-game rules written as data, compiled to fast, typed Python games."""


def main() -> None:
    cli(prog_name="rulewright")
