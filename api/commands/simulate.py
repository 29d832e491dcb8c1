"""`rulewright simulate`: games played by agents, on workers or a Dask cluster; wins, lengths and scores."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ..match import (
    DEFAULT_MAX_MOVES,
    BatchSpec,
    Interrupted,
    Summary,
    log_header,
    run_batch,
    stop_on_signals,
    write_log,
)
from ..terminal import printable
from .shared import CliError, WholeNumber, agent_line_up, literal, plural, progress_bar, setup, stdout_console


def summary_tables(summary: Summary, seconds: float, workers: int, roles: Sequence[str]) -> list[Table]:
    data = summary.to_json()

    def num(value: Any) -> str:
        return "-" if value is None else f"{value:g}" if isinstance(value, float) else str(value)

    played_by = "random games" if set(summary.agents) == {"random"} else "games"
    head = Table(title=literal(f"{summary.ruleset}: {summary.games} {played_by}, {summary.players} players, "
                               f"seed {summary.seed}"), title_justify="left", show_header=False)
    head.add_column("what")
    head.add_column("value", justify="right")
    head.add_row("games finished", str(summary.finished))
    limits = f"{summary.max_moves} moves" + (f", {summary.max_turns} turns" if summary.max_turns else "")
    head.add_row("capped (limit reached)", f"{summary.capped} (limit {limits})")
    error_row = str(summary.errors)
    if summary.first_error:
        e = summary.first_error
        error_row += f" (first: game {e['game']}, seed {e['seed']}: {e['message']})"
    head.add_row("errors", literal(error_row))
    returns = data.get("returns_mean_by_seat")  # (a rule set declaring `returns:`)
    head.add_row("draws (no single winner)" if returns is not None else "draws (several winners)", str(summary.draws))
    head.add_row("turns mean / min / max",
                 f"{num(data['turns_mean'])} / {num(data['turns_min'])} / {num(data['turns_max'])}")
    head.add_row("moves mean / min / max",
                 f"{num(data['moves_mean'])} / {num(data['moves_min'])} / {num(data['moves_max'])}")
    speed = f"{data['games_per_sec']:g} ({seconds:.2f} s, {plural(workers, 'worker')})"
    head.add_row("games per second", speed)
    seats = Table(title="by seat", title_justify="left")
    seats.add_column("seat")
    agents = set(summary.agents) != {"random"}  # (the column only where some seat is not random)
    if agents:
        seats.add_column("agent")
    seats.add_column("wins", justify="right")
    seats.add_column("win rate", justify="right")
    seats.add_column("mean score", justify="right")
    if returns is not None:
        seats.add_column("mean return", justify="right")
    for p in range(summary.players):
        name = f"P{p + 1}" + (f" ({roles[p]})" if p < len(roles) else "")
        rate = f"{summary.wins[p] / summary.finished:.1%}" if summary.finished else "-"
        agent = [literal(summary.agents[p])] if agents else []
        mean_return = [num(returns[p])] if returns is not None else []
        seats.add_row(literal(name), *agent, str(summary.wins[p]), rate, num(data["scores_mean_by_seat"][p]),
                      *mean_return)
    return [head, seats]


@click.command("simulate")
@click.argument("ruleset")
@click.option("-n", "--games", type=WholeNumber(min=1), default=100, show_default=True,
              help="Number of games.")
@click.option("--players", type=WholeNumber(), help="Number of players (default: the smallest allowed).")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Seed of the batch: game i is seeded derive_seed(SEED, i).")
@click.option("--workers", type=WholeNumber(min=1), default=1, show_default=True,
              help="Processes to play in; the results do not depend on it.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--max-moves", type=WholeNumber(min=1), default=DEFAULT_MAX_MOVES, show_default=True,
              help="Stop a game after this many actions; such games are counted as capped.")
@click.option("--max-turns", type=WholeNumber(min=1), default=None,
              help="Also stop a game after this many turns; such games are counted as capped.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game log to FILE (with -n 1).")
@click.option("--log-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write one game log per game into DIR (game-000000.jsonl, ...).")
@click.option("--agent", "agent_options", multiple=True, metavar="K=SPEC",
              help="The agent of seat K (from 1), e.g. 1=mcts:iterations=400 (docs/experiments.md); "
                   "seats not named play random.")
@click.option("--check-invariants", is_flag=True,
              help="Check the rule set's invariants after every move; a position that breaks one is a game error.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Play on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786); same results.")
def command(ruleset: str, games: int, players: int | None, seed: int, workers: int, as_json: bool,
             max_moves: int, max_turns: int | None, options: tuple[str, ...], log_path: Path | None,
             log_dir: Path | None, check_invariants: bool = False, agent_options: tuple[str, ...] = (),
             dask_address: str | None = None) -> None:
    """Play games of RULESET (random agents unless --agent says otherwise) and report wins,
    lengths and scores.

    Exits 1 if any game raised an exception (they are counted, with the first message).
    SIGINT or SIGTERM stops it, workers included, with status 130 or 143: each log file
    written is a whole game's, renamed into place once complete."""
    if log_path and log_dir:
        raise CliError("use --log (one game) or --log-dir (one file per game), not both")
    if log_path and games != 1:
        raise CliError("--log writes one game: use it with -n 1, or --log-dir DIR for one file per game")
    summary: Summary | None = None
    logs_written = 0
    try:
        with stop_on_signals():
            game, count, chosen = setup(ruleset, players, options)
            seat_agents = agent_line_up(game, agent_options, count)
            if log_dir:
                log_dir.mkdir(parents=True, exist_ok=True)
            spec = BatchSpec(ruleset, count, seed, chosen, max_moves, record=bool(log_path or log_dir),
                             max_turns=max_turns, check_invariants=check_invariants,
                             agents=tuple(sorted(seat_agents.items())))
            summary = Summary(ruleset, count, seed, chosen, max_moves, max_turns,
                              agents=[str(seat_agents.get(p, "random")) for p in range(count)])
            show = not as_json and games > 1 and sys.stderr.isatty()
            started = time.perf_counter()
            with progress_bar(games, f"{ruleset}: playing", show) as advance, \
                    contextlib.closing(run_batch(spec, games, workers, game, dask=dask_address)) as batch:
                for result in batch:
                    summary.add(result)
                    if spec.record:
                        target = log_path or (log_dir or Path()) / f"game-{result.index:06d}.jsonl"
                        header = log_header(ruleset, count, result.seed, chosen, target)
                        write_log(target, header, result.log, result.final)
                        logs_written += 1
                    advance()
            seconds = time.perf_counter() - started
    except Interrupted as stop:
        played = summary.games if summary is not None else 0
        logs = ""
        if log_path:
            logs = "; no log written"
        elif log_dir:
            logs = f"; {plural(logs_written, 'complete game log')} in {printable(str(log_dir))}"
        ended = f"; {plural(workers, 'worker')} ended" if workers > 1 else ""
        click.echo(f"rulewright: interrupted by {stop.name} after {played} of {plural(games, 'game')}{ended}{logs}",
                   err=True)
        sys.exit(stop.exit_code)
    assert summary is not None
    summary.seconds = seconds
    if as_json:
        click.echo(json.dumps(summary.to_json() | {"roles": list(game.info.roles)}, indent=2))
    else:
        console = stdout_console()
        for table in summary_tables(summary, seconds, workers, game.info.roles):
            console.print(table)
    if summary.capped:
        turns = f" or the turn cap ({max_turns})" if max_turns else ""
        click.echo(f"rulewright: warning: {plural(summary.capped, 'game')} stopped at the move cap "
                   f"({max_moves}){turns} and counted apart as capped", err=True)
    if summary.errors:
        e = summary.first_error or {}
        click.echo(printable(f"rulewright: error: {plural(summary.errors, 'game')} raised an exception; the first, "
                             f"game {e.get('game')} (seed {e.get('seed')}): {e.get('message')}"), err=True)
        sys.exit(1)
