"""`rulewright bench` of the kingdoms test game three ways, side by side in one run.

* tests/games/kingdoms-lite.yaml: kingdoms by the built-ins `components` / `component_of`,
  definitions `cached: true` (computed once per state);
* tests/bench/kingdoms-lite-uncached.yaml: the same, with `cached: false` (the plain
  definitions are still remembered while one list of actions is made);
* tests/bench/kingdoms-lite-by-hand.yaml: no built-in, no cache: the flood fill written in
  the language as it was (a chain of definitions growing a kingdom ring by ring).

The by-hand version's proven work passes the limit of a move (1,000,000 steps), so the limit
is lifted here for all three (it is a check, not what is measured). The three play the same
games (tests/test_components.py checks it). Usage:

    .venv/bin/python scripts/bench_kingdoms.py [--seconds 5]
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulewright import cli
from rulewright.runtime import limits

ROOT = Path(__file__).resolve().parent.parent
FILES = (
    ROOT / "tests" / "games" / "kingdoms-lite.yaml",
    ROOT / "tests" / "bench" / "kingdoms-lite-uncached.yaml",
    ROOT / "tests" / "bench" / "kingdoms-lite-by-hand.yaml",
)


def main() -> None:
    limits.MAX_STEPS = 1 << 62  # new_move() reads it: every move starts with this budget
    sys.argv = ["rulewright", "bench", *map(str, FILES), *sys.argv[1:]]
    cli.main()


if __name__ == "__main__":
    main()
