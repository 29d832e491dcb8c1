"""Stage 3, parse (compiler/parse.py, docs/compiler.md): `parse(text, span, kind)` turns one
expression, effect or block header of a rule file into AST nodes (compiler/ast.py) whose spans
point into the rule file, refuses what does not parse with one diagnostic at its place, and keeps
the trees of texts it parsed (a rule set compiled again in one process is not parsed again; what
is kept stays within its bound of characters). What a parsed rule means is the checker's
(tests/test_check.py); whole rule files with a syntax error are in tests/broken/
(tests/test_diagnostics.py), and random texts in tests/test_fuzz.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.compiler import ast, driver, parse
from rulewright.compiler.unparse import unparse
from rulewright.core.source import SourceSpan

SPAN = SourceSpan("x.yaml", 1, 1, 1, 1)
AT = SourceSpan("rules.yaml", 7, 12, 7, 30)  # a scalar at line 7, column 12 of its file


# -- what a text parses to -----------------------------------------------------------------------
def test_an_expression_is_its_nodes_each_placed_in_the_rule_file() -> None:
    e = parse.parse("a + b * 2", AT, "expr")
    assert isinstance(e, ast.Binary) and e.op == "+"
    assert isinstance(e.left, ast.Name) and e.left.id == "a"
    assert isinstance(e.right, ast.Binary) and e.right.op == "*", "`*` binds tighter than `+`"
    assert isinstance(e.right.right, ast.Num) and e.right.right.value == 2
    assert (e.span.line, e.span.col, e.span.end_col) == (7, 12, 21)
    assert (e.right.left.span.line, e.right.left.span.col) == (7, 16), "`b`: the scalar's column plus its own"


def test_each_kind_of_text_parses_to_its_kind_of_node() -> None:
    stmt = parse.parse("score[current] += 1", AT, "stmt")
    assert isinstance(stmt, ast.Assign) and stmt.op == "+=" and stmt.target.name == "score"
    assert isinstance(stmt.target.index, ast.Name) and stmt.target.index.id == "current"
    loop = parse.parse("for s in line", AT, "header")
    assert isinstance(loop, ast.ForHeader) and loop.var == "s"
    test = parse.parse("if x > 1", AT, "header")
    assert isinstance(test, ast.IfHeader) and isinstance(test.test, ast.Binary) and test.test.op == ">"


def test_base_parses_as_a_call_and_is_written_back() -> None:
    e = parse.parse("2 * base(rent(a, 1)) + base(gold)", SPAN, "expr")
    assert isinstance(e, ast.Binary) and isinstance(e.left, ast.Binary)
    call = e.left.right
    assert isinstance(call, ast.Call) and call.func == "base"
    assert isinstance(call.args[0], ast.Call) and call.args[0].func == "rent" and len(call.args[0].args) == 2
    assert isinstance(e.right, ast.Call) and isinstance(e.right.args[0], ast.Name)
    assert unparse(e) == "2 * base(rent(a, 1)) + base(gold)"


def test_the_told_text_is_read_back_as_written() -> None:
    span = SourceSpan("x.yaml", 1, 1, 1, 40)
    stmt = parse.parse('tell "{current} wins at {s}, {a[0].strength} to 2"', span, "stmt")
    assert unparse(stmt) == 'tell "{current} wins at {s}, {a[0].strength} to 2"'
    assert parse.parse(unparse(stmt), span, "stmt") == stmt


# -- what it refuses -----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "kind", "where", "message", "hint"), [
    ("a +", "expr", "rules.yaml:7:15", "syntax error in expression: it ends too early", "expected `(`, "),
    ("a ? b", "expr", "rules.yaml:7:14", "syntax error in expression: unexpected character `?`", None),
    ("let = 1", "stmt", "rules.yaml:7:16", "syntax error in effect: unexpected `=`",
     "to define a local value write `let name = ...`"),
], ids=["ends-too-early", "odd-character", "let-without-a-name"])
def test_a_text_that_does_not_parse_is_one_diagnostic_at_its_place(
        text: str, kind: parse.Kind, where: str, message: str, hint: str | None) -> None:
    with pytest.raises(parse.ParseError) as refused:
        parse.parse(text, AT, kind)
    d = refused.value.diagnostic
    assert f"{d.span.path}:{d.span.line}:{d.span.col}" == where and d.message == message
    if hint is None:
        assert d.hint is None
    else:
        assert (d.hint or "").startswith(hint), d.hint


def test_an_expression_nested_too_deeply_is_refused() -> None:
    assert parse.parse("not " * (parse.MAX_DEPTH // 2) + "x", AT, "expr").op == "not"
    with pytest.raises(parse.ParseError) as refused:
        parse.parse("not " * (parse.MAX_DEPTH + 10) + "x", AT, "expr")
    d = refused.value.diagnostic
    assert d.message == f"expression nested too deeply (more than {parse.MAX_DEPTH} levels)"
    assert d.span.line == 7 and d.hint == "split it with `define:` or `let`"


# -- the trees it keeps --------------------------------------------------------------------------
def test_the_same_text_at_the_same_place_is_one_tree() -> None:
    span = SourceSpan("kept.yaml", 3, 5, 3, 10)
    first = parse.parse("a + b * 2", span, "expr")
    assert parse.parse("a + b * 2", span, "expr") is first
    elsewhere = parse.parse("a + b * 2", SourceSpan("kept.yaml", 4, 5, 4, 10), "expr")
    assert elsewhere is not first and elsewhere.span.line == 4 and first.span.line == 3
    assert elsewhere == parse.parse("a + b * 2", elsewhere.span, "expr")


def test_a_text_that_does_not_parse_is_refused_each_time() -> None:
    span = SourceSpan("kept.yaml", 1, 1, 1, 5)
    for _ in range(2):
        with pytest.raises(parse.ParseError):
            parse.parse("a +", span, "expr")


def test_what_is_kept_stays_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse, "PARSED_CHARS_KEPT", 1_000)
    for line in range(1, 400):
        parse.parse("score + 1", SourceSpan("bound.yaml", line, 1, line, 10), "expr")
        assert parse._parsed_chars <= 1_000
    assert parse._parsed_chars == sum(len(text) + 1 for text, _, _ in parse._parsed)


def test_a_module_compiled_from_kept_trees_is_the_module_compiled_afresh() -> None:
    """A variant compiled after its base reuses the base's trees; it is the same module as one
    compiled with nothing kept."""
    base, variant = Path("rules/mandarin/base.yaml"), Path("rules/mandarin/money.yaml")
    driver.compile_file(base)
    kept = driver.compile_file(variant).source
    parse._parsed.clear()
    parse._parsed_chars = 0
    assert driver.compile_file(variant).source == kept
