"""The printer of the lowered IR (compiler/pyir.py): each statement's lines, indented from the
depth of a method's body, each ending with the comment of its rule line (`# file:line`) and what
the passes derived in it; the template (compiler/templates/game.py.j2) places them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import assert_never

from ..core.paths import shown_safely
from ..core.source import SourceSpan
from .pyir import Assign, AugAssign, Block, Break, Comment, ExprStmt, For, If, Pass, Return

INDENT = "    "


def comment(span: SourceSpan | None, note: str) -> str:
    """The comment ending a line: its rule line, then what the passes derived in it."""
    out = f"  # {shown_safely(PurePosixPath(span.path).name)}:{span.line}" if span else ""
    if note:
        out = f"{out}; {shown_safely(note)}" if out else f"  # {shown_safely(note)}"
    return out


@dataclass(frozen=True, slots=True)
class Printed:
    """One line as printed: its depth (0: a method's body), its code, its rule line and notes."""

    depth: int
    code: str
    span: SourceSpan | None
    note: str


def lines(body: Block) -> list[str]:
    """The lines of `body`, from the depth of a method's body (no indentation)."""
    return [INDENT * depth + code + comment(span, note) for depth, code, span, note in _lines(body, 0)]


def printed(body: Block) -> list[Printed]:
    """Each line of `body` as printed, apart: its depth, code, rule line and notes."""
    return [Printed(*line) for line in _lines(body, 0)]


def codes(body: Block) -> list[str]:
    """The code of each line of `body`, without indentation nor comment."""
    return [code for _, code, _, _ in _lines(body, 0)]


def _lines(body: Block, depth: int) -> Iterator[tuple[int, str, SourceSpan | None, str]]:
    for s in body:
        match s:
            case Assign():
                targets = " = ".join(t.text for t in s.targets)
                annotated = f"{targets}: {s.annotation}" if s.annotation is not None else targets
                yield depth, f"{annotated} = {s.value.text}", s.span, s.note
            case AugAssign():
                yield depth, f"{s.target.text} {s.op}= {s.value.text}", s.span, s.note
            case ExprStmt():
                yield depth, s.value.text, s.span, s.note
            case Return():
                yield depth, "return" if s.value is None else f"return {s.value.text}", s.span, s.note
            case Pass():
                yield depth, "pass", s.span, s.note
            case Break():
                yield depth, "break", s.span, s.note
            case Comment():
                yield depth, f"# {s.text}", s.span, s.note
            case For():
                yield depth, f"for {s.target.text} in {s.iterable.text}:", s.span, s.note
                yield from _lines(s.body, depth + 1)
            case If():
                yield depth, f"if {s.test.text}:", s.span, s.note
                yield from _lines(s.body, depth + 1)
                for e in s.elifs:
                    yield depth, f"elif {e.test.text}:", e.span, e.note
                    yield from _lines(e.body, depth + 1)
                if s.orelse:
                    yield depth, "else:", s.else_span, s.else_note
                    yield from _lines(s.orelse, depth + 1)
            case _:
                assert_never(s)
