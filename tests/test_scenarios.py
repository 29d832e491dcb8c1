"""The scenario runner itself: checking, failures, and the view against another rule set."""

from __future__ import annotations

from pathlib import Path

import rulewright
from rulewright import scenarios
from rulewright.scenarios.distributions import key_text

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


def test_against_sees_a_move_turn_from_illegal_to_legal(tmp_path: Path) -> None:
    """The outcome of an `illegal:` expectation is keyed by the move's text, legal or not, so a
    variant that allows the move shows up as a change (it was missed while the two were keyed
    `rule forbidding ...` and `...`)."""
    path = write(tmp_path, """\
ruleset: china-cornett
scenarios:
  no-turning-back-without-tablets:
    position:
      marker: {face_down: [A1], gold_side: [K6], others: removed}
      tablets: []
    expect:
      illegal:
        turn back K6: actions.turn_back.when
""")
    variant = tmp_path / "always-back.yaml"
    variant.write_text("extends: china-cornett\nactions:\n  turn_back:\n    when: ~\n", encoding="utf-8")
    (scenario,), problems = scenarios.load_file(path)
    assert problems == []
    comparison = scenarios.compare(scenario, rulewright.load_rules(variant))
    assert comparison.changes == [("`turn back K6`", "illegal (actions.turn_back.when)", "legal")]
    assert "`turn back K6`: illegal (actions.turn_back.when) -> legal under v" in comparison.report("v")


def test_against_skips_scenarios_of_rule_sets_the_variant_does_not_extend(tmp_path: Path) -> None:
    found, _ = scenarios.load_file(HERE / "scenarios" / "mandarin" / "rent.yaml")
    variant = rulewright.load_rules(HERE / "variants" / "owner-collects.yaml")
    comparison = scenarios.compare(found[0], variant)
    assert comparison.changes == []
    assert comparison.skipped == "written for mandarin, which china-cornett/owner-collects does not extend"
    assert comparison.report("v").startswith("skipped  ")
    assert scenarios.extends(variant, rulewright.load("china-cornett"))
    assert not scenarios.extends(rulewright.load("china-cornett"), variant)


def test_against_a_folder_says_which_files_it_skipped() -> None:
    from click.testing import CliRunner

    from rulewright.cli import cli

    out = CliRunner().invoke(cli, ["scenario", "--against", str(HERE / "variants" / "owner-collects.yaml"),
                                   str(HERE / "scenarios" / "mandarin"), str(RULEBOOK)])
    assert "CHANGED  an-opponents-sector-completed-at-the-same-time-goes-to-the-turner" in out.output
    assert "skipped  tests/scenarios/mandarin/rent.yaml (7 scenarios): written for mandarin, which " \
        "china-cornett/owner-collects does not extend" in out.output
    assert "changed under" in out.output and "skipped: written for rule sets that" in out.output
    assert "rent-is-400" not in out.output, "a skipped scenario is not compared"
    assert out.exit_code == 1


CORNETT_CHANCE = """\
ruleset: china-cornett
names: [Alex, Barbara]
scenarios:
  forced:
    position:
      tablets: [t01, t02, t12]
      roll: 1
    steps:
      - chance: {throw: [%s]}
      - Alex: prospect A1
    expect:
      fields: {roll: %s}
"""


def test_a_forced_throw_sets_the_sum_by_total_or_by_each_face(tmp_path: Path) -> None:
    for forced, roll in (("3", 3), ("{t01: 0, t02: 2, t12: 1}", 3), ("{t01: 1, t02: 2, t12: 2}", 5)):
        (scenario,), problems = scenarios.load_file(write(tmp_path, CORNETT_CHANCE % (forced, roll)))
        assert problems == []
        result = scenarios.run(scenario)
        assert result.passed, result.report()


def test_forcing_what_cannot_happen_is_a_clear_error(tmp_path: Path) -> None:
    cases = {
        "{t01: 3, t02: 2, t12: 2}": "forced throw {t01: 3, t02: 2, t12: 2} cannot happen: a die shows 3, which is "
                                    "not one of its faces [0, 1]",
        "{t01: 1, t02: 2}": "forced throw {t01: 1, t02: 2} cannot happen: it names other dice than those thrown",
        "0": "forced throw 0 cannot happen: the dice thrown show one of [1, 2, 3, 4, 5]",
    }
    for forced, message in cases.items():
        (scenario,), problems = scenarios.load_file(write(tmp_path, CORNETT_CHANCE % (forced, 1)))
        assert problems == []
        assert scenarios.run(scenario).problem == message


def test_forced_outcomes_are_checked_when_read_and_reported_when_unused(tmp_path: Path) -> None:
    path = write(tmp_path, """\
ruleset: china-cornett
scenarios:
  bad:
    position:
      chance: {dice: [1], throw: [{t09: 1}], coin: [yes please]}
    steps:
      - chance: {die: [0], draw: [Zz9]}
""")
    _, problems = scenarios.load_file(path)
    text = "\n".join(d.render() for d in problems)
    assert "s.yaml:5:16: error: no kind of chance `dice`" in text and "did you mean `die`?" in text
    assert "s.yaml:5:36: error: no die `t09`" in text
    assert "a forced coin is true or false" in text
    assert "a forced die is the face it shows, a whole number from 1" in text
    assert "nothing is called `Zz9` in china-cornett" in text
    (scenario,), problems = scenarios.load_file(write(tmp_path, CORNETT_CHANCE.replace("throw: [%s]", "throw: [%s, 4]")
                                                      % ("3", 3)))
    result = scenarios.run(scenario)
    assert not result.passed
    assert "forced chance: expected all of it used, got not used: throw 4" in result.report()


def test_forced_dice_coins_and_draws_reach_the_mechanics() -> None:
    from rulewright.runtime import coin, die, draw, draw_from
    from rulewright.runtime.errors import RulewrightError
    from rulewright.runtime.rng import Rng

    rng = Rng(1)
    rng.forced = {"die": [(5, "5"), (7, "7")], "coin": [(True, "true")], "draw": [(3, "c"), (3, "c"), (9, "z")]}
    assert die(rng, 6) == 5 and coin(rng) is True and draw(rng, {1, 2, 3}) == 3 and draw_from(rng, [3, 4]) == 3
    copy = rng.copy()
    for forced in (rng, copy):  # a clone has its own queue
        try:
            die(forced, 6)
            raise AssertionError("a 7 on a six-sided die was accepted")
        except RulewrightError as exc:
            assert str(exc) == "forced die 7 cannot happen: the die has faces 1 to 6"
    try:
        draw(rng, {1, 2})
        raise AssertionError
    except RulewrightError as exc:
        assert str(exc) == "forced draw z cannot happen: it is not among the 2 item(s) drawn from"
    state = Rng(4)
    plain = Rng(4)
    assert [die(state, 6) for _ in range(5)] == [die(plain, 6) for _ in range(5)], "nothing forced: the seed rules"


DISTRIBUTION = """\
ruleset: china-cornett
names: [Alex, Barbara]
scenarios:
  tablets:
    position:
      tablets: [t01, t02, t12]
      roll: 1
    steps:
      - Alex: prospect A1
    expect:
      distribution:
        of: roll
        runs: 400
        values: %s
"""


def test_a_distribution_is_tested_with_chi_square(tmp_path: Path) -> None:
    (good,), problems = scenarios.load_file(write(tmp_path, DISTRIBUTION % "{1: 1/8, 2: 1/4, 3: 1/4, 4: 1/4, 5: 1/8}"))
    assert problems == []
    result = scenarios.run(good)
    assert result.passed, result.report()
    (check,) = result.checks
    assert check.what == "distribution of roll" and "in 400 runs: chi-square" in check.actual
    (even,), _ = scenarios.load_file(write(tmp_path, DISTRIBUTION % "{1: 0.2, 2: 0.2, 3: 0.2, 4: 0.2, 5: 0.2}"))
    report = scenarios.run(even).report()
    assert "FAIL tablets" in report and "< 0.001" in report, report
    (stray,), _ = scenarios.load_file(write(tmp_path, DISTRIBUTION % "{2: 1/4, 3: 1/4, 4: 1/4, 5: 1/4}"))
    assert "1 came up (observed 1: " in scenarios.run(stray).report()


def test_a_distribution_key_of_a_list_or_set_is_written_as_in_a_position() -> None:
    """A set field (Chang Cheng's `events`, tests/scenarios/chang-cheng-events/drawn-events.yaml)
    is counted under the key a scenario writes, `"[diplomacy, watchers]"`, not Python's repr."""
    assert key_text(["diplomacy", "watchers"]) == "[diplomacy, watchers]"
    assert key_text([]) == "[]"
    assert key_text([True, [1, 2]]) == "[true, [1, 2]]"
    assert key_text(False) == "false" and key_text(3) == "3"


def test_a_distribution_is_checked_when_read(tmp_path: Path) -> None:
    _, problems = scenarios.load_file(write(tmp_path, DISTRIBUTION.replace("of: roll", "of: rol").replace(
        "runs: 400", "runs: 0") % "{1: 1/2, 2: 1/4}"))
    text = "\n".join(d.render() for d in problems)
    assert "no field `rol` in china-cornett" in text
    assert "`runs:` is a whole number from 1 to 100,000" in text
    assert "the probabilities add up to 0.75, not 1" in text


def test_the_scenarios_of_docs_scenarios_md_pass(tmp_path: Path) -> None:
    """Every whole scenario file shown in docs/scenarios.md (a YAML block with `scenarios:`) runs
    and passes, so the examples cannot drift from the runner."""
    import re

    text = (HERE.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "scenarios:" in b]
    assert len(blocks) >= 5
    for i, block in enumerate(blocks):
        (tmp_path / f"doc{i}.yaml").write_text(block, encoding="utf-8")
        found, problems = scenarios.load_file(tmp_path / f"doc{i}.yaml")
        assert problems == [] and found, (block, [d.render() for d in problems])
        for s in found:
            result = scenarios.run(s)
            assert result.passed, result.report()


def test_a_distribution_of_one_players_value_and_a_variants_invariant(tmp_path: Path) -> None:
    """`of:` may name one entity's value (`gold[Alex]`); under --against, a position that breaks
    an invariant only the variant declares is a step problem of the variant's run."""
    path = write(tmp_path, """\
ruleset: china-cornett
names: [Alex, Barbara]
scenarios:
  gold:
    position:
      marker: {A4: face_down, B4: gold_side, B5: gold_side, others: face_down}
      roll: 1
      gold: {Alex: 5}
    steps:
      - Alex: prospect A4
    expect:
      distribution: {of: "gold[Alex]", runs: 20, values: {8: 1}}
""")
    (scenario,), problems = scenarios.load_file(path)
    assert problems == []
    result = scenarios.run(scenario)
    assert result.passed, result.report()
    variant = tmp_path / "rich.yaml"
    variant.write_text('extends: china-cornett\ninvariants:\n  poor: "all(gold[p] < 5 for p in players)"\n',
                       encoding="utf-8")
    comparison = scenarios.compare(scenario, rulewright.load_rules(variant))
    assert comparison.changes[0][0] == "step"
    assert comparison.changes[0][2].startswith("the position breaks invariant `poor` (")


def test_a_files_distributions_replay_at_most_100000_times_in_all(tmp_path: Path) -> None:
    one = DISTRIBUTION.replace("runs: 400", "runs: 60000").replace("  tablets:\n", "  tablets-%s:\n")
    text = one % ("a", "{1: 1/8, 2: 1/4, 3: 1/4, 4: 1/4, 5: 1/8}")
    text += one.split("scenarios:\n", 1)[1] % ("b", "{1: 1/8, 2: 1/4, 3: 1/4, 4: 1/4, 5: 1/8}")
    _, problems = scenarios.load_file(write(tmp_path, text))
    assert [d.message for d in problems] == [
        "the distributions of this file replay their scenarios 120,000 times, more than 100,000"]


def test_others_in_an_expectation_checks_every_entity_not_named(tmp_path: Path) -> None:
    """`others:` under `expect: fields:` stands for every entity not named, as in a position: a
    wrong one fails (it once checked nothing)."""
    path = write(tmp_path, """\
ruleset: china-cornett
scenarios:
  right:
    position:
      marker: {A4: gold_side, others: face_down}
    expect:
      fields:
        marker: {A4: gold_side, others: face_down}
  wrong:
    position:
      marker: {A4: gold_side, others: face_down}
    expect:
      fields:
        marker: {others: face_down}
""")
    found, problems = scenarios.load_file(path)
    assert problems == []
    right, wrong = (scenarios.run(s) for s in found)
    assert right.passed
    assert not wrong.passed
    assert [c.what for c in wrong.checks if not c.ok] == ["marker[A4]"]


def test_a_per_spot_record_is_shown_as_a_mapping(tmp_path: Path) -> None:
    """A per-spot optional record (Yellow & Yangtze's leader on a cell) is one value, not a list
    of records: it is shown as a mapping of its fields, right or wrong (it once crashed)."""
    path = write(tmp_path, """\
ruleset: yellow-yangtze
players: 3
names: [André, Barbara, Paul]
scenarios:
  leaders:
    position:
      chief_on: {E5: {owner: Barbara, kind: soldier}}
    expect:
      fields:
        chief_on: {E5: {owner: Barbara, kind: governor}, E6: none}
""")
    (scenario,), problems = scenarios.load_file(path)
    assert problems == []
    result = scenarios.run(scenario)
    assert [(c.what, c.ok) for c in result.checks] == [("chief_on[E5]", False), ("chief_on[E6]", True)]
    e5 = result.checks[0]
    assert (e5.expected["kind"], e5.actual["kind"]) == ("governor", "soldier")


def test_the_suites_kept_scenario_games_are_compiled_again_when_a_file_they_come_from_changes(tmp_path: Path) -> None:
    """tests/helpers/scenario_games.py (how conftest.py collects the scenario files): a rule file
    named by path is compiled once and its module's text kept, under a key of every file it is
    made from; the text kept is the compiler's, a changed rule file is compiled again, and a
    bundled id is loaded as the runner loads it."""
    from rulewright.compiler.driver import compile_file
    from tests.helpers.scenario_games import cached_loader

    rules = tmp_path / "rules.yaml"
    rules.write_text((HERE / "games" / "kingdoms-lite.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    named_in, kept = tmp_path / "s.yaml", tmp_path / "kept"
    first = cached_loader(kept)("rules.yaml", named_in)
    (text,) = [p.read_text(encoding="utf-8") for p in kept.glob("*.py")]
    assert text == compile_file(rules).source
    again = cached_loader(kept)("rules.yaml", named_in)  # another process: from the kept text
    assert again is not first and again.new_state(seed=3).to_json() == first.new_state(seed=3).to_json()
    assert len(list(kept.glob("*.py"))) == 1
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    cached_loader(kept)("rules.yaml", named_in)
    assert len(list(kept.glob("*.py"))) == 2
    assert cached_loader(kept)("china-cornett", named_in) is rulewright.load("china-cornett")
