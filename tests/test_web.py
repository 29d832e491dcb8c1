"""The web board's server (api/web.py, api/viewer.py), through Werkzeug's test client: pages,
play (clicks, moves, illegal moves explained with their rule line, agents), replay of a log,
scenarios, and what no request may do (see another seat, name a file, come from another site).
The same pages in a real browser: tests/test_web_browser.py."""

from __future__ import annotations

import json
import re
import socket
import threading
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from werkzeug.test import Client

import rulewright
from rulewright.cli import cli
from rulewright.draw import action_spots, render_svg
from rulewright.viewer import PlaySession, Replay, ViewError, load_replay, parse_seat
from rulewright.web import HEADERS, make_app, make_server
from tests.helpers.web import PageClient, api

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios" / "china-cornett" / "rulebook.yaml"


def new_game(client: Client, ruleset: str, seats: list[str], seed: int = 5) -> str:
    form = {"ruleset": ruleset, "players": str(len(seats)), "seed": str(seed)}
    form.update({f"seat{k + 1}": s for k, s in enumerate(seats)})
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.text
    location = r.headers["Location"]
    assert location.startswith("/game/")
    return location.removeprefix("/game/")


@pytest.fixture()
def client() -> Client:
    app, start = make_app(None)
    assert start == "/"
    return PageClient(app)


def test_the_first_page_lists_the_rule_sets(client: Client) -> None:
    r = client.get("/")
    assert r.status_code == 200
    for ruleset in ("china-cornett", "china-schacht/two-player", "mandarin", "yellow-yangtze", "chang-cheng"):
        assert f">{ruleset}</a>" in r.text
    for name, value in HEADERS.items():
        assert r.headers[name] == value
    r = client.get("/new?ruleset=mandarin&players=3")
    assert r.status_code == 200 and 'name="seat3"' in r.text and 'name="seat4"' not in r.text


def test_a_game_is_played_by_clicking_a_spot_and_a_listed_move(client: Client) -> None:
    key = new_game(client, "china-cornett", ["human", "random"])
    data = api(client, f"/api/game/{key}?seat=1").json
    assert data["to_act"] == 1 and data["moves"] and "A1" in data["spots"]
    assert 'class="spot legal"' in data["svg"]
    clicked = api(client, f"/api/game/{key}/click", {"seat": "1", "spot": "A1"}).json
    assert clicked["moves"] and all("A1" in m for m in clicked["moves"])
    assert len(clicked["moves"]) < len(data["moves"])  # the list is filtered by the click
    assert 'class="spot picked"' in clicked["svg"]
    played = api(client, f"/api/game/{key}/move", {"seat": "1", "text": clicked["moves"][0]}).json
    assert played["history"] == [f"P1 {clicked['moves'][0]}"]
    assert played["agent_to_act"] == 2 and played["moves"] == []  # not P1's turn: no moves sent
    after = api(client, f"/api/game/{key}/agent", {"seat": "1"}).json
    assert len(after["history"]) == 2 and after["history"][1].startswith("P2 ")


def test_an_illegal_move_and_a_click_on_no_move_say_why_with_the_rule_line(client: Client) -> None:
    key = new_game(client, "china-cornett", ["human", "random"])
    refused = api(client, f"/api/game/{key}/move", {"seat": "1", "text": "prospect A1-A2-A3-A4-A5-A6"}).json
    assert refused["illegal"]["rule"] == "actions.prospect.choose"
    assert refused["illegal"]["where"].startswith("rules/china-cornett/base.yaml:")
    # Mandarin's first moves name no spot: a click on one is explained
    key = new_game(client, "mandarin", ["human", "random"])
    clicked = api(client, f"/api/game/{key}/click", {"seat": "1", "spot": "5"}).json
    assert clicked["illegal"] and all(r["why"] for r in clicked["illegal"])
    assert any(r["where"].startswith("rules/mandarin/base.yaml:") for r in clicked["illegal"])


def test_a_game_with_a_person_is_seen_only_as_its_human_seats(client: Client) -> None:
    key = new_game(client, "yellow-yangtze", ["human", "random"])
    for seat in ("2", "referee"):
        r = api(client, f"/api/game/{key}?seat={seat}")
        assert r.status_code == 400 and "human seats only" in r.json["error"]
    r = api(client, f"/api/game/{key}/move", {"seat": "2", "text": "end turn"})
    assert r.status_code == 400
    assert api(client, f"/api/game/{key}/log").status_code == 403  # the log holds every hand
    data = api(client, f"/api/game/{key}?seat=1").json
    session = next(iter(client.application.sessions.games.values()))  # type: ignore[attr-defined]
    assert data["svg"] == render_svg(session.state, 0, data["spots"])  # P1's observation, nothing more
    assert data["svg"].count('class="hand" data-field="rack"') == 1  # P1's own screen drawn, not P2's


def test_a_game_of_agents_is_watched_from_any_seat_and_the_referee(client: Client) -> None:
    key = new_game(client, "china-schacht", ["random", "random", "random"])
    for _ in range(5):
        data = api(client, f"/api/game/{key}/agent", {"seat": "referee"}).json
    assert len(data["history"]) == 5 and data["seat"] == "referee" and data["moves"] == []
    assert api(client, f"/api/game/{key}?seat=3").json["seat"] == 3
    while not data["terminal"]:
        data = api(client, f"/api/game/{key}/agent", {"seat": "1"}).json
    assert data["winners"]
    log = api(client, f"/api/game/{key}/log")
    assert log.status_code == 200
    lines = log.text.splitlines()
    assert json.loads(lines[0])["ruleset"] == "china-schacht" and "final" in json.loads(lines[-1])


def test_a_game_s_log_replays(tmp_path: Path) -> None:
    session = PlaySession.start(rulewright.load("china-cornett"), 2, 3, ["random", "random"])
    while session.step_agent() is not None:
        pass
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(session.log_lines()) + "\n")
    result = CliRunner().invoke(cli, ["replay", str(log)])
    assert result.exit_code == 0 and "identical" in result.output


def test_seats_and_agents_are_checked(client: Client) -> None:
    r = client.post("/new", data={"ruleset": "china-cornett", "players": "2", "seed": "1", "seat1": "human",
                                  "seat2": "nosuchagent"})
    assert r.status_code == 400 and "no agent kind `nosuchagent`" in r.text
    assert client.get("/new?ruleset=../../etc/passwd").status_code == 404  # a request names no file
    assert client.get("/game/nothing").status_code == 404
    with pytest.raises(ViewError, match="the seats are 1 to 2"):
        parse_seat("3", 2)
    assert parse_seat("referee", 2) is None and parse_seat("2", 2) == 1


def test_posts_are_json_only(client: Client) -> None:
    key = new_game(client, "china-cornett", ["human", "random"])
    r = client.post(f"/api/game/{key}/move", data={"seat": "1", "text": "turn back"})
    assert r.status_code == 400 and "JSON" in r.json["error"]


def test_a_log_is_replayed_step_by_step_for_any_seat(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert CliRunner().invoke(cli, ["simulate", "yellow-yangtze", "-n", "1", "--seed", "2", "--log", str(log),
                                    "--max-moves", "40"]).exit_code == 0
    app, start = make_app(str(log))
    assert start.startswith("/replay/")
    c = PageClient(app)
    page = c.get(start)
    assert page.status_code == 200 and '"mode": "replay"' in page.text
    key = start.removeprefix("/replay/")
    replay = load_replay(log)
    for move in (0, 3, len(replay.states) - 1):
        for seat, viewer in (("1", 0), ("2", 1), ("referee", None)):
            data = c.get(f"/api/replay/{key}?move={move}&seat={seat}").json
            state = replay.states[move]
            last = action_spots(state, [replay.moves[move - 1][1]]) if move else {}
            assert data["svg"] == render_svg(state, viewer, last=last)  # the spots of the move just played marked
            assert data["moves"] == []
    assert any('class="spot last"' in c.get(f"/api/replay/{key}?move={m}&seat=1").json["svg"]
               for m in range(1, len(replay.states)))
    assert c.get(f"/api/replay/{key}?move={len(replay.states)}").status_code == 400


def test_a_replay_shows_each_seat_its_own_texts_until_the_game_is_over(tmp_path: Path) -> None:
    """tests/games/hidden-plays.yaml lays cards face down (the others read `lay a card in row 2`
    until the row is turned) and names trumps secretly (the others read `trump`): a log of a game
    not over shows each seat the others' moves so, as the last position replayed shows them; the
    referee reads the log's texts, and so does everyone once the game is over. The page itself
    holds no move's text."""
    hidden = ROOT / "tests" / "games" / "hidden-plays.yaml"
    for over in (False, True):
        log = tmp_path / f"game-{over}.jsonl"
        cap = [] if over else ["--max-moves", "7"]
        assert CliRunner().invoke(cli, ["simulate", str(hidden), "-n", "1", "--seed", "3", "--log", str(log), *cap]
                                  ).exit_code == 0
        replay = load_replay(log)
        assert replay.states[-1].is_terminal() == over
        turned = replay.states[-1].turned
        app, start = make_app(str(log))
        c = PageClient(app)
        page = c.get(start).text
        key = start.removeprefix("/replay/")
        whole = [f"P{p + 1} {text}" for p, text in replay.moves]
        hidden_somewhere = False
        for move in (0, len(replay.states) - 1):  # (the texts as the last position shows them, at every step)
            assert c.get(f"/api/replay/{key}?move={move}&seat=referee").json["history"] == whole
            for seat in (0, 1):
                seen = c.get(f"/api/replay/{key}?move={move}&seat={seat + 1}").json["history"]
                for (p, text), shown in zip(replay.moves, seen, strict=True):
                    lay = re.fullmatch(r"lay \w+ in row (\d)", text)
                    if over or p == seat or (lay and int(lay.group(1)) in turned) or not text.startswith(
                            ("lay", "trump")):
                        assert shown == f"P{p + 1} {text}"
                    else:
                        assert shown == f"P{p + 1} " + (f"lay a card in row {lay.group(1)}" if lay else "trump")
                        hidden_somewhere = True
                        assert text not in page
        assert hidden_somewhere != over


def test_a_cut_log_replays_up_to_where_it_stops(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert CliRunner().invoke(cli, ["simulate", "china-cornett", "-n", "1", "--seed", "2", "--log", str(log)]
                              ).exit_code == 0
    lines = log.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:6]) + "\n")
    replay = load_replay(cut)
    assert len(replay.states) == 6 and replay.problem is not None and "truncated" in replay.problem


def test_scenarios_show_each_step_and_expected_against_actual() -> None:
    app, start = make_app(str(SCENARIOS))
    assert start.startswith("/scenario/")
    c = PageClient(app)
    page = c.get(start)
    assert page.status_code == 200 and "turning-back-creates-new-alignments" in page.text
    cfg = json.loads(page.text.split('id="cfg">')[1].split("</script>")[0])
    names = [s["name"] for s in cfg["scenarios"]]
    k = names.index("turning-back-creates-new-alignments")
    scenario = cfg["scenarios"][k]
    assert scenario["passed"] and scenario["checks"] and all(ch["ok"] for ch in scenario["checks"])
    assert all({"what", "expected", "actual"} <= set(ch) for ch in scenario["checks"])
    key = start.removeprefix("/scenario/")
    before = c.get(f"/api/scenario/{key}?k={k}&step=0&seat=referee").json
    after = c.get(f"/api/scenario/{key}?k={k}&step={len(scenario['steps'])}&seat=1").json
    assert before["svg"] != after["svg"] and after["step"] == len(scenario["steps"])


def test_serve_names_a_rule_set_or_refuses_in_one_line(tmp_path: Path) -> None:
    app, start = make_app("mandarin/money")
    assert start == "/new?ruleset=mandarin/money"
    result = CliRunner().invoke(cli, ["serve", "no-such-game"])
    assert result.exit_code == 1 and "unknown rule set" in result.output and "Traceback" not in result.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\n")
    result = CliRunner().invoke(cli, ["serve", str(bad)])
    assert result.exit_code == 1 and "header" in result.output


def test_the_server_listens_on_localhost_and_answers_only_its_own_name() -> None:
    app, _ = make_app(None)
    server = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert server.server_address[0] == "127.0.0.1"
        base = f"http://127.0.0.1:{server.server_port}"
        with urllib.request.urlopen(base + "/", timeout=10) as r:
            assert r.status == 200
        # a page of another site whose name was rebound to this machine: refused
        with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := s.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 403")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_log_or_a_scenario_file_is_opened_from_the_browser(client: Client, tmp_path: Path) -> None:
    import io

    log = tmp_path / "game.jsonl"
    assert CliRunner().invoke(cli, ["simulate", "mandarin", "-n", "1", "--seed", "2", "--log", str(log)]).exit_code == 0
    r = client.post("/open", data={"file": (io.BytesIO(log.read_bytes()), "my game.jsonl")})
    assert r.status_code == 303 and r.headers["Location"].startswith("/replay/")
    assert "my game.jsonl" in client.get("/").text
    text = SCENARIOS.read_text()
    r = client.post("/open", data={"file": (io.BytesIO(text.encode()), "rulebook.yaml")})
    assert r.status_code == 303 and r.headers["Location"].startswith("/scenario/")
    page = client.get(r.headers["Location"]).text
    assert "rulebook.yaml:" in page and "rulewright-open-" not in page
    # a log naming a Python module, or no log at all: refused in one line, nothing imported
    bad = b'{"ruleset": "evil.py", "players": 2, "seed": 1}\n{"player": 0, "action": "x"}\n'
    r = client.post("/open", data={"file": (io.BytesIO(bad), "evil.jsonl")})
    assert r.status_code == 400 and "bundled id" in r.text and "rulewright-open-" not in r.text
    assert client.post("/open", data={}).status_code == 400


def test_serve_a_rule_file_plays_it() -> None:
    rule_file = str(ROOT / "tests" / "games" / "ring-race.yaml")
    app, start = make_app(rule_file)
    assert start.startswith("/new?ruleset=") and start.endswith("ring-race.yaml")
    c = PageClient(app)
    assert c.get(start).status_code == 200
    key = new_game(c, rule_file, ["human", "random"])
    data = api(c, f"/api/game/{key}?seat=1").json
    assert data["ruleset"].startswith("ring-race") and data["moves"]


def test_a_grid_is_played_on_the_web_board_by_clicking_its_square_cells() -> None:
    rule_file = str(ROOT / "tests" / "games" / "grid-drop.yaml")
    app, _ = make_app(rule_file)
    c = PageClient(app)
    key = new_game(c, rule_file, ["human", "random"])
    data = api(c, f"/api/game/{key}?seat=1").json
    # the bottom row (gravity), and d4 above the hole at d3
    assert data["moves"] == ["drop a1", "drop b1", "drop c1", "drop d1", "drop e1", "drop d4"]
    assert data["svg"].count('<rect class="cell"') == 19 and data["svg"].count('class="spot legal"') == 6
    clicked = api(c, f"/api/game/{key}/click", {"seat": "1", "spot": "c1"}).json
    assert clicked["moves"] == ["drop c1"]
    played = api(c, f"/api/game/{key}/move", {"seat": "1", "text": "drop c1"}).json
    assert played["history"] == ["P1 drop c1"]


def test_serve_on_a_port_in_use_says_so_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 1 and f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output


def test_a_game_is_started_with_the_rule_set_s_options(client: Client) -> None:
    page = client.get("/new?ruleset=china-cornett").text
    assert 'name="option.board"' in page and 'value="hex5"' in page
    r = client.post("/new", data={"ruleset": "china-cornett", "players": "2", "seed": "1", "seat1": "human",
                                  "seat2": "random", "option.board": "hex5"})
    assert r.status_code == 303
    session = client.application.sessions.games[r.headers["Location"].removeprefix("/game/")]  # type: ignore[attr-defined]
    assert session.state.options["board"] == "hex5" and len(session.state.board.labels) == 61
    r = client.post("/new", data={"ruleset": "china-cornett", "players": "2", "seed": "1", "seat1": "human",
                                  "seat2": "random", "option.board": "hex9"})
    assert r.status_code == 400 and "option `board` has no value `hex9`" in r.text


def test_a_rule_set_s_board_is_shown_at_the_start_with_its_options(client: Client) -> None:
    page = client.get("/board?ruleset=china-cornett&option.board=hex5")
    assert page.status_code == 200 and "referee (sees all)" in page.text
    assert page.text.count('class="spot"') == 61 and "<script" not in page.text.split('id="board"')[1]
    schacht = client.get("/board?ruleset=china-schacht/two-player&players=2").text
    assert "emperor" in schacht.lower()
    assert client.get("/board?ruleset=china-cornett&option.board=hex9").status_code == 400
    assert client.get("/board?ruleset=nothing").status_code == 404


def test_the_page_is_sent_the_prompt_and_the_look_words_of_moves() -> None:
    """The status bar's prompt and the move list's words (issue 39): the rule set's `look:`
    prompts and moves (tests/look/tiny.yaml), the same to the seat to act and to the other seat
    (a phase of one action: its words depend on nothing hidden); the spots each move names."""
    rules = ROOT / "tests" / "look" / "tiny.yaml"
    app, _ = make_app(str(rules))
    client = PageClient(app)
    key = new_game(client, str(rules), ["human", "human"], seed=1)
    mine = api(client, f"/api/game/{key}?seat=1").json
    other = api(client, f"/api/game/{key}?seat=2").json
    assert mine["prompt"] == other["prompt"] == "Take one of the 7 free spots (0 taken)"
    assert other["moves"] == [] and other["labels"] == {}
    assert mine["moves"][0] == "take A1" and mine["labels"]["0"] == "take a spot A1"
    assert {s: [mine["moves"][k] for k in ks] for s, ks in mine["spot_moves"].items()} == {
        m.split()[1]: [m] for m in mine["moves"]}
    played = api(client, f"/api/game/{key}/move", {"seat": "1", "text": "take B2"}).json
    assert played["history"] == ["P1 take a crowded spot B2"]  # (the words read where it was legal)
    assert api(client, f"/api/game/{key}?seat=2").json["history"] == ["P1 take a crowded spot B2"]
    session = app.sessions.game(key)
    assert session is not None
    replay = Replay(session.game, [session.game.new_state(2, 1), session.state.clone()], session.history, None)
    assert replay.history_for(1) == replay.history_for(None) == ["take a crowded spot B2"]


def test_a_component_is_named_by_what_it_is_not_by_its_id() -> None:
    """Where the look gives no words for a move naming a component (Mandarin's `take tile22`),
    the page names it by its public attributes (GameInfo.attributes), as its drawing's tooltip."""
    from rulewright.viewer import things_described, without_ids

    state = rulewright.load("mandarin").new_state(seed=1)
    attributes = state.game.info.attributes["tile"]
    described = things_described(state)
    k = next(k for k, flag in enumerate(attributes["emperor"]) if flag)
    name = state.label("tile", k)
    assert described[name] == f"{attributes['animal'][k]} emperor tile"
    assert without_ids(f"P1 take {name} — {name}s", described) == f"P1 take {described[name]} — {name}s"
    assert without_ids("bid 300", described) == "bid 300" and without_ids("x", {}) == "x"


def test_another_seats_decision_is_worded_without_what_it_may_play() -> None:
    """The status bar's prompt: the seat to act reads the rule set's words for its decision (or
    the names of its actions); another seat only what cannot depend on what is legal for it (a
    phase of several actions, whose prompt State.prompt picks by what the seat may play: the
    phase's name)."""
    from rulewright.viewer import plain_prompt, prompt_for

    state = rulewright.load("yellow-yangtze").new_state(players=2, seed=1)
    assert len(state.PHASE_ACTIONS[state.phase]) > 1 and state.to_act() == 0
    assert prompt_for(state, 0, 0) == state.prompt(0) and state.prompt(0)
    assert prompt_for(state, 1, 0) == prompt_for(state, None, 0) == "phase turn"
    names = plain_prompt(state, 0, 0)
    assert names and names.split(", ")[0] == state.legal_actions(0)[0].name.replace("_", " ")
