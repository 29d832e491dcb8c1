"""Pass `drop_by_region` (docs/optimiser.md): a change of a field per spot drops, of a kept
definition that reads the field only in the spots of its region parameter, only the values of
the regions holding the spot.

The analysis is checked on the bundled rule sets (which definitions it finds, and which it must
not); what lowering writes is the golden of tests/passes/drop_by_region.yaml and
tests/passes/nest_by_region.yaml (tests/test_pass_goldens.py), and a definition of two parameters
not nested is checked dropped whole; the runtime's pieces (`Board.spot_regions`,
`rt.without_keys`) against what they stand for; and played games against `keep_derived` alone, in
lockstep, with every value kept checked fresh after every move and the other regions' values
seen to survive a palace placed (China (Schacht) and its border posts, spaces in two provinces).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

import rulewright
import rulewright.compiler.driver
from rulewright import runtime as rt
from rulewright.compiler import passes
from rulewright.compiler.analysis.reads import analyse
from rulewright.compiler.check import check
from rulewright.compiler.driver import build
from rulewright.compiler.passes.drop_by_region import read_in_region
from rulewright.core.paths import ruleset_file
from rulewright.runtime.state import Game, State
from tests.helpers.kept import Keeping, keeping, kept_items
from tests.helpers.lockstep import play_in_lockstep


@cache
def decided(ruleset: str, enabled: frozenset[str] = passes.ALL) -> Keeping:
    """How the optimised program keeps its values between moves."""
    _, rs, diagnostics = build(ruleset_file(ruleset))
    assert rs is not None and not diagnostics
    problems, program = check(rs)
    assert program is not None, problems
    return keeping(passes.optimise(program, enabled))


@cache
def game(ruleset: str, enabled: frozenset[str] = passes.ALL) -> Game:
    return rulewright.load_rules(ruleset_file(ruleset), passes=enabled)


def assert_fresh(state: State, where: str) -> None:
    """Every _value _kept equals the one computed afresh (on a clone that keeps nothing)."""
    fresh: Any = state.clone()
    fresh._fields_set()
    for slot in type(state).__slots__:
        value = getattr(state, slot) if slot.startswith("_d__") else None
        if isinstance(value, dict):
            for args, kept in kept_items(state, slot, value):
                assert kept == getattr(fresh, slot.removeprefix("_d__"))(*args), f"{where}: stale {slot}{args}"


def test_the_definitions_read_in_their_region_only_are_found() -> None:
    """China (Schacht): `palaces_in(p, r)` and `palaces_total(r)` count `palace_of[s] for s in r`;
    `emissary_room(r)` and `province_points(p, r)` read it through them, at their own `r`. Not
    `chains_of(p)` (every spot of the board), `can_place(p)` (`any(free(s) for s in spots)`) or
    `open_spaces` (no parameter). (Without `mask_values`: with it, `palaces_in` and `palaces_total`
    are popcounts of masks, kept no more; and without `keep_counts`, which keeps them as tables then.)"""
    without = passes.ALL - {"mask_values", "keep_counts"}
    found = {(name, f, k) for name, f, k in decided("china-schacht", without).regions}
    assert found == {("palaces_in", "palace_of", 1), ("palaces_total", "palace_of", 0),
                     ("emissary_room", "palace_of", 0), ("province_points", "palace_of", 1)}
    kept = {name for name, _ in decided("china-schacht", without).derived}
    assert {"can_place", "open_spaces"} <= kept
    assert {(name, f, k) for name, f, k in decided("china-schacht").regions} == \
        {("emissary_room", "palace_of", 0), ("province_points", "palace_of", 1)}
    # (`chains_of`, which only the scores read, is kept only without the pass `compute_at_scoring`: dropped whole then)
    unscored = decided("china-schacht", passes.ALL - {"compute_at_scoring"})
    assert "chains_of" in {name for name, _ in unscored.derived}
    assert "chains_of" not in {name for name, _, _ in unscored.regions}


def test_a_read_at_a_spot_of_no_region_parameter_proves_nothing() -> None:
    """Fortifications: `empty(r)` reads `fortified[s] for s in r`, `palace_award(p, r)` reads it
    through `on_fortification(p, s) for s in r` (found); `on_fortification(p, s)` itself reads it
    at a spot parameter, which names no region, and `chain_bonus(p)` at every spot (not found)."""
    found = {(name, f) for name, f, _ in decided("china-schacht/fortifications").regions}
    assert {("empty", "fortified"), ("empty", "palace_of"), ("palace_award", "fortified")} <= found
    assert not any(name in ("on_fortification", "chain_bonus", "chains_of", "open_spaces") for name, _ in found)
    _, rs, _ = build(ruleset_file("china-schacht/fortifications"))
    assert rs is not None
    program = check(rs)[1]
    assert program is not None
    defines = {d.name: d for d in program.defines}
    deps = analyse(program)
    assert read_in_region(defines["on_fortification"], "fortified", defines, deps, {}) is None
    assert read_in_region(defines["chain_bonus"], "fortified", defines, deps, {}) is None
    assert read_in_region(defines["empty"], "fortified", defines, deps, {}) == 0


def test_nothing_is_decided_without_keep_derived() -> None:
    assert decided("china-schacht", passes.ALL - {"keep_derived"}).regions == ()


def test_a_definition_of_two_parameters_not_nested_is_dropped_whole() -> None:
    """(The drop of a region's values after the assignment, and its comment, is the golden of
    tests/passes/drop_by_region.yaml; values nested by region, of tests/passes/nest_by_region.yaml.)"""
    # a definition of two parameters is dropped whole (lower._dropped_at), unless its values are kept
    # by region first (pass `nest_by_region`, test_nested_values_drop_the_regions_changed_only)
    whole = rulewright.compiler.driver.compile_file(ruleset_file("china-schacht"),
                                                    passes.ALL - {"nest_by_region", "mask_values",
                                                                  "keep_counts"}).source
    assert "self._d__palaces_in = self._d__province_points = " in whole


def test_spot_regions_are_the_regions_of_every_kind_holding_the_spot() -> None:
    """A border post of Border Quarrels lies in two provinces: both are named."""
    for ruleset in ("china-schacht", "china-schacht/border-quarrels", "china-cornett", "chang-cheng"):
        g = game(ruleset)
        for board in {id(b): b for b in (g.new_state(n, 0).board for n in g.info.players)}.values():
            expect = [sorted(r for kind in board.regions_at for r in kind[s]) for s in board.spots]
            assert [list(rs) for rs in board.spot_regions] == expect
            if ruleset.endswith("border-quarrels"):
                assert any(len(rs) == 2 for rs in board.spot_regions)


def test_dropping_the_values_of_some_regions_leaves_a_shared_dict_alone() -> None:
    kept = {0: 1, 1: 2, 2: 3}
    assert rt.without_keys(kept, (1, 2)) == {0: 1} and kept == {0: 1, 1: 2, 2: 3}
    # a copy even when none is kept: the state adds the value again to a dict of its own (runtime/kept.py)
    assert rt.without_keys(kept, (5,)) == kept and rt.without_keys(kept, (5,)) is not kept
    assert rt.without_keys(None, (0,)) is None


@pytest.mark.parametrize("ruleset", ["china-schacht", "china-schacht/border-quarrels",
                                     "china-schacht/fortifications", "china-schacht/two-player"])
def test_the_same_games_as_keep_derived_alone_and_no_stale_value(ruleset: str) -> None:
    with_pass = game(ruleset, frozenset({"keep_derived", "drop_by_region"}))
    without = game(ruleset, frozenset({"keep_derived"}))
    for k in range(4):
        play_in_lockstep(with_pass, without, with_pass.info.players[k % len(with_pass.info.players)], 7000 + k)
    survived = 0
    for seed in range(2):
        state: Any = with_pass.new_state(with_pass.info.players[0], seed)
        chooser = random.Random(seed)
        while not state.terminal:
            for r in state.board.regions_of_kind[0]:
                state.emissary_room(r)
            before = list(state.palace_of)
            state.apply(chooser.choice(state.legal_actions()))
            changed = [s for s, was in enumerate(before) if state.palace_of[s] != was]
            if changed and state._d__emissary_room is not None:
                stale = {r for s in changed for r in state.board.spot_regions[s]}
                assert not stale & set(state._d__emissary_room)
                survived += len(state._d__emissary_room)
            assert_fresh(state, f"{ruleset} seed {seed}, move {state.moves}")
    assert survived > 20, "the other provinces' room stayed kept"


# -- pass `nest_by_region`: the values of a definition of several parameters kept by region first ----
def test_definitions_of_several_parameters_are_nested_by_their_region_only() -> None:
    """China (Schacht): `palaces_in(p, r)` and `province_points(p, r)` (their `r`, the second);
    not by an entity: Mandarin's `held(p, a)`, read at its player only, stays one dict (measured
    slower nested, compiler/passes/nest_by_region.py); nor by the animal its values could be dropped
    by (`keep_derived.attribute_entries`: measured slower too)."""
    assert decided("china-schacht", passes.ALL - {"mask_values", "keep_counts"}).nested == (
        ("palaces_in", 1), ("province_points", 1))
    assert decided("china-schacht").nested == (("province_points", 1),)  # (`palaces_in`: a popcount, `mask_values`)
    # (with `intersect_components`, `held` is a set operation, not kept)
    mandarin = decided("mandarin", passes.ALL - {"intersect_components"})
    assert ("held", "card", 0) in mandarin.entries and mandarin.nested == () and decided("mandarin").nested == ()
    assert ("held", "card", 1, "ATTR__TILE__ANIMAL") in mandarin.attributes
    assert decided("china-schacht", passes.ALL - {"drop_by_region"}).nested == ()


@pytest.mark.parametrize("ruleset", ["china-schacht", "china-schacht/border-quarrels"])
def test_nested_values_drop_the_regions_changed_only(ruleset: str) -> None:
    nested = game(ruleset, frozenset({"keep_derived", "drop_by_region", "nest_by_region"}))
    flat = game(ruleset, frozenset({"keep_derived", "drop_by_region"}))
    for k in range(3):
        play_in_lockstep(nested, flat, nested.info.players[k % len(nested.info.players)], 7100 + k)
    survived = 0
    state: Any = nested.new_state(nested.info.players[0], 3)
    chooser = random.Random(3)
    while not state.terminal:
        for r in state.board.regions_of_kind[0]:
            for p in range(state.num_players):
                state.palaces_in(p, r)
        before, kept = list(state.palace_of), dict(state._d__palaces_in)
        copy: Any = state.clone()  # (shares the dicts kept: a move on the original leaves its values)
        state.apply(chooser.choice(state.legal_actions()))
        changed = {r for s, was in enumerate(before) if state.palace_of[s] != was for r in state.board.spot_regions[s]}
        if changed and state._d__palaces_in is not None:  # the same dicts for the others, new ones for those
            assert all(state._d__palaces_in.get(r) is not kept[r] for r in changed & set(kept))
            survived += sum(state._d__palaces_in.get(r) is kept[r] for r in set(kept) - changed)
        assert_fresh(state, f"{ruleset} move {state.moves}")
        assert_fresh(copy, f"{ruleset} the copy before move {state.moves}")
    assert survived > 20, "the other provinces' palaces stayed kept"
