"""Pass `choice_hoist` (docs/optimiser.md): the list a later choice of a listing walks, when it reads
no earlier choice, is made once per listing, the first time it is walked.

Checked: what is written for China (Schacht)'s exchange of a card for a face-up one, and what is
not (a list that reads the earlier choice, one that calls a definition: tests/games/choice-hoist.yaml);
the test game played in lockstep with and without the pass and against the plain code.
"""

from __future__ import annotations

from pathlib import Path

from rulewright.compiler import passes
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file
from tests.lockstep import moves_in_lockstep
from tests.test_listing_hoist import method

GAME = Path(__file__).parent / "games" / "choice-hoist.yaml"


def test_schacht_makes_the_face_up_colours_once_per_listing() -> None:
    listing = method(compile_file(ruleset_file("china-schacht")).source, "_legal__exchange_face_up")
    bound = listing.index("        _joined0: Sequence[int] | None = None  # rules/china-schacht/base.yaml:427; "
                          "`choice_hoist`")
    assert bound < listing.index("for card in ")
    assert ("for taken in (_joined0 if _joined0 is not None else (_joined0 := [c for c in range(5) if c in "
            "self.face_up])):  # rules/china-schacht/base.yaml:427") in listing
    off = method(compile_file(ruleset_file("china-schacht"), passes.ALL - {"choice_hoist"}).source,
                 "_legal__exchange_face_up")
    assert "_joined0" not in off and "for taken in [c for c in range(5) if c in self.face_up]:" in off


def test_only_lists_that_read_no_earlier_choice_nor_definition_are_hoisted() -> None:
    source = compile_file(GAME).source
    assert "for take in (_joined0 if _joined0 is not None else (_joined0 := " in method(source, "_legal__swap")
    assert "joined" not in method(source, "_legal__trade")  # (it reads `give`)
    assert "joined" not in method(source, "_legal__ask")  # (a definition: `pool_colours`)


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "choice_hoist", 20, alone=None, players=(2,)) >= 2 * 20 * 40
