"""The runtime's values that the generated modules read (`rt.MAX_STEPS`, `rt.NO_GOTO`, `rt.ACTION` ...)
are `Final` where they are defined, so that mypyc writes them into the generated module's C (or, for
a value that is no literal, reads its C static) instead of looking them up by name at every read.

Natively each generated module is a mypyc group of its own (docs/native.md, "What is compiled"): a
module of another group is a Python module to it, so a name that is not `Final` costs two dictionary
look-ups a read there (`rt` in the module's globals, then the name in the runtime package's), where
the one-group build paid one; `MAX_STEPS`, read at every move and listing, was most of the 2%
more instructions a game the split into groups cost (docs/native.md, "Speed").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulewright import runtime as rt
from rulewright.core.paths import generated_dir

RUNTIME = Path(rt.__file__).parent


def _values_read() -> dict[str, str]:
    """`rt.NAME` read by a generated module, for each NAME that is a value (not a function, class or
    type): {NAME: a module that reads it}."""
    found: dict[str, str] = {}
    for path in sorted(generated_dir().rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "rt"
                    and isinstance(node.ctx, ast.Load)):
                value = getattr(rt, node.attr)
                if not (callable(value) or isinstance(value, type) or hasattr(value, "__origin__")):
                    found.setdefault(node.attr, str(path.relative_to(generated_dir())))
    return found


def _definitions() -> dict[str, ast.stmt]:
    """Every module-level assignment of the runtime's modules, by the name it binds."""
    found: dict[str, ast.stmt] = {}
    for path in sorted(RUNTIME.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                found[node.target.id] = node
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = node
    return found


def _final(node: ast.stmt) -> bool:
    if not isinstance(node, ast.AnnAssign):
        return False
    annotation = node.annotation.value if isinstance(node.annotation, ast.Subscript) else node.annotation
    return isinstance(annotation, ast.Name) and annotation.id == "Final"


READ = _values_read()


def test_the_generated_modules_read_values_of_the_runtime() -> None:
    # (the test below checks something: the names it checks are there to check)
    assert {"MAX_STEPS", "NO_GOTO", "ACTION"} <= set(READ), sorted(READ)


@pytest.mark.parametrize("name", sorted(READ))
def test_a_runtime_value_the_generated_modules_read_is_final(name: str) -> None:
    definitions = _definitions()
    assert name in definitions, f"rt.{name} (read by generated/{READ[name]}) is not assigned at a runtime module's top"
    assert _final(definitions[name]), (
        f"rt.{name} (read by generated/{READ[name]}) is not declared `{name}: Final = ...`: natively every read "
        f"of it is two dictionary look-ups (docs/native.md, \"Speed\")")
