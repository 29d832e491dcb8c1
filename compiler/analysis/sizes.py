"""How big an expression is, and whether a loop's length is bounded by the board or the rules
whatever the game: the measures `inline`, `compute_inside_kept` and `intersect_components` decide by.
"""

from __future__ import annotations

from .. import typed as t
from .walk import bare, nodes


def size(e: t.Expr) -> int:
    """How many nodes `e` has (a note is no node of its own)."""
    return sum(1 for n in nodes(e) if not isinstance(n, t.Note))


_BOARD_LISTS = frozenset({"regions_of", "spots_of", "neighbours", "regions_at"})


def bounded(e: t.Expr) -> bool:
    """Whether a loop's domain is as long as the board or the rules make it, whatever the game:
    a kind's values (`spots`, `players`, an enumeration), a region's spots, a board's list, a
    range of numbers written out, a list written out."""
    e = bare(e)
    match e:
        case t.Ref():
            return e.sym.kind == "value" or e.ty.kind == "entity" and e.ty.name == "region"
        case t.Builtin(func="range" | "steps"):
            return all(isinstance(a, t.Num) for a in e.args)
        case t.Builtin():
            return e.func in _BOARD_LISTS
        case t.Collection():
            return True
    return e.ty.kind == "entity" and e.ty.name == "region"
