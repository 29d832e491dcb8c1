"""What is hidden stays hidden (issue 10).

1. The corpus tests/hostile/visibility/: each file is a small game with one visibility that has no
   meaning (`visible: owner` on a field no player owns, `shown_if` on a field everyone sees,
   `hide_items_if` on a field nobody sees) and says on its first line the clean error the checker
   gives, `# expect: <path>:<line>:<col>: error: <message>`. Such a field was shown to everyone.
2. A leak test over every bundled rule set and every test game: in states sampled from seeded
   random games, changing anything a player may not see (another player's `owner` field, a `none`
   field, the items of a `size` pile, a hidden item of a list) leaves that player's observation as
   it was; changing anything he sees changes it (so the test has teeth).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.compiler.driver import compile_file
from rulewright.core.paths import rules_dir
from rulewright.core.source import CompileError
from rulewright.runtime import FieldInfo, Game, GameError, Rng, State, sort_key
from rulewright.runtime.state import _parse_type as field_type_of
from rulewright.runtime.state import field_type

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile" / "visibility"
CASES = sorted(HOSTILE.glob("*.yaml"))
EXPECT = "# expect: "
RULESETS = sorted(
    p.parent.name if p.stem == "base" else f"{p.parent.name}/{p.stem}"
    for p in Path(rules_dir()).glob("*/*.yaml")
)
GAMES = ROOT / "tests" / "games"
TEST_GAMES = sorted(p.name for p in GAMES.glob("*.yaml"))
MOVES = 90  # per game
SAMPLE_EVERY = 9  # a state is sampled every 9 moves
SEEDS = (0, 1)


def expectation(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(EXPECT), f"{path.name} must start with `{EXPECT}`"
    return first[len(EXPECT):]


# -- 1. the corpus ------------------------------------------------------------------------------

def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_a_visibility_without_meaning_is_refused_where_it_is_written(path: Path) -> None:
    wanted = expectation(path)
    with pytest.raises(CompileError) as failed:
        compile_file(path.relative_to(ROOT))
    rendered = [d.render() for d in failed.value.diagnostics]
    assert [r.splitlines()[0] for r in rendered] == [wanted]
    assert "hint: " in rendered[0]


def test_the_cli_refuses_a_per_region_owner_field_in_one_clean_message() -> None:
    path = "tests/hostile/visibility/owner_per_region.yaml"
    done = subprocess.run([sys.executable, "-m", "rulewright", "check", path], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    out = done.stdout + done.stderr
    assert expectation(ROOT / path) in out
    assert "hint: use `visible: none` to hide it from every player" in out
    assert "Traceback" not in out


def test_visible_to_shows_entry_k_to_the_player_its_expression_names_only() -> None:
    """face-down.yaml: a card laid face down is seen by the player who laid it; a token by the
    player who peeked at it; everyone sees who laid and who peeked, and how many tokens."""
    game = rulewright.load_rules(GAMES / "face-down.yaml")
    state: Any = game.new_state(players=3, seed=4)
    state.apply("peek")     # P1 peeks
    state.apply("lay 2")    # P2 lays on spot 2
    state.apply("peek")     # P3 peeks
    laid, tokens = state.card[1], state.tokens
    views = [state.observation(p)["fields"] for p in range(3)]
    assert [v["card"]["2"] for v in views] == [None, state.label("rank", laid), None]
    assert [v["card"]["1"] for v in views] == ["blank", None, None], "an empty spot: its `layer` (P1) sees it"
    assert [v["tokens"] for v in views] == [[tokens[0], "hidden"], ["hidden", "hidden"], ["hidden", tokens[1]]]
    assert all(v["peeker"] == ["P1", "P3"] and v["layer"]["2"] == "P2" for v in views)
    text = compile_file((GAMES / "face-down.yaml").relative_to(ROOT)).source
    assert "            return int(self.layer[k])  # tests/games/face-down.yaml:19\n" in text


# -- 2. the leak test ---------------------------------------------------------------------------

def _default_item(info: FieldInfo) -> Any:
    """A value for a new item of a list or set field: entity or value 0, number 0, or an empty list."""
    if info.element:
        return 0
    inner = info.declared[len(info.kind) + 1:-1]  # `list(bool)` -> `bool`
    if inner.startswith("list("):
        return ()
    if inner.startswith("set("):
        return frozenset()
    return False if inner == "bool" else 0


def _default_typed(state: State, t: Any) -> Any:
    """A value of a saved type (runtime/state.py's `_Type`): 0, false, empty, a record of those."""
    if t.kind == "item" and t.name in state.RECORDS:
        return tuple(_default_typed(state, field_type_of(ty)) for _, ty in state.RECORDS[t.name])
    return {"list": (), "set": frozenset(), "bool": False, "optional": None}.get(t.kind, 0)


def _changed_typed(state: State, t: Any, value: Any) -> Any:
    """Another value of a type that holds records or `none`: an optional emptied (or given a
    value), a record with its first field changed, a list one item shorter (or longer)."""
    if t.kind == "optional":
        return _default_typed(state, t.elem) if value is None else None
    if t.kind == "item" and t.name in state.RECORDS:
        first = field_type_of(state.RECORDS[t.name][0][1])
        return (_changed_typed(state, first, value[0]), *value[1:])
    if t.kind == "item":
        return (value + 1) % len(state._labels(t.name))
    if t.kind == "list":
        return tuple(value[:-1]) if value else (_default_typed(state, t.elem),)
    if t.kind == "set":
        return frozenset(sorted(value, key=sort_key)[1:]) if value else frozenset({_default_typed(state, t.elem)})
    if t.kind == "bool":
        return not value
    return value + 1


def _changed(state: State, info: FieldInfo, value: Any) -> Any:
    """Another value of the field's type: a number plus one, a truth value flipped, the next
    entity or value, a list or set one item shorter (or longer, when empty)."""
    kind = info.kind
    if info.declared and (kind in ("record", "optional") or "optional(" in info.declared
                          or any(name in info.declared for name in state.RECORDS)):
        return _changed_typed(state, field_type(info), value)
    if kind == "bool":
        return not value
    if kind == "int":
        return value + 1
    if kind in ("enum", "entity"):
        return (value + 1) % len(state._labels(info.element))
    if kind == "list":
        return tuple(value[:-1]) if value else (_default_item(info),)
    if kind == "set":
        return frozenset(sorted(value)[1:]) if value else frozenset({_default_item(info)})
    raise AssertionError(kind)


def _with(state: State, name: str, value: Any, index: int | None = None) -> State:
    other = state.clone()
    if index is None:
        setattr(other, name, value)
    else:
        entries = list(getattr(other, name))
        entries[index] = value
        setattr(other, name, entries)
    return other


def _hidden_items(state: State, info: FieldInfo) -> tuple[int, ...]:
    if info.kind != "list" or info.per is not None:
        return ()
    return tuple(k for k in range(len(getattr(state, info.name))) if state._hidden_item(info.name, k))


def _seers(state: State, info: FieldInfo) -> tuple[int, ...]:
    """Who sees each entry or item of a `visible: {to: ...}` field."""
    if info.visible != "to":
        return ()
    return tuple(state._seen_by(info.name, k) for k in range(len(getattr(state, info.name))))


def _how_seen(state: State) -> Any:
    """What decides who sees what, now: each field's `shown_if`, its hidden items and who sees
    each item (None for a changed state the rules cannot read: a list of flags made shorter than
    the list it flags)."""
    try:
        return [(state._shown(f.name), _hidden_items(state, f), _seers(state, f)) for f in state.FIELDS]
    except (GameError, IndexError):
        return None


def _others(state: State, info: FieldInfo, value: Any) -> list[Any]:
    """A few item values of the field's type that are not among its items now."""
    count = len(state._labels(info.element)) if info.element else 8
    return [v for v in range(count) if v not in value][:3] if not info.declared or "int" in info.declared else []


def _swapped(value: Any, a: Any, b: Any) -> Any:
    """`value` with `a` and `b` exchanged wherever they stand as items."""
    if isinstance(value, (tuple, frozenset)):
        items = [b if v == a else a if v == b else v for v in value]
        return tuple(items) if isinstance(value, tuple) else frozenset(items)
    return value


def perturbations(state: State, player: int) -> Iterator[tuple[str, State, bool]]:
    """(what, a changed state, whether `player` may see the change), for every field."""
    for info in state.FIELDS:
        if info.kind == "auction":  # (all of an auction is public)
            continue
        value = getattr(state, info.name)
        visible = "all" if info.visible != "all" and state._shown(info.name) else info.visible
        if info.per is not None:
            # every entry of a field someone may not see; of one everyone sees, a spread of them
            # (a board of a hundred spaces has as many entries, and each is seen the same way)
            step = max(1, len(value) // 8) if visible == "all" else 1
            for i, entry in enumerate(value):
                if i % step and i != len(value) - 1:
                    continue
                seen = (visible == "all" or info.per == "player" and visible == "owner" and i == player
                        or visible == "to" and state._seen_by(info.name, i) == player)
                yield f"{info.name}[{i}]", _with(state, info.name, _changed(state, info, entry), i), seen
            continue
        if visible == "to":  # item k seen by the player the field names for it, only
            hidden_k = _hidden_items(state, info)
            for k, item in enumerate(value):
                other = ((item + 1) % len(state._labels(info.element)) if info.element
                         else not item if isinstance(item, bool) else item + 1)
                new = tuple(other if i == k else v for i, v in enumerate(value))
                sees = state._seen_by(info.name, k) == player and k not in hidden_k
                yield f"{info.name}[{k}] (to P{state._seen_by(info.name, k) + 1})", _with(state, info.name, new), sees
        if visible == "size":  # a face-down pile: which items and their order hidden, their number seen
            if info.kind == "list" and len(set(value)) >= 2:
                yield f"{info.name} (order)", _with(state, info.name, tuple(value[1:]) + tuple(value[:1])), False
            for other in _others(state, info, value)[:1]:
                items = sorted(value) if info.kind == "set" else list(value)
                if items:
                    replaced = [other] + items[1:]
                    pile: Any = frozenset(replaced) if info.kind == "set" else tuple(replaced)
                    yield f"{info.name} (an item)", _with(state, info.name, pile), False
        hidden = _hidden_items(state, info) if visible == "all" else ()
        for k in hidden:  # a hidden item, exchanged with another value in every field nobody sees
            for other in _others(state, info, value):
                changed = state.clone()
                for f in state.FIELDS:
                    if f.per is None and f.kind in ("list", "set") and f.element == info.element and (
                            f.name == info.name or f.visible in ("none", "size") and not state._shown(f.name)):
                        setattr(changed, f.name, _swapped(getattr(state, f.name), value[k], other))
                yield f"{info.name}[{k}] (hidden)", changed, False
        if visible == "all" and info.kind == "list" and info.element and len(value) > len(hidden):
            k = next(i for i in range(len(value)) if i not in hidden)
            for other in _others(state, info, value)[:1]:
                new = tuple(other if i == k else v for i, v in enumerate(value))
                yield f"{info.name}[{k}]", _with(state, info.name, new), True
        yield info.name, _with(state, info.name, _changed(state, info, value)), visible in ("all", "size", "to")


def check_no_leak(game: Game, seed: int) -> tuple[int, int]:
    """Plays a seeded random game; returns how many hidden and seen changes it checked."""
    players = game.info.players[seed % len(game.info.players)]
    state = game.new_state(players=players, seed=seed)
    agent = Rng(seed + 11)
    hidden = seen = 0
    for move in range(MOVES):
        if state.is_terminal():
            break
        if move % SAMPLE_EVERY == seed * 5 % SAMPLE_EVERY:  # (seed 1 samples other moves than seed 0)
            how = _how_seen(state)
            for player in range(state.num_players):
                before = state.observation(player)
                for what, changed, sees in perturbations(state, player):
                    if _how_seen(changed) != how:  # (the change moved what is shown: not a like state)
                        continue
                    after = changed.observation(player)
                    where = f"{game.info.ruleset} seed {seed} move {move}: P{player + 1}, {what}"
                    if sees:
                        assert after != before, f"{where}: a change he may see is not in his observation"
                        seen += 1
                    else:
                        assert after == before, f"{where}: a change he may not see leaks into his observation"
                        hidden += 1
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    return hidden, seen


def _has_hidden(game: Game) -> bool:
    state = game.new_state(players=game.info.players[0], seed=0)
    return any(f.visible != "all" or f.name in {g.name for g in state.FIELDS if _hidden_items(state, g)}
               for f in state.FIELDS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_rule_set_leaks_what_a_player_may_not_see(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    totals = [check_no_leak(game, seed) for seed in SEEDS]
    assert sum(s for _, s in totals) > 0
    if _has_hidden(game):
        assert sum(h for h, _ in totals) > 0


@pytest.mark.parametrize("name", TEST_GAMES)
def test_no_test_game_leaks_what_a_player_may_not_see(name: str) -> None:
    game = rulewright.load_rules(GAMES / name)
    totals = [check_no_leak(game, seed) for seed in SEEDS]
    assert sum(s for _, s in totals) > 0
    if _has_hidden(game):
        assert sum(h for h, _ in totals) > 0


def test_the_type_texts_remembered_are_bounded() -> None:
    """A long-lived process (the web board, the language server) loads rule file after rule
    file: the parsed type texts it remembers stay under a bound, and parse the same after."""
    from rulewright.runtime import state

    for n in range(state._PARSED_MOST + 10):
        assert field_type_of(f"list(kind{n})") == field_type_of(f"list(kind{n})")
        assert len(state._PARSED) <= state._PARSED_MOST
    assert field_type_of("optional(set(spot))") == state._parsed_type("optional(set(spot))")
