"""Expectations over many runs (docs/scenarios.md, "Distributions"): a `distribution:` mapping
checked (`check_distribution`), the value counted (`read_of`), and the counts tested against the
probabilities given (`goodness_of_fit`, Pearson's chi-square). The replays themselves are
running.py's."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..core.load import YMap, YNode, YScalar
from ..core.scenario_keys import DISTRIBUTION_KEYS
from ..core.source import did_you_mean
from ..runtime.errors import is_int, whole_number
from ..runtime.state import FieldInfo, State
from .model import Check, Problems, Scenario, check_keys, text_of
from .positions import entity_index

# The replays one file's distributions may ask for, all together: a scenario file is data, and
# 100,000 replays of a short scenario take about a minute.
MAX_DISTRIBUTION_RUNS = 100_000


def replays_of(node: YNode) -> int:
    """How many replays a distribution asks for (1,000 unless it says)."""
    runs = node.get("runs") if isinstance(node, YMap) else None
    return runs.value if isinstance(runs, YScalar) and isinstance(runs.value, int) else 1000


def check_distribution(p: Problems, s: Scenario, node: YNode, state: State) -> None:
    if not isinstance(node, YMap):
        p.error(node.span, "`distribution:` is a mapping: of, runs, values, significance")
        return
    check_keys(p, node, DISTRIBUTION_KEYS, "distribution")
    of = node.get("of")
    if of is None or read_of(p, s, of, state) is None:
        if of is None:
            p.error(node.span, "`distribution:` needs `of:`, the field (or `field[entity]`) whose values are counted")
    runs = node.get("runs")
    if runs is not None and not (isinstance(runs, YScalar) and is_int(runs.value)
                                 and 1 <= runs.value <= MAX_DISTRIBUTION_RUNS):
        p.error(runs.span, f"`runs:` is a whole number from 1 to {MAX_DISTRIBUTION_RUNS:,}")
    sig = node.get("significance")
    if sig is not None and not (isinstance(sig, YScalar) and isinstance(sig.value, float) and 0 < sig.value < 1):
        p.error(sig.span, "`significance:` is a probability between 0 and 1, such as 0.001")
    values = node.get("values")
    if not isinstance(values, YMap) or not values.items:
        p.error((values or node).span, "`values:` maps each value to its probability (`{1: 1/8, 2: 1/4}`)")
        return
    total = Fraction(0)
    for _, v in values.items:
        q = probability(v)
        if q is None:
            p.error(v.span, "a probability is a number from 0 to 1 or a fraction (`1/8`)")
            return
        total += q
    if abs(total - 1) > Fraction(1, 10**6):
        p.error(values.span, f"the probabilities add up to {float(total):g}, not 1")


def probability(node: YNode) -> Fraction | None:
    if not isinstance(node, YScalar) or isinstance(node.value, bool):
        return None
    try:
        q = Fraction(str(node.value))
    except (ValueError, ZeroDivisionError):
        return None
    return q if 0 <= q <= 1 else None


def read_of(p: Problems, s: Scenario, node: YNode, state: State) -> tuple[FieldInfo, int | None] | None:
    """The field (`roll`) or one entity's value of a per-entity field (`gold[Alex]`) counted."""
    text = text_of(p, node)
    if text is None:
        return None
    name, _, rest = text.partition("[")
    fields = {f.name: f for f in state.FIELDS}
    info = fields.get(name.strip())
    if info is None:
        p.error(node.span, f"no field `{name.strip()}` in {s.ruleset}", did_you_mean(name.strip(), fields))
        return None
    if info.per is None:
        if rest:
            p.error(node.span, f"`{info.name}` is one value: count it as `{info.name}`")
            return None
        return info, None
    if not rest.endswith("]"):
        p.error(node.span, f"`{info.name}` has one value per {info.per}: count one, `{info.name}[...]`")
        return None
    index = entity_index(p, s, info, YScalar(rest[:-1].strip(), node.span, node.span), state)
    return None if index is None else (info, index)


def goodness_of_fit(what: str, wanted: Mapping[str, Fraction], counts: Mapping[str, int], runs: int,
                    significance: float) -> Check:
    """The check of the values counted over `runs` replays against the probabilities `wanted`
    (Pearson's chi-square goodness of fit, at `significance`): a value that came up though it was
    not wanted fails at once, and one value certain passes when it came up every time."""
    expected_shown = {k: str(v) for k, v in wanted.items()}
    strays = sorted(k for k in counts if wanted.get(k, 0) == 0)
    observed = ", ".join(f"{k}: {counts[k]}" for k in sorted(counts, key=natural_order))
    if strays:
        return Check(what, expected_shown, f"{', '.join(strays)} came up (observed {observed} in {runs} runs)", False)
    keys = [k for k, q in wanted.items() if q > 0]
    if len(keys) == 1:  # one value certain: it came up every time (no stray above), nothing to test
        return Check(what, expected_shown, f"observed {observed} in {runs} runs", True)
    try:
        from scipy.stats import chisquare  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return Check(what, expected_shown, "not tested: a distribution needs scipy (pip install 'rulewright[stats]')",
                     False)
    test = chisquare([counts.get(k, 0) for k in keys], [float(wanted[k]) * runs for k in keys])
    pvalue = float(test.pvalue)
    return Check(what, expected_shown, f"observed {observed} in {runs} runs: chi-square {float(test.statistic):.2f}, "
                 f"p = {pvalue:.3g} {'>=' if pvalue >= significance else '<'} {significance:g}",
                 pvalue >= significance)


def key_text(value: Any) -> str:
    """A value as a distribution's `values:` key writes it: `true`, `3`, `[diplomacy, watchers]`
    (a list or set as a position writes it, quoted since it is a key)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(key_text(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def natural_order(text: str) -> tuple[int, int | str]:
    number = whole_number(text, signed=True)
    return (0, number) if number is not None else (1, text)
