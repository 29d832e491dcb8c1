"""Changes to a position, each with whether a player may see it: the leak tests' probe (tests/test_visibility.py,
tests/test_draw.py). `perturbations(state, player)` changes every field in turn (an entry, an item, a hidden
item, a face-down pile's order); `how_seen(state)` says what decides who sees what, so that a change which
moves that (not a like position) is left out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulewright.runtime import FieldInfo, GameError, State, sort_key
from rulewright.runtime.state import _parse_type as field_type_of
from rulewright.runtime.state import field_type


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


def hidden_items(state: State, info: FieldInfo) -> tuple[int, ...]:
    if info.kind != "list" or info.per is not None:
        return ()
    return tuple(k for k in range(len(getattr(state, info.name))) if state._hidden_item(info.name, k))


def _seers(state: State, info: FieldInfo) -> tuple[int, ...]:
    """Who sees each entry or item of a `visible: {to: ...}` field."""
    if info.visible != "to":
        return ()
    return tuple(state._seen_by(info.name, k) for k in range(len(getattr(state, info.name))))


def how_seen(state: State) -> Any:
    """What decides who sees what, now: each field's `shown_if`, its hidden items and who sees
    each item (None for a changed state the rules cannot read: a list of flags made shorter than
    the list it flags)."""
    try:
        return [(state._shown(f.name), hidden_items(state, f), _seers(state, f)) for f in state.FIELDS]
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
            hidden_k = hidden_items(state, info)
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
        hidden = hidden_items(state, info) if visible == "all" else ()
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
