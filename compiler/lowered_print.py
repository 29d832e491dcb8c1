"""The lowered program (compiler/lowered.py) as text, member by member, for people and golden files.

`members(program)` names each member of the program (the setup, each table the module writes)
and each part of a definition, a procedure, an action, a trigger or a phase (`action build.listing`)
and writes it: a body as the printer (compiler/pyprint.py) lays its statements out, each line with
its rule line, anything else on a line. `changed(a, b)` are the members and parts that differ
between two programs: what a pass of the lowered level changed, which tests/test_pass_goldens.py
prints before and after it. Deterministic: nothing of `id()` shows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import PurePosixPath

from ..core.source import SourceSpan
from .lowered import LoweredAction, LoweredFunction, LoweredPhase, LoweredTrigger, Program
from .pyir import EXPRESSIONS, Stmt
from .pyprint import INDENT, lines, text

Member = LoweredFunction | LoweredAction | LoweredTrigger | LoweredPhase
_NAMED = {"defines": "define", "procedures": "procedure", "actions": "action", "triggers": "trigger",
          "phases": "phase"}
_BODIES = ("setup", "end_loops", "fields_set", "forget")  # (the program's own bodies of statements)


def members(program: Program) -> dict[str, list[str]]:
    """Each member of `program` by its name (`setup`, `bind_board_tables`), and each part of a member of
    a kind by both names (`action build.listing`), as lines."""
    out: dict[str, list[str]] = {}
    for f in dataclasses.fields(program):
        value = getattr(program, f.name)
        if f.name in _NAMED:
            for item in value:
                out.update((f"{_NAMED[f.name]} {item.name}.{part}", shown) for part, shown in _parts(item))
        elif f.name in _BODIES:
            out[f.name] = lines(tuple(value))
        elif isinstance(value, list | tuple | frozenset):
            items = sorted(value) if isinstance(value, frozenset) else value
            out[f.name] = [_value(item) for item in items]
        else:
            out[f.name] = [_value(value)]
    return out


def changed(before: Program, after: Program) -> tuple[str, str]:
    """The members and parts that differ between `before` and `after` (or are in one only), as each
    writes them."""
    first, second = members(before), members(after)
    names = [*first, *(name for name in second if name not in first)]
    differ = [name for name in names if first.get(name) != second.get(name)]
    return _written(first, differ), _written(second, differ)


def _written(shown: dict[str, list[str]], names: list[str]) -> str:
    out: list[str] = []
    for name in names:
        out.append(f"-- {name}" + ("" if name in shown else " (none)") + ("" if shown.get(name) else " (empty)"))
        out.extend(INDENT + line for line in shown.get(name, ()))
    return "\n".join(out) + "\n"


def _parts(item: Member) -> Iterator[tuple[str, list[str]]]:
    """A member's parts: its bodies of statements as printed, its other parts on a line each."""
    for f in dataclasses.fields(item):
        value = getattr(item, f.name)
        if f.name == "name":
            continue
        if isinstance(value, tuple) and value and all(isinstance(s, Stmt) for s in value):
            yield f.name, lines(value)
        else:
            yield f.name, [_value(value)]


def _value(value: object) -> str:
    """A value lowering left (a str, a flag, an expression, a tuple of them, a small dataclass) on one
    line; a rule line as its file's name and line."""
    if isinstance(value, SourceSpan):
        return f"{PurePosixPath(value.path).name}:{value.line}"
    if isinstance(value, EXPRESSIONS):  # (an expression: as the module prints it)
        return text(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = ", ".join(f"{f.name}={_value(getattr(value, f.name))}" for f in dataclasses.fields(value)
)
        return f"{type(value).__name__}({parts})"
    if isinstance(value, tuple):
        return "(" + ", ".join(_value(v) for v in value) + ")"
    return repr(value)
