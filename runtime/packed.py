"""Constant data of a generated module written packed: one string literal, decoded once.

A generated module's big constant tables (a board's spots, its regions, a cell attribute table ...)
are written as `rt.unpacked('<JSON>')` rather than as Python displays: natively, mypyc builds a
tuple display item by item in C (some 80 lines of C a spot of a hex map), where a string literal is
one entry of its table of statics. The compiler writes the text (compiler/codegen.py, filter
`packed`) only for values it reads back equal, so a reader of the module still sees every value.
docs/native.md, "How long a build takes".
"""

from __future__ import annotations

import json
from typing import Any

from .boards import RegionSpec


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple([_tuples(item) for item in value])
    if isinstance(value, dict):
        return {key: _tuples(item) for key, item in value.items()}
    return value


def unpacked(text: str) -> Any:
    """The value written as `text`: JSON, its arrays read as tuples (the compiler packs only tuples,
    dicts with str keys, str, int, bool and None)."""
    return _tuples(json.loads(text))


def value_names(values: tuple[int, ...], names: tuple[str, ...]) -> tuple[str, ...]:
    """Values of an enumeration by name (`GameInfo.attributes`: each component's attribute as the page writes it)."""
    return tuple([names[v] for v in values])


def region_specs(rows: Any) -> tuple[RegionSpec, ...]:
    """The regions of a board, each row (kind, name, spots) or (kind, name, spots, owner)."""
    return tuple([RegionSpec(*row) for row in rows])
