"""The values a state keeps between moves (passes `keep_derived`, `keep_end`, `nest_by_region`;
docs/optimiser.md), read off the state for the tests that hold them to the values computed afresh."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.lower import END_SLOT
from rulewright.runtime.state import State
from tests.helpers.compiled import typed


@dataclass(frozen=True)
class Keeping:
    """How the representation step keeps values between moves in a program (`t.Define.kept`,
    `TypedProgram.end_kept`), each decision a tuple naming its definition first, in the order declared."""

    derived: tuple[tuple[str, t.Reads], ...]  # (definition, what it reads)
    entries: tuple[tuple[str, str, int], ...]  # (definition, field, k): dropped at one entity
    attributes: tuple[tuple[str, str, int, str], ...]  # (definition, field, k, table): by one item's attribute
    regions: tuple[tuple[str, str, int], ...]  # (definition, field per spot, k): by the regions of one spot
    nested: tuple[tuple[str, int], ...]  # (definition, k): nested by its k-th parameter
    end: t.Reads | None  # what the end reads, kept


def keeping(program: t.TypedProgram) -> Keeping:
    kept = [(d.name, d.kept) for d in program.defines if d.kept is not None]
    return Keeping(tuple((name, how.reads) for name, how in kept),
                   tuple((name, f, k) for name, how in kept for f, k in how.entries),
                   tuple((name, f, k, table) for name, how in kept for f, k, table in how.attributes),
                   tuple((name, f, k) for name, how in kept for f, k in how.regions),
                   tuple((name, how.nested) for name, how in kept if how.nested is not None), program.end_kept)


def kept_values(state: State) -> dict[str, Any]:
    """The kept values a state holds now: slot -> value (a dict by arguments for a definition with some)."""
    slots = [s for s in type(state).__slots__ if s.startswith("_d__") or s == END_SLOT]
    return {s: getattr(state, s) for s in slots if getattr(state, s) is not None}


@cache
def nesting(ruleset: str) -> dict[str, int]:
    """The kept slots whose values are nested by one parameter (pass `nest_by_region`): its position."""
    # (and without `mask_values` and `keep_counts`: the tests of `nest_by_region` play China (Schacht) with
    # `palaces_in` kept)
    return {f"_d__{d.name}": d.kept.nested for enabled in (passes.ALL, passes.ALL - {"mask_values", "keep_counts"})
            for d in passes.optimise(typed(ruleset), enabled).defines
            if d.kept is not None and d.kept.nested is not None}


def kept_items(state: State, slot: str, value: dict[Any, Any]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """The values a slot of a definition with parameters keeps, each with its arguments: a dict by
    them, or nested by one of them first (pass `nest_by_region`: a dict by it of dicts by the others)."""
    for key, kept in list(value.items()):
        if not isinstance(kept, dict):  # (no definition's value is a dict)
            yield (key if isinstance(key, tuple) else (key,)), kept
            continue
        k = nesting(state.game.info.ruleset)[slot]
        for inner, v in list(kept.items()):
            rest = list(inner) if isinstance(inner, tuple) else [inner]
            yield (*rest[:k], key, *rest[k:]), v
