"""What every generated game runs on. Generated modules import only the names listed here."""

from .auction import NO_AUCTION, NOBODY, Auction, amounts, bid, drop, open_auction, seats_from, winner_list
from .board import Board, GraphBoard, HexBoard, RegionSpec, RingBoard
from .errors import BadSetup, IllegalAction, RulewrightError
from .mechanics import coin, die, draw, draw_from, throw, without
from .rng import Rng, derive_seed
from .state import Action, FieldInfo, Game, GameInfo, OptionInfo, State

__all__ = [
    "NO_AUCTION", "NOBODY", "Auction", "amounts", "bid", "drop", "open_auction", "seats_from", "winner_list",
    "Action", "BadSetup", "Board", "FieldInfo", "Game", "GameInfo", "GraphBoard", "HexBoard", "IllegalAction",
    "OptionInfo", "RegionSpec", "RingBoard", "Rng", "RulewrightError", "State", "coin", "derive_seed", "die", "draw",
    "draw_from", "throw", "without",
]
