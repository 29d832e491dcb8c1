#!/usr/bin/env python3
"""Speed of this tree against an older commit, measured side by side.

    .venv/bin/python scripts/bench_against.py 6271678 china-cornett china-schacht --players 3

This machine is shared and its absolute speed drifts by a third from one minute to the next,
so a speed claim is a ratio of two runs taken together: the older commit is checked out (a
detached git worktree under build/against/), and a measurement runs in it and in
this tree alternately, round after round (each side first in turn), each compiling the rules
afresh with its own compiler and runtime and playing random games for so many seconds of CPU
time. The ratio reported is the median of the per-round ratios (new / old) of playouts per CPU
second, the wall-clock ratio beside it.

    .venv/bin/python scripts/bench_against.py a1c1673 china-schacht mandarin --native

`--native` measures each tree's committed generated/ modules instead, on that tree's native build
(mypyc; each side builds its own once, into build/against/native/, keyed by its sources): the
rounds interleave the two sides' native runs the same way.

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
PACKAGE_DIRS = {"core": "core", "compiler": "compiler", "runtime": "runtime", "generated": "generated",
                "grammar": "grammar", "rules": "rules"}


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
        if not target.exists() and (tree / folder).is_dir():  # (core/ is new in issue 36)
            target.symlink_to(tree / folder)
    return into


def sides(doc: str, what: str, native: bool = False, committed: bool = False) -> tuple[argparse.Namespace, Path, Path]:
    """The arguments of a script that plays each rule set named in an older commit's tree and in
    this one, so many games a side (scripts/instructions_against.py, same_games_against.py), and
    the two trees' import paths, old first. `native`: the script takes `--native` too."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("rev", help="the older commit (hash, tag, branch)")
    parser.add_argument("rulesets", nargs="+", help=f"rule sets to {what}")
    parser.add_argument("--players", type=int, default=3, help="(the smallest count where the rule set has not)")
    parser.add_argument("--games", type=int, default=10, help="per rule set and side")
    if native:
        parser.add_argument("--native", action="store_true",
                            help="each tree's generated/ modules on its own native build")
    if committed:
        parser.add_argument("--committed", action="store_true",
                            help="each tree's generated/ modules, interpreted, without the compiler in the process")
    args = parser.parse_args()
    return args, checkout(args.rev), link_tree(ROOT, ROOT / "build" / "against" / "this")


def checkout(rev: str) -> Path:
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         check=True, capture_output=True, text=True).stdout.strip()
    where = ROOT / "build" / "against" / sha[:12]
    if not (where / "tree" / "api").is_dir():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where / "tree"), sha],
                       check=True, capture_output=True)
    return link_tree(where / "tree", where / "path")


# Run in each tree, with that tree's compiler and runtime: random playouts of each rule set
# compiled in memory, timed by the process's CPU time (what this process ran, not what the
# machine's other work took from it: far steadier than the wall clock on a shared machine) and
# by the wall clock.
# (Each side finds the bundled rule sets where its tree has them: core/ is new in issue 36. The
# scripts beside this one start their code in each tree with it too.)
BUNDLED = """
try:
    from rulewright.core.paths import bundled_rulesets
except ImportError:  # a tree from before core/
    from rulewright.compiler.paths import bundled_rulesets
"""
# Random playouts of one game for so many seconds of CPU time: per CPU second and per second of the wall
# clock (both measuring scripts below start with it).
PLAYOUTS = """
import json, sys, time
from rulewright.match import play_game
from rulewright.runtime.rng import derive_seed


def playouts(game, players, seconds):
    count = players if players in game.info.players else game.info.players[0]
    n = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        result = play_game(game, count, derive_seed(0, n))
        assert not result.error, (n, result.error)
        n += 1
    return {"cpu": n / (time.process_time() - cpu), "wall": n / (time.perf_counter() - wall)}
"""
MEASURE = PLAYOUTS + """
import rulewright
""" + BUNDLED + """
seconds, players, wanted = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
out = {}
for ruleset, path in bundled_rulesets():
    if wanted and ruleset not in wanted:
        continue
    out[ruleset] = playouts(rulewright.load_rules(path), players, seconds)
print(json.dumps(out))
"""


# Native: each tree's committed generated/ modules on its own native build; one fresh process per rule
# set (runtime/native.py's bench worker, in both trees), timed by its CPU time as above.
NATIVE_DIR = ROOT / "build" / "against" / "native"
NATIVE_BUILD = "from rulewright.native import build; print(build(say=lambda s: None).path)"
NATIVE_MEASURE = PLAYOUTS + """
from rulewright import load
from rulewright.native import active_build
ruleset, wanted, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
assert active_build() is not None, "not running on the native build"
print(json.dumps(playouts(load(ruleset), wanted, seconds)))
"""


def native_env(path_entry: Path, native: str) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(path_entry), RULEWRIGHT_NATIVE=native, RULEWRIGHT_NATIVE_DIR=str(NATIVE_DIR))


def build_native(path_entry: Path) -> str:
    run = subprocess.run([sys.executable, "-c", NATIVE_BUILD], check=True, capture_output=True, text=True,
                         env=native_env(path_entry, "0"), cwd=ROOT)
    return run.stdout.strip()


def bench(path_entry: Path, args: argparse.Namespace) -> dict[str, dict[str, float]]:
    if args.native:
        found: dict[str, dict[str, float]] = {}
        for ruleset in args.rulesets:
            command = [sys.executable, "-c", NATIVE_MEASURE, ruleset, str(args.players or 0), str(args.seconds)]
            run = subprocess.run(command, check=True, capture_output=True, text=True,
                                 env=native_env(path_entry, "1"), cwd=ROOT)
            found[ruleset] = json.loads(run.stdout)
        return found
    env = dict(os.environ, PYTHONPATH=str(path_entry))
    command = [sys.executable, "-c", MEASURE, str(args.seconds), str(args.players or 0), *args.rulesets]
    run = subprocess.run(command, check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    found = json.loads(run.stdout)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the older commit (hash, tag, branch)")
    parser.add_argument("rulesets", nargs="*", help="rule sets to measure (all bundled when none)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.5, help="per rule set, per run")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--native", action="store_true",
                        help="each tree's generated/ on its own native build (rule sets must be named)")
    args = parser.parse_args()
    if args.native and not args.rulesets:
        parser.error("--native measures the rule sets named (e.g. china-schacht mandarin)")
    old_path = checkout(args.rev)
    new_path = link_tree(ROOT, ROOT / "build" / "against" / "this")
    if args.native:
        for side, path in (("old", old_path), ("new", new_path)):
            print(f"native build of the {side} tree: {build_native(path)}", file=sys.stderr)
    rounds: list[tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]] = []
    for k in range(args.rounds):
        # alternate which side goes first, so that neither always meets the machine as the other left it
        if k % 2 == 0:
            old, new = bench(old_path, args), bench(new_path, args)
        else:
            new, old = bench(new_path, args), bench(old_path, args)
        rounds.append((old, new))
        print(f"round {k + 1}/{args.rounds}: " + ", ".join(f"{r} {new[r]['cpu'] / old[r]['cpu']:.2f}x" for r in new),
              file=sys.stderr)
    load = os.getloadavg()
    print(f"{'native' if args.native else 'interpreted'} playouts per CPU second, median of {args.rounds} "
          f"interleaved rounds of {args.seconds:g} s "
          f"(load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}); wall-clock ratio beside")
    print(f"{'rule set':40} {'old/s':>9} {'new/s':>9} {'ratio':>7} {'wall':>7}")
    for ruleset in rounds[0][1]:
        ratios = [new[ruleset]["cpu"] / old[ruleset]["cpu"] for old, new in rounds]
        walls = [new[ruleset]["wall"] / old[ruleset]["wall"] for old, new in rounds]
        print(f"{ruleset:40} {statistics.median(o[ruleset]['cpu'] for o, _ in rounds):9.1f} "
              f"{statistics.median(n[ruleset]['cpu'] for _, n in rounds):9.1f} {statistics.median(ratios):6.2f}x "
              f"{statistics.median(walls):6.2f}x")


if __name__ == "__main__":
    main()
