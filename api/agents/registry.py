"""The registry of agent kinds, and agent specs: how the command line names an agent and gives it
to a seat.

Agents are named on the command line by a spec, `KIND` or `KIND:NAME=VALUE,NAME=VALUE`
(`mcts:iterations=400`), and given to seats by `K=SPEC` (`--agent 1=mcts:iterations=400`,
seats counted from 1). `AGENT_KINDS` is the registry of kinds: each says its parameters, with
their types and defaults, and whether it needs a game without hidden information. A spec is
plain data (picklable: it travels to worker processes and Dask workers); `make_agents` builds
the agents of the seats of one game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.source import did_you_mean
from ..runtime.errors import RulewrightError, whole_number
from ..runtime.state import Game
from .base import Agent, hidden_fields, seat_agent_seed
from .ismcts import ISMCTSAgent
from .mcts import MCTSAgent
from .simple import GreedyAgent, RandomAgent


# -- the registry of agent kinds ---------------------------------------------------------------
class BadAgent(RulewrightError):
    """An agent spec that names no kind, a parameter the kind has not, a value of the wrong type,
    or a kind that cannot play the rule set (a search that would read hidden information)."""


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter of an agent kind: its type (int, float, bool or str: a name), default and meaning."""

    type: type
    default: Any
    doc: str
    least: float | None = None  # the smallest value allowed (iterations >= 1), if any


@dataclass(frozen=True, slots=True)
class AgentKind:
    """One kind of agent. `make(seed, params)` builds it; `perfect_information` kinds refuse rule
    sets with hidden information (they would search with what their seat cannot see)."""

    name: str
    doc: str
    make: Callable[[int, Mapping[str, Any]], Agent]
    params: Mapping[str, Param] = field(default_factory=dict)
    perfect_information: bool = False


AGENT_KINDS: dict[str, AgentKind] = {}


def register(kind: AgentKind) -> AgentKind:
    """Add an agent kind to the registry (once per name)."""
    if kind.name in AGENT_KINDS:
        raise ValueError(f"agent kind {kind.name!r} registered twice")
    AGENT_KINDS[kind.name] = kind
    return kind


register(AgentKind("random", "uniformly random among the legal actions", lambda seed, _: RandomAgent(seed)))


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """An agent kind and its parameters as given (`mcts:iterations=400`), checked against the
    registry by `parse_agent_spec`. `str(spec)` is its canonical text (parameters in the order
    given, defaults not added)."""

    kind: str
    params: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.params)

    def values(self) -> dict[str, Any]:
        """Every parameter of the kind, given or default, as its typed value."""
        kind = _kind(self.kind)
        values = {name: p.default for name, p in kind.params.items()}
        for name, text in self.params:
            values[name] = _param_value(kind, name, text)
        return values


def _kinds_list() -> str:
    return ", ".join(sorted(AGENT_KINDS))


def _kind(name: str) -> AgentKind:
    kind = AGENT_KINDS.get(name)
    if kind is None:
        raise BadAgent(f"no agent kind `{name}`: the kinds are {_kinds_list()}")
    return kind


def _param_value(kind: AgentKind, name: str, text: str) -> Any:
    param = kind.params.get(name)
    if param is None:
        known = ", ".join(kind.params) or "none"
        raise BadAgent(f"agent `{kind.name}` has no parameter `{name}` (its parameters: {known})")
    value: Any
    try:
        if param.type is bool:
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(text)
            value = text.lower() in ("true", "1", "yes")
        elif param.type is int:
            value = whole_number(text, signed=True)
            if value is None:
                raise ValueError(text)
        elif param.type is str:  # a name in the rule set (checked against it by check_agents)
            if not _NAME.fullmatch(text):
                raise ValueError(text)
            value = text
        else:
            value = float(text) if text.isascii() else None  # (float("٣") is 3.0: digits are ASCII, as whole_number's)
            if value is None or value != value or value in (float("inf"), float("-inf")):
                raise ValueError(text)
    except ValueError:
        what = "a name" if param.type is str else f"{'an' if param.type is int else 'a'} {param.type.__name__}"
        raise BadAgent(f"agent `{kind.name}`: `{name}` must be {what}, not `{text}`") from None
    if param.least is not None and value < param.least:
        raise BadAgent(f"agent `{kind.name}`: `{name}` must be at least {param.least:g}, not `{text}`")
    return value


def parse_agent_spec(text: str) -> AgentSpec:
    """`KIND` or `KIND:NAME=VALUE,...` checked against the registry."""
    name, _, rest = text.strip().partition(":")
    kind = _kind(name.strip().lower())
    params: list[tuple[str, str]] = []
    for item in rest.split(",") if rest.strip() else []:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise BadAgent(f"bad agent parameter `{item.strip()}` in `{text.strip()}`: expected NAME=VALUE")
        if any(key == k for k, _ in params):
            raise BadAgent(f"agent parameter `{key}` given twice in `{text.strip()}`")
        _param_value(kind, key, value)
        params.append((key, value))
    return AgentSpec(kind.name, tuple(params))


def parse_agent_option(text: str, players: int) -> tuple[int, AgentSpec]:
    """`K=SPEC` (seats from 1) as (seat from 0, spec)."""
    seat, sep, spec = text.partition("=")
    k = whole_number(seat.strip())
    if not sep or k is None or not spec.strip():
        raise BadAgent(f"bad --agent `{text}`: expected K=KIND or K=KIND:NAME=VALUE,..., e.g. 2=mcts:iterations=400")
    if not 1 <= k <= players:
        raise BadAgent(f"bad --agent `{text}`: seats are 1 to {players} in this game")
    return k - 1, parse_agent_spec(spec)


def parse_agent_options(values: Sequence[str], players: int) -> dict[int, AgentSpec]:
    """Every `--agent K=SPEC` of a command, by seat from 0; a seat named twice is refused."""
    seats: dict[int, AgentSpec] = {}
    for text in values:
        seat, spec = parse_agent_option(text, players)
        if seat in seats:
            raise BadAgent(f"seat {seat + 1} is given two agents (`{seats[seat]}` and `{spec}`)")
        seats[seat] = spec
    return seats


def check_estimate(game: Game, name: str, *, use: str = "to estimate with", what: str = "an estimate",
                   shown: str | None = None) -> None:
    """Refuse an `estimate=NAME` that is not a definition of the rule set over one player giving a
    number. Tried on the first position of a game at the fewest players (default options): a
    definition over another type than `player` is not told from one over `player` by this.
    `use` and `what` say what it is for (`metrics --lead`: "to read the lead from", "a lead"),
    `shown` names the rule set as the command line did (a rule file's path), else its id."""
    ruleset = shown or game.info.ruleset
    defined = sorted(key.removeprefix("define.") for key in game.info.rules if key.startswith("define."))
    if name not in defined:
        hint = did_you_mean(name, defined)
        raise BadAgent(f"{ruleset} has no definition `{name}` {use}" + (f": {hint}" if hint else ""))
    state = game.new_state(min(game.info.players), 0)
    try:
        values = [getattr(state, name)(p) for p in range(state.num_players)]
    except TypeError:
        raise BadAgent(f"`{name}` of {ruleset} does not take one player: {what} is a definition like "
                       "`\"progress(p: player)\": ...`") from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise BadAgent(f"`{name}` of {ruleset} is not a number: {what} must give one per player")


def check_agents(game: Game, seats: Mapping[int, AgentSpec]) -> None:
    """Refuse a kind that needs perfect information on a rule set with hidden fields, and an
    `estimate` that is not a definition of the rule set over one player."""
    hidden = hidden_fields(game)
    for seat in sorted(seats):
        estimate = dict(seats[seat].params).get("estimate")
        if estimate:
            check_estimate(game, estimate)
        kind = _kind(seats[seat].kind)
        if kind.perfect_information and hidden:
            others = [k for k, v in AGENT_KINDS.items() if not v.perfect_information and k != "random"]
            instead = f"; use {' or '.join(f'`{k}`' for k in others)}" if others else ""
            shown = ", ".join(f"`{name}`" for name in hidden[:3]) + (", ..." if len(hidden) > 3 else "")
            raise BadAgent(f"agent `{kind.name}` (seat {seat + 1}) searches with the whole state, but "
                           f"{game.info.ruleset} hides {shown} from some players{instead}")
        if kind.perfect_information and any(game.state_class.SIMULTANEOUS):  # (docs/language.md)
            others = [k for k, v in AGENT_KINDS.items() if not v.perfect_information and k != "random"]
            instead = f"; use {' or '.join(f'`{k}`' for k in others)}" if others else ""
            raise BadAgent(f"agent `{kind.name}` (seat {seat + 1}) searches with the whole state, but "
                           f"{game.info.ruleset} hides a seat's choice in a simultaneous phase from the others "
                           f"until all have chosen{instead}")


def make_agents(seats: Mapping[int, AgentSpec], game_seed: int) -> dict[int, Agent]:
    """The agents of one game started with `game_seed`, by seat (from 0), for the seats of `seats`
    that are not `random`: those, like the seats not named, are played by the game's shared
    random agent (`play_game` makes it)."""
    return {
        seat: _kind(spec.kind).make(seat_agent_seed(game_seed, seat), spec.values())
        for seat, spec in sorted(seats.items())
        if spec.kind != "random"
    }


_NAME = re.compile(r"[a-z_][a-z0-9_]*")

# What a search weighs a position by instead of the score (evaluate.standings): the name of a
# definition of the rule set over one player, e.g. `estimate=level` for Yellow & Yangtze.
ESTIMATE = Param(str, "", "a definition over one player that positions are weighed by instead of the score "
                          "(empty: the score)")


def _greedy(seed: int, params: Mapping[str, Any]) -> Agent:
    return GreedyAgent(seed, estimate=params["estimate"] or None)


def _mcts(seed: int, params: Mapping[str, Any]) -> Agent:
    # rollout=false: no play-out at all (MCTSAgent's rollout_moves=0); else rollout_moves moves, 0 to the end
    rollout_moves = (params["rollout_moves"] or None) if params["rollout"] else 0
    return MCTSAgent(seed, iterations=params["iterations"], exploration=params["exploration"],
                     rollout_moves=rollout_moves, estimate=params["estimate"] or None)


register(AgentKind(
    "greedy", "one ply: the move after which its score leads the best other score by most (api/agents/simple.py)",
    _greedy, {"estimate": ESTIMATE}, perfect_information=True))
register(AgentKind(
    "mcts", "Monte Carlo tree search, UCT, for games without hidden information (api/agents/mcts.py)", _mcts,
    {"iterations": Param(int, 400, "iterations (simulations) per move", least=1),
     "exploration": Param(float, 1.4, "UCB1 exploration constant", least=0),
     "rollout_moves": Param(int, 0, "moves a play-out may last, then the lead in score is weighed (0: to the end "
                                    "of the game)", least=0),
     "rollout": Param(bool, True, "false: no play-out, a new node is weighed at once by the lead in score (or the "
                                  "estimate): stronger and faster where the score grows during the game "
                                  "(docs/experiments.md, \"Strength\")"),
     "estimate": ESTIMATE},
    perfect_information=True))


def _ismcts(seed: int, params: Mapping[str, Any]) -> Agent:
    return ISMCTSAgent(seed, iterations=params["iterations"], exploration=params["exploration"],
                       rollout_moves=params["rollout_moves"], score_weight=params["score_weight"],
                       estimate=params["estimate"] or None)


register(AgentKind(
    "ismcts", "information-set MCTS: searches states sampled from what its seat sees (api/agents/ismcts.py)", _ismcts,
    {"iterations": Param(int, 400, "samples searched per move", least=1),
     "exploration": Param(float, 0.7, "UCB1 exploration constant", least=0),
     "rollout_moves": Param(int, 0, "moves a play-out may last (0: to the end of the game)", least=0),
     "score_weight": Param(float, 0.1, "share of the reward given by the scaled score (the rest by the win)",
                           least=0),
     "estimate": ESTIMATE}))
