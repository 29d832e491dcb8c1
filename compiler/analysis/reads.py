"""What each part of a rule set reads and writes of the state: the dependency analysis the
passes that keep values between moves share (`keep_derived`, `keep_end`).

`analyse(program)` is the one entry point. It finds, for every definition, for the end
condition and for each scoring term, the state fields it reads, itself or through the
definitions it uses (`marker`, `marker[s]`), and whether it reads who is to act or whose turn it
is (`current`, `opponent`, `deciding`: values the runtime changes as a phase or a turn starts,
not an effect); and for every procedure the fields it writes, itself or through the procedures
it calls.

A field changes only by an assignment of rule code (`x = ...`, `x[e] = ...`, `x += ...`): values
are immutable (a list is a tuple, a set a frozenset, an auction a value object), a field per
entity is a list changed item by item by assignments, and built-in functions change nothing (the
ones that draw chance change the random generator only, and only effects may use them). Beyond
rule code, the runtime and the tools write fields wholesale: a new game's field inits, a state
read back (`state_from_json`), a scenario's position, a test setting a field; each of those
forgets every value kept (`State._fields_set`, generated), so what this analysis finds is all
that can change a kept value's inputs between two of its uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .. import typed as t
from ..typed import Reads

# The values of the language the runtime changes between moves, not rule code: the seat whose
# turn it is (and so the next one), and the seat deciding (which the phase's `actor:` picks).
# They change only as a phase or a turn starts (State._start_phase).
VOLATILE = frozenset({"current", "opponent", "deciding"})


@dataclass(frozen=True, slots=True)
class Dependencies:
    """What `analyse` found (see the module's doc)."""

    defines: Mapping[str, Reads]  # each definition's reads, through the definitions it uses
    procedures: Mapping[str, frozenset[str]]  # the fields each procedure writes, through those it calls
    end: Reads  # the end condition's
    scoring: Mapping[str, Reads]  # each scoring term's
    deciding: Reads  # what `deciding` reads: the seat to act, and what the phases' `actor:` read

    def reads(self, e: t.Expr) -> Reads:
        """What an expression reads, through the definitions it uses."""
        return _reads(e, self.defines, self.deciding)

    def writes(self, stmts: Iterable[t.Stmt]) -> frozenset[str]:
        """The fields a block of effects assigns to, itself or in the procedures it calls."""
        return _writes(stmts, self.procedures)


def analyse(program: t.TypedProgram) -> Dependencies:
    """The reads and writes of every definition, procedure, end condition and scoring term."""
    bodies = {d.name: d.body for d in program.defines}
    # `deciding` is the phase's `actor:` (or `current`): what the actors read, and the seat to act.
    # (An actor reading `deciding` itself is refused by the checker.)
    deciding = Reads(volatile=True)
    plain: dict[str, Reads] = {}
    for ph in program.phases:
        if ph.actor is not None:
            deciding |= _define_reads(ph.actor, bodies, plain, Reads(volatile=True))
        if ph.simultaneous is not None:  # the seats that choose at once: `deciding` is one of them
            deciding |= _define_reads(ph.simultaneous, bodies, plain, Reads(volatile=True))
    defines: dict[str, Reads] = {}
    for d in program.defines:
        defines[d.name] = _define_reads(d.body, bodies, defines, deciding)
    procedures: dict[str, frozenset[str]] = {p.name: frozenset() for p in program.procedures}
    bodies_of = {p.name: p.body for p in program.procedures}
    while True:  # (to a fixed point: procedures may call one another)
        grown = {name: _writes(body, procedures) for name, body in bodies_of.items()}
        if grown == procedures:
            break
        procedures = grown
    end = _reads(program.end, defines, deciding) if program.end is not None else Reads()
    scoring = {term.name: _reads(term.expr, defines, deciding) for term in program.scoring}
    return Dependencies(defines, procedures, end, scoring, deciding)


def _define_reads(body: t.Expr, bodies: Mapping[str, t.Expr], known: dict[str, Reads], deciding: Reads) -> Reads:
    """A definition's reads, the definitions it uses found first (the checker refuses cycles),
    remembered in `known`."""
    # (walked with a list, not recursion: definitions can use definitions deeply)
    order: list[str] = []
    todo = [name for name in _called(body) if name not in known]
    seen = set(todo)
    while todo:
        name = todo.pop()
        order.append(name)
        for callee in _called(bodies[name]):
            if callee not in known and callee not in seen:
                seen.add(callee)
                todo.append(callee)
    pending = list(reversed(order))
    while pending:  # each once every definition it uses is known
        rest = []
        for name in pending:
            if all(c in known for c in _called(bodies[name])):
                known[name] = _reads(bodies[name], known, deciding)
            else:
                rest.append(name)
        if len(rest) == len(pending):  # a cycle (refused by the checker): read as reading nothing more
            for name in rest:
                known[name] = Reads()
        pending = rest
    return _reads(body, known, deciding)


def _nodes(e: t.Expr) -> Iterable[t.Expr]:
    todo = [e]
    while todo:
        x = todo.pop()
        yield x
        todo.extend(t.subexpressions(x))


def _called(e: t.Expr) -> list[str]:
    return [x.define for x in _nodes(e) if isinstance(x, t.DefineCall)]


def _reads(e: t.Expr, defines: Mapping[str, Reads], deciding: Reads) -> Reads:
    fields: set[str] = set()
    out = Reads()
    for x in _nodes(e):
        if isinstance(x, t.Ref):
            if x.sym.kind in ("field", "perfield"):
                fields.add(x.sym.name)
            elif x.sym.kind == "value" and x.sym.name == "deciding":
                out |= deciding
            elif x.sym.kind == "value" and x.sym.name in VOLATILE:
                out |= Reads(volatile=True)
        elif isinstance(x, t.PerIndex):
            fields.add(x.field.name)
        elif isinstance(x, t.DefineCall):
            out |= defines.get(x.define, Reads())
    return out | Reads(frozenset(fields))


def _writes(stmts: Iterable[t.Stmt], procedures: Mapping[str, frozenset[str]]) -> frozenset[str]:
    out: set[str] = set()
    for s in t.statements(stmts):
        if isinstance(s, t.Assign) and s.target.kind in ("field", "perfield"):
            out.add(s.target.name)
        elif isinstance(s, t.CallEffect):
            out |= procedures.get(s.procedure, frozenset())
    return frozenset(out)
