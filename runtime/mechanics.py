"""The mechanics library: typed functions that rule files call by name.

The compiler's signature table (compiler/signatures.py) says how each is typed and called;
generated code calls them through `rulewright.runtime`. Chance is only ever drawn here, from
the state's own generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .rng import Rng


def throw(rng: Rng, dice: Iterable[int], faces: Sequence[Sequence[int]]) -> int:
    """Throw every die in `dice` (indices into `faces`) and add the faces that land up.

    Dice are thrown in index order so that a game replays the same from its seed.
    """
    total = 0
    for die in sorted(dice):
        sides = faces[die]
        total += sides[rng.below(len(sides))]
    return total
