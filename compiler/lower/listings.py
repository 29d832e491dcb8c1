"""Lowering an action's listing as the representation passes annotated it (`t.Action.listing`,
`t.Choice.made_once`, `t.Action.when_written_out`): through tables of interned actions per board
(`index_actions`), its last choice gathered from a row of spots (`gather_spots`) or of regions
(`mask_regions`), remembered by value (`remember_listings`, keyed as `key_sorted_lists` left it), its first
choice's rows found by key (`find_rows_by_key`), a later choice's list made once (`hoist_choices`), its
`when:` written out (`inline_guards`). The passes decide; the code they decided is written here
(compiler/lower/actions.py calls it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..builtins.spec import template
from ..names import joined
from ..pyir import (
    Assign,
    Attribute,
    AugAssign,
    BinOp,
    BoolOp,
    Call,
    Comment,
    Compare,
    Comprehension,
    Constant,
    Dict,
    Expr,
    For,
    GeneratorExp,
    If,
    IfExp,
    List,
    Name,
    NamedExpr,
    Paren,
    Stmt,
    Subscript,
    Tuple,
    UnaryOp,
    assign,
    call,
    dotted,
    if_,
    rt,
)
from ..typed import Level, Listed, ListedKey, Table
from .boards import Bind, lookup
from .code import parenthesised, unparenthesised
from .expressions import value_code


# -- through tables per board (pass `index_actions`) ------------------------------------------
def listing(table: Table, name: str, clear: bool, choices: list[tuple[str, Expr, bool, str]], bound: Bind,
            gather: tuple[Expr, Sequence[tuple[Expr, bool]]] | None = None, into: str = "_actions",
            regions: tuple[list[tuple[Expr | None, str | None]], str, int, bool, bool] | None = None,
            rows: tuple[Expr, str, str] | None = None) -> list[Stmt]:
    """The statements of a listing through tables (a method's body): `choices` are
    each choice's (loop variable, walk, whether its value is a list, the comment of its rule
    line); the actions are those of the plain listing, in its order. `clear`: its choices can
    name ever new values (a dictionary first, else the plain listing); whatever they name, every
    action and row made is charged to what the board keeps (`rt.made`), which empties the board's
    tables where they would keep too much. `bound`: how the table is read (pass `bind_board_tables`).
    `gather` (pass `gather_spots`): the last choice's list
    of spots as the masks joined first and each further group (its code, whether it is kept per
    row): its row is an `rt.SpotRow` that appends the actions of the mask's spots. `into`: the list
    the actions are appended to (pass `remember_listings`: a list remembered by value). `regions` (pass
    `mask_regions`): the last choice's regions made from masks, as its tests (each one's code over the
    comprehension's variable, or the local of a kept test's mask), that variable, how many tests are
    kept per row, whether the regions may be out of region order (then walked as the rules walk
    them), and whether every board has few regions (the row's actions by mask read in place): its row
    is an `rt.RegionRow` that appends the actions of the mask's regions. `rows` (pass `find_rows_by_key`):
    the first choice's rows found by the key its walk's value is remembered by: the key's code, the
    type of the choice's values and what the key is in words."""
    bounded = all(level.how != "key" for level in table.levels)  # (by the board and the declarations)
    if clear and not bounded and table.levels[0].how != "key":
        return []
    out: list[Stmt] = [Comment("Actions are interned per board, found by index in tables (`index_actions`): the same "
                               "move is the same object in every state.")]
    levels = table.levels
    args: list[Expr] = []  # (each choice's value, as the action holds it)
    for (var, _, is_list, _), level in zip(choices, levels, strict=True):
        args.append(Call(dotted("self.board.line_spots"), (dotted(var),)) if level.how == "lines"
                    else Call(Name("tuple"), (dotted(var),)) if is_list else dotted(var))
    make = rt("Action", Constant(name), Tuple(tuple(args)), dotted("self._action_text"))
    append = Call(Attribute(Name(into), "append"), (Name("_action"),))  # (the action found, to the list)
    row_class = "SpotRow" if gather is not None else "RegionRow" if regions is not None else None
    # (a table of rows of spots or of regions is named so: a variant whose listing of the same action
    # has no such rows has a slot of its own, of its own type)
    kind = {"SpotRow": "spot_rows", "RegionRow": "region_rows"}.get(row_class or "", "actions")
    slot, what = joined(kind, name), f"the interned actions of `{name}` (`index_actions`)"
    annotation = actions_type(tuple(level.how for level in levels), row_class)
    if not levels:
        found = bound(lookup("actions", name, "action_table", Constant(1)), slot, annotation, what)
        first_item = Subscript(Name("_table"), Constant(0))
        return [*out, assign(Name("_table"), found), assign(Name("_action"), first_item),
                if_(_is_none("_action"), Assign((Name("_action"), first_item), make)), call(append)]
    first = levels[0]
    # (the table met already, else made: a method call only the first time)
    find = lookup("actions", name, "action_dict") if first.how == "key" else \
        lookup("actions", name, "action_table", _size(first.size))
    out.append(assign(Name("_table"), bound(find, slot, annotation, what)))
    tables = _Tables(name, clear, choices, levels, bound, gather, regions, rows, tuple(args), make, append, row_class,
                     kind)
    return [*out, *_level(tables, 0, "_table")]


@dataclass(frozen=True, slots=True)
class _Tables:
    """What each level of a listing through tables shares: `listing`'s arguments, each choice's
    value as the action holds it (`args`), the action made (`make`) and found (`append`, to the
    list), the class of the last choice's rows (`row_class`) and what the table is named for (`kind`)."""

    name: str
    clear: bool
    choices: list[tuple[str, Expr, bool, str]]
    levels: tuple[Level, ...]
    bound: Bind
    gather: tuple[Expr, Sequence[tuple[Expr, bool]]] | None
    regions: tuple[list[tuple[Expr | None, str | None]], str, int, bool, bool] | None
    rows: tuple[Expr, str, str] | None
    args: tuple[Expr, ...]
    make: Expr
    append: Expr
    row_class: str | None
    kind: str


def _level(tables: _Tables, k: int, row_name: str) -> list[Stmt]:
    """The statements of choice k's level (inside the loop of the one before), its row `row_name`."""
    (var, walk, is_list, comment), level, levels = tables.choices[k], tables.levels[k], tables.levels
    row, gather, regions = Name(row_name), tables.gather, tables.regions
    if gather is not None and k == len(levels) - 1:  # (pass `gather_spots`) the row appends its spots' actions
        return gathered_spots(row_name, gather[0], gather[1], comment)
    if regions is not None and k == len(levels) - 1:  # (pass `mask_regions`) the row appends its regions'
        plain = walk if regions[3] else None
        return gathered_regions(row_name, regions[0], plain, var, regions[1], comment, regions[4])
    by_rows = tables.rows is not None and k == 0 and level.how == "key" and is_list and not tables.clear \
        and len(levels) > 1
    body: list[Stmt] = []
    index: Expr
    if level.how == "key" and is_list:
        index = Name(f"_key{k}")
        body.append(assign(index, Call(Name("tuple"), (dotted(var),))))
    else:
        index = dotted(var)
    last = k == len(levels) - 1
    got = Name("_action" if last else f"_row{k + 1}")
    body.append(assign(got, Call(Attribute(row, "get"), (index,)) if level.how == "key" else Subscript(row, index)))
    made, units = _made(tables, k, index)
    making = [call(rt("made", dotted("self.board"), _plus(*units)))] if units else []
    body.append(if_(_is_none(got.id), *making, Assign((got, Subscript(row, index)), made)))
    after: list[Stmt] = [call(tables.append)] if last else _level(tables, k + 1, got.id)
    if by_rows and tables.rows is not None:  # (pass `find_rows_by_key`) the rows found once, by the walk's key
        return _by_rows(tables, tables.rows, body, after)
    return [For(Name(var), walk, (*body, *after), note=comment)]


def _made(tables: _Tables, k: int, index: Expr) -> tuple[Expr, list[Expr]]:
    """What choice k's level makes when its row holds nothing at `index` (the action, a row of the
    next level, a row of spots or regions), and what it is charged: what is made is charged to what
    the board keeps first (runtime/kept.py `made`, which empties every table of the board where it
    would keep too much): a dictionary's entry and its key, then the action (its object and
    choices) or the row (a row of spots or regions charges itself)."""
    (_, _, is_list, _), level, levels = tables.choices[k], tables.levels[k], tables.levels
    units: list[Expr] = []
    if level.how == "key":
        units.append(_plus(_rt("ENTRY"), _rt("OBJECT"), _len(index)) if is_list else _rt("ENTRY"))
    made: Expr
    if k == len(levels) - 1:
        made = tables.make
        units.append(_plus(_rt("ACTION"), Constant(len(tables.args))))
        units.extend(_len(dotted(v)) for (v, _, listed, _), lv in zip(tables.choices, levels, strict=True)
                     if listed and lv.how != "lines")
    elif (tables.gather is not None or tables.regions is not None) and k == len(levels) - 2:
        # a row of spots, gathered (pass `gather_spots`), or of regions, by mask (pass `mask_regions`)
        fixed = fixed_spot_tests(tables.gather[1]) if tables.gather is not None \
            else tables.regions[2] if tables.regions is not None else 0
        made = rt(tables.row_class or "", Constant(tables.name), Tuple(tables.args[:-1]), dotted("self._action_text"),
                  dotted("self.board"), Constant(fixed))
    else:
        inner = levels[k + 1]
        if inner.how == "key":
            made = Dict((), ())
            units.append(_rt("DICT"))
        else:
            size = _size(inner.size)
            made = BinOp(List((Constant(None),)), "*", Paren(size) if " " in inner.size else size)
            units.append(_plus(_rt("OBJECT"), size))
    return made, units


def _by_rows(tables: _Tables, rows: tuple[Expr, str, str], body: list[Stmt], after: list[Stmt]) -> list[Stmt]:
    """(pass `find_rows_by_key`) The first choice's level, its rows found once by the key of its walk
    (`rows`, as `listing` takes it): `body` finds a value's row, `after` runs the rest of the listing."""
    (var, walk, _, comment), (key, value_type, what), name = tables.choices[0], rows, tables.name
    pair = f"{value_type}, {actions_type(tuple(lv.how for lv in tables.levels[1:]), tables.row_class)}"
    # (named, like the table, for its rows: a variant whose rows are of another kind has a slot of its own)
    rows_kind = f"keyed_{tables.kind if tables.row_class else 'rows'}"
    rows_table = tables.bound(lookup("values", f"{rows_kind} {name}", "value_table"), joined(rows_kind, name),
                              f"dict[Any, list[tuple[{pair}]]]",
                              f"the rows of the first choice of `{name}` by {what} (`find_rows_by_key`)")
    return rows_lines(var, walk, comment, key, rows_table, pair, body, what, after)


def actions_type(levels: tuple[str, ...], row: str | None) -> str:
    """The type of an action's table of interned actions (pass `index_actions`), from how each of
    its levels is found ("key": a dictionary by the value, else a list by its number) and the class
    of the row of its last choice when a pass gathers it (`SpotRow`, `RegionRow`), else None."""
    if not levels:
        return "list[rt.Action | None]"
    item = "rt.Action"
    if row is not None:
        levels, item = levels[:-1], f"rt.{row}"
    for how in reversed(levels):
        item = f"dict[Any, {item}]" if how == "key" else f"list[{item} | None]"
    return item


# -- the rows of a listing's last choice, gathered (passes `gather_spots`, `mask_regions`), and its
# first choice's rows found by key (`find_rows_by_key`), within a listing through tables
def gathered_spots(row_name: str, first: Expr, more: Sequence[tuple[Expr, bool]],
                   comment: str) -> list[Stmt]:
    """(pass `gather_spots`) The statements (in the last choice's loop) that append the actions
    of the last choice from its row `row`, an `rt.SpotRow`: `first`, the masks joined first, and
    `more`, each further group's code and whether it is kept per row, as `board.spots_of` takes them."""
    row, mask, held = Name(row_name), Name("_spots_mask"), Name("_row_fixed")
    out: list[Stmt] = [assign(mask, first, note=f"{comment}; `gather_spots`: its spots as a bit mask")]
    kept = 0
    for code, is_fixed in more:
        if is_fixed:
            slot = Subscript(Attribute(row, "fixed"), Constant(kept))
            fixed = If(_is_none(held.id), (
                Assign((held, slot), rt("union", code)),
            ), note="(a test of the earlier choices only: computed once per row)")
            out.append(if_(mask, assign(held, slot), fixed, AugAssign(mask, "&", held)))
            kept += 1
        else:
            out.append(if_(mask, AugAssign(mask, "&", rt("union", code))))
    # (the row's actions of the masks it met last, read in place: a method call only for a mask not
    # among them, runtime/listing.py `SpotRow.made`)
    gathered = Name("_gathered")
    out.append(if_(
        mask,
        assign(gathered, Call(Attribute(Attribute(row, "by_mask"), "get"), (mask,))),
        if_(_is_none(gathered.id), assign(gathered, Call(Attribute(row, "made"), (mask,))),
            note="(a mask not met lately: its actions a byte of the mask at a time)"),
        AugAssign(Name("_actions"), "+", gathered,
                  note=f"{comment}; `gather_spots`: the actions of its spots, in spot order")))
    return out


def fixed_spot_tests(more: Sequence[tuple[Expr, bool]]) -> int:
    return sum(1 for _, is_fixed in more if is_fixed)


def gathered_regions(row_name: str, terms: list[tuple[Expr | None, str | None]], plain: Expr | None, choice: str,
                     var: str,
             comment: str, few: bool = False) -> list[Stmt]:
    """(pass `mask_regions`) The statements (in the last choice's loop) that append the
    actions of the last choice from its row `row`, an `rt.RegionRow`: `terms`, each test's code over
    the comprehension's variable `var` (kept per row) or the local holding a kept test's mask (None,
    local); `plain` the walk of the rules, by the choice's local `choice`, for regions not in
    increasing order (None: they always are). `few`: every board of the rule set has at most
    `SMALL_REGIONS` regions, so the row's actions by mask are read from its table here (`by_mask`),
    not through a call of `gather`."""
    row, stale, held, actions = Name(row_name), Name("_regions_stale"), Name("_held_regions"), Name("_actions")
    out: list[Stmt] = []
    running: Expr = Name("_regions_mask")  # (the regions passing the tests before, in the order written)
    fixed = 0
    for code, local in terms:
        if code is not None:
            known, slot = (Subscript(Attribute(row, field), Constant(fixed)) for field in ("known", "fixed"))
            bit = Name(var)
            out.append(assign(stale, BinOp(running, "&", UnaryOp("~", known))))
            out.append(if_(
                stale,
                AugAssign(slot, "|", rt("union", GeneratorExp(BinOp(Constant(1), "<<", bit), (
                    Comprehension(bit, rt("bits", stale), (code,)),))), note=comment),
                AugAssign(known, "|", stale),
                note="(a test of the earlier choices only: computed once per region and row)"))
            running = BinOp(running, "&", slot)
            fixed += 1
        else:
            assert local is not None
            running = BinOp(running, "&", Name(local))
    out.append(assign(held, running, note=f"{comment}; `mask_regions`: its regions as a bit mask"))
    note = f"{comment}; `mask_regions`: the actions of its regions, in region order"
    if few:
        found = Name("_row_actions")
        out.append(if_(held, assign(found, Subscript(Attribute(row, "by_mask"), held)),
                       if_(_is_none(found.id), assign(found, Call(Attribute(row, "made"), (held,))),
                           note="(made the first time the mask is met)"),
                       AugAssign(actions, "+", found, note=note)))
    else:
        out.append(if_(held, call(Call(Attribute(row, "gather"), (actions, held)), note=note)))
    if plain is None:
        return out
    made = Call(Attribute(row, "action"), (Name(choice),))
    return [If(Compare(Name("_regions_mask"), ("<",), (Constant(0),)), (
        For(Name(choice), plain, (call(Call(Attribute(actions, "append"), (made,))),), note=comment),
    ), orelse=tuple(out), note="(its regions are not in region order: walked as the rules walk them)")]


def rows_lines(var: str, walk: Expr, comment: str, key: Expr, rows_table: Expr, annotation: str,
               row_lines: list[Stmt], what: str, then: list[Stmt]) -> list[Stmt]:
    """(pass `find_rows_by_key`) The statements that find the rows of a listing's first choice `var` by `key`
    (the definition its walk calls is remembered by, `what` in words): made the first time by walking
    `walk` and finding each value's row as `row_lines` do (they bind `row1`), then walked, each row
    running `then` (the rest of the listing)."""
    rows, rows_key, found = Name("_rows"), Name("_rows_key"), Name("_found_rows")
    value, row = dotted(var), Name("_row1")
    return [
        Comment(f"`find_rows_by_key`: the rows of `{var}` found once per listing by {what}, which its values are a "
                "function of (`remember_values`), not by a tuple made and hashed per value"),
        assign(rows, rows_table),  # (pass `bind_board_tables` finds the table's look-up by its nodes)
        assign(rows_key, key),
        assign(found, Call(Attribute(rows, "get"), (rows_key,)), annotation=f"list[tuple[{annotation}]] | None"),
        if_(_is_none(found.id),
            assign(found, List(())),
            For(value, walk, (*row_lines, call(Call(Attribute(found, "append"), (Tuple((value, row)),)))),
                note=comment),
            call(rt("remember", rows, rows_key, found, dotted("self.board"))),
            note="(the first listing with this key: the values and their rows)"),
        For(Tuple((value, row), parenthesised=False), found, tuple(then), note=comment),
    ]


# -- a list remembered by value (pass `remember_listings`) ------------------------------------------
def remembered(listed: Listed, action: str, plain: list[Stmt], bindings: list[Stmt], bound: Bind) -> list[Stmt]:
    """The statements of the listing (a method's body): the table, the key, and the plain listing
    `plain` (appending to `listed_actions`, after the listing's own `bindings`) run only for a key met
    the first time. `bound`: how the table is read (pass `bind_board_tables`)."""
    parts = [Call(Name("frozenset"), (_key_read(key),)) if key.member else _key_read(key) for key in listed.keys]
    key = parts[0] if len(parts) == 1 else Tuple(tuple(parts))
    name = f"listing {action}"
    find = bound(lookup("values", name, "value_table"), joined("listed", action), "dict[Any, list[rt.Action]]",
                 f"the listings of `{action}` by what they read (`remember_listings`)")
    table, listed_key, actions = Name("_listed"), Name("_listed_key"), Name("_listed_actions")
    return [
        Comment(f"What this listing lists is a function of {listed.what}: remembered by "
                f"{'them' if len(parts) > 1 else 'it'}, in a table of the board every state shares "
                "(`remember_listings`)."),
        assign(table, find),  # (pass `bind_board_tables` finds the table's look-up by its nodes)
        assign(listed_key, key),
        assign(actions, Call(Attribute(table, "get"), (listed_key,)), annotation="list[rt.Action] | None"),
        if_(_is_none(actions.id), assign(actions, List(())), *bindings, *plain,
            call(rt("remember", table, listed_key, actions, dotted("self.board")))),
        AugAssign(Name("_actions"), "+", actions),
    ]


def _key_read(key: ListedKey) -> Expr:
    """The code that reads a value a listing is remembered by: a field, or its entry at an entity."""
    read = dotted(key.field.py)
    return read if key.at is None else Subscript(read, value_code(key.at.py))


# -- rows found by key (pass `find_rows_by_key`) ------------------------------------------------------
def key_code(table_py: str, at: int | None, params: tuple[int, ...], args: list[Expr]) -> Expr:
    """The key a definition remembered by value (`remember_values`) is found by, called with the
    arguments `args` (their nodes): what its own look-up reads, its parameters replaced."""
    read = dotted(table_py) if at is None else Subscript(dotted(table_py), args[at])
    parts = [read, *(args[k] for k in params)]
    return parts[0] if len(parts) == 1 else Tuple(tuple(parts))


# -- a later choice's list made once (pass `hoist_choices`) ---------------------------------------
def hoisted(joined: list[tuple[str, str | None, Expr, str]], walk: Expr, annotation: str, choice: str, span: str,
            limit: int, runtime: Callable[[Expr], bool]) -> Expr:
    """The walk of a later choice the pass found, through a local of the listing (bound to None
    before its loops, in `joined`, pass `hoist_masks`'s bindings), made the first time it is
    walked; `walk` itself if it reads the runtime (`runtime`: it may charge work) or the listing's
    locals are all taken."""
    if runtime(walk) or len(joined) >= limit:
        return walk
    name = f"_joined{len(joined)}"
    joined.append((name, f"{annotation} | None", Constant(None),
                   f"{span}; `hoist_choices`: the list `{choice}` walks, made once, the first time it is walked"))
    local = Name(name)
    return Paren(IfExp(local, Compare(local, ("is not",), (Constant(None),)), Paren(NamedExpr(local, walk))))


# -- small pieces of the code above ---------------------------------------------------------------
def _rt(name: str) -> Expr:
    """`rt.NAME`, a constant of the runtime."""
    return Attribute(Name("rt"), name)


def _len(e: Expr) -> Expr:
    return Call(Name("len"), (e,))


def _plus(first: Expr, *more: Expr) -> Expr:
    """`first + more[0] + ...`, without parentheses."""
    for e in more:
        first = BinOp(first, "+", e)
    return first


def _is_none(name: str) -> Expr:
    """`name is None`."""
    return Compare(Name(name), ("is",), (Constant(None),))


def _size(code: str) -> Expr:
    """The size of a level of a table (`Level.size`, code pass `index_actions` wrote: a number,
    `len(self.board.spots)`, `len(self.board.region_names) + 1`, `self.board.line_count()`), as nodes."""
    return template(code)


# -- the guard written out (pass `inline_guards`) -------------------------------------------------
def guard_written(marked: bool, when: Expr | None) -> Expr | None:
    """The test a listing starts with, the negation of `when` (lowered), or None where the listing
    calls the guard method (an action the pass did not mark: `marked` false). A negation, a
    membership or an identity test is negated by its operator (`x`, `c not in s`, `x is None`), as
    Python reads best; asked of the nodes. (Called by lowering: compiler/lower/actions.py.)"""
    if when is None or not marked:
        return None
    bare = unparenthesised(when)
    match bare:
        case UnaryOp(op="not"):
            return unparenthesised(bare.operand)
        case Compare(ops=(op,), comparators=(right,)) if op in _NEGATED:
            return Compare(_compared(bare.left), (_NEGATED[op],), (_compared(right),))
    return UnaryOp("not", parenthesised(bare))


_NEGATED = {"in": "not in", "not in": "in", "is": "is not", "is not": "is"}


def _compared(e: Expr) -> Expr:
    """`e` as an operand of a comparison: in parentheses if it binds looser, else as it is, without
    parentheses of its own."""
    inner = e.value if isinstance(e, Paren) and not isinstance(e.value, GeneratorExp) else e
    looser = isinstance(inner, BoolOp | Compare | IfExp | NamedExpr) \
        or isinstance(inner, UnaryOp) and inner.op == "not"
    return Paren(inner) if looser else inner
