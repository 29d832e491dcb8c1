#!/usr/bin/env python3
"""Instructions per game of this tree against an older commit, counted by valgrind's callgrind.

    .venv/bin/python scripts/instructions_against.py 6271678 china-schacht mandarin --players 3 --games 20

A machine shared with other work gives playouts per second that drift by a third from one minute to
the next (scripts/bench_against.py measures them side by side for that reason); the number of
machine instructions a game takes does not drift: callgrind counts them, whatever else runs. Each
side plays the same random games (the seeds of scripts/bench_against.py, the random agent of
`rulewright simulate`) of each rule set, compiled in memory with its own compiler and runtime,
under `valgrind --tool=callgrind` with PYTHONHASHSEED=0 (string hashes, and so dict layouts, fixed);
the count of a run that plays no game (start-up, compiling, loading) is taken off, and what is left
divided by the number of games. The objects the compiler leaves alive are frozen out of the garbage
collector's reach before the games (`gc.freeze`): otherwise each full collection during the games walks
them, and a compiler that keeps more (caches of parsed built-ins, say) counts as a slower game.
The ratio old / new is how many times fewer instructions a game takes now: a comparison of two
versions of the code that the machine's load leaves alone, not the speed-up itself (a cache miss
costs more than an instruction: measured on the bundled rule sets, the ratio is that of playouts per
CPU second to up to a third above it, and well below it for China (Cornett); docs/optimiser.md,
"What is left"). Needs valgrind; slow (some fifty times slower than the games).

`--committed` counts each tree's committed generated/ modules, interpreted, loaded without the compiler
in the process (as `rulewright play` and `simulate` run them): the compiler leaves memory behind it, and
what the games then allocate lands elsewhere; the same game code counted 15.10 million instructions a game
(China (Schacht)) loaded so, and 15.29 compiled in the same process (2026-12-06).

Both freeze what the start-up left alive: the first collections during the games would otherwise walk
the objects the imports made since the last collection (a one-time cost of some 200 thousand
instructions, not a game's: China (Schacht) on 1290535's native build took 8.39 million instructions
a game over 3 games without the freeze, 8.31 on 5b3ce6f's, all of the difference but a per-move
attribute lookup in the collector's functions; with it, that lookup removed, 8.337 against 8.339;
2026-12-07).

`--native` counts each tree's committed generated/ modules on that tree's own native build instead
(built once per side, as scripts/bench_against.py --native does): the C code mypyc wrote is counted
like the interpreter.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_against import BUNDLED, ROOT, build_native, native_env, sides  # noqa: E402  (a script beside this one)

PLAY = """
import gc
import sys
import rulewright
""" + BUNDLED + """from rulewright.match import play_game
from rulewright.runtime.rng import derive_seed
ruleset, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
path = dict(bundled_rulesets())[ruleset]
game = rulewright.load_rules(path)
count = players if players in game.info.players else game.info.players[0]
game.new_state(count, 12345)  # (the board's tables made, as in a run of many games)
gc.collect()
gc.freeze()  # (what the compiler left alive is not the games': no collection during them walks it)
for n in range(games):
    result = play_game(game, count, derive_seed(0, n))
    assert not result.error, (ruleset, n, result.error)
"""
# the same games of the tree's committed module, on its native build (or interpreted: `--committed`)
PLAY_NATIVE = """
import gc
import sys
from rulewright import load
from rulewright.match import play_game
from rulewright.native import active_build
from rulewright.runtime.rng import derive_seed
ruleset, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
assert (active_build() is not None) == (sys.argv[4] == "1"), "not running on the build asked for"
game = load(ruleset)
count = players if players in game.info.players else game.info.players[0]
game.new_state(count, 12345)
gc.collect()
gc.freeze()  # (as above: the objects the start-up left young are not the games' to walk)
for n in range(games):
    result = play_game(game, count, derive_seed(0, n))
    assert not result.error, (ruleset, n, result.error)
"""


def instructions(path_entry: Path, ruleset: str, players: int, games: int, native: bool = False,
                 committed: bool = False) -> int:
    """`committed`: the tree's committed generated/ module, loaded without the compiler (interpreted,
    unless `native`); else the rules compiled in memory by the tree's compiler."""
    modules = native or committed
    env = dict(native_env(path_entry, "1" if native else "0") if modules else os.environ,
               PYTHONPATH=str(path_entry), PYTHONHASHSEED="0")
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
               PLAY_NATIVE if modules else PLAY, ruleset, str(players), str(games), "1" if native else "0"]
    run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"{ruleset}: the run failed:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def per_game(path_entry: Path, ruleset: str, players: int, games: int, native: bool, committed: bool) -> float:
    played = instructions(path_entry, ruleset, players, games, native, committed)
    return (played - instructions(path_entry, ruleset, players, 0, native, committed)) / games


def main() -> None:
    args, old_path, new_path = sides(__doc__, "measure", native=True, committed=True)
    if args.native:
        for path in (old_path, new_path):
            build_native(path)
    print(f"millions of instructions per game (callgrind, {args.games} random games, {args.players} players, "
          f"{'native' if args.native else 'committed modules, interpreted' if args.committed else 'interpreted'})")
    print(f"{'rule set':40} {'old':>9} {'new':>9} {'old/new':>8}")
    for ruleset in args.rulesets:
        old = per_game(old_path, ruleset, args.players, args.games, args.native, args.committed)
        new = per_game(new_path, ruleset, args.players, args.games, args.native, args.committed)
        print(f"{ruleset:40} {old / 1e6:9.2f} {new / 1e6:9.2f} {old / new:7.2f}x", flush=True)


if __name__ == "__main__":
    main()
