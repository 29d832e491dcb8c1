"""Rule coverage: which points of a rule set fired in random games or in scenarios.

`rulewright coverage RULESET -n N` plays N random games (the games `simulate` plays, seed for
seed) on the rule set's coverage build (compiler/probes.py: every pass off, a probe at each
point) and `rulewright scenario --coverage PATHS` runs scenarios on it. A `Report` holds the
points and how often each outcome was seen: a table per kind of point and per rule file, with
the points never or only partly fired, each with its file:line and rule path; `--json` gives
the same as data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .compiler.probes import KINDS, Point, Probed, compile_probed
from .core.paths import RULE_FILE_SUFFIXES, ruleset_file
from .loading import game_from_source
from .match import DEFAULT_MAX_MOVES, play_game
from .runtime.errors import BadSetup
from .runtime.rng import Rng, derive_seed
from .runtime.state import Game
from .terminal import printable

OPTION_SALT = 0x0C0FFEE  # the options of game i under --vary-options are drawn apart from its seed
OPTION_DEPENDENT = "option-dependent"  # the summary row of the points whose test reads an option


@dataclass
class Instrumented:
    """A rule set's coverage build, loaded: its game and the counters of its points."""

    probed: Probed
    game: Game
    hits: list[int]
    stamps: tuple[tuple[int, int], ...]  # each rule file's modification time and size, when compiled

    def reset(self) -> None:
        self.hits[:] = [0] * len(self.hits)


_BUILDS: dict[Path, Instrumented] = {}


def _stamps(paths: Iterable[Path]) -> tuple[tuple[int, int], ...]:
    out = []
    for path in paths:
        try:
            st = path.stat()
        except OSError:
            return ()
        out.append((st.st_mtime_ns, st.st_size))
    return tuple(out)


def instrument(path: Path) -> Instrumented:
    """The coverage build of a rule file, compiled in memory (again only once one of its rule
    files changed); CompileError with the rule file's problems."""
    key = path.resolve()
    known = _BUILDS.get(key)
    if known is None or _stamps(known.probed.paths) != known.stamps:
        probed = compile_probed(path)
        game = game_from_source(probed.source, str(path))
        hits: list[int] = game.state_class.HITS  # type: ignore[attr-defined]
        known = _BUILDS[key] = Instrumented(probed, game, hits, _stamps(probed.paths))
    return known


@dataclass
class Report:
    """The points of one rule set and how often each outcome was seen in `runs` games or scenarios."""

    ruleset: str
    files: tuple[str, ...]
    points: tuple[Point, ...]
    hits: tuple[int, ...]
    runs: int
    source: str  # "random games" or "scenarios"
    settings: dict[str, Any] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # games that raised: their first messages
    defaults: dict[str, str] = field(default_factory=dict)  # the rule set's default options (the text names others)

    def counts(self, p: Point) -> list[int]:
        return list(self.hits[p.counter:p.counter + len(p.outcomes)])

    def missing(self, p: Point) -> list[str]:
        return [o for o, n in zip(p.outcomes, self.counts(p), strict=True) if not n]

    def only(self, files: Iterable[str]) -> Report:
        """The report of the points written in `files` only (a variant's own rules)."""
        keep = set(files)
        return Report(self.ruleset, tuple(f for f in self.files if f in keep),
                      tuple(p for p in self.points if p.file in keep), self.hits, self.runs, self.source,
                      self.settings, self.errors, self.defaults)

    def tally(self, points: Iterable[Point]) -> dict[str, tuple[int, int, int]]:
        """Per kind (and the option-dependent points, and overall): points, outcomes, outcomes seen."""
        rows: dict[str, list[int]] = {}
        for p in points:
            seen = sum(1 for n in self.counts(p) if n)
            keys = [p.kind, "overall"] + ([OPTION_DEPENDENT] if p.option and p.kind != "option" else [])
            for key in keys:
                row = rows.setdefault(key, [0, 0, 0])
                row[0] += 1
                row[1] += len(p.outcomes)
                row[2] += seen
        return {k: (v[0], v[1], v[2]) for k, v in rows.items()}

    def to_json(self) -> dict[str, Any]:
        def summary(points: Sequence[Point]) -> dict[str, Any]:
            return {kind: {"points": n, "outcomes": total, "seen": seen, "percent": _percent(seen, total)}
                    for kind, (n, total, seen) in self.tally(points).items()}

        return {
            "ruleset": self.ruleset,
            "source": self.source,
            "runs": self.runs,
            **self.settings,
            "errors": self.errors,
            "files": [{"file": f, "summary": summary([p for p in self.points if p.file == f])} for f in self.files],
            "summary": summary(self.points),
            "points": [{"kind": p.kind, "rule": p.rule, "what": p.what, "file": p.file, "line": p.line, "col": p.col,
                        "option_dependent": p.option,
                        "outcomes": dict(zip(p.outcomes, self.counts(p), strict=True))} for p in self.points],
        }


def _percent(seen: int, total: int) -> float | None:
    return round(100 * seen / total, 1) if total else None


def _options_of(game: Game, i: int, seed: int, fixed: Mapping[str, str], players: int) -> dict[str, str]:
    """The options of game `i` under --vary-options: each option not fixed on the command line
    drawn at random (seeded by the game's number), a board that does not fit the player count
    left at its default."""
    rng = Rng(derive_seed(seed ^ OPTION_SALT, i))
    chosen = game.resolve_options(fixed)
    for o in game.info.options:
        value = o.choices[rng.below(len(o.choices))]
        if o.name in fixed:
            continue
        tried = {**chosen, o.name: value}
        try:
            game.board_for(tried, players)
        except BadSetup:
            continue
        chosen = tried
    return chosen


def run_games(path: Path, games: int, seed: int, players: int | None, options: Mapping[str, str],
              vary_options: bool = False, max_moves: int = DEFAULT_MAX_MOVES,
              advance: Callable[[], None] = lambda: None) -> Report:
    """Coverage of `games` random games (those `simulate` plays with this seed) of a rule file."""
    build = instrument(path)
    game = build.game
    count = game.info.players[0] if players is None else players
    chosen = game.resolve_options(options)
    game.board_for(chosen, count)
    build.reset()
    errors: list[str] = []
    capped = 0
    for i in range(games):
        game_options = _options_of(game, i, seed, options, count) if vary_options else chosen
        result = play_game(game, count, derive_seed(seed, i), game_options, max_moves)
        if result.error is not None:
            errors.append(f"game {i} (seed {result.seed}): {result.error}")
        capped += result.capped
        advance()
    settings: dict[str, Any] = {"seed": seed, "players": count,
                                "options": "varied" if vary_options else chosen, "capped": capped}
    if vary_options and options:
        settings["fixed_options"] = dict(options)
    return Report(build.probed.ruleset, build.probed.files, build.probed.points, tuple(build.hits), games,
                  "random games", settings, errors, game.resolve_options({}))


# -- the text report ---------------------------------------------------------------------------
def _cell(n: int, total: int, seen: int) -> Text:
    if not total:
        return Text("-")
    pct = 100 * seen / total
    style = "green" if seen == total else "red" if not seen else "yellow"
    return Text(f"{pct:.0f}% ({seen}/{total})", style=style)


def render(report: Report, console: Console, listing: bool = True) -> None:
    """The report as rich tables: per kind of point and per rule file, then the points never or
    only partly fired."""
    settings = report.settings
    said = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in settings.items() if k != "options"
                     and not isinstance(v, dict) and (k != "capped" or v))
    options = settings.get("options")
    if isinstance(options, dict):
        changed = {k: v for k, v in options.items() if report.defaults.get(k) != v}
        said += ", options " + (" ".join(f"{k}={v}" for k, v in changed.items()) if changed else "by default")
    elif options:
        said += f", options {options}"
    fixed = settings.get("fixed_options")
    if isinstance(fixed, dict):
        said += " but " + " ".join(f"{k}={v}" for k, v in fixed.items())
    runs = f"{report.runs} {report.source}" if report.runs != 1 else f"1 {report.source.removesuffix('s')}"
    title = f"Rule coverage of {report.ruleset}: {runs}" + (f" ({said})" if said else "")
    console.print(Text(printable(title), style="bold"))
    table = Table()
    table.add_column("kind")
    files = list(report.files)
    for f in files:
        table.add_column(Text(printable(f)), justify="right")
    if len(files) > 1:
        table.add_column("all", justify="right")
    per_file = [report.tally(p for p in report.points if p.file == f) for f in files]
    everything = report.tally(report.points)
    for kind in (*KINDS, OPTION_DEPENDENT, "overall"):
        if kind not in everything:
            continue
        cells = [_cell(*t.get(kind, (0, 0, 0))) for t in per_file]
        if len(files) > 1:
            cells.append(_cell(*everything[kind]))
        table.add_row(Text(kind, style="bold" if kind == "overall" else ""), *cells,
                      end_section=kind == OPTION_DEPENDENT or kind == KINDS[-1] and OPTION_DEPENDENT not in everything)
    console.print(table)
    if report.errors:
        console.print(Text(printable(f"{len(report.errors)} games raised an error; the first: {report.errors[0]}")),
                      style="red")
    if not listing:
        return
    order = {f: i for i, f in enumerate(report.files)}
    missed = sorted((p for p in report.points if report.missing(p)), key=lambda p: (order[p.file], p.line, p.col))
    if not missed:
        console.print("Every point fired, every outcome seen.")
        return
    never = sum(1 for p in missed if len(report.missing(p)) == len(p.outcomes))
    partly = len(missed) - never
    console.print(Text(f"Not fired: {never} point{'s' * (never != 1)} never, {partly} only partly", style="bold"))
    rows: list[tuple[str, str, str, Point]] = []
    for p in missed:
        rule = printable(p.rule)
        if p.kind in ("branch", "guard", "choice") or p.what.startswith("body of"):
            rule += f": {printable(p.what)}"
        rows.append((printable(f"{p.file}:{p.line}"), p.kind + ("*" if p.option and p.kind != "option" else ""),
                     rule, p))
    wide = [max(len(row[0]) for row in rows), max(len(row[1]) for row in rows)]
    for where, kind, rule, p in rows:
        missing = report.missing(p)
        line = Text(f"  {where:<{wide[0]}}  {kind:<{wide[1]}}  {rule}  ")
        line.append("never: " + ", ".join(missing), style="red" if len(missing) == len(p.outcomes) else "yellow")
        console.print(line, soft_wrap=True)
    if any(p.option and p.kind != "option" for p in missed):
        console.print("  (* what it tests reads an option: --vary-options or --option may fire it)")


# -- scenarios ---------------------------------------------------------------------------------
class RecordingLoader:
    """The scenarios' loader (scenarios.default_loader) that remembers the rule file of each
    game it loads, for its coverage build."""

    def __init__(self) -> None:
        self.files: dict[int, Path] = {}  # id of a game loaded -> its rule file

    def __call__(self, ruleset: str, here: Path) -> Game:
        from .scenarios import default_loader

        game = default_loader(ruleset, here)
        self.files[id(game)] = here.parent / ruleset if ruleset.endswith(RULE_FILE_SUFFIXES) \
            else ruleset_file(ruleset)
        return game


def run_scenarios(scenarios: Sequence[Any], loader: RecordingLoader) -> tuple[list[Report], list[Any]]:
    """Run the scenarios (loaded with `loader`) on the coverage builds of their rule sets: a
    report per rule set, and the scenarios' results, in their order."""
    from .scenarios import run

    groups: dict[Path, list[int]] = {}
    for i, s in enumerate(scenarios):
        groups.setdefault(loader.files[id(s.game)].resolve(), []).append(i)
    results: list[Any] = [None] * len(scenarios)
    reports = []
    for path, members in groups.items():
        build = instrument(path)
        build.reset()
        for i in members:
            results[i] = run(scenarios[i], build.game)
        named = scenarios[members[0]].ruleset  # a bundled id as the scenario files name it, a rule file as shown
        if named.endswith(RULE_FILE_SUFFIXES):
            named = build.probed.files[-1]
        reports.append(Report(named, build.probed.files, build.probed.points, tuple(build.hits),
                              len(members), "scenarios"))
    return reports, results
