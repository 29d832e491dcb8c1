"""A sample of what a player does not see (a determinisation), from the declared visibility.

`sample(state, observer, rng)` (the method `State.sample_unseen`) returns a new state in which
everything `observer` may not see is drawn again, consistently with what he sees: his
observation is the same, so are his legal actions when he is to act, and what the game
conserves stays conserved. The state's own generator is seeded from `rng`: its future draws are
hidden too. The sample depends on what the observer sees, on `rng`, and on the unseen values
only as a multiset (each pool is sorted before it is shuffled), never on where the unseen values
actually are: sampling a sample with the same `rng` gives the same state again.

What is unseen, by the fields' declared visibility (docs/language.md, "State fields"): another
player's `visible: owner` entries, every `visible: none` field or entry, the items of a
`visible: size` pile, the entries or items of a `visible: {to: ...}` field seen by another,
the hidden items of a list (`hide_items_if`); a field whose `shown_if` holds is seen.

How each kind of unseen value is drawn again (docs/experiments.md, "Hidden information"):

- Items: the items of the unseen lists and sets of one item type (an entity kind or an enum)
  are one pool, dealt again into the same places, each place keeping its size (cards in other
  hands and in a face-down deck; tiles in a bag, behind screens and in the box). Fields that
  declare `pool: NAME` are a pool of their own (China (Schacht)'s bonus tiles, of the card
  colours, are never dealt among the cards). A per-player
  set of an enum's values (a hand of one card of each kind) is a pool of its own per player:
  with the items of that type in the records of his other unseen fields (the cards he laid face
  down), since a set cannot hold two of a kind.
- Marks: an unseen set whose items all lie in the other unseen places of their pool (the tiles
  of a list that fell face down) follows its items where they are dealt.
- Values: the unseen entries of a per-entity field that are not items (another player's money,
  his points, a value on a region) are exchanged among themselves; on a per-spot or per-region
  field only among the entries holding something (not 0, false, none or empty: an empty place
  stays empty), and without the entries the observer's own unseen-to-others records name (what
  he looked at himself); the other players' records that copied such a value follow it.
  A lone unseen value (no `per:`) has nothing to be exchanged with: it is kept.
- Values drawn afresh: the unseen entries of a field that declares `unseen: redraw` (a value that
  came from chance and was dealt from no pool: the face of a die under a cup) are each drawn
  again, uniformly from the field's values (an int's `range:`, a bool, an enumeration), never
  exchanged: so a lone one is not kept, and the others' dice do not keep their multiset. An entry
  holding a value outside them (the 0 of a die not thrown yet) is kept, and so, on a per-spot or
  per-region field, is an entry the observer's own records name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .decisions import rebuilt
from .order import sort_key
from .rng import Rng

if TYPE_CHECKING:
    from .state import FieldInfo, State

# A place an item was dealt from: (field, entry or -1 for a field without `per:`, item index or
# -1 for an item of a set, record component or -1 for the whole item)
Place = tuple[str, int, int, int]


def _empty(value: Any) -> bool:
    return value is None or value is False or value == 0 or (isinstance(value, (tuple, frozenset, list))
                                                             and not value)


def _value_key(value: Any) -> Any:
    """A total order of any value a field holds (ints, tuples, sets, records, none)."""
    return sort_key(value)


def shuffled(items: list[Any], rng: Rng) -> list[Any]:
    """`items` in canonical order, then shuffled (Fisher-Yates) by `rng`."""
    out = sorted(items, key=_value_key)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


class Unseen:
    """What `observer` does not see of `state`: its unseen entries and items, field by field."""

    def __init__(self, state: State, observer: int) -> None:
        self.state = state
        self.observer = observer
        # field name -> the unseen entries (per-entity fields; -1 for the whole field without `per:`)
        self.entries: dict[str, list[int]] = {}
        # field name -> the unseen items of a list seen otherwise (`to` items, `hide_items_if`)
        self.items: dict[str, list[int]] = {}
        for info in state.FIELDS:
            if info.kind == "auction":  # (all of an auction is public)
                continue
            visible = info.visible
            if visible != "all" and state._shown(info.name):
                visible = "all"
            value = getattr(state, info.name)
            name = info.name
            if info.per is None:
                if visible in ("none", "size", "owner"):
                    self.entries[name] = [-1]
                    continue
                hidden: list[int] = []
                if visible == "to":
                    hidden = [k for k in range(len(value)) if state._seen_by(name, k) != observer]
                if info.kind == "list":
                    hidden += [k for k in range(len(value)) if k not in hidden and state._hidden_item(name, k)]
                if hidden:
                    self.items[name] = sorted(hidden)
            elif visible != "all":
                if info.per == "player":
                    unseen = [p for p in range(len(value)) if p != observer]
                elif visible == "to":
                    unseen = [i for i in range(len(value)) if state._seen_by(name, i) != observer]
                else:
                    unseen = list(range(len(value)))
                if unseen:
                    self.entries[name] = unseen

    def fields(self) -> list[str]:
        """The fields with something unseen, in the order of the state's fields."""
        return [f.name for f in self.state.FIELDS if f.name in self.entries or f.name in self.items]


def _record_types(state: State, info: FieldInfo) -> tuple[str, ...] | None:
    """The types of the components of the records a list or set field holds (None: no records)."""
    declared = info.declared
    for wrapper in ("list(", "set("):
        if declared.startswith(wrapper) and declared.endswith(")"):
            inner = declared[len(wrapper):-1]
            if inner in state.RECORDS:
                return tuple(ty for _, ty in state.RECORDS[inner])
    return None


def _pool_key(state: State, info: FieldInfo, entry: int) -> str:
    """The pool of the items of an unseen list or set: the one its `pool:` names, else its item
    type, and for a per-player set of an enum's values also its owner (each player holds his own
    copy of the values)."""
    if info.pool:
        return "pool:" + info.pool
    if info.kind == "set" and info.per == "player" and info.element in state.ENUMS:
        return f"{info.element}@{entry}"
    return info.element


def sample(state: State, observer: int, rng: Rng) -> State:
    """A state `observer` cannot tell from `state`, everything he does not see drawn again."""
    if not 0 <= observer < state.num_players:
        from .errors import BadSetup

        raise BadSetup(f"no player {observer} in a {state.num_players}-player game")
    if state._pending is not None:
        return _sample_pending(state, observer, rng)
    out = state.clone()
    _redraw(out, Unseen(state, observer), rng)
    if out._chosen:
        _redraw_choices(out, observer, rng)
    out.rng = Rng(rng.next64())
    return out


def _redraw_choices(out: State, observer: int, rng: Rng) -> None:
    """In a simultaneous decision, what the other seats chose already, which `observer` does not
    see (only that they chose): each drawn again among that seat's legal actions, in seat order."""
    chosen = out._chosen
    assert chosen is not None
    mine = chosen.get(observer)
    out._chosen = None if mine is None else {observer: mine}
    out._legal_cache = None
    for seat in sorted(chosen):
        if seat != observer:
            legal = out.legal_actions(seat)
            out._chosen = {**(out._chosen or {}), seat: legal[rng.below(len(legal))]}
            out._legal_cache = None


def _sample_pending(state: State, observer: int, rng: Rng) -> State:
    """A state whose move waits for a decision: a copy (its move played again from where it
    began), its unseen values drawn again in place. A copy of the sample is the same sample made
    again (runtime/decisions.py, `Pending.resample`), never the move played again from where it
    began, which would give back the values drawn again."""
    return _pending_sample(state.clone(), observer, rng.next64())


def _pending_sample(frozen: State, observer: int, seed: int) -> State:
    rng = Rng(seed)
    out = rebuilt(frozen)
    _redraw(out, Unseen(frozen, observer), rng)
    out.rng = Rng(rng.next64())
    pending = out._pending
    if pending is not None:
        def again() -> State:
            return _pending_sample(frozen, observer, seed)
        pending.resample = again
    return out


def _redraw(out: State, unseen: Unseen, rng: Rng) -> None:
    infos = {f.name: f for f in out.FIELDS}
    values: dict[str, Any] = {name: getattr(out, name) for name in unseen.fields()}
    # -- 1. the places of items, by pool; the values and the records without a pool
    places: dict[str, list[Place]] = {}
    items: dict[str, list[Any]] = {}
    whole: dict[str, list[int]] = {}  # field -> its unseen entries exchanged as whole values
    fresh: dict[str, list[int]] = {}  # field -> its unseen entries drawn afresh (`unseen: redraw`; -1: no `per:`)
    marks: list[str] = []

    def add(key: str, place: Place, item: Any) -> None:
        places.setdefault(key, []).append(place)
        items.setdefault(key, []).append(item)

    owner_pools: set[str] = set()
    for name in unseen.fields():
        info = infos[name]
        if info.kind == "set" and info.per == "player" and info.element in out.ENUMS and not info.pool:
            owner_pools.update(f"{info.element}@{e}" for e in unseen.entries.get(name, []))
    for name in unseen.fields():
        info, value = infos[name], values[name]
        if name in unseen.items:  # unseen items of a list seen otherwise
            for k in unseen.items[name]:
                add(_pool_key(out, info, -1) or info.declared, (name, -1, k, -1), value[k])
            continue
        for entry in unseen.entries[name]:
            held = value if entry < 0 else value[entry]
            if info.kind in ("list", "set") and info.element:
                key = _pool_key(out, info, entry)
                ordered = list(held) if info.kind == "list" else sorted(held, key=_value_key)
                for k, item in enumerate(ordered):
                    add(key, (name, entry, k, -1), item)
                continue
            components = _record_types(out, info)
            if components is not None and info.per == "player":
                pooled = [c for c, ty in enumerate(components) if f"{ty}@{entry}" in owner_pools]
                if pooled:
                    ordered = list(held) if info.kind == "list" else sorted(held, key=_value_key)
                    for k, record in enumerate(ordered):
                        for c in pooled:
                            add(f"{components[c]}@{entry}", (name, entry, k, c), record[c])
                    continue
            if info.redraw is not None:
                fresh.setdefault(name, []).append(entry)
            elif entry >= 0:
                whole.setdefault(name, []).append(entry)
    # an unseen set without `per:` whose items all lie in the other unseen places of their pool
    for name in unseen.fields():
        info = infos[name]
        key = _pool_key(out, info, -1)
        if info.per is None and info.kind == "set" and name in unseen.entries and key in places:
            others = {item for place, item in zip(places[key], items[key], strict=True) if place[0] != name}
            if set(values[name]) <= others:
                marks.append(name)
    for name in marks:
        key = _pool_key(out, infos[name], -1)
        kept = [(p, i) for p, i in zip(places[key], items[key], strict=True) if p[0] != name]
        places[key] = [p for p, _ in kept]
        items[key] = [i for _, i in kept]
    # -- 2. deal each pool again
    dealt: dict[Place, Any] = {}
    follow: dict[str, dict[Any, Any]] = {}  # pool -> old item -> new item (pools of distinct items)
    for key in places:
        new = _deal(places[key], items[key], rng, infos)
        dealt.update(zip(places[key], new, strict=True))
        if len(set(items[key])) == len(items[key]):
            follow[key] = dict(zip(items[key], new, strict=True))
    # -- 3. the values, exchanged among their unseen entries or drawn afresh (in the order of the fields)
    changed_values: dict[str, dict[int, tuple[Any, Any]]] = {}
    lone: dict[str, Any] = {}  # a field without `per:` drawn afresh -> its new value
    pinned = _pinned(out, unseen, infos)
    for name in unseen.fields():
        info = infos[name]
        value = values[name]
        if name in fresh:
            drawn = _fresh(info, value, fresh[name], pinned, rng)
            if info.per is None:
                if -1 in drawn:
                    lone[name] = drawn[-1][1]
            elif drawn:
                changed_values[name] = drawn
            continue
        if name not in whole:
            continue
        entries = whole[name]
        if info.per not in ("player",):
            entries = [e for e in entries if not _empty(value[e]) and e not in pinned.get(info.per or "", set())]
        olds = [value[e] for e in entries]
        news = shuffled(olds, rng)
        changed_values[name] = {e: (o, n) for e, o, n in zip(entries, olds, news, strict=True) if o != n}
    # -- 4. write back
    for name in unseen.fields():
        info = infos[name]
        value = values[name]
        if name in marks:
            table = follow.get(_pool_key(out, info, -1), {})
            setattr(out, name, frozenset(table.get(item, item) for item in value))
            continue
        if name in unseen.items:
            new_list = list(value)
            for k in unseen.items[name]:
                new_list[k] = dealt.get((name, -1, k, -1), value[k])
            setattr(out, name, tuple(new_list))
            continue
        if name in lone:
            setattr(out, name, lone[name])
            continue
        if name in changed_values:
            entries_list = list(value)
            for e, (_, new_value) in changed_values[name].items():
                entries_list[e] = new_value
            setattr(out, name, entries_list)
            continue
        if info.per is None:
            setattr(out, name, _rebuilt(info, name, -1, value, dealt))
        else:
            setattr(out, name, [_rebuilt(info, name, e, v, dealt) if e in unseen.entries[name] else v
                                for e, v in enumerate(value)])
    _copies(out, unseen, infos, changed_values)
    out._fields_set()
    out._legal_cache = None
    out._derived = None


def _fresh(info: FieldInfo, value: Any, entries: list[int], pinned: dict[str, set[int]],
           rng: Rng) -> dict[int, tuple[Any, Any]]:
    """`unseen: redraw`: each unseen entry (-1: the field without `per:`) drawn afresh, uniformly
    from the field's values (`info.redraw`, least and most), in the order of the entries; an entry
    holding a value outside them (the 0 of a die not thrown yet) and one the observer's own records
    name (what he looked at himself) are kept. Entry -> (old value, new value), where it changed."""
    assert info.redraw is not None
    least, most = info.redraw
    drawn: dict[int, tuple[Any, Any]] = {}
    for e in entries:
        old = value if e < 0 else value[e]
        if info.per not in (None, "player") and e in pinned.get(info.per, set()):
            continue
        if isinstance(old, bool) != (info.kind == "bool"):
            continue
        if not isinstance(old, int) or not least <= old <= most:
            continue
        new: Any = least + rng.below(most - least + 1)
        if info.kind == "bool":
            new = bool(new)
        if new != old:
            drawn[e] = (old, new)
    return drawn


def _rebuilt(info: FieldInfo, name: str, entry: int, held: Any, dealt: dict[Place, Any]) -> Any:
    """One unseen list or set with the items dealt to its places."""
    if info.kind not in ("list", "set"):
        return held
    ordered = list(held) if info.kind == "list" else sorted(held, key=_value_key)
    new: list[Any] = []
    for k, item in enumerate(ordered):
        whole_item = dealt.get((name, entry, k, -1))
        if whole_item is not None or (name, entry, k, -1) in dealt:
            new.append(whole_item)
            continue
        if isinstance(item, tuple):  # a record: its pooled components dealt
            parts = list(item)
            for c in range(len(parts)):
                if (name, entry, k, c) in dealt:
                    parts[c] = dealt[(name, entry, k, c)]
            new.append(tuple(parts))
        else:
            new.append(item)
    return tuple(new) if info.kind == "list" else frozenset(new)


def _deal(places: list[Place], items: list[Any], rng: Rng, infos: dict[str, FieldInfo]) -> list[Any]:
    """The pool's items dealt to its places at random: a set is never dealt two equal items (it
    could not hold them), the places of sets are dealt first among the distinct items left."""
    pool = shuffled(items, rng)
    out: list[Any] = [None] * len(places)
    in_sets: dict[tuple[str, int], list[int]] = {}
    rest: list[int] = []
    for i, (name, entry, _, component) in enumerate(places):
        if infos[name].kind == "set" and component < 0:
            in_sets.setdefault((name, entry), []).append(i)
        else:
            rest.append(i)
    for indices in in_sets.values():
        taken: set[Any] = set()
        for i in indices:
            k = next((j for j, item in enumerate(pool) if item not in taken), None)
            if k is None:  # (no distinct item left: cannot happen for a pool the rules dealt)
                k = 0
            out[i] = pool.pop(k)
            taken.add(out[i])
    for i, item in zip(rest, pool, strict=True):
        out[i] = item
    return out


def _record_fields(out: State, infos: dict[str, FieldInfo]) -> list[tuple[FieldInfo, tuple[str, ...]]]:
    found = []
    for info in infos.values():
        components = _record_types(out, info)
        if components is not None:
            found.append((info, components))
    return found


def _pinned(out: State, unseen: Unseen, infos: dict[str, FieldInfo]) -> dict[str, set[int]]:
    """Entity kind -> the entities the observer's own records in his `owner` fields name (what he
    has looked at himself: their unseen values are known to him)."""
    pinned: dict[str, set[int]] = {}
    for info, components in _record_fields(out, infos):
        if info.per != "player" or info.visible != "owner":
            continue
        for record in getattr(out, info.name)[unseen.observer]:
            for c, ty in enumerate(components):
                pinned.setdefault(ty, set()).add(record[c])
    return pinned


def _copies(out: State, unseen: Unseen, infos: dict[str, FieldInfo],
            changed: dict[str, dict[int, tuple[Any, Any]]]) -> None:
    """Other players' unseen records that copied a value exchanged (an entity of the field's kind
    and that value, `sighting(watched=m, threat=peril[m])`) follow the value."""
    if not changed:
        return
    for info, components in _record_fields(out, infos):
        if info.name not in unseen.entries or info.per is None:
            continue
        value = list(getattr(out, info.name))
        touched = False
        for e in unseen.entries[info.name]:
            records = value[e]
            new_records = [_followed(r, components, changed, infos) for r in records]
            if new_records != list(records):
                value[e] = tuple(new_records) if info.kind == "list" else frozenset(new_records)
                touched = True
        if touched:
            setattr(out, info.name, value)


def _followed(record: Any, components: tuple[str, ...], changed: dict[str, dict[int, tuple[Any, Any]]],
              infos: dict[str, FieldInfo]) -> Any:
    parts = list(record)
    for name, moves in changed.items():
        kind = infos[name].per
        for c, ty in enumerate(components):
            if ty != kind or parts[c] not in moves:
                continue
            old, new = moves[parts[c]]
            for d in range(len(parts)):
                if d != c and parts[d] == old and type(parts[d]) is type(old):
                    parts[d] = new
    return tuple(parts)

