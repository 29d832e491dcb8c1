"""Chang Cheng (Walter Obert), what scenarios cannot show: a thousand seeded random games per
rule set with the conservation of walls and cards checked after every move, saving and
restoring anywhere (in the middle of a protection too), what each player sees, the event cards
stacked two by two, and `diff` listing exactly each variant's rules. The rulings, one by one, are
the scenarios in tests/scenarios/chang-cheng/."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler.diff import diff, load_ruleset
from rulewright.core import paths
from rulewright.match import BatchSpec, play_game, run_batch
from rulewright.runtime import Rng

EVENTS = ["diplomacy", "domination", "imperial-recognition", "watchers"]
VARIANTS = ["two-player", *EVENTS, "drawn-events"]


@pytest.mark.parametrize(("ruleset", "players"), [
    ("chang-cheng", 3), ("chang-cheng", 4),
    ("chang-cheng/two-player", 2),
    *((f"chang-cheng/{e}", 3) for e in EVENTS),
    ("chang-cheng/drawn-events", 4),
])
def test_a_thousand_random_games_conserve_walls_and_cards(ruleset: str, players: int) -> None:
    """The invariants of the rule files (sections_conserved, cards_conserved, ... and the neutral
    sections in two-player) are checked after every move of every game."""
    spec = BatchSpec(ruleset, players, seed=13, options={}, check_invariants=True)
    results = list(run_batch(spec, 1000, workers=2))
    assert len(results) == 1000
    errors = [r for r in results if r.error]
    assert errors == [], errors[0].error if errors else ""
    assert not any(r.capped for r in results)
    assert all(r.winners for r in results)


@pytest.mark.parametrize(("ruleset", "players"), [("chang-cheng", 3), ("chang-cheng/two-player", 2),
                                                  ("chang-cheng/drawn-events", 4)])
def test_a_game_saved_and_restored_anywhere_plays_on_the_same(ruleset: str, players: int) -> None:
    """The save/restore property: after any move (in the middle of a protection, waiting for a
    card's owner to choose, too) the restored state plays the rest of the game exactly as the
    original, to the same scores."""
    game = rulewright.load(ruleset)
    for seed in range(4):
        moves = [move for _, move in play_game(game, players, seed, record=True).log]
        original = game.new_state(players=players, seed=seed)
        waiting = 0
        for k, move in enumerate(moves):
            if k % 5 == 0 or original.to_json().get("pending") is not None:
                waiting += original.to_json().get("pending") is not None
                restored = game.state_from_json(json.loads(json.dumps(original.to_json())))
                for rest in moves[k:]:
                    restored.apply(rest)
                end = game.new_state(players=players, seed=seed)
                for m in moves:
                    end.apply(m)
                assert restored.to_json() == end.to_json()
                assert restored.scores() == end.scores()
            original.apply(move)
        assert waiting > 0, "some saved states were waiting for an answer"


def test_what_each_player_sees() -> None:
    """Action cards are seen by their owner until revealed (the others see their backs); a peril
    token by nobody until turned face up, except by whoever looked at it."""
    game = rulewright.load("chang-cheng")
    state = game.new_state(players=3, seed=5)
    state.apply(state.legal_actions()[0])  # the first player's single wall: he looks at a token
    seen = state.observation(0)["fields"]
    others = state.observation(1)["fields"]
    assert "peril" not in seen and "peril" not in others, "face-down tokens are nobody's to see"
    assert seen["sightings"][0] and others["sightings"][0] is None
    assert others["hand"][0] is None and len(seen["hand"][0]) == 6
    card = next(a for a in state.legal_actions() if str(a).startswith("card "))
    state.apply(card)
    kind, province = str(card).split()[1], str(card).split()[3]
    for viewer in (0, 2):  # a card laid face down: a back for everyone but its owner
        view = state.observation(viewer)["fields"]
        assert view["backs"][province] == ["P2"]
        assert view["placed"][1] is None and view["hand"][1] is None
        assert kind not in json.dumps([view["placed"], view["backs"], view["revealed"]])
    assert state.observation(1)["fields"]["placed"][1] == [{"owner": "P2", "kind": kind, "at": province}]


@pytest.mark.parametrize("pair", list(itertools.combinations(EVENTS, 2)), ids="+".join)
@pytest.mark.parametrize("two_player", [False, True], ids=["", "two-player"])
def test_any_two_event_cards_stack(tmp_path: Path, pair: tuple[str, str], two_player: bool) -> None:
    files = [f"chang-cheng/{e}" for e in pair] + (["chang-cheng/two-player"] if two_player else [])
    stacked = tmp_path / "stacked.yaml"
    stacked.write_text(f"extends: [{', '.join(files)}]\n", encoding="utf-8")
    game = rulewright.load_rules(stacked)
    state = game.new_state(players=2 if two_player else 3, seed=1)
    assert sorted(state.observation(0)["fields"]["events"]) == sorted(e.replace("-", "_") for e in pair)
    terms = {e.replace("-", "_") for e in pair} - {"watchers"}  # the Watchers turn tokens up in play
    agent = Rng(1)
    turned_up_in_play = False
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
        assert state.broken_invariants() == []
        if not state.is_terminal():
            turned_up_in_play |= any(v is not None for v in state.observation(1)["fields"]["face_up_peril"].values())
    assert terms <= set(state.score_terms(0))
    assert turned_up_in_play == ("watchers" in pair)


def test_drawn_events_puts_one_or_two_cards_in_play() -> None:
    game = rulewright.load("chang-cheng/drawn-events")
    drawn = [game.new_state(players=3, seed=seed).observation(0)["fields"]["events"] for seed in range(40)]
    assert all(len(d) == 2 for d in drawn)
    assert {e for d in drawn for e in d} == {e.replace("-", "_") for e in EVENTS}
    assert len({tuple(sorted(d)) for d in drawn}) == 6, "every pair comes up"
    one = {"events_drawn": "one_event"}
    ones = [game.new_state(players=3, seed=seed, options=one).observation(0)["fields"]["events"] for seed in range(12)]
    assert all(len(d) == 1 for d in ones)


@pytest.mark.parametrize("variant", VARIANTS)
def test_diff_lists_exactly_the_variants_rules(variant: str) -> None:
    """What `diff chang-cheng chang-cheng/<variant>` lists comes from the variant's own file (or
    the event files drawn-events stacks), and every top-level section the file sets is listed."""
    changes = diff(load_ruleset("chang-cheng"), load_ruleset(f"chang-cheng/{variant}"))
    assert changes
    own = EVENTS + ["drawn-events"] if variant == "drawn-events" else [variant]
    allowed = tuple(f"rules/chang-cheng/{name}.yaml:" for name in own)
    for c in changes:
        assert c.kind != "removed"
        assert c.where is not None and c.where.short.startswith(allowed), (c.path, c.where)
    text = (paths.rules_dir() / "chang-cheng" / f"{variant}.yaml").read_text(encoding="utf-8")
    sections = {line.split(":")[0].rstrip("+-") for line in text.splitlines()
                if line[:1].isalpha() and not line.startswith(("extends", "family"))}
    listed = {c.path.split(".")[0] for c in changes}
    assert sections <= listed, sections - listed


def test_diff_of_an_event_card_is_its_setup_and_scoring() -> None:
    changes = diff(load_ruleset("chang-cheng"), load_ruleset("chang-cheng/diplomacy"))
    assert {(c.kind, c.path) for c in changes} == {
        ("changed", "setup"),
        ("added", "define.provinces_walled"),
        ("added", "scoring.diplomacy"),
    }


@pytest.mark.parametrize("three", [list(c) for c in itertools.combinations(EVENTS, 3)] + [EVENTS], ids="+".join)
def test_three_event_cards_or_more_are_refused(tmp_path: Path, three: list[str]) -> None:
    """« les joueurs décident d'en choisir ou d'en piocher jusqu'à 2 »: a clear error at the
    `extends:` that stacks them, with two-player too; never a traceback."""
    from click.testing import CliRunner

    from rulewright.cli import cli
    for extra in ([], ["chang-cheng/two-player"]):
        stacked = tmp_path / "too-many.yaml"
        stacked.write_text(f"extends: [{', '.join(extra + [f'chang-cheng/{e}' for e in three])}]\n",
                           encoding="utf-8")
        result = CliRunner().invoke(cli, ["check", str(stacked)])
        assert result.exit_code == 1, result.output
        assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
        assert (f"too-many.yaml:1:10: error: `extends:` stacks {len(three)} variants of the family "
                "`event-cards`: `chang-cheng/") in result.output
        assert "at most 2 may be used together" in result.output


@pytest.mark.parametrize(("supply", "complete"), [("twelve_sections", True), ("no_sections", False)])
def test_two_players_complete_the_wall_with_the_neutral_sections_only(supply: str, complete: bool) -> None:
    """« La partie se termine à la fin du tour où toutes les cases de la Grande Muraille sont
    occupées »: with the twelve neutral sections (the default) every random two-player game ends
    so, the wall complete; without them (34 spaces' worth of sections for a wall of 37 to 44)
    none does: each ends when both players have passed in a row, spaces left empty."""
    game = rulewright.load("chang-cheng/two-player")
    ends = []
    for seed in range(60):  # (200 in docs/games/chang-cheng.md's measure: the same)
        state = game.new_state(2, seed, options={"neutral_supply": supply})
        agent = Rng(seed + 1)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[agent.below(len(legal))])
        ends.append((state.wall_complete(), state.passes))
    assert [full for full, _ in ends] == [complete] * len(ends)
    if not complete:  # the end by passing: both players passed in a row
        assert all(passes >= 2 for _, passes in ends)
