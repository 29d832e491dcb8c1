"""A game log read back: `rulewright replay`, `play --resume`, the web board's and `render`'s
replays (viewer.py) all replay a log with `replay_log`, checked line by line (match.py writes
logs). Below both the commands and the web board: neither imports the other."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from .core.source import CompileError
from .loading import load_named
from .match import RefusedFile, first_difference, open_regular
from .rulesets import UnknownRuleset, load_game
from .runtime.errors import IllegalAction, RulewrightError, is_int
from .runtime.state import Game, State
from .terminal import printable


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def seat_to_act(state: State) -> int:
    """The seat that decides now: `state.to_act()`, the one answer for `play` (who is asked,
    whose agent answers, what is logged) and `replay`; called only before the game's end. A
    fault of the rule set's code (a phase's `actor:`) is a GameError from `to_act()` itself."""
    seat = state.to_act()
    if seat is None:
        raise RulewrightError("nobody is to act: the game is over")
    return seat


class Divergence(Exception):
    """Where a log stops replaying: its line (0: the file as a whole) and why."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


HEADER_FORM = '{"ruleset": ..., "players": ..., "seed": ..., "options": {...}}'


# The longest line of a log read: a final state is a few KiB (a Schacht game's, the largest
# bundled, about 3 KiB), an action line under 100 bytes.
MAX_LOG_LINE = 1 << 20


def log_lines(path: Path, limit: int | None = None) -> Iterator[tuple[int, str, bool]]:
    """Each line of a log: its number, its text and whether it ends with a newline (only a
    last line cut short does not). Streamed, at most MAX_LOG_LINE bytes a line (and `limit`
    bytes in all, when given)."""
    try:
        handle = open_regular(path, limit, what="game log")
    except RefusedFile as exc:
        raise Divergence(0, str(exc)) from None
    except OSError as exc:
        raise Divergence(0, f"cannot read the log: {exc.strerror or exc}") from None
    with handle:
        n = 0
        while raw := handle.readline(MAX_LOG_LINE + 1):
            n += 1
            complete = raw.endswith(b"\n")
            if len(raw) > MAX_LOG_LINE and not complete:
                raise Divergence(n, f"line longer than {MAX_LOG_LINE:,} bytes: not a line of a game log")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                if not complete:
                    raise Divergence(n, "the log is truncated: its last line is cut off (mid-character)") from None
                raise Divergence(n, f"not UTF-8 text (byte {exc.start + 1} of the line)") from None
            yield n, text, complete


def _parse_line(n: int, text: str, complete: bool) -> Any:
    try:
        return json.loads(text.rstrip("\r\n"))
    except (ValueError, RecursionError) as exc:
        detail = (f"{exc.msg}: column {exc.colno}" if isinstance(exc, json.JSONDecodeError)
                  else "nested too deeply" if isinstance(exc, RecursionError)
                  else "a number too long (the limit is 4,300 digits)" if "digits" in str(exc)
                  else printable(str(exc), 80))
        if not complete:
            raise Divergence(n, f"the log is truncated: its last line is cut off ({detail})") from None
        raise Divergence(n, f"not a JSON line: {detail}") from None


def _json_shown(value: Any) -> str:
    return printable(json.dumps(value), 40)


def _header(n: int, header: Any) -> tuple[str, int, int, dict[str, str]]:
    """The rule set, players, seed and options a header gives, each checked for its type."""
    if not isinstance(header, dict):
        raise Divergence(n, f"the first line must be the header {HEADER_FORM}")
    for key in ("ruleset", "players", "seed"):
        if key not in header:
            raise Divergence(n, f"the header has no `{key}`: expected {HEADER_FORM}")
    ruleset, players, seed = header["ruleset"], header["players"], header["seed"]
    if not isinstance(ruleset, str) or not ruleset.strip():
        raise Divergence(n, f"bad header: `ruleset` must name a rule set (a bundled id or a rule file), "
                            f"not {_json_shown(ruleset)}")
    for key, value in (("players", players), ("seed", seed)):
        if not is_int(value):
            raise Divergence(n, f"bad header: `{key}` must be a whole number, not {_json_shown(value)}")
    options = header.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise Divergence(n, f"bad header: `options` must map option names to values, as text "
                            f"(e.g. {{\"board\": \"hex5\"}}), not {_json_shown(options)}")
    return ruleset, players, seed, options


def _game_of_header(n: int, ruleset: str, log: Path, override: str | None,
                    loader: Callable[[object, Path], Game] | None = None) -> Game:
    """The game to replay: the one named on the command line (`--ruleset`), else the one the
    header names, by bundled id or rule file only (by `loader` when given: the web board's, for a
    log sent from the browser, bundled ids only): a header never imports a module."""
    try:
        if override is not None:
            return load_game(override)
        return (loader or load_named)(ruleset, log)
    except UnknownRuleset as exc:
        raise Divergence(n, str(exc)) from None
    except CompileError as exc:
        for d in exc.diagnostics:  # (on stderr, as the commands print a rule file's problems)
            click.echo(d.render(), err=True)
        problems = len(exc.diagnostics)
        named = override if override is not None else ruleset
        raise Divergence(n, f"the rule set `{printable(named, 80)}` does not compile: "
                            f"{_plural(problems, 'problem')}, above") from None
    except RulewrightError as exc:
        hint = ("; to replay under a generated module, name it on the command line: "
                "rulewright replay --ruleset FILE.py LOG") if ruleset.endswith(".py") else ""
        raise Divergence(n, f"header: {exc}{hint}") from None


def replay_log(path: Path, ruleset: str | None = None,
               seen: Callable[[State, int | None, str | None], None] | None = None,
               loader: Callable[[object, Path], Game] | None = None, limit: int | None = None,
               need_final: bool = True) -> tuple[int, bool]:
    """Replay a game log (under `ruleset`, a rule set named on the command line, if given);
    returns (actions replayed, whether the game reached its end). Raises Divergence at the
    first line that does not replay, for a log with no moves, and for a log cut short (a
    line cut off, no final state line: accepted when not `need_final`, as `play --resume`
    takes the log of a game that was killed). `limit`: the most bytes the file may hold.
    `seen(state, player, action)` is told the state the header starts (player and action None)
    and the state after each action replayed (the web board's replay, `render LOG --move N`):
    the states up to a divergence are told too."""
    lines = log_lines(path, limit)
    header_line: tuple[int, Any] | None = None
    for n, text, complete in lines:
        if text.strip():
            header_line = (n, _parse_line(n, text, complete))
            break
    if header_line is None:
        raise Divergence(1, f"empty log: expected a header line {HEADER_FORM}")
    n, header = header_line
    name, players, seed, options = _header(n, header)
    game = _game_of_header(n, name, path, ruleset, loader)
    try:
        state = game.new_state(players, seed, options)
    except RulewrightError as exc:
        raise Divergence(n, f"header: {exc}") from None
    if seen is not None:
        seen(state, None, None)
    actions = 0
    last = n
    for n, text, complete in lines:
        if not text.strip():
            continue
        entry = _parse_line(n, text, complete)
        if isinstance(entry, dict) and "final" in entry:
            if actions == 0 and need_final:
                raise Divergence(n, "the log has no moves: its header is followed by the final state")
            replayed = json.loads(json.dumps(state.to_json()))  # as it would be written
            difference = first_difference(entry["final"], replayed)
            if difference:
                raise Divergence(n, f"the final state differs after {actions} actions: {difference}")
            for n, text, _ in lines:
                if text.strip():
                    raise Divergence(n, "nothing may follow the final state")
            return actions, state.is_terminal()
        if not (isinstance(entry, dict) and isinstance(entry.get("action"), str) and is_int(entry.get("player"))):
            raise Divergence(n, 'expected {"player": seat, "action": text} or {"final": state}')
        player, action = entry["player"], entry["action"]
        shown = printable(action, 80)
        if state.is_terminal():
            raise Divergence(n, f"the game ended after {actions} actions, but the log goes on with `{shown}`")
        if not 0 <= player < state.num_players:
            raise Divergence(n, f"seat {player} is no seat of this game: a log counts seats from 0 (P1) to "
                                f"{state.num_players - 1} (P{state.num_players})")
        try:
            deciding = seat_to_act(state)
            # a simultaneous decision: any seat still to choose, in whatever order the log says they chose
            together = state.choosing() if state.is_simultaneous() else [deciding]
        except RulewrightError as exc:
            raise Divergence(n, f"who is to act before `{shown}` raised a game error: {exc}") from None
        if player not in together:
            raise Divergence(n, f"the log has P{player + 1} play `{shown}`, but "
                                + (f"P{deciding + 1} is to act" if len(together) == 1 else
                                   f"{', '.join(f'P{s + 1}' for s in together)} are to choose"))
        try:
            state.apply(action, seat=player)
        except IllegalAction as exc:
            raise Divergence(n, str(exc)) from None
        except RulewrightError as exc:
            raise Divergence(n, f"`{shown}` raised a game error: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a fault of the game's code, reported like simulate's
            first = f"{type(exc).__name__}: {exc}".splitlines()[0]
            raise Divergence(n, f"`{shown}` raised {first}") from None
        if seen is not None:
            seen(state, player, action)
        actions += 1
        last = n
    if actions == 0 and need_final:
        raise Divergence(last, "the log has no moves: only a header")
    if not need_final:
        return actions, state.is_terminal()
    raise Divergence(last, f"the log is truncated: it ends after {_plural(actions, 'action')} with no final state "
                           'line (a complete log ends with {"final": state})')
