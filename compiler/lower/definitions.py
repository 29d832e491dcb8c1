"""Lowering definitions and fields: a definition's body, and how its value is kept, tabled or
remembered; a field's start and its description.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from ...runtime.limits import MAX_STEPS
from .. import pyir
from .. import typed as t
from ..budget import FREE_WORK, NOTHING, Facts, sat
from ..lowered import LoweredField, LoweredFunction
from ..names import base_use, component_sets_constant, faces_constant
from ..names import joined as invented
from ..pyir import Assign, Block, Elif, Expr, If, Return, Stmt, assign, call, if_
from ..pyprint import text
from ..types import needs_key
from . import boards, effects, expressions, limits
from .boards import Bind
from .code import Small, _annotation
from .effects import _assigned

if TYPE_CHECKING:
    from .lowerer import Lowerer


def define_walk(lo: Lowerer, d: t.Define) -> tuple[Expr, Small]:
    """A definition's body, lowered as a rule that only reads the game (its parameters known
    as it starts); remembers what a call to it gives and costs."""
    saved = lo.scopes, lo.assigned
    lo.scopes, lo.assigned = [set()], frozenset()
    entry = limits.bind_params(lo, d.name, d.params)
    before = lo.charges
    reading = limits.begin_reading(lo, entry)
    effects.take_notes(lo)
    py = lo.node(d.body)
    lists = limits.end_reading(lo, reading)
    note_define(lo, d, before)
    lo.scopes, lo.assigned = saved
    return py, lists


def note_define(lo: Lowerer, d: t.Define, before: int) -> None:
    """Remembers what a definition gives and the unchecked work of a call to it (one step if
    its work is large: then it charges its own), and whether it charges (count was `before`)."""
    body = lo.fact(d.body)
    cost = sat(body.cost + 1)
    if d.cached:  # a call is a look-up; computing the value charges its work then (see `define`)
        lo.define_facts[d.name] = (body.priced(0).outside(), 1)
        lo.charging.add(d.name)
        return
    lo.define_facts[d.name] = (body.priced(0).outside(), 1 if cost > FREE_WORK else cost)
    if lo.charges > before or cost > FREE_WORK:
        lo.charging.add(d.name)


def define_call_facts(lo: Lowerer, d: t.Define, args_cost: int) -> Facts:
    if d.name not in lo.define_facts:  # (not lowered yet: declared later)
        lo.define_facts[d.name] = (NOTHING, 1)  # (a definition using itself is refused: see check.cycles)
        define_walk(lo, d)
    result, cost = lo.define_facts.get(d.name, (NOTHING, 1))
    if d.name in lo.charging:
        lo.charges += 1
    return result.priced(sat(args_cost + cost))


def field(lo: Lowerer, typed: t.Field) -> LoweredField:
    f = typed.decl
    lo.scopes, lo.assigned = [set()], frozenset()
    before = lo.charges
    py = lo.node(typed.init)
    py = expressions.canon(lo, typed.init, f.type, py)
    limits.derive(lo, f.name, lo.fact(typed.init))
    py = limits.unit_expr(lo, limits.checked_store(lo, py, lo.fact(typed.init), f.type, f.init.span),
                        lo.fact(typed.init).cost, f.init.span, (boards.kind_count(lo, f.per) or 1) if f.per else 1)
    limits.mark(lo, before, "setup")
    annotation = _annotation(f.type)
    slot = pyir.dotted(f"self.{f.name}")
    init: Expr
    if f.per:
        count = {
            "player": pyir.dotted("self.num_seats"),
            "spot": pyir.Call(pyir.Name("len"), (pyir.dotted("self.board.spots"),)),
            "region": pyir.Call(pyir.Name("len"), (pyir.dotted("self.board.region_names"),)),
        }.get(f.per, pyir.Constant(lo.component_count[f.per]) if f.per in lo.component_count
              else pyir.Call(pyir.Name("len"), (pyir.Name(faces_constant(f.per)),)))
        init = pyir.ListComp(py, (pyir.Comprehension(pyir.Name("_"), pyir.Call(pyir.Name("range"), (count,))),))
        annotation = f"list[{annotation}]"
        copy: Expr = pyir.Subscript(slot, pyir.Slice())
    else:
        init, copy = py, slot
    element = f.type.elem.name if f.type.kind in ("list", "set") and f.type.elem else f.type.name
    # a list or set of numbers, truth values or lists: its whole type, to read saved states
    declared = f.type.kind in ("list", "set") and not element
    if needs_key(f.type):  # records and optionals: read, saved and shown by their whole type
        element, declared = "", True
    keywords = [pyir.Keyword("declared", pyir.Constant(str(f.type)))] if declared else []
    if f.pool:  # (the fields whose unseen items are dealt together)
        keywords.append(pyir.Keyword("pool", pyir.Constant(f.pool)))
    if f.redraw:  # (`unseen: redraw`: the least and most value an unseen entry is drawn afresh from)
        n_values = 2 if f.type.kind == "bool" else len(dict(lo.tables.enums).get(f.type.name or "", f.values))
        least, most = f.range or (0, n_values - 1)
        keywords.append(pyir.Keyword("redraw", pyir.Tuple((pyir.Constant(least), pyir.Constant(most)))))
    # (a field everyone sees may still hide some of its items: the search agents must know)
    if f.hide_items_if is not None:
        keywords.append(pyir.Keyword("hides_items", pyir.Constant(True)))
    values = pyir.Tuple(tuple(pyir.Constant(v) for v in f.values))
    info = text(pyir.rt("FieldInfo", *map(pyir.Constant, (f.name, f.per, f.type.kind, element)), values,
                        pyir.Constant(f.visible), pyir.Constant(f.doc), keywords=tuple(keywords)))
    shown = effects.condition_node(lo, typed.shown_if, "shown") if typed.shown_if is not None else None
    hidden = effects.condition_node(lo, typed.hide_items_if, "hidden", "k") if typed.hide_items_if is not None \
        else None
    seen_by = effects.condition_node(lo, typed.visible_to, "seen", "k") if typed.visible_to is not None else None
    return LoweredField(f.name, annotation, init, f.per, copy, info, f.span, shown, hidden, seen_by)


def _returned(body: Block) -> tuple[Block, Return, Expr]:
    """A definition's statements before its `return`, the `return`, and the value it returns."""
    *work, last = body
    assert isinstance(last, Return) and last.value is not None, last
    return tuple(work), last, last.value


def _cached(d: t.Define, annotation: str, body: Block) -> Block:
    """A definition's statements, remembering its value in the state's `_derived` (one dict per state,
    dropped by every change of the game: an assignment to a field, a new phase or turn, a restore)."""
    key: Expr = pyir.Constant(d.name) if not d.params else \
        pyir.Tuple((pyir.Constant(d.name), *(pyir.dotted(p.py) for p in d.params)))
    work, last, value = _returned(body)
    memo, derived, remembered = pyir.Name("_memo"), pyir.dotted("self._derived"), pyir.Name("_remembered")
    return (
        assign(memo, derived),
        If(_is_none(memo), (Assign((memo, derived), _EMPTY),),
           (Elif(pyir.Compare(key, ("in",), (memo,)), (assign(remembered, pyir.Subscript(memo, key),
                                                               annotation=annotation), Return(remembered))),)),
        *work,
        Assign((_VALUE,), value, annotation, last.span, last.note),
        assign(pyir.Subscript(memo, key), _VALUE),
        Return(_VALUE),
    )


_VALUE, _KEPT, _EMPTY, _TABLE = pyir.Name("_value"), pyir.Name("_kept"), pyir.Dict((), ()), pyir.Name("_table")


def _is_none(e: Expr, negated: bool = False) -> Expr:
    """`e is None` (`e is not None`)."""
    return pyir.Compare(e, ("is not" if negated else "is",), (pyir.Constant(None),))


def _remembered(body: Block, annotation: str, found: Block, store: Stmt, room: Expr | None = None) -> Block:
    """A definition's statements (`body`, ending with its `return`), with the statements that return
    its value when it is found remembered first (`found`) and the one that remembers it (`store`)
    last, if `room` holds."""
    work, last, value = _returned(body)
    kept = Assign((_VALUE,), value, annotation, last.span)
    stored = (store,) if room is None else (if_(room, store),)
    return (*found, *work, kept, *stored, Return(_VALUE))


def _kept(d: t.Define, annotation: str, slot: str, body: Block, nest: int | None = None) -> Block:
    """A definition's statements, keeping its value in its slot of the state between moves (pass
    `keep_derived`): a value, or for a definition with parameters a dict by arguments; None while
    stale (every assignment to a field it reads sets it so). `nest`: the position of the parameter
    the values are kept by first, each a dict by the others (pass `nest_by_region`)."""
    kept_slot = pyir.dotted(f"self.{slot}")
    if not d.params:
        return _remembered(body, annotation, (assign(_KEPT, kept_slot), if_(_is_none(_KEPT, True), Return(_KEPT))),
                           assign(kept_slot, _VALUE))
    # the dict the values are kept in (`kept`, or for one nested value `nested`: kept[its parameter]), by key;
    # the test of the last made, after which the values are looked up
    rest = [pyir.dotted(p.py) for i, p in enumerate(d.params) if i != nest]
    key = rest[0] if len(rest) == 1 else pyir.Tuple(tuple(rest))
    held = _KEPT if nest is None else pyir.Name("_nested")
    made = (Assign((_KEPT, kept_slot), _EMPTY),)
    if nest is not None:  # (pass `nest_by_region`) by that parameter first, each a dict by the others
        by = pyir.dotted(d.params[nest].py)
        first: Block = (if_(_is_none(_KEPT), *made), assign(held, pyir.Call(pyir.Attribute(_KEPT, "get"), (by,))))
        made = (Assign((held, pyir.Subscript(_KEPT, by)), _EMPTY),)
    else:
        first = ()
    known = Elif(pyir.Compare(key, ("in",), (held,)), (Return(pyir.Subscript(held, key)),))
    found = (assign(_KEPT, kept_slot), *first, If(_is_none(held), made, (known,)))
    keyed = [p for i, p in enumerate(d.params) if i != nest]
    stored = assign(pyir.Subscript(held, key), _VALUE)
    if len(keyed) == 1 and keyed[0].ty.kind in ("entity", "enum", "bool"):  # (one per entity at most)
        return _remembered(body, annotation, found, stored)
    # values by several arguments, or by a number or a list, are kept while the dict holds fewer than
    # rt.MAX_TABLED (docs/optimiser.md, "What a board keeps"): beyond, computed afresh at every call
    return _remembered(body, annotation, found, stored,
                       pyir.Compare(pyir.Call(pyir.Name("len"), (held,)), ("<",), (pyir.dotted("rt.MAX_TABLED"),)))


def _tabled(d: t.Define, annotation: str, table: t.ValueTable, body: Block,
            bound: Bind) -> tuple[Block, str]:
    """A definition's statements, remembering its values in a table of the board by the value of the
    game it reads (and the parameters that join the key), pass `remember_values`; and what its
    comment says of it."""
    read = pyir.dotted(table.py)
    if table.at is not None:
        read = pyir.Subscript(read, pyir.dotted(d.params[table.at].py))
    parts = [read, *(pyir.dotted(d.params[k].py) for k in table.params)]
    key = parts[0] if len(parts) == 1 else pyir.Tuple(tuple(parts))
    table_code = bound(boards.lookup("values", d.name, "value_table"), invented("values", d.name),
                       f"dict[Any, {annotation}]", f"the values of `{d.name}` by what they read (`remember_values`)")
    found = (  # (the table found: pass `bind_board_tables` binds it to a slot by its nodes)
        assign(_TABLE, table_code),
        assign(_KEPT, pyir.Call(pyir.Attribute(_TABLE, "get"), (key,)), annotation=f"{annotation} | None"),
        if_(_is_none(_KEPT, True), Return(_KEPT)),
    )
    what = f"`{table.field}`" if table.at is None else f"`{table.field}[{d.params[table.at].name}]`"
    joined = "".join(f" and `{d.params[k].name}`" for k in table.params)
    remember = pyir.rt("remember", _TABLE, key, _VALUE, pyir.dotted("self.board"))
    return _remembered(body, annotation, found, call(remember)), (
        f"remembered by the value of {what}{joined}, in a table of the board every state shares (`remember_values`)")


def _key_annotation(params: tuple[tuple[str, str], ...]) -> str:
    """The type of the key of a kept definition's values: its parameter's, or a tuple of theirs."""
    return params[0][1] if len(params) == 1 else f"tuple[{', '.join(ann for _, ann in params)}]"


def _version_of(d: t.Define) -> str:
    """What a version of a definition or scoring term that `base(...)` uses is, for its comment."""
    if d.version_of is None:
        return ""
    section, name = d.version_of
    if section == "scoring":
        return f"scoring term `{name}` as it was before a variant replaced it: `{base_use(name)}`"
    use = base_use(name, "..." if d.params else None)
    return f"definition `{name}` as it was before a variant replaced it: `{use}`"


def component_tables(lo: Lowerer) -> None:
    """The tables of the components' attributes, computed as the rules are loaded, and
    (pass `intersect_components`) the sets made from them."""
    typed, prog = lo.typed, lo.program
    loading = 0  # the work of the attribute tables so far: all of them at most a move's
    for attr in typed.components:
        lo.scopes, lo.assigned = [{"i"}], frozenset()
        charges = lo.charges
        py = lo.node(attr.value)
        work = sat(max(lo.fact(attr.value).cost, 1) * attr.count)
        if lo.charges > charges or work > MAX_STEPS:
            lo.error(attr.value.span, f"attribute `{attr.name}` of `{attr.component}` may take more work to "
                       f"compute than a move may do ({MAX_STEPS:,} steps for all {attr.count:,})",
                       "compute it from `i` with fewer or shorter loops")
            continue
        loading += work
        if loading > MAX_STEPS:
            lo.error(attr.value.span, f"attribute `{attr.name}` of `{attr.component}` takes the work of the "
                       f"components' attributes, computed as the rules are loaded, past what a move may do "
                       f"({MAX_STEPS:,} steps for all of them)", "compute them from `i` with fewer or shorter "
                       "loops, or keep fewer attributes")
            continue
        prog.component_tables.append((attr.const, _annotation(attr.ty), _each_component(py, attr.count), attr.span))
        prog.attribute_tables.append((attr.component, attr.name, attr.const, attr.ty.name if attr.ty.kind == "enum"
                                      else ""))
    spans = {attr.const: attr.span for attr in typed.components}  # (pass `intersect_components`: after the tables)
    prog.component_tables.extend((name, annotation, code, spans[table])
                                 for table, (name, annotation, code) in component_sets(typed))


def _each_component(py: Expr, count: int) -> pyir.Call:
    """`tuple(py for i in range(count))`: a value for each component `i`."""
    walk = pyir.Comprehension(_I, pyir.Call(pyir.Name("range"), (pyir.Constant(count),)))
    return pyir.Call(pyir.Name("tuple"), (pyir.GeneratorExp(py, (walk,)),))


_I = pyir.Name("i")


def component_sets(program: t.TypedProgram) -> list[tuple[str, tuple[str, str, Expr]]]:
    """The module's sets of components for the attributes pass `intersect_components` chose
    (`TypedProgram.component_sets`): each attribute's table, and the name, annotation and code of its sets."""
    counts = {c.const: c.count for c in program.components}
    out: list[tuple[str, tuple[str, str, Expr]]] = []
    for table, values in program.component_sets:  # (a truth value's table is indexed by False and True)
        v = pyir.Name("v")
        items = pyir.Call(pyir.Name("frozenset"), (pyir.GeneratorExp(_I, (pyir.Comprehension(
            _I, pyir.Call(pyir.Name("range"), (pyir.Constant(counts[table]),)),
            (pyir.Compare(pyir.Subscript(pyir.Name(table), _I), ("==",), (v,)),)),)),))
        code = pyir.Call(pyir.Name("tuple"), (pyir.GeneratorExp(items, (pyir.Comprehension(
            v, pyir.Call(pyir.Name("range"), (pyir.Constant(values or 2),))),)),))
        out.append((table, (component_sets_constant(table), "frozenset[int]", code)))
    return out


def define(lo: Lowerer, d: t.Define) -> LoweredFunction:
    """A definition: its body, with the checks of the lists it takes for small, written as it is
    kept, tabled or remembered (passes `keep_derived`, `remember_values`, `nest_by_region`)."""
    prog = lo.program
    params = tuple(zip((p.py for p in d.params), (_annotation(p.ty) for p in d.params), strict=True))
    py, lists = define_walk(lo, d)
    note = effects.take_notes(lo)
    checks: list[Stmt] = []
    if lists[0]:  # the lists it takes for small are checked as it starts, as a statement
        tests = tuple(effects.longer(lst) for lst in lists[0])
        checks = [if_(tests[0] if len(tests) == 1 else pyir.BoolOp("or", tests),
                      call(limits.grown(lo, lists, lo.fact(d.body).cost + 1, d.span)))]
    if d.cached:  # computed once per state: each computation charges its proven work
        limits.charged(lo)
        cost = min(sat(lo.fact(d.body).cost + 1), MAX_STEPS + 1)
        body: Block = (call(pyir.rt("spend", pyir.Name("self"), pyir.Constant(cost), limits.at(lo, d.span)), d.span),
                       *checks, Return(replace(py, span=d.body.span), d.span, note))
        if d.name not in lo.kept:
            body = _cached(d, _annotation(d.ty), body)
    else:
        value = replace(py, span=d.body.span)  # (the node itself: found again below, however it is wrapped)
        body = limits.unit_lines(lo, [*checks, Return(value, d.span, note)], lo.fact(d.body).cost + 1, d.span)
    if d.per_state:  # (pass `keep_derived`) a variant's: remembered per state, as `cached: true` is
        body = _cached(d, _annotation(d.ty), body)
    kept = ""
    tabled = d.tabled
    if tabled is not None:  # (pass `remember_values`) remembered by the value it is a function of
        body, kept = _tabled(d, _annotation(d.ty), tabled, body, partial(boards.board_table, lo))
    if d.name in lo.kept:  # (pass `keep_derived`) kept in its slot between moves
        how = d.kept
        assert how is not None  # (`lo.kept` is made from the annotations)
        reads = how.reads
        nest = lo.nested.get(lo.kept[d.name])  # (pass `nest_by_region`) by this parameter first
        slot_type = _annotation(d.ty) if not d.params else \
            f"dict[{_key_annotation(params)}, {_annotation(d.ty)}]" if nest is None else \
            f"dict[{params[nest][1]}, dict[{_key_annotation(params[:nest] + params[nest + 1:])}, " \
            f"{_annotation(d.ty)}]]"
        prog.kept_slots.append((lo.kept[d.name], f"{slot_type} | None"))
        body = _kept(d, _annotation(d.ty), lo.kept[d.name], body, nest)
        kept = f"recomputed once {reads.told()} changes" if reads.fields or reads.volatile else \
            f"computed once{' per arguments' if d.params else ''} (it reads nothing that changes)"
        partly = {k for k in range(len(d.params)) if len(d.params) == 1 or nest == k}  # (dropped by it)
        at = [f"a change of `{f}` at one `{d.params[k].name}`: the value{'s' if nest == k else ''} for "
              f"that `{d.params[k].name}` only"
              for f, k in how.entries if k in partly]
        at += [f"a change of `{f}` at one spot: the values of the regions holding it only"
               for f, k in how.regions if k in partly]
        at += [f"a change of `{f}` by one item: the value{'s' if nest == k else ''} for that item's "
               f"`{d.params[k].name}` only"
               for f, k, _ in how.attributes if k in partly]
        if nest is not None:
            at.append(f"kept by `{d.params[nest].name}` first, `nest_by_region`")
        if at:  # (a change of the field at one entity drops its values for that entity only)
            kept += f" ({'; '.join(at)})"
    note = "not kept between moves: only the scores read it, once per player scored (`compute_at_scoring`)" \
        if d.unkept == "compute_at_scoring" else \
        "computed once per state: a variant's, read from what its base writes (`keep_derived`)" if d.per_state else ""
    return LoweredFunction(d.name, params, _annotation(d.ty), body, d.span,
                                        cached=d.cached and not kept, kept=kept, version_of=_version_of(d),
                                        per_state=d.per_state,
                                        note=note, value_at=None if d.cached else _value_at(body, value))


def _value_at(body: Block, value: Expr) -> int:
    """Where in `body` the statement is that holds `value` (that node: its `return`, or the `_value = ...`
    a kept or tabled definition remembers), `LoweredFunction.value_at`."""
    return next(i for i, s in enumerate(body) if isinstance(s, Return | Assign) and s.value is value)



def procedure(lo: Lowerer, p: t.Procedure) -> tuple[tuple[tuple[str, str], ...], Block]:
    """A procedure's parameters and body; remembers the unchecked work of a call to it."""
    lo.scopes = [set()]
    lo.assigned = frozenset(_assigned(p.body))
    before = lo.charges
    params = tuple(zip(limits.bind_params(lo, p.name, p.params), (_annotation(x.ty) for x in p.params), strict=True))
    lines = effects.block(lo, p.body)
    cost = sat(lo.block_cost + 1)
    lo.procedure_costs[p.name] = 1 if cost > FREE_WORK else cost  # (large: it charges its own)
    if cost > FREE_WORK:
        lo.spending.add(p.name)
    body = limits.unit_lines(lo, lines, cost, p.span)
    if lo.charges > before:
        lo.charging.add(p.name)
    return params, body


def procedure_cost(lo: Lowerer, name: str) -> int:
    """The unchecked work of calling a procedure (lowered now if it is declared later)."""
    known = lo.procedure_costs.get(name)
    p = lo.procedures.get(name)
    if known is None and p is not None:
        lo.procedure_costs[name] = 1  # (a procedure calling itself is refused: see check.cycles)
        saved = lo.scopes, lo.assigned
        procedure(lo, p)
        lo.scopes, lo.assigned = saved
        known = lo.procedure_costs[name]
    if name in lo.charging:
        lo.charges += 1
    return known if known is not None else 1
