"""The games the tests play: every bundled rule set by its id, and the small test games of
tests/games/ (each a rule file written to exercise one feature)."""

from __future__ import annotations

from pathlib import Path

from rulewright.core.paths import rules_dir
from rulewright.runtime import Rng, State

# every bundled rule set: `china-cornett` for rules/china-cornett/base.yaml, `mandarin/money` for a variant
RULESETS = sorted(
    p.parent.name if p.stem == "base" else f"{p.parent.name}/{p.stem}"
    for p in Path(rules_dir()).glob("*/*.yaml")
)
GAMES = Path(__file__).resolve().parent.parent / "games"
TEST_GAMES = sorted(p.name for p in GAMES.glob("*.yaml"))  # file names in GAMES


def played(state: State, moves: int, seed: int = 5) -> State:
    """`state` after up to `moves` random moves (a fixed generator: the same every run)."""
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state
