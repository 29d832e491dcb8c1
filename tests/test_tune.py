"""`rulewright tune`: on tests/games/rigged-duel.yaml, whose balanced values are known (the first
seat wins half the games at `edge: 5`, whatever `rounds`; a game lasts `rounds` moves; the option
`head_start` is fair at `neither`), it finds them and writes a variant that checks; a study is
resumed without playing a trial again, refused when made otherwise; bad targets and params are one
line each; the same command writes the same file. The parsing of targets and params on its own."""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulewright import tune
from rulewright.compiler.driver import analyse
from tests.helpers.cli import assert_user_error, run

GAME = Path(__file__).parent / "games" / "rigged-duel.yaml"
BALANCE = ("--target", "first_player_win=0.5+-0.1", "--param", "define.edge=1..9")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """The rule files `measure()` is called with, trial after trial, and its other arguments."""
    from rulewright import metrics

    calls: list[tuple[str, dict[str, Any]]] = []
    real = metrics.measure

    def counted(ruleset: str, **kwargs: Any) -> Any:
        calls.append((ruleset, kwargs))
        return real(ruleset, **kwargs)

    monkeypatch.setattr(metrics, "measure", counted)
    yield calls


def tuned(*args: str) -> dict[str, Any]:
    result = run("tune", str(GAME), *args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# -- it finds the known values --------------------------------------------------------------------
def test_tune_finds_the_balanced_edge_and_writes_a_variant_that_checks(here: Path) -> None:
    data = tuned(*BALANCE, "-n", "200", "--sampler", "grid", "--trials", "9", "--out", "fair.yaml")
    assert [t["values"]["define.edge"] for t in data["trials"]] != list(range(1, 10))  # (a shuffled grid)
    assert sorted(t["values"]["define.edge"] for t in data["trials"]) == list(range(1, 10))
    assert data["best"]["values"] == {"define.edge": 5} and data["best"]["objective"] == 0
    rates = {t["values"]["define.edge"]: t["estimates"]["first_player_win"]["value"] for t in data["trials"]}
    assert [rates[k] for k in range(1, 10)] == sorted(rates.values())  # common random numbers: monotone
    for t in data["trials"]:
        e = t["estimates"]["first_player_win"]
        assert e["low"] <= e["value"] <= e["high"]
        assert t["objective"] == pytest.approx(max(0, 0.4 - e["value"], e["value"] - 0.6) / 0.2, abs=1e-9)
    text = (here / "fair.yaml").read_text()
    lines = text.splitlines()
    assert lines[-3:] == [f"extends: {os.path.relpath(GAME, here)}", "define:", '  edge: "5"']
    assert all(line.startswith("#") for line in lines[:-3])
    assert "first_player_win=0.5+-0.1: 0.45 [" in text and "met" in text and "best of 9 trials" in text
    assert f"rulewright tune {GAME} --target first_player_win=0.5+-0.1 --param define.edge=1..9 -n 200 " in text
    assert not [d for d in analyse(here / "fair.yaml")[1] if d.severity == "error"]
    assert sorted(p.name for p in here.iterdir()) == ["fair.sqlite", "fair.sqlite.lock", "fair.yaml"]


def test_tune_chooses_the_fair_option_and_the_length(here: Path) -> None:
    data = tuned("--target", "win_rate.P1=0.5+-0.1", "--target", "win_rate.P2=0.5+-0.1", "--target",
                 "length_median=8..10", "--param", "option.head_start", "--param", "define.rounds=5..11/2",
                 "-n", "100", "--sampler", "grid", "--trials", "12", "--plot", "charts")
    assert data["best"]["values"] == {"option.head_start": "neither", "define.rounds": 9}
    assert data["best"]["objective"] == 0 and len(data["trials"]) == 12
    medians = {t["values"]["define.rounds"]: t["estimates"]["length_median"]["value"] for t in data["trials"]}
    assert medians == {5: 5, 7: 7, 9: 9, 11: 11}
    assert (here / "rigged-duel-tuned.yaml").read_text().endswith(
        "options:\n  head_start: {default: neither}\ndefine:\n  rounds: \"9\"\n")
    charts = sorted(p.name for p in (here / "charts").iterdir())
    assert charts == sorted(f"{name}.{ext}" for ext in ("svg", "png") for name in (
        "objective", "win_rate.p1-by-option.head_start", "win_rate.p2-by-option.head_start",
        "length_median-by-option.head_start", "win_rate.p1-by-define.rounds", "win_rate.p2-by-define.rounds",
        "length_median-by-define.rounds"))
    assert "<svg" in (here / "charts" / "objective.svg").read_text()
    result = run("tune", str(GAME), "--target", "win_rate.P1=0.5+-0.1", "--target", "win_rate.P2=0.5+-0.1",
                 "--target", "length_median=8..10", "--param", "option.head_start", "--param", "define.rounds=5..11/2",
                 "-n", "100", "--sampler", "grid", "--trials", "12", "--plot", "again")
    assert result.exit_code == 0, result.output
    for name in charts:  # the same trials, the same files, byte for byte
        assert (here / "again" / name).read_bytes() == (here / "charts" / name).read_bytes(), name


def test_tune_sets_a_counter_s_start(here: Path) -> None:
    """A state field's `init`: a game that starts with 3 of its 5 rolls made lasts 2 moves."""
    result = run("tune", str(GAME), "--target", "length_median=1.5..2.5", "--param", "state.rolled=0..4", "-n", "20",
                 "--trials", "7", "--out", "short.yaml", "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == "rulewright: note: every combination of the params' values is tried (5)\n"
    data = json.loads(result.stdout)
    assert data["best"]["values"] == {"state.rolled": 3}
    assert (here / "short.yaml").read_text().endswith('\nstate:\n  rolled: {init: "3"}\n')
    assert not [d for d in analyse(here / "short.yaml")[1] if d.severity == "error"]


def test_values_the_rules_refuse_fail_their_trial_and_the_search_goes_on(here: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """No value of the rigged duel's constants is refused by the compiler: the compiler is made to
    refuse `edge: "3"` here, as it would a value a rule cannot take."""
    from rulewright import metrics
    from rulewright.core.source import CompileError, Diagnostic, SourceSpan

    real = metrics.measure

    def refusing(ruleset: str, **kwargs: Any) -> Any:
        if 'edge: "3"' in Path(ruleset).read_text():
            raise CompileError([Diagnostic(SourceSpan(ruleset, 3, 3, 3, 7), "edge 3 is refused")])
        return real(ruleset, **kwargs)

    monkeypatch.setattr(metrics, "measure", refusing)
    data = tuned(*BALANCE, "-n", "40", "--sampler", "grid", "--trials", "9")
    failed = [t for t in data["trials"] if t["objective"] is None]
    assert [t["values"] for t in failed] == [{"define.edge": 3}]
    assert failed[0]["error"] == "the rules refuse these values: edge 3 is refused"
    measured = [t["objective"] for t in data["trials"] if t["objective"] is not None]
    assert len(data["trials"]) == 9 and data["best"]["objective"] == min(measured)
    shown = run("tune", str(GAME), *BALANCE, "-n", "40", "--sampler", "grid", "--trials", "9").stdout
    assert "the rules refuse these values: edge 3 is refused" in shown and "failed" in shown


CRASHY = """extends: {game}
actions:
  roll:
    effect:
      - if die(10) <= edge:
        - points[players[0]] += 1
      - else:
        - points[players[1]] += 1
      - rolled += 1 + 0 // (edge - 3)
      - end_turn
"""


def test_games_that_raise_or_are_capped_are_said_and_raise_the_status(here: Path) -> None:
    """A variant whose games divide by zero at `edge: 3`: its trial is measured (no game finished), a
    warning names it with the first error, the others' variant is written, the status is 1."""
    (here / "crashy.yaml").write_text(CRASHY.format(game=GAME))
    result = run("tune", "crashy.yaml", "--target", "first_player_win=0.5+-0.1", "--param", "define.edge=2..4",
                 "-n", "20", "--sampler", "grid", "--trials", "3", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    crashed = [t for t in data["trials"] if t["play"]["errors"]]
    assert [(t["values"], t["play"]["errors"], t["objective"]) for t in crashed] == [({"define.edge": 3}, 20, 10)]
    assert data["best"]["values"] != {"define.edge": 3} and (here / "crashy-tuned.yaml").is_file()
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"rulewright: warning: trial {crashed[0]['number']} (define.edge=3): 20 games raised "
                               "an exception; the first, game 0 (seed ")
    assert "crashy.yaml:9: game error: division by zero" in lines[0]
    assert lines[1:] == ["rulewright: error: games of 1 trial raised an exception (above)"]
    capped = run("tune", "crashy.yaml", "--target", "first_player_win=0.5+-0.1", "--param", "define.edge=4..5",
                 "-n", "5", "--sampler", "grid", "--trials", "2", "--max-moves", "3", "--study", "capped.sqlite")
    assert capped.exit_code == 0 and capped.stderr.count("5 games stopped at the move cap") == 2


# -- a study: resumed, refused when made otherwise -----------------------------------------------
def test_a_study_resumes_without_playing_a_trial_again(here: Path, measured: list[tuple[str, Any]]) -> None:
    args = (*BALANCE, "-n", "60", "--seed", "3")
    first = tuned(*args, "--trials", "3")
    assert len(measured) == 3 and len({Path(p).name for p, _ in measured}) == 3
    again = tuned(*args, "--trials", "3")  # the same command: nothing to play
    assert len(measured) == 3 and again["trials"] == first["trials"]
    more = tuned(*args, "--trials", "5")
    played = [t for t in more["trials"] if t["same_as"] is None]
    assert len(measured) == 5 and len(played) == 5 and more["trials"][:len(first["trials"])] == first["trials"]
    resumed = (here / "rigged-duel-tuned.yaml").read_text()
    (here / "rigged-duel-tuned.sqlite").unlink()
    fresh = tuned(*args, "--trials", "5")  # the same trials as 3 then 2 more
    assert fresh["trials"] == more["trials"] and (here / "rigged-duel-tuned.yaml").read_text() == resumed


def test_a_trial_left_running_by_a_process_gone_is_played_again(here: Path) -> None:
    """A trial marked running by a process of this machine that no longer exists (killed outright)
    is marked failed and its values played again; one of a live process is left alone (its values
    are being played there)."""
    import socket

    import optuna
    from optuna.distributions import IntDistribution

    args = (*BALANCE, "-n", "30", "--sampler", "grid")
    first = tuned(*args, "--trials", "1")["trials"][0]["values"]["define.edge"]
    study = optuna.load_study(study_name=tune.STUDY_NAME, storage="sqlite:///rigged-duel-tuned.sqlite")
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead, alive = [v for v in range(1, 10) if v != first][:2]
    for pid, value in ((gone.pid, dead), (os.getppid(), alive)):  # (a process gone; this one's parent)
        study.enqueue_trial({"define.edge": value})
        trial = study.ask({"define.edge": IntDistribution(1, 9)})
        trial.set_user_attr("owner", {"host": socket.gethostname(), "pid": pid})
    result = run("tune", str(GAME), *args, "--trials", "9", "--json")
    assert result.exit_code == 0, result.output
    played = {t["values"]["define.edge"] for t in json.loads(result.stdout)["trials"]}
    assert played == set(range(1, 10)) - {alive} and dead in played
    assert [t.state.name for t in study.trials[:3]] == ["COMPLETE", "FAIL", "RUNNING"]
    assert result.stderr.startswith("rulewright: note: the study holds 8 of the 9 trials asked: the others are being "
                                    "played by another process")


def test_a_study_made_otherwise_is_refused(here: Path) -> None:
    tuned(*BALANCE, "-n", "40", "--trials", "2", "--study", "s.sqlite")
    changed = run("tune", str(GAME), "--target", "first_player_win=0.5+-0.2", "--param", "define.edge=1..9",
                  "-n", "40", "--trials", "2", "--study", "s.sqlite")
    assert_user_error(changed, "the study in s.sqlite was made otherwise",
                      "targets [first_player_win=0.5+-0.1] there, [first_player_win=0.5+-0.2] here")
    assert_user_error(run("tune", str(GAME), *BALANCE, "-n", "41", "--trials", "2", "--study", "s.sqlite"),
                      "games 40 there, 41 here")
    (here / "other.sqlite").write_text("not a database")
    assert_user_error(run("tune", str(GAME), *BALANCE, "--study", "other.sqlite"), "holds no study")


def test_the_same_command_writes_the_same_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        data = tuned("--target", "first_player_win=0.5+-0.05", "--target", "length<8", "--param", "define.edge=1..9",
                     "--param", "define.rounds=1..15/2", "-n", "50", "--trials", "4", "--seed", "11")
        outputs.append(((tmp_path / name / "rigged-duel-tuned.yaml").read_text(), data["trials"], data["best"]))
    assert outputs[0] == outputs[1]


# -- one line for a bad input ---------------------------------------------------------------------
@pytest.mark.parametrize(("args", "fragments"), [
    (("--target", "first_playr_win=0.5+-0.03", "--param", "define.edge=1..9"),
     ["no measure `first_playr_win`", "did you mean `first_player_win`?"]),
    (("--target", "win_rate.P3>0.2", "--param", "define.edge=1..9"), ["no measure `win_rate.P3`"]),
    (("--target", "length=60..40", "--param", "define.edge=1..9"), ["is empty"]),
    (("--target", "length~40", "--param", "define.edge=1..9"), ["expected NAME=C+-D"]),
    (("--target", "length>١٠", "--param", "define.edge=1..9"), ["expected NAME=C+-D"]),
    (("--target", "first_player_win=٠.٥±0.1", "--param", "define.edge=1..9"), ["expected NAME=C+-D"]),
    (("--target", "draws<0.1", "--param", "define.edge=١..٩"), ["expected define.edge=LO..HI"]),
    (("--target", "draws<1e999", "--param", "define.edge=1..9"), ["not a number within"]),
    (("--target", "draws<0.1", "--param", "define.edg=1..9"), ["no definition `edg`", "did you mean `edge`?"]),
    (("--target", "draws<0.1", "--param", "option.head_strat"), ["no option `head_strat`",
                                                                "did you mean `head_start`?"]),
    (("--target", "draws<0.1", "--param", "option.head_start=first,secnod"), ["no choice `secnod`",
                                                                              "did you mean `second`?"]),
    (("--target", "draws<0.1", "--param", "defin.edge=1..9"), ["expected option.NAME", "did you mean `define`?"]),
    (("--target", "draws<0.1", "--param", "define.edge=1..8/3"), ["not a multiple of the step 3",
                                                                   "define.edge=1..7/3"]),
    (("--target", "draws<0.1", "--param", "define.edge=9..1"), ["is empty"]),
    (("--target", "draws<0.1", "--param", "define.edge"), ["expected define.edge=LO..HI"]),
    (("--target", "draws<0.1", "--param", "define.edge=1..3", "--param", "define.edge=1..5"), ["given twice"]),
    (("--target", "draws<0.1", "--param", "option.head_start", "--option", "head_start=first"),
     ["both varied (--param) and held fixed (--option)"]),
    (("--param", "define.edge=1..9"), ["no target"]),
    (("--target", "draws<0.1", "--param", "state.rolld=0..2"),
     ["no state field `rolld`", "did you mean `rolled`?", "its counters: points, rolled"]),
    (("--target", "draws<0.1",), ["nothing to vary", "options: head_start", "constants: edge, rounds",
                                  "counters: points, rolled"]),
    (("--target", "strength>0.6", "--param", "define.edge=1..9"), ["needs --strength"]),
    (("--target", "draws<0.1", "--param", "define.edge=1..9", "--out", "Tuned.yaml"), ["--out file name"]),
    (("--target", "draws<0.1", "--param", "define.edge=1..9", "--out", str(GAME)), ["is the rule set tuned"]),
])
def test_a_bad_target_or_param_is_one_line(here: Path, args: tuple[str, ...], fragments: list[str]) -> None:
    result = run("tune", str(GAME), *args)
    assert_user_error(result, *fragments)
    assert result.exit_code == 2
    assert not list(here.iterdir())  # nothing written


@pytest.mark.parametrize("where", [("--study", "afile/s.sqlite"), ("--out", "afile/x.yaml"), ("--plot", "afile/p")])
def test_a_folder_that_cannot_be_made_is_one_line(here: Path, where: tuple[str, str]) -> None:
    (here / "afile").write_text("")
    assert_user_error(run("tune", str(GAME), *BALANCE, *where), "cannot make the folder afile")


def test_a_definition_that_is_no_constant_is_named_as_such(here: Path) -> None:
    result = run("tune", "china-cornett", "--target", "draws<0.1", "--param", "define.reduction_limit=0..1")
    assert_user_error(result, "definition `reduction_limit` is not a whole number",
                      "a definition without parameters whose value is a whole number")
    result = run("tune", "china-cornett", "--target", "draws<0.1", "--param", "define.alignments=0..1")
    assert_user_error(result, "definition `alignments` has parameters")
    result = run("tune", "china-cornett", "--target", "draws<0.1", "--param", "state.marker=0..1")
    assert_user_error(result, "state field `marker` is not of type int", "an int field whose `init` is a whole number")


def test_the_lead_and_the_confidence_go_to_the_measures(here: Path, measured: list[tuple[str, Any]]) -> None:
    data = tuned("--target", "lead_changes<0.5", "--param", "define.edge=4..6", "--lead", "margin", "--confidence",
                 "0.8", "-n", "30", "--trials", "3", "--sampler", "grid", "--out", "led.yaml")
    assert data["settings"]["lead"] == "margin" and data["settings"]["confidence"] == 0.8
    assert [(k["lead"], k["confidence"], k["games"], k["seed"]) for _, k in measured] == [("margin", 0.8, 30, 0)] * 3
    text = (here / "led.yaml").read_text()
    assert "(80% intervals)" in text and "--lead margin --confidence 0.8 --out led.yaml" in text
    assert_user_error(run("tune", str(GAME), *BALANCE, "--lead", "margn"), "bad --lead", "did you mean `margin`?")


def test_strength_is_measured_with_the_agent_named(here: Path) -> None:
    """The greedy agent has no choice to make in the rigged duel (one action): its seats win as random ones do."""
    data = tuned("--target", "strength=0.5+-0.2", "--param", "define.edge=5..5", "--strength", "greedy", "-n", "40",
                 "--trials", "1")
    strength = data["best"]["estimates"]["strength"]
    assert data["settings"]["strength"] == "greedy" and strength["games"] == 40 and 0.3 <= strength["value"] <= 0.7
    assert_user_error(run("tune", str(GAME), *BALANCE, "--strength", "greedy:depth=x"), "bad --strength")


def test_a_tune_file_holds_targets_and_params_and_its_errors_say_where(here: Path) -> None:
    (here / "goal.yaml").write_text("targets: [first_player_win=0.5+-0.1]\nparams:\n  - define.edge=4..6\n")
    data = tuned("--tune-file", "goal.yaml", "-n", "60", "--trials", "3")
    assert data["settings"]["targets"] == ["first_player_win=0.5+-0.1"]
    assert data["settings"]["params"] == ["define.edge=4..6"] and data["best"]["values"] == {"define.edge": 5}
    (here / "bad.yaml").write_text("targets: [first_player_win=0.5+-0.1]\nparms: [define.edge=4..6]\n")
    assert_user_error(run("tune", str(GAME), "--tune-file", "bad.yaml"), "bad.yaml:2:1:", "did you mean `params`?")
    (here / "bad.yaml").write_text("targets: [first_player_win=0.5+-0.1]\nparams: [define.edge=4..6x]\n")
    assert_user_error(run("tune", str(GAME), "--tune-file", "bad.yaml"), "bad.yaml:2:10: bad param `define.edge=4..6x`")


def test_without_optuna_it_says_which_extra(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "optuna", None)
    assert_user_error(run("tune", str(GAME), *BALANCE), "`tune` needs optuna: pip install 'rulewright[tune]'")


# -- targets and params on their own --------------------------------------------------------------
def test_targets_read_as_bands() -> None:
    t = tune.parse_target("first_player_win=50%±3%", 2)
    assert (t.low, t.high, t.text) == (pytest.approx(0.47), pytest.approx(0.53), "first_player_win=0.5+-0.03")
    assert t.miss(0.5) == 0 and t.miss(0.59) == pytest.approx(1.0) and t.miss(math.nan) == tune.NAN_PENALTY
    above = tune.parse_target("decisiveness >= 0.3", 2)
    assert (above.low, above.high, above.scale, above.miss(0.25)) == (0.3, math.inf, 0.1, pytest.approx(0.5))
    count = tune.parse_target("length<30", 2)
    assert (count.scale, count.miss(36)) == (3.0, 2.0)
    band = tune.parse_target("length_median=40..60", 3)
    assert (band.scale, band.miss(70), band.off_centre(45)) == (20, 0.5, 0.25)


def test_params_read_against_the_rule_set() -> None:
    space = tune.Space({"board": ("hex5", "hex6")}, {"board": "hex6"}, {"edge": 5}, {})
    assert tune.parse_param("option.board", space).values == ("hex5", "hex6")
    assert tune.parse_param("option.board=hex6", space).text == "option.board=hex6"
    p = tune.parse_param("define.edge=-4..8/4", space)
    assert (p.values, p.text, p.key) == ((-4, 0, 4, 8), "define.edge=-4..8/4", "define.edge")


# -- in parallel --------------------------------------------------------------------------------
def test_workers_and_dask_measure_the_same_trials(here: Path) -> None:
    from distributed import LocalCluster

    args = (*BALANCE, "-n", "40", "--trials", "2")
    local = tuned(*args, "--study", "local.sqlite")
    on_workers = tuned(*args, "--study", "workers.sqlite", "--workers", "2")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        on_dask = tuned(*args, "--study", "dask.sqlite", "--dask", cluster.scheduler_address)
    assert local["trials"] == on_workers["trials"] == on_dask["trials"]


def test_two_processes_share_one_study(here: Path) -> None:
    """Each process measures values not measured yet, nor being measured, until the study holds
    every value once; values two processes happen to measure at once give the same measures."""
    command = [sys.executable, "-m", "rulewright", "tune", str(GAME), *BALANCE, "-n", "100", "--trials", "9",
               "--sampler", "grid", "--study", "shared.sqlite", "--json"]
    processes = [subprocess.Popen([*command, "--out", f"out{k}.yaml"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for k in range(2)]
    outputs = [p.communicate(timeout=300) for p in processes]
    for p, (_, err) in zip(processes, outputs, strict=True):
        assert p.returncode == 0, err
    last = max((json.loads(out) for out, _ in outputs), key=lambda d: len(d["trials"]))
    by_value: dict[int, list[dict[str, Any]]] = {}
    for t in last["trials"]:
        by_value.setdefault(t["values"]["define.edge"], []).append(t["estimates"])
    assert sorted(by_value) == list(range(1, 10))
    assert all(all(e == estimates[0] for e in estimates) for estimates in by_value.values())
    assert last["best"]["values"] == {"define.edge": 5}


def test_ctrl_c_keeps_the_finished_trials_and_the_same_command_goes_on(here: Path) -> None:
    """SIGINT while the second trial plays: status 130, one line; the study keeps the first trial
    finished and the second failed; the same command plays the second again, and only it."""
    import optuna

    command = [str(Path(sys.executable).parent / "rulewright"), "tune", str(GAME), *BALANCE, "-n", "3000",
               "--sampler", "grid", "--trials", "2"]
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    study_file = here / "rigged-duel-tuned.sqlite"
    try:
        deadline = time.monotonic() + 600  # (a guard against a hang, not a measure)
        while True:
            assert process.poll() is None and time.monotonic() < deadline, "the second trial did not start"
            if study_file.exists():  # (read as it is, without a lock: the study may not be made yet)
                with contextlib.suppress(sqlite3.Error), contextlib.closing(
                        sqlite3.connect(f"file:{study_file}?mode=ro&immutable=1", uri=True)) as db:
                    states = [state for state, in db.execute("SELECT state FROM trials ORDER BY number")]
                    if states == ["COMPLETE", "RUNNING"]:
                        break
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130 and out == "", (process.returncode, out, err)
    assert err == ("rulewright: interrupted by SIGINT: the study rigged-duel-tuned.sqlite keeps 1 finished trial; "
                   "the same command goes on from there\n")
    trials = optuna.load_study(study_name=tune.STUDY_NAME, storage=f"sqlite:///{study_file}").trials
    assert [t.state.name for t in trials] == ["COMPLETE", "FAIL"]
    again = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout)
    assert [t["number"] for t in data["trials"]] == [0, 2]
    assert data["trials"][1]["values"] == {"define.edge": trials[1].params["define.edge"]}
