"""The registry of built-in functions (compiler/builtins/): each declaration is whole and agrees
with itself and with the runtime it calls. (docs/language.md's table is checked against it in
tests/test_docs.py; that the registry lowers every bundled rule set as before, by
`rulewright compile --check`.)"""

from __future__ import annotations

import re
from string import Formatter

import pytest

from rulewright import runtime as rt
from rulewright.compiler import pyir
from rulewright.compiler import typed as t
from rulewright.compiler.budget import FREE_WORK, Facts
from rulewright.compiler.builtins import BUILTINS, Builtin, Lowering, counting
from rulewright.compiler.builtins.spec import template
from rulewright.compiler.pyprint import text
from rulewright.compiler.types import INT, entity, list_of
from rulewright.core.source import SourceSpan
from rulewright.runtime import boards

LINES = list_of(list_of(entity("spot")))
BOARDS = [c for c in vars(boards).values() if isinstance(c, type) and issubclass(c, boards.Board)]


def fields(spec: Builtin) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(spec.python) if name is not None}


@pytest.mark.parametrize("name", BUILTINS)
def test_reads_are_what_its_python_reads(name: str) -> None:
    """`reads` says what the Python reads beside its arguments: the board's tables, the random
    generator, anything else of the state (passes and the checker rely on it)."""
    spec = BUILTINS[name]
    read = set()
    if "self.board." in spec.python:
        read.add("board")
    if "self.rng" in spec.python:
        read.add("rng")
    if re.search(r"\bself\b(?!\.board\.|\.rng\b)", spec.python):
        read.add("game")
    assert set(spec.reads) == read
    assert spec.chance == ("rng" in read)


@pytest.mark.parametrize("name", BUILTINS)
def test_python_takes_every_argument_and_calls_what_the_runtime_has(name: str) -> None:
    spec = BUILTINS[name]
    assert fields(spec) - {"where", "faces"} == {str(i) for i in range(len(spec.params))}
    for called in re.findall(r"\brt\.([A-Za-z_]+)", spec.python):
        assert called in rt.__all__, f"`{name}` calls rt.{called}, which rulewright.runtime does not export"
    for called in re.findall(r"self\.board\.([A-Za-z_]+)", spec.python):
        assert any(hasattr(c, called) for c in BOARDS), f"`{name}` reads board.{called}, which no board has"


def test_a_count_in_place_of_a_list_takes_the_same_arguments() -> None:
    counted = [spec for spec in BUILTINS.values() if spec.counted_by is not None]
    assert counted, "no built-in is counted by another"
    for spec in counted:
        assert spec.counted_by is not None
        by = BUILTINS[spec.counted_by]
        assert (by.params, by.returns) == (spec.params, "int"), spec.name
    span = SourceSpan("r.yaml", 1, 1, 1, 9)
    lines = t.Builtin("straight_lines", (t.Num(3, INT, span), t.Num(0, INT, span)), (), LINES, span)
    assert counting(t.Builtin("len", (lines,), (), INT, span)) == t.Builtin("count_lines", lines.args, (), INT, span)
    assert counting(t.Builtin("len", (t.Num(3, INT, span),), (), INT, span)) is None


class Recorded:
    """A Lowering for one rule at a time: boards of 10 spots, nothing proven small."""

    def __init__(self) -> None:
        self.charges = 0

    def lowering(self) -> Lowering:
        def over(py: pyir.Expr, facts: Facts, span: SourceSpan) -> tuple[pyir.Expr, int, int]:
            return pyir.Call(pyir.Name("walked"), (py,)), 7, facts.size if facts.size is not None else 99

        def charged() -> None:
            self.charges += 1

        return Lowering({"spot": 10, "longest": 4}, lambda kind: 2, over,
                        lambda py, f, ty, span: pyir.Call(pyir.Name("num"), (py,)),
                        lambda ty, mag: Facts(mag=mag), charged, lambda span: pyir.Constant(span.short), (),
                        lambda high: None)


def test_a_facts_rule_needs_only_what_lowering_hands_it() -> None:
    """A facts rule runs on a Lowering alone (no lowerer): its checks wrap the arguments'
    Python, its work is what it proves plus the checks'."""
    span = SourceSpan("r.yaml", 4, 1, 4, 9)
    n, spots = t.Num(3, INT, span), t.Num(0, INT, span)  # (the arguments' nodes: only their spans are read)
    e = t.Builtin("straight_lines", (n, spots), (), LINES, span)
    lowered, rec = [pyir.Constant(3), pyir.dotted("self.marked")], Recorded()
    facts = BUILTINS["straight_lines"].facts_of(e, lowered, [Facts(), Facts(2, size=None)], e.ty, rec.lowering())
    assert [text(x) for x in lowered] == ["3", "walked(self.marked)"]
    assert (facts.cost, facts.size, facts.item) == (2 + 7 + 30, 30, Facts(size=4, item=Facts()))
    steps = t.Builtin("passed", (n, n), (), list_of(entity("spot")), span)
    lowered = [pyir.Name("s"), pyir.Name("k")]
    unbounded = BUILTINS["passed"].facts_of(steps, lowered, [Facts(), Facts(mag=(FREE_WORK + 1, 0))], steps.ty,
                                            rec.lowering())
    assert rec.charges == 1 and [text(x) for x in lowered] == ["s", "rt.upto(self, k, 'r.yaml:4')"]
    assert unbounded.size == rt.MAX_ITEMS


def test_the_runtime_exports_every_function_of_the_mechanics_library() -> None:
    """runtime/__init__.py names each function of runtime/mechanics.py's __all__ (an import and an
    entry of its own __all__): generated code calls them as `rt.<name>`."""
    from rulewright import runtime
    from rulewright.runtime import mechanics

    assert set(mechanics.__all__) <= set(runtime.__all__)
    assert all(getattr(runtime, name) is getattr(mechanics, name) for name in mechanics.__all__)


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_each_builtins_python_is_nodes_that_print_it_back(name: str) -> None:
    """A built-in's `python` is read as expression nodes (its fields names of their own), which
    print exactly what it says; a call fills the fields with its arguments' nodes."""
    spec = BUILTINS[name]
    assert text(template(spec.python)) == spec.python
    args = [pyir.Name(f"a{k}") for k in range(len(spec.params))]
    extra = tuple((f, f"<{f}>") for f in ("faces",) if "{faces}" in spec.python)
    assert text(spec.write(args, extra, pyir.Constant("r.yaml:4"))) == \
        spec.python.format(*(f"a{k}" for k in range(len(args))), **dict(extra), where="'r.yaml:4'")


def test_a_builtins_python_outside_its_small_grammar_is_refused() -> None:
    for python in ("a ** {0}", "f({0}", "x[{0}", "f({0}) g", "f({0},{1})", "({0}"):
        with pytest.raises(ValueError):
            template(python)
