"""Pass `action_tables`: a listing finds its interned actions by list index, not by hashed key.

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
from ..names import MAX_TABLE_CHOICES, joined
from ..pyir import Assign, AugAssign, Code, Comment, For, If, Stmt, assign, call, if_
from .plan import Level, Plan, Table

# How lowering has the code that finds a table read (compiler/lower/boards.py `board_table`: pass
# `board_tables`, which also leaves it as it is with that pass off): from the code that finds it by
# name, its slot's name, its type and what it holds, the code to write.
Bind = Callable[[str, str, str, str], str]


def run(program: t.TypedProgram, plan: Plan, facts: Facts) -> tuple[t.TypedProgram, Plan]:
    sizes = _sizes(program)
    tables: list[Table] = []
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
        tables.append(Table(a.name, tuple(levels)))
    return program, replace(plan, tables=tuple(tables))


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


def table_of(plan: Plan, action: str) -> Table | None:
    return next((tb for tb in plan.tables if tb.action == action), None)


def listing(table: Table, name: str, clear: bool, choices: list[tuple[str, str, bool, str]], bound: Bind,
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
        return [For(Code(var), Code(walk), (*body, *after), note=comment)]

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


# -- the rows of the passes that build on this one (they run after it): written here, where the
# listing through tables is
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


def gathered_regions(row: str, terms: list[tuple[str | None, str | None]], plain: str | None, choice: str, var: str,
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
        For(Code(choice), Code(plain), (call(f"_actions.append({row}.action({choice}))"),), note=comment),
    ), orelse=tuple(out), note="(its regions are not in region order: walked as the rules walk them)")]


def rows_lines(var: str, walk: str, comment: str, key: str, rows_table: str, annotation: str,
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
            For(Code(var), Code(walk), (*row_lines, call(f"_found_rows.append(({var}, _row1))")), note=comment),
            call("rt.remember(_rows, _rows_key, _found_rows, self.board)"),
            note="(the first listing with this key: the values and their rows)"),
        For(Code(f"{var}, _row1"), Code("_found_rows"), tuple(then), note=comment),
    ]
