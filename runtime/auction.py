"""The open auction, a mechanic any rule file can use (the DSL type `auction`).

An `Auction` is an immutable value: each bid or drop makes a new one, so a state's copy
shares it. Bidders act in the order given (the originator first, then clockwise); each bid is
higher than the last, by at least `step`, and no lower than `minimum`; dropping out is final.
The auction is over when only the high bidder is left in it (he wins) or nobody is (no bid:
the lot is unsold). Who must decide now is `to_act`, which a rule file's phase names as its
actor (`actor: auction_bidder(sale)`), so every bid goes through the runtime's one notion of
the seat to act. What the winner pays, and to whom, is the rule file's business.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RulewrightError

NOBODY = -1


@dataclass(frozen=True, slots=True)
class Auction:
    """bidders: the seats in turn order; turn: the index in `bidders` of the seat to act;
    still_in: who has not dropped out; high_bidder: NOBODY before the first bid."""

    bidders: tuple[int, ...]
    turn: int
    still_in: frozenset[int]
    high_bid: int
    high_bidder: int
    minimum: int
    step: int

    @property
    def over(self) -> bool:
        """Nobody is left, or only the high bidder."""
        return not self.still_in or self.still_in == {self.high_bidder}

    @property
    def winner(self) -> int:
        """The seat that won (NOBODY while the auction goes on, or when nobody bid)."""
        return self.high_bidder if self.over else NOBODY

    @property
    def to_act(self) -> int:
        """The seat that must bid or drop out now (NOBODY once the auction is over)."""
        return NOBODY if self.over else self.bidders[self.turn]

    @property
    def lowest_bid(self) -> int:
        """The smallest bid allowed now."""
        return self.minimum if self.high_bidder == NOBODY else max(self.minimum, self.high_bid + self.step)

    def to_json(self) -> dict[str, Any]:
        return {
            "bidders": list(self.bidders), "turn": self.turn, "still_in": sorted(self.still_in),
            "high_bid": self.high_bid, "high_bidder": self.high_bidder, "minimum": self.minimum, "step": self.step,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Auction:
        return Auction(
            tuple(int(p) for p in data["bidders"]), int(data["turn"]), frozenset(int(p) for p in data["still_in"]),
            int(data["high_bid"]), int(data["high_bidder"]), int(data["minimum"]), int(data["step"]),
        )


NO_AUCTION = Auction((), 0, frozenset(), 0, NOBODY, 0, 1)


def open_auction(order: Iterable[int], minimum: int, step: int) -> Auction:
    """A new auction among `order` (each seat once, in turn order), the first of them to act."""
    bidders = tuple(dict.fromkeys(order))
    return Auction(bidders, 0, frozenset(bidders), 0, NOBODY, minimum, max(step, 1))


def _next(a: Auction, still_in: frozenset[int]) -> int:
    """The index of the next seat after the one to act that is still in (or the same index)."""
    n = len(a.bidders)
    for k in range(1, n):
        i = (a.turn + k) % n
        if a.bidders[i] in still_in:
            return i
    return a.turn


def bid(a: Auction, amount: int) -> Auction:
    """The seat to act bids `amount`; the next seat still in is to act."""
    if a.over:
        raise RulewrightError("a bid in an auction that is over: the rules must check auction_over()")
    if amount < a.lowest_bid:
        raise RulewrightError(f"a bid of {amount} where the lowest allowed is {a.lowest_bid}")
    return Auction(a.bidders, _next(a, a.still_in), a.still_in, amount, a.to_act, a.minimum, a.step)


def drop(a: Auction) -> Auction:
    """The seat to act drops out, for good; the next seat still in is to act."""
    if a.over:
        raise RulewrightError("a drop in an auction that is over: the rules must check auction_over()")
    still_in = a.still_in - {a.to_act}
    return Auction(a.bidders, _next(a, still_in), still_in, a.high_bid, a.high_bidder, a.minimum, a.step)


def amounts(a: Auction, cap: int) -> range:
    """The bids the seat to act may make: from the lowest allowed up to `cap` in steps (at
    least the lowest allowed, so that a bidder can always outbid; none once it is over)."""
    if a.over:
        return range(0)
    low = a.lowest_bid
    return range(low, max(low, cap) + 1, a.step)


def winner_list(a: Auction) -> tuple[int, ...]:
    """The winner as a list of at most one seat (how rule files say "maybe a player")."""
    return () if a.winner == NOBODY else (a.winner,)


def seats_from(first: int, players: int) -> tuple[int, ...]:
    """Every seat, starting with `first` and going clockwise (to the left: the next seat)."""
    return tuple((first + k) % players for k in range(players))
