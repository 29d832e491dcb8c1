"""What every generated game runs on. Generated modules import only the names listed here."""
# The values among them the generated code reads (MAX_STEPS, NO_GOTO, ACTION ...) are `Final` where
# they are defined: natively mypyc writes them in, where another group's plain name is two dictionary
# look-ups a read (docs/native.md, "Speed"; tests/test_native_names.py).

from .auction import NO_AUCTION, NOBODY, Auction, amounts, bid, drop, open_auction, seats_from, winner_list
from .boards import Board, GraphBoard, GridBoard, HexBoard, HexMapBoard, RegionSpec, RingBoard, WallBoard
from .decisions import END_TURN, NO_GOTO, Ask, Steps
from .errors import BadSetup, GameError, IllegalAction, RulewrightError
from .kept import (
    ACTION,
    DICT,
    ENTRY,
    MAX_KEPT,
    MAX_TABLED,
    OBJECT,
    cell,
    made,
    once,
    remember,
    weight,
    without_key,
    without_keys,
)
from .limits import (
    MAX_ACTIONS,
    MAX_INT,
    MAX_ITEMS,
    MAX_STEPS,
    SMALL_LIST,
    div,
    grown,
    joins_fit,
    mod,
    new_move,
    num,
    nums,
    spend,
    subsets,
    too_many_actions,
    upto,
    walk,
    walk_lists,
)
from .listing import RegionRow, SpotRow, bits, ordered_mask, union
from .mechanics import (  # every name of its __all__ (test_builtins: a name missing here fails)
    add_at,
    coin,
    die,
    draw,
    draw_from,
    drawn_out,
    held,
    majority,
    next_seat,
    other_seat,
    previous_seat,
    put,
    ranked,
    remember_item,
    seat_at,
    seat_number,
    throw,
    value_of,
    without,
)
from .order import sort_key
from .packed import region_specs, unpacked, value_names
from .rng import Rng, derive_seed
from .state import Action, FieldInfo, Game, GameInfo, OptionInfo, SimultaneousState, State

__all__ = [
    "without_key",
    "without_keys",
    "SpotRow", "union",  # a listing's last choice, a spot, gathered from a bit mask (pass `gather_spots`)
    "RegionRow", "bits", "ordered_mask",  # a listing's last choice, a region, made from masks (pass `mask_regions`)
    "MAX_TABLED", "remember",  # values remembered by value in tables of the board (pass `remember_values`)
    "ACTION", "DICT", "ENTRY", "MAX_KEPT", "OBJECT", "made", "weight",  # what a board keeps, bounded (runtime/kept.py)
    "cell", "once",  # a value computed once in a comprehension, where an item first needs it (pass `hoist_lazily`)
    "NO_AUCTION", "NOBODY", "Auction", "amounts", "bid", "drop", "open_auction", "seats_from", "winner_list",
    "Action", "BadSetup", "Board", "FieldInfo", "Game", "GameInfo", "GraphBoard", "HexBoard", "IllegalAction",
    "OptionInfo", "RegionSpec", "RingBoard", "Rng", "RulewrightError", "State", "derive_seed", "HexMapBoard",
    "WallBoard", "subsets",
    "GridBoard",  # a square grid (runtime/boards/grid.py)
    "SimultaneousState",  # the base of a rule set with a simultaneous phase (runtime/state.py)
    "END_TURN", "NO_GOTO",
    # runtime/decisions.py: an effect that asks a seat and waits for its decision
    "Ask", "Steps",
    # runtime/limits.py: the limits of one move and their checks
    "GameError", "MAX_ACTIONS", "MAX_INT", "MAX_ITEMS", "MAX_STEPS", "SMALL_LIST", "div",
    "grown", "joins_fit", "mod", "new_move", "num", "nums", "spend", "too_many_actions", "upto", "walk", "walk_lists",
]
# The functions of the mechanics library, which built-ins call (compiler/builtins/library.py), as
# runtime/mechanics.py's __all__ lists them. (Named one by one: the native build's compiled
# `from .mechanics import *` bound none of them, and every generated game failed natively.)
__all__ += ["add_at", "coin", "die", "draw", "draw_from", "drawn_out", "held", "majority", "put", "ranked",
            "throw", "value_of", "without"]
# runtime/order.py: the order sets are walked, saved and shown in
__all__ += ["sort_key"]
# runtime/mechanics.py: seat arithmetic (issue 37)
__all__ += ["next_seat", "other_seat", "previous_seat", "seat_at", "seat_number"]
# runtime/mechanics.py: the rows of pass `remember_list_changes`
__all__ += ["remember_item"]
# runtime/packed.py: a generated module's big constant data, written as one string (docs/native.md)
__all__ += ["region_specs", "unpacked", "value_names"]
