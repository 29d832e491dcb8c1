"""The games the scenario files name, as tests/conftest.py collects them. Every process of the suite
(each pytest worker, of each of `./dev test`'s passes) collects every scenario file, and a scenario
file that names its rule set by path (`../../games/kingdoms.yaml`, `../../../rules/mandarin/base.yaml`)
had that rule file compiled in each process again: 28 compilations, about half of the time it
takes a process to collect the suite.

Here the generated module's text of such a rule file is kept on disk (pytest's cache folder) under
a key of everything it is made from: the path as named, the text of every file the rule set is
resolved from (its own and those it extends), and the text of every file of the compiler, the core
and the runtime the compiler reads (and the grammar). Any change to any of them is another key: a
module is compiled again, never taken stale. The module's text is loaded as `load_rules` loads it
(`game_from_source`, the same file name). A bundled id, or anything this cannot read, goes to the
scenario runner's own loader, with its own errors."""

from __future__ import annotations

import hashlib
import os
import tempfile
from functools import cache
from pathlib import Path

import rulewright
from rulewright.core.paths import RULE_FILE_SUFFIXES, checkout_root
from rulewright.runtime import Game
from rulewright.scenarios.parsing import GameLoader, default_loader

# the sources the generated text depends on, under the checkout's root
COMPILER_SOURCES = ("compiler", "core", "grammar", "runtime")


@cache
def compiler_fingerprint() -> bytes:
    """A hash of every file of COMPILER_SOURCES as it is now (once per process)."""
    root = checkout_root()
    assert root is not None, "the suite runs from a checkout"
    digest = hashlib.sha256()
    for folder in COMPILER_SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(root)}\0".encode() + path.read_bytes() + b"\0")
    return digest.digest()


def key(path: Path) -> str | None:
    """The key of a rule file's generated text, or None if it cannot be resolved."""
    from rulewright.compiler.resolve import resolve

    try:
        resolved = resolve(path)
    except Exception:  # a rule file with problems: compiled by the runner's loader, which reports them
        return None
    digest = hashlib.sha256(compiler_fingerprint())
    digest.update(f"{path}\0".encode())
    for file, text in zip(resolved.files, resolved.texts, strict=True):
        digest.update(f"{file}\0{len(text)}\0{text}".encode())
    return digest.hexdigest()


def cached_loader(folder: Path) -> GameLoader:
    """A loader for scenarios.load_file that keeps the compiled text of rule files in `folder`."""
    games: dict[str, Game] = {}

    def load(ruleset: str, here: Path) -> Game:
        path = here.parent / ruleset
        if not ruleset.endswith(RULE_FILE_SUFFIXES) or not path.is_file():
            return default_loader(ruleset, here)
        found = key(path)
        if found is None:
            return default_loader(ruleset, here)
        if found not in games:
            kept = folder / f"{found}.py"
            try:
                source = kept.read_text(encoding="utf-8")
            except FileNotFoundError:
                from rulewright.compiler.driver import compile_file

                source = compile_file(path).source
                write(kept, source)
            games[found] = rulewright.game_from_source(source, str(path))
        return games[found]

    return load


def write(path: Path, text: str) -> None:
    """Write whole or not at all (another process may be writing or reading the same key)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temporary, path)
