"""Hostile rule files and a hostile generated folder (issue 9): whatever a rule file is called,
whatever it is (a FIFO, a device, a folder, a socket, a huge file) and whatever it names with
`extends:`, the answer is one clean `path:line:col: error:`, never a hang, a traceback or code
made from its text; `compile` is all or nothing even when killed between two renames, and
`compile --check` names every file of generated/ that compile would not have written.

The corpus is tests/hostile/files/ (its README says how a case reads); names git cannot store
are made here, in tmp_path.
"""

from __future__ import annotations

import ast
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

from rulewright.commands import compile as compile_command
from rulewright.compiler import driver
from rulewright.compiler.codegen import _comment, _docstring
from rulewright.compiler.driver import Compiled, analyse, check_output, compile_file, recover, write_modules
from rulewright.core.load import MAX_RULE_FILE_BYTES, read_rule_file
from rulewright.core.paths import generated_dir, rules_dir
from rulewright.core.source import CompileError
from tests.helpers.cli import run

CORPUS = Path(__file__).resolve().parent / "hostile" / "files"
CASES = sorted(p for p in CORPUS.glob("*.yaml") if not p.name.startswith("_"))
MINIMAL = (CORPUS / "_minimal.yaml").read_text(encoding="utf-8")
NAME_RULE = ("a rule file's name is lowercase letters, digits, `-` and `_`, ending in `.yaml` "
             "(it is the variant's module name)")
PATH_RULE = "a rule file's path holds only ASCII letters, digits, `-`, `_`, `.` and `/`"


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """A case that blocks (a FIFO opened for reading) fails after 10 minutes instead of hanging
    the suite. A guard against hanging, not a measure of speed: no test here takes more than a
    few seconds of work, but a loaded machine stretches seconds into minutes (30 s, then 180 s,
    were once too short under a load of 10)."""
    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("hung on a hostile file")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(600)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the working folder: files are shown by their names, as a user sees them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def headline(result: Result) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.stderr.splitlines()[0]


def error_headlines(path: Path) -> list[str]:
    _, diagnostics, _ = analyse(path)
    return [d.render().splitlines()[0] for d in diagnostics if d.severity == "error"]


def make(line: str, sockets: list[socket.socket]) -> None:
    """One `# make: <name> = <what>` line of a corpus file, in the working folder."""
    name, _, what = (part.strip() for part in line.partition("="))
    kind, _, arg = what.partition(" ")
    if kind == "fifo":
        os.mkfifo(name)
    elif kind == "dir":
        os.mkdir(name)
    elif kind == "symlink":
        os.symlink(arg, name)
    elif kind == "bytes":
        with open(name, "wb") as handle:
            handle.truncate(int(arg))  # sparse: no disk space, no time
    elif kind == "copy":
        shutil.copy(CORPUS / arg, name)
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX)
        s.bind(name)
        sockets.append(s)
    else:
        raise AssertionError(f"unknown # make: {line}")


def assert_refused(arg: str, expected: str) -> None:
    """`expected` is the one error of `arg`, from the compiler API, `check` and `compile`."""
    path = Path(arg)
    assert error_headlines(path) == [expected]
    with pytest.raises(CompileError) as info:
        compile_file(path)
    assert [d.render().splitlines()[0] for d in info.value.diagnostics] == [expected]
    checked = run("check", arg)
    assert checked.exit_code == 1 and headline(checked) == expected
    assert checked.stderr.splitlines()[-1] == "rulewright: error: 1 problem in 1 rule file"
    compiled = run("compile", arg, "--out", "out")
    assert compiled.exit_code == 1 and headline(compiled) == expected
    assert compiled.stderr.splitlines()[-1] == "rulewright: error: 1 problem in 1 rule file; nothing written"
    assert not Path("out").exists()


# -- the corpus: kinds, sizes and names of files, and what `extends:` names ----------------------
def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 10
    for case in CASES:
        assert any(line.startswith("# expect: ") for line in case.read_bytes().decode("latin-1").splitlines())


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_a_hostile_file_gets_its_one_clean_error(case: Path, here: Path) -> None:
    lines = case.read_bytes().decode("latin-1").splitlines()
    (expected,) = [line.removeprefix("# expect: ") for line in lines if line.startswith("# expect: ")]
    sockets: list[socket.socket] = []
    try:
        for line in lines:
            if line.startswith("# make: "):
                make(line.removeprefix("# make: "), sockets)
        shutil.copy(case, case.name)
        assert_refused(case.name, expected)
    finally:
        for s in sockets:
            s.close()


def test_a_hostile_key_never_reaches_the_terminal(here: Path) -> None:
    shutil.copy(CORPUS / "escape_in_key.yaml", "escape_in_key.yaml")
    result = run("check", "escape_in_key.yaml")
    assert result.exit_code == 1 and "\x1b" not in result.output
    assert "`\\x1b[2J\\x1b[31mgotcha`" in result.stderr


@pytest.mark.parametrize("kind", ["fifo", "symlink /dev/zero", "bytes 57000000", "dir", "socket"])
def test_a_rule_file_that_is_no_regular_file_is_refused_without_being_read(
        kind: str, here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Named on the command line: `check`, `compile` and the API answer at once, without
    opening it (os.open would fail the test) and without parsing a byte of it."""
    sockets: list[socket.socket] = []
    make(f"x.yaml = {kind}", sockets)
    what = {"fifo": "not a rule file: it is a FIFO (named pipe)",
            "symlink /dev/zero": "not a rule file: it is a character device",
            "bytes 57000000": "rule file too large: 57,000,000 bytes, more than the limit of 1,048,576 bytes",
            "dir": "not a rule file: it is a directory",
            "socket": "not a rule file: it is a socket"}[kind]
    expected = f"x.yaml:1:1: error: {what}"
    try:
        with monkeypatch.context() as m:
            def no_open(*args: object, **kwargs: object) -> int:
                raise AssertionError("a hostile file was opened")
            m.setattr(os, "open", no_open)
            assert error_headlines(Path("x.yaml")) == [expected]
            with pytest.raises(CompileError):
                compile_file(Path("x.yaml"))
        compiled = run("compile", "x.yaml", "--out", "out")
        assert compiled.exit_code == 1 and headline(compiled) == expected
        if kind != "dir":  # (`check` reads a folder as the rule files in it)
            assert_refused("x.yaml", expected)
    finally:
        for s in sockets:
            s.close()


def test_the_size_limit_is_far_above_every_bundled_rule_file(here: Path) -> None:
    largest = max(p.stat().st_size for p in Path(rules_dir()).glob("*/*.yaml"))
    assert largest * 20 < MAX_RULE_FILE_BYTES == 1 << 20
    Path("edge.yaml").write_bytes(b"#" * MAX_RULE_FILE_BYTES)
    assert read_rule_file("edge.yaml") == "#" * MAX_RULE_FILE_BYTES  # the limit itself is allowed
    Path("edge.yaml").write_bytes(b"#" * (MAX_RULE_FILE_BYTES + 1))
    assert error_headlines(Path("edge.yaml")) == [
        "edge.yaml:1:1: error: rule file too large: 1,048,577 bytes, more than the limit of 1,048,576 bytes"]


# -- hostile names: made here, since git cannot store most of them -------------------------------
HOSTILE_NAMES = {
    'x"""\nimport os; os.system("echo pwned")\n""".yaml': None,  # closed the module docstring once
    "new\nline.yaml": None,  # injected a line after a `# comment`
    "it's.yaml": None,
    "back\\slash.yaml": None,
    "tab\there.yaml": None,
    "carriage\rreturn.yaml": None,
    "esc\x1b[2J.yaml": None,
    "Upper.yaml": None,
    "2p.yaml": None,
    "dotted.name.yaml": None,
    "rules.txt": None,
    "class.yaml": "file name `class.yaml` cannot name a rule set: `class` is reserved in Python",
    "__init__.yaml": "file name `__init__.yaml` cannot name a rule set: `__init__` is reserved in Python",
}


def escaped(text: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=ascii)
def test_a_hostile_file_name_is_refused(name: str, here: Path) -> None:
    Path(name).write_text(MINIMAL, encoding="utf-8")
    message = HOSTILE_NAMES[name] or f"file name `{escaped(name)}` cannot name a rule set: {NAME_RULE}"
    assert_refused(name, f"{escaped(name)}:1:1: error: {message}")


@pytest.mark.parametrize("folder", ['we"ird', "new\nline", "sp ace", "caf\u00e9"], ids=ascii)
def test_a_hostile_folder_name_is_refused(folder: str, here: Path) -> None:
    Path(folder).mkdir()
    (Path(folder) / "tiny.yaml").write_text(MINIMAL, encoding="utf-8")
    shown = f"{escaped(folder)}/tiny.yaml"
    expected = f"{shown}:1:1: error: path `{shown}` cannot be written into generated code: {PATH_RULE}"
    assert_refused(f"{folder}/tiny.yaml", expected)


def test_a_file_name_that_is_not_utf8_is_refused(here: Path) -> None:
    """Bytes that are no UTF-8 (a surrogate escape in Python): through a real process, since
    such a name can only be passed as bytes."""
    with open(os.path.join(os.fsencode(here), b"\xff.yaml"), "wb") as handle:
        handle.write(MINIMAL.encode())
    expected = f"\\udcff.yaml:1:1: error: file name `\\udcff.yaml` cannot name a rule set: {NAME_RULE}"
    assert error_headlines(Path(os.fsdecode(b"\xff.yaml"))) == [expected]
    done = subprocess.run([sys.executable, "-m", "rulewright", "check", b"\xff.yaml"],
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 1 and done.stderr.decode().splitlines()[0] == expected


def test_a_hostile_name_in_extends_is_refused_at_the_file_it_names(here: Path) -> None:
    Path('a"""b.yaml').write_text(MINIMAL, encoding="utf-8")
    Path("mine.yaml").write_text('extends: a"""b.yaml\n', encoding="utf-8")
    _, diagnostics, _ = analyse(Path("mine.yaml"))
    assert [d.render().splitlines()[0] for d in diagnostics] == [
        f'a"""b.yaml:1:1: error: file name `a"""b.yaml` cannot name a rule set: {NAME_RULE}']
    assert diagnostics[0].hint == "`extends:` names it at mine.yaml:1:10; rename the file, e.g. `my-variant.yaml`"


def test_a_plain_name_compiles_and_its_comments_name_it(here: Path) -> None:
    """The control: the same rules under a plain name compile, with `# file:line` comments."""
    Path("tiny-one.yaml").write_text(MINIMAL, encoding="utf-8")
    source = compile_file(Path("tiny-one.yaml")).source
    assert "#   tiny-one.yaml  sha256:" in source and "  # tiny-one.yaml:" in source
    assert ast.get_docstring(ast.parse(source)) == "Tiny: rule set `tiny/tiny-one`, compiled to a state machine."


def test_a_title_with_quotes_stays_a_docstring(here: Path) -> None:
    Path("quoted.yaml").write_text(MINIMAL.replace("title: Tiny", "title: Say \"hi\" '''"), encoding="utf-8")
    tree = ast.parse(compile_file(Path("quoted.yaml")).source)
    assert ast.get_docstring(tree) == """Say "hi" ''': rule set `tiny/quoted`, compiled to a state machine."""
    assert [type(node).__name__ for node in tree.body[:2]] == ["Expr", "ImportFrom"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text())
def test_any_text_is_one_docstring_and_one_comment(text: str) -> None:
    literal = _docstring(text)
    assert ast.literal_eval(literal) == text
    module = ast.parse(f"{literal}\nx = 1  # {_comment(text)}\n")
    assert len(module.body) == 2 and ast.get_docstring(module, clean=False) == text
    assert len(f"# {_comment(text)}".splitlines()) == 1


# -- compile is all or nothing, even when killed ----------------------------------------------------
def tiny_rule_sets(title: str) -> list[Compiled]:
    """Three rule sets of one game (a base and two variants): a new title changes all three."""
    Path("base.yaml").write_text(MINIMAL.replace("title: Tiny", f"title: {title}"), encoding="utf-8")
    Path("fast.yaml").write_text("extends: base.yaml\noptions:\n  speed: {default: fast}\n", encoding="utf-8")
    Path("slow.yaml").write_text("extends: base.yaml\noptions:\n  speed: {choices: [slow]}\n", encoding="utf-8")
    return [compile_file(Path(name)) for name in ("base.yaml", "fast.yaml", "slow.yaml")]


MODULES = ("base.py", "fast.py", "slow.py")


def texts(out: Path) -> list[str]:
    return [(out / "tiny" / m).read_text(encoding="utf-8") for m in MODULES]


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.rglob(".rulewright-*"))


def killed_after(renames: int, compiled: list[Compiled], out: Path) -> int:
    """`write_modules` in a child process killed (os._exit: nothing cleans up) as it is about
    to do its rename number `renames` + 1; its exit status."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            done = 0
            real = os.replace

            def replace(src: str | Path, dst: str | Path) -> None:
                nonlocal done
                if done == renames:
                    os._exit(9)
                done += 1
                real(src, dst)

            os.replace = replace  # type: ignore[assignment]
            write_modules(compiled, out)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.mark.parametrize("renames", [0, 1, 2, 3])
def test_a_compile_killed_between_renames_is_finished_by_the_next_one(renames: int, here: Path) -> None:
    """Four renames: the journal's (the commit), then the three modules'. Killed before the
    commit, the old modules stay and the next compile removes the temporary files; killed
    after it, the next `compile --check` rolls the journal forward: never a mixed folder."""
    out = here / "out"
    old = tiny_rule_sets("Tiny")
    write_modules(old, out)
    before = texts(out)
    new = tiny_rule_sets("Tiny II")
    after = [c.source for c in new]
    assert killed_after(renames, new, out) == 9
    assert (out / driver.JOURNAL).exists() == (renames > 0)
    assert leftovers(out)  # temporary files, a journal, or both

    checked = run("compile", "--check", "--out", "out", "base.yaml", "fast.yaml", "slow.yaml")
    if renames == 0:
        assert checked.exit_code == 1 and texts(out) == before
        assert checked.stdout.splitlines() == [f"out/tiny/{m}: out of date" for m in MODULES]
        assert [what for _, what in check_output(new, out, complete=True)] == \
            ["out of date"] * 3 + ["temporary file left by an interrupted compile"] * 4
    else:
        assert checked.exit_code == 0, checked.output
        assert checked.stdout == "3 modules up to date\n" and texts(out) == after
        assert leftovers(out) == []

    written = run("compile", "--out", "out", "base.yaml", "fast.yaml", "slow.yaml")
    assert written.exit_code == 0, written.output
    assert texts(out) == after and leftovers(out) == []
    assert check_output(new, out, complete=True) == []


@pytest.mark.parametrize("renames", [0, 1, 3])
def test_a_failed_rename_leaves_old_modules_or_a_journal(renames: int, here: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The same, with the rename raising (a full disk): before the commit, everything written
    is taken back; after it, the journal finishes the work in the next run."""
    out = here / "out"
    write_modules(tiny_rule_sets("Tiny"), out)
    before = texts(out)
    new = tiny_rule_sets("Tiny II")
    real, done = os.replace, [0]

    def replace(src: str | Path, dst: str | Path) -> None:
        if done[0] == renames:
            raise OSError(28, "No space left on device")
        done[0] += 1
        real(src, dst)

    with monkeypatch.context() as m:
        m.setattr(os, "replace", replace)
        with pytest.raises(OSError):
            write_modules(new, out)
    if renames == 0:
        assert texts(out) == before and leftovers(out) == []
        return
    assert leftovers(out)
    assert recover(out) == [out / "tiny" / m for m in MODULES[renames - 1:]]
    assert texts(out) == [c.source for c in new] and leftovers(out) == []


def test_a_compile_that_cannot_write_says_so(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tiny_rule_sets("Tiny")

    def full(src: str | Path, dst: str | Path) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(os, "replace", full)
        result = run("compile", "--out", "out", "base.yaml")
    assert result.exit_code == 1
    assert result.stderr == "rulewright: error: cannot write to out: No space left on device\n"
    assert leftovers(Path("out")) == []


@pytest.mark.parametrize(("journal", "why"), [
    ("{not json", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ('{"format": "something else", "renames": []}', "not a rulewright journal"),
    ('{"format": "rulewright compile journal 1", "renames": [["../../.rulewright-x.tmp", "evil.py"]]}',
     "../../.rulewright-x.tmp is not a file of the generated folder"),
    ('{"format": "rulewright compile journal 1", "renames": [["tiny/.rulewright-x.tmp", "other/base.py"]]}',
     "tiny/.rulewright-x.tmp -> other/base.py is not the rename of a generated file"),
])
def test_a_journal_compile_did_not_write_is_refused(journal: str, why: str, here: Path) -> None:
    write_modules(tiny_rule_sets("Tiny"), here / "out")
    before = texts(here / "out")
    (here / "out" / driver.JOURNAL).write_text(journal, encoding="utf-8")
    expected = (f"rulewright: error: out/{driver.JOURNAL}: not the journal of an interrupted compile ({why}); "
                "delete it, then run `rulewright compile`\n")
    for args in (["--check"], []):
        result = run("compile", *args, "--out", "out", "base.yaml")
        assert result.exit_code == 1 and result.stderr == expected
    assert texts(here / "out") == before


# -- compile --check: stray modules and edited package files in generated/ ---------------------
def test_compile_check_names_stray_modules_and_edited_package_files(here: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    generated = here / "generated"
    shutil.copytree(generated_dir(), generated, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(compile_command, "generated_dir", lambda: generated)
    # Each command below compiles every bundled rule set the same way: once is enough (what is
    # checked is what they find in, and write to, the copy of generated/).
    monkeypatch.setattr(driver, "compile_file", functools.cache(driver.compile_file))
    (generated / "mandarin" / "evil.py").write_text("import os\n", encoding="utf-8")
    (generated / "ghost").mkdir()
    (generated / "ghost" / "__init__.py").write_text("", encoding="utf-8")
    (generated / "sneaky.py").write_text("", encoding="utf-8")
    (generated / "china_cornett" / "__init__.py").write_text("import os\n", encoding="utf-8")
    (generated / "__init__.py").write_text("print('hello')\n", encoding="utf-8")
    (generated / "py.typed").write_text("partial\n", encoding="utf-8")
    (generated / "mandarin" / "py.typed").unlink()
    (generated / "china_schacht" / ".rulewright-abc123.tmp").write_text("half", encoding="utf-8")

    checked = run("compile", "--check")
    assert checked.exit_code == 1
    assert checked.stdout.splitlines() == [
        "generated/__init__.py: edited package file",
        "generated/py.typed: edited package file",
        "generated/china_cornett/__init__.py: edited package file",
        "generated/mandarin/py.typed: missing package file",
        "generated/china_schacht/.rulewright-abc123.tmp: temporary file left by an interrupted compile",
        "generated/ghost/__init__.py: stray module: no rule set compiles to it",
        "generated/mandarin/evil.py: stray module: no rule set compiles to it",
        "generated/sneaky.py: stray module: no rule set compiles to it",
    ]
    assert checked.stderr == ("rulewright: error: 5 files to rewrite or remove: run `rulewright compile`; "
                              "3 stray modules to delete by hand\n")

    written = run("compile")
    assert written.exit_code == 0, written.output
    assert written.stdout.splitlines() == [
        "wrote generated/__init__.py", "wrote generated/py.typed", "wrote generated/china_cornett/__init__.py"]
    for name in ("__init__.py", "py.typed", "china_cornett/__init__.py", "mandarin/py.typed"):
        assert (generated / name).read_bytes() == (generated_dir() / name).read_bytes()
    again = run("compile", "--check")
    assert again.exit_code == 1 and again.stderr == "rulewright: error: 3 stray modules to delete by hand\n"
    assert [line.split(":")[0] for line in again.stdout.splitlines()] == [
        "generated/ghost/__init__.py", "generated/mandarin/evil.py", "generated/sneaky.py"]


# -- compile FILE without --out never overwrites a bundled module -----------------------------------
@pytest.fixture
def bundled_copy(here: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of generated/ that `compile` writes to instead of the real one (should a test fail)."""
    generated = here / "generated"
    shutil.copytree(generated_dir(), generated, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(compile_command, "generated_dir", lambda: generated)
    return generated


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", ["base.yaml", "my-china.yaml"])
def test_a_rule_file_outside_rules_needs_out(name: str, bundled_copy: Path) -> None:
    cornett = Path(rules_dir()) / "china-cornett" / "base.yaml"
    Path(name).write_text(cornett.read_text(encoding="utf-8").replace("title: China", "title: Mine"),
                          encoding="utf-8")
    before = snapshot(bundled_copy)
    result = run("compile", name)
    module = f"china_cornett/{Path(name).stem.replace('-', '_')}.py"
    would = "overwrite the bundled module" if name == "base.yaml" else "write"
    assert result.exit_code == 1 and result.stderr == (
        f"rulewright: error: {name}: it is not a bundled rule file (those are in rules/), and would {would} "
        f"generated/{module}: compile it with `--out DIR` (`play`, `simulate` and rulewright.load() take the "
        "rule file itself, compiled in memory)\n")
    assert snapshot(bundled_copy) == before
    assert run("compile", name, "--out", "mine").exit_code == 0
    assert (Path("mine") / module).is_file()


def test_a_rule_file_under_rules_writes_only_its_own_game(bundled_copy: Path, here: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A file in rules/mandarin/ whose `game:` is china-cornett would write into another
    game's package: refused."""
    rules = here / "rules"
    shutil.copytree(rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(compile_command, "rules_dir", lambda: rules)
    shutil.copy(rules / "china-cornett" / "base.yaml", rules / "mandarin" / "base-two.yaml")
    before = snapshot(bundled_copy)
    result = run("compile", "rules/mandarin/base-two.yaml")
    assert result.exit_code == 1 and result.stderr == (
        "rulewright: error: rules/mandarin/base-two.yaml: its `game: china-cornett` is not its folder's game, "
        "`mandarin`, and would write generated/china_cornett/base_two.py: compile it with `--out DIR` "
        "(`play`, `simulate` and rulewright.load() take the rule file itself, compiled in memory)\n")
    assert snapshot(bundled_copy) == before
