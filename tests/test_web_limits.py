"""The web board under hostile requests (issue 33), against a real server on 127.0.0.1: every
request that changes something needs the server's token and no other site's Origin, numbers
are bounded before use (Unicode digits too), agents are bounded and search off the request path,
a body sent slowly is cut at its deadline, scenario stepping is linear, games not played are
dropped, a file sent from the browser names only bundled rule sets, and bad JSON is a 400.
In each case another game is still answered within a second (while the hostile request is under
way, where it lasts). Every wait is bounded by a socket timeout or a loop's count."""

from __future__ import annotations

import http.client
import json
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from click.testing import CliRunner

from rulewright.cli import cli
from rulewright.viewer import CHECKPOINT, Sessions, load_scenarios
from rulewright.web import TOKEN_HEADER, WebApp, make_app
from tests.helpers.web import served

Answer = tuple[int, bytes]


@contextmanager
def serving(sessions: Sessions | None = None, **settings: float) -> Iterator[WebApp]:
    """A real server on a free port of 127.0.0.1, in a thread; `settings` set on the app."""
    app, _ = make_app(None)
    if sessions is not None:
        app.sessions = sessions
    for name, value in settings.items():
        setattr(app, name, value)
    with served(app):
        yield app


def call(app: WebApp, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
         timeout: float = 10.0) -> Answer:
    conn = http.client.HTTPConnection("127.0.0.1", app.port, timeout=timeout)  # type: ignore[attr-defined]
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def post_form(app: WebApp, path: str, form: dict[str, str], token: bool = True,
              headers: dict[str, str] | None = None) -> Answer:
    sent = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
    if token:
        sent[TOKEN_HEADER] = app.token
    return call(app, "POST", path, urlencode(form).encode(), sent)


def post_json(app: WebApp, path: str, body: Any, raw: bytes | None = None) -> Answer:
    data = raw if raw is not None else json.dumps(body).encode()
    return call(app, "POST", path, data, {"Content-Type": "application/json", TOKEN_HEADER: app.token})


def multipart(app: WebApp, name: str, content: bytes, token: str | None) -> Answer:
    boundary = uuid.uuid4().hex
    parts = b""
    if token is not None:
        parts += (f'--{boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n{token}\r\n').encode()
    parts += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
              "Content-Type: application/octet-stream\r\n\r\n").encode() + content + b"\r\n"
    parts += f"--{boundary}--\r\n".encode()
    return call(app, "POST", "/open", parts, {"Content-Type": f"multipart/form-data; boundary={boundary}"})


def start_game(app: WebApp, ruleset: str, seats: list[str], **extra: str) -> str:
    form = {"ruleset": ruleset, "players": str(len(seats)), "seed": "3", "token": app.token,
            **{f"seat{k + 1}": s for k, s in enumerate(seats)}, **extra}
    status, body = post_form(app, "/new", form, token=False)  # (the token as the page's form sends it)
    assert status == 303, body[:300]
    found = [key for key, s in app.sessions.games.items() if s.seats == seats]
    assert found
    return found[-1]


def answers_within_a_second(app: WebApp, key: str) -> None:
    """Another game is answered, and within a second (the socket gives up at one)."""
    began = time.monotonic()
    status, body = call(app, "GET", f"/api/game/{key}?seat=1", timeout=1.0)
    spent = time.monotonic() - began
    assert status == 200 and json.loads(body)["seat"] == 1, body[:200]
    assert spent < 1.0, f"another game took {spent:.2f} s to answer"


def witness(app: WebApp) -> str:
    return start_game(app, "china-cornett", ["human", "random"])


def test_the_player_count_and_every_number_are_bounded_before_use() -> None:
    with serving() as app:
        other = witness(app)
        games = len(app.sessions.games)
        base = {"ruleset": "china-cornett", "seat1": "human", "seat2": "random"}
        for players in ("99999999999", "0", "7", "²", "٣", "-2", "2.0", "", "9" * 5000):
            began = time.monotonic()
            status, body = post_form(app, "/new", {**base, "players": players, "seed": "1"})
            assert status == 400 and b"china-cornett is played by 2" in body, (players, body[:300])
            assert time.monotonic() - began < 1.0
        for seed in ("²", "-1", str(2**63), "1e9", "0x10"):
            status, body = post_form(app, "/new", {**base, "players": "2", "seed": seed})
            assert status == 400 and b"the seed must be a whole number from 0" in body, (seed, body[:300])
        for path in ("/new?ruleset=china-cornett&players=99999999999", "/new?ruleset=china-cornett&players=%C2%B2",
                     "/board?ruleset=china-cornett&players=%C2%B2", "/board?ruleset=china-cornett&players=40"):
            status, body = call(app, "GET", path)
            assert status == 400 and b"is played by" in body, (path, body[:300])
        for seat in ("²", "99999999999999999999999", "0"):
            status, body = call(app, "GET", f"/api/game/{other}?seat={seat}".replace("²", "%C2%B2"))
            assert status == 400 and b"the seats are 1 to 2" in body, (seat, body)
            status, body = post_json(app, f"/api/game/{other}/move", {"seat": seat, "text": "x"})
            assert status == 400 and b"the seats are 1 to 2" in body
        assert len(app.sessions.games) == games
        answers_within_a_second(app, other)


def test_replay_moves_and_scenario_steps_are_bounded(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert CliRunner().invoke(cli, ["simulate", "china-cornett", "-n", "1", "--seed", "2", "--log", str(log),
                                    "--max-moves", "10"]).exit_code == 0
    scenarios = Path(__file__).resolve().parent / "scenarios" / "china-cornett" / "rulebook.yaml"
    with serving() as app:
        other = witness(app)
        for source, path, fields in ((log, "/api/replay", ("move",)), (scenarios, "/api/scenario", ("k", "step"))):
            status, body = multipart(app, source.name, source.read_bytes(), app.token)
            assert status == 303, body[:300]
            key = next(reversed(app.sessions.opened))
            for name in fields:
                for value in ("%C2%B2", "99999999999999999999999", "-1", "1e3", "%D9%A3"):
                    status, body = call(app, "GET", f"{path}/{key}?{name}={value}&seat=referee")
                    assert status == 400 and b"must be a whole number from 0" in body, (name, value, body)
            assert call(app, "GET", f"{path}/{key}?seat=referee")[0] == 200
        answers_within_a_second(app, other)


def test_a_request_of_another_site_changes_nothing() -> None:
    with serving() as app:
        other = witness(app)
        games = len(app.sessions.games)
        form = {"ruleset": "china-cornett", "players": "2", "seed": "1", "seat1": "mcts:iterations=4000",
                "seat2": "mcts:iterations=4000"}
        # a form of another page: no token (it cannot read ours), its Origin, Sec-Fetch-Site
        for headers, token in (({}, False), ({"Origin": "http://evil.example"}, True),
                               ({"Origin": "null"}, True), ({"Sec-Fetch-Site": "cross-site"}, True),
                               ({"Sec-Fetch-Site": "same-site"}, True), ({TOKEN_HEADER: "guessed"}, False)):
            status, body = post_form(app, "/new", form, token=token, headers=headers)
            assert status == 403, (headers, body[:200])
        status, body = multipart(app, "game.jsonl", b'{"ruleset": "china-cornett"}\n', token=None)
        assert status == 403 and b"token" in body
        status, _ = multipart(app, "game.jsonl", b'{"ruleset": "china-cornett"}\n', token="guessed")
        assert status == 403
        status, body = call(app, "POST", f"/api/game/{other}/move", b'{"seat": "1", "text": "x"}',
                            {"Content-Type": "application/json"})
        assert status == 403
        assert len(app.sessions.games) == games and not app.sessions.opened
        # the board's own page (same origin, its token): accepted
        own = f"http://127.0.0.1:{app.port}"  # type: ignore[attr-defined]
        status, _ = post_form(app, "/new", {**form, "seat1": "human", "seat2": "random"},
                              headers={"Origin": own, "Sec-Fetch-Site": "same-origin"})
        assert status == 303
        page = call(app, "GET", f"/game/{other}")[1].decode()
        assert app.token in page and app.token in call(app, "GET", "/")[1].decode()
        answers_within_a_second(app, other)


def test_agents_are_bounded_and_search_off_the_request_path() -> None:
    with serving(agent_seconds=1.0) as app:
        other = witness(app)
        form = {"ruleset": "china-cornett", "players": "2", "seed": "1", "seat1": "human"}
        for spec, said in (("mcts:iterations=1000000000", b"at most 5,000"),
                           ("ismcts:iterations=5001", b"at most 5,000"),
                           ("mcts:rollout_moves=99999999", b"at most 10,000"),
                           ("mcts:iterations=\u00b2", b"must be an int")):
            status, body = post_form(app, "/new", {**form, "seat2": spec})
            assert status == 400 and said in body, (spec, body[:400])
        # two games of slow agents (the most iterations allowed): both workers busy, a move each
        slow = [start_game(app, "china-cornett", ["ismcts:iterations=5000", "mcts:iterations=5000"])
                for _ in range(2)]
        began = time.monotonic()
        for key in slow:
            status, body = post_json(app, f"/api/game/{key}/agent", {"seat": "1"})
            assert status == 200 and json.loads(body)["thinking"], body[:200]
        assert time.monotonic() - began < 2.5  # each answered after AGENT_WAIT, not after the search
        for _ in range(3):  # while they search, another game answers
            answers_within_a_second(app, other)
            status, body = call(app, "GET", f"/api/game/{slow[0]}?seat=referee", timeout=1.0)
            assert status == 200  # and the searching game itself is seen
        played = []
        for _ in range(60):  # the searches stop at agent_seconds (1 s): a move each, well before 5,000 iterations
            played = [len(json.loads(call(app, "GET", f"/api/game/{key}?seat=referee")[1])["history"])
                      for key in slow]
            if all(played):
                break
            time.sleep(0.1)
        assert played == [1, 1] and time.monotonic() - began < 5.0, played


def test_a_body_sent_slowly_is_cut_at_its_deadline_and_holds_nothing() -> None:
    with serving(body_seconds=1.0) as app:
        other = witness(app)
        head = (f"POST /api/game/{other}/move HTTP/1.1\r\nHost: 127.0.0.1:{app.port}\r\n"  # type: ignore[attr-defined]
                f"Content-Type: application/json\r\n{TOKEN_HEADER}: {app.token}\r\nContent-Length: 1000\r\n\r\n")
        with socket.create_connection(("127.0.0.1", app.port), timeout=5) as slow:  # type: ignore[attr-defined]
            slow.sendall(head.encode())
            began = time.monotonic()
            answer = b""
            for k in range(40):  # one byte every 0.1 s: 4 s at most
                try:
                    slow.sendall(b"{" if k == 0 else b" ")
                except OSError:
                    break
                if k % 5 == 2:
                    answers_within_a_second(app, other)  # while the body trickles in
                slow.settimeout(0.1)
                try:
                    answer += slow.recv(4096)
                    if answer:
                        break
                except TimeoutError:
                    pass
            spent = time.monotonic() - began
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert spent < 2.0, f"cut after {spent:.2f} s"
        # too long a body, or one without a length: refused before it is read
        status, body = call(app, "POST", f"/api/game/{other}/move", b"x" * (1 << 17),
                            {"Content-Type": "application/json", TOKEN_HEADER: app.token})
        assert status == 413 and b"at most 65,536 bytes" in body
        with socket.create_connection(("127.0.0.1", app.port), timeout=5) as s:  # type: ignore[attr-defined]
            s.sendall((f"POST /api/game/{other}/move HTTP/1.1\r\nHost: 127.0.0.1:{app.port}\r\n"  # type: ignore[attr-defined]
                       f"Transfer-Encoding: chunked\r\n{TOKEN_HEADER}: {app.token}\r\n\r\n").encode())
            assert s.recv(4096).startswith(b"HTTP/1.1 411")
        answers_within_a_second(app, other)


def test_headers_sent_slowly_are_cut_at_their_deadline() -> None:
    with serving(header_seconds=1.0) as app:
        other = witness(app)
        head = f"GET /api/game/{other}?seat=1 HTTP/1.1\r\nHost: 127.0.0.1:{app.port}\r\nX-Slow: "  # type: ignore[attr-defined]
        with socket.create_connection(("127.0.0.1", app.port), timeout=5) as slow:  # type: ignore[attr-defined]
            slow.sendall(head.encode())
            began = time.monotonic()
            closed = False
            for k in range(40):  # a byte of a header every 0.1 s: 4 s at most
                try:
                    slow.sendall(b"a")
                    slow.settimeout(0.1)
                    closed = slow.recv(4096) == b""
                except TimeoutError:
                    pass
                except OSError:  # (reset)
                    closed = True
                if closed:
                    break
                if k % 5 == 2:
                    answers_within_a_second(app, other)  # while the headers trickle in
            spent = time.monotonic() - began
        assert closed and spent < 2.0, f"closed: {closed} after {spent:.2f} s"
        answers_within_a_second(app, other)


def test_nested_or_malformed_json_is_a_400() -> None:
    with serving() as app:
        other = witness(app)
        for raw, said in ((b"[" * 30000 + b"]" * 30000, b"nested too deeply"),
                          (b'{"a": ' * 6000 + b"1" + b"}" * 6000, b"nested too deeply"),
                          (b'{"seat": "1", "text": ', b"not JSON"), (b"\xff\xfe", b"not JSON"),
                          (b'{"seat": "1", "text": 1' + b"0" * 5000 + b"}", b"not JSON"),
                          (b'["seat"]', b"expected a JSON object")):
            for action in ("move", "click", "agent"):
                status, body = post_json(app, f"/api/game/{other}/{action}", None, raw=raw)
                assert status == 400 and said in body, (raw[:30], action, body[:200])
        answers_within_a_second(app, other)


def test_scenario_stepping_is_linear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a scenario of a whole game of Mandarin (about 900 moves), its steps the moves of a log
    log = tmp_path / "game.jsonl"
    assert CliRunner().invoke(cli, ["simulate", "mandarin", "-n", "1", "--seed", "2", "--log", str(log)]).exit_code == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    header, moves = lines[0], [line["action"] for line in lines[1:-1]]
    assert len(moves) > 500
    scenario = tmp_path / "long.yaml"
    scenario.write_text(
        f"ruleset: mandarin\nplayers: {header['players']}\nseed: {header['seed']}\nscenarios:\n  whole-game:\n"
        "    steps:\n" + "".join(f"      - {json.dumps(m)}\n" for m in moves) + "    expect: {terminal: true}\n")
    from rulewright.scenarios import running

    played = [0]
    real_play = running.play_steps_counted  # (what plays the steps, for the run and the stepping alike)

    def counted(s: Any, state: Any) -> tuple[str | None, int]:
        played[0] += len(s.steps)
        return real_play(s, state)

    monkeypatch.setattr(running, "play_steps_counted", counted)
    views = load_scenarios(scenario)
    assert views[0].passed and len(views[0].states) == len(moves) + 1
    # the run of its checks plays every step once, the stepping once more (quadratic: n^2 / 2)
    assert played[0] == 2 * len(moves), played[0]
    played[0] = 0
    last = views[0].states[len(moves)]
    assert last is not None and last.is_terminal() and played[0] < CHECKPOINT  # a step: from the state kept before it
    monkeypatch.undo()
    with serving() as app:
        other = witness(app)
        began = time.monotonic()
        status, body = multipart(app, scenario.name, scenario.read_bytes(), app.token)
        assert status == 303, body[:300]
        assert time.monotonic() - began < 5.0
        key = next(reversed(app.sessions.opened))
        for step in (len(moves), len(moves) // 2, 1):
            began = time.monotonic()
            status, body = call(app, "GET", f"/api/scenario/{key}?k=0&step={step}&seat=referee", timeout=1.0)
            assert status == 200 and json.loads(body)["step"] == step and time.monotonic() - began < 1.0
        answers_within_a_second(app, other)


def test_finished_and_idle_games_are_dropped() -> None:
    with serving(Sessions(max_games=3, max_opened=2, idle=60.0, finished=60.0)) as app:
        keys = [witness(app) for _ in range(5)]  # the oldest two go: three at most
        assert set(app.sessions.games) == set(keys[2:])
        assert call(app, "GET", f"/api/game/{keys[0]}?seat=1")[0] == 404
        answers_within_a_second(app, keys[2])  # asked for: keys[3] is now the longest untouched
        finished = start_game(app, "china-cornett", ["random", "random"])
        assert set(app.sessions.games) == {keys[2], keys[4], finished}
        session = app.sessions.games[finished]
        with session.lock:  # (played out here: a game of random agents ends in a few hundred moves)
            for _ in range(5000):
                if session.step_agent() is None:
                    break
        assert json.loads(call(app, "GET", f"/api/game/{finished}?seat=1")[1])["terminal"]
        fresh = witness(app)  # the finished game goes first, though asked for last
        assert set(app.sessions.games) == {keys[2], keys[4], fresh}
        for k in range(3):  # files opened from the browser: two at most
            status, _ = multipart(app, f"s{k}.yaml", (Path(__file__).resolve().parent / "scenarios" / "china-cornett"
                                                      / "rulebook.yaml").read_bytes(), app.token)
            assert status == 303
        assert len(app.sessions.opened) == 2 and len(app.sessions.scenarios) == 2
    with serving(Sessions(idle=0.3, finished=0.1)) as app:
        idle = witness(app)
        time.sleep(0.5)
        other = witness(app)  # any request drops what was not asked for in its time
        assert call(app, "GET", f"/api/game/{idle}?seat=1")[0] == 404
        answers_within_a_second(app, other)


def test_a_file_sent_from_the_browser_names_bundled_rule_sets_only(tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("top_secret_key: 1\n")
    relative = "../" * 12 + str(secret).lstrip("/")
    with serving() as app:
        other = witness(app)
        for named in (str(secret), relative, "secret.yaml", "evil.py", "china-cornett/../../x"):
            log = json.dumps({"ruleset": named, "players": 2, "seed": 1}) + '\n{"player": 0, "action": "x"}\n'
            status, body = multipart(app, "game.jsonl", log.encode(), app.token)
            assert status == 400 and b"bundled id only" in body, (named, body[:300])
            assert b"top_secret_key" not in body
            scenario = f"ruleset: {json.dumps(named)}\nscenarios:\n  one:\n    steps: []\n"
            status, body = multipart(app, "s.yaml", scenario.encode(), app.token)
            assert status == 400 and b"bundled id only" in body, (named, body[:300])
            assert b"top_secret_key" not in body
        assert not app.sessions.opened
        answers_within_a_second(app, other)


def test_no_request_field_gives_a_500(tmp_path: Path) -> None:
    """Every field of every request, given hostile values: an answer below 500 each time, in a
    few milliseconds (Werkzeug's test client: nothing here waits on the network)."""
    from werkzeug.test import Client

    log = tmp_path / "game.jsonl"
    assert CliRunner().invoke(cli, ["simulate", "china-cornett", "-n", "1", "--seed", "2", "--log", str(log),
                                    "--max-moves", "6"]).exit_code == 0
    app, start = make_app(str(log))
    replay = start.removeprefix("/replay/")
    scenarios = load_scenarios(Path(__file__).resolve().parent / "scenarios" / "china-cornett" / "rulebook.yaml")
    scenario = app.sessions.add_scenarios("rulebook.yaml", scenarios)
    client = Client(app)
    token = {TOKEN_HEADER: app.token}
    status = client.post("/new", data={"ruleset": "china-cornett", "players": "2", "seat1": "human",
                                       "seat2": "random", "token": app.token}).status_code
    assert status == 303
    game = next(iter(app.sessions.games))
    values = ["²", "٣", "", "-1", "9" * 30, "9" * 5000, "1.5", "\x00", "%ff", "referee", "1 ", "\u202e1", "0x1"]
    asked = 0
    for value in values:
        for path, names in (("/new", ("ruleset", "players")), ("/board", ("ruleset", "players", "option.board")),
                            (f"/api/game/{game}", ("seat",)), (f"/api/replay/{replay}", ("move", "seat")),
                            (f"/api/scenario/{scenario}", ("k", "step", "seat"))):
            for name in names:
                query = {"ruleset": "china-cornett", name: value}
                assert client.get(path, query_string=query).status_code < 500, (path, name, value)
                asked += 1
        form = {"ruleset": "china-cornett", "players": "2", "seed": "1", "seat1": "human", "seat2": "random"}
        for name in (*form, "option.board", "seat3"):
            status = client.post("/new", data={**form, name: value}, headers=token).status_code
            assert status in (303, 400, 404), (name, value, status)  # (404: no such rule set)
            asked += 1
        for action in ("move", "click", "agent"):
            for body in ({"seat": value, "text": value, "spot": value}, {"seat": "1", "text": value, "spot": value},
                         {"seat": [value], "text": {"a": value}}, {"seat": 1e308, "text": None},
                         {"seat": "1", "text": "x", "version": value}, {"seat": "1", "text": "x", "version": 1e308},
                         {"seat": "1", "text": "x", "version": [0]}, {"seat": "1", "text": "x", "version": -(10**30)}):
                status = client.post(f"/api/game/{game}/{action}", json=body, headers=token).status_code
                assert status < 500, (action, body, status)
                asked += 1
        for path in (f"/api/game/{value}", f"/api/game/{value}/events", f"/api/game/{value}/finished",
                     f"/game/{value}", f"/game/{value}/replay", f"/api/game/{game}/finished",
                     f"/game/{game}/replay"):
            status = client.get(path.replace("%", "%25")).status_code
            assert status in (308, 403, 404), (path, value, status)  # (308: an empty part of the path, `//`)
            asked += 1
    assert asked > 300
