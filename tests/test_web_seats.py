"""Playing together over a network (issue 39, docs/web.md "Playing together"): a secret link per
seat, each seeing and moving for its own seat only, a spectator's link seeing what every seat sees
alike; live pages told each move (server-sent events: the version only), bounded; a move made on
a board the game has left refused with the moves it missed; games saved as they go and resumed
when the server starts again, a bad saved file reported and skipped; a finished game's log,
replay and `compare` command. Through Werkzeug's test client, and a real server on 127.0.0.1 for
the streams. Two browsers at one game: tests/test_web_browser_seats.py."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from werkzeug.test import Client, TestResponse

import rulewright
from rulewright.cli import cli
from rulewright.replay import replay_log
from rulewright.runtime.state import HIDDEN
from rulewright.viewer import public_svg, public_view
from rulewright.web import TOKEN_HEADER, WebApp, make_app
from tests.helpers.hidden import perturbations
from tests.helpers.web import PageClient, api, served


def links_game(client: Client, ruleset: str, seats: list[str], seed: int = 5,
               base: str = "http://localhost") -> dict[str, str]:
    """Start a game played by links: the host page's links, by role (`1`, `2`, ..., `spectator`, `host`)."""
    form = {"ruleset": ruleset, "players": str(len(seats)), "seed": str(seed), "links": "on"}
    form.update({f"seat{k + 1}": s for k, s in enumerate(seats)})
    r = client.post("/new", data=form, base_url=base)
    assert r.status_code == 303, r.text
    host = r.headers["Location"].removeprefix("/game/")
    page = client.get(f"/game/{host}", base_url=base).text
    links = {"host": host}
    for seat, token in re.findall(r"<td>P(\d)[^<]*</td><td><a class=\"seat-link\" href=\"[^\"]*/game/([\w-]+)\"", page):
        links[seat] = token
    links["spectator"] = re.findall(r'id="spectator-link" href="[^"]*/game/([\w-]+)"', page)[0]
    return links


def view(client: Client, token: str, seat: str | None = None) -> TestResponse:
    return client.get(f"/api/game/{token}" + (f"?seat={seat}" if seat else ""))


def move(client: Client, token: str, seat: str, text: str, version: int) -> TestResponse:
    return client.post(f"/api/game/{token}/move", json={"seat": seat, "text": text, "version": version})


@pytest.fixture()
def client() -> Client:
    app, _ = make_app(None)
    return PageClient(app)


def test_each_link_sees_its_own_seat_and_moves_for_it_only(client: Client) -> None:
    links = links_game(client, "yellow-yangtze", ["human", "human"])
    assert set(links) == {"1", "2", "spectator", "host"} and len(set(links.values())) == 4
    assert all(len(t) >= 32 for t in links.values())  # secrets.token_urlsafe(24)
    host = client.get(f"/game/{links['host']}").text
    assert "<svg" not in host and "rack" not in host  # the host's page shows no board: it is no seat
    session = next(iter(client.application.sessions.games.values()))  # type: ignore[attr-defined]
    racks = session.state.rack
    for seat in ("1", "2"):
        page = client.get(f"/game/{links[seat]}").text
        cfg = json.loads(re.search(r'id="cfg">(.*?)</script>', page, re.S)[1])  # type: ignore[index]
        assert cfg["viewable"] == [int(seat)] and cfg["key"] == links[seat]
        data = view(client, links[seat]).json
        assert data["seat"] == int(seat)
        mine, theirs = racks[int(seat) - 1], racks[2 - int(seat)]
        assert data["svg"] == rulewright.draw.render_svg(session.state, int(seat) - 1, data["spots"],
                                                         last=())  # its observation, nothing more
        assert mine != theirs
    # a link asks for another seat's view, or moves for it: refused by the server, whatever the page says
    for seat, other in (("1", "2"), ("2", "1")):
        r = view(client, links[seat], other)
        assert r.status_code == 403 and f"this link is P{seat}'s" in r.json["error"]
        r = move(client, links[seat], other, "anything", 0)
        assert r.status_code == 403
        r = client.post(f"/api/game/{links[seat]}/click", json={"seat": other, "spot": "A1"})
        assert r.status_code == 403
    for role in ("spectator", "host"):
        assert move(client, links[role], "1", "anything", 0).status_code == 403
        assert view(client, links[role], "1").status_code == 403
        assert view(client, links[role], "referee").status_code == 403
    # the game's own id is never a way in to a game played by links; a guessed token neither
    key = next(iter(client.application.sessions.games))  # type: ignore[attr-defined]
    assert view(client, key, "1").status_code == 404 and client.get(f"/game/{key}").status_code == 404
    for guess in ("A" * 32, links["1"][:-1] + ("A" if links["1"][-1] != "A" else "B"), "", "..%2F..%2Fetc"):
        assert view(client, guess, "1").status_code == 404, guess


def agrees(public: Any, seen: Any) -> bool:
    """Whether what a spectator sees is what a seat sees, or hidden, item by item."""
    if public is None or public == HIDDEN:
        return True
    if isinstance(public, list):
        return isinstance(seen, list) and len(seen) == len(public) and all(map(agrees, public, seen))
    if isinstance(public, dict):
        return isinstance(seen, dict) and seen.keys() == public.keys() and all(agrees(public[k], seen[k])
                                                                                 for k in public)
    return bool(public == seen)


def test_a_spectator_sees_only_what_every_seat_sees(client: Client) -> None:
    links = links_game(client, "yellow-yangtze", ["human", "human"])
    session = next(iter(client.application.sessions.games.values()))  # type: ignore[attr-defined]
    data = view(client, links["spectator"]).json
    assert data["seat"] == "spectator" and data["moves"] == [] and "seen by a spectator" in data["svg"]
    assert data["svg"] == public_svg(session.state)  # (what it holds: the perturbation tests below)
    public = public_view(session.state)
    assert public["fields"]["rack"] == [None, None]
    for p in range(2):  # everything the spectator sees, each seat sees the same way
        seen = session.state.observation(p)["fields"]
        for name, value in public["fields"].items():
            assert agrees(value, seen[name]), name
    assert data["history"] == []
    # another game: a link of one game reaches that game only
    other = links_game(client, "china-cornett", ["human", "human"])
    assert view(client, other["1"]).json["ruleset"] == "china-cornett"
    assert view(client, links["1"]).json["ruleset"] == "yellow-yangtze"


@pytest.mark.parametrize("ruleset", ["mandarin", "yellow-yangtze"])
def test_a_spectator_s_drawing_never_shows_what_any_seat_may_not_see(ruleset: str) -> None:
    """Changing anything one seat may not see (tests/helpers/hidden.py's perturbations) leaves the
    spectator's drawing byte for byte as it was; a change every seat sees shows (the test's teeth)."""
    spectator_sees_nothing_hidden(ruleset)


def test_a_spectator_s_drawing_never_shows_chang_cheng_s_face_down_cards() -> None:
    """As above, for Chang Cheng's cards laid face down (seconds: `slow`)."""
    spectator_sees_nothing_hidden("chang-cheng")


def spectator_sees_nothing_hidden(ruleset: str) -> None:
    state = rulewright.load(ruleset).new_state(seed=4)
    chance = random.Random(9)
    for _ in range(30):
        if not state.is_terminal():
            state.apply(chance.choice(state.legal_actions()))
    before = public_svg(state)
    hidden = seen = 0
    for seat in range(state.num_players):
        for what, changed, sees in perturbations(state, seat):
            if sees:
                if seat == 0 and all(changed.observation(p) != state.observation(p) for p in range(state.num_players)):
                    seen += public_svg(changed) != before
                continue
            assert public_svg(changed) == before, f"{ruleset}: the spectator's drawing shows {what}"
            hidden += 1
    assert hidden > 0 and seen > 0


def test_a_move_on_a_board_the_game_has_left_is_refused_with_the_moves_it_missed(client: Client) -> None:
    links = links_game(client, "china-cornett", ["human", "human"])
    first = view(client, links["1"]).json
    assert first["version"] == 0
    played = move(client, links["1"], "1", first["moves"][0], 0)
    assert played.status_code == 200 and played.json["version"] == 1
    stale_tab = move(client, links["1"], "1", first["moves"][1], 0)  # P1's second tab, which saw move 0
    assert stale_tab.status_code == 409 and stale_tab.json["stale"] and stale_tab.json["version"] == 1
    why = stale_tab.json["illegal"]["why"]
    assert why == f"the game moved on: P1 played {first['moves'][0]}; look again", why
    second = view(client, links["2"]).json
    assert second["to_act"] == 2 and second["version"] == 1
    assert move(client, links["2"], "2", second["moves"][0], 1).status_code == 200
    late = move(client, links["1"], "1", "x", 1)
    assert late.status_code == 409 and f"P2 played {second['moves'][0]}" in late.json["illegal"]["why"]
    for version in (None, "1", -1, 10**12, 1.5, True):
        r = move(client, links["1"], "1", "x", version)  # type: ignore[arg-type]
        assert r.status_code == 400 and "version" in r.json["error"], version
    ahead = move(client, links["1"], "1", "x", 7)
    assert ahead.status_code == 409 and "at move 2, not 7" in ahead.json["illegal"]["why"]


def test_a_hidden_move_is_named_to_the_stale_page_as_its_seat_reads_it(client: Client) -> None:
    """The reason a stale move is refused lists the moves it missed as that seat reads them: a
    card laid face down is `card in ...` to the others (`others_text:`), never its face."""
    links = links_game(client, "chang-cheng/two-player", ["human", "human"])
    session = next(iter(client.application.sessions.games.values()))  # type: ignore[attr-defined]
    for _ in range(40):
        to_act, version = session.state.to_act(), session.version
        text = str(session.state.legal_actions(to_act)[0])
        with session.lock:  # (played on the session: the views through links are tested above)
            assert session.play(to_act, text) is None
        other = str(2 - to_act)
        refused = move(client, links[other], other, "x", version).json["illegal"]["why"]
        seen = session.history_for(int(other) - 1)[-1]
        assert refused.endswith(f"played {seen}; look again")
        if seen != text:  # a move the other seat reads hidden: the reason hides it as well
            assert text not in refused
            return
    pytest.skip("no hidden move in chang-cheng's first 40 moves with seed 5")


def first_events(response: TestResponse, count: int) -> list[str]:
    """The first `count` events of a stream, as `event: ...` and `data: ...` lines (comments too)."""
    found: list[str] = []
    chunks = response.response  # (the stream, unbuffered)
    for chunk in chunks:  # type: ignore[union-attr]
        found.append(chunk.decode() if isinstance(chunk, bytes) else str(chunk))
        if len(found) == count:
            break
    return found


def test_live_pages_are_told_the_version_only(client: Client) -> None:
    app = client.application
    assert isinstance(app, WebApp)
    links = links_game(client, "yellow-yangtze", ["human", "human"])
    stream = client.get(f"/api/game/{links['2']}/events", buffered=False)
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    events = iter(stream.response)  # type: ignore[call-overload]
    assert next(events) == b"retry: 2000\nevent: version\ndata: 0\n\n"
    data = view(client, links["1"]).json
    assert move(client, links["1"], "1", data["moves"][0], 0).status_code == 200
    told = next(events)
    assert told == b"event: version\ndata: 1\n\n"  # the version: no view, no move, nothing of a seat
    app.keepalive = 0.05
    assert next(events) == b": keep-alive\n\n"
    stream.close()
    assert app.streams == {}  # (its count given back)


def test_streams_are_bounded_and_end_when_the_game_is_dropped(client: Client) -> None:
    app = client.application
    assert isinstance(app, WebApp)
    app.max_game_streams, app.max_streams = 2, 3
    a = links_game(client, "china-cornett", ["human", "human"])
    b = links_game(client, "china-cornett", ["human", "human"])
    open_ = [client.get(f"/api/game/{a[seat]}/events", buffered=False) for seat in ("1", "2")]
    for s in open_:
        next(iter(s.response))  # type: ignore[call-overload]
    refused = client.get(f"/api/game/{a['spectator']}/events")
    assert refused.status_code == 503 and "2 live pages are open on this game" in refused.json["error"]
    third = client.get(f"/api/game/{b['1']}/events", buffered=False)
    next(iter(third.response))  # type: ignore[call-overload]
    refused = client.get(f"/api/game/{b['2']}/events")
    assert refused.status_code == 503 and "3 live pages are open on this server" in refused.json["error"]
    open_[0].close()
    again = client.get(f"/api/game/{b['2']}/events", buffered=False)
    assert again.status_code == 200
    events = iter(again.response)  # type: ignore[call-overload]
    next(events)
    app.sessions.idle = 0.0  # every game is dropped at the next request
    time.sleep(0.01)
    app.sessions.drop()
    assert next(events) == b"event: gone\ndata: the game was dropped\n\n"
    with pytest.raises(StopIteration):
        next(events)
    for s in (open_[1], third, again):
        s.close()
    assert app.streams == {}
    assert client.get(f"/api/game/{a['1']}/events").status_code == 404


def test_games_are_saved_as_they_go_and_resumed_with_their_links(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    app, _ = make_app(None, folder)
    client = PageClient(app)
    links = links_game(client, "china-cornett", ["human", "human"])
    key = next(iter(app.sessions.games))
    log, saved_links = folder / f"{key}.jsonl", folder / f"{key}.links.json"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(log.stat().st_mode) == 0o600 and stat.S_IMODE(saved_links.stat().st_mode) == 0o600
    played = []
    for k in range(4):
        seat = str(k % 2 + 1)
        data = view(client, links[seat]).json
        played.append(data["moves"][-1])
        assert move(client, links[seat], seat, played[-1], k).status_code == 200
        lines = log.read_text().splitlines()  # written as it goes: every move is in the file at once
        assert [json.loads(line)["action"] for line in lines[1:]] == played
    header = json.loads(log.read_text().splitlines()[0])
    assert header == {"ruleset": "china-cornett", "players": 2, "seed": 5, "options": header["options"],
                      "seats": ["human", "human"]}
    assert replay_log(log, need_final=False) == (4, False)  # as `replay` reads it
    before = view(client, links["1"]).json
    app.close()
    # the server starts again: the game is back, at the same move, with the same links
    again, _ = make_app(None, folder)
    assert again.problems == [] and list(again.sessions.games) == [key]
    client = PageClient(again)
    after = view(client, links["1"]).json
    assert after["version"] == 4 and after["history"] == before["history"] and after["svg"] == before["svg"]
    assert view(client, links["2"], "1").status_code == 403  # (each link still its own seat only)
    session = again.sessions.games[key]
    while not session.state.is_terminal():
        seat = str(session.state.to_act() + 1)
        data = view(client, links[seat]).json
        assert move(client, links[seat], seat, data["moves"][0], data["version"]).status_code == 200
    assert "final" in json.loads(log.read_text().splitlines()[-1])
    result = CliRunner().invoke(cli, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    again.close()
    third, _ = make_app(None, folder)  # a finished game is not resumed (its log stays, for `replay`)
    assert third.sessions.games == {} and third.problems == [] and log.exists()


def test_a_bad_saved_file_is_reported_and_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    app, _ = make_app(None, folder)
    client = PageClient(app)
    good = links_game(client, "china-cornett", ["human", "human"])
    app.close()
    header = {"ruleset": "china-cornett", "players": 2, "seed": 1, "options": {}, "seats": ["human", "human"]}
    bad = {
        "garbage": "not json at all\n",
        "badmove": json.dumps(header) + '\n{"player": 0, "action": "fly to the moon"}\n',
        "a-file-named": json.dumps({**header, "ruleset": "/etc/passwd.yaml"}) + "\n",
        "an-agent-too-strong": json.dumps({**header, "seats": ["human", "mcts:iterations=999999999"]}) + "\n",
        "badlinks": json.dumps(header) + "\n",
    }
    for name, text in bad.items():
        (folder / f"{name}0000.jsonl").write_text(text)
    (folder / "badlinks0000.links.json").write_text(
        '{"links": {"1": "short", "2": "x", "spectator": "y", "host": "z"}}')
    (folder / "a-fifo0000.jsonl").unlink(missing_ok=True)
    os.mkfifo(folder / "a-fifo0000.jsonl")
    again, _ = make_app(None, folder)
    problems = "\n".join(again.problems)
    assert len(again.problems) == 6, problems
    assert "Traceback" not in problems
    assert "garbage0000.jsonl:1: not a JSON line" in problems
    assert "badmove0000.jsonl:2:" in problems
    assert "`/etc/passwd.yaml` is not a rule set this server offers" in problems
    assert "`iterations` may be at most 5,000" in problems
    assert "badlinks0000.links.json: expected" in problems
    assert "a-fifo0000.jsonl" in problems
    assert view(PageClient(again), good["1"]).status_code == 200  # the good game is back all the same
    again.close()


def test_a_finished_game_offers_its_log_its_replay_and_a_compare_command(client: Client) -> None:
    links = links_game(client, "mandarin/money", ["human", "human"], seed=3)
    assert client.get(f"/api/game/{links['1']}/finished").status_code == 403
    assert client.get(f"/api/game/{links['1']}/log").status_code == 403
    session = next(iter(client.application.sessions.games.values()))  # type: ignore[attr-defined]
    chance = random.Random(3)
    for _ in range(5000):  # (played on the session: the moves through a link are tested above)
        if session.state.is_terminal():
            break
        seat = session.state.to_act()
        with session.lock:
            assert session.play(seat, str(chance.choice(session.state.legal_actions(seat)))) is None
    assert session.state.is_terminal()
    done = client.get(f"/api/game/{links['spectator']}/finished").json
    assert done["compare"] == "rulewright compare mandarin mandarin/money --players 2 -n 200"
    assert "against its base, mandarin" in done["compare_why"]
    log = client.get(done["log"])
    assert log.status_code == 200 and "final" in log.text.splitlines()[-1]
    replay = client.get(done["replay"])
    assert replay.status_code == 303 and replay.headers["Location"].startswith("/replay/")
    assert client.get(replay.headers["Location"]).status_code == 200


def test_the_compare_command_of_a_base_and_of_options() -> None:
    from rulewright.webcompare import compare_plan

    info = rulewright.load("china-schacht").info
    plan = compare_plan("china-schacht", info, 3, {}, ["china-schacht", "china-schacht/fortifications"])
    assert plan.command == "rulewright compare china-schacht china-schacht/fortifications --players 3 -n 200"
    assert (plan.a, plan.b, plan.players, plan.options_b) == ("china-schacht", "china-schacht/fortifications", 3, ())
    info = rulewright.load("china-cornett").info
    assert compare_plan("china-cornett", info, 2, {}, ["china-cornett"]).command == ""
    option = info.options[0] if info.options else None
    if option is not None:
        other = next(c for c in option.choices if c != option.default)
        plan = compare_plan("china-cornett", info, 2, {option.name: other}, ["china-cornett"])
        assert plan.command == f"rulewright compare china-cornett --players 2 --option-b {option.name}={other} -n 200"
        assert plan.options_b == (f"{option.name}={other}",)


def test_a_finished_game_plays_a_small_comparison_in_the_server(client: Client) -> None:
    """The finished game's page may ask the server to play the comparison itself, bounded (here 3
    pairs): a POST starts it, GETs say how far it is, then `compare`'s verdict lines; asked again,
    the same comparison is not played twice. Before the end, nothing is compared."""
    app = client.application
    assert isinstance(app, WebApp)
    app.compare_games = 3
    links = links_game(client, "mandarin/money", ["human", "human"], seed=3)
    url = f"/api/game/{links['1']}/compare"
    assert client.get(url).status_code == 403  # (the game is not over)
    session = next(iter(app.sessions.games.values()))
    chance = random.Random(3)
    for _ in range(5000):
        if session.state.is_terminal():
            break
        seat = session.state.to_act()
        with session.lock:
            assert session.play(seat, str(chance.choice(session.state.legal_actions(seat)))) is None
    assert client.get(url).json["state"] == "none"
    started = api(client, url, {}).json
    assert started["state"] in ("playing", "done") and started["of"] == 6
    for _ in range(600):
        shown = client.get(url).json
        if shown["state"] != "playing":
            break
        time.sleep(0.1)
    assert shown["state"] == "done", shown
    assert shown["lines"][0] == "A: mandarin; B: mandarin/money; 3 games each on the same seeds"
    assert any(line.startswith("win rate P1: ") for line in shown["lines"])
    assert shown["command"] == "rulewright compare mandarin mandarin/money --players 2 -n 200"
    assert api(client, url, {}).json["lines"] == shown["lines"] and len(app.compares) == 1  # played once


def test_a_new_game_is_played_by_links_by_default_when_other_machines_may_come_in(client: Client) -> None:
    app = client.application
    assert isinstance(app, WebApp)
    assert 'name="links" id="links">' in client.get("/new?ruleset=china-cornett").text  # loopback: one screen
    app.links_default = True
    assert 'name="links" id="links" checked>' in client.get("/new?ruleset=china-cornett").text
    r = client.post("/new", data={"ruleset": "china-cornett", "players": "2", "seat1": "random",
                                  "seat2": "random", "links": "on"})
    assert r.status_code == 303  # a game of agents only: no seat to hand out, watched as before
    key = r.headers["Location"].removeprefix("/game/")
    assert view(client, key, "referee").status_code == 200


# -- a real server ----------------------------------------------------------------------------------
@contextmanager
def serving(folder: Path | None = None) -> Iterator[WebApp]:
    app, _ = make_app(None, folder)
    with served(app):
        yield app


def request(app: WebApp, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", app.port, timeout=5)  # type: ignore[attr-defined]
    try:
        headers = {"Content-Type": "application/json", TOKEN_HEADER: app.token} if body is not None else {}
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        r = conn.getresponse()
        data = r.read()
        return r.status, json.loads(data) if r.getheader("Content-Type", "").startswith("application/json") else data
    finally:
        conn.close()


def start_links(app: WebApp, ruleset: str) -> dict[str, str]:
    """A game played by links on the real server: its links, read from its host page."""
    return links_game(PageClient(app), ruleset, ["human", "human"],
                      base=f"http://127.0.0.1:{app.port}")  # type: ignore[attr-defined]


def next_event(r: http.client.HTTPResponse) -> list[bytes]:
    """The lines of a stream's next event (its comments, the keep-alives, skipped)."""
    lines: list[bytes] = []
    while True:
        line = r.readline()
        if line == b"\n" and lines:
            return lines
        if line and not line.startswith(b":") and line != b"\n":
            lines.append(line)
        if not line:
            return lines


def test_a_real_server_streams_each_move_to_every_live_page_and_bounds_them() -> None:
    with serving() as app:
        app.max_game_streams, app.keepalive = 3, 0.1
        links = start_links(app, "china-cornett")
        streams = []
        for seat in ("1", "2", "spectator"):
            conn = http.client.HTTPConnection("127.0.0.1", app.port, timeout=5)  # type: ignore[attr-defined]
            conn.request("GET", f"/api/game/{links[seat]}/events")
            r = conn.getresponse()
            assert r.status == 200 and r.getheader("Content-Type") == "text/event-stream; charset=utf-8"
            assert next_event(r) == [b"retry: 2000\n", b"event: version\n", b"data: 0\n"]
            streams.append((conn, r))
        status, body = request(app, "GET", f"/api/game/{links['1']}/events")
        assert status == 503 and "3 live pages" in body["error"]
        other = start_links(app, "china-cornett")  # another game answers meanwhile, within a second
        began = time.monotonic()
        status, data = request(app, "GET", f"/api/game/{other['1']}")
        assert status == 200 and time.monotonic() - began < 1.0
        status, data = request(app, "GET", f"/api/game/{links['1']}")
        status, _ = request(app, "POST", f"/api/game/{links['1']}/move",
                            {"seat": "1", "text": data["moves"][0], "version": 0})
        assert status == 200
        # over the network too: a stale move is a 409 with its reason, another seat's move a 403
        status, body = request(app, "POST", f"/api/game/{links['1']}/move",
                               {"seat": "1", "text": data["moves"][1], "version": 0})
        assert status == 409 and body["illegal"]["why"].startswith("the game moved on: P1 played")
        status, body = request(app, "POST", f"/api/game/{links['1']}/move", {"seat": "2", "text": "x", "version": 1})
        assert status == 403 and "this link is P1's" in body["error"]
        status, body = request(app, "GET", f"/api/game/{links['spectator']}?seat=2")
        assert status == 403
        for conn, r in streams:  # every page is told at once
            assert next_event(r) == [b"event: version\n", b"data: 1\n"]
            r.close()  # (the page goes: its socket closed)
            conn.close()
        for _ in range(100):  # the closed streams are noticed at their next write (a keep-alive)
            if not app.streams:
                break
            time.sleep(0.05)
        assert app.streams == {}


def test_serve_s_games_folder_is_checked_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--no-save", "--games", str(tmp_path)])
    assert result.exit_code == 1 and "--games and --no-save cannot be given together" in result.output
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x")
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--games", str(a_file)])
    assert result.exit_code == 2 and "is a file" in result.output, result.output
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--games", str(a_file / "games")])
    assert result.exit_code == 1 and "cannot make the games folder" in result.output, result.output
    assert "Traceback" not in result.output


def test_serve_takes_up_a_saved_game_after_a_restart(tmp_path: Path) -> None:
    """`rulewright serve --games DIR` in a process of its own: the game saved by a server that
    stopped is taken up, its page printed, and its seat's link works on the new server."""
    import subprocess
    import sys

    folder = tmp_path / "games"
    app, _ = make_app(None, folder)
    links = links_game(PageClient(app), "china-cornett", ["human", "human"])
    data = view(PageClient(app), links["1"]).json
    assert move(PageClient(app), links["1"], "1", data["moves"][0], 0).status_code == 200
    app.close()
    server = subprocess.Popen([sys.executable, "-m", "rulewright", "serve", "--port", "0", "--games", str(folder)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(3)]
        assert lines[0].startswith(f"games saved in {folder}; 1 taken up again:"), lines
        assert "china-cornett, 1 move: http://127.0.0.1:" in lines[1] and lines[1].rstrip().endswith(links["host"])
        port = int(re.findall(r"127\.0\.0\.1:(\d+)/", lines[2])[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/api/game/{links['2']}")
        answer = json.loads(conn.getresponse().read())
        conn.close()
        assert answer["version"] == 1 and answer["to_act"] == 2 and answer["moves"]
    finally:
        server.terminate()  # (the process this test started, by its handle)
        server.communicate(timeout=10)


def test_the_games_taken_up_at_a_start_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulewright import savedgames

    folder = tmp_path / "games"
    app, _ = make_app(None, folder)
    for seed in (1, 2, 3):
        links_game(PageClient(app), "china-cornett", ["human", "human"], seed=seed)
    app.close()
    monkeypatch.setattr(savedgames, "MAX_RESUMED", 2)
    again, _ = make_app(None, folder)
    assert len(again.sessions.games) == 2 and len(again.problems) == 1
    assert "2 games are taken up at most" in again.problems[0]
    again.close()


def test_a_saved_game_dropped_for_idleness_comes_back_through_its_links(tmp_path: Path) -> None:
    app, _ = make_app(None, tmp_path / "games")
    client = PageClient(app)
    links = links_game(client, "china-cornett", ["human", "human"])
    table = client.post("/new", data={"ruleset": "china-cornett", "players": "2", "seat1": "human",
                                      "seat2": "human"}).headers["Location"].removeprefix("/game/")
    data = view(client, links["1"]).json
    assert move(client, links["1"], "1", data["moves"][0], 0).status_code == 200
    before = view(client, links["2"]).json
    app.sessions.idle = 0.0
    time.sleep(0.01)
    app.sessions.drop()
    assert app.sessions.games == {}
    app.sessions.idle = 3600.0
    after = view(client, links["2"]).json  # taken up again from its log
    assert after["history"] == before["history"] and after["version"] == 1
    assert view(client, links["1"], "2").status_code == 403  # (its links, each still its own seat)
    assert view(client, table, "1").status_code == 200
    assert view(client, "A" * 32, "1").status_code == 404
    second = view(client, links["2"]).json
    assert move(client, links["2"], "2", second["moves"][0], 1).status_code == 200  # and its log goes on
    key = next(k for k, s in app.sessions.games.items() if s.links)
    assert replay_log(tmp_path / "games" / f"{key}.jsonl", need_final=False) == (2, False)
    app.close()


def test_the_others_choices_in_a_decision_taken_at_once_leave_a_page_current() -> None:
    """In a simultaneous decision (docs/language.md) a seat chooses without seeing the others'
    choices: a page that drew the decision's start may still choose after another seat has; once
    the decision is over, it is stale as any other."""
    sumo = str(Path(__file__).resolve().parent / "games" / "sumo-bids.yaml")
    app, _ = make_app(sumo)
    client = PageClient(app)
    links = links_game(client, sumo, ["human", "human"], seed=3)
    assert view(client, links["1"]).json["choosing"] == [1, 2]
    assert move(client, links["2"], "2", "bid 4", 0).status_code == 200
    played = move(client, links["1"], "1", "bid 2", 0)  # its page drew version 0, before P2 chose: still current
    assert played.status_code == 200 and played.json["version"] == 2
    stale = move(client, links["2"], "2", "bid 1", 1)  # the next decision: P2's page drew the last one
    assert stale.status_code == 409 and "P1 played bid 2" in stale.json["illegal"]["why"]
