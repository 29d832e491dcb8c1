"""Connected components on every board kind, majority with ties, and definitions computed once
per state (`cached: true`), proven on tests/games/kingdoms-lite.yaml: the cache never changes a
game (the same logs, byte for byte, with and without it, and with the flood fill written by hand
in the language), every change of the state drops it, and no state shares, saves or shows it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright import runtime as rt
from rulewright.compiler.driver import compile_file
from rulewright.match import log_header, play_game, write_log
from rulewright.runtime import Game, GraphBoard, HexBoard, RingBoard, limits, majority, ranked

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "tests" / "games" / "kingdoms-lite.yaml"
UNCACHED = ROOT / "tests" / "bench" / "kingdoms-lite-uncached.yaml"
BY_HAND = ROOT / "tests" / "bench" / "kingdoms-lite-by-hand.yaml"
FIELDS = {"laid", "layer", "left", "points", "unions"}


# -- the runtime: components on every board kind ---------------------------------------------
def test_components_on_a_hexagon_follow_hex_neighbours_lowest_spot_first() -> None:
    board = HexBoard("h", 3, [], [])
    at = board.index
    spots = [at[s] for s in ("C5", "A1", "A2", "B2", "C1", "E3", "D4")]
    groups = board.components(spots)
    assert [sorted(board.labels[s] for s in g) for g in groups] == [["A1", "A2", "B2"], ["C1"], ["C5", "D4", "E3"]]
    assert all(isinstance(g, frozenset) for g in groups) and isinstance(groups, tuple)
    assert board.component_of(at["E3"], spots) == groups[2]
    assert board.component_of(at["B1"], spots) == frozenset(), "a spot not among them has no group"
    assert board.components([]) == ()
    assert board.components(spots + spots) == groups, "a spot given twice counts once"
    assert board.components(frozenset(spots)) == groups


def test_components_on_a_ring_join_the_ends() -> None:
    board = RingBoard("r", 8, [], [])
    assert board.components([7, 0, 1, 4, 5]) == (frozenset({0, 1, 7}), frozenset({4, 5}))
    assert board.component_of(4, [3, 4, 6]) == frozenset({3, 4})


def test_components_on_a_graph_follow_the_roads() -> None:
    board = GraphBoard("g", ["a", "b", "c", "d", "e"], [("a", "b"), ("b", "c"), ("d", "e")], [], [], [], [])
    assert board.components([0, 2, 3, 4]) == (frozenset({0}), frozenset({2}), frozenset({3, 4}))
    assert board.components([0, 1, 2]) == (frozenset({0, 1, 2}),)
    assert board.component_of(2, [0, 1, 2, 4]) == frozenset({0, 1, 2})


def test_components_match_a_plain_search_on_random_spot_sets() -> None:
    board = HexBoard("h", 5, [], [])
    rng = random.Random(3)
    for _ in range(200):
        spots = rng.sample(board.spots, rng.randrange(len(board.spots)))
        groups = board.components(spots)
        assert sorted(s for g in groups for s in g) == sorted(spots)
        assert [min(g) for g in groups] == sorted(min(g) for g in groups)
        for g in groups:
            for s in g:
                assert board.component_of(s, spots) == g
            for other in groups:
                if other is not g:
                    assert not any(n in other for s in g for n in board.neighbours[s])


def test_component_of_mends_the_last_groups_as_components_would_find_them() -> None:
    # A few spots added or taken away since the last spots asked of: the last groups are mended
    # (a group split where a spot left it, groups joined where one came), not all found again.
    board = HexBoard("h", 5, [], [])
    rng = random.Random(7)
    spots: set[int] = set()
    mended = 0
    for step in range(600):
        if step % 50 == 0:
            spots = set(rng.sample(board.spots, rng.randrange(len(board.spots))))  # (found afresh)
        else:
            spots ^= set(rng.sample(board.spots, rng.randrange(1, 5)))
        last = board._groups
        before = dict(last[1]) if last is not None else {}
        given = sorted(spots)
        want = {s: g for g in board.components(given) for s in g}
        assert [board.component_of(s, given) for s in board.spots] == [want.get(s, frozenset()) for s in board.spots]
        if last is not None:
            assert last[1] == before, "the last groups are left as they were (a copy is mended)"
            mended += step % 50 != 0
    assert mended == 588


def test_majority_and_ranked_share_places_on_ties() -> None:
    assert majority([3, 5, 5, 0]) == (1, 2)
    assert majority([0, 0]) == (), "nobody leads with nothing"
    assert majority([]) == ()
    assert majority([2]) == (0,)
    assert ranked([3, 3, 2, 0], 1) == (0, 1)
    assert ranked([3, 3, 2, 0], 2) == (2,), "the next count down is second, however many are first"
    assert ranked([3, 3, 2, 0], 3) == (), "a seat with nothing has no place"
    assert ranked([4, 1, 1], 2) == (1, 2)
    assert ranked([4, 1, 1], 0) == ()


# -- the compiled game: what the compiler emits ----------------------------------------------
def test_the_builtins_need_no_run_time_check_and_bundled_code_has_no_cache() -> None:
    # (unoptimised: the pass `keep_derived` keeps these definitions in slots of its own, not `_derived`)
    source = compile_file(GAME.relative_to(ROOT), passes=frozenset()).source
    assert "_value: Sequence[frozenset[int]] = self.board.components(self.tiles())" in source
    assert "self.board.component_of(s, self.tiles())" in source
    assert "rt.walk(self, self.tiles()" not in source
    assert "self._derived = None" in source
    generated = ROOT / "generated"
    for module in generated.rglob("*.py"):
        folder = ROOT / "rules" / module.parent.name.replace("_", "-")
        opted_in = any("cached: true" in f.read_text(encoding="utf-8") for f in folder.glob("*.yaml"))
        if not opted_in:  # (chang-cheng caches what its legal actions ask of every space)
            # (the slot `_derived`, not the pass `keep_derived` the header names)
            text = module.read_text(encoding="utf-8")
            assert not re.search(r"(?<!\w)_derived\b", text), f"{module}: caching is opt-in"


def test_a_cached_definition_is_computed_once_per_state(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rulewright.load_rules(GAME)
    state: Any = game.new_state(players=2, seed=4)
    rng = random.Random(4)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    fresh = state.clone()
    calls: list[int] = []
    original = HexBoard.component_of

    def counted(board: HexBoard, spot: int, spots: Any) -> frozenset[int]:
        calls.append(spot)
        return original(board, spot, spots)

    monkeypatch.setattr(HexBoard, "component_of", counted)
    fresh.legal_actions()
    tiles = [s for s in fresh.board.spots if fresh.laid[s]]
    assert calls and len(calls) == len(set(calls)) <= len(tiles), "each tile's kingdom found once"
    calls.clear()
    fresh.kingdom_of(tiles[0])
    assert not calls, "nor found again while the state is unchanged"


# -- the cache never changes a game ------------------------------------------------------------
def logs(game: Game, players: int, seeds: range, out: Path) -> list[bytes]:
    found = []
    for seed in seeds:
        result = play_game(game, players, seed, record=True)
        assert result.error is None, result.error
        assert result.final is not None
        final = {**result.final, "ruleset": "kingdoms-lite"}  # (a variant's id is its own: the rest is the game)
        path = out / f"{players}-{seed}.jsonl"
        write_log(path, log_header("kingdoms-lite", players, seed, {}), result.log, final)
        found.append(path.read_bytes())
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_games_with_and_without_the_cache(tmp_path: Path, players: int) -> None:
    cached = rulewright.load_rules(GAME)
    text = GAME.read_text(encoding="utf-8")
    assert text.count(", cached: true}") == 3
    plain = tmp_path / "kingdoms-lite.yaml"
    plain.write_text(text.replace(", cached: true}", "}"), encoding="utf-8")
    uncached = rulewright.load_rules(plain)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    seeds = range(10 * players, 10 * players + 10)
    first = logs(cached, players, seeds, tmp_path / "a")
    assert first == logs(uncached, players, seeds, tmp_path / "b")
    assert first == logs(rulewright.load_rules(UNCACHED), players, seeds, tmp_path / "b")


def test_the_same_games_as_the_flood_fill_written_by_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The by-hand flood fill's proven work passes a move's limit: lifted here (it plays fine)."""
    monkeypatch.setattr(limits, "MAX_STEPS", 1 << 62)
    monkeypatch.setattr(rt, "MAX_STEPS", 1 << 62)  # (a move's budget is set from it: the template's `new_move`)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = logs(rulewright.load_rules(GAME), 2, range(1), tmp_path / "a")
    assert first == logs(rulewright.load_rules(BY_HAND), 2, range(1), tmp_path / "b")


# -- every change of the state drops the cache; no state shares, saves or shows it ---------------
def kingdoms_now(state: Any) -> tuple[frozenset[int], ...]:
    tiles = [s for s in state.board.spots if state.laid[s]]
    board: HexBoard = state.board
    return board.components(tiles)


def test_every_change_drops_the_cache(tmp_path: Path) -> None:
    game = rulewright.load_rules(GAME, passes=frozenset())  # (`cached: true` itself: the passes keep their own)
    rng = random.Random(11)
    for seed in range(5):
        state: Any = game.new_state(players=3, seed=seed)
        while not state.is_terminal():
            assert state.kingdoms() == kingdoms_now(state)  # fills the cache
            for s in state.tiles():
                assert s in state.kingdom_of(s)
            state.apply(rng.choice(state.legal_actions()))
            assert state.kingdoms() == kingdoms_now(state), "apply dropped what was remembered"
            copy = state.clone()
            assert copy._derived is None, "a clone starts with a cache of its own"
            copy.kingdoms()
            assert copy._derived is not state._derived
            saved = state.to_json()
            assert "_derived" not in json.dumps(saved) and set(saved["fields"]) == FIELDS
            assert set(state.observation(0)["fields"]) == FIELDS
            restored: Any = game.state_from_json(saved)
            assert restored._derived is None or restored.kingdoms() == state.kingdoms()
            assert restored.to_json() == saved


def test_a_scenario_position_drops_the_cache() -> None:
    from rulewright import scenarios

    game = rulewright.load_rules(GAME)
    found, problems = scenarios.load_file(ROOT / "tests" / "scenarios" / "kingdoms-lite" / "kingdoms.yaml")
    assert not problems
    s = found[0]
    state: Any = game.new_state(players=2, seed=1)
    assert state.kingdoms() == ()
    assert scenarios.apply_position(s, state) is None
    assert len(state.kingdoms()) == 2


def test_diff_shows_a_definition_cached_or_not() -> None:
    from rulewright.compiler.diff import diff, load_ruleset

    changes = diff(load_ruleset(GAME), load_ruleset(UNCACHED))
    shown = {c.path: (c.old, c.new) for c in changes}
    assert shown["define.kingdoms"] == ("kingdoms: {value: components(tiles), cached: true}",
                                        "kingdoms: components(tiles)")
