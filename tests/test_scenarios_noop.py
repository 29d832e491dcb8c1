"""A scenario step, a position key or an expectation that would have no effect is an error
located at `path:line:col`, never a silent no-op (issue 34): a trigger compiled as steps is run,
a position in which the rules' `end:` holds is a game over, and each key that could do nothing
says so. The positive cases are bundled scenarios (tests/scenarios/chang-cheng/triggers.yaml)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulewright import scenarios
from rulewright.cli import cli


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(tmp_path: Path, text: str) -> list[str]:
    _, problems = scenarios.load_file(write(tmp_path, text))
    return [d.render().splitlines()[0] for d in problems]


def run_one(tmp_path: Path, text: str) -> scenarios.Result:
    (scenario,), problems = scenarios.load_file(write(tmp_path, text))
    assert problems == [], [d.render() for d in problems]
    return scenarios.run(scenario)


CORNETT = "ruleset: china-cornett\nnames: [Alex, Barbara]\nscenarios:\n"


def test_a_trigger_whose_when_does_not_hold_is_a_located_error(tmp_path: Path) -> None:
    """`first_reduction` fires only with the three tablets and few alignments of five: on the
    setup's board (every marker face down) it would change nothing."""
    text = CORNETT + "  x:\n    steps:\n      - trigger: first_reduction\n"
    result = run_one(tmp_path, text)
    assert result.problem is not None
    assert result.problem.startswith(f"{tmp_path / 's.yaml'}:6:18: trigger `first_reduction` does not fire on this "
                                     "position: its `when:` (rules/china-cornett/base.yaml:220) does not hold")
    stated = run_one(tmp_path, text + "    expect:\n      error: does not fire\n")  # a scenario may state it
    assert stated.passed, stated.report()


def test_a_trigger_that_does_not_fire_is_told_without_a_trace_too() -> None:
    """A distribution's replays and the web viewer play steps with no trace kept: the trigger's
    firing is still told (the runner keeps a trace of its own for the step)."""
    found, _ = scenarios.load_file(Path(__file__).parent / "scenarios" / "china-cornett" / "rulebook.yaml")
    reduction = next(s for s in found if s.name == "reduction-trigger-applied-to-a-position")
    assert reduction.game is not None
    state = reduction.game.new_state(2, 1, {})
    assert state.trace is None
    error = scenarios.play_steps(reduction, state)  # the setup's board: the trigger's `when:` does not hold
    assert error is not None and "trigger `first_reduction` does not fire" in error
    assert state.trace is None, "the trace kept for the step is dropped"


def test_a_trigger_after_the_end_or_while_a_seat_is_asked_is_a_located_error(tmp_path: Path) -> None:
    over = run_one(tmp_path, """\
ruleset: chang-cheng
players: 3
scenarios:
  x:
    position: {game_over: true}
    steps:
      - trigger: turn_over
""")
    assert over.problem == f"{tmp_path / 's.yaml'}:7:18: trigger `turn_over` cannot apply: the game is over"
    asked = run_one(tmp_path, """\
ruleset: chang-cheng
players: 3
scenarios:
  x:
    position:
      layout: [one_front, two_front]
      block_at: {single: [1F1, 1F2, 1F3, 1F4, 2F1, 2F2, 2F3, 2F4, 2F5, 2F6, 2F7, 2F8], others: empty}
      builder: {1F1: P1, 1F2: P1, 1F3: P1, 1F4: P1, 2F1: P2, 2F2: P2, 2F3: P2, 2F4: P2,
                2F5: P2, 2F6: P2, 2F7: P2, 2F8: P2}
      singles: {P1: 10, P2: 6}
      protected: {Qi: true, Liang: true, Yan: true}
      emperor_on: [Qi, Liang, Yan]
    steps:
      - trigger: turn_over
      - trigger: turn_over
""")
    assert asked.problem == (f"{tmp_path / 's.yaml'}:15:18: trigger `turn_over` cannot apply while Alex is asked "
                             "`new_end`: answer it first")


def test_a_position_in_which_the_end_holds_is_a_game_over(tmp_path: Path) -> None:
    """`game_over: true` makes the rules' `end:` hold: `terminal:`, `winners:` and `to_act:` see
    a finished game (they once saw one going on); a `to_act:` in it is refused."""
    result = run_one(tmp_path, """\
ruleset: chang-cheng
players: 3
scenarios:
  x:
    position: {game_over: true, points: {Alex: 2, Barbara: 9}}
    expect: {terminal: true, winners: [Barbara], to_act: ~, legal: []}
""")
    assert result.passed, result.report()
    acting = run_one(tmp_path, """\
ruleset: chang-cheng
players: 3
scenarios:
  x:
    position: {game_over: true, to_act: Alex}
""")
    assert acting.problem is not None and "but nobody (the game is over) decides" in acting.problem


def test_winners_of_a_game_not_over_fail_and_an_empty_list_is_refused(tmp_path: Path) -> None:
    result = run_one(tmp_path, CORNETT + "  x:\n    expect:\n      winners: [Alex]\n")
    assert [(c.what, c.actual, c.ok) for c in result.checks] == [("winners", "none yet: the game is not over", False)]
    assert problems_of(tmp_path, CORNETT + "  x:\n    expect:\n      winners: []\n") == [
        f"{tmp_path / 's.yaml'}:6:16: error: `winners: []` can never hold: a finished game has at least one winner"]


def test_chance_that_forces_nothing_is_a_located_error(tmp_path: Path) -> None:
    shown = tmp_path / "s.yaml"
    assert problems_of(tmp_path, CORNETT + "  x:\n    position:\n      chance: {}\n") == [
        f"{shown}:6:15: error: `chance: {{}}` forces nothing"]
    assert problems_of(tmp_path, CORNETT + "  x:\n    steps:\n      - chance: {throw: []}\n") == [
        f"{shown}:6:25: error: `throw: []` forces nothing"]


def test_others_that_stands_for_no_entity_is_a_located_error(tmp_path: Path) -> None:
    """Both players given: `others:` would give nobody a value, in a position and in an
    expectation alike."""
    shown = tmp_path / "s.yaml"
    assert problems_of(tmp_path, CORNETT + "  x:\n    position:\n      gold: {Alex: 1, Barbara: 2, others: 0}\n") == [
        f"{shown}:6:35: error: `others:` stands for no player of `gold`: every one is given"]
    assert problems_of(tmp_path, CORNETT + "  x:\n    expect:\n      fields: {gold: {Alex: 0, Barbara: 0, rest: 0}}\n"
                       ) == [f"{shown}:6:44: error: `rest:` stands for no player of `gold`: every one is given"]


def test_empty_expectations_and_parts_are_located_errors(tmp_path: Path) -> None:
    shown = tmp_path / "s.yaml"
    for key, empty, column in (("fields", "{}", 15), ("scores", "{}", 15), ("illegal", "[]", 16),
                               ("legal_includes", "[]", 23), ("legal_excludes", "[]", 23)):
        assert problems_of(tmp_path, CORNETT + f"  x:\n    expect:\n      {key}: {empty}\n") == [
            f"{shown}:6:{column}: error: `{key}:` is empty: it checks nothing"], key
    assert problems_of(tmp_path, CORNETT + "  x:\n    expect:\n      score_terms: {Alex: {}}\n") == [
        f"{shown}:6:27: error: no scoring term is given for Alex: it checks nothing"]
    for part, empty in (("position", "{}"), ("steps", "[]"), ("expect", "{}")):
        assert problems_of(tmp_path, CORNETT + f"  x:\n    {part}: {empty}\n") == [
            f"{shown}:5:{len(part) + 7}: error: `{part}:` is empty: it has no effect"], part
    result = run_one(tmp_path, CORNETT + "  x:\n    expect:\n      legal: []\n")  # an empty `legal:` says something
    assert [c.what for c in result.checks] == ["legal actions"] and not result.passed


def test_steps_after_the_expected_error_are_never_played_and_that_is_an_error(tmp_path: Path) -> None:
    result = run_one(tmp_path, CORNETT + """\
  x:
    position: {roll: 1}
    steps:
      - Alex: prospect Z9
      - Barbara: prospect A1
    expect:
      error: illegal action
""")
    assert result.problem == (f"{tmp_path / 's.yaml'}:8:18: this step is never played: the steps stop at the "
                              "error `expect: error:` expects, at step 1 (line 7); end the steps there")
    assert not result.passed


def test_the_scenario_command_reports_them_located_without_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, CORNETT + "  x:\n    position:\n      chance: {die: []}\n    steps:\n"
                 "      - trigger: first_reduction\n")
    out = CliRunner().invoke(cli, ["scenario", str(path)])
    assert out.exit_code != 0
    assert f"{path}:6:21: error: `die: []` forces nothing" in out.output
    assert "Traceback" not in out.output and out.exception is None or isinstance(out.exception, SystemExit)


def test_others_none_gives_an_optional_field_nothing_and_is_checked(tmp_path: Path) -> None:
    """`others: none` (an optional holding nothing) once stood for no value at all, so it set
    nothing in a position and checked nothing in an expectation: it now does both."""
    result = run_one(tmp_path, """\
ruleset: yellow-yangtze
players: 3
names: [André, Barbara, Paul]
scenarios:
  x:
    position:
      chief_on: {E5: {owner: Barbara, kind: soldier}}
    expect:
      fields:
        chief_on: {others: none}
""")
    failed = [(c.what, c.ok) for c in result.checks if not c.ok]
    assert failed == [("chief_on[E5]", False)], "E5 holds a leader: `others: none` checks it"
    assert len(result.checks) > 1 and all(c.ok for c in result.checks if c.what != "chief_on[E5]")


def test_a_text_no_move_can_have_is_refused_where_its_check_could_only_pass(tmp_path: Path) -> None:
    """`legal_excludes: [prospekt A1]` and `illegal: [prospekt A1]` passed whatever the rules did:
    no move's text starts so. An answer to an ask and `pass` are moves too."""
    shown = tmp_path / "s.yaml"
    excluded = CORNETT + "  x:\n    expect:\n      legal_excludes: [prospekt A1, turn back K6]\n"
    assert problems_of(tmp_path, excluded) == [
        f"{shown}:6:24: error: `prospekt A1` is no move of china-cornett: excluding it checks nothing"]
    assert problems_of(tmp_path, CORNETT + "  x:\n    expect:\n      illegal: [prospect A1, trun back K6]\n") == [
        f"{shown}:6:30: error: `trun back K6` is no move of china-cornett: that it is illegal says nothing"]
    assert problems_of(tmp_path, "ruleset: chang-cheng\nplayers: 3\nscenarios:\n  x:\n    expect:\n"
                       "      legal_excludes: [new_end left_end, pass]\n") == []


def test_an_empty_per_entity_value_or_group_is_a_located_error(tmp_path: Path) -> None:
    """`gold: {}` gives nobody gold and `face_down: []` no marker a value: each has no effect (a
    YAML merge's override `chief_on: {}` meant `{others: none}`: tests/scenarios/yellow-yangtze/
    placement.yaml now says so). An auction expected as `{}` checks nothing."""
    shown = tmp_path / "s.yaml"
    assert problems_of(tmp_path, CORNETT + "  x:\n    position:\n      gold: {}\n") == [
        f"{shown}:6:13: error: `gold: {{}}` gives no player a value: it has no effect"]
    assert problems_of(tmp_path, CORNETT + "  x:\n    position:\n      marker: {face_down: [], others: removed}\n"
                       ) == [f"{shown}:6:27: error: `face_down: []` names no spot: it has no effect"]
    mandarin = "ruleset: mandarin\nplayers: 3\nscenarios:\n  x:\n    expect:\n      fields: {sale: {}}\n"
    assert problems_of(tmp_path, mandarin) == [f"{shown}:6:22: error: `sale: {{}}` checks nothing"]
