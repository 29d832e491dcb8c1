"""`Reader`, what every module of the builder reads the YAML tree with: the shape of a node (a
mapping, a list, text, a whole number, a name), its keys checked against a table of keys.py, an
expression or a block of effects parsed (compiler/parse.py), a type or a signature read; and the
problems found, in the order found.

`SIGNATURE` is the form of a definition's or procedure's key, `name(param: type, ...)`
(compiler/schema.py writes it into the JSON Schema)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...core.load import YMap, YNode, YScalar, YSeq
from ...core.source import Diagnostic, SourceSpan, did_you_mean
from ...runtime.errors import is_int
from .. import ast, ir
from ..names import RULE_NAME_HINT, rule_name_problem
from ..parse import Kind, ParseError, parse
from ..types import Ty, parse_type

SIGNATURE = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*$")
_NAME = re.compile(r"[a-z_][a-z0-9_]*")  # always used with fullmatch: `$` would allow a final newline
# Effects nest as Python blocks do, and Python refuses more than 20 nested loops.
_MAX_BLOCK_DEPTH = 12
_MAX_TYPE_DEPTH = 8


@dataclass
class Reader:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Names that become module constants (each value of an enumeration, each die): name, what, where.
    values: list[tuple[str, str, SourceSpan]] = field(default_factory=list)
    # The records declared so far (`records:`), by name: their types, which a type may name.
    records: dict[str, Ty] = field(default_factory=dict)

    def constants(self, refs: tuple[ir.NameRef, ...], what: str) -> tuple[str, ...]:
        """The names of `refs`, remembered as names of module constants."""
        self.values.extend((ref.name, what, ref.span) for ref in refs)
        return tuple(ref.name for ref in refs)

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(span, message, hint))

    def entries(
        self, node: YNode | None, section: str, what: str, declared_as: str, allowed: tuple[str, ...] | None
    ) -> Iterator[tuple[str, YScalar, YMap]]:
        """The named entries of a section (`options:`, `actions:` ...): each entry's name, key and
        mapping, once the name is a proper one and (given `allowed`) its keys are known ones."""
        for key, value in (self.mapping(node, section) or YMap((), SourceSpan("", 0, 0, 0, 0))).items:
            m = self.mapping(value, f"{what} `{key.value}`")
            name = self.declared(key, declared_as)
            if m is None or name is None:
                continue
            if allowed is not None:
                self.keys(m, allowed, f"{what} `{key.value}`")
            yield name, key, m

    def mapping(self, node: YNode | None, what: str) -> YMap | None:
        if node is None:
            return None
        if isinstance(node, YMap):
            return node
        if isinstance(node, YScalar) and node.value is None:
            return YMap((), node.span)
        self.error(node.span, f"{what} must be a mapping")
        return None

    def sequence(self, node: YNode | None, what: str) -> YSeq | None:
        if node is None:
            return None
        if isinstance(node, YSeq):
            return node
        if isinstance(node, YScalar) and node.value is None:
            return YSeq((), node.span)
        self.error(node.span, f"{what} must be a list")
        return None

    def keys(self, node: YMap, allowed: tuple[str, ...], what: str) -> None:
        for key, _ in node.items:
            name = str(key.value)
            if name not in allowed:
                hint = did_you_mean(name, allowed) or f"known keys: {', '.join(allowed)}"
                self.error(key.span, f"unknown key `{name}` in {what}", hint)

    def text(self, node: YNode | None, what: str, default: str | None = None) -> str | None:
        if node is None:
            return default
        if isinstance(node, YScalar) and isinstance(node.value, str):
            return node.value
        if isinstance(node, YScalar) and is_int(node.value):
            return str(node.value)
        self.error(node.span, f"{what} must be text")
        return default

    def declared(self, key: YScalar, what: str) -> str | None:
        """The name a key declares (it becomes a Python name), or None if it is not a name."""
        name = str(key.value)
        if isinstance(key.value, str) and _NAME.fullmatch(name):
            self.rule_name(name, key.span, what)  # (reported, and kept: no "unknown name" where it is used)
            return name
        self.error(key.span, f"{what} `{name}` is not a name", "names are lowercase letters, digits and `_`")
        return None

    def rule_name(self, name: str, span: SourceSpan, what: str) -> bool:
        """Refuses a name that is lowercase letters, digits and `_` but no rule name (`_x`, `x_`,
        `a__b`: generated code's own, compiler/names.py); True if it is one. A name refused is
        still read (the rule file is refused), so that its uses do not report it unknown."""
        problem = rule_name_problem(name)
        if problem is not None:
            self.error(span, f"{what} `{name}` is not a rule name: it {problem}", RULE_NAME_HINT)
        return problem is None

    def name(self, node: YNode | None, what: str) -> ir.NameRef | None:
        value = self.text(node, what)
        if value is None or node is None:
            return None
        if not _NAME.fullmatch(value):
            self.error(node.span, f"{what} `{value}` is not a name", "names are lowercase letters, digits and `_`")
            return None
        self.rule_name(value, node.span, what)  # (reported, and kept: no "unknown name" where it is used)
        return ir.NameRef(value, node.span)

    def names(self, node: YNode | None, what: str) -> tuple[ir.NameRef, ...]:
        if isinstance(node, YScalar) and isinstance(node.value, str):
            ref = self.name(node, what)
            return (ref,) if ref else ()
        seq = self.sequence(node, what)
        if seq is None:
            return ()
        return tuple(r for r in (self.name(n, what) for n in seq.items) if r is not None)

    def integer(self, node: YNode | None, what: str) -> int | None:
        if node is None:
            return None
        if isinstance(node, YScalar) and is_int(node.value):
            return node.value
        self.error(node.span, f"{what} must be a whole number")
        return None

    def boolean(self, node: YNode | None, what: str) -> bool:
        if node is None:
            return False
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            return node.value
        self.error(node.span, f"{what} must be true or false")
        return False

    def parse(self, node: YNode | None, kind: Kind, what: str) -> object | None:
        if node is None:
            return None
        if not isinstance(node, YScalar) or node.value is None or isinstance(node.value, float):
            self.error(node.span, f"{what} must be an expression written as text")
            return None
        raw = node.value
        text = ("true" if raw else "false") if isinstance(raw, bool) else str(raw)
        try:
            result: object = parse(text, node.text_span, kind)
        except ParseError as exc:
            self.diagnostics.append(exc.diagnostic)
            return None
        return result

    def expr(self, node: YNode | None, what: str) -> ast.Expr | None:
        result = self.parse(node, "expr", what)
        return result  # type: ignore[return-value]

    def block(self, node: YNode | None, what: str, depth: int = 0) -> tuple[ast.Stmt, ...]:
        """A list of effects; `for ...` / `while ...` / `if ...` / `elif` / `else` / `ask ...` keys open
        nested blocks."""
        if node is None:
            return ()
        if isinstance(node, YScalar) and isinstance(node.value, str):
            node = YSeq((node,), node.span)
        seq = self.sequence(node, what)
        if seq is None:
            return ()
        out: list[ast.Stmt] = []
        for item in seq.items:
            if isinstance(item, YMap):
                if len(item.items) != 1:
                    self.error(item.span,
                               "a block is one `for ...`, `while ...`, `if ...`, `elif ...`, `else` or `ask ...` key "
                               "with a list")
                    continue
                key, body_node = item.items[0]
                if depth >= _MAX_BLOCK_DEPTH:
                    self.error(key.span, f"effects nested too deeply (more than {_MAX_BLOCK_DEPTH} blocks)",
                               "move the inner part into a procedure")
                    continue
                header = self.parse(key, "header", "block header")
                if header is None:
                    continue
                body = self.block(body_node, what, depth + 1)
                if isinstance(header, ast.ForHeader):
                    out.append(ast.For(header.var, header.domain, body, header.span))
                elif isinstance(header, ast.WhileHeader):
                    out.append(ast.While(header.test, body, header.span))
                elif isinstance(header, ast.AskHeader):
                    out.append(ast.Ask(header.seat, header.var, header.domain, body, header.span, header.secret))
                elif isinstance(header, ast.IfHeader):
                    self._add_branch(out, header, body)
            else:
                stmt = self.parse(item, "stmt", "effect")
                if stmt is not None:
                    out.append(stmt)  # type: ignore[arg-type]
        return tuple(out)

    def _add_branch(self, out: list[ast.Stmt], header: ast.IfHeader, body: tuple[ast.Stmt, ...]) -> None:
        if header.kind == "if":
            assert header.test is not None
            out.append(ast.If(((header.test, body),), (), header.span))
            return
        previous = out[-1] if out else None
        if not isinstance(previous, ast.If) or previous.orelse:
            self.error(header.span, f"`{header.kind}` without an `if` before it")
            return
        if header.kind == "elif":
            assert header.test is not None
            out[-1] = ast.If(previous.branches + ((header.test, body),), (), previous.span)
        else:
            out[-1] = ast.If(previous.branches, body or (ast.Pass(header.span),), previous.span)

    def type_of(self, text: str, span: SourceSpan, entity_kinds: set[str], enums: set[str]) -> Ty | None:
        """A type written in a rule file, or None (with an error)."""
        if text.count("(") > _MAX_TYPE_DEPTH:
            self.error(span, f"type nested too deeply (more than {_MAX_TYPE_DEPTH} levels)")
            return None
        ty = parse_type(text, entity_kinds, enums, self.records)
        if isinstance(ty, str):
            self.error(span, ty, did_you_mean(text.strip(), sorted(entity_kinds | enums | set(self.records))
                                              + ["int", "bool"]))
            return None
        return ty

    def signature(
        self, key: YScalar, entity_kinds: set[str], enums: set[str]
    ) -> tuple[str, tuple[ir.Param, ...]] | None:
        """`collect(p: player, sector: region)` -> name and typed parameters."""
        text = str(key.value)
        match = SIGNATURE.match(text)
        if not match:
            self.error(key.span, f"`{text}` is not a name or a `name(param: type, ...)` signature")
            return None
        self.rule_name(match.group(1), key.span, "the name")
        params: list[ir.Param] = []
        if match.group(2):
            for part in match.group(2).split(","):
                pname, sep, ptype = part.partition(":")
                pname = pname.strip()
                if not sep or not _NAME.fullmatch(pname):
                    self.error(key.span, f"parameter `{part.strip()}` must be written `name: type`")
                    return None
                self.rule_name(pname, key.span, "parameter")
                ty = self.type_of(ptype, key.span, entity_kinds, enums)
                if ty is None:
                    return None
                params.append(ir.Param(pname, ty, key.span))
        return match.group(1), tuple(params)
