"""The game that docs/guide.md builds step by step, kept whole as tests/games/lanterns.yaml.

Checked: the guide shows that very file and its scenario file (tests/scenarios/guide/, which the
suite runs with every scenario), it checks and compiles, its random games end with every garden
scored, and the README and the top of the language reference point to the guide. The guide's
blocks themselves (each step a fragment checked with the whole file around it, the commands
and their output) are run by tests/test_docs.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.runtime import Rng
from tests.helpers.docs import blocks

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide.md"
GAME = ROOT / "tests" / "games" / "lanterns.yaml"
SCENARIOS = ROOT / "tests" / "scenarios" / "guide" / "lanterns.yaml"
GARDENS = {"Plum": 4, "Pine": 4, "Bamboo": 4, "Lotus": 4, "Pond": 3}


def shown(mode: str) -> str:
    found = [b for b in blocks(GUIDE) if b.mode() == mode]
    assert len(found) == 1, f"docs/guide.md has {len(found)} blocks marked `{mode}`"
    return "\n".join(found[0].body) + "\n"


def test_the_guide_shows_the_whole_rule_file() -> None:
    assert shown("rules lanterns.yaml") == GAME.read_text(encoding="utf-8")


def test_the_guide_shows_the_scenario_file_of_the_suite() -> None:
    """The same file but for where the rule file is (the guide's work folder, or tests/games/)."""
    guide = shown("scenario lanterns-rulings.yaml").replace("ruleset: lanterns.yaml\n",
                                                            "ruleset: ../../games/lanterns.yaml\n")
    assert guide == SCENARIOS.read_text(encoding="utf-8")


def test_the_readme_and_the_reference_lead_to_the_guide() -> None:
    assert "](docs/guide.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    reference = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert "](guide.md)" in reference[:reference.index("\n## ")], "linked before the first section"


@pytest.mark.parametrize("tied_garden", ["shared", "dark"])
def test_random_games_end_with_every_garden_scored(tied_garden: str) -> None:
    """19 moves a game, every spot lit; each garden's points go to its majority (both players on a
    tie under `shared`, nobody under `dark`), so the points add up to what the final board says."""
    game = rulewright.load_rules(GAME)
    assert game.info.players == (2,)
    for seed in range(30):
        state: Any = game.new_state(players=2, seed=seed, options={"tied_garden": tied_garden})
        agent = Rng(seed)
        moves = 0
        while not state.is_terminal():
            state.play(agent.below(len(state.legal_actions())))
            moves += 1
        assert moves == 19 and None not in state.lantern
        want = [0, 0]
        board = state.board
        assert dict(zip(board.region_names, map(len, board.region_spots), strict=True)) == GARDENS
        for spots, size in zip(board.region_spots, GARDENS.values(), strict=True):
            held = [sum(state.lantern[s] == p for s in spots) for p in (0, 1)]
            if held[0] != held[1]:
                want[held.index(max(held))] += size
            elif tied_garden == "shared":
                want = [w + size for w in want]
        assert list(state.points) == want and state.scores() == want
        if want[0] != want[1]:
            assert state.winners() == [want.index(max(want))]
        else:  # the tie goes to the one who hung fewer lanterns: the second player
            assert state.winners() == [1]
