"""Rule coverage (`rulewright coverage`, `scenario --coverage`; compiler/probes.py, api/coverage.py):
the points of a small rule file fired and not fired, exactly; guards seen both ways; an `if`
branch never taken listed with its file:line; a variant's own rules; the coverage build plays the
very games of the generated module; one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulewright
from rulewright import coverage as cov
from rulewright.compiler.driver import compile_file
from rulewright.core.paths import ruleset_file
from rulewright.match import play_game
from rulewright.runtime.rng import derive_seed
from tests.helpers.cli import run

HERE = Path(__file__).parent / "coverage"
TALLY = HERE / "tally.yaml"
LATE = HERE / "tally-late.yaml"
SHOWN = "tests/coverage/tally.yaml"  # (as the compiler shows a file under the checkout)


def missed(report: cov.Report) -> set[tuple[int, str, str, tuple[str, ...]]]:
    """Every point with an outcome never seen: line, kind, rule, the outcomes missing."""
    return {(p.line, p.kind, p.rule, tuple(report.missing(p))) for p in report.points if report.missing(p)}


def test_random_games_fire_exactly_the_points_they_can() -> None:
    report = cov.run_games(TALLY, 30, 0, None, {})
    assert report.errors == []
    assert missed(report) == {
        (9, "option", "options.bonus", ("double",)),  # only the default played
        (26, "define", "define.spare", ("used",)),  # used only in the branch never taken
        (41, "branch", "actions.add", ("taken",)),  # elif n == 5: n is 1 or 2
        (45, "action", "actions.skip", ("listed", "taken")),  # its guard never holds
        (46, "guard", "actions.skip.when", ("true",)),
        (52, "branch", "procedures.note", ("taken",)),  # if bonus == double: never, by default
        (54, "effect", "procedures.note", ("ran",)),  # a loop over an empty list
        (62, "branch", "triggers.overshoot", ("else",)),  # `goal if total > goal else total`: runs past the goal
        (67, "score", "scoring.nothing", ("non-zero",)),
    }
    kinds = {p.kind for p in report.points}
    assert kinds == {"action", "choice", "guard", "branch", "effect", "trigger", "define", "score", "option"}
    by_what = {(p.line, p.what): p for p in report.points}
    # a guard seen both ways: the trigger's `when: total > goal` held after 5 + 2, and not after the rest
    overshoot = by_what[(60, "total > goal")]
    assert overshoot.kind == "guard" and all(n > 0 for n in report.counts(overshoot))
    # each branch of the `if` at line 39 (the `else` at 44 too) and the choice, with several values
    assert all(report.counts(by_what[(39, "if n == 1")])) and all(report.counts(by_what[(44, "else")]))
    choice = by_what[(35, "n in [1, 2]")]
    assert report.counts(choice)[1] > 0  # offered with 1 and 2 at once
    # the no-else of `if bonus == double` is taken every time note runs; it reads an option
    no_else = next(p for p in report.points if p.line == 52 and p.what.startswith("no branch"))
    assert no_else.option and report.counts(no_else) == report.counts(by_what[(50, "procedure note")])


def test_varied_options_fire_the_option_dependent_rules() -> None:
    report = cov.run_games(TALLY, 30, 0, None, {}, vary_options=True)
    lines = {line for line, *_ in missed(report)}
    assert 9 not in lines and 52 not in lines  # both values of `bonus` played, its branch taken
    fixed = cov.run_games(TALLY, 30, 0, None, {"bonus": "double"}, vary_options=True)
    assert {line for line, *_ in missed(fixed)} >= {9}  # a value set by --option stays set


def test_the_text_report_lists_an_unfired_branch_with_its_file_and_line() -> None:
    result = run("coverage", str(TALLY), "-n", "30")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"Rule coverage of {TALLY}: 30 random games" in out
    line = next(text for text in out.splitlines() if f"{SHOWN}:41 " in text)
    assert "branch" in line and "elif n == 5" in line and "actions.add" in line
    assert "Not fired: 6 points never, 3 only partly" in out
    assert "62% (16/26)" in out  # overall


def test_json_shape() -> None:
    result = run("coverage", str(TALLY), "-n", "5", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"ruleset", "source", "runs", "seed", "players", "options", "capped", "errors", "files",
                         "summary", "points"}
    assert data["capped"] == 0
    assert data["runs"] == 5 and data["seed"] == 3 and data["source"] == "random games"
    assert data["options"] == {"bonus": "single"}
    assert [f["file"] for f in data["files"]] == [SHOWN]
    overall = data["summary"]["overall"]
    assert overall["outcomes"] == 26 and 0 < overall["seen"] <= 26
    assert overall["percent"] == round(100 * overall["seen"] / 26, 1)
    point = next(p for p in data["points"] if p["rule"] == "actions.skip.when")
    assert point["kind"] == "guard" and point["line"] == 46 and point["file"] == SHOWN
    assert set(point["outcomes"]) == {"true", "false"} and point["outcomes"]["true"] == 0


def test_a_variant_shows_the_rules_it_adds() -> None:
    report = cov.run_games(LATE, 30, 0, None, {})
    late_file = "tests/coverage/tally-late.yaml"
    assert report.files == (SHOWN, late_file)
    own = report.only([late_file])
    assert sorted((p.line, p.kind, p.rule, p.what) for p in own.points) == [
        (6, "guard", "actions.skip.when", "total >= 4"),  # the variant's guard replaces the base's
        (8, "trigger", "triggers.late", "trigger late"),
        (11, "branch", "triggers.late", "if total == 5"),
        (11, "branch", "triggers.late", "no branch taken (no else written)"),
    ]
    assert missed(own) == set()
    assert (45, "action", "actions.skip", ("listed", "taken")) not in missed(report)  # skipping happens now
    result = run("coverage", str(LATE), "-n", "30", "--variant-only", "--json")
    data = json.loads(result.stdout)
    assert [f["file"] for f in data["files"]] == [late_file]
    assert {p["file"] for p in data["points"]} == {late_file} and data["summary"]["overall"]["percent"] == 100.0
    table = run("coverage", str(LATE), "-n", "30").stdout  # a column per file, and all
    assert SHOWN in table and late_file in table and "all" in table


def test_scenarios_coverage_is_exact() -> None:
    result = run("scenario", "--coverage", "--json", str(HERE / "tally-scenarios.yaml"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["passed"] == 1
    (report,) = data["coverage"]
    assert report["source"] == "scenarios" and report["runs"] == 1
    assert report["ruleset"] == SHOWN  # a rule file named by a scenario file: as the compiler shows it
    seen = {(p["line"], p["what"]) for p in report["points"] if any(p["outcomes"].values())}
    # add 1 taken (listed with its two values), its first branch; both guards seen false only
    assert seen == {(33, "action add"), (35, "n in [1, 2]"), (39, "if n == 1"), (46, "total > 100"),
                    (60, "total > goal"), (25, "definition goal"), (9, "option bonus")}
    outcomes = {p["what"]: p["outcomes"] for p in report["points"]}
    assert outcomes["action add"] == {"listed": 1, "taken": 1}
    assert outcomes["total > 100"] == {"true": 0, "false": 1}
    assert outcomes["option bonus"] == {"single": 1, "double": 0}


def test_scenario_coverage_of_a_bundled_game() -> None:
    result = run("scenario", "--coverage", str(Path(__file__).parent / "scenarios" / "china-cornett"))
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.stdout and "Rule coverage of china-cornett:" in result.stdout
    assert "rules/china-cornett/base.yaml" in result.stdout


@pytest.mark.parametrize("ruleset", ["china-cornett", "mandarin/money", "yellow-yangtze/short"])
def test_the_coverage_build_plays_the_same_games(ruleset: str) -> None:
    plain, probed = rulewright.load(ruleset), cov.instrument(ruleset_file(ruleset)).game
    for i in range(2):
        seed = derive_seed(0, i)
        a = play_game(plain, None, seed, record=True)
        b = play_game(probed, None, seed, record=True)
        assert a.error is None and b.error is None
        assert a.log == b.log and a.final == b.final


def test_the_generated_code_has_no_probes() -> None:
    assert "_HITS" not in compile_file(TALLY).source
    assert "_HITS[" in cov.instrument(TALLY).probed.source


@pytest.mark.parametrize(("args", "fragment"), [
    (("coverage", "no-such-game"), "unknown rule set"),
    (("coverage", "china-cornett", "-n", "0"), "-n"),
    (("coverage", "missing.yaml"), "no such rule file"),
    (("coverage", "generated/china_cornett/base.py"), "not a generated module"),
    (("coverage", "china-cornett", "--variant-only"), "no variant"),
    (("coverage", "china-cornett", "--players", "5"), "not 5"),
    (("coverage", "china-cornett", "--option", "board=hex9"), "no value `hex9`"),
    (("scenario", "--coverage", "--against", "china-cornett", "tests/coverage"), "--against"),
])
def test_bad_input_is_one_line(args: tuple[str, ...], fragment: str) -> None:
    result = run(*args)
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulewright: error: "), result.stderr
    assert fragment in lines[0]


def test_capped_games_are_counted() -> None:
    result = run("coverage", "china-cornett", "-n", "2", "--max-moves", "3")
    assert result.exit_code == 0, result.output
    assert "capped 2" in result.stdout.splitlines()[0]


def test_an_edited_rule_file_is_compiled_again(tmp_path: Path) -> None:
    copy = tmp_path / "tally.yaml"
    copy.write_text(TALLY.read_text(encoding="utf-8"), encoding="utf-8")
    before = cov.run_games(copy, 5, 0, None, {})
    assert any(p.rule == "actions.skip" for p in before.points if before.missing(p) == ["listed", "taken"])
    copy.write_text(TALLY.read_text(encoding="utf-8").replace('"total > 100"', '"total >= 0"'), encoding="utf-8")
    after = cov.run_games(copy, 5, 0, None, {})
    assert not any(p.rule == "actions.skip" for p in after.points if after.missing(p))
