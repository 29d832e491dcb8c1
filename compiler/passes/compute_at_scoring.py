"""Pass `compute_at_scoring`: a definition only the scores read, each of its values asked once per player
scored, is computed where the scores ask it, not kept between moves (docs/optimiser.md).

`keep_derived` keeps every definition that loops. China (Schacht)'s alliances are scored by
`alliance_points(p, b)`, through `leads_emissaries(p, r)`; its road chains by `chain_points(p)`,
through `chains_of(p)`: all kept, in dicts by their arguments (a tuple for two), each dropped at
every emissary or palace placed. Yet nothing but the scores reads them, and the scores are asked
once a game, at its end: each value was computed, stored, and never read again (but by the same
score, for another border of the same province). Keeping them cost a tuple made and hashed twice
per call and a dict filled, for nothing.

Found: a definition `keep_derived` would keep (not `cached: true`) that only the scoring terms read,
themselves or through definitions only they read (not an effect, a condition, a listing, the
end, the tie-break, which `_winners` asks twice of each seat tied, nor an invariant); with a
parameter that is a player; each of whose calls, in a scoring term or in the body of such a
definition, passes as every player argument the player scored (a term's `player`) or a player
parameter of the definition calling it, is the only call of it there (a definition calling it
being one `keep_derived` would keep: not a wrapper, which may itself be asked again and again), and
reads the variable of every loop it is inside (`alliance_points(player, b) for b in borders`:
each item asks another value). So each of its values is asked once per player's score (a value of another
player's, asked from every player's score, or of none, the same for every player, stays kept:
China (Schacht)'s `emissaries_of(q, r) for q in owners`, Chang Cheng's diplomacy's
`provinces_walled(q) for q in players`); and once only (a call repeated, or in a loop it does not
follow, as Yellow & Yangtze's `level(p)` in `spread(p)`, stays kept).

Why it is safe: whether a definition's value is kept or computed again changes no value (it only
reads the game); this pass decides only that (`t.Define.unkept`, the representation step). What
its computation costs counts against the limits of a move each time it is computed, as in the
plain code.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.keeping import worth_keeping_names
from ..analysis.walk import expressions, nodes
from ..types import entity
from .compute_inside_kept import unkept
from .mask_values import walkless
from .rewrite import free_locals

PLAYER = entity("player")


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    if "keep_derived" not in facts.enabled:
        return program
    return unkept(program, found(program), "compute_at_scoring")


def found(program: t.TypedProgram) -> tuple[str, ...]:
    """The definitions `keep_derived` need not keep (see the module's doc), in the order declared."""
    defines = {d.name: d for d in program.defines}
    kept = worth_keeping_names(program, lambda x: walkless(program, x, defines))
    # what the game reads outside the scores: every root but the scoring terms, and what it calls
    game: set[str] = set()
    for e in expressions(replace(program, scoring=(), defines=())):
        if isinstance(e, t.DefineCall):
            game.add(e.define)
    todo = list(game)
    while todo:
        for n in nodes(defines[todo.pop()].body):
            if isinstance(n, t.DefineCall) and n.define not in game:
                game.add(n.define)
                todo.append(n.define)
    # each definition's calls, with whether each asks a value once per player scored
    once: dict[str, list[bool]] = {}
    for term in program.scoring:
        scored = {x.sym for x in nodes(term.expr) if isinstance(x, t.Ref) and x.sym.kind == "local"
                  and x.sym.name == "player" and x.ty == PLAYER}
        _calls(term.expr, scored, defines, once)
    for d in program.defines:
        if d.name not in game:  # (a caller not kept itself, a wrapper, may be asked again and again: no call of it is)
            _calls(d.body, {p for p in d.params if p.ty == PLAYER}, defines, once, d.name in kept)
    return tuple(d.name for d in program.defines
                 if d.name in kept and d.name not in game and not d.cached and any(p.ty == PLAYER for p in d.params)
                 and once.get(d.name) and all(once[d.name]))


def _calls(root: t.Expr, players: set[t.Symbol], defines: dict[str, t.Define], once: dict[str, list[bool]],
           kept: bool = True) -> None:
    """Note, for each call in `root` (a scoring term, or the body of a definition whose player
    parameters are `players`, `kept` if `keep_derived` would keep it), whether it asks its value once
    per player scored: in a term or a definition `keep_derived` would keep (computed once per value,
    or found itself: once per player scored), its player arguments among `players`, the
    variables of the loops around it read, the only call there."""
    count: dict[str, int] = {}
    found: list[tuple[t.DefineCall, list[set[t.Symbol]]]] = []

    def walk(e: t.Expr, loops: list[set[t.Symbol]]) -> None:
        if isinstance(e, t.Comprehension):
            inner = loops
            for var, domain, cond in [(e.var, e.domain, e.cond), *e.more]:
                walk(domain, inner)  # (a clause's domain is walked once per item of the clauses before it)
                inner = [*inner, {var}]
                if cond is not None:
                    walk(cond, inner)
            walk(e.elt, inner)
            return
        if isinstance(e, t.DefineCall):
            count[e.define] = count.get(e.define, 0) + 1
            found.append((e, loops))
        for x in t.subexpressions(e):
            walk(x, loops)

    walk(root, [])
    for call, loops in found:
        params = defines[call.define].params
        read = set().union(*(free_locals(a) for a in call.args))
        ok = (kept and count[call.define] == 1 and all(loop & read for loop in loops)
              and all(isinstance(a, t.Ref) and a.sym in players
                      for a, p in zip(call.args, params, strict=False) if p.ty == PLAYER))
        once.setdefault(call.define, []).append(ok)
