"""Mandarin (Tom Kremer): the material, the hidden information, and long random runs in which
money and tiles are conserved at every step.

The rule files are compiled in memory (rulewright.load_rules), so nothing under generated/ is
needed. Rulings, one by one, are the scenarios in tests/scenarios/mandarin/. Quotes are from
shared/rulebooks/mandarin.fr.txt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.runtime import Rng

RULES = Path(__file__).resolve().parent.parent / "rules" / "mandarin"
BASE = rulewright.load_rules(RULES / "base.yaml")
MONEY = rulewright.load_rules(RULES / "money.yaml")
ANIMALS = ["rat", "ox", "tiger", "rabbit", "dragon", "snake", "horse", "goat", "monkey", "rooster", "dog", "pig"]
MOVE_CAP = 6000


def tiles_everywhere(state: Any) -> list[int]:
    """Every tile, wherever it is: dispenser, on the board, on the cards."""
    return [*state.dispenser, *state.out, *(t for card in state.card for t in card)]


def check_conservation(state: Any) -> None:
    # "Il distribue à chaque joueur 3000 yuans": the players' money plus what the bank has
    # received, less what it has paid out, never changes.
    assert sum(state.money) + state.bank_received - state.bank_paid_out == 3000 * state.num_players
    assert all(m >= 0 for m in state.money)
    # "72 TUILES ANIMAUX": each tile is in exactly one place.
    every = tiles_everywhere(state)
    assert len(every) == 72 and set(every) == set(range(72))
    assert state.plain <= set(state.out)


def random_game(game: Any, players: int, seed: int, **options: str) -> Any:
    state = game.new_state(players=players, seed=seed, options=options)
    agent = Rng(seed ^ 0x5EED)
    check_conservation(state)
    while not state.is_terminal() and state.moves < MOVE_CAP:
        legal = state.legal_actions()
        assert legal and all(a.name != "pass" for a in legal), "someone always has a real decision"
        state.apply(legal[agent.below(len(legal))])
        check_conservation(state)
    return state


# -- Material and setup ----------------------------------------------------------------------

def test_board_is_a_ring_of_twelve_sections_of_three() -> None:
    # "Chaque section du plateau est divisée en trois. Le signe animal chinois maître de la
    # section est représenté dans la partie centrale."
    board = BASE.new_state(players=2).board
    assert len(board.spots) == 36
    sections = [(name, [board.labels[s] for s in spots])
                for name, spots, kind in zip(board.region_names, board.region_spots, board.region_kind, strict=True)
                if board.kinds[kind] == "section"]
    assert [name for name, _ in sections] == ANIMALS
    assert all(len(spots) == 3 for _, spots in sections)
    characters = [spots for name, spots, kind in zip(board.region_names, board.region_spots, board.region_kind,
                                                        strict=True) if board.kinds[kind] == "character"]
    assert [board.labels[s] for s in characters[0]] == [spots[1] for _, spots in sections]


def test_72_tiles_six_per_animal_one_emperor_each() -> None:
    # "Chaque jeu de 6 tuiles contient une tuile Empereur"
    state = BASE.new_state(players=3, seed=1)
    namespace = type(state).__module__
    module = __import__("sys").modules[namespace]
    animals, emperors = module.ATTR__TILE__ANIMAL, module.ATTR__TILE__EMPEROR
    assert len(animals) == 72
    for a in range(12):
        mine = [t for t in range(72) if animals[t] == a]
        assert len(mine) == 6 and sum(emperors[t] for t in mine) == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup(players: int) -> None:
    # "Il distribue à chaque joueur 3000 yuans" / "Mettez toutes les tuiles dans le
    # distributeur" / each mandarin "sur la case Caractère Chinois du milieu".
    state = BASE.new_state(players=players, seed=players, options={"start_square": "random_section"})
    assert state.money == [3000] * players
    assert state.dispenser == frozenset(range(72)) and not state.out
    assert all(not card for card in state.card)
    board = state.board
    character = board.kinds.index("character")
    assert all(board.region_of[character][s] >= 0 for s in state.position)
    assert state.to_act() == 0
    assert sorted(str(a) for a in state.legal_actions()) == ["roll"]


def test_birth_sign_start_each_player_says_his_sign() -> None:
    # "Chaque joueur choisit un Mandarin et le place dans la section correspondant à son signe,
    # sur la case Caractère Chinois du milieu. Si plusieurs joueurs sont du même signe, il
    # suffit de placer les Mandarins côte à côte." (the default, option start_square): the
    # setup asks each player his sign, from P1 on.
    state = BASE.new_state(players=3, seed=1)
    assert state.to_act() == 0
    legal = sorted(str(a) for a in state.legal_actions())
    assert len(legal) == 12 and "sign rat" in legal
    assert state.observation(1)["question"] == "sign"
    state.apply("sign ox")
    assert state.to_act() == 1 and state.current == 0, "the next player says his sign, before any turn"
    state.apply("sign ox")
    assert state.to_act() == 2
    state.apply("sign pig")
    assert state.to_act() == 0 and sorted(str(a) for a in state.legal_actions()) == ["roll"]
    assert [state.board.labels[s] for s in state.position] == ["5", "5", "35"], "side by side on the ox"


def test_seat_order_start() -> None:
    state = BASE.new_state(players=5, seed=1, options={"start_square": "seat_order"})
    assert [state.board.labels[s] for s in state.position] == ["2", "5", "8", "11", "14"]


def test_random_start_squares_vary_with_the_seed() -> None:
    seen = {tuple(BASE.new_state(players=3, seed=seed, options={"start_square": "random_section"}).position)
            for seed in range(30)}
    assert len(seen) > 20


def test_bad_player_counts_are_refused() -> None:
    from rulewright.runtime import BadSetup

    for n in (1, 6):
        with pytest.raises(BadSetup):
            BASE.new_state(players=n)


# -- Hidden information ----------------------------------------------------------------------

def test_money_is_hidden_from_the_others_by_default() -> None:
    # "Il est conseillé de dissimuler son argent."
    state = BASE.new_state(players=3, seed=2)
    assert state.observation(1)["fields"]["money"] == [None, 3000, None]
    assert "dispenser" not in state.observation(0)["fields"]
    open_money = BASE.new_state(players=3, seed=2, options={"money_shown": "open"})
    assert open_money.observation(1)["fields"]["money"] == [3000, 3000, 3000]


def test_a_tile_fallen_plain_side_up_is_hidden_from_everyone() -> None:
    # "Elle ne doivent PAS être retournées avant la fin de la vente."
    state = BASE.new_state(players=3, seed=2)
    state.out, state.plain = (5, 30), frozenset({5})
    state._fields_set()  # (fields written from outside the rules: what the optimiser kept is made again)
    for p in range(3):
        assert state.observation(p)["fields"]["out"] == ["hidden", "tile31"]
    assert "plain" not in state.observation(0)["fields"]


# -- Long random runs ------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_and_conserve_money_and_tiles(players: int) -> None:
    finished = capped = 0
    for seed in range(8):
        state = random_game(BASE, players, seed)
        if state.is_terminal():
            finished += 1
            winners = state.winners()
            # "Le premier joueur qui parvient à réunir au moins une tuile de chaque animal ou
            # six tuiles du même animal est le vainqueur."
            assert len(winners) == 1 and state.scores()[winners[0]] == 1
        else:
            capped += 1
    assert finished + capped == 8
    assert finished >= 6, f"{capped} of 8 random games reached the cap of {MOVE_CAP} moves"


@pytest.mark.parametrize(
    "options",
    [{"start_square": "seat_order"}, {"unsold": "originator_keeps"}, {"defaulter": "bids_again"},
     {"passing_square": "dispenser_only"}, {"moving_away": "pays_rent"}, {"rent_square": "rent_only"}],
)
def test_random_games_under_each_option(options: dict[str, str]) -> None:
    for seed in range(3):
        random_game(BASE, 3, 100 + seed, **options)


def test_money_variant_random_games_richest_wins() -> None:
    for seed in range(6):
        state = random_game(MONEY, 2 + seed % 4, seed)
        if state.is_terminal():
            scores = state.scores()
            for p in range(state.num_players):
                worth = sum(400 if t % 6 == 0 else 200 for t in state.card[p])
                assert scores[p] == state.money[p] + worth
            assert state.winners() == [p for p, s in enumerate(scores) if s == max(scores)]


def test_determinism_and_json_round_trip() -> None:
    a = random_game(BASE, 4, 11)
    b = random_game(BASE, 4, 11)
    assert a.to_json() == b.to_json()
    copy = BASE.state_from_json(a.to_json())
    assert copy.to_json() == a.to_json()


def test_clone_mid_game_is_independent() -> None:
    state = BASE.new_state(players=3, seed=9)
    agent = Rng(9)
    for _ in range(200):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[agent.below(len(legal))])
    twin = state.clone()
    assert twin.to_json() == state.to_json()
    if not state.is_terminal():
        action = state.legal_actions()[0]
        state.apply(action)
        twin.apply(action)
        assert twin.to_json() == state.to_json(), "the same move from the same state gives the same state"


def test_a_broke_bidder_cannot_restart_a_sale_for_ever_under_bids_again() -> None:
    # "S'il s'avère qu'un joueur ne peut honorer son enchère, il remet tout son argent à la
    # Banque, et la vente doit être recommencée." Under option defaulter: bids_again a player
    # with no money could bid 100, win, default and restart the sale, again and again. P3
    # starts with nothing (his 3000 yuans with the bank: money is still conserved) and always
    # bids when he cannot pay; the others always drop out of a sale; everything else is
    # random. Every sale must end within a few restarts (it used to restart for ever).
    defaults = 0
    for seed in range(12):
        options = {"defaulter": "bids_again", "start_square": "random_section"}
        fresh = BASE.new_state(players=3, seed=seed, options=options).to_json()
        fresh["fields"]["money"] = [3000, 3000, 0]
        fresh["fields"]["bank_received"] = 3000
        state = BASE.state_from_json(fresh)
        agent = Rng(seed ^ 0x5EED)
        in_sale = 0
        while not state.is_terminal() and state.moves < 1500:
            legal = state.legal_actions()
            bids = [a for a in legal if a.name == "bid"]
            if bids or any(a.name == "drop_out" for a in legal):
                in_sale += 1
                assert in_sale <= 20, f"seed {seed}: a sale that does not end (move {state.moves})"
                broke = state.money[state.sale.to_act] < bids[0].args[0] if bids else False
                action = bids[0] if broke else next(a for a in legal if a.name == "drop_out")
            else:
                in_sale = 0
                action = legal[agent.below(len(legal))]
            state.apply(action)
            check_conservation(state)
            defaults += state.moves > 0 and bool(state.defaulted) and in_sale > 0 and action.name == "bid"
    assert defaults > 0, "P3 never won a sale he could not pay: the loop was not exercised"
