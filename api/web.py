"""The web board: a small WSGI application on Werkzeug (docs/web.md says why), pages made with
Jinja2 (autoescaped), one script of its own (webui/board.js), no other front-end library.

Pages: `/` lists the rule sets (and the log or scenario file `serve` was given); `/new` starts
a game with its seats human or agents; `/game/ID` plays it, `/replay/ID` steps a log, and
`/scenario/ID` steps a scenario file. The pages ask `/api/...` for what to draw: every answer
for a seat is made from that seat's observation (api/viewer.py `payload`), legal moves go only
to the seat whose turn it is, and a game with a person at it is seen only as its human seats.

Playing together (docs/web.md): a game may be played by a secret link per seat, `/game/TOKEN`;
every request through a link is checked against the game and seat the link names (Sessions.access),
never against what the page says. A game's pages follow it through `/api/game/TOKEN/events`
(server-sent events: its move count only, `EventStream`), and a move carries the move count its
page drew (else a 409). Games are saved as they go and taken up again (api/savedgames.py).

No request names a file: rule sets are bundled ids (or the rule file `serve` was given), logs
and scenarios those `serve` was given, read as the rest of the tool reads them (a file sent from
the browser names its rule set by bundled id only). The server binds 127.0.0.1 unless told
otherwise, and answers only requests addressed to the name it listens on (a page of another
site cannot reach it through a name it rebinds to this machine).

Under hostile requests (docs/web.md, "Limits"): a request that changes something (every POST)
must carry the server's token, which only its own pages hold, and must not come from another
site (Origin, Sec-Fetch-Site); its body is read whole, within BODY_SECONDS and MAX_BODY (or
MAX_UPLOAD) bytes, before anything else is done with it; every number is checked against its
range before use; agents search off the request path, in AGENT_WORKERS threads, each game under
its own lock; games not asked for are dropped (api/viewer.py `Sessions`).
"""

from __future__ import annotations

import hmac
import io
import json
import secrets
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from werkzeug.exceptions import (
    BadRequest,
    Forbidden,
    HTTPException,
    LengthRequired,
    NotFound,
    RequestEntityTooLarge,
    RequestTimeout,
    ServiceUnavailable,
)
from werkzeug.routing import Map, Rule
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler
from werkzeug.serving import make_server as werkzeug_server
from werkzeug.wrappers import Request, Response

from .agents import AGENT_KINDS
from .runtime.errors import RulewrightError, is_int, whole_number
from .runtime.state import Game
from .viewer import (
    AGENT_SECONDS,
    HUMAN,
    REFEREE,
    SPECTATOR,
    PlaySession,
    Replay,
    Sessions,
    ViewError,
    explain_click,
    load_replay,
    load_scenarios,
    load_state_file,
    parse_seat,
    parse_source_kind,
    payload,
    told_after,
)
from .webcompare import COMPARE_GAMES, COMPARES_KEPT, ComparePlan, CompareRun, compare_plan, run_compare

UI = Path(__file__).parent / "webui"
WILDCARDS = ("0.0.0.0", "::", "")  # hosts that bind every address of the machine
STATIC = {"board.js": "text/javascript", "live.js": "text/javascript", "board.css": "text/css"}
MAX_BODY = 64 << 10  # a request's body: a move's text, a seat
MAX_UPLOAD = 16 << 20  # a log or a scenario file opened in the browser
BODY_SECONDS = 10.0  # a request's whole body must arrive within this
READ_SECONDS = 10.0  # the longest wait for any bytes of a request
HEADER_SECONDS = 10.0  # a request's line and headers must arrive within this
AGENT_WORKERS = 2  # agents searching at once, in all games
AGENT_WAIT = 0.5  # a request for an agent's move waits this long for it, then answers (the page asks again)
MAX_SEED = 2**63 - 1
# Live pages (server-sent events, docs/web.md "Playing together"): each open page holds one
# connection and one thread of the server, so they are counted: at most STREAMS_PER_GAME for one
# game and STREAMS in all; a stream says a comment every KEEPALIVE_SECONDS (a page gone is noticed
# then) and ends after STREAM_SECONDS (the browser opens it again by itself).
STREAMS = 48
STREAMS_PER_GAME = 12
KEEPALIVE_SECONDS = 15.0
STREAM_SECONDS = 600.0
MAX_VERSION = 10**9
TOKEN_HEADER = "X-Rulewright-Token"
HEADERS = {
    # the page's own script and style only; the drawings carry an inline <style>
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # (no-referrer would send its forms with `Origin: null`)
    "Cache-Control": "no-store",
}


class WebApp:
    """The application: its sessions, the rule sets it offers, its routes."""

    def __init__(self, games: dict[str, Callable[[], Game]], sessions: Sessions) -> None:
        self.games = games  # rule set name -> its game, loaded when first asked
        self.loaded: dict[str, Game] = {}
        self.loading = threading.Lock()
        self.sessions = sessions
        self.allowed_hosts: set[str] = set()
        self.links_default = False  # a new game's seats played by links unless told: when other machines may come in
        # Every request that changes something carries it: only the server's own pages hold it
        # (a page of another site cannot read them), and they send it (board.js, the forms).
        self.token = secrets.token_urlsafe(24)
        self.body_seconds = BODY_SECONDS
        self.header_seconds = HEADER_SECONDS
        self.agent_wait = AGENT_WAIT
        self.agent_seconds = AGENT_SECONDS
        self.agents = ThreadPoolExecutor(AGENT_WORKERS, thread_name_prefix="rulewright-agent")
        # a finished game's comparison (api/webcompare.py): one worker of its own, one at a time
        self.comparer = ThreadPoolExecutor(1, thread_name_prefix="rulewright-compare")
        self.compares: dict[tuple[str, str, int, tuple[str, ...], tuple[str, ...]], CompareRun] = {}
        self.compares_lock = threading.Lock()
        self.compare_games = COMPARE_GAMES
        self.streams: dict[str, int] = {}  # live pages open, by game (the game's first link)
        self.streams_lock = threading.Lock()
        self.max_streams, self.max_game_streams = STREAMS, STREAMS_PER_GAME
        self.keepalive, self.stream_seconds = KEEPALIVE_SECONDS, STREAM_SECONDS
        self.problems: list[str] = []  # the saved games that could not be resumed (`serve` prints them)
        self.env = Environment(loader=FileSystemLoader(str(UI)), autoescape=select_autoescape(default=True))
        self.urls = Map([
            Rule("/", endpoint="index"),
            Rule("/new", endpoint="new"),
            Rule("/open", endpoint="open_file", methods=["POST"]),
            Rule("/board", endpoint="board"),
            Rule("/game/<key>", endpoint="game_page"),
            Rule("/replay/<key>", endpoint="replay_page"),
            Rule("/scenario/<key>", endpoint="scenario_page"),
            Rule("/static/<name>", endpoint="static"),
            Rule("/api/game/<key>", endpoint="api_game"),
            Rule("/api/game/<key>/move", endpoint="api_move", methods=["POST"]),
            Rule("/api/game/<key>/click", endpoint="api_click", methods=["POST"]),
            Rule("/api/game/<key>/agent", endpoint="api_agent", methods=["POST"]),
            Rule("/api/game/<key>/log", endpoint="api_log"),
            Rule("/api/game/<key>/events", endpoint="api_events"),
            Rule("/api/game/<key>/finished", endpoint="api_finished"),
            Rule("/api/game/<key>/compare", endpoint="api_compare", methods=["GET", "POST"]),
            Rule("/game/<key>/replay", endpoint="game_replay"),
            Rule("/api/replay/<key>", endpoint="api_replay"),
            Rule("/api/scenario/<key>", endpoint="api_scenario"),
        ])

    # -- plumbing ---------------------------------------------------------------------------------
    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        request = Request(environ)
        try:
            self.check_host(request)
            endpoint, args = self.urls.bind_to_environ(environ).match()
            if request.method not in ("GET", "HEAD"):
                self.check_origin(request)  # (before a byte of the body is read)
                self.read_body(environ, MAX_UPLOAD if endpoint == "open_file" else MAX_BODY)
                request = Request(environ)
                request.max_form_memory_size = MAX_UPLOAD
                self.check_token(request)
            self.sessions.drop()
            response = getattr(self, endpoint)(request, **args)
        except (ViewError, RulewrightError) as exc:
            response = self.json({"error": str(exc)}, 400)
        except HTTPException as exc:
            if request.path.startswith("/api/"):
                response = self.json({"error": exc.description or exc.name}, exc.code or 500)
            else:
                response = Response(self.env.get_template("error.html.j2").render(
                    code=exc.code, message=exc.description or exc.name), exc.code or 500, mimetype="text/html")
        finally:
            request.close()  # (the files of an upload)
        for name, value in HEADERS.items():
            response.headers[name] = value
        result: Iterable[bytes] = response(environ, start_response)
        return result

    def close(self) -> None:
        """Stop the agents' workers (a search under way ends at its time limit), end the live
        pages' streams and close the saved games' logs."""
        self.agents.shutdown(wait=False, cancel_futures=True)
        self.comparer.shutdown(wait=False, cancel_futures=True)  # (a comparison under way ends with its games)
        self.sessions.close()

    def check_host(self, request: Request) -> None:
        if not self.allowed_hosts:
            return
        host = (request.host or "").lower()
        if host not in self.allowed_hosts:
            raise Forbidden(f"requests must be addressed to {sorted(self.allowed_hosts)[0]}")

    @staticmethod
    def check_origin(request: Request) -> None:
        """A browser says where a request comes from: refused when from another site (a form or
        a script of any page the user visits could otherwise start games here)."""
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site != "same-origin":
            raise Forbidden("a request from another site (Sec-Fetch-Site: "
                            f"{site[:20]}) cannot change anything here")
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc.lower() != (request.host or "").lower():
            raise Forbidden("a request from another site (Origin) cannot change anything here")

    def check_token(self, request: Request) -> None:
        """The server's token, sent by its own pages (a header from board.js, a field of the
        forms): a client without it (a page of another site, which cannot read ours) is refused."""
        given = request.headers.get(TOKEN_HEADER)
        if given is None and request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
            given = request.form.get("token")
        if given is None or not hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode()):
            raise Forbidden("this request must come from the board's own pages (their token is missing or "
                            "wrong: reload the page)")

    def read_body(self, environ: dict[str, Any], limit: int) -> None:
        """Read a request's whole body now, at most `limit` bytes within `body_seconds` (a body
        sent slowly holds only its own connection, and not for long), and put it back in
        `environ` for Werkzeug to parse."""
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            raise LengthRequired("send the body with a Content-Length")
        text = str(environ.get("CONTENT_LENGTH") or "0").strip()
        length = whole_number(text, digits=19)
        if length is None:
            raise BadRequest("a bad Content-Length")
        if length > limit:
            raise RequestEntityTooLarge(f"a request's body may be at most {limit:,} bytes, not {length:,}")
        stream, sock = environ["wsgi.input"], environ.get("werkzeug.socket")
        if not isinstance(sock, socket.socket):  # (Werkzeug's test client: the body is all there)
            sock = None
        deadline = time.monotonic() + self.body_seconds
        body = bytearray()
        late = False
        while len(body) < length and not late:
            left = deadline - time.monotonic()
            if left <= 0:
                late = True
                break
            if sock is not None:
                sock.settimeout(min(left, READ_SECONDS))
            want = min(length - len(body), 1 << 16)
            try:
                chunk = stream.read1(want) if hasattr(stream, "read1") else stream.read(want)
            except TimeoutError:  # (socket.timeout)
                late = True
                break
            if not chunk:
                raise BadRequest("the request's body ended early")
            body += chunk
        if sock is not None:  # late: what follows is not waited for (Werkzeug drains the socket)
            sock.settimeout(0.05 if late else READ_SECONDS)
        if late:
            raise RequestTimeout(f"the request's body did not arrive within {self.body_seconds:g} s")
        environ["wsgi.input"] = io.BytesIO(bytes(body))
        environ["CONTENT_LENGTH"] = str(length)
        environ.pop("wsgi.input_terminated", None)

    @staticmethod
    def json(data: Any, status: int = 200) -> Response:
        return Response(json.dumps(data), status, mimetype="application/json")

    def page(self, template: str, **values: Any) -> Response:
        return Response(self.env.get_template(template).render(token=self.token, **values), mimetype="text/html")

    @staticmethod
    def body(request: Request) -> dict[str, Any]:
        """A POST's JSON object (only JSON: a form of another site cannot send it); nested too
        deeply or not JSON: a 400 saying so."""
        if request.mimetype != "application/json":
            raise BadRequest("send JSON (Content-Type: application/json)")
        try:
            data = json.loads(request.get_data(cache=True))
        except RecursionError:
            raise BadRequest("the JSON is nested too deeply") from None
        except ValueError as exc:  # (UnicodeDecodeError, JSONDecodeError, too many digits)
            raise BadRequest(f"not JSON: {str(exc)[:80]}") from None
        if not isinstance(data, dict):
            raise BadRequest("expected a JSON object")
        return data

    @staticmethod
    def number(text: str | None, what: str, low: int, high: int, default: int | None = None) -> int:
        """A whole number of a query or a form, from `low` to `high` (ASCII digits only)."""
        if (text is None or text == "") and default is not None:
            return default
        value = whole_number((text or "").strip(), digits=19)
        if value is None or not low <= value <= high:
            shown = (text or "")[:20]
            raise BadRequest(f"{what} must be a whole number from {low:,} to {high:,}, not `{shown}`")
        return value

    def game(self, name: str) -> Game:
        maker = self.games.get(name)
        if maker is None:
            raise NotFound(f"no rule set {name[:80]!r} here")
        with self.loading:
            if name not in self.loaded:
                self.loaded[name] = maker()
            return self.loaded[name]

    def play_session(self, key: str) -> tuple[PlaySession, str, int | None]:
        """The game a link names, its role and its seat (Sessions.access)."""
        found = self.sessions.access(key)
        if found is None and self.revive(key):
            found = self.sessions.access(key)
        if found is None:
            raise NotFound("no such game (a link of another server, mistyped, or a game not saved that was "
                           "dropped after it was not played for a while)")
        return found

    def revive(self, token: str) -> bool:
        """Take up again, from its log, the saved game a link of a game dropped unfinished names
        (Sessions.dormant); one at a time. Whether it was."""
        from .savedgames import reopen, resume_game

        sessions = self.sessions
        with sessions.reviving:
            with sessions.lock:
                key = sessions.dormant.get(token)
                if key is None or sessions.folder is None:
                    return key is not None and key in sessions.games
                if key in sessions.games:
                    return True
            path = sessions.folder.path / f"{key}.jsonl"
            try:
                session = resume_game(path, self.served_game)
            except ViewError:
                session = None
            with sessions.lock:
                for t in [t for t, k in sessions.dormant.items() if k == key]:
                    del sessions.dormant[t]
            if session is None:
                return False
            session.saved = reopen(path, session)
            sessions.add_game(session, key=key, tokens=session.links or None)
            return True

    def served_game(self, name: object, path: Path) -> Game:
        """The game a saved log's header names: one this server offers, by the name it offers it."""
        if not isinstance(name, str) or name not in self.games:
            from .terminal import printable

            raise ViewError(f"`{printable(str(name), 80)}` is not a rule set this server offers")
        return self.game(name)

    def players(self, game: Game, text: str | None) -> int:
        """The player count asked for, one the rule set is played by (else a 400 saying which)."""
        allowed = game.info.players
        value = whole_number((text or "").strip(), digits=19)
        if value is None or value not in allowed:
            shown = ", ".join(str(n) for n in allowed)
            raise BadRequest(f"{game.info.ruleset} is played by {shown} players, not `{(text or '')[:20]}`")
        return value

    # -- pages ------------------------------------------------------------------------------------
    def index(self, request: Request) -> Response:
        rulesets = []
        for name in self.games:
            rulesets.append({"name": name})
        with self.sessions.lock:
            replays = [{"key": k, "name": n, "moves": len(r.moves)} for k, (n, r) in self.sessions.replays.items()]
            scenarios = [{"key": k, "name": n, "count": len(v)} for k, (n, v) in self.sessions.scenarios.items()]
        return self.page("index.html.j2", rulesets=rulesets, replays=replays, scenarios=scenarios)

    def new(self, request: Request) -> Response:
        name = request.values.get("ruleset", "")
        game = self.game(name)
        players = game.info.players
        if request.method != "POST":
            wanted = request.args.get("players")
            count = players[0] if wanted is None else self.players(game, wanted)
            return self.page("new.html.j2", ruleset=name, title=game.info.title, players=players, count=count,
                             roles=game.info.roles, kinds=[HUMAN, *AGENT_KINDS], options=game.info.options,
                             error=None, links=self.links_default)
        count = self.players(game, request.form.get("players"))
        seed = self.number(request.form.get("seed"), "the seed", 0, MAX_SEED, default=1)
        seats = [request.form.get(f"seat{k + 1}", HUMAN)[:200] for k in range(count)]
        options = {key.removeprefix("option."): value for key, value in request.form.items()
                   if key.startswith("option.")}
        try:
            session = PlaySession.start(game, count, seed, seats, options)
        except RulewrightError as exc:
            response = self.page("new.html.j2", ruleset=name, title=game.info.title, players=players,
                                 count=count, roles=game.info.roles, kinds=[HUMAN, *AGENT_KINDS],
                                 options=game.info.options, error=str(exc), links=self.links_default)
            response.status_code = 400
            return response
        session.name = name
        links = request.form.get("links") == "on" and HUMAN in session.seats
        key = self.sessions.add_game(session, links=links)
        where = session.links["host"] if links else key
        return Response("", 303, headers={"Location": f"/game/{where}"})

    def open_file(self, request: Request) -> Response:
        """A log or a scenario file sent from the browser: kept in a file of its own in a private
        temporary folder and read as `serve FILE` reads one, except that the rule set it names can
        only be a bundled id (`bundled_only`), then removed."""
        import tempfile

        upload = request.files.get("file")
        if upload is None or not upload.filename:
            raise BadRequest("choose a log (.jsonl) or a scenario file (.yaml) to open")
        name = Path(upload.filename).name
        suffix = ".yaml" if name.endswith((".yaml", ".yml")) else ".jsonl"
        with tempfile.TemporaryDirectory(prefix="rulewright-open-") as folder:
            path = Path(folder) / f"upload{suffix}"
            upload.save(str(path))
            try:
                if suffix == ".yaml":
                    views = load_scenarios(path, bundled_only)
                    for view in views:  # (where a scenario is written: in the file sent, not the copy)
                        view.where = view.where.replace(str(path), name)
                    key = self.sessions.add_scenarios(name, views, opened=True)
                    where = f"/scenario/{key}"
                else:
                    key = self.sessions.add_replay(name, load_replay(path, loader=bundled_only), opened=True)
                    where = f"/replay/{key}"
            except (ViewError, RulewrightError) as exc:
                shown = str(exc).replace(str(path), name)
                return Response(self.env.get_template("error.html.j2").render(code=400, message=shown), 400,
                                mimetype="text/html")
        return Response("", 303, headers={"Location": where})

    def board(self, request: Request) -> Response:
        """The start position of a rule set (its options as asked), as the referee sees it: its
        board and pieces, to see what a variant or an option changes. No game is kept."""
        name = request.args.get("ruleset", "")
        game = self.game(name)
        wanted = request.args.get("players")
        players = None if wanted is None else self.players(game, wanted)
        options = {k.removeprefix("option."): v for k, v in request.args.items() if k.startswith("option.")}
        try:
            state = game.new_state(players, 1, options)
        except RulewrightError as exc:
            raise BadRequest(str(exc)) from None
        from .draw import render_svg

        return self.page("start.html.j2", ruleset=name, title=game.info.title, svg=Markup(render_svg(state, None)),
                         players=game.info.players, count=state.num_players, options=game.info.options,
                         chosen=state.options)

    def board_page(self, mode: str, key: str, title: str, cfg: dict[str, Any]) -> Response:
        return self.page("board.html.j2", mode=mode, title=title,
                         cfg={"mode": mode, "key": key, "token": self.token, **cfg})

    def game_page(self, request: Request, key: str) -> Response:
        s, role, seat = self.play_session(key)
        with s.lock:
            if role == "host":
                return self.host_page(request, s)
            if role == "seat" and seat is not None:
                viewable: list[int | str] = [seat + 1]
            elif role == SPECTATOR:
                viewable = [SPECTATOR]
            else:
                viewable = [REFEREE if v is None else v + 1 for v in s.viewable()]
            return self.board_page("play", key, s.game.info.title, {
                "players": s.state.num_players, "seats": s.seats, "viewable": viewable, "role": role})

    def host_page(self, request: Request, s: PlaySession) -> Response:
        """The page of whoever started a game played by links: the link of each seat to hand out,
        and the spectators' (it shows no board: it sees no seat's hidden information either)."""
        base = request.host_url.rstrip("/")
        seats = [{"seat": f"P{int(role)}" + (f" ({s.game.info.roles[int(role) - 1]})"
                                              if int(role) - 1 < len(s.game.info.roles) else ""),
                  "url": f"{base}/game/{token}"}
                 for role, token in s.links.items() if role.isdigit()]
        agents = [f"P{k + 1}: {kind}" for k, kind in enumerate(s.seats) if kind != HUMAN]
        return self.page("links.html.j2", title=s.game.info.title, ruleset=s.name, seats=seats, agents=agents,
                         spectator=f"{base}/game/{s.links[SPECTATOR]}", host=request.host or "",
                         saved=s.saved is not None, version=s.version, terminal=s.state.is_terminal())

    def replay_page(self, request: Request, key: str) -> Response:
        found = self.sessions.replay(key)
        if found is None:
            raise NotFound("no such replay")
        name, replay = found
        return self.board_page("replay", key, f"{replay.game.info.title}: {name}", {
            "players": replay.states[0].num_players, "total": len(replay.states) - 1, "problem": replay.problem,
            "viewable": [*range(1, replay.states[0].num_players + 1), REFEREE]})  # (the moves: per seat, below)

    def scenario_page(self, request: Request, key: str) -> Response:
        found = self.sessions.scenario_file(key)
        if found is None:
            raise NotFound("no such scenario file")
        name, views = found
        return self.board_page("scenario", key, f"Scenarios: {name}", {
            "scenarios": [{"name": v.name, "doc": v.doc, "where": v.where, "ruleset": v.ruleset, "steps": v.steps,
                           "checks": v.checks, "passed": v.passed, "problem": v.problem,
                           "players": v.players}
                          for v in views]})

    def game_replay(self, request: Request, key: str) -> Response:
        """A finished game's replay (/replay/ID), for any seat or the referee: the game is over."""
        s, _, _ = self.play_session(key)
        with s.lock:
            if not s.state.is_terminal():
                raise Forbidden("a game is replayed once it is over")
            states = [s.game.new_state(s.state.num_players, s.seed, dict(s.state.options))]
            for player, text in s.history:
                states.append(states[-1].clone())
                states[-1].apply(text, seat=player)
            replay = Replay(s.game, states, list(s.history), None)
        where = self.sessions.add_replay(f"{s.name} (seed {s.seed})", replay, opened=True)
        return Response("", 303, headers={"Location": f"/replay/{where}"})

    def static(self, request: Request, name: str) -> Response:
        if name not in STATIC:
            raise NotFound()
        return Response((UI / name).read_bytes(), mimetype=STATIC[name])

    # -- the game API -----------------------------------------------------------------------------
    @staticmethod
    def _seat(s: PlaySession, role: str, own: int | None, text: Any) -> int | None:
        """The seat a request asks to see or play as, checked against what its link may: a seat's
        link its own seat only, a spectator's (and the host's) none (SPECTATOR is answered with
        what every seat sees alike: `public`), the game's own id its viewable seats."""
        shown = None if text is None else str(text)
        if role == "table":
            seat = parse_seat(shown, s.state.num_players)
            s.check_viewer(seat)
            return seat
        if role == "seat" and own is not None:
            if shown is not None and parse_seat(shown, s.state.num_players) != own:
                raise Forbidden(f"this link is P{own + 1}'s: it cannot see the game as another seat nor move for it")
            return own
        if shown is not None and shown.strip().lower() != SPECTATOR:
            raise Forbidden("a spectator's link sees what every seat sees, and moves for no seat")
        return None

    def _game_payload(self, s: PlaySession, seat: int | None, public: bool = False, **extra: Any) -> Response:
        seen = s.history_for(seat, public)  # each move as this seat reads it (`others_text:`)
        last = seen[-1] if seen and "picked" not in extra else None
        data = payload(s.state, seat, seat is not None and s.seats[seat] == HUMAN, last=last, public=public, **extra)
        data["thinking"], data["agent_error"] = s.thinking is not None, s.agent_error  # (an agent's search)
        agent = s.agent_to_act()
        data["agent_to_act"] = None if agent is None or s.state.is_terminal() else agent + 1
        data["history"] = [told_after(f"P{p + 1} {text}" + (" (forced)" if k in s.forced and p == seat else ""), told)
                           for k, ((p, _), text, told) in enumerate(zip(s.history, seen, s.told, strict=True))]
        data["version"] = s.version  # the move count: a move says the one its page saw
        if s.saved is not None and s.saved.problem:
            data["agent_error"] = s.saved.problem
        return self.json(data)

    def api_game(self, request: Request, key: str) -> Response:
        s, role, own = self.play_session(key)
        with s.lock:
            seat = self._seat(s, role, own, request.args.get("seat"))
            return self._game_payload(s, seat, public=seat is None and role != "table")

    def api_move(self, request: Request, key: str) -> Response:
        s, role, own = self.play_session(key)
        data = self.body(request)
        with s.lock:
            seat = self._seat(s, role, own, data.get("seat"))
            text = data.get("text")
            if seat is None or not isinstance(text, str) or len(text) > 2000:
                raise BadRequest("a move needs the seat playing it and its text")
            version = data.get("version")
            if not is_int(version) or not 0 <= version <= MAX_VERSION:
                raise BadRequest("a move needs `version`, the move count of the game its page saw (a whole number)")
            if s.stale(version, seat):  # a page that had not seen the last moves: refused, with them
                why = (f"the game moved on: {s.moves_since(version, seat)}; look again" if version < s.version else
                       f"the game is at move {s.version}, not {version}; look again")
                return self.json({"illegal": {"why": why, "rule": "", "where": ""}, "stale": True,
                                  "version": s.version}, 409)
            refused = s.play(seat, text)
            if refused is not None:
                return self.json({"illegal": refused}, 200)
            return self._game_payload(s, seat)

    def api_click(self, request: Request, key: str) -> Response:
        s, role, own = self.play_session(key)
        data = self.body(request)
        with s.lock:
            seat = self._seat(s, role, own, data.get("seat"))
            spot = data.get("spot")
            if seat is None or not isinstance(spot, str) or spot not in s.state.board.index:
                raise BadRequest("a click needs the seat and a spot of the board")
            state = s.state
            if state.is_terminal() or state.to_act() != seat or s.seats[seat] != HUMAN:
                return self.json({"illegal": [{"action": "", "why": "it is not your turn", "rule": "", "where": ""}]})
            moves = [str(a) for a in state.legal_actions()]
            from .draw import action_spots

            naming = action_spots(state, moves).get(spot, [])
            if not naming:
                return self.json({"illegal": explain_click(state, spot), "spot": spot})
            return self._game_payload(s, seat, picked=spot, only=naming)

    def api_agent(self, request: Request, key: str) -> Response:
        """The agent to act searches for its move in a worker (off the request path, the game's
        lock not held meanwhile); the answer waits for it up to `agent_wait` seconds, then says
        `thinking` (the page asks again)."""
        s, role, own = self.play_session(key)
        data = self.body(request)
        with s.lock:
            seat = self._seat(s, role, own, data.get("seat"))
            job = s.agent_move(self.agent_seconds)
            if job is not None:
                s.thinking = self.agents.submit(job)
            thinking = s.thinking
        if thinking is not None:
            wait_for([thinking], timeout=self.agent_wait)
        with s.lock:
            return self._game_payload(s, seat, public=seat is None and role != "table")

    def api_log(self, request: Request, key: str) -> Response:
        s, _, _ = self.play_session(key)
        with s.lock:
            if any(seat == HUMAN for seat in s.seats) and not s.state.is_terminal():
                raise Forbidden("the log holds the whole state: it is given when the game is over")
            lines = s.log_lines()
        return Response("\n".join(lines) + "\n", mimetype="application/x-ndjson",
                        headers={"Content-Disposition": "attachment; filename=game.jsonl"})

    def api_finished(self, request: Request, key: str) -> Response:
        """What a finished game offers: its log, its replay and how to compare its rule set
        with its base (`compare_plan`): the command, and where the server plays a small comparison."""
        plan = self._compare_plan(key)
        return self.json({"log": f"/api/game/{key}/log", "replay": f"/game/{key}/replay",
                          "compare": plan.command, "compare_why": plan.why,
                          "compare_here": f"/api/game/{key}/compare" if plan.command else None,
                          "compare_games": COMPARE_GAMES})

    def _compare_plan(self, key: str) -> ComparePlan:
        s, _, _ = self.play_session(key)
        with s.lock:
            if not s.state.is_terminal():
                raise Forbidden("the game is not over")
            return compare_plan(s.name, s.game.info, s.state.num_players, dict(s.state.options), list(self.games))

    def api_compare(self, request: Request, key: str) -> Response:
        """A small comparison of a finished game's rule set with what it changes (api/webcompare.py),
        played by the server: a POST starts it (or finds it played or playing: one plan is played
        once, and one comparison at a time in all, in its own worker, never in the agents'); a GET
        says how far it is, then `compare`'s verdict lines."""
        plan = self._compare_plan(key)
        if not plan.command:
            raise NotFound(plan.why)
        with self.compares_lock:
            run = self.compares.get(plan.key)
            if run is None and request.method == "POST":
                self.body(request)  # (JSON only, as every POST of the game API)
                busy = [r for r in self.compares.values() if not r.done]
                if busy:
                    return self.json({"state": "waiting", "what": plan.why, "played": 0, "of": 0, "lines": [],
                                      "error": None, "command": plan.command,
                                      "why": "another comparison is being played on this server: ask again soon"})
                run = CompareRun(plan, self.compare_games)
                self.compares[plan.key] = run
                finished = [k for k, r in self.compares.items() if r.done]
                while len(self.compares) > COMPARES_KEPT and finished:
                    del self.compares[finished.pop(0)]
                self.comparer.submit(run_compare, run)
        if run is None:
            return self.json({"state": "none", "what": plan.why, "played": 0, "of": 0, "lines": [], "error": None,
                              "command": plan.command})
        return self.json(run.to_json())

    def api_events(self, request: Request, key: str) -> Response:
        """The game's moves as they happen, to a live page (server-sent events): `version` events
        carrying the move count only, never a view (the page then asks for its own with its own
        link), a comment every `keepalive` seconds, `gone` when the game is dropped. Counted
        (`max_game_streams` for a game, `max_streams` in all; else a 503) and ended after
        `stream_seconds` (the browser opens it again)."""
        s, _, _ = self.play_session(key)
        game = next(iter(s.links.values()), key)
        with self.streams_lock:
            if sum(self.streams.values()) >= self.max_streams:
                raise ServiceUnavailable(f"{self.max_streams} live pages are open on this server: reload later")
            if self.streams.get(game, 0) >= self.max_game_streams:
                raise ServiceUnavailable(f"{self.max_game_streams} live pages are open on this game: close one")
            self.streams[game] = self.streams.get(game, 0) + 1
        stream = EventStream(self, s, game)
        return Response(stream, mimetype="text/event-stream", direct_passthrough=True,
                        headers={"X-Accel-Buffering": "no"})

    def release_stream(self, game: str) -> None:
        with self.streams_lock:
            left = self.streams.get(game, 0) - 1
            if left > 0:
                self.streams[game] = left
            else:
                self.streams.pop(game, None)

    # -- replays and scenarios --------------------------------------------------------------------
    def api_replay(self, request: Request, key: str) -> Response:
        found = self.sessions.replay(key)
        if found is None:
            raise NotFound("no such replay")
        replay = found[1]
        move = self.number(request.args.get("move"), "the move", 0, len(replay.states) - 1, default=0)
        state = replay.states[move].clone()  # (a state's caches are not shared between requests)
        seat = parse_seat(request.args.get("seat"), state.num_players)
        data = payload(state, seat, False, last=replay.moves[move - 1][1] if move else None)
        data["move"] = move
        # each move as this seat reads it (`others_text:`), not the log's whole texts
        data["history"] = [told_after(f"P{p + 1} {text}", told) for (p, _), text, told
                           in zip(replay.moves, replay.history_for(seat), replay.told(), strict=True)]
        return self.json(data)

    def api_scenario(self, request: Request, key: str) -> Response:
        found = self.sessions.scenario_file(key)
        if found is None:
            raise NotFound("no such scenario file")
        views = found[1]
        view = views[self.number(request.args.get("k"), "the scenario", 0, len(views) - 1, default=0)]
        step = self.number(request.args.get("step"), "the step", 0, len(view.states) - 1, default=0)
        state = view.states[step]
        if state is None:
            return self.json({"error": view.states.error(step) or "this step was not played", "step": step})
        seat = parse_seat(request.args.get("seat"), state.num_players)
        data = payload(state, seat, False)
        data["step"] = step
        data["stopped"] = view.states.error(step)
        return self.json(data)


class EventStream:
    """One live page's stream of a game's versions (WebApp.api_events); its count is given back
    when it ends, however it ends (`close`: Werkzeug calls it when the page has gone, a write failing)."""

    def __init__(self, app: WebApp, session: PlaySession, game: str) -> None:
        self.app, self.session, self.game = app, session, game
        self.released = False
        self.events = self._events()

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> bytes:
        return next(self.events)

    def _events(self) -> Generator[bytes, None, None]:
        s, app = self.session, self.app
        seen = s.version
        yield f"retry: 2000\nevent: version\ndata: {seen}\n\n".encode()
        ends = time.monotonic() + app.stream_seconds
        while True:
            left = ends - time.monotonic()
            if left <= 0:
                return
            version, closed = s.wait_moved(seen, min(app.keepalive, left))
            if closed is not None:
                yield f"event: gone\ndata: {closed}\n\n".encode()
                return
            if version != seen:
                seen = version
                yield f"event: version\ndata: {version}\n\n".encode()
            else:
                yield b": keep-alive\n\n"

    def close(self) -> None:
        self.events.close()
        if not self.released:
            self.released = True
            self.app.release_stream(self.game)


def bundled_only(ruleset: object, here: Path) -> Game:
    """The rule set a file sent from the browser names: a bundled id only (never a path: the
    file came from a page, and a path would read a file of this machine)."""
    from .core.paths import is_ruleset_id
    from .loading import load
    from .runtime.errors import BadSetup
    from .terminal import printable

    if not isinstance(ruleset, str) or not is_ruleset_id(ruleset):
        shown = printable(str(ruleset), 60)
        raise BadSetup(f"`{shown}` is not a bundled rule set: a file opened in the browser names its rule set "
                       "by bundled id only (e.g. china-cornett, mandarin/money)")
    return load(ruleset)


def bundled_games() -> dict[str, Callable[[], Game]]:
    """Every bundled rule set by id, each loaded when first asked for."""
    from functools import partial

    from .compiler.resolve import bundled_ids
    from .loading import load as load_ruleset

    return {rid: partial(load_ruleset, rid) for rid in bundled_ids()}


def make_app(source: str | None, games_folder: Path | None = None) -> tuple[WebApp, str]:
    """The application serving the bundled rule sets and `source` (a rule set, a log, a saved
    state or a scenario file), saving its games in `games_folder` as they go and resuming the
    unfinished ones found there (api/savedgames.py); with the path to open first."""
    from .rulesets import load_game

    sessions = Sessions()
    games = bundled_games()
    start = "/"
    if source is not None:
        path = Path(source)
        is_file = path.suffix in (".yaml", ".yml", ".py", ".json", ".jsonl") or path.is_file()
        if not is_file or (path.suffix in (".yaml", ".yml", ".py") and not _is_scenario_file(path)):
            game = load_game(source)  # a bundled id, a rule file or a generated module named here
            name = game.info.ruleset if source in games or not is_file else source
            games[name] = lambda: game
            start = f"/new?ruleset={quote(name, safe='/')}"
        else:
            kind = parse_source_kind(path)
            if kind == "scenario":
                start = f"/scenario/{sessions.add_scenarios(path.name, load_scenarios(path))}"
            elif kind == "state":
                state = load_state_file(path)
                start = f"/replay/{sessions.add_replay(path.name, Replay(state.game, [state], [], None))}"
            else:
                start = f"/replay/{sessions.add_replay(path.name, load_replay(path))}"
    app = WebApp(games, sessions)
    if games_folder is not None:
        save_games(app, games_folder)
    return app, start


def save_games(app: WebApp, path: Path) -> None:
    """Save the games of `app` in the folder `path` as they go (made when missing), and keep again
    the unfinished games saved there, their logs written on from their end; a file that cannot be
    resumed is said in `app.problems` (`serve` prints them) and left where it is."""
    from .savedgames import GameFolder, reopen

    folder = GameFolder(path)
    app.sessions.folder = folder

    found, app.problems = folder.resume(app.served_game)
    for key, session in found:
        session.saved = reopen(folder.path / f"{key}.jsonl", session)
        app.sessions.add_game(session, key=key, tokens=session.links or None)


def _is_scenario_file(path: Path) -> bool:
    """Whether a YAML file is a scenario file (a mapping with `scenarios:`), not a rule file."""
    from .core.load import LoadError, YMap, load
    from .scenarios import read_scenario_file

    try:
        tree = load(str(path), read_scenario_file(path, str(path)))
    except LoadError:
        return False
    return isinstance(tree, YMap) and tree.get("scenarios") is not None


class _TimedReads(io.RawIOBase):
    """A connection's reads, each given only what is left until `deadline` when it is set."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request line and headers did not arrive in time")
            self.sock.settimeout(min(left, READ_SECONDS))
        return self.sock.recv_into(buffer)


class QuietHandler(WSGIRequestHandler):
    """Werkzeug's request handler, logging only the requests that failed in the server. A
    connection is closed when its request line and headers have not all arrived within the
    app's `header_seconds` (HEADER_SECONDS), or it sends nothing for READ_SECONDS; the body has
    its own deadline (`WebApp.read_body`)."""

    timeout = READ_SECONDS

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # (the socket's own file: replaced by one whose reads keep the deadline)
        self.reads = _TimedReads(self.connection)
        self.rfile = io.BufferedReader(self.reads)

    def handle_one_request(self) -> None:
        app = getattr(self.server, "app", None)
        self.reads.deadline = time.monotonic() + getattr(app, "header_seconds", HEADER_SECONDS)
        super().handle_one_request()

    def make_environ(self) -> dict[str, Any]:
        self.reads.deadline = None  # the headers are in
        self.connection.settimeout(READ_SECONDS)
        environ: dict[str, Any] = super().make_environ()
        return environ

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if isinstance(code, int) and code >= 500:
            super().log_request(code, size)

    def log_error(self, format: str, *args: Any) -> None:
        if not format.startswith("Request timed out"):  # (a browser's spare connection, closed unused)
            super().log_error(format, *args)


def make_server(host: str, port: int, app: WebApp) -> BaseWSGIServer:
    """A threaded Werkzeug server for `app`, answering only requests addressed to its own name.
    Raises OSError when the address cannot be had (Werkzeug would print and exit instead)."""
    import socket

    if port:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as the server's own socket)
            probe.bind((host, port))
    server = werkzeug_server(host, port, app, threaded=True, request_handler=QuietHandler)
    bound = server.server_port
    app.links_default = host not in ("127.0.0.1", "localhost", "::1")  # other machines may come in
    if host in WILDCARDS:  # every address of the machine: its names are not known here
        app.allowed_hosts = set()
        return server
    names = {host, "localhost", "127.0.0.1", "[::1]"} if host in ("127.0.0.1", "localhost", "::1") else {host}
    app.allowed_hosts = {f"{n}:{bound}".lower() for n in names} | {f"[{host}]:{bound}"}
    return server
