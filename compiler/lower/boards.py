"""What lowering knows of the boards: their bounds, the tables of the board bound to slots of the
state, the kept tests of regions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...runtime.boards import GRID_CONNECT
from ..lowered import LoweredFunction
from ..pyir import Assign, Attribute, BoolOp, Call, Constant, Expr, Name, assign, dotted
from ..pyprint import text
from . import masks
from .regions import within_method

if TYPE_CHECKING:
    from .lowerer import Lowerer


def bounds(lo: Lowerer) -> dict[str, int]:
    """How many spots, regions ... the largest board has: how long its lists can be."""
    if lo.board_bounds is None:
        b = {"spot": 0, "region": 0, "border": 0, "region_size": 0, "per_spot": 0, "degree": 0, "longest": 0,
             "axes": 3}
        for board in lo.tables.boards:
            spots = len(board.graph) if board.graph else board.ring or 3 * board.side * (board.side - 1) + 1
            in_regions = Counter(spot for _, _, region in board.regions for spot in region)
            degree = max(Counter(s for road in board.roads for s in road).values(), default=0) if board.graph \
                else 2 if board.ring else 6
            longest = 2 * board.side - 1 if board.side else 0
            if board.cells:  # a hex map: its lines are at most as long as it is wide or high
                spots = len(board.cells)
                longest = max(max(q for _, q, _ in board.cells) - min(q for _, q, _ in board.cells),
                              max(r for _, _, r in board.cells) - min(r for _, _, r in board.cells)) + 1
            elif board.wall:
                spots, degree = sum(len(f) for _, faces in board.wall for _, f in faces), 2
            elif board.grid_cells:  # a grid: its lines along four axes, as long as it is wide or high
                spots, degree = len(board.grid_cells), len(GRID_CONNECT[board.connect])
                longest = max(max(r for _, r, _ in board.grid_cells), max(c for _, _, c in board.grid_cells))
                b["axes"] = 4
            for key, value in (("spot", spots), ("region", len(board.regions)), ("border", len(board.borders)),
                               ("region_size", max((len(r) for _, _, r in board.regions), default=0)),
                               ("per_spot", max(in_regions.values(), default=0)), ("degree", degree),
                               ("longest", longest)):
                b[key] = max(b[key], value)
        lo.board_bounds = b
    return lo.board_bounds


def kind_count(lo: Lowerer, kind: str) -> int | None:
    """How many values a kind of entity or an enumeration has (None: not a finite kind)."""
    if kind == "player":
        return max(lo.rs.players, default=1) + len(lo.rs.neutral)
    if kind in ("spot", "region", "border"):
        return bounds(lo)[kind]
    if kind in lo.component_count:
        return lo.component_count[kind]
    for dice in lo.rs.dice:
        if dice.name == kind:
            return len(dice.dice)
    for name, values in lo.tables.enums:
        if name == kind:
            return len(values)
    return None


def keep_region_tests(lo: Lowerer) -> None:
    """(pass `mask_regions`) Keeps the tests of regions whose definition charges nothing to the
    limits of a move: computing it for a region the plain code would not ask changes no budget."""
    for test in (test for d in lo.typed.defines for test in d.region_tests):
        d = lo.defines[test.define]
        if d.name not in lo.define_facts:
            lo.define_walk(d)
        if d.name in lo.charging:
            continue
        lo.region_tests.append(test)
        slot = lo.kept[d.name]
        lo.region_known[slot] = (*lo.region_known.get(slot, ()), test.known)


# How lowering has the code that finds a table read noted (`board_table`, which pass `bind_board_tables`
# binds to its slot after lowering): from the code that finds it by name, its slot's name, its type
# and what it holds, the code to write (that code, as it is).
Bind = Callable[[Expr, str, str, str], Expr]


def lookup(kind: str, name: str, make: str, *args: Expr) -> Expr:
    """The code that finds a table of the board by name, or makes it: `self.board.tables.KIND.get(name)
    or self.board.tables.MAKE(name, args...)` (runtime/boards/tables.py)."""
    key = Constant(name)
    return BoolOp("or", (Call(dotted(f"self.board.tables.{kind}.get"), (key,)),
                         Call(dotted(f"self.board.tables.{make}"), (key, *args))))


def board_table(lo: Lowerer, code: Expr, slot: str, annotation: str, what: str) -> Expr:
    """The code that reads a table of the board: `code` (`lookup`), which finds it by name (or makes it), the
    whole value of the statement that reads it. Noted (Program.board_lookups) with the slot `slot`
    of the state it would be bound to, of type `annotation` (`what`: what it holds, for the slot's
    comment): pass `bind_board_tables` binds it there as the game starts."""
    found = lo.board_lookups.setdefault(slot, (annotation, code, what))
    assert found[1] == code, (slot, found[1], code)  # (a slot's name says which table it is)
    return code


def kept_masks(lo: Lowerer) -> None:
    """What the passes keep on the state beside the fields: the sets of spots kept as bit masks
    (pass `mask_spot_sets`), the kept masks of tests of regions (`mask_regions`), a bit mask per value
    (`mask_values`)."""
    prog = lo.program
    for m in lo.typed.masks:  # the sets of spots kept as bit masks (pass `mask_spot_sets`)
        prog.kept.append((m.slot, "int", masks.note(m), text(masks.code(m))))
        prog.fields_set.append(assign(masks.code(m), masks.rebuild(m)))
    for test in lo.region_tests:  # (pass `mask_regions`) the kept masks of tests of regions
        where = test.span.short
        prog.kept.append((test.slot, "int", f"mask_regions: the regions where `{test.text}` ({where}), among "
                          f"those of {test.known}", f"self.{test.slot}"))
        prog.kept.append((test.known, "int", f"mask_regions: the regions whose bit of {test.slot} is known "
                          f"(cleared where the kept value of `{test.define}` for the region is dropped)",
                          f"self.{test.known}"))
        prog.forget.append(Assign((Attribute(Name("self"), test.slot), Attribute(Name("self"), test.known)),
                                  Constant(0)))
        after = next(k for k, d in enumerate(prog.defines) if d.name == test.define) + 1
        body = within_method(test)
        prog.defines.insert(after, LoweredFunction(test.within, (("_regions_mask", "int"),), "int", body,
                                                   test.span))
    for vm in lo.typed.value_masks:  # a bit mask per value, a list changed in place: copied (pass `mask_values`)
        prog.kept.append((vm.slot, "list[int]", masks.note_values(vm), f"{text(masks.code(vm))}[:]"))
        prog.fields_set.append(assign(masks.code(vm), masks.rebuild_values(vm)))
