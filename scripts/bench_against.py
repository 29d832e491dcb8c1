#!/usr/bin/env python3
"""Speed of this tree against an older commit, measured side by side.

    .venv/bin/python scripts/bench_against.py 6271678 china-cornett china-schacht --players 3

This machine is shared and its absolute speed drifts by a third from one minute to the next,
so a speed claim is a ratio of two runs taken together: the older commit is checked out (a
detached git worktree under build/against/), and `rulewright bench --json` runs in it and in
this tree alternately, round after round, each compiling the rules afresh with its own
compiler and runtime. The ratio reported is the median of the per-round ratios (new / old).

Both sides run with this tree's virtual environment (the same Python and libraries): the
older tree is put first on the import path as the package `rulewright` through a folder of
links that mirrors pyproject.toml's package-dir.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = {"compiler": "compiler", "runtime": "runtime", "generated": "generated", "grammar": "grammar",
                "rules": "rules"}


def link_tree(tree: Path, into: Path) -> Path:
    """A folder holding `rulewright/` as the package laid out from `tree` (api/ is the top)."""
    package = into / "rulewright"
    package.mkdir(parents=True, exist_ok=True)
    for item in (tree / "api").iterdir():
        target = package / item.name
        if not target.exists():
            target.symlink_to(item)
    for name, folder in PACKAGE_DIRS.items():
        target = package / name
        if not target.exists():
            target.symlink_to(tree / folder)
    return into


def checkout(rev: str) -> Path:
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         check=True, capture_output=True, text=True).stdout.strip()
    where = ROOT / "build" / "against" / sha[:12]
    if not (where / "tree" / "api").is_dir():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where / "tree"), sha],
                       check=True, capture_output=True)
    return link_tree(where / "tree", where / "path")


def bench(path_entry: Path | None, args: argparse.Namespace, newer: bool) -> dict[str, float]:
    env = dict(os.environ)
    if path_entry is not None:
        env["PYTHONPATH"] = str(path_entry)
    command = [sys.executable, "-m", "rulewright", "bench", "--json", "--seconds", str(args.seconds), *args.rulesets]
    if args.players:
        command += ["--players", str(args.players)]
    if newer:  # (the per-pass figures are not part of the comparison; older trees have no flag for them)
        command += ["--no-per-pass"]
    run = subprocess.run(command, check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    found = json.loads(run.stdout)
    return {r["ruleset"]: r["playouts_per_sec"] for r in found["rulesets"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the older commit (hash, tag, branch)")
    parser.add_argument("rulesets", nargs="*", help="rule sets to measure (all bundled when none)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.5, help="per rule set, per run")
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    old_path = checkout(args.rev)
    new_path = link_tree(ROOT, ROOT / "build" / "against" / "this")
    rounds: list[tuple[dict[str, float], dict[str, float]]] = []
    for k in range(args.rounds):
        old = bench(old_path, args, newer=False)
        new = bench(new_path, args, newer=True)
        rounds.append((old, new))
        print(f"round {k + 1}/{args.rounds}: " + ", ".join(f"{r} {new[r] / old[r]:.2f}x" for r in new), file=sys.stderr)
    load = os.getloadavg()
    print(f"{'rule set':40} {'old/s':>9} {'new/s':>9} {'ratio':>7}   (median of {args.rounds} interleaved rounds; "
          f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    for ruleset in rounds[0][1]:
        ratios = [new[ruleset] / old[ruleset] for old, new in rounds]
        print(f"{ruleset:40} {statistics.median(o[ruleset] for o, _ in rounds):9.1f} "
              f"{statistics.median(n[ruleset] for _, n in rounds):9.1f} {statistics.median(ratios):6.2f}x")


if __name__ == "__main__":
    main()
