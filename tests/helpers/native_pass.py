"""The tests that play games, marked `native_pass` (tests/conftest.py): `./dev test` runs them on
the native build (its second pass, RULEWRIGHT_NATIVE=1), all but those marked slow, and leaves
them out of its first pass, so that each runs once: the scenarios, each game's rules. The slow
ones run in the first pass, interpreted; the soak tests in the second only.

What the interpreted modules still get in `./dev test`: tests/test_native.py (first pass) proves
they play the native modules' games move for move (legal actions, position, clones and restores,
the end), tests/test_optimiser.py holds every scenario on them unoptimised, and every other test
file plays them; `./dev test --quick` and a plain `pytest` run all of these interpreted too.

`./dev` reads this list for the paths of its second pass (`python -c 'from tests.helpers...'`)."""

from __future__ import annotations

# paths under tests/: a file, or a folder whose every file is meant
NATIVE_PASS: tuple[str, ...] = (
    "scenarios", "test_scenarios.py", "test_china_cornett.py", "test_china_schacht.py",
    "test_china_schacht_variants.py", "test_mandarin.py", "test_chang_cheng.py", "test_yellow_yangtze.py",
    "test_yellow_yangtze_short.py", "test_conformance.py", "test_asks.py", "test_rule_faults.py",
    "test_end_turn.py", "test_who_decides.py", "test_long_runs.py", "test_classics_lockstep.py",
    "test_handwritten_lockstep.py",
)


def in_native_pass(file: str) -> bool:
    """Whether a test file (its path under tests/, `test_x.py`, `scenarios/g/f.yaml`) is one of
    NATIVE_PASS or in a folder of it."""
    return any(file == p or file.startswith(p + "/") for p in NATIVE_PASS)


def paths() -> str:
    """NATIVE_PASS as `./dev` passes them to pytest, from the repository's root."""
    return " ".join(f"tests/{p}" for p in NATIVE_PASS)
