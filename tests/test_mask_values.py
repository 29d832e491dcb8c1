"""Pass `mask_values` (docs/optimiser.md): the spots where a field per spot holds a value named by a
variable (a player), as one bit mask per value kept up to date; counts, tests and lists of them,
and of the spots empty or not, read from the masks.

What is written (every form of the test game tests/games/mask-values.yaml and of the case
tests/passes/mask_values.yaml read from the masks, the one whose lists only the game bounds left to
the plain code, the masks kept exact by each assignment) is their golden (tests/test_pass_goldens.py).
Checked here: what is found for China (Schacht) (`palaces_in`, `palaces_total`, the free spaces,
`chains_of`'s palaces) and what `keep_derived` then keeps no more; the masks exact after every move, on
copies (their own list) and on saved states read back; the test game and the Schacht rule sets
played in lockstep with and without the pass and against the plain code; the board's masks per
value against what they stand for.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import rulewright
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.check import check
from rulewright.compiler.driver import build, compile_file
from rulewright.core.paths import ruleset_file
from rulewright.runtime.state import Game, State
from tests.helpers.lockstep import moves_in_lockstep, play_in_lockstep

GAME = Path(__file__).parent / "games" / "mask-values.yaml"
SCHACHT = ("china-schacht", "china-schacht/border-quarrels", "china-schacht/two-player",
           "china-schacht/fortifications", "china-schacht/bonus-tiles")


@cache
def optimised(path: Path, enabled: frozenset[str] = passes.ALL) -> t.TypedProgram:
    _, rs, diagnostics = build(path)
    assert rs is not None and not diagnostics
    problems, program = check(rs)
    assert program is not None, problems
    return passes.optimise(program, enabled)


def kept(path: Path, enabled: frozenset[str] = passes.ALL) -> dict[str, t.Kept]:
    """How each definition kept between moves is kept (pass `keep_derived` and the passes after it)."""
    return {d.name: d.kept for d in optimised(path, enabled).defines if d.kept is not None}


@cache
def source(path: Path, enabled: frozenset[str] = passes.ALL) -> str:
    return compile_file(path, enabled).source


@cache
def game(path: Path, enabled: frozenset[str] = passes.ALL) -> Game:
    return rulewright.load_rules(path, passes=enabled)


def test_schacht_keeps_a_mask_of_the_palaces_of_each_player() -> None:
    program = optimised(ruleset_file("china-schacht"))
    assert [(m.field, m.op, m.count, m.slot) for m in program.value_masks] == \
        [("palace_of", "in", "self.num_seats", "_has__palace_of")]
    assert any(m.field == "palace_of" and m.empty for m in program.masks)
    schacht = kept(ruleset_file("china-schacht"))
    # no loop left: neither kept nor dropped, and written where they are called
    assert "palaces_in" not in schacht and "palaces_total" not in schacht
    assert {"emissary_room", "province_points", "can_place"} <= set(schacht)  # (`chains_of`: only the scores
    # read it, so pass `compute_at_scoring` has `keep_derived` keep it no more)
    assert {name for name, how in schacht.items() if how.regions} == {"emissary_room", "province_points"}
    assert {name for name, how in schacht.items() if how.nested is not None} == {"province_points"}
    plain = optimised(ruleset_file("china-schacht"), passes.ALL - {"mask_values"})
    assert plain.value_masks == ()
    # (without the masks, `keep_counts` keeps their counts in tables; without either, `keep_derived` keeps them)
    assert len(plain.kept_counts) == 2  # (palaces_in, palaces_total: asked as the legal actions are listed)
    without = passes.ALL - {"mask_values", "keep_counts"}
    assert {"palaces_in", "palaces_total"} <= set(kept(ruleset_file("china-schacht"), without))


def test_schacht_reads_its_road_chains_from_the_masks() -> None:
    """(The other forms read from the masks, and the masks kept exact, are the goldens of
    tests/passes/mask_values.yaml and of the test game, tests/test_pass_goldens.py.)"""
    code = source(ruleset_file("china-schacht"))
    assert "self.board.road_chains(self.board.mask_spots(self._has__palace_of[p]), 4, " in code  # chains_of
    assert "_d__palaces_" not in code and "self.palaces_in(" not in code


def masks_are_exact(state: State) -> bool:
    """Each mask per value a state keeps is the mask of the spots whose field holds that value."""
    found: Any = state
    board = state.board
    for slot in type(state).__slots__:
        if slot.endswith("_has") or slot.endswith("_is"):
            field = slot.removeprefix("_mask_").rsplit("_", 1)[0]
            values = getattr(found, field)
            masks = getattr(found, slot)
            for v, mask in enumerate(masks):
                holds = [s for s, x in enumerate(values) if (v in x if slot.endswith("_has") else x == v)]
                if mask != board.spots_mask(holds):
                    return False
            if len(masks) != (state.num_seats if slot.endswith("_has") else 3):
                return False
    return True


def test_the_masks_are_exact_through_every_move_copy_and_save() -> None:
    for path in (GAME, ruleset_file("china-schacht"), ruleset_file("china-schacht/border-quarrels"),
                 ruleset_file("china-schacht/two-player")):
        g = game(path)
        for seed in range(3):
            players = g.info.players[seed % len(g.info.players)]
            state = g.new_state(players, seed)
            chooser = random.Random(seed)
            while not state.terminal and state.moves < 400:
                assert masks_are_exact(state)
                copy = state.clone()
                state.apply(chooser.choice(state.legal_actions()))
                assert masks_are_exact(state) and masks_are_exact(copy)  # (the copy's list is its own)
                assert masks_are_exact(state.clone())
                if state.moves % 17 == 0:
                    read = g.state_from_json(state.to_json())
                    assert masks_are_exact(read)
                    assert [str(a) for a in read.legal_actions()] == [str(a) for a in state.legal_actions()]


def test_a_copy_changes_its_own_masks() -> None:
    g = game(ruleset_file("china-schacht"))
    state = g.new_state(3, 2)
    before: Any = state.clone()
    mask = list(before._has__palace_of)
    while not any(a.name == "build" for a in state.legal_actions()):
        state.apply(state.legal_actions()[-1])
    state.apply(next(a for a in state.legal_actions() if a.name == "build"))
    assert before._has__palace_of == mask and masks_are_exact(before)
    assert any(state._has__palace_of)  # type: ignore[attr-defined]


def test_the_game_plays_as_without_the_pass_and_as_the_plain_code() -> None:
    assert moves_in_lockstep(GAME, "mask_values", 20, players=(2, 3)) > 3 * 20 * 20


def test_schacht_plays_as_without_the_pass() -> None:
    for ruleset in SCHACHT:
        path = ruleset_file(ruleset)
        on, off = game(path), game(path, passes.ALL - {"mask_values"})
        for seed in range(3):
            players = on.info.players[seed % len(on.info.players)]
            play_in_lockstep(on, off, players, seed)


def test_the_boards_masks_per_value_are_what_they_stand_for() -> None:
    board = game(ruleset_file("china-schacht")).new_state(3, 1).board
    chooser = random.Random(3)
    for _ in range(50):
        lists = [tuple(chooser.sample(range(4), chooser.randrange(3))) for _ in board.spots]
        masks = board.item_masks(lists, 4)
        assert masks == [board.spots_mask(s for s, x in enumerate(lists) if v in x) for v in range(4)]
        values = [chooser.randrange(5) for _ in board.spots]
        assert board.value_masks(values, 5) == [board.value_mask(values, v) for v in range(5)]
