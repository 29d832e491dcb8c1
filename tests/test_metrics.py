"""`rulewright metrics`: each measure's definition on hand-made game records (api/traces.py, pure
functions: no game played), the measures of a test game whose every play goes the same way
(tests/games/seesaw.yaml: the second seat wins, the lead changes at every move), a game whose
score shows no lead before its end (hex: nan with a note), determinism across workers and Dask,
the JSON, the charts, the errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from rulewright.match import BatchSpec, play_game, run_batch
from rulewright.metrics import Estimate, measure, names
from rulewright.traces import BINS, leader, summarise
from tests.helpers.cli import assert_user_error, run

SEESAW = str(Path(__file__).parent / "games" / "seesaw.yaml")


# -- the definitions, on hand-made records -----------------------------------------------------
def test_leader_is_the_one_best_score() -> None:
    assert leader([3, 1, 2]) == 0
    assert leader([3, 3, 1]) is None
    assert leader([3, 1, 2], lowest_wins=True) == 1
    assert leader([]) is None


def test_a_winner_ahead_from_the_first_move() -> None:
    # P1 leads after every move of 4 and wins: decided from move 1, never behind, no change of leader
    t = summarise([3, 2, 2, 1], [[1, 0], [1, 0], [2, 0], [3, 1]], [0], first=0)
    assert t.lead_shown
    assert t.decisiveness == pytest.approx(1 - 1 / 4)
    assert t.drama == 0.0
    assert t.lead_change_count == 0 and t.lead_changes == 0.0
    assert t.branching == pytest.approx(8 / 4)


def test_a_comeback() -> None:
    # scores after moves 1..5; P2 trails by 3 then by 1, ties, leads at move 4 and wins
    scores = [[3, 0], [3, 2], [3, 3], [3, 4], [3, 6]]
    t = summarise([1] * 5, scores, [1], first=0)
    # positions 1..4 before the end: leaders P1, P1, none, P2; P2 leads for good from move 4
    assert t.decisiveness == pytest.approx(1 - 4 / 5)
    # deficits where P2 trailed: 3 and 1, over the range of positions 1..4 (0 to 4)
    assert t.drama == pytest.approx((3 / 4 + 1 / 4) / 2)
    # leaders in order, ties skipped, the end P2's: P1 P1 P2 P2: one change, of at most 4
    assert t.lead_change_count == 1 and t.lead_changes == pytest.approx(1 / 4)


def test_lowest_score_wins_reads_the_lead_the_other_way() -> None:
    t = summarise([2, 2, 2], [[1, 0], [1, 2], [3, 2]], [0], first=0, lowest_wins=True)
    # leaders (lowest): P2 then P1; P1 wins
    assert t.decisiveness == pytest.approx(1 - 2 / 3)
    assert t.drama == pytest.approx(1 / 2)  # behind by 1 at move 1, range 0 to 2
    assert t.lead_change_count == 1


def test_no_lead_before_the_end_is_nan_not_zero() -> None:
    # Hex-like: every score 0 until the last move
    t = summarise([5, 4, 3, 2], [[0, 0], [0, 0], [0, 0], [1, 0]], [0], first=0)
    assert not t.lead_shown
    assert math.isnan(t.decisiveness) and math.isnan(t.drama) and math.isnan(t.lead_changes)
    assert t.branching == pytest.approx(3.5)
    assert t.branching_curve[0] == 5 and all(math.isnan(x) for x in t.lead_curve)


def test_draws_and_capped_games() -> None:
    scores = [[1, 0], [1, 1], [1, 2], [2, 2]]
    shared = summarise([1] * 4, scores, [0, 1], first=0)  # a shared win: no winner to lead
    assert math.isnan(shared.decisiveness) and math.isnan(shared.drama)
    assert shared.lead_change_count == 1  # P1, (tie), P2, and the end led by no one
    draw = summarise([1] * 4, scores, [], first=0)  # a draw by declared returns: a finished game still
    assert draw.lead_change_count == 1
    capped = summarise([1] * 4, scores, [], first=0, finished=False)
    assert math.isnan(capped.lead_changes) and capped.branching == 1


def test_curves_split_the_game_into_parts() -> None:
    length = 2 * BINS
    t = summarise(list(range(length)), [[t, 0] for t in range(1, length + 1)], [0], first=0)
    assert t.branching_curve == tuple(2 * k + 0.5 for k in range(BINS))  # moves 2k+1, 2k+2 in part k
    assert t.lead_curve == (1.0,) * BINS


# -- played: a game with known answers ---------------------------------------------------------
def test_seesaw_measures_are_known() -> None:
    m = measure(SEESAW, games=6, seed=2)
    e = m.estimates
    assert list(e) == names(2)
    assert e["win_rate.P2"].value == 1.0 and e["win_rate.P1"].value == 0.0
    assert e["balance"] == Estimate(0.0, 0.0, 0.0, 6, "percentile")
    assert e["first_player_win"].value == 0.0 and e["first_player_advantage"].value == -0.5
    assert e["completion"].value == 1.0 and e["draws"].value == 0.0
    assert e["length"].value == e["length_median"].value == e["turns"].value == 4.0
    # leaders P1, P2, P1 after moves 1-3, P2 wins: 3 changes of 3, P2 leads for good only at the end,
    # behind by 1 at moves 1 and 3 over a range of 0 to 3
    assert e["lead_changes"].value == 1.0 and "3 changes per game" in e["lead_changes"].note
    assert e["decisiveness"].value == 0.0
    assert e["drama"].value == pytest.approx(1 / 3)
    assert e["branching"].value == 2.0
    assert "strength" not in e


def test_a_game_without_a_lead_before_its_end_says_so() -> None:
    m = measure("hex", games=3, seed=0)
    for name in ("decisiveness", "drama", "lead_changes"):
        e = m.estimates[name]
        assert math.isnan(e.value) and e.games == 0 and "no score leads before the end" in e.note
    assert m.estimates["branching"].value > 1
    data = m.to_json()
    assert data["estimates"]["drama"]["value"] is None  # JSON has no NaN
    json.dumps(data, allow_nan=False)


def test_the_lead_read_from_a_definition() -> None:
    # Yellow & Yangtze's points are secret until the end; its `level` says who is ahead
    by_score = measure("yellow-yangtze", games=2, seed=0)
    assert math.isnan(by_score.estimates["drama"].value)
    by_level = measure("yellow-yangtze", games=2, seed=0, lead="level")
    assert by_level.estimates["decisiveness"].games > 0 and by_level.to_json()["lead"] == "level"
    assert by_level.estimates["win_rate.P1"] == by_score.estimates["win_rate.P1"]  # the same games


def test_strength_plays_each_seat_in_turn() -> None:
    m = measure(SEESAW, games=4, seed=0, strength="greedy")
    e = m.estimates["strength"]
    # 2 games per seat; greedy wins only from the second seat, as everyone does
    assert e.games == 4 and e.value == 0.5 and "greedy vs random" in e.note


def test_the_trace_is_off_the_fast_path_and_changes_no_game() -> None:
    game_spec = BatchSpec("china-cornett", 2, 4, {})
    plain = [(r.scores, r.moves, r.trace) for r in run_batch(game_spec, 3)]
    traced = list(run_batch(BatchSpec("china-cornett", 2, 4, {}, trace=True), 3))
    assert [(r.scores, r.moves) for r in traced] == [(s, n) for s, n, _ in plain]
    assert all(t is None for _, _, t in plain) and all(r.trace is not None for r in traced)
    assert all(r.trace is not None and r.trace.decisions == r.moves for r in traced)


def test_play_game_traces_a_capped_game() -> None:
    from rulewright.match import _game

    result = play_game(_game(SEESAW), 2, 1, max_moves=2, trace=True)
    assert result.capped and result.trace is not None and result.trace.decisions == 2
    assert math.isnan(result.trace.lead_changes)


# -- determinism, workers, Dask ----------------------------------------------------------------
def test_same_seed_same_json_whatever_the_workers() -> None:
    one = json.dumps(measure("china-cornett", games=6, seed=5).to_json())
    two = json.dumps(measure("china-cornett", games=6, seed=5, workers=2).to_json())
    assert one == two
    assert json.dumps(measure("china-cornett", games=6, seed=6).to_json()) != one


def test_dask_gives_the_numbers_of_a_local_run() -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        args = ("metrics", "othello", "-n", "8", "--seed", "3", "--json")
        assert run(*args, "--dask", cluster.scheduler_address).stdout == run(*args).stdout


# -- the command -------------------------------------------------------------------------------
def test_metrics_json_and_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    result = run("metrics", SEESAW, "-n", "5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"ruleset", "options", "players", "games", "seed", "confidence", "estimates", "methods",
            "curves"} <= data.keys()
    assert list(data["estimates"]) == names(2)
    assert data["estimates"]["win_rate.P2"]["value"] == 1.0
    assert len(data["curves"]["branching"]) == BINS
    table = run("metrics", SEESAW, "-n", "5", "--confidence", "0.9")
    assert table.exit_code == 0, table.output
    rows = [line for line in table.stdout.splitlines() if line.startswith("│ ")]
    assert len(rows) == len(names(2)) and "90% interval" in table.stdout
    assert any("lead_changes" in r and "3 changes per game" in r for r in rows)


def test_metrics_plot_writes_the_charts(tmp_path: Path) -> None:
    out = tmp_path / "charts"
    result = run("metrics", SEESAW, "-n", "4", "--plot", str(out), "--json")
    assert result.exit_code == 0, result.output
    for name in ("win-rates", "length", "branching", "lead"):
        svg = (out / f"{name}.svg").read_text(encoding="utf-8")
        assert "<svg" in svg
        assert (out / f"{name}.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{n}.{s}" for n in ("win-rates", "length", "branching",
                                                                             "lead") for s in ("svg", "png"))
    again = tmp_path / "again"
    run("metrics", SEESAW, "-n", "4", "--plot", str(again), "--json")
    assert (again / "lead.svg").read_bytes() == (out / "lead.svg").read_bytes()


def test_metrics_errors_are_one_line() -> None:
    assert_user_error(run("metrics", "othelo"), "unknown rule set `othelo`")
    assert_user_error(run("metrics", SEESAW, "-n", "0"), "-n")
    assert_user_error(run("metrics", SEESAW, "-n", "1000001"), "-n")
    assert_user_error(run("metrics", SEESAW, "--workers", "100000"), "--workers")
    assert_user_error(run("metrics", SEESAW, "--confidence", "1"), "--confidence")
    assert_user_error(run("metrics", SEESAW, "--players", "3"), "3")
    assert_user_error(run("metrics", SEESAW, "--agent", "3=random"), "seats are 1 to 2")
    assert_user_error(run("metrics", SEESAW, "--strength", "wizard"), "no agent kind `wizard`")
    assert_user_error(run("metrics", SEESAW, "--option", "nosuch=1"), "nosuch")
    assert_user_error(run("metrics", "yellow-yangtze", "--lead", "leve"),
                      "yellow-yangtze has no definition `leve` to read the lead from: did you mean `level`?")
    assert_user_error(run("metrics", SEESAW, "--lead", "nosuch"), f"{SEESAW} has no definition `nosuch` to read")
    assert_user_error(run("metrics", SEESAW, "-n", "2", "--dask", "nonsense://nowhere"),
                      "cannot use the Dask scheduler at nonsense://nowhere")


def test_without_the_experiments_extra_metrics_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "scipy.stats", None)  # as if scipy were not installed
    assert_user_error(run("metrics", SEESAW, "-n", "2"),
                      "the statistics of `metrics` need scipy: pip install 'rulewright[experiments]'")
