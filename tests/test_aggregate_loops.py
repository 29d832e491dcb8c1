"""Pass `aggregate_loops` (docs/optimiser.md): the sum, largest, smallest, any or all of a
comprehension that a definition's value computes first is written out as a loop before it.

What is written (a `max`, an `all` and the sum in its branch, an `all` behind `and` under its call,
an `any` of a value remembered in a table of the board, the end's `any` under a test) is the golden
of tests/passes/aggregate_loops.yaml (tests/test_pass_goldens.py), a pass of the lowered level.
Checked here: where lowering says each value is, which the pass rewrites there; what `written_out`
takes and what it leaves (an aggregate behind a test, an index or a call, a loop variable read
after or named like a parameter, two walks); that each loop computes what the built-in computes,
over random lists, empty ones among them, stopping where `any` and `all` stop; and games of every
rule set with such a loop played in lockstep with and without the pass.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulewright.compiler import passes, pyir
from rulewright.compiler.analysis import Facts
from rulewright.compiler.driver import check_file
from rulewright.compiler.lower import lower
from rulewright.compiler.passes import aggregate_loops
from rulewright.compiler.passes.aggregate_loops import written_out
from rulewright.compiler.pyir import Assign, Return
from rulewright.compiler.pyprint import lines as printed
from rulewright.compiler.pyprint import text
from rulewright.core.source import SourceSpan
from tests.helpers.compiled import game
from tests.helpers.lockstep import play_in_lockstep
from tests.helpers.pyir_nodes import nodes

OFF = passes.ALL - {"aggregate_loops"}
TESTS = Path(__file__).parent
SPAN = SourceSpan("rules/x/base.yaml", 7, 5, 7, 20)  # (where the definition is written)
CASE = Path(__file__).parent / "passes" / "aggregate_loops.yaml"


@pytest.mark.parametrize(("code", "params", "taken"), [
    ("(max((x + 1 for x in self.xs), default=0) - len(self.ys))", set(), ["_most"]),
    ("min((k for k in range(5) if k > self.n), default=0)", set(), ["_least"]),
    ("sum(len(c) for c in self.chains(p))", {"p"}, ["_total"]),
    ("(400 if any(self.card[p] for p in self.seats(a)) else 200)", {"a"}, ["_found"]),
    ("not all(self.at[s] != 0 for s in self.spots)", set(), ["_every"]),
    ("max(self.xs, default=0)", set(), ["_most"]),
    ("(sum(a for a in self.xs) + sum(b for b in self.ys))", set(), ["_total"]),  # (one of each kind)
    ("(max((a for a in self.xs), default=0) + min((b for b in self.ys), default=0))", set(), ["_most", "_least"]),
    ("(self.n + sum(a for a in self.xs))", set(), ["_total"]),  # (after a read)
    # where a test evaluated first decides: the loop under it (the test kept first where it does more than read)
    ("(self.ok and any(a for a in self.xs))", set(), ["_found"]),
    ("(sum(a for a in self.xs) if self.ok else 0)", set(), ["_total"]),
    ("(0 if self.f() else min((a for a in self.xs), default=0))", set(), ["_least"]),
    ("(self.f() > 0 and all(a for b in (self.g(),) for a in self.xs))", set(), ["_every"]),  # (a value bound once)
    ("(sum(a for a in self.xs) if self.f('é') else 0)", set(), ["_total"]),  # (a test after its branch; not ASCII)
    # left as they are
    ("(self.ok and self.f() and any(a for a in self.xs))", set(), []),  # (a call decides first)
    ("(self.f() and (self.g() or any(a for a in self.xs)))", set(), []),  # (two tests: one kept at most)
    ("(self.xs[self.n] + sum(a for a in self.ys))", set(), []),  # (an index may be out of range)
    ("(self.f() + sum(a for a in self.ys))", set(), []),  # (a call first)
    ("(self.n // self.m + sum(a for a in self.ys))", set(), []),  # (a division may raise)
    ("sum(q for q in self.xs)", {"q"}, []),  # (its variable is a parameter)
    ("(sum(a for a in self.xs) + a)", set(), []),  # (its variable read after)
    ("sum(a * b for a in self.xs for b in self.ys)", set(), []),  # (two walks)
    ("max(self.xs)", set(), []),  # (no default: it raises on none, as it must)
])
def test_what_is_written_out(code: str, params: set[str], taken: list[str]) -> None:
    lines, value = written_out(nodes(code), params, SPAN)
    rest = text(value)
    results = [text(s.targets[0]) for s in lines if isinstance(s, Assign)
               and text(s.targets[0]) not in ("_first", "_cond")]
    assert results == taken, lines
    if not taken:
        assert rest == code
    else:
        assert all(name in rest for name in taken)
        compile(rest, "<rest>", "eval")  # (what is left is an expression)
        # (the loop's line says it is written out, after its rule line)
        assert any(line.lstrip().startswith("for ") and line.endswith(" written out as a loop")
                   and "  # base.yaml:7; `aggregate_loops`: " in line for line in printed(tuple(lines)))


class Tracked:
    """A list of numbers whose items count how many were read (to see where `any` and `all` stop)."""

    def __init__(self, items: list[int]) -> None:
        self.items = items
        self.read = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for x in self.items:
            self.read += 1
            yield x


@pytest.mark.parametrize("code", [
    "max((x * 3 - 7 for x in self.xs if x % 2), default=0)",
    "min((x - 5 for x in self.xs), default=0)",
    "max(self.xs, default=0)",
    "sum(x for x in self.xs if x > 2)",
    "(any(x > 6 for x in self.xs) or self.flag)",
    "all(x < 8 for x in self.xs if x != 3)",
    "(-max((x for x in self.xs), default=0) + self.n)",
    "(self.flag and any(x > 6 for x in self.xs))",
    "(sum(x for x in self.xs) if self.flag else -1)",
    "(0 if self.asked() > 1 else min((x for x in self.xs), default=0))",
    "(max((x for x in self.xs), default=0) if self.asked() > 2 else self.n)",
    "(self.asked() > 1 and all(x < y for y in (self.asked(),) for x in self.xs))",
])
def test_each_loop_computes_what_the_built_in_computes(code: str) -> None:
    lines, value = written_out(nodes(code), set(), SPAN)
    rest = text(value)
    assert lines
    body = "\n".join("    " + line for line in printed(tuple(lines)))
    loop = f"def value(self):\n{body}\n    return {rest}\n"
    plain = f"def value(self):\n    return {code}\n"
    made: dict[str, object] = {}
    exec(compile(loop, "<loop>", "exec"), made)  # noqa: S102 - the test's own code
    exec(compile(plain, "<plain>", "exec"), made | {"value": None}, namespace := {})  # noqa: S102
    chooser = random.Random(1)
    for _ in range(400):
        items = [chooser.randrange(-5, 10) for _ in range(chooser.randrange(0, 6))]

        class State:
            n = chooser.randrange(-3, 4)
            flag = chooser.random() < 0.5
            asks = 0
            answer = chooser.randrange(0, 4)

            def asked(self) -> int:  # (counted: a test kept first is computed once)
                self.asks += 1
                return self.answer + self.asks

        a, b = State(), State()
        a.xs, b.xs = Tracked(items), Tracked(items)  # type: ignore[attr-defined]
        assert made["value"](a) == namespace["value"](b), (code, items)  # type: ignore[operator]
        assert a.xs.read == b.xs.read, (code, items)  # type: ignore[attr-defined]  # (the same items read)
        assert a.asks == b.asks, (code, items)


# -- the nodes of code as lowering writes it (the pass's input), from its text -------------------


def test_lowering_says_where_each_value_is_and_the_pass_writes_there() -> None:
    """Lowering records where each definition computed at its call holds its value
    (`LoweredFunction.value_at`): its `return`, or the `_value = ...` a kept (`keep_derived`) or tabled
    (`remember_values`: `paired`) one remembers; none for a `cached` one. The pass rewrites that
    statement only, its loops right before it, and says where it is now."""
    typed = passes.optimise(check_file(TESTS / "passes" / "aggregate_loops.yaml").typed)
    problems, program = lower(typed)
    assert problems == []
    cached = {d.name for d in typed.defines if d.cached}
    after = {d.name: d for d in aggregate_loops.run(program, Facts(typed, passes.ALL)).defines}
    holders: set[str] = set()
    tabled = {d.name for d in typed.defines if d.tabled is not None}
    assert tabled == {"paired"}
    for d in program.defines:
        if d.name in cached or d.name not in {t.name for t in typed.defines}:
            assert d.value_at is None, d.name
            continue
        assert d.value_at is not None, d.name
        held = d.body[d.value_at]
        if isinstance(held, Return):
            assert d.value_at == len(d.body) - 1
            holders.add("return")
        else:
            assert isinstance(held, Assign) and held.targets == (pyir.Name("_value"),), held
            holders.add("_value")
        new = after[d.name]
        assert new.value_at is not None
        assert new.body[:d.value_at] == d.body[:d.value_at] and new.body[new.value_at + 1:] == d.body[d.value_at + 1:]
        assert type(new.body[new.value_at]) is type(held)
    assert holders == {"return", "_value"}
    assert all(after[d.name] != d for d in program.defines if d.name in tabled)  # (written out)


@pytest.mark.parametrize(("ruleset", "players"), [
    ("china-schacht", 3), ("china-schacht/fortifications", 4), ("chang-cheng", 3), ("mandarin", 3),
    ("yellow-yangtze/short", 2),
])
def test_games_are_the_same_with_and_without_the_pass(ruleset: str, players: int) -> None:
    on, off = game(ruleset), game(ruleset, OFF)
    assert on.state_class is not off.state_class
    for seed in range(2):
        play_in_lockstep(on, off, players, 500 + seed)


def test_the_first_item_found_is_a_loop_that_stops_at_it() -> None:
    """A definition whose value is the first item of a walk found (`first(...)`, `next(..., None)`):
    a loop that stops at it, its result declared of the definition's type, and what it gives is what
    `next` gives (an item found, the first; none found, None), on random lists."""
    d = next(d for d in lower(passes.optimise(check_file(CASE).typed))[1].defines if d.name == "nearest")
    after = next(x for x in aggregate_loops.run(lower(passes.optimise(check_file(CASE).typed))[1],
                                                  Facts(check_file(CASE).typed, passes.ALL)).defines
                 if x.name == "nearest")
    assert "next(" in "\n".join(printed(d.body)) and "next(" not in "\n".join(printed(after.body))
    assert printed(after.body)[0] == "_met: int | None = None"
    code = "next((x for x in self.xs if x > 2), None)"
    value = nodes(code)
    assert isinstance(value, pyir.Call)
    lines, rest = aggregate_loops._first_written_out(value, set(), "int | None", SPAN)
    assert text(rest) == "_met"
    body = "\n".join("    " + line for line in printed(tuple(lines)))
    made: dict[str, object] = {}
    exec(compile(f"def value(self):\n{body}\n    return _met\n", "<loop>", "exec"), made)  # noqa: S102
    chooser = random.Random(2)
    for _ in range(200):
        items = [chooser.randrange(-5, 10) for _ in range(chooser.randrange(0, 6))]

        class State:
            xs = items
        assert made["value"](State()) == next((x for x in items if x > 2), None)  # type: ignore[operator]


def test_othello_plays_the_same_games_with_and_without_the_pass() -> None:
    """Othello's `closer`, the first cell of a ray that is not the opponent's, is written out."""
    on, off = game("othello"), game("othello", OFF)
    for seed in range(3):
        play_in_lockstep(on, off, 2, 700 + seed)
