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

SCENARIO_ROOT = Path(__file__).parent / "scenarios"


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


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".yaml" and SCENARIO_ROOT in file_path.parents:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        found, problems = scenarios.load_file(self.path)
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
