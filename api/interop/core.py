"""What the OpenSpiel game and the PettingZoo environment share, with neither library imported.

A `Bridge` is one rule set at one player count with its options fixed. It gives:

- The moves as integers (`Vocabulary`). A rule set's actions carry arguments of declared types
  (spots, regions, cards, numbers, lists of spots, records...): the set of every action a rule
  set can ever list is not finite in general (a bid is any number; a line of spots is a list).
  So a move is chosen in steps, one token at a time, each token a fixed integer: the action's
  name, then each argument, an entity or enumeration value by its own token, a truth value by
  `true`/`false`, a number digit by digit, a list item by item then `end`, an optional `none` or
  its value, a record field by field. The tokens are numbered in a fixed order made from the
  declarations (action and question names, then each kind's values in order), the same for
  every game of the bridge. At each step the legal tokens are those that begin a legal action
  with the tokens chosen so far; a token every remaining action shares is chosen at once, and
  the move is played as soon as the tokens chosen name exactly one legal action (`turn_back
  E3` is two steps, or one when only turning back is legal).
- The observation of a seat as a vector of fixed length (`Layout`), made from the declared
  fields and from `state.observation(seat)` only, so that it never shows what the rules hide.
- The returns: `State.returns()`, the rule set's `returns:` where it declares them (`utility`
  says whether they are zero-sum, constant-sum or general-sum, and `utility_bounds` their least
  and most), else the winners' share of one point, centred so that the game is zero-sum.
- A `Position`: a game whose chance is explicit (OpenSpiel's chance nodes), or drawn from the
  state's own seeded generator (PettingZoo).

Chance made explicit: every draw of a game (a die, a coin, a tablet thrown, an item drawn from a
set or a pile) is one call of the generator, `below(n)`, in runtime/mechanics.py. A Position
plays a move on a copy of the state whose generator has the outcomes chosen so far fixed
(`rng.forced[OUTCOMES]`); the first draw beyond them raises `ChanceNeeded` with the items it
draws among, and the position is then a chance node whose outcomes are the distinct items (by
rank, in the mechanics' order), each as likely as its share of the items. Choosing one appends
it and plays the move again from the same copy. The setup of a game draws the same way: a new
game is a chain of chance nodes. A draw with one possible item is no chance node.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..compiler import typed as t
from ..compiler.analysis.walk import nodes
from ..compiler.builtins import BUILTINS
from ..compiler.check import check
from ..compiler.driver import build
from ..compiler.passes.rewrite import map_program
from ..compiler.types import Ty
from ..core.paths import RULE_FILE_SUFFIXES, is_ruleset_id, ruleset_file
from ..core.source import CompileError
from ..runtime.errors import BadSetup, IllegalAction
from ..runtime.limits import MAX_INT, MAX_ITEMS
from ..runtime.mechanics import OUTCOMES, ChanceNeeded
from ..runtime.order import sort_key
from ..runtime.rng import Rng
from ..runtime.state import HIDDEN, PASS, Action, Game, State
from ..runtime.state import utilities as utilities  # (the returns of a rule set declaring none)

# The most decisions (tokens chosen) of one game before it is cut short, as a draw, unless told
# otherwise: no rule set declares the length of its games. The longest of 20 random games took
# 13,090 decisions in Mandarin's money variant at 5 players (median 2,129; at 2: 11,199, median
# 2,988), 3,635 in Mandarin at 2, 459 in Yellow & Yangtze at 4 (2026-11-26).
DEFAULT_MAX_GAME_LENGTH = 50_000


# -- the rule set, as declared -------------------------------------------------------------------
@lru_cache(maxsize=64)
def _typed_program(path: str) -> t.TypedProgram:
    """The checked program of a rule file: the declared types of actions, questions and fields."""
    _, ruleset, diagnostics = build(Path(path))
    if ruleset is None or diagnostics:
        raise CompileError(diagnostics)
    problems, program = check(ruleset)
    if program is None or problems:
        raise CompileError(problems)
    return program


def rule_file(ruleset: str | os.PathLike[str]) -> Path:
    """The rule file of a bundled rule set's id, or the rule file named."""
    if isinstance(ruleset, str) and not ruleset.endswith(RULE_FILE_SUFFIXES):
        if not is_ruleset_id(ruleset):
            raise BadSetup(f"bad rule set id `{ruleset[:80]}`: name a bundled rule set (`rulewright list`) "
                           "or a rule file (.yaml)")
        return ruleset_file(ruleset)
    return Path(ruleset)


def utility_kind(cls: type[State]) -> str:
    """What the returns of every game of a rule set (its state class) add up to, as OpenSpiel's
    GameType.Utility names it: `zero_sum` (the winners' share, or `returns:` with `sum: 0`),
    `constant_sum` (another `sum:`), `general_sum` (`returns:` without `sum:`)."""
    if not cls.RETURNS or cls.RETURNS_SUM == 0:
        return "zero_sum"
    return "general_sum" if cls.RETURNS_SUM is None else "constant_sum"


def _labels(state: State, kind: str) -> tuple[str, ...]:
    return tuple(state._labels(kind))


# -- moves as tokens -----------------------------------------------------------------------------
class Vocabulary:
    """Every token of a bridge: its text, and how an action becomes a sequence of them."""

    def __init__(self, names: Sequence[str], kinds: Mapping[str, Sequence[str]],
                 signatures: Mapping[str, tuple[Ty, ...]]) -> None:
        self.signatures = dict(signatures)
        texts: list[str] = []
        self.name = {}
        for n in names:
            self.name[n] = len(texts)
            texts.append(n)
        self.base: dict[str, int] = {}
        for kind, labels in kinds.items():
            self.base[kind] = len(texts)
            texts.extend(f"{kind} {label}" for label in labels)
        self.false = len(texts)
        texts += ["false", "true"]
        self.minus = len(texts)
        texts += ["minus"] + [f"digit {d}" for d in range(10)]
        self.end = len(texts)
        texts.append("end")
        self.none = len(texts)
        texts.append("none")
        # (an action named like another token is told apart by a prefix)
        seen: set[str] = set()
        for i, text in enumerate(texts):
            if text in seen:
                texts[i] = f"action {text}"
            seen.add(texts[i])
        self.texts = tuple(texts)
        self._seqs: dict[Action, tuple[int, ...]] = {}

    def __len__(self) -> int:
        return len(self.texts)

    def tokens(self, action: Action) -> tuple[int, ...]:
        """The tokens of an action (made once per action: actions are shared between states)."""
        seq = self._seqs.get(action)
        if seq is None:
            out = [self.name[action.name]]
            for ty, value in zip(self.signatures[action.name], action.args, strict=True):
                self._encode(ty, value, out)
            seq = tuple(out)
            if len(self._seqs) > 200_000:  # (numbers can make many actions: forget the old ones)
                self._seqs.clear()
            self._seqs[action] = seq
        return seq

    def argument_at(self, action: Action, n: int) -> int | None:
        """Which argument of `action` its token at place `n` is of (None: its name, or past its end)."""
        end = 1
        for i, (ty, value) in enumerate(zip(self.signatures[action.name], action.args, strict=True)):
            out: list[int] = []
            self._encode(ty, value, out)
            end += len(out)
            if 0 < n < end:
                return i
        return None

    def _encode(self, ty: Ty, value: Any, out: list[int]) -> None:
        kind = ty.kind
        if kind in ("entity", "enum"):
            out.append(self.base[ty.name] + value)
        elif kind == "bool":
            out.append(self.false + int(value))
        elif kind == "int":
            if value < 0:
                out.append(self.minus)
            out.extend(self.minus + 1 + int(d) for d in str(abs(value)))
            out.append(self.end)
        elif kind in ("list", "set"):
            assert ty.elem is not None
            for item in (value if kind == "list" else sorted(value, key=sort_key)):
                self._encode(ty.elem, item, out)
            out.append(self.end)
        elif kind == "optional":
            assert ty.elem is not None
            if value is None:
                out.append(self.none)
            else:
                self._encode(ty.elem, value, out)
        elif kind == "record":
            for (_, field_ty), item in zip(ty.fields, value, strict=True):
                self._encode(field_ty, item, out)
        else:  # (refused when the bridge is made: `_check_tokens`)
            raise AssertionError(ty)


def _kinds_of(ty: Ty, found: dict[str, None]) -> None:
    """The entity kinds and enumerations a value of `ty` is made of, in order met."""
    if ty.kind in ("entity", "enum"):
        found.setdefault(ty.name)
    elif ty.kind in ("list", "set", "optional") and ty.elem is not None:
        _kinds_of(ty.elem, found)
    elif ty.kind == "record":
        for _, field_ty in ty.fields:
            _kinds_of(field_ty, found)


def _check_tokens(ty: Ty, where: str) -> None:
    if ty.kind in ("entity", "enum", "bool", "int"):
        return
    if ty.kind in ("list", "set", "optional") and ty.elem is not None:
        _check_tokens(ty.elem, where)
        return
    if ty.kind == "record":
        for _, field_ty in ty.fields:
            _check_tokens(field_ty, where)
        return
    raise BadSetup(f"{where}: a choice of type `{ty}` cannot be chosen in tokens (entities, enumerations, "
                   "truth values, numbers, and lists, sets, optionals and records of them can)")


# -- observations as vectors ---------------------------------------------------------------------
FLAG = (0.0, 1.0)
COUNT = (0.0, float(MAX_INT))
NUMBER = (-float(MAX_INT), float(MAX_INT))


class Layout:
    """Where each part of a seat's observation lies in the vector, and how it is written.

    In order: the seat observing (one-hot), the seat to act (one-hot, last: nobody), the phase
    (one-hot), the turn, whether the game is over, the question asked (one-hot, last: none);
    then each declared field in order, each of its entries (one, or one per player, spot,
    region or die) written by its type: a number as itself, a truth value as 0 or 1, an entity or
    an enumeration value one-hot, a record field by field, an optional as a flag then its value,
    a list or a set as its length, its hidden items, the sum of its numbers or the count of each
    value (a histogram: the order of a list is not kept), an auction as its bidders, high bid
    and high bidder. An entry some seat may not see starts with a flag, 1 when this seat sees
    it; what it does not see is zeros. A face-down pile (`visible: size`) is its size. Last, the
    tokens chosen so far of the move in progress (their count, and how often each was chosen),
    seen by the seat choosing it only."""

    def __init__(self, probe: State, program: t.TypedProgram, vocabulary: Vocabulary, asks: Sequence[str]) -> None:
        self.players = probe.num_players
        self.seats = probe.num_seats
        self.phases = {name: i for i, name in enumerate(probe.PHASES)}
        self.asks = {name: i for i, name in enumerate(asks)}
        self.tokens = len(vocabulary)
        self._index: dict[str, dict[str, int]] = {}
        self._sizes: dict[Ty, int] = {}
        bounds: list[tuple[float, float]] = []
        bounds += [FLAG] * (self.players + self.players + 1 + len(self.phases)) + [COUNT, FLAG]
        bounds += [FLAG] * (len(self.asks) + 1)
        self.fields: list[tuple[str, str | None, Ty, str, int, int]] = []  # name, per, type, visible, start, entries
        types = {f.decl.name: f for f in program.fields}
        for info in probe.FIELDS:
            decl = types[info.name].decl
            ty, visible = decl.type, info.visible
            hidden_ever = visible != "all" or types[info.name].hide_items_if is not None
            entries = 1 if info.per is None or visible == "size" else len(_labels(probe, info.per))
            start = len(bounds)
            for _ in range(entries):
                if hidden_ever and visible != "size":
                    bounds.append(FLAG)
                bounds += [COUNT] if visible == "size" else self._bounds(probe, ty)
            self.fields.append((info.name, info.per, ty, visible, start, entries))
        self.prefix_at = len(bounds)
        bounds += [COUNT] * (1 + self.tokens)
        self.size = len(bounds)
        self.low = np.array([b[0] for b in bounds], dtype=np.float32)
        self.high = np.array([b[1] for b in bounds], dtype=np.float32)
        self._hidden_ever = {name: visible != "all" or types[name].hide_items_if is not None
                             for name, _, _, visible, _, _ in self.fields}

    def _labels(self, probe: State, kind: str) -> dict[str, int]:
        index = self._index.get(kind)
        if index is None:
            index = self._index[kind] = {label: i for i, label in enumerate(_labels(probe, kind))}
        return index

    def _bounds(self, probe: State, ty: Ty) -> list[tuple[float, float]]:
        kind = ty.kind
        if kind == "int":
            out = [NUMBER]
        elif kind == "bool":
            out = [FLAG]
        elif kind in ("entity", "enum"):
            out = [FLAG] * len(self._labels(probe, ty.name))
        elif kind == "record":
            out = [b for _, field_ty in ty.fields for b in self._bounds(probe, field_ty)]
        elif kind == "optional" and ty.elem is not None:
            out = [FLAG] + self._bounds(probe, ty.elem)
        elif kind in ("list", "set") and ty.elem is not None:
            out = [COUNT, COUNT]  # length, hidden items
            if ty.elem.kind in ("entity", "enum"):
                out += [COUNT] * len(self._labels(probe, ty.elem.name))
            elif ty.elem.kind in ("int", "bool"):
                out += [NUMBER]
        elif kind == "auction":
            self._labels(probe, "player")
            out = [FLAG] * (4 * self.seats + 2) + [NUMBER, NUMBER, NUMBER, FLAG]
        else:  # a text: nothing a vector can hold
            out = []
        self._sizes[ty] = len(out)
        return out

    def write(self, seen: Mapping[str, Any], player: int, prefix: Sequence[int], out: np.ndarray) -> None:
        """Write `seen` (`state.observation(player)`) and the tokens chosen so far into `out`."""
        out.fill(0.0)
        out[player] = 1.0
        at = self.players
        to_act = seen["to_act"]
        out[at + (self.players if to_act is None else to_act)] = 1.0
        at += self.players + 1
        out[at + self.phases[seen["phase"]]] = 1.0
        at += len(self.phases)
        out[at] = seen["turn"]
        out[at + 1] = float(seen["terminal"])
        at += 2
        question = seen.get("question")
        out[at + (len(self.asks) if question is None else self.asks[question])] = 1.0
        fields = seen["fields"]
        for name, per, ty, visible, start, _ in self.fields:
            if name not in fields:
                continue
            value = fields[name]
            if visible == "size":
                out[start] = value
                continue
            flag = self._hidden_ever[name]
            width = self._sizes[ty] + flag
            if per is None:
                items: Iterator[Any] = iter((value,))
            elif isinstance(value, dict):
                items = iter(value.values())
            else:
                items = iter(value)
            for k, item in enumerate(items):
                at = start + k * width
                if flag:
                    if item is None and not (per == "player" and k == player):  # an entry this seat does not see
                        continue
                    out[at] = 1.0
                    at += 1
                self._put(ty, item, out, at)
        if prefix:
            out[self.prefix_at] = len(prefix)
            for token in prefix:
                out[self.prefix_at + 1 + token] += 1.0

    def _put(self, ty: Ty, value: Any, out: np.ndarray, at: int) -> None:
        kind = ty.kind
        if value is None or value == HIDDEN and kind != "str":
            return
        if kind in ("int", "bool"):
            out[at] = float(value)
        elif kind in ("entity", "enum"):
            out[at + self._index[ty.name][value]] = 1.0
        elif kind == "record":
            for field_name, field_ty in ty.fields:
                self._put(field_ty, value[field_name], out, at)
                at += self._sizes[field_ty]
        elif kind == "optional" and ty.elem is not None:
            out[at] = 1.0
            self._put(ty.elem, value, out, at + 1)
        elif kind in ("list", "set") and ty.elem is not None:
            out[at] = len(value)
            elem = ty.elem.kind
            for item in value:
                if item == HIDDEN:
                    out[at + 1] += 1.0
                elif elem in ("entity", "enum"):
                    out[at + 2 + self._index[ty.elem.name][item]] += 1.0
                elif elem in ("int", "bool"):
                    out[at + 2] += float(item)
        elif kind == "auction":
            seats = self._index["player"]
            for label in value["bidders"]:
                out[at + seats[label]] = 1.0
            at += self.seats
            out[at + (self.seats if value["bidder"] is None else seats[value["bidder"]])] = 1.0
            at += self.seats + 1
            for label in value["in"]:
                out[at + seats[label]] = 1.0
            at += self.seats
            out[at + (self.seats if value["high_bidder"] is None else seats[value["high_bidder"]])] = 1.0
            at += self.seats + 1
            out[at:at + 4] = (value["high_bid"], value["minimum"], value["step"], float(value["over"]))


# -- the bridge ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Key:
    """What makes a bridge: the rule set, the player count, the options (all of them, resolved)
    and the longest game."""

    ruleset: str
    players: int
    options: tuple[tuple[str, str], ...]
    max_game_length: int


class Bridge:
    def __init__(self, ruleset: str, players: int | None = None, options: Mapping[str, str] | None = None,
                 max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> None:
        from ..loading import load

        game: Game = load(ruleset)
        self.key = key(ruleset, players, options, max_game_length)
        count = self.key.players
        probe = game.new_state(count, 0, dict(self.key.options))
        self.game = game
        self.players = count
        self.options = dict(probe.options)
        self.max_game_length = max_game_length
        program = _typed_program(str(rule_file(ruleset)))
        self.program = program
        signatures: dict[str, tuple[Ty, ...]] = {}
        for a in program.actions:
            signatures[a.name] = tuple(c.var.ty for c in a.choices)
        listed = {name for names in probe.PHASE_ACTIONS for name in names}
        if not listed <= set(signatures) or set(probe.ASKS) != {name for name, _ in program.asks}:
            raise BadSetup(f"the compiled module of {ruleset} does not match its rule file: "
                           f"run `rulewright compile {ruleset}`")
        signatures.setdefault(PASS, ())
        asks = [name for name, _ in program.asks]
        for name, ty in program.asks:
            signatures[name] = (ty,)
        for name, types in signatures.items():
            for ty in types:
                _check_tokens(ty, f"{ruleset}: action or question `{name}`")
        kinds: dict[str, None] = {}
        for types in signatures.values():
            for ty in types:
                _kinds_of(ty, kinds)
        names = list(dict.fromkeys([a.name for a in program.actions] + [PASS] + asks))
        self.vocabulary = Vocabulary(names, {k: _labels(probe, k) for k in kinds}, signatures)
        self.layout = Layout(probe, program, self.vocabulary, asks)
        # the choices of each action the other seats do not read (not in its `others_text:`)
        self.hidden_args = {a.name: frozenset(i for i, c in enumerate(a.choices)
                                              if c.var.py not in {value for value, fmt in a.others_parts if fmt})
                            for a in program.actions if a.others_parts is not None}
        self.hidden_args.update((name, frozenset({0})) for name in program.secret_asks)  # (`ask ... secretly`)
        # every seat sees every field, all of it (no `visible:` but `all`, no `hide_items_if`), and
        # every move whole (no `others_text:`, no answer given `secretly`)
        self.perfect_information = all(f.decl.visible == "all" and f.hide_items_if is None
                                       for f in program.fields) and not self.hidden_args
        self.max_chance_outcomes = _chance_bound(program, probe, ruleset)
        self._initial: Position | None = None

    # -- the returns
    @property
    def utility(self) -> str:
        """`zero_sum`, `constant_sum` or `general_sum`: `utility_kind` of the rule set."""
        return utility_kind(self.game.state_class)

    @property
    def utility_sum(self) -> float | None:
        """What the returns of every game add up to (None: general-sum; alone at the table: None)."""
        cls = self.game.state_class
        if not cls.RETURNS:
            return 0.0 if self.players > 1 else None
        return None if cls.RETURNS_SUM is None else float(cls.RETURNS_SUM)

    @property
    def utility_bounds(self) -> tuple[float, float]:
        """The least and most return of one seat: of the winners' share, -1/(players - 1) and 1;
        of declared returns, their `range:`, else the limits of a whole number (±2**63 - 1)."""
        cls = self.game.state_class
        if not cls.RETURNS:
            return (-1.0 / (self.players - 1) if self.players > 1 else 0.0), 1.0
        least, most = cls.RETURNS_RANGE if cls.RETURNS_RANGE is not None else (-MAX_INT, MAX_INT)
        return float(least), float(most)

    # -- positions
    def initial(self) -> Position:
        """A new game with its chance explicit (the setup's draws are chance nodes)."""
        if self._initial is None:
            self._initial = Position(self, None)
        return self._initial.copy()

    def live(self, seed: int) -> Position:
        """A new game whose chance is drawn from the generator of `seed`, as `rulewright` plays it."""
        return Position(self, seed)

    def observation_text(self, seen: Mapping[str, Any], prefix: Sequence[int]) -> str:
        text = json.dumps(seen, sort_keys=True, separators=(",", ":"), default=_plain_set)
        if prefix:
            text += "\nchoosing: " + " ".join(self.vocabulary.texts[k] for k in prefix)
        return text


def key(ruleset: str, players: int | None = None, options: Mapping[str, str] | None = None,
        max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> Key:
    """The key of a bridge, its options resolved (the defaults filled in); a player count the
    rule set does not allow, an unknown option or value raises BadSetup."""
    from ..loading import load

    game = load(ruleset)
    count = game.info.players[0] if players is None else players
    if count not in game.info.players:
        raise BadSetup(f"{game.info.ruleset} is played by {', '.join(map(str, game.info.players))} players, "
                       f"not {count}")
    if isinstance(max_game_length, bool) or not isinstance(max_game_length, int) or max_game_length < 1:
        raise BadSetup(f"max_game_length must be a whole number from 1, not {max_game_length!r}")
    return Key(ruleset, count, tuple(sorted(game.resolve_options(options).items())), max_game_length)


def _plain_set(value: Any) -> Any:
    """A set as JSON: its items in order (an observation shows the sets inside a list field,
    `list(set(spot))`, as they are held)."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=sort_key)
    raise TypeError(f"{type(value).__name__} is not JSON")


@lru_cache(maxsize=128)
def bridge(key: Key) -> Bridge:
    """The bridge of `key`, made once (a saved position names its bridge by key)."""
    return Bridge(key.ruleset, key.players, dict(key.options), key.max_game_length)


def _chance_bound(program: t.TypedProgram, probe: State, ruleset: str) -> int:
    """The most outcomes of one chance node: of each draw of the rules, the number of distinct
    values it can draw, from their declared type (an entity kind's or an enumeration's size, a
    die's faces as written, a die of the throw's table); 0 when the rules draw nothing."""
    bounds: list[int] = []
    problems: list[str] = []

    def visit(e: t.Expr) -> t.Expr:
        for node in nodes(e):
            if isinstance(node, t.Builtin) and node.func in BUILTINS and BUILTINS[node.func].chance:
                bound = _outcomes(node, program, probe)
                if bound is None:
                    problems.append(f"{node.span.path}:{node.span.line}: `{node.func}` draws values of type "
                                    f"`{node.ty}`, of no declared number")
                else:
                    bounds.append(bound)
        return e

    map_program(program, visit)
    if problems:
        raise BadSetup(f"{ruleset}: the chance of this rule set cannot be bounded: {problems[0]}")
    return max(bounds, default=0)


def _outcomes(call: t.Builtin, program: t.TypedProgram, probe: State) -> int | None:
    if call.func == "coin":
        return 2
    if call.func == "die":
        faces = call.args[0] if call.args else None
        return max(1, faces.value) if isinstance(faces, t.Num) else None
    if call.func == "throw":
        return max((len(f) for _, _, faces in program.tables.dice for f in faces), default=1)
    ty = call.ty
    if ty.kind in ("entity", "enum"):
        return len(_labels(probe, ty.name))
    if ty.kind == "bool":
        return 2
    if call.func in ("draw", "draw_from") and call.args:
        # A value of no declared number (a number, a list ...) drawn from a set or a list: its
        # outcomes are the distinct items of what it draws from, as many as the items written
        # of a set or list written out, else at most as many as a list or set may hold (a limit
        # of a move, runtime/limits.py: a larger one stops the game before it is drawn from).
        items = call.args[0]
        if isinstance(items, t.Collection):
            return max(1, len(items.items))
        return MAX_ITEMS
    return None


# -- a game in play ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Chance:
    """A draw waiting for its outcome: the move drawing it (None: the setup), the outcomes of
    its earlier draws (indices given to `below`), and the distinct values it can draw, each as
    (index of its first copy, copies)."""

    move: Action | None
    drawn: tuple[int, ...]
    n: int
    values: tuple[tuple[int, int, Any], ...]  # index, copies, value
    items: Sequence[Any] | None  # what the draw's index picks among (None: the index itself)

    def outcome_of(self, index: int) -> int:
        """The outcome (rank) of the draw that `below(n)` answering `index` makes."""
        if self.items is None:
            return index
        value = self.items[index]
        return next(rank for rank, (_, _, v) in enumerate(self.values) if v == value)


Step = tuple[Action | None, tuple[int, ...]]  # a move (None: the setup) and the outcomes it drew


class Position:
    """One game in play, for a bridge: explicit chance (`seed` None) or its own generator's.

    A position never changes a `State` it holds: every move is played on a copy, so copies of
    a position share their states. A state whose move waits for a seat's answer (`ask`) is
    copied by playing that move again from the state it began at (`trail`), with the same
    outcomes of chance."""

    __slots__ = ("bridge", "state", "chance", "trail", "prefix", "own", "decisions", "history", "truncated",
                 "_candidates", "_seen", "_text_cache", "live", "together", "picked", "jointly")

    def __init__(self, bridge: Bridge, seed: int | None) -> None:
        self.bridge = bridge
        self.live = seed is not None
        self.state: State | None = None
        self.chance: Chance | None = None
        self.trail: tuple[State | None, tuple[Step, ...]] | None = None
        self.prefix: tuple[int, ...] = ()
        self.own: tuple[tuple[Action, ...], ...] = ((),) * bridge.players
        self.decisions = 0
        # each token chosen, or at a simultaneous decision each joint choice (a token per seat)
        self.history: tuple[int | tuple[int, ...], ...] = ()
        # A simultaneous decision (docs/language.md, "Simultaneous decisions"): each seat still
        # choosing, its tokens so far and the legal actions they begin; the actions of the seats done.
        # Replaced, never changed in place (copies share them).
        self.together: dict[int, tuple[tuple[int, ...], list[tuple[tuple[int, ...], Action]]]] = {}
        self.picked: dict[int, Action] = {}
        self.jointly = False  # whether a joint step was made at this decision (else its seats choose in turn)
        self.truncated = False
        self._candidates: list[tuple[tuple[int, ...], Action]] | None = None
        self._seen: dict[int, dict[str, Any]] = {}
        self._text_cache: str | None = None
        if seed is not None:
            self.state = bridge.game.new_state(bridge.players, seed, bridge.options)
            self._settle()
        else:
            self._run(None, ())

    def copy(self) -> Position:
        other = Position.__new__(Position)
        for name in Position.__slots__:
            setattr(other, name, getattr(self, name))
        other._seen = {}
        if self.live:
            other._text_cache = None  # (a live game's state has its own generator: copied, not shared)
            assert self.state is not None
            other.state = self.state.clone()
            other._candidates = None
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        if self.live:
            raise TypeError("a game drawing from its own generator is saved by its state (`to_json`)")
        return (_replayed, (self.bridge.key, self.history))

    # -- what the libraries ask
    def is_chance(self) -> bool:
        return self.chance is not None and not self.truncated

    def is_terminal(self) -> bool:
        return self.truncated or self.chance is None and self.state is not None and self.state.is_terminal()

    def to_act(self) -> int | None:
        """The seat choosing now (None: a chance node, or the game is over)."""
        if self.is_terminal() or self.chance is not None:
            return None
        assert self.state is not None
        return self.state.to_act()

    def returns(self) -> list[float]:
        if self.truncated or not self.is_terminal():
            return [0.0] * self.bridge.players
        assert self.state is not None
        return self.state.returns()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the draw waiting (by rank) and their probabilities."""
        assert self.chance is not None
        n = self.chance.n
        return [(rank, copies / n) for rank, (_, copies, _) in enumerate(self.chance.values)]

    def outcome_text(self, outcome: int) -> str:
        if self.chance is None or not 0 <= outcome < len(self.chance.values):
            return f"outcome {outcome}"
        value = self.chance.values[outcome][2]
        return f"outcome {outcome}: {value!r}" if value is not None else f"outcome {outcome}"

    def legal(self) -> list[int]:
        """The legal tokens of the seat to act (sorted), or the outcomes of a chance node."""
        if self.is_terminal():
            return []
        if self.chance is not None:
            return list(range(len(self.chance.values)))
        n = len(self.prefix)
        return sorted({seq[n] for seq, _ in self._matching()})

    def observation(self, player: int) -> dict[str, Any]:
        """`state.observation(player)` of the state in play (before the move that draws, at a
        chance node), kept until the position changes."""
        seen = self._seen.get(player)
        if seen is None:
            assert self.state is not None
            seen = self._seen[player] = self.state.observation(player)
        return seen

    def token_text(self, player: int, token: int) -> str:
        """The text of a legal token of the seat to act as `player` reads it: `hidden` for a token
        of a choice the move hides from the other seats (`others_text:`, docs/language.md) while
        `player` would not read the move's whole text; else the token's own text."""
        text = self._text(token)
        seat = self.to_act()
        if seat is None or player == seat or not self.bridge.hidden_args:
            return text
        assert self.state is not None
        n = len(self.prefix)
        for seq, action in self._matching():
            hidden = self.bridge.hidden_args.get(action.name)
            if (hidden and len(seq) > n and seq[n] == token
                    and self.bridge.vocabulary.argument_at(action, n) in hidden
                    and self.state.move_text(action, player, seat) != str(action)):
                return HIDDEN
        return text

    def own_actions(self, player: int) -> tuple[Action, ...]:
        """The moves `player` made, in order (what its information state remembers)."""
        return self.own[player]

    def own_prefix(self, player: int) -> tuple[int, ...]:
        """The tokens chosen so far of the move in progress, if `player` is choosing it."""
        if self.jointly:  # a simultaneous decision chosen jointly: the seat's own tokens
            mine = self.together.get(player)
            return mine[0] if mine is not None else ()
        return self.prefix if self.prefix and self.to_act() == player else ()

    # -- simultaneous decisions: every seat still choosing picks a token at once
    def is_simultaneous(self) -> bool:
        """Whether the seats choose at once now (each its next token; the seats done, the no-op)."""
        return bool(self.together) and not self.is_terminal() and self.chance is None

    def legal_of(self, player: int) -> list[int]:
        """At a simultaneous decision, the legal tokens of `player`: the next tokens of its legal
        actions, or the no-op token (`pass`) alone for a seat with nothing (left) to choose."""
        mine = self.together.get(player)
        if mine is None:
            return [self.bridge.vocabulary.name[PASS]]
        prefix, matching = mine
        n = len(prefix)
        return sorted({seq[n] for seq, _ in matching})

    def apply_joint(self, tokens: Sequence[int]) -> None:
        """A simultaneous decision's step: a token for every seat (the no-op for a seat not
        choosing); once every seat's tokens name one action, the actions are played in seat order."""
        if not self.is_simultaneous():
            raise IllegalAction("no simultaneous decision now")
        if len(tokens) != self.bridge.players:
            raise IllegalAction(f"a joint choice names a token for each of the {self.bridge.players} seats, "
                                f"not {len(tokens)}")
        together, picked = dict(self.together), dict(self.picked)
        for seat, token in enumerate(tokens):
            mine = together.get(seat)
            if mine is None:
                if token != self.bridge.vocabulary.name[PASS]:
                    raise IllegalAction(f"P{seat + 1} has nothing to choose now: its only token is `pass`")
                continue
            prefix, candidates = mine
            n = len(prefix)
            matching = [(seq, a) for seq, a in candidates if seq[n] == token]
            if not matching:
                raise IllegalAction(f"token {token} ({self._text(token)}) is not legal for P{seat + 1} now")
            if len({seq for seq, _ in matching}) == 1:
                picked[seat] = matching[0][1]
                del together[seat]
            else:
                together[seat] = (_common(prefix + (token,), matching), matching)
        self._seen = {}
        self._text_cache = None
        self.history += (tuple(tokens),)
        self.decisions += 1
        self.together, self.picked, self.jointly = together, picked, True
        if not together:  # every seat has chosen: the decision is played, each seat's action in seat order
            order = sorted(picked)
            own = list(self.own)
            for seat in order:
                own[seat] = own[seat] + (picked[seat],)
            self.own = tuple(own)
            self.picked = {}
            if self.live:
                assert self.state is not None
                for seat in order:
                    self.state.apply(picked[seat], seat=seat)
                self._settle()
            else:  # the choices but the last change nothing but the choices: no chance is drawn before it
                base = self._copy_state()
                for seat in order[:-1]:
                    base.apply(picked[seat], seat=seat)
                self.state, self.trail = base, None
                self._run(picked[order[-1]], ())
        if self.decisions >= self.bridge.max_game_length and not self.is_terminal():
            self.truncated = True

    def apply(self, token: int) -> None:
        if self.is_terminal():
            raise IllegalAction("the game is over")
        self._seen = {}
        self._text_cache = None
        if self.chance is not None:
            chance = self.chance
            if not 0 <= token < len(chance.values):
                raise IllegalAction(f"no outcome {token} of this chance node ({len(chance.values)} outcomes)")
            self.history += (token,)
            self._run(chance.move, chance.drawn + (chance.values[token][0],))
            return
        seat = self.to_act()
        assert seat is not None
        if self.jointly:
            raise IllegalAction("the seats of this simultaneous decision choose jointly now (apply_joint)")
        n = len(self.prefix)
        matching = [(seq, a) for seq, a in self._matching() if seq[n] == token]
        if not matching:
            raise IllegalAction(f"token {token} ({self._text(token)}) is not legal now")
        self.history += (token,)
        self.decisions += 1
        chosen = self.prefix + (token,)
        if len({seq for seq, _ in matching}) == 1:
            action = matching[0][1]
            own = list(self.own)
            own[seat] = own[seat] + (action,)
            self.own = tuple(own)
            self.prefix = ()
            self._candidates = None
            if self.live:
                assert self.state is not None
                self.state.apply(action)
                self._settle()
            else:
                self._run(action, ())
        else:
            self._candidates = matching
            self.prefix = _common(chosen, matching)
        if self.decisions >= self.bridge.max_game_length and not self.is_terminal():
            self.truncated = True

    def text(self) -> str:
        """The whole position as text: the state saved, and what is being drawn or chosen."""
        if self._text_cache is None:
            self._text_cache = self._whole_text()
        return self._text_cache

    def _whole_text(self) -> str:
        assert self.state is not None or self.chance is not None
        out = "" if self.state is None else json.dumps(self.state.to_json(), sort_keys=True, separators=(",", ":"))
        if self.chance is not None:
            move = "the setup" if self.chance.move is None else str(self.chance.move)
            out += f"\ndrawing for {move}: {list(self.chance.drawn)}"
        if self.prefix:
            out += "\nchoosing: " + " ".join(self._text(k) for k in self.prefix)
        if self.truncated:
            out += f"\ncut short after {self.decisions} decisions"
        return out

    # -- the work
    def _text(self, token: int) -> str:
        texts = self.bridge.vocabulary.texts
        return texts[token] if 0 <= token < len(texts) else str(token)

    def _matching(self) -> list[tuple[tuple[int, ...], Action]]:
        """The legal actions (and their tokens) that begin with the tokens chosen so far."""
        if self._candidates is None:
            assert self.state is not None
            tokens = self.bridge.vocabulary.tokens
            unique: dict[tuple[int, ...], Action] = {}
            for a in self.state.legal_actions():
                unique.setdefault(tokens(a), a)
            n, prefix = len(self.prefix), self.prefix
            self._candidates = [(seq, a) for seq, a in unique.items() if seq[:n] == prefix]
        return self._candidates

    def _settle(self) -> None:
        """A move is over: the next seat's first tokens, those every legal action shares."""
        self._candidates = None
        self.prefix = ()
        self.together, self.picked, self.jointly = {}, {}, False
        assert self.state is not None
        if not self.state.is_terminal():
            matching = self._matching()
            if len(matching) > 1:
                self.prefix = _common((), matching)  # (every one of them begins so)
        if self.state.is_simultaneous():  # each seat choosing (jointly, or in turn as above): its legal actions
            tokens = self.bridge.vocabulary.tokens
            for seat in self.state.choosing():
                unique: dict[tuple[int, ...], Action] = {}
                for a in self.state.legal_actions(seat):
                    unique.setdefault(tokens(a), a)
                candidates = list(unique.items())
                self.together[seat] = (_common((), candidates) if len(candidates) > 1 else (), candidates)

    def _copy_state(self) -> State:
        """A copy of the state in play, to play a move on."""
        if self.trail is None:
            assert self.state is not None
            return self.state.clone()
        start, steps = self.trail
        state = start.clone() if start is not None else None
        for move, drawn in steps:
            state = self._play(state, move, drawn)
        assert state is not None
        return state

    def _play(self, state: State | None, move: Action | None, drawn: tuple[int, ...]) -> State:
        """`move` played on `state` (None: a new game set up), its draws given `drawn`."""
        script: list[tuple[Any, str]] = [(k, "") for k in drawn]
        if move is None:
            rng = Rng(0)
            rng.forced = {OUTCOMES: script}
            state = self.bridge.game.new_state(self.bridge.players, 0, self.bridge.options, rng=rng)
        else:
            assert state is not None
            state.rng.forced = {OUTCOMES: script}
            state.apply(move)
        state.rng.forced = None
        return state

    def _run(self, move: Action | None, drawn: tuple[int, ...]) -> None:
        """Play `move` with the outcomes `drawn`, up to its first draw beyond them (a chance
        node) or to its end."""
        while True:
            before = None if move is None else self._copy_state()
            try:
                after = self._play(before, move, drawn)
            except ChanceNeeded as need:
                values = _distinct(need)
                if len(values) == 1:  # one possible value: no chance at all
                    drawn += (values[0][0],)
                    continue
                self.chance = Chance(move, drawn, need.n, values, need.items)
                return
            break
        self.chance = None
        if after._pending is None:
            self.trail = None
        elif move is None:
            self.trail = (None, ((None, drawn),))
        elif self.trail is None:
            self.trail = (self.state, ((move, drawn),))
        else:
            self.trail = (self.trail[0], self.trail[1] + ((move, drawn),))
        self.state = after
        self._settle()


def _distinct(need: ChanceNeeded) -> tuple[tuple[int, int, Any], ...]:
    """The distinct values a draw can give, in order (by sort_key), each as (index of its first
    copy, copies, value)."""
    if need.items is None:
        return tuple((i, 1, None) for i in range(need.n))
    first: dict[Any, list[int]] = {}
    for i, item in enumerate(need.items):
        entry = first.get(item)
        if entry is None:
            first[item] = [i, 1]
        else:
            entry[1] += 1
    ordered = sorted(first.items(), key=lambda kv: sort_key(kv[0]))
    return tuple((index, copies, value) for value, (index, copies) in ordered)


def _common(prefix: tuple[int, ...], matching: Sequence[tuple[tuple[int, ...], Action]]) -> tuple[int, ...]:
    """`prefix` lengthened by the tokens every one of `matching` (two or more) has next."""
    while True:
        n = len(prefix)
        nexts = {seq[n] for seq, _ in matching}
        if len(nexts) != 1:
            return prefix
        prefix += (next(iter(nexts)),)


def _replayed(key: Key, history: tuple[int | tuple[int, ...], ...]) -> Position:
    """A saved position: its game played again from the start, every token and outcome."""
    position = bridge(key).initial()
    for token in history:
        if isinstance(token, tuple):
            position.apply_joint(token)
        else:
            position.apply(token)
    return position


