"""The one game API, implemented by every generated game.

`Game.new_state(players, seed, options)` makes a `State`; a state says who is to act, lists
legal actions, applies one, and reports terminal, scores, winners and observations. Generated
modules subclass `State` and fill in the hooks (`_setup`, `_enter_phase`, `_legal`,
`_perform`, `_turn_end`, `_is_over`, `_score`, `_copy_fields`, `_action_text`). The base class
checks every public call so the generated code can stay simple and fast (OpenSpiel's shape).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .auction import NOBODY, Auction
from .board import Board
from .errors import BadSetup, IllegalAction
from .rng import Rng

PASS = "pass"
HIDDEN = "hidden"  # what an observation shows for an item the rules hide


class Action:
    """A move: the action's name and its chosen arguments (entity indices, or tuples of them).

    Its text form (`prospect E3-E4-E5`) is made only when asked for: building a string per
    legal action would dominate the cost of random playouts.
    """

    __slots__ = ("name", "args", "_render")

    def __init__(self, name: str, args: tuple[Any, ...], render: Callable[[Action], str]) -> None:
        self.name = name
        self.args = args
        self._render = render

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.name == other.name and self.args == other.args

    def __hash__(self) -> int:
        return hash((self.name, self.args))

    def __str__(self) -> str:
        return self._render(self)

    def __repr__(self) -> str:
        return f"Action({self})"


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """What the runtime must know of a state field to observe, serialise and show it.

    kind: int, bool, enum, entity, list, set or auction; `element` names the entity kind or enum of the
    value (or of the items of a list or set); `values` are an enum's value names.
    """

    name: str
    per: str | None
    kind: str
    element: str
    values: tuple[str, ...]
    visible: str
    doc: str = ""


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    default: str
    choices: tuple[str, ...]
    doc: str
    quote: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    variant: str
    title: str
    players: tuple[int, ...]
    roles: tuple[str, ...]
    options: tuple[OptionInfo, ...]
    files: tuple[str, ...]
    rules: Mapping[str, str]  # rule path (actions.prospect.when) -> file:line where it is written

    @property
    def ruleset(self) -> str:
        return self.id if self.variant == "base" else f"{self.id}/{self.variant}"


class State:
    """One position of one game. Subclasses add a slot per state field."""

    __slots__ = (
        "game", "num_players", "num_seats", "options", "seed", "rng", "board", "current", "phase", "turn",
        "moves", "terminal", "next_phase", "_legal_cache", "trace", "_memo",
    )

    FIELDS: ClassVar[tuple[FieldInfo, ...]] = ()
    PHASES: ClassVar[tuple[str, ...]] = ()
    STUCK: ClassVar[tuple[str, ...]] = ()  # per phase: "pass" or "end"
    PHASE_ACTIONS: ClassVar[tuple[tuple[str, ...], ...]] = ()
    PHASE_STARTS: ClassVar[tuple[bool, ...]] = ()  # per phase: whether it has start effects
    TURN_END_TRIGGERS: ClassVar[bool] = True  # whether anything runs at the end of a turn
    TEXT_PREFIX: ClassVar[Mapping[str, str]] = {}
    ENUMS: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    DICE: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    NEUTRAL: ClassVar[tuple[str, ...]] = ()  # seats after the players that never take a turn nor win
    TIE_BREAK: ClassVar[bool] = False  # whether `tie_break:` decides between players tied on score

    game: Game
    num_players: int
    num_seats: int  # the players and then the neutral seats
    options: dict[str, str]
    seed: int
    rng: Rng
    board: Board
    current: int
    phase: int
    turn: int
    moves: int
    terminal: bool
    next_phase: int
    _legal_cache: list[Action] | None
    # While the legal actions are listed the state does not change: definitions without
    # parameters remember their value then (the generated code reads and fills this).
    _memo: dict[str, Any] | None
    trace: list[str] | None  # when a list, the rule paths that fired are appended to it

    # -- construction ------------------------------------------------------------------------
    def _init(self, game: Game, players: int, seed: int, options: dict[str, str]) -> None:
        self.game = game
        self.num_players = players
        self.num_seats = players + len(self.NEUTRAL)
        self.options = options
        self.seed = seed
        self.rng = Rng(seed)
        self.board = game.board_for(options, players)
        self.current = 0
        self.phase = 0
        self.turn = 1
        self.moves = 0
        self.terminal = False
        self.next_phase = -1
        self._legal_cache = None
        self.trace = None
        self._memo = None
        self._read_options()
        self._setup()
        self._prepare()
        self._start_phase()

    # -- the public API ----------------------------------------------------------------------
    def to_act(self) -> int | None:
        """The seat that must decide now, or None once the game is over."""
        return None if self.terminal else self._actor()

    def legal_actions(self) -> list[Action]:
        if self.terminal:
            return []
        if self._legal_cache is None:
            legal = self._listing()
            if not legal and self.STUCK[self.phase] == "pass":
                legal = [Action(PASS, (), self._action_text)]
            self._legal_cache = legal
        return self._legal_cache

    def apply(self, action: Action | str) -> None:
        """Play one legal action (or its text); an illegal one raises and changes nothing."""
        legal = self.legal_actions()
        chosen: Action | None = None
        if isinstance(action, Action):
            for candidate in legal:
                if candidate is action:
                    chosen = candidate
                    break
            else:
                for candidate in legal:
                    if candidate == action:
                        chosen = candidate
                        break
        else:
            chosen = self.parse_action(action)
        if chosen is None:
            raise IllegalAction(self._illegal_message(action))
        self._do(chosen)

    def parse_action(self, text: str) -> Action | None:
        """The legal action whose text form is `text` (spacing and case are ignored)."""
        wanted = " ".join(text.lower().split())
        for candidate in self.legal_actions():
            if str(candidate).lower() == wanted:
                return candidate
        return None

    def is_terminal(self) -> bool:
        return self.terminal

    def scores(self) -> list[int]:
        return [self._score(p) for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """The seats that won (several on a tie); empty while the game goes on."""
        if not self.terminal:
            return []
        scores = self.scores()
        best = min(scores) if self.game.lowest_score_wins else max(scores)
        tied = [p for p, s in enumerate(scores) if s == best]
        if self.TIE_BREAK and len(tied) > 1:
            most = max(self._tie_break(p) for p in tied)
            tied = [p for p in tied if self._tie_break(p) == most]
        return tied

    def _tie_break(self, player: int) -> int:
        return 0

    def score_terms(self, player: int) -> dict[str, int]:
        """Each scoring term of `player` on its own (generated); a score is their sum."""
        raise NotImplementedError

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` sees: every field its visibility lets him see, values by name."""
        if not 0 <= player < self.num_players:
            raise BadSetup(f"no player {player} in a {self.num_players}-player game")
        fields: dict[str, Any] = {}
        for info in self.FIELDS:
            visible = info.visible
            if visible != "all" and self._shown(info.name):
                visible = "all"
            if visible == "none":
                continue
            if visible == "size":  # a face-down pile: everyone sees how many, nobody what
                fields[info.name] = len(getattr(self, info.name))
                continue
            value = getattr(self, info.name)
            if info.per is None:
                if visible == "owner":
                    continue
                named = self._named(info, value)
                if info.kind == "list":
                    named = [HIDDEN if self._hidden_item(info.name, k) else v for k, v in enumerate(named)]
                fields[info.name] = named
            elif info.per == "player":
                fields[info.name] = [
                    self._named(info, v) if visible == "all" or p == player else None
                    for p, v in enumerate(value)
                ]
            else:
                keys = self._labels(info.per)
                fields[info.name] = {keys[i]: self._named(info, v) for i, v in enumerate(value)}
        return {
            "game": self.game.info.ruleset,
            "player": player,
            "to_act": self.to_act(),
            "phase": self.PHASES[self.phase],
            "turn": self.turn,
            "terminal": self.terminal,
            "fields": fields,
        }

    def clone(self) -> State:
        other = self.__class__.__new__(self.__class__)
        other.game = self.game
        other.num_players = self.num_players
        other.num_seats = self.num_seats
        other.options = self.options
        other.seed = self.seed
        other.rng = self.rng.copy()
        other.board = self.board
        other.current = self.current
        other.phase = self.phase
        other.turn = self.turn
        other.moves = self.moves
        other.terminal = self.terminal
        other.next_phase = self.next_phase
        other._legal_cache = None
        other._memo = None
        other.trace = None
        self._copy_fields(other)
        return other

    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild this exact state, random generator included."""
        fields: dict[str, Any] = {}
        for info in self.FIELDS:
            value = getattr(self, info.name)
            fields[info.name] = [_raw(info, v) for v in value] if info.per else _raw(info, value)
        return {
            "ruleset": self.game.info.ruleset,
            "players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.state,
            "current": self.current,
            "phase": self.PHASES[self.phase],
            "turn": self.turn,
            "moves": self.moves,
            "terminal": self.terminal,
            "fields": fields,
        }

    # -- helpers for subclasses and tools ----------------------------------------------------
    def _labels(self, kind: str) -> Sequence[str]:
        if kind == "spot":
            return self.board.labels
        if kind == "region":
            return self.board.region_names
        if kind == "player":
            return [f"P{p + 1}" for p in range(self.num_players)] + list(self.NEUTRAL)
        if kind in self.DICE:
            return self.DICE[kind]
        return self.ENUMS[kind]

    def label(self, kind: str, value: int) -> str:
        """The name of entity or enum value `value` of `kind` (a spot's label, a value's name)."""
        return self._labels(kind)[value]

    def _fmt(self, kind: str, value: Any) -> str:
        """The text form of an action argument: `E3`, `E3-E4-E5`, `P2`, `5`."""
        if kind.startswith("list:"):
            return "-".join(self.label(kind[5:], v) for v in value)
        if kind in ("int", "bool", "str"):
            return str(value)
        return self.label(kind, value)

    def _named(self, info: FieldInfo, value: Any) -> Any:
        if info.kind in ("int", "bool"):
            return value
        if info.kind == "auction":
            return self._named_auction(value)
        if info.kind in ("enum", "entity"):
            return self.label(info.element, value)
        if not info.element:  # a list or set of numbers or truth values
            return sorted(value) if info.kind == "set" else list(value)
        items = [self.label(info.element, v) for v in value]
        return sorted(items) if info.kind == "set" else items

    def _named_auction(self, a: Auction) -> dict[str, Any]:
        """An auction as observed (all of it is public): players by label, NOBODY as None."""
        def seat(p: int) -> str | None:
            return None if p == NOBODY else self.label("player", p)

        return {
            "bidders": [self.label("player", p) for p in a.bidders],
            "bidder": seat(a.to_act),
            "in": [self.label("player", p) for p in sorted(a.still_in)],
            "high_bid": a.high_bid,
            "high_bidder": seat(a.high_bidder),
            "minimum": a.minimum,
            "step": a.step,
            "over": a.over,
        }

    def why_illegal(self, action: Action | str) -> tuple[str, str]:
        """Why an action is not legal now: a sentence and the path of the rule that forbids it
        (`end`, `phases.turn.actions`, `actions.turn_back.when`, `actions.prospect.choose`)."""
        text = str(action)
        if self.terminal:
            return "the game is over", "end"
        if isinstance(action, Action):
            name: str | None = action.name
        else:
            wanted = " ".join(text.lower().split())
            matches = [n for n, prefix in self.TEXT_PREFIX.items() if prefix and wanted.startswith(prefix.lower())]
            name = max(matches, key=lambda n: len(self.TEXT_PREFIX[n])) if matches else None
        phase = self.PHASES[self.phase]
        if name is None or name not in self.game.info.rules and f"actions.{name}" not in self.game.info.rules:
            return f"`{text}` is no action of {self.game.info.ruleset}", f"phases.{phase}.actions"
        if name not in self.PHASE_ACTIONS[self.phase]:
            return f"`{name}` cannot be played in phase {phase}", f"phases.{phase}.actions"
        if not self._guard(name):
            return f"the condition of `{name}` does not hold", f"actions.{name}.when"
        return f"`{text}` is not one of the choices of `{name}` now", f"actions.{name}.choose"

    def _illegal_message(self, action: Action | str) -> str:
        legal = self.legal_actions()
        text = str(action)
        reason, rule = self.why_illegal(action)
        where = self.game.info.rules.get(rule)
        where_text = f" ({rule}, {where})" if where else f" ({rule})"
        if self.terminal:
            return f"illegal action `{text}`: {reason}{where_text}"
        shown = ", ".join(str(a) for a in legal[:6]) + (", ..." if len(legal) > 6 else "")
        return (
            f"illegal action `{text}` for P{self._actor() + 1}: {reason}{where_text}; "
            f"the {len(legal)} legal actions are: {shown}"
        )

    def _do(self, action: Action) -> None:
        self._legal_cache = None
        self.moves += 1
        self.next_phase = -1
        if action.name != PASS:
            self._perform(action)
        if self._is_over():
            self.terminal = True
            return
        if self.next_phase >= 0:
            self.phase = self.next_phase
            self._start_phase()
            return
        self._turn_end()
        if self.TURN_END_TRIGGERS and self._is_over():
            self.terminal = True
            return
        self.turn += 1
        self.current = (self.current + 1) % self.num_players
        self.phase = 0
        self._start_phase()

    def _listing(self) -> list[Action]:
        """The generated `_legal()`, with definitions remembered for the while."""
        self._memo = {}
        try:
            return self._legal()
        finally:
            self._memo = None

    def _start_phase(self) -> None:
        self._legal_cache = None
        self._enter_phase()
        # The end is checked after every action; entering a phase can end the game only
        # through the phase's start effects.
        if self.PHASE_STARTS[self.phase] and self._is_over():
            self.terminal = True
        elif self.STUCK[self.phase] == "end" and not self._listing():
            self.terminal = True

    def _action_text(self, action: Action) -> str:
        return action.name.replace("_", " ")

    # -- hooks the generated code fills in ---------------------------------------------------
    def _read_options(self) -> None:
        raise NotImplementedError

    def _setup(self) -> None:
        raise NotImplementedError

    def _prepare(self) -> None:
        """The rule set's `setup:` effects, once every field has its init (generated if any)."""

    def _enter_phase(self) -> None:
        raise NotImplementedError

    def _legal(self) -> list[Action]:
        raise NotImplementedError

    def _perform(self, action: Action) -> None:
        raise NotImplementedError

    def _turn_end(self) -> None:
        raise NotImplementedError

    def _is_over(self) -> bool:
        raise NotImplementedError

    def _score(self, player: int) -> int:
        return sum(self.score_terms(player).values())

    def _guard(self, name: str) -> bool:
        raise NotImplementedError

    def _actor(self) -> int:
        return self.current

    def _shown(self, name: str) -> bool:
        return False

    def _hidden_item(self, name: str, k: int) -> bool:
        return False

    def _copy_fields(self, other: Any) -> None:
        raise NotImplementedError


def _raw(info: FieldInfo, value: Any) -> Any:
    if info.kind == "auction":
        return value.to_json()
    if info.kind == "set":
        return sorted(value)
    if info.kind == "list":
        return list(value)
    return value


def _cook(info: FieldInfo, value: Any) -> Any:
    if info.kind == "auction":
        return Auction.from_json(value)
    if info.kind == "set":
        return frozenset(int(v) for v in value)
    if info.kind == "list":
        return tuple(int(v) for v in value)
    if info.kind == "bool":
        return bool(value)
    return int(value)


BY_PLAYERS = "by_players"  # the choice of option `board` that picks the board by the number of players


class Game:
    """A compiled rule set: its facts, its boards, and a factory of states."""

    def __init__(
        self,
        info: GameInfo,
        state_class: type[State],
        boards: Mapping[str, Callable[[], Board]],
        lowest_score_wins: bool = False,
        board_players: Mapping[str, tuple[int, int]] | None = None,
    ) -> None:
        self.info = info
        self.state_class = state_class
        self._board_makers = boards
        self.board_players = dict(board_players or {})
        self._boards: dict[str, Board] = {}
        self.lowest_score_wins = lowest_score_wins

    def __repr__(self) -> str:
        return f"<Game {self.info.ruleset}>"

    def board_for(self, options: Mapping[str, str], players: int | None = None) -> Board:
        """The board the options choose; `by_players`: the first board made for that many players."""
        name = options.get("board") or next(iter(self._board_makers))
        if name == BY_PLAYERS:
            fits = [b for b in self._board_makers
                    if players is None or b not in self.board_players
                    or self.board_players[b][0] <= players <= self.board_players[b][1]]
            if not fits:
                raise BadSetup(f"{self.info.ruleset} has no board for {players} players")
            name = fits[0]
        elif players is not None and name in self.board_players:
            low, high = self.board_players[name]
            if not low <= players <= high:
                raise BadSetup(f"board `{name}` is for {low} to {high} players, not {players}")
        board = self._boards.get(name)
        if board is None:
            board = self._boards[name] = self._board_makers[name]()
        return board

    def resolve_options(self, options: Mapping[str, str] | None) -> dict[str, str]:
        chosen = {o.name: o.default for o in self.info.options}
        for name, value in (options or {}).items():
            known = {o.name: o for o in self.info.options}
            if name not in known:
                names = ", ".join(known) or "none"
                raise BadSetup(f"{self.info.ruleset} has no option `{name}` (its options: {names})")
            if value not in known[name].choices:
                raise BadSetup(
                    f"option `{name}` has no value `{value}` (choose one of {', '.join(known[name].choices)})"
                )
            chosen[name] = value
        return chosen

    def new_state(self, players: int | None = None, seed: int = 0, options: Mapping[str, str] | None = None) -> State:
        count = self.info.players[0] if players is None else players
        if count not in self.info.players:
            allowed = ", ".join(str(n) for n in self.info.players)
            raise BadSetup(f"{self.info.ruleset} is played by {allowed} players, not {count}")
        if not isinstance(seed, int):
            raise BadSetup("the seed must be a whole number")
        state = self.state_class.__new__(self.state_class)
        state._init(self, count, seed, self.resolve_options(options))
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        try:
            if data["ruleset"] != self.info.ruleset:
                raise BadSetup(f"state is of {data['ruleset']}, not {self.info.ruleset}")
            state = self.new_state(int(data["players"]), int(data["seed"]), dict(data["options"]))
            state.rng.state = int(data["rng"])
            state.current = int(data["current"])
            state.phase = state.PHASES.index(data["phase"])
            state.turn = int(data["turn"])
            state.moves = int(data["moves"])
            state.terminal = bool(data["terminal"])
            for info in state.FIELDS:
                raw = data["fields"][info.name]
                value = [_cook(info, v) for v in raw] if info.per else _cook(info, raw)
                setattr(state, info.name, value)
        except (KeyError, TypeError, ValueError) as exc:
            raise BadSetup(f"not a saved state of {self.info.ruleset}: {exc!r}") from None
        state._legal_cache = None
        return state
