"""`rulewright schema`: JSON Schemas of rule and scenario files, made from the checker's tables,
against which every bundled rule file and scenario validates (jsonschema, draft 2020-12)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from rulewright.cli import cli
from rulewright.commands.schema import SCHEMA_FILES, schema_text
from rulewright.compiler import schema
from rulewright.compiler.build import keys

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted((ROOT / "rules").glob("*/*.yaml"))
SCENARIO_FILES = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))


def _validator(kind: str) -> jsonschema.protocols.Validator:
    s = schema.rule_schema() if kind == "rules" else schema.scenario_schema()
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


def _errors(kind: str, text: str) -> list[tuple[list[Any], str]]:
    """Each error's path and check; for a choice (`anyOf`: a value or `~`), of the branch that
    went deepest into the value (the one the value was meant for)."""
    out = []
    for e in _validator(kind).iter_errors(yaml.safe_load(text)):
        while e.context:
            e = max(e.context, key=lambda c: len(c.absolute_path))
        out.append((list(e.absolute_path), str(e.validator)))
    return sorted(out)


def test_every_bundled_rule_file_and_scenario_validates() -> None:
    assert len(RULE_FILES) >= 19 and len(SCENARIO_FILES) >= 50
    for kind, files in (("rules", RULE_FILES), ("scenarios", SCENARIO_FILES)):
        v = _validator(kind)
        for path in files:
            tree = yaml.safe_load(path.read_text(encoding="utf-8"))
            problems = [f"{list(e.absolute_path)}: {e.message}" for e in v.iter_errors(tree)]
            assert problems == [], f"{path}: {problems}"


def test_the_bundled_schema_files_are_the_generated_ones() -> None:
    for kind, name in SCHEMA_FILES.items():
        assert (ROOT / "schema" / name).read_text(encoding="utf-8") == schema_text(kind), (
            f"schema/{name} is stale: run `rulewright schema --out schema`")


def test_keys_are_the_checkers_own() -> None:
    rules = schema.rule_schema()
    assert rules["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert tuple(rules["properties"]) == keys.TOP_KEYS
    action = rules["properties"]["actions"]["anyOf"][0]["additionalProperties"]["anyOf"][0]
    assert tuple(action["properties"]) == keys.ACTION_KEYS and action["additionalProperties"] is False
    from rulewright.core.scenario_keys import FILE_KEYS, SCENARIO_KEYS
    scenarios = schema.scenario_schema()
    assert tuple(scenarios["properties"]) == FILE_KEYS
    assert tuple(scenarios["properties"]["scenarios"]["additionalProperties"]["properties"]) == SCENARIO_KEYS


def test_a_key_the_checker_gains_without_a_type_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keys, "ACTION_KEYS", keys.ACTION_KEYS + ("cost",))
    with pytest.raises(schema.SchemaDrift, match=r"ACTION_KEYS: keys without a type .*\['cost'\]"):
        schema.rule_schema()


def test_wrong_shapes_are_reported_where_they_are() -> None:
    text = """
game: g
players: two
actions:
  move: {whenn: "true", effect: ["x = 1"]}
phases:
  main: {actions: [move], when_stuck: wait}
state:
  x: {type: int, visible: secret}
variant: v
"""
    assert _errors("rules", text) == [
        ([], "additionalProperties"),  # `variant:` is no key of a rule file
        (["actions", "move"], "additionalProperties"),  # `whenn`
        (["phases", "main", "when_stuck"], "enum"),
        (["players"], "type"),
        (["state", "x", "visible"], "enum"),
    ]


def test_a_rule_file_names_its_game_or_what_it_extends() -> None:
    assert _errors("rules", "players: [2, 2]\n") == [([], "required")]
    assert _errors("rules", "game: g\n") == [] and _errors("rules", "extends: g\n") == []


def test_a_variant_may_remove_and_patch() -> None:
    text = """
extends: base
actions: {dig: ~, prospect: {when: ~}}
phases: {main: {actions+: [dig], actions-: [wait]}}
setup+: ["x = 1"]
"""
    assert _errors("rules", text) == []


def test_a_scenario_with_an_unknown_expectation_is_refused() -> None:
    good = "ruleset: r\nscenarios:\n  s:\n    steps: [{Alex: pass}]\n    expect: {terminal: true, to_act: ~}\n"
    assert _errors("scenarios", good) == []
    bad = "ruleset: r\nscenarios:\n  s:\n    expect: {terminal: yes please, winner: [Alex]}\n"
    assert _errors("scenarios", bad) == [(["scenarios", "s", "expect", "terminal"], "type")]


def test_cli_prints_and_writes(tmp_path: Path) -> None:
    runner = CliRunner()
    printed = runner.invoke(cli, ["schema", "--scenarios"])
    assert printed.exit_code == 0 and printed.output == schema_text("scenarios")
    assert json.loads(printed.output)["title"] == "rulewright scenario file"
    written = runner.invoke(cli, ["schema", "--out", str(tmp_path / "s")])
    assert written.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["rules.schema.json", "scenarios.schema.json"]
    assert (tmp_path / "s" / "rules.schema.json").read_text() == schema_text("rules")
    only = runner.invoke(cli, ["schema", "--rules", "--out", str(tmp_path / "r")])
    assert [p.name for p in (tmp_path / "r").iterdir()] == ["rules.schema.json"]
    assert only.exit_code == 0


def test_bare_schema_says_what_it_prints_and_succeeds(tmp_path: Path) -> None:
    """`rulewright schema` alone: its three forms, exit 0, nothing written (issue 34)."""
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0
    assert "rulewright schema --rules" in result.output and "rulewright schema --out DIR" in result.output
    assert not result.output.lstrip().startswith("{")  # a usage, not a schema


@pytest.mark.parametrize("args, message", [
    (["schema", "--rules", "--scenarios"], "rulewright: error: choose --rules or --scenarios to print one schema, "
                                           "or give --out DIR to write both\n"),
])
def test_cli_errors_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1 and result.output == message


def test_cli_error_when_the_directory_cannot_be_made(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    result = CliRunner().invoke(cli, ["schema", "--out", str(tmp_path / "file" / "sub")])
    assert result.exit_code == 1
    assert result.output.startswith("rulewright: error: cannot write the schema: ") and result.output.count("\n") == 1


def test_the_forms_no_bundled_file_shows_are_known_too() -> None:
    good = """
game: g
family: [{name: event-cards, at_most: 2, doc: one of the cards}]
state:
  hand: {per: spot, type: int, init: 0, visible: {to: "owner_of(k)"}}
define:
  "most(n: int)": "n"
  cheap: {value: "1", cached: true}
boards:
  b:
    hexagon: 3
    regions:
      mountain: {M1: [A1, A2], M2: {spots: [B1], colour: red}}
      valley: {mirror_of: mountain, rename: {M1: V1}}
triggers:
  t: {at: turn_end, effect: ["x = 1"]}
"""
    assert _errors("rules", good) == []
    bad = """
game: g
family: {name: e, most: 2}
state:
  hand: {per: spot, type: int, visible: {too: x}}
define:
  "Most(n)": "n"
boards:
  b: {regions: {mountain: {M2: {colour: red}}}}
triggers:
  t: {at: turn_start}
"""
    assert _errors("rules", bad) == [
        (["boards", "b", "regions", "mountain", "M2"], "type"),  # attributes and no spots: no list either
        (["define"], "pattern"),  # `Most(n)` is no name
        (["family"], "additionalProperties"),  # `most:`
        (["state", "hand", "visible"], "enum"),  # neither a visibility nor `{to: ...}`
        (["triggers", "t", "at"], "enum"),
    ]


def test_the_checker_refuses_what_the_schema_refuses(tmp_path: Path) -> None:
    """The enumerations the schema takes from the checker's tables are the ones it checks."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: bad\nplayers: [2, 2]\nboards:\n  b: {hexagon: 2}\nphases:\n  p: {actions: [go], "
                   "when_stuck: wait}\nactions:\n  go: {text: go}\ntriggers:\n  t: {at: turn_start}\n"
                   "end: 'true'\nscoring:\n  s: '0'\n")
    result = CliRunner().invoke(cli, ["check", str(bad)])
    assert result.exit_code == 1
    assert "when_stuck must be `pass` (the turn passes) or `end` (the game ends)" in result.output
    assert "unknown moment `turn_start`" in result.output
    assert keys.WHEN_STUCK == tuple(schema.rule_schema()["properties"]["phases"]["anyOf"][0]["additionalProperties"][
        "anyOf"][0]["properties"]["when_stuck"]["anyOf"][0]["enum"])


def test_each_top_level_key_has_the_doc_of_the_language_reference() -> None:
    """The descriptions an editor shows are docs/language.md's table "Top-level keys", word for word."""
    import re

    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    table = text.split("| key | what it holds |", 1)[1].split("\n\n", 1)[0]
    listed = {}
    for row in table.splitlines():
        if row.startswith("| `"):
            written, what = (cell.strip() for cell in row.strip().strip("|").split(" | ", 1))
            listed.update({key: what for key in re.findall(r"`([a-z_]+)`", written)})
    assert schema.TOP_DOCS == listed
    properties = schema.rule_schema()["properties"]
    assert {key: properties[key]["description"] for key in keys.TOP_KEYS} == listed
