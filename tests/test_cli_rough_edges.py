"""A newcomer's rough edges of the command line (issue 34): `play` says why a move is illegal
and what each move changed, takes back a move (`undo`) and goes on from a log (`--resume`);
bare `schema` succeeds (tests/test_schema.py); `bench` and `compare` never cut a figure;
`compare` says each result once (tests/test_compare.py); `list` marks the defaults; an
unclosed quote in a rule file is pointed at."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import Result
from rich.console import Console
from rich.table import Table

import rulewright
from rulewright.commands import play as play_command
from rulewright.commands import shared
from rulewright.core.load import LoadError, load
from rulewright.runtime.rng import Rng
from rulewright.viewer import PlaySession
from tests.helpers.cli import run


def moves_of(log: Path) -> list[tuple[int, str]]:
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return [(e["player"], e["action"]) for e in lines if "action" in e]


# -- play: why a move is illegal --------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["prospect Z9", "nonsense"])
def test_play_says_why_a_move_is_illegal_as_the_web_board_does(typed: str) -> None:
    """The reason and the rule (with its file and line) are the web board's for the same move."""
    result = run("play", "china-cornett", "--seed", "2", input=f"{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    web = PlaySession.start(rulewright.load("china-cornett"), 2, 2, ["human", "random"]).play(0, typed)
    assert web is not None and web["where"].startswith("rules/china-cornett/base.yaml:")
    lines = result.stdout.splitlines()
    said = lines.index(f"not a legal move: {web['why']}")
    assert lines[said + 1] == f"  rule {web['rule']} ({web['where']})"
    assert "game abandoned after 0 moves" in result.stdout


# -- play: what a move changed ------------------------------------------------------------------------
def test_play_tells_what_each_move_changed() -> None:
    result = run("play", "china-cornett", "--seed", "3", input="1\nquit\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    played = lines.index("P1 (mountains) plays prospect A1-A2-A3")
    assert lines[played + 1].startswith("  -> marker A1 A2 A3: -> gold_side;")
    agent = next(k for k, line in enumerate(lines) if line.startswith("P2 (rivers) plays "))
    assert lines[agent + 1].startswith("  -> "), "an agent's move is told with what it changed"


def _revolt_decided(seed: int) -> tuple[rulewright.State, rulewright.Action]:
    """A random Yellow & Yangtze game (2 players) up to the answer that decides its first revolt
    or war: a `governors` or `support` answer after which a leader leaves the map."""
    state = rulewright.load("yellow-yangtze").new_state(2, seed)
    rng = Rng(seed)
    for _ in range(3000):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        if action.name in ("governors", "support"):
            before = play_command.seen_fields(state, [0, 1])
            after = state.clone()
            after.apply(action)
            changes = [c for p in (0, 1)
                       for c in play_command.field_changes(after, before[p], after.observation(p)["fields"])]
            if any(c.startswith("chief_on ") and c.endswith(" -> none") for c in changes):
                return state, action
        state.apply(action)
    pytest.fail(f"no revolt or war decided in a random game of seed {seed}: the names this test looks for "
                "(`governors`, `support`, `chief_on`) may have changed in rules/yellow-yangtze/base.yaml")


def test_play_says_who_lost_a_revolt_and_keeps_hidden_points_hidden() -> None:
    """Yellow & Yangtze: the answer that decides a conflict is told with the leader that leaves
    the map (the loser's), whoever reads; a seat's points, behind its screen, are told to that
    seat only."""
    state, action = _revolt_decided(5)
    before = [play_command.seen_fields(state, [p]) for p in (0, 1)]
    state.apply(action)
    told = [play_command.move_effects(state, before[p], [p]) or "" for p in (0, 1)]
    for p in (0, 1):
        assert "chief_on " in told[p] and " -> none" in told[p], told[p]
        assert f"points P{2 - p}" not in told[p], "the other seat's points are hidden"


def test_effects_are_only_what_every_person_at_the_terminal_sees() -> None:
    """Two people at one terminal: a change only one of them sees (a seat's own rack, its
    points) is not told; what both see is."""
    state, action = _revolt_decided(5)
    before = play_command.seen_fields(state, [0, 1])
    state.apply(action)
    both = play_command.move_effects(state, before, [0, 1]) or ""
    assert "chief_on " in both and " -> none" in both
    assert "rack P" not in both and "points P" not in both


# -- play: undo ---------------------------------------------------------------------------------------
def test_undo_takes_back_the_persons_move_and_the_agents_replay_the_same(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = run("play", "china-cornett", "--seed", "3", "--log", str(log), input="undo\n1\n1\nundo\n1\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "cannot undo: you have played no move yet" in out
    assert "P1 (mountains) takes back `prospect A4` and 1 move after it" in out
    replies = [line for line in out.splitlines() if line.startswith("P2 (rivers) plays ")]
    assert replies[1] == replies[2], "the agent, restored with its draws, answers the same move the same way"
    assert moves_of(log) == [(0, "prospect A1-A2-A3"), (1, "prospect I5-J4"), (0, "prospect A4"),
                             (1, "prospect E6-F7-G7")]
    assert run("replay", str(log)).exit_code == 0, "the log holds no move taken back"


def test_undo_is_refused_with_two_people_at_the_terminal() -> None:
    result = run("play", "china-cornett", "--seed", "3", "--seat", "2=human", input="1\n1\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "cannot undo: undo is for one person playing against agents, and this game has 2 people" in result.stdout


# -- play: resume -------------------------------------------------------------------------------------
def test_resume_goes_on_from_a_log_with_its_seats(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    first = run("play", "china-cornett", "--seed", "3", "--seat", "2=greedy", "--log", str(log), input="1\nquit\n")
    assert first.exit_code == 0, first.output
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["seats"] == ["human", "greedy"]
    assert "`rulewright play --resume " in first.stdout
    played = moves_of(log)
    again = run("play", "--resume", str(log), input="1\nquit\n")
    assert again.exit_code == 0, again.output
    assert "seed 3: P1 (mountains) human, P2 (rivers) greedy" in again.stdout
    assert f"resumed after {len(played)} moves from {log}" in again.stdout
    now = moves_of(log)
    assert now[:len(played)] == played and len(now) == len(played) + 2
    assert run("replay", str(log)).exit_code == 0


def test_undo_reaches_back_into_a_resumed_game(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert run("play", "china-cornett", "--seed", "3", "--log", str(log), input="1\n1\nquit\n").exit_code == 0
    played = moves_of(log)
    result = run("play", "--resume", str(log), input="undo\nundo\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "P1 (mountains) takes back `prospect A4` and 1 move after it" in result.stdout
    assert "P1 (mountains) takes back `prospect A1-A2-A3` and 1 move after it" in result.stdout
    assert "cannot undo: you have played no move yet" in result.stdout
    assert played[:2] == [(0, "prospect A1-A2-A3"), (1, "prospect I5-J4")] and moves_of(log) == []
    assert "game abandoned after 0 moves" in result.stdout


def test_resume_takes_a_log_cut_short_by_a_kill(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert run("play", "china-cornett", "--seed", "3", "--log", str(log), input="1\nquit\n").exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")  # no final state line
    result = run("play", "--resume", str(log), input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"resumed after {len(lines) - 2} moves" in result.stdout


def _one_line_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulewright: error: cannot resume from "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_resume_refuses_a_bad_log_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert run("play", "china-cornett", "--seed", "3", "--log", str(log), input="1\nquit\n").exit_code == 0
    header, *rest = log.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(header + '\n{"player": 0, "action": "prospect Z9"}\n', encoding="utf-8")
    _one_line_error(run("play", "--resume", str(bad)), f"{bad}:2:", "prospect Z9")
    bad.write_text("not json\n", encoding="utf-8")
    _one_line_error(run("play", "--resume", str(bad)), f"{bad}:1:", "not a JSON line")
    seats = json.loads(header) | {"seats": ["human", "mcts:iterations=999999999"]}
    bad.write_text(json.dumps(seats) + "\n" + "\n".join(rest) + "\n", encoding="utf-8")
    _one_line_error(run("play", "--resume", str(bad)), "`seats`", "iterations")
    _one_line_error(run("play", "--resume", str(tmp_path / "missing.jsonl")), "missing.jsonl")
    over = tmp_path / "over.jsonl"
    assert run("play", "china-cornett", "--seed", "3", "--seat", "1=random", "--log", str(over)).exit_code == 0
    _one_line_error(run("play", "--resume", str(over)), "its game is over")
    given = run("play", "--resume", str(log), "--seed", "4")
    assert given.exit_code == 1 and "--seed cannot be given with --resume" in given.stderr


def test_play_without_a_rule_set_or_a_log_is_a_usage_error() -> None:
    result = run("play")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip() == ("rulewright: error: play needs a RULESET (or --resume LOG): "
                                     "e.g. rulewright play china-cornett")


def test_resume_refuses_a_log_too_large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "game.jsonl"
    assert run("play", "china-cornett", "--seed", "3", "--log", str(log), input="1\nquit\n").exit_code == 0
    monkeypatch.setattr(play_command, "MAX_RESUME_LOG", 100)
    _one_line_error(run("play", "--resume", str(log)), "too large", "limit of 100")


# -- bench and compare: figures whole -------------------------------------------------------------------
@pytest.mark.parametrize("width", [40, 80, 200])
def test_figures_are_never_cut(width: int) -> None:
    table = Table(title="figures")
    names = ["rule set", "players", "compile ms", "playouts/s", "moves/s", "legal µs", "apply µs", "clone µs",
             "MCTS it/s", "peak KiB", "maxrss MiB"]
    for name in names:
        table.add_column(name, justify="right")
    figures = ["china-schacht/fortifications-bonus-tiles", "2", "345.25", "1234567.5", "98765.4", "60.88",
               "69.125", "3.51", "46.9", "4.8", "97.3"]
    table.add_row(*figures)
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, soft_wrap=False)
    shared.print_figures(console, table)
    text = out.getvalue()
    assert "…" not in text
    cells = {cell.strip() for line in text.splitlines() for cell in line.split("│")}
    assert set(figures) <= cells, text
    if width >= 80:  # (the longest id alone, with its figure, fits in 40 columns only folded by the terminal)
        assert max(len(line) for line in text.splitlines()) <= width
    for word in " ".join(names).split():
        assert word in text


# -- list: the defaults ------------------------------------------------------------------------------
@pytest.mark.parametrize("columns", ["250", "60"])
def test_list_marks_the_defaults(columns: str) -> None:
    result = run("list", env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "board: hex6* | hex5" in out  # china-cornett's option, its default first and marked
    assert "2*, 3, 4" in out  # Chang Cheng: played by 2 unless told
    assert "* the default" in out


# -- an unclosed quote -------------------------------------------------------------------------------
def test_an_unclosed_quote_is_pointed_at(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text('game: x\ntitle: "My game\nplayers: [2]\ndoc: "something"\nboard: 1\n', encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        load(path)
    diagnostic = caught.value.diagnostic
    assert diagnostic.span.line == 4  # where YAML finds the error: at a later key
    assert diagnostic.hint is not None and f"the quote at {path}:2:8 is not closed on its line" in diagnostic.hint
    result = run("check", str(path))
    assert result.exit_code == 1 and "hint: the quote at" in result.stderr and "Traceback" not in result.output


def test_a_quoted_value_over_lines_far_from_the_error_is_not_blamed(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text('game: x\ntitle: "My\n  game"\nplayers: [2]\nboard: 1\nend: [\n', encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        load(path)
    assert "quote" not in (caught.value.diagnostic.hint or "")


def test_spots_given_one_value_are_named_together() -> None:
    state = rulewright.load("china-cornett").new_state(2, 3)
    before = state.observation(0)["fields"]
    after = json.loads(json.dumps(before))
    for spot in ("A1", "A2", "A3"):
        after["marker"][spot] = "removed"
    after["marker"]["B1"] = "gold_side"
    assert play_command.field_changes(state, before, after) == [
        "marker A1 A2 A3: -> removed", "marker B1: face_down -> gold_side"]


def test_a_long_change_is_wrapped_within_the_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change wider than a line (a long list) is folded, so `play` stays within its 100 columns."""
    state, action = _revolt_decided(5)
    monkeypatch.setattr(play_command, "field_changes", lambda *_: ["a: " + " ".join(["tile123"] * 40), "b: 1 -> 2"])
    told = play_command.move_effects(state, [{}], [0])
    assert told is not None and max(len(line) for line in told.splitlines()) <= play_command.PLAY_WIDTH
    assert told.count("tile123") == 40 and told.rstrip().endswith("b: 1 -> 2")


@pytest.mark.parametrize("value, advice", [("'l'action est'", "written twice in '...'"),
                                           ('"say "hi" now"', 'escaped in "..."')])
def test_a_quote_inside_a_quoted_value_is_pointed_at(tmp_path: Path, value: str, advice: str) -> None:
    """`doc: 'l'action'`: the value ends at the inner quote, and YAML reports the rest of the line."""
    path = tmp_path / "q.yaml"
    path.write_text(f"game: x\ndoc: {value}\nplayers: [2]\n", encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        load(path)
    diagnostic = caught.value.diagnostic
    assert diagnostic.span.line == 2
    assert diagnostic.hint is not None and f"the value quoted at {path}:2:6 ends at the quote" in diagnostic.hint
    assert advice in diagnostic.hint


def test_no_help_shows_a_range_that_is_not_one() -> None:
    """An option typed as a whole number with no bounds reads `INTEGER`, not `INTEGER RANGE [x<=None]`."""
    from rulewright.commands import COMMANDS

    for name in COMMANDS:
        shown = run(name, "--help")
        assert shown.exit_code == 0, name
        assert "None]" not in shown.output and "<=None" not in shown.output, name
    played = run("play", "--help").output
    assert "--players INTEGER " in played and "--seed INTEGER " in played
    # a bounded option still shows its range
    assert shared.WholeNumber(min=1)._describe_range() == "x>=1"


def test_list_shows_a_variant_only_the_options_it_changes() -> None:
    """A variant's row lists the options it adds or changes against its game's base, and says the
    others are the base's: Chang Cheng's thirteen options are not repeated under its six variants."""
    out = run("list", env={"COLUMNS": "60"}).stdout
    blocks = {block.splitlines()[0]: block for block in re.split(r"\n(?=\S)", out)}
    assert "faces: drawn* | chosen" in blocks["chang-cheng"]
    diplomacy = blocks["chang-cheng/diplomacy"]
    assert "faces:" not in diplomacy and "(other options as chang-cheng)" in diplomacy
    drawn = blocks["chang-cheng/drawn-events"]
    assert "events_drawn: two_events* | one_event" in drawn and "faces:" not in drawn
