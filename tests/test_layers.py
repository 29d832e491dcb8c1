"""The layers only point down, and no modules import one another in a cycle (issue 36).

    runtime  <-  core  <-  compiler  <-  api (the root package, `rulewright`)
    runtime  <-  generated  <-  api

A module imports modules of its own layer and of the layers below it only: runtime/ imports
nothing of ours outside runtime/; generated/ (the compiled games) the runtime and other generated
modules; core/ (paths, spans and diagnostics, the YAML loader) the runtime; compiler/ the core
and the runtime; api/ anything. No layer imports the one above it, not even for the type checker:
an upward name is a dependency all the same.

No modules import one another in a cycle, whether at the top of a module or inside a function
(an import moved into a function to break a cycle at import time is still a cycle of the design).
Imports under `if TYPE_CHECKING:` do not count towards a cycle: they never run, so they cannot
meet a half-imported module, and with `from __future__ import annotations` they name types in
annotations only. One such cycle is left, where a type is named by the modules its own module
calls: runtime/state.py's `State` in decisions.py, unseen.py and boards/tables.py, and the board
that runtime/kept.py charges what its tables keep to (`made`, typed so that the native build reads
the board's tables as fields).

Read from the source (each import statement parsed with `ast`, as tests/test_pass_order.py
reads the passes'): every `import` and `from ... import` anywhere in a module, and
`importlib.import_module("...")` of a written name. `from . import x`, where x is a module, is
an import of x alone; importing a module also runs its package's `__init__`, which is not
counted here (what the root package loads is tests/test_imports.py's business).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Each layer's folder and its import package (pyproject.toml's package-dir).
FOLDERS = {"runtime": "rulewright.runtime", "generated": "rulewright.generated", "core": "rulewright.core",
           "compiler": "rulewright.compiler", "api": "rulewright"}
# What each layer may import besides itself.
BELOW = {"runtime": set(), "generated": {"runtime"}, "core": {"runtime"}, "compiler": {"core", "runtime"},
         "api": {"compiler", "core", "generated", "runtime"}}


@dataclass(frozen=True)
class Edge:
    module: str  # the importing module (`rulewright.compiler.codegen`)
    target: str  # the module it imports
    line: int
    type_only: bool  # under `if TYPE_CHECKING:`


def modules(root: Path) -> dict[str, Path]:
    """Every module of the layers under `root` (a checkout), by its dotted name."""
    found: dict[str, Path] = {}
    for folder, package in FOLDERS.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root / folder).with_suffix("").parts
            name = ".".join([package, *(p for p in parts if p != "__init__")])
            found[name] = path
    return found


def layer(module: str) -> str:
    """The layer of a module: the folder of the longest package that holds it."""
    best = max((p for p in FOLDERS.values() if module == p or module.startswith(p + ".")), key=len)
    return next(folder for folder, package in FOLDERS.items() if package == best)


_STATEMENT = re.compile(r"(?:import|from)\s")
_IMPORT_MODULE = re.compile(r"""importlib\.import_module\(\s*["']([\w.]+)["']""")
_TYPE_CHECKING = re.compile(r"if\s+(?:typing\.)?TYPE_CHECKING\s*:")


def imports(text: str) -> Iterator[tuple[int, ast.Import | ast.ImportFrom | str, bool]]:
    """The imports of a module's text: each `import`/`from` statement (parsed alone with `ast`), or
    the name given to `importlib.import_module`, with its line and whether it sits under `if
    TYPE_CHECKING:`.

    Read line by line rather than by parsing the whole module (which takes seconds over the
    generated games): ruff's E701/E702 keep one statement per line, so a line that starts with
    `import` or `from` outside a triple-quoted string is an import statement, continued while
    its brackets are open or it ends with a backslash."""
    lines = text.splitlines()
    in_string: str | None = None  # the quotes of the triple-quoted string a line starts inside
    typing_at: int | None = None  # the indent of the `if TYPE_CHECKING:` whose block we are in
    k = 0
    while k < len(lines):
        line, lineno = lines[k], k + 1
        k += 1
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        starts_inside = in_string is not None
        for quotes in re.findall(r'"""|\'\'\'', line):
            if in_string is None:
                in_string = quotes
            elif quotes == in_string:
                in_string = None
        if starts_inside or not stripped or stripped.startswith("#"):
            continue
        if typing_at is not None and indent <= typing_at:
            typing_at = None
        if _TYPE_CHECKING.match(stripped):
            typing_at = indent
            continue
        for name in _IMPORT_MODULE.findall(line):
            yield lineno, name, typing_at is not None
        if not _STATEMENT.match(stripped):
            continue
        statement = stripped.split("#")[0].rstrip()  # (no `#` in a module's name)
        while (statement.count("(") > statement.count(")") or statement.endswith("\\")) and k < len(lines):
            statement = statement.removesuffix("\\") + " " + lines[k].split("#")[0].strip()
            k += 1
        node = ast.parse(statement).body[0]
        assert isinstance(node, ast.Import | ast.ImportFrom), (lineno, statement)
        yield lineno, node, typing_at is not None


@cache
def imports_of(path: Path) -> tuple[tuple[int, ast.Import | ast.ImportFrom | str, bool], ...]:
    """The imports of the module at `path` (read once)."""
    return tuple(imports(path.read_text(encoding="utf-8")))


@cache
def edges(root: Path) -> tuple[Edge, ...]:
    """Every import between modules of the layers under `root` (read once per root)."""
    return tuple(_edges(root))


def _edges(root: Path) -> Iterator[Edge]:
    known = modules(root)
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for line, node, type_only in imports_of(path):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                for alias in node.names:
                    targets.append(f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source)
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                targets = [node]
            for target in targets:
                while target and target not in known:  # `import a.b.c` of a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    yield Edge(name, target, line, type_only)


def upward(found: Iterable[Edge]) -> list[str]:
    """The imports of a layer above its own (type-only ones too)."""
    return sorted({f"{e.module}:{e.line} imports {e.target} ({layer(e.module)} -> {layer(e.target)})" for e in found
                   if layer(e.target) != layer(e.module) and layer(e.target) not in BELOW[layer(e.module)]})


def cycles(found: Iterable[Edge], type_only: bool = False) -> list[list[str]]:
    """The groups of modules that import one another in a cycle (run-time imports only, unless
    `type_only`), each sorted: the strongly connected components of more than one module (Tarjan's
    algorithm)."""
    graph: dict[str, set[str]] = {}
    for e in found:
        if type_only or not e.type_only:
            graph.setdefault(e.module, set()).add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def shown(group: list[str], found: Iterable[Edge]) -> str:
    """A cycle's modules and the imports between them, each at its line."""
    inside = set(group)
    lines = [f"  {e.module}:{e.line} imports {e.target}" for e in found
             if e.module in inside and e.target in inside and not e.type_only]
    return "a cycle of " + ", ".join(group) + ":\n" + "\n".join(sorted(set(lines)))


def test_no_layer_imports_the_one_above_it() -> None:
    found = edges(ROOT)
    assert {layer(e.module) for e in found} == set(FOLDERS)  # (the imports of every layer are read at all)
    wrong = upward(found)
    assert not wrong, "imports of a higher layer (runtime <- core <- compiler <- api):\n" + "\n".join(wrong)


# The libraries each lower layer may import besides the standard library: the runtime needs
# mypy_extensions (runtime/state.py's mypyc_attr), the core PyYAML (core/load.py).
LIBRARIES = {"runtime": {"mypy_extensions"}, "generated": {"mypy_extensions"}, "core": {"yaml"}}


def test_the_lower_layers_import_only_the_standard_library_and_their_own() -> None:
    wrong = []
    for name, path in modules(ROOT).items():
        allowed = LIBRARIES.get(layer(name))
        if allowed is None:
            continue
        for line, node, _ in imports_of(path):
            if isinstance(node, str) or (isinstance(node, ast.ImportFrom) and node.level):
                continue
            tops = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for top in (t.split(".")[0] for t in tops):
                if top not in sys.stdlib_module_names and top not in allowed | {"rulewright"}:
                    wrong.append(f"{name}:{line} imports {top}")
    assert not wrong, wrong


def test_no_modules_import_one_another_in_a_cycle() -> None:
    found = edges(ROOT)
    wrong = [shown(group, found) for group in cycles(found)]
    assert not wrong, "\n".join(wrong)


def test_the_one_cycle_for_the_type_checker_is_the_runtimes_state() -> None:
    """Counting the imports under `if TYPE_CHECKING:` too, the one cycle is the runtime's `State`
    named by the modules it calls (the module docstring says why it stays)."""
    groups = cycles(edges(ROOT), type_only=True)
    assert len(groups) == 1, groups
    assert "rulewright.runtime.state" in groups[0]
    assert all(name.startswith("rulewright.runtime.") for name in groups[0]), groups[0]


def test_what_the_walk_refuses(tmp_path: Path) -> None:
    """The check itself, on modules written for it: an upward import at module level, in a function
    or for the type checker only; a cycle made in a function, by `from . import x`, or through
    importlib; a cycle for the type checker only, which is none."""
    files = {
        "runtime/__init__.py": "",
        "runtime/state.py": "from ..compiler import codegen\n",
        "runtime/a.py": "def f() -> None:\n    from . import b\n",
        "runtime/b.py": "import importlib\nimportlib.import_module('rulewright.runtime.a')\n",
        "generated/__init__.py": "",
        "generated/game.py": "from rulewright.runtime import state\nfrom rulewright.core.paths import x\n",
        "core/__init__.py": "",
        "core/paths.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..compiler.codegen import y\n",
        "core/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import d\n",
        "core/d.py": "from .c import z\n",
        "compiler/__init__.py": "",
        "compiler/codegen.py": "from .. import render\nfrom ..runtime import state\nfrom ..core import paths\n",
        "api/__init__.py": "",
        "api/render.py": "",
        "api/cli.py": "from .compiler import codegen\nfrom .generated import game\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = edges(tmp_path)
    assert upward(found) == [
        "rulewright.compiler.codegen:1 imports rulewright.render (compiler -> api)",
        "rulewright.core.paths:3 imports rulewright.compiler.codegen (core -> compiler)",
        "rulewright.generated.game:2 imports rulewright.core.paths (generated -> core)",
        "rulewright.runtime.state:1 imports rulewright.compiler.codegen (runtime -> compiler)",
    ]
    assert cycles(found) == [["rulewright.compiler.codegen", "rulewright.runtime.state"],
                             ["rulewright.runtime.a", "rulewright.runtime.b"]]
