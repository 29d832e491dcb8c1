"""Forced decisions (issue 34): `State.forced()` is the one legal action of the seat to act; `play`
and the web board play a person's forced decision at once, saying so, when no other person plays
in the game; the log holds it as any move, byte for byte the log of the game asked move by move;
agents are asked for every move (docs/language.md, "Forced decisions").

The test game is tests/games/war-support.yaml: a seat with one soldier left sends it, forced
(`sent 1`), and a seat that cannot do anything else rests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from werkzeug.test import Client

from rulewright import load_rules
from rulewright.cli import cli
from rulewright.runtime import State
from rulewright.runtime.state import Answer
from rulewright.viewer import HUMAN, PlaySession
from rulewright.web import TOKEN_HEADER, make_app

WAR = Path(__file__).parent / "games" / "war-support.yaml"
# Seed 2: after these moves, seat 3 is asked how many soldiers to send, and has one (`sent 1`).
TO_A_FORCED_ANSWER = ["banner_side west", "banner_side west", "banner_side west", "recruits 1", "declare war",
                      "support east", "sent 2", "support west", "sent 1", "support west", "sent 2", "new_banner east",
                      "new_banner east", "new_banner east", "recruits 1", "declare war", "support west"]
FORCED_NOTE = "(forced: the only legal move)"


def asked_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runtime as it was: no decision is forced, every one is asked."""
    monkeypatch.setattr(State, "forced", lambda self: None)


def test_forced_is_the_one_legal_action_of_an_ask_or_of_a_phase() -> None:
    game = load_rules(WAR)
    state = game.new_state(3, 2)
    assert state.forced() is None, "the setup asks each seat its side: two answers"
    for text in TO_A_FORCED_ANSWER:
        assert len(state.legal_actions()) > 1 and state.forced() is None, text
        state.apply(text)
    forced = state.forced()
    assert forced is not None and [str(a) for a in state.legal_actions()] == ["sent 1"] == [str(forced)]
    assert state._pending is not None and isinstance(forced, Answer), "an answer to an ask"
    copy = state.clone()
    state.apply(forced)  # a move like any other
    assert state.moves == copy.moves + 1
    while not state.is_terminal():  # to the end: a game over forces nothing
        legal = state.legal_actions()
        assert (state.forced() is not None) == (len(legal) == 1)
        state.apply(legal[-1])
    assert state.forced() is None and state.legal_actions() == []


def play(args: list[str], moves: int = 400) -> tuple[str, bytes]:
    """`rulewright play` of war-support with the first move listed chosen at every question."""
    log = Path(args[args.index("--log") + 1])
    result = CliRunner().invoke(cli, ["play", str(WAR), "--players", "3", *args], input="1\n" * moves)
    assert result.exit_code == 0, result.output
    return result.output, log.read_bytes()


def test_play_makes_a_persons_forced_move_at_once_and_logs_it_as_any(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["--seed", "2", "--seat", "1=random", "--seat", "3=human", "--log", str(tmp_path / "new.jsonl")]
    output, log = play(args)
    forced_lines = [line for line in output.splitlines() if FORCED_NOTE in line]
    assert forced_lines and all(line.startswith("P3") for line in forced_lines), "the person's seat only"
    prompts = output.count("your move (number or text")
    with monkeypatch.context() as m:
        asked_everything(m)
        old_output, old_log = play([*args[:-1], str(tmp_path / "old.jsonl")])
    assert log == old_log, "the same game, the same log, byte for byte"
    assert old_output.count("your move (number or text") == prompts + len(forced_lines), "each forced one was asked"
    assert FORCED_NOTE not in old_output
    replayed = CliRunner().invoke(cli, ["replay", str(tmp_path / "new.jsonl")])
    assert replayed.exit_code == 0 and "identical" in replayed.output


def test_play_asks_every_decision_where_several_people_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two people at the terminal: that one had no choice could tell the other what he hides, so
    nothing is played for them: the game is the one asked move by move, prompt for prompt."""
    args = ["--seed", "2", "--seat", "1=human", "--seat", "3=human", "--log", str(tmp_path / "new.jsonl")]
    output, log = play(args)
    assert FORCED_NOTE not in output
    with monkeypatch.context() as m:
        asked_everything(m)
        old_output, old_log = play([*args[:-1], str(tmp_path / "old.jsonl")])
    assert (output.replace("new.jsonl", "old.jsonl"), log) == (old_output, old_log)


def drive(session: PlaySession, moves: int = 400) -> None:
    """The person plays the first move listed; the agents play theirs; to the end."""
    for _ in range(moves):
        seat = session.state.to_act()
        if seat is None:
            return
        if session.seats[seat] == HUMAN:
            assert session.play(seat, str(session.state.legal_actions()[0])) is None
        else:
            session.step_agent()


def test_the_web_board_plays_a_persons_forced_move_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_rules(WAR)
    seats = ["random", "random", HUMAN]
    session = PlaySession.start(game, 3, 2, seats)
    drive(session)
    assert session.state.is_terminal() and session.forced
    assert all(session.history[k][0] == 2 for k in session.forced), "the person's moves only"
    with monkeypatch.context() as m:
        asked_everything(m)
        old = PlaySession.start(game, 3, 2, seats)
        drive(old)
    assert old.forced == set() and old.log_lines() == session.log_lines(), "the same game and log"


def test_the_web_board_asks_every_decision_where_several_people_play() -> None:
    session = PlaySession.start(load_rules(WAR), 3, 2, [HUMAN, "random", HUMAN])
    for _ in range(400):
        seat = session.state.to_act()
        if seat is None or session.seats[seat] == HUMAN and session.state.forced() is not None:
            break
        drive(session, 1)
    assert session.state.forced() is not None, "a person is asked a question with one answer"
    assert session.seats[session.state.to_act() or 0] == HUMAN and session.forced == set()


def test_the_web_history_marks_a_forced_move_for_its_seat_only() -> None:
    app, start = make_app(str(WAR))
    client = Client(app)
    headers = {TOKEN_HEADER: app.token}
    r = client.post("/new", headers=headers, data={"ruleset": str(WAR), "players": "3", "seed": "2",
                                                   "seat1": "random", "seat2": "random", "seat3": HUMAN})
    assert r.status_code == 303, r.text
    key = r.headers["Location"].removeprefix("/game/")
    data: dict[str, object] = {}
    for _ in range(400):
        data = client.get(f"/api/game/{key}?seat=3").json or {}
        if data["terminal"]:
            break
        if data["to_act"] == 3:
            moves = data["moves"]
            assert isinstance(moves, list) and len(moves) > 1, "a person is asked only real choices"
            client.post(f"/api/game/{key}/move", headers=headers,
                        json={"seat": "3", "text": moves[0], "version": data["version"]})
        else:
            client.post(f"/api/game/{key}/agent", headers=headers, json={"seat": "3"})
    history = data["history"]
    assert isinstance(history, list)
    marked = [h for h in history if h.endswith(" (forced)")]
    assert marked and all(h.startswith("P3 ") for h in marked)
    log = [json.loads(line) for line in client.get(f"/api/game/{key}/log").text.splitlines()]
    assert [entry["action"] for entry in log[1:-1]] == [h.split(" ", 1)[1].removesuffix(" (forced)")
                                                        for h in history], "the log holds them as any move"
