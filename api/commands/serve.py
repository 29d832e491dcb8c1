"""`rulewright serve`: the web board (api/web.py, docs/web.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..runtime.errors import RulewrightError
from ..terminal import printable
from ..viewer import ViewError
from .shared import CliError, WholeNumber, plural


@click.command("serve")
@click.argument("source", metavar="[RULESET|LOG|SCENARIO]", required=False)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default is this machine only; an address of your network lets "
                   "friends on other machines play, each by the secret link of a seat).")
@click.option("--port", type=WholeNumber(min=0, max=65535), default=8765, show_default=True,
              help="Port (0: any free one, printed).")
@click.option("--games", "games", type=click.Path(file_okay=False, path_type=Path),
              help="Folder the games are saved in as they go, and resumed from when the server starts "
                   "(default: rulewright/games in your data folder, ~/.local/share on Linux).")
@click.option("--no-save", is_flag=True, help="Keep the games in memory only: they end with the server.")
def command(source: str | None, host: str, port: int, games: Path | None, no_save: bool) -> None:
    """Start the web board: play any rule set in the browser (seats human or agents, at one screen
    or each at their own by a secret link), replay a log, step a scenario file. Prints its address;
    Ctrl-C stops it (the games saved go on when it starts again)."""
    try:
        from ..web import make_app, make_server, save_games
    except ImportError as exc:
        raise CliError(f"the web board needs the `web` extra: pip install 'rulewright[web]' ({exc})") from None
    if no_save and games is not None:
        raise CliError("--games and --no-save cannot be given together")
    from ..savedgames import default_folder

    folder = None if no_save else games or default_folder()
    try:
        app, start = make_app(source)
        server = make_server(host, port, app)
    except (ViewError, RulewrightError) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    try:
        if folder is not None:  # (once the address is had: a server that cannot start makes no folder)
            save_games(app, folder)
    except ViewError as exc:
        server.server_close()
        raise CliError(str(exc)) from None
    from ..web import WILDCARDS

    for problem in app.problems:
        click.echo(f"warning: {problem}", err=True)
    shown_host = f"[{host}]" if ":" in host else host
    if folder is not None:
        resumed = app.sessions.games
        again = f"; {len(resumed)} taken up again:" if resumed else ""
        click.echo(f"games saved in {printable(str(folder))}{again}")
        for key, s in resumed.items():  # (its page: the links' page of a game played by links)
            page = s.links.get("host", key)
            click.echo(f"  {printable(s.name, 60)}, {plural(len(s.history), 'move')}: "
                       f"http://{shown_host}:{server.server_port}/game/{page}")
    if host in WILDCARDS or host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: other machines may reach this board and its games "
                   "(a game started with a link per seat is seen by each link as that seat only)", err=True)
    click.echo(f"rulewright web board at http://{shown_host}:{server.server_port}{start}  (Ctrl-C stops it)")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        app.close()
