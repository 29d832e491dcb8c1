"""The passes `inline` and `hoist` (compiler/passes/, docs/optimiser.md) on a small rule file:
what they rewrite, and what they must leave alone.

Each definition of tests/passes/inline-probe.yaml is a case: its value is computed by the module
compiled with both passes and by the one compiled with none, in the same positions, and must be
the same (or the same error). What each pass rewrites, and what it leaves alone, is shown by the
case's goldens (inline-probe.golden, hoist-inline-probe.golden: tests/test_pass_goldens.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.compiler import typed as t
from rulewright.compiler.analysis import Facts
from rulewright.compiler.analysis.keys import key
from rulewright.compiler.analysis.walk import nodes
from rulewright.compiler.check import check
from rulewright.compiler.driver import build, compile_file
from rulewright.compiler.passes import ALL, hoist, inline, optimise, stages
from rulewright.runtime.errors import GameError
from rulewright.runtime.limits import new_move

RULES = Path(__file__).parent / "passes" / "inline-probe.yaml"  # (its goldens: tests/test_pass_goldens.py)

POSITIONS: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
    ((), ()), ((), (1, 2, 3, 4)), ((3,), ()), ((3,), (3, 1, 5)), ((0, 2, -1), (4, 2)), ((5, 1), (0, 9, 2, 3)),
]
CASES = ["total", "costly_twice", "cheap_twice", "once_more", "guarded", "probe", "hits", "shared", "unshared",
         "nested", "uses_cached", "heavy", "cheap_guarded", "costly_guarded",
         "low_pair", "high_pair"]


@pytest.fixture(scope="module")
def rules() -> Path:
    return RULES


# The two passes this file is about, without `keep_derived` (which keeps between moves the values of
# definitions that loop: `inline` then leaves those to it, docs/optimiser.md).
INLINE_HOIST = frozenset({"inline", "hoist"})


@pytest.fixture(scope="module")
def source(rules: Path) -> str:
    return compile_file(rules, INLINE_HOIST).source


def method(source: str, name: str) -> str:
    """The text of one generated method."""
    found = re.search(rf"\n    def {name}\(self.*?(?=\n    def |\n    # --)", source, re.S)
    assert found, name
    return found.group(0)


def value(state: Any, name: str) -> object:
    if hasattr(type(state), "_budget"):  # (called from outside: a fresh budget, as the runtime's entries give)
        new_move(state)
    try:
        return getattr(state, name)()
    except (GameError, IndexError) as exc:  # the same failure, whatever its text
        return type(exc).__name__


@pytest.mark.parametrize("xs, ys", POSITIONS)
def test_every_case_computes_what_the_plain_module_does(rules: Path, xs: tuple[int, ...], ys: tuple[int, ...]) -> None:
    optimised, plain = rulewright.load_rules(rules), rulewright.load_rules(rules, passes=frozenset())
    a: Any = optimised.new_state(2, 1)
    b: Any = plain.new_state(2, 1)
    for state in (a, b):
        state.xs, state.ys = xs, ys
    for name in CASES:
        assert value(a, name) == value(b, name), (name, xs, ys)


def test_the_plain_module_computes_the_cases_as_the_rules_say(rules: Path) -> None:
    plain: Any = rulewright.load_rules(rules, passes=frozenset()).new_state(2, 1)
    assert plain.total() == 4 + 3 + 2 + 1 + 0  # how many q are above each q
    plain.xs, plain.ys = (), (1,)
    assert value(plain, "probe") in ("IndexError", "GameError")
    plain.ys = ()
    assert value(plain, "probe") is False  # no item: xs[0] is never read


def test_the_smaller_of_two_sorted_is_their_min(rules: Path, source: str) -> None:
    assert "min(y, self.score)" in method(source, "low_pair") and "max(y, self.score)" in method(source, "high_pair")
    plain: Any = rulewright.load_rules(rules, passes=frozenset()).new_state(2, 1)
    plain.ys = (4, 2, 1, 3)  # score is 2: below, equal, above
    assert value(plain, "low_pair") == [sorted([y, 2])[0] for y in plain.ys] == [2, 2, 1, 2]
    assert value(plain, "high_pair") == [sorted([y, 2])[1] for y in plain.ys] == [4, 2, 2, 3]


def test_the_passes_change_the_typed_program_only_where_they_say(rules: Path) -> None:
    _, ruleset, problems = build(rules)
    assert ruleset is not None and not problems
    problems, typed = check(ruleset)
    assert typed is not None and not problems
    assert [stage.name for stage in stages(typed, INLINE_HOIST)] == ["inline", "hoist"]
    optimised = optimise(typed, INLINE_HOIST)
    before = {d.name: d for d in typed.defines}
    for d in optimised.defines:
        notes = [n for n in nodes(d.body) if isinstance(n, t.Note)]
        if not notes:
            assert key(d.body) == key(before[d.name].body), d.name
    # each pass alone: the program it gives is checked as a whole by lowering
    for run in (inline.run, hoist.run):
        alone = run(typed, Facts(typed, INLINE_HOIST))
        assert len(alone.defines) == len(typed.defines)


def test_inline_leaves_to_keep_derived_what_it_keeps(rules: Path) -> None:
    """With every pass on, a definition that loops is kept between moves (`keep_derived`), not
    inlined: its callers look its value up."""
    text = compile_file(rules, ALL).source
    assert "self.above(" in method(text, "total")
    assert "kept = self._d__above" in method(text, "above")


def test_a_test_of_a_few_dozen_nodes_is_written_where_it_is_walked() -> None:
    """Chang Cheng's `single_space(s, p)` (31 nodes with `lapsed` written into it) is written out
    in the walk of the wall `single_spaces(p)` makes, not called for every space (inline.SMALL)."""
    assert inline.SMALL == 32
    text = compile_file(Path(__file__).parents[1] / "rules" / "chang-cheng" / "base.yaml", ALL).source
    walk = method(text, "single_spaces")
    assert "self.single_space(" not in walk and "self.reserved[s] is None or self.reserved[s] == p" in walk
    assert "self.open_space(" not in method(text, "double_spaces")
