"""Stage 6, lower: the typed program (compiler/typed.py) written as Python, with the checks of
the limits of a move it needs.

`lower(program)` returns the diagnostics (a component attribute too costly to compute) and the
`Program`: every expression and effect written as Python, statements of the lowered IR
(compiler/pyir.py) each with the rule line it came from, which the code generator
(compiler/codegen.py) only lays out.

Lowering decides each value's one runtime representation (docs/language.md "Values": a list is
a tuple, a set a frozenset, converted only where the representation shows), the order a set is
walked in, and what code is proven to cost (compiler/budget.py): where a run-time check of
runtime/limits.py goes, and where none is needed. What each list field can hold is learnt from
every assignment to it: `lower` walks the program again until what it assumed of the fields holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ...core.source import Diagnostic
from .. import typed as t
from ..budget import Facts
from ..lowered import Program
from ..pyir import Expr, Stmt
from . import comprehensions, definitions, expressions, limits, rules
from .code import answer_format
from .lowerer import END_SLOT, Lowerer, Transforms

__all__ = ["END_SLOT", "Lowerer", "answer_format", "lower"]


def lower(typed: t.TypedProgram,
          probe: Callable[[t.Stmt, list[Stmt]], list[Stmt]] | None = None,
          probe_expr: Callable[[t.Expr, Expr], Expr] | None = None) -> tuple[list[Diagnostic], Program]:
    """Lower a checked program, as the optimisation passes rewrote and annotated it (compiler/passes/);
    returns its problems (the limits of a move it cannot
    keep) and the lowered program. `probe`, `probe_expr`: a coverage build's hooks
    (compiler/probes.py)."""
    transforms = Transforms(expressions.expr, comprehensions.comprehension, definitions.define_walk,
                            definitions.define_call_facts, definitions.procedure_cost)
    # The walk runs again while it learns more of what the fields hold (how long a list field can
    # grow: compiler/budget.py); its code is kept once what it assumed of them holds.
    assumed: dict[str, Facts] | None = None
    grown: Counter[str] = Counter()
    while True:
        lowerer = Lowerer(typed, transforms, assumed)
        lowerer.probe, lowerer.probe_expr = probe, probe_expr
        try:
            program = rules.run(lowerer)
        except RecursionError:  # the limits on nesting should make this unreachable; never a traceback, though
            lowerer.error(typed.rules.span, "the rules nest too deeply to be compiled",
                          "definitions using definitions, each deeply nested: flatten a few")
            return lowerer.diags, lowerer.program
        learnt = None if lowerer.diags else limits.learnt(lowerer, grown)
        if learnt is None:
            return sorted(lowerer.diags, key=lambda d: (d.span.path, d.span.line, d.span.col)), program
        assumed = learnt
