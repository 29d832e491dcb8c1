"""Helpers on the text of generated code, and on types as they are written in it.
"""

from __future__ import annotations

import re

from .. import typed as t
from ..budget import STORED, Facts
from ..types import INT, Ty, needs_key, python_type

# A list a rule can read at its start: a field, an entity's value of a field, a parameter.
# (`Small`: the lists a rule takes for small, and the number of operations it does on them.)
Small = tuple[tuple[str, ...], int]


Reading = tuple[dict[str, None] | None, int, frozenset[str]]  # what begin_reading saves


_SIMPLE = re.compile(r"self\.\w+(?:\[(self\.\w+|\w+)\])?|(\w+)")


def _parenthesised(py: str) -> str:
    """`py` in parentheses, unless it is one operand already (a name, a call, an item, an
    attribute, or wrapped whole in one pair): a comparison stays one operand."""
    depth = 0
    for ch in py:
        depth += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1}.get(ch, 0)
        if depth == 0 and not (ch.isalnum() or ch in "_.)]}"):
            break
    else:
        if py and (py[0].isalpha() or py[0] in "_[({"):
            return py
    if py.startswith("(") and py.endswith(")") and _wrapped(py):
        return py
    return f"({py})"


def _unparenthesised(py: str) -> str:
    """`py` without the one pair of parentheses that wraps it whole, if it holds one operand."""
    if py.startswith("(") and _parenthesised(py) == py and _one_operand(py) and _wrapped(py):
        inner, depth = py[1:-1], 0
        for i, ch in enumerate(inner):  # (a generator's own parentheses stay)
            depth += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1}.get(ch, 0)
            if depth == 0 and inner.startswith(" for ", i):
                return py
        return inner
    return py


def _wrapped(py: str) -> bool:
    """Whether the parenthesis `py` starts with closes at its end (`(a & b)`, not `(a & b).bit_count()`)."""
    depth = 0
    for i, ch in enumerate(py):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return i == len(py) - 1
    return False


def _one_operand(py: str) -> bool:
    """Whether code wrapped whole in parentheses holds no comma outside brackets inside them
    (`(a if c else b)`, not the tuple `(a, b)`)."""
    depth = 0
    for ch in py[1:-1]:
        depth += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1}.get(ch, 0)
        if depth == 0 and ch == ",":
            return False
    return True


# the runtime's checks of the work of a move, written inside an expression (runtime/limits.py)
_CHARGES = re.compile(r"\brt\.(walk|grown|spend|walk_lists|upto)\(")


def _param(func: str, param: str) -> str:
    """The key of a parameter among what lower() learns (fields are keyed by their names)."""
    return f"{func}.{param}"


def _pair_sorted(e: t.ListIndex, obj: str) -> str | None:
    """`sorted([a, b])[0]` as `min(a, b)`, `[1]` as `max(a, b)`: the same item (of values in their
    natural order, two equal ones are the same value), without a list made and sorted (Chang
    Cheng's `sorted([s, n])[0] == s`, a test per neighbour of every space listed)."""
    items = e.obj.args[0] if isinstance(e.obj, t.Builtin) and e.obj.func == "sorted" and e.obj.args else None
    if (not isinstance(items, t.Collection) or len(items.items) != 2 or not isinstance(e.index, t.Num)
            or e.index.value not in (0, 1) or e.obj.ty.elem is None or needs_key(e.obj.ty.elem)
            or e.obj.ty.elem.kind == "set" or not (obj.startswith("sorted((") and obj.endswith("))"))):
        return None
    return ("min" if e.index.value == 0 else "max") + obj[len("sorted("):-1]


def _sorted(elem: Ty, py: str) -> str:
    """The items of a set in increasing order (a set of sets: by their items in order; records and
    `none`: by the runtime's total order, rt.sort_key)."""
    if needs_key(elem):
        return f"sorted({py}, key=rt.sort_key)"
    return f"sorted({py}, key=sorted)" if elem.kind == "set" else f"sorted({py})"


def answer_format(ty: Ty) -> str:
    """How the runtime writes a value of type `ty` in an action's text (`_fmt`)."""
    if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.name:
        return f"list:{ty.elem.name}"
    return ty.name or ty.kind


def _stored(facts: Facts) -> Facts:
    """`facts` of a value read back from the state: its numbers were checked as they were stored."""
    return Facts(0, facts.size, STORED, _stored(facts.item) if facts.item is not None else None)  # (not small)


def _typed(ty: Ty) -> Ty:
    """The type, with `int` for an item type nothing gave."""
    if ty.kind == "any":
        return INT
    return Ty(ty.kind, ty.name, _typed(ty.elem)) if ty.elem is not None else ty


def _annotation(ty: Ty) -> str:
    return python_type(ty)


def _narrows(annotation: str, code: str) -> bool:
    """Whether mypy would narrow a field so declared to a type of its own after `self.f = code`
    (an optional field to int or None; a list to a tuple of so many items), which the native
    build trusts even once a call has changed the field: such a value is assigned through
    rt.held, keeping the declared type (docs/native.md)."""
    display = code.startswith("(") and not code.startswith("(*")  # `(*xs, x)` is typed tuple[int, ...]
    return annotation.endswith("| None") or annotation.startswith("Sequence[") and display


def unwrapped(code: str) -> str:
    """`code` without a pair of parentheses that wraps it whole (`(a | b)` -> `a | b`), as an index."""
    return code[1:-1] if code.startswith("(") and code.endswith(")") and _balanced(code[1:-1]) else code


def _balanced(code: str) -> bool:
    depth = 0
    for c in code:
        depth += c in "([{"
        depth -= c in ")]}"
        if depth < 0:
            return False
    return depth == 0
