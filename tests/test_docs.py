"""Every snippet of README.md, docs/*.md and docs/games/*.md is run or checked, so the docs cannot drift.

Each fenced block of the docs is one test item, named `FILE:LINE`. How a block is checked is
said by an HTML comment on the last non-blank line before its fence (invisible once rendered):

    <!-- docs-test: MODE -->

MODE is one of:

- `skip: REASON` -- not checked; the reason is required (a diagram, a command that writes into
  the package, a sample only produced under conditions the suite cannot set up);
- `rules FILE` -- a complete rule file or variant: written as FILE (relative to the doc's work
  folder) when its turn comes, then `rulewright check FILE` must succeed;
- `file FILE` -- a rule file written before any block of the doc runs, for the commands of
  the page that use it (which check it: a file shown to be refused is one of these);
- `fragment` or `fragment with tests/docs/CONTEXT.yaml` -- top-level keys of a rule file,
  completed into a small game (a hexagon board, a phase with one action, an end and a score;
  the fragment's `boards:` replace the small board, a top-level `effect:` becomes that
  action's effect, its actions join the phase), with the declarations of CONTEXT merged
  under it, then checked with `rulewright check`;
- `scenario FILE` -- a scenario file: written as FILE, `rulewright scenario FILE` must pass;
- `commands` -- a shell block whose lines (comments removed) are rulewright commands, each run
  and each must not fail (exit 0, or 1 for `diff` and `scenario --against`, which report);
- `synopsis` -- a shell block of command outlines (`[--out DIR]`): each command exists and
  takes every `--option` written;
- `run` (the default for a block without a language whose first line starts with `$ `):
  each `$ rulewright ...` line is run and what it prints must be the lines that follow. `...`
  alone on a line stands for any lines, `...` inside a line for any text; box-drawing
  characters and runs of spaces are not compared (a table's widths change with its numbers).
  `run; ID is PATH` runs a bundled rule set id that only the docs' own files make (a
  tutorial's variant) as the rule file PATH, and shows PATH as ID again in the output.

A ```python block is run by default (`from rulewright ...`, with the docs' work folder as the
current directory). Any other block without a marker fails: say how to check it, or why not.

The blocks of one doc run in order in one temporary work folder holding `tests/` (a link to
this repository's) and copies of `rules/` and `generated/` (which the commands see as the
bundled ones), so a later block sees the files an earlier one
wrote, and the shown paths (`rules/china-cornett/base.yaml`, `my-variants/careful.yaml`)
are the docs' own. Commands run in-process at 100 columns.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import re
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from rulewright.cli import cli
from rulewright.commands import COMMANDS
from rulewright.core import paths
from tests.helpers.docs import Block, blocks

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "games").glob("*.md"))]
BOX = re.compile(r"[\u2500-\u257f]")

SKELETON: dict[str, Any] = {
    "rulewright": 1,
    "game": "docs-fragment",
    "players": 2,
    "boards": {"docs_board": {"hexagon": 2}},
    "end": "true",
    "scoring": {"docs_score": "0"},
}


ALL = [b for doc in DOCS for b in blocks(doc)]


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    """One work folder per doc: `tests/` linked, `rules/` and `generated/` copied."""
    made: dict[Path, Path] = {}
    for doc in DOCS:
        work = tmp_path_factory.mktemp(doc.stem)
        (work / "tests").symlink_to(ROOT / "tests")
        shutil.copytree(ROOT / "rules", work / "rules")
        shutil.copytree(ROOT / "generated", work / "generated")
        for block in blocks(doc):  # `file NAME` blocks are there from the start
            kind, _, name = block.mode().partition(" ")
            if kind == "file":
                (work / name).parent.mkdir(parents=True, exist_ok=True)
                (work / name).write_text("\n".join(block.body) + "\n", encoding="utf-8")
        made[doc] = work
    return made


def invoke(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(cli, args, env={"COLUMNS": "100"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def command_args(line: str) -> list[str]:
    words = shlex.split(line, comments=True)
    assert words and words[0] in ("rulewright", ".venv/bin/rulewright"), f"not a rulewright command: {line}"
    return words[1:]


def normalise(text: str) -> list[str]:
    out = [" ".join(BOX.sub(" ", line).split()) for line in text.strip("\n").split("\n")]
    return [line for line in out if line]


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; `...` alone stands for any lines, `...` in a line for any text."""
    if not expected:
        return not actual
    head = expected[0]
    if head == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("..."))
    return re.fullmatch(pattern, actual[0]) is not None and matches(expected[1:], actual[1:])


def check_run(block: Block, aliases: dict[str, str]) -> None:
    commands: list[tuple[str, list[str]]] = []
    for line in block.body:
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"{block.where}: output before any `$ ` command"
            commands[-1][1].append(line)
    for command, shown in commands:
        args = [aliases.get(a, a) for a in command_args(command)]
        _, output = invoke(args)
        for ruleset_id, path in aliases.items():
            output = output.replace(path, ruleset_id)
        want, got = normalise("\n".join(shown)), normalise(output)
        if not matches(want, got) and os.environ.get("DOCS_TEST_UPDATE") and "..." not in want:
            rewrite(block, ["$ " + command, *shown], ["$ " + command, *output.rstrip("\n").split("\n")])
            continue
        assert matches(want, got), (
            f"{block.where}: `{command}` printed\n{output}\nbut the doc shows\n" + "\n".join(shown)
            + "\n(DOCS_TEST_UPDATE=1 writes what it printed into the doc, where it shows no `...`)")


def rewrite(block: Block, old: list[str], new: list[str]) -> None:
    """Replace a command's shown output in the doc by what it printed (DOCS_TEST_UPDATE=1)."""
    text = block.doc.read_text(encoding="utf-8")
    before, after = "\n".join(old) + "\n", "\n".join(x.rstrip() for x in new) + "\n"
    assert text.count(before) == 1, f"{block.where}: cannot find the output to rewrite"
    block.doc.write_text(text.replace(before, after), encoding="utf-8")


def check_rules(block: Block, work: Path, name: str) -> None:
    target = work / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(block.body) + "\n", encoding="utf-8")
    code, output = invoke(["check", name])
    assert code == 0, f"{block.where}: `rulewright check {name}` failed:\n{output}"


def fragment_file(block: Block, context: str | None) -> str:
    data = yaml.safe_load("\n".join(block.body)) or {}
    assert isinstance(data, dict), f"{block.where}: a fragment is a mapping of top-level keys"
    game = dict(SKELETON)
    if context is not None:
        extra = yaml.safe_load((ROOT / context).read_text(encoding="utf-8"))
        for key, value in extra.items():  # (its `boards:` replace the small board, as a fragment's do)
            merge = isinstance(value, dict) and isinstance(game.get(key), dict) and key != "boards"
            game[key] = {**game[key], **value} if merge else value
    effect = data.pop("effect", None)
    for key, value in data.items():
        merge = isinstance(value, dict) and isinstance(game.get(key), dict) and key != "boards"
        game[key] = {**game[key], **value} if merge else value
    actions = dict(game.get("actions") or {})
    if effect is not None or not actions:
        actions["docs_action"] = {"effect": effect if effect is not None else ["pass"]}
    game["actions"] = actions
    if "phases" not in data:  # a first phase for the actions no phase of the context lists
        phases = dict(game.get("phases") or {})
        listed = {a for p in phases.values() for a in p.get("actions", [])}
        unlisted = [a for a in actions if a not in listed]
        game["phases"] = {"docs_phase": {"actions": unlisted}, **phases} if unlisted or not phases else phases
    return yaml.safe_dump(game, sort_keys=False, allow_unicode=True)


def check_synopsis(block: Block) -> None:
    for line in block.body:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        words = command_args(line)
        name = words[0]
        code, helptext = invoke([name, "--help"])
        assert code == 0, f"{block.where}: no command `{name}`:\n{helptext}"
        for word in words[1:]:
            for option in re.findall(r"--[a-z][a-z-]*", word):
                assert re.search(rf"(^|[\s,]){option}\b", helptext, re.M), (
                    f"{block.where}: `rulewright {name}` takes no `{option}`")


def check_commands(block: Block) -> None:
    for line in block.body:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        args = command_args(line)
        code, output = invoke(args)
        reporting = args[0] == "diff" or "--against" in args
        assert code == 0 or (reporting and code == 1), f"{block.where}: `{line}` exited {code}:\n{output}"


def check_python(block: Block) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile("\n".join(block.body), block.where, "exec"), {"__name__": "docs"})  # noqa: S102


class _StandIn:
    """What `rules_dir()` or `generated_dir()` gives in a doc's work folder. A module first
    imported while one was in place (a command's, loaded when it runs) holds it as its own: the
    next block replaces it as it replaces the original."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __call__(self) -> Path:
        return self.folder


def bundle_in(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled rules and modules are the work folder's: a doc's `variant new NAME` or
    `compile` writes there, never into this repository. (The commands' modules, which the CLI
    loads as a command runs, are loaded first, so that they hold the originals to replace.)"""
    for module_name in COMMANDS.values():
        importlib.import_module(module_name)
    originals = {"rules_dir": paths.rules_dir, "generated_dir": paths.generated_dir}
    folders = {"rules_dir": work / "rules", "generated_dir": work / "generated"}
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("rulewright"):
            for name, original in originals.items():
                found = getattr(module, name, None)
                if found is original or isinstance(found, _StandIn):
                    monkeypatch.setattr(module, name, _StandIn(folders[name]))


@pytest.fixture(autouse=True)
def _no_stand_in_left() -> Iterator[None]:
    """A module imported while a block ran holds a stand-in monkeypatch did not set: it is given
    back the original after the test, so no other test sees a doc's work folder."""
    yield
    originals = {"rules_dir": paths.rules_dir, "generated_dir": paths.generated_dir}
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("rulewright"):
            for name, original in originals.items():
                if isinstance(getattr(module, name, None), _StandIn):
                    setattr(module, name, original)


@pytest.fixture(scope="module")
def blocks_run() -> dict[Path, int]:
    """How many blocks of each page, from its top, have run in its work folder in this process."""
    return {}


@pytest.mark.parametrize("block", ALL, ids=[b.where for b in ALL])
def test_doc_block(block: Block, workdirs: dict[Path, Path], blocks_run: dict[Path, int],
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A block runs after every block above it on its page, in the page's work folder: a block may
    use what an earlier one wrote. Run in order (one process) each block runs once; where
    pytest-xdist gave the earlier blocks to another process, they run here first, again."""
    work = workdirs[block.doc]
    monkeypatch.chdir(work)
    bundle_in(work, monkeypatch)
    page = [b for b in ALL if b.doc == block.doc]
    here = page.index(block)
    for earlier in page[blocks_run.get(block.doc, 0):here]:
        try:
            run_block(earlier, work)
        except (Exception, pytest.fail.Exception) as exc:  # (pytest.fail's is a BaseException)
            pytest.fail(f"{block.where}: the earlier block {earlier.where}, run first in this process, "
                        f"failed: {exc}")
    blocks_run[block.doc] = here + 1
    run_block(block, work)


def run_block(block: Block, work: Path) -> None:
    mode = block.mode()
    kind, _, rest = mode.partition(" ")
    if mode.startswith("skip:"):
        assert mode[len("skip:"):].strip(), f"{block.where}: `skip:` needs a reason"
        return
    if mode == "unmarked":
        pytest.fail(f"{block.where}: a ```{block.lang} block without a `<!-- docs-test: MODE -->` marker "
                    "(see tests/test_docs.py for the modes)")
    if kind == "rules":
        check_rules(block, work, rest.strip())
    elif kind == "file":  # written with the work folder; what uses it checks it
        assert (work / rest.strip()).read_text(encoding="utf-8") == "\n".join(block.body) + "\n"
        assert any(rest.strip().rpartition("/")[2] in line for b in ALL if b.doc == block.doc and b is not block
                   for line in b.body), f"{block.where}: no other block of the page uses {rest.strip()}"
    elif kind == "fragment":
        context = rest.removeprefix("with").strip() or None
        text = fragment_file(block, context)
        (work / "fragment.yaml").write_text(text, encoding="utf-8")
        code, output = invoke(["check", "fragment.yaml"])
        assert code == 0, f"{block.where}: the fragment does not check:\n{output}\nas a game:\n{text}"
    elif kind == "scenario":
        name = rest.strip()
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text("\n".join(block.body) + "\n", encoding="utf-8")
        code, output = invoke(["scenario", name])
        assert code == 0, f"{block.where}: the scenario does not pass:\n{output}"
    elif kind == "commands":
        check_commands(block)
    elif kind == "synopsis":
        check_synopsis(block)
    elif kind == "python":
        check_python(block)
    elif kind.rstrip(";") == "run":
        aliases: dict[str, str] = {}
        for alias in re.findall(r"(\S+) is (\S+)", rest.partition("(")[0]):
            aliases[alias[0]] = alias[1]
        check_run(block, aliases)
    else:
        pytest.fail(f"{block.where}: unknown docs-test mode `{mode}`")


def test_every_doc_has_blocks() -> None:
    """The collection itself: the docs are found and parsed (a fence left open would stop it)."""
    assert len(DOCS) >= 6 and len(ALL) >= 50
    assert {b.doc.name for b in ALL} >= {"README.md", "language.md", "variants.md", "scenarios.md"}


def test_unmarked_block_fails(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text("```yaml\na: 1\n```\n\n<!-- docs-test: skip: a reason -->\n```yaml\nb: 2\n```\n"
                   "```\n$ rulewright list\n```\n")
    found = blocks(doc)
    assert [b.mode() for b in found] == ["unmarked", "skip: a reason", "run"]


def test_output_matching() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["games per second ..."], ["games per second 88.9 (2.25 s, 1 worker)"])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert normalise("│ x   │  y │\n\n") == ["x y"]



# The reference tables of docs/language.md, checked against the compiler's own tables.

LANGUAGE = ROOT / "docs" / "language.md"


def table(header: str) -> list[str]:
    """The first cell of each row of the table of language.md whose header row is `header`."""
    lines = LANGUAGE.read_text(encoding="utf-8").split("\n")
    assert header in lines, f"docs/language.md has no table `{header}`"
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split(" | ")]


def test_builtins_table_is_the_registry() -> None:
    """docs/language.md's table of built-in functions is compiler/builtins/library.py's, row for
    row: every built-in once, in the registry's order, with its parameters' names and types, its
    result and its doc line word for word; nothing else."""
    from rulewright.compiler.builtins import BUILTINS, docs_table

    rows = table("| built-in | what it gives |")
    listed = [re.match(r"\| `([a-z_0-9]+)\(", row) for row in rows]
    names = [m.group(1) if m else row for m, row in zip(listed, rows, strict=True)]
    assert sorted(set(names) - set(BUILTINS)) == [], "listed but no built-in"
    assert sorted(set(BUILTINS) - set(names)) == [], "built-ins the table does not list"
    assert len(names) == len(set(names)), "a built-in listed twice"
    want = docs_table().splitlines()[2:]
    for row, name in zip(rows, names, strict=True):
        b = BUILTINS[name]
        assert cells(row)[0] == f"`{b.signature}`", f"`{name}`'s signature differs from the registry's"
        assert cells(row)[1] == b.described, f"`{name}`'s doc line differs from the registry's"
    assert rows == want, "the table's rows are not in the registry's order (print compiler.builtins.docs_table())"


def test_aggregates_are_listed() -> None:
    from rulewright.compiler.builtins import AGGREGATES

    text = LANGUAGE.read_text(encoding="utf-8")
    assert all(f"`{a}`" in text or f"`{a}(" in text for a in AGGREGATES)


def test_values_table_is_the_checkers() -> None:
    """Every name of compiler/builtins/values.py VALUES is listed with its type, and nothing else."""
    from rulewright.compiler.builtins import VALUES

    listed = {}
    for row in table("| name | type | what it is |"):
        name, ty, _ = cells(row)
        listed[name.strip("`")] = ty.strip("`")
    assert listed == {name: ty for name, (ty, _, _) in VALUES.items()}


def test_top_level_keys_table_is_the_builders() -> None:
    from rulewright.compiler.build.keys import TOP_KEYS

    listed = [name for row in table("| key | what it holds |") for name in re.findall(r"`([a-z_]+)`", cells(row)[0])]
    assert sorted(listed) == sorted(TOP_KEYS)


def test_every_key_of_a_rule_file_is_documented() -> None:
    """The keys inside a field, an action, a trigger, a phase, an option, a board, a board's
    `expect:`, a component and a cached definition are each named in language.md."""
    from rulewright.compiler.build import keys

    text = LANGUAGE.read_text(encoding="utf-8")
    tables = ("FIELD_KEYS", "ACTION_KEYS", "TRIGGER_KEYS", "PHASE_KEYS", "OPTION_KEYS", "BOARD_KEYS", "EXPECT_KEYS",
              "COMPONENT_KEYS", "DEFINE_KEYS", "GRAPH_KEYS", "HEXMAP_KEYS", "REGION_KIND_KEYS")
    missing = [f"{t}: {key}" for t in tables for key in getattr(keys, t)
               if not re.search(rf"`{key}(:|`| )", text) and not re.search(rf"\b{key}:", text)]
    assert missing == []


def test_types_table_is_what_the_checker_accepts() -> None:
    """Each type of the table is accepted as a parameter's type (on a wall, for its own two),
    and every word the checker reserves for a kind of value that it accepts is listed."""
    from rulewright.compiler import check
    from rulewright.compiler.driver import analyse

    listed = {name for row in table("| type | its values |") for name in re.findall(r"`([a-z]+)`", cells(row)[0])}
    wall = ROOT / "tests" / "games" / "growing-wall.yaml"

    def accepted(word: str, tmp: Path) -> bool:
        probe = tmp / f"probe_{word}.yaml"
        probe.write_text(f'extends: {wall}\ndefine:\n  "type_probe(x: {word})": "1"\n', encoding="utf-8")
        _, diagnostics, _ = analyse(probe)
        return not [d for d in diagnostics if d.severity == "error"]

    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        assert {w for w in listed if not accepted(w, tmp)} == set(), "listed types the checker refuses"
        candidates = set(check.KIND_WORDS) | {"wallpiece", "wallface"}
        assert {w for w in candidates if accepted(w, tmp)} - listed == set(), "types the table does not list"


@pytest.mark.parametrize(("folder", "header"), [("check", "| module | stage | what it does |"),
                                               ("build", "| module | what it reads |")])
def test_a_stages_table_is_its_modules(folder: str, header: str) -> None:
    """docs/compiler.md's table of the checker's stages (compiler/check/) and of the builder's
    modules (compiler/build/) each list every module of that folder, and no other."""
    lines = (ROOT / "docs" / "compiler.md").read_text(encoding="utf-8").split("\n")
    assert header in lines, f"docs/compiler.md has no table of compiler/{folder}/'s modules"
    rows = []
    for line in lines[lines.index(header) + 2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    listed = {m for row in rows for m in re.findall(r"`([a-z_]+\.py)`", cells(row)[0])}
    assert listed == {p.name for p in (ROOT / "compiler" / folder).glob("*.py")}


def test_every_module_of_the_compiler_is_named_in_its_docs() -> None:
    """docs/compiler.md names each module of compiler/, by its path under compiler/ or, in a
    package's table, its file name, and each module of core/ by its path (core/load.py);
    docs/optimiser.md names each pass and each analysis (issue 35: the picture and the tables
    describe the stages as they are)."""
    compiler_doc = (ROOT / "docs" / "compiler.md").read_text(encoding="utf-8")
    optimiser_doc = (ROOT / "docs" / "optimiser.md").read_text(encoding="utf-8")
    unnamed = []
    for path in sorted((ROOT / "compiler").rglob("*.py")):
        relative = path.relative_to(ROOT / "compiler").as_posix()
        if path.parent.name in ("passes", "analysis") and path.name != "__init__.py":
            if not any(w in optimiser_doc for w in (f"`{path.stem}`", f"`{path.name}`", relative)):
                unnamed.append(relative)
        elif relative not in compiler_doc and f"`{path.name}`" not in compiler_doc:
            unnamed.append(relative)
    unnamed += [f"core/{path.name}" for path in sorted((ROOT / "core").glob("*.py"))
                if path.name != "__init__.py" and f"core/{path.name}" not in compiler_doc]
    assert unnamed == [], "modules of compiler/ and core/ no doc names"
