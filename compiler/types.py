"""The types of the rule language, and how each maps to a Python annotation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ty:
    """A type: kind is int, bool, str, enum, entity, list, set, auction, any or none.

    `enum` and `entity` carry a `name` (the value set or the entity kind); `list` and `set`
    carry an element type. `any` is the element type of an empty literal, compatible with all.
    """

    kind: str
    name: str = ""
    elem: Ty | None = None
    # a `record`: its fields, in the order declared (`leader: {owner: player, colour: colour, at: spot}`)
    fields: tuple[tuple[str, Ty], ...] = ()

    def __str__(self) -> str:
        if self.kind in ("list", "set", "optional"):
            return f"{self.kind}({self.elem})"
        if self.kind in ("enum", "entity", "record"):
            return self.name
        return self.kind


INT = Ty("int")
BOOL = Ty("bool")
STR = Ty("str")
ANY = Ty("any")
NONE = Ty("none")


def list_of(t: Ty) -> Ty:
    return Ty("list", elem=t)


def set_of(t: Ty) -> Ty:
    return Ty("set", elem=t)


def entity(name: str) -> Ty:
    return Ty("entity", name)


def enum(name: str) -> Ty:
    return Ty("enum", name)


def optional_of(t: Ty) -> Ty:
    """`optional(T)`: a T, or `none` (an optional of an optional is the optional itself)."""
    return t if t.kind in ("optional", "none") else Ty("optional", elem=t)


def record(name: str, fields: tuple[tuple[str, Ty], ...]) -> Ty:
    return Ty("record", name, fields=fields)


def compatible(expected: Ty, actual: Ty) -> bool:
    """Can a value of `actual` be used where `expected` is wanted?"""
    if expected == actual or expected.kind == "any" or actual.kind == "any":
        return True
    if expected.kind == "optional":  # `none`, a T or an optional(T) where an optional(T) is wanted
        assert expected.elem is not None
        if actual.kind == "none":
            return True
        return compatible(expected.elem, actual.elem if actual.kind == "optional" and actual.elem else actual)
    if expected.kind == actual.kind and expected.kind in ("list", "set"):
        assert expected.elem is not None and actual.elem is not None
        return compatible(expected.elem, actual.elem)
    return False


def unify(a: Ty, b: Ty) -> Ty | None:
    """The common type of two branches (`x if c else y`, `a + b` of lists), or None."""
    if a.kind in ("optional", "none") or b.kind in ("optional", "none"):  # `x if c else none`
        plain = [t.elem if t.kind == "optional" else t for t in (a, b) if t.kind != "none"]
        if not plain:
            return a
        inner = plain[0] if len(plain) == 1 else unify(plain[0] or ANY, plain[1] or ANY)
        return optional_of(inner) if inner is not None else None
    if compatible(a, b):
        if a.kind in ("list", "set") and a.elem is not None and b.elem is not None:
            elem = unify(a.elem, b.elem)
            return Ty(a.kind, elem=elem) if elem is not None else None
        return b if a.kind == "any" else a
    return None


def python_type(t: Ty) -> str:
    """The annotation emitted for a value of this type."""
    match t.kind:
        case "int" | "enum" | "entity":
            return "int"
        case "any":  # the items of an empty `[]` or `{}`, which never exist: every scalar is an int
            return "int"
        case "bool":
            return "bool"
        case "str":
            return "str"
        case "auction":
            return "rt.Auction"
        case "list":
            assert t.elem is not None
            return f"Sequence[{python_type(t.elem)}]"
        case "set":
            assert t.elem is not None
            return f"frozenset[{python_type(t.elem)}]"
        case "optional":  # `none` is None
            assert t.elem is not None
            return f"{python_type(t.elem)} | None"
        case "none":
            return "None"
        case "record":  # a tuple of its fields, in the order declared
            return f"tuple[{', '.join(python_type(ft) for _, ft in t.fields)}]"
        case _:
            return "object"


def parse_type(text: str, known_entities: set[str], known_enums: set[str],
               known_records: Mapping[str, Ty] | None = None) -> Ty | str:
    """`int`, `bool`, `player`, `set(tablet)`, `list(spot)`, `optional(spot)`, a record's name
    ... -> Ty, or an error message."""
    text = text.strip()
    for wrapper in ("list", "set", "optional"):
        if text.startswith(wrapper + "(") and text.endswith(")"):
            inner = parse_type(text[len(wrapper) + 1 : -1], known_entities, known_enums, known_records)
            if isinstance(inner, str):
                return inner
            return optional_of(inner) if wrapper == "optional" else Ty(wrapper, elem=inner)
    if text in ("int", "bool", "str", "auction"):
        return Ty(text)
    if known_records and text in known_records:
        return known_records[text]
    if text in known_entities:
        return entity(text)
    if text in known_enums:
        return enum(text)
    return f"unknown type `{text}`"


def needs_key(t: Ty) -> bool:
    """Whether values of this type hold a record or `none` somewhere: then they are ordered by
    the runtime's `sort_key` (None first, a set by its items), not by Python's own `<`."""
    if t.kind in ("optional", "none", "record"):
        return True
    return t.elem is not None and needs_key(t.elem)
