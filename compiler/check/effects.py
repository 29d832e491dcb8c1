"""Typing, the statements: the effects of a rule (an action's, a trigger's, a phase's start,
the setup, a procedure's body), each with its span, on top of the expression typer (exprs.py).

`EffectTyper` also gathers what only the effects tell: the phases they go to (for
reachability.py), what each `ask` chooses, and the type a `let x = []` takes from the
assignments after it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from ...core.source import SourceSpan, did_you_mean
from .. import ast, ir
from .. import typed as t
from ..builtins import BUILTINS
from ..typed import Symbol
from ..types import ANY, INT, Ty, compatible, entity, unify
from .calls import arguments
from .exprs import ExprTyper
from .texts import tell


class EffectTyper:
    """Types statements, their expressions by `exprs`."""

    def __init__(self, exprs: ExprTyper) -> None:
        self.exprs = exprs
        # `let x = []`: the item type the assignments after it give, by the symbol the `let`
        # bound (`let_of`: that symbol, for each the assignments made of it)
        self.let_types: dict[Symbol, Ty] = {}
        self.let_of: dict[Symbol, Symbol] = {}
        self.gotos: list[tuple[str, SourceSpan]] = []
        self.asks: dict[str, tuple[Ty, SourceSpan]] = {}  # what each `ask ... to choose <name>` chooses
        self.secret_asks: set[str] = set()  # those asked `secretly`
        # where a `break` or `continue` would stand: in a loop ("loop"), in an `ask` inside one
        # ("ask": refused, the ask's wait is no loop to leave), in neither (None)
        self.loop: str | None = None

    def effects(self, stmts: tuple[ast.Stmt, ...], params: tuple[ir.Param, ...] = (),
                ) -> tuple[tuple[Symbol, ...], tuple[t.Stmt, ...]]:
        """The effects of a rule (an action's, a trigger's, a phase's start, the setup, a
        procedure's body), with the parameters bound first."""
        x = self.exprs
        x.scopes, x.context = [{}], "effect"
        self.loop = None  # (a procedure's body is not inside the loop that calls it)
        bound = tuple(x.bind(p.name, p.type, p.span) for p in params)
        block = self.block(stmts)
        # each `let x = []` is annotated with the type the assignments after it give
        return bound, tuple(annotate_lets(block, self.let_types))

    def block(self, stmts: tuple[ast.Stmt, ...]) -> tuple[t.Stmt, ...]:
        self.exprs.scopes.append({})
        out = tuple(self.stmt(s) for s in stmts)
        self.exprs.scopes.pop()
        return out

    def stmt(self, s: ast.Stmt) -> t.Stmt:
        x = self.exprs
        match s:
            case ast.Assign():
                return self.assign(s)
            case ast.Let():
                value = x.expr(s.value)
                var = x.bind(s.name, value.ty, s.span)
                if _untyped(value.ty):  # `let x = []`: annotated, with the type later assignments give it
                    self.let_types[var] = value.ty
                    self.let_of[var] = var
                return t.Let(var, value, s.span)
            case ast.CallStmt():
                return self.call_effect(s)
            case ast.Goto():
                phases = [p.name for p in x.rs.phases]
                if s.phase not in phases:
                    x.error(s.span, f"unknown phase `{s.phase}`", did_you_mean(s.phase, phases))
                self.gotos.append((s.phase, s.span))
                return t.Goto(s.phase, s.span)
            case ast.EndTurn():
                return t.EndTurn(s.span)
            case ast.Pass():
                return t.Pass(s.span)
            case ast.Tell():
                return tell(x, s)
            case ast.For():
                domain = x.expr(s.domain)
                elem = x.element(domain.ty, s.domain.span)
                x.scopes.append({})
                var = x.bind(s.var, elem, s.span, item=True)
                body = self.loop_body(s.body)
                x.scopes.pop()
                return t.For(var, domain, body, s.span)
            case ast.While():
                test = x.test(s.test)
                return t.While(test, self.loop_body(s.body), s.span)
            case ast.Break() | ast.Continue():
                return self.leave(s)
            case ast.If():
                branches = tuple((x.test(test), self.block(branch)) for test, branch in s.branches)
                return t.If(branches, self.block(s.orelse) if s.orelse else (), s.span)
            case ast.Ask():
                return self.ask(s)
            case _:
                assert_never(s)

    def loop_body(self, stmts: tuple[ast.Stmt, ...]) -> tuple[t.Stmt, ...]:
        """The body of a `for` or a `while`: a `break` or `continue` in it is this loop's."""
        outer, self.loop = self.loop, "loop"
        try:
            return self.block(stmts)
        finally:
            self.loop = outer

    def leave(self, s: ast.Break | ast.Continue) -> t.Stmt:
        """`break` or `continue`: only inside a `for` or `while` (the innermost), not across an `ask`."""
        word = "break" if isinstance(s, ast.Break) else "continue"
        if self.loop is None:
            does = "stops" if word == "break" else "goes on with the next round of"
            self.exprs.error(s.span, f"`{word}` outside a loop",
                             f"`{word}` {does} the innermost `for ...:` or `while ...:` block around it "
                             "(a procedure's body is not inside the loop that calls it)")
            return t.Pass(s.span)
        if self.loop == "ask":
            self.exprs.error(s.span, f"`{word}` inside an `ask` block cannot leave the loop around it",
                             "set a value in the ask's block and test it after the block: "
                             f"`if done: {word}`")
            return t.Pass(s.span)
        return t.Break(s.span) if word == "break" else t.Continue(s.span)

    def ask(self, s: ast.Ask) -> t.Stmt:
        """`ask seat to choose var in domain:`: the seat decides among the domain's items."""
        x = self.exprs
        seat = x.expr(s.seat)
        x.want(entity("player"), seat.ty, s.seat.span, "the seat asked")
        domain = x.expr(s.domain)
        elem = x.element(domain.ty, s.domain.span)
        known = self.asks.get(s.var)
        if known is not None and unify(known[0], elem) is None:
            x.error(s.span, f"`{s.var}` is chosen as {known[0]} at {known[1].short} and as {elem} here",
                    "the text of a choice names it: give choices of different kinds different names")
        elif known is not None and (s.var in self.secret_asks) != s.secret:
            how = ("secretly", "openly") if s.var in self.secret_asks else ("openly", "secretly")
            x.error(s.span, f"`{s.var}` is chosen {how[0]} at {known[1].short} and {how[1]} here",
                    "the text of a choice names it: give a secret choice and an open one different names")
        elif known is None:
            self.asks[s.var] = (elem, s.span)
            if s.secret:
                self.secret_asks.add(s.var)
        x.scopes.append({})
        var = x.bind(s.var, elem, s.span, item=True)
        outer, self.loop = self.loop, None if self.loop is None else "ask"
        try:
            body = self.block(s.body)
        finally:
            self.loop = outer
        x.scopes.pop()
        return t.Ask(seat, var, domain, body, s.span)

    def call_effect(self, s: ast.CallStmt) -> t.Stmt:
        x = self.exprs
        c = s.call
        proc = x.symbols.procedures.get(c.func)
        if proc is None:
            if c.func in x.symbols.functions or c.func in BUILTINS:
                x.error(c.span, f"`{c.func}(...)` gives a value; as an effect it does nothing",
                        "use it inside an assignment or a condition")
            else:
                x.error(c.span, f"unknown procedure `{c.func}`", did_you_mean(c.func, x.symbols.procedures))
            return t.Pass(s.span)
        args = arguments(x, c, tuple((p.name, p.type) for p in proc.params))
        return t.CallEffect(c.func, args, s.span)

    def assign(self, s: ast.Assign) -> t.Stmt:
        x = self.exprs
        target = s.target
        value = x.expr(s.value)
        vt = value.ty
        sym = x.lookup(target.name)
        if sym is None:
            hint = did_you_mean(target.name, x.visible_names()) or f"declare it: let {target.name} = ..."
            x.error(target.span, f"unknown name `{target.name}`", hint)
            return t.Pass(s.span)
        if sym.kind not in ("field", "perfield", "local"):
            x.error(target.span, f"`{target.name}` cannot be changed", "only state fields and local values can")
            return t.Pass(s.span)
        if x.context != "effect":
            x.error(s.span, "an effect cannot run here")
        if target.item is not None or (target.index is not None and sym.kind != "perfield"):
            return self.assign_item(s, sym, value)
        index = None
        if sym.kind == "perfield":
            if target.index is None:
                x.error(target.span, f"`{target.name}` has one value per {sym.per}: say which, "
                        f"`{target.name}[...] = ...`")
                return t.Pass(s.span)
            index = x.expr(target.index)
            x.want(entity(sym.per or ""), index.ty, target.index.span, f"the index of `{target.name}`")
        elif target.index is not None:
            x.error(target.span, f"`{target.name}` is a single value and takes no index")
            return t.Pass(s.span)
        if s.op in ("+=", "-="):
            if not (sym.ty.kind == "set" and compatible(sym.ty, vt)):  # (sets: a union, a difference)
                x.want(INT, sym.ty, target.span, f"the target of `{s.op}`")
                x.want(INT, vt, s.value.span, f"the value added with `{s.op}`")
        elif not compatible(sym.ty, vt) and not (sym in self.let_of and sym.ty.kind == "none"):
            x.error(s.value.span, f"type mismatch: `{target.name}` is {sym.ty}, the value is {vt}",
                    x.optional_hint(vt))
        elif sym in self.let_of and _untyped(sym.ty):
            sym = self.let_given(target.name, sym, vt)
        return t.Assign(sym, index, s.op, value, s.span)

    def let_given(self, name: str, sym: Symbol, vt: Ty) -> Symbol:
        """A `let x = []` given items of type `vt`: its type (and annotation) is now theirs, and
        the name is bound to a new symbol of that type from here on."""
        common = unify(sym.ty, vt) or sym.ty
        first = self.let_of[sym]
        self.let_types[first] = common
        for scope in reversed(self.exprs.scopes):
            if scope.get(name) is sym:
                scope[name] = sym = replace(sym, ty=common)
                self.let_of[sym] = first
                break
        return sym

    def assign_item(self, s: ast.Assign, sym: Symbol, value: t.Expr) -> t.Stmt:
        """`xs[i] = v` of a list field or local, `f[e][i] = v` of a list field per entity: the list
        rebuilt with item i replaced (`+=`, `-=`: a number added to it)."""
        x = self.exprs
        target = s.target
        index = None
        item_node = target.item if target.item is not None else target.index
        assert item_node is not None
        if sym.kind == "perfield":
            assert target.index is not None
            index = x.expr(target.index)
            x.want(entity(sym.per or ""), index.ty, target.index.span, f"the index of `{target.name}`")
        elif target.item is not None:
            x.error(target.span, f"`{target.name}` is a single value: `{target.name}[...][...]` is for a list "
                    "field per entity", f"write `{target.name}[i] = ...`")
            return t.Pass(s.span)
        if sym.ty.kind != "list":
            x.error(target.span, f"`{target.name}` is {sym.ty}: only an item of a list can be replaced",
                    "a set changes with `+=` and `-=`" if sym.ty.kind == "set"
                    else f"assign the whole value: `{target.name} = ...`")
            return t.Pass(s.span)
        item = x.expr(item_node)
        x.want(INT, item.ty, item_node.span, "a list index")
        elem = sym.ty.elem or ANY
        if s.op in ("+=", "-="):
            x.want(INT, elem, target.span, f"the item changed with `{s.op}`")
            x.want(INT, value.ty, s.value.span, f"the value added with `{s.op}`")
        elif not compatible(elem, value.ty):
            x.error(s.value.span, f"type mismatch: the items of `{target.name}` are {elem}, the value is "
                    f"{value.ty}", x.optional_hint(value.ty))
        return t.Assign(sym, index, s.op, value, s.span, item=item)


def annotate_lets(stmts: tuple[t.Stmt, ...], let_types: dict[Symbol, Ty]) -> list[t.Stmt]:
    """The statements with each `let x = []` given the type that later assignments give `x`."""
    out: list[t.Stmt] = []
    for s in stmts:
        match s:
            case t.Let() if s.var in let_types:
                s = replace(s, annotation=let_types[s.var])
            case t.For() | t.Ask() | t.While():
                s = replace(s, body=tuple(annotate_lets(s.body, let_types)))
            case t.If():
                s = replace(s, branches=tuple((test, tuple(annotate_lets(b, let_types))) for test, b in s.branches),
                            orelse=tuple(annotate_lets(s.orelse, let_types)))
        out.append(s)
    return out


def _untyped(ty: Ty) -> bool:
    """Whether a type holds the item type of an empty `[]` or `{}`, unknown."""
    return ty.kind in ("any", "none") or ty.elem is not None and _untyped(ty.elem)
