"""Pass `aggregate_loops`: the sum, largest, smallest, any or all of a comprehension that a
definition's value computes first is written out as a loop before it, not made as a generator
and handed to a built-in (docs/optimiser.md).

China (Schacht)'s room for emissaries in a province is the largest holding of palaces there, less
the emissaries:

    "emissary_room(r: region)": "max(palaces_in(q, r) for q in owners) - len(emissaries[r])"

Written as Python's `max((... for q in range(self.num_seats)), default=0)` it took some 1.3 µs
for three players: Python 3.11 makes the generator a function object and a frame at every call,
resumes it once per item, and `max` parses its keyword `default` through its slow path; the same
work written as a loop takes a third of that. So lowering writes it so:

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
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from ...core.source import SourceSpan
from .. import typed as t
from ..analysis import Facts
from ..pyir import AugAssign, Block, Break, Code, For, Stmt, assign, if_

# What each aggregate's result is called, and its loop: the lines before the walk, the lines for
# an item (`_each` its value), the result's name: invented names, starting with `_` (compiler/names.py).
_RESULT = {"sum": "_total", "max": "_most", "min": "_least", "any": "_found", "all": "_every"}
NAMES = frozenset({*_RESULT.values(), "_first", "_each", "_cond"})


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    """Each definition computed at its call, and the end, marked to be written in this form
    (`t.Define.loops_written_out`, `TypedProgram.end_loops_written_out`): which aggregate a value
    computes first is a question about the code its value is lowered to, so lowering asks it
    (`written_out`, below) as it writes each value marked so."""
    defines = tuple(d if d.cached or d.loops_written_out else replace(d, loops_written_out=True)
                    for d in program.defines)
    return replace(program, defines=defines, end_loops_written_out=program.end is not None)


class _Trivial:
    """A part of an expression that only reads (a name, a constant, an attribute of one)."""


_TRIVIAL = _Trivial()
_SAFE = (ast.Add, ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)


@dataclass(frozen=True, slots=True)
class _Found:
    """An aggregate evaluated first (`call`), or only where a test evaluated first decides
    (`guard`: that test, whether the aggregate is evaluated where it holds, and whether it only
    reads, then read again rather than kept)."""

    call: ast.Call
    guard: tuple[ast.expr, bool, bool] | None = None


def _aggregate(node: ast.expr) -> bool:
    """`sum(x)`, `any(x)`, `all(x)`, `max(x, default=0)`, `min(x, default=0)` as lowering writes them."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1
            and not isinstance(node.args[0], ast.Starred)):
        return False
    name = node.func.id
    if name in ("sum", "any", "all"):
        return not node.keywords
    return name in ("max", "min") and len(node.keywords) == 1 and node.keywords[0].arg == "default" \
        and isinstance(node.keywords[0].value, ast.Constant) and node.keywords[0].value.value == 0


def _first(node: ast.expr) -> _Found | _Trivial | None:
    """The aggregate `node` evaluates first, before anything but reads, or right after the test
    it evaluates first, where that test decides; _TRIVIAL when it only reads; None when something
    else comes first."""
    if _aggregate(node):
        assert isinstance(node, ast.Call)
        return _Found(node)
    if isinstance(node, ast.Name | ast.Constant):
        return _TRIVIAL
    match node:
        case ast.Attribute():
            return _TRIVIAL if _first(node.value) is _TRIVIAL else None
        case ast.BinOp():
            found = _in_order([node.left, node.right])
            # (an operation of ints that cannot fail reads; a division, a shift or a power may raise)
            return found if isinstance(found, _Found) or isinstance(node.op, _SAFE) else None
        case ast.UnaryOp():
            return _first(node.operand)
        case ast.Compare():
            return _in_order([node.left, node.comparators[0]])  # (later comparisons may not be made)
        case ast.BoolOp():  # (the second operand only where the first decides so; no later one)
            return _guarded(node.values[0], node.values[1], isinstance(node.op, ast.And))
        case ast.IfExp():
            found = _guarded(node.test, node.body, True)
            return found if found is not None else _guarded(node.test, node.orelse, False)
        case ast.Subscript():
            found = _in_order([node.value, node.slice])
            return found if isinstance(found, _Found) else None  # (an index may be out of range)
        case ast.Tuple() | ast.List():
            return _in_order(node.elts)
        case ast.Call() if not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
            found = _in_order([node.func, *node.args])
            return found if isinstance(found, _Found) else None  # (a call is no read)
    return None


def _guarded(test: ast.expr, then: ast.expr, when: bool) -> _Found | None:
    """The aggregate of `test`, else the one `then` evaluates first where `test` is `when`."""
    first = _first(test)
    if isinstance(first, _Found):
        return first
    found = _first(then)
    if not isinstance(found, _Found) or found.guard is not None:
        return None
    return _Found(found.call, (test, when, first is _TRIVIAL))


def _in_order(parts: list[ast.expr]) -> _Found | _Trivial | None:
    for part in parts:
        found = _first(part)
        if found is not _TRIVIAL:
            return found
    return _TRIVIAL


def written_out(code: str, params: set[str], span: SourceSpan) -> tuple[list[Stmt], str]:
    """The loops that compute the aggregates `code` (a definition's value) evaluates first, as
    statements (the walk told by `span`), and `code` reading their results instead; ([], code) where none is
    (see the module's doc). `params`: the definition's parameters."""
    lines: list[Stmt] = []
    done: set[str] = set()
    while "\n" not in code:
        try:
            tree = ast.parse(code, mode="eval")
        except SyntaxError:  # (never: lowering writes Python)
            break
        found = _first(tree.body)
        if not isinstance(found, _Found):
            break
        call = found.call
        func = call.func.id  # type: ignore[attr-defined]
        result = _RESULT[func]
        loop = _loop(code, call.args[0])
        if loop is None or result in done:
            break
        binds, target, walk, conditions, item = loop
        # what is left of the value, reading the result, and the test that decides whether the loop
        # runs, kept first where it does more than read
        spans = [(call.col_offset, call.end_col_offset or 0, result)]
        guard = ""
        if found.guard is not None:
            test, when, reads = found.guard
            text = ast.get_source_segment(code, test)
            if text is None or (not reads and "_cond" in done):
                break
            guard = text if reads else "_cond"
            if not reads:
                spans.append((test.col_offset, test.end_col_offset or 0, "_cond"))
            guard = guard if when else f"not ({guard})"
        # (offsets are of the line's UTF-8 bytes; the test of an `if` comes after its branch: the last first)
        data = code.encode()
        for begin, end, name in sorted(spans, reverse=True):
            data = data[:begin] + name.encode() + data[end:]
        rest = data.decode()
        bound = {n.id for target_code in (target, *(b for b, _ in binds))
                 for n in ast.walk(ast.parse(target_code, mode="eval")) if isinstance(n, ast.Name)}
        try:
            read = _free(ast.parse(rest, mode="eval").body, frozenset())
        except SyntaxError:  # (never: a name put in place of an expression)
            break
        if bound & (read | params | done) or (bound & NAMES and target != "_each"):  # (`_each`: its own item)
            break
        done.add(result)
        if found.guard is not None and not found.guard[2]:
            done.add("_cond")
            lines.append(assign("_cond", f"{ast.get_source_segment(code, found.guard[0])}"))
        lines += _lines(func, result, binds, target, walk, conditions, item, guard, span)
        code = rest
    return lines, code


def _free(node: ast.AST, bound: frozenset[str]) -> set[str]:
    """The names `node` reads that no comprehension inside it binds (its own variables are its own)."""
    if isinstance(node, ast.Name):
        return set() if node.id in bound else {node.id}
    if isinstance(node, ast.GeneratorExp | ast.ListComp | ast.SetComp | ast.DictComp):
        out: set[str] = set()
        inner = bound
        for clause in node.generators:
            out |= _free(clause.iter, inner)
            inner = inner | {n.id for n in ast.walk(clause.target) if isinstance(n, ast.Name)}
            for cond in clause.ifs:
                out |= _free(cond, inner)
        elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for elt in elts:
            out |= _free(elt, inner)
        return out
    return set().union(*(_free(child, bound) for child in ast.iter_child_nodes(node)))


def _loop(code: str, arg: ast.expr) -> tuple[list[tuple[str, str]], str, str, list[str], str] | None:
    """An aggregate's argument as its loop: the values its clauses bind once (`for x in (v,)`, as
    `hoist` writes them: target and value), then its walk's target, the walk, its conditions and
    the item (the code of each)."""
    if isinstance(arg, ast.GeneratorExp | ast.ListComp):
        *once, clause = arg.generators
        if clause.is_async or any(c.is_async or c.ifs or not (isinstance(c.iter, ast.Tuple) and len(c.iter.elts) == 1)
                                  for c in once):
            return None
        if any(isinstance(n, ast.Lambda | ast.NamedExpr) for n in ast.walk(arg)):
            return None
        binds = [(ast.get_source_segment(code, c.target), ast.get_source_segment(code, c.iter.elts[0]))
                 for c in once if isinstance(c.iter, ast.Tuple)]
        parts = [ast.get_source_segment(code, x) for x in (clause.target, clause.iter, arg.elt, *clause.ifs)]
        if any(p is None for p in parts) or any(t is None or v is None for t, v in binds):
            return None
        target, walk, item, *conditions = (p for p in parts if p is not None)
        return [(t, v) for t, v in binds if t is not None and v is not None], target, walk, conditions, item
    plain = ast.get_source_segment(code, arg)
    return None if plain is None else ([], "_each", plain, [], "_each")


def _lines(func: str, result: str, binds: list[tuple[str, str]], target: str, walk: str, conditions: list[str],
           item: str, guard: str, span: SourceSpan) -> list[Stmt]:
    note = f"`aggregate_loops`: `{func}` written out as a loop"
    start = {"sum": [(result, "0")], "any": [(result, "False")], "all": [(result, "True")]}.get(
        func, [(result, "0"), ("_first", "True")])  # (the largest or smallest: 0 where there is no item)
    each: Block = () if item == "_each" else (assign("_each", item),)
    loops: dict[str, Block] = {
        "sum": (AugAssign(Code(result), "+", Code(item)),),
        "max": (*each, if_(f"_first or _each > {result}", assign(result, "_each"), assign("_first", "False"))),
        "min": (*each, if_(f"_first or _each < {result}", assign(result, "_each"), assign("_first", "False"))),
        "any": (if_(item, assign(result, "True"), Break()),),
        "all": (if_(f"not ({item})", assign(result, "False"), Break()),),
    }
    body = loops[func]
    if conditions:
        body = (if_(" and ".join(f"({c})" if len(conditions) > 1 else c for c in conditions), *body),)
    # (bound once, before the walk)
    loop: list[Stmt] = [*(assign(name, value) for name, value in binds), For(Code(target), Code(walk), body,
                                                                              span, note)]
    if guard:  # (where the test evaluated first says the aggregate is evaluated)
        loop = [if_(guard, *loop)]
    return [*(assign(name, value) for name, value in start), *loop]
