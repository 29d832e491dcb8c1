"""The types of the rule language, and how each maps to a Python annotation."""

from __future__ import annotations

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

    def __str__(self) -> str:
        if self.kind in ("list", "set"):
            return f"{self.kind}({self.elem})"
        if self.kind in ("enum", "entity"):
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


def compatible(expected: Ty, actual: Ty) -> bool:
    """Can a value of `actual` be used where `expected` is wanted?"""
    if expected == actual or expected.kind == "any" or actual.kind == "any":
        return True
    if expected.kind == actual.kind and expected.kind in ("list", "set"):
        assert expected.elem is not None and actual.elem is not None
        return compatible(expected.elem, actual.elem)
    return False


def unify(a: Ty, b: Ty) -> Ty | None:
    """The common type of two branches (`x if c else y`, `a + b` of lists), or None."""
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
        case _:
            return "object"


def parse_type(text: str, known_entities: set[str], known_enums: set[str]) -> Ty | str:
    """`int`, `bool`, `player`, `set(tablet)`, `list(spot)` ... -> Ty, or an error message."""
    text = text.strip()
    for wrapper in ("list", "set"):
        if text.startswith(wrapper + "(") and text.endswith(")"):
            inner = parse_type(text[len(wrapper) + 1 : -1], known_entities, known_enums)
            if isinstance(inner, str):
                return inner
            return Ty(wrapper, elem=inner)
    if text in ("int", "bool", "str", "auction"):
        return Ty(text)
    if text in known_entities:
        return entity(text)
    if text in known_enums:
        return enum(text)
    return f"unknown type `{text}`"
