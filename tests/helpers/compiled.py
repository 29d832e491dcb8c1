"""A rule set at each stage the tests read: its typed program, its generated module's text, its
loaded game, and one method cut out of that text. Each is made once per process (`cache`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import rulewright
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.check import check
from rulewright.compiler.driver import build, compile_file
from rulewright.core.paths import ruleset_file
from rulewright.runtime import Game


@cache
def typed_file(path: Path) -> t.TypedProgram:
    """The checked program of a rule file, which must have no problem."""
    _, ruleset, problems = build(path)
    assert ruleset is not None and not problems
    problems, program = check(ruleset)
    assert not problems and program is not None, problems
    return program


def typed(ruleset: str) -> t.TypedProgram:
    """The checked program of a bundled rule set (`china-cornett`, `mandarin/money`)."""
    return typed_file(ruleset_file(ruleset))


@cache
def source(ruleset: str, enabled: frozenset[str] = passes.ALL) -> str:
    """The generated module's text of a bundled rule set, with the passes named."""
    return compile_file(ruleset_file(ruleset), enabled).source


@cache
def game(ruleset: str, enabled: frozenset[str] = passes.ALL) -> Game:
    """The game of that text, loaded in memory."""
    return rulewright.game_from_source(source(ruleset, enabled), str(ruleset_file(ruleset)))


def method(source: str, name: str) -> str:
    """One method of a generated module's text, up to the next one."""
    start = source.index(f"    def {name}(")
    return source[start:source.index("\n    def ", start + 1)]
