"""The web board's server as the tests reach it: Werkzeug's test client with the server's token, and a
call of its JSON API."""

from __future__ import annotations

from typing import Any

from werkzeug.test import Client, TestResponse

from rulewright.web import TOKEN_HEADER, WebApp


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
