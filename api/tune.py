"""Tuning a variant toward targets (`rulewright tune`, docs/tuning.md): Optuna searches values of
a rule set's options, of its constants (definitions without parameters whose value is a whole
number) and of its counters' starts (int state fields whose `init` is a whole number) so that
measures of simulated play (`rulewright.metrics.measure`) land in the bands the designer asks for;
the best values are written as a variant that `extends:` the rule set.

Each trial writes its values as a variant file in a temporary folder (extending the rule set by
its id or its absolute path) and measures it over the same games (the same seed for every trial:
common random numbers, so that two trials differ by their values, not by their luck). The study
lives in SQLite: the same command again goes on with it, a study made otherwise is refused.

The objective of a trial is 0 when every target is met; otherwise the sum over the targets of
how far the estimate lies outside its band, each divided by a scale so that targets mix: the
band's width for a band (`0.5+-0.03`: 0.06; `40..60`: 20), else a tenth of the measure's range
for a measure within [0, 1] or [-1, 1] (0.1), a tenth of the bound for a count (`length>30`: 3,
at least 1). A measure the games cannot give (nan: no game finished, say) counts NAN_PENALTY.

optuna is imported when a study runs (`pip install 'rulewright[tune]'`), matplotlib for --plot.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import shlex
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core.source import did_you_mean
from .runtime.errors import RulewrightError
from .runtime.rng import derive_seed
from .terminal import printable

if TYPE_CHECKING:
    from rich.table import Table

    from .agents import AgentSpec
    from .runtime.state import Game

# The measures of `rulewright.metrics` (`metrics.names()`) that are counts, not within [0, 1] (or
# [-1, 1], first_player_advantage): a one-sided target's scale is a tenth of its bound, not 0.1.
COUNTS = frozenset({"length", "length_median", "turns", "branching"})
NAN_PENALTY = 10.0  # what a target counts when its measure is nan (not measured in these games)
MAX_TARGETS = 32
MAX_PARAMS = 32
MAX_VALUES = 1_000_000  # values of one define's range
LIMIT = 10**9  # the largest magnitude of a number in a target or a range
STUDY_NAME = "rulewright-tune"
GRID_AT_MOST = 100_000  # combinations of --sampler grid
REPEATS_AT_MOST = 100  # proposals in a row of values tried already, before a search is taken to be done
FORMAT = 1  # of the settings kept in a study's user attributes


class TuneError(RulewrightError):
    """A bad target, parameter, tune file or study: one line saying what and how to fix it."""


class MissingTuneExtra(RulewrightError):
    """optuna (or matplotlib for --plot) is not installed."""


def need(what: str = "tune") -> None:
    """Import optuna, numpy and scipy (the measures), and matplotlib for the charts, or say how to
    install them."""
    import importlib

    for module in ["optuna", "numpy", "scipy.stats"] + (["matplotlib"] if what == "charts" else []):
        try:
            importlib.import_module(module)
        except ImportError:
            raise MissingTuneExtra(f"`tune` needs {module.partition('.')[0]}: pip install 'rulewright[tune]'") from None


# -- targets ------------------------------------------------------------------------------------
_NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?%?"
_TARGET = re.compile(r"\s*(?P<name>[A-Za-z0-9_.]+)\s*(?P<op>>=|<=|=|>|<)\s*(?P<rest>.*?)\s*")
_AROUND = re.compile(rf"(?P<c>{_NUMBER})\s*(?:\+-|\+/-|±)\s*(?P<d>{_NUMBER})")
_BETWEEN = re.compile(rf"(?P<a>{_NUMBER})\s*\.\.\s*(?P<b>{_NUMBER})")
TARGET_FORMS = "NAME=C+-D, NAME=A..B, NAME>X or NAME<X (e.g. first_player_win=0.5+-0.03, length_median=40..60)"


@dataclass(frozen=True, slots=True)
class Target:
    """A measure and the band it should lie in: [low, high], one side infinite for `>` or `<`."""

    measure: str
    low: float
    high: float
    text: str  # canonical: `first_player_win=0.5+-0.03`

    @property
    def two_sided(self) -> bool:
        return math.isfinite(self.low) and math.isfinite(self.high)

    @property
    def scale(self) -> float:
        if self.two_sided and self.high > self.low:
            return self.high - self.low
        if self.measure not in COUNTS:
            return 0.1
        bound = self.low if math.isfinite(self.low) else self.high
        return max(1.0, abs(bound) / 10)

    def miss(self, value: float | None) -> float:
        """How far `value` lies outside the band, in scales (0 inside it)."""
        if value is None or math.isnan(value):
            return NAN_PENALTY
        return max(0.0, self.low - value, value - self.high) / self.scale

    def off_centre(self, value: float | None) -> float:
        """How far `value` lies from the band's middle, in scales (0 for a one-sided target)."""
        if value is None or math.isnan(value) or not self.two_sided:
            return 0.0
        return abs(value - (self.low + self.high) / 2) / self.scale


def _number(text: str, what: str) -> float:
    value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    if not math.isfinite(value) or abs(value) > LIMIT:
        raise TuneError(f"{what}: `{printable(text, 40)}` is not a number within ±{LIMIT:g}")
    return value


def _shown(value: float) -> str:
    return f"{value:.6g}"


def measures_of(players: int) -> list[str]:
    """The measures a target may name: `rulewright.metrics`' (`strength` with --strength)."""
    from .metrics import names

    return names(players, strength=True)


def parse_target(text: str, players: int, at: str | None = None) -> Target:
    """A target as written (`first_player_win=0.5+-0.03`, `length_median=40..60`,
    `decisiveness>0.3`, `drama<0.2`; `±` for `+-`, `50%` for 0.5), checked; `at`: where a tune
    file writes it."""
    what = f"{at}: bad target `{printable(text, 80)}`" if at else f"bad --target `{printable(text, 80)}`"
    found = _TARGET.fullmatch(text) if text.isascii() or "±" in text else None
    if found is None:
        raise TuneError(f"{what}: expected {TARGET_FORMS}")
    name, op, rest = found["name"], found["op"], found["rest"]
    known = measures_of(players)
    if name not in known:
        hint = did_you_mean(name, known)
        raise TuneError(f"{what}: no measure `{printable(name, 40)}`" + (f"; {hint}" if hint else "")
                        + f" (the measures: {', '.join(known)})")
    if op in (">", ">=", "<", "<="):
        if not re.fullmatch(_NUMBER, rest):
            raise TuneError(f"{what}: expected a number after `{op}`, e.g. {name}{op}0.3")
        x = _number(rest, what)
        above = op.startswith(">")
        return Target(name, x if above else -math.inf, math.inf if above else x, f"{name}{op[0]}{_shown(x)}")
    around, between = _AROUND.fullmatch(rest), _BETWEEN.fullmatch(rest)
    if around is not None:
        c, d = _number(around["c"], what), _number(around["d"], what)
        if d < 0:
            raise TuneError(f"{what}: the tolerance after `+-` is negative")
        return Target(name, c - d, c + d, f"{name}={_shown(c)}+-{_shown(d)}")
    if between is not None:
        a, b = _number(between["a"], what), _number(between["b"], what)
        if a > b:
            raise TuneError(f"{what}: the band {_shown(a)}..{_shown(b)} is empty: write the lower bound first")
        return Target(name, a, b, f"{name}={_shown(a)}..{_shown(b)}")
    raise TuneError(f"{what}: expected {TARGET_FORMS}")


# -- parameters ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Space:
    """What a rule set lets `tune` vary: its options (name -> choices; `defaults`), its constants
    (definitions without parameters whose value is a whole number: name -> value) and its
    counters (int state fields whose `init` is a whole number); `others`: the definitions and
    fields that are neither, with why, for a message that says it."""

    options: Mapping[str, tuple[str, ...]]
    defaults: Mapping[str, str]
    constants: Mapping[str, int]
    others: Mapping[str, str]  # definition name -> why it cannot be tuned
    counters: Mapping[str, int] = field(default_factory=dict)
    other_fields: Mapping[str, str] = field(default_factory=dict)  # field name -> why not


# what a kind of param names: a definition (`define:`) or a state field's `init` (`state:`)
_KINDS = {"define": ("definition", "constants", "a definition without parameters whose value is a whole number "
                     "(e.g. `edge: \"5\"`)"),
          "state": ("state field", "counters", "an int field whose `init` is a whole number (e.g. `coins: {type: int, "
                    "init: 50}`)")}


@dataclass(frozen=True, slots=True)
class Param:
    kind: str  # "option", "define" or "state"
    name: str
    values: tuple[str | int, ...]  # the choices, or every whole number of the range
    text: str  # canonical: `option.board=hex5,hex7`, `define.edge=1..9/2`, `state.coins=30..70/10`
    low: int = 0
    high: int = 0
    step: int = 1

    @property
    def key(self) -> str:
        return f"{self.kind}.{self.name}"


_WHOLE = r"-?[0-9]{1,10}"
_RANGE = re.compile(rf"\s*(?P<lo>{_WHOLE})\s*\.\.\s*(?P<hi>{_WHOLE})\s*(?:/\s*(?P<step>[0-9]{{1,10}})\s*)?")
PARAM_FORMS = "option.NAME, option.NAME=a,b, define.NAME=LO..HI[/STEP] or state.NAME=LO..HI[/STEP]"


def parse_param(text: str, space: Space, at: str | None = None) -> Param:
    """A parameter as written (`option.NAME`, `option.NAME=a,b`, `define.NAME=LO..HI[/STEP]`,
    `state.NAME=LO..HI[/STEP]`), checked against the rule set; `at`: where a tune file writes it."""
    what = f"{at}: bad param `{printable(text, 80)}`" if at else f"bad --param `{printable(text, 80)}`"
    head, sep, rest = text.partition("=")
    kind, dot, name = head.strip().partition(".")
    if not dot or kind not in ("option", *_KINDS):
        hint = did_you_mean(kind, ["option", *_KINDS]) if dot else None
        raise TuneError(f"{what}: expected {PARAM_FORMS}" + (f"; {hint}" if hint else ""))
    if kind == "option":
        if name not in space.options:
            hint = did_you_mean(name, space.options)
            listed = ", ".join(space.options) or "none"
            raise TuneError(f"{what}: no option `{printable(name, 40)}`" + (f"; {hint}" if hint else "")
                            + f" (its options: {listed})")
        choices = space.options[name]
        chosen = choices
        if sep:
            chosen = tuple(c.strip() for c in rest.split(","))
            for c in chosen:
                if c not in choices:
                    hint = did_you_mean(c, choices)
                    raise TuneError(f"{what}: option `{name}` has no choice `{printable(c, 40)}`"
                                    + (f"; {hint}" if hint else "") + f" (its choices: {', '.join(choices)})")
            if len(set(chosen)) != len(chosen):
                raise TuneError(f"{what}: a choice is named twice")
        canonical = f"option.{name}" + (f"={','.join(chosen)}" if sep else "")
        return Param("option", name, tuple(chosen), canonical)
    noun, plural, wanted = _KINDS[kind]
    tunable, refused = (space.constants, space.others) if kind == "define" else (space.counters, space.other_fields)
    if name not in tunable:
        if name in refused:
            raise TuneError(f"{what}: {noun} `{name}` {refused[name]}: `tune` varies {wanted}")
        hint = did_you_mean(name, [*tunable, *refused])
        listed = ", ".join(tunable) or "none"
        raise TuneError(f"{what}: no {noun} `{printable(name, 40)}`" + (f"; {hint}" if hint else "")
                        + f" (its {plural}: {listed})")
    found = _RANGE.fullmatch(rest) if sep else None
    if found is None:
        raise TuneError(f"{what}: expected {kind}.{name}=LO..HI or {kind}.{name}=LO..HI/STEP, whole numbers "
                        f"(e.g. {kind}.{name}=1..9)")
    lo, hi, step = int(found["lo"]), int(found["hi"]), int(found["step"] or 1)
    if max(abs(lo), abs(hi)) > LIMIT:
        raise TuneError(f"{what}: the bounds must lie within ±{LIMIT:g}")
    if lo > hi:
        raise TuneError(f"{what}: the range {lo}..{hi} is empty: write the lower bound first")
    if step < 1:
        raise TuneError(f"{what}: the step must be 1 or more")
    if (hi - lo) % step:
        raise TuneError(f"{what}: {hi} - {lo} is not a multiple of the step {step}: "
                        f"e.g. {kind}.{name}={lo}..{hi - (hi - lo) % step}/{step}")
    if (hi - lo) // step + 1 > MAX_VALUES:
        raise TuneError(f"{what}: more than {MAX_VALUES:,} values: use a step")
    canonical = f"{kind}.{name}={lo}..{hi}" + (f"/{step}" if step != 1 else "")
    return Param(kind, name, tuple(range(lo, hi + 1, step)), canonical, lo, hi, step)


_WHOLE_TEXT = re.compile(r"\s*-?[0-9]{1,10}\s*")


def _whole(node: object) -> str | None:
    """The text of a scalar that is a whole number, else None."""
    from .core.load import YScalar

    if isinstance(node, YScalar) and isinstance(node.value, (int, str)) and not isinstance(node.value, bool):
        text = str(node.value)
        return text.strip() if _WHOLE_TEXT.fullmatch(text) else None
    return None


def _shown_node(node: object) -> str:
    from .core.load import YScalar

    return printable(str(node.value), 40) if isinstance(node, YScalar) else "..."


def space_of(rule_file: Path, game: Game) -> Space:
    """The options, constants and counters of a rule set (its rule file, resolved with what it extends)."""
    from .compiler.resolve import resolve
    from .core.load import YMap

    tree = resolve(rule_file).tree
    options = {o.name: tuple(o.choices) for o in game.info.options}
    defaults = {o.name: o.default for o in game.info.options}
    constants: dict[str, int] = {}
    others: dict[str, str] = {}
    defines = tree.get("define")
    for key, node in defines.items if isinstance(defines, YMap) else ():
        text = str(key.value)
        name = text.partition("(")[0].strip()
        if "(" in text:
            others[name] = "has parameters"
            continue
        value = node.get("value") if isinstance(node, YMap) else node
        whole = _whole(value)
        if whole is not None:
            constants[name] = int(whole)
        else:
            others[name] = f"is not a whole number (`{_shown_node(value)}`)"
    counters: dict[str, int] = {}
    other_fields: dict[str, str] = {}
    fields = tree.get("state")
    for key, node in fields.items if isinstance(fields, YMap) else ():
        name = str(key.value)
        kind = node.get("type") if isinstance(node, YMap) else None
        init = node.get("init") if isinstance(node, YMap) else None
        whole = _whole(init)
        if _shown_node(kind) != "int":
            other_fields[name] = "is not of type int"
        elif whole is None:
            other_fields[name] = f"has an `init` that is not a whole number (`{_shown_node(init)}`)"
        else:
            counters[name] = int(whole)
    return Space(options, defaults, constants, others, counters, other_fields)


# -- a tune file --------------------------------------------------------------------------------
def read_tune_file(path: Path) -> tuple[list[tuple[str, str | None]], list[tuple[str, str | None]]]:
    """The targets and params of a tune file, each with where it is written (`file:line:col`):

        targets: [first_player_win=0.5+-0.03, length_median=40..60]
        params: [define.edge=1..9, option.head_start]
    """
    from .core.load import LoadError, YScalar, YSeq, load, read_rule_file

    if not path.is_file():
        raise TuneError(f"no such tune file: {printable(str(path))}")
    try:
        tree = load(str(path), read_rule_file(path, str(path)))
    except LoadError as exc:
        d = exc.diagnostic
        raise TuneError(f"{d.span.path}:{d.span.line}:{d.span.col}: {d.message}") from None
    except OSError as exc:
        raise TuneError(f"cannot read the tune file {printable(str(path))}: {exc.strerror}") from None
    found: dict[str, list[tuple[str, str | None]]] = {"targets": [], "params": []}
    for key, node in tree.items:
        at = f"{key.span.path}:{key.span.line}:{key.span.col}"
        if key.value not in found:
            hint = did_you_mean(str(key.value), found)
            raise TuneError(f"{at}: a tune file has `targets:` and `params:`, not `{printable(str(key.value), 40)}`"
                            + (f"; {hint}" if hint else ""))
        items = node.items if isinstance(node, YSeq) else (node,)
        for item in items:
            if not isinstance(item, YScalar) or not isinstance(item.value, str):
                span = item.span
                raise TuneError(f"{span.path}:{span.line}:{span.col}: `{key.value}:` is a list of texts, "
                                "e.g. first_player_win=0.5+-0.03")
            found[str(key.value)].append((item.value, f"{item.span.path}:{item.span.line}:{item.span.col}"))
    return found["targets"], found["params"]


# -- a study ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Setup:
    """What a study is made of: a trial's measures depend on all of it, so a study is only
    continued with the same (the --trials, workers, files written may change)."""

    ruleset: str  # as named: a bundled id or a rule file's path
    rule_file: Path
    targets: tuple[Target, ...]
    params: tuple[Param, ...]
    games: int
    seed: int
    players: int
    sampler: str  # "tpe" or "grid"
    options: Mapping[str, str] = field(default_factory=dict)  # options set, not tuned
    agents: tuple[tuple[int, AgentSpec], ...] = ()
    strength: str | None = None
    max_moves: int = 0
    digest: str = ""  # of the rule files' text: the rule set a study was made on
    lead: str | None = None  # the definition `metrics` reads the lead from (None: the score)
    confidence: float = 0.95  # of the intervals

    def settings(self) -> dict[str, Any]:
        return {"format": FORMAT, "ruleset": self.ruleset, "rules": self.digest,
                "targets": [t.text for t in self.targets], "params": [p.text for p in self.params],
                "games": self.games, "seed": self.seed, "players": self.players, "sampler": self.sampler,
                "options": dict(sorted(self.options.items())),
                "agents": [f"{seat + 1}={spec}" for seat, spec in self.agents],
                "strength": self.strength, "max_moves": self.max_moves, "lead": self.lead,
                "confidence": self.confidence}

    @property
    def grid_size(self) -> int:
        return math.prod(len(p.values) for p in self.params)


def rules_digest(rule_file: Path) -> str:
    """A digest of the text of a rule file and of every file it extends."""
    from .compiler.resolve import resolve

    resolved = resolve(rule_file)
    h = hashlib.sha256()
    for text in resolved.texts:
        h.update(hashlib.sha256(text.encode()).digest())
    return h.hexdigest()[:16]


def _distribution(param: Param) -> Any:
    from optuna.distributions import CategoricalDistribution, IntDistribution

    if param.kind == "option":
        return CategoricalDistribution(list(param.values))
    return IntDistribution(param.low, param.high, step=param.step)


def _sampler(setup: Setup, number: int) -> Any:
    """The sampler of trial `number`, seeded from --seed and the trial's number: a study gives
    the same trials whether it ran at once or was resumed."""
    import optuna

    seed = derive_seed(setup.seed, number) & 0xFFFFFFFF
    return optuna.samplers.TPESampler(seed=seed)


def check_grid(setup: Setup) -> None:
    """Refuse a grid search of more than GRID_AT_MOST combinations."""
    if setup.sampler == "grid" and setup.grid_size > GRID_AT_MOST:
        raise TuneError(f"--sampler grid: {setup.grid_size:,} combinations, more than {GRID_AT_MOST:,}: "
                        "use steps, fewer params, or the tpe sampler")


def grid(setup: Setup) -> list[dict[str, str | int]]:
    """Every combination of the params' values, in an order shuffled from --seed (so that the
    first trials of a large grid spread over it). Optuna's GridSampler is not used: it stops the
    study from within `tell`, which only works inside `optimize`."""
    import itertools
    import random

    check_grid(setup)
    combinations: list[dict[str, str | int]] = [dict(zip((p.key for p in setup.params), values, strict=True))
                    for values in itertools.product(*(p.values for p in setup.params))]
    random.Random(setup.seed).shuffle(combinations)
    return combinations


def lock_file(study: Path) -> Path:
    """The file whose lock serializes the reads and writes of a study between processes."""
    return study.with_name(study.name + ".lock")


@contextlib.contextmanager
def locked(path: Path | None) -> Iterator[None]:
    """Hold the lock of `path` (made if missing) while inside: several `tune` processes sharing a
    study take turns at it. SQLite has locks of its own, but a transaction that reads and then
    writes can fail at once where another holds the file ("database is locked"), and two
    processes making a study's tables at once collide. The study's own file is never locked
    this way: SQLite's POSIX locks on a file are lost when any other descriptor of it is closed.
    Without fcntl (Windows), no lock."""
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    if path is None or fcntl is None:
        yield
        return
    with open(path, "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def open_study(setup: Setup, path: Path) -> Any:
    """The study kept in `path` (SQLite), made if it is not there; a study made with other
    settings is refused, saying which."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(lock_file(path)):  # (two processes making one study at once collide otherwise)
        try:
            storage = optuna.storages.RDBStorage(f"sqlite:///{path.resolve()}",
                                                 engine_kwargs={"connect_args": {"timeout": 60}})
            study = optuna.create_study(study_name=STUDY_NAME, storage=storage, direction="minimize",
                                        load_if_exists=True, sampler=_sampler(setup, 0))
        except Exception as exc:  # noqa: BLE001 - not a database, another program's: one line
            raise TuneError(f"{printable(str(path))} holds no study `tune` can use: "
                            f"{printable(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 200)}"
                            ) from None
        return _settled(study, setup, path)


def _settled(study: Any, setup: Setup, path: Path) -> Any:
    """The study, its settings set if it is new; refused if made otherwise."""
    wanted = setup.settings()
    kept = study.user_attrs.get("settings")
    if kept is None:
        if study.trials:
            raise TuneError(f"{printable(str(path))} holds a study that `rulewright tune` did not make: "
                            "name another --study")
        study.set_user_attr("settings", wanted)
        return study
    if kept != wanted:
        differ = [k for k in wanted if kept.get(k) != wanted[k]] if isinstance(kept, dict) else ["format"]
        what = "; ".join(f"{k} {_setting(kept.get(k) if isinstance(kept, dict) else None)} there, "
                         f"{_setting(wanted[k])} here" for k in differ[:3])
        what = what.replace("rules ", "rule files' text ") if differ[0] == "rules" else what
        raise TuneError(f"the study in {printable(str(path))} was made otherwise ({printable(what, 300)}): "
                        "name another --study, or remove that file to start afresh")
    return study


def _setting(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return "none" if value is None else str(value)


# -- trials -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TrialResult:
    number: int
    values: Mapping[str, str | int]  # by param key, in the params' order
    estimates: Mapping[str, Mapping[str, Any]]  # by measure: value, low, high, games, note (None for nan)
    objective: float | None  # None: failed (error says why)
    error: str = ""
    same_as: int | None = None  # measured already by that trial: not played again
    # how its games went: finished, capped, errors and the first error (game, seed, message)
    play: Mapping[str, Any] = field(default_factory=dict)

    def value(self, measure: str) -> float | None:
        e = self.estimates.get(measure)
        return None if e is None else e.get("value")

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "values": dict(self.values), "objective": self.objective,
                "estimates": {k: dict(v) for k, v in self.estimates.items()},
                "error": self.error or None, "same_as": self.same_as, "play": dict(self.play)}


def _plain(x: float) -> float | None:
    return None if math.isnan(x) else x


def objective(targets: Sequence[Target], estimates: Mapping[str, Mapping[str, Any]]) -> float:
    return round(sum(t.miss((estimates.get(t.measure) or {}).get("value")) for t in targets), 9)


_PLAIN = re.compile(r"[A-Za-z0-9_./-]+")


def _scalar(text: str) -> str:
    """A YAML scalar: plain where that reads back as the same text, else double-quoted (JSON's
    quoting is YAML's)."""
    import yaml

    if _PLAIN.fullmatch(text) and yaml.safe_load(text) == text:
        return text
    return json.dumps(text)


def variant_text(extends: str, setup: Setup, values: Mapping[str, str | int], header: Sequence[str] = ()) -> str:
    """A variant holding `values` (by param key), as a designer writes one: an option's value as
    its default (`head_start: {default: first}`), a constant's as its text (`edge: "5"`), a
    counter's as its init (`coins: {init: "40"}`)."""
    lines = [f"# {printable(line)}".rstrip() for line in header]
    lines.append(f"extends: {_scalar(extends)}")
    options = [p for p in setup.params if p.kind == "option"]
    defines = [p for p in setup.params if p.kind == "define"]
    fields = [p for p in setup.params if p.kind == "state"]
    if options:
        lines.append("options:")
        lines += [f"  {p.name}: {{default: {_scalar(str(values[p.key]))}}}" for p in options]
    if defines:
        lines.append("define:")
        lines += [f"  {p.name}: {json.dumps(str(values[p.key]))}" for p in defines]
    if fields:
        lines.append("state:")
        lines += [f"  {p.name}: {{init: {json.dumps(str(values[p.key]))}}}" for p in fields]
    return "\n".join(lines) + "\n"


def _trial_extends(setup: Setup) -> str:
    from .core.paths import RULE_FILE_SUFFIXES

    if setup.ruleset.endswith(RULE_FILE_SUFFIXES):
        return setup.rule_file.resolve().as_posix()
    return setup.ruleset


def _measure_trial(setup: Setup, folder: Path, number: int, values: Mapping[str, str | int], workers: int,
                   dask: str | None) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """The estimates of a trial's measures, and how its games went."""
    from .metrics import measure

    path = folder / f"trial-{number:05d}.yaml"
    path.write_text(variant_text(_trial_extends(setup), setup, values), encoding="utf-8")
    metrics = measure(str(path), options=dict(setup.options) or None, players=setup.players, games=setup.games,
                      seed=setup.seed, agents=dict(setup.agents) or None, workers=workers, dask=dask,
                      strength=setup.strength, max_moves=setup.max_moves, lead=setup.lead,
                      confidence=setup.confidence)
    estimates = {name: {"value": _plain(e.value), "low": _plain(e.low), "high": _plain(e.high), "games": e.games,
                        "note": e.note} for name, e in metrics.estimates.items()}
    first = dict(metrics.first_error) if metrics.first_error is not None else None
    return estimates, {"finished": metrics.finished, "capped": metrics.capped, "errors": metrics.errors,
                       "first_error": first}


def _result(trial: Any) -> TrialResult:
    """A finished trial of the study as a TrialResult (its values by param key)."""
    attrs = trial.user_attrs
    return TrialResult(trial.number, dict(trial.params), attrs.get("estimates", {}),
                       trial.value if trial.values else None, attrs.get("error", ""), attrs.get("same_as"),
                       attrs.get("play", {}))


def finished(study: Any) -> list[TrialResult]:
    """The study's trials that count: measured, or refused by the rules (a value that does not
    compile); not those interrupted or still running."""
    from optuna.trial import TrialState

    return [_result(t) for t in study.get_trials(deepcopy=False)
            if t.state == TrialState.COMPLETE or (t.state == TrialState.FAIL and "error" in t.user_attrs)]


def _owner() -> dict[str, Any]:
    import socket

    return {"host": socket.gethostname(), "pid": os.getpid()}


def fail_abandoned(study: Any) -> None:
    """Mark failed the trials left running by a process of this machine that is gone (killed
    outright: SIGKILL, a crash), so that their values are tried again. A trial of another machine,
    or of a process still alive, is left alone: it may be playing."""
    from optuna.trial import TrialState

    here = _owner()
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        owner = t.user_attrs.get("owner")
        if not isinstance(owner, dict) or owner.get("host") != here["host"] or not isinstance(owner.get("pid"), int):
            continue
        pid = owner["pid"]
        if pid != here["pid"]:  # (this process plays one trial at a time: its own running one is left over)
            try:
                os.kill(pid, 0)
                continue  # alive (or another process since given its number: left alone)
            except ProcessLookupError:
                pass
            except OSError:  # (alive, another user's)
                continue
        with contextlib.suppress(Exception):  # (another process may mark it first)
            study.tell(t.number, state=TrialState.FAIL)


def run(setup: Setup, study: Any, trials: int, *, workers: int = 1, dask: str | None = None,
        done: Callable[[TrialResult], None] = lambda r: None, lock: Path | None = None) -> list[TrialResult]:
    """Play trials until the study holds `trials` finished ones of values not tried before (at
    most one per combination of the params' values); each finished trial is passed to `done`.
    A sampler that proposes values tried already gets their measures back (the same values, the
    same games: nothing is played again), in a trial that does not count; after REPEATS_AT_MOST
    such proposals in a row it is taken to have nothing new to offer. The study is read and
    written holding `lock` (`locked`), never while a trial plays. The study's finished trials."""
    from optuna.trial import TrialState

    from .core.source import CompileError
    from .match import raise_if_interrupted, signals_held

    wanted = min(trials, setup.grid_size)
    distributions = {p.key: _distribution(p) for p in setup.params}
    repeats = 0
    order = grid(setup) if setup.sampler == "grid" else []
    with tempfile.TemporaryDirectory(prefix="rulewright-tune-") as temp:
        folder = Path(temp)
        while True:
            raise_if_interrupted()  # (a signal lost in the study's database code stops the search here)
            trial = None
            attrs: dict[str, Any] = {}
            try:  # (a signal once the trial is asked for fails it: it is not left running)
                with locked(lock):
                    fail_abandoned(study)
                    have = finished(study)
                    if len(distinct(have)) >= wanted or repeats >= REPEATS_AT_MOST:
                        return have
                    study.sampler = _sampler(setup, len(study.get_trials(deepcopy=False)))
                    if order:  # the next combination not tried yet, nor being tried (by another process)
                        running = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
                        tried = {tuple(sorted(r.values.items())) for r in have} | {
                            tuple(sorted(t.params.items())) for t in running}
                        untried = next((c for c in order if tuple(sorted(c.items())) not in tried), None)
                        if untried is None:  # the rest is being measured by other processes
                            return have
                        study.enqueue_trial(untried)
                    with signals_held():
                        trial = study.ask(distributions)
                        trial.set_user_attr("owner", _owner())
                values = {p.key: trial.params[p.key] for p in setup.params}
                same = next((r for r in have if dict(r.values) == values), None)
                if same is not None:  # the same values, the same games: measured already
                    estimates: Mapping[str, Mapping[str, Any]] = dict(same.estimates)
                    attrs = {"estimates": estimates, "play": dict(same.play),
                             "same_as": same.same_as if same.same_as is not None else same.number}
                    if same.objective is None:
                        attrs["error"] = same.error
                    failed = same.objective is None
                else:
                    try:
                        estimates, attrs["play"] = _measure_trial(setup, folder, trial.number, values, workers, dask)
                        failed = False
                    except CompileError as exc:
                        first = exc.diagnostics[0] if exc.diagnostics else None
                        why = first.message if first is not None else str(exc)
                        attrs["error"] = printable(f"the rules refuse these values: {why}", 300)
                        estimates, failed = {}, True
                    attrs["estimates"] = estimates
            except BaseException:
                if trial is not None:
                    with locked(lock):
                        study.tell(trial, state=TrialState.FAIL)
                raise
            with locked(lock), signals_held():  # (told whole: a signal waits until it is)
                for key, value in attrs.items():
                    trial.set_user_attr(key, value)
                if failed:
                    study.tell(trial, state=TrialState.FAIL)
                else:
                    study.tell(trial, objective(setup.targets, estimates))
                got = next((r for r in finished(study) if r.number == trial.number), None)
            repeats = repeats + 1 if same is not None else 0
            if got is not None and same is None:
                done(got)


def troubles(results: Sequence[TrialResult]) -> list[str]:
    """A line for each trial (the first of its values) whose games raised an exception or hit the
    move cap."""
    lines = []
    for r in distinct(results):
        values = ", ".join(f"{k}={v}" for k, v in r.values.items())
        errors, capped = r.play.get("errors", 0), r.play.get("capped", 0)
        if errors:
            e = r.play.get("first_error") or {}
            lines.append(f"trial {r.number} ({values}): {errors} game{'s' if errors != 1 else ''} raised an "
                         f"exception; the first, game {e.get('game')} (seed {e.get('seed')}): {e.get('message')}")
        if capped:
            lines.append(f"trial {r.number} ({values}): {capped} game{'s' if capped != 1 else ''} stopped at the "
                         "move cap and counted apart as capped")
    return [printable(line, 400) for line in lines]


def distinct(results: Sequence[TrialResult]) -> list[TrialResult]:
    """The first trial of each set of values: not the repeats of values tried already (nor, where
    several processes share a study, values another measured at the same time)."""
    seen: set[tuple[tuple[str, str | int], ...]] = set()
    first = []
    for r in sorted(results, key=lambda r: r.number):
        key = tuple(sorted(r.values.items()))
        if key not in seen:
            seen.add(key)
            first.append(r)
    return first


def best(setup: Setup, results: Sequence[TrialResult]) -> TrialResult | None:
    """The trial of the least objective; among equals, the one nearest the middle of its
    two-sided bands, then the first."""
    measured = [r for r in results if r.objective is not None]
    if not measured:
        return None
    return min(measured, key=lambda r: (r.objective, sum(t.off_centre(r.value(t.measure)) for t in setup.targets),
                                        r.number))


# -- what it writes -----------------------------------------------------------------------------
def _estimate_text(e: Mapping[str, Any] | None) -> str:
    if e is None or e.get("value") is None:
        note = (e or {}).get("note") or "not measured"
        return f"- ({note})"
    low, high = e.get("low"), e.get("high")
    interval = f" [{low:.4g}, {high:.4g}]" if low is not None and high is not None else ""
    return f"{e['value']:.4g}{interval}"


def redo_command(setup: Setup, trials: int, out: Path, study: Path | None) -> str:
    words = ["rulewright", "tune", setup.ruleset]
    for t in setup.targets:
        words += ["--target", t.text]
    for p in setup.params:
        words += ["--param", p.text]
    words += ["-n", str(setup.games), "--trials", str(trials), "--seed", str(setup.seed)]
    if setup.sampler != "tpe":
        words += ["--sampler", setup.sampler]
    for name, value in sorted(setup.options.items()):
        words += ["--option", f"{name}={value}"]
    for seat, spec in setup.agents:
        words += ["--agent", f"{seat + 1}={spec}"]
    if setup.strength is not None:
        words += ["--strength", setup.strength]
    if setup.lead is not None:
        words += ["--lead", setup.lead]
    if setup.confidence != 0.95:
        words += ["--confidence", f"{setup.confidence:g}"]
    words += ["--out", out.as_posix()]
    if study is not None:
        words += ["--study", study.as_posix()]
    return printable(shlex.join(words))


def extends_of(setup: Setup, out: Path) -> str:
    """The rule set as the written variant names it: its id, or its path relative to the variant's folder."""
    from .core.paths import RULE_FILE_SUFFIXES

    if not setup.ruleset.endswith(RULE_FILE_SUFFIXES):
        return setup.ruleset
    try:
        return Path(os.path.relpath(os.path.abspath(setup.rule_file), os.path.abspath(out.parent))).as_posix()
    except ValueError:  # (another drive)
        return Path(os.path.abspath(setup.rule_file)).as_posix()


def header_lines(setup: Setup, results: Sequence[TrialResult], chosen: TrialResult, command: str) -> list[str]:
    lines = [f"Tuned by `rulewright tune` (docs/tuning.md) from {setup.ruleset}: the best of "
             f"{len(distinct(results))} trials (trial {chosen.number}),",
             f"each {setup.games} games of seed {setup.seed}, {setup.players} players.",
             f"Targets, and what the best values reached ({setup.confidence * 100:g}% intervals):"]
    for t in setup.targets:
        e = chosen.estimates.get(t.measure)
        met = "met" if t.miss(chosen.value(t.measure)) == 0 else "missed"
        lines.append(f"  {t.text}: {_estimate_text(e)}  {met}")
    lines.append(f"Objective {chosen.objective:g} (0: every target met).")
    lines.append("Redo (the study resumes, nothing is played again):")
    lines.append(f"  {command}")
    return lines


def write_variant(path: Path, text: str) -> None:
    """Write the variant whole, checked by the compiler first (`rulewright check`): a temporary
    file beside it, renamed into place."""
    from .compiler.driver import analyse

    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f"{path.stem}_tmp{os.getpid()}.yaml")
    try:
        temp.write_text(text, encoding="utf-8")
        _, diagnostics, _ = analyse(temp)
        errors = [d for d in diagnostics if d.severity == "error"]
        if errors:
            raise TuneError(f"the variant written is refused by the compiler: {errors[0].message}")
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)


def to_json(setup: Setup, results: Sequence[TrialResult], chosen: TrialResult | None, out: Path | None,
            study: Path) -> dict[str, Any]:
    return {"ruleset": setup.ruleset, "settings": setup.settings(), "study": study.as_posix(),
            "out": out.as_posix() if out is not None else None,
            "best": chosen.to_json() if chosen is not None else None,
            "trials": [r.to_json() for r in sorted(results, key=lambda r: r.number)]}


def title(setup: Setup, results: Sequence[TrialResult]) -> str:
    """The line above the table of trials."""
    return printable(f"tune {setup.ruleset}: {len(distinct(results))} trials of {setup.games} games, seed {setup.seed}")


def caption(results: Sequence[TrialResult]) -> str:
    """The line below the table of trials."""
    repeated = len(results) - len(distinct(results))
    return "* the best trial" + (f"; {repeated} more proposed values tried already (not played again)"
                                 if repeated else "")


def table(setup: Setup, results: Sequence[TrialResult], chosen: TrialResult | None) -> Table:
    """Each trial (the first of its values) with its values, its estimates of the targets'
    measures with their intervals, and its objective; `*` marks the best."""
    from rich.table import Table

    played = distinct(results)
    t = Table()
    t.add_column("trial", justify="right")
    for p in setup.params:
        t.add_column(p.key)
    for target in setup.targets:
        t.add_column(target.text, justify="right")
    t.add_column("objective", justify="right")
    for r in sorted(played, key=lambda r: r.number):
        mark = "*" if chosen is not None and r.number == chosen.number else ""
        cells = [str(r.values.get(p.key, "")) for p in setup.params]
        if r.objective is None:
            shown = [printable(r.error, 60)] + [""] * (len(setup.targets) - 1) if setup.targets else []
            t.add_row(f"{r.number}{mark}", *cells, *shown, "failed")
            continue
        t.add_row(f"{r.number}{mark}", *cells, *(_estimate_text(r.estimates.get(x.measure)) for x in setup.targets),
                  f"{r.objective:.4g}")
    return t


# -- charts -------------------------------------------------------------------------------------
def _file_name(text: str) -> str:
    return re.sub(r"[^a-z0-9_.-]+", "-", text.lower()).strip("-.") or "x"


def write_plots(setup: Setup, results: Sequence[TrialResult], chosen: TrialResult | None, folder: Path) -> list[Path]:
    """objective.svg/.png (the objective by trial, and the best so far), and for each param and
    target `MEASURE-by-PARAM.svg/.png` (each trial's estimate with its interval, the band shaded)."""
    from .plots import figure, save

    folder.mkdir(parents=True, exist_ok=True)
    ordered = sorted((r for r in distinct(results) if r.objective is not None), key=lambda r: r.number)
    written: list[Path] = []
    fig = figure(6, 3.6)
    ax = fig.add_subplot()
    xs = [r.number for r in ordered]
    ys = [r.objective or 0.0 for r in ordered]  # (all measured: None is a failed trial)
    ax.plot(xs, ys, "o", color="#4C72B0", label="trial")
    so_far: list[float] = []
    for y in ys:
        so_far.append(min(so_far[-1], y) if so_far else y)
    ax.step(xs, so_far, where="post", color="#DD8452", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (0: every target met)")
    ax.set_title("Objective by trial")
    ax.legend(fontsize="small")
    written += save(fig, folder, "objective")
    for p in setup.params:
        for t in setup.targets:
            fig = figure(6, 3.6)
            ax = fig.add_subplot()
            positions = {v: k for k, v in enumerate(p.values)} if p.kind == "option" else None
            px, py, lo, hi = [], [], [], []
            for r in ordered:
                e = r.estimates.get(t.measure) or {}
                if e.get("value") is None:
                    continue
                v = r.values[p.key]
                px.append(positions[v] if positions is not None else v)
                py.append(e["value"])
                lo.append(e["value"] - e["low"] if e.get("low") is not None else 0)
                hi.append(e["high"] - e["value"] if e.get("high") is not None else 0)
            ax.errorbar(px, py, yerr=[lo, hi], fmt="o", capsize=3, color="#4C72B0", label="trial (interval)")
            low = t.low if math.isfinite(t.low) else min(py + [t.high]) - t.scale
            high = t.high if math.isfinite(t.high) else max(py + [t.low]) + t.scale
            ax.axhspan(low, high, color="#55A868", alpha=0.2, label=f"target {t.text}")
            if chosen is not None and t.measure in chosen.estimates:
                cv = chosen.values[p.key]
                cy = chosen.value(t.measure)
                if cy is not None:
                    ax.plot([positions[cv] if positions is not None else cv], [cy], "*", markersize=14,
                            color="#DD8452", label="best")
            if positions is not None:
                ax.set_xticks(range(len(p.values)), [str(v) for v in p.values])
            ax.set_xlabel(p.key)
            ax.set_ylabel(t.measure)
            ax.set_title(f"{t.measure} by {p.key}")
            ax.legend(fontsize="small")
            written += save(fig, folder, f"{_file_name(t.measure)}-by-{_file_name(p.key)}")
    return written

