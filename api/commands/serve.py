"""`rulewright serve`: the web board (api/web.py, docs/web.md)."""

from __future__ import annotations

import sys

import click

from ..runtime.errors import RulewrightError
from ..viewer import ViewError
from .shared import CliError, WholeNumber


@click.command("serve")
@click.argument("source", metavar="[RULESET|LOG|SCENARIO]", required=False)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default is this machine only).")
@click.option("--port", type=WholeNumber(min=0, max=65535), default=8765, show_default=True,
              help="Port (0: any free one, printed).")
def command(source: str | None, host: str, port: int) -> None:
    """Start the web board: play any rule set in the browser (seats human or agents), replay a
    log, step a scenario file. Prints its address; Ctrl-C stops it."""
    try:
        from ..web import make_app, make_server
    except ImportError as exc:
        raise CliError(f"the web board needs the `web` extra: pip install 'rulewright[web]' ({exc})") from None
    try:
        app, start = make_app(source)
        server = make_server(host, port, app)
    except (ViewError, RulewrightError) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    from ..web import WILDCARDS

    if host in WILDCARDS or host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: other machines may reach this board and its games", err=True)
    shown_host = f"[{host}]" if ":" in host else host
    click.echo(f"rulewright web board at http://{shown_host}:{server.server_port}{start}  (Ctrl-C stops it)")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        app.close()
