"""Stage 5, check: every name resolves, every call fits its signature, types agree, every
phase can be reached and the game can end.

`check(ruleset)` returns the diagnostics and, when there are none, the `TypedProgram`
(compiler/typed.py): each expression with its type, each name bound to the symbol it denotes,
each effect with its span. How that is written as Python, and what checks of the limits of a
move it needs, is lowering's (compiler/lower/). `check_partial(ruleset)` gives the typed
program and the global names whatever the problems, for tools that look at rules as they are
written (the language server).

The stages of checking, one module each (program.py runs them in order):
- name binding: the symbol table and the names a rule may not take (symbols.py), the
  declarations that fill it (declare.py), definitions and procedures that use themselves
  (cycles.py);
- typing, on that table: expressions (exprs.py), calls (calls.py), statements (effects.py),
  actions (actions.py) and the texts players read (texts.py);
- reachability of the phases (reachability.py);
- the versions of definitions and scoring terms that `base(...)` uses in a variant (versions.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.source import Diagnostic, SourceSpan
from .. import ir
from .. import typed as t
from ..typed import Symbol
from .program import run
from .symbols import KIND_WORDS, RESERVED, Symbols

__all__ = ["KIND_WORDS", "RESERVED", "Checked", "check", "check_partial"]


@dataclass(frozen=True, slots=True)
class Checked:
    """All the checker finds in a rule set, problems or not (`check_partial`)."""

    diagnostics: list[Diagnostic]  # as `check` gives them: each once, in the order of the files
    # typed even where the rules have problems (a wrong expression is `Invalid`); None only when
    # the rules nest too deeply to be checked
    program: t.TypedProgram | None
    names: dict[str, Symbol]  # the rule set's global names: fields, options, values, seats ...


def check_partial(rs: ir.RuleSet) -> Checked:
    """Check a rule set; returns its problems, and its typed program even when it has some: what
    a tool that looks at rules being written (the language server, api/ruleindex.py) needs."""
    symbols = Symbols(rs)
    try:
        program: t.TypedProgram | None = run(symbols)
    except RecursionError:  # the limits on nesting should make this unreachable; never a traceback, though
        symbols.error(rs.span, "the rules nest too deeply to be checked",
                      "definitions using definitions, each deeply nested: flatten a few")
        program = None
    unique: dict[tuple[SourceSpan, str], Diagnostic] = {}
    for d in symbols.diags:
        unique.setdefault((d.span, d.message), d)
    ordered = sorted(unique.values(), key=lambda d: (d.span.path, d.span.line, d.span.col))
    return Checked(ordered, program, dict(symbols.globals))


def check(rs: ir.RuleSet) -> tuple[list[Diagnostic], t.TypedProgram | None]:
    """Check a rule set; returns its problems and, if it has none, its typed program."""
    checked = check_partial(rs)
    return checked.diagnostics, None if checked.diagnostics else checked.program
