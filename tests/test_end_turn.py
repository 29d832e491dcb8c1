"""`end_turn` ends the turn once the move is over, whatever the phase's `then:` says, and drops
an earlier `goto`; a later `goto` in the same move wins (docs/language.md, Effects)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright import load_rules

RULES = """
rulewright: 1
game: end-turn
title: End turn
players: 2
boards:
  track: {ring: 4, regions: {}}
state:
  log: {type: list(int), init: "[]"}
phases:
  first:
    actions: [stop, stop_then_go, go_then_stop, plain]
    then: second
  second:
    actions: [mark]
  third:
    actions: [mark]
actions:
  stop:
    text: stop
    effect:
      - end_turn
      - log = log + [1]
  stop_then_go:
    text: stop then go
    effect:
      - end_turn
      - goto third
  go_then_stop:
    text: go then stop
    effect:
      - goto third
      - end_turn
  plain:
    text: plain
  mark:
    text: mark
    effect:
      - log = log + [2]
end: "len(log) >= 9"
scoring:
  n: "len(log)"
"""


@pytest.mark.parametrize(("move", "seat", "phase"), [
    ("stop", 1, "first"),  # the turn ends: the next seat starts, `then: second` not followed
    ("stop then go", 0, "third"),  # a goto after end_turn wins
    ("go then stop", 1, "first"),  # end_turn after a goto drops it
    ("plain", 0, "second"),  # nothing said: the phase's then:
])
def test_end_turn_ends_the_turn(tmp_path: Path, move: str, seat: int, phase: str) -> None:
    rules = tmp_path / "end-turn.yaml"
    rules.write_text(RULES)
    state = load_rules(rules).new_state(2, 0)
    state.apply(move)
    assert (state.to_act(), state.PHASES[state.phase]) == (seat, phase)
    if move == "stop":
        assert state.log == (1,)  # type: ignore[attr-defined]  # not a return: the effect went on


def test_end_turn_in_a_phase_start_skips_the_phase(tmp_path: Path) -> None:
    """A phase entered by `then:` whose start says `end_turn`: the turn ends there, with no move
    asked in it; when its start does not say so, the phase is played."""
    rules = tmp_path / "skip.yaml"
    rules.write_text(RULES.replace("  second:\n    actions: [mark]",
                                   "  second:\n    start:\n      - if len(log) == 0:\n        - end_turn\n"
                                   "    actions: [mark]"))
    state = load_rules(rules).new_state(2, 0)
    state.apply("plain")  # then: second, whose start ends the turn while the log is empty
    assert (state.to_act(), state.PHASES[state.phase]) == (1, "first")
    state.apply("stop")  # the log is [1] now
    state.apply("plain")
    assert (state.to_act(), state.PHASES[state.phase]) == (0, "second")
