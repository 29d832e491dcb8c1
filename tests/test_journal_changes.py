"""A move that notes the fields it changes (State.JOURNAL, runtime/state.py `_do_steps`): where
every move runs as steps, the state as a move began is made only if the move waits, from the
state then and the fields the move changed as they were. It must be the copy made before the
move that it replaces, field for field, generator included; and a copy of the waiting state
(the move played again from it) the waiting state."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rulewright
from rulewright.core.paths import bundled_rulesets

CHANG_CHENG = [name for name, _ in bundled_rulesets() if name.startswith("chang-cheng")]


def saved(state: Any) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize("ruleset", CHANG_CHENG)
def test_the_state_a_waiting_move_began_in_is_the_copy_it_replaces(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    assert game.state_class.JOURNAL, ruleset  # (every move of Chang Cheng runs as steps)
    count = 3 if 3 in game.info.players else game.info.players[0]
    waited = 0
    for seed in range(3):
        state: Any = game.new_state(count, seed)
        choose = random.Random(seed)
        while not state.is_terminal():
            fresh = state._pending is None
            copy = state.clone() if fresh else None
            state.apply(choose.choice(state.legal_actions()))
            assert state._journal is None  # noted only while a move runs
            if fresh and state._pending is not None:
                waited += 1
                before = state._pending.before
                assert saved(before) == saved(copy)
                assert before._d__laid is None and before._derived is None  # nothing kept of the fields changed
                assert saved(before.clone()) == saved(copy)
                assert saved(state.clone()) == saved(state)  # played again from it: the same position
    assert waited > 0, ruleset


def test_a_rule_set_whose_moves_rarely_ask_copies_the_state_before_a_move_that_can() -> None:
    # Mandarin asks in some actions only: those are copied as they start, the rest run plainly
    game = rulewright.load("mandarin")
    assert game.state_class.SUSPENDS and not game.state_class.JOURNAL
