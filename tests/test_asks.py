"""Sub-decisions (`ask p to choose x in xs:`, runtime/decisions.py, docs/language.md "Asking a
seat"): a seat is asked at any depth and the effect goes on where it was once it has chosen; a
state waiting for an answer is copied, saved and restored mid-way; an ask with nothing to
choose is skipped, at every depth; the checker refuses what has no meaning.

tests/games/war-support.yaml is the test game (its scenarios: tests/scenarios/war-support/); the
suite's property tests (test_values, test_who_decides, test_visibility, test_generated_types)
play it like every test game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulewright import load_rules
from rulewright.compiler.driver import analyse
from rulewright.runtime import Action, BadSetup, IllegalAction, Rng, State

GAMES = Path(__file__).parent / "games"
WAR = GAMES / "war-support.yaml"


def war(players: int = 3, seed: int = 0) -> State:
    return load_rules(WAR).new_state(players, seed)


def answer(state: State, *texts: str) -> None:
    for text in texts:
        state.apply(text)


def test_the_setup_asks_every_seat_in_turn() -> None:
    state = war()
    seats = []
    for _ in range(3):
        seats.append(state.to_act())
        assert [str(a) for a in state.legal_actions()] == ["banner_side west", "banner_side east"]
        state.apply("banner_side east")
    assert seats == [0, 1, 2]
    assert state.banner == [1, 1, 1]  # type: ignore[attr-defined]
    # then the first turn's start asks its seat
    assert state.to_act() == 0 and [str(a) for a in state.legal_actions()] == ["recruits 0", "recruits 1"]


def at_war(seed: int = 0) -> State:
    """A game at its first war: P1 has declared it; P2 is asked first."""
    state = war(seed=seed)
    answer(state, "banner_side west", "banner_side east", "banner_side west", "recruits 1", "declare war")
    return state


def test_supporters_are_asked_from_the_left_of_the_seat_at_war_round_to_it() -> None:
    state = at_war()
    order = []
    while state.to_act() is not None and state._pending is not None and state._pending.ask.name != "new_banner":
        order.append((state.to_act(), state._pending.ask.name))
        state.apply(state.legal_actions()[-1])
    assert order == [(1, "support"), (1, "sent"), (2, "support"), (2, "sent"), (0, "support"), (0, "sent")]


def test_a_waiting_state_saves_restores_and_copies_mid_move() -> None:
    state = at_war()
    answer(state, "support east")  # P2 now chooses how many
    saved = state.to_json()
    assert saved["pending"]["played"] == ["declare war", "support east"]
    assert saved["pending"]["before"]["fields"]["wars"] == 0
    game = load_rules(WAR)
    restored = game.state_from_json(json.loads(json.dumps(saved)))
    copy = state.clone()
    for other in (restored, copy):
        assert other.to_json() == saved
        assert other.to_act() == state.to_act() == 1
        assert [str(a) for a in other.legal_actions()] == [str(a) for a in state.legal_actions()]
    copy.apply("sent 2")  # a copy goes its own way
    assert state.to_json() == saved
    state.apply("sent 2")
    restored.apply("sent 2")
    assert state.to_json() == copy.to_json() == restored.to_json()


def test_a_new_game_waiting_in_its_setup_restores() -> None:
    state = war()
    state.apply("banner_side east")
    saved = state.to_json()
    assert saved["pending"] == {"before": None, "played": ["banner_side east"]}
    assert load_rules(WAR).state_from_json(saved).to_json() == saved


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p.__setitem__("played", ["declare war", "support nowhere"]), "cannot be played again"),
    (lambda p: p.__setitem__("played", "declare war"), "a list of up to"),
    (lambda p: p.__setitem__("extra", 1), "unknown key"),
    (lambda p: p["before"]["fields"].__setitem__("wars", 3), "does not lead to the position saved"),
    (lambda p: p.__setitem__("before", {"pending": {}}), "no move of which waits"),
])
def test_a_tampered_pending_move_is_refused(change: Any, message: str) -> None:
    state = at_war()
    saved = json.loads(json.dumps(state.to_json()))
    change(saved["pending"])
    with pytest.raises(BadSetup, match=message):
        load_rules(WAR).state_from_json(saved)


def test_an_answer_out_of_turn_or_not_a_choice_is_refused_with_who_must_choose() -> None:
    state = at_war()
    with pytest.raises(IllegalAction, match="the move waits for P2 to choose `support`"):
        state.apply("rest")
    assert state.observation(0)["question"] == "support"
    between = war()
    answer(between, "banner_side west", "banner_side east", "banner_side west", "recruits 1")
    assert between._pending is None and "question" not in between.observation(0)


def test_random_games_replay_identically_through_save_restore() -> None:
    """Every move of 200 seeded games: the state saved and restored, and a copy, play on alike."""
    game = load_rules(WAR)
    asked = 0
    for seed in range(200):
        state = game.new_state(2 + seed % 3, seed)
        rng = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            move = legal[rng.below(len(legal))]
            asked += state._pending is not None
            if seed % 20 == 0:
                restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
                assert [str(a) for a in restored.legal_actions()] == [str(a) for a in legal]
                restored.apply(str(move))
                state.apply(move)
                assert restored.to_json() == state.to_json()
            else:
                state.apply(move)
    assert asked > 1000


EMPTY_ASKS = """
rulewright: 1
game: empty-asks
title: Asks with nothing to choose
players: 2
boards:
  track: {ring: 4, regions: {}}
state:
  ran: {type: int, init: 0}
  skipped: {type: int, init: 0}
  turns: {type: int, init: 0}
setup:
  - ask current to choose a in range(0, 0):
    - skipped += 1
  - ran += 1
phases:
  turn:
    start:
      - for p in players:
        - ask p to choose b in [q for q in players if q != q]:
          - skipped += 1
      - ran += 1
    actions: [go]
actions:
  go:
    text: go
    effect:
      - deep()
      - turns += 1
procedures:
  deep:
    - for p in players:
      - if p == current:
        - ask p to choose c in range(0, 1):
          - ask p to choose d in range(0, 0):
            - skipped += 1
          - ran += 1
triggers:
  after_go:
    after: [go]
    effect:
      - ask opponent to choose e in [s for s in spots if s == spots[0] and s != spots[0]]:
        - skipped += 1
      - ran += 1
end: "turns >= 3"
scoring:
  ran: "ran"
"""


def test_an_ask_with_nothing_to_choose_is_skipped_at_every_depth(tmp_path: Path) -> None:
    """In the setup, at a phase's start in a loop, nested in another ask's body in a procedure,
    in a trigger: the body of an ask whose choices are empty never runs, and nobody is asked."""
    rules = tmp_path / "empty-asks.yaml"
    rules.write_text(EMPTY_ASKS)
    state = load_rules(rules).new_state(2, 0)
    seen = []
    while not state.is_terminal():
        seen.append([str(a) for a in state.legal_actions()])
        state.apply(state.legal_actions()[0])
    assert seen == [["go"], ["c 0"], ["go"], ["c 0"], ["go"], ["c 0"]]
    assert state.skipped == 0  # type: ignore[attr-defined]
    # the setup, three phase starts (the fourth: the game is over first), three asks and three triggers
    assert state.ran == 1 + 3 + 3 + 3  # type: ignore[attr-defined]


@pytest.mark.parametrize(("ask", "message"), [
    ("ask 3 to choose x in players", "type mismatch: the seat asked must be player, not int"),
    ("ask current to choose x in 3", "cannot iterate over a value of type int"),
    ("ask current to choose current in players", "`current` is already a name here"),
])
def test_the_checker_refuses_what_has_no_meaning(tmp_path: Path, ask: str, message: str) -> None:
    rules = tmp_path / "bad.yaml"
    rules.write_text(EMPTY_ASKS.replace("  - ask current to choose a in range(0, 0):", f"  - {ask}:"))
    _, problems, _ = analyse(rules)
    assert [p.message for p in problems] == [message]
    assert problems[0].span.line == 13


def test_one_choice_name_for_values_of_two_kinds_is_refused(tmp_path: Path) -> None:
    rules = tmp_path / "bad.yaml"
    rules.write_text(EMPTY_ASKS.replace("ask opponent to choose e in", "ask opponent to choose c in"))
    _, problems, _ = analyse(rules)
    assert len(problems) == 1
    assert "`c` is chosen as int at " in problems[0].message and "and as spot here" in problems[0].message


def test_a_moves_text_is_made_only_when_it_waits() -> None:
    """A move run as steps writes its text into the pending move only once it waits; a move that
    does not wait (here the last rest, which ends the game) never makes it."""
    rendered: list[str] = []
    state = war()
    answer(state, "banner_side west", "banner_side east", "banner_side west", "recruits 1")
    original = Action.__str__

    def counting(action: Action) -> str:
        rendered.append(action.name)
        return original(action)

    Action.__str__ = counting  # type: ignore[method-assign]
    try:
        state.apply(next(a for a in state.legal_actions() if a.name == "rest"))  # waits: the next turn asks
        assert rendered == ["rest"] and state.to_json()["pending"]["played"] == ["rest"]
        for _ in range(6):
            answer(state, "recruits 0", "rest")
        answer(state, "recruits 0")
        assert state.rests == 7 and state._pending is None  # type: ignore[attr-defined]
        rendered.clear()
        state.apply(next(a for a in state.legal_actions() if a.name == "rest"))  # the end: nothing waits
        assert state.is_terminal() and state._pending is None and rendered == []
    finally:
        Action.__str__ = original  # type: ignore[method-assign]
