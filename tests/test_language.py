"""Language features beyond what the bundled games use, on the small games of tests/games/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.runtime import Rng

GAMES = Path(__file__).parent / "games"


def test_ring_board_enums_die_and_another_seat_deciding() -> None:
    game = rulewright.load_rules(GAMES / "ring-race.yaml")
    state: Any = game.new_state(players=3, seed=4)
    assert state.board.labels == tuple(str(i) for i in range(1, 13))
    assert 1 <= state.roll <= 6
    assert state.to_act() == 0
    assert sorted(str(a) for a in state.legal_actions()) == ["advance", "wait"]
    start = state.position[0]
    state.apply("advance")
    assert state.position[0] == (start + state.roll) % 12 or state.laps[0] == 1
    # the verdict phase: the next seat decides, though it is still seat 1's turn
    assert state.PHASES[state.phase] == "verdict" and state.current == 0
    assert state.to_act() == 1
    assert sorted(str(a) for a in state.legal_actions()) == ["approve blue", "approve red"]
    state.apply("approve blue")
    assert state.observation(0)["fields"]["flag"] == "blue"
    assert state.to_act() == 1 and state.current == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ring_race_random_games_end(players: int) -> None:
    game = rulewright.load_rules(GAMES / "ring-race.yaml")
    for seed in range(20):
        state = game.new_state(players=players, seed=seed)
        agent = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[agent.below(len(legal))])
        assert max(state.scores()) >= 2
        assert state.winners()


def test_components_with_attributes_drawn_from_a_bag() -> None:
    game = rulewright.load_rules(GAMES / "tile-bag.yaml")
    for seed in range(10):
        state: Any = game.new_state(players=2, seed=seed)
        agent = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[agent.below(len(legal))])
            assert len(state.bag) + sum(len(h) for h in state.hand) + len(state.drawn) == 12, "tiles kept"
        assert sum(len(h) for h in state.hand) == 12
        # 3 crowned tiles (one per colour) and 4 red ones, whoever holds them
        crowns = sum(sum(1 for t in h if t % 4 == 0) for h in state.hand)
        assert crowns == 3
        assert sum(state.scores()) == 3 + 4
    obs = game.new_state(players=2, seed=1).observation(0)
    assert "bag" not in obs["fields"], "a field visible to nobody is not observed"


def test_an_unknown_attribute_is_an_error(tmp_path: Path) -> None:
    from rulewright.compiler.driver import analyse

    text = (GAMES / "tile-bag.yaml").read_text(encoding="utf-8").replace("t.crowned for", "t.crown for")
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    _, problems, _ = analyse(path)
    rendered = "\n".join(d.render() for d in problems)
    assert "error: `tile` has no attribute `crown`" in rendered
    assert "did you mean `crowned`?" in rendered


def test_visibility_owner_shown_if_and_hidden_items() -> None:
    game = rulewright.load_rules(GAMES / "tile-bag.yaml")
    state: Any = game.new_state(players=2, seed=3)
    state.hand = [frozenset({0}), frozenset({5})]
    mine = state.observation(0)["fields"]
    assert mine["hand"] == [["tile1"], None], "each player sees only his own hand"
    opened = game.new_state(players=2, seed=3, options={"open_hands": "open"})
    assert opened.observation(1)["fields"]["hand"] == [[], []], "shown_if: everyone sees every hand"
    seen = set()
    for seed in range(20):
        state = game.new_state(players=2, seed=seed)
        shown = state.observation(1)["fields"]["drawn"]
        seen.add(shown[0] == "hidden")
        assert shown[0] == ("hidden" if not state.face_up[0] else state.label("tile", state.drawn[0]))
    assert seen == {True, False}, "a tile drawn face down is hidden, face up shown"
