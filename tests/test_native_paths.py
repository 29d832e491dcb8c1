"""The runtime's native-only paths (docs/native.md, "What the generated code and the runtime do
for it"), taken where a module is compiled by mypyc, give what the interpreted paths give:

- the generator's limb arithmetic (runtime/rng.py, `_below_limbs`) draws the very numbers the
  plain arithmetic draws, and leaves the same state, for states and bounds of every kind; a seed
  mixed on the limbs (`_mix_limbs`) is the state the plain arithmetic makes of it;
- a mask's spots and lines found bit by bit (runtime/boards/bits.py, `_gather_bits`) are those of the
  byte tables, in the same order, on every kind of board.

Here they are run interpreted, switched on by hand; tests/test_native.py compares the native
build's games and numbers with the interpreted ones.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rulewright
from rulewright.runtime import rng
from rulewright.runtime.boards import HexBoard, base, hexagon
from rulewright.runtime.rng import Rng

MASK = (1 << 64) - 1


def _plain(state: int, n: int) -> tuple[int, int]:
    """below(n) of a generator in `state`, by the plain arithmetic: (the number, the new state)."""
    z = state = (state + rng._GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return (z ^ (z >> 31)) % n, state


def _states(r: random.Random) -> list[int]:
    edges = [0, 1, MASK, MASK - 1, (1 << 62) - 1, 1 << 62, (1 << 44) - 1, 1 << 44, (1 << 22) - 1, 1 << 22,
             (-rng._GOLDEN) & MASK, ((-rng._GOLDEN) - 1) & MASK, ((-rng._GOLDEN) + 1) & MASK]
    return edges + [r.getrandbits(64) for _ in range(3000)] + [r.getrandbits(r.randrange(1, 64)) for _ in range(1000)]


def test_the_limbs_draw_the_plain_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each state taken apart into limbs (a state set from outside), and drawn from again with the
    limbs kept (the state the method wrote), or set again to an equal number."""
    monkeypatch.setattr(rng, "_NATIVE", True)  # (the limbs kept are made by __init__ on the native build)
    r = random.Random(15)
    bounds = [1, 2, 3, 4, 6, 7, 39, 88, 1000, (1 << 22) + 1, (1 << 29) + 3, (1 << 30) - 1, 1 << 30]
    for state in _states(r):
        for n in [*bounds, r.randrange(1, 1 << 30)]:
            limbs = Rng(0)
            limbs.state = state
            first, after = _plain(state, n)
            assert (limbs._below_limbs(n), limbs.state) == (first, after), (state, n)
            second, after = _plain(after, n)
            assert (limbs._below_limbs(n), limbs.state) == (second, after), (state, n)
            limbs.state = int(str(after))  # (an equal number, another object)
            assert (limbs._below_limbs(n), limbs.state) == _plain(after, n), (state, n)


def test_a_seed_mixed_on_the_limbs_is_mixed_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new generator's state (`Rng(seed)`: `_mix_limbs` on the native build, `_mix` interpreted) is
    the same number either way, for seeds of every size (negative ones as the mask leaves them)."""
    r = random.Random(16)
    seeds = [*_states(r), -1, -(1 << 70), (1 << 70) + 5]
    plain = [Rng(seed).state for seed in seeds]
    assert plain == [rng._mix(seed & MASK) for seed in seeds] and not rng._NATIVE
    monkeypatch.setattr(rng, "_NATIVE", True)
    assert [Rng(seed).state for seed in seeds] == plain


def test_below_is_the_plain_arithmetic_on_either_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """below() takes the limbs only on the native build, and for 0 < n <= 2**30; the same
    sequence either way, and the plain arithmetic's refusal of n = 0 kept."""
    ns = [2, 6, 3, 39, 88, 1 << 30, (1 << 30) + 1, 1 << 40, 5]
    plain = Rng(3)
    drawn = [plain.below(n) for n in ns * 50]
    assert not rng._NATIVE  # (the suite's interpreted run; the native run compares in test_native.py)
    assert not hasattr(plain, "_known")  # (interpreted, the limbs are never kept)
    monkeypatch.setattr(rng, "_NATIVE", True)
    limbs = Rng(3)
    assert [limbs.below(n) for n in ns * 50] == drawn
    assert limbs.state == plain.state
    with pytest.raises(ZeroDivisionError):
        limbs.below(0)


@pytest.mark.parametrize("ruleset", ["china-cornett", "china-schacht", "yellow-yangtze", "chang-cheng", "mandarin"])
def test_the_spots_and_lines_of_a_mask_bit_by_bit(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = rulewright.load(ruleset)
    board = game.new_state(game.info.players[0], 1).board
    r = random.Random(ruleset)
    masks = [0, board.all_mask, *(board.spots_mask(s for s in board.spots if r.random() < p)
                                  for p in (0.05, 0.3, 0.5, 0.8, 0.95) for _ in range(40))]
    lengths = range(board.longest + 1) if isinstance(board, HexBoard) else range(0)

    def found() -> list[Any]:
        return [(board.mask_spots(m), [(board.straight_lines_mask(n, m), board.straight_line_numbers_mask(n, m))
                                       for n in lengths]) for m in masks]

    by_bytes = found()
    monkeypatch.setattr(base, "_NATIVE", True)  # (both modules that read a mask bit by bit natively)
    monkeypatch.setattr(hexagon, "_NATIVE", True)
    assert found() == by_bytes
    assert board.tables.bit_spots is not None  # (the bit lookup made: the native path taken)
    assert by_bytes[1][0] == list(board.spots)
    if isinstance(board, HexBoard):
        assert by_bytes[1][1][3][0] == board.straight_lines(3, board.spots)
