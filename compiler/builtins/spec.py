"""What declaring a built-in function says, and what its facts rule may ask of lowering.

A `Builtin` is the one declaration of a function rule files call by name (compiler/builtins/library.py
holds them all): how the checker types a call (`params`, `returns`), the Python lowering writes for
it (`python`), what it reads of the game (`reads`), what lowering may prove of its result and its
work (`facts`) and the line a contributor or an editor shows for it (`doc`). The checker, lowering,
the passes, the language server and docs/language.md's table all read these declarations. (A few
passes still name the built-ins they rewrite or take for cheap: `mask_spot_sets`'s forms over a mask,
`hoist._CHEAP_BUILTINS`, `mask_spot_filters.BOARD_BUILTINS`; a new built-in needs none of them.)

A facts rule is a plain function of one `Call`: the call's arguments (their facts and their Python)
and a `Lowering`, the few things of the limits analysis (compiler/budget.py) a rule may use, handed
over explicitly by lowering rather than the lowerer itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from ...core.source import SourceSpan
from .. import pyir
from .. import typed as t
from ..budget import UNSAFE, Facts, Mag, sat
from ..ir import DiceKind
from ..pyprint import text
from ..types import INT, Ty

# What a built-in's code reads of a game beside its arguments (`self.` in its Python):
# "board": the board's tables (`self.board....`), the same in every state of a game;
# "game": the game's settings or its state (`self.num_players`, the budget of the move);
# "rng": the game's random generator: a chance built-in, allowed in effects only.
Read = Literal["board", "game", "rng"]
BOARD: frozenset[Read] = frozenset({"board"})
GAME: frozenset[Read] = frozenset({"game"})
RNG: frozenset[Read] = frozenset({"rng"})


@dataclass(frozen=True, slots=True)
class Lowering:
    """What a facts rule may ask of lowering (compiler/lower/): how large the boards are, how
    many values a kind has, and the checks it may wrap an argument in (compiler/budget.py)."""

    bounds: Mapping[str, int]  # how many spots, regions ... the largest board has (compiler/lower/boards.py `bounds`)
    kind_count: Callable[[str], int | None]  # how many values a kind of entity or an enumeration has
    over: Callable[[pyir.Expr, Facts, SourceSpan], tuple[pyir.Expr, int, int]]  # work over each item: (py, work, size)
    checked_store: Callable[[pyir.Expr, Facts, Ty, SourceSpan], pyir.Expr]  # a number checked as if stored
    type_facts: Callable[[Ty, Mag], Facts]  # what a value of a type can be when nothing else is known
    charged: Callable[[], None]  # a check that charges the budget of the move is written
    where: Callable[[SourceSpan], pyir.Expr]  # a rule's `file:line`, as the literal a check names
    dice: Sequence[DiceKind]  # the rule set's dice
    range_bound: Callable[[Mag], int | None]  # (pass `bound_ranges`) a range's size from its stop's


@dataclass(slots=True)
class Call:
    """One call being lowered, as its facts rule sees it. `lowered` is the arguments' code, which
    the rule may wrap in a check (`over`, `kept`); `cost` is the work proven so far, to which
    `over` adds the work over an argument's items."""

    e: t.Builtin
    ret: Ty
    lowered: list[pyir.Expr]
    args: list[Facts]
    cost: int
    lowering: Lowering

    @property
    def bounds(self) -> Mapping[str, int]:
        return self.lowering.bounds

    @property
    def seats(self) -> int:
        """How many seats a game has at most, the neutral ones too."""
        return self.lowering.kind_count("player") or 0

    def over(self, i: int) -> int:
        """Work over each item of argument i, added to the cost: how many items it holds."""
        self.lowered[i], work, size = self.lowering.over(self.lowered[i], self.args[i], self.e.args[i].span)
        self.cost += work
        return size

    def kept(self, i: int) -> None:
        """Argument i is a number the result keeps (an auction's bid): checked as stored."""
        self.lowered[i] = self.lowering.checked_store(self.lowered[i], self.args[i], INT, self.e.args[i].span)

    def literal(self, i: int) -> int | None:
        """Argument i, if it is a number written out."""
        arg = self.e.args[i]
        return arg.value if isinstance(arg, t.Num) else None

    def charged(self) -> None:
        self.lowering.charged()

    def where(self, i: int) -> pyir.Expr:
        """The rule line of argument i, as the literal a check names."""
        return self.lowering.where(self.e.args[i].span)

    def typed(self, mag: Mag = UNSAFE) -> Facts:
        """What a value of the call's type can be when nothing else is known, at the cost so far."""
        return self.lowering.type_facts(self.ret, mag).priced(self.cost)


FactsRule = Callable[[Call], Facts]


def by_type(c: Call) -> Facts:
    """The facts of a built-in with no rule of its own: what its type says, at its arguments' cost."""
    return c.typed()


@dataclass(frozen=True, slots=True)
class Builtin:
    """One built-in function: its signature as rule files see it, the Python it lowers to, what it
    reads, its facts rule and its doc line (module docstring)."""

    name: str
    params: tuple[tuple[str, str], ...]  # (name, type) with types as in rule files; `T` generic
    returns: str
    python: str  # a format string over the lowered arguments {0}, {1}, ..., {where} and the call's extras
    doc: str
    reads: frozenset[Read] = frozenset()
    facts: FactsRule = by_type
    counted_by: str | None = None  # the built-in `len(this(...))` is lowered as, given the same arguments

    @property
    def chance(self) -> bool:
        """Draws from the random generator: effects only."""
        return "rng" in self.reads

    @property
    def signature(self) -> str:
        """`name(param: type, ...) -> type`, as an editor and docs/language.md show it."""
        return f"{self.name}({', '.join(f'{n}: {ty}' for n, ty in self.params)}) -> {self.returns}"

    @property
    def described(self) -> str:
        """The doc line as an editor and docs/language.md show it."""
        return self.doc + (" Chance: in effects only." if self.chance else "")

    def write(self, lowered: Sequence[pyir.Expr], extra: tuple[tuple[str, str | None], ...],
              where: pyir.Expr) -> pyir.Expr:
        """The code of a call, given its arguments' (`where`: the rule line a check names): the
        nodes of `python` with its fields filled in (an extra: the module constant the checker
        named, or an empty tuple)."""
        holes = {f"{{{k}}}": arg for k, arg in enumerate(lowered)}
        holes |= {f"{{{name}}}": pyir.Tuple(()) if value is None else pyir.Name(value) for name, value in extra}
        holes["{where}"] = where
        return pyir.substituted(template(self.python), holes)

    def facts_of(self, e: t.Builtin, lowered: list[pyir.Expr], args: list[Facts], ret: Ty,
                 lowering: Lowering) -> Facts:
        """What a call gives and costs (its rule may wrap `lowered` in checks)."""
        if len(e.args) != len(lowered):
            return lowering.type_facts(ret, UNSAFE)
        return self.facts(Call(e, ret, lowered, args, sum(f.cost for f in args), lowering))


@cache
def template(python: str) -> pyir.Expr:
    """The nodes of a built-in's `python` (or a value's, compiler/builtins/values.py): names,
    attributes, calls, items, numbers, `True` and `False`, arithmetic operators (left to right, as
    written: a group is in parentheses), each field (`{0}`, `{where}`) a name of its own, filled in
    by `Builtin.write`."""
    tokens = _TOKEN.findall(python)
    if "".join(tokens) != python.replace(" ", ""):
        raise ValueError(f"a built-in's Python is names, calls, items, operators and fields: {python!r}")
    node, rest = _operation(tokens)
    if rest:
        raise ValueError(f"a built-in's Python is one expression: {python!r}")
    if text(node) != python:
        raise ValueError(f"a built-in's Python is spaced as `a + b`, `f(a, b)`: {python!r}")
    return node


_TOKEN = re.compile(r"\{\w+\}|[A-Za-z_]\w*|\d+|//|[-+*%&|.,()\[\]]")
_OPERATORS = ("+", "-", "*", "//", "%", "&", "|")


def _operation(tokens: list[str]) -> tuple[pyir.Expr, list[str]]:
    """`a op b op c`, left to right (no precedence: a group is written in parentheses)."""
    node, rest = _primary(tokens)
    while rest and rest[0] in _OPERATORS:
        right, after = _primary(rest[1:])
        node, rest = pyir.BinOp(node, rest[0], right), after
    return node, rest


def _primary(tokens: list[str]) -> tuple[pyir.Expr, list[str]]:
    if not tokens:
        raise ValueError("a built-in's Python ends too soon")
    first, *rest = tokens
    node: pyir.Expr
    if first == "(":
        inner, rest = _operation(rest)
        node, rest = pyir.Paren(inner), _closed(rest, ")")
    elif first.isdigit():
        node = pyir.Constant(int(first))
    elif first in ("True", "False"):
        node = pyir.Constant(first == "True")
    elif first.isidentifier() or first.startswith("{"):
        node = pyir.Name(first)
    else:
        raise ValueError(f"a built-in's Python cannot start with {first!r}")
    while rest and rest[0] in ".([":
        if rest[0] == ".":
            node, rest = pyir.Attribute(node, rest[1]), rest[2:]
        elif rest[0] == "[":
            index, rest = _operation(rest[1:])
            node, rest = pyir.Subscript(node, index), _closed(rest, "]")
        else:
            args: list[pyir.Expr] = []
            rest = rest[1:]
            while rest and rest[0] != ")":
                arg, rest = _operation(rest)
                args.append(arg)
                rest = rest[1:] if rest[:1] == [","] else rest
            node, rest = pyir.Call(node, tuple(args)), _closed(rest, ")")
    return node, rest


def _closed(tokens: list[str], bracket: str) -> list[str]:
    if not tokens or tokens[0] != bracket:
        raise ValueError(f"a built-in's Python misses a {bracket!r}")
    return tokens[1:]


# Facts rules many built-ins share.

def listed(bound: str) -> FactsRule:
    """A list the board keeps, looked up: at most `bound` items of the largest board (`Lowering.bounds`)."""
    def rule(c: Call) -> Facts:
        return Facts(c.cost, c.bounds[bound], item=Facts())
    return rule


def auction_step(c: Call) -> Facts:
    """An auction made anew: its seats copied."""
    return Facts(sat(c.cost + c.seats))

