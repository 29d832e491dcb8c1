"""Pass `draw_out`: an item drawn from a list and then taken out of it (`let c = draw_from(deck)`,
`deck = without(deck, c)`) is drawn and taken out in one call of the runtime (docs/optimiser.md).

China (Schacht) draws some eighty cards a game so, Yellow & Yangtze its tiles from the bag:

    - let c = draw_from(deck)
    - deck = without(deck, c)

The plain code called the runtime three times a card: to draw it, to count the deck against the
budget of the move (once longer than SMALL_LIST), and to take it out, making a list of the deck
that `tuple(...)` made a tuple again:

    c = rt.draw_from(self.rng, self.deck)  # base.yaml:482
    if len(self.deck) > 16:
        rt.walk(self, self.deck, 1, 'rules/china-schacht/base.yaml:483')
    self.deck = tuple(rt.without(self.deck, c))  # base.yaml:483

With this pass, one call (`rt.drawn_out`, runtime/mechanics.py), which cuts the tuple around the
first copy of the card:

    c, self.deck = rt.drawn_out(self, self.rng, self.deck, 'rules/china-schacht/base.yaml:483')  # base.yaml:482; ...

Taken: a `let` of `draw_from(x)` followed at once by `x = without(x, c)` of the same list (a field,
or one entity's entry of one read at a local or a field), where lowering counts the list before
`without` as written above (a list only the game bounds); not a list lowering proves short, nor an
assignment the journal notes first (pass `journal_changes`), nor code written with coverage probes. The
pass marks the assignment (`t.Assign.drawn_out`); lowering writes both statements as usual, then
puts them together where their lines are exactly those.

Why it is the same game: `drawn_out` does what the three lines did, in their order: the draw (the
generator's number, or the scenario's forced draw, or the error of an empty list, through
`draw_from` itself but for the usual case: a list and no forced draw, `items[rng.below(len(items))]`,
`draw_from`'s own line), then the same charge of the budget with the same rule line when the list
holds more than SMALL_LIST items (`rt.walk`), then the list less the first copy of the item,
found by `index` as `without` finds it (`list.remove`'s test), sliced around it: the very tuple
`tuple(without(...))` made. The work proven of both statements is counted as before.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.keys import key
from ..analysis.walk import bare
from .rewrite import map_statements

NAME = "draw_out"


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each `x = without(x, c)` right after its `let c = draw_from(x)` marked (`t.Assign.drawn_out`):
    lowering writes the two as one call."""
    return map_statements(program, _marked)


def _marked(stmts: tuple[t.Stmt, ...]) -> tuple[t.Stmt, ...]:
    out = list(stmts)
    for i, (first, second) in enumerate(zip(stmts, stmts[1:], strict=False)):
        if isinstance(second, t.Assign) and _shape(first, second):
            out[i + 1] = replace(second, drawn_out=True)
    return tuple(out)


def _shape(first: t.Stmt, second: t.Assign) -> bool:
    """`let c = draw_from(x)`, then `x = without(x, c)`, x the same list as the one assigned."""
    if not isinstance(first, t.Let) or second.op != "=" or second.item is not None:
        return False
    drawn, taken = first.value, second.value
    if not (isinstance(drawn, t.Builtin) and drawn.func == "draw_from" and len(drawn.args) == 1):
        return False
    if not (isinstance(taken, t.Builtin) and taken.func == "without" and len(taken.args) == 2):
        return False
    item = taken.args[1]
    if not (isinstance(item, t.Ref) and item.sym is first.var):
        return False
    return _assigned(drawn.args[0], second) and _assigned(taken.args[0], second)


def _assigned(e: t.Expr, s: t.Assign) -> bool:
    """Whether `e` reads the list `s` assigns: the field itself, or the same entry of a field per
    entity, read at a name (a local, a field, the seat whose turn it is)."""
    e = bare(e)
    if s.target.kind == "field" and s.index is None:
        return isinstance(e, t.Ref) and e.sym.kind == "field" and e.sym.name == s.target.name
    if s.target.kind == "perfield" and isinstance(s.index, t.Ref) \
            and s.index.sym.kind in ("local", "field", "value"):
        return isinstance(e, t.PerIndex) and e.field.name == s.target.name and key(e.index) == key(s.index)
    return False

