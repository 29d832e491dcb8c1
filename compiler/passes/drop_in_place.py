"""Pass `drop_in_place`: a state that no copy shares its dicts of kept values with drops values from
them in place, not from a copy of each (docs/optimiser.md).

`keep_derived` keeps the values of a definition with parameters in a dict, and a change of a field at
one entity (or of a set by one item, or at one spot) drops the values of that entity only
(`rt.without_key`). A clone shares the dicts of the state it copies (copying them at every clone
would cost more), so each drop makes a new dict, for any state: Mandarin copied three dicts at
every tile gained or lost (`complete`, `controller`, `rent`), in games where no state is ever
copied. With this pass (its decision: `TypedProgram.drops_in_place`, said of the program, which
stands for the state that holds every kept value) the state holds `_kept_shared`: False while
no copy can share its dicts (a new state; one that has forgotten every kept value, `_fields_set`), set on both states by
`clone` (`_copy_fields`); a drop for one key pops the value from the dict itself when it is False
and drops it from a copy as before when it is True (compiler/lower/effects.py `_dropped_at`), and
`rt.without_keys` (the regions holding a spot) is told it.

Why it is safe: a dict is shared only through `_copy_fields`, which makes both states say so; a
state that says no copy shares its dicts made every dict it holds itself since it last forgot
them all, after any copy was made, so no other state reads them, and changing one in place drops
exactly what the copy would have lacked. A state once copied drops from copies as before.
"""

from __future__ import annotations

from dataclasses import replace

from .. import typed as t
from ..analysis import Facts


def run(program: t.TypedProgram, facts: Facts) -> t.TypedProgram:
    if "keep_derived" not in facts.enabled:
        return program
    return replace(program, drops_in_place=True)
