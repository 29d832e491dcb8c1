"""Stage 6, lower (compiler/lower/, docs/compiler.md): `lower(typed)` writes a checked program
as Python, each line with the rule line it came from, as the optimisation passes rewrote and
annotated the program. Checked here on the tiny game of tests/broken/_valid_minimal.yaml: what each rule
is written as, where each line points, that the passes add to the plain code without taking from it,
and that lowering keeps nothing between runs. How each pass changes what is written is its golden
(tests/passes/, tests/test_pass_goldens.py); that the games play the same, tests/test_optimiser.py."""

from __future__ import annotations

from pathlib import Path

from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.lower import lower
from rulewright.compiler.lowered import Program
from rulewright.compiler.pyprint import codes, printed, text
from rulewright.compiler.types import INT
from rulewright.core.paths import rules_dir
from rulewright.core.source import SourceSpan
from tests.helpers.compiled import typed_file

TINY = Path(__file__).parent / "broken" / "_valid_minimal.yaml"


def line_of(fragment: str) -> int:
    """The line of the tiny game's file that holds `fragment`."""
    return next(i for i, text in enumerate(TINY.read_text(encoding="utf-8").splitlines(), 1) if fragment in text)


def lowered(optimised: bool = False) -> Program:
    """The tiny game lowered as it was checked, or as every pass made it."""
    program = passes.optimise(typed_file(TINY)) if optimised else typed_file(TINY)
    problems, out = lower(program)
    assert not problems, problems
    return out


def test_each_rule_is_written_as_python_pointing_at_its_rule_line() -> None:
    program = lowered()
    take = next(a for a in program.actions if a.name == "take")
    assert take.when is not None and text(take.when) == "self.roll >= 0"
    assert [text(c.domain) for c in take.choices] == ["[s for s in self.board.spots if self.free(s)]"]
    assert [(line.depth, line.code) for line in printed(take.effect)] == [
        (0, "self.marker[spot] = TAKEN"), (0, "self.score[self.current] += 1")]
    assert [line.span.line for line in printed(take.effect) if line.span] == [
        line_of("- marker[spot] = taken"), line_of("- score[current] += 1")]
    assert all(line.span and line.span.path.endswith("_valid_minimal.yaml") for line in printed(take.effect))
    (free,) = program.defines
    assert (free.name, free.params, free.returns) == ("free", (("s", "int"),), "bool")
    assert codes(free.body) == ["return self.marker[s] == EMPTY"]
    assert text(program.end) == "all(self.marker[s] == TAKEN for s in self.board.spots)"
    assert program.end_span is not None and program.end_span.line == line_of("end: ")
    assert [(name, text(code)) for name, code, _ in program.scoring] == [("points", "self.score[player]")]
    assert [p.name for p in program.phases] == ["play", "wrap"] and [f.name for f in program.fields] == [
        "marker", "score", "roll"]


def test_a_plan_adds_to_the_plain_code_and_takes_nothing_from_it() -> None:
    plain, optimised = lowered(), lowered(optimised=True)
    for before, after in zip(plain.actions, optimised.actions, strict=True):
        written = iter(codes(after.effect))
        assert all(any(code == line for code in written) for line in codes(before.effect)), after.name
    assert sum(len(codes(a.effect)) for a in optimised.actions) > sum(len(codes(a.effect)) for a in plain.actions)


def test_lowering_is_deterministic() -> None:
    """Lowering one typed program twice gives the same statements, rule lines and notes (it keeps
    nothing between runs)."""
    program = typed_file(rules_dir() / "china-schacht" / "base.yaml")
    first, second = lower(program)[1], lower(program)[1]
    assert [a.effect for a in first.actions] == [a.effect for a in second.actions]
    assert [d.body for d in first.defines] == [d.body for d in second.defines]
    assert first.end == second.end and first.scoring == second.scoring


def test_what_lowering_knows_of_a_node_is_kept_by_the_node_itself() -> None:
    """`typed.ByNode`, the limits analysis's map: keyed by identity (two equal nodes are two keys),
    and holding its keys, so that no node made after one is gone finds the gone one's entry."""
    span = SourceSpan("x.yaml", 1, 1, 1, 2)
    known: t.ByNode[t.Expr, int] = t.ByNode()
    seen: t.NodeSet[t.Expr] = t.NodeSet()
    first, twin = t.Num(1, INT, span), t.Num(1, INT, span)
    assert first == twin  # (nodes compare by value)
    known[first] = 7
    seen.add(first)
    assert twin not in known and known.get(twin, 0) == 0 and twin not in seen
    addresses = {id(first)}
    del first
    later = [t.Num(n, INT, span) for n in range(1000)]  # (with `id()` keys, one of these could stand at its address)
    assert not any(id(e) in addresses for e in later)
    assert not any(e in known or e in seen for e in later)
