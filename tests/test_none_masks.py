"""The pass `mask_spot_sets` over an optional field (docs/optimiser.md): the spots whose field is
`none` (Hex's free cells, Yellow & Yangtze's untiled cells), or not, kept as
a bit mask up to date at each write of the field. Every mask a compiled game keeps equals its
recomputation from the fields after every move of seeded games, on copies and on saved states read
back; the test game of every form plays as the plain code."""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.driver import check_file
from rulewright.core.paths import ruleset_file
from rulewright.runtime.state import Game, State
from tests.helpers.lockstep import play_in_lockstep

GAME = Path(__file__).parent / "games" / "none-masks.yaml"
MOVES = 150  # moves checked a game at most (Yellow & Yangtze's are long; the test game's and Hex's end before)


def kept_masks(game: Game) -> tuple[tuple[str, str, Callable[[object], bool]], ...]:
    """Each mask of one value the game's module keeps (its slots `_mask__<field>__<value>`, `mask_spot_sets`):
    its slot, its field, and the test of a field's value that puts a spot in it, written afresh here."""
    state = game.new_state(min(game.info.players), 0)
    out: list[tuple[str, str, Callable[[object], bool]]] = []
    for cls in type(state).__mro__:  # (a variant's class adds its own slots to its base's)
        module = sys.modules[cls.__module__]
        for slot in getattr(cls, "__slots__", ()):
            if not slot.startswith("_mask__"):
                continue
            field, value = slot.removeprefix("_mask__").split("__", 1)
            if value == "none":
                out.append((slot, field, lambda v: v is None))
            else:
                constant = getattr(module, value.upper())
                out.append((slot, field, lambda v, c=constant: v == c))
    return tuple(out)


def recomputed(state: State, field: str, test: Callable[[object], bool]) -> int:
    values: list[object] = getattr(state, field)
    return state.board.spots_mask(s for s, v in enumerate(values) if test(v))


def assert_exact(state: State, masks: tuple[tuple[str, str, Callable[[object], bool]], ...], where: str) -> None:
    for slot, field, test in masks:
        assert getattr(state, slot) == recomputed(state, field, test), f"{where}: {slot} is not {field}'s"


def bundled(name: str) -> Game:
    """The bundled module of a rule set (generated/), compiled with every pass."""
    return importlib.import_module(f"rulewright.generated.{name}").GAME  # type: ignore[no-any-return]


@pytest.mark.parametrize(("which", "players", "games"), [
    ("none-masks", 2, 3), ("hex.base", 2, 2), ("yellow_yangtze.short", 2, 1)])
def test_every_mask_is_its_recomputation_after_every_move_copy_and_save(which: str, players: int, games: int) -> None:
    game = rulewright.load_rules(GAME) if which == "none-masks" else bundled(which)
    masks = kept_masks(game)
    assert any(m[0].endswith("__none") for m in masks), f"{which}: no mask of `none` kept"
    for seed in range(games):
        state = game.new_state(players, seed)
        chooser = random.Random(seed)
        assert_exact(state, masks, f"seed {seed}, setup")
        while not state.terminal and state.moves < MOVES:
            state.apply(chooser.choice(state.legal_actions()))
            assert_exact(state, masks, f"seed {seed}, move {state.moves}")
            assert_exact(state.clone(), masks, f"seed {seed}, move {state.moves}, copy")
            if state.moves % 10 == 0:
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


def test_a_set_the_scores_alone_read_is_no_mask() -> None:
    # Othello counts the discs on the board (`count(disc[s] != none ...)`) in its returns only: computed once a
    # game is over, where a mask would be kept at every disc flipped
    program = passes.optimise(check_file(ruleset_file("othello")).typed)
    assert [m.slot for m in program.masks] == []
    kept = [m.slot for m in passes.optimise(check_file(GAME).typed).masks]
    assert kept == ["_mask__stone__none", "_mask__paint__red"]


def test_bundled_hex_lists_its_free_cells_from_the_mask() -> None:
    from rulewright.generated.hex import base  # the bundled module, compiled with every pass

    source = Path(base.__file__).read_text(encoding="utf-8")
    assert "for s in self.board.mask_spots(self._mask__stone__none):" in source
    assert "if _item__stone is None" not in source  # (no walk of the board for the free cells left)
