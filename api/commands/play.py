"""`rulewright play`: a game at the terminal against agents, with undo, a log and --resume."""

from __future__ import annotations

import copy
import json
import os
import secrets
import shutil
import sys
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..agents import Agent, BadAgent, RandomAgent, agent_seed, check_agents, make_agents, parse_agent_spec
from ..core.source import did_you_mean
from ..match import LogWriter, log_header
from ..render import render_state
from ..replay import Divergence, log_lines, replay_log, seat_to_act
from ..runtime.errors import GameError, whole_number
from ..runtime.state import Action, Game, State
from ..terminal import printable, seat_name
from .shared import CliError, UsageProblem, WholeNumber, agent_line_up, plural, setup


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
    from ..viewer import rule_line

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
    from ..viewer import ViewError, check_agent_limits

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
    if state.RETURNS:  # (`returns:`: each seat's return, and a draw, every return the same, has no winner)
        returns = state.declared_returns()
        click.echo("returns: " + ", ".join(f"{seat_name(info, p)} {r:+d}" if r else f"{seat_name(info, p)} 0"
                                           for p, r in enumerate(returns)))
    winners = state.winners()
    names = ", ".join(seat_name(info, p) for p in winners)
    if not winners:
        click.echo("a draw: nobody wins")
    else:
        click.echo(f"tie between {names}" if len(winners) > 1 else f"winner: {names}")


@click.command("play")
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
def command(ruleset: str | None, players: int | None, seats: tuple[str, ...], seed: int | None,
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
            # a choice made at once with others is shown as the others read it once made (hidden while
            # some still choose; the last choice plays the decision, which shows them all)
            together = state.is_simultaneous()
            if not together:
                click.echo(printable(f"{who} plays {state.move_text(action, transcript_reader(humans, player), player)}"
                                     + (FORCED_NOTE if forced else "")))
            readers = humans or [player]
            before = seen_fields(state, readers)
            state.apply(action)
            if together:
                click.echo(printable(f"{who} plays {state.move_text(action, transcript_reader(humans, player), player)}"
                                     + (FORCED_NOTE if forced else "")))
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
