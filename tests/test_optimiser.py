"""The optimisation passes never change a game (docs/optimiser.md).

Every bundled rule set is compiled in memory with every pass and with none, and the two play
the same seeded random games in lockstep: the same seat to act, the same legal actions in the
same order (by text), the same position (`to_json`) after every move, the same scores and
winners. Each pass alone is held to the same against none, on fewer games. Every scenario of
tests/scenarios/ runs against the unoptimised modules too (the optimised ones are the bundled
generated/ modules the scenario suite runs anyway)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import rulewright
from rulewright import scenarios
from rulewright.compiler import passes
from rulewright.compiler.driver import Checked, check_file, compile_checked, compile_file
from rulewright.core.paths import bundled_rulesets, ruleset_file
from rulewright.runtime.state import Game
from tests.helpers.lockstep import play_in_lockstep

RULESETS = [rid for rid, _ in bundled_rulesets()]
SCENARIO_FILES = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))
GAMES_ALL = 100  # per rule set, every pass against none
GAMES_ALL_SLOW = 30  # Yellow & Yangtze's (about 150 moves a game, each position compared)
GAMES_EACH = 3  # per rule set and pass, that pass alone against none (all passes: GAMES_ALL)


@cache
def checked(ruleset: str) -> Checked:
    """Read and checked once per rule set; every set of passes starts from it (the typed IR is
    frozen: test_a_checked_rule_set_is_left_as_it_was_by_every_pass)."""
    return check_file(ruleset_file(ruleset))


@cache
def source(ruleset: str, enabled: frozenset[str]) -> str:
    return compile_checked(checked(ruleset), enabled).source


def test_a_checked_rule_set_is_left_as_it_was_by_every_pass() -> None:
    shared = check_file(ruleset_file("china-schacht"))
    before = repr(shared)
    for name in passes.PASSES:
        compile_checked(shared, frozenset({name}))
    assert compile_checked(shared, passes.ALL).source == compile_file(ruleset_file("china-schacht")).source
    assert repr(shared) == before


@cache
def compiled(ruleset: str, enabled: frozenset[str]) -> Game:
    return rulewright.game_from_source(source(ruleset, enabled), str(ruleset_file(ruleset)))


def code(text: str) -> str:
    """A generated module without its header's comments (which name the passes that ran)."""
    return text.split("\n\"\"\"", 1)[1]


def players_of(game: Game, k: int) -> int:
    counts = game.info.players
    return counts[k % len(counts)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_pass_plays_the_same_games_as_none(ruleset: str) -> None:
    optimised, plain = compiled(ruleset, passes.ALL), compiled(ruleset, frozenset())
    games = GAMES_ALL_SLOW if ruleset.startswith("yellow-yangtze") else GAMES_ALL
    moves = sum(play_in_lockstep(optimised, plain, players_of(plain, k), 1000 + k) for k in range(games))
    assert moves > games  # the games were played, not over at once


@pytest.mark.parametrize("name", list(passes.PASSES))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_pass_alone_plays_the_same_games_as_none(ruleset: str, name: str) -> None:
    if code(source(ruleset, frozenset({name}))) == code(source(ruleset, frozenset())):
        # it decides nothing alone here (it builds on another pass, or finds nothing): the same code
        pytest.skip(f"pass {name} alone writes the same code as no pass for {ruleset}: no game to compare")
    alone, plain = compiled(ruleset, frozenset({name})), compiled(ruleset, frozenset())
    for k in range(GAMES_EACH):
        play_in_lockstep(alone, plain, players_of(plain, k), 5000 + k)


def unoptimised_loader(ruleset: str, here: Path) -> Game:
    if ruleset.endswith((".yaml", ".yml")):
        return rulewright.load_rules(here.parent / ruleset, passes=frozenset())
    return compiled(ruleset, frozenset())


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.relative_to(p.parents[1]).as_posix())
def test_every_scenario_holds_unoptimised(path: Path) -> None:
    found, problems = scenarios.load_file(path, loader=unoptimised_loader)
    assert not problems, problems
    failed = [result.report() for result in map(scenarios.run, found) if not result.passed]
    assert not failed, "\n\n".join(failed)
    assert found


def test_the_passes_are_named_and_documented() -> None:
    page = (Path(__file__).parents[1] / "docs" / "optimiser.md").read_text()
    for name, doc in passes.PASSES.items():
        assert doc and f"`{name}`" in page, name


def test_unknown_pass_is_refused_by_the_cli(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulewright.cli import cli

    result = CliRunner().invoke(cli, ["compile", "china-cornett", "--no-pass", "nonsense", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "nonsense" in result.output and "Traceback" not in result.output
    listed = result.output[result.output.index("is not one of"):]
    assert all(f"'{name}'" in listed for name in passes.PASSES)
    assert not any(f"'{old}'" in listed for old in passes.RENAMED)  # (the passes by their names now only)


def test_an_old_name_of_a_pass_is_read_as_its_new_one(tmp_path: Path) -> None:
    """A pass's name before it was named by what it does (`passes.RENAMED`) still works: the CLI
    reads it as the new name and says so on stderr, in one line, not as an error."""
    from click.testing import CliRunner

    from rulewright.cli import cli

    rules = Path(__file__).parent / "passes" / "mask_values.yaml"
    result = CliRunner().invoke(cli, ["compile", str(rules), "--no-pass", "value_masks", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == ["rulewright: note: pass `value_masks` is called `mask_values` now"]
    module = next(tmp_path.rglob("mask_values.py")).read_text(encoding="utf-8")
    assert "\n# Passes left off (`compile --no-pass`): mask_values.\n" in module
    with pytest.warns(UserWarning, match="^pass `value_masks` is called `mask_values` now$"):
        old = rulewright.load_rules(rules, passes=frozenset({"value_masks"}))  # (the passes that run)
    new = rulewright.load_rules(rules, passes=frozenset({"mask_values"}))
    assert old is new and new is not rulewright.load_rules(rules, passes=frozenset())  # (the same module, not none's)


def test_the_old_names_are_no_pass_s_and_each_names_one_pass() -> None:
    assert not passes.RENAMED.keys() & passes.PASSES.keys()
    assert set(passes.RENAMED.values()) <= passes.ALL
    assert len(set(passes.RENAMED.values())) == len(passes.RENAMED)
    page = (Path(__file__).parents[1] / "docs" / "optimiser.md").read_text()
    table = page[page.index("## Old names"):]
    assert all(f"| `{old}` | `{new}` |" in table for old, new in passes.RENAMED.items())


def test_no_opt_is_written_elsewhere_only(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulewright.cli import cli

    runner = CliRunner()
    if passes.ALL:
        refused = runner.invoke(cli, ["compile", "china-cornett", "--no-opt"])
        assert refused.exit_code != 0 and "--out" in refused.output
    written = runner.invoke(cli, ["compile", "china-cornett", "--no-opt", "--out", str(tmp_path)])
    assert written.exit_code == 0, written.output
    text = (tmp_path / "china_cornett" / "base.py").read_text()
    assert "Optimised by the passes" not in text
