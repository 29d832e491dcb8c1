"""The typed program (compiler/typed.py) as text, for people and golden files.

`program(p)` writes every definition, procedure, trigger, phase, action, the setup, the end,
the scores and the invariants in the rule language's words, each header with its type and the
line of the rule it came from, and what the passes decided in it (the marks and annotations
below). It is deterministic (nothing of `id()` or of a dict's order shows) and stable across
runs, which makes them what the tests of the passes compare (tests/test_pass_goldens.py):
a pass's program before and after it.

Where the rule language has no spelling, the text says what the node is:
- a note a pass left (`t.Note`) is `<verb what: expr>`: `<inlined home (x.yaml:4): marker[s]>`;
- a node a pass marked to be written in a form of its own (`t.FORMS`) is `<form: expr>`:
  `<the set sorted: [t for t in card[current]]>`;
- a definition's value is always called, `score()`, so it reads apart from a name;
- how the representation step stores a value is `<...>` on a line under its declaration:
  `<kept: reads hand; hand at one p>`, `<remembered by hand[p]>`, `<not kept: compute_at_scoring>`; the
  program's own (`drops_in_place`) is a last line, `state <...>`;
- `x :: T` is a local bound with its type (a choice, a parameter, a `let`).
This is no rule file (`compiler/unparse.py` writes those): it need not parse again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import PurePath

from ..core.source import SourceSpan
from . import typed as t

# Binding strength, weakest first: the grammar's, as the rules are written back (compiler/unparse.py).
from .unparse import _BINARY, _COMPARE, _COND, _NOT, _OR, _POSTFIX, _SUM, _UNARY, INDENT


# -- expressions ---------------------------------------------------------------------------------
def expr(e: t.Expr) -> str:
    """One expression, with the fewest parentheses its operators need."""
    return _expr(e, _COND)


def _strength(e: t.Expr) -> int:
    if isinstance(e, t.Cond):
        return _COND
    if isinstance(e, t.Binary):
        return _BINARY.get(e.op, _COND)
    if isinstance(e, t.Unary):
        return _NOT if e.op == "not" else _UNARY
    return _POSTFIX


def _expr(e: t.Expr, least: int) -> str:
    text = _bare(e)
    form = _form(e)
    if form is not None:  # (a form no operator binds into)
        return f"<{form}: {text}>"
    return f"({text})" if _strength(e) < least else text


def _form(e: t.Expr) -> str | None:
    """The form a pass marked `e` to be written in (a field of `t.FORMS`), in words, or None."""
    match e:
        case t.Comprehension(sorted_set=True):
            return "the set sorted"
        case t.Comprehension(mask_read=True) | t.Builtin(mask_read=True):
            return "read from a bit mask"
        case t.Comprehension(value_mask=True):
            return "read from bit masks per value"
        case t.Comprehension(spot_filter=t.Filter() as found, joined_once=joined):
            once = "; its masks joined once before the listing's loops" if joined else ""
            return f"made from bit masks: {_filter(found)}{once}"
        case t.Comprehension(counted=True):
            return "the list's own count"
        case t.Comprehension(component_set=True):
            return "a set operation"
        case t.Comprehension(kept_count=True):
            return "read from a table of counts kept up to date"
        case t.Binary(items_written=True):
            return "items written out"
        case t.Builtin(from_nonnegative=True):
            return "from a number never negative"
    return None


def _filter(found: t.Filter) -> str:
    """The tests of a filter of spots (pass `mask_spot_filters`), in the order computed: a mask kept (`~`: the
    spots not in it), or a test computed once per value of a key the board fixes for each spot."""
    terms = []
    for term in found.terms:
        if term.mask is not None:
            terms.append(("~" if term.negated else "") + term.mask.slot)
        elif term.key is not None and term.test is not None and term.var is not None:
            terms.append(f"{expr(term.key)} as {term.var.name}: {expr(term.test)}")
    return "; ".join(terms)


def _args(args: Iterable[t.Expr]) -> str:
    return ", ".join(_expr(a, _COND) for a in args)


def _bare(e: t.Expr) -> str:  # noqa: C901 (one case per node)
    match e:
        case t.Num(value=value):
            return str(value) if value >= 0 else f"({value})"
        case t.Str(value=value):
            return repr(value)
        case t.Bool(value=value):
            return "true" if value else "false"
        case t.Ref(sym=sym):
            return sym.name
        case t.Invalid():
            return "<invalid>"
        case t.DefineCall(define=define, args=args):
            return f"{define}({_args(args)})"
        case t.Builtin(func=func, args=args, extra=extra):
            slots = "".join(f", {k}={v}" for k, v in extra)
            return f"{func}({_args(args)}{slots})"
        case t.PerIndex(field=field, index=index):
            return f"{field.name}[{_expr(index, _COND)}]"
        case t.ListIndex(obj=obj, index=index):
            return f"{_expr(obj, _POSTFIX)}[{_expr(index, _COND)}]"
        case t.AttrOf(obj=obj, name=name) | t.RecordField(obj=obj, name=name):
            return f"{_expr(obj, _POSTFIX)}.{name}"
        case t.RecordNew(record=record, args=args):
            return f"{record}{{{_args(args)}}}"
        case t.Collection(kind=kind, items=items):
            return f"[{_args(items)}]" if kind == "list" else f"{{{_args(items)}}}"
        case t.Comprehension(func=func, var=var, domain=domain, cond=cond, elt=elt, more=more):
            inner = f"{_expr(elt, _COND)} for {var.name} in {_expr(domain, _OR)}"
            if cond is not None:
                inner += f" if {_expr(cond, _OR)}"
            for more_var, more_domain, more_cond in more:
                inner += f" for {more_var.name} in {_expr(more_domain, _OR)}"
                if more_cond is not None:
                    inner += f" if {_expr(more_cond, _OR)}"
            return f"[{inner}]" if func == "list" else f"{func}({inner})"
        case t.Unary(op="not", operand=operand):
            return f"not {_expr(operand, _NOT)}"
        case t.Unary(op=op, operand=operand):
            return f"{op}{_expr(operand, _UNARY)}"
        case t.Binary(op=op, left=left, right=right):
            strength = _BINARY.get(op, _COND)
            if strength == _COMPARE:
                return f"{_expr(left, _SUM)} {op} {_expr(right, _SUM)}"
            return f"{_expr(left, strength)} {op} {_expr(right, strength + 1)}"
        case t.Cond(test=test, then=then, orelse=orelse):
            return f"{_expr(then, _OR)} if {_expr(test, _OR)} else {_expr(orelse, _COND)}"
        case t.Note(verb=verb, what=what, expr=inner):
            return f"<{verb} {what}: {_expr(inner, _COND)}>"
    raise AssertionError(e)


def local(sym: t.Symbol) -> str:
    """A local bound, with its type: `s :: spot`."""
    return f"{sym.name} :: {sym.ty}"


def where(span: SourceSpan | None) -> str:
    """A span as its file's name and line (`x.yaml:12`): the same wherever the file lies."""
    return "?" if span is None else f"{PurePath(span.path).name}:{span.line}"


# -- effects -------------------------------------------------------------------------------------
def block(stmts: Sequence[t.Stmt], indent: int = 0) -> list[str]:
    """A block of effects, one statement a line, nested blocks indented (`pass` when empty)."""
    lines = [line for s in stmts for line in _stmt(s, indent)]
    return lines or [INDENT * indent + "pass"]


def _target(s: t.Assign) -> str:
    text = s.target.name if s.index is None else f"{s.target.name}[{expr(s.index)}]"
    return text if s.item is None else f"{text}[{expr(s.item)}]"


def _stmt(s: t.Stmt, indent: int) -> list[str]:
    pad = INDENT * indent
    match s:
        case t.Let(var=var, value=value, annotation=annotation):
            typed = f" (as {annotation})" if annotation is not None else ""
            return [f"{pad}let {local(var)} = {expr(value)}{typed}"]
        case t.Assign(op=op, value=value, drawn_out=True):
            return [f"{pad}<taken out as drawn: {_target(s)} {op} {expr(value)}>"]
        case t.Assign(op=op, value=value, remembered_change=True):
            return [f"{pad}<found in a row remembered by the list: {_target(s)} {op} {expr(value)}>"]
        case t.Assign(op=op, value=value, items_written=True):
            return [f"{pad}<items written out: {_target(s)} {op} {expr(value)}>"]
        case t.Assign(op=op, value=value):
            return [f"{pad}{_target(s)} {op} {expr(value)}"]
        case t.CallEffect(procedure=procedure, args=args):
            return [f"{pad}{procedure}({_args(args)})"]
        case t.Goto(phase=phase):
            return [f"{pad}goto {phase}"]
        case t.EndTurn():
            return [f"{pad}end_turn"]
        case t.Pass():
            return [f"{pad}pass"]
        case t.Tell(parts=parts, args=args):
            given = iter(args)
            text = "".join(p if kind is None else f"{{{expr(next(given))} as {kind}}}" for p, kind in parts)
            return [f"{pad}tell {text!r}"]
        case t.For(var=var, domain=domain, body=body, joins_rounds=joins_rounds):
            rounds = "  <the rounds' joins made at once>" if joins_rounds else ""
            return [f"{pad}for {local(var)} in {expr(domain)}:{rounds}", *block(body, indent + 1)]
        case t.While(test=test, body=body):
            return [f"{pad}while {expr(test)}:  <each round charged>", *block(body, indent + 1)]
        case t.Break():
            return [f"{pad}break"]
        case t.Continue():
            return [f"{pad}continue"]
        case t.Ask(seat=seat, var=var, domain=domain, body=body):
            return [f"{pad}ask {expr(seat)} to choose {local(var)} in {expr(domain)}:", *block(body, indent + 1)]
        case t.If(branches=branches, orelse=orelse):
            lines: list[str] = []
            for i, (test, body) in enumerate(branches):
                lines += [f"{pad}{'if' if i == 0 else 'elif'} {expr(test)}:", *block(body, indent + 1)]
            if orelse:
                lines += [f"{pad}else:", *block(orelse, indent + 1)]
            return lines
    raise AssertionError(s)


# -- the program ---------------------------------------------------------------------------------
def _text(parts: Iterable[tuple[str, str | None]]) -> str:
    return repr("".join(p if kind is None else f"{{{p} as {kind}}}" for p, kind in parts))


def _params(params: Iterable[t.Symbol]) -> str:
    return ", ".join(local(p) for p in params)


def program(p: t.TypedProgram) -> str:
    """The whole typed program, section by section in the order lowering reads it (the tables the
    declarations give, data only, are left out: no pass changes them)."""
    return "\n".join(_program(p)) + "\n"


def _program(p: t.TypedProgram) -> Iterator[str]:  # noqa: C901 (one section each)
    for m in p.masks:  # (the representations the passes chose)
        what = "is empty" if m.empty else f"== {m.value_py}"
        yield f"mask {m.slot}: the spots whose {m.field} {what}  @{where(m.span)}"
    for vm in p.value_masks:
        yield f"masks {vm.slot}: per value v of {vm.count}, the spots whose {vm.field} {vm.op} v  @{where(vm.span)}"
    for k in p.kept_counts:
        yield f"counts {k.slot}: {k.key}, adjusted at each write of {', '.join(k.fields)}  @{where(k.span)}"
    for table, values in p.component_sets:
        yield f"component sets of {table}: by {'truth value' if not values else f'{values} values'}"
    for c in p.components:
        yield f"component {c.component}.{c.name} :: {c.ty} ({c.count}, table {c.const})  @{where(c.span)}"
        yield f"{INDENT}{expr(c.value)}"
    for f in p.fields:
        per = f" per {f.decl.per}" if f.decl.per else ""
        yield f"field {f.decl.name} :: {f.decl.type}{per}, visible {f.decl.visible}  @{where(f.decl.span)}"
        yield f"{INDENT}init {expr(f.init)}"
        for label, e in (("shown_if", f.shown_if), ("hide_items_if", f.hide_items_if), ("visible_to", f.visible_to)):
            if e is not None:
                yield f"{INDENT}{label} {expr(e)}"
    for d in p.defines:
        flags = "".join((" cached" if d.cached else "", f" version of {d.version_of}" if d.version_of else ""))
        yield f"define {d.name}({_params(d.params)}) -> {d.ty}{flags}  @{where(d.span)}"
        yield from (f"{INDENT}{how}" for how in _stored(d))
        yield f"{INDENT}{expr(d.body)}"
        for test in d.region_tests:
            yield f"{INDENT}<kept as a mask of the regions where {test.text}: {test.slot}>"
    for pr in p.procedures:
        written_out = " <written out where it is called>" if pr.written_out else ""
        yield f"procedure {pr.name}({_params(pr.params)}){written_out}  @{where(pr.span)}"
        yield from block(pr.body, 1)
    for tr in p.triggers:
        turn_end = " at turn end" if tr.at_turn_end else ""
        yield f"trigger {tr.name} ({tr.method}){turn_end}  @{where(tr.span)}"
        if tr.when is not None:
            yield f"{INDENT}when {expr(tr.when)}"
        yield from block(tr.effect, 1)
    for ph in p.phases:
        yield f"phase {ph.name} ({ph.const})  @{where(ph.span)}"
        yield f"{INDENT}actions {', '.join(ph.actions) or '-'}; stuck {ph.stuck}"
        if ph.actor is not None:
            yield f"{INDENT}actor {expr(ph.actor)}"
        if ph.simultaneous is not None:
            yield f"{INDENT}simultaneous {expr(ph.simultaneous)}"
        if ph.start:
            yield f"{INDENT}start:"
            yield from block(ph.start, 2)
    for a in p.actions:
        yield from _action(a)
    if p.setup:
        yield "setup:"
        yield from block(p.setup, 1)
    if p.end is not None:
        yield f"end {expr(p.end)}"
        if p.end_kept is not None:
            yield f"{INDENT}<kept: {_reads(p.end_kept)}>"
    for s in p.scoring:
        yield f"score {s.name}  @{where(s.span)}"
        yield f"{INDENT}{expr(s.expr)}"
    if p.tie_break is not None:
        yield f"tie_break {expr(p.tie_break)}"
    if p.returns is not None:
        yield f"returns {expr(p.returns)}  @{where(p.returns.span)}"
    for i in p.invariants:
        yield f"invariant {i.name}  @{where(i.span)}"
        yield f"{INDENT}{expr(i.expr)}"
    for name, ty in p.asks:
        yield f"ask answer {name} :: {ty}{' (secret)' if name in p.secret_asks else ''}"
    if p.drops_in_place:
        yield "state <drops kept values in place while no copy shares them>"
    if p.journal:
        yield "state <a move notes each field as it first changes it, where every move runs as steps>"


def _stored(d: t.Define) -> Iterator[str]:
    """How the representation step stores a definition's values, a line each (none: computed at each
    call), and the form its value is written in."""
    if d.unkept:
        yield f"<not kept: {d.unkept}>"
    if d.per_state:
        yield "<remembered per state, not kept: derived (a variant's, read from what its base writes)>"
    if d.tabled is not None:
        tb = d.tabled
        read = tb.field if tb.at is None else f"{tb.field}[{d.params[tb.at].name}]"
        yield f"<remembered by {', '.join([read, *(d.params[k].name for k in tb.params)])}>"
    if d.kept is not None:
        how = d.kept
        parts = [_reads(how.reads)]
        parts += [f"{f} at one {d.params[k].name}" for f, k in how.entries]
        parts += [f"{f} by one item's {d.params[k].name} ({table})" for f, k, table in how.attributes]
        parts += [f"{f} in the regions of one spot, {d.params[k].name}" for f, k in how.regions]
        if how.nested is not None:
            parts.append(f"nested by {d.params[how.nested].name}")
        yield f"<kept: {'; '.join(parts)}>"


def _reads(reads: t.Reads) -> str:
    """What a kept value reads: its fields, and `current` for the seat to act."""
    return "reads " + (", ".join([*sorted(reads.fields), *(["current"] if reads.volatile else [])]) or "nothing")


def _action(a: t.Action) -> Iterator[str]:
    yield f"action {a.name}  @{where(a.span)}"
    if a.when is not None:
        written_out = " <written out where its listing starts>" if a.when_written_out else ""
        yield f"{INDENT}when {expr(a.when)}{written_out}"
    for c in a.choices:
        made_once = " <made once per listing>" if c.made_once else ""
        yield f"{INDENT}choose {local(c.var)} in {expr(c.domain)}{made_once}"
    yield from _listing(a.listing)
    yield f"{INDENT}text {_text(a.text_parts)}"
    if a.others_parts is not None:
        yield f"{INDENT}others read {_text(a.others_parts)}"
    if a.revealed is not None:
        yield f"{INDENT}revealed when {expr(a.revealed)}"
    yield f"{INDENT}effect:"
    yield from block(a.effect, 2)
    if a.triggers:
        yield f"{INDENT}then triggers {', '.join(a.triggers)}"
    if a.then:
        yield f"{INDENT}then phases {', '.join(f'{k}->{n}' for k, n in a.then)}"


def _listing(listing: t.Listing) -> Iterator[str]:
    """How an action's listing finds its actions, one line a decision (none for the plain listing)."""
    if listing.table is not None:
        levels = ", ".join(f"{level.how} {level.size}" if level.size else level.how for level in listing.table.levels)
        yield f"{INDENT}<listed through tables: {levels or 'one action'}>"
    if listing.spot_row is not None:
        kept = f"; tests kept per row: {', '.join(map(str, listing.spot_row))}" if listing.spot_row else ""
        yield f"{INDENT}<its last choice gathered from a row of spots{kept}>"
    if listing.remembered is not None:
        codes = [(key.field.py if key.at is None else f"{key.field.py}[{key.at.py}]", key.member)
                 for key in listing.remembered.keys]
        keys = ", ".join(f"frozenset({code})" if member else code for code, member in codes)
        yield f"{INDENT}<remembered by {keys}>"
    if listing.tabled_rows:
        yield f"{INDENT}<its first choice's rows found by the key of what it walks>"
    regions = listing.regions
    if regions is not None:
        tests = ", ".join(f"kept {term.kept.slot}" if term.kept is not None
                          else expr(term.test) if term.test is not None else "?" for term in regions.terms)
        yield f"{INDENT}<its last choice, {regions.var.name}, from masks of {expr(regions.regions)}: {tests}>"
