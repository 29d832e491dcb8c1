#!/usr/bin/env python3
"""What a second worker buys: `simulate RULESET -n N --workers 2` against `--workers 1`.

    .venv/bin/python scripts/measure_workers.py china-cornett -n 400 --rounds 6 [--against main]

Each round runs the command with one worker and with two (in turn first), as a person runs it:
a process started from a script like the `rulewright` console script, so that the workers'
start-up is counted. Reported: the median wall time of each, their ratio (one worker's time
over two workers'), and the same ratio on the batch alone (games per second as simulate
reports it, without the process start). With --against REV the older tree is measured in the
same rounds (laid out as scripts/bench_against.py does), for a before/after on the same load.
The machine's load average is printed: on a shared machine only interleaved runs compare.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_against import ROOT, checkout, link_tree  # noqa: E402

# the console script's body: the workers of a spawn pool run this file again as __mp_main__
CONSOLE = "import sys\nfrom rulewright.cli import main\nif __name__ == '__main__':\n    sys.exit(main())\n"


def run(path_entry: Path, script: Path, args: argparse.Namespace, workers: int) -> tuple[float, float]:
    """(wall seconds of the whole command, games per second of the batch)."""
    env = dict(os.environ, PYTHONPATH=str(path_entry))
    command = [sys.executable, str(script), "simulate", args.ruleset, "-n", str(args.games), "--workers",
               str(workers), "--json", "--seed", "1"]
    started = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    wall = time.perf_counter() - started
    return wall, float(json.loads(out.stdout)["games_per_sec"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("-n", "--games", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--against", help="an older commit measured in the same rounds")
    args = parser.parse_args()
    script = ROOT / "build" / "against" / "rulewright_console.py"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(CONSOLE, encoding="utf-8")
    trees = {"this": link_tree(ROOT, ROOT / "build" / "against" / "this")}
    if args.against:
        trees[args.against] = checkout(args.against)
    found: dict[str, dict[int, list[tuple[float, float]]]] = {name: {1: [], 2: []} for name in trees}
    loads = []
    for k in range(args.rounds):
        order = [(name, w) for name in trees for w in (1, 2)]
        for name, workers in order if k % 2 == 0 else order[::-1]:
            found[name][workers].append(run(trees[name], script, args, workers))
        loads.append(os.getloadavg()[0])
        print(f"round {k + 1}/{args.rounds}: " + ", ".join(
            f"{name} {f[1][-1][0]:.2f}s/{f[2][-1][0]:.2f}s" for name, f in found.items()), file=sys.stderr)
    print(f"simulate {args.ruleset} -n {args.games}: medians of {args.rounds} interleaved rounds "
          f"(load average {min(loads):.2f} to {max(loads):.2f})")
    print(f"{'tree':12} {'1 worker':>10} {'2 workers':>10} {'wall ratio':>11} {'batch ratio':>12}")
    for name, f in found.items():
        w1 = statistics.median(wall for wall, _ in f[1])
        w2 = statistics.median(wall for wall, _ in f[2])
        batch = statistics.median(two[1] / one[1] for one, two in zip(f[1], f[2], strict=True))
        print(f"{name:12} {w1:9.2f}s {w2:9.2f}s {w1 / w2:10.2f}x {batch:11.2f}x")


if __name__ == "__main__":
    main()
