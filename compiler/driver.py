"""The driver: chains the stages and is the only place that turns problems into exceptions.

    resolve (load + extends) -> build_ir (parse) -> check -> emit

`compile_file(path)` returns the generated module's text; `write_modules` writes several at
once, all or nothing.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import ir
from .build import build_ir
from .check import check
from .codegen import emit
from .inherit import defines, derive
from .paths import display, module_name, rules_dir
from .resolve import Resolved, ResolveError, resolve
from .source import CompileError, Diagnostic, SourceSpan


@dataclass(frozen=True, slots=True)
class Compiled:
    ruleset: ir.RuleSet
    source: str  # the generated module
    files: tuple[Path, ...]

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
    ruleset, diagnostics = build_ir(resolved.tree, tuple(display(f) for f in resolved.files), resolved.variant)
    return resolved, ruleset, diagnostics


def analyse(path: Path) -> tuple[ir.RuleSet | None, list[Diagnostic], tuple[Path, ...]]:
    """Run every stage up to the checker; never raises for a bad rule file."""
    try:
        resolved, ruleset, diagnostics = build(path)
    except CompileError as exc:
        return None, list(exc.diagnostics), ()
    if ruleset is None:
        return None, diagnostics, resolved.files
    problems, _ = check(ruleset)
    return ruleset, diagnostics + problems, resolved.files


def compile_file(path: Path) -> Compiled:
    """Compile one rule set; raises CompileError with every problem found."""
    resolved, ruleset, diagnostics = build(path)
    if ruleset is None or diagnostics:
        raise CompileError(diagnostics)
    shown = ruleset.files
    problems, program = check(ruleset)
    if problems:
        raise CompileError(problems)
    sources = [(name, f.read_text(encoding="utf-8")) for name, f in zip(shown, resolved.files, strict=True)]
    text = emit(ruleset, program, sources)
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
    return Compiled(ruleset, text, resolved.files)


def share_bases(compiled: list[Compiled]) -> list[Compiled]:
    """The bundled modules as they are written to generated/: a bundled variant's module
    subclasses the module of the rule set it extends and keeps only what differs
    (compiler/inherit.py). The rule sets extended are compiled too, and written with them, so a
    variant never builds on a stale module. (`--out` and in-memory compiles keep whole modules.)"""
    full = {c.files[-1].resolve(): c for c in compiled}
    out = dict(full)
    bundled = rules_dir().resolve()

    def parent_of(c: Compiled) -> Path | None:
        here = c.files[-1].resolve()
        if len(c.files) < 2 or here.parent.parent != bundled or c.files[-2].resolve().parent != here.parent:
            return None
        return c.files[-2].resolve()

    todo = list(compiled)
    while todo:  # the rule sets extended, compiled too
        parent_file = parent_of(todo.pop())
        if parent_file is not None and parent_file not in full:
            full[parent_file] = out[parent_file] = compile_file(parent_file)
            todo.append(full[parent_file])
    origins: dict[Path, dict[str, str]] = {}

    def module_of(c: Compiled) -> str:
        return f"rulewright.generated.{module_name(c.ruleset.game)}.{module_name(c.ruleset.variant)}"

    def settle(file: Path) -> dict[str, str]:
        """Derive the module of `file` (its parent first); the module defining each of its names."""
        if file in origins:
            return origins[file]
        c = full[file]
        parent_file = parent_of(c)
        names = {name: module_of(c) for name in defines(c.source)}
        if parent_file is not None:
            inherited = settle(parent_file)
            text = derive(full[parent_file].source, c.source, module_of(full[parent_file]), inherited)
            if text is not None:
                out[file] = Compiled(c.ruleset, text, c.files)
                names = {**inherited, **{name: module_of(c) for name in defines(text)}}
        origins[file] = names
        return names

    for file in sorted(full):
        settle(file)
    return [out[file] for file in sorted(out)]


def stale(compiled: list[Compiled], out_dir: Path) -> list[Path]:
    """The generated files that are missing or differ from what the rules compile to."""
    out = []
    for c in compiled:
        target = out_dir / c.relative_path
        if not target.is_file() or target.read_text(encoding="utf-8") != c.source:
            out.append(target)
    return out


def write_modules(compiled: list[Compiled], out_dir: Path) -> list[Path]:
    """Write every module, all or nothing: each goes to a temporary file first, and they are
    moved into place only once all were written. Returns the files that changed."""
    pending: list[tuple[Path, Path]] = []
    try:
        for c in compiled:
            target = out_dir / c.relative_path
            if target.is_file() and target.read_text(encoding="utf-8") == c.source:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(prefix=".rulewright-", suffix=".py", dir=target.parent)
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(c.source)
            os.chmod(tmp_name, 0o644)  # mkstemp makes files private; a module is an ordinary file
            pending.append((Path(tmp_name), target))
        for c in compiled:
            package = (out_dir / c.relative_path).parent
            for marker in ("__init__.py", "py.typed"):
                if not (package / marker).exists():
                    (package / marker).write_text("" if marker == "py.typed" else
                                                  f'"""Compiled rule sets of {c.ruleset.game}."""\n',
                                                  encoding="utf-8")
    except BaseException:
        for tmp, _ in pending:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, target in pending:
        os.replace(tmp, target)
    return [target for _, target in pending]
