"""The mechanics library: typed functions that rule files call by name.

The compiler declares each built-in once (compiler/builtins/library.py): how it is typed and called;
generated code calls them through `rulewright.runtime`. Chance is only ever drawn here, from
the state's own generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from .errors import GameError, RulewrightError
from .kept import ENTRY, MAX_TABLED, OBJECT, made
from .limits import MAX_ITEMS, MAX_STEPS, SMALL_LIST, walk
from .order import sort_key
from .rng import Rng

# What `rulewright.runtime` exports of this module, for generated code (`rt.majority(...)`): the
# function a new built-in calls is named here too, and imported by name in runtime/__init__.py.
__all__ = ["add_at", "coin", "die", "draw", "draw_from", "drawn_out", "majority", "put", "ranked",
           "throw", "value_of", "without",
           "held"]  # a field keeps its declared type in the native build (docs/native.md)
__all__ += ["next_seat", "other_seat", "previous_seat", "seat_at", "seat_number"]  # seat arithmetic (issue 37)
__all__ += ["remember_item"]  # the rows of pass `remember_list_changes`

# The item type of a list or set a rule passes (compiler/builtins/library.py's `T`): an int, a bool, or
# a tuple or frozenset of them (a list of lists, a list of sets: docs/language.md, "Values").
T = TypeVar("T")


def throw(rng: Rng, dice: Iterable[int], faces: Sequence[Sequence[int]]) -> int:
    """Throw every die in `dice` (indices into `faces`) and add the faces that land up.

    Dice are thrown in index order so that a game replays the same from its seed.
    """
    if rng.forced is not None:
        return _forced_throw(rng, dice, faces)
    total = 0
    for die in sorted(dice):
        sides = faces[die]
        total += sides[rng.below(len(sides))]
    return total


def die(rng: Rng, faces: int) -> int:
    """A die roll, 1 to `faces`."""
    if rng.forced is not None:
        if not rng.forced.get("die"):
            return 1 + _below(rng, max(1, faces), None)
        value, shown = _forced(rng, "die")
        if not 1 <= value <= faces:
            raise RulewrightError(f"forced die {shown} cannot happen: the die has faces 1 to {faces}")
        return int(value)
    return 1 + rng.below(max(1, faces))


def coin(rng: Rng) -> bool:
    if rng.forced is not None:
        if not rng.forced.get("coin"):
            return _below(rng, 2, None) == 1
        return bool(_forced(rng, "coin")[0])
    return rng.below(2) == 1


def draw(rng: Rng, items: Iterable[T]) -> T:
    """One of `items` at random, taken in sorted order so a game replays from its seed.
    Drawing from nothing is a rule set's error, reported as such."""
    pool: list[Any] = list(items)
    if not pool:
        raise RulewrightError("draw() from an empty set: the rules must check that something is left")
    if isinstance(pool[0], int):
        pool.sort()  # numbers (entities, values): the usual case, kept quick
    else:
        pool.sort(key=sort_key)  # lists, sets, records, none: one total order (Python's `<` on sets is inclusion)
    if rng.forced is not None:
        forced: T = _forced_draw(rng, pool)
        return forced
    item: T = pool[rng.below(len(pool))]
    return item


def without(items: Sequence[T], item: T) -> list[T]:
    """`items` with its first copy of `item` taken out."""
    out = list(items)
    if item in out:
        out.remove(item)
    return out


def remember_item(table: dict[Any, Any], items: Sequence[int], item: int, value: Sequence[int], kinds: int,
                  board: Any) -> None:
    """Remember in `table` what a list of values of an enumeration of `kinds` values, `items`,
    becomes by `item` (joined and sorted, or taken out: the table says which), `value`, as the plain
    code made it: item `item` of the list's row, a list of `kinds` slots (None where not yet met) made
    the first time the list is met (pass `remember_list_changes`). Charged to the board as
    `rt.remember` charges what it keeps, from the lengths (tuples of small ints): the row as it is
    made, a key, a list of `kinds` slots and an entry, then each value as it fills its slot; the table
    emptied first when full."""
    row = table.get(items)
    if row is None:
        made(board, 2 * OBJECT + len(items) + kinds + ENTRY)
        if len(table) >= MAX_TABLED:
            table.clear()
        row = table[items] = [None] * kinds
    made(board, OBJECT + len(value))
    row[item] = value


def draw_from(rng: Rng, items: Sequence[T]) -> T:
    """One item of a list at random: the list is read as an unordered pile (a shuffled deck)."""
    if not items:
        raise RulewrightError("draw_from() an empty list: the rules must check that something is left")
    if rng.forced is not None:
        chosen: T = _forced_draw(rng, items)
        return chosen
    return items[rng.below(len(items))]


def drawn_out(state: Any, rng: Rng, items: Sequence[T], where: str) -> tuple[T, Sequence[T]]:
    """`let c = draw_from(items)` and then `items = without(items, c)` at once (pass `draw_out`): the
    item drawn and the list without its first copy of it (a tuple, as `tuple(without(...))` makes),
    the list counted against the budget of the move between the two when it holds more than
    SMALL_LIST items, as generated code counts it before `without` (`rt.walk`, rule line `where`)."""
    if rng.forced is None and items:
        item: T = items[rng.below(len(items))]
    else:
        item = draw_from(rng, items)
    n = len(items)
    if n > SMALL_LIST:  # `rt.walk(state, items, 1, where)`, written out
        try:
            left = state._budget - n
        except AttributeError:  # (a state no move was begun in: a fresh budget, as `walk` takes it)
            left = MAX_STEPS - n
        if left < 0 or n > MAX_ITEMS:
            walk(state, items, 1, where)  # (raises, as it would have: over the limit of items or of work)
        state._budget = left
    try:
        i = items.index(item)  # (the first copy, found as `without` finds it: `list.remove`'s test)
    except ValueError:  # (a forced draw is one of the items: never)
        return item, tuple(items)
    if isinstance(items, tuple):
        return item, items[:i] + items[i + 1:]
    return item, (*items[:i], *items[i + 1:])


# -- chance a scenario fixes (docs/scenarios.md, "Fixing chance") --------------------------------
# `rng.forced` maps a kind of chance (die, throw, coin, draw) to the outcomes still to come, each
# `(value, shown)`: the value in the game's representation and the words the scenario used. A
# mechanic takes the next outcome of its kind before the generator, and checks it can happen.
#
# Under the key OUTCOMES it holds instead the outcome of every draw, by position: the game's chance
# made explicit, one draw at a time (rulewright.interop: OpenSpiel's chance nodes). Each draw the
# generator would make, `below(n)`, takes the next `(index, "")` of that list (a die rolls 1 +
# index, a draw takes item `index` of its sorted pool); when the list is used up, the draw raises
# ChanceNeeded with its n outcomes, and nothing is drawn.
OUTCOMES = "outcomes"


class ChanceNeeded(RulewrightError):
    """A draw met with no outcome left under `rng.forced[OUTCOMES]`: `n` outcomes, each as likely,
    index i giving `items[i]` (None: the index is the outcome, a die's face less one or a coin)."""

    def __init__(self, n: int, items: Sequence[Any] | None) -> None:
        super().__init__(f"a draw of {n} outcomes with none given")
        self.n = n
        self.items = items


def _below(rng: Rng, n: int, items: Sequence[Any] | None) -> int:
    """`rng.below(n)` while something is forced: the next outcome of OUTCOMES if it is there."""
    assert rng.forced is not None
    script = rng.forced.get(OUTCOMES)
    if script is None:
        return rng.below(n)
    if not script:
        raise ChanceNeeded(n, items)
    index = script.pop(0)[0]
    if not (isinstance(index, int) and 0 <= index < n):
        raise RulewrightError(f"outcome {index!r} of a draw of {n} cannot happen")
    return index


def _forced(rng: Rng, kind: str) -> tuple[Any, str]:
    assert rng.forced is not None
    value, shown = rng.forced[kind].pop(0)
    return value, shown


def _forced_throw(rng: Rng, dice: Iterable[int], faces: Sequence[Sequence[int]]) -> int:
    thrown = sorted(dice)
    if not (rng.forced is not None and rng.forced.get("throw")):
        return sum(faces[d][_below(rng, len(faces[d]), faces[d])] for d in thrown)
    value, shown = _forced(rng, "throw")
    if isinstance(value, dict):  # the face each die shows
        if sorted(value) != thrown:
            raise RulewrightError(f"forced throw {shown} cannot happen: it names other dice than those thrown")
        for d, face in value.items():
            if face not in faces[d]:
                raise RulewrightError(f"forced throw {shown} cannot happen: a die shows {face}, which is not "
                                      f"one of its faces {list(faces[d])}")
        return sum(value.values())
    sums = {0}
    for d in thrown:
        sums = {t + f for t in sums for f in faces[d]}
    if value not in sums:
        raise RulewrightError(f"forced throw {shown} cannot happen: the dice thrown show one of "
                              f"{sorted(sums)}")
    return int(value)


def _forced_draw(rng: Rng, pool: Sequence[Any]) -> Any:
    if not (rng.forced is not None and rng.forced.get("draw")):
        return pool[_below(rng, len(pool), pool)]
    value, shown = _forced(rng, "draw")
    if value not in pool:
        raise RulewrightError(f"forced draw {shown} cannot happen: it is not among the {len(pool)} "
                              f"item(s) drawn from")
    return value


def majority(counts: Sequence[int]) -> tuple[int, ...]:
    """The seats (indices of `counts`) holding the most, all of them on a tie, in seat order;
    nobody when the most is nothing (no one leads with none)."""
    if not counts:
        return ()
    most = max(counts)
    if most <= 0:
        return ()
    return tuple(p for p, n in enumerate(counts) if n == most)


def ranked(counts: Sequence[int], place: int) -> tuple[int, ...]:
    """The seats (indices of `counts`) in `place` (1: the most), in seat order. Tied seats share
    a place and the next count down takes the next place (3, 3, 2: seats 0 and 1 first, seat 2
    second), as China's rulebook places the second; a seat holding nothing has no place."""
    if place < 1:
        return ()
    held = sorted({n for n in counts if n > 0}, reverse=True)
    if place > len(held):
        return ()
    wanted = held[place - 1]
    return tuple(p for p, n in enumerate(counts) if n == wanted)


# -- records, optional values and item assignment (docs/language.md, "Records", "Optional values") --
def value_of(x: T | None, where: str) -> T:
    """The value an optional holds; `none` is a game error at the rule line `where`."""
    if x is None:
        raise GameError(where, "value_of(...) of `none`: the rules must check `x != none` first")
    return x


def put(items: Sequence[T], index: int, item: T) -> tuple[T, ...]:
    """The list with item `index` replaced (`xs[i] = v`: a list is a tuple, so it is rebuilt).
    An index outside the list is a fault of the rules (IndexError, told by its rule line), never
    a list grown or an item counted from the end."""
    if not 0 <= index < len(items):
        raise IndexError("list index out of range")
    return (*items[:index], item, *items[index + 1:])


def add_at(items: Sequence[int], index: int, amount: int, where: str) -> tuple[int, ...]:
    """`xs[i] += n`: the list with `n` added to item i (a number of 64 bits at most, as stored)."""
    from .limits import num

    if not 0 <= index < len(items):
        raise IndexError("list index out of range")
    return put(items, index, num(items[index] + amount, where))


def held(value: Any) -> Any:
    """`value`, as the field it is assigned to is declared (generated code: `self.f = rt.held(...)`).
    mypy narrows a field to the type of what was last assigned to it (`()`: an empty tuple;
    `None`) for the rest of the method, though a call may change the field meanwhile; the
    native build (docs/native.md) trusts that narrowing and would reject the new value. Through
    this function the field keeps its declared type. Used for optional fields and lists written
    as tuple displays only."""
    return value


# -- seat arithmetic (issue 37): seats are numbered from 1 in the rules, as players are shown (`P1`),
# and from 0 in the state; the neutral seats (`neutral:`) come after the players and never take a turn.

def seat_number(p: int) -> int:
    """The number a rule reads of a seat (`seat(p)`): 1 for the first player."""
    return p + 1


def seat_at(number: int, players: int, seats: int, where: str) -> int:
    """The seat numbered `number` (1 for the first player, `players + 1` for the first neutral seat);
    a number of no seat is a game error at the rule line `where`."""
    if not 1 <= number <= seats:
        raise GameError(where, f"seat_at({number}): this game has seats 1 to {seats}"
                        + (f" ({players} players, then the neutral seats)" if seats > players else ""))
    return number - 1


def _a_player(p: int, players: int, what: str, where: str) -> None:
    if not 0 <= p < players:
        raise GameError(where, f"{what} of a neutral seat (seat {p + 1}): a neutral seat takes no turn")


def next_seat(p: int, players: int, where: str) -> int:
    """The player after `p`, clockwise (to the left), the first after the last; a neutral seat has none."""
    _a_player(p, players, "next_seat(p)", where)
    return p + 1 if p + 1 < players else 0


def previous_seat(p: int, players: int, where: str) -> int:
    """The player before `p` (to the right), the last before the first; a neutral seat has none."""
    _a_player(p, players, "previous_seat(p)", where)
    return p - 1 if p > 0 else players - 1


def other_seat(p: int, players: int, where: str) -> int:
    """The other player of a two-player game; at more players, or of a neutral seat, a game error."""
    if players != 2:
        raise GameError(where, f"other(p) is the other player of two, and this game has {players}: "
                        "use next_seat(p) or previous_seat(p)")
    _a_player(p, players, "other(p)", where)
    return 1 - p
