"""The walk of one rule set: its fields, definitions, procedures, triggers, phases, actions, the setup
and the end, each lowered by the module of its syntax, into the `Program` codegen lays out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.walk import nodes
from ..lowered import LoweredFunction, LoweredLookText, LoweredPhase, LoweredTrigger, Program
from ..names import MEMBER_PATTERNS
from ..pyir import Call, Constant, Name
from ..typed import Ref
from . import actions, boards, counts, definitions, effects, limits
from .code import _annotation, answer_format
from .lowerer import END_SLOT, _asks

if TYPE_CHECKING:
    from .lowerer import Lowerer


# -- the rule set -------------------------------------------------------------------------
def run(lo: Lowerer) -> Program:
    typed, prog = lo.typed, lo.program
    definitions.component_tables(lo)
    for f in typed.fields:
        prog.fields.append(definitions.field(lo, f))
    boards.keep_region_tests(lo)
    for d in typed.defines:
        prog.defines.append(definitions.define(lo, d))
    for p in typed.procedures:
        params, body = definitions.procedure(lo, p)
        steps = p.name in lo.suspending
        prog.procedures.append(LoweredFunction(p.name, params, "rt.Steps" if steps else "None", body, p.span,
                                               steps=steps))
    triggers(lo)
    phases(lo)
    actions.lower_actions(lo)
    # setup: effects run once before the first turn, after every field has its init
    before = lo.charges
    prog.setup = effects.effects(lo, typed.setup, typed.rules.span)
    limits.mark(lo, before, "setup")
    prog.setup_steps = _asks(typed.setup, lo.suspending)
    prog.asks = [(name, answer_format(ty)) for name, ty in typed.asks]
    prog.secret_asks = typed.secret_asks
    prog.journal = lo.journal
    prog.suspends = (prog.setup_steps or prog.turn_end_steps or any(a.steps for a in prog.actions)
                     or any(ph.steps for ph in prog.phases))
    ending(lo)
    look_texts(lo)
    prog.records = [(r.name, tuple((name, str(ty)) for name, ty in r.fields)) for r in typed.rules.records]
    prog.resets = frozenset(lo.resets)
    prog.charging = frozenset(lo.charging)
    prog.called = frozenset(lo.called)
    boards.kept_masks(lo)
    counts.kept(lo)  # (pass `keep_counts`) the counts kept up to date, and the methods making them again
    prog.board_lookups = [(slot, *found) for slot, found in lo.board_lookups.items()]
    return prog


def triggers(lo: Lowerer) -> None:
    """The triggers, each a rule of its own: its condition and its effects."""
    typed, prog = lo.typed, lo.program
    for trig in typed.triggers:
        before = lo.charges
        lo.assigned = frozenset()
        when = effects.condition_node(lo, trig.when, "") if trig.when is not None else None
        effect = effects.effects(lo, trig.effect, trig.span)
        if limits.mark(lo, before, "effect", *(("turn_end",) if trig.at_turn_end else ())):
            lo.charging_triggers.add(trig.method)
        steps = trig.method in lo.waiting
        prog.triggers.append(LoweredTrigger(trig.name, trig.method, when, effect, trig.span, steps))
        if trig.at_turn_end:
            prog.turn_end.append(trig.method)
            prog.turn_end_steps |= steps


def phases(lo: Lowerer) -> None:
    """The phases: each one's start (its effects) and who acts in it."""
    typed, prog = lo.typed, lo.program
    for ph in typed.phases:
        before = lo.charges
        start = effects.effects(lo, ph.start, ph.span)
        limits.mark(lo, before, "start")
        lo.assigned = frozenset()
        actor = effects.condition_node(lo, ph.actor, "actor") if ph.actor is not None else None
        together = effects.condition_node(lo, ph.simultaneous, "actor") if ph.simultaneous is not None else None
        prog.phases.append(LoweredPhase(ph.name, ph.const, start, ph.actions, ph.stuck, ph.span, actor,
                                        steps=_asks(ph.start, lo.suspending), simultaneous=together))


def ending(lo: Lowerer) -> None:
    """How the game ends: the end's test, the invariants, the scores and the tie break."""
    typed, prog = lo.typed, lo.program
    lo.assigned = frozenset()
    if typed.end is not None:
        prog.end = effects.condition_node(lo, typed.end, "end")
        prog.end_span = typed.end.span
        if typed.end_kept is not None:  # (pass `keep_end`) kept in its slot between moves
            prog.kept_slots.append((END_SLOT, "bool | None"))
            reads = typed.end_kept
            prog.end_kept = f"tested again once {reads.told()} changes" if reads.fields or reads.volatile \
                else "tested once (it reads nothing that changes)"
    # (pass `drop_in_place`) a state whose dicts of kept values no copy shares drops values from them in place
    prog.own_drops = typed.drops_in_place and any(ann.startswith("dict[") for _, ann in prog.kept_slots)
    before = lo.charges
    for inv in typed.invariants:
        prog.invariants.append((inv.name, effects.condition_node(lo, inv.expr, ""), inv.span))
    limits.mark(lo, before, "invariant")
    before = lo.charges
    for term in typed.scoring:
        prog.scoring.append((term.name, effects.condition_node(lo, term.expr, "", "player"), term.span))
    limits.mark(lo, before, "score")
    if typed.tie_break is not None:
        prog.tie_break = effects.condition_node(lo, typed.tie_break, "tie_break", "player")
        if typed.tie_break.ty.kind == "list":  # compared item by item: a tuple
            prog.tie_break, prog.tie_break_type = Call(Name("tuple"), (prog.tie_break,)), "tuple[int, ...]"
    if typed.returns is not None:
        prog.returns = effects.condition_node(lo, typed.returns, "returns", "player")


def look_texts(lo: Lowerer) -> None:
    """The texts of `look: prompts:` and `look: moves:`, each a method of its own that only reads the
    game (and a move's text, the choices it shows)."""
    prog = lo.program
    before = lo.charges
    for text in lo.typed.look_texts:
        prompt, move = MEMBER_PATTERNS["look_ask" if text.asked else "look_action"]
        read = {x.sym for arg in text.told.args for x in nodes(arg) if isinstance(x, Ref)}
        params = tuple((i, p.py, _annotation(p.ty)) for i, p in enumerate(text.params) if p in read)
        lo.scopes = [{p for _, p, _ in params}]
        lo.assigned = frozenset()
        reading = limits.begin_reading(lo, [p for _, p, _ in params])
        code = effects.told(lo, text.told) if text.told.args \
            else Constant("".join(literal for literal, _ in text.told.parts))
        cost = sum(lo.fact(arg).cost for arg in text.told.args)
        code = limits.unit_expr(lo, code, cost, text.span, lists=limits.end_reading(lo, reading))
        prog.look_texts.append(LoweredLookText(text.name, text.move, text.asked,
                                               (move if text.move else prompt).format(text.name), params, code,
                                               text.span))
    limits.mark(lo, before, "look")
