"""The parser keeps the trees of texts it parsed (compiler/parse.py): a rule set compiled again
in one process is not parsed again, and what is kept stays within its bound of characters."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.compiler import driver, parse
from rulewright.core.source import SourceSpan


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
