"""What a scenario is once read: its steps and expectations (`Scenario`, `Step`, `Expectation`),
the outcome of running it (`Result`, `Check`), and the helpers every reader of a scenario file
shares (`Problems` collects diagnostics; `text_of`, `check_keys`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.load import YMap, YNode, YScalar
from ..core.source import Diagnostic, SourceSpan, did_you_mean
from ..runtime.state import Game


@dataclass(frozen=True, slots=True)
class Step:
    kind: str  # "act", "trigger" or "chance"
    player: int | None
    text: str
    span: SourceSpan
    node: YNode | None = None  # a `chance:` step's mapping


@dataclass(frozen=True, slots=True)
class Expectation:
    kind: str
    node: YNode
    span: SourceSpan


@dataclass
class Scenario:
    name: str
    doc: str
    file: str
    ruleset: str
    options: dict[str, str]
    players: int | None
    seed: int
    names: tuple[str, ...]
    position: YMap | None
    steps: list[Step]
    expect: list[Expectation]
    span: SourceSpan
    game: Game | None = None

    @property
    def where(self) -> str:
        return f"{self.span.path}:{self.span.line}"


@dataclass
class Check:
    """One expectation's outcome."""

    what: str
    expected: Any
    actual: Any
    ok: bool


@dataclass
class Result:
    scenario: Scenario
    checks: list[Check] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)  # rule paths, in the order they fired
    problem: str | None = None  # a step that could not be played, unexpectedly

    @property
    def passed(self) -> bool:
        return self.problem is None and all(c.ok for c in self.checks)

    def rule_lines(self) -> list[str]:
        game = self.scenario.game
        rules = game.info.rules if game else {}
        seen: list[str] = []
        for path in self.fired:
            entry = f"{path} ({rules[path]})" if path in rules else path
            if entry not in seen:
                seen.append(entry)
        return seen

    def report(self) -> str:
        """One line, then for a failure each expectation that failed and the rules fired."""
        status = "PASS" if self.passed else "FAIL"
        lines = [f"{status} {self.scenario.name}  ({self.scenario.where})"]
        if not self.passed:
            if self.problem:
                lines.append(f"  step failed: {self.problem}")
            for c in self.checks:
                if not c.ok:
                    lines.append(f"  {c.what}: expected {show(c.expected)}, got {show(c.actual)}")
            fired = self.rule_lines()
            if fired:
                lines.append("  rules fired: " + ", ".join(fired))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.scenario.name,
            "file": self.scenario.file,
            "line": self.scenario.span.line,
            "ruleset": self.scenario.ruleset,
            "passed": self.passed,
            "problem": self.problem,
            "checks": [{"what": c.what, "expected": c.expected, "actual": c.actual, "ok": c.ok} for c in self.checks],
            "rules_fired": self.rule_lines(),
        }


def show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


class Problems:
    def __init__(self) -> None:
        self.list: list[Diagnostic] = []

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.list.append(Diagnostic(span, message, hint))


def check_keys(p: Problems, node: YMap, allowed: tuple[str, ...], what: str) -> None:
    for key, _ in node.items:
        if str(key.value) not in allowed:
            p.error(key.span, f"unknown key `{key.value}` in {what}",
                    did_you_mean(str(key.value), allowed) or f"known keys: {', '.join(allowed)}")


def text_of(p: Problems, node: YNode | None) -> str | None:
    if node is None:
        return None
    if isinstance(node, YScalar) and node.value is not None and not isinstance(node.value, bool):
        return str(node.value)
    p.error(node.span, "expected text here")
    return None
