"""The scenario runner itself: checking, failures, and the view against another rule set."""

from __future__ import annotations

from pathlib import Path

import rulewright
from rulewright import scenarios

HERE = Path(__file__).parent
RULEBOOK = HERE / "scenarios" / "china-cornett" / "rulebook.yaml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_unknown_names_are_reported_with_did_you_mean(tmp_path: Path) -> None:
    path = write(tmp_path, """\
ruleset: china-cornett
scenarios:
  broken:
    position:
      markr: {A1: face_down}
      marker: {A1: face_down, Z9: gold_side, face_down: [A1]}
      tablets: [t01, t09]
    steps:
      - Alexx: prospect A1
    expect:
      terminl: true
""")
    found, problems = scenarios.load_file(path)
    text = "\n".join(d.render() for d in problems)
    assert "s.yaml:5:7: error: no field `markr` in china-cornett" in text
    assert "did you mean `marker`?" in text
    assert "s.yaml:6:31: error: no spot `Z9`" in text
    assert "spot `A1` is given two values for `marker`" in text, "a position the rules cannot hold"
    assert "s.yaml:7:22: error: no tablet `t09` for `tablets`" in text
    assert "s.yaml:9:9: error: no player `Alexx`" in text
    assert "unknown key `terminl` in expect" in text


def test_an_unknown_rule_set_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, "ruleset: china-cornet\nscenarios:\n  x:\n    expect: {terminal: false}\n")
    found, problems = scenarios.load_file(path)
    assert found == []
    assert "s.yaml:1:10: error: unknown rule set `china-cornet`: did you mean `china-cornett`?" in problems[0].render()


def test_a_failure_shows_expected_against_actual_and_the_rules_that_fired(tmp_path: Path) -> None:
    path = write(tmp_path, """\
ruleset: china-cornett
names: [Alex, Barbara]
scenarios:
  wrong:
    position:
      marker: {A4: face_down, B4: gold_side, B5: gold_side, others: face_down}
      roll: 1
    steps:
      - Alex: prospect A4
    expect:
      fields:
        gold: {Alex: 2}
""")
    (scenario,), problems = scenarios.load_file(path)
    assert problems == []
    result = scenarios.run(scenario)
    assert not result.passed
    report = result.report()
    assert report.startswith("FAIL wrong")
    assert "gold[Alex]: expected 2, got 3" in report
    assert "triggers.transport_gold (rules/china-cornett/base.yaml:" in report
    assert "procedures.collect (rules/china-cornett/base.yaml:" in report


def test_a_step_by_the_wrong_player_fails(tmp_path: Path) -> None:
    path = write(tmp_path, """\
ruleset: china-cornett
scenarios:
  wrong-player:
    position: {roll: 1}
    steps:
      - Barbara: prospect A1
""")
    (scenario,), _ = scenarios.load_file(path)
    result = scenarios.run(scenario)
    assert result.problem == "`prospect A1` by Barbara: Alex is to act"


def test_against_a_variant_shows_which_rulings_change() -> None:
    found, problems = scenarios.load_file(RULEBOOK)
    assert problems == []
    variant = rulewright.load_rules(HERE / "variants" / "owner-collects.yaml")
    comparisons = {s.name: scenarios.compare(s, variant) for s in found}
    changed = {name for name, c in comparisons.items() if c.changes}
    assert changed == {"an-opponents-sector-completed-at-the-same-time-goes-to-the-turner"}
    report = comparisons["an-opponents-sector-completed-at-the-same-time-goes-to-the-turner"].report("owner-collects")
    assert "gold[Alex]: 15 -> 8 under owner-collects" in report
    assert "gold[Barbara]: 0 -> 7 under owner-collects" in report
