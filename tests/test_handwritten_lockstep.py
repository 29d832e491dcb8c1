"""The hand-written reference versions of issue 38 (scripts/handwritten/) play move for move the same
games as the generated modules (scripts/lockstep_handwritten.py), and broken copies of them are
caught: a test that proves the lockstep can fail. A few games here; the script's `--games 1000` is
the long run."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from lockstep_handwritten import handwritten, run  # noqa: E402  (a script, not a module of the package)

GAMES = ["china-cornett", "china-schacht"]


@pytest.mark.parametrize("game", GAMES)
def test_the_hand_written_version_plays_the_same_games(game: str) -> None:
    report = run(game, 2, seed=100)
    assert report.mismatch is None, report.mismatch
    assert report.games == 2
    assert report.decisions >= 2 * 50  # (whole games were compared, move by move)


def test_china_schacht_plays_the_same_games_at_five() -> None:
    report = run("china-schacht", 1, seed=200, players=5)
    assert report.mismatch is None, report.mismatch
    assert report.games == 1 and report.decisions >= 50


def copy_of(hand: ModuleType, **changed: Any) -> Any:
    """The module's interface with some of it changed."""
    names = ("RULESET", "PLAYERS", "OPTIONS", "new_state")
    return SimpleNamespace(**{name: changed.get(name, getattr(hand, name)) for name in names})


def cornett_broken_copies() -> dict[str, Any]:
    hand = handwritten("china-cornett")

    class ThrowsInAnotherOrder(hand.ChinaCornett):
        """Chance drawn as the rules do not: the tablets thrown t12 first."""

        def _throw(self) -> None:
            if self.tablets == hand.ALL_THREE:
                below = self.rng.below
                self.roll = 1 + below(2) + below(2) + 2 * below(2)
            else:
                super()._throw()

    class NoTurningBackGoldNextToGold(hand.ChinaCornett):
        """A rule left out: a marker with a gold neighbour cannot be turned back."""

        def legal_actions(self) -> list[int]:
            legal = super().legal_actions()
            gold = self.gold_side
            kept = [a for a in legal if not (hand.TURN_BACK <= a < hand.PASS and self._beside_gold(a, gold))]
            self._legal = kept or [hand.PASS]
            return self._legal

        @staticmethod
        def _beside_gold(action: int, gold: int) -> bool:
            bit = hand.BIT[action - hand.TURN_BACK]
            return any(gold & (bit << step | bit >> step) for step in hand.STEPS)

    return {
        "chance in another order": copy_of(hand, new_state=lambda seed, players: ThrowsInAnotherOrder(seed)),
        "a rule left out": copy_of(hand, new_state=lambda seed, players: NoTurningBackGoldNextToGold(seed)),
        # the generated module set to another reading than the hand-written version plays
        "another reading of the reductions": copy_of(hand, OPTIONS={**hand.OPTIONS, "reduction_reading": "none_left"}),
        "another collector of sectors": copy_of(hand, OPTIONS={**hand.OPTIONS, "sector_collector": "owner"}),
    }


@pytest.mark.parametrize("broken", sorted(cornett_broken_copies()))
def test_a_broken_copy_of_china_cornett_is_caught(broken: str) -> None:
    report = run("china-cornett", 10, seed=100, hand=cornett_broken_copies()[broken])
    assert report.mismatch is not None, f"{broken}: 10 games agreed"
    assert report.mismatch.startswith("seed ")


def schacht_broken_copies() -> dict[str, Any]:
    hand = handwritten("china-schacht")

    class DealtBackwards(hand.ChinaSchacht):
        """Chance drawn as the rules do not: the face-up cards turned before the hands are dealt."""

        def __init__(self, seed: int, players: int) -> None:
            super().__init__(seed, players)
            self.rng = hand.Rng(seed)
            n = players
            self.hand = [0] * n
            self.hand_size = [0] * n
            self.face_up = 0
            self.face_up_size = 0
            self.deck = [c for c in range(5) for _ in range(hand.REMOVED_PER_COLOUR[n], hand.CARDS_OF[c])]
            self._refill_face_up()
            for p in range(n):
                for _ in range(3):
                    self._draw_blind(p)

    class TwoPiecesInAnEmptyProvince(hand.ChinaSchacht):
        """A rule left out: a second piece may follow the first in a province that was empty."""

        @property
        def was_empty(self) -> bool:
            return False

        @was_empty.setter
        def was_empty(self, value: bool) -> None:
            pass

    class StrictAlliances(hand.ChinaSchacht):
        """A scoring rule changed: an alliance scores only for a lead no one ties."""

        def _leads(self, p: int, r: int) -> bool:
            counts = self.emissaries[r]
            return counts[p] > 0 and all(n < counts[p] for q, n in enumerate(counts) if q != p)

    return {
        "chance in another order": copy_of(hand, new_state=lambda seed, players: DealtBackwards(seed, players)),
        "a rule left out": copy_of(hand, new_state=lambda seed, players: TwoPiecesInAnEmptyProvince(seed, players)),
        "a score counted otherwise": copy_of(hand, new_state=lambda seed, players: StrictAlliances(seed, players)),
    }


@pytest.mark.parametrize("broken", sorted(schacht_broken_copies()))
def test_a_broken_copy_of_china_schacht_is_caught(broken: str) -> None:
    report = run("china-schacht", 10, seed=100, hand=schacht_broken_copies()[broken])
    assert report.mismatch is not None, f"{broken}: 10 games agreed"
    assert report.mismatch.startswith("seed ")
