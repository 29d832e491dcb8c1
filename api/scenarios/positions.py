"""Positions and values in a rule set's own vocabulary: players by name (`seat_of`), field values
given by their names (`field_values`, auctions too), the chance a scenario fixes
(`chance_outcomes`, `force`), a scenario's position set up on a state (`apply_position`), and
values shown back as a scenario writes them (`shown_value`, `named_value`)."""

from __future__ import annotations

from typing import Any

from ..core.load import YMap, YNode, YScalar, YSeq
from ..core.scenario_keys import AUCTION_KEYS, CHANCE_KINDS
from ..core.source import SourceSpan, did_you_mean
from ..runtime.auction import NOBODY, Auction
from ..runtime.errors import RulewrightError, is_int, whole_number
from ..runtime.state import FieldInfo, Game, State, field_type
from ..runtime.state import _parse_type as parse_saved_type
from .model import Problems, Scenario, text_of


def seat_of(p: Problems, s: Scenario, node: YNode, players: int, neutral_ok: bool = False) -> int | None:
    """The seat a player's name (or `P2`) stands for; with `neutral_ok`, a neutral seat's name
    (`emperor`) too: it owns pieces in field values, but never acts nor scores."""
    text = text_of(p, node)
    if text is None:
        return None
    names = list(s.names[:players])
    if text in names:
        return names.index(text)
    neutral = list(s.game.state_class.NEUTRAL) if s.game is not None else []
    if neutral_ok and text in neutral:
        return players + neutral.index(text)
    seat = whole_number(text[1:]) if text.upper().startswith("P") else None
    if seat is not None and 1 <= seat <= players:
        return seat - 1
    p.error(node.span, f"no player `{text}`", did_you_mean(text, names) or f"players: {', '.join(names)}")
    return None


def seat_name(s: Scenario, seat: int) -> str:
    """The scenario's name for a seat (`P3` past its names)."""
    return s.names[seat] if seat < len(s.names) else f"P{seat + 1}"


def player_count(s: Scenario, game: Game) -> int:
    return s.players if s.players is not None else game.info.players[0]


def _value(p: Problems, s: Scenario, info: FieldInfo, node: YNode, state: State) -> Any:
    """A field value (of one entity, for a per-entity field) from its names in the rule set's
    vocabulary, in the one representation a game holds (docs/language.md, "Values"): a list a
    tuple, a set a frozenset, items too, by the field's declared type."""
    return _typed(p, s, info, field_type(info), node, state)


def _typed(p: Problems, s: Scenario, info: FieldInfo, t: Any, node: YNode, state: State) -> Any:
    kind = t.kind
    if kind == "optional":  # `none` (or YAML's null) for an optional holding nothing
        if isinstance(node, YScalar) and (node.value is None or node.value == "none"):
            return None
        return _typed(p, s, info, t.elem, node, state)
    if kind == "item" and t.name in state.RECORDS:  # a record: a mapping of its fields
        fields = state.RECORDS[t.name]
        if not isinstance(node, YMap):
            p.error(node.span, f"`{info.name}` holds {t.name} records: give a mapping of "
                    f"{', '.join(name for name, _ in fields)}")
            return None
        given = {str(k.value): v for k, v in node.items}
        for k, _ in node.items:
            if str(k.value) not in dict(fields):
                p.error(k.span, f"record `{t.name}` has no field `{k.value}`", did_you_mean(str(k.value), dict(fields)))
        missing = [name for name, _ in fields if name not in given]
        if missing:
            p.error(node.span, f"record `{t.name}` needs {', '.join(f'`{m}`' for m in missing)}")
            return None
        before = len(p.list)
        values = [_typed(p, s, info, parse_saved_type(ty), given[name], state) for name, ty in fields]
        return None if len(p.list) > before else tuple(values)  # (a field may be `none`)
    if kind in ("list", "set") and t.elem is not None:
        if not isinstance(node, YSeq):
            p.error(node.span, f"`{info.name}` is a {info.kind}: give a list")
            return None
        items = [_typed(p, s, info, t.elem, x, state) for x in node.items]
        if any(i is None for i in items):
            return None
        if kind == "set":
            if len(set(items)) != len(items):
                p.error(node.span, f"`{info.name}` is a set: an item is given twice")
            return frozenset(items)
        return tuple(items)
    if kind == "int":
        if isinstance(node, YScalar) and is_int(node.value):
            return node.value
        p.error(node.span, f"`{info.name}` holds whole numbers")
        return None
    if kind == "bool":
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            return node.value
        p.error(node.span, f"`{info.name}` holds true or false")
        return None
    text = text_of(p, node)
    if text is None:
        return None
    if kind == "str":
        return text
    if kind != "item":
        p.error(node.span, f"`{info.name}` cannot be given in a position")
        return None
    if t.name == "player":
        return seat_of(p, s, node, state.num_players, neutral_ok=True)
    names = list(state._labels(t.name))
    if text in names:
        return names.index(text)
    what = "value" if t.name in state.ENUMS else t.name
    p.error(node.span, f"no {what} `{text}` for `{info.name}`", did_you_mean(text, names) or
            f"one of: {', '.join(names[:12])}{', ...' if len(names) > 12 else ''}")
    return None


def entity_index(p: Problems, s: Scenario, info: FieldInfo, node: YScalar, state: State) -> int | None:
    if info.per == "player":
        return seat_of(p, s, node, state.num_players, neutral_ok=True)
    labels = list(state._labels(info.per or ""))
    text = str(node.value)
    if text in labels:
        return labels.index(text)
    p.error(node.span, f"no {info.per} `{text}`", did_you_mean(text, labels))
    return None


def field_values(p: Problems, s: Scenario, info: FieldInfo, node: YNode, state: State,
                  partial: bool) -> dict[int, Any] | Any | None:
    """A per-entity field: {entity: value}, with `others:` and grouped `value: [entities]`
    forms (grouping only for enum fields). A plain field: its value."""
    if info.kind == "auction" and info.per is None:
        return _auction(p, s, info, node, state, partial)
    if info.per is None:
        return _value(p, s, info, node, state)
    count = len(getattr(state, info.name))
    if isinstance(node, YSeq) and info.per == "player":
        if len(node.items) != count:
            p.error(node.span, f"`{info.name}` has one value per player: give {count}")
            return None
        values = [_value(p, s, info, x, state) for x in node.items]
        return None if any(v is None for v in values) else dict(enumerate(values))
    if not isinstance(node, YMap):
        p.error(node.span, f"`{info.name}` has one value per {info.per}: give a mapping")
        return None
    if not node.items:  # (a key with no effect is an error, not a silent no-op)
        p.error(node.span, f"`{info.name}: {{}}` gives no {info.per} a value: it has no effect",
                f"leave `{info.name}` out")
    out: dict[int, Any] = {}
    given: dict[int, SourceSpan] = {}
    value_names = state.ENUMS.get(info.element, ()) if info.kind == "enum" else ()
    others: Any = None
    others_key: YScalar | None = None
    owners = _owner_names(s, info, state)
    grouped: dict[int, list[int]] = {}  # by owner: each entity's owners, in the order given
    for key, value in node.items:
        label = str(key.value)
        if isinstance(value, YSeq) and not value.items and (label in owners or label in value_names):
            p.error(value.span, f"`{label}: []` names no {info.per}: it has no effect", f"leave `{label}` out")
            continue
        if label in ("others", "rest"):
            before = len(p.list)
            others = _value(p, s, info, value, state)  # (None for an optional's `none` too)
            others_key = key if len(p.list) == before else None
            continue
        if label in owners and isinstance(value, YSeq):  # `{Alex: [Chu1, Chu2]}`: Alex's spots
            seat = owners[label]
            for x in value.items:
                index = entity_index(p, s, info, x, state) if isinstance(x, YScalar) else None
                if index is None:
                    continue
                if index in given or (info.kind == "entity" and index in grouped):
                    p.error(x.span, f"{info.per} `{label_of(state, info, index)}` is given two values for "
                            f"`{info.name}`", f"first at line {given.get(index, x.span).line}")
                    continue
                if seat in grouped.setdefault(index, []):
                    p.error(x.span, f"{info.per} `{label_of(state, info, index)}` is given to {label} twice")
                    continue
                grouped[index].append(seat)
            continue
        if label in value_names and isinstance(value, YSeq):
            v = value_names.index(label)
            members = [
                (entity_index(p, s, info, x, state) if isinstance(x, YScalar) else None, x) for x in value.items
            ]
        else:
            index = entity_index(p, s, info, key, state)
            members = [(index, key)]
            v = _value(p, s, info, value, state)
        for index, where in members:
            if index is None:
                continue
            if index in given:
                p.error(where.span, f"{info.per} `{label_of(state, info, index)}` is given two values for "
                        f"`{info.name}`", f"first at line {given[index].line}")
                continue
            given[index] = where.span
            out[index] = v
    for index, seats in grouped.items():
        if index in out:
            p.error(node.span, f"{info.per} `{label_of(state, info, index)}` is given two values for `{info.name}`")
            continue
        given[index] = node.span
        out[index] = (seats[0] if info.kind == "entity" else frozenset(seats) if info.kind == "set"
                      else tuple(seats))
    if others_key is not None and len(out) == count:  # (a key with no effect is an error, not a silent no-op)
        p.error(others_key.span, f"`{others_key.value}:` stands for no {info.per} of `{info.name}`: every one is "
                "given", f"leave `{others_key.value}:` out")
    if others_key is not None:  # in a position and in an expectation alike: every entity not named
        for i in range(count):
            out.setdefault(i, others)
    return out


def _owner_names(s: Scenario, info: FieldInfo, state: State) -> dict[str, int]:
    """For a per-entity field whose values are players or lists or sets of players (`palace_of`),
    the names a position may group its entities by (`{Alex: [Chu1, Chu2]}`): each player's name
    (and `P1` ...) and each neutral seat's, unless it is also the name of an entity of the field."""
    if info.element != "player" or info.kind not in ("entity", "list", "set") or info.per == "player":
        return {}
    labels = set(state._labels(info.per or ""))
    seats = {name: i for i, name in enumerate(s.names[:state.num_players])}
    seats.update({f"P{i + 1}": i for i in range(state.num_players)})
    seats.update({name: state.num_players + i for i, name in enumerate(state.NEUTRAL)})
    return {name: seat for name, seat in seats.items() if name not in labels}


def _auction(p: Problems, s: Scenario, info: FieldInfo, node: YNode, state: State,
             partial: bool) -> Auction | dict[str, Any] | None:
    """An auction, written as a mapping: `bidders` (turn order; default every seat in seat
    order), `bidder` (to act; default the first still in), `in` (default every bidder),
    `high_bid` (default 0), `high_bidder` (a player or none, the default), `minimum` and `step`
    (required in a position). An expectation (`partial`) checks only the keys it gives, as a
    dict of raw values; `over` may only be expected."""
    if not isinstance(node, YMap):
        p.error(node.span, f"`{info.name}` is an auction: give a mapping of {', '.join(AUCTION_KEYS)}")
        return None
    given: dict[str, Any] = {}
    players = state.num_players
    problems_before = len(p.list)

    def seats(value: YNode) -> list[int] | None:
        if not isinstance(value, YSeq):
            p.error(value.span, "give a list of players")
            return None
        found = [seat_of(p, s, x, players, neutral_ok=True) for x in value.items]
        return None if any(x is None for x in found) else [x for x in found if x is not None]

    for key, value in node.items:
        name = str(key.value)
        if name not in AUCTION_KEYS or (name == "over" and not partial):
            p.error(key.span, f"unknown key `{name}` of an auction",
                    did_you_mean(name, AUCTION_KEYS) or f"keys: {', '.join(AUCTION_KEYS[:-1])}")
        elif name in ("bidders", "in"):
            listed = seats(value)
            if listed is not None:
                given[name] = tuple(listed) if name == "bidders" else frozenset(listed)
        elif name in ("bidder", "high_bidder"):
            if isinstance(value, YScalar) and value.value in (None, "none"):
                given[name] = NOBODY
            else:
                seat = seat_of(p, s, value, players)
                if seat is not None:
                    given[name] = seat
        elif isinstance(value, YScalar) and is_int(value.value):
            given[name] = value.value
        elif name == "over" and isinstance(value, YScalar) and isinstance(value.value, bool):
            given[name] = value.value
        else:
            p.error(value.span, f"`{name}` of an auction is {'true or false' if name == 'over' else 'a whole number'}")
    if partial:
        if not node.items:
            p.error(node.span, f"`{info.name}: {{}}` checks nothing",
                    f"give the keys checked: {', '.join(AUCTION_KEYS)}")
        return given
    for required in ("minimum", "step"):
        if required not in given:
            p.error(node.span, f"an auction in a position needs `{required}`")
    if len(p.list) > problems_before:
        return None
    bidders: tuple[int, ...] = given.get("bidders", tuple(range(players)))
    still_in: frozenset[int] = given.get("in", frozenset(bidders))
    if not still_in <= set(bidders):
        p.error(node.span, "`in` must list bidders of the auction")
        return None
    bidder = given.get("bidder", next((q for q in bidders if q in still_in), NOBODY))
    if bidder not in still_in:
        p.error(node.span, "the `bidder` to act must be one of those still `in`")
        return None
    return Auction(bidders, bidders.index(bidder), still_in, given.get("high_bid", 0),
                   given.get("high_bidder", NOBODY), given["minimum"], given["step"])


def auction_raw(a: Auction) -> dict[str, Any]:
    return {"bidders": a.bidders, "bidder": a.to_act, "in": a.still_in, "high_bid": a.high_bid,
            "high_bidder": a.high_bidder, "minimum": a.minimum, "step": a.step, "over": a.over}


def auction_shown(key: str, value: Any, names: tuple[str, ...]) -> Any:
    if key in ("bidder", "high_bidder"):
        return "none" if value == NOBODY else names[value]
    if key == "bidders":
        return [names[v] for v in value]
    if key == "in":
        return sorted(names[v] for v in value)
    return value


def label_of(state: State, info: FieldInfo, index: int) -> str:
    return state.label(info.per or "", index)


def invariants_broken(state: State) -> list[str]:
    """The invariants `state` breaks, by name; an invariant that cannot be evaluated on it (a
    fault of the rules on this position) counts as broken, with the error."""
    try:
        return state.broken_invariants()
    except RulewrightError as exc:
        return [f"(cannot be told: {exc})"]


def fresh_state(s: Scenario, game: Game) -> State:
    options = {k: v for k, v in s.options.items() if k in {o.name for o in game.info.options}}
    try:
        return game.new_state(player_count(s, game), s.seed, options)
    except RulewrightError:
        return game.new_state(game.info.players[0], s.seed, {})


def apply_position(s: Scenario, state: State) -> str | None:
    """Set up the scenario's position on `state`; returns why the position is not what it says
    (its `to_act:` is not the seat that decides, `state.to_act()`), or None."""
    if s.position is None:
        return None
    p = Problems()
    fields = {f.name: f for f in state.FIELDS}
    to_act: int | None = None
    for key, value in s.position.items:
        name = str(key.value)
        if name == "to_act":  # whose turn it is; a phase's `actor:` may name another seat: checked below
            seat = seat_of(p, s, value, state.num_players)
            if seat is not None:
                state.current = to_act = seat
        elif name == "phase":
            state.phase = state.PHASES.index(str(value.value)) if isinstance(value, YScalar) else state.phase
        elif name == "chance":
            force(state, chance_outcomes(p, s, value, state))
        elif name in fields:
            info = fields[name]
            values = field_values(p, s, info, value, state, partial=False)
            if info.per is None:
                setattr(state, name, values)
            elif isinstance(values, dict):
                current = list(getattr(state, name))
                for i, v in values.items():
                    current[i] = v
                setattr(state, name, current)
    state._fields_set()  # (what the optimiser keeps, made again from the fields: docs/optimiser.md)
    state._legal_cache = None
    state._derived = None
    state._pending = None  # a position is between moves: no seat is asked anything (docs/scenarios.md)
    try:  # the end is tested after every move: a position in which it holds is a game over
        state.terminal = state._is_over()
    except Exception as exc:  # noqa: BLE001 - the rule set's `end:` failing on this position
        return f"position: whether the game is over cannot be told ({type(exc).__name__}: {exc})"
    if to_act is not None:
        try:
            deciding = state.to_act()
        except Exception as exc:  # noqa: BLE001 - a phase's `actor:` failing on this position
            return f"position: who is to act cannot be told ({type(exc).__name__}: {exc})"
        if deciding != to_act:
            actual = "nobody (the game is over)" if deciding is None else seat_name(s, deciding)
            return (f"position: `to_act: {seat_name(s, to_act)}`, but {actual} decides in phase "
                    f"`{state.PHASES[state.phase]}` (its `actor:`); set the fields that make "
                    f"{seat_name(s, to_act)} the actor")
    return None


# -- Chance a scenario fixes (docs/scenarios.md, "Fixing chance") --------------------------------

def chance_outcomes(p: Problems, s: Scenario, node: YNode, state: State) -> dict[str, list[tuple[Any, str]]]:
    """The outcomes a `chance:` mapping forces, per kind of chance, in the game's representation
    with the words the scenario used: `{die: [4, 3], throw: [5], coin: [true], draw: [tile10]}`."""
    out: dict[str, list[tuple[Any, str]]] = {}
    if not isinstance(node, YMap):
        p.error(node.span, "`chance:` maps kinds of chance to the outcomes to come, in order",
                f"kinds: {', '.join(CHANCE_KINDS)}; e.g. `chance: {{die: [4]}}`")
        return out
    if not node.items:
        p.error(node.span, "`chance: {}` forces nothing",
                f"kinds: {', '.join(CHANCE_KINDS)}; e.g. `chance: {{die: [4]}}`")
    for key, value in node.items:
        kind = str(key.value)
        if kind not in CHANCE_KINDS:
            p.error(key.span, f"no kind of chance `{kind}`",
                    did_you_mean(kind, CHANCE_KINDS) or f"kinds: {', '.join(CHANCE_KINDS)}")
            continue
        queue = out.setdefault(kind, [])
        if isinstance(value, YSeq) and not value.items:
            p.error(value.span, f"`{kind}: []` forces nothing", f"give the outcomes to come, e.g. `{kind}: "
                    f"[{'true' if kind == 'coin' else 'tile20' if kind == 'draw' else '4'}]`, or leave `{kind}` out")
        for item in value.items if isinstance(value, YSeq) else [value]:
            outcome = _outcome(p, s, kind, item, state)
            if outcome is not None:
                queue.append(outcome)
    return out


def _outcome(p: Problems, s: Scenario, kind: str, node: YNode, state: State) -> tuple[Any, str] | None:
    number = isinstance(node, YScalar) and is_int(node.value)
    if kind == "die":
        if number and isinstance(node, YScalar) and isinstance(node.value, int) and node.value >= 1:
            return node.value, str(node.value)
        p.error(node.span, "a forced die is the face it shows, a whole number from 1")
        return None
    if kind == "coin":
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            return node.value, str(node.value).lower()
        p.error(node.span, "a forced coin is true or false")
        return None
    if kind == "throw":
        if number and isinstance(node, YScalar):
            return node.value, str(node.value)
        if isinstance(node, YMap):  # the face of each die thrown: {t01: 1, t02: 0, t12: 2}
            faces: dict[int, int] = {}
            for k, v in node.items:
                name = str(k.value)
                die = [labels.index(name) for labels in state.DICE.values() if name in labels]
                if not die:
                    dice = [x for labels in state.DICE.values() for x in labels]
                    p.error(k.span, f"no die `{name}`", did_you_mean(name, dice) or
                            (f"dice: {', '.join(dice)}" if dice else f"{s.ruleset} declares no dice"))
                elif not (isinstance(v, YScalar) and is_int(v.value)):
                    p.error(v.span, "a die's face is a whole number")
                else:
                    faces[die[0]] = v.value
            shown = "{" + ", ".join(f"{k.value}: {v.value}" for k, v in node.items if isinstance(v, YScalar)) + "}"
            return faces, shown
        p.error(node.span, "a forced throw is the sum shown (`5`) or each die's face (`{t01: 1, t12: 2}`)")
        return None
    # a draw: a number, or an entity by its name (a spot, a region, a component, a value, a player)
    if number and isinstance(node, YScalar):
        return node.value, str(node.value)
    text = text_of(p, node)
    if text is None:
        return None
    found: dict[str, int] = {}
    names = list(s.names[:state.num_players])
    if text in names:
        found["player"] = names.index(text)
    for kind in ("spot", "region", *state.DICE, *state.ENUMS):
        try:
            labels = list(state._labels(kind))
        except (KeyError, AttributeError):
            continue
        if text in labels:
            found[kind] = labels.index(text)
    if len(set(found.values())) > 1:
        p.error(node.span, f"`{text}` names several things ({', '.join(found)}) that stand for other values",
                "a forced draw must name one thing")
        return None
    if not found:
        every = [x for kind in ("spot", *state.ENUMS) for x in list(state._labels(kind))]
        p.error(node.span, f"nothing is called `{text}` in {s.ruleset}", did_you_mean(text, every))
        return None
    return next(iter(found.values())), text


def force(state: State, queues: dict[str, list[tuple[Any, str]]]) -> None:
    """Queue forced outcomes on the state's generator, after any still to come."""
    if not any(queues.values()):
        return
    forced = state.rng.forced if state.rng.forced is not None else {}
    for kind, queue in queues.items():
        forced.setdefault(kind, []).extend(queue)
    state.rng.forced = forced


def plain(value: Any) -> Any:
    """Lists and tuples compare alike (a position gives tuples, a state may hold lists)."""
    return list(value) if isinstance(value, (list, tuple)) else value


def shown_value(state: State, info: FieldInfo, value: Any, names: tuple[str, ...]) -> Any:
    """A value as the scenario writes it: players by their names, everything else by label."""
    if info.element == "player" and value is not None:
        if isinstance(value, (list, tuple, frozenset, set)):
            items = [names[v] for v in value]
            return sorted(items) if info.kind == "set" else items
        return names[value]
    return named_value(state, info, value)


def named_value(state: State, info: FieldInfo, value: Any) -> Any:
    if value is None:
        return None
    if info.kind in ("list", "set", "optional", "record"):  # one entity's list (a hand), or its record
        return state._named(info, value)                      # (a tuple of fields): named by the state
    if info.per is not None and isinstance(value, list | tuple):
        return [state._named(info, v) for v in value]
    return state._named(info, value)
