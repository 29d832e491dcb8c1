"""Reading a scenario file: its text (a regular file, bounded, `read_scenario_file`), its keys,
and every scenario checked against the game it names (`load_file`): diagnostics with
file:line:col, never a traceback. A scenario file is data: its `ruleset:` names a bundled id or a
rule file relative to it (`rulewright.load_named`), never a Python module."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ..core.load import LoadError, YMap, YNode, YScalar, YSeq, load, unsaved_text
from ..core.paths import display
from ..core.scenario_keys import EXPECT_KEYS, FILE_KEYS, POSITION_SPECIAL, SCENARIO_KEYS
from ..core.source import CompileError, Diagnostic, SourceSpan, did_you_mean
from ..runtime.errors import RulewrightError, is_int
from ..runtime.state import Game, State
from .distributions import MAX_DISTRIBUTION_RUNS, check_distribution, replays_of
from .model import Expectation, Problems, Scenario, Step, check_keys, text_of
from .positions import (
    apply_position,
    chance_outcomes,
    field_values,
    fresh_state,
    invariants_broken,
    player_count,
    seat_of,
)

# The expectations that check nothing when empty (an empty `legal:` says no move is legal).
EMPTY_CHECKS_NOTHING = ("scores", "score_terms", "fields", "legal_includes", "legal_excludes", "illegal")
# The largest scenario file read: 1 MiB, about sixty times the largest bundled one (18 KB).
MAX_SCENARIO_FILE_BYTES = 1 << 20
# The players' names where a file gives none, in seat order.
DEFAULT_NAMES = ("Alex", "Barbara", "Chris", "Doris", "Emil", "Fiona", "Georg", "Hanna")

GameLoader = Callable[[str, Path], Game]


def default_loader(ruleset: str, here: Path) -> Game:
    """A bundled rule set by id, or a rule file relative to the scenario file, compiled now;
    never a Python module (BadSetup says what a scenario may name)."""
    from ..loading import load_named

    return load_named(ruleset, here)


def read_scenario_file(path: Path, shown: str) -> str:
    """The text of a scenario file; raises LoadError (at `shown:1:1`) if it is missing, not a
    regular file (a FIFO, a device, a folder), too large or not UTF-8 text."""
    from ..match import RefusedFile, open_regular
    from ..terminal import printable

    where = SourceSpan(printable(shown), 1, 1, 1, 1)
    text = unsaved_text(path, MAX_SCENARIO_FILE_BYTES, where)  # a file open in an editor (`rulewright lsp`)
    if text is not None:
        return text
    try:
        with open_regular(path, MAX_SCENARIO_FILE_BYTES, "scenario file") as handle:
            data = handle.read(MAX_SCENARIO_FILE_BYTES + 1)
    except FileNotFoundError:
        raise LoadError(Diagnostic(where, "no such scenario file")) from None
    except RefusedFile as exc:
        raise LoadError(Diagnostic(where, str(exc), "a scenario file is a regular YAML file")) from None
    except (OSError, ValueError) as exc:
        raise LoadError(Diagnostic(where, f"cannot read scenario file: {getattr(exc, 'strerror', None) or exc}")
                        ) from None
    if len(data) > MAX_SCENARIO_FILE_BYTES:  # it grew since it was looked at
        raise LoadError(Diagnostic(where, f"scenario file too large: more than {MAX_SCENARIO_FILE_BYTES:,} bytes"))
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise LoadError(Diagnostic(where, f"cannot read scenario file: not UTF-8 text (byte {exc.start + 1})")
                        ) from None


def load_file(path: Path, loader: GameLoader = default_loader) -> tuple[list[Scenario], list[Diagnostic]]:
    """Read a scenario file; every scenario is checked against the game it names."""
    p = Problems()
    shown = display(path)
    try:
        tree = load(shown, read_scenario_file(path, shown))
    except LoadError as exc:
        return [], [exc.diagnostic]
    check_keys(p, tree, FILE_KEYS, "a scenario file")
    defaults = _common(p, tree, None)
    node = tree.get("scenarios")
    if not isinstance(node, YMap) or not node.items:
        p.error(tree.span if node is None else node.span, "a scenario file needs `scenarios:`, a mapping of "
                "scenario names to scenarios")
        return [], p.list
    games: dict[str, Game | None] = {}
    scenarios: list[Scenario] = []
    for key, value in node.items:
        name = str(key.value)
        if not isinstance(value, YMap):
            p.error(value.span, f"scenario `{name}` must be a mapping")
            continue
        check_keys(p, value, SCENARIO_KEYS, f"scenario `{name}`")
        ruleset, options, players, seed, names = _common(p, value, defaults)
        if ruleset is None:
            p.error(key.span, f"scenario `{name}` names no rule set", "add `ruleset: <id>` to it or to the file")
            continue
        scenario = Scenario(
            name=name, doc=text_of(p, value.get("doc")) or "", file=shown, ruleset=ruleset, options=options,
            players=players, seed=seed, names=names, position=None, steps=[], expect=[], span=key.span,
        )
        if ruleset not in games:
            try:
                games[ruleset] = loader(ruleset, path)
            except CompileError as exc:
                p.list.extend(exc.diagnostics)
                games[ruleset] = None
            except RulewrightError as exc:
                rnode = value.get("ruleset") or tree.get("ruleset") or key
                p.error(rnode.span, str(exc))
                games[ruleset] = None
        game = games[ruleset]
        if game is None:
            continue
        scenario.game = game
        _check_setup(p, scenario, value, game)
        for part in ("position", "steps", "expect"):
            given = value.get(part)
            if isinstance(given, YMap | YSeq) and not given.items:
                p.error(given.span, f"`{part}:` is empty: it has no effect", f"leave `{part}:` out")
        position = value.get("position")
        if position is not None:
            if isinstance(position, YMap):
                scenario.position = position
                before = len(p.list)
                _check_position(p, scenario, position, game)
                if len(p.list) == before:
                    _check_invariants(p, scenario, position, game)
            else:
                p.error(position.span, "`position:` must be a mapping of field names to values")
        scenario.steps = _steps(p, scenario, value.get("steps"), game)
        scenario.expect = _expectations(p, scenario, value.get("expect"), game)
        scenarios.append(scenario)
    replays = [(e.span, replays_of(e.node)) for s in scenarios for e in s.expect if e.kind == "distribution"]
    if sum(n for _, n in replays) > MAX_DISTRIBUTION_RUNS:
        p.error(replays[-1][0], f"the distributions of this file replay their scenarios {sum(n for _, n in replays):,} "
                f"times, more than {MAX_DISTRIBUTION_RUNS:,}", "ask for fewer `runs:`")
    return scenarios, p.list


def _common(
    p: Problems, node: YMap, defaults: tuple[str | None, dict[str, str], int | None, int, tuple[str, ...]] | None
) -> tuple[str | None, dict[str, str], int | None, int, tuple[str, ...]]:
    ruleset, options, players, seed, names = defaults or (None, {}, None, 1, DEFAULT_NAMES)
    ruleset = text_of(p, node.get("ruleset")) or ruleset
    onode = node.get("options")
    if onode is not None:
        if isinstance(onode, YMap):
            options = {**options, **{str(k.value): str(v.value) for k, v in onode.items if isinstance(v, YScalar)}}
        else:
            p.error(onode.span, "`options:` must be a mapping of option names to choices")
    for key in ("players", "seed"):
        n = node.get(key)
        if n is not None:
            if isinstance(n, YScalar) and is_int(n.value):
                if key == "players":
                    players = n.value
                else:
                    seed = n.value
            else:
                p.error(n.span, f"`{key}:` must be a whole number")
    nnode = node.get("names")
    if nnode is not None:
        if isinstance(nnode, YSeq) and all(isinstance(x, YScalar) and isinstance(x.value, str) for x in nnode.items):
            names = tuple(str(x.value) for x in nnode.items if isinstance(x, YScalar))
        else:
            p.error(nnode.span, "`names:` must be a list of player names, in seat order")
    return ruleset, options, players, seed, names


def _check_setup(p: Problems, s: Scenario, node: YMap, game: Game) -> None:
    info = game.info
    known = {o.name: o for o in info.options}
    onode = node.get("options")
    for name, value in s.options.items():
        span = onode.span if isinstance(onode, YMap) else s.span
        if isinstance(onode, YMap):
            k = onode.key_node(name)
            span = k.span if k is not None else span
        if name not in known:
            p.error(span, f"{info.ruleset} has no option `{name}`", did_you_mean(name, known))
        elif value not in known[name].choices:
            p.error(span, f"option `{name}` has no choice `{value}`", did_you_mean(value, known[name].choices))
    if s.players is not None and s.players not in info.players:
        p.error(s.span, f"{info.ruleset} is not played by {s.players} players")


def _check_position(p: Problems, s: Scenario, node: YMap, game: Game) -> None:
    state = fresh_state(s, game)
    fields = {f.name: f for f in state.FIELDS}
    for key, value in node.items:
        name = str(key.value)
        if name == "to_act":
            seat_of(p, s, value, state.num_players)
        elif name == "phase":
            text = text_of(p, value)
            if text is not None and text not in state.PHASES:
                p.error(value.span, f"no phase `{text}`", did_you_mean(text, state.PHASES))
        elif name == "chance":
            chance_outcomes(p, s, value, state)
        elif name not in fields:
            p.error(key.span, f"no field `{name}` in {game.info.ruleset}",
                    did_you_mean(name, list(fields) + list(POSITION_SPECIAL)))
        else:
            field_values(p, s, fields[name], value, state, partial=False)


def _check_invariants(p: Problems, s: Scenario, node: YMap, game: Game) -> None:
    """A position the rules cannot hold, one that breaks an invariant of the rule set, is an
    error naming the invariant and where the rule file states it."""
    state = fresh_state(s, game)
    if apply_position(s, state) is not None:
        return  # told when the scenario runs
    for name in invariants_broken(state):
        where = game.info.rules.get(f"invariants.{name}")
        p.error(node.span, f"the position breaks invariant `{name}` of {game.info.ruleset}"
                + (f" ({where})" if where else ""), "a position must be one the rules can reach")


def _steps(p: Problems, s: Scenario, node: YNode | None, game: Game) -> list[Step]:
    if node is None:
        return []
    if not isinstance(node, YSeq):
        p.error(node.span, "`steps:` must be a list")
        return []
    players = player_count(s, game)
    triggers = [path.split(".", 1)[1] for path in game.info.rules if path.startswith("triggers.")]
    out: list[Step] = []
    for item in node.items:
        if isinstance(item, YScalar) and isinstance(item.value, str):
            out.append(Step("act", None, item.value, item.span))
            continue
        if not isinstance(item, YMap) or len(item.items) != 1:
            p.error(item.span, "a step is `- <player>: <action text>`, `- <action text>`, `- trigger: <name>` "
                    "or `- chance: {die: [4]}`")
            continue
        key, value = item.items[0]
        if key.value == "chance":
            chance_outcomes(p, s, value, fresh_state(s, game))
            out.append(Step("chance", None, "chance", value.span, value))
            continue
        text = text_of(p, value)
        if text is None:
            continue
        if key.value == "trigger":
            if text not in triggers:
                p.error(value.span, f"no trigger `{text}` in {game.info.ruleset}", did_you_mean(text, triggers))
                continue
            out.append(Step("trigger", None, text, value.span))
            continue
        seat = seat_of(p, s, key, players)
        if seat is not None:
            out.append(Step("act", seat, text, value.span))
    return out


def _expectations(p: Problems, s: Scenario, node: YNode | None, game: Game) -> list[Expectation]:
    if node is None:
        return []
    if not isinstance(node, YMap):
        p.error(node.span, "`expect:` must be a mapping")
        return []
    check_keys(p, node, EXPECT_KEYS, "expect")
    state = fresh_state(s, game)
    fields = {f.name: f for f in state.FIELDS}
    out: list[Expectation] = []
    for key, value in node.items:
        kind = str(key.value)
        if kind not in EXPECT_KEYS:
            continue
        if kind in EMPTY_CHECKS_NOTHING and isinstance(value, YMap | YSeq) and not value.items:
            p.error(value.span, f"`{kind}:` is empty: it checks nothing", f"give what it checks, or leave `{kind}` out")
            continue
        if kind == "fields":
            if not isinstance(value, YMap):
                p.error(value.span, "`fields:` must be a mapping of field names to values")
                continue
            for fkey, fvalue in value.items:
                if str(fkey.value) not in fields:
                    p.error(fkey.span, f"no field `{fkey.value}` in {game.info.ruleset}",
                            did_you_mean(str(fkey.value), fields))
                else:
                    field_values(p, s, fields[str(fkey.value)], fvalue, state, partial=True)
        elif kind == "scores":
            if isinstance(value, YMap):
                for k, v in value.items:
                    seat_of(p, s, k, state.num_players)
                    if not (isinstance(v, YScalar) and isinstance(v.value, int)):
                        p.error(v.span, "a score is a whole number")
            else:
                p.error(value.span, "`scores:` maps players to their scores")
        elif kind == "score_terms":
            terms = set(state.score_terms(0))
            for k, v in value.items if isinstance(value, YMap) else ():
                seat_of(p, s, k, state.num_players)
                if isinstance(v, YMap) and not v.items:
                    p.error(v.span, f"no scoring term is given for {k.value}: it checks nothing")
                for tk, tv in v.items if isinstance(v, YMap) else ():
                    if str(tk.value) not in terms:
                        p.error(tk.span, f"no scoring term `{tk.value}` in {game.info.ruleset}",
                                did_you_mean(str(tk.value), terms))
                    elif not (isinstance(tv, YScalar) and isinstance(tv.value, int)):
                        p.error(tv.span, "a score is a whole number")
                if not isinstance(v, YMap):
                    p.error(v.span, "each player maps scoring terms to points: {alliances: 6}")
            if not isinstance(value, YMap):
                p.error(value.span, "`score_terms:` maps players to their points per scoring term")
        elif kind == "returns":
            if not state.RETURNS:
                p.error(value.span, f"{game.info.ruleset} declares no `returns:`: its players' returns are the "
                        "winners' share", "expect the winners: `winners: [...]`")
            elif isinstance(value, YMap) and value.items:
                for k, v in value.items:
                    seat_of(p, s, k, state.num_players)
                    if not (isinstance(v, YScalar) and is_int(v.value)):
                        p.error(v.span, "a return is a whole number")
            else:
                p.error(value.span, "`returns:` maps players to their returns: {Alex: 2, Barbara: -2}")
        elif kind in ("winners",):
            # (a game over has a winner at least, but a draw by declared returns: docs/language.md "Returns")
            if isinstance(value, YSeq) and not value.items and not state.RETURNS:
                p.error(value.span, "`winners: []` can never hold: a finished game has at least one winner",
                        "to say that the game goes on, write `terminal: false`")
            elif isinstance(value, YSeq):
                for v in value.items:
                    seat_of(p, s, v, state.num_players)
            else:
                p.error(value.span, "`winners:` is a list of players")
        elif kind == "to_act":
            if not (isinstance(value, YScalar) and value.value is None):
                seat_of(p, s, value, state.num_players)
        elif kind == "told":
            if not isinstance(value, YSeq) or not all(isinstance(v, YScalar) and isinstance(v.value, str)
                                                     for v in value.items):
                p.error(value.span, "`told:` is the list of lines the last move told everyone (`tell`), as text")
        elif kind == "terminal":
            if not (isinstance(value, YScalar) and isinstance(value.value, bool)):
                p.error(value.span, "`terminal:` is true or false")
        elif kind in ("legal", "legal_includes", "legal_excludes"):
            if not isinstance(value, YSeq):
                p.error(value.span, f"`{kind}:` is a list of action texts")
            elif kind == "legal_excludes":  # (what no move can be is excluded always: it checks nothing)
                for x in value.items:
                    _no_move_of(p, s, x, state, "excluding it checks nothing")
        elif kind == "distribution":
            check_distribution(p, s, value, state)
        elif kind == "illegal":
            for x in value.items if isinstance(value, YSeq) else ():  # (with a rule, the rule is checked)
                _no_move_of(p, s, x, state, "that it is illegal says nothing")
            if isinstance(value, YMap):
                for _, v in value.items:
                    rule = text_of(p, v)
                    if rule is not None and not any(r == rule or r.startswith(rule + ".") for r in game.info.rules):
                        p.error(v.span, f"no rule `{rule}` in {game.info.ruleset}",
                                did_you_mean(rule, game.info.rules) or "rules are named like actions.<name>.when")
            elif not isinstance(value, YSeq):
                p.error(value.span, "`illegal:` maps action texts to the rule that forbids them, or lists texts")
        out.append(Expectation(kind, value, key.span))
    return out


def _no_move_of(p: Problems, s: Scenario, node: YNode, state: State, why: str) -> None:
    """A text no move of the rule set can ever have (`prospekt A1`: no action's text, no answer's,
    starts so) is an error where a check of it could only pass: `legal_excludes:`, `illegal:`."""
    text = text_of(p, node)
    if text is None:
        return
    wanted = " ".join(text.lower().split())
    starts = [prefix for prefix in state.TEXT_PREFIX.values()]
    if any(not prefix for prefix in starts):  # (an action whose text is its arguments alone: any text may be one)
        return
    starts += [f"{name} " for name in state.ASKS] + ["pass"]
    if any(wanted.startswith(prefix.lower()) for prefix in starts):
        return
    forms = sorted({prefix.strip() for prefix in starts})
    p.error(node.span, f"`{text}` is no move of {state.game.info.ruleset}: {why}",
            did_you_mean(wanted.split(" ")[0], forms) or f"moves start with: {', '.join(forms)}")


def scenario_files(paths: list[Path]) -> list[Path]:
    """Every .yaml under the folders given, and the files given, in a stable order."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*.yaml") if q.is_file()))
        else:
            out.append(path)
    return out


def load_all(paths: list[Path], loader: GameLoader = default_loader) -> tuple[list[Scenario], list[Diagnostic]]:
    scenarios: list[Scenario] = []
    problems: list[Diagnostic] = []
    for path in scenario_files(paths):
        found, diagnostics = load_file(path, loader)
        scenarios.extend(found)
        problems.extend(diagnostics)
    return scenarios, problems


def by_name(scenarios: list[Scenario]) -> Mapping[str, Scenario]:
    return {s.name: s for s in scenarios}
