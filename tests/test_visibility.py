"""What is hidden stays hidden (issue 10).

1. The corpus tests/hostile/visibility/: each file is a small game with one visibility that has no
   meaning (`visible: owner` on a field no player owns, `shown_if` on a field everyone sees,
   `hide_items_if` on a field nobody sees) and says on its first line the clean error the checker
   gives, `# expect: <path>:<line>:<col>: error: <message>`. Such a field was shown to everyone.
2. A leak test over every bundled rule set and every test game: in states sampled from seeded
   random games, changing anything a player may not see (another player's `owner` field, a `none`
   field, the items of a `size` pile, a hidden item of a list) leaves that player's observation as
   it was; changing anything he sees changes it (so the test has teeth).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.compiler.driver import compile_file
from rulewright.core.source import CompileError
from rulewright.runtime import Game, Rng
from rulewright.runtime.state import _parse_type as field_type_of
from tests.helpers.games import GAMES, RULESETS, TEST_GAMES
from tests.helpers.hidden import hidden_items, how_seen, perturbations

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile" / "visibility"
CASES = sorted(HOSTILE.glob("*.yaml"))
EXPECT = "# expect: "
MOVES = 90  # per game
SAMPLE_EVERY = 9  # a state is sampled every 9 moves
SEEDS = (0, 1)


def expectation(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(EXPECT), f"{path.name} must start with `{EXPECT}`"
    return first[len(EXPECT):]


# -- 1. the corpus ------------------------------------------------------------------------------

def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_a_visibility_without_meaning_is_refused_where_it_is_written(path: Path) -> None:
    wanted = expectation(path)
    with pytest.raises(CompileError) as failed:
        compile_file(path.relative_to(ROOT))
    rendered = [d.render() for d in failed.value.diagnostics]
    assert [r.splitlines()[0] for r in rendered] == [wanted]
    assert "hint: " in rendered[0]


def test_the_cli_refuses_a_per_region_owner_field_in_one_clean_message() -> None:
    path = "tests/hostile/visibility/owner_per_region.yaml"
    done = subprocess.run([sys.executable, "-m", "rulewright", "check", path], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    out = done.stdout + done.stderr
    assert expectation(ROOT / path) in out
    assert "hint: use `visible: none` to hide it from every player" in out
    assert "Traceback" not in out


def test_visible_to_shows_entry_k_to_the_player_its_expression_names_only() -> None:
    """face-down.yaml: a card laid face down is seen by the player who laid it; a token by the
    player who peeked at it; everyone sees who laid and who peeked, and how many tokens."""
    game = rulewright.load_rules(GAMES / "face-down.yaml")
    state: Any = game.new_state(players=3, seed=4)
    state.apply("peek")     # P1 peeks
    state.apply("lay 2")    # P2 lays on spot 2
    state.apply("peek")     # P3 peeks
    laid, tokens = state.card[1], state.tokens
    views = [state.observation(p)["fields"] for p in range(3)]
    assert [v["card"]["2"] for v in views] == [None, state.label("rank", laid), None]
    assert [v["card"]["1"] for v in views] == ["blank", None, None], "an empty spot: its `layer` (P1) sees it"
    assert [v["tokens"] for v in views] == [[tokens[0], "hidden"], ["hidden", "hidden"], ["hidden", tokens[1]]]
    assert all(v["peeker"] == ["P1", "P3"] and v["layer"]["2"] == "P2" for v in views)
    text = compile_file((GAMES / "face-down.yaml").relative_to(ROOT)).source
    assert "            return int(self.layer[k])  # tests/games/face-down.yaml:19\n" in text


# -- 2. the leak test ---------------------------------------------------------------------------

def check_no_leak(game: Game, seed: int) -> tuple[int, int]:
    """Plays a seeded random game; returns how many hidden and seen changes it checked."""
    players = game.info.players[seed % len(game.info.players)]
    state = game.new_state(players=players, seed=seed)
    agent = Rng(seed + 11)
    hidden = seen = 0
    for move in range(MOVES):
        if state.is_terminal():
            break
        if move % SAMPLE_EVERY == seed * 5 % SAMPLE_EVERY:  # (seed 1 samples other moves than seed 0)
            how = how_seen(state)
            for player in range(state.num_players):
                before = state.observation(player)
                for what, changed, sees in perturbations(state, player):
                    if how_seen(changed) != how:  # (the change moved what is shown: not a like state)
                        continue
                    after = changed.observation(player)
                    where = f"{game.info.ruleset} seed {seed} move {move}: P{player + 1}, {what}"
                    if sees:
                        assert after != before, f"{where}: a change he may see is not in his observation"
                        seen += 1
                    else:
                        assert after == before, f"{where}: a change he may not see leaks into his observation"
                        hidden += 1
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    return hidden, seen


def _has_hidden(game: Game) -> bool:
    state = game.new_state(players=game.info.players[0], seed=0)
    return any(f.visible != "all" or f.name in {g.name for g in state.FIELDS if hidden_items(state, g)}
               for f in state.FIELDS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_rule_set_leaks_what_a_player_may_not_see(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    totals = [check_no_leak(game, seed) for seed in SEEDS]
    assert sum(s for _, s in totals) > 0
    if _has_hidden(game):
        assert sum(h for h, _ in totals) > 0


@pytest.mark.parametrize("name", TEST_GAMES)
def test_no_test_game_leaks_what_a_player_may_not_see(name: str) -> None:
    game = rulewright.load_rules(GAMES / name)
    totals = [check_no_leak(game, seed) for seed in SEEDS]
    assert sum(s for _, s in totals) > 0
    if _has_hidden(game):
        assert sum(h for h, _ in totals) > 0


def test_the_type_texts_remembered_are_bounded() -> None:
    """A long-lived process (the web board, the language server) loads rule file after rule
    file: the parsed type texts it remembers stay under a bound, and parse the same after."""
    from rulewright.runtime import state

    for n in range(state._PARSED_MOST + 10):
        assert field_type_of(f"list(kind{n})") == field_type_of(f"list(kind{n})")
        assert len(state._PARSED) <= state._PARSED_MOST
    assert field_type_of("optional(set(spot))") == state._parsed_type("optional(set(spot))")
