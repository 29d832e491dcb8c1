"""`State.why_illegal` names the rule that refuses a move. When actions of several phases share
a text form (Chang Cheng's `wall {s}` is the first section, the second one and the section after
a card), the action of the current phase is the one that refuses it, not the first declared."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright import load_rules
from rulewright.runtime import Action, IllegalAction, State

RULES = """
rulewright: 1
game: shared-texts
title: Shared texts
players: 2
boards:
  track:
    ring: 4
state:
  taken: {per: spot, type: bool, init: "false"}
phases:
  first:
    actions: [first_take]
  second:
    actions: [second_take]
actions:
  first_take:
    choose: {s: "[s for s in spots if not taken[s]]"}
    text: "take {s}"
    effect:
      - taken[s] = true
      - goto second
  second_take:
    choose: {s: "[s for s in spots if not taken[s] and s != spots[0]]"}
    text: "take {s}"
    effect:
      - taken[s] = true
end: "all(taken[s] for s in spots)"
scoring:
  taken: "count(taken[s] for s in spots)"
"""


def test_the_action_of_the_current_phase_refuses_a_shared_text(tmp_path: Path) -> None:
    rules = tmp_path / "shared-texts.yaml"
    rules.write_text(RULES)
    state = load_rules(rules).new_state(2, 0)
    assert state.why_illegal("take 9")[1] == "actions.first_take.choose"
    state.apply("take 2")
    assert [str(a) for a in state.legal_actions()] == ["take 3", "take 4"]
    assert state.why_illegal("take 1") == ("`take 1` is not one of the choices of `second_take` now",
                                            "actions.second_take.choose")
    assert state.why_illegal("take 2")[1] == "actions.second_take.choose"


def test_apply_plays_a_listed_action_without_listing_again(tmp_path: Path) -> None:
    """`apply` finds the action among the legal actions listed for this position (listed once:
    the agent's `legal_actions()` and `apply` share the list); an equal action made elsewhere and
    the action's text are played alike; an illegal one still raises and changes nothing."""
    path = tmp_path / "shared-texts.yaml"
    path.write_text(RULES)
    game = load_rules(path)
    state = game.new_state(2)
    listed: list[int] = []
    original = type(state)._legal

    def counting(self: State) -> list[Action]:
        listed.append(self.phase)
        return original(self)

    type(state)._legal = counting  # type: ignore[method-assign]
    try:
        legal = state.legal_actions()
        state.apply(legal[1])
        assert listed == [0]  # the move listed nothing again
        assert [str(a) for a in state.legal_actions()] == ["take 3", "take 4"] and listed == [0, 1]
        other = game.new_state(2)
        equal = Action(legal[1].name, legal[1].args, legal[1]._render)
        other.apply(equal)
        assert other.to_json() == state.to_json()
        text = game.new_state(2)
        text.apply("take 2")
        assert text.to_json() == state.to_json()
        saved = state.to_json()
        with pytest.raises(IllegalAction, match="illegal action `take 2`"):
            state.apply(legal[1])  # the spot is taken now
        assert state.to_json() == saved
    finally:
        type(state)._legal = original  # type: ignore[method-assign]
