"""Pass `intersect_components` (docs/optimiser.md): counts and tests of the attributes of the components
in a set written as set operations against the components having those attributes.

What is written, and what `keep_derived` and `inline` make of it (a table of the sets, a count as the
size of an intersection, a test as one, a count of distinct values, a call inlined with its
argument put back), is the golden of the case tests/passes/intersect_components.yaml and of the test game
tests/games/intersect-components.yaml, whose forms are Mandarin's (tests/test_pass_goldens.py). Checked
here: what is taken and what is not (the test game, Mandarin), and the test game played in
lockstep with and without the pass and against the plain code; the bundled rule sets are held to
the plain code by tests/test_optimiser.py.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.check import check
from rulewright.compiler.driver import build
from rulewright.compiler.passes.intersect_components import attribute_kinds, shape
from rulewright.core.paths import ruleset_file
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "intersect-components.yaml"


@cache
def program(path: Path) -> t.TypedProgram:
    _, rs, diagnostics = build(path)
    assert rs is not None and not diagnostics
    found = check(rs)[1]
    assert found is not None
    return found


def shapes(path: Path) -> dict[str, str | None]:
    """Each definition's outermost comprehension: the aggregate the pass takes it for, or None."""
    typed = program(path)
    kinds, defines = attribute_kinds(typed), {d.name: d for d in typed.defines}
    out: dict[str, str | None] = {}
    for d in typed.defines:
        todo: list[t.Expr] = [d.body]
        while todo:
            e = todo.pop()
            if isinstance(e, t.Comprehension):
                found = shape(e, kinds, defines)
                out[d.name] = None if found is None else found.func
                break
            todo.extend(t.subexpressions(e))
    return out


def test_the_forms_taken_and_those_left_to_a_walk() -> None:
    assert shapes(GAME) == {
        "held": "count", "has_gold": "any", "all_gold": "all", "size": "count", "gold_of": "count", "colours": "set",
        "rich": None,  # (a count of `held`, not of an attribute: `held` inside it is taken)
        "off_colour": None,  # a test that is no equality
        "first_colour": None,  # a value that can fail (`pick[0]`): the walk computes it only for an item
        "gold_where": None,  # `all` with a condition
        "listed": None,  # a list: its items may repeat
    }
    found = shapes(ruleset_file("mandarin"))
    assert found["held"] == "count" and found["has_emperor"] == "any"
    optimised = passes.optimise(program(ruleset_file("mandarin")))
    assert optimised.component_sets == (("ATTR__TILE__ANIMAL", 12), ("ATTR__TILE__EMPEROR", 0))
    kept = {d.name for d in optimised.defines if d.kept is not None}
    assert not {"held", "has_emperor"} & kept, "a set operation is no loop: nothing to keep"
    assert {"controller", "complete"} <= kept  # (`controls` neither: pass `compute_inside_kept`)
    assert passes.optimise(program(ruleset_file("china-schacht"))).component_sets == ()


def test_the_test_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves = moves_in_lockstep(GAME, "intersect_components", 24)
    assert moves >= 24 * 3 * 40, "every game plays its 40 moves (and a pass where nothing is legal)"
