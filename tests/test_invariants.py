"""Invariants (`invariants:` in a rule file): compiled like any condition, emitted as
`broken_invariants()`, checked on every scenario position and, on request, during random games."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import rulewright
from rulewright import scenarios
from rulewright.cli import cli
from rulewright.match import BrokenInvariant, play_game

HERE = Path(__file__).parent


def test_bundled_rule_sets_declare_the_rulebooks_invariants() -> None:
    for ruleset, names in (("china-schacht", ["emissaries_within_the_majority"]),
                           ("mandarin", ["a_tile_on_one_card_at_most", "plain_tiles_are_out"]),
                           ("china-cornett", ["tablets_as_the_reductions_leave_them", "roll_the_tablets_can_show"])):
        game = rulewright.load(ruleset)
        declared = [path.split(".", 1)[1] for path in game.info.rules if path.startswith("invariants.")]
        assert declared == names
        state = game.new_state(game.info.players[0], 1)
        assert state.broken_invariants() == []


def test_a_position_breaking_an_invariant_is_an_error_naming_it(tmp_path: Path) -> None:
    """The issue's example: seven emissaries in provinces without a palace."""
    path = tmp_path / "s.yaml"
    path.write_text("""\
ruleset: china-schacht
scenarios:
  impossible:
    position:
      emissaries: {Chu: [Alex, Alex, Alex, Barbara], Qi: [Alex, Barbara, Barbara]}
""", encoding="utf-8")
    _, problems = scenarios.load_file(path)
    (problem,) = problems
    assert problem.render().splitlines()[0].endswith(
        "s.yaml:5:7: error: the position breaks invariant `emissaries_within_the_majority` of china-schacht "
        "(rules/china-schacht/base.yaml:" + problem.render().split("base.yaml:")[1].split(")")[0] + ")")
    assert "a position must be one the rules can reach" in problem.render()
    # with the palaces that make room for them, it is a position
    path.write_text(path.read_text(encoding="utf-8") + "      palace_of: {Alex: [Chu1, Chu2, Chu3, Chu4], "
                    "Barbara: [Qi1, Qi2, Qi3]}\n", encoding="utf-8")
    (scenario,), problems = scenarios.load_file(path)
    assert problems == []
    assert scenarios.run(scenario).passed


def test_positions_group_a_per_spot_field_by_owner(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("""\
ruleset: china-schacht
scenarios:
  grouped:
    position:
      palace_of: {Alex: [Chu1, Chu2], Barbara: [Chu2, Qi1], Qi2: [Chris], others: []}
    expect:
      fields:
        palace_of: {Chu1: [Alex], Chu2: [Alex, Barbara], Qi1: [Barbara], Qi2: [Chris], Qi3: []}
  twice:
    position:
      palace_of: {Alex: [Chu1, Chu1]}
""", encoding="utf-8")
    found, problems = scenarios.load_file(path)
    assert [d.render().splitlines()[0].split("error: ")[1] for d in problems] == [
        "spot `Chu1` is given to Alex twice"]
    assert scenarios.run(found[0]).passed


def test_random_games_check_invariants_after_every_move(tmp_path: Path) -> None:
    variant = tmp_path / "low-rolls.yaml"
    variant.write_text('extends: china-cornett\ninvariants:\n  low: "roll <= 3"\n', encoding="utf-8")
    game = rulewright.load_rules(variant)
    result = play_game(game, 2, 5, check_invariants=True)
    assert result.error is not None and result.error.startswith(f"{BrokenInvariant.__name__}: after ")
    assert "the position breaks invariant `low` (" in result.error
    assert play_game(game, 2, 5).error is None, "unchecked unless asked"
    out = CliRunner().invoke(cli, ["simulate", str(variant), "-n", "3", "--check-invariants", "--json"])
    assert out.exit_code == 1 and '"errors": 3' in out.output
    clean = CliRunner().invoke(cli, ["simulate", "china-schacht", "-n", "2", "--check-invariants", "--json"])
    assert clean.exit_code == 0 and '"errors": 0' in clean.output
