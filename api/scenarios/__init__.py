"""Scenarios: rulebook examples and rulings as executable data.

A scenario file holds one or more scenarios. Each names a rule set, a position given in that
rule set's own vocabulary, steps (actions by the players the rules ask, or a named trigger
applied to the position) and what must follow. `load_file` reads and checks a file against
the games it names (diagnostics with file:line:col, never a traceback); `run` plays one
scenario and compares; `compare` runs it against another rule set and reports what changed.
The format is documented in docs/scenarios.md.

A scenario file is data: its `ruleset:` names a bundled id or a rule file relative to it
(`rulewright.load_named`), never a Python module; only a regular file of at most
MAX_SCENARIO_FILE_BYTES is read.

The modules, each importing only those listed before it:
    model.py          a scenario once read, a run's result, the helpers of every reader
    positions.py      positions, values and chance in the rule set's vocabulary
    distributions.py  expectations over many runs, and the test of their counts
    running.py        a scenario run and compared, or run against another rule set
    parsing.py        a scenario file read and checked
The keys of the format are data in rulewright.core.scenario_keys, which `rulewright schema`
(compiler/schema.py) reads too. This module only gathers the public names.
"""

from __future__ import annotations

from .distributions import MAX_DISTRIBUTION_RUNS
from .model import Check, Expectation, Result, Scenario, Step
from .parsing import (
    DEFAULT_NAMES,
    MAX_SCENARIO_FILE_BYTES,
    GameLoader,
    by_name,
    default_loader,
    load_all,
    load_file,
    read_scenario_file,
    scenario_files,
)
from .positions import apply_position, fresh_state, invariants_broken
from .running import Comparison, compare, extends, play_steps, run

__all__ = [
    "DEFAULT_NAMES", "MAX_DISTRIBUTION_RUNS", "MAX_SCENARIO_FILE_BYTES", "Check", "Comparison", "Expectation",
    "GameLoader", "Result", "Scenario", "Step", "apply_position", "by_name", "compare", "default_loader", "extends",
    "fresh_state", "invariants_broken", "load_all", "load_file", "play_steps", "read_scenario_file", "run",
    "scenario_files",
]
