"""Pass `bitmask`: a set of spots picked by one field, held as a bit mask kept up to date.

`[s for s in spots if marker[s] == face_down]` (written inline, or as a definition without
parameters) names the spots whose value of one field per spot is (or is not) one constant.
Where such a set is searched for lines (`straight_lines`, `count_lines`) or counted (`len`),
rebuilding it from every spot at each use and turning it into a bitboard is most of the work:
this pass keeps, beside the field, the set as a bit mask of the board's `spot_bit` (an int on
the state), and those uses read the mask (`board.straight_lines_mask(n, mask)`, `mask.bit_count()`).

The mask is kept exact:
- every assignment to the field (`marker[s] = v`, in any rule) is followed by the update of the
  mask: its bit set or cleared when the value stored is a constant, else set as the value read
  back from the field matches; an assignment of another form (the whole field, an index the
  pass cannot name twice) makes the mask again from the field;
- the state's `_fields_set()` (runtime/state.py: after the fields' inits, a saved state read, a
  scenario's position) makes every mask again from the fields; `clone` copies it (an int).
Other uses of the set (walked, shown, stored) keep reading the list as before: its order, and
everything else visible, stays as it was. Nothing is chosen by a rule file: the pass finds the
filters and the uses from the program's types.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from .. import typed as t
from ..source import SourceSpan
from . import Plan

# the built-ins that read a set of spots as a mask: argument index, and the call written with it
MASK_USES: dict[str, tuple[int, str]] = {
    "straight_lines": (1, "self.board.straight_lines_mask({0}, {mask})"),
    "count_lines": (1, "self.board.count_lines_mask({0}, {mask})"),
    "len": (0, "{mask}.bit_count()"),
}


@dataclass(frozen=True, slots=True)
class Mask:
    """One set of spots kept as a bit mask: the spots whose `field` is (`==`) or is not (`!=`)
    the constant `value` (`value_py` in generated code), in the state's slot `slot`."""

    field: str
    op: str
    value: int
    value_py: str
    slot: str
    span: SourceSpan  # where the set is written (first met)

    @property
    def py(self) -> str:
        return f"self.{self.slot}"

    def rebuild(self) -> str:
        """Code of the mask made again from the field."""
        return (f"self.board.spots_mask([s for s, v in enumerate(self.{self.field}) "
                f"if v {self.op} {self.value_py}])")

    def note(self) -> str:
        return (f"`bitmask`: the spots whose {self.field} {self.op} {self.value_py}, as a bit mask "
                f"(board.spot_bit) kept up to date as {self.field} changes ({self.span.short})")


def run(program: t.TypedProgram, plan: Plan) -> tuple[t.TypedProgram, Plan]:
    constants = {name: value for name, value, _ in program.tables.constants}
    defines = {d.name: d for d in program.defines}
    found: dict[tuple[str, str, int], Mask] = {}
    for e in expressions(program):
        if isinstance(e, t.Builtin) and e.func in MASK_USES and len(e.args) > MASK_USES[e.func][0]:
            key = filter_of(e.args[MASK_USES[e.func][0]], defines, constants)
            if key is not None and key[:3] not in found:
                fld, op, value, value_py, span = key
                slot = f"_mask_{fld}_{'is' if op == '==' else 'not'}_{value_py.lower()}"
                found[key[:3]] = Mask(fld, op, value, value_py, slot, span)
    return program, replace(plan, masks=tuple(found.values()))


Filter = tuple[str, str, int, str, SourceSpan]  # field, op, value, value's code, where


def filter_of(e: t.Expr, defines: dict[str, t.Define], constants: dict[str, int]) -> Filter | None:
    """The one-field filter `e` is (`[s for s in spots if f[s] == C]`, or a definition without
    parameters whose value is one), or None."""
    if isinstance(e, t.DefineCall) and not e.args and e.define in defines and not defines[e.define].params:
        e = defines[e.define].body
    if not (isinstance(e, t.Comprehension) and e.func == "list" and not e.more
            and isinstance(e.domain, t.Ref) and e.domain.sym.kind == "value" and e.domain.sym.name == "spots"
            and isinstance(e.elt, t.Ref) and e.elt.sym is e.var
            and isinstance(e.cond, t.Binary) and e.cond.op in ("==", "!=")
            and isinstance(e.cond.left, t.PerIndex) and e.cond.left.field.per == "spot"
            and e.cond.left.field.kind in ("field", "perfield")
            and e.cond.left.ty.kind in ("enum", "entity", "int", "bool")
            and isinstance(e.cond.left.index, t.Ref) and e.cond.left.index.sym is e.var):
        return None
    value = _constant(e.cond.right, constants)
    if value is None:
        return None
    return e.cond.left.field.name, e.cond.op, value[0], value[1], e.span


def _constant(e: t.Expr, constants: dict[str, int]) -> tuple[int, str] | None:
    """A value known when compiling: a named constant (an enum value, an entity's name), a number."""
    if isinstance(e, t.Ref) and e.sym.kind == "const" and e.sym.py in constants:
        return constants[e.sym.py], e.sym.py
    if isinstance(e, t.Num) and 0 <= e.value < 1 << 30:
        return e.value, str(e.value)
    return None


# -- what lowering asks ---------------------------------------------------------------------------
def masked_call(plan: Plan, e: t.Builtin, defines: dict[str, t.Define], constants: dict[str, int]) -> str | None:
    """The code of a built-in call over a set kept as a mask, a format string over the lowered
    arguments ({0}, {1} ...), or None when it reads no mask."""
    if not plan.masks or e.func not in MASK_USES:
        return None
    at, code = MASK_USES[e.func]
    if len(e.args) <= at:
        return None
    key = filter_of(e.args[at], defines, constants)
    if key is None:
        return None
    mask = next((m for m in plan.masks if (m.field, m.op, m.value) == key[:3]), None)
    return None if mask is None else code.replace("{mask}", mask.py)


def after_assign(plan: Plan, s: t.Assign, constants: dict[str, int]) -> list[tuple[int, str]]:
    """The lines (extra depth, code) that keep the masks over the field `s` assigns up to date."""
    if s.target.kind not in ("field", "perfield"):
        return []
    out: list[tuple[int, str]] = []
    for m in plan.masks:
        if m.field != s.target.name:
            continue
        index = _simple(s.index) if s.index is not None else None
        if index is None or s.item is not None:  # the whole field, or an index not to evaluate twice
            out.append((0, f"{m.py} = {m.rebuild()}"))
            continue
        bit = f"self.board.spot_bit[{index}]"
        value = _constant(s.value, constants) if s.op == "=" else None
        if value is not None:
            holds = (value[0] == m.value) == (m.op == "==")
            out.append((0, f"{m.py} |= {bit}" if holds else f"{m.py} &= ~{bit}"))
        else:
            out.append((0, f"if self.{m.field}[{index}] {m.op} {m.value_py}:"))
            out.append((1, f"{m.py} |= {bit}"))
            out.append((0, "else:"))
            out.append((1, f"{m.py} &= ~{bit}"))
    return out


def _simple(e: t.Expr) -> str | None:
    """The code of an index that can be read twice at no cost and to the same value: a local, a number."""
    if isinstance(e, t.Ref) and e.sym.kind == "local":
        return e.sym.py
    if isinstance(e, t.Num):
        return str(e.value)
    return None


# -- walking the program ------------------------------------------------------------------------
def expressions(program: t.TypedProgram) -> Iterator[t.Expr]:
    """Every expression of the program, each subexpression too (for passes that look for forms)."""
    roots: list[t.Expr] = [c.value for c in program.components]
    for f in program.fields:
        roots.extend(x for x in (f.init, f.shown_if, f.hide_items_if, f.visible_to) if x is not None)
    roots.extend(d.body for d in program.defines)
    for a in program.actions:
        roots.extend(c.domain for c in a.choices)
        if a.when is not None:
            roots.append(a.when)
    for trig in program.triggers:
        if trig.when is not None:
            roots.append(trig.when)
    roots.extend(ph.actor for ph in program.phases if ph.actor is not None)
    roots.extend(x for x in (program.end, program.tie_break) if x is not None)
    roots.extend(sc.expr for sc in program.scoring)
    roots.extend(inv.expr for inv in program.invariants)
    bodies: list[tuple[t.Stmt, ...]] = [program.setup, *(p.body for p in program.procedures),
                                        *(trig.effect for trig in program.triggers),
                                        *(ph.start for ph in program.phases), *(a.effect for a in program.actions)]
    for body in bodies:
        roots.extend(_statement_expressions(body))
    todo = roots[::-1]
    while todo:
        e = todo.pop()
        yield e
        todo.extend(reversed(t.subexpressions(e)))


def _statement_expressions(stmts: tuple[t.Stmt, ...]) -> Iterator[t.Expr]:
    for s in stmts:
        match s:
            case t.Let():
                yield s.value
            case t.Assign():
                yield from (x for x in (s.index, s.value, s.item) if x is not None)
            case t.CallEffect():
                yield from s.args
            case t.For():
                yield s.domain
                yield from _statement_expressions(s.body)
            case t.If():
                for test, branch in s.branches:
                    yield test
                    yield from _statement_expressions(branch)
                yield from _statement_expressions(s.orelse)
            case t.Ask():
                yield s.seat
                yield s.domain
                yield from _statement_expressions(s.body)
            case _:
                pass
