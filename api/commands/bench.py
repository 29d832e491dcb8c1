"""`rulewright bench`: compile time, playouts per second, the cost of each operation and memory,
per rule set, at the rule options chosen (`--option`); `--native`, interpreted and native side by
side; `--profile`, where a playout's time goes by rule line (api/profiling.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ..agents import RandomAgent, agent_seed
from ..agents.mcts import mcts_speed
from ..compiler import driver
from ..compiler import passes as passes_module
from ..core.paths import bundled_rulesets, display, generated_dir
from ..core.source import CompileError
from ..loading import game_from_source as load_source
from ..match import play_game
from ..profiling import PlayoutFailed
from ..runtime.errors import BadSetup
from ..runtime.rng import derive_seed
from ..runtime.state import Game, State
from ..terminal import printable
from .shared import (
    CliError,
    DecimalNumber,
    UsageProblem,
    WholeNumber,
    chosen_passes,
    literal,
    optimisation_options,
    parse_options,
    plural,
    print_diagnostics,
    print_figures,
    rule_file_of,
    stdout_console,
)


def game_from_source(compiled: driver.Compiled) -> Game:
    """The game of a module compiled just now, without writing it anywhere."""
    rs = compiled.ruleset
    return load_source(compiled.source, f"<compiled {rs.game}/{rs.variant}>")


def _max_rss_mib() -> float | None:
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(rss / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def wanted_options(values: Sequence[str]) -> dict[str, str]:
    """The `--option NAME=VALUE` of the command line (a malformed one is an error, exit 1, as for
    `simulate`, `play` and `compare`)."""
    return parse_options(values)


def reading(game: Game, wanted: Mapping[str, str], players: int) -> dict[str, str]:
    """Every option of `game` as `wanted` sets it (the defaults otherwise): the reading measured.
    An option the rule set lacks, a value it does not offer, or one not for `players` players (a
    board for 4 or 5) is an error saying so (naming the choices), exit 1 as `simulate`'s."""
    try:
        options = game.resolve_options(wanted)
        game.new_state(players, 0, options)
    except BadSetup as exc:
        raise CliError(f"{game.info.ruleset}: {exc}" if wanted and game.info.ruleset not in str(exc)
                           else str(exc)) from None
    return options


def time_operations(game: Game, players: int, budget: float, least: int = 200,
                    options: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Mean time of clone, legal_actions and apply along random games. Each step clones the
    current state (timed), lists the clone's legal actions (timed: a clone has no cached
    list, so this is the full computation), picks one at random and applies it to the clone
    (timed: apply finds the action in the now cached list, then performs it); the clone is
    the next step's state."""
    clone_ns = legal_ns = apply_ns = samples = games = 0
    clock = time.perf_counter_ns
    deadline = clock() + int(budget * 1e9)
    state: State | None = None
    agent = RandomAgent(0)
    while samples < least or clock() < deadline:
        if state is None or state.terminal:
            seed = derive_seed(1, games)
            games += 1
            state, agent = game.new_state(players, seed, options), RandomAgent(agent_seed(seed))
        t0 = clock()
        fresh = state.clone()
        t1 = clock()
        legal = fresh.legal_actions()
        t2 = clock()
        action = legal[agent.rng.below(len(legal))]
        t3 = clock()
        fresh.apply(action)
        t4 = clock()
        clone_ns += t1 - t0
        legal_ns += t2 - t1
        apply_ns += t4 - t3
        samples += 1
        state = fresh
    return {
        "legal_actions_us": round(legal_ns / samples / 1000, 2),
        "apply_us": round(apply_ns / samples / 1000, 2),
        "clone_us": round(clone_ns / samples / 1000, 2),
        "op_samples": samples,
    }


def bench_one(path: Path, seconds: float, players: int | None = None,
              passes: frozenset[str] = passes_module.ALL, wanted: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One rule set's figures, at `players` if the rule set allows that many (else at its
    smallest player count), compiled with the optimisation passes named, its games played with
    the options `wanted` (the defaults otherwise)."""
    started = time.perf_counter()
    compiled = driver.compile_file(path, passes)
    compile_times = [time.perf_counter() - started]
    game = game_from_source(compiled)
    count = players if players in game.info.players else game.info.players[0]
    options = reading(game, wanted or {}, count)  # (checked at once, not after two more compilations)
    for _ in range(2):
        started = time.perf_counter()
        driver.compile_file(path, passes)
        compile_times.append(time.perf_counter() - started)
    ruleset = game.info.ruleset
    players = count
    try:
        playouts, moves, capped, elapsed = random_playouts(game, players, seconds, options)
    except PlayoutFailed as exc:
        raise CliError(f"{ruleset}: {exc}") from None
    operations = time_operations(game, players, max(seconds / 3, 0.05), options=options)
    search_speed = mcts_speed(game, players, max(seconds / 3, 0.05), options=options)
    tracemalloc.start()
    try:
        play_game(game, players, derive_seed(0, 0), options)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {
        "ruleset": ruleset,
        "file": display(path),
        "players": players,
        "options": options,
        "compile_s": round(min(compile_times), 4),
        "compile_first_s": round(compile_times[0], 4),
        "playouts": playouts,
        "capped": capped,
        "playouts_per_sec": round(playouts / elapsed, 2),
        "moves_per_playout": round(moves / playouts, 1),
        "moves_per_sec": round(moves / elapsed, 1),
        **operations,
        **search_speed,
        "playout_peak_kib": round(peak / 1024, 1),
        "maxrss_mib": _max_rss_mib(),
    }


def bench_passes(path: Path, seconds: float, players: int | None = None,
                 wanted: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Playouts per second of one rule set compiled with every pass, with none, and with each
    pass left off in turn, measured in interleaved slices (this machine's speed drifts: each
    figure is taken beside the others), so that what each pass gives, or costs, shows."""
    configs: dict[str, frozenset[str]] = {"all": passes_module.ALL, "none": frozenset()}
    for name in passes_module.PASSES:
        configs[f"without {name}"] = passes_module.ALL - {name}
    games = {label: game_from_source(driver.compile_file(path, chosen)) for label, chosen in configs.items()}
    first = next(iter(games.values()))
    players = players if players in first.info.players else first.info.players[0]
    options = reading(first, wanted or {}, players)
    played = dict.fromkeys(games, 0)
    spent = dict.fromkeys(games, 0.0)
    rounds = 5
    for _ in range(rounds):
        for label, game in games.items():
            started = time.perf_counter()
            while True:
                result = play_game(game, players, derive_seed(0, played[label]), options)
                if result.error:
                    raise CliError(f"{first.info.ruleset} ({label}): random game {played[label]} "
                                   f"(seed {result.seed}) raised {result.error}")
                played[label] += 1
                if time.perf_counter() - started >= seconds / rounds:
                    break
            spent[label] += time.perf_counter() - started
    rates = {label: played[label] / spent[label] for label in games}
    return {
        label: {"playouts_per_sec": round(rates[label], 2), "playouts": played[label],
                "vs_none": round(rates[label] / rates["none"], 3), "vs_all": round(rates[label] / rates["all"], 3)}
        for label in games
    }


@click.command("bench")
@click.argument("targets", nargs=-1, metavar="[RULESET|FILE]...")
@click.option("--seconds", type=DecimalNumber(min=0, min_open=True), default=3.0, show_default=True,
              help="How long to play random games per rule set.")
@click.option("--players", type=WholeNumber(min=1), default=None,
              help="Play at this many players, where a rule set allows it (else at its smallest count).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A rule option (repeatable), for every rule set measured: each must have it. The figures "
                   "say the options measured (--json: all of them, defaults included).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object, with the figures of each optimisation pass (unless --no-per-pass).")
@click.option("--per-pass/--no-per-pass", "per_pass", default=None,
              help="Also measure each rule set with every optimisation pass, none, and each left off in turn "
                   "[default: with --json].")
@click.option("--native", is_flag=True,
              help="Measure the bundled generated modules interpreted and on their native build (`compile "
                   "--native`), side by side: alternate runs of each in fresh processes, and the ratio.")
@click.option("--profile", is_flag=True,
              help="Instead of the figures: where the time of SECONDS of random playouts goes, by rule line "
                   "(self, the runtime it calls, and all under it), and the runtime's and the agent loop's "
                   "shares. Interpreted code only (not with --native); sampled every millisecond (api/profiling.py).")
@optimisation_options
def command(targets: tuple[str, ...], seconds: float, players: int | None, options: tuple[str, ...], as_json: bool,
            per_pass: bool | None, native: bool, profile: bool, no_opt: bool, no_pass: tuple[str, ...]) -> None:
    """Measure compile time, random playouts per second (one core), the cost of
    legal_actions, apply and clone, MCTS iterations per second, and memory, per rule set (all
    bundled when none named).

    The rules are compiled afresh and that code is measured, whatever generated/ holds. With
    --per-pass (and always with --json) each optimisation pass's share is measured too: the
    playouts per second with every pass, with none, and with each one left off, interleaved.
    With --native: generated/, which must be up to date, interpreted and on its native build.
    With --profile: where the playouts' time goes, by rule line (docs/benchmarks.md)."""
    wanted = wanted_options(options)
    if profile and (native or per_pass):
        raise UsageProblem("--profile samples interpreted playouts alone: not with "
                           f"{'--native' if native else '--per-pass'}")
    if native:
        bench_native(targets, seconds, players, as_json, wanted)
        return
    passes = chosen_passes(no_opt, no_pass)
    files = [rule_file_of(t) for t in targets] if targets else [f for _, f in bundled_rulesets()]
    if profile:
        bench_profile(files, seconds, players, passes, wanted, as_json)
        return
    results = []
    for path in files:
        try:
            results.append(bench_one(path, seconds, players, passes, wanted))
            if per_pass or (per_pass is None and as_json):
                results[-1]["passes"] = bench_passes(path, seconds, players, wanted)
        except CompileError as exc:
            problems = print_diagnostics(exc.diagnostics)
            click.echo(f"rulewright: error: {plural(problems, 'problem')} in {display(path)}", err=True)
            sys.exit(1)
    if as_json:
        import platform

        click.echo(json.dumps({"seconds": seconds, "python": platform.python_version(), "rulesets": results},
                              indent=2))
        return
    table = Table(title=f"rulewright bench ({seconds:g} s of random games per rule set, one core)",
                  title_justify="left")
    columns = [("rule set", "ruleset", ""), ("players", "players", ""), ("compile ms", "compile_s", "ms"),
               ("playouts/s", "playouts_per_sec", ""), ("moves/s", "moves_per_sec", ""),
               ("legal µs", "legal_actions_us", ""), ("apply µs", "apply_us", ""),
               ("clone µs", "clone_us", ""), ("MCTS it/s", "mcts_iterations_per_sec", ""),
               ("peak KiB", "playout_peak_kib", ""),
               ("maxrss MiB", "maxrss_mib", "")]
    if wanted:  # (the readings measured: the options named, as each rule set took them)
        columns.insert(2, ("options", "options", "options"))
    for title, _, _ in columns:
        table.add_column(title, justify="left" if title in ("rule set", "options") else "right")
    for r in results:
        row = []
        for _, key, unit in columns:
            value = r[key]
            row.append(options_text(value, wanted) if unit == "options" else "-" if value is None
                       else f"{value * 1000:.0f}" if unit == "ms" else f"{value:g}"
                       if isinstance(value, float) else str(value))
        table.add_row(*(literal(cell) for cell in row))
    console = stdout_console()
    print_figures(console, table)
    if per_pass and results:
        print_figures(console, passes_table(results))
    console.print("compile: best of 3 runs (the first, with parser setup, is in --json); legal: on a fresh "
                  "clone, no cached list; apply: with the legal list cached; MCTS: iterations per second of "
                  "searches from positions of random games (rollouts to the end); peak: tracemalloc over one "
                  "playout.", soft_wrap=True)


def options_text(options: Mapping[str, str], wanted: Mapping[str, str]) -> str:
    """The options named on the command line as a rule set took them: `board=face_4_5, ...`."""
    return ", ".join(f"{name}={options[name]}" for name in wanted)


def passes_table(results: list[dict[str, Any]]) -> Table:
    labels = list(results[0]["passes"]) if results else []
    table = Table(title="playouts/s by optimisation passes (interleaved; x: against none)", title_justify="left")
    table.add_column("rule set")
    for label in labels:
        table.add_column(label, justify="right")
    for r in results:
        figures = r["passes"]
        table.add_row(literal(r["ruleset"]), *(literal(f"{figures[label]['playouts_per_sec']:g} "
                                                       f"({figures[label]['vs_none']:.2f}x)") for label in labels))
    return table


NATIVE_ROUNDS = 3  # alternate runs of each side per rule set


def measure(ruleset: str, players: int | None, seconds: float, native_side: bool,
            options: Mapping[str, str]) -> dict[str, Any]:
    """Random playouts of a bundled rule set's generated module for `seconds` with `options` (all
    of them, resolved), in a fresh process, interpreted or on the native build (RULEWRIGHT_NATIVE=0
    or 1): the games are those of seeds derive_seed(0, 0), derive_seed(0, 1), ... either way.
    (api/native.py's `measure`, with the rule options passed on.)"""
    from .. import native

    env = dict(os.environ, **{native.ENV: "1" if native_side else "0"})
    command = [sys.executable, "-c", "from rulewright.commands.bench import _native_worker; _native_worker()",
               ruleset, str(players or 0), repr(seconds), json.dumps(dict(options))]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    side = "native" if native_side else "interpreted"
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise native.NativeBuildError(f"{ruleset}, {side}: {said}")
    result: dict[str, Any] = json.loads(done.stdout)
    if result["native"] != native_side:
        raise native.NativeBuildError(f"{ruleset}: the {side} run ran "
                                      f"{'native' if result['native'] else 'interpreted'} code")
    return result


def random_playouts(game: Game, players: int, seconds: float,
                    options: Mapping[str, str] | None) -> tuple[int, int, int, float]:
    """Random games of seeds derive_seed(0, 0), derive_seed(0, 1), ... for `seconds` of wall time, one
    at least: how many, their moves, how many the move cap stopped, and the time they took. A game
    that raises is PlayoutFailed, saying which."""
    playouts = moves = capped = 0
    started = time.perf_counter()
    while True:
        result = play_game(game, players, derive_seed(0, playouts), options)
        if result.error:
            raise PlayoutFailed(f"random game {playouts} (seed {result.seed}) raised {result.error}")
        playouts += 1
        moves += result.moves
        capped += result.capped
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return playouts, moves, capped, elapsed


def _native_worker() -> None:
    """`python -c ... RULESET PLAYERS SECONDS OPTIONS`: one JSON object of playouts, moves and time
    (OPTIONS: a JSON object of every option, checked by the parent)."""
    from ..loading import load
    from ..native import active_build

    ruleset, wanted, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    options = json.loads(sys.argv[4])
    game = load(ruleset)
    players = wanted if wanted in game.info.players else game.info.players[0]
    try:
        playouts, moves, _, elapsed = random_playouts(game, players, seconds, options)
    except PlayoutFailed as exc:
        raise SystemExit(str(exc)) from None
    print(json.dumps({"ruleset": ruleset, "players": players, "playouts": playouts, "moves": moves,
                      "elapsed": elapsed, "native": active_build() is not None}))


def bench_native(targets: tuple[str, ...], seconds: float, players: int | None, as_json: bool,
                 wanted: Mapping[str, str] | None = None) -> None:
    """`bench --native`: playouts/s of each bundled rule set's generated module interpreted and
    native, in alternate fresh processes (interpreted first in odd rounds, native first in even
    ones), `seconds` in all per side, with the options `wanted`; refused unless generated/ and the
    native build are those of the current rules."""
    from .. import native
    from ..loading import load

    bundled = bundled_rulesets()
    ids = [i for i, _ in bundled]
    if targets:
        by_file = {f.resolve(): i for i, f in bundled}
        chosen = []
        for t in targets:
            ruleset = t if t in ids else by_file.get(rule_file_of(t).resolve())
            if ruleset is None:
                raise CliError(f"`{printable(t)}` is not a bundled rule set: --native measures the bundled "
                               "generated modules (see `rulewright list`)")
            chosen.append(ruleset)
        ids = chosen
    readings = {}  # (the options checked first: a mistake is told at once, not after compiling every rule set)
    for ruleset in ids:
        game = load(ruleset)
        readings[ruleset] = reading(game, wanted or {}, players if players in game.info.players
                                    else game.info.players[0])
    compiled = []
    for _, path in bundled:
        try:
            compiled.append(driver.compile_file(path))
        except CompileError as exc:
            problems = print_diagnostics(exc.diagnostics)
            raise CliError(f"{plural(problems, 'problem')} in {display(path)}") from None
    if driver.check_output(driver.share_bases(compiled), generated_dir(), top=True, complete=True):
        raise CliError("generated/ is not up to date with the rules: run `rulewright compile --native`")
    built = native.find_build()
    if built is None:
        raise CliError(f"no native build of the current sources: {native.HINT}")
    results = []
    for ruleset in ids:
        runs: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
        for round_ in range(NATIVE_ROUNDS):
            for side in ((False, True) if round_ % 2 == 0 else (True, False)):
                try:
                    runs[side].append(measure(ruleset, players, seconds / NATIVE_ROUNDS, side, readings[ruleset]))
                except native.NativeBuildError as exc:
                    raise CliError(str(exc)) from None
        row: dict[str, Any] = {"ruleset": ruleset, "players": runs[False][0]["players"],
                               "options": readings[ruleset]}
        for side, name in ((False, "interpreted"), (True, "native")):
            playouts = sum(r["playouts"] for r in runs[side])
            elapsed = sum(r["elapsed"] for r in runs[side])
            row[name] = {"playouts": playouts, "playouts_per_sec": round(playouts / elapsed, 2),
                         "moves_per_sec": round(sum(r["moves"] for r in runs[side]) / elapsed, 1),
                         "runs_playouts_per_sec": [round(r["playouts"] / r["elapsed"], 2) for r in runs[side]]}
        row["ratio"] = round(row["native"]["playouts_per_sec"] / row["interpreted"]["playouts_per_sec"], 2)
        results.append(row)
    if as_json:
        import platform

        click.echo(json.dumps({"seconds": seconds, "rounds": NATIVE_ROUNDS, "python": platform.python_version(),
                               "native_build": display(built), "rulesets": results}, indent=2))
        return
    table = Table(title=f"rulewright bench --native ({seconds:g} s of random games per rule set and side, in "
                        f"{NATIVE_ROUNDS} alternate runs, one core)", title_justify="left")
    titles = ["rule set", "players", "interpreted playouts/s", "native playouts/s", "native ×"]
    if wanted:
        titles.insert(2, "options")
    for title in titles:
        table.add_column(title, justify="left" if title in ("rule set", "options") else "right")
    for r in results:
        chosen = [options_text(r["options"], wanted)] if wanted else []
        table.add_row(*(literal(cell) for cell in (
            r["ruleset"], str(r["players"]), *chosen, f"{r['interpreted']['playouts_per_sec']:g}",
            f"{r['native']['playouts_per_sec']:g}", f"{r['ratio']:.2f}")))
    console = stdout_console()
    print_figures(console, table)
    console.print(f"native build: {display(built)}", soft_wrap=True)


PROFILE_ROWS = 20  # rule lines shown (--json: all of them)
PROFILE_FUNCTIONS = 8  # runtime functions shown


def bench_profile(files: Sequence[Path], seconds: float, players: int | None, passes: frozenset[str],
                  wanted: Mapping[str, str], as_json: bool) -> None:
    """`bench --profile`: each rule set compiled afresh (with the passes named), then `seconds` of
    its random playouts sampled (api/profiling.py), told by rule line."""
    from .. import profiling

    if not profiling.available():
        raise CliError("--profile needs an interval timer (signal.setitimer), which this platform lacks")
    results = []
    for path in files:
        try:
            compiled = driver.compile_file(path, passes)
        except CompileError as exc:
            problems = print_diagnostics(exc.diagnostics)
            raise CliError(f"{plural(problems, 'problem')} in {display(path)}") from None
        game = game_from_source(compiled)
        count = players if players in game.info.players else game.info.players[0]
        options = reading(game, wanted, count)
        try:
            found = profiling.profile(game, count, seconds, options, compiled.files)
        except profiling.PlayoutFailed as exc:
            raise CliError(f"{game.info.ruleset}: {exc}") from None
        except profiling.ProfileUnavailable as exc:
            raise CliError(str(exc)) from None
        head: dict[str, Any] = {"ruleset": game.info.ruleset, "file": display(path), "players": count,
                                "options": options}
        results.append((head, found))
    if as_json:
        import platform

        click.echo(json.dumps({"seconds": seconds, "python": platform.python_version(),
                               "profiles": [head | found.to_json() for head, found in results]}, indent=2))
        return
    console = stdout_console()
    for head, found in results:
        chosen = f", {options_text(head['options'], wanted)}" if wanted else ""
        console.print(literal(f"{head['ruleset']} ({plural(head['players'], 'player')}{chosen}): "
                              f"{plural(found.playouts, 'random playout')}, {found.moves:,} moves, "
                              f"{found.cpu_seconds:.2f} s of CPU, {plural(found.samples, 'sample')}"), soft_wrap=True)
        parts = Table()
        parts.add_column("where the time goes")
        parts.add_column("share", justify="right")
        for name, share in found.parts.items():
            parts.add_row(name, f"{share:.1%}")
        print_figures(console, parts)
        lines = Table(title="by rule line (self: the line's own code; runtime: the runtime functions it calls; "
                            "total: all under it, the rule lines it calls included)", title_justify="left")
        for title in ("rule line", "self", "runtime", "total", "rule"):
            lines.add_column(title, justify="left" if title in ("rule line", "rule") else "right")
        shown = found.lines[:PROFILE_ROWS]
        # the rule's text cut to the room left (each column takes 3 more characters, the table 1)
        room = max(16, console.width - 1 - 3 * 5 - max((len(line.where) for line in shown), default=9) - 6 - 7 - 6)
        for line in shown:
            text = line.text if len(line.text) <= room else line.text[:room - 1] + "…"
            lines.add_row(literal(line.where), f"{line.self_:.1%}", f"{line.runtime:.1%}", f"{line.total:.1%}",
                          literal(text))
        print_figures(console, lines)
        if found.runtime_functions:
            functions = Table(title="runtime functions (self)", title_justify="left")
            functions.add_column("function")
            functions.add_column("share", justify="right")
            for name, share in found.runtime_functions[:PROFILE_FUNCTIONS]:
                functions.add_row(literal(name), f"{share:.1%}")
            print_figures(console, functions)
    console.print(f"Sampled every {1000 * profiling.INTERVAL:g} ms (interpreted code; a share of n samples is "
                  f"good to about ±sqrt(n) samples); the first {PROFILE_ROWS} rule lines by self + runtime "
                  "(--json: all).", soft_wrap=True)
