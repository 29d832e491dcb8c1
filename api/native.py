"""The native build: the runtime and every generated module compiled together with mypyc.

    rulewright compile --native          # compile the rules, then build (or find) the native tree
    RULEWRIGHT_NATIVE=1 rulewright ...   # run on it; refused if it is not of the current sources

The generated modules are `mypy --strict` clean, so mypyc compiles them to C extensions; they
are always compiled together with the runtime (their base class `State` must be compiled too).
A build goes outside the source tree, into `build/native/<key>/` of the checkout (a user cache
folder for an installed package), where `<key>` is a hash of the exact text of every module
compiled, the Python version and the mypy version. Nothing native is ever written next to a
`.py` file, so no stale extension can shadow a newer module: only when `RULEWRIGHT_NATIVE=1`
does `rulewright/__init__.py` compute the key of the current sources and put the build of that
key, and only that one, first on the package's path (`activate`); when there is none it is an
error, never a silent fallback to the interpreted modules. docs/native.md says more.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import Any

from .core.paths import checkout_root, generated_dir, package_root

ENV = "RULEWRIGHT_NATIVE"  # "1": run on the native build of the current sources
DIR_ENV = "RULEWRIGHT_NATIVE_DIR"  # where builds live, if not build/native/ of the checkout
# Each group's shared library holds the code of its modules; each module is a small extension
# that imports it by its name (`rwn_runtime__mypyc`, `rwn__china_schacht__base__mypyc`).
RUNTIME_GROUP = "rwn_runtime"
PACKAGES_GROUP = "rwn_packages"  # every game's package's `__init__.py` (rules make `rwn__<game>__<module>`)
MANIFEST = "manifest.json"
GROUPS, TREES, LIBRT = "groups", "trees", "librt"  # the folders of build/native/
OPT_RUNTIME, OPT_GENERATED = "3", "1"  # gcc's -O of the runtime's group and of a generated module's (docs/native.md)
# Part of every key: a change of how the tree is built (mypyc's options below) makes new builds.
RECIPE = "mypyc separate groups debug_level=0 multi_file=1 strict_dunder_typing=0 -fcommon"
KEEP = 3  # the sources whose groups are kept in build/native/ (the newest three built or run)
EXT_SUFFIX: str = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
HINT = "run `rulewright compile --native`"


class NativeBuildError(ImportError):
    """No native build of the current sources (RULEWRIGHT_NATIVE=1), or a build that failed
    (`details`: the lines of the build's log that say why)."""

    def __init__(self, message: str, details: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.details = details


def enabled() -> bool:
    """Whether this process is asked to run on the native build (`RULEWRIGHT_NATIVE=1`)."""
    return os.environ.get(ENV, "").strip() not in ("", "0")


@dataclass(frozen=True)
class Group:
    """Modules built together into one shared library (a mypyc group): the runtime's, or one
    generated module's. `key` hashes the toolchain, its modules' paths and exact bytes and the keys
    of the groups it imports (`deps`), so that a group is rebuilt when, and only when, one of those
    changed."""

    name: str  # the C name of the group: its library is `<name>__mypyc`
    files: tuple[tuple[str, bytes], ...]  # (path in the package, `rulewright/runtime/state.py`; bytes)
    deps: tuple[str, ...]  # the names of the groups whose modules it imports (the runtime's always)
    key: str

    @property
    def modules(self) -> list[str]:
        return [_module_of(name) for name, _ in self.files]


@dataclass(frozen=True)
class Sources:
    """The modules a native build compiles, in groups (the runtime's first, then every other in an
    order where a group comes after those it imports), and the key of them all."""

    groups: tuple[Group, ...]
    key: str

    @property
    def files(self) -> tuple[tuple[str, bytes], ...]:
        return tuple(sorted(f for g in self.groups for f in g.files))

    @property
    def modules(self) -> list[str]:
        return [_module_of(name) for name, _ in self.files]


def _module_of(name: str) -> str:
    return name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _source_folders() -> tuple[Path, Path]:
    root = checkout_root()
    return (root / "runtime" if root else package_root() / "runtime"), generated_dir()


def _mypy_version() -> str:
    try:
        from mypy.version import __version__
    except ImportError:  # no mypy: no build can be made, none can match
        return "none"
    return __version__


def _toolchain() -> bytes:
    return b"".join(part.encode() + b"\0" for part in (sys.version, sys.implementation.cache_tag, EXT_SUFFIX,
                                                          _mypy_version(), RECIPE, _cc()))


def _cc() -> str:
    """The C compiler and flags Python builds extensions with (part of every key)."""
    return " ".join(str(sysconfig.get_config_var(name) or "") for name in ("CC", "CFLAGS", "CCSHARED", "LDSHARED"))


# `from rulewright.generated.a.b import c` and `import rulewright.generated.a.b`: what a generated
# module imports of the others (a module it imports but names otherwise is missing from its group's
# build, which then fails: never a build that misses a change).
_IMPORTS = re.compile(r"^[ \t]*(?:from[ \t]+(rulewright\.generated(?:\.\w+)*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([^\n]*))"
                      r"|import[ \t]+(rulewright\.generated(?:\.\w+)*))", re.MULTILINE)


def _imports(text: bytes) -> set[str]:
    found: set[str] = set()
    for origin, listed, names, plain in _IMPORTS.findall(text.decode("utf-8", "replace")):
        found.add(origin or plain)
        for name in (listed or names).split(","):
            words = name.split()
            if origin and words:
                found.add(f"{origin}.{words[0]}")
    return found


def _group_name(module: str) -> str:
    """`rulewright.generated.china_schacht.base` → `rwn__china_schacht__base` (a C name)."""
    return "rwn__" + module.removeprefix("rulewright.generated.").replace(".", "__")


def _digest(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(f"{len(part)}\0".encode() + part)
    return digest.hexdigest()[:24]


def _opt(name: str) -> str:
    """gcc's -O level of a group (part of its key)."""
    return OPT_RUNTIME if name == RUNTIME_GROUP else OPT_GENERATED


def _group(name: str, files: list[tuple[str, bytes]], deps: list[Group]) -> Group:
    parts = [_toolchain(), name.encode(), _opt(name).encode()] + [d.key.encode() for d in deps]
    for path, text in files:
        parts += [path.encode(), text]
    return Group(name, tuple(files), tuple(d.name for d in deps), _digest(*parts))


def plan(runtime_files: list[tuple[str, bytes]], generated: list[tuple[str, bytes]]) -> Sources:
    """The groups of these modules: the runtime (with generated/__init__.py, which every game's
    package is in) as one, every game's package (its `__init__.py`) in one more, `rwn_packages`, and
    each other generated module as its own, each after the groups it imports."""
    runtime = _group(RUNTIME_GROUP, sorted(runtime_files), [])
    by_module = {_module_of(name): (name, text) for name, text in generated}
    # the modules of each group to make, by its name: a package's module (a line of docstring) is
    # not worth a library of its own, and one is added only with a game
    members: dict[str, list[str]] = {}
    for module, (name, _) in sorted(by_module.items()):
        members.setdefault(PACKAGES_GROUP if name.endswith("/__init__.py") else _group_name(module), []).append(module)
    unit = {module: group for group, modules in members.items() for module in modules}
    made: dict[str, Group] = {RUNTIME_GROUP: runtime}
    order: list[Group] = [runtime]

    def make(group_name: str, seen: tuple[str, ...]) -> Group:
        if group_name in made:
            return made[group_name]
        if group_name in seen:
            raise NativeBuildError(f"generated modules import each other in a cycle: {' -> '.join(seen)}")
        files = [by_module[m] for m in members[group_name]]
        imported = sorted({m for _, text in files for m in _imports(text)})
        deps = [make(unit[m], (*seen, group_name)) for m in imported if m in unit and unit[m] != group_name]
        unique = [runtime] + sorted({d.name: d for d in deps if d is not runtime}.values(), key=lambda g: g.name)
        made[group_name] = group = _group(group_name, files, unique)
        order.append(group)
        return group

    for group_name in sorted(members):
        make(group_name, ())
    return Sources(tuple(order), _digest(*(g.key.encode() for g in order)))


def current_sources() -> Sources:
    """Every runtime/**/*.py (its boards/ too) and generated/**/*.py as they are now, in their groups."""
    runtime, generated = _source_folders()

    def found(folder: Path, package: str) -> list[tuple[str, bytes]]:
        return [(f"rulewright/{package}/{p.relative_to(folder).as_posix()}", p.read_bytes())
                for p in sorted(folder.rglob("*.py")) if "__pycache__" not in p.parts]

    modules = found(generated, "generated")
    top = [f for f in modules if f[0] == "rulewright/generated/__init__.py"]
    return plan(found(runtime, "runtime") + top, [f for f in modules if f not in top])


def native_root() -> Path:
    """Where native builds live: RULEWRIGHT_NATIVE_DIR if set, else build/native/ of the checkout
    (gitignored, beside the editable install's link tree), else a cache folder of the user's."""
    chosen = os.environ.get(DIR_ENV, "").strip()
    if chosen:
        return Path(chosen)
    root = checkout_root()
    if root is not None:
        return root / "build" / "native"
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "rulewright" / "native"


def group_folder(group: Group) -> Path:
    return native_root() / GROUPS / group.key


def group_folders(sources: Sources | None = None) -> dict[str, Path] | None:
    """The folder of each group's finished build, by group name, if every group of these (the
    current) sources is built; else None."""
    sources = sources or current_sources()
    found = {g.name: group_folder(g) for g in sources.groups}
    return found if all((path / MANIFEST).is_file() for path in found.values()) else None


def find_build(sources: Sources | None = None) -> Path | None:
    """The record of the native build of these (the current) sources, `trees/<key>.json` (the keys
    of its groups), if each of its groups is built; else None."""
    sources = sources or current_sources()
    return native_root() / TREES / f"{sources.key}.json" if group_folders(sources) is not None else None


def missing(sources: Sources) -> list[Group]:
    return [g for g in sources.groups if not (group_folder(g) / MANIFEST).is_file()]


def _library(path: Path, name: str) -> Path:
    return path / f"{name}__mypyc{EXT_SUFFIX}"


class _Finder(importlib.abc.MetaPathFinder):
    """Finds each compiled module in its group's build, and only there: a module of the runtime
    or generated/ that is not in the build is not found (never its interpreted .py)."""

    def __init__(self, modules: dict[str, Path], packages: set[str]) -> None:
        self.modules, self.packages = modules, packages

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if fullname not in self.modules:
            if fullname.startswith(("rulewright.runtime.", "rulewright.generated.")) or \
                    fullname in ("rulewright.runtime", "rulewright.generated"):
                raise ModuleNotFoundError(f"{fullname} is not in the native build ({ENV}=1): {HINT}", name=fullname)
            return None
        file = self.modules[fullname]
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(
            fullname, file, loader=loader, submodule_search_locations=[] if fullname in self.packages else None)


def _load_group(group: Group, folder: Path) -> dict[str, Path]:
    """Load a group's shared library (its dependencies' first) and say where its modules are."""
    library = f"{group.name}__mypyc"
    if library not in sys.modules:
        spec = importlib.util.spec_from_file_location(library, _library(folder, group.name))
        if spec is None or spec.loader is None:
            raise NativeBuildError(f"native build {folder} has no {_library(folder, group.name).name}: {HINT}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[library] = module
        spec.loader.exec_module(module)
    modules = {}
    for name, _ in group.files:
        parts = name.removesuffix(".py").split("/")
        modules[_module_of(name)] = folder.joinpath(*parts[:-1], parts[-1] + EXT_SUFFIX)
    return modules


def activate(package_path: MutableSequence[str]) -> Path:
    """Make the package (`rulewright`, whose `__path__` is `package_path`) import its runtime and
    generated modules from the native build of the current sources; called by
    rulewright/__init__.py before either is imported. Raises NativeBuildError if there is no
    such build: the interpreted modules are never used instead."""
    sources = current_sources()
    found = group_folders(sources)
    if found is None:
        raise NativeBuildError(f"no native build for the current sources ({ENV}=1; {len(missing(sources))} of "
                               f"{len(sources.groups)} groups of key {sources.key} not in {native_root()}): {HINT}, "
                               f"or unset {ENV}")
    for name in ("rulewright.runtime", "rulewright.generated"):
        if name in sys.modules:
            raise NativeBuildError(f"{ENV}=1, but {name} is already imported (interpreted)")
    modules: dict[str, Path] = {}
    for group in sources.groups:
        modules |= _load_group(group, found[group.name])
    packages = {_module_of(name) for name, _ in sources.files if name.endswith("/__init__.py")}
    sys.meta_path.insert(0, _Finder(modules, packages))
    global _active, _sources
    _active, _sources = native_root(), sources
    return native_root()


_active: Path | None = None
_sources: Sources | None = None


def active_build() -> Path | None:
    """The folder of the native builds this process runs on, or None (interpreted)."""
    return _active


# -- a rule file of one's own ------------------------------------------------------------------
USER_PACKAGE = "rulewright_rules__"  # the package a rule file's own native module is built in


def user_group(source: str, sources: Sources) -> Group:
    """The group of a generated module's text (a rule file compiled in memory, anywhere on disk),
    after the groups of the current sources it imports; named and keyed by its text's hash."""
    text = source.encode()
    name = f"u{_digest(text)[:16]}"
    by_module = {m: g for g in sources.groups for m in g.modules}
    deps = [sources.groups[0]] + sorted({by_module[m].name: by_module[m] for m in _imports(text)
                                         if m in by_module and by_module[m] is not sources.groups[0]}.values(),
                                        key=lambda g: g.name)
    return _group(f"rwn__user__{name}", [(f"{USER_PACKAGE}/{name}.py", text)], deps)


def _closure(sources: Sources, wanted: list[Group]) -> list[Group]:
    """The groups `wanted` import, directly or not, and those, in build order."""
    by_name = {g.name: g for g in sources.groups} | {g.name: g for g in wanted}
    need: set[str] = set()
    stack = [g.name for g in wanted]
    while stack:
        name = stack.pop()
        if name not in need:
            need.add(name)
            stack.extend(by_name[name].deps)
    return [g for g in by_name.values() if g.name in need]


def load_user_module(source: str) -> object | None:
    """The native module of a generated module's text, on the native build this process runs
    on, if `compile --native FILE` built it; else None (its text is then run interpreted)."""
    if _sources is None:
        return None
    group = user_group(source, _sources)
    folder = group_folder(group)
    if not (folder / MANIFEST).is_file():
        return None
    for dep in group.deps:
        if dep not in {g.name for g in _sources.groups}:
            return None
    (module_name,) = group.modules
    if module_name not in sys.modules:
        import linecache

        # its frames name its source as compiled (runtime/faults.py finds a fault's rule line there)
        shown = group.files[0][0]
        linecache.cache[shown] = (len(source), None, source.splitlines(keepends=True), shown)
        file = _load_group(group, folder)[module_name]
        spec = importlib.util.spec_from_file_location(module_name, file, loader=importlib.machinery.ExtensionFileLoader(
            module_name, str(file)))
        assert spec is not None and spec.loader is not None
        if USER_PACKAGE not in sys.modules:
            package = type(sys)(USER_PACKAGE)
            package.__path__ = []
            sys.modules[USER_PACKAGE] = package
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


# -- building ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Built:
    path: Path  # where the groups' builds are (native_root())
    key: str
    modules: int
    seconds: float  # of this build; 0 when every group was built already
    size: int  # bytes of extension modules of all the groups
    reused: bool  # nothing was built
    groups: int = 0  # groups in all
    built: tuple[str, ...] = ()  # the names of the groups built now


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob(f"*{EXT_SUFFIX}"))


def build(jobs: int | None = None, say: Callable[[str], None] = lambda _: None,
          extra: tuple[Group, ...] = ()) -> Built:
    """Build the native groups of the current sources not built yet (and the groups `extra`: a
    rule file's own module): mypyc translates them (with the groups they import) to C; gcc compiles
    the C of the groups to build on `jobs` cores (all by default). Each group is built in a temporary
    folder and renamed to its key when complete, so a failed or interrupted build leaves nothing half
    written. Raises NativeBuildError with the compiler's last lines (and where its whole log is)."""
    sources = current_sources()
    todo = missing(sources) + [g for g in extra if not (group_folder(g) / MANIFEST).is_file()]
    modules = len(sources.files) + sum(len(g.files) for g in extra)
    root = native_root()
    if not todo:
        _remember(root, sources, extra)
        return Built(root, sources.key, modules, 0.0, _total_size(sources, extra), True,
                     len(sources.groups) + len(extra))
    if importlib.util.find_spec("mypyc") is None:
        raise NativeBuildError("the native build needs mypyc, which comes with mypy: "
                               "pip install 'rulewright[dev]' (or mypy), and a C compiler")
    root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix=".build.", dir=root))
    log = root / "last-build.log"
    try:
        stage = work / "src"
        translated = _closure(sources, todo)
        for group in translated:
            for name, text in group.files:
                target = stage / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(text)
        for package in ("rulewright", USER_PACKAGE):  # packages, not compiled
            (stage / package).mkdir(exist_ok=True)
            (stage / package / "__init__.py").write_bytes(b"")
        jobs = jobs or os.cpu_count() or 1
        names = {g.name for g in todo}
        plan_file = work / "plan.json"
        plan_file.write_text(json.dumps({
            "work": str(work), "jobs": jobs, "librt": str(root / LIBRT / _digest(_toolchain(), b"-O3")),
            "groups": [{"name": g.name, "files": [n for n, _ in g.files], "build": g.name in names,
                        "opt": _opt(g.name)} for g in translated]}))
        say(f"mypyc: {len(todo)} of {len(sources.groups) + len(extra)} groups to build "
            f"({sum(len(g.files) for g in todo)} modules) into {root}, {jobs} jobs")
        worker = [sys.executable, "-P", "-c", "from rulewright.native import _worker; _worker()", str(plan_file)]
        env = dict(os.environ, **{ENV: "0"})  # the worker itself runs interpreted
        ok = _run(worker, stage, env, log, say)
        if not ok:
            raise NativeBuildError(f"the native build failed, nothing was written (whole log: {log})",
                                   _failure(log))
        seconds = round(time.perf_counter() - started, 1)
        for group in todo:
            out = work / "groups" / group.name
            (out / MANIFEST).write_text(json.dumps({
                "key": group.key, "name": group.name, "python": sys.version, "mypy": _mypy_version(),
                "recipe": RECIPE, "modules": group.modules, "deps": list(group.deps), "seconds": seconds,
            }, indent=1) + "\n")
        (root / GROUPS).mkdir(exist_ok=True)
        for group in todo:
            try:
                os.rename(work / "groups" / group.name, group_folder(group))
            except OSError:  # built meanwhile by another process: keep that one
                if not (group_folder(group) / MANIFEST).is_file():
                    raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _remember(root, sources, extra)
    _prune(root)
    return Built(root, sources.key, modules, time.perf_counter() - started, _total_size(sources, extra), False,
                 len(sources.groups) + len(extra), tuple(g.name for g in todo))


def _total_size(sources: Sources, extra: tuple[Group, ...]) -> int:
    return sum(_size(group_folder(g)) for g in (*sources.groups, *extra))


def _remember(root: Path, sources: Sources, extra: tuple[Group, ...]) -> None:
    """Note the groups of these sources as used now (`_prune` keeps those of the newest KEEP)."""
    trees = root / TREES
    trees.mkdir(parents=True, exist_ok=True)
    record = trees / f"{sources.key}.json"
    names = [g.key for g in sources.groups]
    if record.is_file():
        names = sorted(set(names) | set(json.loads(record.read_text())))
    temporary = trees / f".{sources.key}.{os.getpid()}"
    temporary.write_text(json.dumps(sorted(set(names) | {g.key for g in extra})))
    os.replace(temporary, record)


def _run(command: list[str], cwd: Path, env: dict[str, str], log: Path, say: Callable[[str], None]) -> bool:
    """Run the build worker, its output into `log`; its `progress:` lines are said."""
    with open(log, "w") as written, subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                                     stderr=subprocess.STDOUT, text=True) as process:
        assert process.stdout is not None
        try:
            for line in process.stdout:
                written.write(line)
                if line.startswith("progress: "):
                    say(line.removeprefix("progress: ").rstrip())
        except BaseException:  # interrupted: the worker (and its compilers) stop too
            process.kill()
            raise
        return process.wait() == 0


def _failure(log: Path) -> tuple[str, ...]:
    """The lines of a failed build's log that say why: mypyc's and gcc's errors, else its end."""
    lines = log.read_text(errors="replace").splitlines()
    errors = [line for line in lines if ": error:" in line or line.startswith("error:")][:12]
    return tuple(errors or lines[-15:])


def _prune(root: Path) -> None:
    """Remove the groups no longer used by the newest KEEP sources built or run (a loaded build
    stays mapped in the processes using it), and their records."""
    trees = sorted((p for p in (root / TREES).glob("*.json")), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in trees[KEEP:]:
        old.unlink(missing_ok=True)
    kept: set[str] = set()
    for record in trees[:KEEP]:
        kept.update(json.loads(record.read_text()))
    for folder in (root / GROUPS).iterdir():
        if folder.name not in kept and not folder.name.startswith("."):
            shutil.rmtree(folder, ignore_errors=True)


def _worker() -> None:
    """The build itself, in a process of its own run in the staged sources: `python -c ... PLAN`
    (see `build`): mypyc translates every group of the plan, gcc compiles those marked `build`."""
    spec = json.loads(Path(sys.argv[1]).read_text())
    work, jobs = Path(spec["work"]), int(spec["jobs"])
    import importlib
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from mypyc.build import include_dir, mypycify
    from mypyc.common import RUNTIME_C_FILES

    # setuptools has no type stubs (the project does not depend on them for these calls); mypyc
    # imported it first, so `distutils` is setuptools' copy, the one its build_ext uses.
    setup = importlib.import_module("setuptools").setup
    compiler_class = importlib.import_module("distutils.ccompiler").CCompiler

    groups = spec["groups"]
    names = [f for g in groups for f in g["files"]]
    print(f"progress: type-checking and translating {len(names)} modules ({len(groups)} groups) to C", flush=True)
    started = time.perf_counter()
    target = work / "c"
    extensions = mypycify(names, opt_level="3", debug_level="0", multi_file=True, target_dir=str(target),
                          separate=[(g["files"], g["name"]) for g in groups])
    owner = {_module_of(f): g for g in groups for f in g["files"]} | {f"{g['name']}__mypyc": g for g in groups}
    chosen, group_of = [], {}
    for extension in extensions:
        group = owner[extension.name.removesuffix(".__init__")]
        if group["build"]:
            level = f"-O{group['opt']}"
            # -fcommon: in multi-file mode each C file of a group defines the export tables of the
            # groups it imports (`exports_rwn_runtime`) tentatively; the linker merges them as one.
            extension.extra_compile_args = [level if a == "-O3" else a for a in extension.extra_compile_args
                                            ] + ["-fcommon"]
            group_of[extension.name] = group["name"]
            chosen.append(extension)
    c_files = sum(1 for e in chosen for s in e.sources if os.path.basename(s) not in RUNTIME_C_FILES)
    print(f"progress: translated in {time.perf_counter() - started:.0f} s; compiling {c_files} C files "
          f"of {sum(1 for g in groups if g['build'])} groups on {jobs} cores", flush=True)
    # setuptools' build_ext only records here what to compile and link (`compile` and `link` below); then
    # every C file of every group is compiled from one queue, the biggest first (its time is its size),
    # on `jobs` cores, so that both are busy to the end; then the libraries are linked.
    compiles: dict[str, tuple[Any, str, str, str, list[str], list[str], list[str], Path | None]] = {}  # by object
    links: list[Callable[[], None]] = []
    # mypyc's runtime library (lib-rt's C files) is linked into every group's library: compiled once
    # per toolchain (at -O3 whatever the group's level), kept in build/native/librt/<key>/.
    librt = Path(spec["librt"])

    def compile_later(self: Any, sources: list[str], output_dir: str | None = None, macros: object = None,
                      include_dirs: object = None, debug: bool = False, extra_preargs: list[str] | None = None,
                      extra_postargs: list[str] | None = None, depends: object = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)
        made = []
        for obj in objects:
            src, ext = build[obj]
            if os.path.basename(src) in RUNTIME_C_FILES and os.path.dirname(src) == str(target):
                cached = librt / (os.path.basename(src) + ".o")
                made.append(str(cached))
                if not cached.is_file():
                    post = ["-O3" if a.startswith("-O") else a for a in extra_postargs]
                    compiles[str(cached)] = (self, obj, src, ext, cc_args, post, pp_opts, cached)
            else:
                made.append(obj)
                compiles[obj] = (self, obj, src, ext, cc_args, extra_postargs, pp_opts, None)
        return made

    def link_later(self: Any, *args: Any, **kwargs: Any) -> None:
        links.append(lambda: link(self, *args, **kwargs))

    link = compiler_class.link_shared_object
    compiler_class.compile = compile_later
    compiler_class.link_shared_object = link_later
    setup(name="rulewright-native", ext_modules=chosen, script_args=[
        "--quiet", "build_ext", "--build-lib", str(work / "out"), "--build-temp", str(work / "obj")])

    # Each C file parses Python.h and mypyc's CPy.h first (some 0.05 s of a compiler's time, a third of
    # a small file's): they are parsed once, into a precompiled header for each set of options the files
    # are compiled with, which gcc reads instead (`-include`; the same object files, byte for byte). A
    # header gcc cannot use is parsed as text, as without it.
    def flags(job: tuple[Any, str, str, str, list[str], list[str], list[str], Path | None]) -> tuple[str, ...]:
        return tuple(a for a in job[4] + job[5] if not a.startswith("-I"))

    headers: dict[tuple[str, ...], list[str]] = {}
    for job in compiles.values():
        headers.setdefault(flags(job), [])
    if compiles and all("gcc" in os.path.basename(job[0].compiler_so[0]) for job in compiles.values()):
        def precompile(key: tuple[str, ...]) -> None:
            self, _, _, _, cc_args, post, pp_opts, _ = next(j for j in compiles.values() if flags(j) == key)
            header = work / "pch" / str(list(headers).index(key)) / "rulewright_native.h"
            header.parent.mkdir(parents=True)
            header.write_text(f'#include <Python.h>\n#include "{Path(include_dir()) / "CPy.h"}"\n')
            try:
                self._compile(f"{header}.gch", str(header), ".h", cc_args, post, pp_opts)
            except Exception as error:  # never worse than without: each file parses the headers itself
                print(f"no precompiled header ({error})", flush=True)
            else:
                headers[key] += ["-include", str(header)]

        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(precompile, list(headers)))
    done, lock = [0], threading.Lock()

    def compile_one(obj: str) -> None:
        begun = time.perf_counter()
        self, obj, src, ext, cc_args, post, pp_opts, cached = job = compiles[obj]
        self._compile(obj, src, ext, cc_args, post + headers[flags(job)], pp_opts)
        if cached is not None:
            librt.mkdir(parents=True, exist_ok=True)
            partial = cached.with_name(f".{cached.name}.{os.getpid()}")
            shutil.copyfile(obj, partial)
            os.replace(partial, cached)  # another build may have made it too: the same object
        with lock:
            done[0] += 1
            print(f"compiled {os.path.basename(src)} ({os.path.getsize(src)} bytes) in "
                  f"{time.perf_counter() - begun:.2f} s", flush=True)
            if done[0] % 20 == 0:
                print(f"progress: {done[0]} C files compiled", flush=True)

    with ThreadPoolExecutor(jobs) as pool:
        try:
            list(pool.map(compile_one, sorted(compiles, key=lambda o: -os.path.getsize(compiles[o][2]))))
        except BaseException:  # a compiler's error: the compiles not begun are not begun
            pool.shutdown(cancel_futures=True)
            raise
        list(pool.map(lambda run: run(), links))
    # each group's extensions into a folder of its own
    for extension in chosen:
        parts = extension.name.split(".")
        source = work / "out" / Path(*parts[:-1]) / (parts[-1] + EXT_SUFFIX)
        destination = work / "groups" / group_of[extension.name] / source.relative_to(work / "out")
        destination.parent.mkdir(parents=True, exist_ok=True)
        os.rename(source, destination)
    print(f"progress: compiled in {time.perf_counter() - started:.0f} s", flush=True)


def _activate_on_import() -> None:
    """With RULEWRIGHT_NATIVE=1, the first thing `import rulewright` does (this module is its
    first import): the native build of the current sources, or a clear error. At a terminal the
    error is one line, not a traceback (`rulewright play` with no build is a mistake of setup,
    not a fault of rulewright)."""
    try:
        activate(sys.modules[__name__.rpartition(".")[0]].__path__)
    except NativeBuildError:
        shown = sys.excepthook

        def one_line(kind: type[BaseException], error: BaseException, tb: object) -> None:
            if isinstance(error, NativeBuildError):
                print(f"rulewright: error: {error}", file=sys.stderr)
            else:
                shown(kind, error, tb)  # type: ignore[arg-type]

        sys.excepthook = one_line
        raise


if enabled():
    _activate_on_import()
