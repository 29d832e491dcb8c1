"""A thousand seeded random games per rule set: every one ends, or stops at the move cap and is
counted as capped, never silently; none raises. China's thousand games, with gold conserved
at every step, are in test_china_cornett.py; here, the rule sets whose games are long."""

from __future__ import annotations

import pytest

from rulewright.match import BatchSpec, run_batch

MAX_MOVES = 20_000


@pytest.mark.parametrize(("ruleset", "players"), [("mandarin", 3), ("mandarin/money", 3)])
def test_a_thousand_random_games(ruleset: str, players: int) -> None:
    spec = BatchSpec(ruleset, players, seed=1, options={}, max_moves=MAX_MOVES)
    results = list(run_batch(spec, 1000, workers=2))
    assert len(results) == 1000
    errors = [r for r in results if r.error]
    assert errors == [], errors[0].error if errors else ""
    capped = sum(1 for r in results if r.capped)
    finished = [r for r in results if not r.capped]
    assert capped + len(finished) == 1000
    assert capped <= 20, f"{capped} games reached the cap of {MAX_MOVES} moves"
    assert all(r.winners for r in finished)
