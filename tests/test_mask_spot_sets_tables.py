"""The passes `mask_spot_sets` and `index_actions` (docs/optimiser.md): the board's functions over bit
masks give what the list versions give, in the same order; a mask kept up to date is always the
mask of the field it stands for; interned actions found through tables are the same object for
the same move in every state, and the legal actions keep their order."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import rulewright
from rulewright.compiler import passes
from rulewright.core.paths import ruleset_file
from rulewright.runtime import HexBoard, HexMapBoard, RingBoard
from rulewright.runtime.boards import Board, hexmap_cells
from rulewright.runtime.state import Game, State
from tests.helpers.lockstep import play_in_lockstep


def hex_board(side: int) -> HexBoard:
    return HexBoard(f"hex{side}", side, (), ())


def map_board() -> HexMapBoard:
    rows = ["  . . . .", " . . . . .", ". . . . . .", " . . . . .", "  . .   ."]
    cells, problems = hexmap_cells(rows)
    assert not problems
    return HexMapBoard("m", [(label, q, r) for label, q, r, _ in cells], "".join(s for *_, s in cells), (), (), ())


BOARDS: list[Board] = [hex_board(2), hex_board(4), hex_board(6), map_board()]


@st.composite
def board_and_spots(draw: st.DrawFn) -> tuple[Board, list[int]]:
    board = draw(st.sampled_from(BOARDS))
    chosen = draw(st.sets(st.sampled_from(board.spots)))
    return board, sorted(chosen)


@settings(max_examples=300, deadline=None)
@given(board_and_spots(), st.integers(0, 12))
def test_line_searches_over_a_mask_are_those_over_the_list(case: tuple[Board, list[int]], n: int) -> None:
    board, spots = case
    mask = board.spots_mask(spots)
    assert board.straight_lines_mask(n, mask) == board.straight_lines(n, spots)
    assert board.count_lines_mask(n, mask) == board.count_lines(n, spots) == len(board.straight_lines(n, spots))
    numbers = board.straight_line_numbers_mask(n, mask)
    assert numbers == board.straight_line_numbers(n, spots)
    # each number names the very tuple straight_lines gives, in its order
    assert [board.line_spots(k) for k in numbers] == board.straight_lines(n, spots)
    assert all(board.line_spots(k) is line for k, line in zip(numbers, board.straight_lines(n, spots), strict=True))


@settings(max_examples=100, deadline=None)
@given(board_and_spots())
def test_a_mask_holds_one_bit_per_spot_in_spot_order(case: tuple[Board, list[int]]) -> None:
    board, spots = case
    mask = board.spots_mask(spots)
    assert mask.bit_count() == len(spots)
    # the bits grow with the spot number: the lowest bit is the lowest spot
    assert [s for s in board.spots if mask & board.spot_bit[s]] == spots
    assert list(board.spot_bit) == sorted(board.spot_bit)


def test_lines_are_numbered_once_each_and_a_board_without_lines_has_none() -> None:
    board = hex_board(6)
    every = [board.line_spots(k) for k in range(board.line_count())]
    assert len(every) == len(set(every)) == sum(len(board.straight_lines(n, board.spots))
                                                for n in range(1, board.longest + 1))
    ring = RingBoard("ring", 12, (), ())
    assert ring.line_count() == 0 and ring.straight_lines_mask(2, ring.spots_mask(ring.spots)) == []
    assert ring.count_lines_mask(2, ring.spots_mask(ring.spots)) == 0
    assert [ring.spot_bit[s] for s in ring.spots] == [1 << s for s in ring.spots]


@cache
def compiled(ruleset: str, enabled: frozenset[str]) -> Game:
    return rulewright.load_rules(ruleset_file(ruleset), passes=enabled)


MARKER_MASKS = {"_mask__marker__face_down": 0, "_mask__marker__gold_side": 1, "_mask__marker__removed": 2}


def masks_are_exact(state: State) -> bool:
    """Each mask Cornett keeps is the mask of the spots whose marker has its value."""
    marker: list[int] = state.marker  # type: ignore[attr-defined]
    return all(getattr(state, slot) == state.board.spots_mask(s for s, m in enumerate(marker) if m == value)
               for slot, value in MARKER_MASKS.items())


def test_cornett_keeps_its_masks_exact_through_every_move_copy_and_save() -> None:
    game = compiled("china-cornett", passes.ALL)
    for seed in range(4):
        state = game.new_state(2, seed, {"board": "hex5"} if seed % 2 else {})
        chooser = random.Random(seed)
        while not state.terminal:
            assert masks_are_exact(state)
            state.apply(chooser.choice(state.legal_actions()))
            assert masks_are_exact(state.clone())
        assert masks_are_exact(game.state_from_json(state.to_json()))
    # a saved position read back (an outside write) has its masks made again from its fields
    midway = game.new_state(2, 7)
    for _ in range(30):
        midway.apply(midway.legal_actions()[0])
    read = game.state_from_json(midway.to_json())
    assert masks_are_exact(read) and read._mask__marker__face_down != 0  # type: ignore[attr-defined]
    assert [str(a) for a in read.legal_actions()] == [str(a) for a in midway.legal_actions()]


def test_bundled_cornett_keeps_the_mask_and_lists_through_tables() -> None:
    from rulewright.generated.china_cornett import base  # the bundled module, compiled with every pass

    assert set(MARKER_MASKS) <= set(base.ChinaCornettState.__slots__)
    source = Path(base.__file__).read_text(encoding="utf-8")
    assert "straight_line_numbers_mask(self.roll, self._mask__marker__face_down)" in source
    assert "self.board.tables.action_table('prospect', self.board.line_count())" in source


def test_the_same_move_is_the_same_action_object_in_every_state_of_a_board() -> None:
    for ruleset, players in (("china-cornett", 2), ("china-schacht", 3), ("mandarin", 2)):
        game = compiled(ruleset, passes.ALL)
        seen: dict[str, object] = {}
        shared = 0
        for seed in range(3):
            state = game.new_state(players, seed)
            chooser = random.Random(seed)
            for _ in range(60):
                if state.terminal:
                    break
                legal = state.legal_actions()
                for action in legal if state._pending is None else ():  # (answers to a question: not interned)
                    key = f"{state.options}|{action}"
                    if key in seen:
                        assert seen[key] is action, f"{ruleset}: {action} is two objects"
                        shared += 1
                    seen[key] = action
                state.apply(chooser.choice(legal))
        assert shared > 0, f"{ruleset}: no move met twice"


def test_tables_keep_the_order_of_the_legal_actions() -> None:
    for ruleset, players in (("china-cornett", 2), ("china-schacht", 3)):
        tabled = compiled(ruleset, frozenset({"index_actions"}))
        plain = compiled(ruleset, frozenset())
        for seed in range(3):
            a, b = tabled.new_state(players, seed), plain.new_state(players, seed)
            chooser = random.Random(seed)
            while not a.terminal:
                la, lb = a.legal_actions(), b.legal_actions()
                assert [(x.name, x.args) for x in la] == [(x.name, x.args) for x in lb]
                k = chooser.randrange(len(la))
                a.apply(la[k])
                b.apply(lb[k])


def test_the_passes_decide_from_the_program() -> None:
    from rulewright.compiler.driver import build, check

    _, ruleset, _ = build(ruleset_file("china-cornett"))
    assert ruleset is not None
    _, typed = check(ruleset)
    assert typed is not None
    tabled = passes.optimise(typed, frozenset({"mask_spot_sets", "index_actions"}))
    assert [(m.field, m.value_py, m.slot) for m in tabled.masks] == [
        ("marker", "FACE_DOWN", "_mask__marker__face_down"), ("marker", "GOLD_SIDE", "_mask__marker__gold_side"),
        ("marker", "REMOVED", "_mask__marker__removed")]
    assert {a.name: tuple(level.how for level in a.listing.table.levels)
            for a in tabled.actions if a.listing.table is not None} == {"prospect": ("lines",), "turn_back": ("index",)}
    plain = passes.optimise(typed, frozenset())
    assert plain.masks == () and all(a.listing.table is None for a in plain.actions)


GAMES = Path(__file__).parent / "games"


def test_every_form_of_a_kept_set_plays_as_the_plain_code() -> None:
    # tests/games/mask-forms.yaml: lists (== and !=), lines, len, all/any/count over the board and
    # over a region, assignments of constants, of values known in play, at a computed index
    path = GAMES / "mask-forms.yaml"
    optimised, plain = rulewright.load_rules(path), rulewright.load_rules(path, passes=frozenset())
    text = Path(path).read_text(encoding="utf-8")
    assert "straight_lines(2, [s for s in spots if mark[s] != red])" in text
    moves = sum(play_in_lockstep(optimised, plain, 2, seed) for seed in range(40))
    assert moves > 400
    state = optimised.new_state(2, 3)
    assert {"_mask__mark__empty", "_mask__mark__red", "_mask__mark__blue"} <= set(type(state).__slots__)
    chooser = random.Random(3)
    while not state.terminal:
        state.apply(chooser.choice(state.legal_actions()))
        marks: list[int] = state.mark  # type: ignore[attr-defined]
        for slot, value in (("_mask__mark__empty", 0), ("_mask__mark__red", 1), ("_mask__mark__blue", 2)):
            assert getattr(state, slot) == state.board.spots_mask(s for s, m in enumerate(marks) if m == value)


def test_a_value_stored_in_play_keeps_the_mask_of_a_choice() -> None:
    # tests/games/face-down.yaml: `card[s] = dealt[current]`, a value known only in play
    path = GAMES / "face-down.yaml"
    optimised, plain = rulewright.load_rules(path), rulewright.load_rules(path, passes=frozenset())
    for seed in range(20):
        play_in_lockstep(optimised, plain, 2 + seed % 2, seed)


def test_sets_read_only_in_an_else_block_or_an_ask_are_kept_and_play_as_the_plain_code() -> None:
    # tests/games/hidden-reads.yaml: `red` is read only in an `else` block, `blue` only in an
    # ask's items and `green` only in the seat an ask names: the walk of the effects finds each
    from rulewright.compiler.driver import compile_file

    path = GAMES / "hidden-reads.yaml"
    source = compile_file(path, frozenset({"mask_spot_sets"})).source
    for read in ("self._mask__mark__red.bit_count() % 2", "self.board.mask_spots(self._mask__mark__blue)",
                 "self._mask__mark__green.bit_count() % 2"):
        assert read in source, read
    masked, plain = rulewright.load_rules(path, passes=frozenset({"mask_spot_sets"})), rulewright.load_rules(
        path, passes=frozenset())
    moves = sum(play_in_lockstep(masked, plain, 2, seed) for seed in range(30))
    assert moves > 600
    state = masked.new_state(2, 5)
    chooser = random.Random(5)
    answers = 0
    while not state.terminal:
        answers += state._pending is not None
        state.apply(chooser.choice(state.legal_actions()))
        marks: list[int] = state.mark  # type: ignore[attr-defined]
        for value, name in enumerate(("empty", "red", "blue", "green")):
            expected = state.board.spots_mask(s for s, m in enumerate(marks) if m == value)
            assert getattr(state, f"_mask__mark__{name}") == expected, (state.moves, name)
    assert answers > 3  # the asks were answered, their items read


def every_kind_of_board() -> list[Board]:
    boards = list(BOARDS)
    for ruleset in ("china-cornett", "china-schacht", "mandarin", "chang-cheng", "yellow-yangtze"):
        boards.append(compiled(ruleset, frozenset()).board_for({}))
    return boards


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_mask_gives_back_its_spots_and_a_region_its_mask(data: st.DataObject) -> None:
    board = data.draw(st.sampled_from(every_kind_of_board()))
    spots = sorted(data.draw(st.sets(st.sampled_from(board.spots))))
    mask = board.spots_mask(spots)
    assert board.mask_spots(mask) == spots  # in spot order
    assert board.mask_spots(board.all_mask) == list(board.spots)
    assert [board.mask_spots(m) for m in board.region_mask] == [list(r) for r in board.region_spots]


def test_the_excerpts_of_the_docs_are_the_bundled_code() -> None:
    # docs/optimiser.md shows each pass as a diff of generated/china_cornett/base.py: every line
    # it adds is in the bundled module (shortened lines, ending in `...`, up to that point)
    root = Path(__file__).parent.parent
    doc = (root / "docs" / "optimiser.md").read_text(encoding="utf-8")
    bundled = (root / "generated" / "china_cornett" / "base.py").read_text(encoding="utf-8")
    blocks = doc.split("```diff\n")[1:]
    assert len(blocks) == 2
    added = [line[1:].strip() for block in blocks for line in block.split("```")[0].splitlines()
             if line.startswith("+")]
    assert len(added) >= 8
    for line in added:
        assert line.split("...")[0].strip() in bundled, line
