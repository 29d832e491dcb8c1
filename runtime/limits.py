"""The limits of one move, and the checks generated code calls to keep to them.

A rule file is untrusted: `choose: range(0, 1000000000000)`, an effect looping as often, or
`x = x * x` repeated would hang a game or eat all memory. So every move has a budget of work,
and numbers and lists have sizes they may not pass; going over stops the game with a
`GameError` naming the rule line (docs/language.md, "Limits").

The compiler proves most code within the limits and emits no check for it (a loop over the
board's spots, a field only ever assigned `[current]`); what it cannot prove it wraps in the
helpers below. Each state keeps the budget of its move in a slot of its own, `_budget`, which
generated code starts afresh where the runtime enters rule code that is checked (listing the
legal actions, playing an action, a new game, a score): so the budget of one state's move
never depends on another state, nor on another thread.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from typing import Any, Final, Literal, TypeVar

from .errors import GameError
from .kept import remember
from .order import sort_key

# The work one move may do: steps are loop rounds, choices listed and items of lists built,
# searched or sorted (docs/language.md, "Limits"). The bundled games need at most 2,200 for a
# move and 11,000 to list the legal actions (measured over seeded random games).
MAX_STEPS: Final = 1_000_000
# Items one list, set or range may hold when rule code walks, searches or builds it.
MAX_ITEMS: Final = 100_000
# Legal actions of one decision.
MAX_ACTIONS: Final = 100_000
# The largest whole number stored, added to a stored number, or made by a multiplication: 64 bits.
MAX_INT: Final = (1 << 63) - 1
# A list a rule that only reads the game (a definition, a condition, a score, the listing of
# choices) searches or walks is taken to hold at most this many items; the rule checks it as it
# starts, and charges its work again for every SMALL_LIST more items (`grown`).
SMALL_LIST: Final = 16

# The size of what a rule file declares (docs/language.md, "Limits"): checked by the compiler
# (compiler/boards.py, compiler/build/), so that what the runtime builds from a declaration once
# per board or rule set (runtime/boards/: in time and memory linear in these), what every state
# holds (a value per spot, region, border or component of each such field) and a game's start stay
# small. A board's spots; a hexagon is at most 20 a side (1,141 spots), a ring 1,000 spots.
MAX_SPOTS = 2_000
# The rows of a hex map (A to Z) and the places of a row (A1 to A40): its lines are at most 53
# spots long, its bitboard at most 26 * 54 bits.
MAX_MAP_ROWS = 26
MAX_MAP_PLACES = 40
# The rows of a square grid (1 to 26, counted from the bottom) and its columns (a to z): at most 676
# cells, its lines at most 26 spots long, its bitboard 26 * 27 bits.
MAX_GRID_ROWS = 26
MAX_GRID_COLUMNS = 26
# The regions of a board, of every kind together, and its kinds of regions.
MAX_REGIONS = 1_000
MAX_REGION_KINDS = 64
# The attributes of a board's regions (a graph board's) or spots (a hex map's), each a table over
# them; and the renamings of a mirrored kind of regions.
MAX_ATTRIBUTES = 64
# The regions of one kind a spot of a graph board lies in (two for a border post).
MAX_SPOT_REGIONS = 4
# The road segments of a graph board (a road of k spots is k - 1), and its borders.
MAX_ROADS = 20_000
MAX_BORDERS = 10_000
# The components of every kind together, and their attribute values (components times attributes,
# summed over the kinds): the tables the module computes as it is loaded.
MAX_COMPONENTS = 10_000
MAX_ATTRIBUTE_VALUES = 100_000
# The values a state holds: one per field, and one per entity of a field per entity (spot, region,
# border, player, die, component); each game makes them as it starts, each copy of a state copies them.
MAX_STATE_VALUES = 200_000

T = TypeVar("T")
C = TypeVar("C", bound=Collection[object])
N = TypeVar("N", bound=Collection[int])


def new_move(state: Any) -> None:
    """A fresh budget: the runtime enters rule code for a new move (or a listing, or a score)."""
    state._budget = MAX_STEPS


def _over(where: str) -> GameError:
    return GameError(where, f"more than {MAX_STEPS:,} steps of work in one move, the limit "
                            "(loop rounds, choices listed and items of lists handled)")


def spend(state: Any, steps: int, where: str) -> Literal[True]:
    """Charge `steps` proven at compile time (a rule whose work is large, without a loop to count
    it by). True, so that an expression can charge first: `rt.spend(...) and x`."""
    try:
        left = state._budget - steps
    except AttributeError:  # a state no move was begun in yet (a clone): a fresh budget
        left = MAX_STEPS - steps
    state._budget = left
    if left < 0:
        raise _over(where)
    return True


def walk(state: Any, items: C, weight: int, where: str) -> C:
    """`items`, once they are known to hold at most MAX_ITEMS and their walk (`weight` steps an
    item) fits in what is left of the budget: a loop, a list of choices or an operation over a
    list or set whose size only the game knows."""
    try:
        n = len(items)
    except OverflowError:  # a range longer than a machine word can count
        raise GameError(where, f"a list of more than {sys.maxsize:,} items, more than the limit of "
                               f"{MAX_ITEMS:,} items a list, set or range may hold") from None
    if n > MAX_ITEMS:
        raise GameError(where, f"a list of {n:,} items, more than the limit of {MAX_ITEMS:,} items "
                               "a list, set or range may hold")
    try:
        left = state._budget - n * weight
    except AttributeError:
        left = MAX_STEPS - n * weight
    state._budget = left
    if left < 0:
        raise _over(where)
    return items


def grown(state: Any, work: int, operations: int, lists: tuple[Collection[object], ...], where: str) -> Literal[True]:
    """Lists a rule took for small (at most SMALL_LIST items) hold more: its proven work, `work`,
    is charged again, multiplied by how many times longer the longest is once for each of the
    `operations` on them (one may be inside another). True (see `spend`)."""
    longest = max(len(items) for items in lists)
    if longest > MAX_ITEMS:
        raise GameError(where, f"a list of {longest:,} items, more than the limit of {MAX_ITEMS:,} items "
                               "a list, set or range may hold")
    times, factor = -(-longest // SMALL_LIST), 1
    for _ in range(operations):
        factor *= times
        if factor > MAX_STEPS:
            break
    return spend(state, work * factor, where)


def joins_fit(state: Any, length: int, rounds: int, items: int) -> bool:
    """Whether `rounds` joins of `items` items each to a list of `length` items, each counted as
    generated code counts a list longer than SMALL_LIST before it is joined (`walk`, a step an
    item), keep within the limit of items and the budget of the move: then their sum is charged
    at once, and True (pass `join_rounds`); else nothing is charged, and the rounds are made one
    by one, the round that fails failing as it would."""
    if rounds <= 0:
        return True
    longest = length + (rounds - 1) * items  # the list as the last round counts it
    if longest <= SMALL_LIST:
        return True
    if longest > MAX_ITEMS:
        return False
    first = 0 if length > SMALL_LIST else (SMALL_LIST - length) // items + 1  # the first round counted
    counted = rounds - first
    steps = counted * length + items * (first + rounds - 1) * counted // 2
    try:
        left = state._budget - steps
    except AttributeError:  # a state no move was begun in yet: a fresh budget (see `spend`)
        left = MAX_STEPS - steps
    if left < 0:
        return False
    state._budget = left
    return True


def walk_lists(state: Any, items: C, weight: int, where: str) -> C:
    """`walk`, for choices that are lists: the items of each count too (the action's key copies them)."""
    walk(state, items, weight, where)
    spend(state, sum(len(item) for item in items if isinstance(item, Collection)), where)
    return items


def upto(state: Any, n: int, where: str) -> int:
    """`n`, a number of items to be made (the spots passed on a ring), within the limits."""
    if n > MAX_ITEMS:
        raise GameError(where, f"{_shown(n)} items, more than the limit of {MAX_ITEMS:,} items "
                               "a list may hold")
    if n > 0:
        spend(state, n, where)
    return n


def _shown(n: int) -> str:
    return f"{n:,}" if n.bit_length() <= 200 else f"a number of {n.bit_length():,} bits"


def num(n: int, where: str) -> int:
    """`n`, a number stored or multiplied, once it is known to fit in 64 bits."""
    if -MAX_INT <= n <= MAX_INT:
        return n
    shown = f"the number {n:,}" if n.bit_length() <= 200 else f"a number of {n.bit_length():,} bits"
    raise GameError(where, f"{shown} is larger than the limit of whole numbers (±{MAX_INT:,}, 64 bits)")


def nums(state: Any, items: N, where: str) -> N:
    """A list or set of numbers, once each fits in 64 bits."""
    walk(state, items, 1, where)
    for n in items:
        num(n, where)
    return items


def div(a: int, b: int, where: str) -> int:
    """`a // b`, or a game error if `b` is zero."""
    if b == 0:
        raise GameError(where, f"division by zero ({_shown(a)} // 0)")
    return a // b


def mod(a: int, b: int, where: str) -> int:
    """`a % b`, or a game error if `b` is zero."""
    if b == 0:
        raise GameError(where, f"modulo by zero ({_shown(a)} % 0)")
    return a % b


def too_many_actions(count: int, where: str) -> None:
    """Raised when a decision lists more than MAX_ACTIONS legal actions."""
    raise GameError(where, f"{count:,} legal actions, more than the limit of {MAX_ACTIONS:,} for one decision")


class SearchTooLong(Exception):
    """A search of the runtime's mechanics (the longest road chain) that would pass a move's
    work: not a GameError itself, because only the generated code knows the rule line; the
    runtime (runtime/faults.py) turns it into one at the line that called it."""


# The subsets a board's states asked for, by call site and items (`subsets`): a table of the board.
SUBSETS_TABLE: Final = "rt.subsets"
# At most so many subsets in a list remembered so (its items are at most SMALL_LIST).
SMALL_SUBSETS: Final = 1024


def subsets(state: Any, items: Collection[T], least: int, most: int, where: str) -> list[tuple[T, ...]]:
    """Every way to take between `least` and `most` of `items` (a subset choice: the tiles a
    player swaps), each once: equal items are alike, so `[red, red, blue]` gives `[red]` once.
    Each is a list in increasing order; the smallest come first, then in order item by item.
    How many there are is counted before any is made: more than MAX_ITEMS is a game error, and
    the work of counting and making them is charged to the budget of the move.

    The same items give the same subsets: made once, they are remembered in a table of the
    state's board by call site (`where`: one type of item) and items, and found there after
    that, their work charged again as it was when they were made (Yellow & Yangtze lists the
    swaps of a rack of six tiles at every turn, a rack of a few dozen kinds of six)."""
    walk(state, items, 1, where)  # (at most MAX_ITEMS, each grouped once)
    board = getattr(state, "board", None)
    if board is None or len(items) > SMALL_LIST:  # (a few small lists are remembered, never a long one)
        return _subsets(state, items, least, most, where)[2]
    table = board.tables.values.get(SUBSETS_TABLE) or board.tables.value_table(SUBSETS_TABLE)
    key = (where, least, most, tuple(items))
    found: tuple[int, int, list[tuple[T, ...]]] | None = table.get(key)
    if found is None:
        found = _subsets(state, items, least, most, where)
        if len(found[2]) <= SMALL_SUBSETS:
            remember(table, key, found, board)
    else:
        counting, making, _ = found
        if counting >= 0:
            spend(state, counting, where)
            spend(state, making, where)
    return found[2]


def _subsets(state: Any, items: Collection[T], least: int, most: int,
             where: str) -> tuple[int, int, list[tuple[T, ...]]]:
    """`subsets`, made: the work charged to count them (-1 where none is counted) and to make
    them, and the subsets."""
    groups: dict[Any, int] = {}
    for item in items:
        groups[item] = groups.get(item, 0) + 1
    distinct = sorted(groups, key=sort_key)
    least, most = max(least, 0), min(most, len(items))
    if least > most:
        return -1, 0, []
    # how many of each size up to `most`: the product of (1 + x + ... + x^m) over the distinct items
    counting = len(distinct) * (most + 1)
    spend(state, counting, where)
    ways = [1] + [0] * most
    for item in distinct:
        grown_ways = ways[:]
        for size in range(most + 1):
            for k in range(1, min(groups[item], size) + 1):
                grown_ways[size] += ways[size - k]
        ways = grown_ways
    count = sum(ways[least:most + 1])
    if count > MAX_ITEMS:
        raise GameError(where, f"{_shown(count)} subsets, more than the limit of {MAX_ITEMS:,} items "
                               "a list, set or range may hold")
    making = count * (len(distinct) + most)
    spend(state, making, where)
    out: list[tuple[T, ...]] = []
    left = [0] * (len(distinct) + 1)  # how many items there are from the i-th distinct one on
    for i in reversed(range(len(distinct))):
        left[i] = left[i + 1] + groups[distinct[i]]
    todo: list[tuple[int, tuple[T, ...]]] = [(0, ())]
    while todo:  # (a loop, not recursion: there may be thousands of distinct items)
        i, chosen = todo.pop()
        if i == len(distinct):
            out.append(chosen)
            continue
        for k in range(groups[distinct[i]], -1, -1):
            size = len(chosen) + k
            if size <= most and size + left[i + 1] >= least:
                todo.append((i + 1, chosen + (distinct[i],) * k))
    out.sort(key=lambda s: (len(s), sort_key(s)))
    return counting, making, out
