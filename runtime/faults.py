"""A fault of a rule set's own code, told by its rule line.

A rule can fail at run time in ways the checker cannot rule out: `hand[p][5]` when the hand
holds three cards, a value looked up that is not there. Generated code ends every line made
from a rule with a comment naming it (`# base.yaml:112`), and every method with its rule file
(`# rules/x/base.yaml:104: pick`). `game_error(exc, state)` walks the traceback to the last
line of generated code that ran and turns the exception into a `GameError` naming that rule
line, so `play` prints one message and `simulate` counts one error (the original exception
stays chained, for whoever debugs the compiler).
"""

from __future__ import annotations

import linecache
import re
import sys
from types import TracebackType
from typing import Any

from .errors import GameError
from .limits import SearchTooLong

# `# base.yaml:112` at the end of a line; `# rules/x/base.yaml:104: pick` opening a method.
_RULE_LINE = re.compile(r"#\s+([^\s#:]+):(\d+)(?:[:;].*)?\s*$")


def game_error(exc: BaseException, state: Any) -> GameError:
    """`exc`, raised by the generated code of `state`'s rule set, as a game error at the rule
    line that raised it (the rule set's first file when no line says)."""
    files: tuple[str, ...] = state.game.info.files
    where = _rule_line(exc.__traceback__, type(state), files) or (files[-1] if files else "the rules")
    if isinstance(exc, SearchTooLong):  # a limit passed inside the runtime: it says which
        error = GameError(where, str(exc))
    else:
        said = str(exc).splitlines()[0][:200] if str(exc) else "failed"
        if said == "tuple index out of range":  # a list of the rules is a tuple (one value model)
            said = "list index out of range"
        error = GameError(where, f"{said} ({type(exc).__name__}, a fault of the rules at this line)")
    error.__cause__ = exc
    return error


def _rule_line(tb: TracebackType | None, cls: type, files: tuple[str, ...]) -> str | None:
    """`file:line` of the rule whose generated code ran last in the traceback `tb`."""
    runtime = __name__.rsplit(".", 1)[0] + "."
    generated = {c.__module__ for c in cls.__mro__ if not c.__module__.startswith((runtime, "builtins"))}
    filenames = {getattr(sys.modules.get(m), "__file__", None) for m in generated}
    # In the native build (docs/native.md) a compiled module's frames name its source as compiled,
    # `rulewright/generated/<game>/<variant>.py`, which linecache finds on sys.path.
    filenames |= {m.replace(".", "/") + ".py" for m in generated}
    found: str | None = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in filenames:
            found = _comment_at(code.co_filename, tb.tb_lineno, code.co_firstlineno, files) or found
        tb = tb.tb_next
    return found


def _comment_at(filename: str, lineno: int, first: int, files: tuple[str, ...]) -> str | None:
    """The rule named by the comment of generated line `lineno`, else by its method's header."""
    for n in range(lineno, max(first, 1) - 1, -1):
        match = _RULE_LINE.search(linecache.getline(filename, n))
        if match is not None:
            return _full(match.group(1), files) + ":" + match.group(2)
    return None


def rule_where(state: Any, path: str) -> str:
    """`file:line` of the rule at `path` of `state`'s rule set (`returns`, `invariants.x`), the
    file named as the rule set's file (`rules/x/base.yaml:80`); the rule set's own file (its last)
    if no rule has that path."""
    files: tuple[str, ...] = state.game.info.files
    short: str | None = state.game.info.rules.get(path)
    if short is None:
        return files[-1] if files else "the rules"
    name, _, line = short.rpartition(":")
    return f"{_full(name, files)}:{line}"


def _full(name: str, files: tuple[str, ...]) -> str:
    """A comment's file name (`base.yaml`) as the rule set's file it names (`rules/x/base.yaml`)."""
    for path in reversed(files):
        if path == name or path.endswith("/" + name):
            return path
    return name
