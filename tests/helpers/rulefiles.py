"""Rule files written by a test (to its tmp_path) and what `extends:` makes of them."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulewright.compiler.resolve import ResolveError, resolve
from rulewright.core.source import Diagnostic


def write(folder: Path, name: str, text: str) -> Path:
    """`text` (dedented) written as folder/name."""
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def resolve_problems(path: Path) -> list[Diagnostic]:
    """What `resolve` refuses `path` with (it must refuse it)."""
    with pytest.raises(ResolveError) as caught:
        resolve(path)
    return caught.value.diagnostics
