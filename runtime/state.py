"""The one game API, implemented by every generated game.

`Game.new_state(players, seed, options)` makes a `State`; a state says who is to act, lists
legal actions, applies one, and reports terminal, scores, winners and observations. Generated
modules subclass `State` and fill in the hooks (`_setup`, `_enter_phase`, `_legal`,
`_perform`, `_turn_end`, `_is_over`, `_score`, `_copy_fields`, `_action_text`). The base class
checks every public call so the generated code can stay simple and fast (OpenSpiel's shape).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from . import decisions
from .auction import NOBODY, Auction
from .boards import Board, NoBoard
from .decisions import END_TURN, NO_GOTO, Steps
from .errors import BadSetup, GameError, IllegalAction, RulewrightError, is_int, shown
from .faults import game_error, rule_where
from .limits import MAX_INT, new_move
from .order import sort_key
from .rng import Rng
from .unseen import sample as _sample_unseen

PASS: Final = "pass"
HIDDEN: Final = "hidden"  # what an observation shows for an item the rules hide


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


class Answer(Action):
    """An answer to an `ask` (runtime/decisions.py): the choice's name and the value chosen. Its own
    class tells it from a move of the rules' actions (`State.move_text`: an answer given secretly
    shows its name alone), whatever the ask is named: an ask may share an action's name."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """What the runtime must know of a state field to observe, serialise and show it.

    kind: int, bool, enum, entity, list, set or auction; `element` names the entity kind or enum of the
    value (or of the items of a list or set); `values` are an enum's value names. `declared` is
    the whole type of a list or set whose items have no `element` (`list(bool)`,
    `list(list(spot))`), so that a saved state can be checked item by item.
    """

    name: str
    per: str | None
    kind: str
    element: str
    values: tuple[str, ...]
    visible: str
    doc: str = ""
    declared: str = ""
    pool: str = ""  # `pool:`: unseen items drawn again with those of the same pool (runtime/unseen.py)
    hides_items: bool = False  # `hide_items_if:`: some items of the list are hidden while it holds
    # `unseen: redraw`: the least and most value (an int's `range:`, a bool's or an enum's values in order) an
    # unseen entry is drawn afresh from in a sample (runtime/unseen.py); None: exchanged among the unseen entries
    redraw: tuple[int, int] | None = None


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
    # the rule file's presentation hints (`drawing:`): `colours` by value name, `icons` by kind
    drawing: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # how the game looks (`look:`, docs/language.md "Look"), checked, as plain data: colours as `#rrggbb`,
    # `fields:` written out as `{"as": ..., "title": ...}`; lists as tuples. {} when the rules say nothing.
    look: Mapping[str, Any] = field(default_factory=dict)
    # per component kind, per attribute, each component's value in order (an enumeration's by name):
    # public facts, for drawing `tile62` as the soldier tile it is. Given with `look:` ({} without).
    attributes: Mapping[str, Mapping[str, tuple[str | int | bool, ...]]] = field(default_factory=dict)

    @property
    def ruleset(self) -> str:
        return self.id if self.variant == "base" else f"{self.id}/{self.variant}"


# In the native build (docs/native.md) the generated subclasses are compiled too, but a rule file
# compiled in memory (`load_rules`, `bench`) subclasses State in interpreted code.
@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """One position of one game. Subclasses add a slot per state field."""

    __slots__ = (
        "game", "num_players", "num_seats", "options", "seed", "rng", "board", "current", "phase", "turn",
        "moves", "terminal", "next_phase", "_legal_cache", "trace", "_memo", "_derived", "_pending",
        "_journal", "_told",
        "_chosen", "_simul_seat",  # simultaneous decisions (`simultaneous:`): see `choosing`
        "_deciders",  # (SimultaneousState: the seats of the decision now, worked out with its listing)
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
    # `returns:`: whether the rule set declares each seat's return (`_returns`), what the returns of
    # every game add up to (`sum:`; None: no promise) and the least and most of one seat (`range:`)
    RETURNS: ClassVar[bool] = False
    RETURNS_SUM: ClassVar[int | None] = None
    RETURNS_RANGE: ClassVar[tuple[int, int] | None] = None
    # whether the listing calls a definition remembered while the legal actions are listed (`_memo`):
    # only then is a memo made for each listing
    LISTING_MEMO: ClassVar[bool] = False
    # Whether `_actor()` is the seat whose turn it is, whatever the phase (no `actor:`): a seat always,
    # so that play_randomly need not ask it for every move when no decision is waiting
    ACTOR_IS_CURRENT: ClassVar[bool] = False
    # Whether a rule can hand a decision to a seat and wait for it (`ask`): then moves run as steps
    # (runtime/decisions.py); ASKS: each choice's name and how its values are written.
    SUSPENDS: ClassVar[bool] = False
    ASKS: ClassVar[Mapping[str, str]] = {}
    # The asks whose answers the other seats read as the choice's name alone (`ask p to choose
    # secretly ...`), until the game is over.
    _SECRET_ASKS: ClassVar[frozenset[str]] = frozenset()
    # Whether the generated effects note each field a move changes, as it first changes it, while
    # `_journal` is a dict (rule sets whose every move runs as steps): see `_do_steps`.
    JOURNAL: ClassVar[bool] = False
    ASKING_ACTIONS: ClassVar[frozenset[str]] = frozenset()  # actions whose effect or triggers can ask
    ASKS_BETWEEN: ClassVar[bool] = False  # whether a phase's start or the end of a turn can ask
    # `records:`: each record's fields and their types, in order (a record is a tuple of its fields)
    RECORDS: ClassVar[Mapping[str, tuple[tuple[str, str], ...]]] = {}
    # Per phase: whether several seats choose in it at once (`simultaneous:`); empty if none does.
    SIMULTANEOUS: ClassVar[tuple[bool, ...]] = ()

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
    # The values of `cached: true` definitions in this state, by name (and arguments), or None.
    # Every change of the state drops it: the generated code after each assignment to a field,
    # and the runtime when a phase or turn starts, at setup and on a restore. Never shared
    # between states (clone starts without), never saved, never shown.
    _derived: dict[Any, Any] | None
    trace: list[str] | None  # when a list, the rule paths that fired are appended to it
    _pending: decisions.Pending | None  # a move waiting for a seat's decision
    # In a simultaneous phase: what each seat that has chosen chose, by seat (None: nobody yet);
    # hidden from the other seats until every seat has chosen, then played in seat order.
    _chosen: dict[int, Action] | None
    _simul_seat: int  # the seat of a simultaneous phase whose actions are listed or played now, or -1
    # The seats of the simultaneous decision now (`_together()`), worked out as its actions were listed
    # (SimultaneousState._list_afresh) and trusted only while that listing is kept (`_legal_cache`): what
    # changes the state drops the listing. None: not worked out.
    _deciders: list[int] | None
    # While a move of a JOURNAL rule set runs: each field it changed, as it was before (`_began`).
    _journal: dict[str, Any] | None
    # What the last move told every seat (`tell "..."` effects), in order, or None when it told
    # nothing: emptied as each move is applied, copied by clone, not saved (it concerns one move).
    _told: list[str] | None

    # -- construction ------------------------------------------------------------------------
    def _init(self, game: Game, players: int, seed: int, options: dict[str, str], rng: Rng | None = None) -> None:
        self.game = game
        self.num_players = players
        self.num_seats = players + len(self.NEUTRAL)
        self.options = options
        self.seed = seed
        self.rng = Rng(seed) if rng is None else rng
        self.board = game.board_for(options, players)
        self._bind_tables()
        self.current = 0
        self.phase = 0
        self.turn = 1
        self.moves = 0
        self.terminal = False
        self.next_phase = NO_GOTO
        self._legal_cache = None
        self.trace = None
        self._memo = None
        self._derived = None
        self._pending = None
        self._journal = None
        self._told = None
        self._chosen = None
        self._simul_seat = -1
        self._deciders = None
        self._read_options()
        try:
            self._setup()
            self._fields_set()
            self._derived = None
            if self.SUSPENDS:  # the setup, or the first phase's start, may ask a seat
                decisions.run(self, decisions.new_game(self), None, [])
            else:
                self._prepare()
                self._start_phase()
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc

    # -- the public API ----------------------------------------------------------------------
    def to_act(self) -> int | None:
        """The seat that must decide now, or None once the game is over."""
        if self.terminal:
            return None
        if self._pending is not None:  # a move waits for this seat's decision
            return self._pending.ask.seat
        try:
            return self._actor()
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code (an `actor:`): told by its rule line
            raise game_error(exc, self) from exc

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions of the seat to act; of `seat`, if given: none unless it must choose now
        (`choosing()`: in a simultaneous phase, any seat that has not chosen yet)."""
        if seat is not None:
            return self._legal_of(seat)
        legal = self._legal_cache
        if legal is not None and not self.terminal:  # (listed already: the usual case, tested first)
            return legal
        if self.terminal:
            return []
        if self._pending is not None:  # the answers to the question asked
            if self._legal_cache is None:
                ask = self._pending.ask
                self._legal_cache = [Answer(ask.name, (choice,), self._answer_text) for choice in ask.choices]
            return self._legal_cache
        if self._legal_cache is None:
            return self._list_afresh()
        return self._legal_cache

    def _list_afresh(self) -> list[Action]:
        """The legal actions listed and kept (`_legal_cache`), where none are kept, the game is not
        over and no decision waits: legal_actions()'s work, and play_randomly's."""
        try:
            if self.LISTING_MEMO:
                # _listing(), written out: one call less at every move
                self._memo = {}
                try:
                    legal = self._legal()
                finally:
                    self._memo = None
            else:  # (no definition of it is remembered: nothing to remember)
                legal = self._legal()
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc
        if not legal and self.STUCK[self.phase] == "pass":
            legal = [Action(PASS, (), self._action_text)]
        self._legal_cache = legal
        return legal

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Play one legal action (or its text); an illegal one raises and changes nothing, and so
        does anything else: an action of another rule set, or what is no action at all. `seat`:
        the seat that plays it (default: `to_act()`), any seat of `choosing()`."""
        if seat is not None:
            self._apply_as(action, seat)
            return
        legal = self._legal_cache
        if legal is None or self.terminal:
            legal = self.legal_actions()
        chosen: Action | None = None
        if isinstance(action, Action):
            for candidate in legal:
                if candidate is action:
                    chosen = candidate
                    break
            else:
                if not self._own(action):
                    raise IllegalAction(self._illegal_message(action))
                for candidate in legal:
                    if candidate == action:
                        chosen = candidate
                        break
        else:
            chosen = self.parse_action(action)
        if chosen is None:
            raise IllegalAction(self._illegal_message(action))
        self._apply_listed(chosen)

    def _apply_listed(self, action: Action) -> None:
        """Play an action of the list `legal_actions()` gave, the state unchanged since: what apply()
        does once it found the action in that list."""
        self._told = None
        try:
            self._do(action)  # (a simultaneous decision's pick: SimultaneousState._apply_listed)
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc

    def action_at(self, index: int) -> Action:
        """The action at `index` of `legal_actions()`; anything that is no index of that list (a
        number out of its range, a bool, an action) raises IllegalAction."""
        legal = self._legal_cache
        if legal is None or self.terminal:
            legal = self.legal_actions()
        if type(index) is not int or not 0 <= index < len(legal):
            raise IllegalAction(self._bad_index(index, legal))
        return legal[index]

    def play(self, index: int) -> Action:
        """Play the action at `index` of `legal_actions()` and give it back: how an agent's choice is
        played (an agent chooses by index, api/agents/), the action found without apply()'s search
        of the list. Anything that is no index of the list raises IllegalAction and changes nothing."""
        action = self.action_at(index)
        self._apply_listed(action)
        return action

    def play_randomly(self, rng: Rng, max_moves: int, max_turns: int | None) -> None:
        """Play the random agent's moves (api/agents/simple.py, `RandomAgent`: the action at `rng.below(n)`
        of the n legal actions) until the game is over or has made `max_moves` actions or passed
        turn `max_turns`: api/match.py's `play_game` loop, the same calls in the same order, for a
        game every seat of which that agent plays, here so that the native build compiles it."""
        while not self.terminal:
            if self.moves >= max_moves or (max_turns is not None and self.turn > max_turns):
                return
            # (to_act() is `current` where no `actor:` says otherwise and no decision waits: a seat,
            # state_from_json checks it, and every turn is the next seat's)
            if not self.ACTOR_IS_CURRENT or self._pending is not None:
                seat = self.to_act()  # (as play_game asks it: a fault of the rules' `actor:` raised alike)
                if seat is None or not -self.num_players <= seat < self.num_players:
                    raise IllegalAction(f"no seat {seat} to act")  # (play_game's list of agents has none)
            if self._pending is None:  # (legal_actions()' test written out: it lists afresh after every move)
                legal = self._legal_cache
                if legal is None:
                    legal = self._list_afresh()
            else:  # (a decision waits: its answers)
                legal = self.legal_actions()
            if not legal:  # (RandomAgent.choose's test)
                raise IllegalAction("no legal action: the game is over")
            self._apply_listed(legal[rng.below(len(legal))])

    def forced(self) -> Action | None:
        """The move the seat to act must play, when it has no other: its one legal action, whether
        an answer to a question with one answer (`soldiers 0`), a phase's only action (`roll`) or the
        `pass` of a seat that can do nothing; None once the game is over or while the seat has a
        choice. A forced move is a move like any other (the log holds it, an agent is asked for it,
        a bridge steps it); `play` and the web board play it at once for a person, saying so
        (docs/language.md, "Forced decisions")."""
        if self.terminal:
            return None
        legal = self.legal_actions()
        return legal[0] if len(legal) == 1 else None

    def parse_action(self, text: str) -> Action | None:
        """The legal action whose text form is `text` (spacing and case are ignored)."""
        if not isinstance(text, str):
            raise IllegalAction(self._not_an_action(text))
        return _by_text(self.legal_actions(), text)

    def is_terminal(self) -> bool:
        return self.terminal

    def scores(self) -> list[int]:
        try:
            return [self._score(p) for p in range(self.num_players)]
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc

    def winners(self) -> list[int]:
        """The seats that won (several on a tie); empty while the game goes on. With `returns:`,
        the seats of the highest return, and none in a draw (every seat's return the same)."""
        if not self.terminal:
            return []
        if self.RETURNS:
            return best_returns(self.declared_returns())
        return self._winners(self.scores())

    def _winners(self, scores: list[int]) -> list[int]:
        """The winners of a game over whose scores() are `scores` (match.play_game has them already:
        the scores, the road chains of China (Schacht) among them, are not computed twice)."""
        if self.RETURNS:
            return best_returns(self.declared_returns())
        best = min(scores) if self.game.lowest_score_wins else max(scores)
        tied = [p for p, s in enumerate(scores) if s == best]
        if self.TIE_BREAK and len(tied) > 1:
            most = max(self._tie_break(p) for p in tied)
            tied = [p for p in tied if self._tie_break(p) == most]
        return tied

    def _tie_break(self, player: int) -> Any:
        """An int, or a tuple of ints compared item by item (a lexicographic tie-break)."""
        return 0

    def returns(self) -> list[float]:
        """Each player's return (seat order; what OpenSpiel's `returns()` and PettingZoo's rewards
        are): 0 each while the game goes on; once it is over, the rule set's `returns:` where it
        declares them, else the winners' share of one point, centred so that the game is
        zero-sum (`utilities`: 1 for a lone winner, -1/(players - 1) for a loser, 0 each when
        every player wins). A declared return breaking its `sum:` or `range:` is a game error."""
        if not self.terminal:
            return [0.0] * self.num_players
        if not self.RETURNS:
            return utilities(self.winners(), self.num_players)
        return [float(r) for r in self.declared_returns()]

    def declared_returns(self) -> list[int]:
        """The rule set's `returns:` of each player, the game being over; checked against its
        `sum:` and `range:` (a game error at the line of `returns:` if one is broken)."""
        if not self.RETURNS:
            raise BadSetup(f"{self.game.info.ruleset} declares no `returns:`: its returns are the winners' "
                           "share (State.returns())")
        if not self.terminal:
            raise BadSetup("the returns are read once the game is over")
        try:
            values = [self._returns(p) for p in range(self.num_players)]
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc
        total, bounds = self.RETURNS_SUM, self.RETURNS_RANGE
        if total is not None and sum(values) != total:
            raise GameError(rule_where(self, "returns"), f"the returns {values} add up to {sum(values)}, "
                            f"not {total} as `sum:` declares")
        if bounds is not None and not all(bounds[0] <= r <= bounds[1] for r in values):
            raise GameError(rule_where(self, "returns"), f"the returns {values} are not all within "
                            f"`range:` [{bounds[0]}, {bounds[1]}]")
        return values

    def _returns(self, player: int) -> int:
        """The declared return of `player` once the game is over (generated from `returns:`)."""
        raise NotImplementedError

    def score_terms(self, player: int) -> dict[str, int]:
        """Each scoring term of `player` on its own (generated); a score is their sum."""
        raise NotImplementedError

    def told(self) -> list[str]:
        """What the last move told every seat (its rules' `tell "..."` effects), in order: public
        text, the same for every seat. Empty when it told nothing; before the first move, what
        the setup told."""
        return [] if self._told is None else list(self._told)

    def _tell(self, text: str) -> None:
        """A `tell "..."` effect (generated code): one line more for everyone to read."""
        if self._told is None:
            self._told = [text]
        else:
            self._told.append(text)

    def move_text(self, action: Action, observer: int | None, actor: int | None = None) -> str:
        """The text of `action`, played by seat `actor`, as seat `observer` reads it in this state:
        its whole text (`str(action)`, the stable form logs and replays use) for the seat that
        played it, for an all-seeing reader (`observer` None) and once the game is over; for any
        other seat, the action's `others_text:` unless its `revealed_when:` holds now
        (docs/language.md, "Turns, actions and triggers"), and an answer given `secretly` as the
        choice's name alone. `actor` defaults to the seat to act now: the text of a legal
        action before it is played."""
        if observer is not None and not (is_int(observer) and 0 <= observer < self.num_players):
            raise BadSetup(f"no player {observer!r} in a {self.num_players}-player game")
        if actor is None:
            actor = self.to_act()
        if observer is None or observer == actor or self.terminal:
            return str(action)
        chosen = self._chosen
        # a choice made in a simultaneous decision still open: unseen yet (a caller showing such a move as it is
        # made reads its text once it is made: `play`)
        if actor is not None and chosen is not None and chosen.get(actor) == action:
            hidden = self._text_for_others(action)
            return hidden if hidden is not None else (self.TEXT_PREFIX.get(action.name) or action.name).strip()
        if isinstance(action, Answer):  # (the choice's name alone, for an answer given secretly)
            return action.name if action.name in self._SECRET_ASKS else str(action)
        hidden = self._text_for_others(action)
        return str(action) if hidden is None else hidden

    def _text_for_others(self, action: Action) -> str | None:
        """What the seats that did not play `action` read of it now, or None for its whole text
        (generated where an action has `others_text:`)."""
        return None

    def prompt(self, seat: int) -> str | None:
        """The words of the decision `seat` faces now, as the rule set's `look: prompts:` gives them
        (docs/language.md, "Look"): of the question asked it, or of the first of the phase's actions
        it may play that has a prompt; None when it faces no decision or the rule set gives none.
        Show it to `seat` alone: which of its actions are legal may rest on what only it sees."""
        if not (is_int(seat) and 0 <= seat < self.num_seats):
            raise BadSetup(f"no seat {seat!r} in a game of {self.num_seats} seats")
        if self.terminal:
            return None
        try:
            pending = self._pending
            if pending is not None:
                return self._look_prompt(pending.ask.name, True) if pending.ask.seat == seat else None
            if seat not in self.choosing():
                return None
            names = self.PHASE_ACTIONS[self.phase]
            if len(names) == 1:
                return self._look_prompt(names[0], False)
            legal = {a.name for a in self.legal_actions(seat)}
            for name in names:
                if name in legal:
                    words = self._look_prompt(name, False)
                    if words is not None:
                        return words
            return None
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc

    def move_label(self, action: Action, observer: int | None, actor: int | None = None) -> str:
        """`move_text(action, observer, actor)`, but the friendlier text of `look: moves:` where the
        rule set gives one and `observer` reads the move whole (a seat that may not reads what
        `move_text` gives it). Read in the state where the move is legal, before it is played."""
        text = self.move_text(action, observer, actor)
        if text != str(action):  # (what the others read of it: the look's text would tell them more)
            return text
        try:
            label = self._look_move(action, isinstance(action, Answer))
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc
        return text if label is None else label

    def _look_prompt(self, name: str, asked: bool) -> str | None:
        """The prompt of action `name` (`asked`: of what an ask of that name chooses), or None
        (generated where the rule set has `look: prompts:`)."""
        return None

    def _look_move(self, action: Action, asked: bool) -> str | None:
        """The friendlier text of `action` (`asked`: an answer), or None (generated where the rule
        set has `look: moves:`)."""
        return None

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
                if visible == "to":  # item k seen by the player the field's expression names, only
                    named = [v if self._seen_by(info.name, k) == player else HIDDEN for k, v in enumerate(named)]
                if info.kind == "list":
                    named = [HIDDEN if self._hidden_item(info.name, k) else v for k, v in enumerate(named)]
                fields[info.name] = named
            elif info.per == "player":
                fields[info.name] = [
                    self._named(info, v) if visible == "all" or p == player else None
                    for p, v in enumerate(value)
                ]
            elif visible in ("all", "to"):  # (a per-spot, per-region or per-die field)
                keys = self._labels(info.per)
                fields[info.name] = {
                    keys[i]: self._named(info, v) if visible == "all" or self._seen_by(info.name, i) == player else None
                    for i, v in enumerate(value)
                }
        seen: dict[str, Any] = {
            "game": self.game.info.ruleset,
            "player": player,
            "to_act": self.to_act(),
            "phase": self.PHASES[self.phase],
            "turn": self.turn,
            "terminal": self.terminal,
            "fields": fields,
        }
        if self._pending is not None:  # the decision asked, by name (its choices are the seat's legal actions)
            seen["question"] = self._pending.ask.name
        if self.is_simultaneous():  # who still chooses, and the seat's own choice; never another's
            seen["choosing"] = self.choosing()
            mine = self.chosen_by(player)
            if mine is not None:
                seen["chosen"] = str(mine)
        return seen

    def sample_unseen(self, observer: int, rng: Rng) -> State:
        """A new state `observer` cannot tell from this one: everything he may not see drawn again
        consistently with what he sees (same observation, same legal actions when he is to act,
        what the game conserves conserved), the state's generator seeded from `rng`. It depends on
        what he sees and on `rng` only (runtime/unseen.py; docs/experiments.md)."""
        return _sample_unseen(self, observer, rng)

    def clone(self) -> State:
        if self._pending is not None:  # a move waits for a decision: its steps are played again
            rebuilt = decisions.rebuilt(self)
            rebuilt._told = None if self._told is None else list(self._told)
            return rebuilt
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
        other._derived = None
        other.trace = None
        other._pending = None
        other._journal = None
        other._told = None if self._told is None else list(self._told)
        other._chosen = None if self._chosen is None else dict(self._chosen)
        other._simul_seat = -1
        other._deciders = None
        self._copy_fields(other)
        return other

    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild this exact state, random generator included."""
        fields: dict[str, Any] = {}
        for info in self.FIELDS:
            value = getattr(self, info.name)
            fields[info.name] = [_raw(info, v) for v in value] if info.per else _raw(info, value)
        saved: dict[str, Any] = {
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
        pending = self._pending
        if pending is not None:  # a move waits for a decision: how to play it again to here
            saved["pending"] = {
                "before": pending.before.to_json() if pending.before is not None else None,
                "played": list(pending.played),
            }
        if self._chosen:  # a simultaneous decision, some seats have chosen: by seat, whatever order they chose in
            saved["chosen"] = [[seat, str(action)] for seat, action in sorted(self._chosen.items())]
        return saved

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
        """The text form of an action argument: `E3`, `E3-E4-E5`, `P2`, `5`; a record's fields
        joined by `/` (`P1/red/C4`), `none` for an optional holding nothing."""
        if value is None:
            return "none"
        if kind.startswith("list:"):
            if kind[5:] in ("", "int", "bool") or kind[5:] in self.RECORDS:
                return "-".join(self._fmt(kind[5:] or "int", v) for v in value)
            return "-".join(self.label(kind[5:], v) for v in value)
        if kind in self.RECORDS:
            return "/".join(self._fmt(_kind_of(_parse_type(ty)), v) for (_, ty), v in zip(self.RECORDS[kind], value,
                                                                                          strict=True))
        if kind in ("int", "bool", "str"):
            return str(value)
        return self.label(kind, value)

    def _named(self, info: FieldInfo, value: Any) -> Any:
        if info.kind in ("int", "bool"):
            return value
        if info.declared and (info.kind in ("record", "optional") or "optional(" in info.declared
                              or _holds_records(_parse_type(info.declared), self.RECORDS)):
            return self._named_typed(_parse_type(info.declared), value)
        if info.kind == "auction":
            return self._named_auction(value)
        if info.kind in ("enum", "entity"):
            return self.label(info.element, value)
        if not info.element:  # a list or set of numbers or truth values
            return sorted(value) if info.kind == "set" else list(value)
        items = [self.label(info.element, v) for v in value]
        return sorted(items) if info.kind == "set" else items

    def _named_typed(self, t: _Type, value: Any) -> Any:
        """A value by its type: a record as a mapping of its fields, `none` as None, entities by label."""
        if value is None:
            return None
        if t.kind == "optional" and t.elem is not None:
            return self._named_typed(t.elem, value)
        if t.kind in ("list", "set") and t.elem is not None:
            elem = t.elem
            items = sorted(value, key=sort_key) if t.kind == "set" else list(value)
            return [self._named_typed(elem, v) for v in items]
        if t.kind == "item" and t.name in self.RECORDS:
            return {name: self._named_typed(_parse_type(ty), v)
                    for (name, ty), v in zip(self.RECORDS[t.name], value, strict=True)}
        if t.kind == "item":
            return self.label(t.name, value)
        if t.kind == "auction":
            return self._named_auction(value)
        return value

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
        if not isinstance(action, (Action, str)):
            raise IllegalAction(self._not_an_action(action))
        text = _cut(str(action))
        if self.terminal:
            return "the game is over", "end"
        if self._pending is not None:
            ask = self._pending.ask
            return (f"the move waits for {self.label('player', ask.seat)} to choose `{ask.name}` (asked at "
                    f"{ask.where}); `{text}` is not one of the choices", f"ask {ask.name}")
        if isinstance(action, Action):
            if not self._own(action):
                origin = _origin(action)
                where = f"of {origin.info.ruleset}" if origin is not None else "made outside any game"
                return (f"`{text}` is an action {where}, not of {self.game.info.ruleset}",
                        f"phases.{self.PHASES[self.phase]}.actions")
            name: str | None = action.name
        else:
            wanted = " ".join(text.lower().split())
            matches = [n for n, prefix in self.TEXT_PREFIX.items() if prefix and wanted.startswith(prefix.lower())]
            # Actions of several phases may share a text (Chang Cheng's `wall {s}`): the one this
            # phase offers is the one whose rules refuse the move.
            here = [n for n in matches if n in self.PHASE_ACTIONS[self.phase]]
            matches = here or matches
            name = max(matches, key=lambda n: len(self.TEXT_PREFIX[n])) if matches else None
        phase = self.PHASES[self.phase]
        if name is None or name not in self.game.info.rules and f"actions.{name}" not in self.game.info.rules:
            return f"`{text}` is no action of {self.game.info.ruleset}", f"phases.{phase}.actions"
        if name not in self.PHASE_ACTIONS[self.phase]:
            return f"`{name}` cannot be played in phase {phase}", f"phases.{phase}.actions"
        if not self._guard(name):
            return f"the condition of `{name}` does not hold", f"actions.{name}.when"
        return f"`{text}` is not one of the choices of `{name}` now", f"actions.{name}.choose"

    def _check_playable(self) -> None:
        """A state read from a file whose every field is in range can still be one no game of its
        rule set reaches (an auction phase with no auction): the seat to act must be a player and
        the legal actions must list. What they raise becomes BadSetup, not a later crash."""
        ruleset = self.game.info.ruleset
        try:
            actor = self._actor()
            if not is_int(actor) or not 0 <= actor < self.num_players:
                raise BadSetup(f"saved state: not a position of {ruleset}: the seat to act in phase "
                               f"`{self.PHASES[self.phase]}` would be {shown(actor)}, not a player")
            self.legal_actions()
        except BadSetup:
            raise
        except RulewrightError as exc:
            raise BadSetup(f"saved state: not a position of {ruleset}: {_cut(str(exc))}") from None
        # (a name of its own: compiled by mypyc, one name is one variable, of the first clause's type)
        except Exception as fault:  # noqa: BLE001 - fields no game holds together make the rules fail
            raise BadSetup(f"saved state: not a position of {ruleset}: its legal actions cannot be listed "
                           f"({type(fault).__name__}: {_cut(str(fault))})") from None

    def _own(self, action: Action) -> bool:
        """Whether `action` was made by a state of this game (or of the same rule set loaded twice)."""
        origin = _origin(action)
        return origin is self.game or origin is not None and origin.info == self.game.info

    def _not_an_action(self, value: object) -> str:
        return (f"not an action: expected an action of {self.game.info.ruleset} or its text, "
                f"got {shown(value)} ({type(value).__name__})")

    def _illegal_message(self, action: Action | str) -> str:
        legal = self.legal_actions()
        text = _cut(str(action))
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

    def _bad_index(self, index: object, legal: Sequence[Action]) -> str:
        """Why `index` chooses no legal action (State.play, State.action_at)."""
        what = f"{shown(index)} ({type(index).__name__})"
        seat = self.to_act()
        if seat is None:
            return f"no legal action {what}: the game is over"
        shown_legal = ", ".join(str(a) for a in legal[:6]) + (", ..." if len(legal) > 6 else "")
        return (f"no legal action {what} for P{seat + 1}: an action is chosen by its index in "
                f"the list of the {len(legal)} legal actions, from 0 to {len(legal) - 1} ({shown_legal})")

    def _do(self, action: Action) -> None:
        name = action.name
        if self.SUSPENDS and (self._pending is not None or self.ASKS_BETWEEN or name in self.ASKING_ACTIONS):
            self._do_steps(action)
            return
        self._legal_cache = None
        self.moves += 1
        self.next_phase = NO_GOTO
        if name != PASS:
            self._perform(action)
        self._after_move()

    def _after_move(self) -> None:
        """What follows a move's effect: the end, the next phase (a `goto`) or the end of the turn, and
        the next turn's start. `_do`'s tail, and that of a simultaneous decision's move once every seat
        has chosen (`_choose`); decisions.after_move is the same as steps. Pass `write_out_moves` writes
        it out per rule set: inline in the generated `_do`, and as this method where a phase is
        simultaneous (the generated `_do` makes no call of it: none on a bundled game's move)."""
        if self._is_over():
            self.terminal = True
            return
        phase = self.next_phase
        if phase >= 0:
            self.phase = phase
            self.next_phase = NO_GOTO
            self._start_phase()
            if self.next_phase != END_TURN or self.terminal:
                return
            # the phase's start said `end_turn`: the turn ends without it (docs/language.md)
        self._turn_end()
        if self.TURN_END_TRIGGERS and self._is_over():
            self.terminal = True
            return
        self._next_turn()
        self._start_phase()

    def _next_turn(self) -> None:
        """The turn passes to the next seat, in the first phase (not started yet): the tail of every
        move that ends a turn (here, in the generated `_do` of pass `write_out_moves`, and in
        decisions.move)."""
        self.turn += 1
        self.current = (self.current + 1) % self.num_players
        self.phase = 0

    def _do_steps(self, action: Action) -> None:
        """`_do` for a rule set whose rules can ask: the move, or the answer, runs as steps until
        it is over or waits for a decision (runtime/decisions.py)."""
        self._legal_cache = None
        pending = self._pending
        if pending is not None:
            self.moves += 1
            if hasattr(type(self), "_budget"):  # an answer is a move: a fresh budget of work
                new_move(self)
            decisions.answer(self, pending, action)
            return
        if self.JOURNAL:
            # The state as the move began is made only if the move waits (a tenth of Chang Cheng's
            # moves), from this one and the fields the move changed as they were (`_began`),
            # rather than copied before every move (every field of it, for the tenth that wait).
            rng = self.rng
            began = (self.current, self.phase, self.turn, self.moves, self.terminal, self.next_phase, rng.state,
                     None if rng.forced is None else rng.copy())
            self._journal = {}
            self.moves += 1
            try:
                decisions.run(self, decisions.move(self, action), None, [], move=action,
                              began=lambda: self._began(began))
            finally:
                self._journal = None
            return
        before = self.clone()
        self.moves += 1
        decisions.run(self, decisions.move(self, action), before, [], move=action)

    def _began(self, began: tuple[Any, ...]) -> State:
        """The state as the move now waiting began (JOURNAL): a copy of this one with the fields
        the move changed as they were before it changed them (`_journal`: each copied as `clone`
        copies it, when first changed), the runtime's own as they were, the generator's state as
        it was; what is kept beside the fields is made again from them (`_fields_set`). The same
        state, field for field, as a copy made before the move (tests/test_journal_changes.py)."""
        journal = self._journal
        assert journal is not None and self._pending is None
        other = self.clone()
        for name, value in journal.items():
            setattr(other, name, value)
        (other.current, other.phase, other.turn, other.moves, other.terminal, other.next_phase, state,
         rng) = began
        if rng is not None:
            other.rng = rng
        other.rng.state = state
        other._fields_set()
        return other

    # -- simultaneous decisions (`simultaneous:`; docs/language.md, "Simultaneous decisions") ----------
    # Every seat a simultaneous phase lists chooses one of the phase's actions (listed with `deciding`
    # that seat); what it chose is kept (`_chosen`) and changes nothing else, so no seat's choice can
    # depend on another's. Once the last has chosen, the phase's move is played: each seat's action in
    # seat order (`deciding` that seat), then what follows a move (the end, `then:`, the end of the
    # turn). So the result does not depend on the order in which the seats chose. `to_act()` is the
    # lowest seat still to choose: a caller that takes one seat at a time plays them in seat order.

    def choosing(self) -> list[int]:
        """The seats that must choose now, in seat order: in a simultaneous phase, every seat it lists
        that has not chosen yet (`to_act()` is the first); otherwise the seat to act alone; none once
        the game is over."""
        if self.terminal:
            return []
        if not self.is_simultaneous():
            seat = self.to_act()
            return [] if seat is None else [seat]
        chosen = self._chosen
        return [s for s in self._decision_seats() if chosen is None or s not in chosen]

    def _decision_seats(self) -> list[int]:
        """The seats of the simultaneous decision now (`_together()`), asked outside a move: with a
        fresh budget (the seats' list may charge a move's work), a fault of the rules told by its line."""
        try:
            if hasattr(type(self), "_budget"):
                new_move(self)
            return self._together()
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc

    def is_simultaneous(self) -> bool:
        """Whether the decision now is one several seats make at once, each without seeing the others'
        choices (a phase with `simultaneous:`, no question asked, the game not over)."""
        return bool(self.SIMULTANEOUS) and not self.terminal and self._pending is None \
            and self.SIMULTANEOUS[self.phase]

    def chosen_by(self, seat: int) -> Action | None:
        """What `seat` chose in the simultaneous decision now, while others still choose (None if
        nothing): the seat's own knowledge, which `observation(seat)` shows it and no other seat."""
        chosen = self._chosen
        return None if chosen is None else chosen.get(seat)

    def reopened(self, seat: int) -> State:
        """A copy of this state with every choice of the simultaneous decision now taken back but
        `seat`'s: the decision as `seat` must think of it, the others' choices unknown to it (IS-MCTS
        searches them, api/agents/ismcts.py). Out of a simultaneous decision, a copy."""
        other = self.clone()
        chosen = other._chosen
        if chosen is not None:
            mine = chosen.get(seat)
            other._chosen = None if mine is None else {seat: mine}
            other._legal_cache = None
        return other

    def _simultaneous_seats(self) -> tuple[int, ...]:
        """The seats the phase's `simultaneous:` lists (generated)."""
        return ()

    def _seat_changed(self) -> None:
        """Another seat of a simultaneous phase decides now: what the generated code keeps that reads
        the seat to act is stale (generated where something is kept)."""

    def _together(self) -> list[int]:
        """The seats of the simultaneous phase now, each once, in seat order: players all, one at least."""
        seats = sorted(set(self._simultaneous_seats()))
        if not seats or seats[0] < 0 or seats[-1] >= self.num_players:
            phase = self.PHASES[self.phase]
            where = self.game.info.rules.get(f"phases.{phase}.simultaneous", phase)
            if not seats:
                raise GameError(where, f"simultaneous phase `{phase}` lists no seat to choose")
            bad = seats[0] if seats[0] < 0 else seats[-1]
            raise GameError(where, f"simultaneous phase `{phase}` lists seat {bad + 1}, who is not a player "
                                   f"(players 1 to {self.num_players})")
        return seats

    def _simultaneous_actor(self) -> int:
        """`to_act()` and `deciding` in a simultaneous phase (generated `_actor`, `_deciding`): the seat
        whose actions are listed or played now, else the lowest seat still to choose."""
        seat = self._simul_seat
        if seat >= 0:
            return seat
        seats = self._deciders
        if seats is None or self._legal_cache is None:  # (worked out with the listing kept: SimultaneousState)
            seats = self._together()
        return _first_to_choose(seats, self._chosen)

    def _legal_of(self, seat: int) -> list[Action]:
        """`legal_actions(seat)`: the legal actions of a seat that must choose now, none for another."""
        if not is_int(seat) or not 0 <= seat < self.num_players:
            raise BadSetup(f"no player {shown(seat)} in a {self.num_players}-player game")
        if self.terminal:
            return []
        if not self.is_simultaneous() or seat == self.to_act():
            return self.legal_actions() if seat == self.to_act() else []
        if seat not in self.choosing():
            return []
        keep = self._legal_cache  # (the seat to act's, kept)
        self._legal_cache = None
        self._simul_seat = seat
        self._derived = None
        self._seat_changed()
        try:
            return self._list_afresh()
        finally:
            self._legal_cache = keep
            self._simul_seat = -1
            self._derived = None
            self._seat_changed()

    def _apply_as(self, action: Action | str, seat: int) -> None:
        """`apply(action, seat=...)`: the seat to act plays as apply() plays; another seat still to
        choose in a simultaneous phase records its choice; any other seat is refused."""
        if not is_int(seat) or not 0 <= seat < self.num_players:
            raise IllegalAction(f"no player {shown(seat)} in a {self.num_players}-player game")
        if not isinstance(action, (Action, str)):
            raise IllegalAction(self._not_an_action(action))
        if seat == self.to_act():
            self.apply(action)
            return
        text = _cut(str(action))
        legal = self._legal_of(seat)
        if not legal:
            who = self.choosing()
            now = "the game is over" if not who else \
                f"{', '.join(f'P{s + 1}' for s in who)} {'decides' if len(who) == 1 else 'decide'} now"
            raise IllegalAction(f"illegal action `{text}` for P{seat + 1}: P{seat + 1} has nothing to choose now "
                                f"({now})")
        found: Action | None = None
        if isinstance(action, Action):
            found = next((c for c in legal if c == action and self._own(action)), None)
        else:
            found = _by_text(legal, action)
        if found is None:
            phase = self.PHASES[self.phase]
            where = self.game.info.rules.get(f"phases.{phase}.actions")
            listed = ", ".join(str(a) for a in legal[:6]) + (", ..." if len(legal) > 6 else "")
            raise IllegalAction(f"illegal action `{text}` for P{seat + 1}: not one of its choices in simultaneous "
                                f"phase `{phase}` (phases.{phase}.actions{', ' + where if where else ''}); the "
                                f"{len(legal)} legal actions are: {listed}")
        self._told = None
        try:
            self._choose(seat, found, self._together())
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc

    def _choose(self, seat: int, action: Action, seats: list[int]) -> None:
        """`seat` chose `action` in a simultaneous phase whose seats are `seats` (`_together()`): kept,
        hidden from the others, until every seat of the phase has chosen; then the phase's move is
        played, each seat's action in seat order, and what follows a move (`_after_move`)."""
        chosen = self._chosen
        if chosen is None:
            chosen = {}
        self._legal_cache = None
        self._derived = None
        self._seat_changed()
        for s in seats:
            if s != seat and s not in chosen:  # another seat still chooses: this choice is kept
                chosen[seat] = action  # (in place: a copy of the state copies the dict, clone)
                self._chosen = chosen
                self.moves += 1
                return
        self._deciders = None  # (the decision is made: the state changes now)
        if self.SUSPENDS:  # the actions may ask: the move runs as steps (runtime/decisions.py)
            before = self.clone()  # (the others' choices made, this one not: its text plays it again)
            chosen = {**chosen, seat: action}
            self._chosen = None
            self.moves += 1
            decisions.run(self, decisions.together(self, chosen), before, [], move=action)
            return
        chosen[seat] = action
        self._chosen = None
        self.moves += 1
        self.next_phase = NO_GOTO
        try:
            for s in sorted(chosen):
                played = chosen[s]
                self._simul_seat = s
                self._derived = None
                self._seat_changed()
                if played.name != PASS:
                    self._perform(played)
        finally:
            self._simul_seat = -1
        self._derived = None
        self._seat_changed()
        self._after_move()

    def _chosen_from_json(self, raw: object) -> None:
        """A saved state's `chosen`: the choices made so far in its simultaneous phase, each
        [seat, text] in seat order, each legal for its seat, one seat at least still to choose."""
        if not self.is_simultaneous():
            raise BadSetup(f"saved state: `chosen` holds choices, but phase `{self.PHASES[self.phase]}` is no "
                           "simultaneous decision")
        if not isinstance(raw, list) or not raw:
            raise _wrong("`chosen`", "a list of [seat, action text] pairs, one seat at least", raw)
        last = -1
        for pair in raw:
            if (not isinstance(pair, list) or len(pair) != 2 or not is_int(pair[0]) or not isinstance(pair[1], str)
                    or not last < pair[0] < self.num_players):
                raise _wrong("`chosen`", "[seat, action text] pairs in increasing order of seat", pair)
            seat, text = pair
            last = seat
            found = _by_text(self._legal_of(seat), text)
            if found is None:
                raise BadSetup(f"saved state: `chosen`: `{_cut(text)}` is not a choice of P{seat + 1} now")
            self._chosen = {**(self._chosen or {}), seat: found}
            self._legal_cache = None
        if not self.choosing():
            raise BadSetup("saved state: `chosen` holds a choice of every seat: the phase's move would have been "
                           "played")
        self._legal_cache = None

    def _answer_text(self, action: Action) -> str:
        """An answer's text: the choice's name and the value chosen (`side qin`)."""
        return f"{action.name} {self._fmt(self.ASKS.get(action.name, 'int'), action.args[0])}"

    def _listing(self) -> list[Action]:
        """The generated `_legal()`, with definitions remembered for the while."""
        self._memo = {}
        try:
            return self._legal()
        finally:
            self._memo = None

    def _start_phase(self) -> None:
        self._legal_cache = None
        self._derived = None  # a new phase, perhaps a new seat to act: derived values are computed again
        self._enter_phase()
        self._phase_started()

    def _phase_started(self) -> None:
        """After a phase's start effects. The end is checked after every action; entering a phase
        can end the game only through its start effects, or with no action to play (`when_stuck: end`)."""
        if self.PHASE_STARTS[self.phase] and self._is_over():
            self.terminal = True
        elif self.STUCK[self.phase] == "end" and not self._listing():
            self.terminal = True

    def _action_text(self, action: Action) -> str:
        return action.name.replace("_", " ")

    # -- hooks the generated code fills in ---------------------------------------------------
    def _read_options(self) -> None:
        raise NotImplementedError

    def _bind_tables(self) -> None:
        """Find the tables of the board the rule set's code reads and keep them on the state, once the
        board is chosen (pass `bind_board_tables`, docs/optimiser.md); `_copy_fields` copies them."""

    def _fields_set(self) -> None:
        """The fields were set from outside the rules (the setup's inits, a saved state read, a
        scenario's position, a test setting a field): what generated code keeps is made again
        from them: the values kept between moves are forgotten (pass `keep_derived`: rule code drops
        exactly those an assignment makes stale), sets of spots held as bit masks are made again
        (pass `mask_spot_sets`). Nothing to do by default."""

    def _setup(self) -> None:
        raise NotImplementedError

    # A hook whose rules can ask a seat (`ask`) gives back its steps (runtime/decisions.py).
    def _prepare(self) -> Steps | None:
        """The rule set's `setup:` effects, once every field has its init (generated if any)."""
        return None

    def _enter_phase(self) -> Steps | None:
        raise NotImplementedError

    def _legal(self) -> list[Action]:
        raise NotImplementedError

    def _perform(self, action: Action) -> Steps | None:
        raise NotImplementedError

    def _turn_end(self) -> Steps | None:
        raise NotImplementedError

    def broken_invariants(self) -> list[str]:
        """The invariants of the rule file (`invariants:`) this position breaks, by name; a
        generated module with invariants overrides it (rule path `invariants.<name>`)."""
        return []

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

    def _seen_by(self, name: str, k: int) -> int:
        """The one player who sees entry or item k of a `visible: {to: ...}` field (-1: nobody)."""
        return -1

    def _copy_fields(self, other: Any) -> None:
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class SimultaneousState(State):
    """The state of a rule set with a simultaneous phase (`simultaneous:`; the generated class derives
    from it where a phase is): the runtime's per-move path with the picks of a simultaneous decision,
    so that every other rule set's moves make no test of them (State._apply_listed plays `_do`).

    A pick works out the decision's seats once (the rules' `simultaneous:` list, sorted and checked:
    `_together`): as its actions are listed for the seat to act (`_list_afresh`, which lists them with
    `deciding` that seat, so the listing asks no one again) and kept beside the listing (`_deciders`),
    which the pick then reads (`_apply_listed`, `_choose`) while the listing is kept: whatever changes
    the state drops the listing (`_legal_cache`), and the seats with it."""

    __slots__ = ()

    def _list_afresh(self) -> list[Action]:
        if self._pending is not None or self._simul_seat >= 0 or not self.SIMULTANEOUS[self.phase]:
            return State._list_afresh(self)  # (another seat's, `_legal_of`, sets the seat listed)
        self._deciders = None
        seats = self._decision_seats()
        # the seat to act: `deciding` and `_actor()` read it, as `_simultaneous_actor`
        self._simul_seat = _first_to_choose(seats, self._chosen)
        try:
            legal = State._list_afresh(self)
        finally:
            self._simul_seat = -1
        self._deciders = seats
        return legal

    def _apply_listed(self, action: Action) -> None:
        if self._pending is not None or not self.SIMULTANEOUS[self.phase]:
            State._apply_listed(self, action)
            return
        self._told = None
        try:
            seats = self._deciders
            if seats is None or self._legal_cache is None:  # (not listed for this state: worked out now)
                seats = self._together()
            self._choose(_first_to_choose(seats, self._chosen), action, seats)  # (the seat to act)
        except RulewrightError:
            raise
        except Exception as exc:  # a fault of the rule set's code: told by its rule line
            raise game_error(exc, self) from exc


def _first_to_choose(seats: list[int], chosen: dict[int, Action] | None) -> int:
    """The lowest of a simultaneous decision's `seats` (in seat order) that has not chosen yet: the seat
    to act; the first seat once every one has chosen (only while the decision's move is played)."""
    for s in seats:
        if chosen is None or s not in chosen:
            return s
    return seats[0]


def _by_text(legal: Sequence[Action], text: str) -> Action | None:
    """The action of `legal` whose text form is `text`, spacing and case ignored (None if none is)."""
    wanted = " ".join(text.lower().split())
    for candidate in legal:
        if str(candidate).lower() == wanted:
            return candidate
    return None


def utilities(winners: Sequence[int], players: int) -> list[float]:
    """The returns of a finished game of a rule set declaring none: the winners share one point,
    centred so the game is zero-sum. A seat's share s is 1/len(winners) if it won, else 0; its
    return is (players * s - 1) / (players - 1): 1 for a lone winner, -1/(players - 1) for a
    loser, 0 for all when everyone ties (alone at the table: 1)."""
    if players == 1:
        return [1.0]
    share = 1.0 / len(winners) if winners else 0.0
    return [(players * (share if p in winners else 0.0) - 1.0) / (players - 1) for p in range(players)]


def best_returns(values: Sequence[int]) -> list[int]:
    """The winners of a game by its declared returns: the seats of the highest return; none in a
    draw, where every seat's return is the same (alone at the table, the seat wins)."""
    best = max(values)
    if len(values) > 1 and min(values) == best:
        return []
    return [p for p, r in enumerate(values) if r == best]


def _origin(action: Action) -> Game | None:
    """The game whose state made `action` (its text form is a method of that state), if any."""
    owner = getattr(action._render, "__self__", None)
    return owner.game if isinstance(owner, State) else None


def _cut(text: str) -> str:
    """An action's text as a message quotes it: a text typed at the prompt can be any length."""
    return text if len(text) <= 80 else text[:77] + "..."


def _raw(info: FieldInfo, value: Any) -> Any:
    if info.kind == "auction":
        return value.to_json()
    if info.declared:  # a list or set of lists, of sets...: each item as JSON too
        return _plain(value)
    if info.kind == "set":
        return sorted(value)
    if info.kind == "list":
        return list(value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return [_plain(v) for v in sorted(value, key=sort_key)]
    if isinstance(value, Auction):
        return value.to_json()
    return value


# -- reading a saved state: untrusted data, checked against what the rule set declares ---------
# The most moves and answers a saved state's pending move may list (runtime/decisions.py).
MAX_PLAYED = 10_000
STATE_KEYS = ("ruleset", "players", "seed", "options", "rng", "current", "phase", "turn", "moves", "terminal", "fields")


@dataclass(frozen=True, slots=True)
class _Type:
    """The type of a saved value: int, bool, str, auction, item (a number of entity kind or enum
    `name`), or a list or set of `elem`."""

    kind: str
    name: str = ""
    elem: _Type | None = None


def _field_type(info: FieldInfo) -> _Type:
    """The type of one value of a field (one item of a per-entity field)."""
    if info.declared:
        return _parse_type(info.declared)
    if info.kind in ("enum", "entity"):
        return _Type("item", info.element)
    if info.kind in ("list", "set"):
        return _Type(info.kind, elem=_Type("item", info.element) if info.element else _Type("int"))
    return _Type(info.kind)


field_type = _field_type  # the type of a field's value, for tools that read values (api/scenarios/positions.py)


def _kind_of(t: _Type) -> str:
    """A record field's type as `_fmt` names the text form of a value: `spot`, `int`, `list:spot`."""
    if t.kind == "optional" and t.elem is not None:
        return _kind_of(t.elem)
    if t.kind in ("list", "set") and t.elem is not None:
        return "list:" + _kind_of(t.elem)
    return t.name if t.kind == "item" else t.kind


def _holds_records(t: _Type, records: Mapping[str, Any]) -> bool:
    """Whether values of this type hold records (then they are shown field by field)."""
    if t.kind == "item":
        return t.name in records
    return t.elem is not None and _holds_records(t.elem, records)


def _parse_type(text: str) -> _Type:
    """`list(list(spot))`, `set(tile)`, `bool`, `optional(spot)`... as the compiler writes a type
    (a record is an item of its name: the state's RECORDS say it is one). Each text is parsed
    once: an observation reads the type of a field at each of its entries."""
    parsed = _PARSED.get(text)
    if parsed is None:
        parsed = _parsed_type(text)  # (which remembers the types inside it first)
        if len(_PARSED) >= _PARSED_MOST:  # (a server loading rule file after rule file)
            _PARSED.clear()
        _PARSED[text] = parsed
    return parsed


_PARSED: dict[str, _Type] = {}  # (the declared types of the rule sets loaded: a few dozen texts each)
_PARSED_MOST = 4096


def _parsed_type(text: str) -> _Type:
    for wrapper in ("list", "set", "optional"):
        if text.startswith(wrapper + "(") and text.endswith(")"):
            return _Type(wrapper, elem=_parse_type(text[len(wrapper) + 1 : -1]))
    if text in ("int", "bool", "str", "auction"):
        return _Type(text)
    return _Type("item", text)


def _wrong(where: str, expected: str, value: Any) -> BadSetup:
    return BadSetup(f"saved state: {where}: expected {expected}, got {shown(value)}")


def _exact_keys(data: Mapping[Any, Any], keys: Sequence[str], where: str, noun: str) -> None:
    """Every one of `keys` is in `data`, and nothing else."""
    for key in data:
        if key not in keys:
            raise BadSetup(f"saved state: {where}unknown {noun} {shown(key)} (expected: {', '.join(keys) or 'none'})")
    for key in keys:
        if key not in data:
            raise BadSetup(f"saved state: {where}missing {noun} `{key}`")


class _Reader:
    """Turns the saved values of a state's fields into the values the game holds, checking each
    against the field's declared type: numbers of an entity kind or enum in range, truth values
    that are booleans, sets in increasing order with each item once."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.sizes: dict[str, int] = {}

    def size(self, kind: str) -> int:
        n = self.sizes.get(kind)
        if n is None:
            n = self.sizes[kind] = len(self.state._labels(kind))
        return n

    def value(self, t: _Type, raw: Any, where: str) -> Any:
        kind = t.kind
        if kind == "int":
            if not is_int(raw):
                raise _wrong(where, "an int", raw)
            if not -MAX_INT <= raw <= MAX_INT:
                raise _wrong(where, f"an int of 64 bits (at most {MAX_INT:,} either way), the limit of a game", raw)
            return raw
        if kind == "optional" and t.elem is not None:  # `none` is null
            return None if raw is None else self.value(t.elem, raw, where)
        if kind == "item" and t.name in self.state.RECORDS:  # a record: a list of its fields, in order
            fields = self.state.RECORDS[t.name]
            if not isinstance(raw, (list, tuple)) or len(raw) != len(fields):
                raise _wrong(where, f"a {t.name}: a list of its {len(fields)} fields "
                                    f"({', '.join(name for name, _ in fields)})", raw)
            return tuple(self.value(_parse_type(ty), v, f"{where} field `{name}`")
                         for (name, ty), v in zip(fields, raw, strict=True))
        if kind == "item":
            n = self.size(t.name)
            if not is_int(raw) or not 0 <= raw < n:
                one = f"{'an' if t.name[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {t.name}"
                raise _wrong(where, f"{one} from 0 to {n - 1}" if n else f"{one} (there is none)", raw)
            return raw
        if kind == "bool":
            if not isinstance(raw, bool):
                raise _wrong(where, "true or false", raw)
            return raw
        if kind == "str":
            if not isinstance(raw, str):
                raise _wrong(where, "a text", raw)
            return raw
        if kind == "auction":
            try:
                return Auction.from_json(raw, self.state.num_seats)
            except ValueError as exc:
                raise BadSetup(f"saved state: {where} {exc}" if str(exc).startswith("key ")
                               else f"saved state: {where}: {exc}") from None
        if kind in ("list", "set") and t.elem is not None:
            if not isinstance(raw, (list, tuple)):
                raise _wrong(where, "a list" if kind == "list" else "a set (a JSON list)", raw)
            items = [self.value(t.elem, v, f"{where} item {i}") for i, v in enumerate(raw)]
            if kind == "list":
                return tuple(items)
            try:
                canonical = all(sort_key(a) < sort_key(b) for a, b in pairwise(items))
            except TypeError:  # items that have no order are only required to differ
                canonical = len(set(items)) == len(items)
            if not canonical:
                raise _wrong(where, "the items of a set in increasing order, each once", raw)
            return frozenset(items)
        raise BadSetup(f"saved state: {where}: a saved state cannot hold a value of type `{kind}`")

    def field(self, info: FieldInfo, raw: Any) -> Any:
        where = f"field `{info.name}`"
        t = _field_type(info)
        if info.per is None:
            return self.value(t, raw, where)
        count = len(getattr(self.state, info.name))  # as many as the fresh state has, one per entity
        if not isinstance(raw, (list, tuple)) or len(raw) != count:
            got = f"{len(raw)} items" if isinstance(raw, (list, tuple)) else shown(raw)
            each = "player and neutral seat" if info.per == "player" and self.state.NEUTRAL else info.per
            raise BadSetup(f"saved state: {where}: expected a list of {count} items (one per {each}), got {got}")
        return [self.value(t, v, f"{where} item {i}") for i, v in enumerate(raw)]


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
        self.info: GameInfo = info  # (declared: a variant's module reads its base's, natively too)
        self.state_class = state_class
        self._board_makers = boards
        self.board_players = dict(board_players or {})
        self._boards: dict[str, Board] = {}
        self.lowest_score_wins = lowest_score_wins
        # every option's default, by name: the options of a game that names none (resolve_options)
        self._defaults: dict[str, str] = {o.name: o.default for o in info.options}

    def __repr__(self) -> str:
        return f"<Game {self.info.ruleset}>"

    def variant(self, state_class: type[State], **facts: Any) -> Game:
        """A variant's game (a generated variant module's GAME): this game's facts with `facts`
        replaced, its boards and scoring, and the variant's state class."""
        return Game(replace(self.info, **facts), state_class, self._board_makers, self.lowest_score_wins,
                    self.board_players)

    def board_for(self, options: Mapping[str, str], players: int | None = None) -> Board:
        """The board the options choose; `by_players`: the first board made for that many players. A
        rule set without `boards:` plays on a board of no spots, its own (`NoBoard`: what it interns)."""
        if not self._board_makers:
            found = self._boards.get("")
            if found is None:
                found = self._boards[""] = NoBoard()
            return found
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
        if not options:  # (the defaults, a copy: what a playout's every game asks)
            return dict(self._defaults)
        chosen = dict(self._defaults)
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

    def new_state(self, players: int | None = None, seed: int = 0, options: Mapping[str, str] | None = None,
                  rng: Rng | None = None) -> State:
        """A new game; its setup draws from `rng` if given (a generator whose outcomes are fixed:
        rulewright.interop), else from the generator of `seed`."""
        count = self.info.players[0] if players is None else players
        if count not in self.info.players:
            allowed = ", ".join(str(n) for n in self.info.players)
            raise BadSetup(f"{self.info.ruleset} is played by {allowed} players, not {count}")
        if not isinstance(seed, int):
            raise BadSetup("the seed must be a whole number")
        state = self.state_class.__new__(self.state_class)
        state._init(self, count, seed, self.resolve_options(options), rng)
        return state

    def _pending_from_json(self, data: Mapping[str, Any]) -> State:
        """A saved state whose move waits for a decision: the state as the move began, with the
        move and the answers since played again (runtime/decisions.py); the position they lead
        to must be the one saved, field for field."""
        pending = data["pending"]
        if not isinstance(pending, Mapping):
            raise _wrong("`pending`", "a JSON object", pending)
        _exact_keys(pending, ("before", "played"), "`pending`: ", "key")
        played, before = pending["played"], pending["before"]
        if (not isinstance(played, list) or len(played) > MAX_PLAYED or not played and before is not None
                or not all(isinstance(text, str) for text in played)):
            raise _wrong("`pending.played`", f"a list of up to {MAX_PLAYED:,} action texts (the move first)", played)
        if before is None:  # the setup of a new game asked
            players, seed, options = data.get("players"), data.get("seed"), data.get("options")
            if not isinstance(players, int) or not isinstance(seed, int) or not isinstance(options, Mapping):
                raise BadSetup("saved state: `players`, `seed` and `options` must be an int, an int and an object")
            try:
                state = self.new_state(players, seed, dict(options))
            except BadSetup as exc:
                raise BadSetup(f"saved state: {exc}") from None
        elif not isinstance(before, Mapping) or "pending" in before:
            raise _wrong("`pending.before`", "a saved state no move of which waits, or null", before)
        else:
            state = self.state_from_json(before)
        for text in played:
            try:
                state.apply(text)
            except RulewrightError as refused:  # (not `exc`: see _check_playable)
                raise BadSetup(f"saved state: `pending.played`: `{_cut(text)}` cannot be played again: "
                               f"{_cut(str(refused))}") from None
        try:
            same = json.dumps(state.to_json(), sort_keys=True) == json.dumps(data, sort_keys=True)
        except (TypeError, ValueError):
            same = False
        if not same:
            raise BadSetup("saved state: `pending` does not lead to the position saved (the move and answers "
                           "played again from `pending.before` give other fields)")
        return state

    def _state_from_json_text(self, text: str | bytes) -> State:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:  # (a UnicodeDecodeError is a ValueError)
            raise BadSetup(f"saved state: not JSON text: {_cut(str(exc))}") from None
        if isinstance(data, str | bytes):  # the JSON text of a string, not of an object
            raise BadSetup(f"saved state: expected a JSON object, got {shown(data)}")
        return self.state_from_json(data)

    def state_from_json(self, data: object) -> State:
        """The state `to_json()` saved, as that object or as its JSON text. A saved state is
        untrusted data (so anything is taken, and refused if it is not one): every key is
        checked against this rule set (its id, player counts, options, phases) and every field
        against its declared type, range and length, and the position must list its legal
        actions; anything else raises BadSetup naming the key or field, and nothing of it is kept."""
        if isinstance(data, str | bytes):
            return self._state_from_json_text(data)
        ruleset = self.info.ruleset
        if not isinstance(data, Mapping):
            raise BadSetup(f"saved state: expected a JSON object, got {shown(data)}")
        if "pending" in data:
            return self._pending_from_json(data)
        _exact_keys(data, (*STATE_KEYS, "chosen") if "chosen" in data else STATE_KEYS, "", "key")
        if data["ruleset"] != ruleset:
            raise _wrong("`ruleset`", repr(ruleset), data["ruleset"])
        players = data["players"]
        if not is_int(players) or players not in self.info.players:
            raise _wrong("`players`", f"a player count of {ruleset} ({', '.join(map(str, self.info.players))})",
                         players)
        if not is_int(data["seed"]):
            raise _wrong("`seed`", "an int", data["seed"])
        options = data["options"]
        if not isinstance(options, Mapping):
            raise _wrong("`options`", "a JSON object", options)
        _exact_keys(options, [o.name for o in self.info.options], "`options`: ", "option")
        for o in self.info.options:
            if not isinstance(options[o.name], str) or options[o.name] not in o.choices:
                raise _wrong(f"option `{o.name}`", f"one of {', '.join(o.choices)}", options[o.name])
        try:
            state = self.new_state(players, data["seed"], dict(options))
        except BadSetup as exc:
            raise BadSetup(f"saved state: {exc}") from None
        rng = data["rng"]
        if not is_int(rng) or not 0 <= rng < 1 << 64:
            raise _wrong("`rng`", "the generator's state, an int from 0 to 2**64 - 1", rng)
        if not is_int(data["current"]) or not 0 <= data["current"] < players:
            raise _wrong("`current`", f"the seat whose turn it is, from 0 to {players - 1}", data["current"])
        if not isinstance(data["phase"], str) or data["phase"] not in state.PHASES:
            raise _wrong("`phase`", f"a phase of {ruleset} ({', '.join(state.PHASES)})", data["phase"])
        if not is_int(data["turn"]) or data["turn"] < 1:
            raise _wrong("`turn`", "a turn number from 1", data["turn"])
        if not is_int(data["moves"]) or data["moves"] < 0:
            raise _wrong("`moves`", "a count of moves from 0", data["moves"])
        if not isinstance(data["terminal"], bool):
            raise _wrong("`terminal`", "true or false", data["terminal"])
        fields = data["fields"]
        if not isinstance(fields, Mapping):
            raise _wrong("`fields`", "a JSON object", fields)
        _exact_keys(fields, [info.name for info in state.FIELDS], "`fields`: ", "field")
        reader = _Reader(state)
        values = [(info.name, reader.field(info, fields[info.name])) for info in state.FIELDS]
        state.rng.state = rng
        state.current = data["current"]
        state.phase = state.PHASES.index(data["phase"])
        state.turn = data["turn"]
        state.moves = data["moves"]
        state.terminal = data["terminal"]
        for name, value in values:
            setattr(state, name, value)
        state._fields_set()
        state._legal_cache = None
        state._derived = None
        state._pending = None  # (a new game whose setup asks waits for that decision: not this one)
        state._chosen = None
        if "chosen" in data and not state.terminal:  # a simultaneous decision some seats have made
            try:
                state._chosen_from_json(data["chosen"])
            except BadSetup:
                raise
            except RulewrightError as exc:
                raise BadSetup(f"saved state: `chosen`: {_cut(str(exc))}") from None
        elif "chosen" in data:
            raise BadSetup("saved state: `chosen` holds choices, but the game is over")
        try:
            broken = state.broken_invariants()
        except (RulewrightError, ArithmeticError, IndexError, KeyError, TypeError, ValueError) as fault:
            raise BadSetup(f"saved state: its invariants cannot be checked: {_cut(str(fault))}") from None
        if broken:  # (the rule file's `invariants:`: what every position the rules reach holds)
            where = self.info.rules.get(f"invariants.{broken[0]}")
            raise BadSetup(f"saved state: the position breaks invariant `{broken[0]}` of {ruleset}"
                           + (f" ({where})" if where else "") + ": no game of the rules reaches it")
        if not state.terminal:
            state._check_playable()
        return state
