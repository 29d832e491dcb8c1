"""Typing, the actions: an action's guard and choices (rules of their own, without chance), its
text and the others' text (which must hide a choice the text shows: texts.py reads them), and
its effect (effects.py), which sees the choices."""

from __future__ import annotations

from .. import ir
from .. import typed as t
from ..typed import Symbol
from ..types import BOOL
from .effects import EffectTyper, annotate_lets
from .exprs import ExprTyper
from .texts import text_parts


def action(fx: EffectTyper, a: ir.Action, triggers: list[str]) -> t.Action:
    """An action: its guard and choices are rules of their own (no chance), its effect sees the
    choices; `triggers`: the methods of the triggers that run after it."""
    x = fx.exprs
    when = x.rule_expr(a.when, "legal", tested=True) if a.when is not None else None
    x.scopes, x.context = [{}], "legal"
    choices = []
    for c in a.choices:
        domain = x.expr(c.domain)
        var = x.bind(c.name, x.element(domain.ty, c.domain.span), c.span, item=True)
        choices.append(t.Choice(var, domain, c.span))
    kinds = {c.name: x.lookup(c.name) for c in a.choices}
    parts, named, unknown = text_parts(x, a.text, a, kinds, a.span, "the text")
    if not named and a.choices and not unknown:
        x.error(a.span, f"the text of `{a.name}` must show its choices",
                f"e.g. text: \"{a.name} {{{a.choices[0].name}}}\"")
    others = _others_text(x, a, kinds, named)
    revealed: t.Expr | None = None
    if a.revealed_when is not None:
        if a.others_text is None:
            x.error(a.revealed_when.span, f"`revealed_when` of `{a.name}` without `others_text`: "
                    "everyone reads the whole text already", "add `others_text:`, or drop `revealed_when:`")
        revealed = x.expr(a.revealed_when)
        x.want(BOOL, revealed.ty, a.revealed_when.span, "`revealed_when`")
    # the effect sees the choices
    x.context = "effect"
    outer = x.scopes
    block = fx.block(a.effect)
    x.scopes = outer
    effect = tuple(annotate_lets(block, fx.let_types))
    then = tuple(
        (i, next(j for j, q in enumerate(x.rs.phases) if q.name == ph.then.name))
        for i, ph in enumerate(x.rs.phases)
        if ph.then is not None and any(r.name == a.name for r in ph.actions)
        and any(q.name == ph.then.name for q in x.rs.phases)
    )
    return t.Action(a.name, when, tuple(choices), tuple(parts), effect, tuple(triggers), then, a.span,
                    others, revealed)


def _others_text(x: ExprTyper, a: ir.Action, kinds: dict[str, Symbol | None], named: set[str],
                 ) -> tuple[tuple[str, str | None], ...] | None:
    """The text the other players read of `a` (None: they read its text), which must hide a
    choice the text shows (`named`)."""
    if a.others_text is None:
        return None
    span = a.others_span or a.span
    others_parts, others_named, unknown = text_parts(x, a.others_text, a, kinds, span, "the others' text")
    if not unknown and named <= others_named:
        # nothing is hidden: the others would read all the text shows of the choices
        x.error(span, f"the others' text of `{a.name}` still names every choice its text shows"
                f" ({', '.join(f'`{{{n}}}`' for n in sorted(named)) or 'none'}): it hides nothing",
                "leave out the hidden choice (`others_text: \"card in {r}\"`), or drop `others_text:`")
    return tuple(others_parts)
