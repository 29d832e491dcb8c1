"""The `rulewright` command line, through click's CliRunner: every command, its exit status,
and one-line errors (never a traceback)."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulewright
from rulewright import render
from rulewright.compiler import driver
from rulewright.core.paths import rules_dir
from tests.helpers.cli import assert_user_error, run

CORNETT = Path(rules_dir()) / "china-cornett" / "base.yaml"


# -- list and check ----------------------------------------------------------------------------
def test_list_shows_the_bundled_rule_sets() -> None:
    result = run("list")
    assert result.exit_code == 0, result.output
    assert "china-cornett" in result.stdout and "sector_collector" in result.stdout

    data = json.loads(run("list", "--json").stdout)
    (china,) = [r for r in data["rulesets"] if r["ruleset"] == "china-cornett"]
    assert china["compiled"] and china["players"] == [2]
    board = next(o for o in china["options"] if o["name"] == "board")
    assert board["default"] == "hex6" and board["choices"] == ["hex6", "hex5"]


def test_check_a_valid_file() -> None:
    result = run("check", str(CORNETT))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == f"{CORNETT}: ok"


def test_check_a_broken_file_points_at_the_problem(tmp_path: Path) -> None:
    text = CORNETT.read_text(encoding="utf-8")
    broken = text.replace("len(straight_lines(n, face_down_spots))", "len(straight_line(n, face_down_spots))")
    assert broken != text
    bad = tmp_path / "bad.yaml"
    bad.write_text(broken, encoding="utf-8")
    line = next(i for i, t in enumerate(broken.splitlines(), start=1) if "straight_line(n" in t)
    result = run("check", str(CORNETT), str(bad))
    assert result.exit_code == 1
    assert f"{CORNETT}: ok" in result.stdout
    assert f"bad.yaml:{line}:" in result.stderr and "unknown function `straight_line`" in result.stderr
    assert "did you mean `straight_lines`?" in result.stderr


# -- compile -----------------------------------------------------------------------------------
def test_compile_check_of_the_bundled_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each command below compiles every bundled rule set the same way: once is enough (what is
    # checked is what they find in, and write to, the folder; generated/'s own freshness is
    # test_compile's).
    monkeypatch.setattr(driver, "compile_file", functools.cache(driver.compile_file))
    out = tmp_path / "generated"
    missing = run("compile", "--check", "--out", str(out))
    assert missing.exit_code == 1 and "missing" in missing.stdout
    assert not out.exists(), "--check writes nothing"
    written = run("compile", "--out", str(out))
    assert written.exit_code == 0, written.stderr
    assert "wrote" in written.stdout and (out / "china_cornett" / "base.py").is_file()
    fresh = run("compile", "--check", "--out", str(out))
    assert fresh.exit_code == 0, fresh.output
    assert run("compile", "china-cornett", "--out", str(out)).stdout.strip() == "up to date"


def test_compile_a_file_outside_the_repository(tmp_path: Path) -> None:
    copy = tmp_path / "my-china.yaml"
    shutil.copy(CORNETT, copy)
    out = tmp_path / "out"
    result = run("compile", str(copy), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    module = out / "china_cornett" / "my_china.py"
    assert module.is_file() and "my_china.py" in result.stdout
    # the module runs: a game of it, played by two random seats
    played = run("play", str(module), "--seat", "1=random", "--seed", "5")
    assert played.exit_code == 0, played.output
    assert "final scores" in played.stdout


def test_compile_of_a_broken_file_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(CORNETT.read_text(encoding="utf-8").replace("end: ", "endd: "), encoding="utf-8")
    good = tmp_path / "good.yaml"
    shutil.copy(CORNETT, good)
    out = tmp_path / "out"
    result = run("compile", str(good), str(bad), "--out", str(out))
    assert result.exit_code == 1
    assert "bad.yaml:" in result.stderr and "endd" in result.stderr
    assert not out.exists()


# -- play --------------------------------------------------------------------------------------
def test_play_two_random_seats_to_the_end_then_replay_the_log(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = run("play", "china-cornett", "--seat", "1=random", "--seat", "2=random", "--seed", "3",
                 "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "P1 (mountains) plays prospect" in result.stdout
    assert "final scores: P1 (mountains)" in result.stdout
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["ruleset"] == "china-cornett" and header["seed"] == 3 and header["players"] == 2
    assert "final" in json.loads(lines[-1])

    replayed = run("replay", str(log))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.splitlines()[0] == f"replayed {len(lines) - 2} actions: identical"

    # the same game as game 0 of a batch seeded so: play and simulate agree
    game = rulewright.load("china-cornett")
    from rulewright.match import play_game

    assert [json.loads(t)["action"] for t in lines[1:-1]] == [
        text for _, text in play_game(game, 2, 3, record=True).log
    ]


def test_replay_stops_at_the_first_divergence(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert run("play", "china-cornett", "--seat", "1=random", "--seed", "4", "--log", str(log)).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()

    wrong_move = list(lines)
    wrong_move[3] = json.dumps({"player": json.loads(lines[3])["player"], "action": "prospect Z1-Z2"})
    (tmp_path / "a.jsonl").write_text("\n".join(wrong_move) + "\n", encoding="utf-8")
    result = run("replay", str(tmp_path / "a.jsonl"))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{tmp_path / 'a.jsonl'}:4: error: illegal action `prospect Z1-Z2`")

    wrong_seat = list(lines)
    entry = json.loads(lines[2])
    wrong_seat[2] = json.dumps({"player": 1 - entry["player"], "action": entry["action"]})
    (tmp_path / "b.jsonl").write_text("\n".join(wrong_seat) + "\n", encoding="utf-8")
    result = run("replay", str(tmp_path / "b.jsonl"))
    assert result.exit_code == 1 and result.stderr.startswith(f"{tmp_path / 'b.jsonl'}:3: error: ")

    wrong_end = list(lines)
    final = json.loads(lines[-1])
    final["final"]["fields"]["gold"][0] += 1
    wrong_end[-1] = json.dumps(final)
    (tmp_path / "c.jsonl").write_text("\n".join(wrong_end) + "\n", encoding="utf-8")
    result = run("replay", str(tmp_path / "c.jsonl"))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{tmp_path / 'c.jsonl'}:{len(lines)}: error: the final state differs")
    assert "fields.gold[0]" in result.stderr


def test_play_with_a_person_answering_from_stdin(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    moves = "nonsense\n0\n" + "1\n" * 400
    result = run("play", "china-cornett", "--seed", "11", "--log", str(log), input=moves)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "not a legal move: `nonsense` is no action of china-cornett" in out
    assert "  rule phases.turn.actions (rules/china-cornett/base.yaml:" in out  # the rule that refuses it
    assert "no move number 0" in out
    assert "tablets in play: t01 t02 t12    roll:" in out and "gold: P1 (mountains) 0" in out
    # piped, the board is drawn within 100 columns: label and marker, then mountain/river on a second board
    assert "A1  · A2  ·" in out and "M1/R7   M1/R7" in out, "the board shows each spot's marker and regions"
    assert max(len(line) for line in out.splitlines() if "your move" not in line) <= 100
    assert "P2 (rivers) plays" in out and "final scores" in out
    assert run("replay", str(log)).exit_code == 0


def test_play_quit_and_end_of_input_leave_cleanly() -> None:
    result = run("play", "china-cornett", "--seed", "2", input="prospect Z9\nquit\n")
    assert result.exit_code == 0, result.output
    assert "not a legal move: `prospect Z9` is not one of the choices of `prospect` now" in result.stdout
    assert "game abandoned after 0 moves" in result.stdout
    result = run("play", "china-cornett", "--seed", "2", input="")
    assert result.exit_code == 0 and "game abandoned" in result.stdout


def test_user_errors_are_one_line() -> None:
    assert_user_error(run("play", "chna-cornett"), "unknown rule set `chna-cornett`", "china-cornett")
    assert_user_error(run("play", "china-cornett", "--seat", "3=human"), "--seat `3=human`")
    assert_user_error(run("play", "china-cornett", "--seat", "1=robot"), "bad --seat `1=robot`: no agent kind `robot`")
    assert_user_error(run("simulate", "china-cornett", "--option", "board=hex9"), "hex9")
    assert_user_error(run("simulate", "china-cornett", "--option", "board"), "NAME=VALUE")
    assert_user_error(run("simulate", "china-cornett", "--players", "3"), "2 players")
    assert_user_error(run("simulate", "china-cornett", "-n", "2", "--log", "x.jsonl"), "-n 1")
    assert_user_error(run("replay", "no-such-log.jsonl"), "does not exist")
    assert_user_error(run("compile", "no-such-rules.yaml"), "no such rule file")
    assert_user_error(run("frobnicate"), "No such command")


# -- simulate ----------------------------------------------------------------------------------
KEYS = {"ruleset", "games", "players", "wins_by_seat", "turns_mean", "turns_min", "turns_max",
        "scores_mean_by_seat", "games_per_sec", "errors", "capped"}


def test_simulate_json() -> None:
    result = run("simulate", "china-cornett", "-n", "20", "--seed", "9", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert KEYS <= data.keys()
    assert data["games"] == 20 and data["errors"] == 0 and data["capped"] == 0
    assert sum(data["wins_by_seat"]) >= data["games"]
    assert data["turns_min"] <= data["turns_mean"] <= data["turns_max"]

    table = run("simulate", "china-cornett", "-n", "3", "--seed", "9")
    assert table.exit_code == 0 and "P1 (mountains)" in table.stdout and "games per second" in table.stdout


def test_simulate_with_workers_gives_the_same_results() -> None:
    serial = json.loads(run("simulate", "china-cornett", "-n", "20", "--seed", "9", "--json").stdout)
    result = run("simulate", "china-cornett", "-n", "20", "--seed", "9", "--json", "--workers", "2")
    assert result.exit_code == 0, result.output
    parallel = json.loads(result.stdout)
    del serial["games_per_sec"], parallel["games_per_sec"]
    assert parallel == serial


def test_simulate_turn_cap_counts_capped_games_apart() -> None:
    result = run("simulate", "china-cornett", "-n", "3", "--max-turns", "4", "--json")
    data = json.loads(result.stdout)
    assert data["capped"] == 3 and data["max_turns"] == 4 and data["finished"] == 0
    assert "turn cap (4)" in result.stderr


def test_simulate_counts_capped_games_and_writes_logs(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    result = run("simulate", "china-cornett", "-n", "3", "--max-moves", "10", "--json",
                 "--log-dir", str(logs))
    data = json.loads(result.stdout)
    assert data["capped"] == 3 and data["games"] == 3 and sum(data["wins_by_seat"]) == 0
    files = sorted(logs.iterdir())
    assert [f.name for f in files] == ["game-000000.jsonl", "game-000001.jsonl", "game-000002.jsonl"]
    replayed = run("replay", str(files[1]))
    assert replayed.exit_code == 0 and "replayed 10 actions: identical" in replayed.stdout


# -- bench, rendering, python -m -----------------------------------------------------------------
def test_bench_json() -> None:
    result = run("bench", "china-cornett", "--seconds", "0.2", "--json")
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)["rulesets"]
    assert entry["ruleset"] == "china-cornett" and entry["playouts"] >= 1
    for key in ("compile_s", "playouts_per_sec", "legal_actions_us", "apply_us", "clone_us",
                "mcts_iterations_per_sec", "playout_peak_kib"):
        assert entry[key] > 0, key


def test_bench_at_a_player_count() -> None:
    """`--players N` where a rule set allows N, else its smallest count (China is for two)."""
    # (--no-per-pass: the player count is what is tested; the passes' figures, 40 compilations
    # of each rule set, are test_bench_json's)
    result = run("bench", "chang-cheng", "china-cornett", "--players", "3", "--seconds", "0.2", "--json",
                 "--no-per-pass")
    assert result.exit_code == 0, result.output
    assert [(e["ruleset"], e["players"]) for e in json.loads(result.stdout)["rulesets"]] == [
        ("chang-cheng", 3), ("china-cornett", 2)]


def test_render_falls_back_to_the_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    state = rulewright.load("china-cornett").new_state(players=2, seed=1)
    assert "A1  ·M1/R7" in render.render_state(state)
    narrow = render.render_state(state, width=80)
    assert max(len(line) for line in narrow.splitlines()) <= 80 and "mountains: M1 A1 A2 A3" in narrow
    monkeypatch.setattr(render, "DRAWINGS", {})
    generic = render.render_state(state)
    # without a drawing of its own, the board drawn from its declaration: the markers on the spots
    # (all face down, the enumeration's first value: nothing on them), the regions, then the fields
    assert "A1  · A2  ·" in generic and "mountains: M1 A1 A2 A3 B2 B3 C3; M2 " in generic
    assert "gold: P1 0, P2 0" in generic and "marker: " not in generic


def test_python_dash_m() -> None:
    done = subprocess.run([sys.executable, "-m", "rulewright", "--version"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and rulewright.__version__ in done.stdout


def test_a_game_that_raises_is_counted_not_fatal() -> None:
    from rulewright.match import Summary, play_game
    from rulewright.runtime.state import State

    class Broken:
        def choose(self, state: State) -> int:
            raise ValueError("no idea\nsecond line")

    game = rulewright.load("china-cornett")
    result = play_game(game, 2, 7, agents={1: Broken()})
    assert result.error == "ValueError: no idea" and result.moves == 1 and not result.winners
    summary = Summary("china-cornett", 2, 0, {}, 100)
    summary.add(result)
    summary.add(play_game(game, 2, 8))
    data = summary.to_json()
    assert data["errors"] == 1
    assert data["first_error"] == {"game": 0, "seed": 7, "message": "ValueError: no idea"}
    assert data["finished"] == 1 and sum(data["wins_by_seat"]) >= 1
