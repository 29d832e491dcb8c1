"""Pass `count_items` (docs/optimiser.md): `count(x == v for x in L)` as the list's own count.

What is taken and what is not, and that a count over a list longer than the
limits take for small keeps its charge of work (it is left to the plain walk where that walk
charges as it runs); the games themselves are held to the plain code by tests/test_optimiser.py.
What is written is the golden of tests/passes/count_items.yaml (tests/test_pass_goldens.py).
"""

from __future__ import annotations

import rulewright.compiler.driver
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.analysis.walk import expressions
from rulewright.compiler.passes.count_items import counted
from rulewright.core.paths import ruleset_file
from tests.helpers.compiled import typed


def counts(ruleset: str) -> dict[str, t.Expr | None]:
    """Each definition's one-clause `count` comprehension: the value the pass counts, or None."""
    optimised = passes.optimise(typed(ruleset))
    defines = {d.name: d for d in optimised.defines}
    out: dict[str, t.Expr | None] = {}
    for d in optimised.defines:
        todo: list[t.Expr] = [d.body]
        while todo:
            e = todo.pop()
            if isinstance(e, t.Comprehension) and e.func == "count":
                out[d.name] = counted(e, defines)
            todo.extend(t.subexpressions(e))
    return out


def test_the_counts_of_equal_items_are_taken() -> None:
    found = counts("china-schacht")
    assert found["emissaries_of"] is not None  # count(q == p for q in emissaries[r])
    assert found["all_payments"] is not None  # count(h == j for h in hand[p])
    # count(p in palace_of[s] for s in r): a test of membership over a region, not of equality
    assert found["palaces_in"] is None


def test_an_attribute_compared_is_no_count_of_the_items() -> None:
    # Mandarin: count(t.animal == a for t in card[p]) compares an attribute of each item
    assert counts("mandarin")["held"] is None


def test_a_long_list_s_count_keeps_its_charge_of_work() -> None:
    """(What is written is the golden of tests/passes/count_items.yaml, tests/test_pass_goldens.py.)"""
    source = rulewright.compiler.driver.compile_file(ruleset_file("china-schacht")).source
    # the charge of work for a list longer than those taken for small is kept, before it
    assert "if len(self.emissaries[r]) > 16:\n            rt.grown(self, 17, 1, (self.emissaries[r],)" in source
    assert "        return self.emissaries[r].count(p)  # base.yaml:291; counted as the list's own count" in source


def test_a_walk_that_charges_as_it_runs_is_left_alone() -> None:
    """Chang Cheng's invariant counts `b == p for b in backs[r]` inside a condition, where the
    walk of a long list is charged as it runs (`rt.walk`): it stays the plain walk."""
    source = rulewright.compiler.driver.compile_file(ruleset_file("chang-cheng")).source
    assert "sum(1 for b in (self.backs[r] if len(self.backs[r]) <= 16 else rt.walk(" in source
    program = passes.optimise(typed("chang-cheng"))
    assert any(isinstance(e, t.Comprehension) and e.counted for e in expressions(program)), \
        "the form is found: lowering leaves it"
    assert ".count(" not in source
