"""The `rulewright` command line: list, check, compile, play, simulate, replay, bench, scenario.

Every user error (an unknown rule set, a bad option, a missing file, any RulewrightError)
prints one line `rulewright: error: ...` and exits non-zero; problems of a rule file print
its diagnostics, `path:line:col: error: ...`, with the source line.

This module is the group only: each command is a module of rulewright.commands, named in its
table (commands/__init__.py) and imported when the command is run, or listed by `--help`.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import json
import os
import re
import secrets
import shutil
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ._version import __version__
from .agents import (
    Agent,
    BadAgent,
    RandomAgent,
    agent_seed,
    check_agents,
    make_agents,
    parse_agent_spec,
)
from .commands import COMMANDS
from .commands.shared import (
    CliError,
    DecimalNumber,
    UsageProblem,
    WholeNumber,
    agent_line_up,
    literal,
    parse_options,
    plural,
    print_diagnostics,
    print_figures,
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
from .compiler.source import CompileError, did_you_mean
from .match import (
    DEFAULT_MAX_MOVES,
    BatchSpec,
    Interrupted,
    LogWriter,
    Summary,
    log_header,
    run_batch,
    stop_on_signals,
    write_log,
)
from .render import printable, printable_lines, render_state, seat_name
from .replay import Divergence, log_lines, replay_log, seat_to_act
from .rulesets import UnknownRuleset, load_game
from .runtime.errors import GameError, RulewrightError, whole_number
from .runtime.state import Action, Game, State


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


# -- play --------------------------------------------------------------------------------------
def parse_seats(values: Sequence[str], players: int) -> dict[int, str]:
    """`--seat K=human|SPEC` of `play`: who plays each seat (from 0), `human` or an agent spec's
    text (docs/experiments.md); seat 1 is human and the others random unless told."""
    kinds = {p: "random" for p in range(players)}
    kinds[0] = "human"
    for value in values:
        seat, sep, kind = value.partition("=")
        kind = kind.strip()
        k = whole_number(seat.strip())
        if not sep or k is None or not kind:
            raise CliError(f"bad --seat `{value}`: expected K=human or K=AGENT (random, mcts, ...), "
                           "e.g. --seat 2=human")
        if not 1 <= k <= players:
            raise CliError(f"bad --seat `{value}`: seats are 1 to {players} in this game")
        if kind.lower() == "human":
            kinds[k - 1] = "human"
        else:
            try:
                kinds[k - 1] = str(parse_agent_spec(kind))
            except BadAgent as exc:
                raise CliError(f"bad --seat `{value}`: {exc}") from None
    return kinds


QUIT_WORDS = ("q", "quit", "exit")


def terminal_width() -> int | None:
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else None


PLAY_WIDTH = 100  # what `play` draws within when its output is not a terminal


def format_moves(texts: Sequence[str], width: int, numbers: Sequence[int] | None = None) -> str:
    """The moves numbered (from 1, or as `numbers` says), in as many columns as fit in `width`."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(texts) + 1))
    digits = len(str(max(numbers, default=1)))
    items = [f"{n:>{digits}}) {t}" for n, t in zip(numbers, texts, strict=True)]
    cell = max((len(i) for i in items), default=0) + 3
    per_line = max(1, width // cell)
    lines = []
    for start in range(0, len(items), per_line):
        lines.append("".join(i.ljust(cell) for i in items[start:start + per_line]).rstrip())
    return "\n".join(lines)


MOVES_LISTED = 24  # more legal moves than this: a few of each kind, and `moves` lists them all
MOVE_LINES_PER_KIND = 2


def format_moves_compact(texts: Sequence[str], kinds: Sequence[str], width: int) -> str:
    """The legal moves as shown each turn: all of them when they are few; else, for each kind
    of action (in the order they come), how many there are and the first that fit in two
    lines, numbered as in the full list (`moves` shows it)."""
    if len(texts) <= MOVES_LISTED:
        return format_moves(texts, width)
    groups: dict[str, list[int]] = {}
    for i, kind in enumerate(kinds):
        groups.setdefault(kind, []).append(i)
    digits = len(str(len(texts)))
    lines = []
    for kind, members in groups.items():
        lines.append(f"{kind} ({len(members)}):")
        cell = max(len(texts[i]) for i in members) + digits + 5
        per_line = max(1, (width - 2) // cell)
        shown = members[:per_line * MOVE_LINES_PER_KIND]
        block = format_moves([texts[i] for i in shown], width - 2, [i + 1 for i in shown])
        lines += ["  " + line for line in block.split("\n")]
        if len(members) > len(shown):
            lines.append(f"  ... and {len(members) - len(shown)} more (`moves {kind}` lists them)")
    lines.append("(`moves` or ? lists every move)")
    return "\n".join(lines)


UNDO_WORDS = ("u", "undo")


class Undo:
    """What `ask_move` returns when the person takes back their last move (UNDO)."""


UNDO = Undo()


def ask_move(state: State, who: str, undo: str | None = None) -> Action | Undo | None:
    """The move a person chooses, UNDO if they take back their last one, or None if they quit
    (or their input ended). `undo`: why undo cannot be done now (None: it can)."""
    legal = state.legal_actions()
    texts = [printable(str(a)) for a in legal]
    kinds = [a.name for a in legal]
    width = terminal_width() or PLAY_WIDTH
    click.echo(f"{plural(len(texts), 'legal move')}:")
    click.echo(format_moves_compact(texts, kinds, width))
    while True:
        click.echo(f"{who}, your move (number or text, ? or moves lists the moves, undo, quit): ", nl=False)
        line = sys.stdin.readline()
        if not line:
            click.echo()
            return None
        entry = line.strip()
        if not sys.stdin.isatty():
            click.echo(entry)  # show piped input, so that a transcript reads as a dialogue
        if entry.lower() in QUIT_WORDS:
            return None
        if entry.lower() in UNDO_WORDS and state.parse_action(entry) is None:  # (a move named `undo` is a move)
            if undo is None:
                return UNDO
            click.echo(f"cannot undo: {undo}")
            continue
        if entry in ("?", "help", "moves"):
            click.echo(format_moves(texts, width))
            continue
        if entry.startswith("moves "):
            kind = entry[len("moves "):].strip()
            numbers = [i + 1 for i, k in enumerate(kinds) if k == kind]
            if numbers:
                click.echo(format_moves([texts[n - 1] for n in numbers], width, numbers))
            else:
                close = did_you_mean(kind, kinds)
                click.echo(f"no legal move is a `{printable(kind)}` now" + (f"; {close}" if close else "")
                           + f" (the kinds now: {', '.join(dict.fromkeys(kinds))})")
            continue
        if not entry:
            continue
        n = whole_number(entry)
        if n is not None:
            if 1 <= n <= len(legal):
                return legal[n - 1]
            click.echo(f"no move number {n}: choose 1 to {len(legal)}")
            continue
        chosen = state.parse_action(entry)
        if chosen is not None:
            return chosen
        click.echo(illegal_entry(state, entry, legal))


def illegal_entry(state: State, entry: str, legal: Sequence[Action]) -> str:
    """What `play` says of a move typed that is not legal now: why, by the rule that forbids it
    and its line (as the web board says it: State.why_illegal), and the closest legal move."""
    from .viewer import rule_line

    why, path = state.why_illegal(entry)
    where = rule_line(state.game, path)
    close = did_you_mean(entry, [str(a) for a in legal])
    lines = [f"not a legal move: {why}", f"rule {path}" + (f" ({where})" if where else ""),
             (f"{close} " if close else "") + f"(enter 1 to {len(legal)}, or a move as listed; ? lists them)"]
    width = terminal_width() or PLAY_WIDTH
    return "\n".join(part for k, line in enumerate(lines)
                     for part in textwrap.wrap(printable(line), width, initial_indent="  " if k else "",
                                               subsequent_indent="    ", break_long_words=False,
                                               break_on_hyphens=False))


# -- play: what a move changed -------------------------------------------------------------------
EFFECTS_SHOWN = 12  # changes named after a move; more are counted
GROUPED = 3  # as many spots of a field given one value are named in one change


def seen_fields(state: State, readers: Sequence[int]) -> list[dict[str, Any]]:
    """The fields each seat of `readers` observes now (`observation`)."""
    return [state.observation(p)["fields"] for p in readers]


def _value_shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return "[" + " ".join(_value_shown(v) for v in value) + "]"
    if isinstance(value, dict):  # a record: its fields' values (`P2 soldier`)
        return " ".join(_value_shown(v) for v in value.values())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _change_shown(old: Any, new: Any) -> str:
    """`old -> new`; for two lists of names, what left and what came (`-tile3 +tile9 +tile12`)."""
    if isinstance(old, list) and isinstance(new, list) and old and new \
            and all(isinstance(v, str) for v in old + new):  # (a list of numbers keeps its order: whole)
        left, came = Counter(old) - Counter(new), Counter(new) - Counter(old)
        if left or came:
            return " ".join([f"-{_value_shown(v)}" for v in left.elements()]
                            + [f"+{_value_shown(v)}" for v in came.elements()])
    return f"{_value_shown(old)} -> {_value_shown(new)}"


def field_changes(state: State, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Each change between two observations of one seat, as `field key: old -> new`: a per-spot
    (or region, die) field by key, a per-player one by seat, any other whole."""
    seats = state._labels("player")
    per = {f.name: f.per for f in state.FIELDS}
    changes = []
    for name, new in after.items():
        old = before.get(name)
        if old == new:
            continue
        if isinstance(new, dict) and isinstance(old, dict):
            changed = [key for key, value in new.items() if old.get(key) != value]
            by_value: dict[str, list[str]] = {}
            for key in changed:
                by_value.setdefault(_value_shown(new[key]), []).append(str(key))
            for key in changed:
                keys = by_value[_value_shown(new[key])]
                if len(keys) >= GROUPED:  # (a war's tiles leaving the map: `tile_on D3 D4 E5: -> none`)
                    if keys[0] == str(key):
                        changes.append(f"{name} {' '.join(keys)}: -> {_value_shown(new[key])}")
                else:
                    changes.append(f"{name} {key}: {_change_shown(old.get(key), new[key])}")
        elif isinstance(new, list) and isinstance(old, list) and len(new) == len(old) == len(seats) \
                and per.get(name) == "player":
            for p, (a, b) in enumerate(zip(old, new, strict=True)):
                if a != b:
                    changes.append(f"{name} {seats[p]}: {_change_shown(a, b)}")
        else:
            changes.append(f"{name}: {_change_shown(old, new)}")
    return changes


def move_effects(state: State, before: Sequence[dict[str, Any]], readers: Sequence[int]) -> str | None:
    """What the move just played changed that every reader of the transcript sees (the fields of
    their observations; a change seen by one person only is not told when several play at the
    terminal): a line, folded to the width, or None. What a rule settled shows here in any rule
    set, the lines the rules tell (`tell "..."`, State.told) printed before it in words."""
    after = seen_fields(state, readers)
    common: list[str] | None = None
    for b, a in zip(before, after, strict=True):
        found = field_changes(state, b, a)
        common = found if common is None else [c for c in common if c in found]
    if not common:
        return None
    more = len(common) - EFFECTS_SHOWN
    parts = [printable(c) for c in common[:EFFECTS_SHOWN]] + ([f"and {more} more"] if more > 0 else [])
    width = terminal_width() or PLAY_WIDTH
    lines = ["  ->"]
    for k, part in enumerate(parts):  # wrapped between changes; inside one only if it is wider than a line
        part += ";" if k < len(parts) - 1 else ""
        if len(lines[-1]) + 1 + len(part) > width and lines[-1].strip() != "->":
            lines.append("    ")
        if len(lines[-1]) + 1 + len(part) <= width:
            lines[-1] += " " + part
            continue
        pieces = textwrap.wrap(part, max(width - len(lines[-1]) - 1, 20), break_on_hyphens=False)
        lines[-1] += " " + pieces[0]
        lines += ["     " + piece for piece in pieces[1:]]
    return "\n".join(lines)


# -- play: undo and resume -----------------------------------------------------------------------
@dataclass
class Position:
    """A position a person decided in, to go back to (`undo`): the state, the agents as they
    were (their random draws included, so that they play again as they did) and the moves."""

    state: State
    robots: dict[int, Agent]
    moves: int


def keep_position(state: State, robots: dict[int, Agent], moves: int) -> Position:
    return Position(state.clone(), copy.deepcopy(robots), moves)


def cannot_undo(humans: Sequence[int], kept: Sequence[Position], history: Sequence[tuple[int, str]]) -> str | None:
    """Why `undo` cannot be done now, or None. Undo takes back the person's own last move and
    every agent move after it; with two people at the terminal it would take back the other's."""
    if len(humans) != 1:
        return "undo is for one person playing against agents, and this game has " + (
            f"{len(humans)} people at the terminal" if humans else "no person")
    if len(kept) < 2 and not any(p == humans[0] for p, _ in history):
        return "you have played no move yet"
    return None


def go_back(game: Game, start: tuple[int, int, dict[str, str]], kept: list[Position], seat: int,
            history: list[tuple[int, str]], robots: dict[int, Agent]) -> tuple[State, dict[int, Agent]]:
    """`undo`: the position where `seat` decided its last move, and the agents as they were then
    (a position of this session, kept), or, before the first one (a resumed game), the game
    played again from its start up to that move, the agents as they are. `history` is cut to it."""
    kept.pop()  # (the position asked now: it is asked again once gone back)
    if kept:
        back = kept.pop()
        moves, state, robots = back.moves, back.state, back.robots
    else:
        moves = max(k for k, (p, _) in enumerate(history) if p == seat)
        count, seed, options = start
        state = game.new_state(count, seed, options)
        for _, text in history[:moves]:
            state.apply(text)
    del history[moves:]
    return state, robots


MAX_RESUME_LOG = 64 << 20  # bytes: a game's log is a few hundred KiB at most


@dataclass
class Resumed:
    """A game read back from its log (`play --resume`): the rule set as named, its state and
    the moves played, by seat."""

    ruleset: str
    state: State
    moves: list[tuple[int, str]]
    seats: list[str] | None  # who played each seat (`human` or an agent spec), when the log says


def resume_log(path: Path, ruleset: str | None) -> Resumed:
    """Replay a log for `play --resume`, checked line by line as `replay` does (bounded: at most
    MAX_RESUME_LOG bytes; a log without its final state line, from a game that was killed, is
    taken up to its last whole move). A bad log is one CliError with its line."""
    moves: list[tuple[int, str]] = []
    last: list[State] = []

    def seen(state: State, player: int | None, action: str | None) -> None:
        last[:] = [state]
        if player is not None and action is not None:
            moves.append((player, action))

    try:
        replay_log(path, ruleset, seen, limit=MAX_RESUME_LOG, need_final=False)
    except Divergence as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise CliError(f"cannot resume from {printable(where)}: {printable(exc.message)}") from None
    if not last:
        raise CliError(f"cannot resume from {printable(str(path))}: nothing to replay")
    state = last[0]
    if state.is_terminal():
        raise CliError(f"cannot resume from {printable(str(path))}: its game is over (after "
                       f"{plural(len(moves), 'move')}); `rulewright replay` replays it")
    header = json.loads(next(text for _, text, _ in log_lines(path, MAX_RESUME_LOG) if text.strip()))
    named = ruleset
    if named is None:
        named = str(header["ruleset"])
        if named.endswith((".yaml", ".yml")) and not os.path.isabs(named):  # (relative to the log)
            named = str(path.parent / named)
    return Resumed(named, state, moves, logged_seats(path, header.get("seats"), state))


def logged_seats(path: Path, seats: Any, state: State) -> list[str] | None:
    """The seats a log's header says (`play` writes them), checked as a web request's are: data
    from a file, each `human` or an agent spec within the web board's limits."""
    from .viewer import ViewError, check_agent_limits

    if seats is None:
        return None
    problem = f"cannot resume from {printable(str(path))}:1: bad header: `seats` must list"
    if not (isinstance(seats, list) and len(seats) == state.num_players and all(isinstance(k, str) for k in seats)):
        raise CliError(f"{problem} {state.num_players} texts, `human` or an agent (random, mcts, ...)")
    for k, kind in enumerate(seats):
        if kind.strip().lower() == "human":
            continue
        try:
            spec = parse_agent_spec(kind)
            check_agent_limits(spec)
            check_agents(state.game, {k: spec})
        except (BadAgent, ViewError) as exc:
            raise CliError(f"{problem} agents the game can use: seat {k + 1}: {printable(str(exc), 200)}") from None
    return list(seats)


def announce_end(state: State) -> None:
    info = state.game.info
    scores = state.scores()
    click.echo("final scores: " + ", ".join(f"{seat_name(info, p)} {s}" for p, s in enumerate(scores)))
    winners = state.winners()
    names = ", ".join(seat_name(info, p) for p in winners)
    click.echo(f"tie between {names}" if len(winners) > 1 else f"winner: {names}")


@cli.command()
@click.argument("ruleset", required=False)
@click.option("--players", type=WholeNumber(), help="Number of players (default: the smallest allowed).")
@click.option("--seat", "seats", multiple=True, metavar="K=human|AGENT",
              help="Who plays seat K (from 1): human, or an agent (random, mcts:iterations=400, ...). "
                   "Default: seat 1 human, the others random.")
@click.option("--agent", "agent_options", multiple=True, metavar="K=SPEC",
              help="The agent of seat K (from 1), as --seat K=SPEC.")
@click.option("--seed", type=WholeNumber(), help="Seed of the game (default: a random one, printed).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game log (JSON lines) to FILE, for `rulewright replay` (with --resume: "
                   "the log resumed, unless told).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path), metavar="LOG",
              help="Continue the game a log saved (`play --log`): its rule set, players, seed, options "
                   "and moves are the log's.")
def play(ruleset: str | None, players: int | None, seats: tuple[str, ...], seed: int | None,
         options: tuple[str, ...], log_path: Path | None, agent_options: tuple[str, ...] = (),
         resume_path: Path | None = None) -> None:
    """Play RULESET at the terminal against agents (random unless --seat or --agent says).

    RULESET is a bundled rule set (china-cornett), a generated module (out/game/base.py) or a
    rule file (my-rules.yaml, compiled in memory); with --resume LOG it is the log's, unless
    named. At the prompt, `undo` takes back your last move (one person against agents)."""
    resumed: Resumed | None = None
    if resume_path is not None:
        given = [name for name, value in (("--players", players), ("--seed", seed), ("--option", options))
                 if value not in (None, ())]
        if given:
            raise CliError(f"{', '.join(given)} cannot be given with --resume: the log says them")
        resumed = resume_log(resume_path, ruleset)
        ruleset = resumed.ruleset
        state0 = resumed.state
        players, seed, options = state0.num_players, state0.seed, tuple(f"{k}={v}" for k, v in state0.options.items())
        log_path = log_path or resume_path
        if resumed.seats is not None and not seats and not agent_options:  # (as the game was played)
            seats = tuple(f"{k + 1}={kind}" for k, kind in enumerate(resumed.seats))
    elif ruleset is None:
        raise UsageProblem("play needs a RULESET (or --resume LOG): e.g. rulewright play china-cornett")
    try:
        game, count, chosen = setup(ruleset, players, options)
    except GameError as exc:  # a rule set's own fault (runtime/limits.py): one message
        raise CliError(f"the game stopped before its first move: {exc}") from None
    kinds = parse_seats(seats, count)
    for p, spec in agent_line_up(game, agent_options, count).items():
        if any(v.partition("=")[0].strip() == str(p + 1) for v in seats):
            raise CliError(f"seat {p + 1} is given by both --seat and --agent")
        kinds[p] = str(spec)
    line_up = {p: parse_agent_spec(kind) for p, kind in kinds.items() if kind != "human"}
    try:
        check_agents(game, line_up)
    except BadAgent as exc:
        raise CliError(str(exc)) from None
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    if resumed is not None:
        state = resumed.state
        game = state.game  # (a rule file compiled in memory twice makes two games: the log's is played)
    else:
        try:
            state = game.new_state(count, seed, chosen)
        except GameError as exc:  # (with the seed, to replay it)
            raise CliError(f"the game stopped before its first move (seed {seed}): {exc}") from None
    robot: Agent = RandomAgent(agent_seed(seed))  # the seats left to chance share it, as in simulate
    robots: dict[int, Agent] = {p: robot for p in line_up} | make_agents(line_up, seed)
    info = game.info
    seat_list = ", ".join(f"{seat_name(info, p)} {kinds[p]}" for p in range(count))
    click.echo(printable(f"{info.title} ({info.ruleset}), seed {seed}: {seat_list}"))
    history: list[tuple[int, str]] = list(resumed.moves) if resumed is not None else []
    if resumed is not None:
        click.echo(f"resumed after {plural(len(history), 'move')} from {printable(str(resume_path))}")
    header = log_header(ruleset, count, seed, chosen, log_path) | {"seats": [kinds[p] for p in range(count)]}
    log = LogWriter(log_path, header) if log_path else None
    if log:
        for player, text in history:
            log.action(player, text)
    move = state.moves + 1  # (the move a game error stops the game at)
    humans = [p for p in range(count) if kinds[p] == "human"]
    kept: list[Position] = []  # the positions the person decided in, for undo
    try:
        while not state.is_terminal():
            move = state.moves + 1
            player = seat_to_act(state)  # the seat that decides now (a phase's actor), not whose turn it is
            who = seat_name(info, player)
            action = forced_move(state, humans, player)  # a person's decision with one answer: played at once
            forced = action is not None  # (not kept for undo: undo goes back to the last real decision)
            if action is None and kinds[player] == "human":  # shown only the observation of their own seat
                kept.append(keep_position(state, robots, len(history)))
                click.echo()
                click.echo(render_state(state, player, terminal_width() or PLAY_WIDTH))
                chosen_move = ask_move(state, who, cannot_undo(humans, kept, history))
                if isinstance(chosen_move, Undo):
                    played = list(history)
                    state, robots = go_back(game, (count, seed, chosen), kept, player, history, robots)
                    undone = played[len(history):]
                    if log:
                        log.rewind(len(history))
                    click.echo(printable(f"{who} takes back `{undone[0][1]}`"
                                         + (f" and {plural(len(undone) - 1, 'move')} after it" if len(undone) > 1
                                            else "")))
                    continue
                if chosen_move is None:
                    click.echo(f"game abandoned after {plural(state.moves, 'move')} (seed {seed})")
                    if log:  # the state the log ends at: replay tells it from a log cut short
                        log.final(state.to_json())
                    if log_path:
                        click.echo(f"log written to {log_path}: `rulewright play --resume {log_path}` goes on")
                    return
                action = chosen_move
            elif action is None:
                action = state.action_at(robots[player].choose(state))
            text = str(action)
            click.echo(printable(f"{who} plays {state.move_text(action, transcript_reader(humans, player), player)}"
                                 + (FORCED_NOTE if forced else "")))
            readers = humans or [player]
            before = seen_fields(state, readers)
            state.apply(action)
            history.append((player, text))
            for line in state.told():  # what the rules tell everyone (`tell "..."`): public text
                click.echo(printable(f"  {line}"))
            effects = move_effects(state, before, readers)
            if effects:
                click.echo(effects)
            if log:
                log.action(player, text)
        if log:
            log.final(state.to_json())
    except GameError as exc:
        raise CliError(f"the game stopped at move {move} (seed {seed}): {exc}") from None
    finally:
        if log:
            log.close()
    click.echo()
    click.echo(render_state(state, humans[0] if humans else None, terminal_width() or PLAY_WIDTH))
    announce_end(state)
    if log_path:
        click.echo(f"log written to {log_path}")


# How `play` marks a person's move it played at once, the seat having no other (State.forced);
# the log holds it as any move, so that it replays the same.
FORCED_NOTE = " (forced: the only legal move)"


def forced_move(state: State, humans: Sequence[int], player: int) -> Action | None:
    """The move `play` makes at once for the person at seat `player`: the one legal action
    (State.forced), in a game where no other person plays (where others do, that a seat had no
    choice can tell them what it hides, and a move made without asking would show it: every
    decision is asked; docs/language.md, "Forced decisions"). Agents are asked for every move,
    forced or not: skipping one would change the draws of their generators, and every game."""
    return state.forced() if list(humans) == [player] else None


def transcript_reader(humans: Sequence[int], actor: int) -> int | None:
    """The seat `play`'s transcript line of a move by `actor` is written for: the people at the
    terminal read every line, so a human seat that did not play the move reads it as such
    (`others_text:`); else the player himself, or all of it when only agents play."""
    others = [p for p in humans if p != actor]
    return others[0] if others else (actor if humans else None)


# -- simulate ----------------------------------------------------------------------------------


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
    head.add_row("draws (several winners)", str(summary.draws))
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
    for p in range(summary.players):
        name = f"P{p + 1}" + (f" ({roles[p]})" if p < len(roles) else "")
        rate = f"{summary.wins[p] / summary.finished:.1%}" if summary.finished else "-"
        agent = [literal(summary.agents[p])] if agents else []
        seats.add_row(literal(name), *agent, str(summary.wins[p]), rate, num(data["scores_mean_by_seat"][p]))
    return [head, seats]


@cli.command()
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
def simulate(ruleset: str, games: int, players: int | None, seed: int, workers: int, as_json: bool,
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


# -- compare -----------------------------------------------------------------------------------
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


@cli.command("compare")
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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write charts (SVG and PNG) and a self-contained report.html into DIR.")
def compare_command(a: str, b: str | None, games: int, players: int | None, seed: int, options: tuple[str, ...],
                    options_a: tuple[str, ...], options_b: tuple[str, ...], agents: tuple[str, ...],
                    agents_a: tuple[str, ...], agents_b: tuple[str, ...], alpha: float, workers: int,
                    dask_address: str | None, max_moves: int, max_turns: int | None, as_json: bool,
                    plot_dir: Path | None) -> None:
    """Play A and B on the same seeds and test what differs in play, pair by pair.

    A and B are bundled rule sets or rule files; B is A when left out, to compare option
    settings (--option-a, --option-b) or agent line-ups (--agent-a, --agent-b). For each
    seat's win rate, draws, first-player advantage, each seat's score, game length and capped
    games: both sides with their intervals, B - A with its interval, a test (named) and a
    verdict at --alpha (docs/experiments.md). Exits 1 if any game raised an exception."""
    from . import compare as cmp

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
            specs = tuple(BatchSpec(s.ruleset, count, seed, s.options, max_moves, max_turns=max_turns,
                                    agents=tuple(sorted(s.agents.items()))) for s in sides)
            show = not as_json and sys.stderr.isatty()
            with progress_bar(2 * games, f"compare {sides[0].label} / {sides[1].label}", show) as advance:
                def step() -> None:
                    nonlocal played
                    played += 1
                    advance()

                results = cmp.play((specs[0], specs[1]), games, workers, dask_address, (loaded[0], loaded[1]), step)
            movers = (cmp.first_movers(loaded[0], specs[0], games), cmp.first_movers(loaded[1], specs[1], games))
            comparison = cmp.analyse(sides[0], sides[1], results[0], results[1], players=count, seed=seed,
                                     alpha=alpha, first_movers=movers, max_moves=max_moves, max_turns=max_turns)
    except Interrupted as stop:
        ended = f"; {plural(workers, 'worker')} ended" if workers > 1 else ""
        click.echo(f"rulewright: interrupted by {stop.name} after {played} of {plural(2 * games, 'game')}{ended}",
                   err=True)
        sys.exit(stop.exit_code)
    data = comparison.to_json()
    if plot_dir is not None:
        from . import plots

        written = plots.write_all(comparison, plot_dir)
        if not as_json:
            click.echo(f"charts written to {printable(str(plot_dir))}: {', '.join(p.name for p in written)}",
                       err=True)
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


# -- replay ------------------------------------------------------------------------------------


@cli.command()
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--ruleset", metavar="RULESET",
              help="Replay under this rule set (a bundled id, a rule file, or a generated module .py, whose "
                   "code runs) instead of the one the log's header names.")
def replay(log_file: Path, ruleset: str | None) -> None:
    """Replay a game log (from `play --log` or `simulate --log`) and check it is identical.

    The header names its rule set by bundled id or by rule file (relative to the log); a log
    never names a Python module: name one with --ruleset. Exit 1 at the first line that does
    not replay, for a log with no moves and for a log cut short (no final state line)."""
    try:
        actions, finished = replay_log(log_file, ruleset)
    except Divergence as exc:
        where = f"{log_file}:{exc.line}" if exc.line else str(log_file)
        click.echo(f"{printable(where)}: error: {printable(exc.message)}", err=True)
        sys.exit(1)
    click.echo(f"replayed {plural(actions, 'action')}: identical")
    if not finished:
        click.echo("(the game was not finished: the log ends before the game does)")


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
