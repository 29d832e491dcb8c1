"""Pass `hoist_masks` (docs/optimiser.md): the masks a later choice of a listing joins alike for
every item of the choices before it are joined once, before the listing's loops.

What is written on the test game tests/games/hoist-masks.yaml, a later choice whose masks read
nothing of the earlier one and one whose masks read it, is its golden
(tests/passes/hoist_masks-listing-hoist.golden, tests/test_pass_goldens.py); here it is played
in lockstep with and without the pass.
"""

from __future__ import annotations

from pathlib import Path

import rulewright
from tests.helpers.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "hoist-masks.yaml"


def test_the_listing_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves_in_lockstep(GAME, "hoist_masks", 30, alone=None, players=(2,))
    hoisted = rulewright.load_rules(GAME)
    claims = 0
    for seed in range(30):
        state = hoisted.new_state(2, seed)
        while not state.terminal:
            legal = state.legal_actions()
            claims += sum(a.name == "claim" for a in legal)
            state.apply(legal[(seed + state.moves) % len(legal)])
    assert claims > 300
