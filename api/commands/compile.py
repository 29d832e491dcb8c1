"""`rulewright compile`: rule sets compiled to Python modules, all or nothing; `--native`, the native build."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from ..compiler import driver
from ..compiler import passes as passes_module
from ..core.paths import RULE_FILE_SUFFIXES, bundled_rulesets, display, generated_dir, rules_dir
from ..core.source import CompileError
from ..terminal import printable
from .shared import CliError, UsageProblem, chosen_passes, optimisation_options, plural, print_diagnostics, rule_file_of


def compile_target(arg: str) -> Path:
    """The rule file `compile` reads for `arg`: an existing path ending in .yaml as it is (the
    compiler says what is wrong with a FIFO, a device or a folder so named), else as
    `rule_file_of` finds it."""
    if arg.endswith(RULE_FILE_SUFFIXES) and os.path.lexists(arg):
        return Path(arg)
    return rule_file_of(arg)


def bundled_module_problem(path: Path, compiled: driver.Compiled) -> str | None:
    """Why `path` may not write its module into the bundled generated/, or None: only a
    bundled rule file, rules/<game>/<name>.yaml with `game: <game>`, writes there (into
    generated/<game>/<name>.py, its own module)."""
    target = display(generated_dir() / compiled.relative_path)
    rules = Path(os.path.abspath(rules_dir()))
    try:
        parts = Path(os.path.abspath(path)).relative_to(rules).parts
    except ValueError:
        parts = ()
    if len(parts) == 2 and parts[0] == compiled.ruleset.game:
        return None
    if len(parts) == 2:
        why = f"its `game: {compiled.ruleset.game}` is not its folder's game, `{parts[0]}`"
    else:
        why = f"it is not a bundled rule file (those are in {display(rules)}/)"
    overwrite = "overwrite the bundled module" if (generated_dir() / compiled.relative_path).exists() else "write"
    return (f"{display(path)}: {why}, and would {overwrite} {target}: compile it with `--out DIR` "
            f"(`play`, `simulate` and rulewright.load() take the rule file itself, compiled in memory)")


@click.command("compile")
@click.argument("targets", nargs=-1, metavar="[RULESET|FILE]...")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write modules under DIR/<game>/<variant>.py (default: the bundled generated/, "
                   "which only bundled rule files write to).")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 if a generated module is missing or out of date, a package file "
                   "edited, or (all bundled rule sets) a module in generated/ stray.")
@click.option("--native", is_flag=True,
              help="Then build the native tree (the runtime and every generated module compiled with mypyc, "
                   "each rebuilt only when it changed; with --check: exit 1 if there is none of the current "
                   "sources). A rule file outside rules/ named is built natively too, not written. Run on it "
                   "with RULEWRIGHT_NATIVE=1 (docs/native.md).")
@optimisation_options
def command(targets: tuple[str, ...], out_dir: Path | None, check_only: bool, native: bool, no_opt: bool,
                    no_pass: tuple[str, ...]) -> None:
    """Compile rule sets to Python modules (all bundled ones when none is named).

    All or nothing: a compile interrupted, even killed, is finished (or undone) by the next
    `compile` or `compile --check`. The bundled generated/ holds the fully optimised modules:
    `--no-opt` and `--no-pass` write elsewhere (`--out`)."""
    if native and out_dir is not None:
        raise UsageProblem("--native builds the bundled generated/ modules, not those of --out")
    passes = chosen_passes(no_opt, no_pass)
    if passes != passes_module.ALL and out_dir is None:
        raise CliError("generated/ holds the modules compiled with every optimisation pass: "
                       "write these elsewhere with --out DIR")
    files = [compile_target(t) for t in targets] if targets else [f for _, f in bundled_rulesets()]
    if not files:
        raise CliError(f"no rule sets in {display(rules_dir())}")
    compiled: list[driver.Compiled] = []
    problems = failed = 0
    for path in files:
        try:
            compiled.append(driver.compile_file(path, passes))
        except CompileError as exc:
            problems += print_diagnostics(exc.diagnostics)
            failed += 1
    if failed:
        click.echo(f"rulewright: error: {plural(problems, 'problem')} in {plural(failed, 'rule file')}; "
                   "nothing written", err=True)
        sys.exit(1)
    owners: dict[Path, Path] = {}
    own: list[driver.Compiled] = []
    for path, c in zip(files, compiled, strict=True):
        other = owners.setdefault(c.relative_path, path)
        if other != path:
            clash = c.relative_path.as_posix()
            raise CliError(f"{display(other)} and {display(path)} both compile to {clash}")
        refused = bundled_module_problem(path, c) if out_dir is None else None
        if refused is not None and native:  # a rule file of one's own: built natively, not written
            own.append(c)
        elif refused is not None:
            raise CliError(refused)
    compiled = [c for c in compiled if c not in own]
    out = out_dir if out_dir is not None else generated_dir()
    if out_dir is None:
        compiled = driver.share_bases(compiled)
    if own and not compiled:  # only rule files of one's own: generated/ is what it is
        native_build(check_only, own)
        return
    try:
        driver.recover(out)  # a compile killed after its commit is finished first
        if check_only:
            found = driver.check_output(compiled, out, top=out_dir is None, complete=out_dir is None and not targets)
        else:
            written = driver.write_modules(compiled, out, top=out_dir is None)
    except driver.OutputError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:  # a full disk, a folder that is not writable
        raise CliError(f"cannot write to {display(out)}: {exc.strerror or exc}") from None
    if check_only:
        for target, what in found:
            click.echo(f"{display(target)}: {what}")
        stray = sum(1 for _, what in found if what.startswith("stray"))
        if found:
            todo = ([f"{plural(len(found) - stray, 'file')} to rewrite or remove: run `rulewright compile`"]
                    if len(found) > stray else []) + \
                   ([f"{plural(stray, 'stray module')} to delete by hand"] if stray else [])
            click.echo(f"rulewright: error: {'; '.join(todo)}", err=True)
            sys.exit(1)
        click.echo(f"{plural(len(compiled), 'module')} up to date")
        if native:
            native_build(True, own)
        return
    for target in written:
        click.echo(f"wrote {display(target)}")
    if not written:
        click.echo("up to date")
    if native:
        native_build(False, own)


def native_build(check_only: bool, own: Sequence[driver.Compiled] = ()) -> None:
    """`compile --native`: build (or find) the native groups of the current sources, and of the
    modules of rule files of one's own (`own`: compiled in memory, each built as a group of its
    own keyed by its text; `RULEWRIGHT_NATIVE=1 rulewright play my-rules.yaml` then runs on it)."""
    from .. import native

    try:
        sources = native.current_sources()
        extra = tuple(native.user_group(c.source, sources) for c in own)
    except native.NativeBuildError as exc:
        raise CliError(str(exc)) from None
    if check_only:
        found = native.find_build(sources)
        if found is None or not all((native.group_folder(g) / native.MANIFEST).is_file() for g in extra):
            raise CliError(f"no native build of the current sources{' and rule files' if own else ''}: "
                           f"{native.HINT}{' FILE...' if own else ''}")
        click.echo(f"native build up to date: {display(native.native_root())} ({len(sources.groups) + len(extra)} "
                   "groups)")
        return
    try:
        built = native.build(say=lambda line: click.echo(f"native: {line}", err=True), extra=extra)
    except native.NativeBuildError as exc:
        for line in exc.details:  # the C compiler's or mypyc's own words
            click.echo(printable(line, 300), err=True)
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot build in {display(native.native_root())}: {exc.strerror or exc}") from None
    what = "up to date" if built.reused else \
        f"{len(built.built)} of {built.groups} groups built in {built.seconds:.0f} s"
    click.echo(f"native: {plural(built.modules, 'module')}, {what}: {display(built.path)} "
               f"({built.size / 1e6:.1f} MB of extension modules); run on it with {native.ENV}=1")
    for c, group in zip(own, extra, strict=True):
        click.echo(f"native: {display(c.files[0])}: {group.modules[0]} ({display(native.group_folder(group))})")
