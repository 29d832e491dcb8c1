"""What the web board (api/web.py) and `rulewright render` show, apart from HTTP: games being
played, logs replayed, scenarios stepped, and the data sent for one seat.

Everything sent for a seat is made from what that seat may see: `payload` draws the seat's
observation (api/draw.py) and lists legal moves only to the seat whose turn it is. Files are
untrusted data, read as the rest of the tool reads them: a saved state through
`Game.state_from_json`, a log through the replay of `rulewright replay` (api/replay.py), a scenario
file through api/scenarios/; each names its rule set by bundled id or rule file only.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .agents import Agent, AgentSpec, RandomAgent, check_agents, make_agents, parse_agent_spec, seat_agent_seed
from .draw import action_spots, render_svg
from .match import RefusedFile, open_regular
from .runtime.errors import RulewrightError, whole_number
from .runtime.state import Action, Game, State
from .terminal import printable


class SavedLog(Protocol):
    """Where a game is saved as it goes (api/savedgames.py's `SavedLog`): the session writes its
    new moves after each request, and closes it when the game is dropped. A protocol here, so
    that savedgames, which plays saved games again through PlaySession, is the one to import."""

    problem: str | None  # why the game is no longer saved (a full disk), said on its pages

    def write(self, session: PlaySession) -> None: ...

    def close(self) -> None: ...


class GameFolder(Protocol):
    """The folder games are saved in (api/savedgames.py's `GameFolder`): a new log per game kept."""

    path: Path

    def saved_log(self, key: str, session: PlaySession) -> SavedLog | None: ...

MAX_STATE_FILE = 16 << 20  # a saved state read: the largest bundled game's is a few KiB
MAX_MOVES_SHOWN = 400  # legal moves listed at once (Yellow & Yangtze offers about 500 at times)
# legal moves sent at once: the page filters them itself when a spot or a piece is clicked (past
# this, a click on a spot asks the server, which reads them all)
MAX_MOVES_SENT = 4000
ACTIONS_NAMED = 6  # the action names a plain prompt lists (`Your turn: build, send, stop ...`)
REFEREE = "referee"
STOPPED = "the server stopped"  # (a live page then waits for it to start again: its game comes back, if saved)
SPECTATOR = "spectator"  # a link that sees only what every seat sees (docs/web.md, "Playing together")
# What an agent of a game played in the browser may be asked (docs/web.md, "Limits"): its
# iterations and the moves of a play-out, and the time a move's search may take (it then plays
# the best move found so far).
MAX_AGENT_ITERATIONS = 5_000
MAX_ROLLOUT_MOVES = 10_000
AGENT_SECONDS = 5.0
CHECKPOINT = 32  # a scenario's states kept: one every CHECKPOINT steps, the others played again
# A person's forced decisions (State.forced) played at once after one request, at most: each is a
# move of bounded work, and a rule file could make a seat's every decision forced for long.
MAX_FORCED = 1000


class ViewError(RulewrightError):
    """A file or a request the viewer cannot serve: one line saying why."""


def parse_seat(text: str | None, players: int) -> int | None:
    """`1` ... `players` (a seat from 1) as a seat from 0, `referee` as None."""
    if text is None or text.strip().lower() == REFEREE:
        return None
    value = text.strip()
    number = whole_number(value)
    if number is None or not 1 <= number <= players:
        raise ViewError(f"no seat `{printable(value, 20)}`: the seats are 1 to {players}, or {REFEREE}")
    return number - 1


def check_agent_limits(spec: AgentSpec) -> None:
    """Refuse an agent asked for more than a game in the browser allows (MAX_AGENT_ITERATIONS,
    MAX_ROLLOUT_MOVES): a search of a billion iterations would hold a worker for ever."""
    values = spec.values()
    for name, most in (("iterations", MAX_AGENT_ITERATIONS), ("rollout_moves", MAX_ROLLOUT_MOVES)):
        value = values.get(name)
        if isinstance(value, int) and value > most:
            raise ViewError(f"agent `{spec.kind}`: `{name}` may be at most {most:,} in the web board, not {value:,}")


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
    from .loading import load_named

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
    moves: list[tuple[int, str]]  # each move's seat and whole text (as the log writes it)
    problem: str | None
    actions: list[Action] = field(init=False)  # each move's action, found again by its text
    _labels: list[str] | None = field(default=None, init=False, repr=False)  # (`labels`)

    def __post_init__(self) -> None:
        self.actions = []
        for k, (_, text) in enumerate(self.moves):
            action = self.states[k].clone().parse_action(text)
            if action is None:
                raise ViewError(f"move {k + 1}, `{printable(text, 80)}`, is not a legal move where it is played")
            self.actions.append(action)

    def history_for(self, seat: int | None) -> list[str]:
        """Each move as `seat` (None: the referee) reads it in the last position replayed
        (State.move_text): its own moves whole and the others' `others_text:` while the game is
        not over (a log sent to the board may be of a game going on); all whole once it is over;
        in the rule set's words (`look: moves:`) where the seat reads it whole."""
        last = self.states[-1].clone()
        texts = [last.move_text(action, seat, p) for (p, _), action in zip(self.moves, self.actions, strict=True)]
        words, described = self.labels(), things_described(last)
        return [without_ids(words[k] if text == str(self.actions[k]) else text, described)
                for k, text in enumerate(texts)]

    def labels(self) -> list[str]:
        """Each move in the rule set's words (`look: moves:`, State.move_label), read in the
        position where it was played, as a reader of the whole move reads it; read once."""
        if self._labels is None:
            if type(self.states[0])._look_move is State._look_move:  # (the rule set words no move)
                self._labels = [str(a) for a in self.actions]
            else:
                self._labels = [self.states[k].clone().move_label(a, None, p)
                                for k, ((p, _), a) in enumerate(zip(self.moves, self.actions, strict=True))]
        return self._labels

    def told(self) -> list[list[str]]:
        """What each move told everyone (State.told: public, the same for every seat)."""
        return [self.states[k + 1].told() for k in range(len(self.moves))]


def told_after(text: str, told: list[str]) -> str:
    """A move's line in a history, followed by what the move told everyone (State.told)."""
    return " — ".join([text, *told])


def load_replay(path: Path, ruleset: str | None = None,
                loader: Callable[[object, Path], Game] | None = None) -> Replay:
    """Replay a log as `rulewright replay` does, keeping every position; the rule set its header
    names is read by `loader` when given (a file sent from the browser: bundled ids only)."""
    from .replay import Divergence, replay_log

    states: list[State] = []
    moves: list[tuple[int, str]] = []

    def seen(state: State, player: int | None, action: str | None) -> None:
        states.append(state.clone())
        if player is not None and action is not None:
            moves.append((player, action))

    problem: str | None = None
    try:
        replay_log(path, ruleset, seen, loader=loader)
    except Divergence as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        problem = f"{printable(where)}: {printable(exc.message)}"
    if not states:
        raise ViewError(problem or f"{printable(str(path))}: nothing to replay")
    return Replay(states[0].game, states, moves, problem)


# -- what is sent for one seat -------------------------------------------------------------------
def _common(values: Sequence[Any]) -> Any:
    """What every seat's observation of one field (or item) agrees on: the value when all are the
    same, lists and mappings of the same shape item by item, else hidden (None where a seat's
    reading is None: a per-player field's hidden entry; else HIDDEN)."""
    from .runtime.state import HIDDEN

    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if any(v is None for v in values):
        return None
    if all(isinstance(v, list) and len(v) == len(first) for v in values):
        return [_common([v[k] for v in values]) for k in range(len(first))]
    if all(isinstance(v, dict) and v.keys() == first.keys() for v in values):
        return {key: _common([v[key] for v in values]) for key in first}
    return HIDDEN


def public_view(state: State) -> dict[str, Any]:
    """What a spectator sees: what every seat's observation shows alike (`_common`), field by
    field and item by item; a field some seat does not see at all is left out."""
    seen = [state.observation(p) for p in range(state.num_players)]
    fields: dict[str, Any] = {}
    shown_all = {f.name for f in state.FIELDS if f.visible in ("all", "size")}
    for name in seen[0]["fields"]:
        if len(seen) == 1 and name not in shown_all:  # (one seat alone: what it sees of its own is not public)
            continue
        if all(name in o["fields"] for o in seen):
            fields[name] = _common([o["fields"][name] for o in seen])
    questions = {o.get("question") for o in seen}
    return {"fields": fields, "to_act": seen[0]["to_act"], "question": questions.pop() if len(questions) == 1 else None}


def public_svg(state: State, seat: int | None = None, highlight: Iterable[str] = (), picked: str | None = None,
               last: Iterable[str] = ()) -> str:
    """The drawing a spectator sees (`seat` is not used: a spectator has none)."""
    from .draw import board_facts, draw_svg, view_of

    seen = public_view(state)
    view = dataclasses.replace(view_of(state, None), fields=seen["fields"], to_act=seen["to_act"],
                               question=seen["question"], watcher=SPECTATOR)
    return draw_svg(state.board, view, board_facts(state), highlight, picked, last)


def rule_line(game: Game, path: str) -> str:
    """`file:line` of a rule path, when the rule set says."""
    where = game.info.rules.get(path) or game.info.rules.get(f"actions.{path}")
    return where or ""


def plain_prompt(state: State, seat: int | None, to_act: int | None, mine: bool = False) -> str | None:
    """The words of the decision now when the rule set gives none (`look: prompts:`): the question
    asked (`support`), or, for the seat to act itself, the names of the actions its legal moves are
    of (`build, send, stop`; `mine`: the seat is choosing, in a simultaneous decision); for any
    other seat the phase alone, never what it may do (which of a seat's actions are legal can tell
    what it hides: Yellow & Yangtze's `governors 0`)."""
    if to_act is None or state.is_terminal():
        return None
    question = state._pending.ask.name if state._pending is not None else None  # (public: State.observation)
    if question is not None:
        return f"choose {question.replace('_', ' ')}"
    if seat is None or seat != to_act and not mine:
        return f"phase {state.PHASES[state.phase].replace('_', ' ')}"
    names = list(dict.fromkeys(a.name.replace("_", " ") for a in state.legal_actions(seat)))
    return ", ".join(names[:ACTIONS_NAMED]) + (" ..." if len(names) > ACTIONS_NAMED else "")


def prompt_for(state: State, seat: int | None, to_act: int | None) -> str | None:
    """The status bar's words for the decision now, as `seat` (None: the referee) may read them:
    the rule set's prompt (`look: prompts:`, State.prompt; its templates read public fields only)
    where it gives one, else a plain one (`plain_prompt`). Another seat's decision is worded only
    where the words cannot depend on what is legal for it: a question asked, or a phase of one
    action (State.prompt picks the first action the seat may play that has a prompt)."""
    if to_act is None or state.is_terminal():
        return None
    mine = seat is not None and (seat == to_act or seat in state.choosing())
    one_action = bool(state.PHASE_ACTIONS) and len(state.PHASE_ACTIONS[state.phase]) == 1
    public = state._pending is not None or one_action
    written = state.prompt(seat if mine and seat is not None else to_act) if mine or public else None
    return written or plain_prompt(state, seat, to_act, mine)


def things_described(state: State) -> dict[str, str]:
    """What each component is, by its id (`tile22`: `rat emperor tile`), from its public
    attributes (GameInfo.attributes, given with a `look:`): its attributes' values, the names of
    those that hold, its numbers, then its kind, as its drawing's tooltip says it."""
    described: dict[str, str] = {}
    for kind, attributes in state.game.info.attributes.items():
        count = max((len(values) for values in attributes.values()), default=0)
        for k in range(count):
            words: list[str] = []
            for attr, values in attributes.items():
                value = values[k] if k < len(values) else None
                if isinstance(value, bool):
                    words += [attr.replace("_", " ")] if value else []
                elif isinstance(value, str):
                    words.append(value.replace("_", " "))
                elif isinstance(value, int):
                    words.append(f"{attr.replace('_', ' ')} {value}")
            described[state.label(kind, k)] = " ".join([*words, kind.replace("_", " ")])
    return described


def without_ids(text: str, described: Mapping[str, str]) -> str:
    """A move's text with each component named by what it is, not by its id (`take tile22`:
    `take rat emperor tile`): the page shows no id, where the rule set's `look: moves:` gives no
    words for a move naming one (the id is public, and so is what the thing is)."""
    if not described:
        return text
    return re.sub(r"[A-Za-z_][A-Za-z_0-9]*", lambda m: described.get(m.group(0), m.group(0)), text)


def move_labels(state: State, seat: int, actions: Sequence[Action]) -> dict[int, str]:
    """The legal moves of `seat` the move list shows in other words, by place: the rule set's
    friendlier text (`look: moves:`, State.move_label) where it gives one, its components named
    by what they are (`without_ids`)."""
    described = things_described(state)
    found = {k: without_ids(state.move_label(a, seat, seat), described) for k, a in enumerate(actions)}
    return {k: text for k, text in found.items() if text != str(actions[k])}


def payload(state: State, seat: int | None, moves_for_seat: bool, picked: str | None = None,
            only: Sequence[str] | None = None, last: str | None = None, public: bool = False) -> dict[str, Any]:
    """The drawing of `state` for `seat` (None: the referee; `public`: a spectator, who sees only
    what every seat sees) and, when `moves_for_seat` and the seat is the one to act, its legal
    moves (`only`: those clicked on) with the spots they name, each with the label the move list
    shows, and the status bar's prompt."""
    if public:
        seat, moves_for_seat = None, False
    to_act = state.to_act()
    actions: list[Action] = []
    spots: dict[str, list[str]] = {}
    # a simultaneous decision: every seat still choosing, each its own moves (docs/language.md)
    together = state.choosing() if state.is_simultaneous() else []
    if moves_for_seat and seat is not None and (to_act == seat or seat in together) and not state.is_terminal():
        actions = list(state.legal_actions(seat))
    moves = [str(a) for a in actions]
    if moves and to_act == seat:
        spots = action_spots(state, moves)
    if only is not None:
        wanted = set(only)
        actions = [a for a, m in zip(actions, moves, strict=True) if m in wanted]
    sent = actions[:MAX_MOVES_SENT]
    texts = [str(a) for a in sent]
    index = {text: k for k, text in enumerate(texts)}
    info = state.game.info
    return {
        "svg": (public_svg if public else render_svg)(state, seat, spots if picked is None else (), picked,
                                                      action_spots(state, [last]) if last is not None else ()),
        "to_act": None if to_act is None else to_act + 1,
        "terminal": state.is_terminal(),
        "turn": state.turn,
        "phase": state.PHASES[state.phase],
        "seat": SPECTATOR if public else REFEREE if seat is None else seat + 1,
        "prompt": prompt_for(state, seat, to_act),
        "moves": texts,
        # (only those the rule set words otherwise, by place in `moves`)
        "labels": move_labels(state, seat, sent) if seat is not None and sent else {},
        "moves_total": len(actions),
        "moves_listed": MAX_MOVES_SHOWN,  # (the page lists at most these; a click filters all those sent)
        "spots": sorted(spots),
        # each spot a move names, and the moves (by place in `moves`) naming it: the page filters
        # the list by a click itself; a spot no move names is asked of the server, which says why
        "spot_moves": {spot: [index[t] for t in named if t in index] for spot, named in sorted(spots.items())},
        "winners": [p + 1 for p in state.winners()] if state.is_terminal() else [],
        "ruleset": info.ruleset,
        # (a rule set declaring `returns:`, once the game is over: each seat's, P1 first)
        **({"returns": state.declared_returns()} if state.RETURNS and state.is_terminal() else {}),
        # the seats still choosing at once, and what this seat chose (never another's)
        "choosing": [p + 1 for p in together],
        "chosen": str(state.chosen_by(seat)) if seat is not None and state.chosen_by(seat) is not None else None,
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
    # The web board's: the game's own lock (a request or an agent's move changes one game, never
    # waits for another), when it was last asked for, the agent's move being searched for.
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    touched: float = field(default_factory=time.monotonic)
    thinking: Future[None] | None = None
    agent_error: str | None = None
    agents: dict[int, Agent] = field(default_factory=dict)
    history: list[tuple[int, str]] = field(default_factory=list)
    # the rule set's words for moves of `history` (`look: moves:`), by place, kept as each is played
    labels: dict[int, str] = field(default_factory=dict)
    played: list[Action] = field(default_factory=list)  # the moves of `history`, to show each seat its text
    forced: set[int] = field(default_factory=set)  # the moves of `history` played at once (`play_forced`)
    told: list[list[str]] = field(default_factory=list)  # what each move of `history` told everyone (State.told)
    # Playing together (docs/web.md): the rule set as the server names it (its log's header), whether
    # each person plays at a screen of their own by a secret link per seat (`links`, by role: `1` ...,
    # `spectator`, `host`), the move count pages see (`version`), told to live pages through
    # `changes` (its own lock: a page's stream never holds the game's), `closed` once dropped, and
    # the log the game is saved in as it goes (api/savedgames.py).
    name: str = ""
    links: dict[str, str] = field(default_factory=dict)
    version: int = 0
    changes: threading.Condition = field(default_factory=threading.Condition, repr=False, compare=False)
    closed: str | None = None  # why its live pages were let go: dropped, or the server stopping
    # the version at which the simultaneous decision now open began (None: none is): the others'
    # choices in it change nothing a page shows its seat to choose from (`stale`)
    decision_from: int | None = None
    saved: SavedLog | None = None  # its log, when the server saves its games

    @classmethod
    def start(cls, game: Game, players: int | None, seed: int, seats: Sequence[str],
              options: Mapping[str, str] | None = None, forced: bool = True) -> PlaySession:
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
            check_agent_limits(spec)
            check_agents(game, {k: spec})
            made = make_agents({k: spec}, seed)
            agents[k] = made.get(k) or RandomAgent(seat_agent_seed(seed, k))
            chosen.append(str(spec))
        session = cls(game, state, chosen, seed, agents=agents, name=game.info.ruleset)
        if forced:
            session.play_forced()  # (the setup may ask a question with one answer)
            session.moved()
        return session

    def replayed(self, moves: Sequence[tuple[int, str]]) -> None:
        """Play again the moves of the game's saved log (checked first as `replay` checks a log:
        api/savedgames.py), as they were played."""
        for player, text in moves:
            action = self.state.parse_action(text)
            if action is None:
                raise ViewError(f"`{printable(text, 80)}` is not a legal move where the log plays it")
            self.keep_label(action, player)
            self.state.apply(action, seat=player)
            self.history.append((player, text))
            self.played.append(action)
            self.told.append(self.state.told())
        self.moved()

    def moved(self) -> None:
        """After the moves of a request or an agent (the game's lock held): save the new moves,
        then tell the live pages the version (the move count) the game is at."""
        if self.saved is not None:
            self.saved.write(self)
        if not self.state.is_simultaneous() or self.state.is_terminal():
            self.decision_from = None
        else:  # the same decision while each move since it began is another seat's first choice in it
            since = [p for p, _ in self.history[self.decision_from:]] if self.decision_from is not None else None
            if since is None or len(set(since)) < len(since) or set(since) & set(self.state.choosing()):
                self.decision_from = len(self.history)
        with self.changes:
            self.version = len(self.history)
            self.changes.notify_all()

    def stale(self, version: int, seat: int) -> bool:
        """Whether a page of `seat` that drew `version` drew a position the game has left: not when
        only the other seats' choices in the simultaneous decision it is still part of came since."""
        if version == self.version:
            return False
        return not (self.decision_from is not None and self.decision_from <= version < self.version
                    and seat in self.state.choosing()
                    and all(p != seat for p, _ in self.history[version:]))

    def close(self, why: str = "the game was dropped") -> None:
        """The game is dropped (or the server stops): its live pages are told why, its log closed
        (it stays in its folder)."""
        with self.changes:
            self.closed = why
            self.changes.notify_all()
        if self.saved is not None:
            self.saved.close()

    def wait_moved(self, seen: int, seconds: float) -> tuple[int, str | None]:
        """Wait up to `seconds` for the game to move past version `seen` (or be let go): its
        version and why it was let go (None: it was not)."""
        with self.changes:
            self.changes.wait_for(lambda: self.version != seen or self.closed is not None, timeout=seconds)
            return self.version, self.closed

    def moves_since(self, version: int, seat: int | None) -> str:
        """The moves played after `version`, as `seat` reads them: `P2 played ..., P3 played ...`."""
        texts = self.history_for(seat, public=seat is None)
        since = [f"P{p + 1} played {texts[k]}" for k, (p, _) in enumerate(self.history)][version:]
        shown = since[-3:]
        more = f"{len(since) - len(shown)} moves, then " if len(since) > len(shown) else ""
        return more + ", ".join(shown)

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

    def keep_label(self, action: Action, seat: int) -> None:
        """Keep the rule set's words for the move about to be played as history line
        `len(self.history)` (`look: moves:`, State.move_label, read where the move is legal), when
        they are not its text."""
        label = self.state.move_label(action, None, seat)
        if label != str(action):
            self.labels[len(self.history)] = label

    def agent_to_act(self) -> int | None:
        to_act = self.state.to_act()
        return to_act if to_act is not None and to_act in self.agents else None

    def step_agent(self, index: int | None = None) -> str | None:
        """One move by the agent to act, if an agent is to act (`index`: the move it chose, searched
        for off the request path: `agent_move`); its text."""
        seat = self.agent_to_act()
        if seat is None or self.state.is_terminal():
            return None
        action = self.state.action_at(self.agents[seat].choose(self.state) if index is None else index)
        text = str(action)
        self.keep_label(action, seat)
        self.state.apply(action)
        self.history.append((seat, text))
        self.played.append(action)
        self.told.append(self.state.told())
        self.play_forced()
        self.moved()
        return text

    def agent_move(self, seconds: float = AGENT_SECONDS) -> Callable[[], None] | None:
        """The agent to act's search as a job to run off the request path (None: no agent is to
        act, or one is searching already): it searches a copy of the position, stops after
        `seconds`, and plays its move under the game's lock if nothing was played meanwhile.
        Called with the game's lock held."""
        seat = self.agent_to_act()
        if seat is None or self.state.is_terminal() or self.thinking is not None:
            return None
        agent, position, moves = self.agents[seat], self.state.clone(), len(self.history)

        def job() -> None:
            if hasattr(agent, "deadline"):  # (the search agents: api/agents/mcts.py, api/agents/ismcts.py)
                agent.deadline = time.monotonic() + seconds
            try:
                index = agent.choose(position)
                error = None
            except Exception as exc:  # noqa: BLE001 - said on the page; the game is not left waiting
                index, error = -1, f"the agent of seat {seat + 1} could not move: {printable(str(exc), 200)}"
            with self.lock:
                self.thinking = None
                self.agent_error = error
                if error is None and len(self.history) == moves:  # (else the position it searched is gone)
                    self.step_agent(index)

        return job

    def play(self, seat: int, text: str) -> dict[str, str] | None:
        """Play `text` for human `seat`; None when played, else why not (with the rule line)."""
        state = self.state
        if self.seats[seat] != HUMAN:
            return {"why": f"seat {seat + 1} is played by {self.seats[seat]}", "rule": "", "where": ""}
        together = state.choosing() if state.is_simultaneous() else []
        if state.is_terminal() or state.to_act() != seat and seat not in together:
            who = "nobody: the game is over" if state.is_terminal() else \
                ", ".join(f"P{p + 1}" for p in together) or f"P{(state.to_act() or 0) + 1}"
            return {"why": f"it is not your turn: {who} is to act", "rule": "", "where": ""}
        wanted = " ".join(text.split())
        legal = {str(a): a for a in state.legal_actions(seat)}
        action = legal.get(wanted)
        if action is None:
            if seat != state.to_act():  # (why_illegal speaks of the seat to act's rules)
                return {"why": f"`{wanted}` is not one of your choices now", "rule": "", "where": ""}
            why, path = state.why_illegal(wanted)
            return {"why": why, "rule": path, "where": rule_line(state.game, path)}
        self.keep_label(action, seat)
        state.apply(action, seat=seat)
        self.history.append((seat, wanted))
        self.played.append(action)
        self.told.append(self.state.told())
        self.play_forced()
        self.moved()
        return None

    def play_forced(self) -> None:
        """Play at once each decision of the person at the board that has one answer (State.forced),
        as `play` does at the terminal: the history marks it `(forced)` for that seat; the log holds
        it as any move. Only in a game with one human seat: where other people play, whether a seat
        had a choice can tell them what it hides (Yellow & Yangtze's `governors 0` is forced exactly
        when the rack holds no governor), and a move played at once would show it; there every
        decision is asked, as before (docs/language.md, "Forced decisions")."""
        humans = [k for k, kind in enumerate(self.seats) if kind == HUMAN]
        if len(humans) != 1:
            return
        state = self.state
        for _ in range(MAX_FORCED):
            if state.is_terminal() or state.to_act() != humans[0]:
                return
            action = state.forced()
            if action is None:
                return
            self.keep_label(action, humans[0])
            state.apply(action)
            self.forced.add(len(self.history))
            self.history.append((humans[0], str(action)))
            self.played.append(action)
            self.told.append(state.told())

    def history_for(self, seat: int | None, public: bool = False) -> list[str]:
        """Each move so far as `seat` reads it now (None: the referee, who reads every text whole;
        `public`: a spectator, who reads each move as the seats that did not play it do): a move's
        `others_text:` for the seats that did not play it (State.move_text), the rule set's words
        for it (`keep_label`) where the seat reads it whole."""
        shown = []
        described = things_described(self.state)
        n = self.state.num_players
        for k, ((p, _), action) in enumerate(zip(self.history, self.played, strict=True)):
            text = self.state.move_text(action, (p + 1) % n if public else seat, p)
            shown.append(without_ids(self.labels.get(k, text) if text == str(action) else text, described))
        return shown

    def log_lines(self) -> list[str]:
        """The game as a log `rulewright replay` reads (its header, the moves, the final state)."""
        st = self.state
        lines = [json.dumps(self.header())] + [json.dumps({"player": p, "action": a}) for p, a in self.history]
        return lines + [json.dumps({"final": st.to_json()})]

    def header(self) -> dict[str, Any]:
        """The header of its log, with its seats (as `play --log` writes them)."""
        st = self.state
        return {"ruleset": self.name or self.game.info.ruleset, "players": st.num_players, "seed": self.seed,
                "options": dict(st.options), "seats": list(self.seats)}


# -- scenarios -------------------------------------------------------------------------------------
class Stepped:
    """The state after each step of a scenario, played once from its position (linear in the
    steps): one state in CHECKPOINT kept, the others played again from the one before (at most
    CHECKPOINT - 1 steps) when asked for. `stopped` is the step (from 1) that failed and why."""

    def __init__(self, first: State | None, problem: str | None, steps: Sequence[Any],
                 play: Callable[[State, Any], str | None]) -> None:
        self.steps = steps
        self.play = play
        self.kept: list[State] = []
        self.count = 0  # the states there are: after 0 ... count - 1 steps
        self.stopped: tuple[int, str] | None = None if problem is None else (0, problem)
        if first is None or problem is not None:
            return
        state = first
        for k in range(len(steps) + 1):
            if k % CHECKPOINT == 0:
                self.kept.append(state.clone())
            self.count = k + 1
            if k == len(steps):
                break
            problem = play(state, steps[k])
            if problem is not None:
                self.stopped = (k + 1, problem)
                break

    def __len__(self) -> int:
        """The steps that can be asked for: the states there are, and the step that failed."""
        return self.count + (1 if self.stopped is not None else 0)

    def __getitem__(self, k: int) -> State | None:
        if not 0 <= k < len(self):
            raise IndexError(k)
        if k >= self.count:
            return None
        state = self.kept[k // CHECKPOINT].clone()
        for step in self.steps[k - k % CHECKPOINT:k]:
            self.play(state, step)
        return state

    def error(self, k: int) -> str | None:
        return self.stopped[1] if self.stopped is not None and self.stopped[0] == k else None


@dataclass
class ScenarioView:
    """One scenario: its name, doc, the position and the state after each step (or the error
    that stopped a step), and its checks, expected against actual."""

    name: str
    doc: str
    where: str
    ruleset: str
    steps: list[str]
    states: Stepped
    checks: list[dict[str, Any]]
    passed: bool
    problem: str | None
    players: int


def load_scenarios(path: Path, loader: Callable[[str, Path], Game] | None = None) -> list[ScenarioView]:
    """The scenarios of a file, each run (without its `distribution:` checks, which replay it
    thousands of times: `rulewright scenario` runs those) and stepped; the rule sets it names
    read by `loader` when given (a file sent from the browser: bundled ids only)."""
    from .scenarios import apply_position, fresh_state, load_file, play_steps, run

    scenarios, diagnostics = load_file(path) if loader is None else load_file(path, loader)
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
        state = fresh_state(s, game)
        players = state.num_players

        def play_step(state: State, step: Any, s: Any = s) -> str | None:
            return play_steps(dataclasses.replace(s, steps=[step]), state)

        states = Stepped(state, apply_position(s, state), s.steps, play_step)
        checks = [{"what": c.what, "expected": _jsonable(c.expected), "actual": _jsonable(c.actual), "ok": c.ok}
                  for c in result.checks]
        views.append(ScenarioView(
            s.name, s.doc, s.where, s.ruleset,
            [f"{'' if st.player is None else f'P{st.player + 1} '}{'' if st.kind == 'act' else st.kind + ' '}"
             f"{st.text}".strip() for st in s.steps],
            states, checks, result.passed, result.problem, players))
    return views


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return str(value)


# -- the sessions of one server --------------------------------------------------------------------
# How many games, and files opened from the browser, one server keeps, and how long one not asked
# for is kept (docs/web.md, "Limits"): past them the finished and the longest untouched go first.
MAX_GAMES = 32
MAX_OPENED = 8
IDLE_SECONDS = 3600.0
MAX_DORMANT = 1024  # links remembered of saved games dropped unfinished
FINISHED_SECONDS = 600.0


class Sessions:
    """The games, replays and scenario files one server holds, by id. `lock` guards these tables
    only (held for a lookup, never while a game is played: each game has its own lock). Games
    and files opened from the browser are dropped when not asked for in `idle` seconds (a
    finished game in `finished`), and the oldest when there are more than `max_games` games or
    `max_opened` files; files named on the command line stay."""

    def __init__(self, max_games: int = MAX_GAMES, max_opened: int = MAX_OPENED, idle: float = IDLE_SECONDS,
                 finished: float = FINISHED_SECONDS, folder: GameFolder | None = None) -> None:
        self.lock = threading.Lock()
        self.max_games, self.max_opened, self.idle, self.finished = max_games, max_opened, idle, finished
        self.games: dict[str, PlaySession] = {}
        self.tokens: dict[str, tuple[str, str]] = {}  # a game's secret link -> (its id, its role)
        self.folder = folder  # the savedgames.GameFolder games are saved in as they go (None: not saved)
        # The links of the saved games dropped unfinished (at most MAX_DORMANT, the oldest forgotten
        # first): a request through one takes its game up again from its log (`revive`).
        self.dormant: dict[str, str] = {}
        self.reviving = threading.Lock()
        self.replays: dict[str, tuple[str, Replay]] = {}
        self.scenarios: dict[str, tuple[str, list[ScenarioView]]] = {}
        self.opened: dict[str, float] = {}  # the replays and scenario files opened from the browser: last asked for

    @staticmethod
    def new_id() -> str:
        return secrets.token_urlsafe(9)

    def game(self, key: str) -> PlaySession | None:
        with self.lock:
            found = self.games.get(key)
            if found is not None:
                found.touched = time.monotonic()
            return found

    def replay(self, key: str) -> tuple[str, Replay] | None:
        with self.lock:
            if key in self.opened:
                self.opened[key] = time.monotonic()
            return self.replays.get(key)

    def scenario_file(self, key: str) -> tuple[str, list[ScenarioView]] | None:
        with self.lock:
            if key in self.opened:
                self.opened[key] = time.monotonic()
            return self.scenarios.get(key)

    def access(self, token: str) -> tuple[PlaySession, str, int | None] | None:
        """The game a link names, what it may do and its seat: `table` (the game's own id, for a
        game played at one screen: its human seats, or every seat and the referee in a game of
        agents), `seat` (one seat, seen and played by its own link), `spectator` or `host` (the
        links' page: what every seat sees alike). None: no such game (a game played by links is
        never reached by its id)."""
        with self.lock:
            found = self.games.get(token)
            if found is not None:
                if found.links:
                    return None
                found.touched = time.monotonic()
                return found, "table", None
            key, role = self.tokens.get(token, ("", ""))
            found = self.games.get(key)
            if found is None:
                return None
            found.touched = time.monotonic()
            if role.isdigit():
                return found, "seat", int(role) - 1
            return found, role, None

    def add_game(self, session: PlaySession, links: bool = False, key: str | None = None,
                 tokens: Mapping[str, str] | None = None) -> str:
        """Keep a game (under `key` and with the links `tokens` when resumed); with `links`, a
        secret link per human seat, one for spectators and one for its host (`secrets.token_urlsafe`).
        Saved in the folder, when there is one, from now on."""
        key = key or self.new_id()
        if tokens is not None:
            session.links = dict(tokens)
        elif links:
            roles = [str(k + 1) for k, kind in enumerate(session.seats) if kind == HUMAN] + [SPECTATOR, "host"]
            session.links = {role: secrets.token_urlsafe(24) for role in roles}
        if self.folder is not None and session.saved is None:
            with session.lock:
                session.saved = self.folder.saved_log(key, session)
        with self.lock:
            self.games[key] = session
            for role, token in session.links.items():
                self.tokens[token] = (key, role)
            self._drop()
        return key

    def add_replay(self, name: str, replay: Replay, opened: bool = False) -> str:
        key = self.new_id()
        with self.lock:
            self.replays[key] = (name, replay)
            if opened:
                self.opened[key] = time.monotonic()
                self._drop()
        return key

    def add_scenarios(self, name: str, views: list[ScenarioView], opened: bool = False) -> str:
        key = self.new_id()
        with self.lock:
            self.scenarios[key] = (name, views)
            if opened:
                self.opened[key] = time.monotonic()
                self._drop()
        return key

    def close(self) -> None:
        """The server stops: every game's live pages are told, its log closed."""
        with self.lock:
            for session in self.games.values():
                session.close(STOPPED)

    def drop(self) -> None:
        """Drop what has not been asked for in its time, and the oldest past the counts."""
        with self.lock:
            self._drop()

    def _drop(self) -> None:
        now = time.monotonic()
        dropped = [key for key, s in self.games.items()
                   if now - s.touched > (self.finished if s.state.is_terminal() else self.idle)]
        if len(self.games) - len(dropped) > self.max_games:  # the finished first, then the longest untouched
            kept = sorted(set(self.games) - set(dropped),
                          key=lambda k: (not self.games[k].state.is_terminal(), self.games[k].touched))
            dropped += kept[:len(kept) - self.max_games]
        for key in dropped:
            gone = self.games.pop(key)
            for token in gone.links.values():
                self.tokens.pop(token, None)
            if gone.saved is not None and not gone.state.is_terminal():
                for token in gone.links.values() if gone.links else [key]:
                    self.dormant[token] = key
                while len(self.dormant) > MAX_DORMANT:
                    del self.dormant[next(iter(self.dormant))]
            gone.close()  # (its live pages told, its log closed: a game not over is resumed at the next start)
            if gone.thinking is not None:
                gone.thinking.cancel()  # (an agent's search not started yet is not run)
        stale = [key for key, when in self.opened.items() if now - when > self.idle]
        excess = sorted(self.opened, key=self.opened.__getitem__)[:max(0, len(self.opened) - self.max_opened)]
        for key in {*stale, *excess}:
            del self.opened[key]
            self.replays.pop(key, None)
            self.scenarios.pop(key, None)


def parse_source_kind(path: Path) -> str:
    """What a file given to `serve` is: `scenario` (YAML), `state` (a saved state) or `log`."""
    if path.suffix in (".yaml", ".yml"):
        return "scenario"
    return "state" if looks_like_state(path) else "log"
