#!/usr/bin/env python3
"""Random playouts per CPU second of a game's hand-written Python version (scripts/handwritten/)
beside the generated module, interpreted and native, from the same Python loop, in one run: the
ratios issue 38's targets are set in.

    .venv/bin/rulewright compile --native            # for the native side: the build must be current
    .venv/bin/python scripts/bench_handwritten.py [GAME ...] [--players P] [--seconds S] [--rounds R] [--no-native]

Each measure runs in a fresh process (the native build is switched on by RULEWRIGHT_NATIVE=1 before
rulewright is imported), the sides alternating for R rounds; the best round of each side is kept.
Time is CPU time of the measuring process (time.process_time: the machine is shared), and the loop
is the same on every side: a new game of seed k, then until it is over list the legal actions,
choose one with Python's `random` (seeded 0), apply it. The generated module is given the
readings the hand-written version plays (its OPTIONS). Prints the playouts per CPU second, the
moves per game, the ratios to the hand-written version, and the machine's load (1-minute average)
at the start and the end.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANDWRITTEN = {"china-cornett": "handwritten.china_cornett", "china-schacht": "handwritten.china_schacht"}

MEASURE = r"""
import importlib, json, random, sys, time
side, module, seconds, root, players = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
sys.path.insert(0, root + "/scripts")
hand = importlib.import_module(module)
players = players or hand.PLAYERS[0]
pick = random.Random(0)
games = moves = 0
if side == "hand-written":
    new_state = hand.new_state
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = new_state(seed=games, players=players)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
        moves += state.moves
        games += 1
else:
    from rulewright.loading import load
    game = load(hand.RULESET)
    options = hand.OPTIONS
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_state(players=players, seed=games, options=options)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
        moves += state.moves
        games += 1
elapsed = time.process_time() - began
print(json.dumps({"playouts": games / elapsed, "moves": moves / max(games, 1)}))
"""


def measure(side: str, game: str, seconds: float, players: int) -> dict[str, float]:
    env = dict(os.environ)
    env.pop("RULEWRIGHT_NATIVE", None)
    if side == "native":
        env["RULEWRIGHT_NATIVE"] = "1"
    out = subprocess.run([sys.executable, "-c", MEASURE, side, HANDWRITTEN[game], str(seconds), str(ROOT),
                          str(players)],
                         env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"bench_handwritten: {side} {game} failed:\n{out.stderr.strip()[-2000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help=f"games (default: those written, of {', '.join(HANDWRITTEN)})")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of playouts per measure (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the sides alternating (default 3)")
    parser.add_argument("--players", type=int, default=0, help="players (default: each game's first count)")
    parser.add_argument("--no-native", action="store_true", help="leave the native build out")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    written = [g for g in HANDWRITTEN if (ROOT / "scripts" / (HANDWRITTEN[g].replace(".", "/") + ".py")).exists()]
    unknown = [g for g in args.games if g not in written]
    if unknown:
        parser.error(f"no hand-written {unknown[0]!r}: one of {', '.join(written)}")
    if not (0 < args.seconds <= 600 and 0 < args.rounds <= 20):
        parser.error("--seconds must be in (0, 600], --rounds in 1..20")
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    for game in args.games or written:
        counts = importlib.import_module(HANDWRITTEN[game]).PLAYERS
        if args.players and args.players not in counts:
            parser.error(f"the hand-written {game} is played by {', '.join(map(str, counts))} players")
    sides = ["hand-written", "interpreted"] + ([] if args.no_native else ["native"])
    load_before = os.getloadavg()[0]
    rows: dict[str, dict[str, float]] = {}
    moves: dict[str, dict[str, float]] = {}
    for game in args.games or written:
        best: dict[str, float] = {}
        for _ in range(args.rounds):
            for side in sides:
                got = measure(side, game, args.seconds, args.players)
                best[side] = max(best.get(side, 0.0), got["playouts"])
                moves.setdefault(game, {})[side] = got["moves"]
        rows[game] = best
    load_after = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"load": [load_before, load_after], "playouts_per_cpu_second": rows, "moves": moves}))
        return 0
    print(f"random playouts per CPU second, best of {args.rounds} rounds of {args.seconds:g} s "
          f"(load average {load_before:.1f} at the start, {load_after:.1f} at the end; {os.cpu_count()} cores)")
    head = ["game", "moves", *sides] + [f"{side}/hand-written" for side in sides[1:]]
    print(" | ".join(head))
    for game, best in rows.items():
        hand = best["hand-written"]
        print(" | ".join([game, f"{moves[game]['hand-written']:.0f}", *(f"{best[side]:,.1f}" for side in sides),
                          *(f"{best[side] / hand:.2f}" for side in sides[1:])]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
