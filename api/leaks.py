"""`rulewright leaks RULESET`: does a rule set let a seat learn what it may not see?

In states sampled from seeded random games, everything a seat may not see is drawn again,
consistently with what it sees (`State.sample_unseen`, runtime/unseen.py). The seat's
observation must not change, nor its legal actions when it is to act: a guard or a choice that
reads another player's hidden hand, or a `shown_if` that reads a face-down pile, shows the seat
something of what is hidden. Each such field is reported with the line it is declared at, and
what changed with the rule lines concerned (the actions that came or went, the fields shown
otherwise). A change that no one field makes alone is reported for the fields changed together.

A move's text is checked too, as each other seat reads it (`State.move_text`: `play`'s
transcript, the web board's history): in the state and in the samples of what that seat does
not see, some of the moves the seat to act could make are played; two moves of one action
after which the other seat sees the same (under several draws of chance) but whose texts it
reads otherwise tell it what the moves hide (a card laid face down named in its text): reported
with the action's line, to be given an
`others_text:` (docs/language.md). A move that ends the game is left out (at the end everyone
reads every text). The answers given in such a move (the first answer to each question, as
above) are compared the same way: in two of the worlds, the first answers the seat reads of one
question must not differ while all it sees stays the same, or the answer's text names what it
may not see (a card chosen from a hidden hand): reported with the action whose move asks, to be
asked `secretly`. In a simultaneous decision, what the other seats chose already is drawn
again in the samples: a view that shows it is reported as "choices in phase <name>". What the
move tells everyone (`tell "..."`, State.told, after the move and
after each of those answers) is compared alike: two moves after which the seat sees the same but
is told otherwise tell it what it may not see (reported as "told text", with the action whose
move tells it). Two answers to one question in one world are not compared with each other: a
state does not keep all that an answer shows everyone (the side a seat's soldiers supported,
once the war is over), so two answers read otherwise may leave the same state. Not compared: the
answers to a question asked in the setup or in a seat's own move, and to one waiting in the
state checked (its samples keep the choices it was asked with).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table
from rich.text import Text

from .runtime.rng import Rng, derive_seed
from .runtime.state import Game, State
from .runtime.unseen import Unseen

SAMPLE_EVERY = 5  # a state of each game is checked every so many moves
SAMPLES = 2  # samples drawn per seat and state
MAX_MOVES = 400  # moves played per game at most
AGENT_SALT = 0x1EA4  # the random moves of the games played, seeded apart from the games'
MOVES_TRIED = 16  # moves of the seat to act played per state and sample to compare their texts
CHANCES = 8  # two moves that look alike after one draw of chance are compared under so many
CHANCE_SALT = 0x7E47
MAX_ANSWERS = 64  # answers given at most to finish a move whose text is compared


@dataclass
class Leak:
    """One field whose hidden value shows in what a seat sees (or, shown in "move text", one
    action whose text names what its move hides)."""

    field: str  # the field (or the action)
    declared: str  # file:line of the field's (or the action's) declaration
    seat: int  # from 0
    shows_in: str  # "legal actions" or "observation"
    detail: str  # what changed
    rules: list[str]  # the rule lines concerned: `path (file:line)`
    game: int
    seed: int
    move: int

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "declared": self.declared, "seat": self.seat + 1, "shows_in": self.shows_in,
                "detail": self.detail, "rules": self.rules, "game": self.game, "seed": self.seed, "move": self.move}


@dataclass
class LeakReport:
    ruleset: str
    players: int
    seed: int
    options: dict[str, str]
    games: int = 0
    states: int = 0
    samples: int = 0
    hidden_fields: list[str] = field(default_factory=list)  # the fields some seat did not see, in some state
    leaks: list[Leak] = field(default_factory=list)  # the first of each field and place it shows in
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "players": self.players, "seed": self.seed, "options": self.options,
                "games": self.games, "states": self.states, "samples": self.samples,
                "hidden_fields": self.hidden_fields, "leaks": [leak.to_json() for leak in self.leaks],
                "errors": self.errors}


def _with_fields(state: State, sample: State, names: list[str]) -> State:
    """`state` with the values of `names` taken from `sample` (and nothing else)."""
    mixed = state.clone()
    for name in names:
        value = getattr(sample, name)
        setattr(mixed, name, list(value) if isinstance(value, list) else value)
    mixed._fields_set()
    mixed._legal_cache = None
    mixed._derived = None
    return mixed


def _rule(game: Game, path: str) -> str:
    where = game.info.rules.get(path)
    return f"{path} ({where})" if where else path


def _what_changed(game: Game, state: State, other: State, seat: int) -> tuple[str, str, list[str]] | None:
    """Where `other` shows `seat` something else than `state`: (in what, what, the rule lines)."""
    try:
        seen, seen_other = state.observation(seat), other.observation(seat)
    except Exception as fault:  # noqa: BLE001 - a changed state the rules cannot read is a change too
        return "observation", f"cannot be made ({type(fault).__name__}: {fault})", []
    if seen != seen_other:
        fields = sorted(set(seen["fields"]) | set(seen_other["fields"]))
        differ = [f for f in fields if seen["fields"].get(f) != seen_other["fields"].get(f)]
        if not differ:
            differ = [k for k in seen if k != "fields" and seen[k] != seen_other.get(k)]
        return ("observation", "shows otherwise " + ", ".join(f"`{f}`" for f in differ),
                [_rule(game, f"state.{f}") for f in differ if f"state.{f}" in game.info.rules])
    if state.to_act() != seat:
        return None
    try:
        legal, legal_other = state.legal_actions(), other.legal_actions()
    except Exception as fault:  # noqa: BLE001 - the same
        return "legal actions", f"cannot be listed ({type(fault).__name__}: {fault})", []
    if [str(a) for a in legal] == [str(a) for a in legal_other]:
        return None
    shown, shown_other = {str(a) for a in legal}, {str(a) for a in legal_other}
    came = [a for a in legal_other if str(a) not in shown]
    went = [a for a in legal if str(a) not in shown_other]
    texts = [t for t in (f"{len(came)} more: {', '.join(str(a) for a in came[:3])}" if came else "",
                         f"{len(went)} fewer: {', '.join(str(a) for a in went[:3])}" if went else "") if t]
    rules = []
    both = {a.name for a in legal} & {a.name for a in legal_other}
    for name in sorted({a.name for a in came + went}):
        # an action that came or went as a whole: its guard (if it has one); else its choices
        guard = f"actions.{name}.when"
        path = guard if name not in both and guard in game.info.rules else f"actions.{name}.choose"
        if path in game.info.rules:
            rules.append(_rule(game, path))
    return "legal actions", "; ".join(texts) or "listed in another order", rules


def _seen_after(world: State, action: Any, seat: int,
                chance: int) -> tuple[str, State, tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """What `seat` sees once `action` is played in a copy of `world` with chance drawn `chance`,
    and after each answer until the move it is part of is over: a move that waits for an answer
    has done only part of what everyone sees of it (Chang Cheng's double section asks for a
    peek between its two spaces), so the first answer is given to each question; and the texts
    `seat` reads of those answers; and what the move and each answer told everyone (State.told)."""
    after = world.clone()
    after.rng = Rng(derive_seed(CHANCE_SALT, chance))
    after.apply(action)
    seen = [after.observation(seat)]
    told = [tuple(after.told())]
    answers: list[str] = []
    for _ in range(MAX_ANSWERS):
        if after._pending is None:
            break
        asked = after.to_act()
        answer = after.legal_actions()[0]
        answers.append(after.move_text(answer, seat, asked))
        after.play(0)
        seen.append(after.observation(seat))
        told.append(tuple(after.told()))
    return json.dumps(seen, sort_keys=True, default=str), after, tuple(answers), tuple(told)


def _game_of(state: State) -> dict[str, Any]:
    """A state as saved but for its generator of chance (a sample's differs by design)."""
    return {key: value for key, value in state.to_json().items() if key not in ("rng", "seed")}


def _move_texts(game: Game, worlds: list[State], seat: int,
                rng: Rng) -> tuple[str, str, tuple[str, str, list[str]]] | None:
    """Two moves of one action of the seat to act, in `worlds` (the state and samples of what
    `seat` does not see), after which `seat` sees the same but reads their texts otherwise, if
    any: the action, where it is declared, and what
    `_what_changed` says. (Two actions are told apart by their names: chance or a short deck
    can leave public moves of different actions looking alike to a seat, as China's face-up
    card taken and the top card drawn when the card that replaces it is the same.)"""
    # an action and what the seat sees after it -> its text, the texts of the answers, world, move
    read: dict[str, tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...], State, Any]] = {}
    for world in worlds:
        actor = world.to_act()
        if actor is None or actor == seat or world._pending is not None:  # (answers: after the move asking)
            continue
        legal = world.legal_actions()
        tried = legal if len(legal) <= MOVES_TRIED else [legal[rng.below(len(legal))] for _ in range(MOVES_TRIED)]
        for action in tried:
            seen, after, answers, told = _seen_after(world, action, seat, 0)
            if after.is_terminal():  # (at the end everyone reads every text)
                continue
            texts = (world.move_text(action, seat, actor), after.move_text(action, seat, actor))
            if world.is_simultaneous():  # a choice made at once with others is read once made (State.move_text)
                texts = (texts[1], texts[1])
            text = texts[0] if texts[0] == texts[1] else f"{texts[0]}` (then `{texts[1]})"
            other_text, other_answers, other_told, other_world, other = read.setdefault(
                f"{action.name} {seen}", (text, answers, told, world, action))
            if other_text == text and other_answers == answers and other_told == told:
                continue
            # two public moves that chance left looking alike once are told apart under other draws
            if any(_seen_after(world, action, seat, k)[0] != _seen_after(other_world, other, seat, k)[0]
                   for k in range(1, CHANCES)):
                continue
            # two moves of one position (the same game before and after, a sample of what the seat
            # does not see that holds nothing else too) told apart only by how the mover chose
            # (backgammon's two checkers, played in either order): the text names that choice,
            # nothing the seat does not see
            if other_answers == answers and other_told == told and _game_of(other_world) == _game_of(world) \
                    and _game_of(after) == _game_of(_seen_after(other_world, other, seat, 0)[1]):
                continue
            path = f"actions.{action.name}"
            rules = [_rule(game, path)] if path in game.info.rules else []
            if other_text != text:
                same = f"`{other_text}` and `{text}` leave P{seat + 1} seeing the same, but it reads them otherwise"
                return action.name, game.info.rules.get(path, "?"), (
                    "move text", f"{same}: give `{action.name}` an `others_text:`", rules)
            if other_answers == answers:  # (what the moves told differs)
                one, two = next(("; ".join(a), "; ".join(b)) for a, b in zip(other_told, told, strict=False) if a != b)
                same = (f"moves of `{action.name}` told `{one}` and `{two}` and leave P{seat + 1} seeing the same: "
                        "what is told everyone names what it may not see")
                return action.name, game.info.rules.get(path, "?"), (
                    "told text", f"{same}: tell only what every seat sees", rules)
            one, two = next((a, b) for a, b in zip(other_answers, answers, strict=True) if a != b)
            name = one.split(" ", 1)[0]
            same = (f"the answers `{one}` and `{two}` (in moves of `{action.name}`) leave P{seat + 1} seeing the "
                    "same, but it reads them otherwise")
            return name, game.info.rules.get(path, "?"), ("answer text", f"{same}: ask `{name}` `secretly`", rules)
    return None


def check_state(game: Game, state: State, rng: Rng, report: LeakReport, where: tuple[int, int, int]) -> None:
    """Every seat of one state: samples of what it does not see, compared with the state; and
    the texts it reads of the moves the seat to act could make there."""
    for seat in range(state.num_players):
        unseen = Unseen(state, seat).fields()
        report.hidden_fields.extend(n for n in unseen if n not in report.hidden_fields)
        worlds = [state]
        for _ in range(SAMPLES):
            sample = state.sample_unseen(seat, rng)
            worlds.append(sample)
            report.samples += 1
            changed = _what_changed(game, state, sample, seat)
            if changed is None:
                continue
            moved = [n for n in unseen if getattr(sample, n) != getattr(state, n)]
            if not moved and _choices(sample, seat) != _choices(state, seat):  # what the others chose at once
                phase = state.PHASES[state.phase]
                _add(report, game, f"choices in phase {phase}", seat, changed, where, together=[],
                     declared=game.info.rules.get(f"phases.{phase}.simultaneous", "?"))
                continue
            blamed = [n for n in moved if _what_changed(game, state, _with_fields(state, sample, [n]), seat)]
            for name in blamed or moved:
                alone = _what_changed(game, state, _with_fields(state, sample, [name]), seat) if blamed else changed
                assert alone is not None
                _add(report, game, name, seat, alone, where, together=[] if blamed else moved)
        texts = _move_texts(game, worlds, seat, rng)
        if texts is not None:  # (reported as the action, declared where it is)
            _add(report, game, texts[0], seat, texts[2], where, together=[], declared=texts[1])


def _choices(state: State, seat: int) -> list[tuple[int, str]]:
    """What the other seats chose in the simultaneous decision now (docs/language.md, "Simultaneous
    decisions"), which `seat` may know were made but not what they are."""
    return [(p, str(a)) for p in range(state.num_players) if p != seat
            for a in (state.chosen_by(p),) if a is not None]


def _add(report: LeakReport, game: Game, name: str, seat: int, changed: tuple[str, str, list[str]],
         where: tuple[int, int, int], together: list[str], declared: str | None = None) -> None:
    shows_in, detail, rules = changed
    if any(leak.field == name and leak.shows_in == shows_in for leak in report.leaks):
        return
    if together:
        detail += " (with " + ", ".join(f"`{n}`" for n in together if n != name) + " changed together)"
    report.leaks.append(Leak(name, declared or game.info.rules.get(f"state.{name}", "?"), seat, shows_in,
                             detail, rules, *where))


def find_leaks(game: Game, games: int, seed: int = 0, players: int | None = None,
               options: Mapping[str, str] | None = None, advance: Callable[[], None] = lambda: None) -> LeakReport:
    """Plays `games` seeded random games and checks every seat in a state every few moves."""
    count = game.info.players[0] if players is None else players
    chosen = game.resolve_options(options)
    report = LeakReport(game.info.ruleset, count, seed, chosen)
    for index in range(games):
        game_seed = derive_seed(seed, index)
        state = game.new_state(count, game_seed, chosen)
        moves = Rng(game_seed ^ AGENT_SALT)
        samples = Rng(derive_seed(game_seed, 1))
        try:
            for move in range(MAX_MOVES):
                if state.is_terminal():
                    break
                if move % SAMPLE_EVERY == index % SAMPLE_EVERY:
                    check_state(game, state, samples, report, (index, game_seed, move))
                    report.states += 1
                legal = state.legal_actions()
                state.apply(legal[moves.below(len(legal))])
        except Exception as fault:  # noqa: BLE001 - a game that fails is reported, the others go on
            report.errors.append(f"game {index} (seed {game_seed}): {type(fault).__name__}: {fault}")
        report.games += 1
        advance()
    order = [f.name for f in game.state_class.FIELDS]
    report.hidden_fields.sort(key=order.index)
    return report


def report_json(report: LeakReport) -> str:
    return json.dumps(report.to_json(), indent=2)


def leak_tables(report: LeakReport) -> list[Table]:
    """The report as rich tables: what was checked, then each leak (texts never read as markup)."""
    checked = Table(title=Text(f"leaks: {report.ruleset}, {report.players} players"), show_header=False)
    checked.add_column("what")
    checked.add_column("value", justify="right")
    checked.add_row("games played (random)", str(report.games))
    checked.add_row("states checked", str(report.states))
    checked.add_row("samples of the unseen", str(report.samples))
    checked.add_row("fields some seat does not see", Text(", ".join(report.hidden_fields) or "none"))
    checked.add_row("games that failed", str(len(report.errors)))
    checked.add_row("leaks", str(len(report.leaks)) if report.leaks else "none found")
    tables = [checked]
    if report.leaks:
        found = Table(title="what a seat may not see, shown by the rules")
        for column in ("hidden field", "declared at", "shows in", "what changed", "rule lines", "first seen"):
            found.add_column(column, overflow="fold")
        for leak in report.leaks:
            found.add_row(Text(leak.field), Text(leak.declared), leak.shows_in, Text(leak.detail),
                          Text("\n".join(leak.rules) or "-"),
                          Text(f"game {leak.game}, move {leak.move}, P{leak.seat + 1}"))
        tables.append(found)
    return tables
