"""Lowering an action's listing as the representation passes annotated it (`t.Action.listing`,
`t.Choice.made_once`, `t.Action.when_written_out`): through tables of interned actions per board
(`action_tables`), its last choice gathered from a row of spots (`spot_rows`) or of regions
(`region_masks`), remembered by value (`listing_tables`, keyed as `sorted_keys` left it), its first
choice's rows found by key (`tabled_rows`), a later choice's list made once (`choice_hoist`), its
`when:` written out (`guard_inline`). The passes decide; the code they decided is written here
(compiler/lower/actions.py calls it).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from ..names import joined
from ..pyir import (
    Assign,
    AugAssign,
    Code,
    Comment,
    Compare,
    Constant,
    Expr,
    For,
    If,
    IfExp,
    Name,
    NamedExpr,
    Paren,
    Stmt,
    Tuple,
    assign,
    call,
    if_,
)
from ..typed import Listed, Table
from .boards import Bind


# -- through tables per board (pass `action_tables`) ------------------------------------------
def listing(table: Table, name: str, clear: bool, choices: list[tuple[str, Expr, bool, str]], bound: Bind,
            gather: tuple[str, list[tuple[str, bool]]] | None = None, into: str = "_actions",
            regions: tuple[list[tuple[str | None, str | None]], str, int, bool, bool] | None = None,
            rows: tuple[str, str, str] | None = None) -> list[Stmt]:
    """The statements of a listing through tables (a method's body): `choices` are
    each choice's (loop variable, walk, whether its value is a list, the comment of its rule
    line); the actions are those of the plain listing, in its order. `clear`: its choices can
    name ever new values (a dictionary first, else the plain listing); whatever they name, every
    action and row made is charged to what the board keeps (`rt.made`), which empties the board's
    tables where they would keep too much. `bound`: how the table is read (pass `board_tables`).
    `gather` (pass `spot_rows`): the last choice's list
    of spots as the masks joined first and each further group (its code, whether it is kept per
    row): its row is an `rt.SpotRow` that appends the actions of the mask's spots. `into`: the list
    the actions are appended to (pass `listing_tables`: a list remembered by value). `regions` (pass
    `region_masks`): the last choice's regions made from masks, as its tests (each one's code over the
    comprehension's variable, or the local of a kept test's mask), that variable, how many tests are
    kept per row, whether the regions may be out of region order (then walked as the rules walk
    them), and whether every board has few regions (the row's actions by mask read in place): its row
    is an `rt.RegionRow` that appends the actions of the mask's regions. `rows` (pass `tabled_rows`):
    the first choice's rows found by the key its walk's value is remembered by: the key's code, the
    type of the choice's values and what the key is in words."""
    bounded = all(level.how != "key" for level in table.levels)  # (by the board and the declarations)
    if clear and not bounded and table.levels[0].how != "key":
        return []
    out: list[Stmt] = [Comment("Actions are interned per board, found by index in tables (`action_tables`): the same "
                               "move is the same object in every state.")]
    levels = table.levels
    args: list[str] = []
    for (var, _, is_list, _), level in zip(choices, levels, strict=True):
        args.append(f"self.board.line_spots({var})" if level.how == "lines"
                    else f"tuple({var})" if is_list else var)
    args_code = "(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")"
    make = f"rt.Action({name!r}, {args_code}, self._action_text)"
    row_class = "SpotRow" if gather is not None else "RegionRow" if regions is not None else None
    # (a table of rows of spots or of regions is named so: a variant whose listing of the same action
    # has no such rows has a slot of its own, of its own type)
    kind = {"SpotRow": "spot_rows", "RegionRow": "region_rows"}.get(row_class or "", "actions")
    slot, what = joined(kind, name), f"the interned actions of `{name}` (`action_tables`)"
    annotation = actions_type(tuple(level.how for level in levels), row_class)
    if not levels:
        found = bound(f"self.board.tables.actions.get({name!r}) or self.board.tables.action_table({name!r}, 1)", slot,
                      annotation, what)
        return [*out, assign("_table", found), assign("_action", "_table[0]"),
                if_("_action is None", Assign((Code("_action"), Code("_table[0]")), Code(make))),
                call(f"{into}.append(_action)")]
    first = levels[0]
    # (the table met already, else made: a method call only the first time)
    make_table = f"self.board.tables.action_dict({name!r})" if first.how == "key" else \
        f"self.board.tables.action_table({name!r}, {first.size})"
    out.append(assign("_table", bound(f"self.board.tables.actions.get({name!r}) or {make_table}", slot, annotation,
                                      what)))

    def level_of(k: int, row: str) -> list[Stmt]:
        """The statements of choice k's level (inside the loop of the one before), its row `row`."""
        (var, walk, is_list, comment), level = choices[k], levels[k]
        if gather is not None and k == len(levels) - 1:  # (pass `spot_rows`) the row appends its spots' actions
            return gathered_spots(row, gather[0], gather[1], comment)
        if regions is not None and k == len(levels) - 1:  # (pass `region_masks`) the row appends its regions'
            plain = walk if regions[3] else None
            return gathered_regions(row, regions[0], plain, var, regions[1], comment, regions[4])
        by_rows = rows is not None and k == 0 and level.how == "key" and is_list and not clear and len(levels) > 1
        body: list[Stmt] = []
        if level.how == "key" and is_list:
            body.append(assign(f"_key{k}", f"tuple({var})"))
            index = f"_key{k}"
        else:
            index = var
        last = k == len(levels) - 1
        got = "_action" if last else f"_row{k + 1}"
        body.append(assign(got, f"{row}.get({index})" if level.how == "key" else f"{row}[{index}]"))
        # what is made is charged to what the board keeps first (runtime/kept.py `made`, which empties
        # every table of the board where it would keep too much): a dictionary's entry and its key,
        # then the action (its object and choices) or the row (a row of spots or regions charges itself)
        units = []
        if level.how == "key":
            units.append(f"rt.ENTRY + rt.OBJECT + len({index})" if is_list else "rt.ENTRY")
        if last:
            made = make
            units.append(f"rt.ACTION + {len(args)}")
            units.extend(f"len({v})" for (v, _, listed, _), lv in zip(choices, levels, strict=True)
                         if listed and lv.how != "lines")
        elif (gather is not None or regions is not None) and k == len(levels) - 2:
            # a row of spots, gathered (pass `spot_rows`), or of regions, by mask (pass `region_masks`)
            earlier = "(" + ", ".join(args[:-1]) + ("," if len(args) == 2 else "") + ")"
            fixed = fixed_spot_tests(gather[1]) if gather is not None else regions[2] if regions is not None else 0
            made = f"rt.{row_class}({name!r}, {earlier}, self._action_text, self.board, {fixed})"
        else:
            inner = levels[k + 1]
            made = "{}" if inner.how == "key" else f"[None] * ({inner.size})" if " " in inner.size else \
                f"[None] * {inner.size}"
            units.append("rt.DICT" if inner.how == "key" else f"rt.OBJECT + {inner.size}")
        making = [call(f"rt.made(self.board, {' + '.join(units)})")] if units else []
        body.append(if_(f"{got} is None", *making, Assign((Code(got), Code(f"{row}[{index}]")), Code(made))))
        after: list[Stmt] = [call(f"{into}.append(_action)")] if last else level_of(k + 1, got)
        if by_rows and rows is not None:  # (pass `tabled_rows`) the rows found once, by the walk's key
            key, value_type, what = rows
            pair = f"{value_type}, {actions_type(tuple(lv.how for lv in levels[1:]), row_class)}"
            # (named, like the table, for its rows: a variant whose rows are of another kind has a slot of its own)
            rows_kind = f"keyed_{kind if row_class else 'rows'}"
            find = (f"self.board.tables.values.get('{rows_kind} {name}') or "
                    f"self.board.tables.value_table('{rows_kind} {name}')")
            rows_table = bound(find, joined(rows_kind, name), f"dict[Any, list[tuple[{pair}]]]",
                               f"the rows of the first choice of `{name}` by {what} (`tabled_rows`)")
            return rows_lines(var, walk, comment, key, rows_table, pair, body, what, after)
        return [For(Name(var), walk, (*body, *after), note=comment)]

    return [*out, *level_of(0, "_table")]


def actions_type(levels: tuple[str, ...], row: str | None) -> str:
    """The type of an action's table of interned actions (pass `action_tables`), from how each of
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


# -- the rows of a listing's last choice, gathered (passes `spot_rows`, `region_masks`), and its
# first choice's rows found by key (`tabled_rows`), within a listing through tables
def gathered_spots(row: str, first: str, more: list[tuple[str, bool]], comment: str) -> list[Stmt]:
    """(pass `spot_rows`) The statements (in the last choice's loop) that append the actions
    of the last choice from its row `row`, an `rt.SpotRow`: `first`, the masks joined first, and
    `more`, each further group's code and whether it is kept per row, as `board.spots_of` takes them."""
    out: list[Stmt] = [assign("_spots_mask", first, note=f"{comment}; `spot_rows`: its spots as a bit mask")]
    mask = Code("_spots_mask")
    kept = 0
    for code, is_fixed in more:
        if is_fixed:
            fixed = If(Code("_row_fixed is None"), (
                Assign((Code("_row_fixed"), Code(f"{row}.fixed[{kept}]")), Code(f"rt.union({code})")),
            ), note="(a test of the earlier choices only: computed once per row)")
            out.append(if_("_spots_mask", assign("_row_fixed", f"{row}.fixed[{kept}]"), fixed,
                           AugAssign(mask, "&", Code("_row_fixed"))))
            kept += 1
        else:
            out.append(if_("_spots_mask", AugAssign(mask, "&", Code(f"rt.union({code})"))))
    # (the row's actions of the masks it met last, read in place: a method call only for a mask not
    # among them, runtime/listing.py `SpotRow.made`)
    out.append(if_(
        "_spots_mask",
        assign("_gathered", f"{row}.by_mask.get(_spots_mask)"),
        if_("_gathered is None", assign("_gathered", f"{row}.made(_spots_mask)"),
            note="(a mask not met lately: its actions a byte of the mask at a time)"),
        AugAssign(Code("_actions"), "+", Code("_gathered"),
                  note=f"{comment}; `spot_rows`: the actions of its spots, in spot order")))
    return out


def fixed_spot_tests(more: list[tuple[str, bool]]) -> int:
    return sum(1 for _, is_fixed in more if is_fixed)


def gathered_regions(row: str, terms: list[tuple[str | None, str | None]], plain: Expr | None, choice: str, var: str,
             comment: str, few: bool = False) -> list[Stmt]:
    """(pass `region_masks`) The statements (in the last choice's loop) that append the
    actions of the last choice from its row `row`, an `rt.RegionRow`: `terms`, each test's code over
    the comprehension's variable `var` (kept per row) or the local holding a kept test's mask (None,
    local); `plain` the walk of the rules, by the choice's local `choice`, for regions not in
    increasing order (None: they always are). `few`: every board of the rule set has at most
    `SMALL_REGIONS` regions, so the row's actions by mask are read from its table here (`by_mask`),
    not through a call of `gather`."""
    out: list[Stmt] = []
    running = "_regions_mask"  # (the regions passing the tests before, in the order written)
    fixed = 0
    for code, local in terms:
        if code is not None:
            out.append(assign("_regions_stale", f"{running} & ~{row}.known[{fixed}]"))
            out.append(if_(
                "_regions_stale",
                AugAssign(Code(f"{row}.fixed[{fixed}]"), "|",
                          Code(f"rt.union(1 << {var} for {var} in rt.bits(_regions_stale) if {code})"), note=comment),
                AugAssign(Code(f"{row}.known[{fixed}]"), "|", Code("_regions_stale")),
                note="(a test of the earlier choices only: computed once per region and row)"))
            running += f" & {row}.fixed[{fixed}]"
            fixed += 1
        else:
            running += f" & {local}"
    out.append(assign("_held_regions", running, note=f"{comment}; `region_masks`: its regions as a bit mask"))
    note = f"{comment}; `region_masks`: the actions of its regions, in region order"
    if few:
        out.append(if_("_held_regions", assign("_row_actions", f"{row}.by_mask[_held_regions]"),
                       if_("_row_actions is None", assign("_row_actions", f"{row}.made(_held_regions)"),
                           note="(made the first time the mask is met)"),
                       AugAssign(Code("_actions"), "+", Code("_row_actions"), note=note)))
    else:
        out.append(if_("_held_regions", call(f"{row}.gather(_actions, _held_regions)", note=note)))
    if plain is None:
        return out
    return [If(Code("_regions_mask < 0"), (
        For(Name(choice), plain, (call(f"_actions.append({row}.action({choice}))"),), note=comment),
    ), orelse=tuple(out), note="(its regions are not in region order: walked as the rules walk them)")]


def rows_lines(var: str, walk: Expr, comment: str, key: str, rows_table: str, annotation: str,
               row_lines: list[Stmt], what: str, then: list[Stmt]) -> list[Stmt]:
    """(pass `tabled_rows`) The statements that find the rows of a listing's first choice `var` by `key`
    (the definition its walk calls is remembered by, `what` in words): made the first time by walking
    `walk` and finding each value's row as `row_lines` do (they bind `row1`), then walked, each row
    running `then` (the rest of the listing)."""
    return [
        Comment(f"`tabled_rows`: the rows of `{var}` found once per listing by {what}, which its values are a "
                "function of (`value_tables`), not by a tuple made and hashed per value"),
        assign("_rows", rows_table),
        assign("_rows_key", key),
        assign("_found_rows", "_rows.get(_rows_key)", annotation=f"list[tuple[{annotation}]] | None"),
        if_("_found_rows is None",
            assign("_found_rows", "[]"),
            For(Name(var), walk, (*row_lines, call(f"_found_rows.append(({var}, _row1))")), note=comment),
            call("rt.remember(_rows, _rows_key, _found_rows, self.board)"),
            note="(the first listing with this key: the values and their rows)"),
        For(Tuple((Name(var), Name("_row1")), parenthesised=False), Name("_found_rows"), tuple(then), note=comment),
    ]


# -- a list remembered by value (pass `listing_tables`) ------------------------------------------
def remembered(listed: Listed, action: str, plain: list[Stmt], bindings: list[Stmt], bound: Bind) -> list[Stmt]:
    """The statements of the listing (a method's body): the table, the key, and the plain listing
    `plain` (appending to `listed_actions`, after the listing's own `bindings`) run only for a key met
    the first time. `bound`: how the table is read (pass `board_tables`)."""
    parts = [f"frozenset({code})" if member else code for code, member in listed.keys]
    key = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
    name = f"listing {action}"
    find = bound(f"self.board.tables.values.get({name!r}) or self.board.tables.value_table({name!r})",
                 joined("listed", action), "dict[Any, list[rt.Action]]",
                 f"the listings of `{action}` by what they read (`listing_tables`)")
    return [
        Comment(f"What this listing lists is a function of {listed.what}: remembered by "
                f"{'them' if len(parts) > 1 else 'it'}, in a table of the board every state shares "
                "(`listing_tables`)."),
        assign("_listed", find),
        assign("_listed_key", key),
        assign("_listed_actions", "_listed.get(_listed_key)", annotation="list[rt.Action] | None"),
        if_("_listed_actions is None", assign("_listed_actions", "[]"), *bindings, *plain,
            call("rt.remember(_listed, _listed_key, _listed_actions, self.board)")),
        AugAssign(Code("_actions"), "+", Code("_listed_actions")),
    ]


# -- rows found by key (pass `tabled_rows`) ------------------------------------------------------
def key_code(table_py: str, at: int | None, params: tuple[int, ...], args: list[str]) -> str:
    """The code of the key a definition remembered by value (`value_tables`) is found by, called
    with the arguments `args` (their code): what its own look-up reads, its parameters replaced."""
    read = table_py if at is None else f"{table_py}[{args[at]}]"
    parts = [read, *(args[k] for k in params)]
    return parts[0] if len(parts) == 1 else f"({', '.join(parts)})"


# -- a later choice's list made once (pass `choice_hoist`) ---------------------------------------
def hoisted(joined: list[tuple[str, str | None, str, str]], walk: Expr, annotation: str, choice: str, span: str,
            limit: int, runtime: Callable[[Expr], bool]) -> Expr:
    """The walk of a later choice the pass found, through a local of the listing (bound to None
    before its loops, in `joined`, pass `listing_hoist`'s bindings), made the first time it is
    walked; `walk` itself if it reads the runtime (`runtime`: it may charge work) or the listing's
    locals are all taken."""
    if runtime(walk) or len(joined) >= limit:
        return walk
    name = f"_joined{len(joined)}"
    joined.append((name, f"{annotation} | None", "None",
                   f"{span}; `choice_hoist`: the list `{choice}` walks, made once, the first time it is walked"))
    local = Name(name)
    return Paren(IfExp(local, Compare(local, ("is not",), (Constant(None),)), Paren(NamedExpr(local, walk))))


# -- the guard written out (pass `guard_inline`) -------------------------------------------------
def guard_written(marked: bool, when: str | None, parenthesised: str) -> str | None:
    """The test a listing starts with, the negation of `when` (lowered; `parenthesised`, it as one
    operand), or None where the listing calls the guard method (an action the pass did not mark:
    `marked` false). A negation, a membership or an identity test is negated by its operator (`x`,
    `c not in s`, `x is None`), as Python reads best. (Called by lowering: compiler/lower/actions.py.)"""
    if when is None or not marked:
        return None
    text = when.strip()
    tree = ast.parse(text, mode="eval").body
    match tree:
        case ast.UnaryOp(op=ast.Not()):  # (the whole test of an `if`: no parentheses needed)
            operand = ast.get_source_segment(text, tree.operand)
            if operand is not None:
                return operand
        case ast.Compare(ops=[ast.In() | ast.NotIn() | ast.Is() | ast.IsNot() as op], comparators=[right]):
            left_py, right_py = ast.get_source_segment(text, tree.left), ast.get_source_segment(text, right)
            if left_py is not None and right_py is not None:
                negated = {ast.In: "not in", ast.NotIn: "in", ast.Is: "is not", ast.IsNot: "is"}[type(op)]
                return f"{_operand(tree.left, left_py)} {negated} {_operand(right, right_py)}"
    return f"not {parenthesised}"


def _operand(node: ast.expr, py: str) -> str:
    """`py`, the code of `node`, as an operand of a comparison: in parentheses if it binds looser."""
    looser = isinstance(node, ast.BoolOp | ast.Compare | ast.IfExp | ast.Lambda | ast.NamedExpr) \
        or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    return f"({py})" if looser else py
