"""Name binding, the symbol table: every global name of a rule set and the `Symbol` it denotes,
the kinds of values, the definitions and procedures by name, the tables the declarations give,
and the names a rule may not take.

declare.py fills it; typing (exprs.py and what follows) reads it and binds the locals of each
rule itself, since a local's type is the type of its value. The problems every stage of the
checker finds are gathered here too (`diags`), in the order they are found.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass, field

from ...core.source import Diagnostic, SourceSpan
from .. import ir
from .. import typed as t
from ..boards import Boards
from ..builtins import AGGREGATES, BUILTINS, VALUES
from ..names import ANNOTATION_NAMES, BASE, IMPLICIT, RUNTIME_ACTIONS, STATE_MEMBERS, const_name, member_clash
from ..typed import Symbol
from ..types import Ty, enum

# Names a field, definition or procedure may not take: every member a state has already
# (names.STATE_MEMBERS: the runtime's and the template's), and the rule language's own
# `player` and values (`current`, `spots` ...). compiler/names.py says where each name lives.
RESERVED = STATE_MEMBERS | frozenset({"player"}) | frozenset(VALUES)
# Kinds of values a type can name: no enum, dice kind or component may take these names.
KIND_WORDS = frozenset({"int", "bool", "str", "auction", "list", "set", "any", "none", "player", "spot", "region",
                        "role", "regionkind", "board", "border"})


@dataclass
class Declared:
    """The tables the declarations give, as they are gathered."""

    constants: list[tuple[str, int, str]] = field(default_factory=list)  # NAME, value, comment
    enums: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    dice: list[tuple[str, tuple[str, ...], tuple[tuple[int, ...], ...]]] = field(default_factory=list)
    options: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # name, slot, choices
    region_kinds: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    boards: list[t.BoardTable] = field(default_factory=list)
    neutral: tuple[str, ...] = ()
    component_count: dict[str, int] = field(default_factory=dict)

    def freeze(self) -> t.Tables:
        return t.Tables(tuple(self.constants), tuple(self.enums), tuple(self.dice), tuple(self.options),
                        self.region_kinds, self.roles, tuple(self.boards), self.neutral,
                        tuple(self.component_count.items()))


class Symbols:
    """The symbol table of one rule set, as the declarations fill it."""

    def __init__(self, rs: ir.RuleSet) -> None:
        self.rs = rs
        self.diags: list[Diagnostic] = []
        self.globals: dict[str, Symbol] = {}
        self.functions: dict[str, ir.Define] = {}
        self.procedures: dict[str, ir.Procedure] = {}
        self.tables = Declared()
        self.entity_kinds = {"player", "spot", "region", "border"} | {d.name for d in rs.dice}
        self.boards = Boards(self.error, self.enum_value)
        self.enum_names: set[str] = {"role", "regionkind"}
        self.kinds: set[str] = set()  # enumerations, dice kinds and components declared so far
        # the attributes of each kind of entity that has some (`s.terrain`, a component's): their
        # types and how generated code reads them
        self.attributes: dict[str, dict[str, tuple[Ty, str]]] = {}
        self.records: dict[str, Ty] = {}  # `records:`, by name: their types (fields in order)

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, message, hint))

    def declare(self, name: str, sym: Symbol) -> None:
        if name in IMPLICIT:
            if sym.span is not None and sym.kind != "const":  # (values and seats: build/ says so, where they are)
                self.error(sym.span, f"`{name}` is reserved: the rules use it for {IMPLICIT[name]}",
                           "choose another name")
            return
        if name in self.globals:
            old = self.globals[name]
            where = f" (first declared at {old.span})" if old.span else ""
            if sym.span is not None:
                self.error(sym.span, f"`{name}` is declared twice{where}", "every name in a rule set must be unique")
            return
        self.globals[name] = sym

    def new_kind(self, name: str, span: SourceSpan) -> bool:
        """Whether `name` can name a new kind of value (an enumeration, a dice kind, a component):
        kinds share one namespace with the built-in ones (`int`, `player`, `role` ...)."""
        if name in KIND_WORDS:
            self.error(span, f"`{name}` is reserved: it is the name of a built-in kind of value", "choose another name")
            return False
        if name in self.kinds or name in self.entity_kinds:  # (entity kinds: the dice kinds, declared later)
            self.error(span, f"`{name}` is already the name of a kind of value", "choose another name")
            return False
        self.kinds.add(name)
        return True

    def declare_enum(self, enum_name: str, values: tuple[str, ...], span: SourceSpan, comment: str) -> bool:
        """Declares an enumeration and each of its values (a module constant); False if its name
        is taken."""
        if enum_name not in ("role", "regionkind") and not self.new_kind(enum_name, span):
            return False
        self.enum_names.add(enum_name)
        self.tables.enums.append((enum_name, values))
        for i, value in enumerate(values):
            const = const_name(value)
            self.declare(value, Symbol("const", value, enum(enum_name), const, span, fixed=True))
            self.tables.constants.append((const, i, f"{enum_name}: {comment}"))
        return True

    def enum_value(self, name: str) -> tuple[str, int] | None:
        """The enumeration a value name belongs to, and its number (None: it is no such value)."""
        sym = self.globals.get(name)
        if sym is None or sym.kind != "const" or sym.ty.kind != "enum" or sym.ty.name is None:
            return None
        return sym.ty.name, next((v for n, v, _ in self.tables.constants if n == sym.py), -1)

    def reserved(self, name: str, span: SourceSpan, callable: bool = False) -> bool:
        """Refuses a field, definition or procedure name that generated code or the rule language
        already uses (they are members of the state class); True if it did. `callable`: a
        definition's or procedure's, which may not be `base` either."""
        if callable and name == BASE:
            self.error(span, f"`{name}` is reserved: `base(...)` in a variant's new definition or scoring term uses "
                       "the version it replaces", "choose another name")
        elif name in STATE_MEMBERS:
            self.error(span, f"`{name}` is reserved: every state already has a member `{name}`", "choose another name")
        elif name in RESERVED:
            self.error(span, f"`{name}` is reserved: the rules already use it for themselves", "choose another name")
        elif name in ANNOTATION_NAMES:
            self.error(span, f"`{name}` is reserved: the type annotations of the state class use it",
                       "choose another name")
        elif keyword.iskeyword(name):
            self.error(span, f"`{name}` is a Python keyword, so it is reserved", "choose another name")
        elif name in BUILTINS or name in AGGREGATES:
            self.error(span, f"`{name}` is reserved: it is the name of a built-in function", "choose another name")
        else:
            return False
        return True

    def reserved_member(self, kind: str, name: str, span: SourceSpan) -> None:
        """Refuses an action, phase, trigger or option whose method or slot (`_do_<action>`,
        `_start_<phase>` ...) would be one that every state has already."""
        member = member_clash(kind, name)
        if member is not None:
            self.error(span, f"`{name}` is reserved: {kind} `{name}` would be written `{member}` in generated "
                       "code, which every state has already", "choose another name")
        elif kind == "action" and name in RUNTIME_ACTIONS:
            self.error(span, f"`{name}` is reserved: it is the action the runtime plays for a player who has no "
                       "other", "choose another name")
