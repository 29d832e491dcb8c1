"""What lowering proves of a value's size and of the work to compute it: the static half of
the limits of one move (runtime/limits.py, docs/language.md "Limits").

Lowering keeps `Facts` for every expression it writes: at most how many items a list or set
holds, how large a number can be, and how much work (steps: loop rounds, items handled) it
costs that no run-time check pays for. Code whose work is proven small runs unchecked: a loop
over the board's spots, over a field only ever assigned `[current]`, over an enumeration. What
is not proven gets a check from runtime/limits.py: `rt.walk` before a loop over a list whose
size only the game knows (in a rule that only reads the game, one check as it starts that such
lists are small, `rt.grown`, instead of one per loop), `rt.num` where a number may grow without
bound, `rt.spend` at the start of a rule whose proven work is large, `rt.div` for a divisor
that may be zero. What each list field can hold is learnt from every assignment to it:
lower.lower() walks the typed program again until what it assumed of the fields holds.

Numbers are bounded relative to U, the largest number the game has stored so far: a fact
(k, m) says |value| <= k + m * U. A value with m <= 1 and k <= MAX_INT may be stored unchecked:
then U grows by at most MAX_INT a store (`x += 1`, `x = y`), linearly, never exponentially
(`x = x + x` has m = 2 and is checked).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime.limits import MAX_INT

# Bounds at or above this are "no bound": arithmetic on bounds saturates here.
CAP = 1 << 100
# The work a loop (or an operation over a list) may do, and a whole rule (an action's effect,
# a definition, a scoring term) may do, unchecked. Above it, the loop is counted at run time
# (`rt.walk`) and the rule charges its proven work when it starts (`rt.spend`). A move runs a
# few rules (its listing, its effect, its triggers ...): unchecked, they do a few times this.
FREE_WORK = 50_000

Mag = tuple[int, int]  # (k, m): |value| <= k + m * U
STORED: Mag = (0, 1)  # a number read from the state: at most U
UNSAFE: Mag = (CAP, CAP)  # nothing is known


def sat(n: int) -> int:
    return n if n < CAP else CAP


@dataclass(frozen=True, slots=True)
class Facts:
    """cost: steps of unchecked work to compute the value; size: at most this many items (a
    list or set; None: not known); mag: how large a number can be; item: what the items of a
    list or set are; small: a list made from one the rule being lowered takes for small (it
    checks them as it starts), so no longer than SMALL_LIST in the rule's own accounting."""

    cost: int = 0
    size: int | None = None
    mag: Mag = UNSAFE
    item: Facts | None = None
    small: bool = False

    def plus(self, cost: int) -> Facts:
        """The same value, costing `cost` more steps."""
        return Facts(sat(self.cost + cost), self.size, self.mag, self.item, self.small)

    def priced(self, cost: int) -> Facts:
        """The same value, costing exactly `cost` steps."""
        return Facts(sat(cost), self.size, self.mag, self.item, self.small)

    def outside(self) -> Facts:
        """The value as another rule sees it (a definition's result): `small` held in this one only."""
        return Facts(self.cost, self.size, self.mag, self.item.outside() if self.item else None)


NOTHING = Facts()


def number(k: int, m: int = 0, cost: int = 0) -> Facts:
    return Facts(sat(cost), None, (sat(k), sat(m)), None)


def storable(mag: Mag) -> bool:
    """Whether a number may be stored (or passed as an argument) unchecked."""
    return mag[0] <= MAX_INT and mag[1] <= 1


def add_mag(a: Mag, b: Mag) -> Mag:
    return sat(a[0] + b[0]), sat(a[1] + b[1])


def join_mag(a: Mag, b: Mag) -> Mag:
    return max(a[0], b[0]), max(a[1], b[1])


def scale_mag(a: Mag, n: int) -> Mag:
    return sat(a[0] * n), sat(a[1] * n)


def mul_mag(a: Mag, b: Mag) -> Mag | None:
    """The bound of a product, or None when it needs a check: both factors grow with U (a
    square can repeat into an exponential), or the bound passes 64 bits."""
    if a[1] and b[1]:
        return None
    k, m = sat(a[0] * b[0]), sat(a[0] * b[1] + a[1] * b[0])
    if k > MAX_INT or m > MAX_INT:
        return None
    return k, m


def join(a: Facts, b: Facts) -> Facts:
    """What is known of a value that is one or the other (`x if c else y`, the items of a list
    literal); the cost is the larger."""
    size = None if a.size is None or b.size is None else max(a.size, b.size)
    item = None if a.item is None or b.item is None else join(a.item, b.item)  # None: not known
    return Facts(max(a.cost, b.cost), size, join_mag(a.mag, b.mag), item, a.small and b.small)


def at_most(a: Facts, b: Facts) -> bool:
    """Whether everything `a` allows, `b` allows too (sizes only: what the fields' bounds need)."""
    if b.size is not None and (a.size is None or a.size > b.size):
        return False
    if b.item is not None:
        return a.item is not None and at_most(a.item, b.item)
    return True


def loop_cost(size: int | None, per_item: int) -> int | None:
    """The unchecked work of a loop of `size` rounds costing `per_item` each, or None if it is
    too much (or not known) to leave unchecked."""
    if size is None:
        return None
    work = sat(size * per_item)
    return work if work <= FREE_WORK else None
