"""The driver: chains the stages and is the only place that turns problems into exceptions.

    resolve (load + extends) -> build_ir (parse) -> check (typed IR) -> lower -> emit

`compile_file(path)` returns the generated module's text; `write_modules` writes several at
once, all or nothing, even if killed half way (a journal, below); `check_output` says what in
a generated folder differs from what compile writes.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..core.paths import GAME_ID, JOURNAL, display, is_module_name, module_name, rules_dir
from ..core.source import CompileError, Diagnostic, SourceSpan
from . import ir
from .build import build_ir
from .check import check
from .codegen import context, render
from .inherit import Emitted, derive
from .lower import lower
from .passes import ALL, optimise, transform
from .resolve import Resolved, ResolveError, resolve
from .typed import TypedProgram


@dataclass(frozen=True, slots=True)
class Compiled:
    ruleset: ir.RuleSet
    source: str  # the generated module
    files: tuple[Path, ...]
    passes: frozenset[str] = ALL  # the optimisation passes it was compiled with (compiler/passes/)
    # what the module was laid out from, which a variant's module is derived from (compiler/inherit.py)
    emitted: Emitted | None = field(default=None, compare=False, repr=False)

    @property
    def relative_path(self) -> Path:
        """generated/<game>/<variant>.py, relative to the generated folder."""
        return Path(module_name(self.ruleset.game)) / f"{module_name(self.ruleset.variant)}.py"


def build(path: Path) -> tuple[Resolved, ir.RuleSet | None, list[Diagnostic]]:
    """Resolve `extends:` and build the IR, with the problems found so far. A rule set that
    cannot be resolved (missing, cyclic, not YAML) raises CompileError."""
    try:
        resolved = resolve(path)
    except ResolveError as exc:
        raise CompileError(exc.diagnostics) from None
    ruleset, diagnostics = build_ir(resolved.tree, tuple(display(f) for f in resolved.files), resolved.variant,
                                    resolved.merged)
    if ruleset is not None and GAME_ID.fullmatch(ruleset.game) and not is_module_name(ruleset.game):
        node = resolved.tree.get("game")
        diagnostics.append(Diagnostic(node.span if node is not None else resolved.tree.span,
                                      f"game id `{ruleset.game}` cannot be a module name: "
                                      f"`{module_name(ruleset.game)}` is reserved in Python",
                                      "choose another game id"))
    return resolved, ruleset, diagnostics


def analyse(path: Path) -> tuple[ir.RuleSet | None, list[Diagnostic], tuple[Path, ...]]:
    """Run every stage up to lowering (which finds the limits of a move a rule set cannot
    keep); never raises for a bad rule file."""
    try:
        resolved, ruleset, diagnostics = build(path)
    except CompileError as exc:
        return None, list(exc.diagnostics), ()
    if ruleset is None:
        return None, diagnostics, resolved.files
    problems, typed = check(ruleset)
    if typed is not None and not diagnostics:  # (what building refused is not in the typed program)
        problems, _ = lower(typed)  # (its problems only: no pass runs, before it or after it)
    return ruleset, diagnostics + problems, resolved.files


@dataclass(frozen=True)
class Checked:
    """A rule set read, resolved, built and checked: what every set of passes starts from (the
    typed IR is frozen, so one checked rule set can be optimised and lowered many ways)."""

    resolved: Resolved
    ruleset: ir.RuleSet
    typed: TypedProgram


def check_file(path: Path) -> Checked:
    """Read, resolve, build and check one rule set; raises CompileError with every problem found."""
    resolved, ruleset, diagnostics = build(path)
    if ruleset is None or diagnostics:
        raise CompileError(diagnostics)
    problems, typed = check(ruleset)
    if typed is None:
        raise CompileError(problems)
    return Checked(resolved, ruleset, typed)


def compile_file(path: Path, passes: frozenset[str] = ALL) -> Compiled:
    """Compile one rule set with the optimisation passes named (all of them unless told:
    compiler/passes/); raises CompileError with every problem found."""
    return compile_checked(check_file(path), passes)


def compile_checked(checked: Checked, passes: frozenset[str] = ALL) -> Compiled:
    """The back half of compile_file: a checked rule set optimised with `passes`, lowered and emitted."""
    resolved, ruleset = checked.resolved, checked.ruleset
    shown = ruleset.files
    typed = optimise(checked.typed, passes)
    problems, program = lower(typed)
    if problems:
        raise CompileError(problems)
    program = transform(program, typed, passes)  # (the passes of the lowered level)
    sources = list(zip(shown, resolved.texts, strict=True))  # the texts as read and checked
    values = context(ruleset, program, sources, passes)
    text = render(values)
    try:
        compile(text, str(Path(module_name(ruleset.game)) / f"{ruleset.variant}.py"), "exec")
    except SyntaxError as exc:  # a compiler bug, not a user error: say so plainly
        span = SourceSpan(shown[-1], 1, 1, 1, 1)
        raise CompileError([Diagnostic(span, f"internal error: generated code does not parse ({exc.msg}, "
                                             f"line {exc.lineno})", "please report this rule file")]) from None
    except (RecursionError, ValueError, MemoryError) as exc:  # Python's own limits on one module
        span = SourceSpan(shown[-1], 1, 1, 1, 1)
        raise CompileError([Diagnostic(span, f"the rule set is too large to compile: {type(exc).__name__}",
                                       "split deeply nested effects or very long lists")]) from None
    return Compiled(ruleset, text, resolved.files, passes, Emitted(program, values))


def share_bases(compiled: list[Compiled]) -> list[Compiled]:
    """The bundled modules as they are written to generated/: a bundled variant's module
    subclasses the module of a rule set it extends and keeps only what differs
    (compiler/inherit.py): of the rule sets of its game it builds on, the one that leaves it the
    fewest lines (a stacked variant may build on either of two). The rule sets extended are
    compiled too, and written with them, so a variant never builds on a stale module. (`--out`
    and in-memory compiles keep whole modules.)"""
    full = {c.files[-1].resolve(): c for c in compiled}
    out = dict(full)
    bundled = rules_dir().resolve()

    def parents_of(c: Compiled) -> list[Path]:
        """The rule sets of its game that `c` builds on, the one it extends first."""
        here = c.files[-1].resolve()
        if here.parent.parent != bundled:
            return []
        return [f.resolve() for f in reversed(c.files[:-1]) if f.resolve().parent == here.parent]

    todo = list(compiled)
    while todo:  # the rule sets extended, compiled too, with the same passes
        child = todo.pop()
        for parent_file in parents_of(child):
            if parent_file not in full:
                full[parent_file] = out[parent_file] = compile_file(parent_file, child.passes)
                todo.append(full[parent_file])
    origins: dict[Path, dict[str, str]] = {}

    def module_of(c: Compiled) -> str:
        return f"rulewright.generated.{module_name(c.ruleset.game)}.{module_name(c.ruleset.variant)}"

    def settle(file: Path) -> dict[str, str]:
        """Derive the module of `file` (its parents first); the module defining each of its names."""
        if file in origins:
            return origins[file]
        c = full[file]
        assert c.emitted is not None  # (compiled here)
        names = {name: module_of(c) for name in c.emitted.defines()}
        best: tuple[str, dict[str, str]] | None = None
        for parent_file in parents_of(c):
            parent = full[parent_file]
            assert parent.emitted is not None
            inherited = settle(parent_file)
            derived = derive(parent.emitted, c.emitted, module_of(parent), inherited)
            if derived is not None and (best is None or derived[0].count("\n") < best[0].count("\n")):
                text, defined = derived
                best = text, {**inherited, **{name: module_of(c) for name in defined}}
        if best is not None:
            out[file] = Compiled(c.ruleset, best[0], c.files, c.passes)
            names = best[1]
        origins[file] = names
        return names

    for file in sorted(full):
        settle(file)
    return [out[file] for file in sorted(out)]


# -- Writing generated modules ---------------------------------------------------------------
# `write_modules` is all or nothing, even if the process is killed half way. It writes every
# new file to a temporary file (`.rulewright-*.tmp`, next to its target) and syncs it; then it
# commits the list of renames to do as a journal, `<out>/.rulewright-journal.json`, written to
# a temporary file and renamed into place (one atomic rename: the commit point); then it does
# the renames and deletes the journal. A run killed before the commit leaves the old modules
# (and temporary files, which the next compile deletes); one killed after it leaves a journal,
# which the next `compile` or `compile --check` (`recover`) rolls forward before anything else.
# A journal rather than a staging folder swapped in by one rename: generated/ is a package
# that holds hand-written files and is linked file by file into editable installs, and a
# folder cannot be atomically swapped for another that is not empty.
TEMP_PREFIX = ".rulewright-"
_JOURNAL_FORMAT = "rulewright compile journal 1"
# generated/__init__.py, as compile writes it (`--out` folders get only the games' packages).
TOP_INIT = '''"""Compiled rule sets, one subpackage per game, one module per rule set. Written by
`rulewright compile`; never edit by hand."""

import os as _os

# An editable install links files one by one; a game compiled after the install is found in
# the real folder too.
_real = _os.path.dirname(_os.path.realpath(__file__))
if _real not in __path__:
    __path__.append(_real)
'''
_MAX_GENERATED_BYTES = 16 << 20  # a generated file read back to compare it; a larger one differs


class OutputError(Exception):
    """A generated folder that compile cannot use as it is (an unreadable journal)."""


def package_files(compiled: list[Compiled], out_dir: Path, top: bool = False) -> dict[Path, str]:
    """The package files compile writes beside the modules: each game's `__init__.py` and
    `py.typed`, and with `top` (the bundled generated/) the top folder's."""
    files: dict[Path, str] = {}
    if top:
        files[out_dir / "__init__.py"] = TOP_INIT
        files[out_dir / "py.typed"] = ""
    for c in compiled:
        package = out_dir / c.relative_path.parent
        files[package / "__init__.py"] = f'"""Compiled rule sets of {c.ruleset.game}."""\n'  # (a checked game id)
        files[package / "py.typed"] = ""
    return files


def _read_back(path: Path) -> str | None:
    """A generated file's text, or None if it is missing, no regular file, too large or not text."""
    from ..core.files import NotARuleFile, read_file_safely

    try:
        return read_file_safely(path, _MAX_GENERATED_BYTES).decode("utf-8")
    except (OSError, ValueError, NotARuleFile):
        return None


def stale(compiled: list[Compiled], out_dir: Path) -> list[Path]:
    """The generated modules that are missing or differ from what the rules compile to."""
    return [out_dir / c.relative_path for c in compiled if _read_back(out_dir / c.relative_path) != c.source]


def check_output(compiled: list[Compiled], out_dir: Path, top: bool = False, complete: bool = False
                 ) -> list[tuple[Path, str]]:
    """Every file of `out_dir` that is not what compile writes, and what is wrong with it:
    a module missing or out of date, a package file missing or edited, and (with `complete`:
    `compiled` is every rule set written there) a stray module that no rule set compiles to or
    a temporary file left by an interrupted compile. Call `recover` first."""
    found = [(target, "out of date" if target.is_file() else "missing") for target in stale(compiled, out_dir)]
    wanted = package_files(compiled, out_dir, top)
    for target, text in wanted.items():
        if _read_back(target) != text:
            found.append((target, "edited package file" if os.path.lexists(target) else "missing package file"))
    if complete and out_dir.is_dir():
        known = {out_dir / c.relative_path for c in compiled} | set(wanted)
        for path in sorted(out_dir.rglob("*")):
            if "__pycache__" in path.relative_to(out_dir).parts:
                continue
            if path.name.startswith(TEMP_PREFIX):
                found.append((path, "temporary file left by an interrupted compile"))
            elif path.suffix == ".py" and path not in known:
                found.append((path, "stray module: no rule set compiles to it"))
    return found


@contextlib.contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    """An exclusive lock on `out_dir` (where the OS has flock): one compile at a time writes
    there, so none deletes the temporary files of another."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    fd = os.open(out_dir, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # (which releases the lock)


def _sync_folder(folder: Path) -> None:
    """Makes the renames and new files of `folder` durable (where folders can be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a platform whose folders cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _journal_entries(out_dir: Path) -> list[tuple[Path, Path]] | None:
    """The renames a committed journal lists (temporary file, target), or None if there is no
    journal. Raises OutputError if it is not one this compiler wrote."""
    from ..core.files import NotARuleFile, read_file_safely

    journal = out_dir / JOURNAL
    try:
        data = read_file_safely(journal, _MAX_GENERATED_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, NotARuleFile) as exc:
        raise OutputError(f"{display(journal)}: cannot read the journal of an interrupted compile ({exc}); "
                          "delete it, then run `rulewright compile`") from None
    try:
        content = json.loads(data.decode("utf-8"))
        if not isinstance(content, dict) or content.get("format") != _JOURNAL_FORMAT:
            raise ValueError("not a rulewright journal")
        entries: list[tuple[Path, Path]] = []
        for pair in content["renames"]:
            tmp, target = (PurePosixPath(p) for p in pair)
            for p in (tmp, target):
                if p.is_absolute() or ".." in p.parts or not 1 <= len(p.parts) <= 2:
                    raise ValueError(f"{p} is not a file of the generated folder")
            if tmp.parent != target.parent or not tmp.name.startswith(TEMP_PREFIX) \
                    or target.name.startswith(TEMP_PREFIX):
                raise ValueError(f"{tmp} -> {target} is not the rename of a generated file")
            entries.append((out_dir / tmp, out_dir / target))
    except (ValueError, KeyError, TypeError) as exc:
        raise OutputError(f"{display(journal)}: not the journal of an interrupted compile ({exc}); "
                          "delete it, then run `rulewright compile`") from None
    return entries


def _roll_forward(out_dir: Path, entries: list[tuple[Path, Path]]) -> list[Path]:
    """Does each rename of a committed journal whose temporary file is still there (the others
    were done), then deletes the journal. Returns the files renamed into place."""
    done = []
    for tmp, target in entries:
        if os.path.lexists(tmp):
            os.replace(tmp, target)
            done.append(target)
    for folder in sorted({target.parent for _, target in entries}):
        _sync_folder(folder)
    (out_dir / JOURNAL).unlink(missing_ok=True)
    _sync_folder(out_dir)
    return done


def recover(out_dir: Path) -> list[Path]:
    """Finishes a compile into `out_dir` that was interrupted after it committed its journal;
    returns the files it renamed into place. Without a journal, does nothing (writes nothing)."""
    if not os.path.lexists(out_dir / JOURNAL):
        return []
    with _locked(out_dir):
        entries = _journal_entries(out_dir)
        return _roll_forward(out_dir, entries) if entries is not None else []


def _remove_temporaries(out_dir: Path) -> None:
    """Deletes the temporary files an interrupted compile left (its journal rolled forward)."""
    for pattern in (f"{TEMP_PREFIX}*", f"*/{TEMP_PREFIX}*"):
        for path in out_dir.glob(pattern):
            if path.name != JOURNAL and not path.is_dir():
                path.unlink(missing_ok=True)


def _write_temporary(folder: Path, data: bytes) -> Path:
    """A new temporary file in `folder` holding `data`, synced to disk."""
    fd, name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(name, 0o644)  # mkstemp makes files private; a module is an ordinary file
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return folder / os.path.basename(name)  # (mkstemp's name is absolute; `folder` may be relative)


def write_modules(compiled: list[Compiled], out_dir: Path, top: bool = False) -> list[Path]:
    """Write every module and its package files, all or nothing (see the journal above); with
    `top`, `out_dir` is the bundled generated/ and its own package files are written too.
    Returns the modules that changed and the package files restored (edited ones)."""
    wanted = {out_dir / c.relative_path: c.source for c in compiled} | package_files(compiled, out_dir, top)
    out_dir.mkdir(parents=True, exist_ok=True)
    with _locked(out_dir):
        entries = _journal_entries(out_dir)
        if entries is not None:
            _roll_forward(out_dir, entries)
        _remove_temporaries(out_dir)
        pending: list[tuple[Path, Path]] = []
        changed: list[Path] = []
        try:
            for target, text in wanted.items():
                old = _read_back(target)
                if old == text:
                    continue
                if old is not None or target.name not in ("__init__.py", "py.typed"):
                    changed.append(target)
                target.parent.mkdir(parents=True, exist_ok=True)
                pending.append((_write_temporary(target.parent, text.encode("utf-8")), target))
            if not pending:
                return []
            renames = [[tmp.relative_to(out_dir).as_posix(), target.relative_to(out_dir).as_posix()]
                       for tmp, target in pending]
            journal = _write_temporary(out_dir, json.dumps({"format": _JOURNAL_FORMAT, "renames": renames},
                                                           indent=1).encode("utf-8"))
            pending.append((journal, out_dir / JOURNAL))  # (deleted, should the commit fail)
            for folder in sorted({target.parent for _, target in pending}):
                _sync_folder(folder)  # the temporary files are there before the journal says so
            os.replace(journal, out_dir / JOURNAL)  # the commit: from here on, the compile is done
        except BaseException:
            for tmp, _ in pending:
                tmp.unlink(missing_ok=True)
            raise
        _roll_forward(out_dir, pending[:-1])
    return changed
