"""The values a state keeps between moves (passes `derived`, `end_once`, `nested_drops`;
docs/optimiser.md), read off the state for the tests that hold them to the values computed afresh."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from rulewright.compiler import passes
from rulewright.compiler.lower import END_SLOT
from rulewright.runtime.state import State
from tests.helpers.compiled import typed


def kept_values(state: State) -> dict[str, Any]:
    """The kept values a state holds now: slot -> value (a dict by arguments for a definition with some)."""
    slots = [s for s in type(state).__slots__ if s.startswith("_d__") or s == END_SLOT]
    return {s: getattr(state, s) for s in slots if getattr(state, s) is not None}


@cache
def nesting(ruleset: str) -> dict[str, int]:
    """The kept slots whose values are nested by one parameter (pass `nested_drops`): its position."""
    # (and without `value_masks`: the tests of `nested_drops` play China (Schacht) with `palaces_in` kept)
    return {f"_d__{name}": k for enabled in (passes.ALL, passes.ALL - {"value_masks"})
            for name, k in passes.optimise(typed(ruleset), enabled)[1].nested}


def kept_items(state: State, slot: str, value: dict[Any, Any]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """The values a slot of a definition with parameters keeps, each with its arguments: a dict by
    them, or nested by one of them first (pass `nested_drops`: a dict by it of dicts by the others)."""
    for key, kept in list(value.items()):
        if not isinstance(kept, dict):  # (no definition's value is a dict)
            yield (key if isinstance(key, tuple) else (key,)), kept
            continue
        k = nesting(state.game.info.ruleset)[slot]
        for inner, v in list(kept.items()):
            rest = list(inner) if isinstance(inner, tuple) else [inner]
            yield (*rest[:k], key, *rest[k:]), v
