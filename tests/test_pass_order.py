"""The passes' imports follow the order they run in (compiler/passes/__init__.py `PASSES`): a pass
imports only passes that run before it (or none), never lowering (compiler/lower/), and no
modules of compiler/passes/ import one another in a cycle; the analyses (compiler/analysis/)
import no pass and no lowering (docs/optimiser.md, "The analyses").

Read from the source with `ast`: every import, at the top of a module or inside a function.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rulewright.compiler.passes import PASSES

ROOT = Path(__file__).resolve().parents[1]
PASSES_DIR = ROOT / "compiler" / "passes"
ANALYSIS_DIR = ROOT / "compiler" / "analysis"
ORDER = {name: k for k, name in enumerate(PASSES)}
# The pipeline, which runs the passes (__init__.py): it imports none at run time.
PIPELINE = ("__init__",)

@dataclass(frozen=True)
class Import:
    module: str  # the importing module, by its name in compiler/passes/ (or compiler/analysis/)
    target: str  # what it imports, as a dotted name under `rulewright.compiler` (`passes.mask_spot_sets`, `lower`)
    line: int
    function: ast.FunctionDef | None  # the function the import sits in (None: at module level)
    type_only: bool  # under `if TYPE_CHECKING:`


class _Finder(ast.NodeVisitor):
    """Each import of a module with the function it sits in, and whether it is for the type checker only."""

    def __init__(self) -> None:
        self.found: list[tuple[ast.Import | ast.ImportFrom, ast.FunctionDef | None, bool]] = []
        self.function: ast.FunctionDef | None = None
        self.typing = False

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer, self.function = self.function, node
        self.generic_visit(node)
        self.function = outer

    def visit_If(self, node: ast.If) -> None:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            outer, self.typing = self.typing, True
            for stmt in node.body:
                self.visit(stmt)
            self.typing = outer
            for stmt in node.orelse:
                self.visit(stmt)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.found.append((node, self.function, self.typing))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.found.append((node, self.function, self.typing))


@cache
def imports(directory: Path, package: str) -> tuple[Import, ...]:
    """Every import of the modules of `directory` (the package `rulewright.compiler.<package>`), with
    what it names resolved: `from . import level, mask_spot_sets` imports the package and its module
    `mask_spot_sets`; `from ..lower import x`, `from .. import lower`, `from rulewright.compiler.lower
    import x` import lowering. (Read once per directory.)"""
    return tuple(_imports(directory, package))


def _imports(directory: Path, package: str) -> Iterator[Import]:
    root = directory.parent  # compiler/
    for path in sorted(directory.glob("*.py")):
        module = path.stem
        tree = ast.parse(path.read_text(), str(path))
        finder = _Finder()
        finder.visit(tree)
        here = ["compiler", package]
        for node, function, type_only in finder.found:
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[: len(here) - (node.level - 1)]
                    parts = [*base, *(node.module.split(".") if node.module else [])]
                else:
                    parts = (node.module or "").split(".")
                    if parts[0] != "rulewright":
                        continue
                    parts = parts[1:]
                if parts[:1] != ["compiler"]:
                    continue
                dotted = ".".join(parts[1:])
                if dotted:
                    targets.append(dotted)
                for alias in node.names:  # `from . import mask_spot_sets`: a module of the package
                    name = ".".join(filter(None, [dotted, alias.name]))
                    if (root / Path(*name.split("."))).with_suffix(".py").exists() \
                            or (root / Path(*name.split("."))).is_dir():
                        targets.append(name)
            else:
                for alias in node.names:
                    if alias.name.startswith("rulewright.compiler."):
                        targets.append(alias.name.removeprefix("rulewright.compiler."))
            for target in targets:
                yield Import(module, target, node.lineno, function, type_only)


def _pass_of(target: str) -> str | None:
    parts = target.split(".")
    return parts[1] if len(parts) >= 2 and parts[0] == "passes" and parts[1] in ORDER else None


def _lowering(target: str) -> bool:
    return target == "lower" or target.startswith("lower.")


def out_of_order(directory: Path) -> list[str]:
    """The imports of the modules of `directory` (compiler/passes/) against the order of the passes."""
    wrong: list[str] = []
    for i in imports(directory, "passes"):
        if i.module in PIPELINE:
            continue  # (test_the_pipeline_imports_passes_for_the_type_checker_only)
        later = _pass_of(i.target)
        if i.module in ORDER:
            bad = later is not None and ORDER[later] > ORDER[i.module]
        else:  # a helper of the passes (rewrite.py): imports no pass at all
            bad = later is not None
        bad = bad or _lowering(i.target)
        if not bad:
            continue
        where = f" in {i.function.name}()" if i.function else ""
        wrong.append(f"{i.module}.py:{i.line}{where} imports {i.target}")
    return wrong


def test_a_pass_imports_only_earlier_passes_and_never_lowering() -> None:
    assert any(_pass_of(i.target) for i in imports(PASSES_DIR, "passes"))  # (the imports are read at all)
    wrong = out_of_order(PASSES_DIR)
    assert not wrong, "imports against the order of the passes (compiler/passes/):\n" + "\n".join(wrong)


def test_what_the_order_refuses(tmp_path: Path) -> None:
    """The check itself, on passes written for it: a later pass (at module level or in a function,
    in a function that takes the lowerer too), lowering, or any pass from a helper."""
    passes = tmp_path / "compiler" / "passes"
    passes.mkdir(parents=True)
    (tmp_path / "compiler" / "lower.py").write_text("")
    first, later = list(PASSES)[0], list(PASSES)[-1]
    (passes / f"{first}.py").write_text(
        f"from . import level, {later}\n"
        "from ..lower import Lowerer\n"
        "def f() -> None:\n"
        f"    from .{later} import run\n")
    (passes / "mask_spot_filters.py").write_text(
        "from typing import Any\n"
        "def lowered(lower: Any) -> None:\n"
        "    from .hoist_masks import hoisted\n"
        "def other(e: Any) -> None:\n"
        "    from .hoist_masks import hoisted\n")
    (passes / "helper.py").write_text(f"from .{first} import run\n")
    (passes / f"{later}.py").write_text("")
    wrong = out_of_order(passes)  # (by module, in the order the folder lists them)
    assert sorted(wrong) == sorted([f"{first}.py:1 imports passes.{later}", f"{first}.py:2 imports lower",
                                    f"{first}.py:4 in f() imports passes.{later}",
                                    "helper.py:1 imports passes." + first,
                                    "mask_spot_filters.py:3 in lowered() imports passes.hoist_masks",
                                    "mask_spot_filters.py:5 in other() imports passes.hoist_masks"])


def test_the_pipeline_imports_passes_for_the_type_checker_only() -> None:
    """compiler/passes/__init__.py runs the passes by name (importlib): it imports none at run
    time, so a pass may import the pipeline's names without a cycle of any kind."""
    found = [i for i in imports(PASSES_DIR, "passes") if i.module in PIPELINE and _pass_of(i.target)]
    assert all(i.type_only for i in found), [i for i in found if not i.type_only]
    assert imports(PASSES_DIR, "passes")  # (the imports are read at all)
    assert not any(_lowering(i.target) for i in imports(PASSES_DIR, "passes") if i.module in PIPELINE)


def test_no_modules_of_the_passes_import_one_another_in_a_cycle() -> None:
    edges: dict[str, set[str]] = {}
    for i in imports(PASSES_DIR, "passes"):
        parts = i.target.split(".")
        if i.module not in PIPELINE and len(parts) == 2 and parts[0] == "passes" and parts[1] != i.module:
            edges.setdefault(i.module, set()).add(parts[1])
    assert edges
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            cycle = path[path.index(node):] + [node]
            raise AssertionError("a cycle of imports: " + " -> ".join(cycle))
        if node in done:
            return
        for after in sorted(edges.get(node, ())):
            visit(after, [*path, node])
        done.add(node)

    for start in sorted(edges):
        visit(start, [])


def test_the_analyses_import_no_pass_and_no_lowering() -> None:
    found = list(imports(ANALYSIS_DIR, "analysis"))
    assert any(i.target.startswith("analysis") for i in found)  # (the imports are read at all)
    wrong = [f"compiler/analysis/{i.module}.py:{i.line} imports {i.target}" for i in found
             if i.target == "passes" or i.target.startswith("passes.") or _lowering(i.target)]
    assert not wrong, wrong


def test_each_level_is_a_pass_s_and_one_of_three() -> None:
    """`LEVEL` names passes only, each at the typed program, its representation or the lowered
    program (issue 35: the representation step is the passes so listed)."""
    from rulewright.compiler.passes import LEVEL

    assert set(LEVEL) <= set(PASSES)
    assert set(LEVEL.values()) <= {"typed", "representation", "lowered"}
    assert {name for name, level in LEVEL.items() if level == "representation"} >= {"mask_spot_sets", "mask_values"}
