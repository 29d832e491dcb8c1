"""Pass `listing_hoist` (docs/optimiser.md): the masks a later choice of a listing joins alike for
every item of the choices before it are joined once, before the listing's loops.

Checked on China (Schacht) (what is found, what is written) and on a test game
(tests/games/listing-hoist.yaml) with a later choice whose masks read nothing of the earlier one
and one whose masks read it, played in lockstep with and without the pass.
"""

from __future__ import annotations

from pathlib import Path

import rulewright
from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file
from tests.lockstep import moves_in_lockstep

GAME = Path(__file__).parent / "games" / "listing-hoist.yaml"


def method(source: str, name: str) -> str:
    start = source.index(f"    def {name}(")
    return source[start:source.index("\n    def ", start + 1)]


def test_schacht_joins_its_free_spaces_and_open_provinces_once_per_listing() -> None:
    source = compile_file(ruleset_file("china-schacht")).source
    build = method(source, "_legal__build")
    joined = build.index("        _joined0 = self.board.all_mask & self._empty__palace_of & self.board.keys_mask(")
    assert joined < build.index("for cards in self.all_payments(self.current):")
    assert "_spots_mask = _joined0  #" in build  # (its spots gathered from the joined masks: pass `spot_rows`)
    assert "`listing_hoist`: the masks the spots of `space` are made from, the same for every `cards`" in build
    off = method(compile_file(ruleset_file("china-schacht"), passes.ALL - {"listing_hoist"}).source, "_legal__build")
    assert "_joined0" not in off and "_spots_mask = self.board.all_mask & " in off


def test_masks_that_read_an_earlier_choice_are_joined_per_item() -> None:
    source = compile_file(GAME).source
    assert "_spots_mask = _joined0  #" in method(source, "_legal__claim")
    mark = method(source, "_legal__mark")
    assert "joined" not in mark  # (its masks read `r`: joined per `r`)
    assert "_spots_mask = self.board.all_mask & self._empty__owner & self.board.keys_mask(" in mark


def test_the_listing_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    moves_in_lockstep(GAME, "listing_hoist", 30, alone=None, players=(2,))
    hoisted = rulewright.load_rules(GAME)
    claims = 0
    for seed in range(30):
        state = hoisted.new_state(2, seed)
        while not state.terminal:
            legal = state.legal_actions()
            claims += sum(a.name == "claim" for a in legal)
            state.apply(legal[(seed + state.moves) % len(legal)])
    assert claims > 300
