"""The `rulewright` command line: list, check, compile, play, simulate, replay, bench, scenario.

Every user error (an unknown rule set, a bad option, a missing file, any RulewrightError)
prints one line `rulewright: error: ...` and exits non-zero; problems of a rule file print
its diagnostics, `path:line:col: error: ...`, with the source line.

This module is the group only: each command is a module of rulewright.commands, named in its
table (commands/__init__.py) and imported when the command is run, or listed by `--help`.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import click

from ._version import __version__
from .commands import COMMANDS
from .commands.shared import (
    CliError,
    UsageProblem,
    WholeNumber,
    parse_options,
    plural,
    print_diagnostics,
    progress_bar,
    rule_file_of,
    setup,
    stdout_console,
)
from .compiler import driver
from .compiler.paths import (
    bundled_rulesets,
    display,
    rules_dir,
)
from .compiler.source import CompileError
from .match import (
    DEFAULT_MAX_MOVES,
)
from .render import printable, printable_lines
from .rulesets import UnknownRuleset, load_game
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


# -- scenario ----------------------------------------------------------------------------------
@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="FILE|DIR...", type=click.Path(path_type=Path))
@click.option("--against", "against", metavar="RULESET",
              help="Also run them under this rule set (a variant) and report which outcomes change.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--coverage", "coverage", is_flag=True,
              help="Run them on each rule set's coverage build and report which rule points fired (as "
                   "`rulewright coverage` does for random games).")
def scenario(paths: tuple[Path, ...], against: str | None, as_json: bool, coverage: bool = False) -> None:
    """Run scenarios: rulebook examples and rulings as executable data (docs/scenarios.md).

    One line per scenario; a failure shows expected against actual and the rule lines that
    fired. Exit 1 if any fails. With --against, exit 1 if any outcome changes; scenarios of a
    rule set the variant does not extend are skipped, one line per file. With --coverage, a
    table of the rule points they fired follows, per rule set."""
    from . import coverage as cov
    from . import scenarios as sc

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


# -- leaks -------------------------------------------------------------------------------------
@cli.command()
@click.argument("ruleset")
@click.option("-n", "--games", type=WholeNumber(min=1), default=10, show_default=True,
              help="Random games to sample states from.")
@click.option("--players", type=WholeNumber(), help="Number of players (default: the smallest allowed).")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Seed of the games: game i is seeded derive_seed(SEED, i).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def leaks(ruleset: str, games: int, players: int | None, seed: int, options: tuple[str, ...], as_json: bool) -> None:
    """Check that the rules of RULESET show no seat what it may not see.

    In states of random games, everything a seat may not see is drawn again consistently with
    what it sees; its observation and its legal actions must stay the same. Each hidden field
    that changes them is reported with the line it is declared at and the rule lines concerned
    (docs/experiments.md). Exits 1 when a leak is found, or a game fails."""
    from .leaks import find_leaks, leak_tables, report_json

    game, count, chosen = setup(ruleset, players, options)
    show = not as_json and games > 1 and sys.stderr.isatty()
    with progress_bar(games, f"{ruleset}: sampling the unseen", show) as advance:
        report = find_leaks(game, games, seed, count, chosen, advance)
    if as_json:
        click.echo(report_json(report))
    else:
        console = stdout_console()
        for table in leak_tables(report):
            console.print(table)
    if report.errors:
        raise CliError(printable(f"{plural(len(report.errors), 'game')} failed; the first: {report.errors[0]}"))
    if report.leaks:
        fields = ", ".join(f"`{leak.field}` ({leak.declared})" for leak in report.leaks)
        raise CliError(printable(f"{report.ruleset} shows a seat what it may not see: {fields}"))


# -- coverage ----------------------------------------------------------------------------------
@cli.command()
@click.argument("ruleset")
@click.option("-n", "--games", default=200, show_default=True, type=WholeNumber(min=1),
              help="Random games to play.")
@click.option("--players", type=WholeNumber(), help="Number of players (default: the fewest the rule set allows).")
@click.option("--seed", default=0, show_default=True, type=WholeNumber(),
              help="Seed of the batch: the games are those `simulate` plays with it.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule set option (repeatable).")
@click.option("--vary-options", is_flag=True,
              help="Each game draws every option not set by --option at random (seeded), so that "
                   "option-dependent rules can fire.")
@click.option("--variant-only", is_flag=True, help="Only the points of the rule set's own file (a variant's rules).")
@click.option("--max-moves", default=DEFAULT_MAX_MOVES, show_default=True, type=WholeNumber(min=1),
              help="Stop a game after this many actions.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def coverage(ruleset: str, games: int, players: int | None, seed: int, options: tuple[str, ...],
             vary_options: bool, variant_only: bool, max_moves: int, as_json: bool) -> None:
    """Which rule points fired in N random games of RULESET (a bundled id or a rule file).

    Actions (listed as legal, taken), choices (offered, with several values), guards (true,
    false), each branch of an `if` and of `a if c else b`, effects, triggers, definitions,
    scoring terms and options (docs/experiments.md): a table per kind and rule file, then every
    point never or only partly fired with its file:line and rule path. The games run on a
    coverage build (every optimisation pass off, a probe at each point: compiler/probes.py)
    compiled in memory; they are the games `simulate` plays. Exits 1 if a game raised an error."""
    from . import coverage as cov

    if ruleset.endswith(".py"):
        raise CliError("coverage reads the rules: name a bundled rule set or a rule file (.yaml), "
                       "not a generated module")
    path = rule_file_of(ruleset)
    chosen = parse_options(options)
    build = cov.instrument(path)
    if variant_only and len(build.probed.files) < 2:
        raise CliError(f"{ruleset} is no variant: it extends no rule set (--variant-only shows a variant's own rules)")
    if players is not None and players not in build.game.info.players:
        allowed = ", ".join(str(n) for n in build.game.info.players)
        raise CliError(f"{build.probed.ruleset} is played by {allowed} players, not {players}")
    show = not as_json and games > 1 and sys.stderr.isatty()
    with progress_bar(games, f"{build.probed.ruleset}: coverage", show) as advance:
        report = cov.run_games(path, games, seed, players, chosen, vary_options, max_moves, advance)
    report.ruleset = ruleset  # as named on the command line (a rule file by its path)
    if variant_only:
        report = report.only(build.probed.files[-1:])
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        cov.render(report, stdout_console())
    sys.exit(1 if report.errors else 0)


# -- diff --------------------------------------------------------------------------------------
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


@cli.command("diff")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def diff_command(a: str, b: str, as_json: bool) -> None:
    """What rule set B changes in rule set A, rule by rule.

    A and B are bundled rule sets (china-cornett) or rule files (my-variant.yaml). The
    resolved rules are compared, not their text: reformatting, reordering keys or renaming a
    local variable is no change. Exit 0 when they are the same, 1 when they differ, 2 on an
    error."""
    from .compiler import diff as rules_diff

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


# -- variant -----------------------------------------------------------------------------------
VARIANT_NAME = re.compile(r"[a-z][a-z0-9_-]*")


@cli.group()
def variant() -> None:
    """Author variants: rule files that say only what differs (docs/variants.md)."""


def yaml_text(text: str) -> str:
    """A string as a YAML scalar in a rule file (double quotes, as the bundled rules write them)."""
    if '"' in text or "\\" in text:
        return "'" + text.replace("'", "''") + "'"
    return f'"{text}"'


def variant_template(name: str, extends: str, label: str, ruleset: Any) -> str:
    """The text of a new variant: `extends:` and commented examples that compile once uncommented,
    built from the names of the rule set it extends."""
    from .compiler.names import base_use
    from .compiler.unparse import unparse

    out = [
        f"# Variant `{name}` of {label}: it holds only what differs, everything else is {label}'s.",
        "# Uncomment an example below and edit it. How a variant merges (docs/variants.md):",
        "#   mappings merge key by key, a component is addressed by its name; `~` removes one;",
        "#   any other value replaces; `key+: [names]` and `key-: [names]` patch a list of names.",
        f"extends: {extends}",
    ]
    options = [o for o in ruleset.options if len(o.choices) > 1]
    option = next((o for o in options if o.name != "board"), options[0] if options else None)
    if option is not None:
        other = next(c for c in option.choices if c != option.default)
        out += ["", f"# Change an option's default (it is `{option.default}`; the choices: "
                    f"{', '.join(option.choices)}):",
                "# options:", f"#   {option.name}:", f"#     default: {other}"]
    action = next((a for a in ruleset.actions if a.when is not None), ruleset.actions[0] if ruleset.actions else None)
    if action is not None:
        guard = unparse(action.when) if action.when is not None else "true"
        out += ["", "# Replace an action's guard, keeping its choices, text and effect (this is the guard now):",
                "# actions:", f"#   {action.name}:", f"#     when: {yaml_text(guard)}"]
    if ruleset.triggers:
        out += ["", "# Remove a trigger:", "# triggers:", f"#   {ruleset.triggers[-1].name}: ~"]
    if ruleset.defines:  # (one with parameters, if there is one: it shows how they are passed)
        d = sorted(ruleset.defines, key=lambda d: not d.params)[0]
        use = base_use(d.name, ", ".join(p.name for p in d.params) if d.params else None)
        out += ["", f"# Redefine a definition in terms of the version it replaces: `{use}` is the value it has now,",
                f"# `{unparse(d.body)}`; the new one may add to it, double it... (as written, the same):",
                "# define:", f"#   {d.name}: {yaml_text(use)}"]
    taken = {t.name for t in ruleset.scoring}
    term = next(n for n in ("bonus", "extra", "variant_bonus") if n not in taken)
    out += ["", "# Add a scoring term (an expression; `player` is the seat scored):"]
    if ruleset.scoring:
        first = ruleset.scoring[0]
        out += [f"# and redefine one in terms of the version it replaces, `{base_use(first.name)}` (it is "
                f"`{unparse(first.expr)}` now; this doubles it):"]
    out += ["# scoring:", f'#   {term}: "0"']
    if ruleset.scoring:
        out += [f'#   {first.name}: "2 * {base_use(first.name)}"']
    return "\n".join([*out, ""])


@variant.command("new")
@click.argument("base", metavar="BASE")
@click.argument("name")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path),
              help="Write DIR/NAME.yaml (default: the current folder; `--dir rules/<game>` makes it a "
                   "bundled rule set, whose module `rulewright compile` must then write).")
def variant_new(base: str, name: str, folder: Path | None) -> None:
    """Start variant NAME of BASE (a bundled rule set or a rule file): NAME.yaml in the
    current folder (or DIR), holding `extends: BASE` and commented examples. It compiles as
    written; it is never overwritten."""
    from .compiler import diff as rules_diff

    if not VARIANT_NAME.fullmatch(name) or name == "base":
        raise UsageProblem(f"bad variant name `{name}`: lowercase letters, digits, `-` and `_`, starting with a "
                           "letter (and not `base`), e.g. owner-collects")
    base_file = rule_file_of(base)
    ruleset = rules_diff.load_ruleset(base_file)  # a CompileError lists the base's problems
    bundled = next((rid for rid, f in bundled_rulesets() if f.resolve() == base_file.resolve()), None)
    target_dir = folder if folder is not None else Path()
    target = target_dir / f"{name}.yaml"
    # under rules/<game>/ (named by --dir), the variant is bundled: listed, compiled into generated/
    in_rules = os.path.abspath(target_dir) == os.path.abspath(rules_dir() / ruleset.game)
    if bundled is not None:
        extends = label = bundled
    else:
        extends = Path(os.path.relpath(base_file.resolve(), target_dir.resolve())).as_posix()
        label = display(base_file)
    text = variant_template(name, extends, label, ruleset)
    target_dir.mkdir(parents=True, exist_ok=True)
    try:
        with target.open("x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except FileExistsError:
        raise CliError(f"{display(target)} exists already; nothing was written (choose another name)") from None
    try:
        driver.compile_file(target)
    except CompileError as exc:
        target.unlink()
        print_diagnostics(exc.diagnostics)
        raise CliError(f"the new variant did not compile, so {display(target)} was not kept "
                       "(please report this)") from None
    shown = display(target)
    ref = f"{ruleset.game}/{name}" if in_rules else shown
    click.echo(f"wrote {shown}: a variant of {label}, which compiles")
    click.echo("next: uncomment and edit its examples, then")
    click.echo(f"  rulewright check {shown}")
    click.echo(f"  rulewright diff {label if bundled else display(base_file)} {shown}")
    if in_rules:
        click.echo(f"  rulewright compile {ref}      (writes the module under generated/: a bundled rule set "
                   "needs it, or `./dev test` fails)")
        click.echo(f"  rulewright simulate {ref}")
    else:
        click.echo(f"  rulewright simulate {shown}")


# `render` and `serve` (the board drawn as SVG, the web board) live in webcli.py, `schema` (JSON
# Schemas for editors) in editorcli.py; importing them registers them on the group above.
from . import editorcli, webcli  # noqa: E402,F401  (the commands register themselves)
