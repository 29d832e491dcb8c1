"""The web board's server as the tests reach it: Werkzeug's test client with the server's token, and a
call of its JSON API."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.test import Client, TestResponse

from rulewright.web import TOKEN_HEADER, WebApp, make_server


@contextmanager
def served(app: WebApp) -> Iterator[int]:
    """`app` served for real on a free port of 127.0.0.1, in a thread: its port (also `app.port`);
    afterwards the server stopped and the app closed (its agents' workers, live streams, saved logs)."""
    server = make_server("127.0.0.1", 0, app)
    app.port = server.server_port  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()
        app.close()
        thread.join(5)


class PageClient(Client):
    """Werkzeug's test client sending the server's token, as its own pages do (a request without
    it changes nothing: test_web_limits.py)."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        app = self.application
        assert isinstance(app, WebApp)
        kwargs["headers"] = {**dict(kwargs.get("headers") or {}), TOKEN_HEADER: app.token}
        return super().open(*args, **kwargs)


def api(client: Client, path: str, body: dict[str, object] | None = None) -> TestResponse:
    """A GET, or a POST of `body`; a move without its `version` (the move count the page saw) is
    sent with the game's version now, as a page that has just looked sends it."""
    if body is not None and path.endswith("/move") and "version" not in body:
        looked = client.get(f"{path.removesuffix('/move')}?seat={body.get('seat', '')}").json or {}
        body = {**body, "version": looked.get("version")}
    return client.get(path) if body is None else client.post(path, json=body)


def words(text: str) -> set[str]:
    """The words of a drawing's text (its labels and tooltips), whatever the rule set's look."""
    import re

    return set(re.findall(r"[\w-]+", text))


def drawing_words(svg: str) -> set[str]:
    """The words of an SVG drawing's text (as a page's `textContent` reads it)."""
    import xml.etree.ElementTree as ET

    return words(" ".join(ET.fromstring(svg).itertext()))


def private_words(views: list[str], public: str) -> list[set[str]]:
    """For the drawings of the seats (P1 first) and the spectator's (`public`), the words each
    seat's drawing holds and no other's: what only that seat is shown (its hand, as the look
    draws it: empty where the look draws two hands alike)."""
    sets = [drawing_words(v) for v in views]
    seen = drawing_words(public)
    return [s - seen - set().union(*(o for k, o in enumerate(sets) if k != p)) for p, s in enumerate(sets)]


def drawing_texts(svg: str) -> list[str]:
    """The text of a drawing, piece by piece, in order (its labels and tooltips)."""
    import xml.etree.ElementTree as ET

    return [t for t in (x.strip() for x in ET.fromstring(svg).itertext()) if t]
