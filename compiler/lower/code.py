"""Questions about generated code (its expression nodes, compiler/pyir.py; the text of what is
still written as text), and types as they are written in it.
"""

from __future__ import annotations

import re

from .. import pyir
from ..budget import STORED, Facts
from ..pyprint import text
from ..types import INT, Ty, python_type

# A list a rule can read at its start: a field, an entity's value of a field, a parameter.
# (`Small`: the lists a rule takes for small, and the number of operations it does on them.)
Small = tuple[tuple[pyir.Expr, ...], int]


Reading = tuple[dict[str, pyir.Expr] | None, int, frozenset[str]]  # what begin_reading saves


_SIMPLE = re.compile(r"self\.\w+(?:\[(self\.\w+|\w+)\])?|(\w+)")  # (of a `Code` leaf's text only)


def simple(e: pyir.Expr) -> tuple[str | None, str | None] | None:
    """Whether `e` is a list lowering reads as it is, from the state or a local: a field
    (`self.hand`), an entity's item of one (`self.hand[p]`, `self.hand[self.seat]`) or a name
    (`xs`); then what it reads beside the state: (the index, unless a field or none; the name,
    if a name). None for any other expression."""
    match e:
        case pyir.Code():
            m = _SIMPLE.fullmatch(e.text)
            return None if m is None else (m.group(1), m.group(2))
        case pyir.Name() | pyir.Constant() if _word(text(e)):
            return None, text(e)
        case pyir.Attribute(value=pyir.Name(id="self")) if _word(e.attr):
            return None, None
        case pyir.Subscript(value=pyir.Attribute(value=pyir.Name(id="self"), attr=attr), index=index) \
                if _word(attr):
            if isinstance(index, pyir.Attribute) and index.value == pyir.Name("self") and _word(index.attr):
                return text(index), None
            if isinstance(index, pyir.Name | pyir.Constant) and _word(text(index)):
                return text(index), None
    return None


def _word(name: str) -> bool:
    """Whether `name` is letters, digits and `_` only (a name, a number as written)."""
    return name != "" and all(c.isalnum() or c == "_" for c in name)


def charges(e: pyir.Expr) -> bool:
    """Whether `e` checks the work of a move as it runs: a call of the runtime's checks
    (runtime/limits.py `walk`, `grown`, `spend`, `walk_lists`, `upto`) anywhere in it."""
    for x in pyir.walk(e):
        if isinstance(x, pyir.Code) and _CHARGES.search(x.text):
            return True
        if isinstance(x, pyir.Call) and x.func in _CHARGING:
            return True
    return False


_CHARGING = tuple(pyir.Attribute(pyir.Name("rt"), name) for name in ("walk", "grown", "spend", "walk_lists", "upto"))


def items_of_names(e: pyir.Expr, nested: bool) -> bool:
    """Whether `e` is a name or its attributes (`self.hand`, `RED`), or an item of such at an index
    that is such (`self.hand[p]`, `T[self.seat][x]`); `nested`: the index may hold items of its
    own (`T[self.hand[p]]`). Such code is one operand of a method call or of `&`."""
    if isinstance(e, pyir.Subscript):
        index = e.index
        return items_of_names(e.value, nested) and (items_of_names(index, nested) if nested else _named(index))
    return _named(e)


def _named(e: pyir.Expr) -> bool:
    """A name, a number, or their attributes: `[\\w.]+` as written."""
    match e:
        case pyir.Name() | pyir.Constant():
            return _word(text(e))
        case pyir.Attribute():
            return _named(e.value) and _word(e.attr)
    return False


def reads(e: pyir.Expr, name: str) -> bool:
    """Whether `e` reads the local `name` (a `Code` leaf: whether its text holds the name)."""
    return any(isinstance(x, pyir.Name) and x.id == name or isinstance(x, pyir.Code) and name in x.text
               for x in pyir.walk(e))


def operand(e: pyir.Expr) -> bool:
    """Whether `e` is one operand as it is written (a name, a call, an item, an attribute, a
    display, or code in one pair of parentheses): an operator or a `not` beside it does not
    change what it means."""
    match e:
        case pyir.Code():
            return _parenthesised(e.text) == e.text
        case pyir.Constant():
            first = text(e)[:1]
            return first.isalpha() or first == "_"
        case pyir.Name() | pyir.Attribute() | pyir.Subscript() | pyir.Call() | pyir.Paren() | pyir.Tuple() \
                | pyir.List() | pyir.Set() | pyir.Dict() | pyir.ListComp() | pyir.SetComp() | pyir.DictComp():
            return True
    return False


def parenthesised(e: pyir.Expr) -> pyir.Expr:
    """`e` in parentheses, unless it is one operand already (`operand`): a comparison stays one operand."""
    return e if operand(e) else pyir.Paren(e)


def unparenthesised(e: pyir.Expr) -> pyir.Expr:
    """`e` without the one pair of parentheses that wraps it whole (a generator's own parentheses stay)."""
    if isinstance(e, pyir.Code):
        return pyir.Code(_unparenthesised(e.text), e.span)
    if isinstance(e, pyir.Paren) and isinstance(e.value, pyir.Code):
        inner = _unparenthesised(text(e))
        return e if inner == text(e) else pyir.Code(inner, e.value.span)
    if isinstance(e, pyir.Paren) and not isinstance(e.value, pyir.GeneratorExp):
        return e.value
    return e


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


def _narrows(annotation: str, code: pyir.Expr) -> bool:
    """Whether mypy would narrow a field so declared to a type of its own after `self.f = code`
    (an optional field to int or None; a list to a tuple of so many items), which the native
    build trusts even once a call has changed the field: such a value is assigned through
    rt.held, keeping the declared type (docs/native.md)."""
    return annotation.endswith("| None") or annotation.startswith("Sequence[") and _opens_display(code)


def _opens_display(e: pyir.Expr) -> bool:
    """Whether code starts with a parenthesis, not that of a tuple starting with a starred item
    (`(*xs, x)` is typed tuple[int, ...]): its leftmost part, asked of the nodes."""
    match e:
        case pyir.Code():
            return e.text.startswith("(") and not e.text.startswith("(*")
        case pyir.Tuple(parenthesised=True):
            return not (e.elts and isinstance(e.elts[0], pyir.Starred))
        case pyir.Paren():
            return True
        case pyir.Tuple():
            return bool(e.elts) and _opens_display(e.elts[0])
        case pyir.Call():
            return _opens_display(e.func)
        case pyir.Attribute() | pyir.Subscript():
            return _opens_display(e.value)
        case pyir.BinOp() | pyir.Compare():
            return _opens_display(e.left)
        case pyir.BoolOp():
            return _opens_display(e.values[0])
        case pyir.IfExp():
            return _opens_display(e.body)
    return False
