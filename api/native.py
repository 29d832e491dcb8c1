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
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core.paths import checkout_root, generated_dir, package_root

ENV = "RULEWRIGHT_NATIVE"  # "1": run on the native build of the current sources
DIR_ENV = "RULEWRIGHT_NATIVE_DIR"  # where builds live, if not build/native/ of the checkout
# The build's shared library holds the code of every module; each module is a small extension
# that imports it by this name (`rulewright_native__mypyc`).
GROUP = "rulewright_native"
MANIFEST = "manifest.json"
# Part of every key: a change of how the tree is built (mypyc's options below) makes new builds.
RECIPE = "mypyc opt_level=3 debug_level=0 multi_file=1 strict_dunder_typing=0"
KEEP = 3  # builds kept in build/native/ (the newest), for switching back and forth between sources
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
class Sources:
    """The modules a native build compiles: each one's path in the package
    (`rulewright/runtime/state.py`) and its exact bytes, and the key of them all."""

    files: tuple[tuple[str, bytes], ...]
    key: str

    @property
    def modules(self) -> list[str]:
        return [name.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for name, _ in self.files]


def _source_folders() -> tuple[Path, Path]:
    root = checkout_root()
    return (root / "runtime" if root else package_root() / "runtime"), generated_dir()


def _mypy_version() -> str:
    try:
        from mypy.version import __version__
    except ImportError:  # no mypy: no build can be made, none can match
        return "none"
    return __version__


def current_sources() -> Sources:
    """Every runtime/**/*.py (its boards/ too) and generated/**/*.py as they are now, and their key."""
    runtime, generated = _source_folders()
    found = [(f"rulewright/runtime/{p.relative_to(runtime).as_posix()}", p) for p in runtime.rglob("*.py")
             if "__pycache__" not in p.parts]
    found += [(f"rulewright/generated/{p.relative_to(generated).as_posix()}", p) for p in generated.rglob("*.py")
              if "__pycache__" not in p.parts]
    files = tuple((name, path.read_bytes()) for name, path in sorted(found))
    digest = hashlib.sha256()
    for part in (sys.version, sys.implementation.cache_tag, EXT_SUFFIX, _mypy_version(), RECIPE):
        digest.update(part.encode() + b"\0")
    for name, text in files:
        digest.update(f"{name}\0{len(text)}\0".encode() + text)
    return Sources(files, digest.hexdigest()[:24])


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


def find_build(sources: Sources | None = None) -> Path | None:
    """The folder of the finished build of these (the current) sources, or None."""
    key = (sources or current_sources()).key
    path = native_root() / key
    return path if (path / MANIFEST).is_file() else None


def _library(path: Path) -> Path:
    return path / f"{GROUP}__mypyc{EXT_SUFFIX}"


def activate(package_path: MutableSequence[str]) -> Path:
    """Make the package (`rulewright`, whose `__path__` is `package_path`) import its runtime and
    generated modules from the native build of the current sources; called by
    rulewright/__init__.py before either is imported. Raises NativeBuildError if there is no
    such build: the interpreted modules are never used instead."""
    sources = current_sources()
    path = find_build(sources)
    if path is None:
        raise NativeBuildError(f"no native build for the current sources ({ENV}=1; key {sources.key} not in "
                               f"{native_root()}): {HINT}, or unset {ENV}")
    for name in ("rulewright.runtime", "rulewright.generated"):
        if name in sys.modules:
            raise NativeBuildError(f"{ENV}=1, but {name} is already imported (interpreted)")
    library = f"{GROUP}__mypyc"
    spec = importlib.util.spec_from_file_location(library, _library(path))
    if spec is None or spec.loader is None:
        raise NativeBuildError(f"native build {path} has no {_library(path).name}: {HINT}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[library] = module
    spec.loader.exec_module(module)
    package_path.insert(0, str(path / "rulewright"))
    global _active
    _active = path
    return path


_active: Path | None = None


def active_build() -> Path | None:
    """The native build this process runs on, or None (interpreted)."""
    return _active


# -- building ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Built:
    path: Path
    key: str
    modules: int
    seconds: float  # of this build; 0 when an existing build of the same sources was found
    size: int  # bytes of extension modules
    reused: bool


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob(f"*{EXT_SUFFIX}"))


def build(jobs: int | None = None, say: Callable[[str], None] = lambda _: None) -> Built:
    """Build the native tree of the current sources (or find it built): mypyc translates every
    runtime and generated module, as one group, to C; gcc compiles it on `jobs` cores (all by
    default). Built in a temporary folder and renamed into place when complete, so a failed or
    interrupted build leaves nothing half written. Raises NativeBuildError with the compiler's
    last lines (and where its whole log is)."""
    sources = current_sources()
    found = find_build(sources)
    if found is not None:
        return Built(found, sources.key, len(sources.files), 0.0, _size(found), True)
    if importlib.util.find_spec("mypyc") is None:
        raise NativeBuildError("the native build needs mypyc, which comes with mypy: "
                               "pip install 'rulewright[dev]' (or mypy), and a C compiler")
    root = native_root()
    root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix=f".{sources.key}.", dir=root))
    log = root / "last-build.log"
    try:
        stage, out = work / "src", work / "out"
        for name, text in sources.files:
            target = stage / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text)
        (stage / "rulewright" / "__init__.py").write_bytes(b"")  # a package, not compiled
        jobs = jobs or os.cpu_count() or 1
        say(f"mypyc: {len(sources.files)} modules (runtime and generated) into {root}/{sources.key}, "
            f"{jobs} jobs")
        worker = [sys.executable, "-P", "-c", "from rulewright.native import _worker; _worker()",
                  str(work), str(jobs), *(name for name, _ in sources.files)]
        env = dict(os.environ, **{ENV: "0"})  # the worker itself runs interpreted
        ok = _run(worker, stage, env, log, say)
        if not ok:
            raise NativeBuildError(f"the native build failed, nothing was written (whole log: {log})",
                                   _failure(log))
        (out / MANIFEST).write_text(json.dumps({
            "key": sources.key, "python": sys.version, "mypy": _mypy_version(), "recipe": RECIPE,
            "modules": sources.modules, "seconds": round(time.perf_counter() - started, 1),
        }, indent=1) + "\n")
        final = root / sources.key
        try:
            os.rename(out, final)
        except OSError:  # built meanwhile by another process: keep that one
            if find_build(sources) is None:
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _prune(root, final)
    return Built(final, sources.key, len(sources.files), time.perf_counter() - started, _size(final), False)


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


def _prune(root: Path, keep: Path) -> None:
    """Remove all but the newest KEEP builds (a loaded build stays mapped in the processes using it)."""
    builds = sorted((p for p in root.iterdir() if (p / MANIFEST).is_file() and p != keep),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def _worker() -> None:
    """The build itself, in a process of its own run in the staged sources: `python -c ... WORK
    JOBS MODULE...` (see `build`)."""
    work, jobs, names = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    import importlib
    from concurrent.futures import ThreadPoolExecutor

    from mypyc.build import mypycify

    # setuptools has no type stubs (the project does not depend on them for these calls); mypyc
    # imported it first, so `distutils` is setuptools' copy, the one its build_ext uses.
    setup = importlib.import_module("setuptools").setup
    compiler_class = importlib.import_module("distutils.ccompiler").CCompiler

    print(f"progress: type-checking and translating {len(names)} modules to C", flush=True)
    started = time.perf_counter()
    extensions = mypycify(names, opt_level="3", debug_level="0", multi_file=True, group_name=GROUP,
                          target_dir=str(work / "c"))
    sources = sum(len(e.sources) for e in extensions)
    print(f"progress: translated in {time.perf_counter() - started:.0f} s; compiling {sources} C files "
          f"on {jobs} cores", flush=True)
    done = [0]

    def compile_parallel(self: Any, sources: list[str], output_dir: str | None = None,
                         macros: object = None, include_dirs: object = None, debug: bool = False,
                         extra_preargs: list[str] | None = None, extra_postargs: list[str] | None = None,
                         depends: object = None) -> list[str]:
        # distutils compiles one extension's C files one after the other: here, `jobs` at once
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)
            done[0] += 1
            if len(objects) > 1 and done[0] % 20 == 0:
                print(f"progress: {done[0]} C files compiled", flush=True)

        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(one, objects))
        return list(objects)

    compiler_class.compile = compile_parallel
    setup(name="rulewright-native", ext_modules=extensions, script_args=[
        "--quiet", "build_ext", "--build-lib", str(work / "out"), "--build-temp", str(work / "obj")])
    print(f"progress: compiled in {time.perf_counter() - started:.0f} s", flush=True)


# -- measuring ---------------------------------------------------------------------------------
def measure(ruleset: str, players: int | None, seconds: float, native: bool) -> dict[str, Any]:
    """Random playouts of a bundled rule set's generated module for `seconds`, in a fresh
    process, interpreted or on the native build (RULEWRIGHT_NATIVE=0 or 1): the games are those
    of seeds derive_seed(0, 0), derive_seed(0, 1), ... either way."""
    env = dict(os.environ, **{ENV: "1" if native else "0"})
    command = [sys.executable, "-c", "from rulewright.native import _bench_worker; _bench_worker()",
               ruleset, str(players or 0), repr(seconds)]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise NativeBuildError(f"{ruleset}, {'native' if native else 'interpreted'}: {said}")
    result: dict[str, Any] = json.loads(done.stdout)
    if result["native"] != native:
        raise NativeBuildError(f"{ruleset}: the {'native' if native else 'interpreted'} run ran "
                               f"{'native' if result['native'] else 'interpreted'} code")
    return result


def _bench_worker() -> None:
    """`python -c ... RULESET PLAYERS SECONDS`: one JSON object of playouts, moves and time."""
    from .loading import load
    from .match import play_game
    from .runtime.rng import derive_seed

    ruleset, wanted, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    game = load(ruleset)
    players = wanted if wanted in game.info.players else game.info.players[0]
    playouts = moves = 0
    started = time.perf_counter()
    while True:
        result = play_game(game, players, derive_seed(0, playouts))
        if result.error:
            raise SystemExit(f"random game {playouts} (seed {result.seed}) raised {result.error}")
        playouts += 1
        moves += result.moves
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    state_module = sys.modules[game.state_class.__module__]
    print(json.dumps({"ruleset": ruleset, "players": players, "playouts": playouts, "moves": moves,
                      "elapsed": elapsed, "native": active_build() is not None,
                      "compiled": not str(getattr(state_module, "__file__", "")).endswith(".py")}))


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
