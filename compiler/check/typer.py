"""What the helpers of the expression typer ask of it: the calls (calls.py) and `base(...)`
(versions.py) type their arguments with the typer that calls them (exprs.ExprTyper), through
`Typer`, the part of it they use. They import this module, not exprs.py, which imports them: no
cycle, as mypyc's irbuild hands its helpers the builder rather than importing its visitor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ...core.source import SourceSpan
from .. import ast, ir
from .. import typed as t
from ..typed import Symbol
from ..types import Ty
from .symbols import Symbols


@dataclass(frozen=True, slots=True)
class Version:
    """A version of a definition or scoring term being checked, for `base(...)` in it."""

    section: str  # "define" or "scoring"
    name: str  # as the rule file names it
    earlier: ir.Define | ir.ScoreTerm | None  # the version it replaced, which `base(...)` uses
    depth: int  # 0: the rule set's own; 1: the version that one replaced; and so on
    example: str  # how `base(...)` is written in it: `base(rent(a))`, `base(gold)`


class Typer(Protocol):
    """The expression typer as the calls and `base(...)` see it (exprs.ExprTyper is one)."""

    symbols: Symbols
    rs: ir.RuleSet
    context: str  # "effect" allows chance
    redefining: Version | None  # the version being checked (None where `base` cannot be used)
    versions: dict[str, tuple[ir.Define, Version]]  # the versions `base(...)` used, by method

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None: ...

    def expr(self, e: ast.Expr, tested: bool = False) -> t.Expr: ...

    def lookup(self, name: str) -> Symbol | None: ...

    def define_type(self, d: ir.Define) -> Ty: ...

    def optional_hint(self, got: Ty) -> str | None: ...
