"""Pass `aggregate_loops`: the sum, largest, smallest, any or all of a comprehension that a
definition's value computes first is written out as a loop before it, not made as a generator
and handed to a built-in (docs/optimiser.md).

China (Schacht)'s room for emissaries in a province is the largest holding of palaces there, less
the emissaries:

    "emissary_room(r: region)": "max(palaces_in(q, r) for q in owners) - len(emissaries[r])"

Written as Python's `max((... for q in range(self.num_seats)), default=0)` it took some 1.3 µs
for three players: Python 3.11 makes the generator a function object and a frame at every call,
resumes it once per item, and `max` parses its keyword `default` through its slow path; the same
work written as a loop takes a third of that. So this pass, of the lowered level (after lowering,
on `lowered.Program`), writes it so:

    _most = 0
    _first = True
    for q in range(self.num_seats):  # rules/china-schacht/base.yaml:294; `aggregate_loops`: ...
        _each = (self.board.region_mask[r] & self._has__palace_of[q]).bit_count()
        if _first or _each > _most:
            _most = _each
            _first = False
    value: int = (_most - len(self.emissaries[r]))

Taken: in the value of a definition, an aggregate its computation evaluates first (before
anything but names and attributes read: the operand on the left, a test, a first argument, not
under the right of `and`, `or` or a branch of `if`), of one walk with or without conditions, or
of a list as it is; one of each kind per value; whose loop variable no other part of the value,
and no parameter, names. What is left of the value reads the aggregate's result.

Why it is the same game: the loop walks the same items in the same order, tests the same
conditions and computes the same item values as the comprehension would, and only them: `any`
and `all` stop at the first item that decides, as the built-ins do; the largest and smallest are
the first of equal items, 0 for none, as `max(..., default=0)` and `min(..., default=0)` give; a
sum adds from 0 in order. The walk's list is computed once, before the first item, with the work
it charges against the limits of a move, as the comprehension's first walk is. Nothing was
evaluated before the aggregate that the loop could see change: what comes before it in the value
only reads names and attributes (definitions change nothing), and the loop variable is no name the
rest of the value or the definition's own bookkeeping reads.

Where: lowering writes the value as the rules say, and records where the statement holding it is
(`LoweredFunction.value_at`, a fact of the lowered program: the `return`, or the `_value = ...` of a
definition kept between moves or remembered in a table of the board, which the lines around it
remember); the loops go right before it. Lowering decides nothing from it: the work it proves and the
checks it writes are those of the value, which the loops do alike.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from ...core.source import SourceSpan
from .. import pyir
from ..analysis import Facts
from ..lowered import LoweredFunction, Program
from ..pyir import (
    Assign,
    AugAssign,
    Block,
    BoolOp,
    Break,
    Call,
    Compare,
    Constant,
    For,
    Name,
    Paren,
    Return,
    Stmt,
    UnaryOp,
    assign,
    if_,
)

# What each aggregate's result is called, and its loop: the lines before the walk, the lines for
# an item (`_each` its value), the result's name: invented names, starting with `_` (compiler/names.py).
_RESULT = {"sum": "_total", "max": "_most", "min": "_least", "any": "_found", "all": "_every", "next": "_met"}
NAMES = frozenset({*_RESULT.values(), "_first", "_each", "_cond"})


def run(program: Program, facts: Facts) -> Program:
    """The program with the aggregates each definition computed at its call, and the end, computes
    first written out as loops before the statement that holds its value (`written_out`, below):
    where lowering says that statement is (`LoweredFunction.value_at`: a kept or tabled definition
    remembers its value in `_value`, not in its `return`), and the end's test (`Program.end`, its
    loops in `Program.end_loops`). A new program; the one given is left as it was."""
    defines = [_define(d) for d in program.defines]
    end, end_loops = program.end, program.end_loops
    if program.end_span is not None:  # (the rules have an end)
        loops, end = written_out(program.end, set(), program.end_span)
        end_loops = (*end_loops, *loops)
    return replace(program, defines=defines, end=_spanned(end, program.end), end_loops=end_loops)


def _define(d: LoweredFunction) -> LoweredFunction:
    """A definition with the loops of the aggregates its value computes first before the statement
    that holds it (which reads their results instead); `d` itself where none is, or where its value
    is remembered per state (`value_at` None: a `cached` one, as the rules ask)."""
    if d.value_at is None:
        return d
    holder = d.body[d.value_at]
    assert isinstance(holder, Return | Assign) and holder.value is not None, holder
    if _first_item(_bare(holder.value)):  # (the whole value the first item found: of the definition's type)
        loops, value = _first_written_out(_bare(holder.value), {name for name, _ in d.params}, d.returns, d.span)
    else:
        loops, value = written_out(holder.value, {name for name, _ in d.params}, d.span)
    if not loops:
        return d
    at = d.value_at
    body = (*d.body[:at], *loops, replace(holder, value=_spanned(value, holder.value)), *d.body[at + 1:])
    return replace(d, body=body, value_at=at + len(loops))


def _spanned(value: pyir.Expr, was: pyir.Expr) -> pyir.Expr:
    """`value` with the rule span of the value it stands for (the node that read the aggregate's result
    in its place has none)."""
    return value if value is was or value.span == was.span else replace(value, span=was.span)


class _Trivial:
    """A part of an expression that only reads (a name, a constant, an attribute of one)."""


_TRIVIAL = _Trivial()
_SAFE = ("+", "-", "*", "&", "|", "^")


@dataclass(frozen=True, slots=True)
class _Found:
    """An aggregate evaluated first (`call`), or only where a test evaluated first decides
    (`guard`: that test, whether the aggregate is evaluated where it holds, and whether it only
    reads, then read again rather than kept)."""

    call: Call
    guard: tuple[pyir.Expr, bool, bool] | None = None


def _bare(e: pyir.Expr) -> pyir.Expr:
    """`e` without the parentheses around it (they group; they compute nothing)."""
    while isinstance(e, Paren):
        e = e.value
    return e


def _aggregate(node: pyir.Expr) -> bool:
    """`sum(x)`, `any(x)`, `all(x)`, `max(x, default=0)`, `min(x, default=0)` as lowering writes them."""
    if not (isinstance(node, Call) and isinstance(node.func, Name) and len(node.args) == 1
            and not isinstance(node.args[0], pyir.Starred)):
        return False
    name = node.func.id
    if name == "next":  # (`first`: the first item found, or none)
        return False
    if name in ("sum", "any", "all"):
        return not node.keywords
    return name in ("max", "min") and len(node.keywords) == 1 and node.keywords[0].arg == "default" \
        and node.keywords[0].value == Constant(0)


def _first_item(node: pyir.Expr) -> bool:
    """`next((x for ...), None)`, a rule's `first(...)` as lowering writes it."""
    return (isinstance(node, Call) and node.func == Name("next") and len(node.args) == 2 and not node.keywords
            and isinstance(_bare(node.args[0]), pyir.GeneratorExp) and node.args[1] == Constant(None))


def _operands(node: BoolOp) -> tuple[pyir.Expr, ...]:
    """The operands of `a and b and c`, however it is nested (`a and (b and c)` is three)."""
    out: list[pyir.Expr] = []
    for v in node.values:
        out += _operands(v) if isinstance(v, BoolOp) and v.op == node.op else [v]
    return tuple(out)


def _first(node: pyir.Expr) -> _Found | _Trivial | None:
    """The aggregate `node` evaluates first, before anything but reads, or right after the test
    it evaluates first, where that test decides; _TRIVIAL when it only reads; None when something
    else comes first."""
    node = _bare(node)
    if _aggregate(node):
        assert isinstance(node, Call)
        return _Found(node)
    if isinstance(node, Name | Constant):
        return _TRIVIAL
    match node:
        case pyir.Attribute():
            return _TRIVIAL if _first(node.value) is _TRIVIAL else None
        case pyir.BinOp():
            found = _in_order([node.left, node.right])
            # (an operation of ints that cannot fail reads; a division, a shift or a power may raise)
            return found if isinstance(found, _Found) or node.op in _SAFE else None
        case UnaryOp():
            return _first(node.operand)
        case Compare():
            return _in_order([node.left, node.comparators[0]])  # (later comparisons may not be made)
        case BoolOp():  # (the second operand only where the first decides so; no later one)
            operands = _operands(node)
            return _guarded(operands[0], operands[1], node.op == "and")
        case pyir.IfExp():
            found = _guarded(node.test, node.body, True)
            return found if found is not None else _guarded(node.test, node.orelse, False)
        case pyir.Subscript():
            found = _in_order([node.value, node.index])
            return found if isinstance(found, _Found) else None  # (an index may be out of range)
        case pyir.Tuple() | pyir.List():
            return _in_order(list(node.elts))
        case Call() if not node.keywords and not any(isinstance(a, pyir.Starred) for a in node.args):
            found = _in_order([node.func, *node.args])
            return found if isinstance(found, _Found) else None  # (a call is no read)
    return None


def _guarded(test: pyir.Expr, then: pyir.Expr, when: bool) -> _Found | None:
    """The aggregate of `test`, else the one `then` evaluates first where `test` is `when`."""
    first = _first(test)
    if isinstance(first, _Found):
        return first
    found = _first(then)
    if not isinstance(found, _Found) or found.guard is not None:
        return None
    return _Found(found.call, (_bare(test), when, first is _TRIVIAL))


def _in_order(parts: list[pyir.Expr]) -> _Found | _Trivial | None:
    for part in parts:
        found = _first(part)
        if found is not _TRIVIAL:
            return found
    return _TRIVIAL


def _put(node: pyir.Expr, old: pyir.Expr, new: pyir.Expr) -> pyir.Expr:
    """`node` with the part that is `old` itself (that node, not one equal to it) replaced by `new`."""
    if node is old:
        return new

    def each(v: object) -> object:
        if isinstance(v, tuple):
            return tuple(each(x) for x in v)
        if isinstance(v, pyir.Keyword):
            return pyir.Keyword(v.arg, _put(v.value, old, new))
        if isinstance(v, pyir.Comprehension):
            return pyir.Comprehension(_put(v.target, old, new), _put(v.iter, old, new),
                                      tuple(_put(c, old, new) for c in v.ifs))
        return _put(v, old, new) if isinstance(v, pyir.EXPRESSIONS) else v
    changes: dict[str, Any] = {f.name: each(getattr(node, f.name)) for f in fields(node) if f.name != "span"}
    if all(_same(changes[name], getattr(node, name)) for name in changes):
        return node  # (the parts not changed stay the same nodes: a later `_put` finds them)
    return replace(node, **changes)


def _same(a: object, b: object) -> bool:
    """Whether two parts are the same objects (tuples of them: item by item)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, pyir.Keyword) and isinstance(b, pyir.Keyword):
        return a.value is b.value
    if isinstance(a, pyir.Comprehension) and isinstance(b, pyir.Comprehension):
        return a.target is b.target and a.iter is b.iter and _same(a.ifs, b.ifs)
    return a is b


def written_out(value: pyir.Expr, params: set[str], span: SourceSpan) -> tuple[list[Stmt], pyir.Expr]:
    """The loops that compute the aggregates `value` (a definition's value) evaluates first, as
    statements (the walk told by `span`), and `value` reading their results instead; ([], value)
    where none is (see the module's doc). `params`: the definition's parameters."""
    lines: list[Stmt] = []
    done: set[str] = set()
    while True:
        found = _first(value)
        if not isinstance(found, _Found):
            break
        call = found.call
        assert isinstance(call.func, Name)
        func = call.func.id
        result = _RESULT[func]
        loop = _loop(call.args[0])
        if loop is None or result in done:
            break
        binds, target, walk, conditions, item = loop
        # what is left of the value, reading the result, and the test that decides whether the loop
        # runs, kept first where it does more than read
        rest = _put(value, call, Name(result))
        guard: pyir.Expr | None = None
        if found.guard is not None:
            test, when, reads = found.guard
            if not reads and "_cond" in done:
                break
            guard = test if reads else Name("_cond")
            if not reads:
                rest = _put(rest, test, Name("_cond"))
            guard = guard if when else UnaryOp("not", Paren(guard))
        bound = {n.id for target_node in (target, *(b for b, _ in binds))
                 for n in pyir.walk(target_node) if isinstance(n, Name)}
        read = _free(rest, frozenset())
        if read is None:  # (text it cannot read the names of)
            break
        if bound & (read | params | done) or (bound & NAMES and target != Name("_each")):  # (`_each`: its own item)
            break
        done.add(result)
        if found.guard is not None and not found.guard[2]:
            done.add("_cond")
            lines.append(assign(Name("_cond"), found.guard[0]))
        lines += _lines(func, result, binds, target, walk, conditions, item, guard, span)
        value = rest
    return lines, value


def _first_written_out(value: pyir.Expr, params: set[str], returns: str,
                       span: SourceSpan) -> tuple[list[Stmt], pyir.Expr]:
    """A definition's value that is the first item of a walk found (`next((x for ...), None)`) as a
    loop that stops at it (`_met`, declared of the definition's type), and the value read from it;
    ([], value) where its walk binds a parameter or an invented name."""
    assert isinstance(value, Call)
    loop = _loop(value.args[0])
    if loop is None:
        return [], value
    binds, target, walk, conditions, item = loop
    bound = {n.id for target_node in (target, *(b for b, _ in binds))
             for n in pyir.walk(target_node) if isinstance(n, Name)}
    if bound & (params | NAMES):
        return [], value
    met = Name(_RESULT["next"])
    body: Block = (assign(met, item), Break())
    if conditions:
        test = conditions[0] if len(conditions) == 1 else BoolOp("and", tuple(Paren(c) for c in conditions))
        body = (if_(test, *body),)
    note = "`aggregate_loops`: `first` written out as a loop"
    return [assign(met, Constant(None), annotation=returns), *(assign(name, v) for name, v in binds),
            For(target, walk, body, span, note)], met


def _free(node: pyir.Expr, bound: frozenset[str]) -> set[str] | None:
    """The names `node` reads that no comprehension inside it binds (its own variables are its
    own); None for text (a `Code` leaf, which lowering no longer builds): not known."""
    if isinstance(node, Name):
        return set() if node.id in bound else {node.id}
    if isinstance(node, pyir.Code):
        return None
    out: set[str] = set()
    if isinstance(node, pyir.GeneratorExp | pyir.ListComp | pyir.SetComp | pyir.DictComp):
        inner = bound
        parts: list[set[str] | None] = []
        for clause in node.generators:
            parts.append(_free(clause.iter, inner))
            inner = inner | {n.id for n in pyir.walk(clause.target) if isinstance(n, Name)}
            parts += [_free(cond, inner) for cond in clause.ifs]
        elts = [node.key, node.value] if isinstance(node, pyir.DictComp) else [node.elt]
        parts += [_free(elt, inner) for elt in elts]
    else:
        parts = [_free(child, bound) for child in pyir.subexpressions(node)]
    for part in parts:
        if part is None:
            return None
        out |= part
    return out


def _loop(arg: pyir.Expr) -> tuple[list[tuple[pyir.Expr, pyir.Expr]], pyir.Expr, pyir.Expr, list[pyir.Expr],
                                    pyir.Expr] | None:
    """An aggregate's argument as its loop: the values its clauses bind once (`for x in (v,)`, as
    `hoist` writes them: target and value), then its walk's target, the walk, its conditions and
    the item (the node of each)."""
    arg = _bare(arg)
    if isinstance(arg, pyir.GeneratorExp | pyir.ListComp):
        *once, clause = arg.generators
        if any(c.ifs or not (isinstance(c.iter, pyir.Tuple) and len(c.iter.elts) == 1) for c in once):
            return None
        binds = [(_bare(c.target), _bare(c.iter.elts[0])) for c in once if isinstance(c.iter, pyir.Tuple)]
        return binds, _bare(clause.target), _bare(clause.iter), [_bare(c) for c in clause.ifs], _bare(arg.elt)
    return [], Name("_each"), arg, [], Name("_each")


def _lines(func: str, result: str, binds: list[tuple[pyir.Expr, pyir.Expr]], target: pyir.Expr, walk: pyir.Expr,
           conditions: list[pyir.Expr], item: pyir.Expr, guard: pyir.Expr | None, span: SourceSpan) -> list[Stmt]:
    note = f"`aggregate_loops`: `{func}` written out as a loop"
    total, first, each_ = Name(result), Name("_first"), Name("_each")
    start = {"sum": [(total, Constant(0))], "any": [(total, Constant(False))], "all": [(total, Constant(True))]}.get(
        func, [(total, Constant(0)), (first, Constant(True))])  # (the largest or smallest: 0 where there is no item)
    each: Block = () if item == each_ else (assign(each_, item),)
    loops: dict[str, Block] = {
        "sum": (AugAssign(total, "+", item),),
        "max": (*each, if_(BoolOp("or", (first, Compare(each_, (">",), (total,)))), assign(total, each_),
                           assign(first, Constant(False)))),
        "min": (*each, if_(BoolOp("or", (first, Compare(each_, ("<",), (total,)))), assign(total, each_),
                           assign(first, Constant(False)))),
        "any": (if_(item, assign(total, Constant(True)), Break()),),
        "all": (if_(UnaryOp("not", Paren(item)), assign(total, Constant(False)), Break()),),
    }
    body = loops[func]
    if conditions:
        test = conditions[0] if len(conditions) == 1 else BoolOp("and", tuple(Paren(c) for c in conditions))
        body = (if_(test, *body),)
    # (bound once, before the walk)
    loop: list[Stmt] = [*(assign(name, value) for name, value in binds), For(target, walk, body, span, note)]
    if guard is not None:  # (where the test evaluated first says the aggregate is evaluated)
        loop = [if_(guard, *loop)]
    return [*(assign(name, value) for name, value in start), *loop]
