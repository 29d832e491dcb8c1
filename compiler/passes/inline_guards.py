"""Pass `inline_guards`: an action's `when:` is tested where its listing starts, written out, not
through a call of its guard method (docs/optimiser.md).

Every listing of an action with a `when:` began with a call of a method of one line, the test:

    def _legal_draw_card(self, actions: list[rt.Action]) -> None:
        if not self._guard_draw_card():
            return
    ...
    def _guard_draw_card(self) -> bool:
        return bool(self.deck)

China (Schacht) tests four so at every listing (`build`, `send`, `exchange_blind`, `draw_card`),
some 250 calls a game, each costing more than its test. With this pass the listing tests it itself:

    if not self.deck:  # rules/china-schacht/base.yaml:444: when of draw_card, written out (`inline_guards`)
        return

The guard method stays (the runtime's `_guard(name)` calls it, as tools do).

Why it is the same game: the test is the very expression the method returns the truth of (`not x`
is `not bool(x)`), computed at the same point of the listing, with the same checks of the limits
of a move in its code; a guard that reads a definition remembered while listing finds it in the
same memory.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts

NAME = "inline_guards"


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each action with a `when:` marked (`t.Action.when_written_out`): lowering writes its test
    where its listing starts (compiler/lower/listings.py `guard_written`)."""
    if not any(a.when is not None for a in program.actions):
        return program
    return replace(program, actions=tuple(replace(a, when_written_out=True) if a.when is not None else a
                                          for a in program.actions))
