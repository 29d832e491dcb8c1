"""Scenarios: rulebook examples and rulings as executable data.

A scenario file holds one or more scenarios. Each names a rule set, a position given in that
rule set's own vocabulary, steps (actions by the players the rules ask, or a named trigger
applied to the position) and what must follow. `load_file` reads and checks a file against
the games it names (diagnostics with file:line:col, never a traceback); `run` plays one
scenario and compares; `compare` runs it against another rule set and reports what changed.
The format is documented in docs/scenarios.md.

A scenario file is data: its `ruleset:` names a bundled id or a rule file relative to it
(`rulewright.load_named`), never a Python module; only a regular file of at most
MAX_SCENARIO_FILE_BYTES is read.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, cast

from .compiler.names import MEMBER_PATTERNS
from .core.load import LoadError, YMap, YNode, YScalar, YSeq, load, unsaved_text
from .core.paths import display
from .core.source import CompileError, Diagnostic, SourceSpan, did_you_mean
from .runtime import decisions
from .runtime.auction import NOBODY, Auction
from .runtime.errors import RulewrightError, is_int, whole_number
from .runtime.faults import game_error
from .runtime.limits import new_move
from .runtime.state import FieldInfo, Game, State, field_type
from .runtime.state import _parse_type as parse_saved_type

FILE_KEYS = ("ruleset", "options", "players", "seed", "names", "scenarios")
SCENARIO_KEYS = ("doc", "ruleset", "options", "players", "seed", "names", "position", "steps", "expect")
EXPECT_KEYS = ("scores", "score_terms", "fields", "legal", "legal_includes", "legal_excludes", "illegal", "winners",
               "terminal", "to_act", "error", "distribution", "told")
POSITION_SPECIAL = ("to_act", "phase", "chance")
# The kinds of chance a scenario can fix (docs/scenarios.md, "Fixing chance"), as the mechanics
# consume them: `draw` stands for draw() from a set and draw_from() a list alike.
CHANCE_KINDS = ("die", "throw", "coin", "draw")
DISTRIBUTION_KEYS = ("of", "runs", "values", "significance")
# The expectations that check nothing when empty (an empty `legal:` says no move is legal).
EMPTY_CHECKS_NOTHING = ("scores", "score_terms", "fields", "legal_includes", "legal_excludes", "illegal")
# The replays one file's distributions may ask for, all together: a scenario file is data, and
# 100,000 replays of a short scenario take about a minute.
MAX_DISTRIBUTION_RUNS = 100_000
# The largest scenario file read: 1 MiB, about sixty times the largest bundled one (18 KB).
MAX_SCENARIO_FILE_BYTES = 1 << 20
DEFAULT_NAMES = ("Alex", "Barbara", "Chris", "Doris", "Emil", "Fiona", "Georg", "Hanna")


@dataclass(frozen=True, slots=True)
class Step:
    kind: str  # "act", "trigger" or "chance"
    player: int | None
    text: str
    span: SourceSpan
    node: YNode | None = None  # a `chance:` step's mapping


@dataclass(frozen=True, slots=True)
class Expectation:
    kind: str
    node: YNode
    span: SourceSpan


@dataclass
class Scenario:
    name: str
    doc: str
    file: str
    ruleset: str
    options: dict[str, str]
    players: int | None
    seed: int
    names: tuple[str, ...]
    position: YMap | None
    steps: list[Step]
    expect: list[Expectation]
    span: SourceSpan
    game: Game | None = None

    @property
    def where(self) -> str:
        return f"{self.span.path}:{self.span.line}"


@dataclass
class Check:
    """One expectation's outcome."""

    what: str
    expected: Any
    actual: Any
    ok: bool


@dataclass
class Result:
    scenario: Scenario
    checks: list[Check] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)  # rule paths, in the order they fired
    problem: str | None = None  # a step that could not be played, unexpectedly

    @property
    def passed(self) -> bool:
        return self.problem is None and all(c.ok for c in self.checks)

    def rule_lines(self) -> list[str]:
        game = self.scenario.game
        rules = game.info.rules if game else {}
        seen: list[str] = []
        for path in self.fired:
            entry = f"{path} ({rules[path]})" if path in rules else path
            if entry not in seen:
                seen.append(entry)
        return seen

    def report(self) -> str:
        """One line, then for a failure each expectation that failed and the rules fired."""
        status = "PASS" if self.passed else "FAIL"
        lines = [f"{status} {self.scenario.name}  ({self.scenario.where})"]
        if not self.passed:
            if self.problem:
                lines.append(f"  step failed: {self.problem}")
            for c in self.checks:
                if not c.ok:
                    lines.append(f"  {c.what}: expected {_show(c.expected)}, got {_show(c.actual)}")
            fired = self.rule_lines()
            if fired:
                lines.append("  rules fired: " + ", ".join(fired))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.scenario.name,
            "file": self.scenario.file,
            "line": self.scenario.span.line,
            "ruleset": self.scenario.ruleset,
            "passed": self.passed,
            "problem": self.problem,
            "checks": [{"what": c.what, "expected": c.expected, "actual": c.actual, "ok": c.ok} for c in self.checks],
            "rules_fired": self.rule_lines(),
        }


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    return str(value)


# -- Loading and checking ------------------------------------------------------------------------

GameLoader = Callable[[str, Path], Game]


class _Problems:
    def __init__(self) -> None:
        self.list: list[Diagnostic] = []

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.list.append(Diagnostic(span, message, hint))


def default_loader(ruleset: str, here: Path) -> Game:
    """A bundled rule set by id, or a rule file relative to the scenario file, compiled now;
    never a Python module (BadSetup says what a scenario may name)."""
    from .loading import load_named

    return load_named(ruleset, here)


def read_scenario_file(path: Path, shown: str) -> str:
    """The text of a scenario file; raises LoadError (at `shown:1:1`) if it is missing, not a
    regular file (a FIFO, a device, a folder), too large or not UTF-8 text."""
    from .match import RefusedFile, open_regular
    from .render import printable

    where = SourceSpan(printable(shown), 1, 1, 1, 1)
    text = unsaved_text(path, MAX_SCENARIO_FILE_BYTES, where)  # a file open in an editor (`rulewright lsp`)
    if text is not None:
        return text
    try:
        with open_regular(path, MAX_SCENARIO_FILE_BYTES, "scenario file") as handle:
            data = handle.read(MAX_SCENARIO_FILE_BYTES + 1)
    except FileNotFoundError:
        raise LoadError(Diagnostic(where, "no such scenario file")) from None
    except RefusedFile as exc:
        raise LoadError(Diagnostic(where, str(exc), "a scenario file is a regular YAML file")) from None
    except (OSError, ValueError) as exc:
        raise LoadError(Diagnostic(where, f"cannot read scenario file: {getattr(exc, 'strerror', None) or exc}")
                        ) from None
    if len(data) > MAX_SCENARIO_FILE_BYTES:  # it grew since it was looked at
        raise LoadError(Diagnostic(where, f"scenario file too large: more than {MAX_SCENARIO_FILE_BYTES:,} bytes"))
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise LoadError(Diagnostic(where, f"cannot read scenario file: not UTF-8 text (byte {exc.start + 1})")
                        ) from None


def load_file(path: Path, loader: GameLoader = default_loader) -> tuple[list[Scenario], list[Diagnostic]]:
    """Read a scenario file; every scenario is checked against the game it names."""
    p = _Problems()
    shown = display(path)
    try:
        tree = load(shown, read_scenario_file(path, shown))
    except LoadError as exc:
        return [], [exc.diagnostic]
    _keys(p, tree, FILE_KEYS, "a scenario file")
    defaults = _common(p, tree, None)
    node = tree.get("scenarios")
    if not isinstance(node, YMap) or not node.items:
        p.error(tree.span if node is None else node.span, "a scenario file needs `scenarios:`, a mapping of "
                "scenario names to scenarios")
        return [], p.list
    games: dict[str, Game | None] = {}
    scenarios: list[Scenario] = []
    for key, value in node.items:
        name = str(key.value)
        if not isinstance(value, YMap):
            p.error(value.span, f"scenario `{name}` must be a mapping")
            continue
        _keys(p, value, SCENARIO_KEYS, f"scenario `{name}`")
        ruleset, options, players, seed, names = _common(p, value, defaults)
        if ruleset is None:
            p.error(key.span, f"scenario `{name}` names no rule set", "add `ruleset: <id>` to it or to the file")
            continue
        scenario = Scenario(
            name=name, doc=_text(p, value.get("doc")) or "", file=shown, ruleset=ruleset, options=options,
            players=players, seed=seed, names=names, position=None, steps=[], expect=[], span=key.span,
        )
        if ruleset not in games:
            try:
                games[ruleset] = loader(ruleset, path)
            except CompileError as exc:
                p.list.extend(exc.diagnostics)
                games[ruleset] = None
            except RulewrightError as exc:
                rnode = value.get("ruleset") or tree.get("ruleset") or key
                p.error(rnode.span, str(exc))
                games[ruleset] = None
        game = games[ruleset]
        if game is None:
            continue
        scenario.game = game
        _check_setup(p, scenario, value, game)
        for part in ("position", "steps", "expect"):
            given = value.get(part)
            if isinstance(given, YMap | YSeq) and not given.items:
                p.error(given.span, f"`{part}:` is empty: it has no effect", f"leave `{part}:` out")
        position = value.get("position")
        if position is not None:
            if isinstance(position, YMap):
                scenario.position = position
                before = len(p.list)
                _check_position(p, scenario, position, game)
                if len(p.list) == before:
                    _check_invariants(p, scenario, position, game)
            else:
                p.error(position.span, "`position:` must be a mapping of field names to values")
        scenario.steps = _steps(p, scenario, value.get("steps"), game)
        scenario.expect = _expectations(p, scenario, value.get("expect"), game)
        scenarios.append(scenario)
    replays = [(e.span, _runs(e.node)) for s in scenarios for e in s.expect if e.kind == "distribution"]
    if sum(n for _, n in replays) > MAX_DISTRIBUTION_RUNS:
        p.error(replays[-1][0], f"the distributions of this file replay their scenarios {sum(n for _, n in replays):,} "
                f"times, more than {MAX_DISTRIBUTION_RUNS:,}", "ask for fewer `runs:`")
    return scenarios, p.list


def _runs(node: YNode) -> int:
    """How many replays a distribution asks for (1,000 unless it says)."""
    runs = node.get("runs") if isinstance(node, YMap) else None
    return runs.value if isinstance(runs, YScalar) and isinstance(runs.value, int) else 1000


def _keys(p: _Problems, node: YMap, allowed: tuple[str, ...], what: str) -> None:
    for key, _ in node.items:
        if str(key.value) not in allowed:
            p.error(key.span, f"unknown key `{key.value}` in {what}",
                    did_you_mean(str(key.value), allowed) or f"known keys: {', '.join(allowed)}")


def _text(p: _Problems, node: YNode | None) -> str | None:
    if node is None:
        return None
    if isinstance(node, YScalar) and node.value is not None and not isinstance(node.value, bool):
        return str(node.value)
    p.error(node.span, "expected text here")
    return None


def _common(
    p: _Problems, node: YMap, defaults: tuple[str | None, dict[str, str], int | None, int, tuple[str, ...]] | None
) -> tuple[str | None, dict[str, str], int | None, int, tuple[str, ...]]:
    ruleset, options, players, seed, names = defaults or (None, {}, None, 1, DEFAULT_NAMES)
    ruleset = _text(p, node.get("ruleset")) or ruleset
    onode = node.get("options")
    if onode is not None:
        if isinstance(onode, YMap):
            options = {**options, **{str(k.value): str(v.value) for k, v in onode.items if isinstance(v, YScalar)}}
        else:
            p.error(onode.span, "`options:` must be a mapping of option names to choices")
    for key in ("players", "seed"):
        n = node.get(key)
        if n is not None:
            if isinstance(n, YScalar) and is_int(n.value):
                if key == "players":
                    players = n.value
                else:
                    seed = n.value
            else:
                p.error(n.span, f"`{key}:` must be a whole number")
    nnode = node.get("names")
    if nnode is not None:
        if isinstance(nnode, YSeq) and all(isinstance(x, YScalar) and isinstance(x.value, str) for x in nnode.items):
            names = tuple(str(x.value) for x in nnode.items if isinstance(x, YScalar))
        else:
            p.error(nnode.span, "`names:` must be a list of player names, in seat order")
    return ruleset, options, players, seed, names


def _check_setup(p: _Problems, s: Scenario, node: YMap, game: Game) -> None:
    info = game.info
    known = {o.name: o for o in info.options}
    onode = node.get("options")
    for name, value in s.options.items():
        span = onode.span if isinstance(onode, YMap) else s.span
        if isinstance(onode, YMap):
            k = onode.key_node(name)
            span = k.span if k is not None else span
        if name not in known:
            p.error(span, f"{info.ruleset} has no option `{name}`", did_you_mean(name, known))
        elif value not in known[name].choices:
            p.error(span, f"option `{name}` has no choice `{value}`", did_you_mean(value, known[name].choices))
    if s.players is not None and s.players not in info.players:
        p.error(s.span, f"{info.ruleset} is not played by {s.players} players")


def _seat(p: _Problems, s: Scenario, node: YNode, players: int, neutral_ok: bool = False) -> int | None:
    """The seat a player's name (or `P2`) stands for; with `neutral_ok`, a neutral seat's name
    (`emperor`) too: it owns pieces in field values, but never acts nor scores."""
    text = _text(p, node)
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


def _seat_name(s: Scenario, seat: int) -> str:
    """The scenario's name for a seat (`P3` past its names)."""
    return s.names[seat] if seat < len(s.names) else f"P{seat + 1}"


def _player_count(s: Scenario, game: Game) -> int:
    return s.players if s.players is not None else game.info.players[0]


def _labels(game: Game, kind: str, state: State) -> list[str]:
    if kind == "player":
        return []
    return list(state._labels(kind))


def _value(p: _Problems, s: Scenario, info: FieldInfo, node: YNode, state: State) -> Any:
    """A field value (of one entity, for a per-entity field) from its names in the rule set's
    vocabulary, in the one representation a game holds (docs/language.md, "Values"): a list a
    tuple, a set a frozenset, items too, by the field's declared type."""
    return _typed(p, s, info, field_type(info), node, state)


def _typed(p: _Problems, s: Scenario, info: FieldInfo, t: Any, node: YNode, state: State) -> Any:
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
    text = _text(p, node)
    if text is None:
        return None
    if kind == "str":
        return text
    if kind != "item":
        p.error(node.span, f"`{info.name}` cannot be given in a position")
        return None
    if t.name == "player":
        return _seat(p, s, node, state.num_players, neutral_ok=True)
    names = list(state._labels(t.name))
    if text in names:
        return names.index(text)
    what = "value" if t.name in state.ENUMS else t.name
    p.error(node.span, f"no {what} `{text}` for `{info.name}`", did_you_mean(text, names) or
            f"one of: {', '.join(names[:12])}{', ...' if len(names) > 12 else ''}")
    return None


def _entity_index(p: _Problems, s: Scenario, info: FieldInfo, node: YScalar, state: State) -> int | None:
    if info.per == "player":
        return _seat(p, s, node, state.num_players, neutral_ok=True)
    labels = list(state._labels(info.per or ""))
    text = str(node.value)
    if text in labels:
        return labels.index(text)
    p.error(node.span, f"no {info.per} `{text}`", did_you_mean(text, labels))
    return None


def _field_values(p: _Problems, s: Scenario, info: FieldInfo, node: YNode, state: State,
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
                index = _entity_index(p, s, info, x, state) if isinstance(x, YScalar) else None
                if index is None:
                    continue
                if index in given or (info.kind == "entity" and index in grouped):
                    p.error(x.span, f"{info.per} `{_label(state, info, index)}` is given two values for "
                            f"`{info.name}`", f"first at line {given.get(index, x.span).line}")
                    continue
                if seat in grouped.setdefault(index, []):
                    p.error(x.span, f"{info.per} `{_label(state, info, index)}` is given to {label} twice")
                    continue
                grouped[index].append(seat)
            continue
        if label in value_names and isinstance(value, YSeq):
            v = value_names.index(label)
            members = [
                (_entity_index(p, s, info, x, state) if isinstance(x, YScalar) else None, x) for x in value.items
            ]
        else:
            index = _entity_index(p, s, info, key, state)
            members = [(index, key)]
            v = _value(p, s, info, value, state)
        for index, where in members:
            if index is None:
                continue
            if index in given:
                p.error(where.span, f"{info.per} `{_label(state, info, index)}` is given two values for "
                        f"`{info.name}`", f"first at line {given[index].line}")
                continue
            given[index] = where.span
            out[index] = v
    for index, seats in grouped.items():
        if index in out:
            p.error(node.span, f"{info.per} `{_label(state, info, index)}` is given two values for `{info.name}`")
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


AUCTION_KEYS = ("bidders", "bidder", "in", "high_bid", "high_bidder", "minimum", "step", "over")


def _auction(p: _Problems, s: Scenario, info: FieldInfo, node: YNode, state: State,
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
        found = [_seat(p, s, x, players, neutral_ok=True) for x in value.items]
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
                seat = _seat(p, s, value, players)
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


def _auction_raw(a: Auction) -> dict[str, Any]:
    return {"bidders": a.bidders, "bidder": a.to_act, "in": a.still_in, "high_bid": a.high_bid,
            "high_bidder": a.high_bidder, "minimum": a.minimum, "step": a.step, "over": a.over}


def _auction_shown(key: str, value: Any, names: tuple[str, ...]) -> Any:
    if key in ("bidder", "high_bidder"):
        return "none" if value == NOBODY else names[value]
    if key == "bidders":
        return [names[v] for v in value]
    if key == "in":
        return sorted(names[v] for v in value)
    return value


def _label(state: State, info: FieldInfo, index: int) -> str:
    return state.label(info.per or "", index)


def _check_position(p: _Problems, s: Scenario, node: YMap, game: Game) -> None:
    state = _fresh(s, game)
    fields = {f.name: f for f in state.FIELDS}
    for key, value in node.items:
        name = str(key.value)
        if name == "to_act":
            _seat(p, s, value, state.num_players)
        elif name == "phase":
            text = _text(p, value)
            if text is not None and text not in state.PHASES:
                p.error(value.span, f"no phase `{text}`", did_you_mean(text, state.PHASES))
        elif name == "chance":
            _chance(p, s, value, state)
        elif name not in fields:
            p.error(key.span, f"no field `{name}` in {game.info.ruleset}",
                    did_you_mean(name, list(fields) + list(POSITION_SPECIAL)))
        else:
            _field_values(p, s, fields[name], value, state, partial=False)


def _check_invariants(p: _Problems, s: Scenario, node: YMap, game: Game) -> None:
    """A position the rules cannot hold, one that breaks an invariant of the rule set, is an
    error naming the invariant and where the rule file states it."""
    state = _fresh(s, game)
    if apply_position(s, state) is not None:
        return  # told when the scenario runs
    for name in invariants_broken(state):
        where = game.info.rules.get(f"invariants.{name}")
        p.error(node.span, f"the position breaks invariant `{name}` of {game.info.ruleset}"
                + (f" ({where})" if where else ""), "a position must be one the rules can reach")


def invariants_broken(state: State) -> list[str]:
    """The invariants `state` breaks, by name; an invariant that cannot be evaluated on it (a
    fault of the rules on this position) counts as broken, with the error."""
    try:
        return state.broken_invariants()
    except RulewrightError as exc:
        return [f"(cannot be told: {exc})"]


def _steps(p: _Problems, s: Scenario, node: YNode | None, game: Game) -> list[Step]:
    if node is None:
        return []
    if not isinstance(node, YSeq):
        p.error(node.span, "`steps:` must be a list")
        return []
    players = _player_count(s, game)
    triggers = [path.split(".", 1)[1] for path in game.info.rules if path.startswith("triggers.")]
    out: list[Step] = []
    for item in node.items:
        if isinstance(item, YScalar) and isinstance(item.value, str):
            out.append(Step("act", None, item.value, item.span))
            continue
        if not isinstance(item, YMap) or len(item.items) != 1:
            p.error(item.span, "a step is `- <player>: <action text>`, `- <action text>`, `- trigger: <name>` "
                    "or `- chance: {die: [4]}`")
            continue
        key, value = item.items[0]
        if key.value == "chance":
            _chance(p, s, value, _fresh(s, game))
            out.append(Step("chance", None, "chance", value.span, value))
            continue
        text = _text(p, value)
        if text is None:
            continue
        if key.value == "trigger":
            if text not in triggers:
                p.error(value.span, f"no trigger `{text}` in {game.info.ruleset}", did_you_mean(text, triggers))
                continue
            out.append(Step("trigger", None, text, value.span))
            continue
        seat = _seat(p, s, key, players)
        if seat is not None:
            out.append(Step("act", seat, text, value.span))
    return out


def _expectations(p: _Problems, s: Scenario, node: YNode | None, game: Game) -> list[Expectation]:
    if node is None:
        return []
    if not isinstance(node, YMap):
        p.error(node.span, "`expect:` must be a mapping")
        return []
    _keys(p, node, EXPECT_KEYS, "expect")
    state = _fresh(s, game)
    fields = {f.name: f for f in state.FIELDS}
    out: list[Expectation] = []
    for key, value in node.items:
        kind = str(key.value)
        if kind not in EXPECT_KEYS:
            continue
        if kind in EMPTY_CHECKS_NOTHING and isinstance(value, YMap | YSeq) and not value.items:
            p.error(value.span, f"`{kind}:` is empty: it checks nothing", f"give what it checks, or leave `{kind}` out")
            continue
        if kind == "fields":
            if not isinstance(value, YMap):
                p.error(value.span, "`fields:` must be a mapping of field names to values")
                continue
            for fkey, fvalue in value.items:
                if str(fkey.value) not in fields:
                    p.error(fkey.span, f"no field `{fkey.value}` in {game.info.ruleset}",
                            did_you_mean(str(fkey.value), fields))
                else:
                    _field_values(p, s, fields[str(fkey.value)], fvalue, state, partial=True)
        elif kind == "scores":
            if isinstance(value, YMap):
                for k, v in value.items:
                    _seat(p, s, k, state.num_players)
                    if not (isinstance(v, YScalar) and isinstance(v.value, int)):
                        p.error(v.span, "a score is a whole number")
            else:
                p.error(value.span, "`scores:` maps players to their scores")
        elif kind == "score_terms":
            terms = set(state.score_terms(0))
            for k, v in value.items if isinstance(value, YMap) else ():
                _seat(p, s, k, state.num_players)
                if isinstance(v, YMap) and not v.items:
                    p.error(v.span, f"no scoring term is given for {k.value}: it checks nothing")
                for tk, tv in v.items if isinstance(v, YMap) else ():
                    if str(tk.value) not in terms:
                        p.error(tk.span, f"no scoring term `{tk.value}` in {game.info.ruleset}",
                                did_you_mean(str(tk.value), terms))
                    elif not (isinstance(tv, YScalar) and isinstance(tv.value, int)):
                        p.error(tv.span, "a score is a whole number")
                if not isinstance(v, YMap):
                    p.error(v.span, "each player maps scoring terms to points: {alliances: 6}")
            if not isinstance(value, YMap):
                p.error(value.span, "`score_terms:` maps players to their points per scoring term")
        elif kind in ("winners",):
            if isinstance(value, YSeq) and not value.items:  # (a game over has a winner at least)
                p.error(value.span, "`winners: []` can never hold: a finished game has at least one winner",
                        "to say that the game goes on, write `terminal: false`")
            elif isinstance(value, YSeq):
                for v in value.items:
                    _seat(p, s, v, state.num_players)
            else:
                p.error(value.span, "`winners:` is a list of players")
        elif kind == "to_act":
            if not (isinstance(value, YScalar) and value.value is None):
                _seat(p, s, value, state.num_players)
        elif kind == "told":
            if not isinstance(value, YSeq) or not all(isinstance(v, YScalar) and isinstance(v.value, str)
                                                     for v in value.items):
                p.error(value.span, "`told:` is the list of lines the last move told everyone (`tell`), as text")
        elif kind == "terminal":
            if not (isinstance(value, YScalar) and isinstance(value.value, bool)):
                p.error(value.span, "`terminal:` is true or false")
        elif kind in ("legal", "legal_includes", "legal_excludes"):
            if not isinstance(value, YSeq):
                p.error(value.span, f"`{kind}:` is a list of action texts")
            elif kind == "legal_excludes":  # (what no move can be is excluded always: it checks nothing)
                for x in value.items:
                    _no_move_of(p, s, x, state, "excluding it checks nothing")
        elif kind == "distribution":
            _check_distribution(p, s, value, state)
        elif kind == "illegal":
            for x in value.items if isinstance(value, YSeq) else ():  # (with a rule, the rule is checked)
                _no_move_of(p, s, x, state, "that it is illegal says nothing")
            if isinstance(value, YMap):
                for _, v in value.items:
                    rule = _text(p, v)
                    if rule is not None and not any(r == rule or r.startswith(rule + ".") for r in game.info.rules):
                        p.error(v.span, f"no rule `{rule}` in {game.info.ruleset}",
                                did_you_mean(rule, game.info.rules) or "rules are named like actions.<name>.when")
            elif not isinstance(value, YSeq):
                p.error(value.span, "`illegal:` maps action texts to the rule that forbids them, or lists texts")
        out.append(Expectation(kind, value, key.span))
    return out


def _no_move_of(p: _Problems, s: Scenario, node: YNode, state: State, why: str) -> None:
    """A text no move of the rule set can ever have (`prospekt A1`: no action's text, no answer's,
    starts so) is an error where a check of it could only pass: `legal_excludes:`, `illegal:`."""
    text = _text(p, node)
    if text is None:
        return
    wanted = " ".join(text.lower().split())
    starts = [prefix for prefix in state.TEXT_PREFIX.values()]
    if any(not prefix for prefix in starts):  # (an action whose text is its arguments alone: any text may be one)
        return
    starts += [f"{name} " for name in state.ASKS] + ["pass"]
    if any(wanted.startswith(prefix.lower()) for prefix in starts):
        return
    forms = sorted({prefix.strip() for prefix in starts})
    p.error(node.span, f"`{text}` is no move of {state.game.info.ruleset}: {why}",
            did_you_mean(wanted.split(" ")[0], forms) or f"moves start with: {', '.join(forms)}")


def _fresh(s: Scenario, game: Game) -> State:
    options = {k: v for k, v in s.options.items() if k in {o.name for o in game.info.options}}
    try:
        return game.new_state(_player_count(s, game), s.seed, options)
    except RulewrightError:
        return game.new_state(game.info.players[0], s.seed, {})


# -- Running -------------------------------------------------------------------------------------

def apply_position(s: Scenario, state: State) -> str | None:
    """Set up the scenario's position on `state`; returns why the position is not what it says
    (its `to_act:` is not the seat that decides, `state.to_act()`), or None."""
    if s.position is None:
        return None
    p = _Problems()
    fields = {f.name: f for f in state.FIELDS}
    to_act: int | None = None
    for key, value in s.position.items:
        name = str(key.value)
        if name == "to_act":  # whose turn it is; a phase's `actor:` may name another seat: checked below
            seat = _seat(p, s, value, state.num_players)
            if seat is not None:
                state.current = to_act = seat
        elif name == "phase":
            state.phase = state.PHASES.index(str(value.value)) if isinstance(value, YScalar) else state.phase
        elif name == "chance":
            _force(state, _chance(p, s, value, state))
        elif name in fields:
            info = fields[name]
            values = _field_values(p, s, info, value, state, partial=False)
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
            actual = "nobody (the game is over)" if deciding is None else _seat_name(s, deciding)
            return (f"position: `to_act: {_seat_name(s, to_act)}`, but {actual} decides in phase "
                    f"`{state.PHASES[state.phase]}` (its `actor:`); set the fields that make "
                    f"{_seat_name(s, to_act)} the actor")
    return None


def run(s: Scenario, game: Game | None = None) -> Result:
    """Play a scenario on its own game (or on `game`, another rule set) and compare."""
    game = game or s.game
    assert game is not None, "load the scenario with load_file first"
    result = Result(s)
    options = {k: v for k, v in s.options.items() if k in {o.name for o in game.info.options}}
    try:
        state = game.new_state(_player_count(s, game), s.seed, options)
    except RulewrightError as exc:
        result.problem = str(exc)
        return result
    result.problem = apply_position(s, state)
    if result.problem is not None:
        return result
    broken = invariants_broken(state)
    if broken:  # a position the loader accepted under the scenario's own rule set, broken under another
        where = [f"`{b}` ({game.info.rules.get(f'invariants.{b}', '?')})" for b in broken]
        result.problem = f"the position breaks invariant {', '.join(where)} of {game.info.ruleset}"
        return result
    state.trace = result.fired
    error, played = _play_counted(s, state)
    expected_error = next((e for e in s.expect if e.kind == "error"), None)
    if error is not None and expected_error is None:
        result.problem = error
    elif error is not None and played < len(s.steps):  # the error expected, but steps follow it
        never = s.steps[played]
        result.problem = (f"{_at(s, never.span)}: this step is never played: the steps stop at the error "
                          f"`expect: error:` expects, at step {played} (line {s.steps[played - 1].span.line}); "
                          "end the steps there")
    _compare(s, state, result, error)
    left = [f"{kind} {shown}" for kind, queue in (state.rng.forced or {}).items() for _, shown in queue]
    if left and error is None:
        result.checks.append(Check("forced chance", "all of it used", f"not used: {', '.join(left)}", False))
    state.trace = None
    for e in s.expect:
        if e.kind == "distribution" and isinstance(e.node, YMap):
            result.checks.append(_distribution(s, game, e.node))
    return result


def _play(s: Scenario, state: State) -> str | None:
    """Play the scenario's steps on `state`; the error that stopped them, or None."""
    return _play_counted(s, state)[0]


def _play_counted(s: Scenario, state: State) -> tuple[str | None, int]:
    """Play the scenario's steps on `state`: the error that stopped them (or None), and the
    number of steps played (the one that failed among them)."""
    p = _Problems()
    error: str | None = None
    played = 0
    for step in s.steps:
        played += 1
        try:
            if step.kind == "chance":
                if step.node is not None:
                    _force(state, _chance(p, s, step.node, state))
                continue
            if step.kind == "trigger":
                _trigger(s, state, step)
                continue
            if step.player is not None and state.to_act() != step.player:
                deciding = state.to_act()
                actual = "nobody (the game is over)" if deciding is None else _seat_name(s, deciding)
                raise RulewrightError(f"`{step.text}` by {_seat_name(s, step.player)}: {actual} is to act")
            state.apply(step.text)
        except RulewrightError as exc:
            error = str(exc)
            break
    return error, played


def _at(s: Scenario, span: SourceSpan) -> str:
    """Where a step is written, `path:line:col`, for an error a step's effect reveals only when
    it is played (a trigger that does not fire, a step never played)."""
    return str(span)


def _trigger(s: Scenario, state: State, step: Step) -> None:
    """Apply the trigger a `- trigger: <name>` step names to the position, as the rules apply it
    (its `when:`, then its effect, then the test of the end). A trigger whose rules can ask
    (`ask`) is compiled as steps (runtime/decisions.py): they are run like a move's, and a
    question they ask waits for the scenario's next steps to answer it. A step that could change
    nothing is an error, not a silent step: the game is over, a decision waits, or the trigger's
    `when:` does not hold on the position."""
    name = step.text
    where = _at(s, step.span)
    if state.terminal:
        raise RulewrightError(f"{where}: trigger `{name}` cannot apply: the game is over")
    pending = state._pending
    if pending is not None:
        raise RulewrightError(f"{where}: trigger `{name}` cannot apply while {_seat_name(s, pending.ask.seat)} is "
                              f"asked `{pending.ask.name}`: answer it first")
    trace = state.trace
    if trace is None:  # (a distribution's replay, the web viewer's: a trace of its own, to tell it fired)
        state.trace = []
    fired_before = len(state.trace or ())
    before = state.clone() if state.SUSPENDS else None
    try:
        steps = getattr(state, MEMBER_PATTERNS["trigger"][0].format(name))()
        if isinstance(steps, Generator):  # a trigger whose rules can ask: run until done or a question
            if hasattr(type(state), "_budget"):  # (a fresh budget of work, as for a move)
                new_move(state)
            decisions.run(state, _then_ended(state, steps), before, [])
            waiting = state._pending
            if waiting is not None and before is not None:  # (a copy of the state plays the trigger again)
                waiting.resample = partial(_trigger_again, s, before, step)
        elif state._is_over():
            state.terminal = True
    except RulewrightError:
        raise
    except Exception as exc:  # a fault of the rule set's code: told by its rule line
        raise game_error(exc, state) from exc
    finally:
        fired = f"triggers.{name}" in (state.trace or [])[fired_before:]
        state.trace = trace
    state._legal_cache = None
    state._derived = None
    if not fired:
        rule = (s.game.info.rules.get(f"triggers.{name}", "") if s.game is not None else "") or "its rule"
        raise RulewrightError(f"{where}: trigger `{name}` does not fire on this position: its `when:` ({rule}) "
                              "does not hold, so the step would change nothing")


def _then_ended(state: State, steps: decisions.Steps) -> decisions.Steps:
    """A trigger's steps, then the test of the end that follows every move's (decisions.move):
    a trigger that ends the game, once its questions are answered, ends it."""
    yield from steps
    if state._is_over():
        state.terminal = True


def _trigger_again(s: Scenario, before: State, step: Step) -> State:
    """The state a trigger that asks is waiting in, made again from the state it began in (how a
    copy of it is made: `Pending.resample`). A scenario's state is never saved (`to_json`)."""
    state = before.clone()
    _trigger(s, state, step)
    return state


def _compare(s: Scenario, state: State, result: Result, error: str | None) -> None:
    fields = {f.name: f for f in state.FIELDS}
    names = (*s.names[:state.num_players], *state.NEUTRAL)
    p = _Problems()
    for e in s.expect:
        node = e.node
        if e.kind == "scores" and isinstance(node, YMap):
            scores = state.scores()
            for k, v in node.items:
                seat = _seat(p, s, k, state.num_players)
                if seat is not None:
                    wanted_score = v.value if isinstance(v, YScalar) else None
                    result.checks.append(Check(f"score of {names[seat]}", wanted_score, scores[seat],
                                               scores[seat] == wanted_score))
        elif e.kind == "score_terms" and isinstance(node, YMap):
            for k, v in node.items:
                seat = _seat(p, s, k, state.num_players)
                if seat is not None and isinstance(v, YMap):
                    terms = state.score_terms(seat)
                    for tk, tv in v.items:
                        term = str(tk.value)
                        result.checks.append(Check(f"{term} of {names[seat]}", tv.value if isinstance(tv, YScalar)
                                                   else None, terms.get(term), terms.get(term) == tv.value
                                                   if isinstance(tv, YScalar) else False))
        elif e.kind == "fields" and isinstance(node, YMap):
            for fkey, fvalue in node.items:
                info = fields.get(str(fkey.value))
                if info is None:
                    continue
                wanted = _field_values(p, s, info, fvalue, state, partial=True)
                actual = getattr(state, info.name)
                if info.kind == "auction" and info.per is None and isinstance(wanted, dict):
                    raw = _auction_raw(actual)
                    for part, v in cast(dict[str, Any], wanted).items():
                        result.checks.append(Check(f"{info.name}.{part}", _auction_shown(part, v, names),
                                                   _auction_shown(part, raw[part], names), v == raw[part]))
                elif info.per is None:
                    same = _plain(wanted) == _plain(actual)
                    result.checks.append(Check(info.name, _shown(state, info, wanted, names),
                                               _shown(state, info, actual, names), same))
                elif isinstance(wanted, dict):
                    for i, v in wanted.items():
                        who = names[i] if info.per == "player" else _label(state, info, i)
                        result.checks.append(Check(f"{info.name}[{who}]", _named(state, info, v),
                                                   _named(state, info, actual[i]), _plain(v) == _plain(actual[i])))
        elif e.kind in ("legal", "legal_includes", "legal_excludes") and isinstance(node, YSeq):
            legal = sorted(str(a) for a in state.legal_actions())
            wanted_texts = sorted(" ".join(str(x.value).split()) for x in node.items if isinstance(x, YScalar))
            if e.kind == "legal":
                result.checks.append(Check("legal actions", wanted_texts, legal, legal == wanted_texts))
            elif e.kind == "legal_includes":
                missing = [t for t in wanted_texts if t not in legal]
                result.checks.append(Check("legal actions include", wanted_texts, missing and f"missing {missing}"
                                           or wanted_texts, not missing))
            else:
                present = [t for t in wanted_texts if t in legal]
                result.checks.append(Check("legal actions exclude", wanted_texts, present and f"legal: {present}"
                                           or "none legal", not present))
        elif e.kind == "illegal":
            items: list[tuple[str, str | None]] = []
            if isinstance(node, YMap):
                items = [(str(k.value), str(v.value) if isinstance(v, YScalar) else None) for k, v in node.items]
            elif isinstance(node, YSeq):
                items = [(str(x.value), None) for x in node.items if isinstance(x, YScalar)]
            for text, rule in items:
                # keyed by the text alone, legal or not, so that `--against` sees a move turn legal
                wanted_outcome = f"illegal ({rule})" if rule else "illegal"
                if state.parse_action(text) is not None:
                    result.checks.append(Check(f"`{text}`", wanted_outcome, "legal", False))
                    continue
                _, why = state.why_illegal(text)
                ok = rule is None or _forbids(state, rule, why, text)
                result.checks.append(Check(f"`{text}`", wanted_outcome, f"illegal ({why})", ok))
        elif e.kind == "winners" and isinstance(node, YSeq):
            wanted_seats = sorted(x for x in (_seat(p, s, v, state.num_players) for v in node.items) if x is not None)
            wanted_names = [names[i] for i in wanted_seats]
            if not state.is_terminal():  # (winners() is empty while the game goes on: no winner to compare)
                result.checks.append(Check("winners", wanted_names, "none yet: the game is not over", False))
                continue
            actual = state.winners()
            result.checks.append(Check("winners", wanted_names, [names[i] for i in actual], actual == wanted_seats))
        elif e.kind == "told" and isinstance(node, YSeq):  # what the last move told everyone (State.told)
            wanted_told = [str(v.value) for v in node.items if isinstance(v, YScalar)]
            result.checks.append(Check("told", wanted_told, state.told(), state.told() == wanted_told))
        elif e.kind == "terminal" and isinstance(node, YScalar):
            result.checks.append(Check("game over", node.value, state.is_terminal(), state.is_terminal() == node.value))
        elif e.kind == "to_act":
            actual_seat = state.to_act()
            nobody = isinstance(node, YScalar) and node.value is None
            wanted_seat = None if nobody else _seat(p, s, node, state.num_players)
            result.checks.append(Check("to act", names[wanted_seat] if wanted_seat is not None else "nobody",
                                       names[actual_seat] if actual_seat is not None else "nobody",
                                       wanted_seat == actual_seat))
        elif e.kind == "error" and isinstance(node, YScalar):
            wanted = str(node.value)
            result.checks.append(Check("error", wanted, error or "no error", error is not None and wanted in error))


def _forbids(state: State, rule: str, why: str, text: str) -> bool:
    """Whether `rule` (a rule path or a prefix of one: `actions.turn_back`) is the one that
    forbids the move, `why` (State.why_illegal)."""
    return why == rule or why.startswith(rule + ".")


# -- Chance a scenario fixes (docs/scenarios.md, "Fixing chance") --------------------------------

def _chance(p: _Problems, s: Scenario, node: YNode, state: State) -> dict[str, list[tuple[Any, str]]]:
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


def _outcome(p: _Problems, s: Scenario, kind: str, node: YNode, state: State) -> tuple[Any, str] | None:
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
    text = _text(p, node)
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


def _force(state: State, queues: dict[str, list[tuple[Any, str]]]) -> None:
    """Queue forced outcomes on the state's generator, after any still to come."""
    if not any(queues.values()):
        return
    forced = state.rng.forced if state.rng.forced is not None else {}
    for kind, queue in queues.items():
        forced.setdefault(kind, []).extend(queue)
    state.rng.forced = forced


# -- Distributions over many runs ----------------------------------------------------------------

def _check_distribution(p: _Problems, s: Scenario, node: YNode, state: State) -> None:
    if not isinstance(node, YMap):
        p.error(node.span, "`distribution:` is a mapping: of, runs, values, significance")
        return
    _keys(p, node, DISTRIBUTION_KEYS, "distribution")
    of = node.get("of")
    if of is None or _read_of(p, s, of, state) is None:
        if of is None:
            p.error(node.span, "`distribution:` needs `of:`, the field (or `field[entity]`) whose values are counted")
    runs = node.get("runs")
    if runs is not None and not (isinstance(runs, YScalar) and is_int(runs.value)
                                 and 1 <= runs.value <= MAX_DISTRIBUTION_RUNS):
        p.error(runs.span, f"`runs:` is a whole number from 1 to {MAX_DISTRIBUTION_RUNS:,}")
    sig = node.get("significance")
    if sig is not None and not (isinstance(sig, YScalar) and isinstance(sig.value, float) and 0 < sig.value < 1):
        p.error(sig.span, "`significance:` is a probability between 0 and 1, such as 0.001")
    values = node.get("values")
    if not isinstance(values, YMap) or not values.items:
        p.error((values or node).span, "`values:` maps each value to its probability (`{1: 1/8, 2: 1/4}`)")
        return
    total = Fraction(0)
    for _, v in values.items:
        q = _probability(v)
        if q is None:
            p.error(v.span, "a probability is a number from 0 to 1 or a fraction (`1/8`)")
            return
        total += q
    if abs(total - 1) > Fraction(1, 10**6):
        p.error(values.span, f"the probabilities add up to {float(total):g}, not 1")


def _probability(node: YNode) -> Fraction | None:
    if not isinstance(node, YScalar) or isinstance(node.value, bool):
        return None
    try:
        q = Fraction(str(node.value))
    except (ValueError, ZeroDivisionError):
        return None
    return q if 0 <= q <= 1 else None


def _read_of(p: _Problems, s: Scenario, node: YNode, state: State) -> tuple[FieldInfo, int | None] | None:
    """The field (`roll`) or one entity's value of a per-entity field (`gold[Alex]`) counted."""
    text = _text(p, node)
    if text is None:
        return None
    name, _, rest = text.partition("[")
    fields = {f.name: f for f in state.FIELDS}
    info = fields.get(name.strip())
    if info is None:
        p.error(node.span, f"no field `{name.strip()}` in {s.ruleset}", did_you_mean(name.strip(), fields))
        return None
    if info.per is None:
        if rest:
            p.error(node.span, f"`{info.name}` is one value: count it as `{info.name}`")
            return None
        return info, None
    if not rest.endswith("]"):
        p.error(node.span, f"`{info.name}` has one value per {info.per}: count one, `{info.name}[...]`")
        return None
    index = _entity_index(p, s, info, YScalar(rest[:-1].strip(), node.span, node.span), state)
    return None if index is None else (info, index)


def _distribution(s: Scenario, game: Game, node: YMap) -> Check:
    """Replay the scenario (position and steps) under `runs` seeds drawn from its own, count the
    values of `of`, and test them against `values` (Pearson's chi-square goodness of fit)."""
    from .runtime.rng import derive_seed

    p = _Problems()
    sig_node, of_node = node.get("significance"), node.get("of")
    runs = _runs(node)
    significance = sig_node.value if isinstance(sig_node, YScalar) and isinstance(sig_node.value, float) else 0.001
    values = node.get("values")
    wanted = {_key_text(k.value): _probability(v) or Fraction(0)
              for k, v in (values.items if isinstance(values, YMap) else ())}
    what = f"distribution of {of_node.value if isinstance(of_node, YScalar) else '?'}"
    options = {k: v for k, v in s.options.items() if k in {o.name for o in game.info.options}}
    counts: dict[str, int] = {}
    for i in range(runs):
        state = game.new_state(_player_count(s, game), derive_seed(s.seed, i), options)
        problem = apply_position(s, state)
        error = problem or _play(s, state)
        if error is not None:
            return Check(what, "a value per run", f"run {i + 1} stopped: {error}", False)
        target = _read_of(p, s, of_node, state) if of_node is not None else None
        if target is None:
            return Check(what, "a value per run", "no field to count", False)
        info, index = target
        value = getattr(state, info.name)
        value = value if index is None else value[index]
        names = (*s.names[:state.num_players], *state.NEUTRAL)
        shown = _key_text(_shown(state, info, value, names) if index is None else _named(state, info, value))
        counts[shown] = counts.get(shown, 0) + 1
    expected_shown = {k: str(v) for k, v in wanted.items()}
    strays = sorted(k for k in counts if wanted.get(k, 0) == 0)
    observed = ", ".join(f"{k}: {counts[k]}" for k in sorted(counts, key=_natural))
    if strays:
        return Check(what, expected_shown, f"{', '.join(strays)} came up (observed {observed} in {runs} runs)", False)
    keys = [k for k, q in wanted.items() if q > 0]
    if len(keys) == 1:  # one value certain: it came up every time (no stray above), nothing to test
        return Check(what, expected_shown, f"observed {observed} in {runs} runs", True)
    try:
        from scipy.stats import chisquare  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return Check(what, expected_shown, "not tested: a distribution needs scipy (pip install 'rulewright[stats]')",
                     False)
    test = chisquare([counts.get(k, 0) for k in keys], [float(wanted[k]) * runs for k in keys])
    pvalue = float(test.pvalue)
    return Check(what, expected_shown, f"observed {observed} in {runs} runs: chi-square {float(test.statistic):.2f}, "
                 f"p = {pvalue:.3g} {'>=' if pvalue >= significance else '<'} {significance:g}",
                 pvalue >= significance)


def _key_text(value: Any) -> str:
    """A value as a distribution's `values:` key writes it: `true`, `3`, `[diplomacy, watchers]`
    (a list or set as a position writes it, quoted since it is a key)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_key_text(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _natural(text: str) -> tuple[int, int | str]:
    number = whole_number(text, signed=True)
    return (0, number) if number is not None else (1, text)


def _plain(value: Any) -> Any:
    """Lists and tuples compare alike (a position gives tuples, a state may hold lists)."""
    return list(value) if isinstance(value, (list, tuple)) else value


def _shown(state: State, info: FieldInfo, value: Any, names: tuple[str, ...]) -> Any:
    """A value as the scenario writes it: players by their names, everything else by label."""
    if info.element == "player" and value is not None:
        if isinstance(value, (list, tuple, frozenset, set)):
            items = [names[v] for v in value]
            return sorted(items) if info.kind == "set" else items
        return names[value]
    return _named(state, info, value)


def _named(state: State, info: FieldInfo, value: Any) -> Any:
    if value is None:
        return None
    if info.kind in ("list", "set", "optional", "record"):  # one entity's list (a hand), or its record
        return state._named(info, value)                      # (a tuple of fields): named by the state
    if info.per is not None and isinstance(value, list | tuple):
        return [state._named(info, v) for v in value]
    return state._named(info, value)


# -- Against another rule set --------------------------------------------------------------------

@dataclass
class Comparison:
    scenario: Scenario
    base: Result
    other: Result
    changes: list[tuple[str, Any, Any]]  # what, outcome under the scenario's rule set, under the other
    skipped: str | None = None  # why it was not compared: written for a rule set the other does not extend

    def report(self, other_name: str) -> str:
        if self.skipped is not None:
            return f"skipped  {self.scenario.name}  ({self.scenario.where}): {self.skipped}"
        if not self.changes:
            return f"same     {self.scenario.name}  ({self.scenario.where})"
        lines = [f"CHANGED  {self.scenario.name}  ({self.scenario.where})"]
        for what, before, after in self.changes:
            lines.append(f"  {what}: {_show(before)} -> {_show(after)} under {other_name}")
        fired = [r for r in self.other.rule_lines() if r not in self.base.rule_lines()]
        if fired:
            lines.append(f"  rules fired only under {other_name}: " + ", ".join(fired))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.scenario.name,
            "file": self.scenario.file,
            "line": self.scenario.span.line,
            "changed": bool(self.changes),
            "skipped": self.skipped,
            "changes": [{"what": w, "before": b, "after": a} for w, b, a in self.changes],
        }


def extends(other: Game, base: Game) -> bool:
    """Whether `other` is `base` or a variant of it (directly or through other variants): its
    rule files are base's, then its own."""
    files = base.info.files
    return other.info.id == base.info.id and tuple(other.info.files[:len(files)]) == tuple(files)


def compare(s: Scenario, other: Game) -> Comparison:
    """The outcomes of a scenario under its own rule set and under `other`. A scenario written for
    a rule set that `other` does not extend is not played (its outcomes would differ for reasons
    that are not the variant's): the comparison says so in `skipped`."""
    assert s.game is not None, "load the scenario with load_file first"
    if not extends(other, s.game):
        empty = Result(s)
        return Comparison(s, empty, empty, [], skipped=f"written for {s.game.info.ruleset}, which "
                          f"{other.info.ruleset} does not extend")
    base = run(s)
    variant = Scenario(**{**s.__dict__, "game": other})
    after = run(variant, other)
    changes: list[tuple[str, Any, Any]] = []
    if (base.problem or None) != (after.problem or None):
        changes.append(("step", base.problem or "played", after.problem or "played"))
    by_what = {c.what: c for c in after.checks}
    for c in base.checks:
        twin = by_what.get(c.what)
        if twin is not None and twin.actual != c.actual:
            changes.append((c.what, c.actual, twin.actual))
    return Comparison(s, base, after, changes)


def scenario_files(paths: list[Path]) -> list[Path]:
    """Every .yaml under the folders given, and the files given, in a stable order."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*.yaml") if q.is_file()))
        else:
            out.append(path)
    return out


def load_all(paths: list[Path], loader: GameLoader = default_loader) -> tuple[list[Scenario], list[Diagnostic]]:
    scenarios: list[Scenario] = []
    problems: list[Diagnostic] = []
    for path in scenario_files(paths):
        found, diagnostics = load_file(path, loader)
        scenarios.extend(found)
        problems.extend(diagnostics)
    return scenarios, problems


def by_name(scenarios: list[Scenario]) -> Mapping[str, Scenario]:
    return {s.name: s for s in scenarios}
