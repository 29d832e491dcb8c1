"""Pass `hoist_lazily`: work a loop's items need alike, that `hoist` leaves in the loop because it can
fail or may be needed by no item, computed once, where the first item needs it (docs/optimiser.md).

Mandarin's roll lists the mandarins passed, `[p for p in players if p != current and position[p]
in passed(position[current], last_roll)]`: the squares passed are the same for every player, but
`passed(...)` checks the number of squares it makes (it can fail), and under the `and` no player
may need it; `hoist` rightly leaves it, and it is made again for every other player. Here such a
value is computed at its first use in the comprehension and kept for the next, in a cell of the
comprehension's own (a first clause binding a new empty list once, `for cell in (rt.cell(),)`;
`rt.once` puts the value in it and gives it back):

    [p for cell in (rt.cell(),) for p in ... if p != self.current and self.position[p] in
     (cell or rt.once(cell, rt.walk(self, self.board.passed(...), ...)))[0]]

Taken: in the condition or the value of a comprehension's clause, a call of a definition, of a
built-in that calls the runtime or the board (not `value_of`, a check) and is more than a few
look-ups (hoist's `_cheap`), or a loop, that reads no variable the comprehension binds (nor
any bound inside it) and that `hoist` left (it can fail, or it is under `and`, `or` or `if`); not
in a comprehension `mask_spot_sets`, `mask_spot_filters`,
`count_items` or `hoist_masks` took (their code is written from its form), nor one lowering
fuses with the field it filters. The same value read in several places shares one cell.

Why it is safe: the value reads the game only and the comprehension's locals none, so it is the
same at every item; it is computed where the first item that needs it computed it, in the same
order with everything else, so if it fails it fails there, with the same error, and it is not
computed where no item needs it. Later items read it from the cell instead of computing it again.
What it charges to the limits of a move is charged once, not once per item (as for `hoist`: only a
game at the limit of its budget could tell); lowering counts the plain code's work.
"""

from __future__ import annotations

from collections.abc import Hashable

from .. import typed as t
from ..analysis import Facts
from ..analysis.keys import key
from ..analysis.walk import clauses, nodes
from ..builtins import BUILTINS
from ..names import PASS_CELL_BASE as CELL_BASE
from ..types import Ty
from .hoist import _cheap
from .mask_spot_sets import served as masked
from .mask_values import served
from .rewrite import Names, can_fail, free_locals, fused_shape, map_program, rebuild, show, with_clauses

CELL = "a cell for values computed once"  # the verb of a cell clause's note
LAZY = "computed once, at first need:"  # the verb of a value read from its cell


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    lazy = Lazy(program)

    def root(e: t.Expr) -> t.Expr:
        lazy.names.begin()
        return lazy.expr(e)

    try:
        return map_program(program, root)
    except RecursionError:  # (nesting is limited by the parser; even so) the program as it is
        return program


class Lazy:
    def __init__(self, program: t.TypedProgram) -> None:
        self.program = program
        self.names = Names(program)
        self.constants = {name: value for name, value, _ in program.tables.constants}
        self.defines = {d.name: d for d in program.defines}
        self.failing: dict[str, bool] = {}

    def expr(self, e: t.Expr) -> t.Expr:
        e = rebuild(e, self.expr)  # the comprehensions inside first
        if isinstance(e, t.Comprehension):
            return self.comprehension(e)
        return e

    def comprehension(self, e: t.Comprehension) -> t.Expr:
        if fused_shape(e) or e.counted or e.spot_filter is not None \
                or masked(self.program.masks, e, {}, self.constants) is not None \
                or served(self.program, e, self.defines) is not None:
            return e
        old = clauses(e)
        bound = {var for var, _, _ in old}
        found: dict[Hashable, t.Expr] = {}

        def visit(x: t.Expr, inner: frozenset[t.Symbol], always: bool) -> None:
            """`x`, in a comprehension inside binding `inner`; `always`: computed for every item
            that reaches it (not under `and`, `or` or `if`, nor in a loop of its own)."""
            if isinstance(x, t.Note) and x.verb in (LAZY, CELL):
                return  # (a cell of a comprehension inside: its own)
            if _work(x) and not any(s in bound or s in inner for s in free_locals(x)) \
                    and (not always or can_fail(x, self.defines, self.failing)):
                found.setdefault(key(x), x)  # (what `hoist` would take it has taken: it is left what it refused)
                return
            match _bare(x):
                case t.Comprehension() as comp:
                    more = set(inner)
                    for i, (var, domain, test) in enumerate(clauses(comp)):
                        visit(domain, frozenset(more), always and i == 0)
                        more.add(var)
                        if test is not None:
                            visit(test, frozenset(more), False)
                    visit(comp.elt, frozenset(more), False)
                case t.Binary(op="and") as b if _pinned(b.left, bound):
                    visit(b.left, inner, always)  # (what the right needs, one item at most needs: no cell)
                case t.Binary(op="and" | "or") as b:
                    visit(b.left, inner, always)
                    visit(b.right, inner, False)
                case t.Cond() as c:
                    visit(c.test, inner, always)
                    visit(c.then, inner, False)
                    visit(c.orelse, inner, False)
                case bare:
                    for part in t.subexpressions(bare):
                        visit(part, inner, always)

        for _, _, test in old:
            if test is not None:
                visit(test, frozenset(), True)
        visit(e.elt, frozenset(), True)
        if not found:
            return e
        cells: dict[Hashable, tuple[t.Symbol, t.Expr]] = {}
        new: list[tuple[t.Symbol, t.Expr, t.Expr | None]] = []
        for k, x in found.items():
            what = show(x)
            ty = Ty("list", "", x.ty)
            sym = self.names.symbol(t.Symbol("local", CELL_BASE, ty, CELL_BASE, x.span), CELL_BASE, ty)
            cell = t.Note(CELL, what, t.Collection("list", (t.Collection("list", (), ty, x.span),),
                                                   Ty("list", "", ty), x.span), Ty("list", "", ty), x.span)
            new.append((sym, cell, None))
            cells[k] = (sym, x)

        def use(x: t.Expr) -> t.Expr:
            k = key(x)
            if k in cells:
                sym, value = cells[k]
                pair = t.Collection("list", (t.Ref(sym, sym.ty, x.span), value), Ty("list", "", x.ty), x.span)
                return t.Note(LAZY, show(value), pair, x.ty, x.span)
            return rebuild(x, use)

        rest = [(var, domain, None if test is None else use(test)) for var, domain, test in old]
        return with_clauses(e, [*new, *rest], use(e.elt))


def _pinned(test: t.Expr, bound: set[t.Symbol]) -> bool:
    """Whether `test` holds for one item at most: a variable the comprehension binds compared equal
    to a constant or a literal (Yellow & Yangtze's `u == with_leader and off_board(...)`)."""
    test = _bare(test)
    if not isinstance(test, t.Binary) or test.op != "==":
        return False
    for mine, other in ((test.left, test.right), (test.right, test.left)):
        mine, other = _bare(mine), _bare(other)
        if isinstance(mine, t.Ref) and mine.sym in bound and (
                isinstance(other, t.Num | t.Bool | t.Str)
                or isinstance(other, t.Ref) and other.sym.kind in ("const", "value") and other.sym not in bound):
            return True
    return False


def _bare(e: t.Expr) -> t.Expr:
    while isinstance(e, t.Note) and e.verb not in (LAZY, CELL):
        e = e.expr
    return e


def _work(x: t.Expr) -> bool:
    """Whether computing `x` is work: a definition's call, a loop, or a built-in that is a call of
    the runtime or the board (`passed`, `wall_pieces`: not a table's item looked up, `region_of`),
    and more than `hoist`'s few look-ups (`_cheap`)."""
    if isinstance(x, t.Note) and (x.verb in (LAZY, CELL) or isinstance(x.expr, t.Collection)):
        return False  # (a value bound once already, by this pass or by `hoist`)
    if not any(isinstance(n, t.DefineCall | t.Comprehension) or isinstance(n, t.Builtin) and n.func in CALLS
               for n in nodes(x)):
        return False
    return not _cheap(x) and x.ty.kind not in ("none", "optional", "any")


# The built-ins that call a function of the runtime or of the board (their work is more than a look-up).
# (`value_of`, the check that an optional value is there, is a look-up: in Yellow & Yangtze a cell for
# it cost more than it saved, 0.5% more instructions a game of its short game)
CALLS = frozenset(name for name, sig in BUILTINS.items()
                  if sig.python.startswith(("self.board.", "rt.", "sorted(")) and "(" in sig.python
                  and not sig.chance and name != "value_of")
