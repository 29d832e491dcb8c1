"""Python expression text read as the lowered IR's expression nodes (compiler/pyir.py), as lowering
would build them, parentheses kept: what the tests of the passes of the lowered level write their
cases in (`nodes("sum(x for x in self.xs if x > 2)")`).

A helper module, not a test file: pytest collects nothing from it.
"""

from __future__ import annotations

import ast

from rulewright.compiler import pyir
from rulewright.compiler.pyprint import text

_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%", ast.BitAnd: "&",
           ast.BitOr: "|", ast.BitXor: "^"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in",
            ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
_UNARY = {ast.Not: "not", ast.USub: "-", ast.Invert: "~"}


def nodes(code: str) -> pyir.Expr:
    """The expression nodes lowering would build for `code` (one line): Python's parser, with each
    pair of parentheses written kept (`Paren`, a tuple's own, a generator's); checked to print `code`."""
    node = _node(ast.parse(code, mode="eval").body, code.encode(), frozenset())  # (offsets: of UTF-8 bytes)
    assert text(node) == code, text(node)
    return node


def _node(n: ast.expr, code: bytes, calls: frozenset[int]) -> pyir.Expr:
    """`n` as nodes, in as many `Paren` as pairs of parentheses wrap it in `code` (not those of a
    call: `calls`, the positions of the calls' own)."""
    start, end = n.col_offset, n.end_col_offset or 0
    inner = _bare_node(n, code, calls)
    if isinstance(n, ast.GeneratorExp) and start not in calls:  # (its own parentheses are in its segment)
        inner = pyir.Paren(inner)
    while code[start - 1:start] == b"(" and code[end:end + 1] == b")" and start - 1 not in calls:
        inner, start, end = pyir.Paren(inner), start - 1, end + 1
    return inner


def _bare_node(n: ast.expr, code: bytes, calls: frozenset[int]) -> pyir.Expr:
    def sub(x: ast.expr, more: frozenset[int] = frozenset()) -> pyir.Expr:
        return _node(x, code, calls | more)

    def clauses(gens: list[ast.comprehension]) -> tuple[pyir.Comprehension, ...]:
        return tuple(pyir.Comprehension(sub(g.target), sub(g.iter), tuple(sub(c) for c in g.ifs)) for g in gens)
    match n:
        case ast.Name():
            return pyir.Name(n.id)
        case ast.Constant():
            return pyir.Constant(n.value)
        case ast.Attribute():
            return pyir.Attribute(sub(n.value), n.attr)
        case ast.Subscript():
            return pyir.Subscript(sub(n.value), sub(n.slice))
        case ast.Starred():
            return pyir.Starred(sub(n.value))
        case ast.Call():
            opened = frozenset({n.func.end_col_offset or 0})
            return pyir.Call(sub(n.func), tuple(sub(a, opened) for a in n.args),
                             tuple(pyir.Keyword(k.arg, sub(k.value)) for k in n.keywords))
        case ast.UnaryOp():
            return pyir.UnaryOp(_UNARY[type(n.op)], sub(n.operand))
        case ast.BinOp():
            return pyir.BinOp(sub(n.left), _BINARY[type(n.op)], sub(n.right))
        case ast.BoolOp():
            return pyir.BoolOp("and" if isinstance(n.op, ast.And) else "or", tuple(sub(v) for v in n.values))
        case ast.Compare():
            return pyir.Compare(sub(n.left), tuple(_COMPARE[type(o)] for o in n.ops),
                                tuple(sub(c) for c in n.comparators))
        case ast.IfExp():
            return pyir.IfExp(sub(n.body), sub(n.test), sub(n.orelse))
        case ast.Tuple():
            own = code[n.col_offset:n.col_offset + 1] == b"("
            return pyir.Tuple(tuple(sub(e, frozenset({n.col_offset}) if own else frozenset()) for e in n.elts),
                              parenthesised=own)
        case ast.List():
            return pyir.List(tuple(sub(e) for e in n.elts))
        case ast.GeneratorExp():
            return pyir.GeneratorExp(sub(n.elt, frozenset({n.col_offset})), clauses(n.generators))
        case ast.ListComp():
            return pyir.ListComp(sub(n.elt), clauses(n.generators))
        case ast.NamedExpr():
            return pyir.NamedExpr(pyir.Name(n.target.id), sub(n.value))
    raise AssertionError(f"no node for {ast.dump(n)}")
