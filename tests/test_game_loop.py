"""The runtime's work per move (issue 15): match.play_game plays the random agent's choice without
apply()'s search of the legal actions (`State._apply_listed`), computes the scores of a finished
game once (`State._winners`), and every move that ends a turn passes it by `State._next_turn`
(the runtime's `_do`, the `_do` pass `move_step` writes, and decisions.move alike).

Checked: the games are those of the agent played through `choose` and `apply` (an agent of
another type takes that path), move for move, with the same scores, winners and final state, on a
rule set of each game and on test games whose moves ask (runtime/decisions.py) and whose phases
say `end_turn`; and the generated `_do` ends the turn through `_next_turn`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulewright
from rulewright.agents import RandomAgent
from rulewright.compiler.driver import compile_file
from rulewright.compiler.paths import ruleset_file
from rulewright.match import play_game
from rulewright.runtime.state import Action, State

GAMES = Path(__file__).parent / "games"


class Chooser:
    """The random agent's choices, through the generic path (not a RandomAgent: `choose`, `apply`)."""

    def __init__(self, seed: int) -> None:
        self.agent = RandomAgent(seed)

    def choose(self, state: State) -> Action:
        return self.agent.choose(state)


@pytest.mark.parametrize("ruleset", ["china-schacht", "china-cornett", "mandarin", "chang-cheng",
                                     str(GAMES / "kingdoms.yaml"), str(GAMES / "every-construct.yaml")])
def test_the_random_agents_path_plays_the_same_games(ruleset: str) -> None:
    game = rulewright.load_rules(Path(ruleset)) if ruleset.endswith(".yaml") else rulewright.load(ruleset)
    players = 3 if 3 in game.info.players else game.info.players[0]
    for seed in range(4):
        fast = play_game(game, players, seed, record=True)
        shared = Chooser(seed ^ 0x5EED)  # (the seats left to chance share one random agent)
        slow = play_game(game, players, seed, record=True, agents=dict.fromkeys(range(players), shared))
        assert fast.error is None and fast.finished, fast.error
        assert (fast.log, fast.scores, fast.winners, fast.moves, fast.turns) == \
            (slow.log, slow.scores, slow.winners, slow.moves, slow.turns)
        assert fast.final == slow.final
        state = game.state_from_json(fast.final)
        assert state.winners() == fast.winners and state.scores() == fast.scores


def test_a_fault_of_the_rules_is_reported_alike() -> None:
    game = rulewright.load("china-schacht")

    def broken(self: State, action: Action) -> None:
        raise ZeroDivisionError("boom")

    original = game.state_class._perform
    game.state_class._perform = broken  # type: ignore[method-assign]
    try:
        fast = play_game(game, 3, 1)
        slow = play_game(game, 3, 1, agents=dict.fromkeys(range(3), Chooser(1 ^ 0x5EED)))
    finally:
        game.state_class._perform = original  # type: ignore[method-assign]
    assert fast.error is not None and fast.error == slow.error and "boom" in fast.error


def test_the_turn_passes_through_next_turn() -> None:
    source = compile_file(ruleset_file("china-schacht")).source
    do = source[source.index("    def _do("):source.index("\n    def ", source.index("    def _do(") + 1)]
    assert do.endswith("        self._next_turn()\n        self._start_phase()\n")
    assert "self.turn += 1" not in source
    state = rulewright.load("china-schacht").new_state(3, 7)
    turn, current = state.turn, state.current
    state._next_turn()
    assert (state.turn, state.current, state.phase) == (turn + 1, (current + 1) % 3, 0)
