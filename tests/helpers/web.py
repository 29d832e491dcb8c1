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
    return client.get(path) if body is None else client.post(path, json=body)
