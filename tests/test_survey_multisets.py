"""scripts/survey_multisets.py: the list fields of few kinds it finds, the uses it names, and its
verdict (the survey of the bundled rule sets itself is docs/optimiser.md, "Multisets as counts: the
survey")."""

from __future__ import annotations

import sys
from pathlib import Path

from rulewright.core.paths import ruleset_file

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from survey_multisets import survey  # noqa: E402  (a script, not a module of the package)


def test_schacht_s_hand_could_be_counts_and_its_deck_not() -> None:
    found = {c.name: c for c in survey(ruleset_file("china-schacht"))}
    assert set(found) == {"deck", "discard", "emissaries", "face_up", "hand", "palace_of"}
    hand = found["hand"]
    assert hand.kept_sorted and hand.kinds == 5 and hand.per == "player"
    assert hand.verdict() == ("counts", [])
    assert hand.uses["write: sorted join"] == 3 and hand.uses["write: without"] == 3 and hand.uses["member"] == 4
    verdict, reasons = found["deck"].verdict()
    assert verdict == "refused" and reasons == [
        "its order is read (draw, join) and the rules do not keep it sorted"]
    assert found["deck"].uses["draw"] == 2


def test_components_are_no_few_kinds() -> None:
    """(Yellow & Yangtze's racks and bag hold tiles, components each its own.)"""
    assert survey(ruleset_file("yellow-yangtze")) == []
