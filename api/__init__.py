"""rulewright: board-game rules written as data, compiled to fast, typed Python games.

    import rulewright
    game = rulewright.load("china-cornett")
    state = game.new_state(players=2, seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])

The functions that find and load a game (`load`, `load_rules`, `load_named`, `load_module_file`,
`game_from_source`) are those of rulewright.loading, which says what each runs; the errors those
of the runtime (runtime/errors.py) and of the diagnostics (core/source.py).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .core._version import __version__

# A thin root: importing rulewright (and so any generated game, any runtime module) loads this
# module and core/_version.py only (with core/__init__.py, which imports nothing). The compiler,
# the native build's machinery, the runtime and even pathlib are imported by what uses them; the
# names below on first use (`__getattr__`). No module of rulewright imports them from here: they
# import the module that defines each (tests/test_layers.py: no cycle through the root).
if TYPE_CHECKING:
    from .core.source import CompileError
    from .loading import game_from_source, load, load_module_file, load_named, load_rules
    from .runtime.errors import BadSetup, GameError, IllegalAction, RulewrightError

# With RULEWRIGHT_NATIVE set, first of all: native.py then makes the runtime and generated modules
# those of the native build of the current sources (docs/native.md), before anything imports
# them; it decides what the value asks for (`0` or empty: nothing).
if "RULEWRIGHT_NATIVE" in os.environ:
    from . import native  # noqa: F401

__all__ = [
    "BadSetup", "CompileError", "GameError", "IllegalAction", "RulewrightError", "__version__",
    "load", "load_module_file", "load_named", "load_rules", "game_from_source",
]

# The names this module gives, and the module that defines each.
_NAMES = {"BadSetup": "runtime.errors", "GameError": "runtime.errors", "IllegalAction": "runtime.errors",
          "RulewrightError": "runtime.errors", "CompileError": "core.source",
          "load": "loading", "load_module_file": "loading", "load_named": "loading", "load_rules": "loading",
          "game_from_source": "loading"}


def __getattr__(name: str) -> Any:
    """`rulewright.load`, `rulewright.BadSetup`, ...: imported when first asked for."""
    import importlib

    where = _NAMES.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value
    return value
