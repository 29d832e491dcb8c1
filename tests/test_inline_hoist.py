"""The passes `inline` and `hoist` (compiler/passes/, docs/optimiser.md) on a small rule file:
what they rewrite, and what they must leave alone.

Each definition below is a case: its value is computed by the module compiled with both passes
and by the one compiled with none, in the same positions, and must be the same (or the same
error); the generated code shows the rewrite happened, or did not.
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
from rulewright.compiler.passes import ALL, hoist, inline, optimise
from rulewright.runtime.errors import GameError
from rulewright.runtime.limits import new_move

RULES = """\
rulewright: 1
game: passes-probe
title: Passes probe
players: 2
boards:
  track:
    ring: 4
    expect: {spots: 4}
state:
  xs: {type: list(int), init: "[]"}
  ys: {type: list(int), init: "[]"}
  score: {type: int, init: 2}
define:
  # capture: the body binds q, and the argument is the caller's q
  "above(n: int)": "count(q > n for q in range(0, 5))"
  "total": "sum(above(q) for q in range(0, 5))"
  "total_to(m: int)": "sum(above(q) for q in range(0, m))"
  # arguments: a costly one read twice is never computed twice; read once, it is inlined
  "slow(n: int)": "sum(k * k for k in range(0, n))"
  "twice(n: int)": "n + n"
  "plus_one(n: int)": "n + 1"
  "costly_twice": "twice(slow(3))"
  "cheap_twice": "twice(score)"
  "once_more": "plus_one(slow(3))"
  # a body that is one loop: a costly argument bound once, before it, as the call computes it
  "held_of(a: int)": "count(y == a for y in range(0, 5))"
  "heavy": "count(held_of(x + 1) > 0 for x in xs)"
  # an argument that can fail, read under `and`: the call computes it, so must the code
  "both(b: bool, n: int)": "b and n > 0"
  "guarded": "both(len(xs) > 0, xs[0])"
  # hoisting: what can fail stays in the loop (no item: never computed); what cannot goes out
  "probe": "any(xs[0] == y for y in ys)"
  "hits": "count(y == len(xs) for y in ys)"
  # a call computed twice per item: once, if the condition computes it anyway
  "sq(n: int)": "sum(n for k in range(0, n))"
  "shared": "[sq(y) for y in ys if sq(y) > 3]"
  # ... but not when only a guarded position computes it in the condition
  "unshared": "[sq(y) for y in ys if y > 2 and sq(y) > 3]"
  # under `and`: a cheap built-in that cannot fail goes out of the loop; a loop stays under it
  "cheap_guarded": "count(y > 0 and y == len(xs) for y in ys)"
  "costly_guarded": "count(y > 0 and y == sum(x for x in xs) for y in ys)"
  # the smaller, the larger of two: written as min and max (compiler/lower/, whatever the passes)
  "low_pair": "[sorted([y, score])[0] for y in ys]"
  "high_pair": "[sorted([y, score])[1] for y in ys]"
  # guarded by the condition of an outer clause: hoisted only out of the inner loop
  "nested": "count(x + y > len(ys) for x in xs if x > 0 for y in ys)"
  # a definition computed once per state is never inlined: its value is remembered
  "cached_sq(n: int)": {value: "n * n", cached: true}
  "uses_cached": "cached_sq(score) + 1"
phases:
  play:
    actions: [stop]
actions:
  stop:
    text: stop
    effect:
      - score += 1
end: "score > 3"
scoring:
  points: "score"
  # (the cases are read by a rule, so the module keeps a budget of work for them to charge)
  cases: >-
    total + total_to(5) + costly_twice + cheap_twice + once_more + hits + len(shared) + len(unshared) + nested
    + uses_cached + heavy - slow(2) + cheap_guarded + costly_guarded
    + len(low_pair) + len(high_pair)
"""

POSITIONS: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
    ((), ()), ((), (1, 2, 3, 4)), ((3,), ()), ((3,), (3, 1, 5)), ((0, 2, -1), (4, 2)), ((5, 1), (0, 9, 2, 3)),
]
CASES = ["total", "costly_twice", "cheap_twice", "once_more", "guarded", "probe", "hits", "shared", "unshared",
         "nested", "uses_cached", "heavy", "cheap_guarded", "costly_guarded",
         "low_pair", "high_pair"]


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("passes") / "probe.yaml"
    path.write_text(RULES, encoding="utf-8")
    return path


# The two passes this file is about, without `derived` (which keeps between moves the values of
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


def test_a_local_bound_by_an_inlined_body_captures_no_name_of_the_caller(source: str) -> None:
    total = method(source, "total")
    assert "self.above(" not in total
    # the body's q is renamed: the caller's q is the argument it compares with
    assert re.search(r"for (_q__\d+) in range\(0, 5\) if \1 > q\)", total), total
    # the line says what was inlined, from where
    assert re.search(r"return .*# probe.yaml:\d+; inlined above \(probe.yaml:\d+\)\n", method(source, "total_to"))


def test_a_costly_argument_read_twice_keeps_the_call(source: str) -> None:
    assert "self.twice(" in method(source, "costly_twice")
    assert "self.score + self.score" in method(source, "cheap_twice")  # a name: read again for free
    once_more = method(source, "once_more")
    assert "self.plus_one(" not in once_more and once_more.count("self.slow(3)") == 1


def test_a_costly_argument_of_a_loop_is_bound_once_before_it(source: str) -> None:
    heavy = method(source, "heavy")
    assert "self.held_of(" not in heavy
    assert re.search(r"sum\(1 for (_a__\d+) in \(x \+ 1,\) for (_y__\d+) in range\(0, 5\) if \2 == \1\)", heavy), heavy


def test_an_argument_that_can_fail_is_never_left_unread(source: str) -> None:
    assert "self.both(" in method(source, "guarded")


def test_a_definition_remembered_per_state_is_called(source: str) -> None:
    assert "self.cached_sq(self.score)" in method(source, "uses_cached")


def test_hoisting_leaves_what_can_fail_in_its_loop(source: str) -> None:
    assert "any(self.xs[0] == y for y in self.ys)" in method(source, "probe")
    assert re.search(r"for _once__1 in \(len\(self\.xs\),\) for y in", method(source, "hits"))


def test_under_and_only_a_cheap_built_in_is_hoisted(source: str) -> None:
    cheap = method(source, "cheap_guarded")
    assert re.search(r"for (_once__\d+) in \(len\(self\.xs\),\) for y in self\.ys if \(?y > 0 and y == \1\)",
                     cheap), cheap
    costly = method(source, "costly_guarded")  # a loop: perhaps computed for no item, so left where it is
    assert "y > 0 and y == sum(self.xs)" in costly and "hoisted" not in costly, costly  # (the sum of the list itself)
    # a field's item alone is not worth a clause, under `and` (`y > 2 and sq(y) > 3` reads y anyway)
    assert "hoisted" not in method(source, "unshared")


def test_the_smaller_of_two_sorted_is_their_min(rules: Path, source: str) -> None:
    assert "min(y, self.score)" in method(source, "low_pair") and "max(y, self.score)" in method(source, "high_pair")
    plain: Any = rulewright.load_rules(rules, passes=frozenset()).new_state(2, 1)
    plain.ys = (4, 2, 1, 3)  # score is 2: below, equal, above
    assert value(plain, "low_pair") == [sorted([y, 2])[0] for y in plain.ys] == [2, 2, 1, 2]
    assert value(plain, "high_pair") == [sorted([y, 2])[1] for y in plain.ys] == [4, 2, 2, 3]


def test_a_call_computed_twice_by_one_clause_is_computed_once(source: str) -> None:
    shared = method(source, "shared")
    assert shared.count("self.sq(y)") == 1, shared  # bound once per y
    assert re.search(r"for (_sq__\d+) in \(self\.sq\(y\),\) if \1 > 3\]", shared), shared
    unshared = method(source, "unshared")
    assert unshared.count("self.sq(y)") == 2, unshared  # guarded by `y > 2` in the condition: left as is


def test_an_inner_invariant_is_computed_once_per_item_of_the_clause_it_reads(source: str) -> None:
    nested = method(source, "nested")
    # len(ys) reads no variable: before the loops; once per x would do, once at all does
    assert re.search(r"for _once__1 in \(len\(self\.ys\),\) for x in", nested), nested


def test_the_passes_change_the_typed_program_only_where_they_say(rules: Path) -> None:
    _, ruleset, problems = build(rules)
    assert ruleset is not None and not problems
    problems, typed = check(ruleset)
    assert typed is not None and not problems
    optimised, plan = optimise(typed, INLINE_HOIST)
    assert plan.passes == ("inline", "hoist")
    before = {d.name: d for d in typed.defines}
    for d in optimised.defines:
        notes = [n for n in nodes(d.body) if isinstance(n, t.Note)]
        if not notes:
            assert key(d.body) == key(before[d.name].body), d.name
    # each pass alone: the program it gives is checked as a whole by lowering
    for run in (inline.run, hoist.run):
        alone, _ = run(typed, plan, Facts(typed))
        assert len(alone.defines) == len(typed.defines)


def test_inline_leaves_to_derived_what_derived_keeps(rules: Path) -> None:
    """With every pass on, a definition that loops is kept between moves (`derived`), not
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
