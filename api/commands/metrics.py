"""`rulewright metrics`: the standard measures of a game from simulated play, with their intervals."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ..match import DEFAULT_MAX_MOVES, Interrupted, stop_on_signals
from ..metrics import GAMES_AT_MOST, WORKERS_AT_MOST
from ..terminal import printable
from .shared import (
    DecimalNumber,
    WholeNumber,
    agent_line_up,
    interrupted,
    literal,
    plural,
    print_figures,
    progress_bar,
    setup,
    stdout_console,
    tell_charts,
)


def metrics_table(data: dict[str, Any]) -> Table:
    """One row per measure: its value, interval, the games it is measured over, its note."""
    from ..compare import number

    estimates = data["estimates"]
    level = f"{data['confidence'] * 100:g}%"
    seats = "".join(f", P{seat}={spec}" for seat, spec in data["agents"].items())
    lead = f", lead by `{data['lead']}`" if data["lead"] else ""
    table = Table(title=literal(f"metrics: {data['ruleset']}, {data['games']} games, {data['players']} players, "
                                f"seed {data['seed']}{seats}{lead}"), title_justify="left")
    for column, justify in (("measure", "left"), ("value", "right"), (f"{level} interval", "right"),
                            ("games", "right"), ("note", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for name, e in estimates.items():
        value, low, high = e["value"], e["low"], e["high"]
        shown = "nan" if value is None else number(value)
        interval = "-" if low is None or high is None else f"[{number(low)}, {number(high)}]"
        table.add_row(name, shown, interval, str(e["games"]), literal(e["note"]))
    return table


@click.command("metrics")
@click.argument("ruleset")
@click.option("-n", "--games", type=WholeNumber(min=1, max=GAMES_AT_MOST), default=200, show_default=True,
              help="Number of games (game i seeded derive_seed(SEED, i), as simulate's).")
@click.option("--players", type=WholeNumber(min=1, max=64), help="Number of players (default: the smallest allowed).")
@click.option("--seed", type=WholeNumber(min=0, max=2**64 - 1), default=0, show_default=True,
              help="Seed of the games and of the resampling: the same seed, the same numbers.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option.")
@click.option("--agent", "agent_options", multiple=True, metavar="K=SPEC",
              help="The agent of seat K (from 1), e.g. 1=mcts:iterations=400; seats not named play random.")
@click.option("--strength", metavar="SPEC",
              help="Also measure how much this agent (greedy, mcts:iterations=200) wins against random, "
                   "in each seat in turn (N/players games per seat).")
@click.option("--lead", metavar="NAME",
              help="Read who leads from this definition over one player (as an agent's estimate=) "
                   "rather than from the score.")
@click.option("--confidence", type=DecimalNumber(0, 1, min_open=True, max_open=True), default=0.95,
              show_default=True, help="Confidence level of the intervals.")
@click.option("--workers", type=WholeNumber(min=1, max=WORKERS_AT_MOST), default=1, show_default=True,
              help="Processes to play in; the results do not depend on it.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Play on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786); same results.")
@click.option("--max-moves", type=WholeNumber(min=1, max=10**9), default=DEFAULT_MAX_MOVES, show_default=True,
              help="Stop a game after this many actions; such games are counted as capped (not completed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write charts (SVG and PNG) into DIR: win rate by seat, length, branching and lead over the game.")
def command(ruleset: str, games: int, players: int | None, seed: int, options: tuple[str, ...],
            agent_options: tuple[str, ...], strength: str | None, lead: str | None, confidence: float, workers: int,
            dask_address: str | None, max_moves: int, as_json: bool, plot_dir: Path | None) -> None:
    """The standard measures of RULESET from simulated play, each with its interval: win rate
    by seat, first-player advantage, balance, completion, draws, length, decisiveness, drama,
    lead changes, branching, and with --strength how much a stronger agent wins against random
    (docs/experiments.md, "Metrics": each measure's definition and source).

    A measure that does not apply is nan with a note saying why. Exits 1 if any game raised
    an exception (counted, with the first message)."""
    from .. import compare as cmp

    played = 0
    cmp.need("statistics", "metrics")
    if plot_dir is not None:
        cmp.need("charts", "metrics")
    try:
        with stop_on_signals():
            from .. import metrics

            game, count, chosen = setup(ruleset, players, options)
            seats = agent_line_up(game, agent_options, count)
            total = games + (-(-games // count) * count if strength else 0)
            show = not as_json and sys.stderr.isatty()
            with progress_bar(total, f"{ruleset}: playing", show) as advance:
                def step() -> None:
                    nonlocal played
                    played += 1
                    advance()

                measured = metrics.measure(ruleset, options=chosen, players=count, games=games, seed=seed,
                                           agents=seats, workers=workers, dask=dask_address, confidence=confidence,
                                           strength=strength, max_moves=max_moves, lead=lead, game=game,
                                           advance=step)
    except Interrupted as stop:
        interrupted(stop, plural(played, 'game'), workers)
    data = measured.to_json()
    if plot_dir is not None:
        from .. import plots

        tell_charts(plot_dir, plots.write_metrics(measured, plot_dir), as_json)
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        print_figures(stdout_console(), metrics_table(data))
        for word, method in data["methods"].items():
            click.echo(f"{word}: {method}")
    if measured.capped:
        click.echo(f"rulewright: warning: {plural(measured.capped, 'game')} stopped at the move cap ({max_moves}): "
                   "not completed, left out of every measure but completion", err=True)
    if measured.errors:
        e = measured.first_error or {}
        click.echo(printable(f"rulewright: error: {plural(measured.errors, 'game')} raised an exception; the first, "
                             f"game {e.get('game')} (seed {e.get('seed')}): {e.get('message')}"), err=True)
        sys.exit(1)
