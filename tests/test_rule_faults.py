"""A fault of a rule set's own code that the checker cannot rule out (an index past the end of
a list) stops the game with a GameError naming the rule line (runtime/faults.py): `play`
prints one message, `simulate` counts one error, and neither shows a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import rulewright
from rulewright.cli import cli
from rulewright.core.paths import display
from rulewright.match import play_game
from rulewright.runtime.errors import GameError

RULES = Path(__file__).parent / "hostile" / "faults" / "index-out-of-range.yaml"


def rule_line(text: str) -> int:
    lines = RULES.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_an_index_past_the_end_is_a_game_error_at_its_rule_line() -> None:
    game = rulewright.load_rules(RULES)
    state = game.new_state(seed=1)
    with pytest.raises(GameError) as caught:
        state.apply("pick")
    error = caught.value
    assert error.where == f"{display(RULES)}:{rule_line('tally = l[tally + 5]')}"
    assert error.problem == "list index out of range (IndexError, a fault of the rules at this line)"
    assert isinstance(error.__cause__, IndexError)


def test_a_generated_module_file_tells_the_rule_line_too(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["compile", str(RULES), "--out", str(out)])
    assert result.exit_code == 0, result.output
    game = rulewright.load(out / "idx" / "index_out_of_range.py")
    with pytest.raises(GameError) as caught:
        game.new_state(seed=1).apply("pick")
    assert caught.value.where.endswith(f"index-out-of-range.yaml:{rule_line('tally = l[tally + 5]')}")


def test_simulate_counts_it_and_play_prints_one_line() -> None:
    result = play_game(rulewright.load_rules(RULES), 2, 5)
    assert result.error is not None and result.error.startswith("GameError: ")
    assert "IndexError" in result.error and not result.finished
    played = CliRunner().invoke(cli, ["play", str(RULES), "--seed", "1"], input="1\n")
    assert played.exit_code == 1
    assert "Traceback" not in played.output
    assert played.output.strip().splitlines()[-1] == (
        f"rulewright: error: the game stopped at move 1 (seed 1): {display(RULES)}:"
        f"{rule_line('tally = l[tally + 5]')}: game error: list index out of range "
        "(IndexError, a fault of the rules at this line)")


def test_load_refuses_modules_an_interrupted_compile_left_half_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulewright.core import paths
    from rulewright.runtime.errors import BadSetup

    (tmp_path / paths.JOURNAL).write_text("{}", encoding="utf-8")
    monkeypatch.setattr(paths, "generated_dir", lambda: tmp_path)
    with pytest.raises(BadSetup, match=r"an interrupted compile left generated/ half written"):
        rulewright.load("ring-race-never-loaded")
