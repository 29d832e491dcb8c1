"""`rulewright lsp`: the language server of rule and scenario files (api/lsp.py, docs/editors.md)."""

from __future__ import annotations

import click

from ..runtime.errors import whole_number
from .shared import CliError


def tcp_address(text: str) -> tuple[str, int]:
    """`--tcp [HOST:]PORT` as (host, port); the host is 127.0.0.1 unless given."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    number = whole_number(port)
    if number is None or not 1 <= number <= 65535 or not host:
        raise CliError(f"bad --tcp `{text}`: expected PORT or HOST:PORT, a port from 1 to 65535, e.g. --tcp 2087")
    return host, number


@click.command("lsp")
@click.option("--tcp", "tcp", metavar="[HOST:]PORT", default=None,
              help="Listen on TCP (for debugging; the host is 127.0.0.1 unless given) instead of stdio.")
def command(tcp: str | None) -> None:
    """The language server of rule and scenario files, for editors (docs/editors.md): the
    checker's problems as you type, hover, go to definition across `extends:` files, completion
    and the outline of a file. Speaks the Language Server Protocol on stdin and stdout."""
    address = tcp_address(tcp) if tcp is not None else None
    try:
        from ..lsp import Refused, serve
    except ImportError as exc:
        raise CliError(f"`rulewright lsp` needs pygls and lsprotocol ({exc.name or exc} is missing): "
                       "pip install 'rulewright[lsp]'") from None
    try:
        serve(address)
    except Refused as exc:
        raise CliError(f"refused standard input: {exc}") from None
    except OSError as exc:
        where = f"{address[0]}:{address[1]}" if address else "stdio"
        raise CliError(f"cannot serve on {where}: {exc.strerror or exc}") from None
