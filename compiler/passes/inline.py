"""Pass `inline`: a small definition's body written where it is called.

`province_of(s)` is `region_of(s, province)`: a call of the method `self.province_of(s)` does
more work than the one table look-up it returns. Every call `d(args)` of a small definition `d`
is replaced by `d`'s body with its parameters replaced by the arguments (in a `t.Note`, so that
the generated line says so: `# base.yaml:379; inlined pays_for (base.yaml:336)`). The
definition itself stays, as a method of the state (tools, tests and scenarios call it).

Why it is the same game: definitions only read the game (the checker refuses chance in them, and
they have no effects), so a body computes from its arguments what the call computed. What could
differ is how often, and whether, an argument is evaluated; so an argument is put in place of
its parameter only when that changes nothing that shows:

- an argument that is a name or a literal, any number of times (reading it again is free);
- any other, only where the body reads its parameter once and not in a loop of its own (never
  computed twice), and, if the body might not read it at all there (under `and`, `or` or
  `if`), or does not read it at all, only when it cannot fail (compiler/passes/rewrite.py
  `can_fail`): a call whose argument fails stops the game with that error, and so must the
  code written for it.

Otherwise the call is kept; but a body that is one comprehension (`count(h == a for h in hand)`)
takes each argument that is not a name or a literal in clauses of its own before its first,
`sum(1 for a in (TILE_ANIMAL[t],) for h in ... if h == a)`: each computed once, in order, before
the body, as the call computes them. The locals the body binds itself (a comprehension's variable) get
fresh names, which no name of the rules takes, so an argument can never be captured by them.

Small: at most SMALL nodes once the definitions it calls are inlined into it, calling none that
is not (its work is then known where it is written), its loops only over what the board or the
rules bound (spots, a region, an enumeration: not a list only the game bounds, which the
definition checks as it starts), not `cached: true` (its value is remembered per state). A
definition without parameters is remembered while the legal actions are listed: it is inlined
only when its body has no loop, being then as cheap as looking it up. An inlined body counts
the step of the call it replaces (compiler/lower/): the limits of a move are counted as they were.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.keeping import worth_keeping
from ..analysis.sizes import bounded
from ..analysis.walk import clauses, nodes
from ..types import Ty
from .intersect_components import sized, taken
from .mask_values import walkless
from .rewrite import Names, can_fail, fused_shape, map_program, rebuild, where, with_clauses

SMALL = 32  # nodes of a body inlined at most (docs/optimiser.md, `inline`: Chang Cheng's `single_space`, 31)
_OPPOSITE = {"in": "not in", "not in": "in", "==": "!=", "!=": "=="}


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    try:
        return Inliner(program, facts.enabled).program()
    except RecursionError:  # (nesting is limited by the parser; even so) the program as it is, not optimised
        return program


class Inliner:
    def __init__(self, program: t.TypedProgram, enabled: frozenset[str]) -> None:
        self.typed = program
        self.enabled = enabled  # the passes that run
        self.defines = {d.name: d for d in program.defines}
        self.names = Names(program)
        self.bodies: dict[str, t.Expr] = {}  # each definition's body, with the calls inside it inlined
        self.failing: dict[str, bool] = {}

    def program(self) -> t.TypedProgram:
        def root(e: t.Expr) -> t.Expr:
            self.names.begin()
            return self.expr(e)

        program = map_program(self.typed, root)
        # a definition's own body: the one its callers were given (computed once, with its names)
        return replace(program, defines=tuple(replace(d, body=self.body(d.name)) for d in self.typed.defines))

    def body(self, name: str) -> t.Expr:
        if name not in self.bodies:
            self.bodies[name] = self.expr(self.defines[name].body)  # (no definition uses itself: check.cycles)
        return self.bodies[name]

    def small(self, d: t.Define, body: t.Expr) -> bool:
        if d.cached or sized(self.typed, body, self.defines) > SMALL:  # (pass `intersect_components`: a set operation)
            return False
        if "keep_derived" in self.enabled and worth_keeping(
                d, lambda x: walkless(self.typed, x, self.defines)):
            return False  # pass `keep_derived` keeps its value between moves: cheaper than computing it where called
        if any(isinstance(n, t.DefineCall) for n in nodes(body)):
            return False  # calls a definition that is not small: its work is only known there
        if any(isinstance(n, t.Collection) and not n.items for n in nodes(body)):
            return False  # `[]`: its item type is the definition's to say (generated code is annotated)
        loops = [n for n in nodes(body) if isinstance(n, t.Comprehension)
                 and taken(self.typed, n, self.defines) is None]  # (pass `intersect_components`: a set operation)
        if not d.params:  # remembered while listing: inlined only if as cheap as the look-up
            return not loops
        # a loop only over what the board or the rules bound (spots, a region, an enumeration):
        # its work is known where it is written, as it was in the definition
        return all(bounded(domain) for loop in loops for _, domain, _ in clauses(loop))

    def expr(self, e: t.Expr) -> t.Expr:
        e = rebuild(e, self.expr)
        if isinstance(e, t.DefineCall):
            return self.call(e)
        if isinstance(e, t.Unary) and e.op == "not" and isinstance(e.operand, t.Note):
            # `not` of a test inlined is the opposite test: `s not in xs`, not `not (s in xs)`
            test = e.operand.expr
            if isinstance(test, t.Binary) and test.op in _OPPOSITE:
                return replace(e.operand, expr=replace(test, op=_OPPOSITE[test.op]), ty=e.ty)
        return e

    def call(self, e: t.DefineCall) -> t.Expr:
        d = self.defines[e.define]
        body = self.body(d.name)
        if not self.small(d, body):
            return e
        note = f"{d.name} ({where(d.span)})"
        inner = body.expr if isinstance(body, t.Note) else body
        if isinstance(inner, t.Comprehension) and not fused_shape(inner):
            return self.bound(e, d, inner, note)
        uses = _uses(body, set(d.params))
        for p, arg in zip(d.params, e.args, strict=True):
            if _trivial(arg):
                continue
            times, looped, guarded = uses.get(p, (0, False, False))
            if times > 1 or looped:
                return e  # it would be computed more than once: the call is kept
            if (times == 0 or guarded) and can_fail(arg, self.defines, self.failing):
                return e  # it might not be computed at all, and could fail: the call is kept
        inlined = self.substitute(body, {p: arg for p, arg in zip(d.params, e.args, strict=True)})
        return t.Note("inlined", note, inlined, e.ty, e.span)

    def bound(self, e: t.DefineCall, d: t.Define, body: t.Comprehension, note: str) -> t.Expr:
        """A body that is one comprehension: each argument that is not a name or a literal is
        bound once, in order, by clauses before its first (`sum(1 for a in (v,) for t in xs if
        ...)`), just as the call computes each once before its body."""
        env: dict[t.Symbol, t.Expr] = {}
        first: list[tuple[t.Symbol, t.Expr, t.Expr | None]] = []
        for p, arg in zip(d.params, e.args, strict=True):
            if _trivial(arg):
                env[p] = arg
                continue
            sym = self.names.symbol(p)
            env[p] = t.Ref(sym, p.ty, arg.span)
            one = t.Collection("list", (arg,), _list_of(arg.ty), arg.span)
            first.append((sym, t.Note("inlined", note, one, one.ty, arg.span), None))
        inlined = self.substitute(body, env)
        assert isinstance(inlined, t.Comprehension)
        if first:
            inlined = with_clauses(inlined, [*first, *clauses(inlined)], inlined.elt)
        return t.Note("inlined", note, inlined, e.ty, e.span)

    def substitute(self, e: t.Expr, env: dict[t.Symbol, t.Expr]) -> t.Expr:
        """`e` with each local of `env` replaced by its expression, and every local `e` binds
        itself renamed to a fresh one."""
        match e:
            case t.Ref():
                return env.get(e.sym, e)
            case t.Comprehension():
                inner = dict(env)
                new: list[tuple[t.Symbol, t.Expr, t.Expr | None]] = []
                for var, domain, cond in ((e.var, e.domain, e.cond), *e.more):
                    domain = self.substitute(domain, inner)
                    fresh = self.names.symbol(var)
                    inner[var] = t.Ref(fresh, var.ty, var.span or e.span)
                    new.append((fresh, domain, None if cond is None else self.substitute(cond, inner)))
                (var, domain, cond), *more = new
                return replace(e, var=var, domain=domain, cond=cond, elt=self.substitute(e.elt, inner),
                               more=tuple(more))
        return rebuild(e, lambda part: self.substitute(part, env))


def _list_of(ty: Ty) -> Ty:
    return Ty("list", "", ty)


def _trivial(e: t.Expr) -> bool:
    """Free to compute again: a name (a local, a field of the state, a constant) or a literal."""
    return isinstance(e, t.Num | t.Str | t.Bool | t.Ref)


def _uses(body: t.Expr, params: set[t.Symbol]) -> dict[t.Symbol, tuple[int, bool, bool]]:
    """For each parameter the body reads: how many times it is named, whether once in a loop
    (a comprehension of the body: computed for each item), whether once where it may not be
    computed (the right of `and`/`or`, a branch of `if`)."""
    out: dict[t.Symbol, tuple[int, bool, bool]] = {}

    def walk(e: t.Expr, looped: bool, guarded: bool) -> None:
        match e:
            case t.Ref():
                if e.sym in params:
                    times, was_looped, was_guarded = out.get(e.sym, (0, False, False))
                    out[e.sym] = (times + 1, was_looped or looped, was_guarded or guarded)
            case t.Binary(op="and" | "or"):
                walk(e.left, looped, guarded)
                walk(e.right, looped, True)
            case t.Cond():
                walk(e.test, looped, guarded)
                walk(e.then, looped, True)
                walk(e.orelse, looped, True)
            case t.Comprehension():
                walk(e.domain, looped, guarded)
                for part in t.subexpressions(e)[1:]:
                    walk(part, True, True)
            case _:
                for part in t.subexpressions(e):
                    walk(part, looped, guarded)

    walk(body, False, False)
    return out
