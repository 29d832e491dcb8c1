"""The open auction of the runtime (runtime/auction.py): pure functions on an immutable value."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulewright
from rulewright.runtime import (
    NO_AUCTION,
    NOBODY,
    Auction,
    Rng,
    RulewrightError,
    amounts,
    bid,
    drop,
    open_auction,
    seats_from,
    winner_list,
)


def test_seats_from_goes_clockwise_from_a_seat() -> None:
    assert seats_from(0, 3) == (0, 1, 2)
    assert seats_from(2, 4) == (2, 3, 0, 1)


def test_the_first_of_the_order_acts_first_and_everyone_is_in() -> None:
    a = open_auction([2, 0, 1], 100, 100)
    assert a.to_act == 2
    assert a.still_in == {0, 1, 2}
    assert not a.over
    assert a.winner == NOBODY
    assert list(amounts(a, 300)) == [100, 200, 300]


def test_bids_go_round_each_higher_and_dropping_out_is_final() -> None:
    a = open_auction([0, 1, 2], 100, 100)
    a = bid(a, 100)  # 0
    assert (a.to_act, a.high_bid, a.high_bidder) == (1, 100, 0)
    a = drop(a)  # 1 is out
    assert a.to_act == 2
    assert list(amounts(a, 500)) == [200, 300, 400, 500]
    a = bid(a, 300)  # 2
    assert a.to_act == 0, "1 dropped out: never asked again"
    a = bid(a, 400)  # 0
    assert a.to_act == 2
    a = drop(a)
    assert a.over and a.winner == 0 and winner_list(a) == (0,)
    assert a.high_bid == 400
    assert a.to_act == NOBODY
    assert list(amounts(a, 1000)) == []


def test_everybody_dropping_without_a_bid_leaves_it_unsold() -> None:
    a = open_auction([1, 2, 0], 100, 100)
    a = drop(drop(a))
    assert not a.over and a.to_act == 0, "the last one in may still bid"
    a = drop(a)
    assert a.over and a.winner == NOBODY and winner_list(a) == ()


def test_the_last_one_in_can_win_by_bidding() -> None:
    a = drop(drop(open_auction([0, 1, 2], 100, 100)))
    a = bid(a, 100)
    assert a.over and a.winner == 2


def test_the_cap_never_hides_the_lowest_bid() -> None:
    a = bid(open_auction([0, 1], 100, 100), 300)
    assert list(amounts(a, 0)) == [400]


def test_an_illegal_bid_or_a_move_after_the_end_is_an_error() -> None:
    a = bid(open_auction([0, 1], 100, 100), 200)
    with pytest.raises(RulewrightError):
        bid(a, 250)
    over = drop(a)
    with pytest.raises(RulewrightError):
        bid(over, 1000)
    with pytest.raises(RulewrightError):
        drop(over)


def test_no_auction_is_over_and_an_empty_one_too() -> None:
    assert NO_AUCTION.over and NO_AUCTION.winner == NOBODY
    assert open_auction([], 100, 100).over


def test_values_are_immutable_and_round_trip_through_json() -> None:
    a = bid(open_auction([1, 0, 2], 100, 50), 150)
    b = bid(a, 200)
    assert a.high_bid == 150, "bidding makes a new auction"
    assert Auction.from_json(b.to_json()) == b
    with pytest.raises(AttributeError):
        b.high_bid = 0  # type: ignore[misc]


def test_an_auction_made_without_its_init_is_the_one_its_init_makes() -> None:
    """open_auction, bid and drop make their values through the slots' descriptors (quicker than a
    call of __init__): the same fields, equal, hashed alike, and as immutable; copied and pickled
    through __init__ (__setattr__ refuses every assignment)."""
    from rulewright.runtime import auction

    assert auction._FAST, "interpreted, the quick path is the one taken"
    a = open_auction([2, 0, 1], 100, 50)
    assert a == Auction((2, 0, 1), 0, frozenset({0, 1, 2}), 0, NOBODY, 100, 50)
    b = drop(bid(a, 150))
    same = Auction((2, 0, 1), 2, frozenset({1, 2}), 150, 2, 100, 50)
    assert b == same and hash(b) == hash(same) and repr(b) == repr(same)
    assert type(b) is Auction and b.to_json() == same.to_json()
    assert (b.over, b.to_act) == (same.over, same.to_act) == (False, 1)  # (worked out as it is made)
    over = drop(b)
    assert (over.over, over.to_act, over.winner) == (True, NOBODY, 2)
    with pytest.raises(AttributeError):
        b.turn = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        b.over = True
    for again in (copy.copy(b), copy.deepcopy(b), pickle.loads(pickle.dumps(b))):
        assert again == b and (again.over, again.to_act) == (b.over, b.to_act) and type(again) is Auction


@given(st.integers(2, 6), st.lists(st.booleans(), max_size=40))
def test_random_bidding_ends_with_the_high_bidder_or_nobody(players: int, moves: list[bool]) -> None:
    a = open_auction(seats_from(1 % players, players), 100, 100)
    for is_bid in moves:
        if a.over:
            break
        before = a.high_bid
        a = bid(a, a.lowest_bid) if is_bid else drop(a)
        assert a.high_bid >= before
        if not a.over:
            assert a.to_act in a.still_in and a.to_act != a.high_bidder
    if a.over:
        assert a.winner == a.high_bidder
        assert a.still_in <= {a.high_bidder}


def test_a_rule_files_auction_field_is_observed_saved_and_cloned() -> None:
    """Mandarin's sale is an `auction` field: public in observations, saved by to_json, and
    shared by clones (it is immutable); its bidder is the one who must decide now."""
    game = rulewright.load_rules(Path(__file__).resolve().parent.parent / "rules" / "mandarin" / "base.yaml")
    agent = Rng(3)
    seen = 0
    for seed in range(40):
        state = game.new_state(players=3, seed=seed)
        for _ in range(400):
            if state.is_terminal():
                break
            if state.PHASES[state.phase] == "auction":
                sale = state.sale  # type: ignore[attr-defined]
                assert state.to_act() == sale.to_act
                assert all(str(a).startswith(("bid", "drop out")) for a in state.legal_actions())
                seen_by = state.observation((sale.to_act + 1) % 3)["fields"]["sale"]
                assert seen_by["bidder"] == f"P{sale.to_act + 1}"
                assert seen_by["high_bid"] == sale.high_bid
                assert seen_by["in"] == [f"P{p + 1}" for p in sorted(sale.still_in)]
                assert game.state_from_json(state.to_json()).to_json() == state.to_json()
                assert state.clone().sale is sale  # type: ignore[attr-defined]
                seen += 1
            legal = state.legal_actions()
            state.apply(legal[agent.below(len(legal))])
    assert seen > 0, "random play reaches a sale"
