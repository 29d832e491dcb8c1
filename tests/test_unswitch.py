"""Pass `unswitch` (docs/optimiser.md): a loop's list filtered by `x or rest`, `x` the same for every
item, is the list itself where `x` holds. What is written, a choice's list and a loop's, is the
golden of tests/passes/unswitch.yaml (tests/test_pass_goldens.py); here the test game is played in
lockstep with and without the pass and against the plain code; the bundled rule sets are held to the
plain code by tests/test_optimiser.py."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "unswitch.yaml"


def test_the_test_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "unswitch", 20, frozenset({"hoist"})) >= 20 * 3 * 40
