"""The built-ins of the rule language: each built-in function declared once, in library.py.

To add one (docs/compiler.md, "Adding a built-in"): its `Builtin` entry in library.py (signature,
the Python it lowers to, what it reads, its facts rule if lowering can prove more of it than its
type says, its doc line) and the function it calls in the runtime (in runtime/mechanics.py, named
in its `__all__` and imported in runtime/__init__.py, or a board's method in runtime/boards/);
then docs/language.md's table gets the row `docs_table()` prints (tests/test_docs.py checks the
table against the registry).
"""

from __future__ import annotations

from .. import typed as t
from .library import BUILTINS
from .spec import Builtin, Call, Lowering
from .values import AGGREGATES, VALUES

__all__ = ["AGGREGATES", "BUILTINS", "VALUES", "Builtin", "Call", "Lowering", "counting", "docs_table"]


def counting(e: t.Builtin) -> t.Builtin | None:
    """`len(f(...))` as the built-in that counts what `f` lists without listing it (`count_lines`
    for `straight_lines`), if `f` declares one (`counted_by`)."""
    if e.func != "len" or not isinstance(e.args[0], t.Builtin):
        return None
    by = BUILTINS[e.args[0].func].counted_by
    # (pass `mask_spot_sets`: a list it reads from a mask is the one the count reads, from the same mask)
    return None if by is None else t.Builtin(by, e.args[0].args, (), e.ty, e.span, mask_read=e.args[0].mask_read)


def docs_table() -> str:
    """docs/language.md's table of the built-in functions, one row per built-in, as the registry
    declares them (`python -c 'from rulewright.compiler.builtins import docs_table; print(docs_table())'`)."""
    rows = ["| built-in | what it gives |", "| --- | --- |"]
    rows += [f"| `{b.signature}` | {b.described} |" for b in BUILTINS.values()]
    return "\n".join(rows)
