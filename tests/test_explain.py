"""`rulewright explain`: what a rule set defines, where each name is used, and which variants
change it; on tests/explain/pebbles.yaml and its variant double-take.yaml."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulewright.cli import cli

ROOT = Path(__file__).resolve().parent.parent
PEBBLES = "tests/explain/pebbles.yaml"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.output


def test_every_component_with_signature_doc_and_line() -> None:
    code, out = _run("explain", PEBBLES, "--json")
    assert code == 0
    got = json.loads(out)
    assert got["files"] == [PEBBLES]
    assert [(e["kind"], e["name"], e["signature"], e["doc"], e["where"]) for e in got["entries"]] == [
        ("option", "pile", "pile = small  (small | large)", "how many pebbles lie on the table", f"{PEBBLES}:9"),
        ("field", "left", "left: int = 10 if pile == small else 20, visible: all", "pebbles on the table",
         f"{PEBBLES}:18"),
        ("field", "kept", "kept: int per player = 0, visible: all", "", f"{PEBBLES}:19"),
        ("definition", "most", "most(n: int) -> int = n if n < left else left", "", f"{PEBBLES}:22"),
        ("phase", "main", "main: take", "", f"{PEBBLES}:25"),
        ("action", "take", 'take(n in [k for k in [1, 2, 3] if k <= most(3)]): "take {n}"',
         "take one to three pebbles", f"{PEBBLES}:29"),
        ("trigger", "last", "last: after take; when left == 0", "", f"{PEBBLES}:39"),
        ("scoring", "pebbles", "pebbles = kept[player]", "", f"{PEBBLES}:47"),
    ]


def test_the_table_shows_the_same() -> None:
    code, out = _run("explain", PEBBLES)
    assert code == 0
    assert out.splitlines()[0].strip() == "Pebbles: what a variant can change"
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines() if line.startswith("│")]
    assert [r[0] for r in rows if r[0]] == ["option", "field", "field", "definition", "phase", "action", "trigger",
                                           "scoring"]
    assert ["definition", "most", f"{PEBBLES}:22", "most(n: int) -> int = n if n < left else left", ""] in rows


def test_a_name_its_uses_and_the_variant_that_changes_it() -> None:
    code, out = _run("explain", PEBBLES, "most")
    assert code == 0
    assert out == (
        f"definition most  ({PEBBLES}:22)\n"
        "  most(n: int) -> int = n if n < left else left\n"
        "used 1 time:\n"
        f"  {PEBBLES}:32  actions.take.choose\n"
        "changed by 1 variant:\n"
        "  tests/explain/double-take.yaml: changed define.most  (tests/explain/double-take.yaml:4)\n"
        "    old: most(n: int): n if n < left else left\n"
        "    new: most(n: int): n + 1 if n + 1 < left else left\n"
    )


def test_uses_of_a_field_and_of_an_action_in_json() -> None:
    code, out = _run("explain", PEBBLES, "left", "--json")
    assert code == 0
    got = json.loads(out)
    assert [(u["where"], u["rule"]) for u in got["uses"]] == [
        (f"{PEBBLES}:22", "define.most"), (f"{PEBBLES}:35", "actions.take.effect"),
        (f"{PEBBLES}:41", "triggers.last.when"), (f"{PEBBLES}:45", "end"),
    ]
    assert got["variants"] == []
    code, out = _run("explain", PEBBLES, "take", "--json")
    got = json.loads(out)
    assert [(u["where"], u["rule"]) for u in got["uses"]] == [
        (f"{PEBBLES}:26", "phases.main.actions"), (f"{PEBBLES}:40", "triggers.last.after"),
    ]


def test_a_bundled_rule_set() -> None:
    code, out = _run("explain", "china-schacht", "palaces_in")
    assert code == 0
    assert out.splitlines()[:6] == [
        "definition palaces_in  (rules/china-schacht/base.yaml:287)",
        "  palaces_in(p: player, r: region) -> int = count(p in palace_of[s] for s in r)",
        "used 2 times:",
        "  rules/china-schacht/base.yaml:294  define.emissary_room",
        "  rules/china-schacht/base.yaml:302  define.province_points",
        "changed by 0 variants",
    ]


@pytest.mark.parametrize("args, message", [
    (("explain", PEBBLES, "mots"), f"rulewright: error: {PEBBLES} defines nothing named `mots` (no option, enum, "
                                   "component, field, definition, procedure, phase, action, trigger, scoring, "
                                   "invariant, returns): did you mean `most`?\n"),
    (("explain", "no-such-game"), None),
    (("explain", "tests/explain/missing.yaml"), "rulewright: error: no such rule file: tests/explain/missing.yaml\n"),
])
def test_errors_are_one_line(args: tuple[str, ...], message: str | None) -> None:
    code, out = _run(*args)
    assert code == 1
    assert out.count("\n") == 1 and out.startswith("rulewright: error: ")
    if message is not None:
        assert out == message


def test_a_rule_file_with_errors_lists_them_then_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: bad\nplayers: [2, 2]\nactions:\n  go: {whenn: x}\n")
    code, out = _run("explain", str(bad))
    assert code == 1
    assert "unknown key `whenn` in action `go`" in out
    assert out.splitlines()[-1].startswith("rulewright: error: ") and out.splitlines()[-1].endswith("in the rules")


def test_a_bundled_variant_that_removes_a_scoring_term() -> None:
    code, out = _run("explain", "mandarin", "victory")
    assert code == 0
    assert out == (
        "scoring victory  (rules/mandarin/base.yaml:568)\n"
        "  victory = 1 if complete(player) else 0\n"
        "used 0 times\n"
        "changed by 1 variant:\n"
        "  rules/mandarin/money.yaml: removed scoring.victory  (rules/mandarin/base.yaml:568)\n"
        "    old: 1 if complete(player) else 0\n"
    )


def test_a_rule_file_the_checker_refuses_is_not_explained(tmp_path: Path) -> None:
    bad = tmp_path / "unknown.yaml"
    bad.write_text((ROOT / PEBBLES).read_text().replace('"kept[player]"', '"kept[player] + bonus"'))
    code, out = _run("explain", str(bad))
    assert code == 1
    assert "error: unknown name `bonus`" in out
    assert out.splitlines()[-1] == "rulewright: error: 1 problem in the rules"


def test_enumerations_components_and_invariants() -> None:
    code, out = _run("explain", "mandarin", "--json")
    assert code == 0
    entries = {(e["kind"], e["name"]): (e["signature"], e["where"]) for e in json.loads(out)["entries"]}
    assert entries[("enum", "animal")] == (
        "animal: rat, ox, tiger, rabbit, dragon, snake, horse, goat, monkey, rooster, dog, pig",
        "rules/mandarin/base.yaml:20")
    assert entries[("component", "tile")] == (
        "tile: 72, all: tiles, animal = animal[i // 6], emperor = i % 6 == 0", "rules/mandarin/base.yaml:135")
    assert entries[("invariant", "plain_tiles_are_out")] == (
        "plain_tiles_are_out: all(t in out for t in plain)", "rules/mandarin/base.yaml:577")


def _chain(tmp_path: Path) -> tuple[str, str, str]:
    """pebbles.yaml, mid.yaml (its `most` and `pebbles` in terms of pebbles.yaml's) and top.yaml
    (its `most` in terms of mid.yaml's), in `tmp_path`: their paths as shown."""
    (tmp_path / "pebbles.yaml").write_text((ROOT / PEBBLES).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "mid.yaml").write_text('extends: pebbles.yaml\ndefine:\n  most: "2 * base(most(n))"\n'
                                       'scoring:\n  pebbles: "base(pebbles) + 1"\n', encoding="utf-8")
    (tmp_path / "top.yaml").write_text('extends: mid.yaml\ndefine:\n  "most(k: int)": "base(most(k)) - 1"\n',
                                       encoding="utf-8")
    return str(tmp_path / "pebbles.yaml"), str(tmp_path / "mid.yaml"), str(tmp_path / "top.yaml")


def test_a_redefinition_says_which_version_its_base_uses_and_where(tmp_path: Path) -> None:
    pebbles, mid, top = _chain(tmp_path)
    code, out = _run("explain", top, "most")
    assert code == 0
    assert out.splitlines()[:6] == [
        f"definition most  ({top}:3)",
        "  most(k: int) -> int = base(most(k)) - 1",
        f"  uses the version it replaces, base(most(...))  ({mid}:3):",
        "    most(n: int) -> int = 2 * base(most(n))",
        f"  which uses the version it replaced, base(most(...))  ({pebbles}:22):",
        "    most(n: int) -> int = n if n < left else left",
    ]
    code, out = _run("explain", mid, "pebbles", "--json")
    assert code == 0
    [term] = json.loads(out)["definitions"]
    assert term["replaces"] == [{"base": "base(pebbles)", "is": "pebbles = kept[player]", "where": f"{pebbles}:47"}]
    code, out = _run("explain", mid, "left", "--json")  # a name no base(...) is about: no `replaces`
    assert [sorted(d) for d in json.loads(out)["definitions"]] == [["doc", "kind", "name", "signature", "where"]]


def test_a_variants_change_says_what_its_base_is(tmp_path: Path) -> None:
    pebbles, mid, top = _chain(tmp_path)
    code, out = _run("explain", pebbles, "most")
    assert code == 0
    assert out.splitlines()[4:] == [
        "changed by 2 variants:",
        f"  {mid}: changed define.most  ({mid}:3)",
        "    old: most(n: int): n if n < left else left",
        "    new: most(n: int): 2 * base(most(n))",
        f"    where base(most(...)) is most(n: int): n if n < left else left  ({pebbles}:22)",
        f"  {top}: changed define.most  ({top}:3)",
        "    old: most(n: int): n if n < left else left",
        "    new: most(k: int): base(most(k)) - 1",
        f"    where base(most(...)) is most(n: int): 2 * base(most(n))  ({mid}:3)",
        f"    and in it, base(most(...)) is most(n: int): n if n < left else left  ({pebbles}:22)",
    ]
