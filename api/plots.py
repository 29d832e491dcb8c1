"""The charts of a comparison (`rulewright compare --plot DIR`): win rate by seat with its
intervals, score distributions by seat, game length; each as SVG and PNG, and report.html,
one self-contained page (the SVGs inline, no network) with the measures and their verdicts.
The charts of a measurement (`rulewright metrics --plot DIR`, `write_metrics`): win rate by
seat, the length histogram, branching and the winner's lead over the course of the game.

matplotlib draws them, without pyplot (no global state, no display: the Agg canvas). The
files are the same for the same comparison: no date in the SVG or PNG, fixed SVG ids.
"""

from __future__ import annotations

import contextlib
import html
import os
from pathlib import Path
from typing import Any

from .compare import Comparison, number, side_value
from .metrics import Metrics

COLOURS = ("#4C72B0", "#DD8452")  # A, B
CHARTS = ("win-rates", "scores", "length")


def figure(width: float, height: float) -> Any:
    """A matplotlib figure whose SVG is the same every time (compare's, metrics' and tune's charts)."""
    import matplotlib

    matplotlib.rcParams["svg.hashsalt"] = "rulewright"  # ids in the SVG: the same every time
    matplotlib.rcParams["svg.fonttype"] = "none"  # text as text: small files
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def save(fig: Any, folder: Path, name: str) -> list[Path]:
    """`fig` as DIR/<name>.svg and .png, without a date or the software's name (the same bytes for
    the same chart); each written under a temporary name and renamed: a file that exists is whole."""
    written = []
    for suffix, metadata in (("svg", {"Date": None}), ("png", {"Software": None})):
        path = folder / f"{name}.{suffix}"
        temporary = folder / f".{name}.{os.getpid()}.tmp.{suffix}"
        try:
            fig.savefig(temporary, format=suffix, metadata=metadata)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                temporary.unlink()
            raise
        written.append(path)
    return written


def _seat_names(c: Comparison) -> list[str]:
    return [f"P{p + 1}" for p in range(c.players)]


def win_rates(c: Comparison) -> Any:
    """Grouped bars: each seat's win rate in A and in B, with their Wilson intervals."""
    fig = figure(1.6 + 1.2 * c.players, 3.6)
    ax = fig.add_subplot()
    width = 0.38
    for k, (side, label) in enumerate((("a", f"A: {c.a.label}"), ("b", f"B: {c.b.label}"))):
        xs, rates, below, above = [], [], [], []
        for p in range(c.players):
            m = next(m for m in c.measures if m["key"] == f"win_rate.P{p + 1}")
            if m[side] is None:
                continue
            s = m[side]
            xs.append(p + (k - 0.5) * width)
            rates.append(s["rate"] * 100)
            below.append((s["rate"] - s["low"]) * 100)
            above.append((s["high"] - s["rate"]) * 100)
        ax.bar(xs, rates, width, yerr=[below, above], capsize=4, color=COLOURS[k], label=label)
    ax.axhline(100 / c.players, color="grey", linewidth=0.8, linestyle="--", label="fair share")
    ax.set_xticks(range(c.players), _seat_names(c))
    ax.set_ylabel(f"win rate, % ({(1 - c.alpha) * 100:g}% Wilson interval)")
    ax.set_ylim(0, 100)
    ax.set_title("Win rate by seat")
    ax.legend(fontsize="small", loc="upper right")
    return fig


def scores(c: Comparison) -> Any:
    """Box plots of each seat's final score in A and in B (pairs where both finished)."""
    both = c.games_a.finished & c.games_b.finished
    fig = figure(1.6 + 1.2 * c.players, 3.6)
    ax = fig.add_subplot()
    for k, games in enumerate((c.games_a, c.games_b)):
        data = [games.scores[p][both] for p in range(c.players)]
        positions = [p + (k - 0.5) * 0.38 for p in range(c.players)]
        ax.boxplot(data, positions=positions, widths=0.32, patch_artist=True, showfliers=True,
                   boxprops={"facecolor": COLOURS[k], "alpha": 0.8}, medianprops={"color": "black"},
                   flierprops={"markersize": 2})
    ax.set_xticks(range(c.players), _seat_names(c))
    ax.set_xlim(-0.6, c.players - 0.4)
    ax.set_ylabel("final score")
    ax.set_title("Score distributions")
    _side_legend(ax, c)
    return fig


def length(c: Comparison) -> Any:
    """Histograms of game length in moves and in turns, A over B."""
    import numpy as np

    both = c.games_a.finished & c.games_b.finished
    fig = figure(7.2, 3.2)
    for i, (what, a, b) in enumerate((("moves", c.games_a.moves, c.games_b.moves),
                                      ("turns", c.games_a.turns, c.games_b.turns))):
        ax = fig.add_subplot(1, 2, i + 1)
        values = np.concatenate([a[both], b[both]])
        if len(values):
            bins = np.histogram_bin_edges(values, bins=min(30, max(5, len(np.unique(values)))))
            for k, v in enumerate((a[both], b[both])):
                ax.hist(v, bins=bins, histtype="stepfilled", alpha=0.45, color=COLOURS[k], edgecolor=COLOURS[k])
        ax.set_xlabel(what)
        ax.set_ylabel("games")
        ax.set_title(f"Game length ({what})")
    _side_legend(fig.axes[0], c)
    return fig


def _side_legend(ax: Any, c: Comparison) -> None:
    from matplotlib.patches import Patch

    handles = [Patch(color=COLOURS[0], label=f"A: {c.a.label}"), Patch(color=COLOURS[1], label=f"B: {c.b.label}")]
    ax.legend(handles=handles, fontsize="small")


def write_all(c: Comparison, folder: Path) -> list[Path]:
    """Every chart as DIR/<name>.svg and .png, and DIR/report.html; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    svgs: dict[str, str] = {}
    for name, draw in (("win-rates", win_rates), ("scores", scores), ("length", length)):
        svg, png = save(draw(c), folder, name)
        written += [svg, png]
        svgs[name] = svg.read_text(encoding="utf-8")
    report = folder / "report.html"
    report.write_text(report_html(c, svgs), encoding="utf-8")
    written.append(report)
    return written


def report_html(c: Comparison, svgs: dict[str, str]) -> str:
    """One page, nothing fetched: the sides, the measures with their verdicts, the charts."""
    data = c.to_json()
    e = html.escape
    rows = []
    for m in c.measures:
        if m["a"] is None:
            rows.append(f"<tr><td>{e(m['name'])}</td><td colspan=6>no pairs</td></tr>")
            continue
        scale, unit = (100, "%") if m["kind"] == "rate" else (1, "")
        d = m["difference"]
        cls = " class=sig" if m["significant"] else ""
        rows.append(
            f"<tr{cls}><td>{e(m['name'])}</td><td>{number(side_value(m, 'a') * scale)}{unit}</td>"
            f"<td>{number(side_value(m, 'b') * scale)}{unit}</td><td>{number(d['value'] * scale, True)}</td>"
            f"<td>[{number(d['low'] * scale, True)}, {number(d['high'] * scale, True)}]</td>"
            f"<td>{e(m['test']['name'])}</td>"
            f"<td>{m['test']['p']:.3g}</td></tr>")
    verdicts = "\n".join(f"<li>{e(m['verdict'])}</li>" for m in c.measures)
    charts = "\n".join(f"<figure>{_inline(svgs[name])}</figure>" for name in CHARTS if name in svgs)
    methods = "\n".join(f"<li>{e(k.replace('_', ' '))}: {e(v)}</li>" for k, v in data["methods"].items())
    level = f"{(1 - c.alpha) * 100:g}%"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>rulewright compare: {e(c.a.label)} / {e(c.b.label)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 60em; }}
table {{ border-collapse: collapse; }} td, th {{ padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; }}
td:not(:first-child) {{ text-align: right; }} tr.sig td {{ font-weight: bold; }}
figure {{ margin: 1em 0; }} svg {{ max-width: 100%; height: auto; }}
</style></head><body>
<h1>compare</h1>
<p>A: <b>{e(c.a.label)}</b><br>B: <b>{e(c.b.label)}</b></p>
<p>{data['games']} games per side on the same seeds (seed {c.seed}), {c.players} players;
{data['pairs']} pairs where both games finished. A: {data['sides']['a']['capped']} capped,
{data['sides']['a']['errors']} failed; B: {data['sides']['b']['capped']} capped,
{data['sides']['b']['errors']} failed.</p>
<h2>Measures (B - A, {level} intervals, significant at {c.alpha:g} in bold)</h2>
<table><tr><th>measure</th><th>A</th><th>B</th><th>B - A</th><th>{level} interval</th><th>test</th><th>p</th></tr>
{chr(10).join(rows)}
</table>
<ul>
{verdicts}
</ul>
<h2>Charts</h2>
{charts}
<h2>Methods</h2>
<ul>
{methods}
</ul>
</body></html>
"""


def _inline(svg: str) -> str:
    """An SVG file's text as an element of the page: from its <svg> tag on."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else ""


# -- the charts of `rulewright metrics` --------------------------------------------------------
METRICS_CHARTS = ("win-rates", "length", "branching", "lead")


def metrics_win_rates(m: Metrics) -> Any:
    """Each seat's win rate (its only wins) with its interval, against the fair share."""
    fig = figure(1.6 + 1.0 * m.players, 3.6)
    ax = fig.add_subplot()
    xs, rates, below, above = [], [], [], []
    for p in range(m.players):
        e = m.estimates[f"win_rate.P{p + 1}"]
        if e.value != e.value:  # nan: no game finished
            continue
        xs.append(p)
        rates.append(e.value * 100)
        below.append((e.value - e.low) * 100)
        above.append((e.high - e.value) * 100)
    ax.bar(xs, rates, 0.6, yerr=[below, above], capsize=4, color=COLOURS[0])
    ax.axhline(100 / m.players, color="grey", linewidth=0.8, linestyle="--", label="fair share")
    ax.set_xticks(range(m.players), [f"P{p + 1}" for p in range(m.players)])
    ax.set_ylabel(f"win rate, % ({m.confidence * 100:g}% Wilson interval)")
    ax.set_ylim(0, 100)
    ax.set_title(f"Win rate by seat ({m.ruleset})".replace("$", r"\$"))  # (a `$` of a path is no mathtext)
    ax.legend(fontsize="small", loc="upper right")
    return fig


def metrics_length(m: Metrics) -> Any:
    """The histogram of the finished games' lengths in moves."""
    import numpy as np

    fig = figure(4.8, 3.2)
    ax = fig.add_subplot()
    if m.lengths:
        values = np.array(m.lengths, dtype=float)
        bins = np.histogram_bin_edges(values, bins=min(30, max(5, len(np.unique(values)))))
        ax.hist(values, bins=bins, color=COLOURS[0], edgecolor="white")
    ax.set_xlabel("moves")
    ax.set_ylabel("games")
    ax.set_title("Game length (finished games)")
    return fig


def _over_the_game(values: tuple[float, ...], ylabel: str, title: str, ylim: tuple[float, float] | None) -> Any:
    fig = figure(4.8, 3.2)
    ax = fig.add_subplot()
    bins = len(values)
    xs = [(k + 0.5) / bins * 100 for k in range(bins)]
    ax.plot(xs, values, marker="o", color=COLOURS[0])  # (nan: a gap in the line)
    ax.set_xlim(0, 100)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xlabel("part of the game, % of its moves")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return fig


def write_metrics(m: Metrics, folder: Path) -> list[Path]:
    """Every chart of a measurement as DIR/<name>.svg and .png; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    draws = {
        "win-rates": lambda: metrics_win_rates(m),
        "length": lambda: metrics_length(m),
        "branching": lambda: _over_the_game(m.branching_curve, "legal actions per decision",
                                            "Branching over the game", None),
        "lead": lambda: _over_the_game(m.lead_curve, "share of positions the winner leads",
                                       f"The winner's lead by {m.lead or 'score'} over the game".replace("$", r"\$"),
                                       (0, 1)),
    }
    written: list[Path] = []
    for name in METRICS_CHARTS:
        written += save(draws[name](), folder, name)
    return written
