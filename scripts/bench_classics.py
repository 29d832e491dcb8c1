#!/usr/bin/env python3
"""Random playouts per second of each classic: rulewright interpreted and native, beside OpenSpiel's
C++ implementation driven through pyspiel, all from the same Python loop, in one run.

    .venv/bin/rulewright compile --native            # the native build must be current
    .venv/bin/python scripts/bench_classics.py [GAME ...] [--seconds S] [--rounds R]

Each measure runs in a fresh process (the native build is switched on by RULEWRIGHT_NATIVE=1 before
rulewright is imported), the three sides alternating for R rounds; the best round of each is
kept. The loop is the same on every side: list the legal actions, choose one with Python's
`random`, apply it; at OpenSpiel's chance nodes an outcome is drawn by its probabilities, and in
rulewright the rules draw from the state's own generator. `random loop` is rulewright's own loop
of the random agent (`State.play_randomly`, compiled with the runtime natively), for reference.
Prints the table, the ratios to OpenSpiel, and the machine's load (1-minute average) at the start
and the end.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MEASURE = r"""
import json, random, sys, time
side, ruleset, openspiel_name, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
pick = random.Random(0)
games = moves = 0
if side == "openspiel":
    import pyspiel
    game = pyspiel.load_game(openspiel_name)
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(pick.choices(outcomes, probs)[0])
            elif state.is_simultaneous_node():  # (every seat chooses at once: a choice each, as rulewright's)
                chosen = []
                for p in range(game.num_players()):
                    legal = state.legal_actions(p)
                    chosen.append(legal[pick.randrange(len(legal))])
                state.apply_actions(chosen)
                moves += len(chosen)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
                moves += 1
        games += 1
else:
    from rulewright.loading import load
    from rulewright.runtime import Rng
    game = load(ruleset)
    loop = side.endswith("-loop")
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.new_state(seed=games)
        if loop:
            state.play_randomly(Rng(games), 1_000_000, None)
        else:
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[pick.randrange(len(legal))])
        moves += state.moves
        games += 1
elapsed = time.perf_counter() - began
print(json.dumps({"playouts": games / elapsed, "moves": moves / max(games, 1)}))
"""

SIDES = ("openspiel", "interpreted", "native", "interpreted-loop", "native-loop")


def measure(side: str, ruleset: str, openspiel: str, seconds: float) -> dict[str, float]:
    env = dict(os.environ)
    env.pop("RULEWRIGHT_NATIVE", None)
    if side.startswith("native"):
        env["RULEWRIGHT_NATIVE"] = "1"
    out = subprocess.run([sys.executable, "-c", MEASURE, side, ruleset, openspiel, str(seconds)], env=env,
                         cwd=ROOT, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"bench_classics: {side} {ruleset} failed:\n{out.stderr.strip()[-2000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    from rulewright.interop.lockstep import ADAPTERS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help=f"classics (default: all of {', '.join(sorted(ADAPTERS))})")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of playouts per measure (default 3)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the sides alternating (default 2)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in ADAPTERS]
    if unknown:
        parser.error(f"no classic {unknown[0]!r}: one of {', '.join(sorted(ADAPTERS))}")
    if not (0 < args.seconds <= 600 and 0 < args.rounds <= 20):
        parser.error("--seconds must be in (0, 600], --rounds in 1..20")
    load_before = os.getloadavg()[0]
    rows: dict[str, dict[str, float]] = {}
    moves: dict[str, float] = {}
    for name in args.games or sorted(ADAPTERS):
        adapter = ADAPTERS[name]
        best: dict[str, float] = {}
        for _ in range(args.rounds):
            for side in SIDES:
                got = measure(side, adapter.ruleset, adapter.openspiel, args.seconds)
                best[side] = max(best.get(side, 0.0), got["playouts"])
                if side == "interpreted":
                    moves[name] = got["moves"]
        rows[name] = best
    load_after = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"load": [load_before, load_after], "playouts_per_second": rows, "moves": moves}))
        return 0
    print(f"random playouts per second, best of {args.rounds} rounds of {args.seconds:g} s "
          f"(load average {load_before:.1f} at the start, {load_after:.1f} at the end; {os.cpu_count()} cores)")
    head = ["classic", "moves", "OpenSpiel", "interpreted", "native", "interp./OS", "native/OS",
            "random loop interp.", "random loop native"]
    print(" | ".join(head))
    for name, best in rows.items():
        os_rate = best["openspiel"]
        print(" | ".join([name, f"{moves[name]:.0f}", f"{os_rate:,.0f}", f"{best['interpreted']:,.1f}",
                          f"{best['native']:,.1f}", f"{best['interpreted'] / os_rate:.3f}",
                          f"{best['native'] / os_rate:.3f}", f"{best['interpreted-loop']:,.1f}",
                          f"{best['native-loop']:,.1f}"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
