"""Stage 5b's analyses: facts about a typed program (compiler/typed.py) that several passes, or a
pass and lowering, read, kept apart from the passes that act on them (docs/optimiser.md,
"The analyses").

Nothing here decides anything: an analysis reads the program and answers; it imports no pass
(compiler/passes/) and no lowering. The passes are given a `Facts` of the program they run on,
built once by `passes.optimise` and again only when a pass hands on a new program, so that an
analysis several passes ask is computed once per program.
"""

from __future__ import annotations

from .. import typed as t
from .reads import Dependencies, analyse


class Facts:
    """The shared analyses of one program, each computed the first time a pass asks it."""

    __slots__ = ("program", "enabled", "_dependencies")

    def __init__(self, program: t.TypedProgram, enabled: frozenset[str]) -> None:
        self.program = program
        # the passes that run (a pass may leave to one that will what that one does better)
        self.enabled = enabled
        self._dependencies: Dependencies | None = None

    @property
    def dependencies(self) -> Dependencies:
        """What every definition, the end and each scoring term read, and what each procedure
        writes (compiler/analysis/reads.py)."""
        if self._dependencies is None:
            self._dependencies = analyse(self.program)
        return self._dependencies
