"""Questions about generated code, asked of its expression nodes (compiler/pyir.py), and types as
they are written in it.
"""

from __future__ import annotations

from .. import pyir
from ..budget import STORED, Facts
from ..pyprint import text
from ..types import INT, Ty, python_type

# A list a rule can read at its start: a field, an entity's value of a field, a parameter.
# (`Small`: the lists a rule takes for small, and the number of operations it does on them.)
Small = tuple[tuple[pyir.Expr, ...], int]


Reading = tuple[dict[str, pyir.Expr] | None, int, frozenset[str]]  # what begin_reading saves



def simple(e: pyir.Expr) -> tuple[str | None, str | None] | None:
    """Whether `e` is a list lowering reads as it is, from the state or a local: a field
    (`self.hand`), an entity's item of one (`self.hand[p]`, `self.hand[self.seat]`) or a name
    (`xs`); then what it reads beside the state: (the index, unless a field or none; the name,
    if a name). None for any other expression."""
    match e:
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
    return any(isinstance(x, pyir.Call) and x.func in _CHARGING for x in pyir.walk(e))


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
    """Whether `e` reads the local `name`."""
    return any(isinstance(x, pyir.Name) and x.id == name for x in pyir.walk(e))


def operand(e: pyir.Expr) -> bool:
    """Whether `e` is one operand as it is written (a name, a call, an item, an attribute, a
    display, or code in one pair of parentheses): an operator or a `not` beside it does not
    change what it means."""
    match e:
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
    if isinstance(e, pyir.Paren) and not isinstance(e.value, pyir.GeneratorExp):
        return e.value
    return e


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
