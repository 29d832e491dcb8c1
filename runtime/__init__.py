"""What every generated game runs on. Generated modules import only the names listed here."""

from .board import HexBoard, RegionSpec
from .errors import BadSetup, IllegalAction, RulewrightError
from .mechanics import throw
from .rng import Rng, derive_seed
from .state import Action, FieldInfo, Game, GameInfo, OptionInfo, State

__all__ = [
    "Action", "BadSetup", "FieldInfo", "Game", "GameInfo", "HexBoard", "IllegalAction", "OptionInfo",
    "RegionSpec", "Rng", "RulewrightError", "State", "derive_seed", "throw",
]
