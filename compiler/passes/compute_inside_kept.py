"""Pass `compute_inside_kept`: a small definition used only inside definitions kept between moves is
written into them, not kept itself (docs/optimiser.md).

`keep_derived` keeps every definition that loops. Mandarin's `controls(p, a)` loops over the players
(`all(held(q, a) < 3 for q in players if q != p)`), so it was kept, in a dict by both arguments,
dropped whole at every change of a card; yet it is asked only by `controller(a)`, itself kept,
and dropped by the same changes: each kept value of `controls` was read once, when `controller`
was computed again, never after. Keeping it cost a method call, a tuple hashed and a dict filled
per player, and a slot dropped at every tile.

Found: a definition of several parameters (one of one parameter may be dropped for one entity or
attribute only, and one kept by region, `nest_by_region`, for one region only: both keep what the
next computation of their callers reads) that `keep_derived` would keep, whose every call is in the
body of other definitions `keep_derived` keeps (not in an effect, a condition, a listing, the end, a
score, an invariant), which read every field it reads (and the seat to act, if it does): a
change that drops its values drops theirs; whose loops walk only what the board or the rules
bound (as `inline` asks: the players, an enumeration, a region's spots; no search of the
runtime); and whose callers are not themselves found (one level at a time). The pass annotates
it (`t.Define.unkept`, the representation step), and `keep_derived` does not keep it; `inline` writes
it where it is called if it is small (Mandarin's `controls`, 35 nodes once `held` and
`has_emperor` are written into it, is not: a method computing its value, which costs less than
looking it up in a dict filled for it).

Why it is safe: whether a definition's value is kept or computed again changes no value (it only
reads the game); this pass decides only that.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts
from ..analysis.keeping import SEARCHES, worth_keeping_names
from ..analysis.sizes import bounded
from ..analysis.walk import clauses, expressions, nodes
from ..types import entity
from .mask_values import walkless


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    if "keep_derived" not in facts.enabled:
        return program
    return unkept(program, found(program, facts), NAME)


NAME = "compute_inside_kept"


def unkept(program: t.TypedProgram, names: tuple[str, ...], by: str) -> t.TypedProgram:
    """The program with the definitions `names` annotated as not kept, by pass `by` (the program
    itself when there are none)."""
    if not names:
        return program
    return replace(program, defines=tuple(replace(d, unkept=by) if d.name in names else d for d in program.defines))


def found(program: t.TypedProgram, facts: Facts) -> tuple[str, ...]:
    """The definitions `keep_derived` need not keep (see the module's doc), in the order declared."""
    defines = {d.name: d for d in program.defines}
    kept = worth_keeping_names(program, lambda x: walkless(program, x, defines))
    inside: dict[str, set[str]] = {}  # definition -> the definitions whose bodies call it
    calls_inside: dict[str, int] = {}
    for d in program.defines:
        for n in nodes(d.body):
            if isinstance(n, t.DefineCall):
                inside.setdefault(n.define, set()).add(d.name)
                calls_inside[n.define] = calls_inside.get(n.define, 0) + 1
    calls_all: dict[str, int] = {}
    for n in expressions(program):
        if isinstance(n, t.DefineCall):
            calls_all[n.define] = calls_all.get(n.define, 0) + 1
    deps = facts.dependencies.defines
    candidates = set()
    for name in sorted(kept):
        d, callers = defines[name], inside.get(name, set())
        if not callers or calls_all.get(name, 0) != calls_inside.get(name, 0) or d.cached:
            continue  # called somewhere else than in definitions (or never)
        if len(d.params) < 2 or any(p.ty == entity("region") for p in d.params):
            continue  # (one of one parameter, or kept by region, `nest_by_region`, may be dropped in part: kept)
        if not all(c in kept and c != name and deps[name].fields <= deps[c].fields
                   and (deps[c].volatile or not deps[name].volatile) for c in callers):
            continue
        if any(isinstance(n, t.Builtin) and n.func in SEARCHES for n in nodes(d.body)):
            continue  # a search of the runtime: a loop of its own
        loops = [n for n in nodes(d.body) if isinstance(n, t.Comprehension)]
        if all(bounded(domain) for loop in loops for _, domain, _ in clauses(loop)):
            candidates.add(name)
    return tuple(d.name for d in program.defines
                 if d.name in candidates and not inside.get(d.name, set()) & candidates)
