"""The one source of chance: a small seeded generator whose whole state is one integer.

SplitMix64 (Steele, Lea, Flood 2014): fast in pure Python, trivially cloned and serialised,
and the same on every platform and Python version, which `random.Random` does not promise.
"""

from __future__ import annotations

from types import FunctionType
from typing import Any, Final

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_MUL1: Final = 0xBF58476D1CE4E5B9
_MUL2: Final = 0x94D049BB133111EB


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _MUL1) & _MASK
    z = ((z ^ (z >> 27)) * _MUL2) & _MASK
    return z ^ (z >> 31)


# Compiled by mypyc (the native build, docs/native.md), an int of 62 bits or more is a Python
# object and each operation on it a call that makes a new one, and a product is worked out in
# machine arithmetic only when both its factors are under 2**30: `below`'s dozen operations on
# 64-bit numbers were a sixth of a native Cornett game. There `below` works on the numbers' limbs
# of 22, 22 and 20 bits instead (bits 0-21, 22-43, 44-63), every factor under 2**22 and every
# intermediate value under 2**47: the same numbers (tests/test_native_paths.py compares the two
# ways for every kind of state), in some seventy operations on machine integers and four on the
# state itself (two when the state is the one it wrote last: its limbs are kept). Interpreted each
# operation is a bytecode, so there the plain arithmetic stays.
_NATIVE: Final = not isinstance(_mix, FunctionType)
_M22: Final = (1 << 22) - 1
_M20: Final = (1 << 20) - 1
_LIMBS_BELOW: Final = 1 << 30  # for n up to this the remainders multiplied stay under 2**30


# The limbs of the constants (bits 0-21, 22-43, 44-63)
_G0: Final = _GOLDEN & _M22
_G1: Final = (_GOLDEN >> 22) & _M22
_G2: Final = _GOLDEN >> 44
_A0: Final = _MUL1 & _M22
_A1: Final = (_MUL1 >> 22) & _M22
_A2: Final = _MUL1 >> 44
_B0: Final = _MUL2 & _M22
_B1: Final = (_MUL2 >> 22) & _M22
_B2: Final = _MUL2 >> 44


def _xorshift_times(a: int, b: int, c: int, shift: int, k0: int, k1: int, k2: int) -> tuple[int, int, int]:
    """The limbs of (z ^ (z >> (22 + shift))) * k (mod 2**64) for z, k of limbs a, b, c and k0, k1,
    k2 (Rng._below_limbs; 0 < shift < 22: the bits shifted down are those of b from its bit
    `shift`, and of c)."""
    a ^= ((b >> shift) | (c << (22 - shift))) & _M22
    b ^= c >> shift
    low = a * k0
    mid = a * k1 + b * k0 + (low >> 22)
    return low & _M22, mid & _M22, (a * k2 + b * k1 + c * k0 + (mid >> 22)) & _M20


def _mix_limbs(z: int) -> int:
    """`_mix(z)` on the limbs of z (below `_MASK`), as `Rng._below_limbs` draws: natively six
    operations on the number as an object instead of ten, of which two products of 64 bits (a new
    state seeded once per game: a twentieth of a native liar's dice game)."""
    a, b, c = _xorshift_times(z & _M22, (z >> 22) & _M22, z >> 44, 8, _A0, _A1, _A2)  # z ^= z >> 30; z *= _MUL1
    a, b, c = _xorshift_times(a, b, c, 5, _B0, _B1, _B2)  # z ^= z >> 27; z *= _MUL2
    a ^= ((b >> 9) | (c << 13)) & _M22  # z ^= z >> 31
    b ^= c >> 9
    return (c << 44) | (b << 22) | a


class Rng:
    # `forced`: outcomes a scenario fixes (docs/scenarios.md, "Fixing chance"), consulted by the
    # mechanics before the generator; None, one attribute test per chance, when nothing is forced.
    # `_known`, `_a`, `_b`, `_c`: the native build's (_below_limbs): the state it last wrote and that
    # state's limbs, so that the next draw need not take the state (an object to the compiled code)
    # apart again; untouched interpreted.
    __slots__ = ("state", "forced", "_known", "_a", "_b", "_c")

    def __init__(self, seed: int) -> None:
        self.state = _mix_limbs(seed & _MASK) if _NATIVE else _mix(seed & _MASK)
        self.forced: dict[str, list[tuple[Any, str]]] | None = None
        if _NATIVE:
            self._known = -1
            self._a = self._b = self._c = 0

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        # _mix, written out: this is the hottest call of a random playout
        z = ((z ^ (z >> 30)) * _MUL1) & _MASK
        z = ((z ^ (z >> 27)) * _MUL2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (modulo bias below 2**-50 for any n used in games)."""
        if _NATIVE and 0 < n <= _LIMBS_BELOW:
            return self._below_limbs(n)
        self.state = z = (self.state + _GOLDEN) & _MASK
        # next64 and _mix, written out (one call per number drawn instead of three)
        z = ((z ^ (z >> 30)) * _MUL1) & _MASK
        z = ((z ^ (z >> 27)) * _MUL2) & _MASK
        return (z ^ (z >> 31)) % n

    def _below_limbs(self, n: int) -> int:
        """`below(n)` for 0 < n <= 2**30, on 22-bit limbs a, b, c of the 64-bit numbers (see _NATIVE)."""
        state = self.state
        if state is self._known:  # (the state this method wrote last, unchanged since: its limbs kept)
            a, b, c = self._a, self._b, self._c
        else:
            high = state >> 22
            a, b, c = state & _M22, high & _M22, high >> 22
        a += _G0  # state + _GOLDEN (mod 2**64), carried limb to limb
        b += _G1 + (a >> 22)
        c = (c + _G2 + (b >> 22)) & _M20
        a &= _M22
        b &= _M22
        self.state = self._known = (c << 44) | (b << 22) | a
        self._a, self._b, self._c = a, b, c
        a, b, c = _xorshift_times(a, b, c, 8, _A0, _A1, _A2)  # z ^= z >> 30; z *= _MUL1 (mod 2**64)
        a, b, c = _xorshift_times(a, b, c, 5, _B0, _B1, _B2)  # z ^= z >> 27; z *= _MUL2 (mod 2**64)
        # z ^= z >> 31, then z % n, as (c * 2**44 + b * 2**22 + a) % n
        a ^= ((b >> 9) | (c << 13)) & _M22
        b ^= c >> 9
        return ((c % n) * ((1 << 44) % n) + (b % n) * ((1 << 22) % n) + a) % n

    def copy(self) -> Rng:
        # Made through __init__ and then overwritten: `Rng.__new__(Rng)` would run __init__ anyway
        # on the class compiled by mypyc (the native build, docs/native.md), without its seed.
        other = Rng(0)
        other.state = self.state
        other.forced = None if self.forced is None else {k: list(v) for k, v in self.forced.items()}
        return other

    # `copy.copy` and `copy.deepcopy` (an agent copied with its generator: `play`'s undo) go by
    # `copy`: their default way, through `__reduce_ex__`, makes the object without its seed, which
    # the class compiled by mypyc refuses.
    def __copy__(self) -> Rng:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Rng:
        return self.copy()


def derive_seed(seed: int, index: int) -> int:
    """The seed of game number `index` of a batch started with `seed` (order-independent)."""
    return _mix((seed * 0x100000001B3 + index * _GOLDEN + 1) & _MASK) >> 1
