"""Stage 5, check: every name resolves, every call fits its signature, types agree, every
phase can be reached and the game can end.

`check(ruleset)` returns the diagnostics and, when there are none, the `TypedProgram`
(compiler/typed.py): each expression with its type, each name bound to the symbol it denotes,
each effect with its span. How that is written as Python, and what checks of the limits of a
move it needs, is lowering's (compiler/lower.py). `check_partial(ruleset)` gives the typed
program and the global names whatever the problems, for tools that look at rules as they are
written (the language server).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal, assert_never

from ...runtime.limits import MAX_INT
from .. import ast, ir
from .. import typed as t
from ..names import (
    BASE,
    MEMBER_PATTERNS,
    RULE_NAME_HINT,
    base_use,
    base_version,
    faces_constant,
    local_name,
    phase_constant,
    rule_name_problem,
    table_constant,
)
from ..signatures import AGGREGATES, BUILTINS
from ..source import Diagnostic, SourceSpan, did_you_mean
from ..typed import Symbol
from ..types import ANY, BOOL, INT, STR, Ty, compatible, entity, list_of, parse_type, set_of, unify
from .cycles import cycles
from .declare import declarations
from .reachability import reachability
from .symbols import KIND_WORDS, RESERVED, Symbols

__all__ = ["KIND_WORDS", "RESERVED", "Checked", "check", "check_partial"]

# More phases or actions than this make generated code Python cannot compile.
_MAX_COMPONENTS = 1000
# The plain types whose init is a literal, as a type message names them: what a value of that
# type is, and how one is written.
INIT_FORMS = {
    INT: ("an int", 'an int is a number or an expression giving one, e.g. `init: 0` or `init: "3000"`'),
    BOOL: ("a bool", "a bool is `true` or `false`, or an expression giving one"),
    STR: ("a str", """a text is quoted inside the expression, e.g. `init: "'yes'"`"""),
}

# Typing a definition types those it uses first: a chain longer than this is refused.
_MAX_DEFINE_CHAIN = 40


@dataclass(frozen=True, slots=True)
class _Version:
    """A version of a definition or scoring term being checked, for `base(...)` in it."""

    section: str  # "define" or "scoring"
    name: str  # as the rule file names it
    earlier: ir.Define | ir.ScoreTerm | None  # the version it replaced, which `base(...)` uses
    depth: int  # 0: the rule set's own; 1: the version that one replaced; and so on
    example: str  # how `base(...)` is written in it: `base(rent(a))`, `base(gold)`


class _Checker:
    def __init__(self, rs: ir.RuleSet) -> None:
        self.rs = rs
        self.symbols = Symbols(rs)
        # (the symbol table's, by their names of before it was one of its own)
        sy = self.symbols
        self.diags, self.globals, self.functions, self.procedures = sy.diags, sy.globals, sy.functions, sy.procedures
        self.tables, self.entity_kinds, self.enum_names = sy.tables, sy.entity_kinds, sy.enum_names
        self.attributes, self.records = sy.attributes, sy.records
        self.scopes: list[dict[str, Symbol]] = []
        self.define_types: dict[str, Ty] = {}
        self.define_bodies: dict[str, t.Define] = {}
        self.define_depth = 0  # definitions being typed, one inside another
        self.context = ""  # "effect" allows chance
        # `let x = []`: the item type the assignments after it give, by the symbol the `let`
        # bound (`let_of`: that symbol, for each the assignments made of it)
        self.let_types: dict[Symbol, Ty] = {}
        self.let_of: dict[Symbol, Symbol] = {}
        self.gotos: list[tuple[str, SourceSpan]] = []
        self.asks: dict[str, tuple[Ty, SourceSpan]] = {}  # what each `ask ... to choose <name>` chooses
        self.secret_asks: set[str] = set()  # those asked `secretly`
        self.components: list[t.ComponentAttribute] = []
        # `base(...)`: the version being checked (None where `base` cannot be used); each version
        # that a `base(...)` uses, by its method (`_base_rent`), as a definition, and its own version
        self.redefining: _Version | None = None
        self.versions: dict[str, tuple[ir.Define, _Version]] = {}

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.symbols.error(span, message, hint)

    def component_attributes(self, comp: ir.Component) -> list[t.ComponentAttribute]:
        """The attributes of a component just declared, each a table of values computed from the
        component's number `i` (never from the game), and its table of attributes by name."""
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
        self.attributes[comp.name] = table
        return typed


    # -- scopes -------------------------------------------------------------------------------

    # -- scopes -------------------------------------------------------------------------------
    def lookup(self, name: str) -> Symbol | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.globals.get(name)

    def visible_names(self) -> list[str]:
        names = set(self.globals) | set(self.functions)
        for scope in self.scopes:
            names |= set(scope)
        return sorted(names)

    def bind(self, name: str, ty: Ty, span: SourceSpan, item: bool = False) -> Symbol:
        problem = rule_name_problem(name)
        if problem is not None:  # (`_x`, `x_`, `a__b`: the names generated code makes for itself)
            self.error(span, f"`{name}` is not a rule name: it {problem}", RULE_NAME_HINT)
        elif self.lookup(name) is not None or name in self.functions or name in self.procedures:
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
        if e.id in self.functions:
            d = self.functions[e.id]
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
        table = self.attributes.get(obj.ty.name) if obj.ty.kind == "entity" else None
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

    def record_new(self, e: ast.Call, ty: Ty) -> t.Expr:
        """`leader(owner=p, colour=c, at=s)`: every field given once, by name."""
        names = [name for name, _ in ty.fields]
        example = f"{ty.name}({', '.join(f'{n}=...' for n in names)})"
        if e.args:
            self.error(e.args[0].span, f"record `{ty.name}` is built with its fields named", example)
            return t.Invalid(ty, e.span)
        given: dict[str, t.Expr] = {}
        for kw in e.keywords:
            value = self.expr(kw.value)
            if kw.name not in names:
                self.error(kw.span, f"record `{ty.name}` has no field `{kw.name}`",
                           did_you_mean(kw.name, names) or f"its fields: {', '.join(names)}")
            elif kw.name in given:
                self.error(kw.span, f"field `{kw.name}` of `{ty.name}` is given twice")
            else:
                fty = ty.fields[names.index(kw.name)][1]
                if not compatible(fty, value.ty):
                    self.error(kw.value.span, f"type mismatch: field `{kw.name}` of `{ty.name}` is {fty}, "
                               f"not {value.ty}", self.optional_hint(value.ty))
                given[kw.name] = value
        missing = [n for n in names if n not in given]
        if missing:
            self.error(e.span, f"record `{ty.name}` needs {', '.join(f'`{n}`' for n in missing)}", example)
            return t.Invalid(ty, e.span)
        return t.RecordNew(ty.name, tuple(given[n] for n in names), ty, e.span)

    def call(self, e: ast.Call) -> t.Expr:
        if e.func == BASE:
            return self.base_call(e)
        if e.func in self.records:
            return self.record_new(e, self.records[e.func])
        if e.func in self.functions:
            d = self.functions[e.func]
            args = self.arguments(e, tuple((p.name, p.type) for p in d.params))
            return t.DefineCall(d.name, args, self.define_type(d), e.span)
        if e.func in self.procedures:
            self.error(e.span, f"`{e.func}` is a procedure: it changes the game and gives no value",
                       "call it as an effect of its own")
            return t.Invalid(ANY, e.span)
        sig = BUILTINS.get(e.func)
        if sig is None:
            if e.func in AGGREGATES:
                self.error(e.span, f"`{e.func}` takes a comprehension: {e.func}(x for x in items)")
            else:
                self.error(e.span, f"unknown function `{e.func}`",
                           did_you_mean(e.func, list(BUILTINS) + list(self.functions) + list(self.procedures)))
            return t.Invalid(ANY, e.span)
        walls = any(b.wall for b in self.rs.boards)
        if not walls and any("wall" in ty for _, ty in sig.params):
            self.error(e.span, f"`{e.func}` works on a wall, and no board is one", "declare a board `wall:`")
            return t.Invalid(ANY, e.span)
        if walls and e.func in ("neighbours", "straight_lines", "count_lines", "components", "component_of"):
            # (components on a wall would join spots within a face only, never across the joins
            # between the faces laid: refused, not silently wrong)
            self.error(e.span, f"`{e.func}` does not know which faces of the wall are laid",
                       "use wall_neighbours(layout, spot) or wall_spots(layout)")
            return t.Invalid(ANY, e.span)
        if sig.chance and self.context != "effect":
            self.error(e.span, f"`{e.func}` draws chance, so it can only be used in an effect",
                       "legal actions, guards, definitions and scoring must not use chance")
        bindings: dict[str, Ty] = {}
        param_types: list[tuple[str, Ty]] = []
        for pname, ptype in sig.params:
            ty = parse_type(ptype, self.entity_kinds | {"T"}, self.enum_names)
            assert isinstance(ty, Ty), ty
            param_types.append((pname, ty))
        if e.keywords:
            self.error(e.keywords[0].span, f"`{e.func}` takes no keyword arguments")
        if len(e.args) != len(param_types):
            self.error(e.span, f"`{e.func}` takes {len(param_types)} argument(s), {len(e.args)} given",
                       f"{e.func}({', '.join(f'{n}: {ty}' for n, ty in sig.params)})")
        given: list[t.Expr] = []
        for arg, (pname, pty) in zip(e.args, param_types, strict=False):
            typed = self.expr(arg)
            if not self.generic_fits(pty, typed.ty, bindings):
                self.error(arg.span, f"argument `{pname}` of `{e.func}` must be {pty}, not {typed.ty}",
                           "only an optional value needs value_of()" if pty.kind == "optional" else None)
            given.append(typed)
        for arg in e.args[len(param_types):]:
            self.expr(arg)
        ret = parse_type(sig.returns, self.entity_kinds | {"T"}, self.enum_names)
        assert isinstance(ret, Ty)
        if ret == entity("T"):  # a generic result: the element type its argument fixed
            ret = bindings.get("T", ANY)
        elif ret.kind in ("list", "set") and ret.elem == entity("T"):
            ret = Ty(ret.kind, elem=bindings.get("T", ANY))
        elif ret.kind in ("list", "set") and ret.elem is not None and ret.elem.elem == entity("T"):
            ret = Ty(ret.kind, elem=Ty(ret.elem.kind, elem=bindings.get("T", ANY)))  # components: list(set(T))
        extra: tuple[tuple[str, str], ...] = ()
        if e.func == "throw":
            dice_kind = bindings.get("T") or ANY
            if dice_kind.kind == "entity" and dice_kind.name in {d.name for d in self.rs.dice}:
                extra = (("faces", faces_constant(dice_kind.name)),)
            else:
                extra = (("faces", "()"),)
                if dice_kind.kind != "any":  # an empty set throws nothing; a set of anything else is wrong
                    self.error(e.span, "throw() takes a set of dice", f"not a set of {dice_kind}")
        if e.func in ("components", "component_of"):  # the board joins spots: nothing else is connected
            bound = bindings.get("T") or ANY
            if bound.kind != "any" and bound != entity("spot"):
                self.error(e.span, f"{e.func}() takes spots, not {bound}",
                           "the board's neighbours join spots: give a list or set of spots")
        if len(given) != len(param_types):
            return t.Invalid(ret, e.span)
        return t.Builtin(e.func, tuple(given), extra, ret, e.span)

    def base_call(self, e: ast.Call) -> t.Expr:
        """`base(rent(a))` in the new `rent` (`base(gold)` in the new scoring term `gold`): a call
        of the version it replaced, a definition of its own (names.base_version)."""
        r = self.redefining
        if r is None:
            self.error(e.span, "`base(...)` can only be used in a variant's new version of a definition or scoring "
                       "term", "it is the version that one replaced: e.g. `rent: \"2 * base(rent(a))\"` under "
                       "`define:` in a file with `extends:`")
            return t.Invalid(ANY, e.span)
        if r.earlier is None:  # (build.py refused it: this version replaced none, and says why)
            return t.Invalid(ANY, e.span)
        what = "definition" if r.section == "define" else "scoring term"
        arg = e.args[0] if len(e.args) == 1 and not e.keywords else None
        if isinstance(arg, ast.Call) and not arg.keywords:
            target = arg.func
        elif isinstance(arg, ast.Name):
            target = arg.id
        else:
            self.error(e.span, f"`base(...)` takes one use of the {what} `{r.name}` it redefines: `{r.example}`")
            return t.Invalid(ANY, e.span)
        assert arg is not None
        if target != r.name:
            self.error(arg.span, f"`base(...)` in `{r.name}` can only use the `{r.name}` it replaces, not `{target}`",
                       f"write `{r.example}`: a variant keeps only the version each redefinition replaces; to "
                       f"change `{target}` too, redefine it")
            return t.Invalid(ANY, e.span)
        if r.section == "scoring" and isinstance(arg, ast.Call):
            self.error(arg.span, f"a scoring term's earlier version is written `{base_use(r.name)}`: it is computed "
                       "for the same `player`")
            return t.Invalid(ANY, e.span)
        d = self.version(r)
        if r.section == "scoring":
            player = self.lookup("player")
            assert player is not None  # (a scoring term, or the definition of its version, binds it)
            return t.DefineCall(d.name, (t.Ref(player, player.ty, arg.span),), self.define_type(d), e.span)
        call = arg if isinstance(arg, ast.Call) else ast.Call(arg.id, (), (), arg.span)
        if len(call.args) != len(d.params):
            signature = f"{r.name}({', '.join(f'{p.name}: {p.type}' for p in d.params)})"
            self.error(arg.span, f"`{r.name}` as it was before this version ({d.span.short}) takes "
                       f"{len(d.params)} argument(s), {len(call.args)} given", signature)
            return t.Invalid(ANY, e.span)
        args = self.arguments(call, tuple((p.name, p.type) for p in d.params))
        return t.DefineCall(d.name, args, self.define_type(d), e.span)

    def version(self, r: _Version) -> ir.Define:
        """The version `base(...)` uses in `r` as a definition of its own (a scoring term's takes
        `player`), named by its method; its own `base(...)`, if it has one, uses the one before."""
        assert r.earlier is not None
        name = base_version(r.section, r.name, r.depth + 1)
        known = self.versions.get(name)
        if known is not None:
            return known[0]
        earlier = r.earlier
        if isinstance(earlier, ir.Define):
            d = ir.Define(name, earlier.params, earlier.body, earlier.span, earlier.cached)
            example = _base_example(r.name, earlier.params)
        else:
            d = ir.Define(name, (ir.Param("player", entity("player"), earlier.span),), earlier.expr, earlier.span)
            example = r.example
        self.versions[name] = (d, _Version(r.section, r.name, earlier.base, r.depth + 1, example))
        return d

    def with_versions(self, defines: list[t.Define]) -> tuple[t.Define, ...]:
        """The definitions, each followed by its versions that `base(...)` uses, then the scoring
        terms' versions: each a definition like the others."""
        out: list[t.Define] = []
        for d in defines:
            out += [d, *self.versions_of("define", d.name)]
        for term in self.rs.scoring:
            out += self.versions_of("scoring", term.name)
        return tuple(out)

    def versions_of(self, section: str, name: str) -> list[t.Define]:
        found: list[t.Define] = []
        while (version := self.define_bodies.get(base_version(section, name, len(found) + 1))) is not None:
            found.append(version)
        return found

    def generic_fits(self, want: Ty, got: Ty, bindings: dict[str, Ty]) -> bool:
        if want.kind == "optional" and want.elem == entity("T"):  # `value(x)`: x an optional, not `none` alone
            return got.kind == "any" or got.kind == "optional" and self.generic_fits(want.elem, got.elem or ANY,
                                                                                       bindings)
        if want.kind == "entity" and want.name == "T":
            bound = bindings.get("T")
            if bound is None:
                bindings["T"] = got
                return True
            return compatible(bound, got)
        if want.kind in ("list", "set") and want.elem is not None and want.elem.name == "T":
            if got.kind == "any":
                return True
            # a generic list(T) parameter takes any collection (len of a set); set(T) only a set
            if got.kind not in ("list", "set") or (want.kind == "set" and got.kind != "set"):
                return False
            return self.generic_fits(want.elem, got.elem or ANY, bindings)
        return compatible(want, got)

    def arguments(self, e: ast.Call, params: tuple[tuple[str, Ty], ...]) -> tuple[t.Expr, ...]:
        if e.keywords:
            self.error(e.keywords[0].span, f"`{e.func}` takes no keyword arguments")
        if len(e.args) != len(params):
            self.error(e.span, f"`{e.func}` takes {len(params)} argument(s), {len(e.args)} given",
                       f"{e.func}({', '.join(f'{n}: {ty}' for n, ty in params)})")
        out = []
        for i, arg in enumerate(e.args):
            typed = self.expr(arg)
            if i < len(params) and not compatible(params[i][1], typed.ty):
                self.error(arg.span, f"argument `{params[i][0]}` of `{e.func}` must be {params[i][1]}, not {typed.ty}")
            out.append(typed)
        return tuple(out)

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
        self.redefining = version[1] if version is not None else _Version("define", d.name, d.base, 0,
                                                                       _base_example(d.name, d.params))
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

    # -- statements ---------------------------------------------------------------------------
    def effects(self, stmts: tuple[ast.Stmt, ...], params: tuple[ir.Param, ...] = (),
                ) -> tuple[tuple[Symbol, ...], tuple[t.Stmt, ...]]:
        """The effects of a rule (an action's, a trigger's, a phase's start, the setup, a
        procedure's body), with the parameters bound first."""
        self.scopes, self.context = [{}], "effect"
        bound = tuple(self.bind(p.name, p.type, p.span) for p in params)
        block = self.block(stmts)
        # each `let x = []` is annotated with the type the assignments after it give
        return bound, tuple(_annotate_lets(block, self.let_types))

    def block(self, stmts: tuple[ast.Stmt, ...]) -> tuple[t.Stmt, ...]:
        self.scopes.append({})
        out = tuple(self.stmt(s) for s in stmts)
        self.scopes.pop()
        return out

    def stmt(self, s: ast.Stmt) -> t.Stmt:
        match s:
            case ast.Assign():
                return self.assign(s)
            case ast.Let():
                value = self.expr(s.value)
                var = self.bind(s.name, value.ty, s.span)
                if _untyped(value.ty):  # `let x = []`: annotated, with the type later assignments give it
                    self.let_types[var] = value.ty
                    self.let_of[var] = var
                return t.Let(var, value, s.span)
            case ast.CallStmt():
                return self.call_effect(s)
            case ast.Goto():
                phases = [p.name for p in self.rs.phases]
                if s.phase not in phases:
                    self.error(s.span, f"unknown phase `{s.phase}`", did_you_mean(s.phase, phases))
                self.gotos.append((s.phase, s.span))
                return t.Goto(s.phase, s.span)
            case ast.EndTurn():
                return t.EndTurn(s.span)
            case ast.Pass():
                return t.Pass(s.span)
            case ast.Tell():
                return self.tell(s)
            case ast.For():
                domain = self.expr(s.domain)
                elem = self.element(domain.ty, s.domain.span)
                self.scopes.append({})
                var = self.bind(s.var, elem, s.span, item=True)
                body = self.block(s.body)
                self.scopes.pop()
                return t.For(var, domain, body, s.span)
            case ast.If():
                branches = tuple((self.test(test), self.block(branch)) for test, branch in s.branches)
                return t.If(branches, self.block(s.orelse) if s.orelse else (), s.span)
            case ast.Ask():
                return self.ask(s)
            case _:
                assert_never(s)

    def ask(self, s: ast.Ask) -> t.Stmt:
        """`ask seat to choose var in domain:`: the seat decides among the domain's items."""
        seat = self.expr(s.seat)
        self.want(entity("player"), seat.ty, s.seat.span, "the seat asked")
        domain = self.expr(s.domain)
        elem = self.element(domain.ty, s.domain.span)
        known = self.asks.get(s.var)
        if known is not None and unify(known[0], elem) is None:
            self.error(s.span, f"`{s.var}` is chosen as {known[0]} at {known[1].short} and as {elem} here",
                       "the text of a choice names it: give choices of different kinds different names")
        elif known is not None and (s.var in self.secret_asks) != s.secret:
            how = ("secretly", "openly") if s.var in self.secret_asks else ("openly", "secretly")
            self.error(s.span, f"`{s.var}` is chosen {how[0]} at {known[1].short} and {how[1]} here",
                       "the text of a choice names it: give a secret choice and an open one different names")
        elif known is None:
            self.asks[s.var] = (elem, s.span)
            if s.secret:
                self.secret_asks.add(s.var)
        self.scopes.append({})
        var = self.bind(s.var, elem, s.span, item=True)
        body = self.block(s.body)
        self.scopes.pop()
        return t.Ask(seat, var, domain, body, s.span)

    def call_effect(self, s: ast.CallStmt) -> t.Stmt:
        c = s.call
        proc = self.procedures.get(c.func)
        if proc is None:
            if c.func in self.functions or c.func in BUILTINS:
                self.error(c.span, f"`{c.func}(...)` gives a value; as an effect it does nothing",
                           "use it inside an assignment or a condition")
            else:
                self.error(c.span, f"unknown procedure `{c.func}`", did_you_mean(c.func, self.procedures))
            return t.Pass(s.span)
        args = self.arguments(c, tuple((p.name, p.type) for p in proc.params))
        return t.CallEffect(c.func, args, s.span)

    def assign(self, s: ast.Assign) -> t.Stmt:
        target = s.target
        value = self.expr(s.value)
        vt = value.ty
        sym = self.lookup(target.name)
        if sym is None:
            hint = did_you_mean(target.name, self.visible_names()) or f"declare it: let {target.name} = ..."
            self.error(target.span, f"unknown name `{target.name}`", hint)
            return t.Pass(s.span)
        if sym.kind not in ("field", "perfield", "local"):
            self.error(target.span, f"`{target.name}` cannot be changed", "only state fields and local values can")
            return t.Pass(s.span)
        if self.context != "effect":
            self.error(s.span, "an effect cannot run here")
        if target.item is not None or (target.index is not None and sym.kind != "perfield"):
            return self.assign_item(s, sym, value)
        index = None
        if sym.kind == "perfield":
            if target.index is None:
                self.error(target.span, f"`{target.name}` has one value per {sym.per}: say which, "
                           f"`{target.name}[...] = ...`")
                return t.Pass(s.span)
            index = self.expr(target.index)
            self.want(entity(sym.per or ""), index.ty, target.index.span, f"the index of `{target.name}`")
        elif target.index is not None:
            self.error(target.span, f"`{target.name}` is a single value and takes no index")
            return t.Pass(s.span)
        if s.op in ("+=", "-="):
            if not (sym.ty.kind == "set" and compatible(sym.ty, vt)):  # (sets: a union, a difference)
                self.want(INT, sym.ty, target.span, f"the target of `{s.op}`")
                self.want(INT, vt, s.value.span, f"the value added with `{s.op}`")
        elif not compatible(sym.ty, vt) and not (sym in self.let_of and sym.ty.kind == "none"):
            self.error(s.value.span, f"type mismatch: `{target.name}` is {sym.ty}, the value is {vt}",
                       self.optional_hint(vt))
        elif sym in self.let_of and _untyped(sym.ty):
            # a `let x = []` given items: its type (and annotation) is now theirs
            common = unify(sym.ty, vt) or sym.ty
            first = self.let_of[sym]
            self.let_types[first] = common
            for scope in reversed(self.scopes):
                if scope.get(target.name) is sym:
                    scope[target.name] = sym = replace(sym, ty=common)
                    self.let_of[sym] = first
                    break
        return t.Assign(sym, index, s.op, value, s.span)

    def assign_item(self, s: ast.Assign, sym: Symbol, value: t.Expr) -> t.Stmt:
        """`xs[i] = v` of a list field or local, `f[e][i] = v` of a list field per entity: the list
        rebuilt with item i replaced (`+=`, `-=`: a number added to it)."""
        target = s.target
        index = None
        item_node = target.item if target.item is not None else target.index
        assert item_node is not None
        if sym.kind == "perfield":
            assert target.index is not None
            index = self.expr(target.index)
            self.want(entity(sym.per or ""), index.ty, target.index.span, f"the index of `{target.name}`")
        elif target.item is not None:
            self.error(target.span, f"`{target.name}` is a single value: `{target.name}[...][...]` is for a list "
                       "field per entity", f"write `{target.name}[i] = ...`")
            return t.Pass(s.span)
        if sym.ty.kind != "list":
            self.error(target.span, f"`{target.name}` is {sym.ty}: only an item of a list can be replaced",
                       "a set changes with `+=` and `-=`" if sym.ty.kind == "set"
                       else f"assign the whole value: `{target.name} = ...`")
            return t.Pass(s.span)
        item = self.expr(item_node)
        self.want(INT, item.ty, item_node.span, "a list index")
        elem = sym.ty.elem or ANY
        if s.op in ("+=", "-="):
            self.want(INT, elem, target.span, f"the item changed with `{s.op}`")
            self.want(INT, value.ty, s.value.span, f"the value added with `{s.op}`")
        elif not compatible(elem, value.ty):
            self.error(s.value.span, f"type mismatch: the items of `{target.name}` are {elem}, the value is "
                       f"{value.ty}", self.optional_hint(value.ty))
        return t.Assign(sym, index, s.op, value, s.span, item=item)

    # -- the rule set -------------------------------------------------------------------------
    def run(self) -> t.TypedProgram:
        rs = self.rs
        declarations(self.symbols, lambda comp: self.components.extend(self.component_attributes(comp)))
        cycles(rs, self.error)
        fields = []
        for f in rs.fields:
            before = len(self.diags)
            init = self.rule_expr(f.init, "init")
            if isinstance(f.init, ast.Name) and len(self.diags) == before + 1 and f.type in INIT_FORMS:
                # a word where a number, a truth or a text was wanted: say so (not a far-fetched name)
                self.diags[-1] = Diagnostic(f.init.span, f"field `{f.name}` is {f.type}: its init `{f.init.id}` is "
                                            f"not {INIT_FORMS[f.type][0]} (nor a name the rules know)",
                                            INIT_FORMS[f.type][1])
            elif not compatible(f.type, init.ty):
                self.error(f.init.span, f"type mismatch: field `{f.name}` is {f.type}, its init is {init.ty}")
            shown = hidden = seen = None
            if f.shown_if is not None:
                shown = self.rule_expr(f.shown_if, "legal")
                self.want(BOOL, shown.ty, f.shown_if.span, "`shown_if`")
            if f.hide_items_if is not None:
                if f.type.kind != "list" or f.per is not None:
                    self.error(f.hide_items_if.span, "`hide_items_if` is for a list field (not per entity)",
                               "it hides item k of the list while the condition holds")
                hidden = self.rule_expr(f.hide_items_if, "legal", Symbol("local", "k", INT, "k", f.span))
                self.want(BOOL, hidden.ty, f.hide_items_if.span, "`hide_items_if`")
            if f.visible_to is not None:  # (k: the spot, region or die of a per field, the item's place in a list)
                k = Symbol("local", "k", entity(f.per) if f.per else INT, "k", f.span)
                seen = self.rule_expr(f.visible_to, "legal", k)
                if not compatible(entity("player"), seen.ty):
                    self.error(f.visible_to.span, f"`visible: {{to: ...}}` names the player who sees entry or item "
                               f"k: it must be a player, not {seen.ty}",
                               "e.g. `visible: {to: \"layer[k]\"}`, with `layer` a per-spot field of type player")
            fields.append(t.Field(f, init, shown, hidden, seen))
        defines = []
        for d in rs.defines:
            self.define_type(d)
            typed = self.define_bodies.get(d.name)
            if typed is not None and typed.span is d.span:  # (not a second definition of one name)
                defines.append(typed)
        procedures = []
        for p in rs.procedures:
            params, body = self.effects(p.body, p.params)
            procedures.append(t.Procedure(p.name, params, body, p.span))
        # triggers
        action_names = {a.name for a in rs.actions}
        after: dict[str, list[str]] = {a: [] for a in action_names}
        triggers = []
        for trig in rs.triggers:
            when = self.rule_expr(trig.when, "effect", tested=True) if trig.when is not None else None
            _, effect = self.effects(trig.effect)
            method = MEMBER_PATTERNS["trigger"][0].format(trig.name)
            triggers.append(t.Trigger(trig.name, method, when, effect, trig.at == "turn_end", trig.span))
            for ref in trig.after:
                if ref.name not in action_names:
                    self.error(ref.span, f"unknown action `{ref.name}`", did_you_mean(ref.name, action_names))
                else:
                    after[ref.name].append(method)
        # phases
        for what, parts in (("phases", rs.phases), ("actions", rs.actions)):
            if len(parts) > _MAX_COMPONENTS:  # each is one `elif` of a chain, and Python's compiler recurses on those
                self.error(parts[_MAX_COMPONENTS].span, f"more than {_MAX_COMPONENTS} {what}")
        phase_names = [p.name for p in rs.phases]
        if not rs.phases:
            self.error(rs.span, "a rule set needs `phases:`, with at least one phase listing its actions")
        phases = []
        for i, ph in enumerate(rs.phases):
            _, start = self.effects(ph.start)
            listed: set[str] = set()
            for ref in ph.actions:
                if ref.name not in action_names:
                    self.error(ref.span, f"unknown action `{ref.name}`", did_you_mean(ref.name, action_names))
                elif ref.name in listed:
                    self.error(ref.span, f"action `{ref.name}` is listed twice in phase `{ph.name}`")
                listed.add(ref.name)
            if ph.then is not None and ph.then.name not in phase_names:
                self.error(ph.then.span, f"unknown phase `{ph.then.name}`", did_you_mean(ph.then.name, phase_names))
            if not ph.actions:
                self.error(ph.span, f"phase `{ph.name}` lists no actions", "give it `actions: [...]`")
            actor = None
            if ph.actor is not None:
                actor = self.rule_expr(ph.actor, "legal")
                self.want(entity("player"), actor.ty, ph.actor.span, f"the actor of phase `{ph.name}`")
            const = phase_constant(ph.name)
            phases.append(t.Phase(ph.name, const, start, tuple(r.name for r in ph.actions), ph.when_stuck, actor,
                                  ph.span))
            self.tables.constants.append((const, i, "phase"))
        for ph, typed_phase in zip(rs.phases, phases, strict=True):
            if ph.actor is not None and typed_phase.actor is not None and self.uses_deciding(typed_phase.actor):
                self.error(ph.actor.span, f"the actor of phase `{ph.name}` uses `deciding`, the seat it names itself",
                           "name the seat another way: `current`, a field, `auction_bidder(...)`")
        in_phase = {r.name for ph in rs.phases for r in ph.actions}
        actions = []
        for a in rs.actions:
            if a.name not in in_phase:
                self.error(a.span, f"action `{a.name}` belongs to no phase, so it can never be played",
                           "list it in a phase's `actions:`")
            actions.append(self.action(a, after.get(a.name, [])))
        reachability(rs, self.gotos, self.error)
        # setup: effects run once before the first turn, after every field has its init
        _, setup = self.effects(rs.setup)
        # end and scoring
        end = None
        if rs.end is None:
            self.error(rs.span, "the game has no end condition", "add `end: <condition>` (when the game is over)")
        else:
            end = self.rule_expr(rs.end, "end", tested=True)
        if not rs.scoring:
            self.error(rs.span, "the game has no scoring",
                       "add `scoring:` with at least one term, e.g. gold: gold[player]")
        scoring = tuple(t.Score(term.name, self.score_term(term), term.span) for term in rs.scoring)
        tie_break = self.tie_break(rs.tie_break) if rs.tie_break is not None else None
        invariants = self.invariants(rs.invariants)
        return t.TypedProgram(rs, self.tables.freeze(), tuple(self.components), tuple(fields),
                              self.with_versions(defines), tuple(procedures), tuple(triggers), tuple(phases),
                              tuple(actions), setup, end, scoring, tie_break,
                              tuple((name, ty) for name, (ty, _) in sorted(self.asks.items())), invariants,
                              tuple(sorted(self.secret_asks)))

    def invariants(self, declared: tuple[ir.Invariant, ...]) -> tuple[t.Invariant, ...]:
        """Each invariant a condition like `end:`, but true or false only: a bool over the game,
        no chance, no locals."""
        out = []
        for inv in declared:
            typed = self.rule_expr(inv.expr, f"invariant `{inv.name}`")
            self.want(BOOL, typed.ty, inv.expr.span, f"invariant `{inv.name}`")
            out.append(t.Invariant(inv.name, typed, inv.doc, inv.span))
        return tuple(out)

    def tie_break(self, e: ast.Expr) -> t.Expr:
        """An int over `player`, or a list of ints compared item by item (a lexicographic tie-break:
        the first that differs decides)."""
        typed = self.rule_expr(e, "score", Symbol("local", "player", entity("player"), "player", e.span))
        if not (compatible(INT, typed.ty) or compatible(list_of(INT), typed.ty)):
            self.error(e.span, f"type mismatch: `tie_break` must be int or list(int), not {typed.ty}",
                       "e.g. `tie_break: \"[gold[player], tiles[player]]\"`: the first that differs decides")
        return typed

    def uses_deciding(self, e: t.Expr, seen: set[str] | None = None) -> bool:
        """Whether an expression reads `deciding`, itself or through the definitions it uses."""
        seen = set() if seen is None else seen
        todo = [e]
        while todo:
            x = todo.pop()
            if isinstance(x, t.Ref) and x.sym.kind == "value" and x.sym.name == "deciding":
                return True
            if isinstance(x, t.DefineCall) and x.define not in seen:
                seen.add(x.define)
                body = self.define_bodies.get(x.define)
                if body is not None:
                    todo.append(body.body)
            todo.extend(t.subexpressions(x))
        return False

    def score_term(self, term: ir.ScoreTerm) -> t.Expr:
        """A scoring term: a number for each player; `base({name})` in it is the version it replaced."""
        self.redefining = _Version("scoring", term.name, term.base, 0, base_use(term.name))
        typed = self.per_player(term.expr, f"scoring term `{term.name}`")
        self.redefining = None
        return typed

    def per_player(self, e: ast.Expr, what: str) -> t.Expr:
        """A number computed for each player (`player` in it): a scoring term, the tie-break."""
        typed = self.rule_expr(e, "score", Symbol("local", "player", entity("player"), "player", e.span))
        self.want(INT, typed.ty, e.span, what)
        return typed

    def action(self, a: ir.Action, triggers: list[str]) -> t.Action:
        when = self.rule_expr(a.when, "legal", tested=True) if a.when is not None else None
        self.scopes, self.context = [{}], "legal"
        choices = []
        for c in a.choices:
            domain = self.expr(c.domain)
            var = self.bind(c.name, self.element(domain.ty, c.domain.span), c.span, item=True)
            choices.append(t.Choice(var, domain, c.span))
        kinds = {c.name: self.lookup(c.name) for c in a.choices}
        parts, named, unknown = self.text_parts(a.text, a, kinds, a.span, "the text")
        if not named and a.choices and not unknown:
            self.error(a.span, f"the text of `{a.name}` must show its choices",
                       f"e.g. text: \"{a.name} {{{a.choices[0].name}}}\"")
        others: tuple[tuple[str, str | None], ...] | None = None
        revealed: t.Expr | None = None
        if a.others_text is not None:
            span = a.others_span or a.span
            others_parts, others_named, unknown = self.text_parts(a.others_text, a, kinds, span, "the others' text")
            others = tuple(others_parts)
            if not unknown and named <= others_named:
                # nothing is hidden: the others would read all the text shows of the choices
                self.error(span, f"the others' text of `{a.name}` still names every choice its text shows"
                           f" ({', '.join(f'`{{{n}}}`' for n in sorted(named)) or 'none'}): it hides nothing",
                           "leave out the hidden choice (`others_text: \"card in {r}\"`), or drop `others_text:`")
        if a.revealed_when is not None:
            if a.others_text is None:
                self.error(a.revealed_when.span, f"`revealed_when` of `{a.name}` without `others_text`: "
                           "everyone reads the whole text already", "add `others_text:`, or drop `revealed_when:`")
            revealed = self.expr(a.revealed_when)
            self.want(BOOL, revealed.ty, a.revealed_when.span, "`revealed_when`")
        # the effect sees the choices
        self.context = "effect"
        outer = self.scopes
        block = self.block(a.effect)
        self.scopes = outer
        effect = tuple(_annotate_lets(block, self.let_types))
        then = tuple(
            (i, next(j for j, q in enumerate(self.rs.phases) if q.name == ph.then.name))
            for i, ph in enumerate(self.rs.phases)
            if ph.then is not None and any(r.name == a.name for r in ph.actions)
            and any(q.name == ph.then.name for q in self.rs.phases)
        )
        return t.Action(a.name, when, tuple(choices), tuple(parts), effect, tuple(triggers), then, a.span,
                        others, revealed)

    def tell(self, s: ast.Tell) -> t.Tell:
        """`tell "{winner} wins the revolt in {k}"`: each part between braces an expression in
        scope here, written as a move's text writes a choice of its type."""
        parts: list[tuple[str, str | None]] = []
        args: list[t.Expr] = []
        for part in s.parts:
            if isinstance(part, str):
                parts.append((part, None))
                continue
            arg = self.expr(part)
            ty = arg.ty.elem if arg.ty.kind == "optional" and arg.ty.elem is not None else arg.ty
            if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind in ("int", "bool", "entity",
                                                                                        "enum", "record"):
                fmt = f"list:{ty.elem.name or ty.elem.kind}"
            elif ty.kind in ("int", "bool", "str", "entity", "enum", "record"):
                fmt = ty.name or ty.kind
            else:
                self.error(part.span, f"a told text cannot show a value of type {arg.ty}",
                           "show a number, a name (a seat, a spot, a value), or a list of them: `{score[p]}`")
                fmt = "int"
            parts.append(("", fmt))
            args.append(arg)
        return t.Tell(tuple(parts), tuple(args), s.span)

    def text_parts(self, text: str, a: ir.Action, kinds: dict[str, Symbol | None], span: SourceSpan,
                   what: str) -> tuple[list[tuple[str, str | None]], set[str], bool]:
        """A text template of `a` as parts (literal text, or a choice's python name and format kind),
        the choices it names, and whether it names something that is not one of them."""
        parts: list[tuple[str, str | None]] = []
        named: set[str] = set()
        unknown = False
        pos = 0
        for m in re.finditer(r"\{([^{}]*)\}", text):
            if m.start() > pos:
                parts.append((text[pos:m.start()], None))
            sym = kinds.get(m.group(1))
            if sym is None:
                unknown = True
                self.error(span, f"{what} of `{a.name}` names `{{{m.group(1)}}}`, which is not one of its choices",
                           did_you_mean(m.group(1), kinds) or f"choices: {', '.join(kinds) or 'none'}")
            else:
                named.add(m.group(1))
                ty = sym.ty
                if ty.kind == "optional" and ty.elem is not None:  # (`none` is shown as such)
                    ty = ty.elem
                fmt = f"list:{ty.elem.name}" if ty.kind in ("list", "set") and ty.elem else (ty.name or ty.kind)
                parts.append((sym.py, fmt))
            pos = m.end()
        if pos < len(text):
            parts.append((text[pos:], None))
        return parts, named, unknown



def _base_example(name: str, params: tuple[ir.Param, ...]) -> str:
    """How `base(...)` is written in a new version of definition `name`: `base(rent(a))`."""
    return base_use(name, ", ".join(p.name for p in params) if params else None)


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


def _annotate_lets(stmts: tuple[t.Stmt, ...], let_types: dict[Symbol, Ty]) -> list[t.Stmt]:
    """The statements with each `let x = []` given the type that later assignments give `x`."""
    out: list[t.Stmt] = []
    for s in stmts:
        match s:
            case t.Let() if s.var in let_types:
                s = replace(s, annotation=let_types[s.var])
            case t.For() | t.Ask():
                s = replace(s, body=tuple(_annotate_lets(s.body, let_types)))
            case t.If():
                s = replace(s, branches=tuple((test, tuple(_annotate_lets(b, let_types))) for test, b in s.branches),
                            orelse=tuple(_annotate_lets(s.orelse, let_types)))
        out.append(s)
    return out


def _untyped(ty: Ty) -> bool:
    """Whether a type holds the item type of an empty `[]` or `{}`, unknown."""
    return ty.kind in ("any", "none") or ty.elem is not None and _untyped(ty.elem)



@dataclass(frozen=True, slots=True)
class Checked:
    """All the checker finds in a rule set, problems or not (`check_partial`)."""

    diagnostics: list[Diagnostic]  # as `check` gives them: each once, in the order of the files
    # typed even where the rules have problems (a wrong expression is `Invalid`); None only when
    # the rules nest too deeply to be checked
    program: t.TypedProgram | None
    names: dict[str, Symbol]  # the rule set's global names: fields, options, values, seats ...


def check_partial(rs: ir.RuleSet) -> Checked:
    """Check a rule set; returns its problems, and its typed program even when it has some: what
    a tool that looks at rules being written (the language server, api/ruleindex.py) needs."""
    checker = _Checker(rs)
    try:
        program: t.TypedProgram | None = checker.run()
    except RecursionError:  # the limits on nesting should make this unreachable; never a traceback, though
        checker.error(rs.span, "the rules nest too deeply to be checked",
                      "definitions using definitions, each deeply nested: flatten a few")
        program = None
    unique: dict[tuple[SourceSpan, str], Diagnostic] = {}
    for d in checker.diags:
        unique.setdefault((d.span, d.message), d)
    ordered = sorted(unique.values(), key=lambda d: (d.span.path, d.span.line, d.span.col))
    return Checked(ordered, program, dict(checker.globals))


def check(rs: ir.RuleSet) -> tuple[list[Diagnostic], t.TypedProgram | None]:
    """Check a rule set; returns its problems and, if it has none, its typed program."""
    checked = check_partial(rs)
    return checked.diagnostics, None if checked.diagnostics else checked.program
