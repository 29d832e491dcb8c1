"""Simultaneous decisions (`simultaneous:` on a phase; docs/language.md "Simultaneous decisions"):
every seat the phase lists chooses, none seeing the others' choices; `choosing()`,
`legal_actions(seat)` and `apply(action, seat=...)` say and take who chooses what; the move is
played once all have chosen, the same whatever order they chose in; a state is copied, saved and
restored mid-way; a pending choice is never in another seat's observation.

tests/games/sumo-bids.yaml is the test game (OpenSpiel's oshi_zumo, small); the suite's property
tests over every test game (test_generated_types, test_visibility, ...) play it too.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulewright import load_rules
from rulewright.runtime import BadSetup, GameError, IllegalAction, SimultaneousState, State

GAMES = Path(__file__).parent / "games"
SUMO = GAMES / "sumo-bids.yaml"


def sumo(seed: int = 0) -> State:
    return load_rules(SUMO).new_state(2, seed)


def test_both_seats_choose_and_nothing_moves_until_both_have() -> None:
    state = sumo()
    assert state.is_simultaneous() and state.choosing() == [0, 1] and state.to_act() == 0
    assert [str(a) for a in state.legal_actions(1)] == [f"bid {n}" for n in range(6)]
    fields = state.to_json()["fields"]
    state.apply("bid 2", seat=1)  # the second seat first: any order
    assert state.choosing() == [0] and state.to_act() == 0
    assert state.to_json()["fields"] == fields  # a choice changes nothing until all have chosen
    assert state.legal_actions(1) == []  # it has chosen
    state.apply("bid 1")  # the seat to act, as apply() always plays
    assert state.to_json()["fields"] == {"coins": [4, 3], "bid": [1, 2], "wrestler": -1, "rounds": 1}
    assert state.told() == ["P1 bids 1", "P2 bids 2"]  # each seat's effect, in seat order
    assert state.choosing() == [0, 1] and state.moves == 2


@pytest.mark.parametrize("seed", range(3))
def test_the_order_the_seats_choose_in_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    in_order, shuffled = sumo(seed), sumo(seed)
    while not in_order.is_terminal():
        picks = {p: rng.choice(in_order.legal_actions(p)) for p in in_order.choosing()}
        for p in sorted(picks):
            in_order.apply(str(picks[p]), seat=p)
        for p in sorted(picks, reverse=True):
            shuffled.apply(str(picks[p]), seat=p)
        assert shuffled.to_json() == in_order.to_json()
    assert shuffled.winners() == in_order.winners()


def test_a_state_mid_way_is_copied_saved_and_restored() -> None:
    state = sumo(4)
    state.apply("bid 3", seat=1)
    saved = state.to_json()
    assert saved["chosen"] == [[1, "bid 3"]]
    game = load_rules(SUMO)
    for copy in (state.clone(), game.state_from_json(saved), game.state_from_json(json.dumps(saved))):
        assert copy.to_json() == saved and copy.choosing() == [0]
        assert str(copy.chosen_by(1)) == "bid 3"
        copy.apply("bid 0")
        assert copy.to_json()["fields"]["wrestler"] == -1
    assert state.choosing() == [0]  # the copies played on; the state did not


@pytest.mark.parametrize("chosen, why", [
    ([[1, "bid 9"]], "not a choice of P2"),
    ([[0, "bid 1"], [1, "bid 1"]], "every seat"),
    ([[3, "bid 1"]], "increasing order of seat"),
    ([[1, "bid 1"], [0, "bid 1"]], "increasing order of seat"),
    ("bid 1", "pairs"),
    ([], "pairs"),
])
def test_a_saved_choice_that_is_none_is_refused(chosen: object, why: str) -> None:
    saved = sumo().to_json()
    saved["chosen"] = chosen
    with pytest.raises(BadSetup, match=why):
        load_rules(SUMO).state_from_json(saved)


def test_a_choice_is_refused_where_it_is_none() -> None:
    state = sumo()
    state.apply("bid 0", seat=1)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="P2 has nothing to choose now"):
        state.apply("bid 1", seat=1)  # chosen already
    with pytest.raises(IllegalAction, match="no player 5"):
        state.apply("bid 1", seat=5)
    with pytest.raises(IllegalAction, match="the 6 legal actions are"):
        state.apply("bid 9", seat=0)
    assert state.to_json() == before


def test_a_pending_choice_is_never_in_another_seats_view() -> None:
    """Whatever P2 chose, P1 sees the same: its observation and the text of P2's move."""
    views = set()
    for n in range(6):
        state = sumo(2)
        state.apply(f"bid {n}", seat=1)
        chosen = state.chosen_by(1)
        assert chosen is not None
        views.add(json.dumps([state.observation(0), state.move_text(chosen, 0, 1)], sort_keys=True))
        assert state.observation(1)["chosen"] == f"bid {n}"  # its own, it sees
        assert state.move_text(chosen, 1, 1) == f"bid {n}"
    assert len(views) == 1
    assert json.loads(views.pop())[1] == "bid"


def test_random_games_end_in_any_order_of_the_seats() -> None:
    rng = random.Random(7)
    for seed in range(5):
        state = sumo(seed)
        while not state.is_terminal():
            seats = state.choosing()
            rng.shuffle(seats)
            for p in seats:
                state.apply(rng.choice(state.legal_actions(p)), seat=p)
        assert state.choosing() == [] and state.legal_actions(0) == []
        assert sorted(state.winners()) == sorted(p for p, s in enumerate(state.scores()) if s == max(state.scores()))


VARIANT = """\
rulewright: 1
extends: {base}
game: sumo-bids
actions:
  offer:
    choose: {{n: "range(0, coins[deciding] + 1)"}}
    text: "bid {{n}}"
    effect:
      - bid[deciding] = n
      - coins[deciding] -= n
      - ask deciding to choose shout in range(0, 2):   # an action that asks: the move waits mid-way
        - rounds += shout
"""


def test_an_action_that_asks_waits_in_the_simultaneous_move(tmp_path: Path) -> None:
    path = tmp_path / "asking.yaml"
    path.write_text(VARIANT.format(base=SUMO.resolve()), encoding="utf-8")
    game = load_rules(path)
    state = game.new_state(2, 1)
    state.apply("bid 2", seat=1)
    state.apply("bid 1", seat=0)
    assert not state.is_simultaneous() and state.to_act() == 0 and state.choosing() == [0]
    assert [str(a) for a in state.legal_actions()] == ["shout 0", "shout 1"]
    saved = state.to_json()
    assert saved["pending"]["played"] == ["bid 1"] and saved["pending"]["before"]["chosen"] == [[1, "bid 2"]]
    for copy in (state, state.clone(), game.state_from_json(saved)):
        copy.apply("shout 1")
        assert copy.to_act() == 1  # P2's effect, then its question
        copy.apply("shout 1")
        assert copy.to_json()["fields"]["rounds"] == 3 and copy.choosing() == [0, 1]


def test_a_phase_listing_nobody_is_a_game_error(tmp_path: Path) -> None:
    path = tmp_path / "nobody.yaml"
    path.write_text(f"rulewright: 1\nextends: {SUMO.resolve()}\ngame: sumo-bids\n"
                    "phases:\n  bidding:\n    simultaneous: \"[p for p in players if coins[p] > 9]\"\n"
                    "    actions: [offer]\n", encoding="utf-8")
    with pytest.raises(GameError, match="lists no seat to choose"):
        load_rules(path).new_state(2, 0).choosing()


def test_leaks_finds_none_and_would_find_a_choice_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """`rulewright leaks` samples states where a seat has chosen: none leaks; an observation that
    showed the others' choices would be reported (the check can fail)."""
    from rulewright.leaks import find_leaks

    game = load_rules(SUMO)
    assert find_leaks(game, 6).leaks == []
    honest = State.observation

    def showing(self: State, player: int) -> dict[str, object]:
        seen = honest(self, player)
        seen["others"] = [str(self.chosen_by(p)) for p in range(self.num_players)]
        return seen

    monkeypatch.setattr(State, "observation", showing)
    leaks = find_leaks(game, 6).leaks
    assert [leak.field for leak in leaks][:1] == ["choices in phase bidding"]


def test_a_log_replays_in_the_order_the_seats_chose(tmp_path: Path) -> None:
    from rulewright.replay import Divergence, replay_log

    state = sumo(5)
    lines = [{"ruleset": str(SUMO.resolve()), "players": 2, "seed": 5, "options": {}}]
    for first, second in ((1, 0), (0, 1), (1, 0)):
        for seat, n in ((first, 1), (second, 0)):
            state.apply(f"bid {n}", seat=seat)
            lines.append({"player": seat, "action": f"bid {n}"})
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in [*lines, {"final": state.to_json()}]) + "\n", encoding="utf-8")
    assert replay_log(log) == (6, state.is_terminal())
    lines[2] = {"player": 1, "action": "bid 1"}  # P2 twice in one decision
    log.write_text("\n".join(json.dumps(x) for x in [*lines, {"final": state.to_json()}]) + "\n", encoding="utf-8")
    with pytest.raises(Divergence, match="P1 is to act"):
        replay_log(log)


def test_the_web_board_lets_each_person_choose_in_any_order_and_shows_no_other_choice() -> None:
    from rulewright.web import make_app
    from tests.helpers.web import PageClient, api

    app, start = make_app(str(SUMO))
    client = PageClient(app)
    form = {"ruleset": str(SUMO), "players": "2", "seed": "3", "seat1": "human", "seat2": "human"}
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.text
    key = r.headers["Location"].removeprefix("/game/")
    for seat in ("1", "2"):  # both choose now: each is sent its own moves
        data = api(client, f"/api/game/{key}?seat={seat}").json
        assert data["choosing"] == [1, 2] and data["moves"] == [f"bid {n}" for n in range(6)]
    played = api(client, f"/api/game/{key}/move", {"seat": "2", "text": "bid 4"}).json  # the second seat first
    assert played["chosen"] == "bid 4" and played["moves"] == [] and played["history"] == ["P2 bid 4"]
    other = api(client, f"/api/game/{key}?seat=1").json
    assert other["choosing"] == [1] and other["chosen"] is None and other["history"] == ["P2 bid"]
    assert "bid 4" not in json.dumps({k: v for k, v in other.items() if k != "moves"})  # (its own moves list it)
    again = api(client, f"/api/game/{key}/move", {"seat": "2", "text": "bid 1"}).json
    assert "not your turn" in again["illegal"]["why"]
    done = api(client, f"/api/game/{key}/move", {"seat": "1", "text": "bid 2"}).json
    assert done["history"][0] == "P2 bid 4" and done["history"][1].startswith("P1 bid 2")
    assert done["choosing"] == [1, 2]


def test_play_asks_each_person_and_shows_no_choice_before_all_have_chosen(tmp_path: Path) -> None:
    from tests.helpers.cli import run

    log = tmp_path / "game.jsonl"
    result = run("play", str(SUMO), "--seat", "1=human", "--seat", "2=human", "--seed", "1", "--log", str(log),
                 input="bid 2\nbid 1\nquit\n")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if " plays " in line]
    assert lines == ["P1 (seat1) plays bid", "P2 (seat2) plays bid 1"]  # P1's bid hidden until P2 has bid
    assert "P1 bids 2" in result.output  # then the decision is played: its effects tell both bids
    moves = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()[1:3]]
    assert moves == [{"player": 0, "action": "bid 2"}, {"player": 1, "action": "bid 1"}]


def test_ismcts_chooses_the_same_whatever_the_other_seat_chose() -> None:
    """IS-MCTS never reads what another seat chose at once: its move for P2 is the same whatever P1
    bid (the same agent seed); the searches that read the whole state are refused."""
    from rulewright.agents import parse_agent_spec
    from rulewright.agents.ismcts import ISMCTSAgent
    from rulewright.agents.registry import BadAgent, check_agents

    chosen = set()
    for n in range(6):
        state = sumo(1)
        state.apply(f"bid {n}", seat=0)
        chosen.add(ISMCTSAgent(seed=9, iterations=60).choose(state))
    assert len(chosen) == 1
    first = sumo(1)  # P1 choosing, P2 not yet: the search chooses for both at once
    assert 0 <= ISMCTSAgent(seed=9, iterations=60).choose(first) < 6
    game = load_rules(SUMO)
    check_agents(game, {0: parse_agent_spec("ismcts")})
    with pytest.raises(BadAgent, match="simultaneous phase"):
        check_agents(game, {0: parse_agent_spec("mcts")})


@pytest.fixture(scope="module")
def prize_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.helpers.simultaneous import prize_bids

    return prize_bids(tmp_path_factory.mktemp("prize"))


def test_three_seats_with_hands_bid_at_once_in_any_order(prize_game: Path) -> None:
    """A card game (goofspiel-like) at three seats: the seats listed by an expression, a die
    thrown at each round's start; any order of the seats gives the same game, and no seat's view
    shows another's card before the round is played."""
    game = load_rules(prize_game)
    rng = random.Random(4)
    for seed in range(3):
        in_order, shuffled = game.new_state(3, seed), game.new_state(3, seed)
        while not in_order.is_terminal():
            assert in_order.choosing() == [p for p in range(3) if in_order.to_json()["fields"]["hand"][p]]
            picks = {p: rng.choice(in_order.legal_actions(p)) for p in in_order.choosing()}
            for p in sorted(picks):
                before = in_order.observation((p + 1) % 3)
                in_order.apply(picks[p], seat=p)
                if not in_order.is_simultaneous() or in_order.turn != shuffled.turn:
                    continue
                public = ("choosing", "to_act")  # who has chosen is seen; what, not
                assert {k: v for k, v in in_order.observation((p + 1) % 3).items() if k not in public} == \
                    {k: v for k, v in before.items() if k not in public}
            order = sorted(picks)
            rng.shuffle(order)
            for p in order:
                shuffled.apply(str(picks[p]), seat=p)
            assert shuffled.to_json() == in_order.to_json()
        assert sum(in_order.scores()) <= 16


def test_only_a_rule_set_with_a_simultaneous_phase_pays_for_one(prize_game: Path) -> None:
    """The generated state of a simultaneous rule set derives from SimultaneousState, which plays the
    picks; any other's from State, whose move path makes no test of them (runtime/state.py)."""
    assert issubclass(load_rules(prize_game).state_class, SimultaneousState)
    assert issubclass(load_rules(SUMO).state_class, SimultaneousState)
    assert not issubclass(load_rules(GAMES / "seat-dice.yaml").state_class, SimultaneousState)


def test_seats_changed_from_outside_are_worked_out_again(prize_game: Path) -> None:
    """The seats of a decision are kept beside the listing they were worked out with, and trusted only
    while it is kept: a position changed from outside (as a scenario or a sample changes one: the
    fields set, the listing dropped) is asked its seats again, by the listing and by the pick."""
    state: Any = load_rules(prize_game).new_state(3, 0)  # (its fields are the rule set's)
    assert [str(a) for a in state.legal_actions()] == ["play 1", "play 2", "play 3", "play 4"]  # P1's
    state.hand = [frozenset(), *state.hand[1:]]  # P1 has no card left: not among the seats now
    state._fields_set()
    state._legal_cache = None
    state._derived = None
    assert state.choosing() == [1, 2] and state.to_act() == 1
    state.apply(state.legal_actions()[0])  # P2's pick, not P1's
    assert state.chosen_by(1) is not None and state.chosen_by(0) is None and state.choosing() == [2]
    state.apply(state.legal_actions()[-1])  # P3's, the last: the round is played without P1
    assert state.to_json()["fields"]["played"] == [0, 1, 4] and not state._chosen
