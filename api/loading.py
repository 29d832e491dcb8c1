"""Finding and loading a game: by rule set id, rule file or generated module file (the root
package names these functions: `rulewright.load`, docs/api.md).

What runs code: `load(id)` imports only modules of the generated package, `load_rules(path)`
(and `load("x.yaml")`) compiles a rule file (data) in memory, and a generated module file elsewhere
is imported only when a person names it as a path (`load(Path("out/x/base.py"))`,
`load_module_file`): it is trusted Python code. `load_named(text, file)` is for a rule set named
inside a file (a log header, a scenario): a bundled id or a rule file, never a module.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from .runtime import Game


ID_FORM = "`game` or `game/variant` in lowercase letters, digits and `-` (e.g. china-cornett, mandarin/money)"


def _shown(text: str, limit: int = 80) -> str:
    """A text from outside, as quoted in a message: control characters escaped, cut short."""
    from .terminal import printable

    return printable(text, limit)


def load(ruleset: str | os.PathLike[str]) -> Game:
    """The compiled game of a bundled rule set, by id (`china-cornett`, `mandarin/money`),
    from the generated package; of a rule file (`"my-rules.yaml"` or `Path("my-rules.yaml")`),
    compiled in memory as `load_rules` does; or, given a `Path` to a generated module file
    (`Path("out/my_game/variant.py")`), of that module: trusted Python code, imported as it is.

    A text names an id or a rule file (data), never a module: a text ending in `.py` or an
    otherwise malformed id (`..`, upper case) raises BadSetup, and nothing outside the
    generated package is imported unless a `Path` names it."""
    import importlib
    from pathlib import Path

    from .core.paths import RULE_FILE_SUFFIXES, is_ruleset_id
    from .runtime.errors import BadSetup

    if isinstance(ruleset, os.PathLike):
        path = Path(ruleset)
        return load_rules(path) if path.name.endswith(RULE_FILE_SUFFIXES) else load_module_file(path)
    if not isinstance(ruleset, str):
        raise BadSetup(f"a rule set id is text, not {type(ruleset).__name__}")
    if ruleset.endswith(RULE_FILE_SUFFIXES):
        return load_rules(ruleset)
    if not is_ruleset_id(ruleset):
        hint = ""
        if ruleset.endswith(".py"):
            hint = "; to import a generated module file (trusted Python code), pass a path: load(Path(...))"
        raise BadSetup(f"bad rule set id `{_shown(ruleset)}`: an id is {ID_FORM}{hint}")
    game, _, variant = ruleset.partition("/")
    package, module_file = game.replace("-", "_"), (variant or "base").replace("-", "_")
    name = f"rulewright.generated.{package}.{module_file}"
    if name not in sys.modules:
        _refuse_interrupted_compile()
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError:
        # An editable install links each file it knew of; a rule set compiled since is still
        # on disk in generated/.
        from .core.paths import generated_dir

        fresh = generated_dir() / package / f"{module_file}.py"
        if fresh.is_file():
            return load_module_file(fresh)
        from .core.paths import ruleset_file

        if not ruleset_file(ruleset).is_file():  # no such rule set at all: perhaps a typo
            from .compiler.resolve import bundled_ids
            from .core.source import did_you_mean

            known = bundled_ids()
            close = did_you_mean(ruleset, known)
            raise BadSetup(f"unknown rule set `{ruleset}`: " + (close or f"the bundled ones are {', '.join(known)}")
                           ) from None
        raise BadSetup(f"no compiled rule set `{ruleset}`: run `rulewright compile {ruleset}` "
                       "(`rulewright list` shows the bundled ones)") from None
    return _game_of(module, ruleset)


def _refuse_interrupted_compile() -> None:
    """A compile killed half way through its renames leaves its journal in generated/ (see
    compiler/driver.py): until a compile finishes it, the modules there may be half old, half
    new, so none is imported."""
    from .core.paths import JOURNAL, generated_dir
    from .runtime.errors import BadSetup

    if (generated_dir() / JOURNAL).exists():
        raise BadSetup(f"an interrupted compile left generated/ half written ({JOURNAL}): "
                       "run `rulewright compile` to finish it")


def _game_of(module: object, what: str) -> Game:
    from .runtime.errors import BadSetup
    from .runtime.state import Game

    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise BadSetup(f"{_shown(what)} is not a generated rule set: it defines no GAME")
    return game


def load_named(ruleset: object, named_in: Path) -> Game:
    """The game of a rule set named inside a file (`ruleset:` of a scenario, a log header):
    a bundled id, or a rule file (`.yaml`, `.yml`) relative to that file, compiled in memory.
    Never a Python module: what a file says runs no code. Raises BadSetup saying what is
    accepted, or CompileError with the rule file's problems."""
    from .core.paths import RULE_FILE_SUFFIXES, is_ruleset_id
    from .runtime.errors import BadSetup

    accepted = ("a file names its rule set only by bundled id (e.g. china-cornett, mandarin/money) or by "
                "rule file (.yaml or .yml, relative to the file)")
    if not isinstance(ruleset, str) or not ruleset.strip():
        raise BadSetup(f"the rule set must be named by text: {accepted}")
    if ruleset.endswith(RULE_FILE_SUFFIXES):
        path = named_in.parent / ruleset
        if not path.is_file():  # also refuses a FIFO, a device, a folder
            what = "no such rule file" if not path.exists() else "not a rule file (not a regular file)"
            raise BadSetup(f"{what}: `{_shown(ruleset)}` (looked for at {_shown(str(path), 200)})")
        return load_rules(path)
    if is_ruleset_id(ruleset):
        return load(ruleset)
    if ruleset.endswith(".py"):
        raise BadSetup(f"`{_shown(ruleset)}` is a Python module, whose code would run: {accepted}")
    raise BadSetup(f"`{_shown(ruleset)}` names no rule set: {accepted}")


_compiled_rules: dict[tuple[str, str], Game] = {}


def load_rules(path: str | os.PathLike[str], passes: frozenset[str] | None = None) -> Game:
    """Compile a rule file (anywhere on disk; a path or its text) in memory and load the
    game, without writing a module; with the optimisation passes named (all unless told:
    compiler/passes/; a name a pass had before, `passes.RENAMED`, is read as its new name, with a
    warning that says it). Raises CompileError with every problem of the rule file."""
    import warnings
    from pathlib import Path

    from .compiler.driver import compile_file
    from .compiler.passes import ALL, current, renamed_note
    from .runtime.errors import BadSetup

    path = Path(path)
    if not path.is_file():
        raise BadSetup(f"no such rule file: {path}")
    for note in filter(None, map(renamed_note, sorted(passes or ()))):
        warnings.warn(note, stacklevel=2)
    compiled = compile_file(path, ALL if passes is None else frozenset(map(current, passes)))
    key = (str(path.resolve()), compiled.source)
    if key not in _compiled_rules:
        # On the native build (RULEWRIGHT_NATIVE=1), the module `compile --native FILE` built of
        # this very text, if there is one (docs/native.md)
        native = sys.modules.get("rulewright.native")
        module = native.load_user_module(compiled.source) if native is not None else None
        _compiled_rules[key] = _game_of(module, str(path)) if module is not None else \
            game_from_source(compiled.source, str(path))
    return _compiled_rules[key]


def game_from_source(source: str, filename: str) -> Game:
    """The game of a generated module's text, run as a fresh module (nothing is written)."""
    import linecache

    name = f"rulewright_rules_{len(sys.modules)}_{abs(hash((filename, source)))}"
    # The module's lines are kept where tracebacks and runtime/faults.py look for them, under
    # a name that says what they are (the rule file itself holds other lines).
    shown_as = f"<generated from {filename}>"
    linecache.cache[shown_as] = (len(source), None, source.splitlines(keepends=True), shown_as)
    module = type(sys)(name)
    module.__file__ = shown_as
    sys.modules[name] = module
    exec(compile(source, shown_as, "exec"), module.__dict__)
    return _game_of(module, filename)


def load_module_file(path: Path) -> Game:
    """Import a generated module from anywhere on disk: trusted Python code, run as it is.
    Only ever called with a path a person gave (the command line, the Python API)."""
    import importlib.util

    from .runtime.errors import BadSetup

    if not path.is_file():
        raise BadSetup(f"no such generated module: {_shown(str(path), 200)}")
    name = f"rulewright_user_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BadSetup(f"cannot import {_shown(str(path), 200)}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return _game_of(module, str(path))
