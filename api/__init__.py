"""rulewright: board-game rules written as data, compiled to fast, typed Python games.

    import rulewright
    game = rulewright.load("china-cornett")
    state = game.new_state(players=2, seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
"""

from __future__ import annotations

__version__ = "0.1.0"

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .runtime import Game


def load(ruleset: str) -> Game:
    """The compiled game of a bundled rule set (`china-cornett`, `mandarin/money`) or of a
    generated module file (`out/my_game/variant.py`)."""
    from .runtime.errors import BadSetup

    if ruleset.endswith(".py"):
        return load_module_file(Path(ruleset))
    game, _, variant = ruleset.partition("/")
    name = f"rulewright.generated.{game.replace('-', '_')}.{(variant or 'base').replace('-', '_')}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError:
        # An editable install links each file it knew of; a rule set compiled since is still
        # on disk in generated/.
        from .compiler.paths import generated_dir

        fresh = generated_dir() / game.replace("-", "_") / f"{(variant or 'base').replace('-', '_')}.py"
        if fresh.is_file():
            return load_module_file(fresh)
        raise BadSetup(f"no compiled rule set `{ruleset}`: run `rulewright compile {ruleset}` "
                       "(`rulewright list` shows the bundled ones)") from None
    result: Game = module.GAME
    return result


_compiled_rules: dict[tuple[str, str], Game] = {}


def load_rules(path: Path) -> Game:
    """Compile a rule file (anywhere on disk) in memory and load the game, without writing a
    module. Raises CompileError with every problem of the rule file."""
    from .compiler.driver import compile_file
    from .runtime.errors import BadSetup

    if not path.is_file():
        raise BadSetup(f"no such rule file: {path}")
    compiled = compile_file(path)
    key = (str(path.resolve()), compiled.source)
    if key not in _compiled_rules:
        _compiled_rules[key] = game_from_source(compiled.source, str(path))
    return _compiled_rules[key]


def game_from_source(source: str, filename: str) -> Game:
    """The game of a generated module's text, run as a fresh module (nothing is written)."""
    name = f"rulewright_rules_{len(sys.modules)}_{abs(hash((filename, source)))}"
    module = type(sys)(name)
    module.__file__ = filename
    sys.modules[name] = module
    exec(compile(source, filename, "exec"), module.__dict__)
    game: Game = module.__dict__["GAME"]
    return game


def load_module_file(path: Path) -> Game:
    """Import a generated module from anywhere on disk."""
    from .runtime.errors import BadSetup

    if not path.is_file():
        raise BadSetup(f"no such generated module: {path}")
    name = f"rulewright_user_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BadSetup(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    result: Game = module.GAME
    return result
