"""The rule set a person names: on the command line (`rulewright play china-cornett`, a rule
file `my-rules.yaml`, a generated module `out/x/base.py`) or as the web board's source (`serve
RULESET`). Below both the commands (rulewright.commands) and the web board (web.py): neither
imports the other. What a file names (a log header, a scenario) goes through
rulewright.load_named instead, which never imports a module."""

from __future__ import annotations

from pathlib import Path

from .core.paths import RULE_FILE_SUFFIXES, RULESET_ID, bundled_rulesets, ruleset_file
from .core.source import did_you_mean
from .loading import load as load_ruleset
from .loading import load_module_file, load_rules
from .runtime.state import Game


class UnknownRuleset(Exception):
    """A rule set named that is neither bundled nor a file: the message names the closest ones.
    Not a RulewrightError: each place a person named it says so in its own way (the command
    line: `rulewright: error: ...`; a log's `--ruleset`: at the log's line), never as a fault
    of a file read (a saved state's, a log's)."""


def unknown_ruleset(ruleset: str) -> UnknownRuleset:
    known = [r for r, _ in bundled_rulesets()]
    hint = did_you_mean(ruleset, known)
    listed = ", ".join(known) or "none"
    return UnknownRuleset(f"unknown rule set `{ruleset}`" + (f": {hint}" if hint else f" (bundled: {listed})"))


def load_game(ruleset: str) -> Game:
    """The game of a bundled rule set (compiled), of a generated module (`out/x/base.py`) or
    of a rule file (`my-rules.yaml`, compiled in memory: a CompileError lists its problems).
    Only for a rule set a person named on the command line: a module is imported, its code
    runs. What a file names goes through `load_named` instead."""
    if ruleset.endswith(".py"):
        return load_module_file(Path(ruleset))
    if ruleset.endswith(RULE_FILE_SUFFIXES):
        return load_rules(Path(ruleset))
    if not RULESET_ID.fullmatch(ruleset) or not ruleset_file(ruleset).is_file():
        raise unknown_ruleset(ruleset)
    return load_ruleset(ruleset)
