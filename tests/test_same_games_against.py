"""scripts/same_games_against.py: the digest of seeded random games it compares between two trees
(the long check itself, against an older commit, is run by hand: docs/optimiser.md)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from same_games_against import digest  # noqa: E402  (a script, not a module of the package)


def test_the_digest_is_the_same_for_the_same_games_and_differs_for_others(tmp_path: Path) -> None:
    # (PYTHONPATH an empty folder: the package installed for this tree plays on both runs)
    one = digest(tmp_path, "china-cornett", 2, 1)
    assert len(one) == 64
    assert digest(tmp_path, "china-cornett", 2, 1) == one, "the same seeded game, the same digest"
    assert digest(tmp_path, "china-cornett", 2, 2) != one, "another game more, another digest"
