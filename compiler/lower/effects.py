"""Lowering effects: statements, blocks, and each rule's effects with the checks they need.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, assert_never

from ...core.source import SourceSpan
from ...runtime.limits import SMALL_LIST
from .. import pyir
from .. import typed as t
from ..analysis.walk import nodes
from ..budget import STORED, Facts, sat, storable
from ..names import joined as invented
from ..names import phase_constant
from ..passes import join_rounds, remember_list_changes
from ..passes.join_rounds import ROUNDS
from ..passes.remember_list_changes import NAME as NAME_CHANGES
from ..passes.rewrite import where
from ..pyir import (
    Assign,
    AugAssign,
    Block,
    Comment,
    Elif,
    ExprStmt,
    For,
    If,
    Pass,
    Stmt,
    assign,
    call,
    if_,
    spanned,
)
from ..pyprint import text as code_of
from ..typed import Symbol
from ..types import ANY
from . import boards, counts, expressions, limits, masks
from .code import _annotation, _narrows, _typed, operand
from .expressions import set_items_joined

if TYPE_CHECKING:
    from .lowerer import Lowerer


def take_notes(lo: Lowerer) -> str:
    """What the passes derived in the code lowered since the notes were last taken, for the
    comment of the line that holds it ("inlined free (base.yaml:290); hoisted ...")."""
    notes, lo.notes = lo.notes, {}
    return "; ".join(f"{verb} {', '.join(whats)}" for verb, whats in notes.items())


def noted(lo: Lowerer, lines: list[Stmt]) -> list[Stmt]:
    """`lines`, the first with the notes taken now."""
    note = take_notes(lo)
    if not note or not lines:
        return lines
    return [replace(lines[0], note=note), *lines[1:]]


def statement(lo: Lowerer, lower: Callable[[], list[Stmt]]) -> list[Stmt]:
    """An effect statement's statements, after the checks of the lists it walks (`prechecked`)."""
    outer = lo.prechecks, lo.statement_scopes
    lo.prechecks, lo.statement_scopes = [], len(lo.scopes)
    take_notes(lo)
    try:
        lines = noted(lo, lower())
        checks = list(dict.fromkeys(lo.prechecks))
    finally:
        lo.prechecks, lo.statement_scopes = outer
    before: list[Stmt] = []
    for walked, counted, at in checks:
        walk = call(counted)
        lo.walk_checks[walk.value] = (walked, at)
        before.append(if_(longer(walked), walk))
    return [*before, *lines]


def longer(items: pyir.Expr) -> pyir.Expr:
    """`len(items) > SMALL_LIST`: the test of the check `statement` writes before a walk of `items`."""
    return pyir.Compare(pyir.Call(pyir.Name("len"), (items,)), (">",), (pyir.Constant(SMALL_LIST),))


def effects(lo: Lowerer, stmts: tuple[t.Stmt, ...], span: SourceSpan, *bound: Symbol) -> Block:
    """The effects of a rule (an action's, a trigger's, a phase's start, the setup)."""
    lo.assigned = frozenset(_assigned(stmts))
    lo.scopes = [{sym.py for sym in bound}]
    lines = block(lo, stmts)
    return limits.unit_lines(lo, lines, lo.block_cost, span)


# -- statements ---------------------------------------------------------------------------
def block(lo: Lowerer, stmts: tuple[t.Stmt, ...]) -> list[Stmt]:
    out: list[Stmt] = []
    lo.scopes.append(set())
    last: tuple[t.Stmt, int] | None = None  # the statement before, and where its lines start
    for s in stmts:
        lines = stmt(lo, s)
        if last is not None and (both := draw_out_fused(lo, last[0], s, out[last[1]:], lines)) is not None:
            del out[last[1]:]  # (pass `draw_out`) an item drawn, then taken out: one call
            lines = both
        last = s, len(out)
        out.extend(lines if lo.probe is None else lo.probe(s, lines))
    lo.scopes.pop()
    lo.block_cost = sat(sum(lo.costs.get(s, 1) for s in stmts))
    if not out:
        out.append(Pass())
    return out


def stmt(lo: Lowerer, s: t.Stmt) -> list[Stmt]:
    lo.costs[s] = 1  # the work of a statement, beyond that of its parts (set below)
    match s:
        case t.Assign():
            stale: list[Stmt] = []  # the values kept between moves that read the field: stale now
            if s.target.kind in ("field", "perfield"):
                stale = _dropped_at(lo.drops.get(s.target.name, ()), lo.entry_drops.get(s.target.name, {}),
                                    _index_again(s), s.span, lo.region_drops.get(s.target.name, {}),
                                    lo.nested, lo.attribute_drops.get(s.target.name, {}), _item_again(s),
                                    own=lo.typed.drops_in_place, known=lo.region_known)
            # the bit masks kept over the field assigned (passes `mask_spot_sets`, `mask_values`)
            # and the counts kept over it (pass `keep_counts`)
            kept = spanned((*masks.after_assign(lo, s), *masks.after_assign_values(lo, s),
                            *counts.after_assign(lo, s)), s.span)
            # (the old items' bits, cleared before; the spot's old terms, taken off)
            old = spanned((*masks.before_assign_values(lo, s), *counts.before_assign(lo, s)), s.span)
            journal = journal_lines(lo, s)
            after = [*stale, *kept]
            if lo.caching and s.target.kind in ("field", "perfield"):  # derived values are stale now
                after.append(assign(_self("_derived"), _NONE, s.span))
            if s.remembered_change and lo.probe is None:  # (pass `remember_list_changes`) found in a table
                plain = statement(lo, lambda: [assigned(lo, s)])
                found = remembered_change(lo, s, plain)
                if found is not None:
                    return journal + [*old, *found, *after]
                return journal + [*old, *plain, *after]
            return journal + statement(lo, lambda: [*old, assigned(lo, s), *after])
        case t.Let():
            return statement(lo, lambda: let(lo, s))
        case t.CallEffect():
            return statement(lo, lambda: call_effect(lo, s))
        case t.Goto():
            return [assign(_self("next_phase"), pyir.Name(phase_constant(s.phase)), s.span)]
        case t.EndTurn():  # the turn ends after this move: no `then:`, no earlier goto
            return [assign(_self("next_phase"), pyir.dotted("rt.END_TURN"), s.span)]
        case t.Pass():
            return [Pass(s.span)]
        case t.Tell():
            return statement(lo, lambda: [call(pyir.Call(pyir.dotted("self._tell"), (told(lo, s),)), s.span)])
        case t.For():
            take_notes(lo)
            walk = expressions.iterable(lo, s.domain.ty, lo.node(s.domain))
            note = take_notes(lo)
            domain = limits.domain_facts(lo, s.domain)
            lo.scopes.append(set())
            var = lo.bind(s.var)
            limits.set_local(lo, s.var, domain.item)
            body = tuple(block(lo, s.body))
            walk, work, _, _ = limits.loop(lo, walk, domain, 1 + lo.block_cost, s.span)
            lo.scopes.pop()
            lo.costs[s] = sat(1 + domain.cost + work)
            if not _reads(s.body, s.var):
                var = "_"  # a loop run for its count only (`for k in range(0, 3)`)
            head = For(pyir.Name(var), replace(walk, span=s.domain.span), body, s.span, note)
            joined = join_rounds_fused(lo, s, head)  # (pass `join_rounds`) at once
            return [head] if joined is None else joined
        case t.While():
            return [while_(lo, s)]
        case t.Break():
            return [pyir.Break(s.span)]
        case t.Continue():
            return [pyir.Continue(s.span)]
        case t.Ask():
            return statement(lo, lambda: ask(lo, s))
        case t.If():
            branches_py: list[tuple[pyir.Expr, Block, SourceSpan, str]] = []
            tests = branches = 0
            for test, branch in s.branches:
                take_notes(lo)
                py = lo.node(test)
                tests += lo.fact(test).cost
                note = take_notes(lo)
                branches_py.append((replace(py, span=test.span), tuple(block(lo, branch)), test.span, note))
                branches = max(branches, lo.block_cost)
            orelse: Block = ()
            if s.orelse:
                orelse = tuple(block(lo, s.orelse))
                branches = max(branches, lo.block_cost)
            lo.costs[s] = sat(1 + tests + branches)
            (test_py, body, span, note), *elifs = branches_py
            return [If(test_py, body, tuple(Elif(*e) for e in elifs), orelse, span, note)]
        case _:
            assert_never(s)


def while_(lo: Lowerer, s: t.While) -> pyir.While:
    """`while test:` no bound on its rounds can be proven, so each round charges what it may do
    unchecked (its test, and its body's work not counted where it runs) before its test:
    `while rt.spend(self, <work>, 'file:line') and <test>:`. A `while true:` ends with the
    game error of the limits of a move, naming its rule line. Nothing is counted once before
    the loop for the rounds (`statement`'s checks): the lists the test and the body walk may
    change from one round to the next."""
    outer = lo.prechecks
    lo.prechecks = None
    try:
        take_notes(lo)
        test = lo.node(s.test)
        note = take_notes(lo)
        lo.scopes.append(set())
        body = tuple(block(lo, s.body))
        lo.scopes.pop()
    finally:
        lo.prechecks = outer
    per_round = sat(1 + lo.fact(s.test).cost + lo.block_cost)
    limits.charged(lo)
    lo.costs[s] = 1  # (its rounds pay as they run)
    check = limits.spend(lo, per_round, s.span)
    if isinstance(s.test, t.Bool) and s.test.value:
        return pyir.While(replace(check, span=s.test.span), body, s.span, note)  # `while true:`
    return pyir.While(pyir.BoolOp("and", (check, *_conjuncts(test)), s.test.span), body, s.span, note)


def _conjuncts(test: pyir.Expr) -> list[pyir.Expr]:
    """The operands of a test joined by `and` after the budget's charge (`spend and a and b and c`,
    not `spend and ((a and b) and c)`); an operand that would not sit there bare, in parentheses."""
    if isinstance(test, pyir.Paren) and isinstance(test.value, pyir.BoolOp) and test.value.op == "and":
        return [part for value in test.value.values for part in _conjuncts(value)]
    return [test if isinstance(test, pyir.Compare | pyir.UnaryOp) or operand(test) else pyir.Paren(test)]


def let(lo: Lowerer, s: t.Let) -> list[Stmt]:
    py = lo.node(s.value)
    name = lo.bind(s.var)
    value = lo.fact(s.value)
    if s.var.name in lo.assigned:  # assigned again later: stored, and checked, as a field is
        # (in its one representation: a list a tuple, as what `xs[i] = v` gives back)
        py = limits.checked_store(lo, expressions.canon(lo, s.value, s.value.ty, py), value, s.value.ty, s.value.span)
    else:
        limits.set_local(lo, s.var, value)
    lo.costs[s] = sat(1 + value.cost)
    py = replace(py, span=s.value.span)
    if s.annotation is not None:  # `let x = []`: annotated, with the type later assignments give it
        return [Assign((pyir.Name(name),), py, _annotation(_typed(s.annotation)), s.span)]
    return [Assign((pyir.Name(name),), py, span=s.span)]


def told(lo: Lowerer, s: t.Tell) -> pyir.Expr:
    """The code of a told text: an f-string of its literal parts and its values, each written as
    a move's text writes a choice (`State._fmt`; a number as it is); where a part would not sit
    in an f-string (a quote, a backslash, a `:` or `!`, as printed), the parts joined by `+`."""
    args = iter(s.args)
    pieces: list[tuple[str, str | None]] = []  # (literal text, None) or ("", the value's format)
    values: list[pyir.Expr | None] = []  # (None, or the value's code)
    for literal, fmt in s.parts:
        pieces.append((literal, None) if fmt is None else ("", fmt))
        values.append(None if fmt is None else lo.node(next(args)))
    lo.costs[s] = sat(1 + sum(lo.fact(arg).cost for arg in s.args))
    codes = [code if code is None or fmt == "int" else pyir.Call(pyir.dotted("self._fmt"), (pyir.Constant(fmt), code))
             for (_, fmt), code in zip(pieces, values, strict=True)]
    fits = all(not set(literal) & set('"\\{}') if code is None else not set(code_of(code)) & set('"\\{}:!')
               for (literal, _), code in zip(pieces, codes, strict=True))
    if fits:
        return pyir.JoinedStr(tuple(literal if code is None else code
                                    for (literal, _), code in zip(pieces, codes, strict=True)))
    parts = [pyir.Constant(literal) if code is None else pyir.Call(pyir.Name("str"), (code,)) if fmt == "int" else code
             for (literal, fmt), code in zip(pieces, codes, strict=True)]
    if not parts:
        return pyir.Constant("")
    out = parts[0]
    for part in parts[1:]:
        out = pyir.BinOp(out, "+", part)
    return out


def call_effect(lo: Lowerer, s: t.CallEffect) -> list[Stmt]:
    proc = lo.procedures[s.procedure]
    args = expressions.arguments(lo, s.args, proc.params)
    limits.passed(lo, proc.name, proc.params, s.args)
    cost = lo.costs[s] = sat(1 + sum(lo.fact(arg).cost for arg in s.args)
                                 + lo.procedure_cost(proc.name))
    if proc.written_out and lo.probe is None and proc.name not in lo.suspending \
            and proc.name not in lo.spending:  # (pass `inline_procedures`) written out here
        body = block(lo, proc.body)
        lo.costs[s] = cost  # (the call's work, as counted for the call)
        return list(written_out_call(proc, s, tuple(body)))
    code: pyir.Expr = pyir.Call(pyir.Attribute(pyir.Name("self"), proc.name), tuple(args))
    if proc.name in lo.suspending:  # it can wait for a decision: its steps are this rule's
        code = pyir.Yield(code, from_=True)
    return [call(code, s.span)]


def written_out_call(p: t.Procedure, at: t.CallEffect, body: Block) -> Block:
    """The statements of a call of `p` (`body`: its statements, lowered where it is called): the
    procedure's rule line, its record in a trace, its body, the call's rule line."""
    return (
        Comment(f"{where(p.span)}: {p.name}, written out where it is called, {where(at.span)} (`inline_procedures`)"),
        if_(pyir.Compare(_self("trace"), ("is not",), (_NONE,)),
            call(pyir.Call(pyir.dotted("self.trace.append"), (pyir.Constant(f"procedures.{p.name}",
                                                                           f'"procedures.{p.name}"'),)))),
        *body,
        Comment(f"{where(at.span)}: {p.name} written out above"),
    )


def ask(lo: Lowerer, s: t.Ask) -> list[Stmt]:
    """`ask p to choose x in xs:` the rule waits for seat p's choice among the items of xs
    (the runtime's `Ask`), then runs the body with it; with no item to choose, the runtime
    gives back nothing to walk, and the body is skipped."""
    seat = lo.node(s.seat)
    walk = expressions.iterable(lo, s.domain.ty, lo.node(s.domain))
    domain = limits.domain_facts(lo, s.domain)
    walk, work, _ = limits.over(lo, walk, domain, s.span)  # (the choices are listed: each item handled)
    lo.scopes.append(set())
    var = lo.bind(s.var)
    limits.set_local(lo, s.var, domain.item)
    body = block(lo, s.body)
    lo.scopes.pop()
    lo.costs[s] = sat(1 + lo.fact(s.seat).cost + domain.cost + work + lo.block_cost)
    asked = pyir.rt("Ask", seat, pyir.Constant(s.var.name), walk, limits.at(lo, s.span))
    return [For(pyir.Name(var), pyir.Paren(pyir.Yield(asked), s.span), tuple(body), s.span)]


def journal_lines(lo: Lowerer, s: t.Assign) -> list[Stmt]:
    """Before an assignment to a field, in a rule set whose every move runs as steps: the
    field as the move began, kept the first time the move changes it (copied as `clone`
    copies it), while the move notes them (runtime/state.py `_do_steps`)."""
    if not lo.journal or s.target.kind not in ("field", "perfield"):
        return []
    name, journal = pyir.Constant(s.target.name), _self("_journal")
    copy: pyir.Expr = _self(s.target.name)
    if s.target.kind == "perfield":
        copy = pyir.Subscript(copy, pyir.Slice())
    kept = pyir.BoolOp("and", (pyir.Compare(journal, ("is not",), (_NONE,)),
                               pyir.Compare(name, ("not in",), (journal,))))
    return [if_(kept, assign(pyir.Subscript(journal, name), copy, s.span), span=s.span)]


def assign_item(lo: Lowerer, s: t.Assign, item: t.Expr) -> Stmt:
    """`xs[i] = v` (`f[e][i] = v`): the list, a tuple, rebuilt with item i replaced; an index
    outside it is a fault of the rules told by its rule line (rt.put), like a read's."""
    sym = s.target
    vpy = lo.node(s.value)
    value = lo.fact(s.value)
    ipy = lo.node(item)
    lhs = pyir.dotted(sym.py)
    cost = sat(1 + value.cost + lo.fact(item).cost)
    if s.index is not None:
        lhs = pyir.Subscript(lhs, lo.node(s.index))
        cost = sat(cost + lo.fact(s.index).cost)
    held = limits.field_facts(lo, sym.name, sym.ty) if sym.kind != "local" else limits.symbol_facts(lo, sym)
    old_py, old_work, _ = limits.over(lo, lhs, held, s.span)  # (the copy: every item handled)
    lo.costs[s] = sat(cost + old_work)
    elem = sym.ty.elem or ANY
    if s.op in ("+=", "-="):
        new = Facts(mag=STORED)  # (rt.add_at checks the sum as a stored number)
        amount = vpy if s.op == "+=" else pyir.UnaryOp("-", pyir.Paren(vpy))
        put = replace(pyir.rt("add_at", old_py, ipy, amount, limits.at(lo, s.span)), span=s.value.span)
    else:
        new = value
        stored = limits.checked_store(lo, expressions.canon(lo, s.value, elem, vpy), value, elem, s.span)
        put = replace(pyir.rt("put", old_py, ipy, stored), span=s.value.span)
    limits.stored(lo, sym, Facts(size=0, item=new.priced(0)))  # (the list keeps its length: only its items change)
    return Assign((lhs,), put, span=s.span)


def assigned(lo: Lowerer, s: t.Assign) -> Stmt:
    """An assignment (`x = v`, `x += v`; to an item, `xs[i] = v`), told by its rule line."""
    if s.item is not None:
        return assign_item(lo, s, s.item)
    sym = s.target
    vpy = lo.node(s.value)
    value = lo.fact(s.value)
    lo.costs[s] = sat(1 + value.cost)
    lhs = pyir.dotted(sym.py)
    if s.index is not None:
        ipy = lo.node(s.index)
        lo.costs[s] = sat(lo.costs[s] + lo.fact(s.index).cost)
        lhs = pyir.Subscript(lhs, ipy)
    if s.op in ("+=", "-=") and sym.ty.kind == "set":
        # a new set: every item of both is handled
        held = limits.field_facts(lo, sym.name, sym.ty) if sym.kind != "local" else limits.symbol_facts(lo, sym)
        old_py, old_work, old_size = limits.over(lo, lhs, held, s.span)
        new_py, new_work, new_size = limits.over(lo, vpy, value, s.span)
        lo.costs[s] = sat(lo.costs[s] + old_work + new_work)
        size = old_size if s.op == "-=" else sat(old_size + new_size)
        limits.stored(lo, sym, Facts(size=size, item=value.item))
        items = set_items_joined(s.items_written, s.op == "+=", old_py, new_py)  # (pass `unwrap_set_items`)
        if items is not None:
            return Assign((lhs,), replace(items, span=s.value.span), span=s.span)
        return Assign((lhs,), pyir.BinOp(old_py, "|" if s.op == "+=" else "-", new_py, s.value.span), span=s.span)
    if s.op in ("+=", "-="):
        if not storable((value.mag[0], value.mag[1] + 1)):  # `x += x` would double: the amount is checked
            vpy = pyir.rt("num", vpy, limits.at(lo, s.span))
        return AugAssign(lhs, s.op[0], replace(vpy, span=s.value.span), s.span)
    limits.stored(lo, sym, value)
    vpy = expressions.canon(lo, s.value, sym.ty, vpy)
    code = limits.checked_store(lo, vpy, value, sym.ty, s.span)
    if sym.kind == "field" and s.index is None and _narrows(_annotation(sym.ty), code):
        code = pyir.rt("held", code)
    return Assign((lhs,), replace(code, span=s.value.span), span=s.span)


def condition(lo: Lowerer, e: t.Expr, tag: str, *entry: str) -> str:
    """`condition_node`'s code as text (for the lowered members still held as text)."""
    return code_of(condition_node(lo, e, tag, *entry))


def condition_node(lo: Lowerer, e: t.Expr, tag: str, *entry: str) -> pyir.Expr:
    """An expression that is a rule of its own and only reads the game (a guard, the end,
    an actor, a score ...), its lists taken for small checked as it starts; `tag` marks its
    budget reset (none: the caller marks it)."""
    lo.scopes = [set(entry)]
    before = lo.charges
    reading = limits.begin_reading(lo, entry)
    py = lo.node(e)
    py = limits.unit_expr(lo, py, lo.fact(e).cost, e.span, lists=limits.end_reading(lo, reading))
    if tag:
        limits.mark(lo, before, tag)
    return py


def _self(slot: str) -> pyir.Attribute:
    """`self.slot`."""
    return pyir.Attribute(pyir.Name("self"), slot)


_NONE = pyir.Constant(None)


def _dropped(slots: Iterable[str], span: SourceSpan,
             known: Mapping[str, tuple[str, ...]] | None = None) -> list[Stmt]:
    """The statements that drop kept values (their slots set to None), a few to a line; and (pass
    `mask_regions`) the bits known of the kept tests of their definitions (`known`, by slot)."""
    slots = list(slots)
    out: list[Stmt] = [Assign(tuple(_self(slot) for slot in slots[i:i + 4]), _NONE, span=span)
                       for i in range(0, len(slots), 4)]
    stale = [k for slot in slots for k in (known or {}).get(slot, ())]
    out += [Assign(tuple(_self(k) for k in stale[i:i + 4]), pyir.Constant(0), span=span,
                   note="`mask_regions`: no bit known")
            for i in range(0, len(stale), 4)]
    return out


def _index_again(s: t.Assign) -> pyir.Expr | None:
    """The code of the entity an assignment to a field per entity changes, to be evaluated again
    after it, to the same value and at no cost: a local, a number, a constant, `current`, another
    field (or an item of one at such an index); None otherwise (or when it assigns the whole field)."""
    def again(e: t.Expr) -> pyir.Expr | None:
        match e:
            case t.Num():
                return pyir.Constant(e.value)
            case t.Ref() if e.sym.kind in ("local", "const") or e.sym.kind == "value" and e.sym.name == "current" \
                    or e.sym.kind == "field" and e.sym.name != s.target.name:
                return expressions.value_code(e.sym.py, e.span)
            case t.ListIndex():
                obj, index = again(e.obj), again(e.index)
                return None if obj is None or index is None else pyir.Subscript(obj, index)
        return None
    return again(s.index) if s.index is not None and s.target.kind == "perfield" else None


def _item_again(s: t.Assign) -> pyir.Expr | None:
    """The code of the one item an assignment adds to or takes from a set (`card[p] += {t}`,
    `dispenser -= {t}`), to be evaluated again after it like `_index_again`'s entity: a local, a
    number or a constant; None for any other assignment."""
    if s.op not in ("+=", "-=") or s.item is not None or s.target.ty.kind != "set" \
            or not isinstance(s.value, t.Collection) or len(s.value.items) != 1:
        return None
    match s.value.items[0]:
        case t.Num() as e:
            return pyir.Constant(e.value)
        case t.Ref() as e if e.sym.kind in ("local", "const"):
            return pyir.dotted(e.sym.py)
    return None


def _dropped_at(slots: Iterable[str], at_entity: Mapping[str, tuple[int, int]], index: pyir.Expr | None,
                span: SourceSpan, in_regions: Mapping[str, tuple[int, int]] | None = None,
                nested: Mapping[str, int] | None = None,
                by_attribute: Mapping[str, tuple[int, int, str]] | None = None, item: pyir.Expr | None = None,
                own: bool = False, known: Mapping[str, tuple[str, ...]] | None = None) -> list[Stmt]:
    """The statements that drop the kept values an assignment makes stale: whole slots (`_dropped`),
    but for a slot whose definition has one parameter and reads the field only at the entity it
    names (`at_entity`: its position, of how many), the value kept for the entity assigned
    (`index`), when it can be read again. A definition of several parameters is dropped whole
    (leaving out its values for one entity walks its whole dict, measured slower on Mandarin
    than computing again what it kept), unless its values are kept nested by that parameter
    (`nested`: slot -> position, pass `nest_by_region`): then that entity's are dropped. Of a slot
    whose definition of one parameter reads a field of sets only through walks keeping the items
    whose attribute is that parameter (`by_attribute`: position, how many, the attribute's table),
    a change by one item (`item`, when it can be read again) drops the value kept for its attribute.
    `own` (pass `drop_in_place`): the state says whether a copy may share its dicts (`_kept_shared`); if
    none may, the values are dropped from them in place. `known` (pass `mask_regions`): by slot, the
    masks of the bits known of kept tests of its definition, cleared where its values are dropped."""
    known = known or {}
    if index is None and item is None:
        return _dropped(slots, span, known)
    nested = nested or {}

    def by(slot: str, found: tuple[int, int] | tuple[int, int, str] | None) -> bool:
        # dropped by the entity (or region, or attribute) its key names
        return found is not None and (found[1] == 1 or nested.get(slot) == found[0])

    some = [slot for slot in slots if index is not None and by(slot, at_entity.get(slot))]
    # (pass `drop_by_region`) a definition of one region that reads the field per spot only in its
    # region's spots: the values of the regions holding the spot assigned
    regions = [slot for slot in slots if index is not None and in_regions is not None
               and by(slot, in_regions.get(slot)) and slot not in some]
    attributes = {slot: found[2] for slot in slots if item is not None and by_attribute is not None
                  and by(slot, found := by_attribute.get(slot)) and found is not None
                  and slot not in some and slot not in regions}
    out = _dropped([slot for slot in slots if slot not in some and slot not in regions and slot not in attributes],
                   span, known)
    shared: tuple[pyir.Expr, ...] = (_self("_kept_shared"),) if own else ()
    one: list[tuple[str, pyir.Expr]] = [(slot, index) for slot in some if index is not None]
    one += [(slot, pyir.Subscript(pyir.dotted(table), item)) for slot, table in attributes.items() if item is not None]
    without = [assign(_self(slot), pyir.rt("without_key", _self(slot), key), span) for slot, key in one]
    if own and one:  # (pass `drop_in_place`) from copies where a copy may share the dicts, else in place, no call
        out.append(If(_self("_kept_shared"), tuple(without), span=span, else_span=span, orelse=tuple(
            if_(pyir.Compare(_self(slot), ("is not",), (_NONE,)),
                call(pyir.Call(pyir.Attribute(_self(slot), "pop"), (key, _NONE)), span), span=span)
            for slot, key in one)))
    else:
        out.extend(without)
    spot_regions = [pyir.Subscript(pyir.dotted(f"self.board.{table}"), index) if index is not None else None
                    for table in ("spot_regions", "spot_regions_mask")]
    out.extend(assign(_self(slot), pyir.rt("without_keys", _self(slot), spot_regions[0], *shared), span)
               for slot in regions if spot_regions[0] is not None)
    # (pass `mask_regions`) the bits of the kept tests of those definitions, for the same regions
    note = "`mask_regions`: the bit of its region no longer known"
    out += [AugAssign(_self(k), "&", pyir.UnaryOp("~", pyir.Subscript(pyir.dotted("self.board.region_bit"), key)),
                      span, note)
            for slot, key in one for k in known.get(slot, ())]
    out += [AugAssign(_self(k), "&", pyir.UnaryOp("~", spot_regions[1]), span,
                      "`mask_regions`: the bits of the regions holding it no longer known")
            for slot in regions for k in known.get(slot, ()) if spot_regions[1] is not None]
    return out


def _assigned(stmts: tuple[t.Stmt, ...]) -> set[str]:
    """The names a block of effects assigns to (`x = ...`, `x += ...`), in it or in its blocks."""
    return {s.target.name for s in t.statements(stmts) if isinstance(s, t.Assign)}


def join_rounds_fused(lo: Lowerer, s: t.For, head: For) -> list[Stmt] | None:
    """The statements of loop `s` (`head`, as lowered) with the joins of its rounds made at once
    where pass `join_rounds` marked it, else None (`lo`: the lowering)."""
    if lo.probe is not None or not s.joins_rounds:
        return None
    items = s.joins_rounds
    body = head.body
    join = body[-1]
    if not isinstance(join, Assign) or len(join.targets) != 1 or join.annotation is not None:
        return None
    target = join.targets[0]
    if not (isinstance(join.value, pyir.Tuple) and join.value.parenthesised and len(join.value.elts) >= 2
            and join.value.elts[0] == pyir.Starred(target)):  # `(*xs, ...)`: items joined to the list
        return None
    if len(body) == 2:  # (counted once longer than SMALL_LIST, a step an item)
        walked = _walk_checked(lo, body[0], target)
        if walked is None:
            return None
    elif len(body) != 1:  # (not counted at all: `len(body) == 1`)
        return None
    if head.target != pyir.Name("_") or any(x == pyir.Name("rt") for x in pyir.walk(head.iterable)):
        return None  # (a loop whose variable the body reads, or whose list is counted: not taken)
    written = pyir.Tuple(tuple(pyir.Constant(item.value) if isinstance(item, t.Num)
                               else expressions.value_code(item.sym.py, item.span) for item in items))
    note = "; ".join(n for n in (head.note, f"the rounds' joins of {where(s.body[0].span)} made at once "
                                             f"(`{join_rounds.NAME}`)") if n)
    rounds = assign(pyir.Name(ROUNDS), pyir.Call(pyir.Name("len"), (head.iterable,)), head.span, note)
    rounds_of = pyir.Starred(pyir.BinOp(written, "*", pyir.Name(ROUNDS)))
    joined = assign(target, pyir.Tuple((pyir.Starred(target), rounds_of)), join.span, join.note)
    if len(body) == 1:  # nothing counted, nothing can fail
        return [rounds, joined]
    fit = pyir.rt("joins_fit", pyir.Name("self"), pyir.Call(pyir.Name("len"), (target,)), pyir.Name(ROUNDS),
                  pyir.Constant(len(items)))
    return [rounds, If(fit, (joined,),
                       orelse=(head,), else_note="(a round would fail: the rounds one by one, as written)")]


def _walk_checked(lo: Lowerer, check: Stmt, items: pyir.Expr) -> pyir.Expr | None:
    """The rule line `where` of `if len(items) > SMALL_LIST: rt.walk(self, items, 1, where)` (the
    check `prechecked` writes before a statement walking `items`), if `check` is it: found in
    what `statement` recorded of the checks it wrote (`lo.walk_checks`), not read back from code."""
    if not isinstance(check, If) or check.elifs or check.orelse or len(check.body) != 1 \
            or not isinstance(check.body[0], ExprStmt):
        return None
    found = lo.walk_checks.get(check.body[0].value)
    if found is None or found[0] != items or check.test != longer(items):
        return None
    return found[1]


def draw_out_fused(lo: Lowerer, first: t.Stmt, second: t.Stmt, first_lines: list[Stmt],
                   second_lines: list[Stmt]) -> list[Stmt] | None:
    """The statements of `let c = draw_from(x)` and `x = without(x, c)`, marked by pass `draw_out`, as
    one call, else None (`lo`: the lowering; the two statements' statements, as lowered)."""
    if lo.probe is not None or not isinstance(second, t.Assign) or not second.drawn_out:
        return None
    if len(first_lines) != 1 or len(second_lines) < 2:
        return None
    drawn, check, taken = first_lines[0], second_lines[0], second_lines[1]
    if not isinstance(drawn, Assign) or len(drawn.targets) != 1 or drawn.annotation is not None \
            or not isinstance(taken, Assign) or len(taken.targets) != 1 or taken.annotation is not None:
        return None
    var, items = drawn.targets[0], taken.targets[0]  # (the name drawn, the list taken from)
    rng = pyir.dotted("self.rng")
    if not isinstance(var, pyir.Name) or drawn.value != pyir.rt("draw_from", rng, items):
        return None
    at = _walk_checked(lo, check, items)
    if at is None or taken.value != pyir.Call(pyir.Name("tuple"), (pyir.rt("without", items, var),)):
        return None
    what = f"drawn and taken out of `{_words(second)}` at once, with {where(second.span)} (`draw_out`)"
    note = "; ".join(n for n in (drawn.note, taken.note, what) if n)
    both = assign(pyir.Tuple((var, items), parenthesised=False),
                  pyir.rt("drawn_out", pyir.Name("self"), rng, items, at), drawn.span, note)
    return [both, *second_lines[2:]]


def remembered_change(lo: Lowerer, s: t.Assign, plain: list[Stmt]) -> list[Stmt] | None:
    """The statements of `x = sorted(x + [c])` or `x = without(x, c)`, marked by pass
    `remember_list_changes`: what the list becomes by the item found in the list's row of a table
    of the board (a slot per value of its enumeration); made the plain way (`plain`, as lowered:
    the checks of the list's length, then the assignment) where the slot is empty, and remembered
    there if the list is short (`rt.remember_item`). None where `plain` is not of that shape."""
    *checks, last = plain
    if not isinstance(last, Assign) or len(last.targets) != 1 or last.annotation is not None:
        return None
    listed = last.targets[0]  # (`self.hand[p]`: the list, read and assigned)
    if any(_walk_checked(lo, check, listed) is None for check in checks):
        return None
    if any(isinstance(x, pyir.Call) and isinstance(x.func, pyir.Attribute) and x.func.value == pyir.Name("rt")
           and x.func.attr not in ("walk", "without") for x in pyir.walk(last.value)):
        return None  # (a value whose work could charge more than its length's checks: not taken)
    elem = s.target.ty.elem
    kinds = dict(lo.typed.tables.enums).get(elem.name) if elem is not None and elem.kind == "enum" else None
    if kinds is None:
        return None
    how, item = remember_list_changes.change(s)
    field = s.target.name
    kind = "sorted_joins" if how == "sorted" else "withouts"
    ann = _annotation(s.target.ty)
    table, old, row, changed = (pyir.Name(invented(tag, field)) for tag in (kind, "old", "row", "changed"))
    what = "with a value joined, sorted" if how == "sorted" else "less a value"
    found = boards.board_table(lo, boards.lookup("values", f"{kind} {field}", "value_table"), invented(kind, field),
                               f"dict[Any, list[{ann} | None]]",
                               f"what the lists `{field}` become {what}, by the list and the value (`{NAME_CHANGES}`)")
    item_py = lo.node(item)
    short = pyir.Compare(pyir.Call(pyir.Name("len"), (old,)), ("<",), (pyir.Constant(SMALL_LIST),))
    remember = pyir.rt("remember_item", table, old, item_py, listed, pyir.Constant(len(kinds)),
                       pyir.dotted("self.board"))
    note = f"found by `{_words(s)}` and the item in a table of the board every state shares (`{NAME_CHANGES}`)"
    return [
        assign(table, found, s.span, note),
        assign(old, listed, s.span),
        assign(row, pyir.Call(pyir.Attribute(table, "get"), (old,)), s.span),
        assign(changed, pyir.IfExp(_NONE, _is_none(row), pyir.Subscript(row, item_py)), s.span),
        If(_is_none(changed), (*checks, last, if_(short, call(remember, s.span), span=s.span)),
           orelse=(assign(listed, changed, s.span),), span=s.span),
    ]


def _is_none(name: pyir.Expr) -> pyir.Expr:
    """`name is None`."""
    return pyir.Compare(name, ("is",), (_NONE,))


def _words(s: t.Assign) -> str:
    """The target of assignment `s` as the rule writes it, for a comment (`x`, `x[p]`)."""
    if s.index is None:
        return s.target.name
    return f"{s.target.name}[{s.index.sym.name if isinstance(s.index, t.Ref) else '...'}]"


def _reads(stmts: tuple[t.Stmt, ...], var: Symbol) -> bool:
    """Whether a block of effects reads the local `var` (a loop's variable), in it or in its blocks."""
    return any(isinstance(x, t.Ref) and x.sym is var for e in t.effect_expressions(stmts) for x in nodes(e))
