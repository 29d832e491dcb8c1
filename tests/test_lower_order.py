"""The modules of lowering (compiler/lower/) import one another one way, bottom up, as
lower/lowerer.py's doc lists them: each imports only modules below it (type-checking imports too),
none inside a function, so no two import each other. A part that needs one above it calls it
through the shared state (`lo.node(e)`, `lo.comprehension(e)` ...: `lowerer.Transforms`, filled by
lower/__init__.py), as mypyc's IRBuilder reaches its transforms through its visitor."""

from __future__ import annotations

import ast
from pathlib import Path

LOWER = Path(__file__).resolve().parents[1] / "compiler" / "lower"
# bottom up: the helpers on code text, the shared state, then the parts by syntax; the package's
# entry point on top (the members lowering gives are compiler/lowered.py, beside the IR)
ORDER = ["code", "lowerer", "masks", "counts", "regions", "boards", "limits", "expressions", "comprehensions",
         "effects", "definitions", "listings", "actions", "rules", "__init__"]


def imported(path: Path) -> dict[str, list[tuple[int, bool]]]:
    """The modules of compiler/lower/ `path` imports, each with its lines and whether the import
    sits inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    inside = {id(node) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
              for node in ast.walk(f)}
    out: dict[str, list[tuple[int, bool]]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level != 1:
            continue  # (only `from .x import ...` and `from . import x` name a module of the package)
        names = [node.module] if node.module else [a.name for a in node.names]
        for name in names:
            if name is not None and (LOWER / f"{name}.py").exists():
                out.setdefault(name, []).append((node.lineno, id(node) in inside))
    return out


def test_every_module_of_lowering_has_its_place() -> None:
    assert sorted(ORDER) == sorted(p.stem for p in LOWER.glob("*.py"))


def test_each_module_of_lowering_imports_only_modules_below_it() -> None:
    wrong = []
    for module in ORDER:
        for target, where in imported(LOWER / f"{module}.py").items():
            for line, in_function in where:
                if ORDER.index(target) >= ORDER.index(module) or in_function:
                    wrong.append(f"lower/{module}.py:{line} imports {target}{' in a function' if in_function else ''}")
    assert not wrong, wrong
    assert imported(LOWER / "effects.py")  # (the imports are read at all)


def private_names_from_elsewhere(path: Path) -> list[str]:
    """The names starting with `_` that `path` takes from a package other than compiler/lower/:
    imported (`from ..passes.x import _y`) or read off a module imported from elsewhere (`x._y`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level != 1:
            for alias in node.names:
                if alias.name.startswith("_") and alias.name != "__future__":
                    out.append(f"lower/{path.name}:{node.lineno} imports {alias.name} from {node.module}")
                modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names)
    out += [f"lower/{path.name}:{node.lineno} reads {node.value.id}.{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
            and node.attr.startswith("_") and not node.attr.startswith("__")]
    return out


def test_lowering_takes_no_private_name_of_another_package() -> None:
    """What lowering needs of a pass is its decision (an annotation or mark of a typed node, a
    public dataclass of compiler/typed.py) or a public helper; a helper shared with the passes
    lives in compiler/analysis/."""
    wrong = [w for module in ORDER for w in private_names_from_elsewhere(LOWER / f"{module}.py")]
    assert not wrong, wrong


def test_the_check_of_private_names_sees_both_forms(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text("from ..passes import mask_spot_sets\nfrom ..passes.draw_out import _words\n"
                      "from .code import _CHARGES\nmask_spot_sets._of(1)\nmask_spot_sets.NAME\n", encoding="utf-8")
    assert private_names_from_elsewhere(module) == ["lower/probe.py:2 imports _words from passes.draw_out",
                                                    "lower/probe.py:4 reads mask_spot_sets._of"]
