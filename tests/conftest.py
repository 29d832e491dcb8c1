"""The suite's own pytest hooks.

- A failure is named as it happens: one line `FAILED <test id>: <its first line>` at the
  terminal the moment its report comes in (from an xdist worker too), besides the summary at
  the end (`-rfE`, pyproject.toml). A run cut short, or one failure among thousands of dots, is
  still named.
- Every scenario file under tests/scenarios/ is collected: one test item per scenario, named
  by the scenario, so `pytest -k <name>` picks one and a failure shows expected against actual
  with the rule lines that fired."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulewright import scenarios
from tests.helpers.native_pass import in_native_pass
from tests.helpers.scenario_games import cached_loader

SCENARIO_ROOT = Path(__file__).parent / "scenarios"

# The tests marked `slow` (pyproject.toml), which `./dev test --quick` leaves out: each function
# (with all its parameters) that took 20 s or more in all in a whole run of the suite (2-core
# machine under a load of about 9: some 3 to 4 s of a quiet machine's work), 49 functions, 86% of
# the suite's time. Kept here, by file and function, rather than as decorators in each file, so
# that the list is one place to read and to measure again (`pytest --durations=0`).
SLOW: dict[str, set[str]] = {
    "test_aggregate_loops.py": {"test_games_are_the_same_with_and_without_the_pass"},
    "test_base_versions.py": {
        "test_the_passes_treat_a_version_as_a_definition",
        "test_versions_that_change_nothing_play_the_base_games_under_every_pass",
    },
    "test_board_shapes.py": {"test_growing_wall_random_games", "test_river_map_random_games"},
    "test_chang_cheng.py": {
        "test_a_game_saved_and_restored_anywhere_plays_on_the_same",
        "test_any_two_event_cards_stack",
    },
    "test_book.py": {"test_the_page_opens_in_chromium_without_a_console_error"},
    "test_cli.py": {"test_bench_at_a_player_count", "test_bench_json", "test_compile_check_of_the_bundled_rules"},
    "test_compile.py": {"test_generated_folder_is_fresh"},
    "test_conformance.py": {"test_random_games_respect_the_api"},
    "test_keep_derived.py": {"test_a_kept_value_is_never_stale_after_a_move"},
    "test_tune.py": {"test_two_processes_share_one_study", "test_workers_and_dask_measure_the_same_trials",
                     "test_ctrl_c_keeps_the_finished_trials_and_the_same_command_goes_on"},
    "test_diff.py": {"test_any_expression_roundtrips_with_minimal_parentheses"},
    "test_fuzz.py": {
        "test_mutated_rule_files_give_diagnostics_not_tracebacks",
        "test_rule_files_of_any_shape_give_diagnostics_not_tracebacks",
    },
    "test_hostile_budgets.py": {"test_a_hostile_rule_stops_the_game_with_a_game_error"},
    "test_hostile_files.py": {"test_compile_check_names_stray_modules_and_edited_package_files"},
    "test_hostile_names.py": {
        "test_a_hostile_name_is_refused_or_plays_the_same_game",
        "test_generated_code_uses_no_name_the_tables_do_not_list",
    },
    "test_interop_core.py": {
        "test_the_observation_vector_keeps_to_its_layout",
        "test_the_tokens_of_a_position_lead_to_its_legal_actions_each_once",
    },
    "test_interop_openspiel.py": {
        "test_a_rule_file_is_a_game_registered_by_its_id",
        "test_openspiels_mcts_plays_a_game",
        "test_openspiels_random_simulation_test_passes",
    },
    "test_interop_pettingzoo.py": {"test_pettingzoos_api_and_seed_tests_pass"},
    "test_ismcts.py": {
        "test_it_beats_random_on_a_two_player_game_with_hidden_information",
        "test_poisoned_hidden_fields_change_no_move",
    },
    "test_lsp.py": {"test_over_tcp"},
    "test_native.py": {
        "test_a_failed_build_writes_nothing_and_says_why",
        "test_compile_check_native_and_bench_native",
        "test_native_games_are_the_interpreted_games",
    },
    "test_optimiser.py": {
        "test_each_pass_alone_plays_the_same_games_as_none",
        "test_every_pass_plays_the_same_games_as_none",
        "test_every_scenario_holds_unoptimised",
    },
    "test_search.py": {"test_mcts_beats_random_in_short_games_of_china"},
    "test_values.py": {
        "test_a_restored_state_plays_on_as_the_saved_one_in_every_rule_set",
        "test_a_restored_state_plays_on_as_the_saved_one_in_every_test_game",
    },
    "test_visibility.py": {"test_no_rule_set_leaks_what_a_player_may_not_see"},
    "test_web_browser.py": {
        "test_a_whole_game_is_played_by_clicks",
        "test_a_replay_is_stepped_jumped_and_seen_from_each_seat",
    },
    "test_web_seats.py": {
        "test_a_spectator_s_drawing_never_shows_chang_cheng_s_face_down_cards",
        "test_serve_takes_up_a_saved_game_after_a_restart",  # (a process of its own: 3 s)
    },
    "test_who_decides.py": {"test_a_simulate_log_replays_identical", "test_play_asks_the_seat_to_act_and_logs_it"},
    "test_yellow_yangtze.py": {
        "test_a_game_saved_and_restored_anywhere_plays_on_the_same",
    },
}


# And the thousand seeded random games of each game, marked `soak` (and `slow`): `./dev test` runs
# them once, on the native build (the same rule files compiled with mypyc; tests/test_native.py
# proves, move for move, that the native modules play the interpreted modules' games), where they
# take about half the time; a plain `pytest` runs them on the interpreted modules.
SOAK: dict[str, set[str]] = {
    "test_chang_cheng.py": {"test_a_thousand_random_games_conserve_walls_and_cards"},
    "test_china_cornett.py": {"test_a_thousand_random_games_end_with_gold_conserved"},
    "test_china_schacht.py": {"test_a_thousand_random_games_per_ruleset_conserve_everything"},
    "test_long_runs.py": {"test_a_thousand_random_games"},
    "test_yellow_yangtze.py": {"test_a_thousand_random_games_account_for_every_piece"},
}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        file, _, name = item.nodeid.partition("::")
        file = file.removeprefix("tests/")
        function = name.split("[", 1)[0]
        soak = function in SOAK.get(file, ())
        if soak or function in SLOW.get(file, ()):
            item.add_marker(pytest.mark.slow)
        if soak:
            item.add_marker(pytest.mark.soak)
        if in_native_pass(file):  # (tests/helpers/native_pass.py)
            item.add_marker(pytest.mark.native_pass)


class FailuresAsTheyHappen:
    """Writes one line per failed or erroring test as its report arrives. Registered on the
    process that reports (xdist's controller, or the only process): pytest-xdist hands every
    worker's reports to the controller's `pytest_runtest_logreport`, but its progress output
    names a failure only in the summary at the end."""

    def __init__(self, terminal: Any) -> None:
        self.terminal = terminal

    @pytest.hookimpl(trylast=True)  # after the reporter's own letter (F, E) for it
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not report.failed:
            return
        where = "" if report.when == "call" else f" (in its {report.when})"
        crash = getattr(report.longrepr, "reprcrash", None)
        said = getattr(crash, "message", None) or str(report.longrepr or "").strip()
        first = said.splitlines()[0] if said else ""
        first = first if len(first) <= 160 else first[:157] + "..."
        self.terminal.ensure_newline()
        if getattr(getattr(self.terminal, "_tw", None), "width_of_current_line", 0):  # after -q's dots
            self.terminal.write("\n")
        self.terminal.write_line(f"FAILED {report.nodeid}{where}: {first}", red=True, bold=True)


@pytest.hookimpl(trylast=True)  # after the terminal reporter is registered
def pytest_configure(config: pytest.Config) -> None:
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    if terminal is not None and not hasattr(config, "workerinput"):  # not on an xdist worker
        config.pluginmanager.register(FailuresAsTheyHappen(terminal), "failures-as-they-happen")


SCENARIO_LOADER = pytest.StashKey[scenarios.parsing.GameLoader]()


def scenario_loader(config: pytest.Config) -> scenarios.parsing.GameLoader:
    """The loader of the scenario files' games, one per process: a rule file named by path is
    compiled once for the whole suite, kept in pytest's cache folder (tests/helpers/scenario_games.py),
    unless pytest runs without its cache (`-p no:cacheprovider`)."""
    if SCENARIO_LOADER not in config.stash:
        cache = getattr(config, "cache", None)
        config.stash[SCENARIO_LOADER] = (scenarios.parsing.default_loader if cache is None
                                         else cached_loader(cache.mkdir("scenario-games")))
    return config.stash[SCENARIO_LOADER]


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".yaml" and SCENARIO_ROOT in file_path.parents:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        found, problems = scenarios.load_file(self.path, loader=scenario_loader(self.config))
        if problems:
            yield BrokenScenarioFile.from_parent(self, name="load", problems=problems)
        for scenario in found:
            yield ScenarioItem.from_parent(self, name=scenario.name, scenario=scenario)


class ScenarioFailure(Exception):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: scenarios.Scenario, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario

    def runtest(self) -> None:
        result = scenarios.run(self.scenario)
        if not result.passed:
            raise ScenarioFailure(result.report())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.scenario.span.line - 1, f"scenario {self.scenario.name}"


class BrokenScenarioFile(pytest.Item):
    def __init__(self, *, problems: list[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise ScenarioFailure("\n".join(d.render() for d in self.problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        return str(excinfo.value)
