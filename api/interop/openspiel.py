"""Every compiled rule set as an OpenSpiel game (docs/interop.md).

    import pyspiel
    from rulewright.interop import openspiel
    game = openspiel.game("china-cornett", options={"board": "hex5"})
    game = pyspiel.load_game("rulewright_china_cornett(board=hex5)")   # the same game, by name

Importing this module registers every bundled rule set under `rulewright_<ruleset>` (`/` and
`-` written `_`: `rulewright_china_schacht_two_player`); `game()` registers any other rule file
it is given. The parameters of a game: `players`, `max_game_length`, and each option of the rule
set. What the game is (rulewright.interop.core says how each part is made):

- sequential, with explicit chance when the rules draw (every die, coin, throw and draw is a
  chance node whose outcomes are the distinct values it can draw, with their probabilities; the
  setup's draws come first), of perfect information only when every field is seen by all;
- its actions are tokens: a move is chosen in steps (its name, then its arguments);
- rewards at the end only: the rule set's `returns:` where it declares them (ZERO_SUM with
  `sum: 0`, CONSTANT_SUM with another `sum:`, else GENERAL_SUM; the utility's bounds its
  `range:`, else those of a 64-bit number), else zero-sum, the winners sharing one point,
  centred (1 for a lone winner, -1/(players - 1) for a loser, 0 for all in a draw);
- an observation (string and tensor) made from `state.observation(player)`, so from the
  declared visibility only; an information state: the observation and the player's own moves
  (as text for the string, as counts of tokens for the tensor). The state keeps no history, so
  this is not a perfect-recall information state: what a seat saw in earlier positions is not
  in it, only what it sees now and what it chose.
- a game longer than `max_game_length` decisions is cut there, as a draw (every return 0);
- a rule set with a simultaneous phase (docs/language.md, "Simultaneous decisions") is a game of
  SIMULTANEOUS dynamics: at such a decision every seat chooses its next token at once
  (`apply_actions`; `legal_actions(player)` for each, the token `pass` alone, a no-op, for a seat
  with nothing (left) to choose), until each seat's tokens name one action; then the actions are
  played in seat order. Its other decisions stay sequential nodes of one player.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ..core.paths import bundled_rulesets
from ..runtime.errors import BadSetup
from .core import DEFAULT_MAX_GAME_LENGTH, Bridge, Key, Position, bridge, key, rule_file, utility_kind

_TYPES: dict[str, Any] = {}  # short name -> the GameType registered
_RULESETS: dict[str, str] = {}  # short name -> the rule set (id or rule file)
_MAKERS: list[type] = []
RESERVED = ("players", "max_game_length")


_UTILITY = {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM, "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
            "general_sum": pyspiel.GameType.Utility.GENERAL_SUM}


def short_name(ruleset: str | os.PathLike[str]) -> str:
    """`rulewright_` and the rule set id with `/` and `-` made `_` (a rule file: its game and
    variant, as compiled)."""
    text = str(ruleset)
    if text.endswith((".yaml", ".yml")):
        from ..loading import load

        text = load(text).info.ruleset
    return "rulewright_" + text.replace("/", "_").replace("-", "_")


def register(ruleset: str | os.PathLike[str]) -> str:
    """Register a rule set (a bundled id or a rule file) with OpenSpiel; its short name."""
    from ..loading import load

    name = short_name(ruleset)
    if name in _TYPES:
        if _RULESETS[name] != str(ruleset) and rule_file(_RULESETS[name]).resolve() != rule_file(ruleset).resolve():
            raise BadSetup(f"`{name}` names {_RULESETS[name]} already: it cannot name {ruleset} too")
        return name
    game = load(ruleset)
    info = game.info
    clash = [o.name for o in info.options if o.name in RESERVED]
    if clash:
        raise BadSetup(f"{info.ruleset}: option `{clash[0]}` has the name of a parameter of the OpenSpiel game")
    spec: dict[str, Any] = {"players": info.players[0], "max_game_length": DEFAULT_MAX_GAME_LENGTH}
    spec.update((o.name, o.default) for o in info.options)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"rulewright {info.title} ({info.ruleset})",
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if any(game.state_class.SIMULTANEOUS)
                  else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION
                     if all(f.visible == "all" and not f.hides_items for f in game.state_class.FIELDS)
                     and not any(game.state_class.SIMULTANEOUS)  # (a seat choosing does not see the others)
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=_UTILITY[utility_kind(game.state_class)],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(info.players),
        min_num_players=min(info.players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )
    path = str(ruleset)
    # The maker OpenSpiel keeps is a class of its own per rule set, not a closure: the registry
    # outlives the interpreter, and a function it alone holds would be freed after it (a crash
    # at exit); a class, like those of OpenSpiel's own Python games, is not.
    maker = type(f"Game_{name}", (_Registered,), {"ruleset": path, "__module__": __name__})
    pyspiel.register_game(game_type, maker)
    _MAKERS.append(maker)
    _TYPES[name] = game_type
    _RULESETS[name] = path
    return name


def game(ruleset: str | os.PathLike[str], players: int | None = None, options: Mapping[str, str] | None = None,
         max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> RulewrightGame:
    """The OpenSpiel game of a rule set (a bundled id or a rule file), at `players` (its
    smallest count unless told), with `options` (the defaults unless told)."""
    register(ruleset)
    from ..loading import load

    params: dict[str, Any] = {"players": players if players is not None else load(ruleset).info.players[0],
                              "max_game_length": max_game_length}
    params.update(options or {})
    return RulewrightGame(str(ruleset), params)


class RulewrightGame(pyspiel.Game):  # type: ignore[misc]
    """A rule set as a pyspiel game."""

    def __init__(self, ruleset: str, params: Mapping[str, Any]) -> None:
        name = register(ruleset)
        options = {k: str(v) for k, v in params.items() if k not in RESERVED}
        self.bridge: Bridge = bridge(key(ruleset, int(params["players"]), options,
                                         int(params.get("max_game_length", DEFAULT_MAX_GAME_LENGTH))))
        b = self.bridge
        game_type = _TYPES[name]
        # The type registered says the rule set draws (which ones do is known once compiled): the
        # game made says exactly.
        chance = (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if b.max_chance_outcomes
                  else pyspiel.GameType.ChanceMode.DETERMINISTIC)
        information = (pyspiel.GameType.Information.PERFECT_INFORMATION
                       if b.perfect_information and not any(b.game.state_class.SIMULTANEOUS)
                       else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
        if (chance, information) != (game_type.chance_mode, game_type.information):
            game_type = pyspiel.GameType(
                short_name=game_type.short_name, long_name=game_type.long_name, dynamics=game_type.dynamics,
                chance_mode=chance, information=information,
                utility=game_type.utility, reward_model=game_type.reward_model,
                max_num_players=game_type.max_num_players, min_num_players=game_type.min_num_players,
                provides_information_state_string=True, provides_information_state_tensor=True,
                provides_observation_string=True, provides_observation_tensor=True,
                parameter_specification=game_type.parameter_specification)
        players = b.players
        least, most = b.utility_bounds
        info = pyspiel.GameInfo(
            num_distinct_actions=len(b.vocabulary),
            max_chance_outcomes=b.max_chance_outcomes,
            num_players=players,
            min_utility=least,
            max_utility=most,
            utility_sum=b.utility_sum,
            max_game_length=b.max_game_length,
        )
        super().__init__(game_type, info, {"players": players, "max_game_length": b.max_game_length, **b.options})

    def new_initial_state(self) -> RulewrightState:
        return RulewrightState(self, self.bridge.initial())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (not iig_obs_type.public_info
                                         or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("only a seat's own observation and information state are offered")
        return Observer(self.bridge, information_state=recall)


class _Registered(RulewrightGame):
    """The game made by OpenSpiel's registry from a name and its parameters."""

    ruleset = ""

    def __init__(self, params: Mapping[str, Any]) -> None:
        super().__init__(self.ruleset, params)


class RulewrightState(pyspiel.State):  # type: ignore[misc]
    """A position of a rulewright game (a `Position` with explicit chance)."""

    def __init__(self, game: RulewrightGame, position: Position) -> None:
        super().__init__(game)
        self.position = position  # (copied, when OpenSpiel clones the state, by Position.__deepcopy__)

    def current_player(self) -> int:
        p = self.position
        if p.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if p.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        if p.is_simultaneous():
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        seat = p.to_act()
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.position.is_simultaneous():
            return self.position.legal_of(player)
        return self.position.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.position.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.position.apply(int(action))

    def _apply_actions(self, actions: list[int]) -> None:
        """A simultaneous decision's step: a token of every seat at once."""
        self.position.apply_joint([int(a) for a in actions])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.position.outcome_text(action)
        texts = self.position.bridge.vocabulary.texts
        if not 0 <= action < len(texts):
            return f"token {action}"
        if 0 <= player < self.position.bridge.players:  # (as the seat reads it: `others_text:`)
            return self.position.token_text(player, action)
        return texts[action]

    def is_terminal(self) -> bool:
        return self.position.is_terminal()

    def returns(self) -> list[float]:
        return self.position.returns()

    def __str__(self) -> str:
        return self.position.text()


class Observer:
    """What a seat observes (or its information state), as OpenSpiel's Python observers are."""

    def __init__(self, b: Bridge, information_state: bool) -> None:
        self.bridge = b
        self.information_state = information_state
        size = b.layout.size
        self.tensor = np.zeros(size + (len(b.vocabulary) if information_state else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if information_state:
            self.dict["own_moves"] = self.tensor[size:]

    def set_from(self, state: RulewrightState, player: int) -> None:
        p = state.position
        self.tensor.fill(0.0)
        if p.state is None or not 0 <= player < self.bridge.players:  # (the setup drawing: nothing seen yet)
            return
        self.bridge.layout.write(p.observation(player), player, p.own_prefix(player), self.dict["observation"])
        if self.information_state:
            moves = self.dict["own_moves"]
            tokens = self.bridge.vocabulary.tokens
            for action in p.own_actions(player):
                for k in tokens(action):
                    moves[k] += 1.0

    def string_from(self, state: RulewrightState, player: int) -> str:
        p = state.position
        if p.state is None:
            return "the game is being set up"
        text = self.bridge.observation_text(p.observation(player), p.own_prefix(player))
        if self.information_state:
            text += "\nown moves: " + "; ".join(str(a) for a in p.own_actions(player))
        return text


def register_bundled() -> list[str]:
    """Register every bundled rule set; their short names."""
    return [register(ruleset) for ruleset, _ in bundled_rulesets()]


register_bundled()

__all__ = ["Key", "Observer", "RulewrightGame", "RulewrightState", "game", "register", "register_bundled",
           "short_name"]
