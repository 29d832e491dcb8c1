"""Pass `drop_in_place` (docs/optimiser.md): a state that no copy shares its dicts of kept values with
drops values from them in place; once copied, both states drop from copies as before.

The values kept are checked against a state restored from the position's JSON (a clone would
share the dicts, and make the state under test copy them from then on); tests/test_keep_derived.py
checks states and their clones against each other, and tests/test_optimiser.py the games.
"""

from __future__ import annotations

import json
import random
from typing import Any

from rulewright import runtime as rt
from rulewright.compiler.lower import END_SLOT
from tests.helpers.compiled import game
from tests.helpers.kept import kept_items, kept_values


def assert_fresh_restored(state: Any, where: str) -> int:
    """Every _value `state` keeps equals the one a state restored from its JSON computes."""
    fresh: Any = state.game.state_from_json(json.dumps(state.to_json()))
    checked = 0
    for slot, value in kept_values(state).items():
        if slot == END_SLOT:
            assert value == fresh._is_over(), f"{where}: a stale end"
        elif isinstance(value, dict):
            for args, kept in kept_items(state, slot, value):
                assert kept == getattr(fresh, slot.removeprefix("_d__"))(*args), f"{where}: stale {slot}{args}"
        checked += 1
    return checked


def test_a_state_never_copied_drops_in_place_and_keeps_nothing_stale() -> None:
    g = game("mandarin")
    in_place = checked = 0
    for seed in range(3):
        state: Any = g.new_state(3, seed)
        chooser = random.Random(seed)
        while not state.terminal and state.moves < 300:
            assert state._kept_shared is False
            state.legal_actions()
            state._is_over()
            before, cards = state._d__complete, [set(c) for c in state.card]
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
            if before is not None and cards != [set(c) for c in state.card]:
                in_place += state._d__complete is before  # (the same dict, a value dropped from it)
            checked += assert_fresh_restored(state, f"seed {seed}, move {state.moves}")
    assert in_place > 20 and checked > 100


def test_a_state_and_its_copy_drop_from_copies() -> None:
    g = game("mandarin")
    state: Any = g.new_state(3, 4)
    chooser = random.Random(4)
    while not state.terminal:
        state._is_over()
        if state._d__complete is not None and state.phase == 2:  # (the tiles drawn: a card changes next, or not)
            break
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
    copy: Any = state.clone()
    assert state._kept_shared is True and copy._kept_shared is True and copy._d__complete is state._d__complete
    shared, kept = state._d__complete, dict(state._d__complete)
    keep = next(a for a in state.legal_actions() if str(a) == "keep")
    state.apply(keep)  # the tiles drawn go to the card of the player who drew them
    assert state._d__complete is not shared and copy._d__complete is shared and shared == kept
    assert_fresh_restored(state, "after keep")
    assert_fresh_restored(copy, "the copy")
    # forgetting every value: the dicts made from then on are the state's own
    state._fields_set()
    assert state._kept_shared is False and copy._kept_shared is True


def test_the_runtime_drops_in_place_only_where_told() -> None:
    """(What is written is the golden of tests/passes/drop_in_place.yaml, tests/test_pass_goldens.py.)"""
    kept = {0: True, 1: False}
    assert rt.without_key(kept, 1, False) is kept and kept == {0: True}
    assert rt.without_keys(kept, [0, 5], False) is kept and kept == {}
    kept = {0: True, 1: False}
    assert rt.without_keys(kept, [0]) == {1: False} and kept == {0: True, 1: False}
