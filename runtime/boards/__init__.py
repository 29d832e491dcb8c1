"""Boards as data: the base board (base.py) and one module per kind of board.

- base.py: `Board`, what every board has: spots with labels and neighbours, regions of several kinds
  over them, and the queries every kind answers (connected groups, the regions touching spots, sets
  of spots as bit masks); the queries of the other kinds fail there with a message naming the board.
- ring.py `RingBoard` (Mandarin), graph.py `GraphBoard` (China), hexagon.py `HexBoard` (a hexagon; its
  lines), hexmap.py `HexMapBoard` (a hex map of any outline; Yellow & Yangtze), wall.py `WallBoard`
  (a wall laid during play; Chang Cheng), grid.py `GridBoard` (a square grid, with holes; its
  directions, steps and rays). hexagon.py's `LineBoard` numbers the straight lines of a hexagon, a
  hex map and a grid, held as a padded bitboard.
- bits.py: a bit mask's items read a byte (natively, a bit) at a time, for every kind.
- tables.py: `BoardTables`, what the optimised code keeps on a board (`board.tables`): interned
  actions, values remembered by value, spots grouped by a key, the lookups of a mask's bits, each
  found by a name the compiler writes, all bounded by runtime/kept.py's budget.

A new kind of board is a module here with a subclass of
`Board` that:
- declares `__slots__` for what it adds (mypyc compiles these classes: docs/native.md);
- in its `__init__`, sets `name`, `labels` (one per spot, in spot order), `index` (label -> spot),
  `spots` (`tuple(range(n))`) and `neighbours` (each spot's, in increasing order), then calls
  `self._regions(kinds, regions)`, which builds the regions and the bit masks of the spots; a kind
  whose masks have a layout of their own (a hex board's padded bitboard) overrides `_spot_bits`
  (which `_regions` calls), its bits growing with the spot number;
- overrides the queries of `Board` it answers (`straight_lines`, `ahead`, ...), each with its `_mask`
  twin where `Board` has one, giving the same items in the same order;
- charges whatever it remembers as games are played to what the board keeps (runtime/kept.py `made`)
  and empties it in `_forget_own`;
- is exported below and from runtime/__init__.py; the compiler reads its declaration (its YAML
  shape in compiler/build/boards.py, its checks in compiler/boards.py) and writes the call that makes it
  (compiler/templates/game.py.j2, `_board__<name>`): docs/compiler.md.
"""

from .base import Board, RegionSpec
from .bits import BYTE_LOOKUP_BITS
from .graph import GraphBoard
from .grid import GRID_CONNECT, GRID_DIRECTIONS, GRID_STEPS, GridBoard, grid_cells, grid_label
from .hexagon import HEX_AXES, HexBoard, hex_coords, hex_joined, hex_labels, mirror_label, validate_regions
from .hexmap import HexMapBoard, hexmap_cells
from .ring import RingBoard
from .tables import BoardTables
from .wall import WallBoard

__all__ = [
    "BYTE_LOOKUP_BITS", "HEX_AXES", "Board", "BoardTables", "GraphBoard", "HexBoard", "HexMapBoard", "RegionSpec",
    "RingBoard", "WallBoard", "hex_coords", "hex_joined", "hex_labels", "hexmap_cells", "mirror_label",
    "validate_regions",
    "GRID_CONNECT", "GRID_DIRECTIONS", "GRID_STEPS", "GridBoard", "grid_cells", "grid_label",
]
