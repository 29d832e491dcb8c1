"""Cornett's China: each rule of the rulebook, its notes as examples, and long random runs.

Quotes are from shared/rulebooks/china-cornett.fr.txt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

import rulewright
from rulewright.runtime import BadSetup, IllegalAction, Rng, State

GAME = rulewright.load("china-cornett")
FACE_DOWN, GOLD_SIDE, REMOVED = 0, 1, 2
T01, T02, T12 = 0, 1, 2


def new(seed: int = 1, **options: str) -> Any:
    return GAME.new_state(players=2, seed=seed, options=options)


def position(
    state: Any,
    face_down: Iterable[str] = (),
    gold_side: Iterable[str] = (),
    roll: int | None = None,
    tablets: Iterable[int] | None = None,
    current: int | None = None,
) -> Any:
    """Every marker removed except those named; then the roll, tablets and seat to act."""
    index = state.board.index
    state.marker = [REMOVED] * len(state.board.spots)
    for label in face_down:
        state.marker[index[label]] = FACE_DOWN
    for label in gold_side:
        state.marker[index[label]] = GOLD_SIDE
    if roll is not None:
        state.roll = roll
    if tablets is not None:
        state.tablets = frozenset(tablets)
    if current is not None:
        state.current = current
    state._fields_set()  # (fields set from outside the rules: what is kept beside them is made again)
    state._legal_cache = None
    state._fields_set()  # (fields written from outside the rules: what the optimiser kept is made again)
    return state


def texts(state: State) -> list[str]:
    return sorted(str(a) for a in state.legal_actions())


def region(state: Any, kind: str, label: str) -> list[str]:
    """The spots (labels) of the region of `kind` holding spot `label`."""
    board = state.board
    r = board.region_of[board.kinds.index(kind)][board.index[label]]
    return [board.labels[s] for s in board.region_spots[r]]


# -- Material and setup ----------------------------------------------------------------------

def test_board_counts() -> None:
    # "1 Plateau de jeu : 17 montagnes, 17 rivières et 91 régions de prospection"
    board = new().board
    assert len(board.spots) == 91
    kinds = [board.kinds[k] for k in board.region_kind]
    assert kinds.count("mountain") == 17 and kinds.count("river") == 17
    for members in board.region_of:
        assert all(r >= 0 for r in members), "every region is in one mountain and one river"
    assert all(3 <= len(spots) <= 8 for spots in board.region_spots)


def test_rivers_are_the_mirror_of_the_mountains() -> None:
    # "Les régions de prospection sont représentées entre les montagnes et les rivières comme
    # à travers un miroir."
    board = new().board
    at = {c: i for i, c in enumerate(board.coords)}
    mountains = [set(s) for s, k in zip(board.region_spots, board.region_kind, strict=True) if k == 0]
    rivers = [set(s) for s, k in zip(board.region_spots, board.region_kind, strict=True) if k == 1]
    mirrored = [{at[(board.coords[s][1], board.coords[s][0])] for s in m} for m in mountains]
    assert mirrored == rivers
    assert not any(m == r for m in mountains for r in rivers), "no mountain is also a river"


def test_small_board_option() -> None:
    state = new(board="hex5")
    assert len(state.board.spots) == 61
    assert len(state.board.region_names) == 24
    assert sum(state.gold) == 0 and state.marker.count(FACE_DOWN) == 61


def test_setup() -> None:
    # "Placez sur chacune des 91 régions de prospection un marqueur de prospection, le côté or
    # non visible." / "Le joueur le plus avide d'or commence la partie en jetant les trois
    # tablettes"
    state = new()
    assert state.marker == [FACE_DOWN] * 91
    assert state.gold == [0, 0]
    assert state.tablets == {T01, T02, T12}
    assert state.to_act() == 0
    assert 1 <= state.roll <= 5


def test_bad_setup_is_refused() -> None:
    with pytest.raises(BadSetup, match="played by 2 players"):
        GAME.new_state(players=3)
    with pytest.raises(BadSetup, match="no option `bord`"):
        GAME.new_state(options={"bord": "hex5"})
    with pytest.raises(BadSetup, match="no value `hex7`"):
        GAME.new_state(options={"board": "hex7"})


# -- The tablets -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("tablets", "sums"),
    [({T01, T02, T12}, {1, 2, 3, 4, 5}), ({T02, T12}, {1, 2, 3, 4}), ({T01, T12}, {1, 2, 3})],
)
def test_throw_gives_the_sums_the_rulebook_names(tablets: set[int], sums: set[int]) -> None:
    # "seuls les nombres de 1 à 4 soient disponibles" / "seuls les nombres de 1 à 3"
    seen = set()
    for seed in range(200):
        state = position(new(seed), face_down=["A1", "A2", "A3", "A4", "A5", "A6"], gold_side=["K6"],
                         tablets=tablets)
        state.apply("turn back K6")  # end the turn; the next one throws the tablets left
        if state.tablets == frozenset(tablets):
            seen.add(state.roll)
    assert seen == sums


# -- Prospecting -----------------------------------------------------------------------------

def test_prospect_exactly_the_roll_in_a_straight_line() -> None:
    # "La somme indique combien de marqueurs de prospection doivent être retournés. Important:
    # les marqueurs retournés doivent se trouver alignés côte à côte, sans espace ou marqueurs
    # tournés sur le côté or entre eux."
    state = position(new(), face_down=["A1", "A2", "A3", "B1", "B2", "C1"], roll=3)
    assert texts(state) == ["prospect A1-A2-A3", "prospect A1-B1-C1"]


def test_no_gap_and_no_gold_marker_inside_a_line() -> None:
    state = position(new(), face_down=["A1", "A2", "A4", "A5"], gold_side=["A3"], roll=2)
    prospects = [t for t in texts(state) if t.startswith("prospect")]
    assert prospects == ["prospect A1-A2", "prospect A4-A5"]


def test_note_five_face_down_markers_allow_four_in_two_ways() -> None:
    # "Cinq marqueurs non retournés permettent de prospecter quatre (ou trois) marqueurs selon
    # deux possibilités."
    row = ["A1", "A2", "A3", "A4", "A5"]
    state = position(new(), face_down=row, roll=4)
    assert texts(state) == ["prospect A1-A2-A3-A4", "prospect A2-A3-A4-A5"]
    state = position(new(), face_down=row, roll=3)
    assert texts(state) == ["prospect A1-A2-A3", "prospect A2-A3-A4", "prospect A3-A4-A5"]


def test_prospecting_turns_markers_gold_side_up() -> None:
    state = position(new(), face_down=["A1", "A2", "A3", "A4", "F6"], roll=2, current=0)
    state.apply("prospect A1-A2")
    index = state.board.index
    assert state.marker[index["A1"]] == GOLD_SIDE or state.marker[index["A1"]] == REMOVED
    assert state.to_act() == 1


def test_turn_back_instead_of_prospecting() -> None:
    # "Au lieu de retourner le nombre indiqué de marqueurs, le joueur peut à la place replacer
    # face cachée un marqueur précédemment tourné sur le côté or."
    state = position(new(), face_down=["A1", "A2"], gold_side=["F6", "K1"], roll=5)
    assert texts(state) == ["turn back F6", "turn back K1"]
    state.apply("turn back F6")
    assert state.marker[state.board.index["F6"]] == FACE_DOWN


def test_note_turning_back_creates_new_alignments() -> None:
    # "Replacer face cachée un marqueur, crée de nouvelles possibilités pour prospecter des
    # alignements de 3/4/5 marqueurs."
    state = position(new(), face_down=["F1", "F2", "F4", "F5", "K1"], gold_side=["F3"], roll=5,
                     tablets={T01, T02, T12})
    assert not any(t.startswith("prospect") for t in texts(state))
    state.apply("turn back F3")
    assert state.board.count_lines(5, [s for s, m in enumerate(state.marker) if m == FACE_DOWN]) == 1
    state.roll = 5
    state._legal_cache = None
    state._fields_set()
    assert "prospect F1-F2-F3-F4-F5" in texts(state)


# -- Transporting gold -----------------------------------------------------------------------

def _one_left(state: Any, spot: str) -> tuple[list[str], list[str]]:
    """Everything of spot's mountain and river gold side up but `spot`; the rest face down."""
    mountain, river = region(state, "mountain", spot), region(state, "river", spot)
    gold = [s for s in {*mountain, *river} if s != spot]
    rest = [s for s in state.board.labels if s not in mountain and s not in river]
    position(state, face_down=[spot, *rest], gold_side=gold, roll=1, current=0)
    return mountain, river


def test_claim_own_sector_when_its_last_marker_is_turned() -> None:
    # "Quand pendant le tour d'un joueur, le dernier marqueur dans un (ou plusieurs) de ses
    # secteurs (montagne ou rivière) est retourné, tout l'or dans ce(s) secteur(s) peut être
    # réclamé."
    state = new()
    spot = "A4"
    mountain = region(state, "mountain", spot)
    others = [s for s in state.board.labels if s not in mountain]
    position(state, face_down=[spot, *others], gold_side=[s for s in mountain if s != spot], roll=1, current=0)
    state.apply(f"prospect {spot}")
    assert state.gold == [len(mountain), 0]
    index = state.board.index
    assert all(state.marker[index[s]] == REMOVED for s in mountain)


def test_turning_an_opponents_last_marker_gives_the_turner_his_gold_by_default() -> None:
    # "Si, en même temps, le dernier marqueur d'un secteur adverse est retourné, il peut alors
    # récupérer l'or dans ce secteur."
    state = new()
    mountain, river = _one_left(state, "F6")
    state.apply("prospect F6")
    shared = len(set(mountain) & set(river))
    assert state.gold == [len(mountain) + len(river) - shared, 0]


def test_owner_reading_gives_the_opponent_his_own_sector() -> None:
    state = new(sector_collector="owner")
    mountain, river = _one_left(state, "F6")
    state.apply("prospect F6")
    shared = len(set(mountain) & set(river))
    assert state.gold == [len(mountain), len(river) - shared]


def test_no_claim_while_a_marker_of_the_sector_is_face_down() -> None:
    state = new()
    spot = "A4"
    mountain = region(state, "mountain", spot)
    gold = [s for s in mountain if s not in (spot, mountain[-1] if mountain[-1] != spot else mountain[0])]
    position(state, face_down=[s for s in state.board.labels if s not in gold], gold_side=gold, roll=1)
    state.apply(f"prospect {spot}")
    assert state.gold == [0, 0]


# -- Tablet reductions -----------------------------------------------------------------------

def _end_turn(state: Any) -> None:
    state.apply("turn back K6")


def test_first_reduction_when_one_alignment_of_five_is_left() -> None:
    # "Quand il ne reste plus qu'un alignement de cinq marqueurs de prospection, la tablette 0/1
    # est replacée dans la boite."
    state = position(new(), face_down=["A1", "A2", "A3", "A4", "A5"], gold_side=["K6"], roll=5,
                     tablets={T01, T02, T12})
    _end_turn(state)
    assert state.tablets == {T02, T12}


def test_first_reduction_waits_for_none_left_under_the_other_reading() -> None:
    state = position(new(reduction_reading="none_left"), face_down=["A1", "A2", "A3", "A4", "A5"],
                     gold_side=["K6"], roll=5, tablets={T01, T02, T12})
    _end_turn(state)
    assert state.tablets == {T01, T02, T12}


def test_no_reduction_while_two_alignments_of_five_are_left() -> None:
    state = position(new(), face_down=["A1", "A2", "A3", "A4", "A5", "A6"], gold_side=["K6"], roll=5,
                     tablets={T01, T02, T12})
    _end_turn(state)
    assert state.tablets == {T01, T02, T12}


def test_second_reduction_swaps_tablet_0_2_for_0_1() -> None:
    # "Quand il ne reste plus qu'un alignement de quatre marqueurs de prospection, la tablette
    # 0/2 est remplacée par la tablette 0/1 qu'on avait écarté dans la boite."
    state = position(new(), face_down=["A1", "A2", "A3", "A4"], gold_side=["K6"], roll=1, tablets={T02, T12})
    _end_turn(state)
    assert state.tablets == {T01, T12}


def test_third_reduction_puts_every_tablet_away() -> None:
    # "Quand il ne reste plus qu'un alignement de trois marqueurs de prospection, toutes les
    # tablettes sont replacées dans la boite. Désormais, les joueurs peuvent choisir s'ils
    # tournent un ou deux marqueurs voisins."
    state = position(new(), face_down=["A1", "A2", "A3"], gold_side=["K6"], roll=1, tablets={T01, T12})
    _end_turn(state)
    assert state.tablets == frozenset()
    assert state.roll == 0
    # K6 was just turned back face down; gold-side markers can no longer be.
    assert texts(state) == ["prospect A1", "prospect A1-A2", "prospect A2", "prospect A2-A3", "prospect A3",
                            "prospect K6"]


def test_no_turning_back_once_the_tablets_are_away() -> None:
    # "A partir du moment où les tablettes ne sont plus lancées, il n'est plus possible de
    # replacer face cachée un marqueur or."
    state = position(new(), face_down=["A1"], gold_side=["K6"], tablets=())
    assert texts(state) == ["prospect A1"]
    with pytest.raises(IllegalAction, match="turn back K6"):
        state.apply("turn back K6")


def test_reductions_cascade_in_one_turn() -> None:
    state = position(new(), face_down=["A1", "A2", "A3"], gold_side=["K6"], roll=1, tablets={T01, T02, T12})
    _end_turn(state)
    assert state.tablets == frozenset()


# -- The end ---------------------------------------------------------------------------------

def test_game_ends_when_every_region_is_emptied_and_most_gold_wins() -> None:
    # "Quand toutes les régions de prospection ont été vidées, le joueur qui a rassemblé le plus
    # d'or gagne la partie."
    state = new()
    spot = "A4"
    mountain = region(state, "mountain", spot)
    position(state, face_down=[spot], gold_side=[s for s in mountain if s != spot], roll=1, current=1)
    state.gold = [40, 40]
    state._fields_set()
    # seat 2 (rivers) turns A4, the last of his river and of seat 1's mountain: both are his
    # by default (his own sector is completed at the same time)
    state.apply(f"prospect {spot}")
    assert state.is_terminal()
    assert state.scores() == [40, 40 + len(mountain)]
    assert state.winners() == [1]
    assert state.legal_actions() == [] and state.to_act() is None


def test_a_turn_with_no_legal_move_passes() -> None:
    # Unreachable under the default readings (a reduction always comes first); a variant or a
    # custom board can get there, and the turn then passes.
    state = position(new(), face_down=["A1", "A2", "A3"], roll=5, tablets={T01, T02, T12}, current=0)
    assert texts(state) == ["pass"]
    state.apply("pass")
    assert state.to_act() == 1


# -- Errors and the API ----------------------------------------------------------------------

def test_illegal_action_is_refused_and_changes_nothing() -> None:
    state = new(seed=3)
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply("prospect A1-K6")
    message = str(info.value)
    assert "illegal action `prospect A1-K6`" in message
    assert "rules/china-cornett/base.yaml:" in message
    assert state.to_json() == before


def test_observation_shows_everything_the_rules_show() -> None:
    state = new(seed=2)
    obs = state.observation(1)
    assert obs["fields"]["marker"]["A1"] == "face_down"
    assert obs["fields"]["tablets"] == ["t01", "t02", "t12"]
    assert obs["fields"]["gold"] == [0, 0]
    assert obs == state.observation(0) | {"player": 1}


def _random_game(seed: int, check: Any = None, **options: str) -> Any:
    state = new(seed, **options)
    agent = Rng(seed ^ 0x5EED)
    total = len(state.board.spots)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[agent.below(len(legal))]
        assert action.name != "pass", "under the default readings a player always has a move"
        state.apply(action)
        if check:
            check(state)
        assert sum(state.gold) + sum(1 for m in state.marker if m != REMOVED) == total
    return state


def test_a_thousand_random_games_end_with_gold_conserved() -> None:
    finished = 0
    for seed in range(1000):
        state = _random_game(seed)
        assert sum(state.gold) == 91 and state.winners()
        finished += 1
    assert finished == 1000


@pytest.mark.parametrize("options", [{"board": "hex5"}, {"sector_collector": "owner"},
                                     {"sector_collector": "turner"}, {"reduction_reading": "none_left"}])
def test_random_games_under_each_option(options: dict[str, str]) -> None:
    for seed in range(100):
        state = _random_game(seed, **options)
        assert sum(state.gold) == len(state.board.spots)


def test_determinism_same_seed_same_game() -> None:
    assert _random_game(11).to_json() == _random_game(11).to_json()
    assert _random_game(11).to_json() != _random_game(12).to_json()


def test_json_round_trip_and_clone_at_every_step() -> None:
    def check(state: Any) -> None:
        copy = GAME.state_from_json(state.to_json())
        assert copy.to_json() == state.to_json()
        assert [str(a) for a in copy.legal_actions()] == [str(a) for a in state.legal_actions()]

    _random_game(5, check)


def test_clone_is_independent() -> None:
    state = new(seed=4)
    twin = state.clone()
    action = state.legal_actions()[0]
    state.apply(action)
    assert twin.to_json() != state.to_json()
    assert twin.marker.count(FACE_DOWN) == 91
    twin.apply(action)
    assert twin.to_json() == state.to_json(), "the same move from the same state gives the same state"
