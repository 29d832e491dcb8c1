"""A rule set played move for move against OpenSpiel's own implementation of the game.

    from rulewright.interop.lockstep import ADAPTERS, run
    report = run(ADAPTERS["hex"], games=100, seed=0)
    assert report.mismatch is None, report.mismatch

`pyspiel.load_game(name)` with its default parameters plays seeded random games: at each decision
one of OpenSpiel's legal actions is chosen at random, and at each chance node an outcome by its
probability. The same game is played in rulewright: each action is mapped to rulewright's move
by its text (`action_to_string`), and each chance outcome is forced into rulewright's next draw
of that kind (`rng.forced`, docs/scenarios.md, "Fixing chance"). The chance outcomes OpenSpiel
draws after a decision (or before the first) are those of rulewright's move (or setup): a dice
game rolls at the start of a turn in both, and rulewright's roll runs in the move that ends the
turn before. Any draw of rulewright's that OpenSpiel did not make, and any outcome OpenSpiel drew
that rulewright's move did not use, is a mismatch.

At OpenSpiel's simultaneous nodes (`is_simultaneous_node()`, a game of SIMULTANEOUS dynamics such
as oshi_zumo) every seat chooses at once: rulewright's `choosing()` must list every seat, each
seat's `legal_actions(seat)` must map one to one onto OpenSpiel's `legal_actions(seat)`, and the
joint action, one chosen at random per seat, is played there with `apply_actions` and here with
`apply(action, seat=seat)` seat by seat (the move is played as the last seat chooses; the chance
OpenSpiel draws after it is forced into that move). Such a decision counts as one move.

At every decision the two games must agree on whose turn it is, on the set of legal actions
(every OpenSpiel action mapped to a distinct rulewright move, and every rulewright move the image
of one), on whether the game is over and on the position, read from each side by the adapter
into one comparable form; at the end, on the returns (`State.returns()` where the runtime has it,
else the winners' ±1/0 of `rulewright.interop.core.utilities`). The first difference stops the
game: a `Mismatch` names the seed, the move number, the moves so far and what differs.

An adapter (`Adapter`) is all a game needs: the rule set, OpenSpiel's game name, and four small
functions: an OpenSpiel action's text to rulewright's, a chance outcome's text to the kind and
value rulewright draws (or several draws: backgammon's roll is two dice), and each side's position.
Where an action's text does not say the move (backgammon's texts fold both orders of the same
checkers into one), `actions_of` names a decision's actions from OpenSpiel's state instead.
`ADAPTERS` holds the bundled classics';
`scripts/lockstep_openspiel.py GAME --games N --seed S` runs one from the command line.
"""

from __future__ import annotations

import functools
import math
import random
import re
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..runtime.errors import RulewrightError
from ..runtime.mechanics import OUTCOMES, ChanceNeeded
from ..runtime.rng import Rng
from ..runtime.state import Action, Game, State
from .core import utilities

# The most decisions of one lockstep game: a game of OpenSpiel's catalogue that runs longer than
# this in random play is cut there (counted, not a mismatch).
MAX_MOVES = 10_000


@dataclass(frozen=True)
class Adapter:
    """How one OpenSpiel game reads as one rulewright rule set.

    - `action(text)`: the rulewright move's text for OpenSpiel's `action_to_string(player, a)`
      (letters' case and runs of spaces do not matter, as rulewright reads a move's text).
    - `chance(text)`: the (kind, value) rulewright draws for OpenSpiel's chance outcome of that
      text: `("die", 4)`, `("coin", True)`, `("draw", <the item in rulewright's representation>)`,
      `("throw", 7)` (docs/scenarios.md, "Fixing chance"), or a list of them where one outcome of
      OpenSpiel's is several draws of rulewright's (backgammon's roll: two dice). None: the game
      has no chance.
    - `openspiel_position(state)` and `rulewright_position(state)`: each side's position in one
      comparable form (board contents, chips, dice), equal when the positions are the same.
    """

    ruleset: str
    openspiel: str
    action: Callable[[str], str]
    openspiel_position: Callable[[Any], Hashable]
    rulewright_position: Callable[[State], Hashable]
    chance: Callable[[str], tuple[str, Any] | list[tuple[str, Any]]] | None = None
    players: int = 2
    options: Mapping[str, str] = field(default_factory=dict)
    doc: str = ""
    # `actions_of(state, seat, actions)`: the rulewright moves' texts of a decision's OpenSpiel
    # actions, read from OpenSpiel's state, where an action's text alone does not say the move
    # (backgammon's texts fold both orders of the same checkers into one); None: `action(text)`
    actions_of: Callable[[Any, int, Sequence[int]], Sequence[str]] | None = None


@dataclass(frozen=True)
class Mismatch:
    """The first difference of a lockstep game."""

    ruleset: str
    openspiel: str
    seed: int
    move: int  # decisions played before it (0: at the start)
    history: tuple[str, ...]  # OpenSpiel's texts, chance outcomes as `chance <text>`
    what: str

    def __str__(self) -> str:
        shown = "; ".join(self.history[-40:])
        cut = f"(the last 40 of {len(self.history)}) " if len(self.history) > 40 else ""
        return (f"{self.ruleset} against OpenSpiel's {self.openspiel}: seed {self.seed}, move {self.move}: "
                f"{self.what}\n  history {cut}: {shown or '(none)'}")


@dataclass
class Report:
    """What a run of lockstep games found."""

    ruleset: str
    openspiel: str
    games: int = 0  # games played to their end in agreement
    cut: int = 0  # games cut at MAX_MOVES (in agreement so far)
    decisions: int = 0
    seconds: float = 0.0
    mismatch: Mismatch | None = None
    mismatches: int = 0


class _Differ(Exception):
    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def rulewright_returns(state: State) -> list[float]:
    """A finished game's returns per seat: `State.returns()` where the runtime declares them,
    else the winners' share of one point, centred (rulewright.interop.core.utilities)."""
    declared = getattr(state, "returns", None)
    if callable(declared):
        return [float(r) for r in declared()]
    return utilities(state.winners(), state.num_players)


def _forced(adapter: Adapter, drawn: Sequence[str]) -> dict[str, list[tuple[Any, str]]]:
    """rng.forced for the chance outcomes `drawn` (OpenSpiel's texts): each kind's outcomes in
    order, and nothing under OUTCOMES, so that any other draw raises ChanceNeeded."""
    forced: dict[str, list[tuple[Any, str]]] = {OUTCOMES: []}
    for text in drawn:
        if adapter.chance is None:
            raise _Differ(f"OpenSpiel draws chance ({text!r}) but the adapter maps no chance")
        drawn_here = adapter.chance(text)
        for kind, value in drawn_here if isinstance(drawn_here, list) else [drawn_here]:
            forced.setdefault(kind, []).append((value, text))
    return forced


def _check_used(forced: dict[str, list[tuple[Any, str]]], where: str) -> None:
    left = [shown for kind, outcomes in forced.items() if kind != OUTCOMES for _, shown in outcomes]
    if left:
        raise _Differ(f"OpenSpiel drew {', '.join(left)} which rulewright's {where} did not draw")


def _chance(os_state: Any, pick: random.Random, history: list[str]) -> list[str]:
    """Play OpenSpiel's chance nodes up to the next decision (or the end): their texts."""
    drawn: list[str] = []
    while os_state.is_chance_node():
        outcomes, probs = zip(*os_state.chance_outcomes(), strict=True)
        outcome = pick.choices(outcomes, probs)[0]
        text = os_state.action_to_string(os_state.current_player(), outcome)
        drawn.append(text)
        history.append(f"chance {text}")
        os_state.apply_action(outcome)
    return drawn


def _compare(adapter: Adapter, os_state: Any, rw: State, texts: dict[Action, str] | None = None) -> dict[int, Action]:
    """Compare a decision (or the end); OpenSpiel's legal actions mapped to rulewright's."""
    os_over, rw_over = bool(os_state.is_terminal()), rw.is_terminal()
    if os_over != rw_over:
        raise _Differ(f"the game is {'over' if os_over else 'not over'} in OpenSpiel, "
                      f"{'over' if rw_over else 'not over'} in rulewright")
    os_position, rw_position = adapter.openspiel_position(os_state), adapter.rulewright_position(rw)
    if os_position != rw_position:
        raise _Differ(f"the positions differ:\n  OpenSpiel:  {os_position}\n  rulewright: {rw_position}")
    if os_over:
        try:
            rw_returns = rulewright_returns(rw)
        except RulewrightError as exc:  # (a promise of `returns:` broken: `sum:`, `range:`)
            raise _Differ(f"rulewright's returns fail: {exc}") from exc
        os_returns = list(os_state.returns())
        if len(os_returns) != len(rw_returns) or not all(
                math.isclose(a, b, abs_tol=1e-9) for a, b in zip(os_returns, rw_returns, strict=True)):
            raise _Differ(f"the returns differ: OpenSpiel {os_returns}, rulewright {rw_returns}")
        return {}
    seat, actor = int(os_state.current_player()), rw.to_act()
    if seat != actor:
        raise _Differ(f"seat {seat} is to act in OpenSpiel, {actor} in rulewright")
    return _mapped(adapter, os_state, seat, rw.legal_actions(), texts)


def _mapped(adapter: Adapter, os_state: Any, seat: int, rw_legal: Sequence[Action],
            texts: dict[Action, str] | None = None) -> dict[int, Action]:
    """OpenSpiel's legal actions of `seat` mapped to rulewright's `rw_legal`, one to one (`texts`:
    rulewright's texts, normalised, of the moves met so far in a run, kept)."""
    if texts is None:
        texts = {}
    by_text: dict[str, Action] = {}
    for move in rw_legal:
        text = texts.get(move)
        if text is None:
            text = texts[move] = _norm(str(move))
        by_text[text] = move
    mapped: dict[int, Action] = {}
    seen: dict[str, int] = {}
    missing: list[str] = []
    legal = [int(a) for a in os_state.legal_actions(seat)]
    if adapter.actions_of is None:
        mine = [adapter.action(os_state.action_to_string(seat, a)) for a in legal]
    else:
        mine = list(adapter.actions_of(os_state, seat, legal))
    for a, text in zip(legal, map(_norm, mine), strict=True):
        if text in seen:
            raise _Differ(f"the adapter maps OpenSpiel's {os_state.action_to_string(seat, seen[text])!r} and "
                          f"{os_state.action_to_string(seat, a)!r} both to {text!r}")
        seen[text] = a
        if text in by_text:
            mapped[a] = by_text[text]
        else:
            missing.append(f"{os_state.action_to_string(seat, a)!r} ({text!r})")
    extra = sorted(t for t in by_text if t not in seen)
    if missing or extra:
        raise _Differ(f"the legal actions{'' if os_state.current_player() >= 0 else f' of seat {seat}'} differ:"
                      + (f"\n  legal in OpenSpiel only: {', '.join(missing[:20])}" if missing else "")
                      + (f"\n  legal in rulewright only: {', '.join(extra[:20])}" if extra else ""))
    return mapped


def _compare_simultaneous(adapter: Adapter, os_state: Any, rw: State) -> dict[int, dict[int, Action]]:
    """Compare a simultaneous decision of OpenSpiel's (`is_simultaneous_node()`): the game is on in
    both, the positions agree, the seats choosing are every seat of OpenSpiel's (each has legal
    actions there) and rulewright's `choosing()`, and each seat's legal actions map one to one."""
    if rw.is_terminal():
        raise _Differ("the game is not over in OpenSpiel, over in rulewright")
    os_position, rw_position = adapter.openspiel_position(os_state), adapter.rulewright_position(rw)
    if os_position != rw_position:
        raise _Differ(f"the positions differ:\n  OpenSpiel:  {os_position}\n  rulewright: {rw_position}")
    seats, choosing = list(range(os_state.num_players())), list(rw.choosing())
    if seats != choosing:
        raise _Differ(f"seats {seats} choose at once in OpenSpiel, {choosing} in rulewright")
    return {seat: _mapped(adapter, os_state, seat, rw.legal_actions(seat)) for seat in seats}


def _play_simultaneous(adapter: Adapter, os_state: Any, rw: State, pick: random.Random,
                       history: list[str]) -> None:
    """One simultaneous decision: each seat's action chosen at random among OpenSpiel's, played at
    once there (`apply_actions`) and seat by seat in rulewright (`apply(action, seat=)`), the chance
    OpenSpiel draws after it forced into rulewright's move (played as the last seat chooses)."""
    joint = _compare_simultaneous(adapter, os_state, rw)
    chosen = [pick.choice(sorted(joint[seat])) for seat in sorted(joint)]
    history.append(", ".join(f"P{seat + 1} {os_state.action_to_string(seat, a)}"
                             for seat, a in zip(sorted(joint), chosen, strict=True)))
    os_state.apply_actions(chosen)
    forced = _forced(adapter, _chance(os_state, pick, history))
    rw.rng.forced = forced
    for seat, a in zip(sorted(joint), chosen, strict=True):
        try:
            rw.apply(joint[seat][a], seat=seat)
        except ChanceNeeded as exc:
            raise _Differ(f"rulewright's choice {joint[seat][a]} of seat {seat} draws chance ({exc.n} outcomes) "
                          "that OpenSpiel does not") from exc
        except RulewrightError as exc:
            raise _Differ(f"rulewright's choice {joint[seat][a]} of seat {seat} fails: {exc}") from exc
    _check_used(forced, "simultaneous move " + ", ".join(str(joint[seat][a])
                                                           for seat, a in zip(sorted(joint), chosen, strict=True)))
    rw.rng.forced = None


def play(adapter: Adapter, seed: int, game: Game, os_game: Any,
         texts: dict[Action, str] | None = None) -> tuple[Mismatch | None, int, bool]:
    """One lockstep game of `seed`: its first mismatch (None if none), its decisions, and
    whether it was cut at MAX_MOVES (`texts`: rulewright's move texts kept from game to game of
    one rule set)."""
    pick = random.Random(seed)
    history: list[str] = []
    move = 0
    try:
        os_state = os_game.new_initial_state()
        drawn = _chance(os_state, pick, history)
        rng = Rng(seed)
        rng.forced = _forced(adapter, drawn)
        try:
            rw = game.new_state(adapter.players, seed=seed, options=adapter.options, rng=rng)
        except ChanceNeeded as exc:
            raise _Differ(f"rulewright's setup draws chance ({exc.n} outcomes) that OpenSpiel does not") from exc
        _check_used(rng.forced, "setup")
        rw.rng.forced = None
        while True:
            if os_state.is_simultaneous_node():  # (every seat chooses at once: one decision)
                if move >= MAX_MOVES:
                    _compare_simultaneous(adapter, os_state, rw)
                    return None, move, True
                _play_simultaneous(adapter, os_state, rw, pick, history)
                move += 1
                continue
            mapped = _compare(adapter, os_state, rw, texts)
            if not mapped:
                return None, move, False
            if move >= MAX_MOVES:
                return None, move, True
            a = pick.choice(sorted(mapped))
            seat = int(os_state.current_player())
            os_text = os_state.action_to_string(seat, a)
            history.append(f"P{seat + 1} {os_text}")
            os_state.apply_action(a)
            drawn = _chance(os_state, pick, history)
            forced = _forced(adapter, drawn)
            rw.rng.forced = forced
            try:
                rw.apply(mapped[a])
            except ChanceNeeded as exc:
                raise _Differ(f"rulewright's move {mapped[a]} draws chance ({exc.n} outcomes) that OpenSpiel "
                              "does not") from exc
            except RulewrightError as exc:
                raise _Differ(f"rulewright's move {mapped[a]} fails: {exc}") from exc
            _check_used(forced, f"move {mapped[a]}")
            rw.rng.forced = None
            move += 1
    except _Differ as exc:
        return Mismatch(adapter.ruleset, adapter.openspiel, seed, move, tuple(history), exc.what), move, False


def run(adapter: Adapter, games: int, seed: int = 0, game: Game | None = None,
        stop_at_first: bool = True) -> Report:
    """`games` lockstep games, game n seeded `seed + n`; `game` replaces the rule set's own
    (a broken copy, compiled in memory)."""
    import pyspiel

    from ..loading import load

    rules = game if game is not None else load(adapter.ruleset)
    os_game = pyspiel.load_game(adapter.openspiel)
    report = Report(adapter.ruleset, adapter.openspiel)
    began = time.perf_counter()
    texts: dict[Action, str] = {}
    for n in range(games):
        mismatch, decisions, cut = play(adapter, seed + n, rules, os_game, texts)
        report.decisions += decisions
        if mismatch is not None:
            report.mismatches += 1
            if report.mismatch is None:
                report.mismatch = mismatch
            if stop_at_first:
                break
        elif cut:
            report.cut += 1
        else:
            report.games += 1
    report.seconds = time.perf_counter() - began
    return report


# -- the bundled classics' adapters -----------------------------------------------------------------
def read_field(state: State, name: str) -> Any:
    """A field of a rulewright state by its rule name, as the generated module holds it (a per-spot or
    per-player field: a sequence indexed by the entity's number; docs/language.md, "Values")."""
    return getattr(state, name)


def _hex_label(row: int, col: int) -> str:
    """rules/hex's label of OpenSpiel's cell (column `col`, row `row`, from 0): the row's letter
    and its place from the map's left edge (row r is shifted r characters: place col + r // 2 + 1)."""
    return f"{chr(ord('A') + row)}{col + row // 2 + 1}"


def _hex_action(text: str) -> str:
    # OpenSpiel's `c5`: column c, row 5 (from 1)
    return "place " + _hex_label(int(text[1:]) - 1, ord(text[0]) - ord("a"))


def _hex_openspiel(state: Any) -> Hashable:
    # `str(state)`: a line per row, `x` Black (seat 0), `o` White (seat 1), `.` empty
    seat = {"x": 0, "o": 1}
    cells = []
    for row, line in enumerate(str(state).splitlines()):
        for col, mark in enumerate(line.split()):
            if mark in seat:
                cells.append((_hex_label(row, col), seat[mark]))
    return tuple(sorted(cells))


def _hex_rulewright(state: State) -> Hashable:
    stones: Sequence[int | None] = read_field(state, "stone")
    return tuple(sorted((state.label("spot", s), p) for s, p in enumerate(stones) if p is not None))


def _dice_action(text: str) -> str:
    # OpenSpiel's `2-5` (two fives) or `Liar`
    if text == "Liar":
        return "liar"
    count, face = text.split("-")
    return f"bid {count} {face}"


def _dice_chance(text: str) -> tuple[str, Any]:
    # OpenSpiel's `Roll 4`
    return "die", int(text.split()[1])


def _dice_openspiel(state: Any) -> Hashable:
    # `str(state)`: every seat's dice, then the bids made (`1-3`), then `Liar` if called
    words = str(state).split()
    dice, bids = words[:2], [w for w in words[2:] if w != "Liar"]
    last = tuple(int(x) for x in bids[-1].split("-")) if bids else (0, 0)
    return tuple(int(d) for d in dice), last


def _dice_rulewright(state: State) -> Hashable:
    return tuple(read_field(state, "die_of")), (read_field(state, "bid_count"), read_field(state, "bid_face"))


def _grid_label(row: int, col: int) -> str:
    """A grid's label (docs/language.md, "Square grids") of the cell in row `row` (from 0, the
    bottom one) and column `col` (from 0, the left one): `a1` the bottom-left cell."""
    return f"{chr(ord('a') + col)}{row + 1}"


def _grid_rulewright(state: State, name: str) -> Hashable:
    """A per-spot `optional(player)` field of a grid, cell by cell: the cells holding a seat's piece."""
    held: Sequence[int | None] = read_field(state, name)
    return tuple(sorted((state.label("spot", s), p) for s, p in enumerate(held) if p is not None))


def _four_action(text: str) -> str:
    # OpenSpiel's `x3` (or `o3`): a disc into the column 3 from 0
    return f"drop {int(text[1:]) + 1}"


def _four_openspiel(state: Any) -> Hashable:
    # `str(state)`: a line per row, the top one first, `x` the first seat, `o` the second, `.` empty
    seat = {"x": 0, "o": 1}
    lines = str(state).split()
    cells = [(_grid_label(len(lines) - 1 - row, col), seat[mark])
             for row, line in enumerate(lines) for col, mark in enumerate(line) if mark in seat]
    return tuple(sorted(cells))


def _four_rulewright(state: State) -> Hashable:
    return _grid_rulewright(state, "disc")


def _breakthrough_action(text: str) -> str:
    # OpenSpiel's `b5c4`, a capture `b5c4*`: `b5-c4`, rulewright's text marking no capture
    return "-".join(re.findall(r"[a-z]+[0-9]+", text))


def _breakthrough_openspiel(state: Any) -> Hashable:
    # `str(state)`: a line per row, the top one first, its number then its cells (`b` the first
    # seat, `w` the second, `.` empty), then the column letters
    seat = {"b": 0, "w": 1}
    cells = []
    for line in str(state).splitlines():
        row = line[:1]
        if row.isdigit():
            cells += [(f"{chr(ord('a') + col)}{row}", seat[mark]) for col, mark in enumerate(line[1:]) if mark in seat]
    return tuple(sorted(cells))


def _breakthrough_rulewright(state: State) -> Hashable:
    return _grid_rulewright(state, "piece")


def _othello_action(text: str) -> str:
    # OpenSpiel's `d3` or `pass`: the same (rules/othello names the cells as OpenSpiel does)
    return text


def _othello_openspiel(state: Any) -> Hashable:
    # `str(state)`: a heading, the column letters, then a line per row (its number first and
    # last, `x` the first seat, `o` the second, `-` empty), then the letters again
    seat = {"x": 0, "o": 1}
    cells = []
    for line in str(state).splitlines():
        words = line.split()
        if words and words[0].isdigit():
            cells += [(f"{chr(ord('a') + col)}{words[0]}", seat[mark])
                      for col, mark in enumerate(words[1:-1]) if mark in seat]
    return tuple(sorted(cells))


def _othello_rulewright(state: State) -> Hashable:
    return _grid_rulewright(state, "disc")


ADAPTERS: dict[str, Adapter] = {
    "hex": Adapter("hex", "hex", _hex_action, _hex_openspiel, _hex_rulewright,
                   doc="the stones on the board, cell by cell"),
    "liars-dice": Adapter("liars-dice", "liars_dice", _dice_action, _dice_openspiel, _dice_rulewright,
                          chance=_dice_chance, doc="each seat's die and the last bid"),
    "connect-four": Adapter("connect-four", "connect_four", _four_action, _four_openspiel, _four_rulewright,
                            doc="the discs in the rack, cell by cell"),
    "breakthrough": Adapter("breakthrough", "breakthrough", _breakthrough_action, _breakthrough_openspiel,
                            _breakthrough_rulewright, doc="the pieces on the board, cell by cell"),
    "othello": Adapter("othello", "othello", _othello_action, _othello_openspiel, _othello_rulewright,
                       doc="the discs on the board, cell by cell"),
}

__all__ = ["ADAPTERS", "MAX_MOVES", "Adapter", "Mismatch", "Report", "play", "read_field", "rulewright_returns", "run"]


# -- classics3: Leduc poker and oshi-zumo ---------------------------------------------------------------
def _leduc_action(text: str) -> str:
    # OpenSpiel's `Fold`, `Call` (a check when nothing is owed) and `Raise`
    return text.lower()


def _leduc_chance(text: str) -> tuple[str, Any]:
    # OpenSpiel's `Chance outcome:3`: card 3 of 0 to 5 (rank = number // 2), rules/leduc-poker's card4
    return "draw", int(text.rsplit(":", 1)[1])


_LEDUC_STACK = 100  # OpenSpiel's chips per seat before the ante


def _leduc_openspiel(state: Any) -> Hashable:
    # `str(state)`: `Round: 1`, `Money (player_0 player_1): 99 99`, `Cards (public player_0
    # player_1): -10000 1 5` (-10000: not turned up yet); the money once over holds the pot won
    lines = dict(line.split(": ", 1) for line in str(state).splitlines() if ": " in line)
    public, *hands = (int(c) for c in lines["Cards (public player_0 player_1)"].split())
    money = None if state.is_terminal() else tuple(int(m) for m in lines["Money (player_0 player_1)"].split())
    return tuple(hands), (None if public < 0 else public), int(lines["Round"]), money


def _leduc_rulewright(state: State) -> Hashable:
    stakes: Sequence[int] = read_field(state, "stake")
    money = None if state.is_terminal() else tuple(_LEDUC_STACK - s for s in stakes)
    hands = tuple(hand[0] if hand else None for hand in read_field(state, "hand"))  # (a hand of one card)
    return hands, read_field(state, "public"), read_field(state, "betting_round"), money


ADAPTERS["leduc-poker"] = Adapter(
    "leduc-poker", "leduc_poker", _leduc_action, _leduc_openspiel, _leduc_rulewright, chance=_leduc_chance,
    doc="each seat's card, the public card, the betting round and each seat's money")


def _sumo_action(text: str) -> str:
    # OpenSpiel's `[P0]Bid: 7` (the seat, then the coins bid)
    return "bid " + text.rsplit(":", 1)[1].strip()


def _sumo_openspiel(state: Any) -> Hashable:
    # `str(state)`: `Coins: 47 46, Field: #..W....#`: the wrestler's cell, edge (`#`) to edge
    coins, field = str(state).strip().split(", ")
    cells = field.split(": ", 1)[1]
    return tuple(int(c) for c in coins.split(": ", 1)[1].split()), cells.index("W") - len(cells) // 2


def _sumo_rulewright(state: State) -> Hashable:
    return tuple(read_field(state, "coins")), read_field(state, "wrestler")


ADAPTERS["oshi-zumo"] = Adapter(
    "oshi-zumo", "oshi_zumo", _sumo_action, _sumo_openspiel, _sumo_rulewright,
    doc="each seat's coins and the wrestler's cell from the middle (simultaneous bids)")


# -- s8-backgammon: backgammon -----------------------------------------------------------------------
# OpenSpiel's "chance outcome 5 (roll: 41)" (or "chance outcome 4 X starts, (roll: 15)" first): the
# outcome's two dice, kChanceOutcomeValues[outcome], in its order. rules/backgammon rolls die(6)
# twice each turn, the first as OpenSpiel's first value; at the start the first seat's die first,
# which is OpenSpiel's second value: "X starts" exactly when the pair rises (outcomes 0, 2, ...:
# {1, 2}, {1, 3} ...), so the seat whose die is higher starts, as backgammon's rule says.
_BG_BAR, _BG_PASS = 100, -1  # OpenSpiel's kBarPos, kPassPos


def _bg_chance(text: str) -> list[tuple[str, Any]]:
    roll = re.search(r"\(roll: ([1-6])([1-6])\)", text)
    if roll is None:
        raise _Differ(f"OpenSpiel's chance outcome {text!r} is no roll of two dice")
    one, two = int(roll.group(1)), int(roll.group(2))
    return [("die", two), ("die", one)] if "starts" in text else [("die", one), ("die", two)]


def _bg_point(seat: int, pos: int) -> int:
    """rules/backgammon's point of OpenSpiel's position `pos` of `seat`: 25 the bar, else counted from
    the seat's own side (x, seat 0, moves from 0 to 23: its point 24 - pos; o from 23 to 0: pos + 1)."""
    return 25 if pos == _BG_BAR else (24 - pos if seat == 0 else pos + 1)


def _bg_actions_of(state: Any, seat: int, actions: Sequence[int]) -> list[str]:
    # OpenSpiel's action: two checker moves (position, pips), the first by the die it names first;
    # a position -1 moves nothing (a pass, or the second of an action moving one checker). What an
    # action moves depends on the seat and the dice only: each is read from OpenSpiel once.
    dice = _bg_dice(state)
    texts = []
    for action in actions:
        key = (seat, action, dice)
        text = _BG_TEXTS.get(key)
        if text is None:
            moves = [(m.pos, m.num) for m in state.spiel_move_to_checker_moves(seat, action) if m.pos != _BG_PASS]
            text = "move " + " then ".join(f"{_bg_point(seat, pos)} by {num}" for pos, num in moves) if moves \
                else "pass"
            _BG_TEXTS[key] = text
        texts.append(text)
    return texts


_BG_TEXTS: dict[tuple[int, int, tuple[int, int]], str] = {}  # at most 2 seats x 1352 actions x 21 rolls


def _bg_dice(state: Any) -> tuple[int, int]:
    # the observation's last two numbers: `dice_[0]`, `dice_[1]` (the lower first)
    tensor = state.observation_tensor(0)
    return int(tensor[-2]), int(tensor[-1])


def _bg_action(text: str) -> str:  # (not used: `actions_of` reads OpenSpiel's state)
    raise NotImplementedError(text)


def _bg_openspiel(state: Any) -> Hashable:
    # The observation tensor of seat 0 (x), "Section 3.4 of Tesauro": per point of x's, then of o's,
    # four numbers (one checker, two, three, and how many beyond three: then the first three are 0);
    # then x's bar, x's checkers borne off, x to move; o's three; the two dice (the lower first)
    tensor = [int(v) for v in state.observation_tensor(0)]
    counts = [one + 2 * two + 3 * three + (3 + more if more else 0) for one, two, three, more in
              zip(tensor[0:192:4], tensor[1:192:4], tensor[2:192:4], tensor[3:192:4], strict=True)]
    points = sorted((k % 24 + 1, k // 24, n) for k, n in enumerate(counts) if n)
    bar, off = (tensor[192], tensor[195]), (tensor[193], tensor[196])
    dice = () if state.is_terminal() else (tensor[198], tensor[199])
    return tuple(points), bar, off, dice


@functools.cache
def _bg_position(label: str) -> int:
    """OpenSpiel's position (0 to 23) of a spot of rules/backgammon's table: the top row (`a2` ...
    `l2`) its positions 12 to 23 from the left, the bottom row (`a1` ... `l1`) 11 down to 0."""
    column = ord(label[0]) - ord("a") + 1
    return 11 + column if label[1:] == "2" else 12 - column


def _bg_rulewright(state: State) -> Hashable:
    counts: Sequence[int] = read_field(state, "checkers")
    colours: Sequence[int | None] = read_field(state, "colour")
    labels = state.board.labels
    points = tuple((_bg_position(labels[s]) + 1, colours[s], n) for s, n in enumerate(counts) if n > 0)
    dice = () if state.is_terminal() else (read_field(state, "low_die"), read_field(state, "high_die"))
    return tuple(sorted(points)), tuple(read_field(state, "bar")), tuple(read_field(state, "borne_off")), dice


ADAPTERS["backgammon"] = Adapter(
    "backgammon", "backgammon", _bg_action, _bg_openspiel, _bg_rulewright, chance=_bg_chance,
    actions_of=_bg_actions_of,
    doc="the checkers on each point, on the bar and borne off, and the dice")
