"""Fuzzing the compiler: whatever a rule file holds, it answers with diagnostics, never with a
traceback.

Three sources of bad input: the real rule file mutated line by line (typing mistakes), the real
rule file with parts of its YAML tree replaced by values of other shapes (a scalar where a
mapping is wanted, lists of mappings, numbers and nulls as keys...), and random text given to
the expression parser directly.
"""

from __future__ import annotations

import copy
import random
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulewright.compiler.build.keys import ACTION_KEYS, BOARD_KEYS, FIELD_KEYS, OPTION_KEYS, PHASE_KEYS, TOP_KEYS
from rulewright.compiler.driver import analyse, compile_file
from rulewright.compiler.parse import Kind, ParseError, parse
from rulewright.core.source import CompileError, Diagnostic, SourceSpan

ROOT = Path(__file__).resolve().parent.parent
BASE = (ROOT / "rules" / "china-cornett" / "base.yaml").read_text(encoding="utf-8")
LINES = BASE.split("\n")
NAMES = sorted(set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", BASE)))
TOKENS = [
    ":", ": ", "[", "]", "{", "}", "-", "- ", '"', "'", ",", "(", ")", "#", "&a ", "*a", "!!int ", "!!str ", "~",
    "|", ">", "? ", "%", "@", "`", "\\", "\t", "  ", "if", "if ", "else", "elif ", "for x in ", "for s in spots",
    "not ", " and ", " or ", "==", "+=", "=", "let ", "goto ", "end_turn", "pass", "throw(tablets)", "{}", "[]",
    "0", "1", "-1", "6", "99999999999999999999", "1.5", "0x1F", "017", "1:30", "true", "false", "null", "yes",
    "é", "---", "...", "\n", "\n  ", "\n- ",
]
FUZZ = settings(max_examples=300, deadline=None, derandomize=True)


def check_diagnostics(diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> None:
    for d in diagnostics:
        assert isinstance(d, Diagnostic)
        assert d.span.line >= 1 and d.span.col >= 1, d
        assert d.message
        rendered = d.render()
        assert rendered.startswith(f"{d.span}: error: ")


def run_everything(text: str) -> None:
    """`analyse` and `compile_file` on the text as a rule file: only CompileError may come out."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.yaml"
        path.write_text(text, encoding="utf-8")
        _, diagnostics, _ = analyse(path)
        check_diagnostics(diagnostics)
        try:
            compile_file(path)
        except CompileError as exc:
            assert exc.diagnostics
            check_diagnostics(exc.diagnostics)
            # The checker must see every problem: what it lets through must compile.
            assert diagnostics, "\n".join(d.render() for d in exc.diagnostics)
        else:
            assert not diagnostics, "analyse found problems that compile_file let through"


# -- 1. the real rule file, mutated line by line ---------------------------------------------
# Places are drawn with a Random seeded by hypothesis: its own draws lean towards small values,
# which would put most mutations in the comments at the top of the file.

SEEDS = st.integers(0, 2**32 - 1)

REVALUES = [
    "", "~", "[]", "{}", "0", "-3", "2.5", "true", "[1, 2]", "{a: 1}", "[a, [b]]", "{a: {b: c}}", '"x"', "'{}'",
    "[{a: b}, {c: d}]", "{1: a, 2: b}", "&a [1]", "*a",
]


def _delete(lines: list[str], rnd: random.Random) -> None:
    del lines[rnd.randrange(len(lines))]


def _duplicate(lines: list[str], rnd: random.Random) -> None:
    lines.insert(rnd.randrange(len(lines)), rnd.choice(lines))


def _swap(lines: list[str], rnd: random.Random) -> None:
    i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]


def _replace_char(lines: list[str], rnd: random.Random) -> None:
    i = rnd.randrange(len(lines))
    if lines[i]:
        k = rnd.randrange(len(lines[i]))
        new = rnd.choice(TOKENS) if rnd.random() < 0.7 else chr(rnd.randrange(32, 0x2FFF))
        lines[i] = lines[i][:k] + new + lines[i][k + 1:]


def _insert_token(lines: list[str], rnd: random.Random) -> None:
    i = rnd.randrange(len(lines))
    k = rnd.randint(0, len(lines[i]))
    lines[i] = lines[i][:k] + rnd.choice(TOKENS if rnd.random() < 0.5 else NAMES) + lines[i][k:]


def _indent(lines: list[str], rnd: random.Random) -> None:
    i = rnd.randrange(len(lines))
    shift = rnd.randint(-4, 4)
    lines[i] = " " * shift + lines[i] if shift >= 0 else lines[i][-shift:]


def _truncate(lines: list[str], rnd: random.Random) -> None:
    del lines[rnd.randint(1, len(lines)):]
    if rnd.random() < 0.5:  # and in the middle of the last line
        lines[-1] = lines[-1][: rnd.randint(0, len(lines[-1]))]


def _rename(lines: list[str], rnd: random.Random) -> None:
    i = rnd.randrange(len(lines))
    lines[i] = lines[i].replace(rnd.choice(NAMES), rnd.choice(NAMES))


def _revalue(lines: list[str], rnd: random.Random) -> None:
    """Another value after a `key:`, often of another shape."""
    i = rnd.randrange(len(lines))
    key, sep, _ = lines[i].partition(":")
    if sep:
        lines[i] = f"{key}: {rnd.choice(REVALUES if rnd.random() < 0.7 else NAMES)}"


MUTATIONS: list[Callable[[list[str], random.Random], None]] = [
    _delete, _duplicate, _swap, _replace_char, _insert_token, _indent, _truncate, _rename, _revalue,
]


@st.composite
def mutated_rules(draw: st.DrawFn) -> str:
    rnd = random.Random(draw(SEEDS))
    lines = list(LINES)
    for _ in range(rnd.randint(1, 6)):
        if not lines:
            break
        rnd.choice(MUTATIONS)(lines, rnd)
    return "\n".join(lines)


@FUZZ
@given(mutated_rules())
@example("")
@example("- a\n- b\n")
@example("game: [" * 100)
@example(BASE.replace('"', ""))
def test_mutated_rule_files_give_diagnostics_not_tracebacks(text: str) -> None:
    run_everything(text)


# -- 2. the real rule file, with parts of its tree of other shapes ---------------------------

KEYS = sorted({*TOP_KEYS, *OPTION_KEYS, *BOARD_KEYS, *FIELD_KEYS, *PHASE_KEYS, *ACTION_KEYS, "mirror_of", "rename"})
SCALARS = (
    st.none() | st.booleans() | st.integers(-3, 100) | st.floats(allow_nan=False, width=16)
    | st.sampled_from(NAMES) | st.sampled_from(KEYS)
    | st.sampled_from(["", "x", "A1", "{t01}", "[]", "if tablets", "for s in spots", "else", "roll + 1",
                       "gold[current] += 1", "goto turn", "int", "set(tablet)", "list(list(spot))", "{line}"])
    | st.text(max_size=8)
)
YAML_KEYS = st.sampled_from(KEYS) | st.sampled_from(NAMES) | st.integers(-2, 9) | st.booleans() | st.none()
SHAPES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(YAML_KEYS, inner, max_size=4),
    max_leaves=12,
)
REAL = yaml.safe_load(BASE)


def _places(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value in the tree, the root included."""
    yield at
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _places(value, (*at, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _places(value, (*at, i))


def _put(data: Any, at: tuple[Any, ...], value: Any) -> Any:
    if not at:
        return value
    parent = data
    for step in at[:-1]:
        parent = parent[step]
    parent[at[-1]] = value
    return data


@st.composite
def reshaped_rules(draw: st.DrawFn) -> str:
    rnd = random.Random(draw(SEEDS))
    data = copy.deepcopy(REAL)
    for _ in range(rnd.randint(1, 3)):
        places = list(_places(data))
        data = _put(data, rnd.choice(places), draw(SHAPES))
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


@FUZZ
@given(reshaped_rules())
@example(yaml.safe_dump({**REAL, "state": 5}))
@example(yaml.safe_dump({**REAL, "phases": [{"turn": REAL["phases"]["turn"]}]}))
@example(yaml.safe_dump({**REAL, 3: {None: [True]}}))
@example("a:\n" + "".join("  " * i + "- - b:\n" for i in range(1, 120)))
def test_rule_files_of_any_shape_give_diagnostics_not_tracebacks(text: str) -> None:
    run_everything(text)


# -- 3. the expression parser on its own -----------------------------------------------------

SPAN = SourceSpan("fuzz.rules", 3, 7, 3, 7)
WORDS = [
    "x", "spots", "marker", "[", "]", "(", ")", "{", "}", ",", ".", "=", "==", "!=", "<", "<=", ">", ">=", "+",
    "-", "*", "//", "%", "+=", "-=", "not", "in", "and", "or", "if", "else", "elif", "for", "let", "goto",
    "end_turn", "pass", "true", "false", "count", "all", "1", "42", "'a'", '"b"', "#", "\n", "\t", "é", "@",
]
PHRASES = st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join) | st.text(max_size=40)


@FUZZ
@given(PHRASES, st.sampled_from(["expr", "stmt", "header"]))
@example("-" * 400 + "1", "expr")
@example("(" * 300 + "1" + ")" * 300, "expr")
@example("[" * 300 + "]" * 300, "expr")
@example(" + ".join(["1"] * 600), "expr")
@example("9" * 5000, "expr")
@example("x = " + "not " * 500 + "true", "stmt")
def test_the_parser_raises_only_parse_errors(text: str, kind: Kind) -> None:
    try:
        parse(text, SPAN, kind)
    except ParseError as exc:
        d = exc.diagnostic
        assert d.span.path == SPAN.path
        assert d.span.line >= SPAN.line and d.span.col >= 1, d
        d.render("\n" * (SPAN.line - 1) + " " * (SPAN.col - 1) + text)


# -- 4. extremes: each once made the compiler raise, hang or write Python that does not parse ---

MINIMAL = (ROOT / "tests" / "broken" / "_valid_minimal.yaml").read_text(encoding="utf-8")


def _minimal(old: str, new: str) -> str:
    assert MINIMAL.count(old) == 1, old
    return MINIMAL.replace(old, new)


def _nested_loops(n: int) -> str:
    return "".join("      " + "  " * i + "- for x in spots:\n" for i in range(n)) + "      " + "  " * n + "- pass\n"


def _many_actions(n: int) -> str:
    listed = _minimal("actions: [finish]", "actions: [finish, " + ", ".join(f"a{i}" for i in range(n)) + "]")
    return listed.replace("  finish:\n", "".join(f"  a{i}: {{effect: [pass]}}\n" for i in range(n)) + "  finish:\n")


def _chained_definitions(n: int) -> str:
    chain = "".join(f'  d{i}: "d{i + 1}"\n' for i in range(n)) + f'  d{n}: "true"'
    free = '  "free(s: spot)": "marker[s] == empty'
    return _minimal(free + '"', free + ' and d0"\n' + chain)


EXTREMES = {
    "flow nesting": ("a: " + "[" * 5000 + "]" * 5000, "nest"),  # (libyaml says it, or we do)
    "block nesting": ("".join("  " * i + "- k:\n" for i in range(400)), "nested too deeply"),
    "long sum": (_minimal('when: "roll >= 0"', 'when: "roll >= ' + " + ".join(["1"] * 600) + '"'),
                 "expression nested too deeply"),
    "deep effects": (_minimal("      - end_turn\n", _nested_loops(25)), "effects nested too deeply"),
    "deep type": (_minimal("    type: int\n    init: 0\n  roll",
                           "    type: " + "list(" * 2000 + "int" + ")" * 2000 + "\n    init: 0\n  roll"),
                  "type nested too deeply"),
    "chain of definitions": (_chained_definitions(300), "chain of more than"),
    "many actions": (_many_actions(1001), "more than 1000 actions"),
    "extends a NUL": ('extends: "a\\0b.yaml"\ngame: x\n', "not a usable rule set name"),
    "extends a long name": ("extends: " + "a" * 5000 + "\ngame: x\n", "not a usable rule set name"),
    "a field named like a keyword": (_minimal("  roll:\n", "  lambda:\n    type: int\n    init: 0\n  roll:\n"),
                                     "Python keyword"),
    "a name with a newline": (_minimal("  finish:\n", '  "finish\\n":\n'), "is not a name"),
}


@pytest.mark.parametrize("name", EXTREMES)
def test_extreme_rule_files_give_diagnostics(name: str) -> None:
    text, message = EXTREMES[name]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "extreme.yaml"
        path.write_text(text, encoding="utf-8")
        _, diagnostics, _ = analyse(path)
    assert any(message in d.message for d in diagnostics), [d.message for d in diagnostics]
    run_everything(text)
