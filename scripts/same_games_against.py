#!/usr/bin/env python3
"""Whether this tree plays the very same games as an older commit: a check of a change of the runtime.

    .venv/bin/python scripts/same_games_against.py 363efcf yellow-yangtze yellow-yangtze/short --games 15

tests/test_optimiser.py plays every rule set with and without the optimiser's passes, but both
sides run on one runtime: a change of the runtime itself (a built-in made cheaper, as `subsets`
and `component_of` were for Yellow & Yangtze) is the same on both. This script plays seeded
random games of each rule set in the older commit's tree and in this one (each compiling the
rules in memory with its own compiler and runtime, as scripts/bench_against.py does) and
compares a digest of each: the legal actions listed at every move, in order, the action chosen
(by a generator seeded per game, the same on both sides), the saved state after every move, and
the scores and winners. It prints one line per rule set and exits 1 if any digest differs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_against import BUNDLED, ROOT, sides  # noqa: E402  (a script beside this one)

PLAY = """
import hashlib, json, random, sys
import rulewright
""" + BUNDLED + """from rulewright.runtime.rng import derive_seed
ruleset, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = rulewright.load_rules(dict(bundled_rulesets())[ruleset])
count = players if players in game.info.players else game.info.players[0]
digest = hashlib.sha256()
for n in range(games):
    state, pick = game.new_state(count, derive_seed(0, n)), random.Random(n)
    while not state.is_terminal():
        actions = state.legal_actions()
        action = actions[pick.randrange(len(actions))]
        digest.update(json.dumps([str(a) for a in actions] + [str(action)]).encode())
        state.apply(action)
        digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
    digest.update(json.dumps([state.scores(), state.winners()]).encode())
print(digest.hexdigest())
"""


def digest(path_entry: Path, ruleset: str, players: int, games: int) -> str:
    """The digest of `games` seeded random games of `ruleset`, played by the tree at `path_entry`."""
    env = dict(os.environ, PYTHONPATH=str(path_entry))
    run = subprocess.run([sys.executable, "-c", PLAY, ruleset, str(players), str(games)],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    if run.returncode != 0:
        raise SystemExit(f"{ruleset}: the run failed:\n{run.stderr[-2000:]}")
    return run.stdout.strip()


def main() -> None:
    args, old_path, new_path = sides(__doc__, "play")
    differ = False
    for ruleset in args.rulesets:
        old = digest(old_path, ruleset, args.players, args.games)
        new = digest(new_path, ruleset, args.players, args.games)
        differ |= old != new
        print(f"{ruleset:40} {args.games} games: {'the same' if old == new else 'DIFFERENT'} "
              f"({old[:16]} / {new[:16]})", flush=True)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
