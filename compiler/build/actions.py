"""`phases:`, `actions:` and `triggers:`: what players do, and what follows."""

from __future__ import annotations

from ...core.load import YMap, YNode
from .. import ir
from .keys import ACTION_KEYS, PHASE_KEYS, TRIGGER_KEYS, TRIGGER_MOMENTS, WHEN_STUCK
from .reader import Reader


def read_phases(r: Reader, node: YNode | None) -> tuple[ir.Phase, ...]:
    out: list[ir.Phase] = []
    for phase_name, key, m in r.entries(node, "phases", "phase", "a phase", PHASE_KEYS):
        stuck = r.text(m.get("when_stuck"), "when_stuck", "pass") or "pass"
        if stuck not in WHEN_STUCK:
            node_ = m.get("when_stuck")
            assert node_ is not None
            r.error(node_.span, "when_stuck must be `pass` (the turn passes) or `end` (the game ends)")
        then = r.name(m.get("then"), "then") if m.get("then") is not None else None
        actor = r.expr(m.get("actor"), "actor") if m.get("actor") is not None else None
        together = m.get("simultaneous")  # every seat it lists chooses at once (docs/language.md)
        simultaneous = r.expr(together, "simultaneous") if together is not None else None
        out.append(ir.Phase(phase_name, r.block(m.get("start"), "start"), r.names(m.get("actions"), "an action"),
                            stuck, then, key.span, actor, simultaneous))
    return tuple(out)


def read_actions(r: Reader, node: YNode | None) -> tuple[ir.Action, ...]:
    out: list[ir.Action] = []
    for name, key, m in r.entries(node, "actions", "action", "an action", ACTION_KEYS):
        choices: list[ir.Choice] = []
        for ckey, cvalue in (r.mapping(m.get("choose"), "choose") or YMap((), m.span)).items:
            choice = r.declared(ckey, "a choice")
            domain = r.expr(cvalue, f"choice `{ckey.value}`")
            if choice is not None and domain is not None:
                choices.append(ir.Choice(choice, domain, ckey.span))
        text = r.text(m.get("text"), "text", name.replace("_", " ")) or name
        others_node = m.get("others_text")
        others = r.text(others_node, "others_text") if others_node is not None else None
        out.append(ir.Action(name, tuple(choices), r.expr(m.get("when"), "when"), text,
                             r.block(m.get("effect"), "effect"), key.span, others,
                             others_node.span if others_node is not None else None,
                             r.expr(m.get("revealed_when"), "revealed_when")))
    return tuple(out)


def read_triggers(r: Reader, node: YNode | None) -> tuple[ir.Trigger, ...]:
    out: list[ir.Trigger] = []
    for trigger_name, key, m in r.entries(node, "triggers", "trigger", "a trigger", TRIGGER_KEYS):
        after = r.names(m.get("after"), "an action") if m.get("after") is not None else ()
        at = r.text(m.get("at"), "at")
        if at is not None and at not in TRIGGER_MOMENTS:
            anode = m.get("at")
            assert anode is not None
            r.error(anode.span, f"unknown moment `{at}`", "triggers run `after: [actions]` or `at: turn_end`")
        if not after and at is None:
            r.error(key.span, f"trigger `{key.value}` needs `after: [actions]` or `at: turn_end`")
        out.append(ir.Trigger(trigger_name, after, at, r.expr(m.get("when"), "when"),
                              r.block(m.get("effect"), "effect"), key.span))
    return tuple(out)
