"""AST back to text: the canonical DSL form of any expression, statement or block header.

`unparse(node)` writes what a designer would write, with the fewest parentheses the grammar
(`grammar/rules.lark`) needs: `marker[s] == face_down and roll > 0`,
`count(marker[s] == gold_side for s in sector)`, `(a + b) * c`. For every expression,
simple statement and header `x`, `parse(unparse(x))` is `x` again, spans aside.

`for` and `if` statements are blocks in a rule file (a YAML key holding a list); they are
written as an indented block, one statement a line, as `rulewright diff` shows effects:

    for s in line:
      marker[s] = gold_side
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from . import ast

# Binding strength, weakest first, following the grammar's rule nesting.
_COND = 1  # a if c else b
_OR = 2
_AND = 3
_NOT = 4
_COMPARE = 5  # == != < <= > >= in, not in: never chained
_SUM = 6
_PRODUCT = 7
_UNARY = 8  # -x
_POSTFIX = 9  # x[i], x.name, and every atom

_BINARY = {
    "or": _OR,
    "and": _AND,
    "==": _COMPARE, "!=": _COMPARE, "<": _COMPARE, "<=": _COMPARE, ">": _COMPARE, ">=": _COMPARE,
    "in": _COMPARE, "not in": _COMPARE,
    "+": _SUM, "-": _SUM,
    "*": _PRODUCT, "//": _PRODUCT, "%": _PRODUCT,
}

INDENT = "  "


def unparse(node: ast.Expr | ast.Stmt | ast.Header | ast.Target | ast.Keyword) -> str:
    """The canonical DSL text of one node (a block statement spans several lines)."""
    if isinstance(node, (ast.Assign, ast.Let, ast.CallStmt, ast.Goto, ast.EndTurn, ast.Pass, ast.Tell, ast.For, ast.If,
                         ast.Ask, ast.While, ast.Break, ast.Continue)):
        return "\n".join(_stmt(node, 0))
    if isinstance(node, ast.ForHeader):
        return f"for {node.var} in {_expr(node.domain, _COND)}"
    if isinstance(node, ast.WhileHeader):
        return f"while {_expr(node.test, _COND)}"
    if isinstance(node, ast.AskHeader):
        return (f"ask {_expr(node.seat, _COND)} to choose {'secretly ' if node.secret else ''}{node.var} in "
                f"{_expr(node.domain, _COND)}")
    if isinstance(node, ast.IfHeader):
        return "else" if node.test is None else f"{node.kind} {_expr(node.test, _COND)}"
    if isinstance(node, ast.Target):
        return _target(node)
    if isinstance(node, ast.Keyword):
        return f"{node.name}={_expr(node.value, _COND)}"
    return _expr(node, _COND)


def unparse_block(stmts: Sequence[ast.Stmt], indent: int = 0) -> str:
    """A list of effects, one statement a line, nested blocks indented."""
    return "\n".join(line for s in stmts for line in _stmt(s, indent))


def precedence(node: ast.Expr) -> int:
    """How strongly an expression binds (higher binds tighter)."""
    if isinstance(node, ast.Cond):
        return _COND
    if isinstance(node, ast.Binary):
        return _BINARY.get(node.op, _COND)
    if isinstance(node, ast.Unary):
        return _NOT if node.op == "not" else _UNARY
    return _POSTFIX


def _expr(node: ast.Expr, least: int) -> str:
    """`node` written where the grammar wants an expression binding at least as tight as `least`."""
    text = _bare(node)
    return f"({text})" if precedence(node) < least else text


def _bare(node: ast.Expr) -> str:
    match node:
        case ast.Num(value=value):
            return str(value) if value >= 0 else f"({value})"
        case ast.Str(value=value):
            return f"'{value}'" if '"' in value else f'"{value}"'
        case ast.BoolLit(value=value):
            return "true" if value else "false"
        case ast.Name(id=name):
            return name
        case ast.Attr(obj=obj, name=name):
            return f"{_expr(obj, _POSTFIX)}.{name}"
        case ast.Index(obj=obj, index=index):
            return f"{_expr(obj, _POSTFIX)}[{_expr(index, _COND)}]"
        case ast.Call(func=func, args=args, keywords=keywords):
            parts = [_expr(a, _COND) for a in args] + [unparse(k) for k in keywords]
            return f"{func}({', '.join(parts)})"
        case ast.Comprehension(func=func, elt=elt, var=var, domain=domain, cond=cond, more=more):
            inner = f"{_expr(elt, _COND)} for {var} in {_expr(domain, _OR)}"
            if cond is not None:
                inner += f" if {_expr(cond, _OR)}"
            for more_var, more_domain, more_cond in more:
                inner += f" for {more_var} in {_expr(more_domain, _OR)}"
                if more_cond is not None:
                    inner += f" if {_expr(more_cond, _OR)}"
            return f"[{inner}]" if func == "list" else f"{func}({inner})"
        case ast.ListLit(items=items):
            return "[" + ", ".join(_expr(i, _COND) for i in items) + "]"
        case ast.SetLit(items=items):
            return "{" + ", ".join(_expr(i, _COND) for i in items) + "}"
        case ast.Unary(op="not", operand=operand):
            return f"not {_expr(operand, _NOT)}"
        case ast.Unary(op=op, operand=operand):
            return f"{op}{_expr(operand, _UNARY)}"
        case ast.Binary(op=op, left=left, right=right):
            strength = _BINARY.get(op, _COND)
            if strength == _COMPARE:  # `a == b == c` is no expression: both sides are sums
                return f"{_expr(left, _SUM)} {op} {_expr(right, _SUM)}"
            # left-associative: the right operand must bind tighter
            return f"{_expr(left, strength)} {op} {_expr(right, strength + 1)}"
        case ast.Cond(test=test, then=then, orelse=orelse):
            return f"{_expr(then, _OR)} if {_expr(test, _OR)} else {_expr(orelse, _COND)}"
        case _:
            assert_never(node)


def _target(target: ast.Target) -> str:
    text = target.name if target.index is None else f"{target.name}[{_expr(target.index, _COND)}]"
    return text if target.item is None else f"{text}[{_expr(target.item, _COND)}]"


def _stmt(node: ast.Stmt, indent: int) -> list[str]:
    pad = INDENT * indent
    match node:
        case ast.Assign(target=target, op=op, value=value):
            return [f"{pad}{_target(target)} {op} {_expr(value, _COND)}"]
        case ast.Let(name=name, value=value):
            return [f"{pad}let {name} = {_expr(value, _COND)}"]
        case ast.CallStmt(call=call):
            return [pad + _bare(call)]
        case ast.Goto(phase=phase):
            return [f"{pad}goto {phase}"]
        case ast.EndTurn():
            return [f"{pad}end_turn"]
        case ast.Pass():
            return [f"{pad}pass"]
        case ast.Break():
            return [f"{pad}break"]
        case ast.Continue():
            return [f"{pad}continue"]
        case ast.While(test=test, body=body):
            return [f"{pad}while {_expr(test, _COND)}:", *_body(body, indent + 1)]
        case ast.Tell(parts=parts):
            text = "".join(p if isinstance(p, str) else "{" + _expr(p, _COND) + "}" for p in parts)
            return [f'{pad}tell "{text}"' if '"' not in text else f"{pad}tell '{text}'"]
        case ast.For(var=var, domain=domain, body=body):
            return [f"{pad}for {var} in {_expr(domain, _COND)}:", *_body(body, indent + 1)]
        case ast.Ask(seat=seat, var=var, domain=domain, body=body, secret=secret):
            return [f"{pad}ask {_expr(seat, _COND)} to choose {'secretly ' if secret else ''}{var} in "
                    f"{_expr(domain, _COND)}:",
                    *_body(body, indent + 1)]
        case ast.If(branches=branches, orelse=orelse):
            lines: list[str] = []
            for i, (test, body) in enumerate(branches):
                lines.append(f"{pad}{'if' if i == 0 else 'elif'} {_expr(test, _COND)}:")
                lines.extend(_body(body, indent + 1))
            if orelse:
                lines.append(f"{pad}else:")
                lines.extend(_body(orelse, indent + 1))
            return lines
        case _:
            assert_never(node)


def _body(stmts: Sequence[ast.Stmt], indent: int) -> list[str]:
    lines = [line for s in stmts for line in _stmt(s, indent)]
    return lines or [INDENT * indent + "pass"]
