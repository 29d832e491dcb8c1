"""Where a test goes (tests/README.md), held: no test module imports another (what several share is
in tests/helpers/ or a fixture of tests/conftest.py), no loose module beside the test files, and no
fixture or helper named like a test (pytest would collect it). Read from the files' syntax trees,
imports inside functions included."""

from __future__ import annotations

import ast
import shutil
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
MODULES = sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def imported(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(line, module) of every import of a module, at any depth of the file."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and not node.level:
            yield node.lineno, node.module


def is_test_module(name: str) -> bool:
    """`tests.test_x` or, on pytest's rootdir path, `test_x` (and the conftest: pytest's, not a library)."""
    last = name.removeprefix("tests.")
    return "." not in last and (last.startswith("test_") or last == "conftest")


def test_no_test_module_imports_another() -> None:
    found = [f"{path.relative_to(TESTS.parent)}:{line}: imports {name}"
             for path in MODULES for line, name in imported(tree(path))
             if is_test_module(name)]
    assert len(MODULES) > 100
    assert not found, "move what is shared to tests/helpers/ or a fixture:\n" + "\n".join(found)


def test_no_relative_import() -> None:
    # (`from . import x` in a test file would name a module by where pytest put it on the path)
    found = [f"{path.relative_to(TESTS.parent)}:{node.lineno}" for path in MODULES
             for node in ast.walk(tree(path))
             if isinstance(node, ast.ImportFrom) and node.level]
    assert not found, found


def test_the_only_modules_beside_the_tests_are_the_conftest_and_the_helpers() -> None:
    loose = [p.name for p in TESTS.glob("*.py") if not p.name.startswith("test_") and p.name != "conftest.py"]
    assert not loose, f"a helper module goes to tests/helpers/: {loose}"
    helpers = [p.name for p in (TESTS / "helpers").glob("*.py")]
    assert "__init__.py" in helpers and not [n for n in helpers if n.startswith("test_")]


def test_no_fixture_or_helper_is_named_like_a_test() -> None:
    found = []
    for path in MODULES:
        in_helpers = path.parent.name == "helpers"
        for node in ast.walk(tree(path)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.name.startswith("test"):
                continue
            fixture = any(ast.unparse(d.func if isinstance(d, ast.Call) else d) in ("pytest.fixture", "fixture")
                          for d in node.decorator_list)
            if fixture or in_helpers:
                found.append(f"{path.relative_to(TESTS.parent)}:{node.lineno}: {node.name}")
    assert not found, found


def test_what_counts_as_a_test_module() -> None:
    assert is_test_module("tests.test_cli") and is_test_module("test_visibility") and is_test_module("conftest")
    assert not is_test_module("tests.helpers.cli") and not is_test_module("tests.helpers.test_like")
    assert not is_test_module("rulewright.compiler.check") and not is_test_module("pytest")
    module = ast.parse("def f():\n    from tests.test_web import api\nimport test_docs\n")
    found = sorted((line, name) for line, name in imported(module) if is_test_module(name))
    assert found == [(2, "tests.test_web"), (3, "test_docs")]


# What the checkout holds at its top level (README.md, "Layout"); anything else is a stray file
# (a helper's shell once committed sixteen files named after lines of a diff).
TOP_LEVEL = {".ci", ".gitignore", "README.md", "api", "compiler", "core", "dev", "docs", "generated", "grammar",
             "pyproject.toml", "rules", "runtime", "schema", "scripts", "tests"}


def test_the_checkout_holds_only_its_known_top_level_entries() -> None:
    root = TESTS.parent
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout (an installed copy of the tests): no tracked files to read")
    tracked = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True).stdout
    tops = {name.split("/", 1)[0] for name in tracked.decode("utf-8").split("\0") if name}
    assert tops <= TOP_LEVEL, sorted(tops - TOP_LEVEL)


def test_the_tests_left_to_the_native_pass_are_there() -> None:
    """Each path of tests/helpers/native_pass.py names a test file or a folder of them (`./dev test`
    passes them to pytest), and the marker picks a file by its path under tests/."""
    from tests.helpers.native_pass import NATIVE_PASS, in_native_pass

    for name in NATIVE_PASS:
        path = TESTS / name
        assert (path.is_file() and name.startswith("test_")) or any(path.rglob("*.yaml")), name
    assert in_native_pass("scenarios/mandarin/x.yaml") and in_native_pass("test_conformance.py")
    assert not in_native_pass("test_conformance_more.py") and not in_native_pass("scenarios.py")
