"""Pass `hoist_choices` (docs/optimiser.md): the list a later choice of a listing walks, when it reads
no earlier choice, is made once per listing, the first time it is walked.

What is written, and what is not (a list that reads the earlier choice, a definition walked), is
the golden of tests/passes/hoist_choices.yaml (tests/test_pass_goldens.py). Checked here: the test
game tests/games/hoist-choices.yaml played in lockstep with and without the pass and against the
plain code.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "hoist-choices.yaml"


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "hoist_choices", 20, alone=None, players=(2,)) >= 2 * 20 * 40
