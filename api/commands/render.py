"""`rulewright render`: a saved state or a position of a log drawn as SVG (api/draw.py), and as PNG
(`--png`, through cairosvg: the `render` extra)."""

from __future__ import annotations

from pathlib import Path

import click

from ..rulesets import load_game
from ..runtime.errors import RulewrightError
from ..terminal import printable
from ..viewer import ViewError, load_replay, load_state_file, looks_like_state, parse_seat
from .shared import CliError, WholeNumber


@click.command("render")
@click.argument("source", metavar="STATE.json|LOG", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the drawing here (SVG).")
@click.option("--png", "png_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the drawing here as a PNG image (needs the `render` extra: cairosvg).")
@click.option("--width", type=WholeNumber(min=16), default=None, metavar="PIXELS",
              help="--png: the image this many pixels wide (default: the drawing's own width).")
@click.option("--move", type=WholeNumber(min=0), default=None,
              help="LOG: the position after this many moves (default: the last replayed).")
@click.option("--seat", default="referee", show_default=True, metavar="K|referee",
              help="Draw what seat K (from 1) sees, its observation only; `referee` sees all.")
@click.option("--ruleset", metavar="RULESET", default=None,
              help="Read the state or log under this rule set instead of the one it names.")
def command(source: Path, svg_path: Path | None, png_path: Path | None, width: int | None, move: int | None,
            seat: str, ruleset: str | None) -> None:
    """Draw a saved state (`State.to_json()`) or a position of a game log as SVG and/or PNG: the
    board from the rule set's own board, drawn as its `look:` says, the state's fields on it, the
    player areas of the seat drawn."""
    from ..draw import render_svg

    if svg_path is None and png_path is None:
        raise CliError("say where to draw: --svg FILE, --png FILE, or both")
    if width is not None and png_path is None:
        raise CliError("--width is the PNG's width: give --png FILE too")
    try:
        if looks_like_state(source):
            if move is not None:
                raise CliError("--move is for a log; a saved state is one position")
            state = load_state_file(source, (lambda _: load_game(ruleset)) if ruleset else None)
        else:
            replay = load_replay(source, ruleset)
            if replay.problem is not None:
                click.echo(f"note: {replay.problem}; positions up to there are drawn", err=True)
            last = len(replay.states) - 1
            if move is not None and move > last:
                raise CliError(f"--move {move}: the log replays {last} moves")
            state = replay.states[last if move is None else move]
        viewer = parse_seat(seat, state.num_players)
        svg = render_svg(state, viewer)
    except (ViewError, RulewrightError) as exc:
        raise CliError(str(exc)) from None
    if svg_path is not None:
        try:
            svg_path.write_text(svg, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot write {printable(str(svg_path))}: {exc.strerror or exc}") from None
        click.echo(f"wrote {printable(str(svg_path))}")
    if png_path is not None:
        from ..draw import svg_to_png

        try:
            png = svg_to_png(svg, width)
        except ImportError:
            raise CliError("--png needs cairosvg: pip install 'rulewright[render]'") from None
        try:
            png_path.write_bytes(png)
        except OSError as exc:
            raise CliError(f"cannot write {printable(str(png_path))}: {exc.strerror or exc}") from None
        click.echo(f"wrote {printable(str(png_path))}")
