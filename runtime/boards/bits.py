"""Bit masks read a byte (or, natively, a bit) at a time: what the set bits of a mask stand for (the
spots of a board, the lines of a hex board), in bit order. Shared by every kind of board.
"""

from __future__ import annotations

from types import FunctionType
from typing import Any, Final

# The widest bitboard whose line searches read a mask a byte at a time (HexBoard._lines_of_mask): the
# bundled boards' are 85 to 236 bits, the largest a board may be (a hexagon of side 20, a hex map
# of 26 rows of 40 places) some 1,500.
BYTE_LOOKUP_BITS: Final = 512


def _byte_lookup(at: dict[int, Any]) -> list[list[tuple[Any, ...]]]:
    """For each byte of a bit mask and each of its 256 values, what `at` gives for its set bits
    (by bit position), lowest first: a mask's items a byte at a time (_gather)."""
    nothing: list[tuple[Any, ...]] = [()] * 256  # (shared by the bytes that stand for no item)
    lookup: list[list[tuple[Any, ...]]] = []
    for k in range(max(at, default=0) // 8 + 1):
        items = [(at[8 * k + i],) if 8 * k + i in at else () for i in range(8)]
        if not any(items):
            lookup.append(nothing)
            continue
        table = nothing[:]
        for v in range(1, 256):  # a value's items: those of its lowest bit, then those of the rest
            low = (v & -v).bit_length() - 1
            table[v] = items[low] + table[v & (v - 1)]
        lookup.append(table)
    return lookup


def _gather(lookup: list[list[tuple[Any, ...]]], mask: int) -> list[Any]:
    """What the set bits of `mask` stand for (its lookup: _byte_lookup), lowest bit first."""
    # A loop over the bytes, not map(list.__getitem__, lookup, bytes): as fast interpreted and
    # some 1.5 times as fast on the native build (docs/native.md), whose list and bytes indexing
    # by a machine integer is a C call, where map's is a call through Python.
    found: list[Any] = []
    k = 0
    for byte in mask.to_bytes(len(lookup), "little"):
        if byte:
            found += lookup[k][byte]
        k += 1
    return found


def _bit_lookup(at: dict[int, Any]) -> list[Any]:
    """What `at` gives for each bit of a mask, by bit position (None for none), as many bits as
    _byte_lookup's bytes hold: the native build's lookup (_gather_bits)."""
    return [at.get(b) for b in range(8 * (max(at, default=0) // 8 + 1))]


def _gather_bits(found: list[Any], lookup: list[Any], mask: int) -> None:
    """_gather on the native build: append to `found` what the set bits of `mask` stand for, lowest
    bit first, each bit of a byte found by its bit_length. Compiled, this is machine arithmetic on
    a byte, where _gather's tables (a tuple for each of 256 values of each byte, some hundred
    thousand bytes a board) miss the processor's cache: they were a tenth of a native Cornett
    game. Interpreted, each bit is a few bytecodes, so there _gather's tables stay."""
    k = -1
    for byte in mask.to_bytes(len(lookup) // 8, "little"):
        while byte:
            low = byte & -byte
            item = lookup[k + low.bit_length()]
            if item is not None:
                found.append(item)
            byte ^= low
        k += 8


# Whether this module is compiled by mypyc (the native build, docs/native.md): a compiled function
# is not a Python function.
_NATIVE: Final = not isinstance(_gather_bits, FunctionType)
