"""What the OpenSpiel game and the PettingZoo environment stand on (rulewright.interop.core),
tested without either library: chance by index in the mechanics, the tokens of the moves, the
observation vector, the returns, chance made explicit against the game's own chance."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rulewright
from rulewright.interop.core import Bridge, Position, bridge, key, utilities
from rulewright.runtime import Rng, RulewrightError, coin, die, draw, draw_from, throw
from rulewright.runtime.errors import BadSetup
from rulewright.runtime.mechanics import OUTCOMES, ChanceNeeded
from tests.helpers.games import RULESETS

# One rule set of each game, and the variants whose chance differs (draws from piles with
# copies, events drawn at the setup).
EACH_GAME = ["china-cornett", "china-schacht/bonus-tiles", "mandarin", "chang-cheng/drawn-events",
             "yellow-yangtze/short"]


def script(*indices: int) -> Rng:
    rng = Rng(0)
    rng.forced = {OUTCOMES: [(i, "") for i in indices]}
    return rng


def test_draws_take_their_outcomes_by_index_and_ask_for_the_next() -> None:
    rng = script(2, 0, 1, 0, 1)
    assert die(rng, 6) == 3
    assert coin(rng) is False
    assert draw(rng, frozenset({9, 3, 5})) == 5  # the sorted pool: 3, 5, 9
    assert throw(rng, {1, 0}, ((0, 1), (0, 2))) == 0 + 2  # die 0 shows face 0, die 1 face 1
    with pytest.raises(ChanceNeeded) as need:
        draw_from(rng, (7, 7, 4))
    assert need.value.n == 3 and list(need.value.items or ()) == [7, 7, 4]
    with pytest.raises(ChanceNeeded) as need:
        die(rng, 4)
    assert need.value.n == 4 and need.value.items is None
    with pytest.raises(RulewrightError, match="outcome 6 of a draw of 6"):
        die(script(6), 6)


def test_forced_kinds_of_a_scenario_still_come_first_and_the_generator_after() -> None:
    rng, plain = Rng(5), Rng(5)
    rng.forced = {"die": [(4, "4")]}
    assert die(rng, 6) == 4
    assert [draw(rng, frozenset(range(10))) for _ in range(5)] == [draw(plain, frozenset(range(10))) for _ in range(5)]


def test_a_new_game_draws_its_setup_from_the_generator_given() -> None:
    game = rulewright.load("china-schacht")
    given = game.new_state(3, 5, rng=Rng(9)).to_json()
    seeded = game.new_state(3, 9).to_json()
    assert given["fields"] == seeded["fields"] and given["rng"] == seeded["rng"] and given["seed"] == 5


def test_returns_share_one_point_centred() -> None:
    assert utilities([1], 2) == [-1.0, 1.0]
    assert utilities([0, 1], 2) == [0.0, 0.0]
    assert utilities([2], 3) == [-0.5, -0.5, 1.0]
    assert utilities([0, 1], 3) == [0.25, 0.25, -0.5]
    assert utilities([0], 1) == [1.0]


def random_moves(ruleset: str, seed: int, moves: int) -> tuple[Bridge, Position, list[Position]]:
    """A game of random tokens, drawing from its own generator, and a copy of every 7th position."""
    b = bridge(key(ruleset))
    p = b.live(seed)
    choose = random.Random(seed)
    kept = []
    for i in range(moves):
        if p.is_terminal():
            break
        if i % 7 == 0:
            kept.append(p.copy())
        p.apply(choose.choice(p.legal()))
    return b, p, kept


@pytest.mark.parametrize("ruleset", EACH_GAME)
def test_the_tokens_of_a_position_lead_to_its_legal_actions_each_once(ruleset: str) -> None:
    b, _, kept = random_moves(ruleset, 3, 200)
    for p in kept[:4]:
        assert p.state is not None and not p.is_terminal()
        legal = p.state.legal_actions()
        seqs = [b.vocabulary.tokens(a) for a in legal]
        assert len(set(seqs)) == len(set(legal))
        assert not any(a != c and a == c[:len(a)] for a in seqs for c in seqs)  # none begins another
        seat = p.to_act()
        assert seat is not None
        made: set[str] = set()
        todo = [p]
        while todo:  # every way through the tokens
            here = todo.pop()
            assert here.legal() == sorted(set(here.legal()))
            for token in here.legal():
                there = here.copy()
                there.apply(token)
                if len(there.own_actions(seat)) > len(p.own_actions(seat)):
                    made.add(str(there.own_actions(seat)[-1]))
                else:
                    assert there.to_act() == seat and there.prefix[:len(here.prefix) + 1] == here.prefix + (token,)
                    todo.append(there)
        assert made == {str(a) for a, seq in zip(legal, seqs, strict=True) if seq[:len(p.prefix)] == p.prefix}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_observation_vector_keeps_to_its_layout(ruleset: str) -> None:
    b, last, kept = random_moves(ruleset, 1, 120)
    layout = b.layout
    out = np.zeros(layout.size, np.float32)
    for p in [*kept, last]:
        for player in range(b.players):
            layout.write(p.observation(player), player, p.own_prefix(player), out)
            assert np.all(out >= layout.low) and np.all(out <= layout.high)
            assert out[player] == 1.0
            seen = p.observation(player)
            starts = [f[4] for f in layout.fields] + [layout.prefix_at]
            for k, name in enumerate(f[0] for f in layout.fields):  # each field within its own part
                again = np.zeros(layout.size, np.float32)
                layout.write({**seen, "fields": {name: seen["fields"][name]} if name in seen["fields"] else {}},
                             player, (), again)
                written = [i for i in np.nonzero(again)[0] if i >= starts[0]]
                assert all(starts[k] <= i < starts[k + 1] for i in written), name


class Logged:
    """The draws of the game's own generator, move by move (the setup first)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.draws: list[list[tuple[int, int]]] = [[]]
        below = Rng.below

        def logged(rng: Rng, n: int) -> int:
            index = below(rng, n)
            self.draws[-1].append((n, index))
            return index

        monkeypatch.setattr(Rng, "below", logged)


@pytest.mark.parametrize("ruleset", EACH_GAME)
def test_explicit_chance_is_the_chance_of_the_game(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played with the generator of a seed, and the same game played with every draw a
    chance node answered by the outcome the generator gave: the same positions."""
    if type(Rng.below).__name__ != "function":
        pytest.skip("the native build's generator cannot be watched")
    b = bridge(key(ruleset))  # (made first: making it sets up a game, whose draws are not this game's)
    log = Logged(monkeypatch)
    live = b.game.new_state(b.players, 11, b.options)
    choose = random.Random(11)
    moves = []
    for _ in range(120):
        if live.is_terminal():
            break
        action = choose.choice(live.legal_actions())
        moves.append(action)
        log.draws.append([])
        live.apply(action)
    monkeypatch.undo()

    p = b.initial()
    done = 0  # the moves chosen
    while True:
        if p.is_chance():
            assert p.chance is not None
            n, index = log.draws[done][len(p.chance.drawn)]
            assert n == p.chance.n
            p.apply(p.chance.outcome_of(index))
        elif done < len(moves):
            seat = p.to_act()
            assert seat is not None
            made = len(p.own_actions(seat))
            tokens = b.vocabulary.tokens(moves[done])
            while len(p.own_actions(seat)) == made:
                p.apply(tokens[len(p.prefix)])
            done += 1
        else:
            break
    assert p.state is not None
    mine, theirs = p.state.to_json(), live.to_json()
    for part in ("fields", "current", "phase", "turn", "moves", "terminal"):
        assert mine[part] == theirs[part], part
    assert p.is_terminal() == live.is_terminal()


def test_chance_nodes_give_each_value_once_by_its_share() -> None:
    p = bridge(key("china-schacht/two-player")).initial()
    seen = 0
    while p.is_chance():
        outcomes = p.chance_outcomes()
        assert abs(sum(prob for _, prob in outcomes) - 1.0) < 1e-9
        assert p.chance is not None
        copies = [c for _, c, _ in p.chance.values]
        assert [prob for _, prob in outcomes] == [c / p.chance.n for c in copies]
        if p.chance.items is not None:
            assert len({v for _, _, v in p.chance.values}) == len(outcomes) < p.chance.n  # cards of 5 colours
        seen += 1
        p.apply(len(outcomes) - 1)
    assert seen > 0 and p.to_act() is not None


def test_a_game_longer_than_its_limit_is_cut_short_as_a_draw() -> None:
    b = Bridge("china-cornett", max_game_length=5)
    p = b.initial()
    choose = random.Random(0)
    decisions = 0
    while not p.is_terminal():
        if not p.is_chance():
            decisions += 1
        p.apply(choose.choice(p.legal()) if not p.is_chance() else p.chance_outcomes()[0][0])
    assert decisions == 5 and p.truncated and p.returns() == [0.0, 0.0]
    assert "cut short after 5 decisions" in p.text()


def test_a_position_saved_is_played_again_from_its_moves() -> None:
    p = bridge(key("mandarin")).initial()
    choose = random.Random(4)
    for _ in range(150):
        p.apply(choose.choice(p.legal()))
    again = pickle.loads(pickle.dumps(p))
    assert isinstance(again, Position) and again.text() == p.text() and again.legal() == p.legal()
    with pytest.raises(TypeError, match="own generator"):
        pickle.dumps(bridge(key("mandarin")).live(1))


def test_what_cannot_be_bridged_is_refused(tmp_path: Path) -> None:
    rules = tmp_path / "dice-of-any-size.yaml"
    rules.write_text("""\
rulewright: 1
game: dice-of-any-size
players: 2
boards:
  line:
    graph:
      spots: [A, B]
      roads:
        - [A, B]
state:
  faces: {type: int, init: 6}
  total: {type: int, init: 0}
phases:
  turn: {actions: [roll]}
actions:
  roll:
    effect:
      - total += die(faces)
end: "total >= 20"
scoring:
  total: "total"
""")
    with pytest.raises(BadSetup, match=r"dice-of-any-size.yaml:\d+: `die` draws values of type `int`"):
        Bridge(str(rules))
    with pytest.raises(BadSetup, match="played by 2 players, not 3"):
        key("china-cornett", 3)
    with pytest.raises(BadSetup, match="no option `colour`"):
        key("china-cornett", options={"colour": "red"})
    with pytest.raises(BadSetup, match="max_game_length"):
        key("china-cornett", max_game_length=0)


def test_a_rule_file_is_bridged_as_a_bundled_rule_set_is() -> None:
    path = str(Path(__file__).parent / "games" / "every-construct.yaml")
    b = Bridge(path)
    p = b.initial()
    choose = random.Random(2)
    while not p.is_terminal():
        p.apply(choose.choice(p.legal()) if not p.is_chance() else p.chance_outcomes()[0][0])
    returns: list[Any] = p.returns()
    assert abs(sum(returns)) < 1e-9 and max(returns) > 0
