"""Boards drawn where the rules place them (`look: boards:`, issue 39): China (Schacht)'s faces as a
map of the Warring States, and the looks of the classics.

scripts/schacht_map.py holds the map and the positions and checks them; here the same checks run
on what each China (Schacht) rule set compiles to (its boards and `GameInfo.look`, which the
drawing reads), the checks are shown to find the faults they look for, and the rule files are
shown to hold what the script writes.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import rulewright
from rulewright.runtime import GraphBoard
from tests.helpers.games import RULESETS

ROOT = Path(__file__).resolve().parent.parent
SCHACHT = [r for r in RULESETS if r.split("/")[0] == "china-schacht"]
CLASSICS = ["backgammon", "breakthrough", "connect-four", "hex", "leduc-poker", "liars-dice", "oshi-zumo",
            "othello"]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def schacht_map() -> ModuleType:
    return _script("schacht_map")


def _compiled(ruleset: str) -> list[tuple[Any, GraphBoard, dict[str, Any]]]:
    """Each board of the rule set as the game builds it, with its `look: boards:` entry."""
    game = rulewright.load(ruleset)
    looks = dict(game.info.look.get("boards") or {})
    boards = [game.board_for({"board": name}) for name in game.board_players]
    assert sorted(looks) == sorted(b.name for b in boards), f"{ruleset}: a board without a place, or a place of none"
    assert all(isinstance(b, GraphBoard) for b in boards)
    return [(game, b, looks[b.name]) for b in boards if isinstance(b, GraphBoard)]


def _plain(schacht_map: ModuleType, board: GraphBoard) -> Any:
    """The script's view of a compiled board: spaces, roads, provinces, harbours, borders."""
    labels = board.labels
    roads = [(labels[a], labels[b]) for a in board.spots for b in board.neighbours[a] if a < b]
    kinds = {name: board.kinds[board.region_kind[r]] for r, name in enumerate(board.region_names)}
    spots = {name: [labels[s] for s in board.region_spots[r]] for r, name in enumerate(board.region_names)}
    provinces = {name: spots[name] for name in board.region_names if kinds[name] == "province"}
    harbours = [s for name in board.region_names if kinds[name] == "harbour" for s in spots[name]]
    borders = [(board.region_names[a], board.region_names[b]) for a, b in board.border_regions]
    return schacht_map.Board(board.name, labels, roads, provinces, harbours, borders)


def _points(given: Any) -> dict[str, tuple[int, int]]:
    return {str(k): (int(v[0]), int(v[1])) for k, v in dict(given).items()}


@pytest.mark.parametrize("ruleset", SCHACHT)
def test_every_board_of_china_schacht_is_a_checked_map(ruleset: str, schacht_map: ModuleType) -> None:
    for _, board, look in _compiled(ruleset):
        plain = _plain(schacht_map, board)
        spots, labels = _points(look["spots"]), _points(look["labels"])
        assert sorted(spots) == sorted(board.labels)
        assert schacht_map.verify(plain, spots, labels) == [], f"{ruleset} {board.name}"
        assert "size" not in look  # the drawing sizes the spaces to their distances


def test_the_map_is_china(schacht_map: ModuleType) -> None:
    """The provinces lie as the Warring States did and touch where the boards have borders; the
    figures of each face (the closest spaces, roads across names) as the script prints them."""
    assert schacht_map.check_map() == []
    for board in schacht_map.boards():
        figures = schacht_map.figures(board)
        assert figures["crossings"] == 0 and figures["label_roads"] == 0
        assert figures["min_distance"] >= 50 and figures["longest_road"] <= schacht_map.MAX_ROAD


def test_the_checks_find_what_they_look_for(schacht_map: ModuleType) -> None:
    board = next(b for b in schacht_map.boards() if b.name == "face_3_4")
    good = schacht_map.positions(board)
    labels = dict(schacht_map.LABELS)
    assert schacht_map.verify(board, good, labels) == []

    def faults(**moved: tuple[int, int]) -> str:
        return "\n".join(schacht_map.verify(board, {**good, **moved}, labels))

    assert "Chin1 and Chin2: 29 apart, under 50" in faults(Chin2=(220, 235))
    assert "Qi3 at (600, 900) lies in Chu, not Qi" in faults(Qi3=(600, 900))
    # Wei2 and Wei3 swapped: the road from Wei3 (now west) to Wei4 crosses the road Wei2-Wei1
    assert "roads Wei4-Wei3 and Wei2-Wei1 cross" in faults(Wei2=good["Wei3"], Wei3=good["Wei2"])
    assert "the name Zhao at (520, 290) is on Zhao3" in faults(Zhao3=(520, 310))
    assert "no position for Lu5" in "\n".join(schacht_map.verify(board, {k: v for k, v in good.items() if k != "Lu5"},
                                                                labels))
    on_a_space = {**labels, "Wei": good["Wei3"]}
    assert "the name Wei at (483, 397) is on Wei3" in "\n".join(schacht_map.verify(board, good, on_a_space))


def test_the_rule_files_hold_the_scripts_positions(schacht_map: ModuleType) -> None:
    """`scripts/schacht_map.py --check`: what --write would write is what the rule files hold."""
    boards = schacht_map.boards()
    written = 0
    for file in sorted(schacht_map.RULES.glob("*.yaml")):
        text = schacht_map.rule_file_text(file, boards)
        if text is not None:
            assert text == file.read_text(), f"{file.name}: run scripts/schacht_map.py --write"
            written += 1
    assert written == 3  # base (both faces), border-quarrels (its own board), two-player (face_4_5 removed)


@pytest.mark.parametrize("ruleset", CLASSICS)
def test_each_classic_declares_its_look(ruleset: str) -> None:
    """Seat colours for its two seats, a prompt for every action, its bookkeeping hidden."""
    game = rulewright.load(ruleset)
    look = game.info.look
    assert len(look["seats"]) == 2 and all(c.startswith("#") and len(c) == 7 for c in look["seats"])
    actions = {a for phase in game.state_class.PHASE_ACTIONS for a in phase}
    assert actions and actions <= set(look["prompts"]), f"no prompt for {sorted(actions - set(look['prompts']))}"
    shown = {f.name for f in game.state_class.FIELDS} - {n for n, f in look["fields"].items() if f["as"] == "hidden"}
    assert not shown & {"winner", "over", "acted", "extra", "moved", "turns", "dropped", "reaches_first"}


def test_stones_discs_and_checkers_are_in_their_seats_colours() -> None:
    """As the games are played: black and white in Hex, Othello and Breakthrough, red and yellow in
    Connect four; a player on a cell is drawn in its seat's colour."""
    black, white = "#333333", "#f8f8f8"
    for ruleset in ("hex", "othello", "breakthrough"):
        assert list(rulewright.load(ruleset).info.look["seats"]) == [black, white]
    assert list(rulewright.load("connect-four").info.look["seats"]) == ["#e05050", "#f2d33c"]
    for ruleset in ("hex", "othello", "breakthrough", "connect-four", "backgammon"):
        assert rulewright.load(ruleset).info.look["pieces"]["player"]["colour"] == "owner"
    leduc = rulewright.load("leduc-poker").info
    assert leduc.attributes["card"]["face"] == ("jack", "jack", "queen", "queen", "king", "king")
    assert dict(leduc.look["symbols"]) == {"jack": "J", "queen": "Q", "king": "K"}


def test_the_classics_prompts_and_move_texts_read_as_players_say_them() -> None:
    liars = rulewright.load("liars-dice").new_state(seed=1)
    assert "lie" not in (liars.prompt(0) or "") and liars.prompt(1) is None  # nobody has bid: none to call
    bid = next(a for a in liars.legal_actions() if str(a) == "bid 2 5")
    assert liars.move_label(bid, 0) == "bid 2 dice showing 5"
    liars.apply(bid)
    assert (liars.prompt(1) or "").endswith("or call the last bid a lie")

    leduc = rulewright.load("leduc-poker").new_state(seed=1)
    assert leduc.prompt(0) == "Check or raise"
    assert [leduc.move_label(a, 0) for a in leduc.legal_actions()] == ["check", "raise by 2"]
    leduc.apply(next(a for a in leduc.legal_actions() if str(a) == "raise"))
    assert leduc.prompt(1) == "2 to call: fold, call or raise"
    assert [leduc.move_label(a, 1) for a in leduc.legal_actions()] == ["fold", "call", "raise by 2"]

    backgammon = rulewright.load("backgammon").new_state(seed=1)
    seat = backgammon.choosing()[0]
    for action in backgammon.legal_actions():  # `move 13 by 6 then 8 by 5` reads `13/7 8/3`
        words = str(action).split()
        a, d, b, e = int(words[1]), int(words[3]), int(words[5]), int(words[7])
        assert backgammon.move_label(action, seat) == f"{a}/{max(a - d, 0)} {b}/{max(b - e, 0)}"
