"""`wall_runs(layout, spots)`: the unbroken runs of laid spaces along a wall, across the joins
of the faces laid (Chang Cheng's "longest line of one's own sections" needs it: components() is
refused on a wall, as it would stop at each join)."""

from __future__ import annotations

from pathlib import Path

from rulewright import load_rules

RULES = """
rulewright: 1
game: wall-runs
title: Wall runs
players: 2
boards:
  wall:
    wall:
      one:
        one_a: [a1, a2, a3]
        one_b: [b1, b2, b3]
      two:
        two_a: [c1, c2, c3]
        two_b: [d1, d2, d3]
    regions: {}
    expect: {pieces: 2, spots: 12}
state:
  layout: {type: list(wallface), init: "[one_a]"}
  mine: {per: spot, type: bool, init: "false"}
phases:
  play:
    actions: [extend, take]
actions:
  extend:
    when: "len(layout) == 1"
    text: extend
    effect:
      - layout = attach_left(layout, two_b)
  take:
    choose: {s: "[s for s in wall_spots(layout) if not mine[s]]"}
    text: "take {s}"
    effect:
      - mine[s] = true
define:
  runs: "wall_runs(layout, [s for s in spots if mine[s]])"
end: "all(mine[s] for s in wall_spots(layout))"
scoring:
  longest: "max(len(r) for r in runs)"
"""


def test_runs_go_across_the_join_of_two_faces_and_ignore_what_is_not_laid(tmp_path: Path) -> None:
    rules = tmp_path / "wall-runs.yaml"
    rules.write_text(RULES)
    state = load_rules(rules).new_state(2, 0)
    for move in ("extend", "take d3", "take a1", "take a3", "take d1"):
        state.apply(move)
    labels = state.board.labels
    runs = [[labels[s] for s in run] for run in state.runs()]  # type: ignore[attr-defined]
    # laid left to right: d1 d2 d3 | a1 a2 a3 (two_b joined at the left of one_a)
    assert runs == [["d1"], ["d3", "a1"], ["a3"]]
    state.apply("take d2")
    state.apply("take a2")
    assert [[labels[s] for s in run] for run in state.runs()] == [  # type: ignore[attr-defined]
        ["d1", "d2", "d3", "a1", "a2", "a3"]]
    assert state.is_terminal() and state.score_terms(0) == {"longest": 6}
