"""Pass `guard_inline` (docs/optimiser.md): an action's `when:` is tested where its listing starts,
written out, not through a call of its guard method.

What is written (and that the guard methods stay) is the golden of tests/passes/guard_inline.yaml
(tests/test_pass_goldens.py). Checked here: how each form of test is negated, and two test games
with guards (tests/games/listing-tables.yaml, tests/games/list-items.yaml) played in lockstep with
and without the pass and against the plain code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.compiler.driver import compile_file
from rulewright.compiler.lower.listings import guard_written as written
from tests.helpers.lockstep import moves_in_lockstep

GAMES = Path(__file__).parent / "games"


@pytest.mark.parametrize(("when", "test"), [
    ("self.deck", "not self.deck"),
    ("not self.first_turn", "self.first_turn"),
    ("not (a and b)", "a and b"),
    ("X in self.specials[self.current]", "X not in self.specials[self.current]"),
    ("X not in s", "X in s"),
    ("self.last is None", "self.last is not None"),
    ("a + b in s", "a + b not in s"),
    ("(a == b) in s", "(a == b) not in s"),
    ("x in (s if c else t)", "x not in (s if c else t)"),
    ("a in s and b", "not (a in s and b)"),
    ("a < b < c", "not (a < b < c)"),
])
def test_each_form_is_negated(when: str, test: str) -> None:
    parenthesised = when if when.startswith("(") and when.endswith(")") or " " not in when else f"({when})"
    assert written(True, when, parenthesised) == test
    assert written(False, when, parenthesised) is None  # (an action the pass did not mark)
    assert written(True, None, "") is None


@pytest.mark.parametrize("game", ["listing-tables.yaml", "list-items.yaml"])
def test_the_games_play_as_without_the_pass_and_as_the_plain_code(game: str) -> None:
    source = compile_file(GAMES / game).source
    assert "written out (`guard_inline`)" in source and "if not self._guard_" not in source
    assert moves_in_lockstep(GAMES / game, "guard_inline", 6) >= 6 * 3 * 25
