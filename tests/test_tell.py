"""`tell "..."` (docs/language.md "Effects"): a move's rules tell every seat a line. The runtime
keeps what the last move told (`State.told()`: emptied by the next move, kept by clone), `play`
prints it under the move, the web board's history after the move's text; the checker refuses a
bad told text at its line and column (tests/broken/tell_*.yaml, test_diagnostics.py), `leaks`
a told text that names what a seat may not see (test_leaks.py), and Yellow & Yangtze's revolts
and wars tell their winner (tests/scenarios/yellow-yangtze/, `told:`; and below)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulewright
from rulewright.cli import cli
from rulewright.compiler.parse import parse
from rulewright.compiler.unparse import unparse
from rulewright.core.source import SourceSpan
from rulewright.runtime.rng import Rng
from rulewright.runtime.state import Game
from rulewright.viewer import PlaySession
from rulewright.web import make_app
from tests.test_web import PageClient, api

ROOT = Path(__file__).resolve().parent.parent
TOLD = ROOT / "tests" / "games" / "told.yaml"


@pytest.fixture(scope="module")
def game() -> Game:
    return rulewright.load_rules(TOLD)


def test_a_move_tells_its_lines_and_the_next_move_empties_them(game: Game) -> None:
    state = game.new_state(2, seed=0)
    assert state.told() == []  # (before any move)
    state.apply("take A1")
    assert state.told() == ["P1 takes A1, 1 in all"]
    copy = state.clone()
    assert copy.told() == ["P1 takes A1, 1 in all"]
    state.apply("wait")
    assert state.told() == [] and copy.told() == ["P1 takes A1, 1 in all"]  # (the copy keeps its own)
    state.apply("take A2")  # P1's second: both lines, in the order told
    assert state.told() == ["P1 takes A2, 2 in all", "P1 has two"]
    state.told().clear()  # (a copy is given out: the state's own lines stay)
    assert state.told() == ["P1 takes A2, 2 in all", "P1 has two"]
    assert "told" not in state.to_json()  # (it belongs to one move: not saved)


def test_the_told_text_is_read_back_as_written() -> None:
    span = SourceSpan("x.yaml", 1, 1, 1, 40)
    stmt = parse('tell "{current} wins at {s}, {a[0].strength} to 2"', span, "stmt")
    assert unparse(stmt) == 'tell "{current} wins at {s}, {a[0].strength} to 2"'
    assert parse(unparse(stmt), span, "stmt") == stmt


def test_play_prints_the_told_lines_under_the_move() -> None:
    result = CliRunner().invoke(cli, ["play", str(TOLD), "--seed", "1"], input="1\nquit\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = lines.index("P1 (seat1) plays take A1")
    assert lines[at + 1] == "  P1 takes A1, 1 in all"
    assert lines[at + 2].startswith("  -> marker A1: empty -> taken")  # (what changed, after)


def test_the_web_board_s_history_shows_the_told_lines(game: Game) -> None:
    app, _ = make_app(None)
    session = PlaySession.start(game, 2, 3, ["human", "human"])
    key = app.sessions.add_game(session)
    client = PageClient(app)
    played = api(client, f"/api/game/{key}/move", {"seat": "1", "text": "take A1"}).json
    assert played["history"] == ["P1 take A1 — P1 takes A1, 1 in all"]
    api(client, f"/api/game/{key}/move", {"seat": "2", "text": "wait"})
    seen = api(client, f"/api/game/{key}?seat=2").json
    assert seen["history"] == ["P1 take A1 — P1 takes A1, 1 in all", "P2 wait"]


def test_a_yellow_yangtze_revolt_tells_the_side_that_won() -> None:
    """Random games until revolts are fought: each told winner is the one whose leader stays."""
    game = rulewright.load("yellow-yangtze")
    told = re.compile(r"P(\d) wins the (\w+) revolt at (\w+), (\d+) to (\d+)")
    revolts = 0
    for seed in range(40):
        state = game.new_state(3, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal() and state.moves < 400 and revolts < 3:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            for line in state.told():
                m = told.fullmatch(line)
                if m is None:
                    continue
                revolts += 1
                seat, kind, cell, won, lost = int(m[1]) - 1, m[2], m[3], int(m[4]), int(m[5])
                chief_on = getattr(state, "chief_on")  # noqa: B009 (a field of the rules)
                owner, leader = chief_on[state.board.labels.index(cell)]
                assert (owner, state.label("kind", leader)) == (seat, kind), line  # (the loser's has left)
                assert won >= lost
        if revolts >= 3:
            break
    if revolts == 0:
        pytest.skip("no revolt in the random games tried")
