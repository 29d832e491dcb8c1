"""The wheel works outside the checkout (README, "Install").

The package is built from a copy of the checkout's package folders (so the build writes nothing
into the checkout) by setuptools' PEP 517 hook `build_wheel`, the one `pip wheel .` and
`python -m build` call, without build isolation (no network: setuptools and wheel are dev
dependencies). Checked: the wheel holds every file of the package folders (modules, generated
games, the grammar, the code template, the rule files, the web board's files), and, installed
into a fresh venv whose only other packages are the dev venv's (a `.pth`: rulewright's own
dependencies, no network), run from a folder outside the checkout, `rulewright list`, `check`,
`compile` (the same module as the wheel's own generated one), `simulate`, and the web board's
first page and script all work from the installed package."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# package folder in the checkout -> its place in the wheel, as pyproject.toml's [tool.setuptools]
# `package-dir` maps them (read from it: a folder added there is in the wheel and in this test)
_SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
FOLDERS = {folder: package.replace(".", "/") for package, folder in _SETUPTOOLS["package-dir"].items()}
LEFT_OUT = ("__pycache__", "*.pyc", "*.so", "*.c", "*.o")  # interpreter caches, a native build's files


def package_files() -> set[str]:
    """Every file of the package folders, named as the wheel names it."""
    out = set()
    for folder, target in FOLDERS.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".so", ".c", ".o"):
                out.add(f"{target}/{path.relative_to(ROOT / folder).as_posix()}")
    return out


def run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.slow
def test_the_wheel_installs_and_runs_outside_the_checkout(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns(*LEFT_OUT))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RULEWRIGHT_NATIVE", "VIRTUAL_ENV")}
    dist = tmp_path / "dist"
    name = run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                "print(build_meta.build_wheel(sys.argv[1]))", str(dist)], source, env).strip().splitlines()[-1]
    wheel = dist / name
    assert wheel.name.startswith("rulewright-") and wheel.suffix == ".whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    assert package_files() - names == set(), "files of the package folders the wheel leaves out"

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path, env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path, env)
    # the dev venv's packages after the new venv's own: rulewright's dependencies, without a download
    (Path(purelib.strip()) / "dev-venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
         "--disable-pip-version-check", "--quiet", str(wheel)], tmp_path, env)

    away = tmp_path / "elsewhere"
    away.mkdir()
    shutil.copy2(ROOT / "tests" / "games" / "lanterns.yaml", away / "lanterns.yaml")
    rulewright = str(bin_dir / "rulewright")
    listed = run([rulewright, "list"], away, env)
    assert "china-cornett" in listed and "yellow-yangtze" in listed
    assert run([rulewright, "check", "lanterns.yaml"], away, env).strip() == "lanterns.yaml: ok"
    run([rulewright, "compile", "china-cornett", "lanterns.yaml", "--out", "out"], away, env)
    summary = json.loads(run([rulewright, "simulate", "china-cornett", "-n", "2", "--json"], away, env))
    assert summary["games"] == 2 and summary["errors"] == 0 and summary["capped"] == 0
    # the installed package is the wheel's (not the checkout's), its generated module is what its
    # own compiler writes, and the web board serves its page and script from the package's files
    probe = """
import sys
from pathlib import Path
import rulewright
from rulewright.core import paths
from rulewright.web import make_app
from werkzeug.test import Client

where = Path(rulewright.__file__).resolve()
assert Path(sys.prefix).resolve() in where.parents, where
installed = paths.generated_dir() / "china_cornett" / "base.py"
assert Path("out/china_cornett/base.py").read_bytes() == installed.read_bytes(), "compiled differently"
assert [p.name for p in Path("out/lanterns").glob("*.py") if p.name != "__init__.py"], "lanterns not compiled"
app, start = make_app(None)
client = Client(app)
page = client.get(start)
assert page.status_code == 200 and "china-cornett" in page.text, page.status_code
script = client.get("/static/board.js")
assert script.status_code == 200 and len(script.data) > 1000, script.status_code
print("ok")
"""
    assert run([str(python), "-c", probe], away, env).strip() == "ok"
