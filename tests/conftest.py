"""Every scenario file under tests/scenarios/ is collected: one test item per scenario, named
by the scenario, so `pytest -k <name>` picks one and a failure shows expected against actual
with the rule lines that fired."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulewright import scenarios

SCENARIO_ROOT = Path(__file__).parent / "scenarios"


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
