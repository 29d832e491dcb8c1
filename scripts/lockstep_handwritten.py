#!/usr/bin/env python3
"""Play seeded random games on a hand-written version of a game (scripts/handwritten/) and on the
generated module side by side, move for move, and stop at the first difference.

    .venv/bin/python scripts/lockstep_handwritten.py china-cornett --games 1000 [--players P] [--seed S]

At every decision both must agree on whether the game is over, the scores, and the legal actions
(their texts, as sets); a move is chosen at random (Python's `random`, seeded by the game) among
the generated module's and played on both by its text; at the end the winners must agree. Chance
is not handed from one to the other: each side draws from its own generator of the game's seed,
in the rule set's order, so a difference in what is drawn, or when, is a divergence too. The
generated module is given the readings the hand-written version plays (its `OPTIONS`); with
RULEWRIGHT_NATIVE=1 (after `rulewright compile --native`) it is the native build that is checked.
Exit status 0 when every game agreed, 1 at a divergence (told with the game's seed and the move).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HANDWRITTEN = {"china-cornett": "handwritten.china_cornett", "china-schacht": "handwritten.china_schacht"}
MAX_MOVES = 100_000  # a game longer than this is a divergence of its own (neither side ends it)


def handwritten(game: str) -> ModuleType:
    """The hand-written version of `game` (scripts/handwritten/, not a module of the package)."""
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    return importlib.import_module(HANDWRITTEN[game])


@dataclass
class Report:
    games: int = 0
    decisions: int = 0
    mismatch: str | None = None


def _differs(what: str, ours: Any, theirs: Any) -> str:
    return f"{what}: generated {ours!r}, hand-written {theirs!r}"


def play_one(ruleset: Any, hand: ModuleType, seed: int, players: int, report: Report) -> str | None:
    """One game in lockstep; the first difference, or None."""
    ours = ruleset.new_state(players=players, seed=seed, options=hand.OPTIONS)
    theirs = hand.new_state(seed=seed, players=players)
    pick = random.Random(seed)
    for move in range(MAX_MOVES + 1):
        where = f"seed {seed}, move {move}"
        if ours.is_terminal() != theirs.is_terminal():
            return f"{where}: " + _differs("game over", ours.is_terminal(), theirs.is_terminal())
        if ours.scores() != theirs.scores():
            return f"{where}: " + _differs("scores", ours.scores(), theirs.scores())
        if ours.is_terminal():
            if ours.winners() != theirs.winners():
                return f"{where}: " + _differs("winners", ours.winners(), theirs.winners())
            return None
        legal = ours.legal_actions()
        texts = [str(a) for a in legal]
        their_texts = [theirs.action_text(a) for a in theirs.legal_actions()]
        if set(texts) != set(their_texts) or len(texts) != len(their_texts):
            only_ours = sorted(set(texts) - set(their_texts))[:5]
            only_theirs = sorted(set(their_texts) - set(texts))[:5]
            return (f"{where}: legal actions differ ({len(texts)} generated, {len(their_texts)} hand-written); "
                    f"only generated: {only_ours}; only hand-written: {only_theirs}")
        report.decisions += 1
        k = pick.randrange(len(legal))
        ours.apply(legal[k])
        theirs.apply_text(texts[k])
    return f"seed {seed}: not over after {MAX_MOVES} moves"


def run(game: str, games: int, seed: int = 0, players: int | None = None, hand: ModuleType | None = None) -> Report:
    """`games` games of seeds seed, seed + 1, ... in lockstep; stops at the first difference."""
    from rulewright.loading import load

    hand = handwritten(game) if hand is None else hand
    count = hand.PLAYERS[0] if players is None else players
    if count not in hand.PLAYERS:
        raise SystemExit(f"lockstep_handwritten: the hand-written {game} is played by "
                         f"{', '.join(map(str, hand.PLAYERS))} players")
    ruleset = load(hand.RULESET)
    report = Report()
    for i in range(games):
        report.mismatch = play_one(ruleset, hand, seed + i, count, report)
        if report.mismatch is not None:
            break
        report.games += 1
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(HANDWRITTEN))
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=None, help="players (default: the game's first count)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 1_000_000:
        parser.error("--games must be 1 to 1,000,000")
    if not 0 <= args.seed < 2**63:
        parser.error("--seed must be 0 to 2**63 - 1")
    began = time.perf_counter()
    report = run(args.game, args.games, args.seed, args.players)
    took = time.perf_counter() - began
    if report.mismatch is not None:
        print(f"{args.game}: DIVERGENCE after {report.games} agreeing games: {report.mismatch}")
        return 1
    print(f"{args.game}: {report.games} games, {report.decisions} decisions, 0 divergences ({took:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
