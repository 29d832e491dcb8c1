"""Pass `compute_inside_kept` (docs/optimiser.md): a definition of several parameters used only inside
kept definitions that drop with it is not kept itself; the games are held to the plain code, this
pass alone too, by tests/test_optimiser.py."""

from __future__ import annotations

from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.driver import compile_file
from rulewright.core.paths import ruleset_file
from tests.helpers.compiled import typed


def test_what_is_found() -> None:
    # Mandarin's controls(p, a): only in controller(a), kept, which reads `card` as it does
    program = passes.optimise(typed("mandarin"))
    assert unkept(program) == ["controls"]
    kept = {d.name for d in program.defines if d.kept is not None}
    assert "controls" not in kept and {"controller", "rent", "complete"} <= kept
    # Yellow & Yangtze's jokers_needed(p, m): only in level(p) and spread(p), kept, reading `points` too
    assert unkept(passes.optimise(typed("yellow-yangtze"))) == ["jokers_needed"]
    # not: China (Schacht)'s palaces_in(p, r), kept by region (`nest_by_region`); nor what an effect
    # or a condition calls (Mandarin's controller, rent, complete); nor without `keep_derived`
    assert unkept(passes.optimise(typed("china-schacht"))) == []
    assert unkept(passes.optimise(typed("mandarin"), passes.ALL - {"keep_derived"})) == []


def unkept(program: t.TypedProgram) -> list[str]:
    """The definitions pass `compute_inside_kept` annotated as not kept, in the order declared."""
    return [d.name for d in program.defines if d.unkept == "compute_inside_kept"]


def test_mandarin_s_controls_stays_a_method_written_into_controller() -> None:
    """(That a definition found is not kept is the golden of tests/passes/compute_inside_kept.yaml,
    tests/test_pass_goldens.py; Mandarin's, too large to be inlined, stays a method.)"""
    source = compile_file(ruleset_file("mandarin")).source
    assert "    def controls(self, p: int, a: int) -> bool:\n        # rules/mandarin/base.yaml:262\n        return (" \
        in source
    # written into controller(a), `held` counted as the one set operation it is (intersect_components.sized)
    assert "value: Sequence[int] = [p for p in range(self.num_players) if (len(self.card[p] & SETS__TILE__ANIMAL[a]) " \
           ">= 3 and " in source
