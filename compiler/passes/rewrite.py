"""What the passes that rewrite the typed program share (compiler/passes/inline.py, hoist.py):
applying a function to every expression of a program, rebuilding a node from new parts, which
locals an expression reads, whether evaluating one can fail, fresh names for the locals a pass
binds, and the short text of an expression a note shows. (Walking a program, comparing two
expressions by their keys and measuring one are analyses: compiler/analysis/.) A helper of the
passes, not a pass: it imports none (tests/test_pass_order.py).

Expressions nest deeply in some rule sets; these walks recurse (as lowering does), and
compiler/lower/ turns a RecursionError into a diagnostic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import PurePosixPath

from ...core.source import SourceSpan
from .. import typed as t
from ..analysis.walk import clauses, nodes
from ..builtins import BUILTINS
from ..names import JOIN, PASS_LOCAL_BASE
from ..types import Ty

ExprFn = Callable[[t.Expr], t.Expr]


# -- every expression of a program -------------------------------------------------------------
def map_program(program: t.TypedProgram, f: ExprFn) -> t.TypedProgram:
    """`program` with `f` applied to every expression a rule starts from (not to the component
    attributes, computed at module level with no state to read)."""

    def opt(e: t.Expr | None) -> t.Expr | None:
        return None if e is None else f(e)

    def block(stmts: tuple[t.Stmt, ...]) -> tuple[t.Stmt, ...]:
        return tuple(stmt(s) for s in stmts)

    def stmt(s: t.Stmt) -> t.Stmt:
        match s:
            case t.Let():
                return replace(s, value=f(s.value))
            case t.Assign():
                return replace(s, index=opt(s.index), value=f(s.value), item=opt(s.item))
            case t.CallEffect():
                return replace(s, args=tuple(f(a) for a in s.args))
            case t.For():
                return replace(s, domain=f(s.domain), body=block(s.body))
            case t.While():
                return replace(s, test=f(s.test), body=block(s.body))
            case t.If():
                return replace(s, branches=tuple((f(test), block(b)) for test, b in s.branches), orelse=block(s.orelse))
            case t.Ask():
                return replace(s, seat=f(s.seat), domain=f(s.domain), body=block(s.body))
        return s

    return replace(
        program,
        fields=tuple(replace(fd, init=f(fd.init), shown_if=opt(fd.shown_if), hide_items_if=opt(fd.hide_items_if),
                             visible_to=opt(fd.visible_to)) for fd in program.fields),
        defines=tuple(replace(d, body=f(d.body)) for d in program.defines),
        procedures=tuple(replace(p, body=block(p.body)) for p in program.procedures),
        triggers=tuple(replace(tr, when=opt(tr.when), effect=block(tr.effect)) for tr in program.triggers),
        phases=tuple(replace(ph, start=block(ph.start), actor=opt(ph.actor), simultaneous=opt(ph.simultaneous))
                     for ph in program.phases),
        actions=tuple(replace(a, when=opt(a.when), choices=tuple(replace(c, domain=f(c.domain)) for c in a.choices),
                              effect=block(a.effect), revealed=opt(a.revealed)) for a in program.actions),
        setup=block(program.setup),
        end=opt(program.end),
        scoring=tuple(replace(sc, expr=f(sc.expr)) for sc in program.scoring),
        tie_break=opt(program.tie_break),
        returns=opt(program.returns),
        invariants=tuple(replace(inv, expr=f(inv.expr)) for inv in program.invariants),
        look_texts=tuple(replace(lt, told=replace(lt.told, args=tuple(f(a) for a in lt.told.args)))
                         for lt in program.look_texts),
    )


def map_expression(e: t.Expr, f: ExprFn) -> t.Expr:
    """`e` with `f` applied to each of its nodes, inner nodes first; the same node where nothing
    inside it changed and `f` gave it back."""
    parts = t.subexpressions(e)
    news = [map_expression(part, f) for part in parts]
    if any(new is not part for part, new in zip(parts, news, strict=True)):
        by_id = {id(part): new for part, new in zip(parts, news, strict=True)}  # (while both are held)
        e = rebuild(e, lambda part: by_id.get(id(part), part))
    return f(e)


def map_nodes(program: t.TypedProgram, f: ExprFn) -> t.TypedProgram:
    """`program` with `f` applied to every node of every expression a rule starts from and of the
    component attributes, inner nodes first (`f` gives the node itself where it changes nothing);
    the same program, and the same nodes where nothing inside them changed, if `f` changed none
    (so no analysis is made again). The passes that mark a form for lowering use it (`t.FORMS`)."""
    changed = False

    def one(e: t.Expr) -> t.Expr:
        nonlocal changed
        new = f(e)
        changed = changed or new is not e
        return new

    def go(e: t.Expr) -> t.Expr:
        return map_expression(e, one)

    mapped = map_program(program, go)
    mapped = replace(mapped, components=tuple(replace(c, value=go(c.value)) for c in program.components))
    return mapped if changed else program


def map_statements(program: t.TypedProgram,
                   f: Callable[[tuple[t.Stmt, ...]], tuple[t.Stmt, ...]]) -> t.TypedProgram:
    """`program` with `f` applied to every block of statements of its rules, the blocks inside a
    statement first (`f` gives the block itself, or its statements, where it changes nothing); the
    same program if `f` changed no statement."""
    changed = False

    def block(stmts: tuple[t.Stmt, ...]) -> tuple[t.Stmt, ...]:
        nonlocal changed
        inner = tuple(stmt(s) for s in stmts)
        new = f(inner)
        changed = changed or not _same(new, inner)
        return stmts if _same(new, stmts) else new

    def stmt(s: t.Stmt) -> t.Stmt:
        match s:
            case t.For() | t.Ask() | t.While():
                body = block(s.body)
                return s if body is s.body else replace(s, body=body)
            case t.If():
                branches = tuple((test, block(b)) for test, b in s.branches)
                orelse = block(s.orelse)
                same = all(new is old for (_, new), (_, old) in zip(branches, s.branches, strict=True))
                if same and orelse is s.orelse:
                    return s
                return replace(s, branches=branches, orelse=orelse)
        return s

    mapped = replace(
        program,
        procedures=tuple(replace(p, body=block(p.body)) for p in program.procedures),
        triggers=tuple(replace(tr, effect=block(tr.effect)) for tr in program.triggers),
        phases=tuple(replace(ph, start=block(ph.start)) for ph in program.phases),
        actions=tuple(replace(a, effect=block(a.effect)) for a in program.actions),
        setup=block(program.setup),
    )
    return mapped if changed else program


def _same(a: tuple[t.Stmt, ...], b: tuple[t.Stmt, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def rebuild(e: t.Expr, f: ExprFn) -> t.Expr:
    """`e` with `f` applied to each expression directly inside it (the same node if none changed)."""
    match e:
        case t.Num() | t.Str() | t.Bool() | t.Ref() | t.Invalid():
            return e
        case t.DefineCall() | t.Builtin() | t.RecordNew():
            args = tuple(f(a) for a in e.args)
            return e if args == e.args else replace(e, args=args)
        case t.Collection():
            items = tuple(f(a) for a in e.items)
            return e if items == e.items else replace(e, items=items)
        case t.PerIndex():
            return replace(e, index=f(e.index))
        case t.ListIndex():
            return replace(e, obj=f(e.obj), index=f(e.index))
        case t.AttrOf() | t.RecordField():
            return replace(e, obj=f(e.obj))
        case t.Comprehension():
            more = tuple((var, f(domain), None if cond is None else f(cond)) for var, domain, cond in e.more)
            return replace(e, domain=f(e.domain), cond=None if e.cond is None else f(e.cond), elt=f(e.elt), more=more)
        case t.Unary():
            return replace(e, operand=f(e.operand))
        case t.Binary():
            return replace(e, left=f(e.left), right=f(e.right))
        case t.Cond():
            return replace(e, test=f(e.test), then=f(e.then), orelse=f(e.orelse))
        case t.Note():
            return replace(e, expr=f(e.expr))
    raise AssertionError(e)


def with_clauses(e: t.Comprehension, new: list[tuple[t.Symbol, t.Expr, t.Expr | None]], elt: t.Expr) -> t.Comprehension:
    (var, domain, cond), *more = new
    return replace(e, var=var, domain=domain, cond=cond, elt=elt, more=tuple(more))


def fused_shape(e: t.Comprehension) -> bool:
    """The shape lowering writes as a walk of the field itself (compiler/lower/comprehensions.py `fused_filter`), three
    times faster than any other: `[s for s in spots if marker[s] == v]`. Passes leave it as it is."""
    return (not e.more and e.func == "list" and isinstance(e.domain, t.Ref) and e.domain.sym.kind == "value"
            and e.domain.sym.name == "spots" and isinstance(e.cond, t.Binary) and e.cond.op in ("==", "!=")
            and isinstance(e.cond.left, t.PerIndex) and isinstance(e.cond.left.index, t.Ref)
            and e.cond.left.index.sym is e.var)


# -- comparing and reading ----------------------------------------------------------------------
def free_locals(e: t.Expr) -> set[t.Symbol]:
    """The locals `e` reads that it does not bind itself."""
    match e:
        case t.Ref():
            return {e.sym} if e.sym.kind == "local" else set()
        case t.Comprehension():
            out: set[t.Symbol] = set()
            bound: set[t.Symbol] = set()
            for var, domain, cond in clauses(e):
                out |= free_locals(domain) - bound
                bound.add(var)
                if cond is not None:
                    out |= free_locals(cond) - bound
            return out | (free_locals(e.elt) - bound)
    out = set()
    for part in t.subexpressions(e):
        out |= free_locals(part)
    return out


def can_fail(e: t.Expr, defines: dict[str, t.Define], known: dict[str, bool] | None = None) -> bool:
    """Whether evaluating `e` can stop the game with an error of the rules: an item of a list
    that may not be there, a division by what may be zero, a number checked as it grows, a
    built-in that checks its arguments, a definition whose body can. (The work a move may do is
    no such error: lowering counts the work of the code it is given, wherever it is.)"""
    known = {} if known is None else known
    for n in nodes(e):
        match n:
            case t.ListIndex():
                return True
            case t.Binary(op="//" | "%" | "*"):
                return True
            case t.Builtin():
                if "{where}" in BUILTINS[n.func].python or BUILTINS[n.func].chance:
                    return True
            case t.DefineCall():
                if n.define not in known:
                    known[n.define] = True  # (a definition using itself is refused: see check.cycles)
                    known[n.define] = can_fail(defines[n.define].body, defines, known)
                if known[n.define]:
                    return True
            case t.Invalid():
                return True
    return False


# -- names --------------------------------------------------------------------------------------
class Names:
    """Fresh names for the locals a pass binds (a comprehension's variables): `_<base>__<n>`, made
    from the rule local or definition they stand for (or `once`, `cell`) and a number, so that no
    rule name can be one (rule names never start with `_` nor hold `__`: compiler/names.py), nor
    a name the generated method or Python uses, nor a fixed invented local (none holds `__`). The
    number is the first not given in the same rule (`begin` starts one) nor by an earlier pass
    (the locals already in the program are read for those). They are only bound inside
    comprehensions, so two rules, or two expressions of one, may reuse a name: never one inside
    the other."""

    def __init__(self, program: t.TypedProgram) -> None:
        self.taken: set[str] = set()
        self.given: set[str] = set()

        def note(e: t.Expr) -> t.Expr:
            for n in nodes(e):
                if isinstance(n, t.Ref):
                    self.taken.add(n.sym.py)
                elif isinstance(n, t.Comprehension):
                    self.taken.update(var.py for var, _, _ in clauses(n))
            return e

        def block(stmts: tuple[t.Stmt, ...]) -> None:
            for s in stmts:
                match s:
                    case t.Let():
                        self.taken.add(s.var.py)
                    case t.For() | t.Ask():
                        self.taken.add(s.var.py)
                        block(s.body)
                    case t.While():
                        block(s.body)
                    case t.If():
                        for _, b in s.branches:
                            block(b)
                        block(s.orelse)

        # (only the locals an earlier pass made can be spelled like a fresh one: rule locals never are)
        map_program(program, note)
        for p in program.procedures:
            block(p.body)
        for a in program.actions:
            block(a.effect)
        for tr in program.triggers:
            block(tr.effect)
        for ph in program.phases:
            block(ph.start)
        block(program.setup)
        self.taken = {name for name in self.taken if name.startswith("_")}

    def begin(self) -> None:
        """A new expression a rule starts from: the names given so far may be given again."""
        self.given = set()

    def fresh(self, base: str) -> str:
        """`_base__1`, or `_base__2` ... the first neither an earlier pass nor this rule takes
        (names.pass_local: how the passes spell a local). A base that is itself invented
        (`_s__2`, `_total`) gives its rule name (`s`, `total`): never a name starting `__`."""
        base = base.lstrip("_").split(JOIN)[0] or PASS_LOCAL_BASE
        n = 1
        while (name := f"_{base}{JOIN}{n}") in self.taken or name in self.given:
            n += 1
        self.given.add(name)
        return name

    def symbol(self, like: t.Symbol, base: str | None = None, ty: Ty | None = None) -> t.Symbol:
        """A new local, with a fresh name, of `like`'s type (or `ty`)."""
        py = self.fresh(base if base is not None else like.name)
        return t.Symbol("local", like.name if base is None else py, like.ty if ty is None else ty, py, like.span,
                        item=like.item)


def where(span: SourceSpan) -> str:
    """A rule line as a note names it: `base.yaml:284`."""
    return f"{PurePosixPath(span.path).name}:{span.line}"


def show(e: t.Expr, room: int = 48) -> str:
    """A short text of what `e` computes, in the rule language's words, for a note."""
    text = _show(e)
    return text if len(text) <= room else text[: room - 3] + "..."


def _show(e: t.Expr) -> str:
    match e:
        case t.Note(verb="inlined"):
            return e.what.split(" ")[0] + "(...)"
        case t.Note():
            return _show(e.expr)
        case t.Num():
            return str(e.value)
        case t.Str():
            return repr(e.value)
        case t.Bool():
            return "true" if e.value else "false"
        case t.Ref():
            return e.sym.name
        case t.DefineCall():
            return f"{e.define}({', '.join(_show(a) for a in e.args)})" if e.args else e.define
        case t.Builtin():
            return f"{e.func}({', '.join(_show(a) for a in e.args)})"
        case t.PerIndex():
            return f"{e.field.name}[{_show(e.index)}]"
        case t.ListIndex():
            return f"{_show(e.obj)}[{_show(e.index)}]"
        case t.AttrOf() | t.RecordField():
            return f"{_show(e.obj)}.{e.name}"
        case t.Unary():
            return f"{e.op} {_show(e.operand)}" if e.op == "not" else f"-{_show(e.operand)}"
        case t.Binary():
            return f"{_show(e.left)} {e.op} {_show(e.right)}"
        case t.Comprehension():
            return f"{e.func}(... for {e.var.name} in {_show(e.domain)})"
        case t.Cond():
            return f"{_show(e.then)} if {_show(e.test)} else {_show(e.orelse)}"
        case t.Collection():
            return "[" + ", ".join(_show(a) for a in e.items) + "]"
        case t.RecordNew():
            return f"{e.record}(...)"
    return "..."
