"""The one source of chance: a small seeded generator whose whole state is one integer.

SplitMix64 (Steele, Lea, Flood 2014): fast in pure Python, trivially cloned and serialised,
and the same on every platform and Python version, which `random.Random` does not promise.
"""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    # `forced`: outcomes a scenario fixes (docs/scenarios.md, "Fixing chance"), consulted by the
    # mechanics before the generator; None, one attribute test per chance, when nothing is forced.
    __slots__ = ("state", "forced")

    def __init__(self, seed: int) -> None:
        self.state = _mix(seed & _MASK)
        self.forced: dict[str, list[tuple[Any, str]]] | None = None

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        # _mix, written out: this is the hottest call of a random playout
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (modulo bias below 2**-50 for any n used in games)."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        # next64 and _mix, written out (one call per number drawn instead of three)
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def copy(self) -> Rng:
        # Made through __init__ and then overwritten: `Rng.__new__(Rng)` would run __init__ anyway
        # on the class compiled by mypyc (the native build, docs/native.md), without its seed.
        other = Rng(0)
        other.state = self.state
        other.forced = None if self.forced is None else {k: list(v) for k, v in self.forced.items()}
        return other


def derive_seed(seed: int, index: int) -> int:
    """The seed of game number `index` of a batch started with `seed` (order-independent)."""
    return _mix((seed * 0x100000001B3 + index * _GOLDEN + 1) & _MASK) >> 1
