"""China (Schacht) variants, what a scenario cannot show: « Querelles frontalières » refuses to be
stacked with the fortifications ("Le jeu se joue sans les fortifications"), and `diff` lists
exactly its rules. Its rulings are scenarios, in tests/scenarios/china-schacht-border-quarrels/."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulewright.cli import cli
from rulewright.compiler.diff import diff, load_ruleset
from rulewright.core import paths

ROOT = Path(__file__).parents[1]  # rule files are shown relative to the working directory
BORDER = "china-schacht/border-quarrels"
FORTIFICATIONS = "china-schacht/fortifications"


@pytest.mark.parametrize("extends", [f"[{BORDER}, {FORTIFICATIONS}]", f"[{FORTIFICATIONS}, {BORDER}]"])
def test_border_quarrels_cannot_be_stacked_with_the_fortifications(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extends: str) -> None:
    monkeypatch.chdir(ROOT)
    stacked = tmp_path / "both.yaml"
    stacked.write_text(f"extends: {extends}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(stacked)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), "refused with a message, not a crash"
    assert "Traceback" not in result.output
    assert ("rules/china-schacht/border-quarrels.yaml:9:16: error: `china-schacht/border-quarrels` "
            "(rules/china-schacht/border-quarrels.yaml) cannot be used with `china-schacht/fortifications` "
            "(rules/china-schacht/fortifications.yaml): it declares them incompatible") in result.output
    assert f"hint: `extends:` at {stacked}:1:10 uses both; remove one of them from `extends:`" in result.output


def test_a_variant_of_border_quarrels_cannot_extend_the_fortifications(tmp_path: Path) -> None:
    fortified = tmp_path / "fortified.yaml"
    fortified.write_text(f"extends: {FORTIFICATIONS}\n", encoding="utf-8")
    mine = tmp_path / "mine.yaml"
    mine.write_text(f"extends: [{BORDER}, fortified.yaml]\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(mine)])
    assert result.exit_code == 1, result.output
    assert "it declares them incompatible" in result.output


def test_border_quarrels_alone_checks() -> None:
    result = CliRunner().invoke(cli, ["check", str(paths.ruleset_file(BORDER))])
    assert result.exit_code == 0, result.output


def test_diff_lists_exactly_the_variants_rules() -> None:
    changes = diff(load_ruleset("china-schacht"), load_ruleset(BORDER))
    assert {(c.kind, c.path) for c in changes} == {
        ("removed", "options.board"),
        ("removed", "boards.face_3_4"),
        ("removed", "boards.face_4_5"),
        ("added", "boards.border_quarrels"),
        ("added", "options.post_empty"),
        ("added", "define.provinces_at"),
        ("added", "define.two_colours"),
        ("added", "define.pays_for_space"),
        ("added", "define.open_to"),
        ("changed", "define.open_spaces"),
        ("added", "procedures.start_at"),
        ("added", "scoring.harbours"),
        ("changed", "actions.build.choose.cards"),
        ("changed", "actions.build.choose.space"),
        ("changed", "actions.build.effect"),
        # its own board drawn on the map, the base's two faces drawn nowhere (`look: boards:`)
        ("removed", "look.boards.face_3_4"),
        ("removed", "look.boards.face_4_5"),
        ("added", "look.boards.border_quarrels"),
    }
    assert all(c.where is not None and c.where.short.startswith("rules/china-schacht/border-quarrels.yaml:")
               for c in changes if c.kind != "removed")


@pytest.mark.parametrize(("variant", "own_files"), [
    ("fortifications", ["fortifications"]),
    ("bonus-tiles", ["bonus-tiles"]),
    ("fortifications-bonus-tiles", ["fortifications", "bonus-tiles"]),
    ("border-quarrels", ["border-quarrels"]),
    ("two-player", ["two-player"]),
    ("two-player-light", ["two-player", "two-player-light"]),
])
def test_every_change_a_diff_lists_is_written_in_the_variants_own_files(variant: str, own_files: list[str]) -> None:
    """What `diff china-schacht china-schacht/<variant>` lists comes from the variant's file
    (or the variants it stacks), and each key the file sets is listed."""
    changes = diff(load_ruleset("china-schacht"), load_ruleset(f"china-schacht/{variant}"))
    assert changes
    allowed = tuple(f"rules/china-schacht/{name}.yaml:" for name in own_files)
    for c in changes:
        if c.kind != "removed":
            assert c.where is not None and c.where.short.startswith(allowed), (c.path, c.where)
    if len(own_files) == 1:  # every top-level section the file sets shows in the diff
        text = (paths.rules_dir() / "china-schacht" / f"{variant}.yaml").read_text(encoding="utf-8")
        sections = {line.split(":")[0].rstrip("+-") for line in text.splitlines()
                    if line[:1].isalpha() and not line.startswith("extends")}
        listed = {c.path.split(".")[0] for c in changes}
        assert sections <= listed | {"incompatible"}, sections - listed


def test_the_emperors_palace_is_named_by_its_space_alone() -> None:
    """The two-player game's `emperor palace {space} with {cards}` does not name the province
    chosen (`province_to`): the space does, as no two provinces share a space, so no two legal
    moves share that text (tests/test_conformance.py checks every text in random games)."""
    import rulewright
    from rulewright.runtime import Rng

    game = rulewright.load("china-schacht/two-player")
    state = game.new_state(2, 3)
    board = state.board
    spaces = [s for region in board.region_spots for s in region]
    assert len(board.region_spots) == 9 and len(spaces) == len(set(spaces))  # the provinces: no space in two
    agent, listed = Rng(5), 0
    while not state.is_terminal():
        legal = state.legal_actions()
        palaces = [a for a in legal if a.name == "emperor_palace"]
        listed += len(palaces)
        assert len({str(a) for a in palaces}) == len(palaces)
        state.apply(legal[agent.below(len(legal))])
    assert listed > 0
