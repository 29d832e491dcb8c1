"""`rulewright compare`: the statistics on paired results built by hand (answers worked out
here, not read from scipy), the verdicts, the report's shape, its determinism, the charts,
the errors; and `--dask`: a local Dask cluster plays the very games of a local run."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from rulewright import compare
from rulewright.compare import Side, analyse, mcnemar, mean_interval, newcombe, permutation_p, wilson
from rulewright.match import GameResult
from tests.helpers.cli import assert_user_error, run


# -- the statistics, on numbers worked out by hand ---------------------------------------------
def test_wilson_interval_is_the_score_interval() -> None:
    count, n, z = 3, 10, 1.959963984540054
    p = count / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = wilson(count, n, 0.95)
    assert low == pytest.approx(centre - half, abs=1e-9) and high == pytest.approx(centre + half, abs=1e-9)
    assert wilson(0, 20, 0.95)[0] == 0.0


def test_exact_mcnemar_counts_the_discordant_pairs() -> None:
    a = np.array([1, 1, 1, 1, 1, 1, 0, 1, 0, 0], dtype=float)
    b = np.array([0, 0, 0, 0, 0, 0, 1, 1, 0, 0], dtype=float)
    p, b_only, a_only = mcnemar(a, b)
    assert (b_only, a_only) == (1, 6)
    assert p == pytest.approx(2 * (1 + 7) / 2**7)  # two-sided binomial: P(X <= 1 of 7) twice
    assert mcnemar(a, a) == (1.0, 0, 0)


def test_paired_permutation_test_is_exact_on_few_pairs() -> None:
    a = np.zeros(4)
    b = np.array([1.0, 2.0, 3.0, 4.0])
    # 16 ways to swap within pairs; only all-kept and all-swapped reach |mean difference| 2.5
    assert permutation_p(a, b, seed=0, salt=0) == pytest.approx(2 / 16)
    mixed = np.array([1.0, -2.0, 3.0, -4.0])
    # mean -0.5; the sign patterns with |sum| >= 2: every one but +-(1+2+3-4)=2... counted:
    sums = [sum(s * v for s, v in zip(signs, (1, 2, 3, 4), strict=True))
            for signs in np.array(np.meshgrid(*[[1, -1]] * 4)).T.reshape(-1, 4)]
    expected = sum(1 for s in sums if abs(s) >= 2) / 16
    assert permutation_p(a, mixed, seed=0, salt=0) == pytest.approx(expected)
    assert permutation_p(b, b, seed=0, salt=0) == 1.0


def wilson_by_hand(count: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = count / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_newcombe_interval_of_paired_rates() -> None:
    # a rare event seen only in B: 4 pairs of 1000; A never. No pair has it on both sides, so
    # the correlation term is 0 and the interval is Wilson's distances squared and added
    a, b = np.zeros(1000), np.zeros(1000)
    b[:4] = 1
    la, ua = wilson_by_hand(0, 1000)
    lb, ub = wilson_by_hand(4, 1000)
    low, high = newcombe(a, b, 0.95)
    assert low == pytest.approx(0.004 - math.hypot(0.004 - lb, ua - 0.0), abs=1e-12)
    assert high == pytest.approx(0.004 + math.hypot(ub - 0.004, 0.0 - la), abs=1e-12)
    assert low < 0 < high, "4 to 0 discordant pairs: exact McNemar p = 0.125, the interval holds 0"
    assert mcnemar(a, b)[0] == pytest.approx(0.125)
    # swapping the sides turns the interval around
    assert newcombe(b, a, 0.95) == pytest.approx((-high, -low))
    # pairs that agree: the correlation narrows the interval against the unpaired one
    same = np.array([1.0] * 30 + [0.0] * 70)
    low, high = newcombe(same, same, 0.95)
    l1, u1 = wilson_by_hand(30, 100)
    assert low < 0 < high and high - low < 2 * math.hypot(0.3 - l1, u1 - 0.3)


def test_bootstrap_interval_of_a_mean() -> None:
    assert mean_interval(np.full(10, 3.0), 0.95, seed=0, salt=0) == (3.0, 3.0)
    values = np.arange(100, dtype=float)
    low, high = mean_interval(values, 0.95, seed=0, salt=0)
    # the mean 49.5 with its standard error 2.9: about +-5.7 at 95%
    assert 43 < low < 45 and 54 < high < 56
    assert mean_interval(values, 0.95, seed=0, salt=0) == (low, high), "seeded: the same interval"


def result(i: int, winners: list[int], scores: list[int], moves: int = 10, capped: bool = False) -> GameResult:
    if capped:
        return GameResult(i, i, [], [], moves, moves, capped=True)
    return GameResult(i, i, scores, winners, moves, moves)


def side(name: str) -> Side:
    return Side(name, "test", {})


def compared(a: list[GameResult], b: list[GameResult], alpha: float = 0.05) -> dict[str, dict[str, object]]:
    c = analyse(side("A"), side("B"), a, b, players=2, seed=1, alpha=alpha,
                first_movers=([0] * len(a), [0] * len(b)), max_moves=100, max_turns=None)
    return {m["key"]: m for m in c.to_json()["measures"]}


def test_measures_of_constructed_pairs() -> None:
    # A: seat 1 wins all ten games 3-1; B: seat 2 wins the first nine 2-5, the last is shared 4-4
    a = [result(i, [0], [3, 1], moves=10) for i in range(10)]
    b = [result(i, [1], [2, 5], moves=12) for i in range(9)] + [result(9, [0, 1], [4, 4], moves=12)]
    m = compared(a, b)
    win1 = m["win_rate.P1"]
    assert win1["a"]["rate"] == 1.0 and win1["b"]["rate"] == 0.1  # type: ignore[index]
    assert win1["test"]["b_only"] == 0 and win1["test"]["a_only"] == 9  # type: ignore[index]
    assert win1["test"]["p"] == pytest.approx(2 / 2**9, abs=1e-6)  # type: ignore[index]
    assert win1["significant"] is True
    d = win1["difference"]
    assert d["value"] == pytest.approx(-0.9) and d["low"] <= -0.9 <= d["high"] < 0  # type: ignore[index]
    assert win1["verdict"] == (f"win rate P1: 100.0% -> 10.0%, B-A -90.0 points [{d['low'] * 100:+.1f}, "  # type: ignore[index]
                               f"{d['high'] * 100:+.1f}]; exact McNemar p = 0.0039: significant at 0.05")
    assert m["draws"]["b"]["count"] == 1 and m["draws"]["significant"] is False  # type: ignore[index]
    # first mover's win less its fair share: A +1/2 each game; B -1/2 nine times, 1 - 2/2 = 0 once
    adv = m["first_player_advantage"]
    assert adv["a"]["mean"] == 0.5 and adv["b"]["mean"] == pytest.approx(-0.45)  # type: ignore[index]
    assert m["score.P2"]["difference"]["value"] == pytest.approx((9 * 4 + 3) / 10)  # type: ignore[index]
    assert m["moves"]["difference"] == {"value": 2.0, "low": 2.0, "high": 2.0,  # every pair +2
                                        "method": compare.METHODS["mean_difference_interval"]}
    # with 10 pairs, all of one sign: 2 of 1024 sign patterns reach it
    assert m["moves"]["test"]["p"] == pytest.approx(2 / 1024, abs=1e-6)  # type: ignore[index]
    assert m["unfinished"]["significant"] is False and m["unfinished"]["test"]["p"] == 1.0  # type: ignore[index]
    # score P1, B - A: -1 nine times, +1 once (sum -8); |sum| >= 8 for 0, 1, 9 or 10 pairs swapped: 22 of 1024
    assert m["score.P1"]["test"]["p"] == pytest.approx(22 / 1024, abs=1e-6)  # type: ignore[index]
    assert m["score.P1"]["verdict"] == ("score P1: 3 -> 2.2, B-A -0.8 [-1, -0.2]; paired permutation p = 0.021: "
                                        "significant at 0.05")
    stricter = compared(a, b, alpha=0.001)
    assert stricter["moves"]["significant"] is False
    assert str(stricter["moves"]["verdict"]).endswith("not significant at 0.001")


def test_the_measures_of_metrics_are_paired_too() -> None:
    from rulewright.traces import summarise

    def traced(i: int, winners: list[int], course: list[list[int]]) -> GameResult:
        r = result(i, winners, course[-1], moves=len(course))
        r.trace = summarise([2] * len(course), course, winners, first=0)
        return r

    # A: P1 ahead from the first move and wins (decisiveness 3/4, no drama, no change of leader);
    # B: P2 comes back from 2-0 and wins (decided at the end: 0; behind by 1, 2, 1 of a range of 2:
    # drama 2/3; one change of leader of 3 possible)
    a = [traced(i, [0], [[1, 0], [2, 0], [3, 0], [4, 0]]) for i in range(6)]
    b = [traced(i, [1], [[1, 0], [2, 0], [2, 1], [2, 3]]) for i in range(6)]
    m = compared(a, b)
    assert m["decisiveness"]["a"]["mean"] == 0.75 and m["decisiveness"]["b"]["mean"] == 0.0  # type: ignore[index]
    assert m["drama"]["difference"]["value"] == pytest.approx(2 / 3, abs=1e-6)  # type: ignore[index]
    assert m["lead_changes"]["b"]["mean"] == pytest.approx(1 / 3, abs=1e-6)  # type: ignore[index]
    assert m["branching"]["difference"]["value"] == 0.0 and m["branching"]["test"]["p"] == 1.0  # type: ignore[index]
    assert m["first_player_win"]["a"]["rate"] == 1.0 and m["first_player_win"]["b"]["rate"] == 0.0  # type: ignore[index]
    # balance: one seat wins every game on both sides (0 each), nothing differs
    balance = m["balance"]
    assert balance["a"]["value"] == balance["b"]["value"] == 0.0 and balance["test"]["p"] == 1.0  # type: ignore[index]
    # B balanced (each seat 3 of 6) against A's 0: +1, every swap of pairs gives less in absolute value
    even = [traced(i, [i % 2], [[1, 0], [2, 0], [3, 0], [4, 0]] if i % 2 == 0 else [[0, 1], [0, 2]]) for i in range(6)]
    m = compared(a, even)
    balance = m["balance"]
    assert balance["b"]["value"] == 1.0 and balance["difference"]["value"] == 1.0  # type: ignore[index]
    assert balance["verdict"].startswith("balance: 0 -> 1, B-A +1 [")  # type: ignore[union-attr]
    # games with no lead before their end: no pair to compare, said so
    blind = [traced(i, [0], [[0, 0], [0, 0], [1, 0]]) for i in range(4)]
    m = compared(blind, blind)
    assert m["drama"]["a"] is None and "a lead shown before the end" in str(m["drama"]["verdict"])


def test_capped_games_leave_their_pairs_out_of_wins_and_are_compared_apart() -> None:
    a = [result(i, [0], [1, 0]) for i in range(8)]
    b = [result(i, [0], [1, 0], capped=i < 3) for i in range(8)]
    m = compared(a, b)
    assert m["win_rate.P1"]["pairs"] == 5
    assert m["unfinished"]["pairs"] == 8 and m["unfinished"]["b"]["count"] == 3  # type: ignore[index]
    none = compared([result(0, [0], [1, 0], capped=True)], [result(0, [0], [1, 0])])
    assert none["win_rate.P1"]["a"] is None and "no pair" in str(none["win_rate.P1"]["verdict"])


# -- the command -------------------------------------------------------------------------------
def test_compare_json_is_complete_and_deterministic() -> None:
    args = ("compare", "china-cornett", "-n", "12", "--option-b", "board=hex5", "--seed", "3", "--json")
    first = run(*args)
    assert first.exit_code == 0, first.output
    assert first.stderr == ""
    data = json.loads(first.stdout)
    assert {"a", "b", "players", "seed", "games", "pairs", "alpha", "confidence", "methods", "sides",
            "measures"} <= data.keys()
    assert data["a"]["label"] == "china-cornett" and data["b"]["label"] == "china-cornett board=hex5"
    assert data["b"]["options"]["board"] == "hex5" and data["a"]["options"]["board"] == "hex6"
    keys = [m["key"] for m in data["measures"]]
    assert keys == ["win_rate.P1", "win_rate.P2", "draws", "first_player_advantage", "first_player_win", "balance",
                    "score.P1", "score.P2", "moves", "turns", "decisiveness", "drama", "lead_changes", "branching",
                    "unfinished"]
    for m in data["measures"]:
        assert {"a", "b", "difference", "test", "significant", "verdict"} <= m.keys()
        assert m["test"]["name"] in ("exact McNemar", "paired permutation") and 0 < m["test"]["p"] <= 1
        assert m["difference"]["low"] <= m["difference"]["value"] <= m["difference"]["high"]
    assert run(*args).stdout == first.stdout, "same seed, same report, byte for byte"
    other = json.loads(run(*args[:-3], "--seed", "4", "--json").stdout)
    assert other["measures"] != data["measures"]


def test_no_course_leaves_out_only_the_measures_that_read_every_move() -> None:
    """`--no-course` plays as `simulate` does (no score read after each move): the measures of the
    game's course are left out, and every other one is the very one a full comparison gives."""
    args = ("compare", "china-cornett", "-n", "12", "--option-b", "board=hex5", "--seed", "3", "--json")
    full = json.loads(run(*args).stdout)
    result = run(*args, "--no-course")
    assert result.exit_code == 0, result.output
    fast = json.loads(result.stdout)
    course = {"decisiveness", "drama", "lead_changes", "branching"}
    assert [m["key"] for m in fast["measures"]] == [m["key"] for m in full["measures"] if m["key"] not in course]
    assert fast["measures"] == [m for m in full["measures"] if m["key"] not in course]


def test_compare_text_report_and_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)  # (piped: 120 columns, where the table fits whole)
    result = run("compare", "china-cornett", "-n", "6", "--agent-b", "2=random", "--option-a", "board=hex5")
    assert result.exit_code == 0, result.output
    assert "A │ china-cornett board=hex5" in result.stdout and "B │ china-cornett P2=random" in result.stdout
    # Each measure once (issue 34: the table, then each verdict again, said every result twice):
    # its row of the table, then one line naming the significant ones.
    rows = [line for line in result.stdout.splitlines() if "win rate P1" in line or "game length (moves)" in line]
    assert len(rows) == 2 and all(line.startswith("│") for line in rows), result.stdout
    assert " -> " not in result.stdout  # (the verdict sentences are --json's)
    last = result.stdout.splitlines()[-1]
    assert last == "no measure differs significantly at 0.05" or last.startswith("significant at 0.05: ")
    data = json.loads(run("compare", "china-cornett", "-n", "4", "--agent", "1=random", "--json").stdout)
    assert data["a"]["agents"] == data["b"]["agents"] == {"1": "random"}


def test_compare_plot_writes_charts_and_a_self_contained_report(tmp_path: Path) -> None:
    out = tmp_path / "plots"
    result = run("compare", "china-cornett", "-n", "8", "--option-b", "board=hex5", "--plot", str(out), "--json")
    assert result.exit_code == 0, result.output
    for name in ("win-rates", "scores", "length"):
        svg = (out / f"{name}.svg").read_text(encoding="utf-8")
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg and len(svg) > 5000
        png = (out / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 3 and "win rate P1" in page and "exact McNemar" in page
    # nothing fetched: no script, stylesheet link, image source or outside reference (xmlns URIs name, not fetch)
    assert "<script" not in page and "<link" not in page and " src=" not in page
    references = re.findall(r'href="([^"]*)"', page) + re.findall(r"url\(([^)]*)\)", page)
    assert references and all(r.startswith("#") for r in references), references
    again = tmp_path / "again"
    run("compare", "china-cornett", "-n", "8", "--option-b", "board=hex5", "--plot", str(again), "--json")
    assert (again / "win-rates.svg").read_bytes() == (out / "win-rates.svg").read_bytes()


def test_compare_errors_are_one_line() -> None:
    assert_user_error(run("compare", "china-cornet", "china-cornett"), "unknown rule set `china-cornet`")
    assert_user_error(run("compare", "china-schacht", "mandarin"), "A is played by 3, 4, 5 players and B by 2, 3, 4, 5")
    assert_user_error(run("compare", "china-cornett", "china-schacht"), "no player count fits both")
    assert_user_error(run("compare", "china-schacht", "mandarin", "--players", "2"),
                      "A (china-schacht) is played by 3, 4, 5 players, not 2")
    assert_user_error(run("compare", "china-schacht", "mandarin"), "choose one with --players N (3, 4, 5 fit both)")
    assert_user_error(run("compare", "china-cornett", "-n", "0"), "0 is not in the range x>=1")
    assert_user_error(run("compare", "china-cornett", "--option-b", "board=hex9"), "B (china-cornett)", "hex9")
    assert_user_error(run("compare", "china-cornett", "--agent-b", "3=random"), "seats are 1 to 2")
    assert_user_error(run("compare", "china-cornett", "--alpha", "1.5"), "--alpha")


def test_compare_across_player_counts_with_players() -> None:
    result = run("compare", "china-schacht", "china-schacht/fortifications", "-n", "3", "--players", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 4 and [m["key"] for m in data["measures"]][:4] == [f"win_rate.P{p}" for p in (1, 2, 3, 4)]


# -- Dask --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_scheduler() -> object:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_dask_plays_the_games_of_a_local_run(dask_scheduler: str) -> None:
    args = ("simulate", "china-cornett", "-n", "25", "--seed", "5", "--json")
    local = json.loads(run(*args).stdout)
    remote = run(*args, "--dask", dask_scheduler)
    assert remote.exit_code == 0, remote.output
    on_dask = json.loads(remote.stdout)
    del local["games_per_sec"], on_dask["games_per_sec"]
    assert on_dask == local
    args = ("compare", "china-cornett", "-n", "12", "--option-b", "board=hex5", "--json")
    assert run(*args, "--dask", dask_scheduler).stdout == run(*args).stdout


def test_dask_unreachable_is_one_line() -> None:
    result = run("simulate", "china-cornett", "-n", "2", "--dask", "nonsense://nowhere")
    assert_user_error(result, "cannot use the Dask scheduler at nonsense://nowhere")


# -- batches: several at once, chunks, worker start-up -----------------------------------------
def test_run_batches_gives_each_batch_as_alone() -> None:
    from rulewright.match import BatchSpec, run_batch, run_batches

    a = BatchSpec("china-cornett", 2, 7, {"board": "hex6", "sector_collector": "with_own",
                                          "reduction_reading": "at_most_one"})
    b = BatchSpec("china-cornett", 2, 7, dict(a.options, board="hex5"))
    alone = [[(r.index, r.scores, r.moves) for r in run_batch(s, 9)] for s in (a, b)]
    for specs in ((a, b), (a, a)):  # the same spec twice is two batches still
        for workers in (1, 2):
            got: list[list[tuple[int, list[int], int]]] = [[], []]
            for k, r in run_batches(list(specs), 9, workers):
                got[k].append((r.index, r.scores, r.moves))
            assert got == [alone[0], alone[1] if specs[1] is b else alone[0]], (specs, workers)


def test_chunk_ranges_shrink_and_cover_every_game() -> None:
    from rulewright.match import chunk_ranges

    for games, workers, per_game in ((400, 2, 0.002), (1000, 4, 0.0), (5, 2, 1.0), (2, 8, 0.001)):
        ranges = chunk_ranges(1, games, workers, per_game)
        assert ranges[0][0] == 1 and ranges[-1][1] == games
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
        sizes = [b - a for a, b in ranges]
        assert sizes == sorted(sizes, reverse=True), sizes
        assert max(sizes) <= -(-(games - 1) // workers)
    sizes = [b - a for a, b in chunk_ranges(1, 400, 2, 0.002)]
    assert sizes[0] == 399 // 8 and min(sizes[:-1]) == 25  # at least 0.05 s of play each, but the last


def test_workers_do_not_run_the_main_module_again() -> None:
    import sys
    from multiprocessing import spawn

    from rulewright.match import _main_left_out

    main = sys.modules["__main__"]
    before = (main.__dict__.get("__file__"), main.__dict__.get("__spec__"))
    with _main_left_out():
        data = spawn.get_preparation_data("worker")
    assert "init_main_from_path" not in data and "init_main_from_name" not in data
    assert (main.__dict__.get("__file__"), main.__dict__.get("__spec__")) == before


def test_the_rest_runs_without_the_experiments_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    probe = ("import sys, rulewright.cli, rulewright.commands.simulate, rulewright.commands.compare, "
             "rulewright.match, rulewright.compare, rulewright.plots; "
             "print(sorted(m for m in ('numpy', 'scipy', 'matplotlib', 'distributed') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]", "imported only when compare computes or draws, or --dask is given"
    monkeypatch.setitem(sys.modules, "scipy.stats", None)  # as if scipy were not installed
    assert_user_error(run("compare", "china-cornett", "-n", "2"),
                      "the statistics of `compare` need scipy: pip install 'rulewright[experiments]'")
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert_user_error(run("simulate", "china-cornett", "-n", "2", "--dask", "tcp://127.0.0.1:8786"),
                      "--dask needs dask.distributed")


def test_ctrl_c_stops_compare_and_its_workers() -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.helpers.cli import group_members

    command = [str(Path(sys.executable).parent / "rulewright"), "compare", "china-cornett", "-n", "100000",
               "--workers", "2"]
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        # (the workers' start is waited for however long a loaded machine takes, while the
        # command lives; the deadline only ends a hang)
        deadline = time.monotonic() + 600
        while sum("spawn_main" in c for _, c in group_members(process.pid)) != 2:
            assert process.poll() is None and time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.05)
        time.sleep(0.5)  # playing now
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, err
    assert re.fullmatch(r"rulewright: interrupted by SIGINT after \d+ of 200000 games; 2 workers ended\n", err), err
    assert out == ""
    deadline = time.monotonic() + 120  # a guard, not a measure: a loaded machine reaps slowly
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group_members(process.pid), "no worker left behind"


def test_many_pairs_are_compared_by_a_paired_t_test() -> None:
    from scipy.stats import t as student

    from rulewright.compare import PERMUTATION_AT_MOST, paired_t_p

    n = PERMUTATION_AT_MOST + 1
    a = np.zeros(n)
    b = np.tile([1.0, 0.0, -1.0, 2.0], n // 4 + 1)[:n]
    d = b - a
    t_value = d.mean() / (d.std(ddof=1) / math.sqrt(n))
    assert paired_t_p(a, b) == pytest.approx(2 * student.sf(abs(t_value), n - 1), rel=1e-9)
    assert paired_t_p(a, a) == 1.0 and paired_t_p(a, a + 1) == 0.0
    games = [result(i, [0], [1, 0], moves=10) for i in range(n)]
    longer = [result(i, [0], [1, 0], moves=10 + i % 3) for i in range(n)]
    m = compared(games, longer)
    assert m["moves"]["test"]["name"] == "paired t-test" and m["moves"]["significant"] is True  # type: ignore[index]
    assert m["win_rate.P1"]["test"]["name"] == "exact McNemar"  # type: ignore[index]
