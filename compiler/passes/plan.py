"""The `Plan`: what the passes decided that lowering carries out, and the types of those decisions
(a table of an action's listing, ...). A module of its own, below the passes, which import it,
the pipeline (compiler/passes/__init__.py), which runs them, and lowering, which reads it: it
imports no pass, not even for the type checker (tests/test_pass_order.py). The passes that choose
how a set of spots is held as bit masks (`bitmask`, `value_masks`, `spot_filters`) or how a count
or test is written (`component_sets`, `count_items`) record it in the typed program instead
(compiler/typed.py: `Mask`, `ValueMask`, `Filter`, the forms they mark)."""

from __future__ import annotations

from dataclasses import dataclass

# -- the plan ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """What the passes decided that lowering carries out. Each pass adds its own decisions; an
    empty plan is the unoptimised program."""

    passes: tuple[str, ...] = ()  # the passes that ran, in the order they ran
    enabled: frozenset[str] = frozenset()  # the passes that run (one defers to another that will)
    # -- each pass's decisions, one field per pass, below this line --
    # aggregate_loops: the aggregates a definition's value computes first written out as loops
    aggregate_loops: bool = False
