"""Typing, the expressions: each `ast` expression becomes its typed node (compiler/typed.py),
every name bound to the `Symbol` it denotes and every operand's type checked.

`ExprTyper` holds what typing an expression needs besides the symbol table (symbols.py): the
scopes of the locals being bound, the context (an effect may draw chance, a guard may not), the
definitions typed so far (each typed once, when first used) and the version `base(...)` names
(versions.py). Calls are typed in calls.py, statements in effects.py, on top of it.
"""

from __future__ import annotations

from typing import Literal, assert_never

from ...core.source import SourceSpan, did_you_mean
from ...runtime.limits import MAX_INT
from .. import ast, ir
from .. import typed as t
from ..builtins import AGGREGATES, BUILTINS
from ..names import BASE, RULE_NAME_HINT, local_name, rule_name_problem, table_constant
from ..typed import Symbol
from ..types import ANY, BOOL, INT, STR, Ty, compatible, entity, list_of, optional_of, set_of, unify
from .calls import arguments, builtin, record_new
from .symbols import Symbols
from .typer import Version
from .versions import base_call, base_example

# Typing a definition types those it uses first: a chain longer than this is refused.
_MAX_DEFINE_CHAIN = 40


class ExprTyper:
    """Types expressions over one rule set's symbol table, binding the locals of each rule."""

    def __init__(self, symbols: Symbols) -> None:
        self.symbols = symbols
        self.rs = symbols.rs
        self.scopes: list[dict[str, Symbol]] = []
        self.context = ""  # "effect" allows chance
        self.define_types: dict[str, Ty] = {}
        self.define_bodies: dict[str, t.Define] = {}
        self.define_depth = 0  # definitions being typed, one inside another
        # `base(...)`: the version being checked (None where `base` cannot be used); each version
        # that a `base(...)` uses, by its method (`_base_rent`), as a definition, and its own version
        self.redefining: Version | None = None
        self.versions: dict[str, tuple[ir.Define, Version]] = {}

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.symbols.error(span, message, hint)

    # -- scopes -------------------------------------------------------------------------------
    def lookup(self, name: str) -> Symbol | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.symbols.globals.get(name)

    def visible_names(self) -> list[str]:
        names = set(self.symbols.globals) | set(self.symbols.functions)
        for scope in self.scopes:
            names |= set(scope)
        return sorted(names)

    def bind(self, name: str, ty: Ty, span: SourceSpan, item: bool = False) -> Symbol:
        problem = rule_name_problem(name)
        if problem is not None:  # (`_x`, `x_`, `a__b`: the names generated code makes for itself)
            self.error(span, f"`{name}` is not a rule name: it {problem}", RULE_NAME_HINT)
        elif self.lookup(name) is not None or name in self.symbols.functions or name in self.symbols.procedures:
            self.error(span, f"`{name}` is already a name here", "choose another name for the local value")
        sym = Symbol("local", name, ty, local_name(name), span, item=item)
        self.scopes[-1][name] = sym
        return sym

    # -- expressions --------------------------------------------------------------------------
    def expr(self, e: ast.Expr, tested: bool = False) -> t.Expr:
        """The typed expression of `e`; `tested`: only its truth is used (see `binary`)."""
        match e:
            case ast.Num():
                if e.value > MAX_INT:
                    self.error(e.span, f"a number larger than the limit of whole numbers, {MAX_INT:,} (64 bits)",
                               "numbers in a game stay within 64 bits")
                    return t.Invalid(INT, e.span)
                return t.Num(e.value, INT, e.span)
            case ast.Str():
                return t.Str(e.value, STR, e.span)
            case ast.BoolLit():
                return t.Bool(e.value, BOOL, e.span)
            case ast.Name():
                return self.name(e)
            case ast.Attr():
                return self.attribute(e)
            case ast.Index():
                return self.index(e)
            case ast.Call():
                return self.call(e)
            case ast.Comprehension():
                return self.comprehension(e)
            case ast.ListLit():
                return self.collection(e.items, "list", e.span)
            case ast.SetLit():
                return self.collection(e.items, "set", e.span)
            case ast.Unary():
                operand = self.expr(e.operand, tested=e.op == "not")
                if e.op == "not":
                    self.truth(operand.ty, e.operand.span)
                    return t.Unary("not", operand, BOOL, e.span)
                self.want(INT, operand.ty, e.operand.span, "`-`")
                return t.Unary(e.op, operand, INT, e.span)
            case ast.Binary():
                return self.binary(e, tested)
            case ast.Cond():
                test = self.test(e.test)
                then, orelse = self.expr(e.then), self.expr(e.orelse)
                common = unify(then.ty, orelse.ty)
                if common is None:
                    self.error(e.span, f"type mismatch: one branch is {then.ty}, the other {orelse.ty}")
                    common = then.ty
                return t.Cond(test, then, orelse, common, e.span)
            case _:
                assert_never(e)

    def test(self, e: ast.Expr) -> t.Expr:
        """A condition (an `if`, a `when`, a filter): a bool, or a list or set, true when not
        empty. Only its truth is used, so `and`/`or` in it may give an operand as it is."""
        typed = self.expr(e, tested=True)
        self.truth(typed.ty, e.span)
        return typed

    def name(self, e: ast.Name) -> t.Expr:
        sym = self.lookup(e.id)
        if sym is not None:
            return t.Ref(sym, sym.ty, e.span)
        if e.id in self.symbols.functions:
            d = self.symbols.functions[e.id]
            if d.params:
                self.error(e.span, f"`{e.id}` takes {len(d.params)} argument(s)", f"call it: {e.id}(...)")
                return t.Invalid(ANY, e.span)
            return t.DefineCall(e.id, (), self.define_type(d), e.span)
        self.error(e.span, f"unknown name `{e.id}`", did_you_mean(e.id, self.visible_names()))
        return t.Invalid(ANY, e.span)

    def attribute(self, e: ast.Attr) -> t.Expr:
        obj = self.expr(e.obj)
        if obj.ty.kind == "any":
            return t.Invalid(ANY, e.span)
        if obj.ty.kind == "record":  # a record's field: `l.owner`
            names = [name for name, _ in obj.ty.fields]
            if e.name not in names:
                self.error(e.span, f"record `{obj.ty.name}` has no field `{e.name}`",
                           did_you_mean(e.name, names) or f"its fields: {', '.join(names)}")
                return t.Invalid(ANY, e.span)
            index = names.index(e.name)
            return t.RecordField(obj, e.name, index, obj.ty.fields[index][1], e.span)
        if obj.ty.kind == "optional":
            self.error(e.span, f"`.{e.name}` of an optional value ({obj.ty}): it may be `none`",
                       "check `x != none`, then read `value_of(x)." + e.name + "`")
            return t.Invalid(ANY, e.span)
        table = self.symbols.attributes.get(obj.ty.name) if obj.ty.kind == "entity" else None
        if table is None:
            self.error(e.span, f"`.{e.name}`: a value of type {obj.ty} has no attributes",
                       "components have attributes (components: tile: attributes: ...)")
            return t.Invalid(ANY, e.span)
        if e.name not in table:
            self.error(e.span, f"`{obj.ty.name}` has no attribute `{e.name}`", did_you_mean(e.name, table)
                       or f"its attributes: {', '.join(table) or 'none'}")
            return t.Invalid(ANY, e.span)
        ty, const = table[e.name]
        return t.AttrOf(obj, e.name, const, ty, e.span)

    def index(self, e: ast.Index) -> t.Expr:
        if isinstance(e.obj, ast.Name):
            sym = self.lookup(e.obj.id)
            if sym is not None and sym.kind == "perfield":
                index = self.expr(e.index)
                self.want(entity(sym.per or ""), index.ty, e.index.span, f"the index of `{e.obj.id}`")
                return t.PerIndex(sym, index, sym.ty, e.span)
        obj, index = self.expr(e.obj), self.expr(e.index)
        if obj.ty.kind == "list":
            self.want(INT, index.ty, e.index.span, "a list index")
            return t.ListIndex(obj, index, obj.ty.elem or ANY, e.span)
        if obj.ty.kind != "any":
            self.error(e.obj.span, f"a value of type {obj.ty} cannot be indexed")
        return t.Invalid(ANY, e.span)

    def collection(self, items: tuple[ast.Expr, ...], kind: Literal["list", "set"], span: SourceSpan) -> t.Expr:
        elem = ANY
        typed = []
        for item in items:
            part = self.expr(item)
            u = unify(elem, part.ty)
            if u is None:
                self.error(item.span, f"type mismatch: {part.ty} among items of type {elem}")
            else:
                elem = u
            typed.append(part)
        return t.Collection(kind, tuple(typed), list_of(elem) if kind == "list" else set_of(elem), span)

    def element(self, ty: Ty, span: SourceSpan) -> Ty:
        """The type of the items a `for` walks in a value of type `ty` (a region: its spots)."""
        if ty.kind in ("list", "set"):
            return ty.elem or ANY
        if ty == entity("region"):
            return entity("spot")
        if ty.kind != "any":
            self.error(span, f"cannot iterate over a value of type {ty}", "iterate over a list, a set or a region")
        return ANY

    def comprehension(self, e: ast.Comprehension) -> t.Expr:
        if e.func not in AGGREGATES:
            self.error(e.span, f"`{e.func}(... for ...)`: unknown aggregate",
                       did_you_mean(e.func, AGGREGATES) or f"aggregates: {', '.join(AGGREGATES)}")
        domain = self.expr(e.domain)
        elem = self.element(domain.ty, e.domain.span)
        self.scopes.append({})
        var = self.bind(e.var, elem, e.span, item=True)
        cond = self.test(e.cond) if e.cond is not None else None
        more: list[tuple[Symbol, t.Expr, t.Expr | None]] = []
        for more_var, more_domain, more_cond in e.more:  # each clause inside the one before, seeing its names
            inner = self.expr(more_domain)
            self.scopes.append({})
            inner_var = self.bind(more_var, self.element(inner.ty, more_domain.span), e.span, item=True)
            more.append((inner_var, inner, self.test(more_cond) if more_cond is not None else None))
        elt = self.expr(e.elt)
        for _ in e.more:
            self.scopes.pop()
        self.scopes.pop()
        match e.func:
            case "count":
                self.want(BOOL, elt.ty, e.elt.span, "what `count` counts")
                ty = INT
            case "all" | "any":
                self.truth(elt.ty, e.elt.span)
                ty = BOOL
            case "sum" | "min" | "max":
                self.want(INT, elt.ty, e.elt.span, f"what `{e.func}` adds up")
                ty = INT
            case "set":
                ty = set_of(elt.ty)
            case "first":  # the value of the first item walked that passes the test, or none
                ty = optional_of(elt.ty)
            case _:
                ty = list_of(elt.ty)
        return t.Comprehension(e.func, var, domain, cond, elt, ty, e.span, tuple(more))

    def binary(self, e: ast.Binary, tested: bool) -> t.Expr:
        op = e.op
        truth_only = tested and op in ("and", "or")
        left, right = self.expr(e.left, tested=truth_only), self.expr(e.right, tested=truth_only)
        lt, rt_ = left.ty, right.ty
        ty = BOOL
        if op in ("and", "or"):
            self.truth(lt, e.left.span)
            self.truth(rt_, e.right.span)
        elif op in ("==", "!="):
            if unify(lt, rt_) is None:
                self.error(e.span, f"type mismatch: comparing {lt} with {rt_}")
        elif op in ("<", "<=", ">", ">="):
            self.want(INT, lt, e.left.span, f"`{op}`")
            self.want(INT, rt_, e.right.span, f"`{op}`")
        elif op in ("in", "not in"):
            elem = self.element(rt_, e.right.span)
            if unify(elem, lt) is None:
                self.error(e.span, f"type mismatch: looking for {lt} among {elem}")
        elif op == "+" and lt.kind in ("list", "set") or rt_.kind in ("list", "set") and op in ("+", "-"):
            common = unify(lt, rt_)
            if common is None:
                self.error(e.span, f"type mismatch: {lt} {op} {rt_}")
                return t.Invalid(lt, e.span)
            if common.kind == "list" and op == "-":
                self.error(e.span, "lists cannot be subtracted", "filter with [x for x in a if x not in b]")
            ty = common
        else:
            self.want(INT, lt, e.left.span, f"`{op}`")
            self.want(INT, rt_, e.right.span, f"`{op}`")
            ty = INT
        return t.Binary(op, left, right, ty, e.span, truth_only)

    def call(self, e: ast.Call) -> t.Expr:
        """A call in an expression: of the version `base(...)` names, a record, a definition or a
        built-in (calls.py types those two; a procedure gives no value)."""
        if e.func == BASE:
            return base_call(self, e)
        if e.func in self.symbols.records:
            return record_new(self, e, self.symbols.records[e.func])
        if e.func in self.symbols.functions:
            d = self.symbols.functions[e.func]
            args = arguments(self, e, tuple((p.name, p.type) for p in d.params))
            return t.DefineCall(d.name, args, self.define_type(d), e.span)
        if e.func in self.symbols.procedures:
            self.error(e.span, f"`{e.func}` is a procedure: it changes the game and gives no value",
                       "call it as an effect of its own")
            return t.Invalid(ANY, e.span)
        sig = BUILTINS.get(e.func)
        if sig is None:
            if e.func in AGGREGATES:
                self.error(e.span, f"`{e.func}` takes a comprehension: {e.func}(x for x in items)")
            else:
                self.error(e.span, f"unknown function `{e.func}`",
                           did_you_mean(e.func, list(BUILTINS) + list(self.symbols.functions)
                                        + list(self.symbols.procedures)))
            return t.Invalid(ANY, e.span)
        return builtin(self, e, sig)

    def define_type(self, d: ir.Define) -> Ty:
        """A definition's type, found by checking its body (once, when first needed)."""
        known = self.define_types.get(d.name)
        if known is not None:
            return known
        if self.define_depth >= _MAX_DEFINE_CHAIN:
            self.error(d.span, f"`{d.name}` is reached through a chain of more than {_MAX_DEFINE_CHAIN} definitions",
                       "definitions that use definitions that use ... nest too deeply: flatten a few")
            return ANY
        self.define_types[d.name] = ANY  # recursion guard: a define that uses itself is `any`
        saved_scopes, saved_context, saved_version = self.scopes, self.context, self.redefining
        self.scopes, self.context = [{}], "define"
        version = self.versions.get(d.name)  # (a version `base(...)` uses, or the rule set's own)
        self.redefining = version[1] if version is not None else Version("define", d.name, d.base, 0,
                                                                      base_example(d.name, d.params))
        self.define_depth += 1
        params = tuple(self.bind(p.name, p.type, p.span) for p in d.params)
        body = self.expr(d.body)
        self.define_depth -= 1
        self.scopes, self.context, self.redefining = saved_scopes, saved_context, saved_version
        self.define_types[d.name] = body.ty
        self.define_bodies[d.name] = t.Define(d.name, params, body.ty, body, d.span, d.cached,
                                              (version[1].section, version[1].name) if version is not None else None)
        return body.ty

    # -- helpers ------------------------------------------------------------------------------
    def want(self, expected: Ty, got: Ty, span: SourceSpan, what: str) -> None:
        if not compatible(expected, got):
            self.error(span, f"type mismatch: {what} must be {expected}, not {got}", self.optional_hint(got))

    def optional_hint(self, got: Ty) -> str | None:
        """The hint for an optional value used where a plain one is needed."""
        if got.kind == "optional":
            return "an optional may be `none`: check `x != none`, then use `value_of(x)`"
        if got.kind == "none":
            return "`none` only goes where an `optional(...)` value is wanted"
        return None

    def truth(self, ty: Ty, span: SourceSpan) -> None:
        """A condition: a bool, or a list or set (true when not empty)."""
        if ty.kind not in ("bool", "list", "set", "any"):
            self.error(span, f"type mismatch: a condition must be bool, not {ty}",
                       "compare an optional with `none`: `x != none`" if ty.kind == "optional" else None)

    def rule_expr(self, e: ast.Expr, context: str, *bound: Symbol, tested: bool = False) -> t.Expr:
        """An expression that is a rule of its own (a guard, a score ...), with its locals;
        `tested`: a condition."""
        self.scopes, self.context = [{sym.name: sym for sym in bound}], context
        return self.test(e) if tested else self.expr(e)

    def component_attributes(self, comp: ir.Component) -> list[t.ComponentAttribute]:
        """The attributes of a component just declared, each a table of values computed from the
        component's number `i` (never from the game); what `.name` of one of its pieces reads is
        entered in the symbol table (`attributes`)."""
        table: dict[str, tuple[Ty, str]] = {}
        typed: list[t.ComponentAttribute] = []
        for attr in comp.attributes:
            value = self.rule_expr(attr.value, "init", Symbol("local", "i", INT, "i", attr.span))
            self.scopes = []
            if _reads_game(value):
                self.error(attr.value.span, f"attribute `{attr.name}` of `{comp.name}` must not depend on the game "
                           "state", "use the number `i`, enumerations and constants")
                continue
            const = table_constant(comp.name, attr.name)
            table[attr.name] = (value.ty, const)
            typed.append(t.ComponentAttribute(comp.name, attr.name, const, value.ty, value, comp.count, attr.span))
        self.symbols.attributes[comp.name] = table
        return typed


def _reads_game(e: t.Expr) -> bool:
    """Whether an expression reads the game: a field, an option, a definition, a seat."""
    match e:
        case t.Ref():
            return "self." in e.sym.py
        case t.DefineCall():
            return True
        case t.Builtin() if "self" in BUILTINS[e.func].python:
            return True
        case t.PerIndex():
            return True
    return any(_reads_game(part) for part in t.subexpressions(e))
