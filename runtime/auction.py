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
from dataclasses import FrozenInstanceError, dataclass, field
from itertools import pairwise
from types import FunctionType, MemberDescriptorType
from typing import Any, Final, NoReturn

from .errors import RulewrightError, is_int, shown
from .limits import MAX_INT

NOBODY: Final = -1


def _state(bidders: tuple[int, ...], turn: int, still_in: frozenset[int], high_bidder: int) -> tuple[bool, int]:
    """Whether an auction is over (nobody is left, or only the high bidder: `still_in ==
    {high_bidder}` without making a set), and the seat to act (NOBODY once it is over)."""
    over = not still_in or len(still_in) == 1 and high_bidder in still_in
    return over, NOBODY if over else bidders[turn]


# An auction is a value, never changed once made: its fields are Final (mypy refuses an assignment),
# and __setattr__ refuses one at run time, as a frozen dataclass's does. It is not a frozen
# dataclass because compiled by mypyc (the native build, docs/native.md) the frozen dataclass's
# __init__ is Python code, run by the interpreter, each field set through a call of
# object.__setattr__: a tenth of a native game of Mandarin's money game, which makes some 700
# auctions a game. Here the compiled __init__ writes the fields into the object directly (compiled
# code does not go through __setattr__), some seven times as quick; interpreted, where __setattr__
# would refuse it, it sets them through the slots' descriptors (_make). dataclass still writes the
# comparison, the hash and repr of the seven fields.
@dataclass(init=False, slots=True, unsafe_hash=True)
class Auction:
    """bidders: the seats in turn order; turn: the index in `bidders` of the seat to act;
    still_in: who has not dropped out; high_bidder: NOBODY before the first bid."""

    bidders: Final[tuple[int, ...]]
    turn: Final[int]
    still_in: Final[frozenset[int]]
    high_bid: Final[int]
    high_bidder: Final[int]
    minimum: Final[int]
    step: Final[int]
    # What every move of a sale asks (the seat to act, whether it is over), worked out once as the
    # value is made rather than at each look: not compared, hashed, shown or saved (the fields above
    # determine them).
    over: bool = field(repr=False, compare=False)  # nobody is left, or only the high bidder
    to_act: int = field(repr=False, compare=False)  # the seat to bid or drop out (NOBODY once over)

    def __init__(self, bidders: tuple[int, ...], turn: int, still_in: frozenset[int], high_bid: int,
                 high_bidder: int, minimum: int, step: int) -> None:
        if not _NATIVE:
            _make(bidders, turn, still_in, high_bid, high_bidder, minimum, step, self)
            return
        self.bidders = bidders
        self.turn = turn
        self.still_in = still_in
        self.high_bid = high_bid
        self.high_bidder = high_bidder
        self.minimum = minimum
        self.step = step
        self.over, self.to_act = _state(bidders, turn, still_in, high_bidder)

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:  # (copied and pickled through __init__: __setattr__ refuses)
        return Auction, (self.bidders, self.turn, self.still_in, self.high_bid, self.high_bidder, self.minimum,
                         self.step)

    @property
    def winner(self) -> int:
        """The seat that won (NOBODY while the auction goes on, or when nobody bid)."""
        return self.high_bidder if self.over else NOBODY

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
    def from_json(data: Any, seats: int | None = None) -> Auction:
        """The auction `to_json()` wrote. Anything no auction can hold raises ValueError naming the
        key: a seat that is not one of `seats` (when given), a bidder twice, a seat to act that is
        out, a high bidder who is not bidding, a step below 1."""
        if not isinstance(data, Mapping):
            raise ValueError(f"expected an auction (a JSON object), got {shown(data)}")
        for key in data:
            if key not in AUCTION_KEYS:
                raise ValueError(f"unknown key {shown(key)} (an auction has {', '.join(AUCTION_KEYS)})")
        for key in AUCTION_KEYS:
            if key not in data:
                raise ValueError(f"missing key `{key}`")
        bidders = _seats(data["bidders"], "bidders", seats)
        if len(set(bidders)) != len(bidders):
            raise ValueError(f"key `bidders`: expected each seat once, got {shown(data['bidders'])}")
        still_in = _seats(data["still_in"], "still_in", seats)
        if any(a >= b for a, b in pairwise(still_in)) or not set(still_in) <= set(bidders):
            raise ValueError(f"key `still_in`: expected bidders in increasing order, each once, got "
                             f"{shown(data['still_in'])}")
        turn, high_bid, high_bidder, minimum, step = (
            _whole(data[key], key) for key in ("turn", "high_bid", "high_bidder", "minimum", "step"))
        if not 0 <= turn < max(1, len(bidders)):
            raise ValueError(f"key `turn`: expected an index into `bidders` (0 to {max(1, len(bidders)) - 1}), "
                             f"got {turn}")
        if step < 1:
            raise ValueError(f"key `step`: expected a step of at least 1, got {step}")
        if high_bidder == NOBODY:
            if high_bid != 0:
                raise ValueError(f"key `high_bid`: expected 0 while nobody has bid, got {high_bid}")
        elif high_bidder not in still_in:
            raise ValueError(f"key `high_bidder`: expected {NOBODY} (nobody) or a bidder still in, got {high_bidder}")
        elif high_bid < minimum:
            raise ValueError(f"key `high_bid`: expected a bid of at least the minimum {minimum}, got {high_bid}")
        auction = Auction(tuple(bidders), turn, frozenset(still_in), high_bid, high_bidder, minimum, step)
        if not auction.over and bidders[turn] not in still_in:
            raise ValueError(f"key `turn`: the seat to act, {bidders[turn]}, has dropped out")
        return auction


AUCTION_KEYS = ("bidders", "turn", "still_in", "high_bid", "high_bidder", "minimum", "step")


def _whole(value: Any, key: str) -> int:
    if not is_int(value):
        raise ValueError(f"key `{key}`: expected an int, got {shown(value)}")
    if not -MAX_INT <= value <= MAX_INT:
        raise ValueError(f"key `{key}`: expected an int of 64 bits (at most {MAX_INT:,} either way), the limit "
                         f"of a game, got {shown(value)}")
    return value


def _seats(value: Any, key: str, seats: int | None) -> list[int]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"key `{key}`: expected a list of seats, got {shown(value)}")
    out: list[int] = []
    for i, p in enumerate(value):
        if not is_int(p) or p < 0 or (seats is not None and p >= seats):
            bound = f"from 0 to {seats - 1}" if seats is not None else "from 0"
            raise ValueError(f"key `{key}` item {i}: expected a seat {bound}, got {shown(p)}")
        out.append(p)
    return out


# Whether this module is compiled by mypyc (the native build): a compiled function is not a Python
# function.
_NATIVE: Final = not isinstance(_state, FunctionType)
# Interpreted, an auction's fields are set through the slots' descriptors, found once (__setattr__
# refuses an assignment); `_make` makes one without calling __init__ at all (object.__new__ and
# the setters: a third quicker than the call). Compiled the class has no such slots, and its __init__
# is quick: `_make` calls it.
_SLOTS = [vars(Auction).get(name) for name in (*AUCTION_KEYS, "over", "to_act")]
_FAST: Final = all(isinstance(slot, MemberDescriptorType) for slot in _SLOTS)
_setters: list[Any] = [getattr(slot, "__set__", None) for slot in _SLOTS]
(_set_bidders, _set_turn, _set_still_in, _set_high_bid, _set_high_bidder, _set_minimum, _set_step, _set_over,
 _set_to_act) = _setters
_new = object.__new__


def _make(bidders: tuple[int, ...], turn: int, still_in: frozenset[int], high_bid: int, high_bidder: int,
          minimum: int, step: int, into: Auction | None = None) -> Auction:
    """`Auction(...)` of these fields: interpreted, made without a call of __init__ (see _SLOTS), or
    the fields of `into` set (by __init__, interpreted only: compiled, it sets them itself)."""
    if into is None:
        if not _FAST:
            return Auction(bidders, turn, still_in, high_bid, high_bidder, minimum, step)
        into = _new(Auction)
    _set_bidders(into, bidders)
    _set_turn(into, turn)
    _set_still_in(into, still_in)
    _set_high_bid(into, high_bid)
    _set_high_bidder(into, high_bidder)
    _set_minimum(into, minimum)
    _set_step(into, step)
    over = not still_in or len(still_in) == 1 and high_bidder in still_in  # (_state, written out)
    _set_over(into, over)
    _set_to_act(into, NOBODY if over else bidders[turn])
    return into


NO_AUCTION: Final = Auction((), 0, frozenset(), 0, NOBODY, 0, 1)


def open_auction(order: Iterable[int], minimum: int, step: int) -> Auction:
    """A new auction among `order` (each seat once, in turn order), the first of them to act."""
    bidders = tuple(dict.fromkeys(order))
    return _make(bidders, 0, frozenset(bidders), 0, NOBODY, minimum, max(step, 1))


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
    return _make(a.bidders, _next(a, a.still_in), a.still_in, amount, a.to_act, a.minimum, a.step)


def drop(a: Auction) -> Auction:
    """The seat to act drops out, for good; the next seat still in is to act."""
    if a.over:
        raise RulewrightError("a drop in an auction that is over: the rules must check auction_over()")
    still_in = a.still_in - {a.to_act}
    return _make(a.bidders, _next(a, still_in), still_in, a.high_bid, a.high_bidder, a.minimum, a.step)


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
