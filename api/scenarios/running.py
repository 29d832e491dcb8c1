"""Running a scenario: its position set up, its steps played (`play_steps`), its expectations
compared (`run`), its distributions replayed; and a scenario run against another rule set, a
variant of its own (`compare`)."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, cast

from ..compiler.names import MEMBER_PATTERNS
from ..core.load import YMap, YScalar, YSeq
from ..core.source import SourceSpan
from ..runtime import decisions
from ..runtime.errors import RulewrightError
from ..runtime.faults import game_error
from ..runtime.limits import new_move
from ..runtime.rng import derive_seed
from ..runtime.state import Game, State
from .distributions import goodness_of_fit, key_text, probability, read_of, replays_of
from .model import Check, Problems, Result, Scenario, Step, show
from .positions import (
    apply_position,
    auction_raw,
    auction_shown,
    chance_outcomes,
    field_values,
    force,
    invariants_broken,
    label_of,
    named_value,
    plain,
    player_count,
    seat_name,
    seat_of,
    shown_value,
)


def run(s: Scenario, game: Game | None = None) -> Result:
    """Play a scenario on its own game (or on `game`, another rule set) and compare."""
    game = game or s.game
    assert game is not None, "load the scenario with load_file first"
    result = Result(s)
    options = {k: v for k, v in s.options.items() if k in {o.name for o in game.info.options}}
    try:
        state = game.new_state(player_count(s, game), s.seed, options)
    except RulewrightError as exc:
        result.problem = str(exc)
        return result
    result.problem = apply_position(s, state)
    if result.problem is not None:
        return result
    broken = invariants_broken(state)
    if broken:  # a position the loader accepted under the scenario's own rule set, broken under another
        where = [f"`{b}` ({game.info.rules.get(f'invariants.{b}', '?')})" for b in broken]
        result.problem = f"the position breaks invariant {', '.join(where)} of {game.info.ruleset}"
        return result
    state.trace = result.fired
    error, played = play_steps_counted(s, state)
    expected_error = next((e for e in s.expect if e.kind == "error"), None)
    if error is not None and expected_error is None:
        result.problem = error
    elif error is not None and played < len(s.steps):  # the error expected, but steps follow it
        never = s.steps[played]
        result.problem = (f"{_at(s, never.span)}: this step is never played: the steps stop at the error "
                          f"`expect: error:` expects, at step {played} (line {s.steps[played - 1].span.line}); "
                          "end the steps there")
    _compare(s, state, result, error)
    left = [f"{kind} {shown}" for kind, queue in (state.rng.forced or {}).items() for _, shown in queue]
    if left and error is None:
        result.checks.append(Check("forced chance", "all of it used", f"not used: {', '.join(left)}", False))
    state.trace = None
    for e in s.expect:
        if e.kind == "distribution" and isinstance(e.node, YMap):
            result.checks.append(_distribution(s, game, e.node))
    return result


def play_steps(s: Scenario, state: State) -> str | None:
    """Play the scenario's steps on `state`; the error that stopped them, or None."""
    return play_steps_counted(s, state)[0]


def play_steps_counted(s: Scenario, state: State) -> tuple[str | None, int]:
    """Play the scenario's steps on `state`: the error that stopped them (or None), and the
    number of steps played (the one that failed among them)."""
    p = Problems()
    error: str | None = None
    played = 0
    for step in s.steps:
        played += 1
        try:
            if step.kind == "chance":
                if step.node is not None:
                    force(state, chance_outcomes(p, s, step.node, state))
                continue
            if step.kind == "trigger":
                _trigger(s, state, step)
                continue
            if step.player is not None and state.is_simultaneous() and step.player in state.choosing():
                state.apply(step.text, seat=step.player)  # a seat choosing at once with others, in any order
                continue
            if step.player is not None and state.to_act() != step.player:
                deciding = state.to_act()
                actual = "nobody (the game is over)" if deciding is None else seat_name(s, deciding)
                raise RulewrightError(f"`{step.text}` by {seat_name(s, step.player)}: {actual} is to act")
            state.apply(step.text)
        except RulewrightError as exc:
            error = str(exc)
            break
    return error, played


def _at(s: Scenario, span: SourceSpan) -> str:
    """Where a step is written, `path:line:col`, for an error a step's effect reveals only when
    it is played (a trigger that does not fire, a step never played)."""
    return str(span)


def _trigger(s: Scenario, state: State, step: Step) -> None:
    """Apply the trigger a `- trigger: <name>` step names to the position, as the rules apply it
    (its `when:`, then its effect, then the test of the end). A trigger whose rules can ask
    (`ask`) is compiled as steps (runtime/decisions.py): they are run like a move's, and a
    question they ask waits for the scenario's next steps to answer it. A step that could change
    nothing is an error, not a silent step: the game is over, a decision waits, or the trigger's
    `when:` does not hold on the position."""
    name = step.text
    where = _at(s, step.span)
    if state.terminal:
        raise RulewrightError(f"{where}: trigger `{name}` cannot apply: the game is over")
    pending = state._pending
    if pending is not None:
        raise RulewrightError(f"{where}: trigger `{name}` cannot apply while {seat_name(s, pending.ask.seat)} is "
                              f"asked `{pending.ask.name}`: answer it first")
    trace = state.trace
    if trace is None:  # (a distribution's replay, the web viewer's: a trace of its own, to tell it fired)
        state.trace = []
    fired_before = len(state.trace or ())
    before = state.clone() if state.SUSPENDS else None
    try:
        steps = getattr(state, MEMBER_PATTERNS["trigger"][0].format(name))()
        if isinstance(steps, Generator):  # a trigger whose rules can ask: run until done or a question
            if hasattr(type(state), "_budget"):  # (a fresh budget of work, as for a move)
                new_move(state)
            decisions.run(state, _then_ended(state, steps), before, [])
            waiting = state._pending
            if waiting is not None and before is not None:  # (a copy of the state plays the trigger again)
                waiting.resample = partial(_trigger_again, s, before, step)
        elif state._is_over():
            state.terminal = True
    except RulewrightError:
        raise
    except Exception as exc:  # a fault of the rule set's code: told by its rule line
        raise game_error(exc, state) from exc
    finally:
        fired = f"triggers.{name}" in (state.trace or [])[fired_before:]
        state.trace = trace
    state._legal_cache = None
    state._derived = None
    if not fired:
        rule = (s.game.info.rules.get(f"triggers.{name}", "") if s.game is not None else "") or "its rule"
        raise RulewrightError(f"{where}: trigger `{name}` does not fire on this position: its `when:` ({rule}) "
                              "does not hold, so the step would change nothing")


def _then_ended(state: State, steps: decisions.Steps) -> decisions.Steps:
    """A trigger's steps, then the test of the end that follows every move's (decisions.move):
    a trigger that ends the game, once its questions are answered, ends it."""
    yield from steps
    if state._is_over():
        state.terminal = True


def _trigger_again(s: Scenario, before: State, step: Step) -> State:
    """The state a trigger that asks is waiting in, made again from the state it began in (how a
    copy of it is made: `Pending.resample`). A scenario's state is never saved (`to_json`)."""
    state = before.clone()
    _trigger(s, state, step)
    return state


def _each_seat(p: Problems, s: Scenario, node: YMap, players: int, names: Sequence[str], what: str,
               values: Sequence[int], result: Result) -> None:
    """A check per seat `node` names (`P1: 12`) of its `what` (`score`, `return`) among `values`."""
    for k, v in node.items:
        seat = seat_of(p, s, k, players)
        if seat is not None:
            wanted = v.value if isinstance(v, YScalar) else None
            result.checks.append(Check(f"{what} of {names[seat]}", wanted, values[seat], values[seat] == wanted))


def _compare(s: Scenario, state: State, result: Result, error: str | None) -> None:
    fields = {f.name: f for f in state.FIELDS}
    names = (*s.names[:state.num_players], *state.NEUTRAL)
    p = Problems()
    for e in s.expect:
        node = e.node
        if e.kind == "scores" and isinstance(node, YMap):
            _each_seat(p, s, node, state.num_players, names, "score", state.scores(), result)
        elif e.kind == "returns" and isinstance(node, YMap):
            if not state.is_terminal():  # (the returns are read once the game is over)
                result.checks.append(Check("returns", {str(k.value): v.value for k, v in node.items
                                                       if isinstance(v, YScalar)},
                                           "none yet: the game is not over", False))
                continue
            _each_seat(p, s, node, state.num_players, names, "return", state.declared_returns(), result)
        elif e.kind == "score_terms" and isinstance(node, YMap):
            for k, v in node.items:
                seat = seat_of(p, s, k, state.num_players)
                if seat is not None and isinstance(v, YMap):
                    terms = state.score_terms(seat)
                    for tk, tv in v.items:
                        term = str(tk.value)
                        result.checks.append(Check(f"{term} of {names[seat]}", tv.value if isinstance(tv, YScalar)
                                                   else None, terms.get(term), terms.get(term) == tv.value
                                                   if isinstance(tv, YScalar) else False))
        elif e.kind == "fields" and isinstance(node, YMap):
            for fkey, fvalue in node.items:
                info = fields.get(str(fkey.value))
                if info is None:
                    continue
                wanted = field_values(p, s, info, fvalue, state, partial=True)
                actual = getattr(state, info.name)
                if info.kind == "auction" and info.per is None and isinstance(wanted, dict):
                    raw = auction_raw(actual)
                    for part, v in cast(dict[str, Any], wanted).items():
                        result.checks.append(Check(f"{info.name}.{part}", auction_shown(part, v, names),
                                                   auction_shown(part, raw[part], names), v == raw[part]))
                elif info.per is None:
                    same = plain(wanted) == plain(actual)
                    result.checks.append(Check(info.name, shown_value(state, info, wanted, names),
                                               shown_value(state, info, actual, names), same))
                elif isinstance(wanted, dict):
                    for i, v in wanted.items():
                        who = names[i] if info.per == "player" else label_of(state, info, i)
                        result.checks.append(Check(f"{info.name}[{who}]", named_value(state, info, v),
                                                   named_value(state, info, actual[i]), plain(v) == plain(actual[i])))
        elif e.kind in ("legal", "legal_includes", "legal_excludes") and isinstance(node, YSeq):
            legal = sorted(str(a) for a in state.legal_actions())
            wanted_texts = sorted(" ".join(str(x.value).split()) for x in node.items if isinstance(x, YScalar))
            if e.kind == "legal":
                result.checks.append(Check("legal actions", wanted_texts, legal, legal == wanted_texts))
            elif e.kind == "legal_includes":
                missing = [t for t in wanted_texts if t not in legal]
                result.checks.append(Check("legal actions include", wanted_texts, missing and f"missing {missing}"
                                           or wanted_texts, not missing))
            else:
                present = [t for t in wanted_texts if t in legal]
                result.checks.append(Check("legal actions exclude", wanted_texts, present and f"legal: {present}"
                                           or "none legal", not present))
        elif e.kind == "illegal":
            items: list[tuple[str, str | None]] = []
            if isinstance(node, YMap):
                items = [(str(k.value), str(v.value) if isinstance(v, YScalar) else None) for k, v in node.items]
            elif isinstance(node, YSeq):
                items = [(str(x.value), None) for x in node.items if isinstance(x, YScalar)]
            for text, rule in items:
                # keyed by the text alone, legal or not, so that `--against` sees a move turn legal
                wanted_outcome = f"illegal ({rule})" if rule else "illegal"
                if state.parse_action(text) is not None:
                    result.checks.append(Check(f"`{text}`", wanted_outcome, "legal", False))
                    continue
                _, why = state.why_illegal(text)
                ok = rule is None or _forbids(state, rule, why, text)
                result.checks.append(Check(f"`{text}`", wanted_outcome, f"illegal ({why})", ok))
        elif e.kind == "winners" and isinstance(node, YSeq):
            wanted_seats = sorted(x for x in (seat_of(p, s, v, state.num_players) for v in node.items) if x is not None)
            wanted_names = [names[i] for i in wanted_seats]
            if not state.is_terminal():  # (winners() is empty while the game goes on: no winner to compare)
                result.checks.append(Check("winners", wanted_names, "none yet: the game is not over", False))
                continue
            actual = state.winners()
            result.checks.append(Check("winners", wanted_names, [names[i] for i in actual], actual == wanted_seats))
        elif e.kind == "told" and isinstance(node, YSeq):  # what the last move told everyone (State.told)
            wanted_told = [str(v.value) for v in node.items if isinstance(v, YScalar)]
            result.checks.append(Check("told", wanted_told, state.told(), state.told() == wanted_told))
        elif e.kind == "terminal" and isinstance(node, YScalar):
            result.checks.append(Check("game over", node.value, state.is_terminal(), state.is_terminal() == node.value))
        elif e.kind == "to_act":
            actual_seat = state.to_act()
            nobody = isinstance(node, YScalar) and node.value is None
            wanted_seat = None if nobody else seat_of(p, s, node, state.num_players)
            result.checks.append(Check("to act", names[wanted_seat] if wanted_seat is not None else "nobody",
                                       names[actual_seat] if actual_seat is not None else "nobody",
                                       wanted_seat == actual_seat))
        elif e.kind == "error" and isinstance(node, YScalar):
            wanted = str(node.value)
            result.checks.append(Check("error", wanted, error or "no error", error is not None and wanted in error))


def _forbids(state: State, rule: str, why: str, text: str) -> bool:
    """Whether `rule` (a rule path or a prefix of one: `actions.turn_back`) is the one that
    forbids the move, `why` (State.why_illegal)."""
    return why == rule or why.startswith(rule + ".")


def _distribution(s: Scenario, game: Game, node: YMap) -> Check:
    """Replay the scenario (position and steps) under `runs` seeds drawn from its own, count the
    values of `of`, and test them against `values` (`goodness_of_fit`)."""
    p = Problems()
    sig_node, of_node = node.get("significance"), node.get("of")
    runs = replays_of(node)
    significance = sig_node.value if isinstance(sig_node, YScalar) and isinstance(sig_node.value, float) else 0.001
    values = node.get("values")
    wanted = {key_text(k.value): probability(v) or Fraction(0)
              for k, v in (values.items if isinstance(values, YMap) else ())}
    what = f"distribution of {of_node.value if isinstance(of_node, YScalar) else '?'}"
    options = {k: v for k, v in s.options.items() if k in {o.name for o in game.info.options}}
    counts: dict[str, int] = {}
    for i in range(runs):
        state = game.new_state(player_count(s, game), derive_seed(s.seed, i), options)
        problem = apply_position(s, state)
        error = problem or play_steps(s, state)
        if error is not None:
            return Check(what, "a value per run", f"run {i + 1} stopped: {error}", False)
        target = read_of(p, s, of_node, state) if of_node is not None else None
        if target is None:
            return Check(what, "a value per run", "no field to count", False)
        info, index = target
        value = getattr(state, info.name)
        value = value if index is None else value[index]
        names = (*s.names[:state.num_players], *state.NEUTRAL)
        shown = key_text(shown_value(state, info, value, names) if index is None else named_value(state, info, value))
        counts[shown] = counts.get(shown, 0) + 1
    return goodness_of_fit(what, wanted, counts, runs, significance)


# -- Against another rule set --------------------------------------------------------------------

@dataclass
class Comparison:
    scenario: Scenario
    base: Result
    other: Result
    changes: list[tuple[str, Any, Any]]  # what, outcome under the scenario's rule set, under the other
    skipped: str | None = None  # why it was not compared: written for a rule set the other does not extend

    def report(self, other_name: str) -> str:
        if self.skipped is not None:
            return f"skipped  {self.scenario.name}  ({self.scenario.where}): {self.skipped}"
        if not self.changes:
            return f"same     {self.scenario.name}  ({self.scenario.where})"
        lines = [f"CHANGED  {self.scenario.name}  ({self.scenario.where})"]
        for what, before, after in self.changes:
            lines.append(f"  {what}: {show(before)} -> {show(after)} under {other_name}")
        fired = [r for r in self.other.rule_lines() if r not in self.base.rule_lines()]
        if fired:
            lines.append(f"  rules fired only under {other_name}: " + ", ".join(fired))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.scenario.name,
            "file": self.scenario.file,
            "line": self.scenario.span.line,
            "changed": bool(self.changes),
            "skipped": self.skipped,
            "changes": [{"what": w, "before": b, "after": a} for w, b, a in self.changes],
        }


def extends(other: Game, base: Game) -> bool:
    """Whether `other` is `base` or a variant of it (directly or through other variants): its
    rule files are base's, then its own."""
    files = base.info.files
    return other.info.id == base.info.id and tuple(other.info.files[:len(files)]) == tuple(files)


def compare(s: Scenario, other: Game) -> Comparison:
    """The outcomes of a scenario under its own rule set and under `other`. A scenario written for
    a rule set that `other` does not extend is not played (its outcomes would differ for reasons
    that are not the variant's): the comparison says so in `skipped`."""
    assert s.game is not None, "load the scenario with load_file first"
    if not extends(other, s.game):
        empty = Result(s)
        return Comparison(s, empty, empty, [], skipped=f"written for {s.game.info.ruleset}, which "
                          f"{other.info.ruleset} does not extend")
    base = run(s)
    variant = Scenario(**{**s.__dict__, "game": other})
    after = run(variant, other)
    changes: list[tuple[str, Any, Any]] = []
    if (base.problem or None) != (after.problem or None):
        changes.append(("step", base.problem or "played", after.problem or "played"))
    by_what = {c.what: c for c in after.checks}
    for c in base.checks:
        twin = by_what.get(c.what)
        if twin is not None and twin.actual != c.actual:
            changes.append((c.what, c.actual, twin.actual))
    return Comparison(s, base, after, changes)
