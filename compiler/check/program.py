"""The rule set checked in order: its names bound (declare.py), definitions and procedures
refused where they use themselves (cycles.py), then every rule typed, section by section (the
fields, definitions, procedures, triggers, phases, actions, setup, end and scoring), the phases'
reachability (reachability.py), and the `TypedProgram` made of it all.

The order is the one the diagnostics are found in (and, at one place, shown in), so it is kept
as it is here.
"""

from __future__ import annotations

from ...core.source import Diagnostic, did_you_mean
from .. import ast, ir
from .. import typed as t
from ..names import MEMBER_PATTERNS, base_use, phase_constant
from ..typed import Symbol
from ..types import BOOL, INT, STR, compatible, entity, list_of
from .actions import action
from .cycles import cycles
from .declare import declarations
from .effects import EffectTyper
from .exprs import ExprTyper
from .look import check_look_boards, check_look_reads, look_texts
from .reachability import reachability
from .symbols import Symbols
from .typer import Version
from .versions import with_versions

# More phases or actions than this make generated code Python cannot compile.
_MAX_COMPONENTS = 1000
# The plain types whose init is a literal, as a type message names them: what a value of that
# type is, and how one is written.
INIT_FORMS = {
    INT: ("an int", 'an int is a number or an expression giving one, e.g. `init: 0` or `init: "3000"`'),
    BOOL: ("a bool", "a bool is `true` or `false`, or an expression giving one"),
    STR: ("a str", """a text is quoted inside the expression, e.g. `init: "'yes'"`"""),
}


def run(symbols: Symbols) -> t.TypedProgram:
    """The typed program of `symbols.rs`, every problem found reported in `symbols.diags`."""
    rs = symbols.rs
    x = ExprTyper(symbols)
    fx = EffectTyper(x)
    components: list[t.ComponentAttribute] = []
    declarations(symbols, lambda comp: components.extend(x.component_attributes(comp)))
    cycles(rs, symbols.error)
    fields = [_field(x, f) for f in rs.fields]
    defines = []
    for d in rs.defines:
        x.define_type(d)
        typed = x.define_bodies.get(d.name)
        if typed is not None and typed.span is d.span:  # (not a second definition of one name)
            defines.append(typed)
    procedures = []
    for p in rs.procedures:
        params, body = fx.effects(p.body, p.params)
        procedures.append(t.Procedure(p.name, params, body, p.span))
    triggers, after = _triggers(fx)
    phases = _phases(fx)
    actions = _actions(fx, after)
    reachability(rs, fx.gotos, symbols.error)
    # setup: effects run once before the first turn, after every field has its init
    _, setup = fx.effects(rs.setup)
    # end and scoring
    end = None
    if rs.end is None:
        x.error(rs.span, "the game has no end condition", "add `end: <condition>` (when the game is over)")
    else:
        end = x.rule_expr(rs.end, "end", tested=True)
    if not rs.scoring:
        x.error(rs.span, "the game has no scoring", "add `scoring:` with at least one term, e.g. gold: gold[player]")
    scoring = tuple(t.Score(term.name, _score_term(x, term), term.span) for term in rs.scoring)
    tie_break = _tie_break(x, rs.tie_break) if rs.tie_break is not None else None
    invariants = _invariants(x, rs.invariants)
    returns = _returns(x, rs) if rs.returns is not None else None
    if rs.look is not None:
        check_look_boards(rs.look, symbols.boards.tables, symbols.error)
    texts = look_texts(x, rs, actions, fx.asks)
    program = t.TypedProgram(rs, symbols.tables.freeze(), tuple(components), tuple(fields),
                             with_versions(defines, x.define_bodies, rs.scoring), tuple(procedures), tuple(triggers),
                             tuple(phases), tuple(actions), setup, end, scoring, tie_break,
                             tuple((name, ty) for name, (ty, _) in sorted(fx.asks.items())), invariants,
                             tuple(sorted(fx.secret_asks)), returns=returns, look_texts=texts)
    check_look_reads(program, symbols.error)
    return program


def _field(x: ExprTyper, f: ir.Field) -> t.Field:
    """A field: its init, and the conditions that hide it or its items from a player."""
    diags = x.symbols.diags
    before = len(diags)
    init = x.rule_expr(f.init, "init")
    if isinstance(f.init, ast.Name) and len(diags) == before + 1 and f.type in INIT_FORMS:
        # a word where a number, a truth or a text was wanted: say so (not a far-fetched name)
        diags[-1] = Diagnostic(f.init.span, f"field `{f.name}` is {f.type}: its init `{f.init.id}` is "
                               f"not {INIT_FORMS[f.type][0]} (nor a name the rules know)", INIT_FORMS[f.type][1])
    elif not compatible(f.type, init.ty):
        x.error(f.init.span, f"type mismatch: field `{f.name}` is {f.type}, its init is {init.ty}")
    shown = hidden = seen = None
    if f.shown_if is not None:
        shown = x.rule_expr(f.shown_if, "legal")
        x.want(BOOL, shown.ty, f.shown_if.span, "`shown_if`")
    if f.hide_items_if is not None:
        if f.type.kind != "list" or f.per is not None:
            x.error(f.hide_items_if.span, "`hide_items_if` is for a list field (not per entity)",
                    "it hides item k of the list while the condition holds")
        hidden = x.rule_expr(f.hide_items_if, "legal", Symbol("local", "k", INT, "k", f.span))
        x.want(BOOL, hidden.ty, f.hide_items_if.span, "`hide_items_if`")
    if f.visible_to is not None:  # (k: the spot, region or die of a per field, the item's place in a list)
        k = Symbol("local", "k", entity(f.per) if f.per else INT, "k", f.span)
        seen = x.rule_expr(f.visible_to, "legal", k)
        if not compatible(entity("player"), seen.ty):
            x.error(f.visible_to.span, f"`visible: {{to: ...}}` names the player who sees entry or item "
                    f"k: it must be a player, not {seen.ty}",
                    "e.g. `visible: {to: \"layer[k]\"}`, with `layer` a per-spot field of type player")
    return t.Field(f, init, shown, hidden, seen)


def _triggers(fx: EffectTyper) -> tuple[list[t.Trigger], dict[str, list[str]]]:
    """The triggers, and for each action the methods of those that run after it."""
    x = fx.exprs
    action_names = {a.name for a in x.rs.actions}
    after: dict[str, list[str]] = {a: [] for a in action_names}
    triggers = []
    for trig in x.rs.triggers:
        when = x.rule_expr(trig.when, "effect", tested=True) if trig.when is not None else None
        _, effect = fx.effects(trig.effect)
        method = MEMBER_PATTERNS["trigger"][0].format(trig.name)
        triggers.append(t.Trigger(trig.name, method, when, effect, trig.at == "turn_end", trig.span))
        for ref in trig.after:
            if ref.name not in action_names:
                x.error(ref.span, f"unknown action `{ref.name}`", did_you_mean(ref.name, action_names))
            else:
                after[ref.name].append(method)
    return triggers, after


def _phases(fx: EffectTyper) -> list[t.Phase]:
    """The phases: each its start, the actions it lists, the phase after it and its actor (who
    may not be named by `deciding`, the seat the actor names)."""
    x = fx.exprs
    rs = x.rs
    for what, parts in (("phases", rs.phases), ("actions", rs.actions)):
        if len(parts) > _MAX_COMPONENTS:  # each is one `elif` of a chain, and Python's compiler recurses on those
            x.error(parts[_MAX_COMPONENTS].span, f"more than {_MAX_COMPONENTS} {what}")
    if not rs.phases:
        x.error(rs.span, "a rule set needs `phases:`, with at least one phase listing its actions")
    phases = [_phase(fx, i, ph) for i, ph in enumerate(rs.phases)]
    for ph, typed_phase in zip(rs.phases, phases, strict=True):
        if ph.actor is not None and typed_phase.actor is not None and _uses_deciding(x, typed_phase.actor):
            x.error(ph.actor.span, f"the actor of phase `{ph.name}` uses `deciding`, the seat it names itself",
                    "name the seat another way: `current`, a field, `auction_bidder(...)`")
        together = typed_phase.simultaneous
        if ph.simultaneous is not None and together is not None and _uses_deciding(x, together):
            x.error(ph.simultaneous.span, f"the seats of simultaneous phase `{ph.name}` use `deciding`, which is "
                                          "each of them in turn", "name them another way: `players`, a comprehension")
    return phases


def _phase(fx: EffectTyper, i: int, ph: ir.Phase) -> t.Phase:
    x = fx.exprs
    action_names = {a.name for a in x.rs.actions}
    phase_names = [p.name for p in x.rs.phases]
    _, start = fx.effects(ph.start)
    listed: set[str] = set()
    for ref in ph.actions:
        if ref.name not in action_names:
            x.error(ref.span, f"unknown action `{ref.name}`", did_you_mean(ref.name, action_names))
        elif ref.name in listed:
            x.error(ref.span, f"action `{ref.name}` is listed twice in phase `{ph.name}`")
        listed.add(ref.name)
    if ph.then is not None and ph.then.name not in phase_names:
        x.error(ph.then.span, f"unknown phase `{ph.then.name}`", did_you_mean(ph.then.name, phase_names))
    if not ph.actions:
        x.error(ph.span, f"phase `{ph.name}` lists no actions", "give it `actions: [...]`")
    actor = None
    if ph.actor is not None:
        actor = x.rule_expr(ph.actor, "legal")
        x.want(entity("player"), actor.ty, ph.actor.span, f"the actor of phase `{ph.name}`")
    simultaneous = None
    if ph.simultaneous is not None:  # several seats choose at once: who is to act is each of them
        simultaneous = x.rule_expr(ph.simultaneous, "legal")
        x.want(list_of(entity("player")), simultaneous.ty, ph.simultaneous.span,
               f"the seats of simultaneous phase `{ph.name}`")
        if ph.actor is not None:
            x.error(ph.simultaneous.span, f"phase `{ph.name}` names both an `actor:` and the seats that choose "
                                          "at once (`simultaneous:`)",
                    "keep one: `actor:` for one seat deciding, `simultaneous:` for several choosing together")
    const = phase_constant(ph.name)
    x.symbols.tables.constants.append((const, i, "phase"))
    return t.Phase(ph.name, const, start, tuple(r.name for r in ph.actions), ph.when_stuck, actor, ph.span,
                   simultaneous)


def _uses_deciding(x: ExprTyper, e: t.Expr) -> bool:
    """Whether an expression reads `deciding`, itself or through the definitions it uses."""
    seen: set[str] = set()
    todo = [e]
    while todo:
        node = todo.pop()
        if isinstance(node, t.Ref) and node.sym.kind == "value" and node.sym.name == "deciding":
            return True
        if isinstance(node, t.DefineCall) and node.define not in seen:
            seen.add(node.define)
            body = x.define_bodies.get(node.define)
            if body is not None:
                todo.append(body.body)
        todo.extend(t.subexpressions(node))
    return False


def _actions(fx: EffectTyper, after: dict[str, list[str]]) -> list[t.Action]:
    """The actions, each listed in a phase; `after`: the triggers that run after each."""
    in_phase = {r.name for ph in fx.exprs.rs.phases for r in ph.actions}
    actions = []
    for a in fx.exprs.rs.actions:
        if a.name not in in_phase:
            fx.exprs.error(a.span, f"action `{a.name}` belongs to no phase, so it can never be played",
                           "list it in a phase's `actions:`")
        actions.append(action(fx, a, after.get(a.name, [])))
    return actions


def _invariants(x: ExprTyper, declared: tuple[ir.Invariant, ...]) -> tuple[t.Invariant, ...]:
    """Each invariant a condition like `end:`, but true or false only: a bool over the game,
    no chance, no locals."""
    out = []
    for inv in declared:
        typed = x.rule_expr(inv.expr, f"invariant `{inv.name}`")
        x.want(BOOL, typed.ty, inv.expr.span, f"invariant `{inv.name}`")
        out.append(t.Invariant(inv.name, typed, inv.doc, inv.span))
    return tuple(out)


def _tie_break(x: ExprTyper, e: ast.Expr) -> t.Expr:
    """An int over `player`, or a list of ints compared item by item (a lexicographic tie-break:
    the first that differs decides)."""
    typed = x.rule_expr(e, "score", Symbol("local", "player", entity("player"), "player", e.span))
    if not (compatible(INT, typed.ty) or compatible(list_of(INT), typed.ty)):
        x.error(e.span, f"type mismatch: `tie_break` must be int or list(int), not {typed.ty}",
                "e.g. `tie_break: \"[gold[player], tiles[player]]\"`: the first that differs decides")
    return typed


def _returns(x: ExprTyper, rs: ir.RuleSet) -> t.Expr:
    """`returns:`, each seat's return once the game is over: an int over `player` that reads the
    game and draws no chance. The winners are then the seats of the highest return, so a rule
    deciding them by score (`tie_break:`, `winner: lowest_score`) would be ignored: refused."""
    assert rs.returns is not None
    e = rs.returns.value
    typed = x.rule_expr(e, "returns", Symbol("local", "player", entity("player"), "player", e.span))
    x.want(INT, typed.ty, e.span, "`returns:`")
    if rs.tie_break is not None:
        x.error(rs.tie_break.span, "`tie_break:` decides winners by score, but with `returns:` the winners are "
                "the seats of the highest return", "remove `tie_break:`, or fold it into `returns:`")
    if rs.winner == "lowest_score":
        x.error(rs.returns.span, "`winner: lowest_score` decides winners by score, but with `returns:` the "
                "winners are the seats of the highest return", "remove `winner:`, or negate the score in `returns:`")
    return typed


def _score_term(x: ExprTyper, term: ir.ScoreTerm) -> t.Expr:
    """A scoring term: a number for each player (`player` in it); `base({name})` in it is the
    version it replaced."""
    x.redefining = Version("scoring", term.name, term.base, 0, base_use(term.name))
    typed = x.rule_expr(term.expr, "score", Symbol("local", "player", entity("player"), "player", term.expr.span))
    x.want(INT, typed.ty, term.expr.span, f"scoring term `{term.name}`")
    x.redefining = None
    return typed
