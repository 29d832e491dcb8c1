"""What the web board (api/web.py) and `rulewright render` show, apart from HTTP: games being
played, logs replayed, scenarios stepped, and the data sent for one seat.

Everything sent for a seat is made from what that seat may see: `payload` draws the seat's
observation (api/draw.py) and lists legal moves only to the seat whose turn it is. Files are
untrusted data, read as the rest of the tool reads them: a saved state through
`Game.state_from_json`, a log through the replay of `rulewright replay` (api/cli.py), a scenario
file through api/scenarios.py; each names its rule set by bundled id or rule file only.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import Agent, RandomAgent, check_agents, make_agents, parse_agent_spec, seat_agent_seed
from .draw import action_spots, render_svg
from .match import RefusedFile, open_regular
from .render import printable
from .runtime.errors import RulewrightError
from .runtime.state import Action, Game, State

MAX_STATE_FILE = 16 << 20  # a saved state read: the largest bundled game's is a few KiB
MAX_MOVES_SHOWN = 400  # legal moves listed at once (Yellow & Yangtze offers about 500 at times)
REFEREE = "referee"


class ViewError(RulewrightError):
    """A file or a request the viewer cannot serve: one line saying why."""


def parse_seat(text: str | None, players: int) -> int | None:
    """`1` ... `players` (a seat from 1) as a seat from 0, `referee` as None."""
    if text is None or text.strip().lower() == REFEREE:
        return None
    value = text.strip()
    if not value.isdigit() or not 1 <= int(value) <= players:
        raise ViewError(f"no seat `{printable(value, 20)}`: the seats are 1 to {players}, or {REFEREE}")
    return int(value) - 1


def read_json_file(path: Path, what: str) -> Any:
    """A JSON file of at most MAX_STATE_FILE bytes, only if it is a regular file."""
    try:
        with open_regular(path, MAX_STATE_FILE, what) as handle:
            data = handle.read(MAX_STATE_FILE + 1)
    except FileNotFoundError:
        raise ViewError(f"{printable(str(path))}: no such file") from None
    except RefusedFile as exc:
        raise ViewError(f"{printable(str(path))}: {exc}") from None
    except OSError as exc:
        raise ViewError(f"{printable(str(path))}: cannot read it: {exc.strerror or exc}") from None
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise ViewError(f"{printable(str(path))}: not a JSON {what}: {printable(str(exc), 80)}") from None


def looks_like_state(path: Path) -> bool:
    """Whether a file is a saved state (one JSON object with `fields`), not a log or a scenario."""
    if path.suffix in (".yaml", ".yml", ".jsonl"):
        return False
    try:
        data = read_json_file(path, "saved state")
    except ViewError:
        return False
    return isinstance(data, dict) and "fields" in data


def load_state_file(path: Path, loader: Callable[[str], Game] | None = None) -> State:
    """The state a file saved with `State.to_json()`, under the rule set it names (by bundled id
    or rule file relative to it), or under `loader()`'s game when given (a rule set named on the
    command line)."""
    from . import load_named

    data = read_json_file(path, "saved state")
    if not isinstance(data, dict):
        raise ViewError(f"{printable(str(path))}: a saved state is a JSON object")
    try:
        game = loader(str(data.get("ruleset"))) if loader is not None else load_named(data.get("ruleset"), path)
        return game.state_from_json(data)
    except RulewrightError as exc:
        raise ViewError(f"{printable(str(path))}: {exc}") from None


@dataclass
class Replay:
    """A log replayed: the state before each move and after the last, the moves, and why the
    replay stopped early (None: the log replayed to its final state)."""

    game: Game
    states: list[State]
    moves: list[tuple[int, str]]
    problem: str | None


def load_replay(path: Path, ruleset: str | None = None) -> Replay:
    """Replay a log as `rulewright replay` does, keeping every position."""
    from .cli import Divergence, replay_log

    states: list[State] = []
    moves: list[tuple[int, str]] = []

    def seen(state: State, player: int | None, action: str | None) -> None:
        states.append(state.clone())
        if player is not None and action is not None:
            moves.append((player, action))

    problem: str | None = None
    try:
        replay_log(path, ruleset, seen)
    except Divergence as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        problem = f"{printable(where)}: {printable(exc.message)}"
    if not states:
        raise ViewError(problem or f"{printable(str(path))}: nothing to replay")
    return Replay(states[0].game, states, moves, problem)


# -- what is sent for one seat -------------------------------------------------------------------
def rule_line(game: Game, path: str) -> str:
    """`file:line` of a rule path, when the rule set says."""
    where = game.info.rules.get(path) or game.info.rules.get(f"actions.{path}")
    return where or ""


def payload(state: State, seat: int | None, moves_for_seat: bool, picked: str | None = None,
            only: Sequence[str] | None = None, last: str | None = None) -> dict[str, Any]:
    """The drawing of `state` for `seat` (None: the referee) and, when `moves_for_seat` and the
    seat is the one to act, its legal moves (`only`: those clicked on) with the spots they name."""
    to_act = state.to_act()
    moves: list[str] = []
    spots: dict[str, list[str]] = {}
    if moves_for_seat and seat is not None and to_act == seat and not state.is_terminal():
        moves = [str(a) for a in state.legal_actions()]
        spots = action_spots(state, moves)
    shown = list(only) if only is not None else moves
    info = state.game.info
    return {
        "svg": render_svg(state, seat, spots if picked is None else (), picked,
                          action_spots(state, [last]) if last is not None else ()),
        "to_act": None if to_act is None else to_act + 1,
        "terminal": state.is_terminal(),
        "turn": state.turn,
        "phase": state.PHASES[state.phase],
        "seat": REFEREE if seat is None else seat + 1,
        "moves": shown[:MAX_MOVES_SHOWN],
        "moves_total": len(shown),
        "spots": sorted(spots),
        "winners": [p + 1 for p in state.winners()] if state.is_terminal() else [],
        "ruleset": info.ruleset,
    }


def explain_click(state: State, label: str) -> list[dict[str, str]]:
    """Why no legal move names spot `label`: for each action of the phase that takes a choice,
    what `why_illegal` says of it played on that spot, with its rule line."""
    reasons: list[dict[str, str]] = []
    seen: set[str] = set()
    phase = state.PHASES[state.phase]
    names = state.PHASE_ACTIONS[state.phase] if state.PHASE_ACTIONS else ()
    for name in names:
        prefix = state.TEXT_PREFIX.get(name, "")
        if not prefix.endswith(" "):  # an action without a choice names no spot
            continue
        why, path = state.why_illegal(f"{prefix}{label}")
        if why in seen:
            continue
        seen.add(why)
        reasons.append({"action": name, "why": why, "rule": path, "where": rule_line(state.game, path)})
    if not reasons:
        reasons.append({"action": "", "why": f"no action of phase `{phase}` is played on a spot",
                        "rule": f"phases.{phase}.actions", "where": rule_line(state.game, f"phases.{phase}")})
    return reasons


# -- games being played --------------------------------------------------------------------------
HUMAN = "human"


@dataclass
class PlaySession:
    """A game played in the browser: each seat `human` or an agent spec."""

    game: Game
    state: State
    seats: list[str]
    seed: int
    agents: dict[int, Agent] = field(default_factory=dict)
    history: list[tuple[int, str]] = field(default_factory=list)
    played: list[Action] = field(default_factory=list)  # the moves of `history`, to show each seat its text

    @classmethod
    def start(cls, game: Game, players: int | None, seed: int, seats: Sequence[str],
              options: Mapping[str, str] | None = None) -> PlaySession:
        try:
            state = game.new_state(players, seed, options)
        except RulewrightError as exc:
            raise ViewError(str(exc)) from None
        count = state.num_players
        if len(seats) != count:
            raise ViewError(f"{game.info.ruleset} with {count} players needs {count} seats, not {len(seats)}")
        agents: dict[int, Agent] = {}
        chosen: list[str] = []
        for k, text in enumerate(seats):
            if text.strip().lower() == HUMAN:
                chosen.append(HUMAN)
                continue
            spec = parse_agent_spec(text)  # (BadAgent is a RulewrightError: one line)
            check_agents(game, {k: spec})
            made = make_agents({k: spec}, seed)
            agents[k] = made.get(k) or RandomAgent(seat_agent_seed(seed, k))
            chosen.append(str(spec))
        return cls(game, state, chosen, seed, agents)

    def viewable(self) -> list[int | None]:
        """The seats this game may be seen as: the human seats when there are any (a person at
        the board sees no agent's hand), else every seat and the referee."""
        humans = [k for k, s in enumerate(self.seats) if s == HUMAN]
        if humans:
            return list(humans)
        return [*range(len(self.seats)), None]

    def check_viewer(self, seat: int | None) -> None:
        if seat not in self.viewable():
            shown = REFEREE if seat is None else f"seat {seat + 1}"
            raise ViewError(f"this game cannot be seen as {shown}: a game with a person at it is seen by its "
                            "human seats only")

    def agent_to_act(self) -> int | None:
        to_act = self.state.to_act()
        return to_act if to_act is not None and to_act in self.agents else None

    def step_agent(self) -> str | None:
        """One move by the agent to act, if an agent is to act; its text."""
        seat = self.agent_to_act()
        if seat is None or self.state.is_terminal():
            return None
        action = self.state.action_at(self.agents[seat].choose(self.state))
        text = str(action)
        self.state.apply(action)
        self.history.append((seat, text))
        self.played.append(action)
        return text

    def play(self, seat: int, text: str) -> dict[str, str] | None:
        """Play `text` for human `seat`; None when played, else why not (with the rule line)."""
        state = self.state
        if self.seats[seat] != HUMAN:
            return {"why": f"seat {seat + 1} is played by {self.seats[seat]}", "rule": "", "where": ""}
        if state.is_terminal() or state.to_act() != seat:
            who = "nobody: the game is over" if state.is_terminal() else f"P{(state.to_act() or 0) + 1}"
            return {"why": f"it is not your turn: {who} is to act", "rule": "", "where": ""}
        wanted = " ".join(text.split())
        legal = {str(a): a for a in state.legal_actions()}
        action = legal.get(wanted)
        if action is None:
            why, path = state.why_illegal(wanted)
            return {"why": why, "rule": path, "where": rule_line(state.game, path)}
        state.apply(action)
        self.history.append((seat, wanted))
        self.played.append(action)
        return None

    def history_for(self, seat: int | None) -> list[str]:
        """Each move so far as `seat` reads it now (None: the referee, who reads every text whole):
        a move's `others_text:` for the seats that did not play it (State.move_text)."""
        return [self.state.move_text(action, seat, p) for (p, _), action in zip(self.history, self.played, strict=True)]

    def log_lines(self) -> list[str]:
        """The game as a log `rulewright replay` reads (its header, the moves, the final state)."""
        st = self.state
        header = {"ruleset": self.game.info.ruleset, "players": st.num_players, "seed": self.seed,
                  "options": dict(st.options)}
        lines = [json.dumps(header)] + [json.dumps({"player": p, "action": a}) for p, a in self.history]
        return lines + [json.dumps({"final": st.to_json()})]


# -- scenarios -------------------------------------------------------------------------------------
@dataclass
class ScenarioView:
    """One scenario: its name, doc, the position and the state after each step (or the error
    that stopped a step), and its checks, expected against actual."""

    name: str
    doc: str
    where: str
    ruleset: str
    steps: list[str]
    states: list[State | None]
    errors: list[str | None]
    checks: list[dict[str, Any]]
    passed: bool
    problem: str | None


def load_scenarios(path: Path) -> list[ScenarioView]:
    """The scenarios of a file, each run (without its `distribution:` checks, which replay it
    thousands of times: `rulewright scenario` runs those) and stepped."""
    from .scenarios import _fresh, _play, apply_position, load_file, run

    scenarios, diagnostics = load_file(path)
    errors = [d for d in diagnostics if d.severity == "error"] if diagnostics else []
    if errors:
        first = errors[0]
        raise ViewError(f"{printable(first.render().splitlines()[0])}" + (
            f" (and {len(errors) - 1} more problems: `rulewright scenario {printable(str(path))}` lists them)"
            if len(errors) > 1 else ""))
    views: list[ScenarioView] = []
    for s in scenarios:
        game = s.game
        if game is None:
            continue
        quick = dataclasses.replace(s, expect=[e for e in s.expect if e.kind != "distribution"])
        result = run(quick)
        states: list[State | None] = []
        stopped: list[str | None] = []
        for k in range(len(s.steps) + 1):
            state = _fresh(s, game)
            problem = apply_position(s, state)
            if problem is None:
                problem = _play(dataclasses.replace(s, steps=s.steps[:k]), state)
            states.append(state if problem is None else None)
            stopped.append(problem)
            if problem is not None:
                break
        checks = [{"what": c.what, "expected": _jsonable(c.expected), "actual": _jsonable(c.actual), "ok": c.ok}
                  for c in result.checks]
        views.append(ScenarioView(
            s.name, s.doc, s.where, s.ruleset,
            [f"{'' if st.player is None else f'P{st.player + 1} '}{'' if st.kind == 'act' else st.kind + ' '}"
             f"{st.text}".strip() for st in s.steps],
            states, stopped, checks, result.passed, result.problem))
    return views


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return str(value)


# -- the sessions of one server --------------------------------------------------------------------
class Sessions:
    """The games, replays and scenario files one server holds, by id; one lock serves them all
    (a request changes one game at a time)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.games: dict[str, PlaySession] = {}
        self.replays: dict[str, tuple[str, Replay]] = {}
        self.scenarios: dict[str, tuple[str, list[ScenarioView]]] = {}

    @staticmethod
    def new_id() -> str:
        return secrets.token_urlsafe(9)

    def add_game(self, session: PlaySession) -> str:
        key = self.new_id()
        self.games[key] = session
        return key

    def add_replay(self, name: str, replay: Replay) -> str:
        key = self.new_id()
        self.replays[key] = (name, replay)
        return key

    def add_scenarios(self, name: str, views: list[ScenarioView]) -> str:
        key = self.new_id()
        self.scenarios[key] = (name, views)
        return key


def parse_source_kind(path: Path) -> str:
    """What a file given to `serve` is: `scenario` (YAML), `state` (a saved state) or `log`."""
    if path.suffix in (".yaml", ".yml"):
        return "scenario"
    return "state" if looks_like_state(path) else "log"
