"""Pass `index_actions`: a listing finds its interned actions by list index, not by hashed key.

Every legal action is interned per board: the same move is the same `rt.Action` object in every
state on that board. Unoptimised, a listing looks each one up in a dictionary by a key it builds
per action (`cache.get((tuple(cards), space))`): a tuple made and hashed for every action of every
listing. Where a choice's values are numbered by something known per board, this pass indexes a
table (a list, built as actions are met, one per board: `board.tables.action_table`) by them instead:

- a spot, a region, a component or an enumeration's value: its number (table sized by the board
  or the declaration);
- a straight line of spots, when the choice's domain is made of `straight_lines(...)` calls
  (joined with `+` or chosen by `if`): the listing walks the lines' numbers
  (`board.straight_line_numbers`, in the same order) and the action takes the board's own tuple
  of the line (`board.line_spots(k)`), the very tuple `straight_lines` gives.

A choice of anything else (numbers, lists of cards) keeps a dictionary, but one per value of the
choices before it: its key is built once per outer item, not once per action. With several
choices, each level is a row of the one before (a list or a dictionary). The actions listed, and
their order, are those of the unoptimised listing: only how an action already made is found
changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..names import MAX_TABLE_CHOICES
from ..typed import Level, Table


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each action taken annotated with its table (`t.Action.listing`); lowering lists it through
    the table (compiler/lower/listings.py)."""
    sizes = _sizes(program)
    tables: dict[str, Table] = {}
    for a in program.actions:
        levels: list[Level] = []
        for i, c in enumerate(a.choices):
            later = a.choices[i + 1:]
            ty = c.var.ty
            if ty.kind in ("entity", "enum") and ty.name in sizes:
                levels.append(Level("index", sizes[ty.name]))
            elif ty.kind == "bool":
                levels.append(Level("index", "2"))
            elif (ty.kind == "list" and ty.elem is not None and ty.elem.kind == "entity" and ty.elem.name == "spot"
                  and lines_shaped(c.domain) and not any(_refers(x.domain, c.var) for x in later)):
                levels.append(Level("lines", "self.board.line_count()"))
            else:
                levels.append(Level("key"))
        if any(level.how == "key" for level in levels):  # (lines by number only in tables bounded by the board)
            levels = [Level("key") if level.how == "lines" else level for level in levels]
        if len(levels) == 1 and levels[0].how == "key" or len(levels) > MAX_TABLE_CHOICES:
            continue  # one hashed key per action, built once already: nothing to gain
        tables[a.name] = Table(a.name, tuple(levels))
    return listed_as(program, lambda a: replace(a.listing, table=tables[a.name]) if a.name in tables else None)


def listed_as(program: t.TypedProgram, how: Callable[[t.Action], t.Listing | None]) -> t.TypedProgram:
    """`program` with the listing of each action for which `how` gives one annotated so (the same
    program if it gives none): the representation passes of a listing annotate it so."""
    actions = []
    for a in program.actions:
        listing = how(a)
        actions.append(a if listing is None else replace(a, listing=listing))
    if all(new is old for new, old in zip(actions, program.actions, strict=True)):
        return program
    return replace(program, actions=tuple(actions))


def _sizes(program: t.TypedProgram) -> dict[str, str]:
    """How many values each kind of entity or enumeration has, as code (the board's for spots and
    regions, known when compiling for the others). Players are left out: a board is shared by
    games of any player count."""
    # (a region's table has one entry more, last: `region_of` gives -1 for a spot in no region,
    # and a list indexed by -1 is its last entry, so that value has an entry of its own)
    sizes = {"spot": "len(self.board.spots)", "region": "len(self.board.region_names) + 1"}
    for name, values in program.tables.enums:
        sizes.setdefault(name, str(len(values)))
    for name, count in program.tables.component_count:
        sizes.setdefault(name, str(count))
    for name, names, _ in program.tables.dice:
        sizes.setdefault(name, str(len(names)))
    sizes.pop("player", None)
    return sizes


def lines_shaped(e: t.Expr) -> bool:
    """Whether a list of lines is made only of `straight_lines` calls, joined with `+` or chosen
    by `if`, with no other `straight_lines` inside (their numbers are listed in its place)."""
    match e:
        case t.Builtin(func="straight_lines"):
            return not any(_has_lines(arg) for arg in e.args)
        case t.Cond():
            return not _has_lines(e.test) and lines_shaped(e.then) and lines_shaped(e.orelse)
        case t.Binary(op="+"):
            return lines_shaped(e.left) and lines_shaped(e.right)
    return False


def _has_lines(e: t.Expr) -> bool:
    return (isinstance(e, t.Builtin) and e.func == "straight_lines") or any(map(_has_lines, t.subexpressions(e)))


def _refers(e: t.Expr, sym: t.Symbol) -> bool:
    return (isinstance(e, t.Ref) and e.sym is sym) or any(_refers(x, sym) for x in t.subexpressions(e))
