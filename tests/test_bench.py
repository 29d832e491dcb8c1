"""`rulewright bench --option` (the reading measured) and `bench --profile` (where a playout's
time goes, by rule line: api/profiling.py), on the small test game tests/games/lanterns.yaml (one
option, `tied_garden`). The figures of plain `bench` are tests/test_cli.py's; `bench --native`'s,
which needs the native build, tests/test_native.py's."""

from __future__ import annotations

import json
import linecache
import sys
from collections import Counter
from pathlib import Path

import pytest

from rulewright import profiling
from rulewright.commands import bench
from rulewright.compiler import driver
from rulewright.runtime.rng import Rng
from rulewright.runtime.state import State
from tests.helpers.cli import assert_user_error, run

ROOT = Path(__file__).resolve().parent.parent
LANTERNS = ROOT / "tests" / "games" / "lanterns.yaml"
QUICK = ("--seconds", "0.05")


def test_bench_says_the_options_it_measured() -> None:
    result = run("bench", str(LANTERNS), "--option", "tied_garden=dark", *QUICK, "--json", "--no-per-pass")
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)["rulesets"]
    assert entry["options"] == {"tied_garden": "dark"} and entry["playouts"] >= 1
    # the table names the options given, as the rule set took them (the JSON of a run naming none
    # has the defaults: test_profile_of_a_variant_tells_its_lines_and_its_base_s)
    result = run("bench", str(LANTERNS), "--option", "tied_garden=dark", *QUICK)
    assert result.exit_code == 0, result.output
    assert "tied_garden=dark" in result.stdout


@pytest.mark.parametrize(("option", "said"), [
    ("tied_garden=grey", "option `tied_garden` has no value `grey` (choose one of shared, dark)"),
    ("colour=red", "has no option `colour` (its options: tied_garden)"),
    ("tied_garden", "bad --option `tied_garden`: expected NAME=VALUE"),
])
def test_a_wrong_option_is_an_error_naming_the_choices(option: str, said: str) -> None:
    for mode in ((), ("--profile",)):
        result = run("bench", str(LANTERNS), "--option", option, *QUICK, *mode)
        assert_user_error(result, said)
        assert result.exit_code == 1 and result.stdout == ""  # (as `simulate`, `play` and `compare` exit)


def test_an_option_for_other_player_counts_is_refused_before_playing() -> None:
    result = run("bench", "china-schacht", "--option", "board=face_4_5", *QUICK, "--no-per-pass")
    assert_user_error(result, "china-schacht: board `face_4_5` is for 4 to 5 players, not 3")
    assert result.exit_code == 1


def test_native_checks_the_options_before_anything_else() -> None:
    """`bench --native` refuses a wrong option at once: before compiling every rule set to see
    that generated/ is up to date, and whether or not there is a native build."""
    result = run("bench", "--native", "hex", "--option", "board=hex9", *QUICK)
    assert_user_error(result, "hex has no option `board` (its options: none)")
    assert result.exit_code == 1


def test_the_native_worker_plays_with_the_options_passed(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`bench --native`'s worker process (run here in-process, interpreted): the options reach its
    games (a value the rule set lacks fails them), and it says what it played."""
    monkeypatch.setattr(sys, "argv", ["-c", "hex", "0", "0.01", "{}"])
    bench._native_worker()
    said = json.loads(capsys.readouterr().out)
    assert said["ruleset"] == "hex" and said["players"] == 2 and said["playouts"] >= 1 and said["native"] is False
    monkeypatch.setattr(sys, "argv", ["-c", "hex", "0", "0.01", json.dumps({"board": "hex9"})])
    with pytest.raises(SystemExit, match="has no option `board`"):
        bench._native_worker()


def test_profile_by_rule_line() -> None:
    result = run("bench", str(LANTERNS), "--profile", "--option", "tied_garden=dark", "--seconds", "0.2", "--json")
    assert result.exit_code == 0, result.output
    (found,) = json.loads(result.stdout)["profiles"]
    # (a busy machine takes few samples: the process is off the CPU most of the time)
    assert found["options"] == {"tied_garden": "dark"} and found["playouts"] >= 1 and found["samples"] >= 1
    parts = found["parts_pct"]
    assert sum(parts.values()) == pytest.approx(100, abs=0.3)
    # the rule lines' own samples are the rule lines' part, the runtime they call the runtime's
    slack = 0.05 * len(found["lines"]) + 0.05  # (each share rounded to 0.1)
    assert sum(line["self_pct"] for line in found["lines"]) == pytest.approx(parts[profiling.RULES], abs=slack)
    assert sum(line["runtime_pct"] for line in found["lines"]) == pytest.approx(parts[profiling.RUNTIME_OF_RULES],
                                                                                abs=slack)
    text = LANTERNS.read_text(encoding="utf-8").splitlines()
    shown = display_of(LANTERNS)
    for line in found["lines"]:
        assert line["self_pct"] + line["runtime_pct"] <= line["total_pct"] + 0.1, line
        if not line["where"].startswith("(compiler-made) "):
            path, _, number = line["where"].rpartition(":")
            assert path == shown and line["rule"] == " ".join(text[int(number) - 1].split()), line


def test_profile_of_a_variant_tells_its_lines_and_its_base_s(tmp_path: Path) -> None:
    (tmp_path / "lanterns.yaml").write_text(LANTERNS.read_text(encoding="utf-8"), encoding="utf-8")
    variant = tmp_path / "short.yaml"
    variant.write_text('extends: lanterns.yaml\nend: "not free or max(points[p] for p in players) >= 12"\n',
                       encoding="utf-8")
    result = run("bench", str(variant), "--profile", "--seconds", "0.1", "--json")
    assert result.exit_code == 0, result.output
    (found,) = json.loads(result.stdout)["profiles"]
    assert found["options"] == {"tied_garden": "shared"}  # the defaults: the reading measured
    files = {line["where"].rpartition(":")[0] for line in found["lines"]} - {""}
    assert files <= {display_of(variant), display_of(tmp_path / "lanterns.yaml")}, files
    result = run("bench", str(variant), "--profile", "--seconds", "0.05")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    for part in (profiling.RULES, profiling.RUNTIME_OF_RULES, profiling.AGENT, "by rule line"):
        assert part in out
    # the variant's `end:` and its base's `lantern[s] = current`, each told by its own file's line
    # (on stacks made by hand: which lines a short run samples is chance)
    compiled = driver.compile_file(variant)
    game = bench.game_from_source(compiled)
    end, hang = frame_at(game.state_class, "short.yaml:2"), frame_at(game.state_class, "lanterns.yaml:51")
    found_here = profiling.attribute(Counter({(end,): 1, (hang,): 1}), game, 1, 1, 0.01,  # type: ignore[arg-type]
                                     compiled.files)
    assert {(line.where, line.text) for line in found_here.lines} == {
        (f"{display_of(variant)}:2", 'end: "not free or max(points[p] for p in players) >= 12"'),
        (f"{display_of(tmp_path / 'lanterns.yaml')}:51", "- lantern[s] = current")}


def test_profile_of_rules_that_fail_is_one_line_at_their_rule_line() -> None:
    result = run("bench", str(ROOT / "tests" / "hostile" / "faults" / "index-out-of-range.yaml"), "--profile", *QUICK)
    assert_user_error(result, "random game 0", "index-out-of-range.yaml:20: game error: list index out of range")
    assert result.exit_code == 1 and result.stdout == ""


def test_profile_is_refused_with_native_or_per_pass() -> None:
    for other in ("--native", "--per-pass"):
        result = run("bench", "hex", "--profile", other)
        assert_user_error(result, "--profile", other)
        assert result.exit_code == 2


def test_samples_are_told_by_rule_line_runtime_and_agent_loop() -> None:
    """The attribution itself, on stacks made by hand from the code of a compiled game: each sample
    counts for its innermost frame (self), the runtime it is in (for the innermost rule line on the
    stack), and every rule line on the stack (total)."""
    compiled = driver.compile_file(LANTERNS)
    game = bench.game_from_source(compiled)
    hang, lantern_line = frame_at(game.state_class, "lanterns.yaml:51")
    assert hang is game.state_class._do__hang.__code__  # type: ignore[attr-defined]
    loop = (State.play_randomly.__code__, 1)
    move = (State._apply_listed.__code__, 1)
    runtime = (State._next_turn.__code__, 1)
    stacks: Counter[tuple[tuple[object, int], ...]] = Counter({
        ((hang, lantern_line), move, loop): 3,  # the rule line's own code
        (runtime, (hang, lantern_line), move, loop): 2,  # a runtime function it calls
        ((hang, hang.co_firstlineno), move, loop): 1,  # the action's call: its header's rule line
        (loop,): 1,  # the agent loop
        ((Rng.below.__code__, 1), loop): 1,  # the agent's random choice
        (move, loop): 1,  # the runtime's own
        (): 1,  # the sampler's loop
    })
    found = profiling.attribute(stacks, game, 1, 1, 0.01, compiled.files)  # type: ignore[arg-type]
    by_line = {line.where: line for line in found.lines}
    shown = display_of(LANTERNS)
    assert (by_line[f"{shown}:51"].self_, by_line[f"{shown}:51"].runtime, by_line[f"{shown}:51"].total) == (
        0.3, 0.2, 0.5)
    assert by_line[f"{shown}:51"].text == "- lantern[s] = current"
    header = next(line for where, line in by_line.items() if where != f"{shown}:51")
    assert header.text == "hang:" and (header.self_, header.total) == (0.1, 0.1)
    assert found.parts == {profiling.RULES: 0.4, profiling.RUNTIME_OF_RULES: 0.2, profiling.RUNTIME_OF_MOVES: 0.1,
                           profiling.AGENT: 0.2, profiling.OTHER: 0.1}
    assert found.runtime_functions == [(f"runtime/state.py:{runtime[0].co_firstlineno} State._next_turn", 0.2),
                                       (f"runtime/state.py:{move[0].co_firstlineno} State._apply_listed", 0.1)]


def frame_at(cls: type, rule: str) -> tuple[object, int]:
    """The code and line of a line of generated code of `cls` (or a class it extends) whose
    comment names `rule` (`short.yaml:2`: `# short.yaml:2; kept ...`)."""
    for klass in cls.__mro__:
        for value in vars(klass).values():
            code = getattr(value, "__code__", None)
            for n in sorted({line for _, _, line in code.co_lines() if line}) if code is not None else ():
                match = profiling._RULE_LINE.search(linecache.getline(code.co_filename, n))
                if match is not None and f"{match.group(1)}:{match.group(2)}" == rule:
                    return code, n
    raise AssertionError(f"no line of {cls.__name__} names {rule}")


def display_of(path: Path) -> str:
    from rulewright.core.paths import display

    return display(path)


@pytest.mark.skipif(not profiling.available(), reason="no interval timer (signal.setitimer) on this platform")
def test_sampling_leaves_the_timer_and_handler_as_it_found_them() -> None:
    """A SIGALRM handler and a timer set before (a test's timeout, say) are theirs again after."""
    import signal

    def mine(signum: int, frame: object) -> None:
        raise AssertionError("the timer set before the sampling came")

    game = bench.game_from_source(driver.compile_file(LANTERNS))
    before = signal.signal(signal.SIGALRM, mine)
    try:
        signal.setitimer(signal.ITIMER_REAL, 100.0)
        stacks, playouts, _, _ = profiling.sample_playouts(game, 2, 0.02)
        assert playouts >= 1 and sum(stacks.values()) >= 1
        assert signal.getsignal(signal.SIGALRM) is mine
        assert 90 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
