"""The rulebook's words in a rule file's comments: the comment block written directly above a
rule's key, and the comments inside the rule (up to the next rule's own block), each with the
`file:line` it starts at.

The bundled rule files quote their rulebooks in comments (rules/mandarin/base.yaml), and the YAML
tree keeps no comment: each file of a rule set's `extends:` chain is read again (through the
loader's size-checked reader) and its top-level sections and their entries located with the
loader's own line marks, so a quote is found wherever the file writes the rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..compiler.merge import key_name
from ..core.load import LoadError, YMap, load, read_rule_file
from ..core.paths import checkout_root, package_root


@dataclass(frozen=True, slots=True)
class Quote:
    text: str  # the comment lines of one block, joined as prose
    where: str  # file:line of its first line


@dataclass(frozen=True, slots=True)
class FileNotes:
    """The comments of one rule file, by rule path (`actions.sell`, `scoring`, `end`)."""

    file: str
    head: tuple[Quote, ...]  # the comments before the first key: what the file is
    rules: dict[str, tuple[Quote, ...]]


def real_path(shown: str) -> Path | None:
    """The file a span's path names (relative to the checkout, the package or the working folder)."""
    path = Path(shown)
    if path.is_absolute():
        return path if path.is_file() else None
    for base in (checkout_root(), package_root(), Path.cwd()):
        if base is not None and (base / path).is_file():
            return base / path
    return None


def _comment(line: str) -> str | None:
    stripped = line.strip()
    if not stripped.startswith("#"):
        return None
    return stripped[1:].strip()


def _blocks(lines: list[str], first: int, last: int, file: str) -> list[Quote]:
    """The comment blocks among lines first..last (1-based, inclusive), each a Quote."""
    out: list[Quote] = []
    block: list[str] = []
    start = 0
    for n in range(first, last + 1):
        text = _comment(lines[n - 1]) if 0 < n <= len(lines) else None
        if text is not None:
            if not block:
                start = n
            block.append(text)
            continue
        if block:
            out.append(Quote(" ".join(t for t in block if t), f"{file}:{start}"))
            block = []
    if block:
        out.append(Quote(" ".join(t for t in block if t), f"{file}:{start}"))
    return [q for q in out if q.text]


def _above(lines: list[str], line: int) -> int:
    """The first line of the comment block directly above `line` (`line` itself when there is none)."""
    n = line
    while n > 1 and _comment(lines[n - 2]) is not None:
        n -= 1
    return n


def notes_of(shown: str) -> FileNotes | None:
    """The comments of the rule file `shown` (a span's path); None when it cannot be read."""
    path = real_path(shown)
    if path is None:
        return None
    try:
        text = read_rule_file(path, shown)
        tree = load(shown, text)
    except (LoadError, OSError):
        return None
    lines = text.split("\n")
    keys: list[tuple[str, int]] = []  # every rule's path and key line, in the file's order
    for key, value in tree.items:
        section = str(key.value).rstrip("+")
        keys.append((section, key.span.line))
        if isinstance(value, YMap) and section not in ("look",):
            for k, _ in value.items:
                name = key_name((section,), str(k.value)).rstrip("+")
                keys.append((f"{section}.{name}", k.span.line))
    keys.sort(key=lambda pair: pair[1])
    rules: dict[str, tuple[Quote, ...]] = {}
    for i, (rule, line) in enumerate(keys):
        top = _above(lines, line) if i else line  # (the first key's block is the file's head)
        if "." not in rule and i + 1 < len(keys) and "." in keys[i + 1][0]:
            end = line  # a section: its own block only; its entries have theirs
        else:
            nxt = keys[i + 1][1] if i + 1 < len(keys) else len(lines) + 1
            end = _above(lines, nxt) - 1
        found = _blocks(lines, top, line - 1, shown) + _blocks(lines, line + 1, end, shown)
        if found:
            rules[rule] = tuple(found)
    head = _blocks(lines, 1, (keys[0][1] if keys else len(lines) + 1) - 1, shown)
    return FileNotes(shown, tuple(head), rules)


def quotes_for(notes: list[FileNotes], rule: str) -> tuple[Quote, ...]:
    """What every file of the chain says of `rule` (base first)."""
    return tuple(q for n in notes for q in n.rules.get(rule, ()))
