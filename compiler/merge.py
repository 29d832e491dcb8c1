"""How a variant merges onto what it `extends:` — the semantics of variants, in one module.

A variant file holds only what differs from the rule set it extends. Its keys merge onto the
resolved tree of that rule set (docs/variants.md has the same rules, with examples):

* **Mappings merge key by key, recursively.** Every component of a rule set is a key of a
  mapping (options, actions, triggers, state fields, definitions, procedures, scoring terms,
  boards, regions, dice...), so a variant addresses a component *by its name*, never by its
  position in a list. `actions: {prospect: {when: "roll > 1"}}` replaces the guard of
  `prospect` and keeps its choices, text and effect. A definition or procedure is named by
  what comes before its parameters: `alignments` addresses `"alignments(n: int)"`, and
  overriding it as `alignments:` keeps its parameters (`"alignments(k: int)":` states new ones).
* **`~` (null) removes.** `triggers: {first_reduction: ~}` removes that trigger;
  `actions: {turn_back: {when: ~}}` removes a guard. Removing something that is not there is
  an error, with a did-you-mean. In a variant, `~` always means "remove".
* **Any other value replaces** the one it overrides: a scalar, an expression, an effect list,
  a whole list. A new key adds a component.
* **Lists of names are patched by value.** `actions+: [dig]` appends to a phase's action
  list, `actions-: [turn_back]` takes names out (an error if one is not there; appending one
  that is already there is an error too). Any list of plain values can be patched this way
  (a phase's actions, a trigger's `after`, an option's `choices`, a region's spots); an
  effect (`start`, `effect`, a procedure's body) is only replaced whole, except `setup+:`,
  which appends a variant's own preparation after its base's.
* **Earlier versions.** A definition or scoring term that a variant replaces stays known:
  `base(rent(a))` in the new `rent` uses the version it replaced (`stacked(...).versions`,
  each entry's chain of replaced versions; compiler/build/definitions.py keeps those that `base(...)` uses).
* **Provenance.** Every node keeps its own span: a value keeps the `file:line:col` of the
  file that last set it, a merged mapping keeps the span of the file that declared it, and a
  patched list takes the span of the patch. Errors, generated-code comments and
  `rulewright diff` name the variant for what the variant changed.

Stacking (`extends: [china-schacht/fortifications, china-schacht/bonus-tiles]`): each rule set
named is resolved with its own `extends:`, then the files are applied one after the other
onto the first base, each file once (a base shared by two variants counts once): `stack(base,
variants)`. A file may override anything set by a file it builds on; where it sets a path
that *another* stacked variant (one it does not build on) set to a different value, or
removes what that variant changed, or changes what it removed, that is a conflict: an error
naming both files and lines. The file that stacks them may settle a conflict by setting the
path itself, since it builds on both. A variant may declare `incompatible: [rule set id or
path, ...]`; using it together with one of those (stacked, or one extending the other) is an
error at the line of the declaration, naming both files. A variant may declare itself one of a
*family* of variants of which at most N may be used together (`family: {name: event-cards,
at_most: 2}`); a stack holding more members than that is an error at its `extends:`, unless a
file of the stack declares `family: {name: event-cards, draws: 2}` (its rules put at most that
many in play: a file that stacks them all and draws among them during the game).

Errors are `core.source.Diagnostic` values, raised together in one `MergeError`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..core.load import YMap, YNode, YScalar, YSeq, plain
from ..core.source import Diagnostic, SourceSpan, did_you_mean

# Top-level keys that belong to one file and never merge: what it extends, what it refuses, and
# the families of variants it belongs to or draws among.
OWN_KEYS = ("extends", "incompatible", "family")
# Components named by a signature, `name(param: type, ...)`: addressed by the name alone.
_SIGNED = ("define", "procedures")
# Effect lists: replaced whole, never patched by value.
_EFFECT_KEYS = ("effect", "start")
# Components whose new version may use the one it replaces, `base(...)`: their earlier versions are kept.
VERSIONED = ("define", "scoring")

Path = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Family:
    """One `family:` declaration: the file is a member of the family `name`, of which at most
    `at_most` may be used together, or (`draws`) its rules put at most that many members in play."""

    name: str
    name_node: YScalar  # the declaration's `name:` value, to point at
    count: int  # the value of `at_most:` or of `draws:`
    count_node: YScalar  # that value, to point at
    draws: bool  # `draws:` (a file drawing among the members), not `at_most:` (a member)


@dataclass(frozen=True, slots=True)
class Layer:
    """One rule file's own keys, as applied by `stack`."""

    file: str  # the file as shown in messages (its spans' path)
    name: str  # its rule set id (`china-cornett`, `mandarin/money`) or, outside rules/, its path
    tree: YMap  # its keys, without `extends:` and `incompatible:` (see `own_keys`)
    bases: tuple[str, ...] = ()  # the files it builds on, directly or not
    incompatible: tuple[tuple[YScalar, str], ...] = ()  # each declaration, and the file it names
    extends: YNode | None = None  # its `extends:` value, to point at in messages
    families: tuple[Family, ...] = ()  # its `family:` declarations


class MergeError(Exception):
    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(d.render() for d in diagnostics))
        self.diagnostics = diagnostics


def own_keys(tree: YMap) -> YMap:
    """A rule file's tree without the keys that are its own (`extends:`, `incompatible:`, `family:`)."""
    return YMap(tuple((k, v) for k, v in tree.items if k.value not in OWN_KEYS), tree.span)


@dataclass(frozen=True, slots=True)
class Stacked:
    """A stack's merged tree, and what its definitions and scoring terms replaced."""

    tree: YMap
    # (section, name) -> the versions the entry replaced, the oldest first, each its key and value:
    # `base(...)` in the entry uses the last, `base(...)` in that one the one before, and so on
    versions: dict[tuple[str, str], tuple[tuple[YScalar, YNode], ...]]
    roots: frozenset[str]  # the files that extend nothing (their spans' path)


def merge(base: YMap, patch: YMap) -> YMap:
    """`patch` (one variant's own keys) merged onto `base` (what it extends)."""
    files = tuple(sorted({s.path for s in _spans(base)}))
    return stack(Layer(base.span.path, base.span.path, base),
                 [Layer(patch.span.path, patch.span.path, own_keys(patch), files)])


def stack(base: Layer, variants: Sequence[Layer]) -> YMap:
    """Several variants applied to one base, in order. Raises MergeError with every problem."""
    return stacked(base, variants).tree


def stacked(base: Layer, variants: Sequence[Layer]) -> Stacked:
    """`stack`, with the versions each definition and scoring term replaced."""
    stacker = _Stacker([base, *variants])
    tree = base.tree
    for layer in variants:
        tree = stacker.apply(tree, layer)
    problems = stacker.incompatibilities() + stacker.families() + stacker.diagnostics + stacker.unsettled()
    if problems:
        raise MergeError(problems)
    last = variants[-1].tree.span if variants else tree.span
    versions = {(entry[0], entry[1]): tuple(chain) for entry, chain in stacker.versions.items() if chain}
    return Stacked(YMap(tree.items, last), versions,
                   frozenset(layer.file for layer in (base, *variants) if not layer.bases))


def dotted(path: Path) -> str:
    return ".".join(path)


@dataclass(slots=True)
class _Conflict:
    first: SourceSpan  # what was there, set by a variant the writer does not build on
    second: SourceSpan  # the write that collides with it
    message: str


@dataclass
class _Stacker:
    layers: list[Layer]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # path -> where it was removed, and by which file
    removed: dict[Path, SourceSpan] = field(default_factory=dict)
    # (path of a list, item value) -> where that item was taken out
    removed_items: dict[tuple[Path, object], SourceSpan] = field(default_factory=dict)
    conflicts: dict[Path, _Conflict] = field(default_factory=dict)
    allowed: frozenset[str] = frozenset()
    # the path (section, name) of a definition or scoring term -> the versions it replaced, the oldest first
    versions: dict[Path, list[tuple[YScalar, YNode]]] = field(default_factory=dict)

    # -- applying one layer
    def apply(self, tree: YMap, layer: Layer) -> YMap:
        self.allowed = frozenset((*layer.bases, layer.file))
        return self.merge_map(tree, layer.tree, ())

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(span, message, hint))

    def foreign(self, *nodes: YNode) -> SourceSpan | None:
        """The first span in `nodes` set by a file the current layer does not build on."""
        for node in nodes:
            for span in _spans(node):
                if span.path not in self.allowed:
                    return span
        return None

    def conflict(self, path: Path, first: SourceSpan, second: SourceSpan, message: str) -> None:
        self.conflicts.setdefault(path, _Conflict(first, second, message))

    def settle(self, path: Path) -> None:
        """A write at `path` by a file that builds on both sides of a conflict there settles it."""
        for other in [p for p in self.conflicts if p[: len(path)] == path]:
            c = self.conflicts[other]
            if c.first.path in self.allowed and c.second.path in self.allowed:
                del self.conflicts[other]

    def merge_map(self, base: YMap, patch: YMap, path: Path) -> YMap:
        """`patch` put onto `base` (at `path`): each key of the patch patches a list (`name+:`,
        `name-:`), removes an entry (no value), merges a mapping into a mapping, adds an entry or
        replaces one."""
        items: list[tuple[YScalar, YNode]] = list(base.items)
        plain_keys = {key_name(path, str(k.value)) for k, _ in patch.items}
        for key, value in patch.items:
            raw = str(key.value)
            if isinstance(key.value, str) and len(raw) > 1 and raw[-1] in "+-":
                self.patch_entry(items, key, value, path, plain_keys)
                continue
            name = key_name(path, raw)
            here = (*path, name)
            i = _position(items, path, name)
            old = items[i][1] if i is not None else None
            if isinstance(value, YScalar) and value.value is None:  # removal
                self.remove_entry(items, i, key, path, name)
                continue
            if isinstance(value, YMap) and isinstance(old, YMap):
                assert i is not None
                merged = self.merge_map(old, value, here)
                self.versioned(here, items[i][0], old, items[i][0], merged)
                items[i] = (items[i][0], merged)
                continue
            new: YNode = self.merge_map(YMap((), value.span), value, here) if isinstance(value, YMap) else value
            if i is None:
                gone = self.removed.pop(here, None)
                if gone is not None and gone.path not in self.allowed:
                    self.conflict(here, gone, key.span,
                                  f"`{dotted(here)}` is removed by {gone} and changed by {key.span}")
                else:
                    self.settle(here)
                self.versions.pop(here, None)  # new here: it replaces nothing
                items.append((key, new))
                continue
            self.replace_entry(items, i, key, new, path, here)
        return YMap(tuple(items), base.span)

    def patch_entry(self, items: list[tuple[YScalar, YNode]], key: YScalar, value: YNode, path: Path,
                    plain_keys: set[str]) -> None:
        """`name+: [...]` or `name-: [...]`: names added to or removed from the list `name`."""
        raw = str(key.value)
        name = raw[:-1].strip()
        if name in plain_keys:
            self.error(key.span, f"`{dotted((*path, name))}` is both replaced and patched here",
                       f"write either `{name}:` (the whole list) or `{raw}` (names to add or remove)")
            return
        i = _position(items, path, name)
        if i is None:
            what = "append to" if raw[-1] == "+" else "remove from"
            self.error(key.span, f"no list `{dotted((*path, name))}` to {what}",
                       did_you_mean(name, [key_name(path, str(k.value)) for k, _ in items])
                       or f"to set a new list, write `{name}:`")
            return
        patched = self.patch_list(items[i][1], key, value, (*path, name), raw[-1])
        if patched is not None:
            items[i] = (items[i][0], patched)

    def remove_entry(self, items: list[tuple[YScalar, YNode]], i: int | None, key: YScalar, path: Path,
                     name: str) -> None:
        """`name:` with no value: the entry `name` (at `i` of `items`) removed."""
        here = (*path, name)
        if i is None:
            if here in self.removed:  # removed already: by a base (this settles a conflict
                self.settle(here)     # there), or by another stacked variant (they agree)
                return
            where = f" in `{dotted(path)}`" if path else ""
            self.error(key.span, f"nothing named `{name}`{where} to remove",
                       did_you_mean(name, [key_name(path, str(k.value)) for k, _ in items]))
            return
        changed = self.foreign(items[i][0], items[i][1])
        if changed is not None:
            self.conflict(here, changed, key.span,
                          f"`{dotted(here)}` is changed by {changed} and removed by {key.span}")
        else:
            self.settle(here)
        del items[i]
        self.removed[here] = key.span
        self.versions.pop(here, None)  # (`versioned`: a removed entry replaced nothing)

    def replace_entry(self, items: list[tuple[YScalar, YNode]], i: int, key: YScalar, new: YNode, path: Path,
                      here: Path) -> None:
        """The entry at `i` of `items` given the value `new` (not a mapping merged into one)."""
        old = items[i][1]
        key = _signed_key(path, key, items[i][0])
        self.versioned(here, items[i][0], old, key, new)
        if plain(old) == plain(new):
            self.settle(here)
            if self.foreign(old) is None:
                items[i] = (key, new)  # the same value, now set by this file
            return
        changed = self.foreign(old)
        if changed is not None:
            self.conflict(here, changed, _first_span(new),
                          f"`{dotted(here)}` is changed by both {changed} and {_first_span(new)}")
        else:
            self.settle(here)
        items[i] = (key, new)

    def versioned(self, path: Path, old_key: YScalar, old: YNode, key: YScalar, new: YNode) -> None:
        """A definition or scoring term replaced: the version it was is kept, for `base(...)` in
        the new one. Only a new value or signature replaces a version: the same value written
        again, or a change of `cached:` alone, keeps the one there is."""
        if len(path) != 2 or path[0] not in VERSIONED:
            return
        if plain(old_key) == plain(key) and _body(old) == _body(new):
            return
        self.versions.setdefault(path, []).append((old_key, old))

    def patch_list(self, old: YNode, key: YScalar, value: YNode, path: Path, op: str) -> YSeq | None:
        where = dotted(path)
        if path == ("setup",) and op == "+" and isinstance(old, YSeq):
            # A variant's own preparation runs after its base's: `setup+:` appends effects.
            return YSeq((*old.items, *(value.items if isinstance(value, YSeq) else (value,))), value.span)
        if path[-1] in _EFFECT_KEYS or (len(path) == 2 and path[0] == "procedures") or path == ("setup",):
            self.error(key.span, f"`{where}` is an effect: it is replaced whole, not patched",
                       f"write `{path[-1]}:` with the whole new list of effects")
            return None
        if isinstance(old, YScalar) and old.value is None:  # `after:` with nothing: an empty list
            old = YSeq((), old.span)
        if not isinstance(old, YSeq):
            self.error(key.span, f"`{where}` is not a list", f"write `{path[-1]}:` to replace it")
            return None
        if not all(isinstance(n, YScalar) for n in old.items):
            self.error(key.span, f"`{where}` is a list of more than names: it is replaced whole",
                       f"write `{path[-1]}:` with the whole new list")
            return None
        given = value.items if isinstance(value, YSeq) else (value,)
        names: list[YScalar] = []
        for n in given:
            if not isinstance(n, YScalar) or n.value is None:
                self.error(n.span, f"`{key.value}` takes names (or plain values)", f"e.g. `{key.value}: [a, b]`")
                return None
            names.append(n)
        items = [n for n in old.items if isinstance(n, YScalar)]
        for n in names:
            present = [x for x in items if x.value == n.value]
            if op == "+":
                if present:
                    self.error(n.span, f"`{n.value}` is already in `{where}`", f"it was put there at {present[0].span}")
                    continue
                items.append(n)
                self.removed_items.pop((path, n.value), None)
                continue
            if not present:
                if (path, n.value) in self.removed_items:  # taken out already (see removals)
                    self.settle((*path, str(n.value)))
                    continue
                self.error(n.span, f"`{n.value}` is not in `{where}`",
                           did_you_mean(str(n.value), [str(x.value) for x in items]))
                continue
            for x in present:
                if x.span.path not in self.allowed:
                    self.conflict((*path, str(n.value)), x.span, n.span,
                                  f"`{where}`: `{n.value}` is added by {x.span} and removed by {n.span}")
            items = [x for x in items if x.value != n.value]
            self.removed_items[(path, n.value)] = n.span
        return YSeq(tuple(items), value.span)

    # -- after every layer
    def unsettled(self) -> list[Diagnostic]:
        out = []
        for path, c in self.conflicts.items():
            out.append(Diagnostic(c.first, c.message, self.settle_hint(path, c)))
        return out

    def settle_hint(self, path: Path, c: _Conflict) -> str:
        both = {c.first.path, c.second.path}
        for layer in self.layers:
            if both <= set(layer.bases):
                return (f"{_stacked_at(layer)} uses both: set `{dotted(path)}` in {layer.file} to choose, "
                        "or drop one of them")
        return "two variants used together must not change the same rule differently"

    def incompatibilities(self) -> list[Diagnostic]:
        by_file = {layer.file: layer for layer in self.layers}
        out = []
        for layer in self.layers:
            for declaration, target in layer.incompatible:
                other = by_file.get(target)
                if other is None or other.file == layer.file:
                    continue
                user = next((u for u in self.layers if {layer.file, other.file} <= {*u.bases, u.file}), None)
                where = f"{_stacked_at(user)} uses both; " if user is not None else ""
                out.append(Diagnostic(
                    declaration.span,
                    f"{_label(layer)} cannot be used with {_label(other)}: it declares them incompatible",
                    where + "remove one of them from `extends:`"))
        return out

    def families(self) -> list[Diagnostic]:
        """Each family of variants used by more members than its `at_most:` allows, unless a file
        of the stack draws among them (`draws:`); members disagreeing on the limit; a `draws:`
        above the limit, or for a family none of the files it builds on belongs to."""
        names = list(dict.fromkeys(f.name for layer in self.layers for f in layer.families))
        out: list[Diagnostic] = []
        for name in names:
            members = [(layer, f) for layer in self.layers for f in layer.families if f.name == name and not f.draws]
            drawers = [(layer, f) for layer in self.layers for f in layer.families if f.name == name and f.draws]
            limit = members[0][1] if members else None
            agree = True
            for layer, f in members[1:]:
                assert limit is not None
                if f.count != limit.count:
                    agree = False
                    out.append(Diagnostic(
                        f.count_node.span,
                        f"{_label(layer)} says at most {f.count} variants of the family `{name}` may be used "
                        f"together, but {_label(members[0][0])} says {limit.count}",
                        f"every member of a family states the same `at_most:` (the other at {limit.count_node.span})"))
            for layer, f in drawers:
                under = {*layer.bases, layer.file}
                own = [(m, g) for m, g in members if m.file in under]
                if not own:
                    known = sorted({g.name for m in self.layers if m.file in under for g in m.families
                                    if not g.draws})
                    out.append(Diagnostic(
                        f.name_node.span,
                        f"{_label(layer)} draws among the family `{name}`, but no rule set it builds on "
                        "is a member of it",
                        did_you_mean(name, known) or f"a member declares `family: {{name: {name}, at_most: N}}`; "
                        "`draws:` goes in a file that extends the members it draws among"))
                elif agree and f.count > own[0][1].count:
                    out.append(Diagnostic(
                        f.count_node.span,
                        f"{_label(layer)} draws {f.count} variants of the family `{name}`, but at most "
                        f"{own[0][1].count} may be used together",
                        f"the limit (`at_most: {own[0][1].count}`) is declared at {own[0][1].count_node.span}; "
                        f"draw at most {own[0][1].count}"))
            if limit is None or not agree or drawers or len(members) <= limit.count:
                continue
            user = next((u for u in self.layers
                         if sum(m.file in {*u.bases, u.file} for m, _ in members) > limit.count), self.layers[-1])
            shown = ", ".join(_label(m) for m, _ in members)
            where = user.extends.span if user.extends is not None else user.tree.span
            out.append(Diagnostic(
                where,
                f"`extends:` stacks {len(members)} variants of the family `{name}`: {shown}; "
                f"at most {limit.count} may be used together",
                f"the limit (`at_most: {limit.count}`) is declared at {limit.count_node.span}; remove "
                f"{'one' if len(members) - limit.count == 1 else len(members) - limit.count} of them from "
                f"`extends:`, or, in a file whose rules draw among them, declare "
                f"`family: {{name: {name}, draws: {limit.count}}}`"))
        return out


def _label(layer: Layer) -> str:
    """`name` (file), or the file alone when it has no rule set id."""
    return f"`{layer.name}` ({layer.file})" if layer.name != layer.file else layer.file


def _stacked_at(layer: Layer) -> str:
    """Where a file names what it extends: `extends:` at file:line:col."""
    return f"`extends:` at {layer.extends.span}" if layer.extends is not None else layer.file


def key_name(path: Path, key: str) -> str:
    """The name a key at `path` addresses: a definition or a procedure by its name alone,
    without its parameters (`alignments` for `"alignments(n: int)"`); any other key as is."""
    if len(path) == 1 and path[0] in _SIGNED:
        return key.split("(", 1)[0].strip()
    return key


def _position(items: list[tuple[YScalar, YNode]], path: Path, name: str) -> int | None:
    """Where the entry `name` is among `items` (the keys of a mapping at `path`), if it is."""
    for i, (k, _) in enumerate(items):
        if key_name(path, str(k.value)) == name:
            return i
    return None


def _signed_key(path: Path, key: YScalar, old: YScalar) -> YScalar:
    """The key a definition or procedure overridden by its name alone (`f:` for `"f(p: player)"`)
    keeps: the parameters of the one it overrides, at the variant's line (the parameters' own
    text, where a signature's parts are read, stays the base's). A key that states its
    parameters, or any other key, is kept as written."""
    if len(path) == 1 and path[0] in _SIGNED and "(" not in str(key.value) and "(" in str(old.value):
        return YScalar(old.value, key.span, old.text_span)
    return key


def _spans(node: YNode) -> Iterator[SourceSpan]:
    """Every span in a tree, keys included, parents first."""
    todo: list[YNode] = [node]
    while todo:
        n = todo.pop()
        yield n.span
        if isinstance(n, YMap):
            for k, v in reversed(n.items):
                todo.append(v)
                todo.append(k)
        elif isinstance(n, YSeq):
            todo.extend(reversed(n.items))


def _body(node: YNode) -> object:
    """The expression of a definition or scoring term, as plain data: itself, or a definition's `value:`."""
    body = node.get("value") if isinstance(node, YMap) else node
    return None if body is None else plain(body)


def _first_span(node: YNode) -> SourceSpan:
    if isinstance(node, YMap) and node.items:
        return node.items[0][0].span
    return node.span
