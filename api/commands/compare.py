"""`rulewright compare`: A and B played on the same seeds, what differs in play tested pair by pair."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click
from rich.table import Table

from ..match import DEFAULT_MAX_MOVES, Interrupted, stop_on_signals
from ..rulesets import load_game
from ..runtime.errors import RulewrightError
from ..runtime.state import Game
from ..terminal import printable
from .shared import (
    CliError,
    DecimalNumber,
    WholeNumber,
    agent_line_up,
    interrupted,
    parse_options,
    plural,
    print_figures,
    progress_bar,
    stdout_console,
    tell_charts,
)


def compare_sides(a: str, b: str, players: int | None, options: Sequence[str], options_a: Sequence[str],
                  options_b: Sequence[str]) -> tuple[list[Game], int, list[dict[str, str]], list[dict[str, str]]]:
    """The games of A and B, the player count they share, and their options (resolved, and as
    set on the command line). Different default player counts need --players, valid for both."""
    games = [load_game(a), load_game(b)]
    shared = parse_options(options)
    changed = [shared | parse_options(options_a), shared | parse_options(options_b)]
    resolved = []
    for name, game, chosen in zip("AB", games, changed, strict=True):
        try:
            resolved.append(game.resolve_options(chosen))
        except RulewrightError as exc:
            raise CliError(f"{name} ({game.info.ruleset}): {exc}") from None
    counts = [g.info.players for g in games]
    if players is None:
        if counts[0][0] != counts[1][0]:
            both = sorted(set(counts[0]) & set(counts[1]))
            fits = (f"; choose one with --players N ({', '.join(map(str, both))} fit both)" if both
                    else ": no player count fits both")
            raise CliError(f"A is played by {', '.join(map(str, counts[0]))} players and B by "
                           f"{', '.join(map(str, counts[1]))}{fits}")
        players = counts[0][0]
    for name, game, chosen in zip("AB", games, resolved, strict=True):
        if players not in game.info.players:
            raise CliError(f"{name} ({game.info.ruleset}) is played by {', '.join(map(str, game.info.players))} "
                           f"players, not {players}")
        game.new_state(players, 0, chosen)  # checks the setup
    return games, players, resolved, changed


@click.command("compare")
@click.argument("a", metavar="A")
@click.argument("b", metavar="[B]", required=False)
@click.option("-n", "--games", type=WholeNumber(min=1), default=200, show_default=True,
              help="Games per side: game i of A and game i of B are a pair.")
@click.option("--players", type=WholeNumber(),
              help="Number of players (default: the smallest allowed, the same for A and B).")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Game i of both sides is seeded derive_seed(SEED, i); the resampling too.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option of both sides.")
@click.option("--option-a", "options_a", multiple=True, metavar="NAME=VALUE", help="A rule option of A only.")
@click.option("--option-b", "options_b", multiple=True, metavar="NAME=VALUE", help="A rule option of B only.")
@click.option("--agent", "agents", multiple=True, metavar="K=SPEC",
              help="The agent of seat K (from 1) on both sides, e.g. 1=mcts:iterations=400; "
                   "seats not named play random.")
@click.option("--agent-a", "agents_a", multiple=True, metavar="K=SPEC", help="The agent of seat K on A only.")
@click.option("--agent-b", "agents_b", multiple=True, metavar="K=SPEC", help="The agent of seat K on B only.")
@click.option("--alpha", type=DecimalNumber(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level of the tests; the intervals are at 1 - ALPHA.")
@click.option("--workers", type=WholeNumber(min=1), default=1, show_default=True,
              help="Processes to play in; the results do not depend on it.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Play on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786); same results.")
@click.option("--max-moves", type=WholeNumber(min=1), default=DEFAULT_MAX_MOVES, show_default=True,
              help="Stop a game after this many actions; such games are counted as capped.")
@click.option("--max-turns", type=WholeNumber(min=1), default=None,
              help="Also stop a game after this many turns; such games are counted as capped.")
@click.option("--no-course", "no_course", is_flag=True,
              help="Leave out decisiveness, drama, lead changes and branching, which read the score after every "
                   "move: the games play as fast as simulate's (2.5 times as fast for China (Schacht)).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write charts (SVG and PNG) and a self-contained report.html into DIR.")
def command(a: str, b: str | None, games: int, players: int | None, seed: int, options: tuple[str, ...],
                    options_a: tuple[str, ...], options_b: tuple[str, ...], agents: tuple[str, ...],
                    agents_a: tuple[str, ...], agents_b: tuple[str, ...], alpha: float, workers: int,
                    dask_address: str | None, max_moves: int, max_turns: int | None, no_course: bool,
                    as_json: bool, plot_dir: Path | None) -> None:
    """Play A and B on the same seeds and test what differs in play, pair by pair.

    A and B are bundled rule sets or rule files; B is A when left out, to compare option
    settings (--option-a, --option-b) or agent line-ups (--agent-a, --agent-b). For each
    seat's win rate, draws, first-player advantage and win, balance, each seat's score, game
    length, decisiveness, drama, lead changes, branching and capped games: both sides with
    their intervals, B - A with its interval, a test (named) and a verdict at --alpha
    (docs/experiments.md). Exits 1 if any game raised an exception."""
    from .. import compare as cmp

    played = 0
    try:
        with stop_on_signals():
            cmp.need("statistics")
            if plot_dir is not None:
                cmp.need("charts")
            b = a if b is None else b
            loaded, count, resolved, changed = compare_sides(a, b, players, options, options_a, options_b)
            line_ups = [agent_line_up(game, agents, count) | agent_line_up(game, own, count)
                        for game, own in zip(loaded, (agents_a, agents_b), strict=True)]
            sides = tuple(cmp.Side(name, ruleset, resolved[k], line_ups[k], changed[k])
                          for k, (name, ruleset) in enumerate((("A", a), ("B", b))))
            show = not as_json and sys.stderr.isatty()
            with progress_bar(2 * games, f"compare {sides[0].label} / {sides[1].label}", show) as advance:
                def step() -> None:
                    nonlocal played
                    played += 1
                    advance()

                comparison = cmp.run((sides[0], sides[1]), (loaded[0], loaded[1]), count, games, seed=seed,
                                     alpha=alpha, max_moves=max_moves, max_turns=max_turns, workers=workers,
                                     dask=dask_address, advance=step, course=not no_course)
    except Interrupted as stop:
        interrupted(stop, f"{played} of {plural(2 * games, 'game')}", workers)
    data = comparison.to_json()
    if plot_dir is not None:
        from .. import plots

        tell_charts(plot_dir, plots.write_all(comparison, plot_dir), as_json)
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        console = stdout_console()
        for table in cmp.tables(comparison):
            if isinstance(table, Table) and table.show_header:  # (the figures; the sides' table is text)
                print_figures(console, table)
            else:
                console.print(table)
        click.echo(printable(cmp.significant_line(comparison)))
    unfinished = [(name, info) for name, info in (("A", data["sides"]["a"]), ("B", data["sides"]["b"]))
                  if info["capped"] or info["errors"]]
    for name, info in unfinished:
        if info["capped"]:
            click.echo(f"rulewright: warning: {name}: {plural(info['capped'], 'game')} stopped at a cap "
                       "and counted apart as capped", err=True)
    failed = [(name, info) for name, info in unfinished if info["errors"]]
    for name, info in failed:
        e = info["first_error"] or {}
        click.echo(printable(f"rulewright: error: {name}: {plural(info['errors'], 'game')} raised an exception; "
                             f"the first, game {e.get('game')} (seed {e.get('seed')}): {e.get('message')}"), err=True)
    if failed:
        sys.exit(1)
