"""Pass `join_rounds`: a loop whose every round joins the same items to a list joins them all at
once (docs/optimiser.md).

China (Schacht)'s setup makes its deck a card at a time, 57 joins of a growing tuple, each counted
against the budget of the move once the deck is longer than SMALL_LIST (a call of the runtime):

    - for c in colour:
      - for k in range(removed_per_colour, cards_of(c)):
        - deck = deck + [c]

The plain code:

    for _ in range(...):  # base.yaml:350
        if len(self.deck) > 16:
            rt.walk(self, self.deck, 1, 'rules/china-schacht/base.yaml:351')
        self.deck = (*self.deck, c)  # base.yaml:351

With this pass the rounds are made once, the budget the joins would charge is charged at once
(`rt.joins_fit`, runtime/limits.py), and the items joined once, repeated:

    rounds = len(range(...))  # base.yaml:350; ...; the rounds' joins of base.yaml:351 made at once (`join_rounds`)
    if rt.joins_fit(self, len(self.deck), rounds, 1):
        self.deck = (*self.deck, *(c,) * rounds)  # base.yaml:351
    else:  # (a round would fail: the rounds one by one, as written)
        for _ in range(...):  # base.yaml:350
            ... (the plain loop's body)

Taken: a loop over a list lowering proves short (walked unchecked) that cannot fail, whose
variable the body does not read, and whose body is one assignment `x = x + [a, ...]` of a field
(or an entity's entry of one at a name), its items written out names the loop neither binds nor
assigns (locals bound before it, constants, values of the language) or numbers, where lowering
writes the join as the list and its items, counts the list only as the plain code above counts it
(once longer than SMALL_LIST, a step an item) or not at all, and writes nothing after the join (no
kept value dropped, no mask brought up to date, no note of the journal); not in code written with
coverage probes. The pass marks the loop (`t.For.joins_rounds`) where the typed program shows it;
how lowering writes the join and counts the list, and the probes, are lowering's to see.

Why it is the same game: the loop's list is computed for its length (it reads the game only and
cannot fail; computed again only where the rounds are made one by one); each round joins the same
items, which read nothing the loop changes and cannot fail, so the list after the rounds is the
list and the items repeated once per round: the same tuple. The budget: the plain code charges,
at each round, the list's length then if it is longer than SMALL_LIST; `rt.joins_fit` charges their
sum at once, and only when no round would fail (a list over the limit of items, or the budget
spent): otherwise it charges nothing and the plain loop runs, failing at the very round, with the
same error, as before. The work proven of the loop is counted as before.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from .rewrite import can_fail, map_statements

NAME = "join_rounds"
ROUNDS = "_rounds"  # the local holding how many rounds the loop makes (compiler/names.py TEMPLATE_LOCALS)


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each such loop marked (`t.For.joins_rounds`, the items it joins):
    lowering makes its joins at once where it writes the join and its count as taken above."""
    defines = {d.name: d for d in program.defines}

    def marked(stmts: tuple[t.Stmt, ...]) -> tuple[t.Stmt, ...]:
        return tuple(mark(s) if isinstance(s, t.For) else s for s in stmts)

    def mark(s: t.For) -> t.For:
        items = _items(s) if len(s.body) == 1 else None
        return s if items is None or can_fail(s.domain, defines) else replace(s, joins_rounds=tuple(items))

    return map_statements(program, marked)


def _items(s: t.For) -> list[t.Num | t.Ref] | None:
    """The items the loop's one assignment joins, each round the same (names the loop neither binds
    nor assigns, numbers), or None if it is not `x = x + [...]`."""
    a = s.body[0]
    if not isinstance(a, t.Assign) or a.op != "=" or a.item is not None or a.target.kind not in ("field", "perfield"):
        return None
    if a.target.kind == "perfield" and not (isinstance(a.index, t.Ref) and a.index.sym is not s.var
                                            and a.index.sym.kind in ("local", "field", "value")):
        return None
    value = a.value
    if not (isinstance(value, t.Binary) and value.op == "+" and isinstance(value.right, t.Collection)
            and value.right.kind == "list" and value.right.items and _reads_target(value.left, a)):
        return None
    items: list[t.Num | t.Ref] = []
    for item in value.right.items:
        match item:
            case t.Num():
                items.append(item)
            case t.Ref(sym=sym) if sym is not s.var and sym.kind in ("local", "const", "value") \
                    and sym.name != a.target.name:
                items.append(item)
            case _:
                return None
    return items


def _reads_target(e: t.Expr, a: t.Assign) -> bool:
    """Whether `e` reads the list `a` assigns, as it is."""
    if a.target.kind == "field":
        return isinstance(e, t.Ref) and e.sym.kind == "field" and e.sym.name == a.target.name
    return (isinstance(e, t.PerIndex) and e.field.name == a.target.name and isinstance(e.index, t.Ref)
            and isinstance(a.index, t.Ref) and e.index.sym is a.index.sym)
