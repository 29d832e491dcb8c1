"""The web board's games saved as they go, and resumed when the server starts again
(`rulewright serve --games DIR`, docs/web.md "Playing together").

Each game is two files in the folder, both readable by their owner only (0600; the folder, when made
here, 0700): `ID.jsonl`, its log as `play --log` writes it (a header naming the rule set, the
players, seed, options and seats; a line per move, flushed as it is played; the final state once
the game is over), which `rulewright replay` reads; and `ID.links.json`, its secret links (a
link is as good as a seat: it stays private). At the start, the unfinished games of the folder
are resumed: at most MAX_RESUMED, each log at most MAX_SAVED_LOG bytes, checked line by line as
`replay` checks a log and naming only a rule set this server offers; a file that is not is
reported in one line and skipped (and left where it is).
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from .match import RefusedFile, open_regular
from .runtime.errors import RulewrightError
from .runtime.state import Game, State
from .terminal import printable
from .viewer import HUMAN, SPECTATOR, PlaySession, ViewError

MAX_RESUMED = 32  # games resumed at a start (the server keeps as many: viewer.MAX_GAMES)
MAX_SAVED_LOG = 16 << 20  # bytes of one saved log read back (a long game's log is a few hundred KiB)
MAX_LINKS_FILE = 4 << 10
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def default_folder() -> Path:
    """Where `serve` saves its games unless told: the user's data folder (XDG_DATA_HOME, else
    ~/.local/share; %LOCALAPPDATA% on Windows; ~/Library/Application Support on macOS), then
    `rulewright/games`. Not the working folder: a game started from one folder is resumed
    whatever folder the server is started from next."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "rulewright" / "games"


class SavedLog:
    """One game's log, written as it goes: the moves not yet written after each request (and the
    final state at the end). A write that fails (a full disk) is said once on the page
    (`problem`) and the game goes on unsaved."""

    def __init__(self, path: Path, handle: IO[str]) -> None:
        self.path = path
        self.handle: IO[str] | None = handle
        self.written = -1  # moves written (-1: not even the header)
        self.ended = False
        self.problem: str | None = None
        self.lock = threading.Lock()  # (a game dropped closes it while a request may write)

    def write(self, session: PlaySession) -> None:
        with self.lock:
            if self.handle is None or self.ended:
                return
            lines = [json.dumps(session.header())] if self.written < 0 else []
            start = max(self.written, 0)
            lines += [json.dumps({"player": p, "action": a}) for p, a in session.history[start:]]
            if session.state.is_terminal():
                lines.append(json.dumps({"final": session.state.to_json()}))
            try:
                self.handle.write("".join(line + "\n" for line in lines))
                self.handle.flush()
            except (OSError, ValueError) as exc:
                self.problem = f"the game is no longer saved: {printable(str(exc), 120)}"
                self._close()
                return
            self.written = len(session.history)
            if session.state.is_terminal():
                self.ended = True
                self._close()

    def close(self) -> None:
        with self.lock:
            self._close()

    def _close(self) -> None:
        if self.handle is not None:
            try:
                self.handle.close()
            except OSError:
                pass
            self.handle = None


def _private(path: Path) -> IO[str]:
    """A new file only its owner reads and writes (0600), refused if it exists."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")


class GameFolder:
    """The folder games are saved in (made, mode 0700, when missing)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise ViewError(f"cannot make the games folder {printable(str(path))}: {exc.strerror or exc}") from None
        if not path.is_dir():
            raise ViewError(f"the games folder {printable(str(path))} is not a folder")

    def saved_log(self, key: str, session: PlaySession) -> SavedLog | None:
        """Start saving a game (its header and moves so far, and its links); None when the
        files cannot be made (the game is played unsaved, as the page says)."""
        try:
            if session.links:
                with _private(self.path / f"{key}.links.json") as links:
                    json.dump({"links": session.links}, links)
            log = SavedLog(self.path / f"{key}.jsonl", _private(self.path / f"{key}.jsonl"))
        except OSError as exc:
            session.agent_error = f"the game is not saved: {printable(str(exc), 120)}"
            return None
        log.write(session)
        return log

    def resume(self, loader: Callable[[object, Path], Game]) -> tuple[list[tuple[str, PlaySession]], list[str]]:
        """The unfinished games of the folder, each by its id (at most MAX_RESUMED, the latest
        first), and a line for each file that could not be resumed."""
        problems: list[str] = []
        try:
            logs = sorted(self.path.glob("*.jsonl"), key=_mtime, reverse=True)
        except OSError as exc:
            return [], [f"{printable(str(self.path))}: cannot list it: {exc.strerror or exc}"]
        found: list[tuple[str, PlaySession]] = []
        for path in logs:
            key = path.name.removesuffix(".jsonl")
            if not GAME_ID.fullmatch(key) or _finished(path):
                continue  # (not a file the server wrote, or a finished game's log, kept for `replay`)
            if len(found) == MAX_RESUMED:
                problems.append(f"skipped {printable(str(path))}: {MAX_RESUMED} games are taken up at most")
                continue
            try:
                session = resume_game(path, loader)
            except ViewError as exc:
                problems.append(f"skipped {exc}")
                continue
            if session is not None:
                found.append((key, session))
        return found, problems


def _finished(path: Path) -> bool:
    """Whether a saved log ends with its final state (the server writes it at the game's end
    only): read from its end, so that a folder of finished games is not replayed at each start."""
    from .replay import MAX_LOG_LINE

    try:
        with open_regular(path, None, "game log") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - MAX_LOG_LINE))
            tail = handle.read(MAX_LOG_LINE)
    except (OSError, RefusedFile):
        return False  # (said when it is read: resume_game)
    lines = tail.rstrip(b"\n").rsplit(b"\n", 1)
    return lines[-1].startswith(b'{"final"')


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_links(path: Path, session: PlaySession) -> dict[str, str]:
    """A game's links file, checked: a role for each human seat, `spectator` and `host`, each a
    token of the form `secrets.token_urlsafe` writes, none twice."""
    if not path.exists():
        return {}
    where = printable(str(path))
    try:
        with open_regular(path, MAX_LINKS_FILE, "links file") as handle:
            data = json.loads(handle.read(MAX_LINKS_FILE + 1))
    except (OSError, RefusedFile) as exc:
        raise ViewError(f"{where}: cannot read it: {printable(str(exc), 120)}") from None
    except (ValueError, RecursionError):
        raise ViewError(f"{where}: not JSON") from None
    links = data.get("links") if isinstance(data, dict) else None
    roles = {str(k + 1) for k, kind in enumerate(session.seats) if kind == HUMAN} | {SPECTATOR, "host"}
    if not (isinstance(links, dict) and set(links) == roles and all(isinstance(t, str) and TOKEN.fullmatch(t)
                                                                   for t in links.values())
            and len(set(links.values())) == len(links)):
        raise ViewError(f"{where}: expected {{\"links\": {{role: token}}}} with the roles "
                        f"{', '.join(sorted(roles))}, each a secret token")
    return dict(links)


def resume_game(path: Path, loader: Callable[[object, Path], Game]) -> PlaySession | None:
    """A saved game played again from its log, as `play --resume` does (None: the game is over).
    The log is checked line by line as `replay` checks one, its header's seats as a request's are."""
    from .replay import Divergence, log_lines, replay_log

    moves: list[tuple[int, str]] = []
    last: list[State] = []
    header: dict[str, Any] = {}

    def seen(state: State, player: int | None, action: str | None) -> None:
        last[:] = [state]
        if player is not None and action is not None:
            moves.append((player, action))

    try:
        replay_log(path, None, seen, loader=loader, limit=MAX_SAVED_LOG, need_final=False)
        header = json.loads(next(text for _, text, _ in log_lines(path, MAX_SAVED_LOG) if text.strip()))
    except Divergence as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise ViewError(f"{printable(where)}: {printable(exc.message)}") from None
    except (OSError, RefusedFile, ValueError) as exc:
        raise ViewError(f"{printable(str(path))}: {printable(str(exc), 120)}") from None
    if not last or last[0].is_terminal():
        return None
    state = last[0]
    seats = header.get("seats", [HUMAN] * state.num_players)
    if not (isinstance(seats, list) and len(seats) == state.num_players and all(isinstance(k, str) for k in seats)):
        raise ViewError(f"{printable(str(path))}:1: bad header: `seats` must list {state.num_players} texts, "
                        "`human` or an agent")
    name = str(header["ruleset"])
    try:
        session = PlaySession.start(loader(name, path), state.num_players, int(header["seed"]), seats,
                                    dict(state.options), forced=False)
        session.name = name
        session.replayed(moves)
        session.links = read_links(path.with_name(path.name.removesuffix(".jsonl") + ".links.json"), session)
    except RulewrightError as exc:
        raise ViewError(f"{printable(str(path))}: {printable(str(exc), 200)}") from None
    return session


def reopen(path: Path, session: PlaySession) -> SavedLog | None:
    """A resumed game's log, written on from its end (its moves are those the session replayed)."""
    try:
        handle = path.open("a", encoding="utf-8", newline="\n")
    except OSError as exc:
        session.agent_error = f"the game is not saved: {printable(str(exc), 120)}"
        return None
    log = SavedLog(path, handle)
    log.written = len(session.history)
    return log
