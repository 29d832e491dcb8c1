"""`rulewright tune`: values of a rule set's options, constants and counters searched toward targets of play."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..core.paths import RULE_FILE_SUFFIXES, path_problem
from ..match import DEFAULT_MAX_MOVES, Interrupted, stop_on_signals
from ..metrics import GAMES_AT_MOST, WORKERS_AT_MOST
from ..rulesets import load_game
from ..terminal import printable
from .shared import (
    CliError,
    DecimalNumber,
    UsageProblem,
    WholeNumber,
    agent_line_up,
    parse_options,
    plural,
    print_figures,
    progress_bar,
    rule_file_of,
    stdout_console,
    tell_charts,
)

if TYPE_CHECKING:
    from ..tune import TrialResult

MAX_TRIALS = 10_000
MAX_WARNINGS = 10  # lines on trials whose games were capped or raised


def default_out(ruleset: str) -> Path:
    """`<name>-tuned.yaml` in the working folder: `money-tuned.yaml` for mandarin/money."""
    stem = Path(ruleset).stem if ruleset.endswith(RULE_FILE_SUFFIXES) else ruleset.rpartition("/")[2]
    return Path(f"{stem}-tuned.yaml")


@click.command("tune")
@click.argument("ruleset", metavar="VARIANT")
@click.option("--target", "targets", multiple=True, metavar="EXPR",
              help="A measure and its band: first_player_win=0.5+-0.03, length_median=40..60, decisiveness>0.3.")
@click.option("--param", "params", multiple=True, metavar="SPEC",
              help="What to vary: option.NAME, option.NAME=a,b, define.NAME=LO..HI[/STEP] (a constant) or "
                   "state.NAME=LO..HI[/STEP] (an int field's start).")
@click.option("--tune-file", type=click.Path(dir_okay=False, path_type=Path),
              help="A YAML file of `targets:` and `params:` (added to those of the command line).")
@click.option("-n", "--games", type=WholeNumber(min=1, max=GAMES_AT_MOST), default=200, show_default=True,
              help="Games per trial (the same games for every trial).")
@click.option("--trials", type=WholeNumber(min=1, max=MAX_TRIALS), default=20, show_default=True,
              help="Trials the study should hold, each of values not tried before (at most every combination): "
                   "a study that holds fewer gets the rest, none is played again.")
@click.option("--seed", type=WholeNumber(min=0, max=2**64 - 1), default=0, show_default=True,
              help="Seed of every trial's games and of the sampler.")
@click.option("--sampler", type=click.Choice(["tpe", "grid"]), default="tpe", show_default=True,
              help="Optuna's TPE sampler, or every combination of the params' values (in a seeded order).")
@click.option("--players", type=WholeNumber(), help="Number of players (default: the smallest allowed).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option held fixed.")
@click.option("--agent", "agent_options", multiple=True, metavar="K=SPEC",
              help="The agent of seat K (from 1); seats not named play random.")
@click.option("--strength", metavar="SPEC",
              help="The agent whose win rate against random is the measure `strength` (e.g. greedy).")
@click.option("--lead", metavar="NAME",
              help="Read who leads from this definition over one player rather than from the score "
                   "(decisiveness, drama, lead changes; as `rulewright metrics --lead`).")
@click.option("--confidence", type=DecimalNumber(0, 1, min_open=True, max_open=True), default=0.95,
              show_default=True, help="Confidence level of the intervals shown.")
@click.option("--max-moves", type=WholeNumber(min=1, max=10**9), default=DEFAULT_MAX_MOVES, show_default=True,
              help="Stop a game after this many actions; such games are counted as capped.")
@click.option("--workers", type=WholeNumber(min=1, max=WORKERS_AT_MOST), default=1, show_default=True,
              help="Processes to play each trial's games in; the results do not depend on it.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Play on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786); same results.")
@click.option("--study", "study_path", type=click.Path(dir_okay=False, path_type=Path),
              help="The study's SQLite file (default: beside --out, OUT.sqlite); the same command resumes it.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="The variant to write (default: ./NAME-tuned.yaml).")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write charts (SVG and PNG) into DIR: the objective by trial, each measure by each param.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def command(ruleset: str, targets: tuple[str, ...], params: tuple[str, ...], tune_file: Path | None, games: int,
            trials: int, seed: int, sampler: str, players: int | None, options: tuple[str, ...],
            agent_options: tuple[str, ...], strength: str | None, lead: str | None, confidence: float,
            max_moves: int, workers: int,
            dask_address: str | None, study_path: Path | None, out: Path | None, plot_dir: Path | None,
            as_json: bool) -> None:
    """Search values of VARIANT's options, constants and counters' starts so that measures of its
    play meet the targets, and write the best as a variant that extends VARIANT (docs/tuning.md).

    VARIANT is a bundled rule set or a rule file. Each trial plays the same games (-n, --seed)
    of a variant holding its values and measures them (`rulewright metrics`); the objective is 0
    when every target is met. The study is kept in SQLite: the same command again goes on where
    it stopped, more --trials add trials, a study made otherwise is refused."""
    from .. import tune

    tune.need("charts" if plot_dir is not None else "tune")
    if ruleset.endswith(".py"):
        raise UsageProblem("tune takes a rule set or a rule file (.yaml), not a generated module: "
                           "the variant it writes extends it")
    rule_file = rule_file_of(ruleset)
    game = load_game(ruleset)
    count = game.info.players[0] if players is None else players
    if count not in game.info.players:
        raise UsageProblem(f"{printable(ruleset)} is played by {', '.join(map(str, game.info.players))} players, "
                           f"not {count}")
    fixed = parse_options(options)
    game.resolve_options(fixed)  # (an unknown option or choice: one line)
    seat_agents = agent_line_up(game, agent_options, count)
    from ..agents import BadAgent, parse_agent_spec
    from ..metrics import check_lead

    for flag, value, check in (("--strength", strength, lambda v: parse_agent_spec(v)),
                               ("--lead", lead, lambda v: check_lead(game, v, ruleset))):
        try:
            if value is not None:
                check(value)
        except BadAgent as exc:
            raise UsageProblem(f"bad {flag}: {exc}") from None
    space = tune.space_of(rule_file, game)
    written_targets: list[tuple[str, str | None]] = [(t, None) for t in targets]
    written_params: list[tuple[str, str | None]] = [(p, None) for p in params]
    if tune_file is not None:
        try:
            more_targets, more_params = tune.read_tune_file(tune_file)
        except tune.TuneError as exc:
            raise UsageProblem(str(exc)) from None
        written_targets += more_targets
        written_params += more_params
    try:
        parsed_targets = [tune.parse_target(t, count, where) for t, where in written_targets]
        parsed_params = [tune.parse_param(p, space, where) for p, where in written_params]
    except tune.TuneError as exc:
        raise UsageProblem(str(exc)) from None
    if not parsed_targets:
        raise UsageProblem("no target: give one or more, e.g. --target first_player_win=0.5+-0.03")
    if not parsed_params:
        raise UsageProblem("nothing to vary: give one or more --param, e.g. --param define.NAME=1..9 "
                           f"(options: {', '.join(space.options) or 'none'}; "
                           f"constants: {', '.join(space.constants) or 'none'}; "
                           f"counters: {', '.join(space.counters) or 'none'})")
    if len(parsed_targets) > tune.MAX_TARGETS or len(parsed_params) > tune.MAX_PARAMS:
        raise UsageProblem(f"at most {tune.MAX_TARGETS} targets and {tune.MAX_PARAMS} params")
    keys = [p.key for p in parsed_params]
    twice = next((k for k in keys if keys.count(k) > 1), None)
    if twice is not None:
        raise UsageProblem(f"{twice} is given twice as a --param")
    both = next((p.name for p in parsed_params if p.kind == "option" and p.name in fixed), None)
    if both is not None:
        raise UsageProblem(f"option `{both}` is both varied (--param) and held fixed (--option)")
    if any(t.measure == "strength" for t in parsed_targets) and strength is None:
        raise UsageProblem("the measure `strength` needs --strength SPEC, the agent to measure (e.g. greedy)")
    out = out if out is not None else default_out(ruleset)
    problem = path_problem(out)
    if problem is not None:
        raise UsageProblem(f"--out {problem[0]}")
    if out.resolve() == rule_file.resolve():
        raise UsageProblem(f"--out {printable(str(out))} is the rule set tuned: the variant extends it, "
                           "name another file")
    study_file = study_path if study_path is not None else out.with_suffix(".sqlite")
    setup = tune.Setup(ruleset, rule_file, tuple(parsed_targets), tuple(parsed_params), games, seed, count, sampler,
                       fixed, tuple(sorted(seat_agents.items())), strength, max_moves, tune.rules_digest(rule_file),
                       lead, confidence)
    try:
        tune.check_grid(setup)
    except tune.TuneError as exc:
        raise UsageProblem(str(exc)) from None
    for folder in {study_file.parent, out.parent} | ({plot_dir} if plot_dir is not None else set()):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliError(f"cannot make the folder {printable(str(folder))}: {exc.strerror}") from None
    study = tune.open_study(setup, study_file)
    with tune.locked(tune.lock_file(study_file)):
        before = len(tune.distinct(tune.finished(study)))
    try:
        with stop_on_signals():
            show = not as_json and sys.stderr.isatty()
            wanted = min(trials, setup.grid_size)
            with progress_bar(max(0, wanted - before), f"tune {ruleset}", show) as advance:
                results = tune.run(setup, study, trials, workers=workers, dask=dask_address,
                                   done=lambda _r: advance(), lock=tune.lock_file(study_file))
    except Interrupted as stop:
        with tune.locked(tune.lock_file(study_file)):
            have = len(tune.distinct(tune.finished(study)))
        click.echo(f"rulewright: interrupted by {stop.name}: the study {printable(str(study_file))} keeps "
                   f"{plural(have, 'finished trial')}; the same command goes on from there", err=True)
        sys.exit(stop.exit_code)
    chosen = tune.best(setup, results)
    if chosen is None:
        raise CliError(f"no trial could be measured ({plural(len(results), 'trial')} refused by the rules): "
                       f"{results[0].error if results else ''}")
    played = len(tune.distinct(results))
    if played < min(trials, setup.grid_size) and sampler == "grid":
        click.echo(f"rulewright: note: the study holds {played} of the {min(trials, setup.grid_size)} trials asked: "
                   "the others are being played by another process (or were left running by one on another "
                   "machine)", err=True)
    elif played < min(trials, setup.grid_size):
        click.echo(f"rulewright: note: the sampler proposed values tried already {tune.REPEATS_AT_MOST} times in a "
                   f"row: the study holds {played} of the {trials} trials asked (--sampler grid tries each once)",
                   err=True)
    elif played < trials:
        click.echo(f"rulewright: note: every combination of the params' values is tried ({played})", err=True)
    command_text = tune.redo_command(setup, trials, out, study_path)
    header = tune.header_lines(setup, results, chosen, command_text)
    tune.write_variant(out, tune.variant_text(tune.extends_of(setup, out), setup, chosen.values, header))
    if plot_dir is not None:
        tell_charts(plot_dir, tune.write_plots(setup, results, chosen, plot_dir), as_json)
    if as_json:
        click.echo(json.dumps(tune.to_json(setup, results, chosen, out, study_file), indent=2))
        warn(results)
        return
    console = stdout_console()
    click.echo(tune.title(setup, results))
    print_figures(console, tune.table(setup, results, chosen))
    click.echo(tune.caption(results))
    values = ", ".join(f"{k}={v}" for k, v in chosen.values.items())
    met = "every target met" if chosen.objective == 0 else f"objective {chosen.objective:g}"
    click.echo(printable(f"best: trial {chosen.number} ({values}): {met}; wrote {out} "
                         f"({plural(played - before, 'new trial')}, {played} in {study_file})"))
    warn(results)


def warn(results: Sequence[TrialResult]) -> None:
    """A line on stderr for each trial whose games were capped or raised; exit 1 if any raised
    (as `simulate` and `metrics` do): the variant is written all the same."""
    from .. import tune

    lines = tune.troubles(results)
    for line in lines[:MAX_WARNINGS]:
        click.echo(f"rulewright: warning: {line}", err=True)
    if len(lines) > MAX_WARNINGS:
        click.echo(f"rulewright: warning: and {len(lines) - MAX_WARNINGS} more", err=True)
    failed = sum(1 for r in tune.distinct(results) if r.play.get("errors"))
    if failed:
        click.echo(f"rulewright: error: games of {plural(failed, 'trial')} raised an exception (above)", err=True)
        sys.exit(1)
