"""The pass `mask_spot_sets` over an optional field (docs/optimiser.md): the spots whose field is
`none` (Hex's free cells, Othello's empty squares, Yellow & Yangtze's untiled cells), or not, kept as
a bit mask up to date at each write of the field. Every mask a compiled game keeps equals its
recomputation from the fields after every move of seeded games, on copies and on saved states read
back; the test game of every form plays as the plain code."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.driver import check_file
from rulewright.core.paths import ruleset_file
from rulewright.runtime.state import State
from tests.helpers.lockstep import play_in_lockstep

GAME = Path(__file__).parent / "games" / "none-masks.yaml"


@cache
def kept_masks(path: Path) -> tuple[tuple[str, str, Callable[[object], bool]], ...]:
    """Each mask the compiled program keeps (`TypedProgram.masks`): its slot, its field, and the test
    of a field's value that puts a spot in it, written afresh here from the program's declarations."""
    program = passes.optimise(check_file(path).typed)
    constants = {name: value for name, value, _ in program.tables.constants}
    out: list[tuple[str, str, Callable[[object], bool]]] = []
    for m in program.masks:
        if m.empty:
            out.append((m.slot, m.field, lambda v: not v))
        elif m.value_py == "None":
            out.append((m.slot, m.field, lambda v: v is None))
        else:
            c = constants.get(m.value_py, m.value)
            out.append((m.slot, m.field, lambda v, c=c: v == c))
    return tuple(out)


def recomputed(state: State, field: str, test: Callable[[object], bool]) -> int:
    values: list[object] = getattr(state, field)
    return state.board.spots_mask(s for s, v in enumerate(values) if test(v))


def assert_exact(state: State, masks: tuple[tuple[str, str, Callable[[object], bool]], ...], where: str) -> None:
    for slot, field, test in masks:
        assert getattr(state, slot) == recomputed(state, field, test), f"{where}: {slot} is not {field}'s"


@pytest.mark.parametrize(("path", "players", "games"), [
    (GAME, 2, 4), (ruleset_file("hex"), 2, 2), (ruleset_file("othello"), 2, 2)], ids=["none-masks", "hex", "othello"])
def test_every_mask_is_its_recomputation_after_every_move_copy_and_save(path: Path, players: int, games: int) -> None:
    masks = kept_masks(path)
    assert any(m[0].endswith("__none") for m in masks), f"{path}: no mask of `none` kept"
    game = rulewright.load_rules(path)
    for seed in range(games):
        state = game.new_state(players, seed)
        chooser = random.Random(seed)
        assert_exact(state, masks, f"seed {seed}, setup")
        while not state.terminal:
            state.apply(chooser.choice(state.legal_actions()))
            assert_exact(state, masks, f"seed {seed}, move {state.moves}")
            assert_exact(state.clone(), masks, f"seed {seed}, move {state.moves}, copy")
            if state.moves % 7 == 0:
                assert_exact(game.state_from_json(state.to_json()), masks, f"seed {seed}, move {state.moves}, saved")


def test_every_form_over_an_optional_field_plays_as_the_plain_code() -> None:
    # tests/games/none-masks.yaml: lists (== none, != none and a constant), count/any/all over the
    # board and a region, assignments of `none`, of the seat to act, at an index computed
    optimised, plain = rulewright.load_rules(GAME), rulewright.load_rules(GAME, passes=frozenset())
    moves = sum(play_in_lockstep(optimised, plain, 2, seed) for seed in range(20))
    assert moves > 300
    assert {"_mask__stone__none", "_mask__paint__red"} <= set(type(optimised.new_state(2, 0)).__slots__)


def test_the_pass_takes_none_from_the_program() -> None:
    program = passes.optimise(check_file(GAME).typed, frozenset({"mask_spot_sets"}))
    assert [(m.field, m.value_py, m.slot) for m in program.masks] == [
        ("stone", "None", "_mask__stone__none"), ("paint", "RED", "_mask__paint__red")]
    marked = [e for d in program.defines for e in [d.body] if isinstance(e, t.Comprehension) and e.mask_read]
    assert [e.func for e in marked] == ["list", "count"]


def test_bundled_hex_lists_its_free_cells_from_the_mask() -> None:
    from rulewright.generated.hex import base  # the bundled module, compiled with every pass

    source = Path(base.__file__).read_text(encoding="utf-8")
    assert "for s in self.board.mask_spots(self._mask__stone__none):" in source
    assert "if _item__stone is None" not in source  # (no walk of the board for the free cells left)
