"""What the commands share: numbers as typed (digits 0-9 only), the one-line user error, a rule
file or rule set named on the command line, rule options and the player count, agents by seat,
the optimisation switches, and rich output (tables of figures, a progress bar).

Only the commands (rulewright.commands.*) and the group (rulewright.cli) import it."""

from __future__ import annotations

import contextlib
import os
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.paths import RULE_FILE_SUFFIXES, RULESET_ID, ruleset_file
from ..rulesets import load_game, unknown_ruleset
from ..runtime.errors import whole_number
from ..runtime.state import Game
from ..terminal import printable, printable_lines

if TYPE_CHECKING:
    from ..agents import AgentSpec
    from ..core.source import Diagnostic


# Click reads a number with int() and float(), which take any Unicode digit (`int("٣")` is 3): a
# number a person types is written with the ASCII digits 0-9 (runtime.errors.whole_number).
class WholeNumber(click.IntRange):
    """A whole number written with the digits 0-9 (a `-` first, at most 30 digits), in a range."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and whole_number(value.strip(), signed=True) is None:
            self.fail(f"`{printable(value, 40)}` is not a whole number written with the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)

    def __init__(self, min: int | None = None, max: int | None = None, **kwargs: Any) -> None:  # noqa: A002
        super().__init__(min, max, **kwargs)
        if min is None and max is None:  # no range to show: `INTEGER`, not `INTEGER RANGE [x<=None]`
            self.name = "integer"

    def _describe_range(self) -> str:
        return "" if self.min is None and self.max is None else super()._describe_range()


class DecimalNumber(click.FloatRange):
    """A number written with the digits 0-9, a `.` and an exponent (no other script's digits), in a range."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(f"`{printable(value, 40)}` is not a number written with the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


class CliError(click.ClickException):
    """A user error: one line on stderr, `rulewright: error: ...`."""

    def show(self, file: IO[Any] | None = None) -> None:
        # one line, whatever text from files it quotes: control characters are escaped
        click.echo(f"rulewright: error: {printable(self.format_message())}", err=True, file=file)


class UsageProblem(CliError):
    exit_code = 2


def print_diagnostics(diagnostics: Iterable[Diagnostic]) -> int:
    count = 0
    for d in diagnostics:
        click.echo(d.render(), err=True)
        count += 1
    return count


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def rule_file_of(arg: str) -> Path:
    """A rule file named by path (`x.yaml`) or by bundled rule set (`china-cornett`)."""
    if arg.endswith(RULE_FILE_SUFFIXES) or "\\" in arg or Path(arg).is_file():
        path = Path(arg)
        if not path.is_file():
            raise CliError(f"no such rule file: {arg}")
        return path
    if not RULESET_ID.fullmatch(arg) or not ruleset_file(arg).is_file():
        raise CliError(str(unknown_ruleset(arg)))
    return ruleset_file(arg)


def parse_options(values: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for value in values:
        name, sep, choice = value.partition("=")
        if not sep or not name.strip() or not choice.strip():
            raise CliError(f"bad --option `{value}`: expected NAME=VALUE, e.g. --option board=hex5")
        options[name.strip()] = choice.strip()
    return options


def setup(ruleset: str, players: int | None, options: Sequence[str]) -> tuple[Game, int, dict[str, str]]:
    """The game, its player count and its full options, checked (a BadSetup says what is wrong)."""
    game = load_game(ruleset)
    chosen = game.resolve_options(parse_options(options))
    count = game.info.players[0] if players is None else players
    game.new_state(count, 0, chosen)  # checks the player count
    return game, count, chosen


def literal(text: str) -> Text:
    """Text from a file or the command line, as rich prints it: never read as markup
    (`[bold]`, `[/link]`, `:emoji:`), control characters escaped."""
    return Text(printable_lines(text))


def stdout_console() -> Console:
    """Rich output on stdout; when piped (and COLUMNS unset), 120 columns rather than 80."""
    wide = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 120
    return Console(file=sys.stdout, highlight=False, soft_wrap=False, width=wide)


def print_figures(console: Console, table: Table) -> None:
    """Print a table of figures, none ever cut (`345…`): each column as wide as its widest
    cell, its header wrapped within that width (at spaces only); a table too wide for the
    console is printed in parts, each with the first column again (the row's name)."""
    texts = [[cell.plain if isinstance(cell, Text) else str(cell) for cell in column.cells]
             for column in table.columns]
    headers = [column.header.plain if isinstance(column.header, Text) else str(column.header)
               for column in table.columns]
    widths = [max([len(c) for c in cells] + [len(w) for w in header.split()] + [1])
              for cells, header in zip(texts, headers, strict=True)]
    wrapped = ["\n".join(textwrap.wrap(h, w, break_long_words=False)) or h
               for h, w in zip(headers, widths, strict=True)]
    budget = max(console.width, widths[0] + 4 + 1) if widths else console.width
    parts: list[list[int]] = [[0]]
    for k in range(1, len(widths)):
        used = sum(widths[i] + 3 for i in parts[-1]) + 1
        if used + widths[k] + 3 > budget and len(parts[-1]) > 1:
            parts.append([0])
        parts[-1].append(k)
    for n, part in enumerate(parts):
        shown = Table(title=table.title if n == 0 else None, title_justify=table.title_justify,
                      caption=table.caption if n == len(parts) - 1 else None, caption_justify=table.caption_justify,
                      show_header=table.show_header)
        for k in part:
            column = table.columns[k]
            shown.add_column(wrapped[k], justify=column.justify, no_wrap=True, min_width=widths[k])
        for row in zip(*(list(table.columns[k].cells) for k in part), strict=True):
            shown.add_row(*row)
        wide = console
        needed = sum(widths[k] + 3 for k in part) + 1
        if needed > console.width:  # (one column alone wider than the console: the terminal folds it)
            wide = Console(file=console.file, highlight=False, soft_wrap=False)
            wide.width = needed  # (not Console(width=): COLUMNS in the environment would win over it)
        wide.print(shown)


def tell_charts(folder: Path, written: Sequence[Path], as_json: bool) -> None:
    """Say on stderr which charts `--plot` wrote (not beside `--json`, whose output is the JSON only)."""
    if not as_json:
        click.echo(f"charts written to {printable(str(folder))}: {', '.join(p.name for p in written)}", err=True)


def interrupted(stop: Any, played: str, workers: int) -> None:
    """A batch stopped by a signal (`Interrupted`): say how far it got, and exit with its status."""
    ended = f"; {plural(workers, 'worker')} ended" if workers > 1 else ""
    click.echo(f"rulewright: interrupted by {stop.name} after {played}{ended}", err=True)
    sys.exit(stop.exit_code)


@contextlib.contextmanager
def progress_bar(total: int, label: str, enabled: bool) -> Iterator[Any]:
    """A rich progress bar on stderr, or nothing; yields `advance()`."""
    if not enabled:
        yield lambda: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(printable(label), total=total)
        yield lambda: progress.advance(task)


class PassName(click.types.StringParamType):
    """A pass's name (`--no-pass`): one of the passes, or the name one had before it was named by what
    it does (`passes.RENAMED`), read as its new name with a line on stderr that says it. Any other
    name is refused as `click.Choice` refuses it, listing the passes."""

    name = "pass"

    def __init__(self, names: Sequence[str]) -> None:
        self.choice = click.Choice(names)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ..compiler import passes as passes_module

        note = passes_module.renamed_note(value) if isinstance(value, str) else None
        if note is not None:
            click.echo(f"rulewright: note: {note}", err=True)
            value = passes_module.current(value)
        return self.choice.convert(value, param, ctx)


def optimisation_options(command: Callable[..., None]) -> Callable[..., None]:
    """`--no-opt` and `--no-pass NAME`: compile without the optimisation passes (docs/optimiser.md)."""
    from ..compiler import passes as passes_module

    names = ", ".join(passes_module.PASSES)
    command = click.option("--no-pass", "no_pass", multiple=True, metavar="PASS",
                           type=PassName(list(passes_module.PASSES)),
                           help=f"Leave this optimisation pass off (repeatable): {names}.")(command)
    return click.option("--no-opt", "no_opt", is_flag=True,
                        help="Leave every optimisation pass off: the rules as written, not optimised.")(command)


def chosen_passes(no_opt: bool, no_pass: Sequence[str]) -> frozenset[str]:
    from ..compiler import passes as passes_module

    return frozenset() if no_opt else passes_module.ALL - frozenset(no_pass)


def agent_line_up(game: Game, values: Sequence[str], players: int) -> dict[int, AgentSpec]:
    """The `--agent K=SPEC` options of a command, by seat from 0, checked against the rule set."""
    from ..agents import BadAgent, check_agents, parse_agent_options

    try:
        seats = parse_agent_options(values, players)
        check_agents(game, seats)
    except BadAgent as exc:
        raise CliError(str(exc)) from None
    return seats
