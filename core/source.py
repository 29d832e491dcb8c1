"""Source positions and diagnostics: where a rule came from, and what is wrong with it.

Every node of every stage carries a `SourceSpan`. Diagnostics are values: stages collect and
return them; only the driver turns them into an exit status.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..runtime.errors import RulewrightError
from .files import MAX_RULE_FILE_BYTES, NotARuleFile, read_file_safely
from .paths import checkout_root, package_root, shown_safely


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """A region of a rule file: 1-based line and column, end exclusive."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def shifted(self, line: int, col: int, end_line: int, end_col: int) -> SourceSpan:
        """A span inside this one, from positions counted within an embedded string.

        `line`/`col` are 1-based within the string; the string starts at this span's start.
        """
        first_col = self.col if line == 1 else 1
        last_col = self.col if end_line == 1 else 1
        return SourceSpan(
            self.path,
            self.line + line - 1,
            first_col + col - 1 if line == 1 else col,
            self.line + end_line - 1,
            last_col + end_col - 1 if end_line == 1 else end_col,
        )

    @property
    def short(self) -> str:
        """`file:line`, the form used in generated comments: one printable line, whatever the
        path holds (see paths.shown_safely)."""
        return f"{shown_safely(self.path)}:{self.line}"


NOWHERE = SourceSpan("<builtin>", 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    span: SourceSpan
    message: str
    hint: str | None = None
    severity: str = "error"

    def render(self, source_text: str | None = None) -> str:
        """`path:line:col: error: message`, the source line, a caret, then the hint."""
        # text from a rule file is never a terminal control sequence (paths.shown_safely)
        out = [shown_safely(f"{self.span}: {self.severity}: {self.message}")]
        text = source_text
        if text is None:
            text = _read_quietly(self.span.path)
        if text is not None and self.span.line >= 1:
            lines = text.splitlines()
            if self.span.line <= len(lines):
                src = shown_safely(lines[self.span.line - 1].rstrip("\n").replace("\t", " "))
                width = 1
                if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
                    width = self.span.end_col - self.span.col
                width = max(1, min(width, len(src) - self.span.col + 1))
                out.append(f"    {src}")
                out.append("    " + " " * max(0, self.span.col - 1) + "^" + "~" * (width - 1))
        if self.hint:
            out.append(shown_safely(f"  hint: {self.hint}"))
        return "\n".join(out)


def _read_quietly(path: str) -> str | None:
    """The text of a rule file named in a diagnostic: as given, or (for a bundled rule file,
    whose path is shown relative to the checkout) under the checkout or installed package.
    Only a regular file no larger than a rule file may be is read: a diagnostic about a FIFO,
    a device or a huge file shows no source line."""
    candidates = [Path(path)]
    if not Path(path).is_absolute():
        root = checkout_root()
        candidates += [root / path] if root else []
        candidates.append(package_root() / path)
    for candidate in candidates:
        try:
            return read_file_safely(candidate, MAX_RULE_FILE_BYTES).decode("utf-8").replace("\r\n", "\n")
        except (OSError, UnicodeDecodeError, ValueError, NotARuleFile):
            continue
    return None


class CompileError(RulewrightError):
    """Raised by the driver only, carrying every diagnostic of a failed stage. A RulewrightError
    like every error a user can cause; a caller that prints diagnostics one by one catches it
    before RulewrightError."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known name, or None."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
