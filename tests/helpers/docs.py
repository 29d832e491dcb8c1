"""The fenced blocks of a doc (README.md, docs/*.md), each with the `<!-- docs-test: MODE -->` marker
before it: what tests/test_docs.py runs or checks, block by block (its docstring says how)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
MARKER = re.compile(r"^<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int  # of the opening fence, 1-based
    lang: str
    marker: str | None
    body: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"

    def mode(self) -> str:
        if self.marker is not None:
            return self.marker
        if self.lang == "python":
            return "python"
        if not self.lang and self.body and self.body[0].startswith("$ "):
            return "run"
        return "unmarked"


def blocks(doc: Path) -> list[Block]:
    lines = doc.read_text(encoding="utf-8").split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group(1))
        end = i + 1
        while not lines[end].strip().startswith("```"):
            end += 1
        prev = i - 1
        while prev >= 0 and not lines[prev].strip():
            prev -= 1
        mm = MARKER.match(lines[prev].strip()) if prev >= 0 else None
        body = tuple(line[indent:] for line in lines[i + 1:end])
        found.append(Block(doc, i + 1, m.group(2), mm.group(1) if mm else None, body))
        i = end + 1
    return found
