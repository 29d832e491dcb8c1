"""Hostile logs, scenario files, rule set ids, terminal text and signals (issue 9).

Every hostile input gets its exact clean error: one message, non-zero exit, no traceback, and
no code run. The corpus is tests/hostile/logs/ and tests/hostile/scenarios/; what git cannot
hold (FIFOs, links to devices, huge or binary files, Python modules) is made in tmp_path.
The signal tests run `rulewright simulate` as a process group of its own and signal it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from click.testing import Result

import rulewright
from rulewright.commands import list as list_command
from rulewright.core import paths
from rulewright.match import Interrupted, write_log
from rulewright.runtime.errors import BadSetup
from rulewright.terminal import printable
from tests.helpers.cli import group_members, run

HERE = Path(__file__).parent
LOGS = HERE / "hostile" / "logs"
SCENARIOS = HERE / "hostile" / "scenarios"
TINY = HERE / "broken" / "_valid_minimal.yaml"  # a small valid rule set
RULEWRIGHT = Path(sys.executable).parent / "rulewright"
ACCEPTED = ("a file names its rule set only by bundled id (e.g. china-cornett, mandarin/money) or by rule file "
            "(.yaml or .yml, relative to the file)")
HEADER_FORM = '{"ruleset": ..., "players": ..., "seed": ..., "options": {...}}'


def plant_evil_module(folder: Path) -> Path:
    """An `evil.py` in `folder` that, if it ever ran, would create the file returned."""
    marker = folder / "ran"
    (folder / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\nGAME = None\n", encoding="utf-8")
    return marker


def one_error(result: Result) -> str:
    """The one line a failed command wrote on stderr (after checking there is only one)."""
    assert result.exit_code == 1, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


# -- replay: the corpus of hostile logs --------------------------------------------------------
REPLAY_ERRORS = {
    "module-header.jsonl": (1, f"header: `evil.py` is a Python module, whose code would run: {ACCEPTED}; to replay "
                               "under a generated module, name it on the command line: rulewright replay --ruleset "
                               "FILE.py LOG"),
    "module-path-header.jsonl": (1, "header: `../generated/china_cornett/base.py` is a Python module, whose code "
                                    f"would run: {ACCEPTED}; to replay under a generated module, name it on the "
                                    "command line: rulewright replay --ruleset FILE.py LOG"),
    "traversal-header.jsonl": (1, f"header: `china-cornett/../../../evil` names no rule set: {ACCEPTED}"),
    "markup-ruleset.jsonl": (1, f"header: `[/link] [bold]x` names no rule set: {ACCEPTED}"),
    "cut-mid-line.jsonl": (4, "the log is truncated: its last line is cut off (Expecting ':' delimiter: column 21)"),
    "no-final-line.jsonl": (4, "the log is truncated: it ends after 3 actions with no final state line (a complete "
                               'log ends with {"final": state})'),
    "no-moves.jsonl": (1, "the log has no moves: only a header"),
    "header-then-final.jsonl": (2, "the log has no moves: its header is followed by the final state"),
    "empty.jsonl": (1, f"empty log: expected a header line {HEADER_FORM}"),
    "broken-middle-line.jsonl": (3, "not a JSON line: Expecting ',' delimiter: column 41"),
    "two-headers.jsonl": (5, 'expected {"player": seat, "action": text} or {"final": state}'),
    "header-list.jsonl": (1, f"the first line must be the header {HEADER_FORM}"),
    "no-seed.jsonl": (1, f"the header has no `seed`: expected {HEADER_FORM}"),
    "players-text.jsonl": (1, 'bad header: `players` must be a whole number, not "2"'),
    "seed-fraction.jsonl": (1, "bad header: `seed` must be a whole number, not 1.5"),
    "seed-true.jsonl": (1, "bad header: `seed` must be a whole number, not true"),
    "huge-seed.jsonl": (1, "not a JSON line: a number too long (the limit is 4,300 digits)"),
    "ruleset-number.jsonl": (1, "bad header: `ruleset` must name a rule set (a bundled id or a rule file), not 7"),
    "options-list.jsonl": (1, 'bad header: `options` must map option names to values, as text (e.g. {"board": '
                              '"hex5"}), not ["board"]'),
    "options-number.jsonl": (1, 'bad header: `options` must map option names to values, as text (e.g. {"board": '
                                '"hex5"}), not {"board": 5}'),
    "nine-players.jsonl": (1, "header: china-cornett is played by 2 players, not 9"),
    "missing-rule-file.jsonl": (1, "header: no such rule file: `nowhere.yaml` (looked for at {dir}/nowhere.yaml)"),
    "bad-seat.jsonl": (2, "seat 7 is no seat of this game: a log counts seats from 0 (P1) to 1 (P2)"),
}


def test_the_corpus_is_all_asserted() -> None:
    assert {p.name for p in LOGS.iterdir()} == set(REPLAY_ERRORS) | {"control-characters.jsonl"}
    assert {p.name for p in SCENARIOS.iterdir()} == set(SCENARIO_ERRORS) | {"markup-names.yaml"}


@pytest.mark.parametrize("name", sorted(REPLAY_ERRORS))
def test_a_hostile_log_is_one_clean_error(name: str, tmp_path: Path) -> None:
    log = tmp_path / name
    shutil.copy(LOGS / name, log)
    marker = plant_evil_module(tmp_path)  # where a header naming `evil.py` would find it: never run
    line, message = REPLAY_ERRORS[name]
    result = run("replay", str(log))
    assert one_error(result) == f"{log}:{line}: error: {message.replace('{dir}', str(tmp_path))}"
    assert not marker.exists(), "a log's header ran a Python module"
    assert "identical" not in result.stdout


def test_a_cut_log_is_never_identical(tmp_path: Path) -> None:
    """A complete log replays; cut anywhere (within a line or between lines), it is an error."""
    log = tmp_path / "game.jsonl"
    assert run("simulate", "china-cornett", "-n", "1", "--seed", "5", "--log", str(log), "--json").exit_code == 0
    data = log.read_bytes()
    assert run("replay", str(log)).stdout.startswith("replayed 143 actions: identical")
    lines = data.splitlines(keepends=True)
    # (a log missing only its last newline is whole, and replays)
    for cut in (len(lines[0]), len(lines[0]) + 5, len(b"".join(lines[:40])), len(data) - 2, len(data) - 200):
        short = tmp_path / f"cut-{cut}.jsonl"
        short.write_bytes(data[:cut])
        result = run("replay", str(short))
        error = one_error(result)
        assert "the log is truncated" in error or "the log has no moves" in error, error


def test_control_characters_in_a_log_reach_the_terminal_escaped() -> None:
    log = LOGS / "control-characters.jsonl"
    error = one_error(run("replay", str(log)))
    assert error.startswith(f"{log}:2: error: illegal action `\\x1b]0;owned\\x07\\x1b[2J[bold]x` for P1: ")
    assert "\x1b" not in error and "\x07" not in error


def test_a_log_names_a_rule_file_relative_to_itself(tmp_path: Path) -> None:
    rules, logs = tmp_path / "rules", tmp_path / "logs"
    rules.mkdir()
    logs.mkdir()
    shutil.copy(TINY, rules / "tiny.yaml")
    log = logs / "game.jsonl"
    result = run("simulate", str(rules / "tiny.yaml"), "-n", "1", "--seed", "3", "--log", str(log), "--json")
    assert result.exit_code == 0, result.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["ruleset"] == "../rules/tiny.yaml"
    replayed = run("replay", str(log))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.splitlines()[0].endswith("actions: identical")

    # a rule file named by a log is a real rule file: a folder or a FIFO is refused
    (rules / "tiny.yaml").unlink()
    (rules / "tiny.yaml").mkdir()
    assert one_error(run("replay", str(log))) == (
        f"{log}:1: error: header: not a rule file (not a regular file): `../rules/tiny.yaml` (looked for at "
        f"{logs}/../rules/tiny.yaml)")
    (rules / "tiny.yaml").rmdir()
    os.mkfifo(rules / "tiny.yaml")
    assert one_error(run("replay", str(log))).endswith("error: header: not a rule file (not a regular file): "
                                                      f"`../rules/tiny.yaml` (looked for at {logs}/../rules/tiny.yaml)")


def test_a_rule_file_that_does_not_compile(tmp_path: Path) -> None:
    shutil.copy(HERE / "broken" / "unknown_name.yaml", tmp_path / "bad.yaml")
    log = tmp_path / "game.jsonl"
    log.write_text('{"ruleset":"bad.yaml","players":2,"seed":1,"options":{}}\n', encoding="utf-8")
    result = run("replay", str(log))
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines[0].endswith("bad.yaml:59:12: error: unknown name `rolls`")
    assert lines[-1] == f"{log}:1: error: the rule set `bad.yaml` does not compile: 1 problem, above"


def test_a_module_is_used_only_when_named_on_the_command_line(tmp_path: Path) -> None:
    module = tmp_path / "out" / "base.py"
    module.parent.mkdir()
    shutil.copy(paths.generated_dir() / "china_cornett" / "base.py", module)
    log = tmp_path / "game.jsonl"
    played = run("simulate", str(module), "-n", "1", "--seed", "2", "--log", str(log), "--json")
    assert played.exit_code == 0, played.output
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["ruleset"] == "out/base.py"
    assert one_error(run("replay", str(log))).startswith(
        f"{log}:1: error: header: `out/base.py` is a Python module, whose code would run: ")
    named = run("replay", "--ruleset", str(module), str(log))
    assert named.exit_code == 0, named.output
    assert named.stdout.splitlines()[0].endswith("actions: identical")
    bundled = run("replay", "--ruleset", "china-cornett", str(log))
    assert bundled.exit_code == 0 and "identical" in bundled.stdout


def test_an_abandoned_game_logs_its_last_state(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = run("play", "china-cornett", "--seed", "2", "--log", str(log), input="1\n1\nquit\n")
    assert result.exit_code == 0 and "game abandoned after" in result.stdout
    assert "final" in json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    replayed = run("replay", str(log))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.splitlines()[1] == "(the game was not finished: the log ends before the game does)"


def test_files_that_are_not_logs(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    assert one_error(run("replay", str(fifo))) == f"{fifo}: error: not a game log: it is a FIFO (named pipe)"
    zero = tmp_path / "zero.jsonl"
    zero.symlink_to("/dev/zero")
    assert one_error(run("replay", str(zero))) == f"{zero}: error: not a game log: it is a character device"
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b'{"ruleset":"china-cornett","players":2,"seed":1}\n\xff\xfe\n')
    assert one_error(run("replay", str(binary))) == f"{binary}:2: error: not UTF-8 text (byte 1 of the line)"
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n", encoding="utf-8")
    assert one_error(run("replay", str(deep))) == f"{deep}:1: error: not a JSON line: nested too deeply"
    long = tmp_path / "long.jsonl"
    long.write_text('{"ruleset":"' + "x" * (1 << 20) + '"}\n', encoding="utf-8")
    assert one_error(run("replay", str(long))) == (
        f"{long}:1: error: line longer than 1,048,576 bytes: not a line of a game log")


# -- scenarios ---------------------------------------------------------------------------------
SCENARIO_ERRORS = {
    "module-ruleset.yaml": ("2:10", f"`evil.py` is a Python module, whose code would run: {ACCEPTED}"),
    "module-path-ruleset.yaml": ("4:14", "`../../../generated/china_cornett/base.py` is a Python module, whose code "
                                         f"would run: {ACCEPTED}"),
    "traversal-ruleset.yaml": ("2:10", f"`china-cornett/../../../evil` names no rule set: {ACCEPTED}"),
    "missing-rule-file.yaml": ("2:10", "no such rule file: `nowhere.yaml` (looked for at {dir}/nowhere.yaml)"),
    "ruleset-list.yaml": ("2:10", "expected text here"),
}


@pytest.mark.parametrize("name", sorted(SCENARIO_ERRORS))
def test_a_hostile_scenario_file_is_a_clean_error(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    shutil.copy(SCENARIOS / name, path)
    marker = plant_evil_module(tmp_path)
    where, message = SCENARIO_ERRORS[name]
    result = run("scenario", str(path))
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines[0] == f"{path}:{where}: error: {message.replace('{dir}', str(tmp_path))}"
    problems = 2 if name == "ruleset-list.yaml" else 1  # and the scenario then names no rule set
    assert lines[-1] == f"rulewright: error: {problems} problem{'s' if problems > 1 else ''} in the scenarios"
    assert not marker.exists(), "a scenario file ran a Python module"


def test_scenario_names_are_printed_as_written() -> None:
    result = run("scenario", str(SCENARIOS / "markup-names.yaml"))
    assert result.exit_code == 1 and "Traceback" not in result.output  # the second one fails on purpose
    where = SCENARIOS / "markup-names.yaml"
    assert result.stdout.splitlines() == [
        f"PASS [/link] [bold]starts \\x1b[2J\\x1b]0;owned\\x07  ({paths.display(where)}:6)",
        f"FAIL [red]fails:smile:  ({paths.display(where)}:9)",
        "  to act: expected [/link]Barbara, got [bold]Alex",
        "1 passed, 1 failed",
    ]


def test_files_that_are_not_scenario_files(tmp_path: Path) -> None:
    def first_and_last(path: Path) -> tuple[str, str]:
        result = run("scenario", str(path))
        assert result.exit_code == 1 and "Traceback" not in result.output
        lines = result.stderr.splitlines()
        return lines[0], lines[-1]

    last = "rulewright: error: 1 problem in the scenarios"
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    assert first_and_last(fifo) == (f"{fifo}:1:1: error: not a scenario file: it is a FIFO (named pipe)", last)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    assert first_and_last(zero) == (f"{zero}:1:1: error: not a scenario file: it is a character device", last)
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * (1 << 20) + b"\n")
    assert first_and_last(big) == (f"{big}:1:1: error: scenario file too large: 1,048,579 bytes, more than the limit "
                                   "of 1,048,576", last)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"ruleset: china-cornett\n\xff\n")
    assert first_and_last(binary) == (f"{binary}:1:1: error: cannot read scenario file: not UTF-8 text (byte 24)",
                                      last)


# -- load() --------------------------------------------------------------------------------------
ID_ERROR = ("bad rule set id `{}`: an id is `game` or `game/variant` in lowercase letters, digits and `-` "
            "(e.g. china-cornett, mandarin/money)")


@pytest.mark.parametrize("bad, shown, hint", [
    ("china-cornett/../../../x", "china-cornett/../../../x", ""),
    ("../generated/china_cornett/base", "../generated/china_cornett/base", ""),
    ("China-Cornett", "China-Cornett", ""),
    ("", "", ""),
    ("china-cornett/base/x", "china-cornett/base/x", ""),
    ("/etc/passwd", "/etc/passwd", ""),
    ("__init__", "__init__", ""),
    ("china-cornett\n", "china-cornett\\x0a", ""),
    ("x" * 200, "x" * 80 + "...", ""),
    ("out/x.py", "out/x.py", "; to import a generated module file (trusted Python code), pass a path: "
                             "load(Path(...))"),
])
def test_load_accepts_only_well_formed_ids(bad: str, shown: str, hint: str) -> None:
    with pytest.raises(BadSetup) as info:
        rulewright.load(bad)
    assert str(info.value) == ID_ERROR.format(shown) + hint


def test_load_never_climbs_out_of_the_generated_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    generated = tmp_path / "generated"
    (generated / "china_cornett").mkdir(parents=True)
    monkeypatch.setattr(paths, "generated_dir", lambda: generated)
    marker = plant_evil_module(tmp_path)
    for climbing in ("china-cornett/../../evil", "china-cornett/../../evil.py", "china_cornett/..%2f..%2fevil"):
        with pytest.raises(BadSetup, match="^bad rule set id"):
            rulewright.load(climbing)
    assert not marker.exists()
    with pytest.raises(BadSetup) as info:
        rulewright.load(cast(Any, 7))
    assert str(info.value) == "a rule set id is text, not int"


def test_load_of_a_module_is_by_path_only(tmp_path: Path) -> None:
    game = rulewright.load(paths.generated_dir() / "china_cornett" / "base.py")
    assert game.info.ruleset == "china-cornett"
    (tmp_path / "plain.py").write_text("X = 1\n", encoding="utf-8")
    with pytest.raises(BadSetup) as info:
        rulewright.load(tmp_path / "plain.py")
    # (the path as messages quote a text from outside: cut at 80 characters, as a long tmp_path is)
    shown = printable(str(tmp_path / "plain.py"), 80)
    assert str(info.value) == f"{shown} is not a generated rule set: it defines no GAME"


def test_load_named_is_what_files_may_name(tmp_path: Path) -> None:
    assert rulewright.load_named("china-cornett", tmp_path / "x.jsonl") is rulewright.load("china-cornett")
    shutil.copy(TINY, tmp_path / "tiny.yaml")
    assert rulewright.load_named("tiny.yaml", tmp_path / "x.jsonl").info.ruleset == "tiny/tiny"
    for bad in (None, 3, ["china-cornett"], " "):
        with pytest.raises(BadSetup) as info:
            rulewright.load_named(bad, tmp_path / "x.jsonl")
        assert str(info.value) == f"the rule set must be named by text: {ACCEPTED}"


# -- terminal markup ---------------------------------------------------------------------------
def test_list_prints_titles_and_names_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "rules"
    (rules / "tiny").mkdir(parents=True)
    text = TINY.read_text(encoding="utf-8").replace("title: Tiny", 'title: "[/link] [bold]Tiny :smile:"')
    assert text != TINY.read_text(encoding="utf-8")
    (rules / "tiny" / "base.yaml").write_text(text, encoding="utf-8")
    (rules / "[bold]odd").mkdir()  # a folder that lists as the rule set `[bold]odd`
    (rules / "[bold]odd" / "base.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(paths, "rules_dir", lambda: rules)
    monkeypatch.setattr(list_command, "rules_dir", lambda: rules)
    loaded = rulewright.load_rules(rules / "tiny" / "base.yaml")
    real_load: Callable[[str], Any] = rulewright.load
    monkeypatch.setattr(list_command, "load_ruleset", lambda rid: loaded if rid == "tiny" else real_load(rid))
    monkeypatch.setenv("COLUMNS", "250")
    result = run("list")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    row = next(line for line in result.stdout.splitlines() if " tiny " in line)
    assert "[/link] [bold]Tiny :smile:" in row and "speed: slow* | fast" in row
    odd = next(line for line in result.stdout.splitlines() if "odd" in line)
    assert "[bold]odd" in odd and "not compiled: run `rulewright compile [bold]odd`" in odd


def test_simulate_prints_a_path_with_markup_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "[" / "link]" / "base.py"  # the path holds `[/link]`
    module.parent.mkdir(parents=True)
    shutil.copy(paths.generated_dir() / "china_cornett" / "base.py", module)
    monkeypatch.chdir(tmp_path)
    result = run("simulate", "[/link]/base.py", "-n", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("[/link]/base.py: 2 random games")


def hostile_rules(folder: Path, title: str = "Tiny", text: str = "", doc: str = "") -> Path:
    """TINY with `title`, a `take` action's text ending in `text` and the option's doc `doc`
    (YAML double-quoted: `\\e` is ESC)."""
    source = TINY.read_text(encoding="utf-8")
    for old, new in (("title: Tiny", f'title: "{title}"'), ('text: "take {spot}"', f'text: "take {{spot}}{text}"'),
                     ("doc: How fast the game goes (unused by the rules).", f'doc: "How fast{doc}"')):
        assert old in source
        source = source.replace(old, new)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "base.yaml"
    path.write_text(source, encoding="utf-8")
    return path


MARKUP = "[link=https://example.com/x]T[/link] [bold]B[/bold] :smile:"


def test_explain_prints_a_title_with_markup_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = hostile_rules(tmp_path / "tiny", title=MARKUP)
    monkeypatch.setenv("COLUMNS", "250")
    result = run("explain", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith(f"{MARKUP}: what a variant can change")  # (not a link, not bold)


# What a terminal obeys: ESC (7-bit sequences: colours, OSC 8 links, titles), CSI as one C1
# character, and a bidirectional override (text shown in another order than it is).
CONTROLS = ("\x1b", "\x9b", "\u202e")
ESCAPES = r" \e]8;;https://example.com/\e\\L\e]8;;\e\\ \e[31mRED \x9b31m \u202eRTL"


@pytest.mark.parametrize("command", [
    ["check", "{rules}"], ["explain", "{rules}"], ["explain", "{rules}", "take"], ["explain", "{rules}", "speed"],
    ["explain", "{rules}", "finish"], ["diff", "{rules}", "{variant}"], ["play", "{rules}", "--seat", "2=random"],
    ["scenario", "{scenarios}"], ["coverage", "{rules}", "-n", "2"], ["simulate", "{rules}", "-n", "2"],
])
def test_control_characters_of_a_rule_file_reach_the_terminal_escaped(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = hostile_rules(tmp_path / "rules" / "tiny", title="Tiny" + MARKUP, text=ESCAPES, doc=ESCAPES)
    variant = rules.parent / "other.yaml"  # (explain NAME shows what each variant beside it changes)
    variant.write_text(f'extends: base.yaml\noptions:\n  speed:\n    doc: "new{ESCAPES}"\n'
                       f'actions:\n  finish:\n    text: "end{ESCAPES}"\n', encoding="utf-8")
    scenarios = tmp_path / "tiny.scenarios.yaml"
    scenarios.write_text("ruleset: rules/tiny/base.yaml\nscenarios:\n  wrong:\n    steps: [take A9]\n"
                         "  listed:\n    expect:\n      legal: [finish]\n", encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "250")
    args = [a.format(rules=rules, variant=variant, scenarios=scenarios) for a in command]
    result = run(*args, input="?\n1\nmoves take\nquit\n" if command[0] == "play" else None)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    shown = {"check": "ok", "explain": r"\x1b]8;;https://example.com/\x1b\L",
             "diff": r"\x1b[31mRED", "play": r"take A1 \x1b]8;;https://example.com/", "scenario": r"\u202eRTL",
             "coverage": "", "simulate": ""}[command[0]]
    assert shown in result.output, result.output  # (the text is there, escaped)
    if command[0] == "play" or command == ["explain", "{rules}"]:
        assert "Tiny" + MARKUP in result.output  # (the title: printed as written, not read as markup)
    for control in CONTROLS:
        assert control not in result.output, (control, result.output)


# -- numbers a user writes -------------------------------------------------------------------------
# `²` and `٣` are digits to str.isdigit() (and int("²") raises, int("٣") is 3); a number a user,
# a file or a log writes is ASCII digits, or refused in one line.
@pytest.mark.parametrize("args, message", [
    (["play", "{rules}", "--seat", "²=random"], "bad --seat `²=random`"),
    (["play", "{rules}", "--seat", "٣=random"], "bad --seat `٣=random`"),
    (["simulate", "{rules}", "-n", "1", "--agent", "²=random"], "bad --agent `²=random`"),
    (["simulate", "{rules}", "-n", "1", "--agent", "1=mcts:iterations=²"], "`iterations` must be an int, not `²`"),
    (["simulate", "{rules}", "-n", "1", "--agent", "1=mcts:iterations=٣"], "`iterations` must be an int, not `٣`"),
    (["simulate", "{rules}", "-n", "1", "--agent", "1=mcts:exploration=٣"], "`exploration` must be a float, not `٣`"),
    (["lsp", "--tcp", "²"], "bad --tcp `²`"),
    (["lsp", "--tcp", "127.0.0.1:２０８７"], "bad --tcp `127.0.0.1:２０８７`"),
    (["render", "{state}", "--svg", "{svg}", "--seat", "²"], "no seat `²`"),
    (["scenario", "{scenarios}"], "no player `P²`"),
])
def test_unicode_digits_are_refused_in_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    rules = hostile_rules(tmp_path / "tiny")
    state = tmp_path / "state.json"
    state.write_text(json.dumps(rulewright.load("china-cornett").new_state(None, 1).to_json()), encoding="utf-8")
    scenarios = tmp_path / "s.yaml"
    scenarios.write_text("ruleset: tiny/base.yaml\nscenarios:\n  one:\n    steps: [{P²: take A1}]\n", encoding="utf-8")
    result = run(*(a.format(rules=rules, state=state, svg=tmp_path / "x.svg", scenarios=scenarios) for a in args))
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert message in result.output
    assert not (tmp_path / "x.svg").exists()


# Click reads its number options with int() and float(), which take `٣` as 3: every number option
# of every command is read as ASCII digits (cli.WholeNumber, cli.DecimalNumber).
@pytest.mark.parametrize("args", [
    ["simulate", "china-cornett", "-n", "1", "--seed", "٣"],
    ["simulate", "china-cornett", "-n", "٣"],
    ["simulate", "china-cornett", "-n", "1", "--players", "²"],
    ["play", "china-cornett", "--seed", "٣"],
    ["compare", "china-cornett", "china-cornett", "-n", "٢"],
    ["compare", "china-cornett", "china-cornett", "--alpha", "٠.٥"],
    ["bench", "china-cornett", "--seconds", "٣"],
    ["serve", "china-cornett", "--port", "٨٠٨٠"],
])
def test_number_options_take_only_ascii_digits(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "written with the digits 0-9" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_play_prompt_reads_only_ascii_move_numbers(tmp_path: Path) -> None:
    rules = hostile_rules(tmp_path / "tiny")
    result = run("play", str(rules), "--seat", "2=random", input="²\n٣\n" + "9" * 5000 + "\n1\nquit\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert "not a legal move: `²`" in result.output and "not a legal move: `٣`" in result.output
    assert "P1 (red) plays take A1" in result.output  # (then `1` was read as the first move)


def test_whole_number_reads_ascii_digits_only() -> None:
    from rulewright.runtime.errors import whole_number

    assert [whole_number(t) for t in ("0", "12", "007", "²", "٣", "1²", "", "-1", " 1", "1_000", "+1")] == [
        0, 12, 7, None, None, None, None, None, None, None, None]
    assert whole_number("-12", signed=True) == -12 and whole_number("-", signed=True) is None
    assert whole_number("9" * 30) == int("9" * 30) and whole_number("9" * 31) is None


# -- CompileError -------------------------------------------------------------------------------
def test_compile_error_is_a_rulewright_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(TINY.read_text(encoding="utf-8").replace("players: 2", "players: two"), encoding="utf-8")
    with pytest.raises(rulewright.RulewrightError) as info:  # what the README promises a caller
        rulewright.load_rules(broken)
    assert isinstance(info.value, rulewright.CompileError) and info.value.diagnostics
    result = run("simulate", str(broken), "-n", "1")  # the CLI still prints each problem at its place
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert re.search(r"broken\.yaml:\d+:\d+: error: ", result.stderr), result.stderr
    assert result.stderr.strip().splitlines()[-1] == "rulewright: error: 1 problem in the rules"


# -- signals -----------------------------------------------------------------------------------
def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


STARTED: list[subprocess.Popen[str]] = []

# How long a stopped `simulate` may take to end, and its workers with it. Not a measure of speed:
# on a loaded machine ending a process and its pool takes seconds. What is checked is that it does
# not wait for its work first: the batches below are of GAMES games, and each worker's first task
# is an eighth of them (match.chunk_ranges), some 125,000 games, minutes of play, and
# one process alone would play on for hours. (20 s was once too short under a load average of 10.)
PROMPT_SECONDS = 60.0
GAMES = 1_000_000


@pytest.fixture(autouse=True)
def _no_process_left() -> Any:
    """Whatever a signal test started ends with it, even when an assertion fails."""
    yield
    while STARTED:
        process = STARTED.pop()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # its workers, if any outlived it


def start_simulate(*args: str, cwd: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen([str(RULEWRIGHT), "simulate", "china-cornett", "-n", str(GAMES), *args], cwd=cwd,
                               start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    STARTED.append(process)
    return process


def workers_of(process: subprocess.Popen[str]) -> list[int]:
    return [pid for pid, command in group_members(process.pid) if "spawn_main" in command]


def handles_sigint(pid: int) -> bool:
    """Whether the process has a handler for SIGINT (it ignores it for the few milliseconds
    it takes to start its workers, which thus start with SIGINT ignored)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:")).split()[1]
    return bool(int(caught, 16) >> (signal.SIGINT - 1) & 1)


def workers_started(process: subprocess.Popen[str]) -> bool:
    return len(workers_of(process)) == 2 and handles_sigint(process.pid)


def stop(process: subprocess.Popen[str], signum: int, whole_group: bool) -> tuple[float, str, str]:
    """Send the signal; the seconds until the process ended, its stdout and stderr."""
    sent = time.monotonic()
    if whole_group:
        os.killpg(process.pid, signum)  # as a Ctrl-C at a terminal does
    else:
        os.kill(process.pid, signum)  # as `kill PID` does
    out, err = process.communicate(timeout=PROMPT_SECONDS)
    return time.monotonic() - sent, out, err


def assert_no_orphans(process: subprocess.Popen[str], workers: list[int]) -> None:
    assert wait_until(lambda: not group_members(process.pid), PROMPT_SECONDS), group_members(process.pid)
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1][:3]


def test_ctrl_c_stops_simulate_and_its_workers_while_they_boot(tmp_path: Path) -> None:
    process = start_simulate("--workers", "2", cwd=tmp_path)
    assert wait_until(lambda: workers_started(process), 60), "the workers did not start"
    workers = workers_of(process)  # still importing: a worker boots in a few hundred milliseconds
    seconds, out, err = stop(process, signal.SIGINT, whole_group=True)
    assert process.returncode == 130
    # the workers are started before game 0, which times a game: it may not be over yet
    assert re.fullmatch(r"rulewright: interrupted by SIGINT after [01] of 1000000 games; 2 workers ended\n", err), err
    assert out == ""
    assert seconds < PROMPT_SECONDS, f"took {seconds:.2f} s"
    assert_no_orphans(process, workers)


def test_sigterm_stops_simulate_and_ends_busy_workers(tmp_path: Path) -> None:
    process = start_simulate("--workers", "2", "--log-dir", "logs", cwd=tmp_path)
    assert wait_until(lambda: workers_started(process), 60), "the workers did not start"
    # game 0, played here to size the tasks, is logged once every task is sent: they are playing
    assert wait_until(lambda: (tmp_path / "logs" / "game-000000.jsonl").exists(), 60), "game 0 was not logged"
    workers = workers_of(process)
    seconds, out, err = stop(process, signal.SIGTERM, whole_group=False)
    assert process.returncode == 143
    assert err == ("rulewright: interrupted by SIGTERM after 1 of 1000000 games; 2 workers ended; "
                   "1 complete game log in logs\n")
    assert seconds < PROMPT_SECONDS, f"took {seconds:.2f} s"
    assert_no_orphans(process, workers)


def test_sigterm_leaves_only_complete_logs(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    process = start_simulate("--log-dir", "logs", cwd=tmp_path)
    assert wait_until(lambda: logs.is_dir() and len(list(logs.iterdir())) >= 5, 60), "no logs written"
    seconds, out, err = stop(process, signal.SIGTERM, whole_group=False)
    assert process.returncode == 143
    found = re.fullmatch(r"rulewright: interrupted by SIGTERM after (\d+) of 1000000 games; (\d+) complete game "
                         r"logs in logs\n", err)
    assert found is not None, err
    files = sorted(logs.iterdir())
    assert int(found[2]) == len(files) and int(found[1]) in (len(files), len(files) + 1)  # a log cut short: removed
    assert [f.name for f in files] == [f"game-{i:06d}.jsonl" for i in range(len(files))], "no temporary file is left"
    assert seconds < PROMPT_SECONDS, f"took {seconds:.2f} s"
    assert "final" in json.loads(files[-1].read_text(encoding="utf-8").splitlines()[-1])
    assert run("replay", str(files[-1])).exit_code == 0
    assert_no_orphans(process, [])


def test_a_log_interrupted_while_written_is_not_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulewright import match

    target = tmp_path / "game.jsonl"
    written: list[str] = []

    def action(self: match.LogWriter, player: int, text: str) -> None:
        written.append(text)
        if len(written) == 2:
            raise Interrupted(signal.SIGTERM)
        self._line({"player": player, "action": text})

    monkeypatch.setattr(match.LogWriter, "action", action)
    with pytest.raises(Interrupted):
        write_log(target, {"ruleset": "china-cornett"}, [(0, "a"), (1, "b"), (0, "c")], {"x": 1})
    assert list(tmp_path.iterdir()) == []


def test_a_signal_lost_in_a_finalizer_stops_the_next_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal's `Interrupted` raised in code the garbage collector runs (a finalizer: SQLAlchemy's,
    for a connection of tune's study) is dropped by Python, which would print it as a traceback;
    none is printed, and the next game raises it again instead of the batch playing on (tune's
    Ctrl-C test saw a study play to its end)."""
    from rulewright import match

    class Finalized:
        def __del__(self) -> None:
            signal.raise_signal(signal.SIGINT)  # (the handler runs here, inside the finalizer)

    shown: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", shown.append)  # (Python's "Exception ignored in ...")
    with match.stop_on_signals():
        Finalized()  # dropped at once: its Interrupted is lost, and on it goes
        assert match._fired == [signal.SIGINT] and shown == []  # (kept; no traceback printed)
        with pytest.raises(Interrupted) as raised:
            match.play_range(match.BatchSpec("connect-four", 2, 0, {}), 0, 3)
    assert raised.value.signum == signal.SIGINT
    assert not match._fired  # (cleared on leaving: a later batch is not stopped by this signal)
