"""The web board: a small WSGI application on Werkzeug (docs/web.md says why), pages made with
Jinja2 (autoescaped), one script of its own (webui/board.js), no other front-end library.

Pages: `/` lists the rule sets (and the log or scenario file `serve` was given); `/new` starts
a game with its seats human or agents; `/game/ID` plays it, `/replay/ID` steps a log, and
`/scenario/ID` steps a scenario file. The pages ask `/api/...` for what to draw: every answer
for a seat is made from that seat's observation (api/viewer.py `payload`), legal moves go only
to the seat whose turn it is, and a game with a person at it is seen only as its human seats.

No request names a file: rule sets are bundled ids (or the rule file `serve` was given), logs
and scenarios those `serve` was given, read as the rest of the tool reads them. The server binds
127.0.0.1 unless told otherwise, and answers only requests addressed to the name it listens
on (a page of another site cannot reach it through a name it rebinds to this machine).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from werkzeug.exceptions import BadRequest, Forbidden, HTTPException, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler
from werkzeug.serving import make_server as werkzeug_server
from werkzeug.wrappers import Request, Response

from .agents import AGENT_KINDS
from .runtime.errors import RulewrightError
from .runtime.state import Game
from .viewer import (
    HUMAN,
    REFEREE,
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
)

UI = Path(__file__).parent / "webui"
WILDCARDS = ("0.0.0.0", "::", "")  # hosts that bind every address of the machine
STATIC = {"board.js": "text/javascript", "board.css": "text/css"}
MAX_BODY = 64 << 10  # a request's body: a move's text, a seat
MAX_UPLOAD = 16 << 20  # a log or a scenario file opened in the browser
HEADERS = {
    # the page's own script and style only; the drawings carry an inline <style>
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class WebApp:
    """The application: its sessions, the rule sets it offers, its routes."""

    def __init__(self, games: dict[str, Callable[[], Game]], sessions: Sessions) -> None:
        self.games = games  # rule set name -> its game, loaded when first asked
        self.loaded: dict[str, Game] = {}
        self.sessions = sessions
        self.allowed_hosts: set[str] = set()
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
            Rule("/api/replay/<key>", endpoint="api_replay"),
            Rule("/api/scenario/<key>", endpoint="api_scenario"),
        ])

    # -- plumbing ---------------------------------------------------------------------------------
    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        request = Request(environ)
        request.max_content_length = MAX_UPLOAD if request.path == "/open" else MAX_BODY
        request.max_form_memory_size = MAX_UPLOAD
        try:
            self.check_host(request)
            endpoint, args = self.urls.bind_to_environ(environ).match()
            with self.sessions.lock:
                response = getattr(self, endpoint)(request, **args)
        except ViewError as exc:
            response = self.json({"error": str(exc)}, 400)
        except RulewrightError as exc:
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

    def check_host(self, request: Request) -> None:
        if not self.allowed_hosts:
            return
        host = (request.host or "").lower()
        if host not in self.allowed_hosts:
            raise Forbidden(f"requests must be addressed to {sorted(self.allowed_hosts)[0]}")

    @staticmethod
    def json(data: Any, status: int = 200) -> Response:
        return Response(json.dumps(data), status, mimetype="application/json")

    def page(self, template: str, **values: Any) -> Response:
        return Response(self.env.get_template(template).render(**values), mimetype="text/html")

    @staticmethod
    def body(request: Request) -> dict[str, Any]:
        """A POST's JSON object (only JSON: a form of another site cannot send it)."""
        if request.mimetype != "application/json":
            raise BadRequest("send JSON (Content-Type: application/json)")
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise BadRequest("expected a JSON object")
        return data

    def game(self, name: str) -> Game:
        maker = self.games.get(name)
        if maker is None:
            raise NotFound(f"no rule set {name!r} here")
        if name not in self.loaded:
            self.loaded[name] = maker()
        return self.loaded[name]

    def play_session(self, key: str) -> PlaySession:
        found = self.sessions.games.get(key)
        if found is None:
            raise NotFound("no such game (the server keeps games only while it runs)")
        return found

    # -- pages ------------------------------------------------------------------------------------
    def index(self, request: Request) -> Response:
        rulesets = []
        for name in self.games:
            rulesets.append({"name": name})
        replays = [{"key": k, "name": n, "moves": len(r.moves)} for k, (n, r) in self.sessions.replays.items()]
        scenarios = [{"key": k, "name": n, "count": len(v)} for k, (n, v) in self.sessions.scenarios.items()]
        return self.page("index.html.j2", rulesets=rulesets, replays=replays, scenarios=scenarios)

    def new(self, request: Request) -> Response:
        name = request.values.get("ruleset", "")
        game = self.game(name)
        if request.method != "POST":
            players = game.info.players
            wanted = request.args.get("players", "")
            count = int(wanted) if wanted.isdigit() and int(wanted) in players else players[0]
            return self.page("new.html.j2", ruleset=name, title=game.info.title, players=players, count=count,
                             roles=game.info.roles, kinds=[HUMAN, *AGENT_KINDS], options=game.info.options,
                             error=None)
        players_text = request.form.get("players", "")
        seed_text = request.form.get("seed", "") or "1"
        if not players_text.isdigit() or not seed_text.lstrip("-").isdigit() or len(seed_text) > 20:
            raise BadRequest("players and seed must be whole numbers")
        count = int(players_text)
        seats = [request.form.get(f"seat{k + 1}", HUMAN) for k in range(min(count, 16))]
        options = {key.removeprefix("option."): value for key, value in request.form.items()
                   if key.startswith("option.")}
        try:
            session = PlaySession.start(game, count, int(seed_text), seats, options)
        except RulewrightError as exc:
            return self.page("new.html.j2", ruleset=name, title=game.info.title, players=game.info.players,
                             count=count, roles=game.info.roles, kinds=[HUMAN, *AGENT_KINDS],
                             options=game.info.options, error=str(exc))
        key = self.sessions.add_game(session)
        return Response("", 303, headers={"Location": f"/game/{key}"})

    def open_file(self, request: Request) -> Response:
        """A log or a scenario file sent from the browser: kept in a file of its own in a private
        temporary folder and read as `serve FILE` reads one (a log's header names its rule set by
        bundled id only there: no rule file lies beside it), then removed."""
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
                    views = load_scenarios(path)
                    for view in views:  # (where a scenario is written: in the file sent, not the copy)
                        view.where = view.where.replace(str(path), name)
                    key = self.sessions.add_scenarios(name, views)
                    where = f"/scenario/{key}"
                else:
                    key = self.sessions.add_replay(name, load_replay(path))
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
        players_text = request.args.get("players", "")
        players = int(players_text) if players_text.isdigit() else None
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
        return self.page("board.html.j2", mode=mode, title=title, cfg={"mode": mode, "key": key, **cfg})

    def game_page(self, request: Request, key: str) -> Response:
        s = self.play_session(key)
        return self.board_page("play", key, s.game.info.title, {
            "players": s.state.num_players, "seats": s.seats,
            "viewable": [REFEREE if v is None else v + 1 for v in s.viewable()]})

    def replay_page(self, request: Request, key: str) -> Response:
        found = self.sessions.replays.get(key)
        if found is None:
            raise NotFound("no such replay")
        name, replay = found
        return self.board_page("replay", key, f"{replay.game.info.title}: {name}", {
            "players": replay.states[0].num_players, "total": len(replay.states) - 1,
            "moves": [f"P{p + 1} {a}" for p, a in replay.moves], "problem": replay.problem,
            "viewable": [*range(1, replay.states[0].num_players + 1), REFEREE]})

    def scenario_page(self, request: Request, key: str) -> Response:
        found = self.sessions.scenarios.get(key)
        if found is None:
            raise NotFound("no such scenario file")
        name, views = found
        return self.board_page("scenario", key, f"Scenarios: {name}", {
            "scenarios": [{"name": v.name, "doc": v.doc, "where": v.where, "ruleset": v.ruleset, "steps": v.steps,
                           "checks": v.checks, "passed": v.passed, "problem": v.problem,
                           "players": next((st.num_players for st in v.states if st is not None), 1)}
                          for v in views]})

    def static(self, request: Request, name: str) -> Response:
        if name not in STATIC:
            raise NotFound()
        return Response((UI / name).read_bytes(), mimetype=STATIC[name])

    # -- the game API -----------------------------------------------------------------------------
    def _seat(self, s: PlaySession, text: Any) -> int | None:
        seat = parse_seat(str(text) if text is not None else None, s.state.num_players)
        s.check_viewer(seat)
        return seat

    def _game_payload(self, s: PlaySession, seat: int | None, **extra: Any) -> Response:
        seen = s.history_for(seat)  # each move as this seat reads it (`others_text:`)
        last = seen[-1] if seen and "picked" not in extra else None
        data = payload(s.state, seat, seat is not None and s.seats[seat] == HUMAN, last=last, **extra)
        agent = s.agent_to_act()
        data["agent_to_act"] = None if agent is None or s.state.is_terminal() else agent + 1
        data["history"] = [f"P{p + 1} {text}" for (p, _), text in zip(s.history, seen, strict=True)]
        return self.json(data)

    def api_game(self, request: Request, key: str) -> Response:
        s = self.play_session(key)
        return self._game_payload(s, self._seat(s, request.args.get("seat")))

    def api_move(self, request: Request, key: str) -> Response:
        s = self.play_session(key)
        data = self.body(request)
        seat = self._seat(s, data.get("seat"))
        text = data.get("text")
        if seat is None or not isinstance(text, str) or len(text) > 2000:
            raise BadRequest("a move needs the seat playing it and its text")
        refused = s.play(seat, text)
        if refused is not None:
            return self.json({"illegal": refused}, 200)
        return self._game_payload(s, seat)

    def api_click(self, request: Request, key: str) -> Response:
        s = self.play_session(key)
        data = self.body(request)
        seat = self._seat(s, data.get("seat"))
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
        s = self.play_session(key)
        data = self.body(request)
        seat = self._seat(s, data.get("seat"))
        s.step_agent()
        return self._game_payload(s, seat)

    def api_log(self, request: Request, key: str) -> Response:
        s = self.play_session(key)
        if any(seat == HUMAN for seat in s.seats) and not s.state.is_terminal():
            raise Forbidden("the log holds the whole state: it is given when the game is over")
        return Response("\n".join(s.log_lines()) + "\n", mimetype="application/x-ndjson",
                        headers={"Content-Disposition": "attachment; filename=game.jsonl"})

    # -- replays and scenarios --------------------------------------------------------------------
    def api_replay(self, request: Request, key: str) -> Response:
        found = self.sessions.replays.get(key)
        if found is None:
            raise NotFound("no such replay")
        replay = found[1]
        move = request.args.get("move", "0")
        if not move.isdigit() or int(move) >= len(replay.states):
            raise BadRequest(f"moves are 0 to {len(replay.states) - 1}")
        state = replay.states[int(move)]
        seat = parse_seat(request.args.get("seat"), state.num_players)
        data = payload(state, seat, False, last=replay.moves[int(move) - 1][1] if int(move) else None)
        data["move"] = int(move)
        return self.json(data)

    def api_scenario(self, request: Request, key: str) -> Response:
        found = self.sessions.scenarios.get(key)
        if found is None:
            raise NotFound("no such scenario file")
        views = found[1]
        k, step = request.args.get("k", "0"), request.args.get("step", "0")
        if not k.isdigit() or int(k) >= len(views):
            raise BadRequest("no such scenario")
        view = views[int(k)]
        if not step.isdigit() or int(step) >= len(view.states):
            raise BadRequest(f"steps are 0 to {len(view.states) - 1}")
        state = view.states[int(step)]
        if state is None:
            return self.json({"error": view.errors[int(step)] or "this step was not played", "step": int(step)})
        seat = parse_seat(request.args.get("seat"), state.num_players)
        data = payload(state, seat, False)
        data["step"] = int(step)
        data["stopped"] = view.errors[int(step)]
        return self.json(data)


def bundled_games() -> dict[str, Callable[[], Game]]:
    """Every bundled rule set by id, each loaded when first asked for."""
    from functools import partial

    from . import load as load_ruleset
    from .compiler.resolve import bundled_ids

    return {rid: partial(load_ruleset, rid) for rid in bundled_ids()}


def make_app(source: str | None) -> tuple[WebApp, str]:
    """The application serving the bundled rule sets and `source` (a rule set, a log, a saved
    state or a scenario file); with the path to open first."""
    from .cli import load_game

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
    return WebApp(games, sessions), start


def _is_scenario_file(path: Path) -> bool:
    """Whether a YAML file is a scenario file (a mapping with `scenarios:`), not a rule file."""
    from .compiler.load import LoadError, YMap, load
    from .scenarios import read_scenario_file

    try:
        tree = load(str(path), read_scenario_file(path, str(path)))
    except LoadError:
        return False
    return isinstance(tree, YMap) and tree.get("scenarios") is not None


class QuietHandler(WSGIRequestHandler):
    """Werkzeug's request handler, logging only the requests that failed in the server."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if isinstance(code, int) and code >= 500:
            super().log_request(code, size)


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
    if host in WILDCARDS:  # every address of the machine: its names are not known here
        app.allowed_hosts = set()
        return server
    names = {host, "localhost", "127.0.0.1", "[::1]"} if host in ("127.0.0.1", "localhost", "::1") else {host}
    app.allowed_hosts = {f"{n}:{bound}".lower() for n in names} | {f"[{host}]:{bound}"}
    return server
