"""The runtime's work per move (issue 15): every agent chooses by index in the legal actions and
its choice is played by `State.play(index)`, with no search of the list (api/agents/base.py); a finished
game's scores are computed once (`State._winners`), and every move that ends a turn passes it by
`State._next_turn` (the runtime's `_do`, the `_do` pass `write_out_moves` writes, and decisions.move alike).

Checked: `play_game` plays the games the public API plays (`legal_actions()` and `apply()` of the
random agent's draws), move for move, with the same scores, winners and final state, on a rule set
of each game and on test games whose moves ask (runtime/decisions.py) and whose phases say
`end_turn`; no agent, the search agents' play-outs and batches included, goes through `apply()`'s
search; an index that names no legal action is refused with one clear message and changes nothing;
the generated `_do` ends the turn through `_next_turn`; and a module says whether its seat to act is
always the seat whose turn it is (`ACTOR_IS_CURRENT`, which `play_randomly` reads).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.agents import GreedyAgent, ISMCTSAgent, MCTSAgent, RandomAgent, agent_seed
from rulewright.compiler.driver import compile_file
from rulewright.core.paths import bundled_rulesets, ruleset_file
from rulewright.match import BatchSpec, play_game, run_batch
from rulewright.runtime.errors import IllegalAction
from rulewright.runtime.state import Action, Game, State

GAMES = Path(__file__).parent / "games"


def load(ruleset: str) -> Game:
    return rulewright.load_rules(Path(ruleset)) if ruleset.endswith(".yaml") else rulewright.load(ruleset)


def by_apply(game: Game, players: int, seed: int) -> tuple[list[tuple[int, str]], State]:
    """A game of play_game's random agent played through the public API: `apply()` of the action
    at the index the agent's generator draws."""
    state = game.new_state(players, seed)
    agent = RandomAgent(agent_seed(seed))
    log = []
    while not state.is_terminal():
        seat = state.to_act()
        assert seat is not None
        legal = state.legal_actions()
        action = legal[agent.rng.below(len(legal))]
        log.append((seat, str(action)))
        state.apply(action)
    return log, state


@pytest.mark.parametrize("ruleset", ["china-schacht", "china-cornett", "mandarin", "chang-cheng",
                                     str(GAMES / "kingdoms.yaml"), str(GAMES / "every-construct.yaml")])
def test_play_game_plays_the_games_of_apply(ruleset: str) -> None:
    game = load(ruleset)
    players = 3 if 3 in game.info.players else game.info.players[0]
    for seed in range(3):
        played = play_game(game, players, seed, record=True)
        log, state = by_apply(game, players, seed)
        assert played.error is None and played.finished, played.error
        assert (played.log, played.scores, played.winners, played.moves, played.turns) == \
            (log, state.scores(), state.winners(), state.moves, state.turn)
        assert played.final == state.to_json()


@pytest.fixture
def no_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`apply()` refused for the while: what plays must go through `play(index)`."""
    def refused(self: State, action: Action | str) -> None:
        raise AssertionError(f"apply({action}) searched the legal actions")

    monkeypatch.setattr(State, "apply", refused)
    yield


def test_every_agent_plays_by_index(no_search: None) -> None:
    """The random agent, an agent of another class, the search agents and their play-outs, and a batch."""
    class Wrapped:  # (not a RandomAgent: the random agent's choices through another class)
        def __init__(self, seed: int) -> None:
            self.agent = RandomAgent(seed)

        def choose(self, state: State) -> int:
            return self.agent.choose(state)

    game = rulewright.load("china-cornett")
    default = play_game(game, 2, 4, record=True)
    shared = Wrapped(agent_seed(4))  # (the seats left to chance share one random agent)
    wrapped = play_game(game, 2, 4, record=True, agents=dict.fromkeys(range(2), shared))
    assert default.finished and (wrapped.log, wrapped.final) == (default.log, default.final)
    agents: dict[int, Any] = {0: MCTSAgent(1, iterations=4, rollout_moves=6), 1: GreedyAgent(2)}
    searched = play_game(game, 2, 5, agents=agents, max_moves=12)
    assert searched.error is None and searched.moves == 12
    hidden = play_game(rulewright.load("chang-cheng/two-player"), 2, 5, agents={0: ISMCTSAgent(1, iterations=3)},
                       max_moves=8)
    assert hidden.error is None and hidden.moves == 8
    batch = list(run_batch(BatchSpec("china-schacht", 3, 9, {}), 2))
    assert all(r.finished for r in batch)


def test_an_index_that_names_no_legal_action_is_refused() -> None:
    game = rulewright.load("china-schacht")
    state = game.new_state(3, 2)
    legal = state.legal_actions()
    before = state.to_json()
    for bad in (len(legal), -1, True, 1.0, "0", legal[0]):
        for call in (state.play, state.action_at):
            with pytest.raises(IllegalAction) as refused:
                call(bad)  # type: ignore[arg-type]
            message = str(refused.value)
            assert message.startswith("no legal action ") and " for P1: " in message, message
            assert f"from 0 to {len(legal) - 1} ({legal[0]}, " in message, message
    assert state.to_json() == before and state.legal_actions() is legal
    assert state.action_at(3) is legal[3]
    assert state.play(3) is legal[3] and state.moves == 1
    over = game.new_state(3, 2)
    over.terminal = True
    with pytest.raises(IllegalAction, match=r"^no legal action 0 \(int\): the game is over$"):
        over.play(0)

    class Wrong:
        def choose(self, state: State) -> int:
            return len(state.legal_actions())

    result = play_game(game, 3, 2, agents={1: Wrong()})
    assert result.error is not None and result.error.startswith("IllegalAction: no legal action ")
    assert " for P2: " in result.error and result.turns == 2  # (P1 played his turn; P2 chose no action)


@pytest.mark.parametrize("ruleset", [name for name, _ in bundled_rulesets()])
def test_the_runtimes_loop_plays_the_games_of_play_game(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game of random agents only, nothing recorded, is played by `State.play_randomly` (compiled
    in the native build): the same game as play_game's loop of agents, which `record` takes."""
    game = rulewright.load(ruleset)
    players = 3 if 3 in game.info.players else game.info.players[0]
    seed = 7
    by_agents = play_game(game, players, seed, record=True)
    capped_moves = play_game(game, players, seed, record=True, max_moves=by_agents.moves // 2)
    turns = min(2, by_agents.turns - 1)  # (a game of two turns, liar's dice's, is cut after its first)
    capped_turns = play_game(game, players, seed, record=True, max_turns=turns)

    def by_agent(self: State, index: int) -> Action:
        raise AssertionError("played by play_game's loop of agents")

    monkeypatch.setattr(State, "play", by_agent)
    for expected, looped in ((by_agents, play_game(game, players, seed)),
                             (capped_moves, play_game(game, players, seed, max_moves=by_agents.moves // 2)),
                             (capped_turns, play_game(game, players, seed, max_turns=turns))):
        assert (looped.scores, looped.winners, looped.turns, looped.moves, looped.capped, looped.error) == \
            (expected.scores, expected.winners, expected.turns, expected.moves, expected.capped, expected.error)
    assert by_agents.finished and capped_moves.capped and capped_turns.capped


def test_a_game_that_raises_in_the_runtimes_loop_tells_the_moves_before_it() -> None:
    """The loop's game played again by the agents' loop, which reports the moves made before the error."""
    game = rulewright.load("china-schacht")
    calls = 0
    original = game.state_class._is_over

    def broken(self: State) -> bool:
        nonlocal calls
        calls += 1
        if calls % 40 == 0:  # (the 40th call of each playing of the game)
            raise ZeroDivisionError("boom")
        return original(self)

    game.state_class._is_over = broken  # type: ignore[method-assign]
    try:
        looped = play_game(game, 3, 1)
        calls = 0
        by_agents = play_game(game, 3, 1, record=True)
    finally:
        game.state_class._is_over = original  # type: ignore[method-assign]
    assert looped.error == by_agents.error and by_agents.error is not None and "boom" in by_agents.error
    assert (looped.turns, looped.moves) == (by_agents.turns, by_agents.moves) and looped.moves > 0


def test_a_fault_of_the_rules_is_reported_alike() -> None:
    game = rulewright.load("china-schacht")

    def broken(self: State) -> bool:
        raise ZeroDivisionError("boom")

    original = game.state_class._is_over  # (tested after every action's effect)
    game.state_class._is_over = broken  # type: ignore[method-assign]
    try:
        played = play_game(game, 3, 1)
        state = game.new_state(3, 1)
        with pytest.raises(Exception) as raised:
            state.apply(state.legal_actions()[RandomAgent(agent_seed(1)).rng.below(len(state.legal_actions()))])
    finally:
        game.state_class._is_over = original  # type: ignore[method-assign]
    assert played.error is not None and played.error == f"{type(raised.value).__name__}: {raised.value}".splitlines()[0]
    assert "boom" in played.error


def test_the_turn_passes_through_next_turn() -> None:
    source = compile_file(ruleset_file("china-schacht")).source
    do = source[source.index("    def _do("):source.index("\n    def ", source.index("    def _do(") + 1)]
    assert do.endswith("        self._next_turn()\n        # the phase starts: `_start_phase` written out "
                       "(no phase has start effects)\n        if self.trace is not None:\n"
                       "            self._enter_phase()\n")
    assert "self.turn += 1" not in source
    state = rulewright.load("china-schacht").new_state(3, 7)
    turn, current = state.turn, state.current
    state._next_turn()
    assert (state.turn, state.current, state.phase) == (turn + 1, (current + 1) % 3, 0)


def test_a_listing_makes_a_memo_only_where_a_remembered_definition_is_called() -> None:
    """`legal_actions()` remembers the definitions without parameters while it lists (`_memo`) only in a
    module that calls one of them as a method (`LISTING_MEMO`): inlined, kept or read from a mask, none
    is (every bundled rule set), and a dict made per listing would be work for nothing."""
    for ruleset in ("china-schacht", "china-cornett", "mandarin"):  # (those with such definitions)
        source = compile_file(ruleset_file(ruleset)).source
        remembered = [line.split("(")[0].split()[-1] for line, comment in zip(source.splitlines(),
                      source.splitlines()[1:], strict=False) if "remembered while the legal actions" in comment]
        assert remembered, ruleset  # (each has some: the test below is not empty)
        assert not any(f"self.{name}()" in source for name in remembered), ruleset
        assert "LISTING_MEMO" not in source and not load(ruleset).state_class.LISTING_MEMO
    plain = rulewright.load_rules(ruleset_file("china-schacht"), passes=frozenset())
    assert plain.state_class.LISTING_MEMO and "self.open_provinces()" in compile_file(
        ruleset_file("china-schacht"), frozenset()).source
    seen: list[object] = []
    for game in (plain, load("china-schacht")):
        listing = game.state_class._legal

        def watched(self: State, listing: Any = listing) -> list[Action]:
            seen.append(self._memo)
            return listing(self)  # type: ignore[no-any-return]

        game.state_class._legal = watched  # type: ignore[method-assign]
        try:
            state = game.new_state(3, 5)
            assert state.legal_actions() and state._memo is None
        finally:
            game.state_class._legal = listing  # type: ignore[method-assign]
    memo, none = seen  # a memo while the plain module lists (what it remembered in it); none for the optimised one
    assert isinstance(memo, dict) and "open_provinces" in memo and none is None


def test_the_seat_to_act_is_the_current_one_only_where_no_phase_names_it() -> None:
    """`play_randomly` takes the seat whose turn it is for the seat to act, unasked, only in a module
    none of whose phases names an `actor:` (`ACTOR_IS_CURRENT`); a variant's module says it in its
    own class where it differs from its base's (tests/test_inherit.py)."""
    assert rulewright.load("china-schacht").state_class.ACTOR_IS_CURRENT
    assert rulewright.load("china-schacht/fortifications").state_class.ACTOR_IS_CURRENT  # (from its base)
    assert not rulewright.load("mandarin").state_class.ACTOR_IS_CURRENT  # (its auction names the bidder)
    for ruleset in ("china-schacht", "mandarin", "chang-cheng", "yellow-yangtze"):
        game = rulewright.load(ruleset)
        if game.state_class.ACTOR_IS_CURRENT:  # (then every seat to act along a game is the current one)
            state = game.new_state(3, 4)
            while not state.terminal and state.moves < 60:
                assert state._pending is not None or state.to_act() == state.current
                state.play(RandomAgent(5).rng.below(len(state.legal_actions())))
