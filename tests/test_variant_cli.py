"""`rulewright diff` (exit 0 same, 1 different, 2 error) and `rulewright variant new`, and a
variant in a user's own folder extending a bundled game by id, through every command."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

import rulewright
from rulewright.commands import variant as variant_command
from rulewright.compiler.diff import diff, load_ruleset
from rulewright.compiler.driver import compile_file
from rulewright.core import paths
from tests.helpers.cli import run

HERE = Path(__file__).parent
OWNER = HERE / "variants" / "owner-collects.yaml"
SCENARIOS = HERE / "scenarios" / "china-cornett" / "rulebook.yaml"


def uncomment(text: str) -> str:
    """The examples of a new variant, uncommented (the lines that are YAML keys)."""
    return re.sub(r"(?m)^# ( *[a-z_]+[+-]?:.*)$", r"\1", text)


# -- diff --------------------------------------------------------------------------------------
def test_diff_of_the_test_variant() -> None:
    result = run("diff", "china-cornett", str(OWNER))
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"china-cornett -> {OWNER}: 1 change (1 changed)"
    changes = [line for line in lines if line.startswith("  ")]
    assert changes == ["  ~ options.sector_collector.default: with_own -> owner  "
                       "(tests/variants/owner-collects.yaml:5)"]
    data = json.loads(run("diff", "--json", "china-cornett", str(OWNER)).stdout)
    assert data["equal"] is False
    assert data["changes"] == [{"kind": "changed", "path": "options.sector_collector.default", "old": "with_own",
                                "new": "owner", "where": "tests/variants/owner-collects.yaml:5"}]


def test_diff_of_equal_rule_sets_exits_0(tmp_path: Path) -> None:
    base = paths.ruleset_file("china-cornett")
    copy = tmp_path / "copy.yaml"
    copy.write_text(base.read_text(encoding="utf-8").replace("    per: player\n    type: int\n",
                                                             "    type: int\n    per: player\n"), encoding="utf-8")
    result = run("diff", "china-cornett", str(copy))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"china-cornett and {copy}: the same rules\n"
    assert json.loads(run("diff", "--json", str(copy), "china-cornett").stdout)["equal"] is True


def test_diff_errors_exit_2(tmp_path: Path) -> None:
    unknown = run("diff", "china-cornett", "china-cornet")
    assert unknown.exit_code == 2
    assert unknown.stderr.startswith("rulewright: error: unknown rule set `china-cornet`: did you mean")
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: china-cornett\ntriggers:\n  no_such_trigger: ~\n", encoding="utf-8")
    broken = run("diff", "china-cornett", str(bad))
    assert broken.exit_code == 2 and broken.stdout == ""
    assert f"{bad}:3:3: error: nothing named `no_such_trigger` in `triggers` to remove" in broken.stderr
    assert broken.stderr.rstrip().endswith("rulewright: error: 1 problem in the rules")
    assert "Traceback" not in broken.output
    assert run("diff", "china-cornett").exit_code == 2, "a usage error"
    assert run("diff", "china-cornett", str(tmp_path / "missing.yaml")).exit_code == 2


def test_diff_shows_effects_as_blocks(tmp_path: Path) -> None:
    v = tmp_path / "v.yaml"
    v.write_text("extends: china-cornett\nactions:\n  prospect:\n    effect:\n      - for s in line:\n"
                 "        - marker[s] = gold_side\n", encoding="utf-8")
    result = run("diff", "china-cornett", str(v))
    assert result.exit_code == 1
    assert result.stdout.endswith(
        f"changed:\n  ~ actions.prospect.effect  ({v}:5)\n      was:\n        for s in line:\n"
        "          marker[s] = gold_side\n        turned = line\n      now:\n        for s in line:\n"
        "          marker[s] = gold_side\n")


# -- variant new -------------------------------------------------------------------------------
def test_variant_new_round_trip(tmp_path: Path) -> None:
    result = run("variant", "new", "china-cornett", "my-rules", "--dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    target = tmp_path / "my-rules.yaml"
    text = target.read_text(encoding="utf-8")
    assert "\nextends: china-cornett\n" in text
    assert f"wrote {paths.display(target)}" in result.stdout
    assert diff(load_ruleset("china-cornett"), load_ruleset(target)) == [], "as written, it changes nothing"

    again = run("variant", "new", "china-cornett", "my-rules", "--dir", str(tmp_path))
    assert again.exit_code == 1 and "exists already" in again.stderr
    assert target.read_text(encoding="utf-8") == text, "never overwritten"

    target.write_text(uncomment(text), encoding="utf-8")
    assert compile_file(target).ruleset.variant == "my-rules", "every example compiles"
    changes = {(c.kind, c.path) for c in diff(load_ruleset("china-cornett"), load_ruleset(target))}
    assert changes == {("changed", "options.sector_collector.default"), ("removed", "triggers.third_reduction"),
                       ("added", "scoring.bonus"), ("changed", "define.alignments"), ("changed", "scoring.gold")}
    # (the guard example is the guard as it is; the definition's, `base(alignments(n))`, its value as it is)
    assert '#   alignments: "base(alignments(n))"\n' in text and '#   gold: "2 * base(gold)"\n' in text
    base, mine = rulewright.load("china-cornett"), rulewright.load_rules(target)
    for seed in range(3):  # its examples do as they say: the same alignments, the points doubled
        state, chooser = mine.new_state(2, seed), random.Random(seed)
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))
            same = base.state_from_json({**state.to_json(), "ruleset": "china-cornett"})  # (the base's rules)
            assert [state.alignments(n) for n in (1, 2, 3)] == [same.alignments(n) for n in (1, 2, 3)]
            assert state.scores() == [2 * x for x in same.scores()]
        assert state.scores() != [0, 0]


def test_variant_new_of_a_user_file_extends_it_by_relative_path(tmp_path: Path) -> None:
    assert run("variant", "new", "china-cornett", "mine", "--dir", str(tmp_path)).exit_code == 0
    result = run("variant", "new", str(tmp_path / "mine.yaml"), "sub", "--dir", str(tmp_path / "more"))
    assert result.exit_code == 0, result.output
    assert "\nextends: ../mine.yaml\n" in (tmp_path / "more" / "sub.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["Bad", "base", "9lives", "a b"])
def test_variant_new_refuses_bad_names(tmp_path: Path, name: str) -> None:
    result = run("variant", "new", "china-cornett", name, "--dir", str(tmp_path))
    assert result.exit_code == 2 and "bad variant name" in result.stderr
    assert not list(tmp_path.iterdir())


def test_variant_new_under_rules_appears_in_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "rules"
    (rules / "china-cornett").mkdir(parents=True)
    shutil.copy(paths.ruleset_file("china-cornett"), rules / "china-cornett" / "base.yaml")
    monkeypatch.setattr(paths, "rules_dir", lambda: rules)
    monkeypatch.setattr(variant_command, "rules_dir", lambda: rules)
    result = run("variant", "new", "china-cornett", "owner-none", "--dir", str(rules / "china-cornett"))
    assert result.exit_code == 0, result.output
    assert (rules / "china-cornett" / "owner-none.yaml").is_file()
    assert "rulewright compile china-cornett/owner-none" in result.stdout
    listed = json.loads(run("list", "--json").stdout)
    assert "china-cornett/owner-none" in [r["ruleset"] for r in listed["rulesets"]]
    assert run("check", str(rules / "china-cornett" / "owner-none.yaml")).exit_code == 0


# -- a variant in a user's own folder ----------------------------------------------------------
def test_a_user_variant_works_with_every_command(tmp_path: Path) -> None:
    v = tmp_path / "my-china.yaml"
    v.write_text("extends: china-cornett\noptions:\n  sector_collector: {default: owner}\n"
                 "  reduction_reading: {default: none_left}\n", encoding="utf-8")
    assert run("check", str(v)).exit_code == 0
    out = tmp_path / "out"
    compiled = run("compile", str(v), "--out", str(out))
    assert compiled.exit_code == 0, compiled.output
    assert (out / "china_cornett" / "my_china.py").is_file()
    simulated = run("simulate", str(v), "-n", "2", "--json")
    assert simulated.exit_code == 0, simulated.output
    assert json.loads(simulated.stdout)["finished"] == 2
    played = run("play", str(v), "--seed", "3", input="quit\n")
    assert played.exit_code == 0 and "game abandoned" in played.stdout
    assert run("diff", "china-cornett", str(v)).exit_code == 1
    against = run("scenario", str(SCENARIOS), "--against", str(v))
    assert "changed under" in against.stdout and "Traceback" not in against.output
