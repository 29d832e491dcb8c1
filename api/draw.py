"""Boards drawn as SVG from the rule set's own board and the state's fields, for one seat.

`view_of(state, seat)` takes what a seat may see: its observation (`state.observation(seat)`),
or every field for the referee (`seat` None); `draw_svg(board, view)` draws the board and that
view, and nothing else: a drawing for a seat is made from its observation only, so no value it
may not see can reach it. The same drawing serves `rulewright render --svg` and the web board
(api/web.py).

Every board kind of the language is drawn from its declaration (docs/web.md):
- a hexagon and a hex map: each spot a hexagon at its axial place (pointy top), a hex map's
  cells tinted by their legend symbol, the regions of the first kind filled in pale colours
  and outlined, those of the other kinds outlined dashed;
- a ring: its spots on a circle, clockwise from the top, each region an arc outside it;
- a graph board: its spots and roads. A graph board gives no places for its spots, so they are
  laid out here, deterministically: classical scaling of the road distances (spots of one
  region drawn closer), refined by stress majorization (numpy), the same picture every time;
- a wall: the faces laid, in the order of the state's layout field, left to right (wrapped
  into rows), and the faces not laid below, faded;
- no board (a rule set without `boards:`): nothing but the panels.

On the board, each per-spot field is drawn where its value differs from the field's plain value
(none, false, 0, empty, an enumeration's first value, or the value most spots hold when that
is a player): a player as a piece of the player's colour, a record with an `owner` as a piece
with the initial of its other fields, other values as a small chip with a short text; a value
hidden from the seat as a back (`?`). Per-region fields are drawn under the region's name;
per-player fields in the player areas (a value the seat may not see: `hidden`), the other
fields in a panel (a face-down pile: how many). Every text from a rule file or a state is
escaped. Each piece of the drawing carries a `<title>` saying what it is.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from .runtime.boards import Board, GridBoard, HexBoard, RingBoard, WallBoard
from .runtime.state import HIDDEN, State

# Seat colours, P1 first, then the neutral seats: distinct on a pale board, in print too.
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
NEUTRAL_COLOUR = "#555555"
# Pale fills of regions, by region number within its kind.
REGION_FILLS = ("#fbe3c4", "#d8ecd0", "#d6e4f5", "#f3d6e3", "#ede5c8", "#d9d2ee", "#cdebea", "#f5d5cf",
                "#e2eccb", "#e6dcd2", "#d0e0e8", "#f1e6f5")
# Chips of enumeration values, by the value's place in its enumeration.
VALUE_COLOURS = ("#b8860b", "#6a5acd", "#2e8b57", "#cd5c5c", "#4682b4", "#8b4513", "#708090", "#9acd32",
                 "#c71585", "#20b2aa", "#daa520", "#5f9ea0")
# Value names read as colours (a region's `colour: red`, a card's colour): the colour itself.
NAMED_COLOURS = {
    "red": "#e05050", "yellow": "#f2d33c", "green": "#5cb85c", "blue": "#4f86d9", "violet": "#9b6fd0",
    "purple": "#9b6fd0", "orange": "#f0983c", "black": "#333333", "white": "#f8f8f8", "brown": "#a0704a",
    "grey": "#999999", "gray": "#999999", "pink": "#f2a0c0", "gold": "#d4a017",
}
WATER = ("river", "water", "sea", "lake", "waterway")
HEX = 26.0  # a hexagon's radius, in SVG units
MAX_LIST = 24  # items of a list shown in a panel before `...`


@dataclass(frozen=True)
class View:
    """What one seat sees of a state (or the referee, seat None): the fields by name as the
    observation gives them, and the facts every seat knows."""

    ruleset: str
    title: str
    seat: int | None
    seats: tuple[str, ...]  # P1 ... then the neutral seats
    roles: tuple[str, ...]
    players: int
    to_act: int | None
    phase: str
    turn: int
    terminal: bool
    fields: Mapping[str, Any]
    per: Mapping[str, str | None]
    visible: Mapping[str, str]
    enums: Mapping[str, tuple[str, ...]]  # the values of each enumeration field (by field name)
    # the fields of an optional type (`optional(player)`): `none` is their empty value, every other one is drawn
    optional: frozenset[str] = frozenset()
    question: str | None = None
    scores: tuple[int, ...] | None = None  # at the end of the game only (the scores reveal all)
    # the rule file's hints (`drawing:`): a colour per value name, an icon per component's label
    colours: Mapping[str, str] = field(default_factory=dict)
    icons: Mapping[str, str] = field(default_factory=dict)
    # the rule file's `look:` (docs/language.md, "Look"), as GameInfo.look gives it; {} when none
    look: Mapping[str, Any] = field(default_factory=dict)
    # public facts of the components: per kind, per attribute, each component's value (GameInfo.attributes)
    attributes: Mapping[str, Mapping[str, tuple[Any, ...]]] = field(default_factory=dict)
    things: Mapping[str, tuple[str, int]] = field(default_factory=dict)  # a component's id: its kind, its index
    kinds: Mapping[str, str] = field(default_factory=dict)  # a field's kind of value (of its items): `tile`, `chief`
    enum_values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # each enumeration's values, by name
    # at the end: each seat's scoring terms (`scoring:`), whose sum is its score
    score_terms: tuple[Mapping[str, int], ...] | None = None
    prompt: str | None = None  # the rule set's words for the decision the seat viewed faces (`look: prompts:`)
    unordered: frozenset[str] = frozenset()  # the set fields: their items drawn sorted by what they are
    # who sees a drawing of seat None that is not the referee's (the web board's spectator: the
    # fields every seat sees alike, api/viewer.py `public_view`)
    watcher: str | None = None


def referee_fields(state: State) -> dict[str, Any]:
    """Every field by name, as an observation writes them, with nothing hidden."""
    fields: dict[str, Any] = {}
    for info in state.FIELDS:
        value = getattr(state, info.name)
        if info.per is None:
            fields[info.name] = state._named(info, value)
        elif info.per == "player":
            fields[info.name] = [state._named(info, v) for v in value]
        else:
            keys = state._labels(info.per)
            fields[info.name] = {keys[i]: state._named(info, v) for i, v in enumerate(value)}
    return fields


def view_of(state: State, seat: int | None) -> View:
    """What `seat` (from 0; None: the referee, who sees all) sees of `state`."""
    if seat is None:
        fields = referee_fields(state)
        to_act = state.to_act()
        question = state._pending.ask.name if state._pending is not None else None
    else:
        seen = state.observation(seat)
        fields, to_act, question = seen["fields"], seen["to_act"], seen.get("question")
    info = state.game.info
    enums: dict[str, tuple[str, ...]] = {}
    for f in state.FIELDS:
        if f.kind == "enum" or (f.kind in ("list", "set") and f.element in state.ENUMS):
            enums[f.name] = f.values or tuple(state.ENUMS.get(f.element, ()))
    hints = info.drawing
    by_kind = hints.get("icons", {})
    icons = {label: by_kind[kind] for kind, labels in state.DICE.items() if kind in by_kind for label in labels}
    look = info.look
    return View(
        colours=dict(hints.get("colours", {})), icons=icons, look=look,
        attributes=info.attributes,
        things={label: (kind, i) for kind, labels in state.DICE.items() for i, label in enumerate(labels)},
        kinds={f.name: f.element or _inner_kind(f.declared) for f in state.FIELDS}, enum_values=dict(state.ENUMS),
        score_terms=tuple(state.score_terms(p) for p in range(state.num_players)) if state.terminal else None,
        prompt=_prompt(state, seat, to_act) if look.get("prompts") else None,
        unordered=frozenset(f.name for f in state.FIELDS if f.kind == "set"),
        ruleset=info.ruleset, title=info.title, seat=seat, seats=tuple(state._labels("player")),
        roles=tuple(info.roles), players=state.num_players, to_act=to_act, phase=state.PHASES[state.phase],
        turn=state.turn, terminal=state.terminal, fields=fields,
        per={f.name: f.per for f in state.FIELDS}, visible={f.name: f.visible for f in state.FIELDS},
        enums=enums, question=question, optional=frozenset(f.name for f in state.FIELDS if f.kind == "optional"),
        scores=tuple(state.scores()) if state.terminal else None,
    )


def _inner_kind(declared: str) -> str:
    """The kind of value a declared type holds: `chief` of `optional(chief)`, `pagoda` of `list(pagoda)`."""
    while "(" in declared and declared.endswith(")"):
        declared = declared[declared.index("(") + 1:-1]
    return declared


def _prompt(state: State, seat: int | None, to_act: int | None) -> str | None:
    """The rule set's prompt for the decision `seat` (the referee: the seat to act) faces, if any."""
    asked = seat if seat is not None else to_act
    return None if asked is None else state.prompt(asked)


# -- geometry --------------------------------------------------------------------------------------
@dataclass
class Layout:
    """Where each spot of a board is drawn: its centre, and the shape drawn there."""

    centres: list[tuple[float, float]]
    shape: str  # "hex", "circle" or "square"
    size: float
    width: float
    height: float
    roads: list[tuple[int, int]] = field(default_factory=list)
    note: str = ""
    shown: list[bool] = field(default_factory=list)  # a wall: whether each spot is laid
    extra: list[str] = field(default_factory=list)  # SVG drawn under the spots (a wall's face names)
    labels: dict[str, tuple[float, float]] = field(default_factory=dict)  # where each region's name is written


# Layouts by the board's shape (its kind, labels, neighbours and regions): a variant's game has
# boards of its own, drawn as its base's are.
_LAYOUTS: dict[tuple[object, ...], Layout] = {}


def _hex_centre(q: int, r: int) -> tuple[float, float]:
    return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r


def _fit(points: list[tuple[float, float]], margin: float) -> tuple[list[tuple[float, float]], float, float]:
    """Points moved so the smallest x and y are `margin`; with the width and height they need."""
    if not points:
        return [], 2 * margin, 2 * margin
    x0 = min(x for x, _ in points)
    y0 = min(y for _, y in points)
    moved = [(x - x0 + margin, y - y0 + margin) for x, y in points]
    return moved, max(x for x, _ in moved) + margin, max(y for _, y in moved) + margin


def hex_layout(board: HexBoard) -> Layout:
    centres, width, height = _fit([_hex_centre(q, r) for q, r in board.coords], HEX * 1.2)
    return Layout(centres, "hex", HEX, width, height)


def ring_layout(board: RingBoard) -> Layout:
    n = max(len(board.spots), 1)
    radius = max(140.0, n * 40 / (2 * math.pi))
    points = [(radius * math.sin(2 * math.pi * i / n), -radius * math.cos(2 * math.pi * i / n)) for i in range(n)]
    centres, width, height = _fit(points, 90)
    return Layout(centres, "circle", 17, width, height)


def graph_positions(board: Board) -> list[tuple[float, float]]:
    """A deterministic drawing of a board with no places of its own: classical scaling of the
    distances along its neighbours (a spot's region-mates counted closer, so regions stay
    together), then stress majorization. Pure arithmetic on the board: the same every time."""
    import numpy as np

    n = len(board.spots)
    if n <= 1:
        return [(0.0, 0.0)] * n
    same = [set[int]() for _ in range(n)]
    for members in board.region_spots:
        if board.region_kind and board.region_kind[board.region_spots.index(members)] == 0:
            for s in members:
                same[s].update(members)
    # shortest paths: a road within a region counts 1, between regions 1.6; unjoined spots 1 apart more
    inf = float("inf")
    dist = np.full((n, n), inf)
    for a in range(n):
        dist[a, a] = 0.0
        for b in board.neighbours[a]:
            dist[a, b] = 1.0 if b in same[a] else 1.6
    for k in range(n):  # Floyd-Warshall, vectorised by rows
        dist = np.minimum(dist, dist[:, k:k + 1] + dist[k:k + 1, :])
    finite = dist[np.isfinite(dist)]
    dist[~np.isfinite(dist)] = (finite.max() if finite.size else 1.0) + 1.0
    # classical scaling: the two leading eigenvectors of the double-centred squared distances
    sq = dist ** 2
    centre = np.eye(n) - 1.0 / n
    b = -0.5 * centre @ sq @ centre
    values, vectors = np.linalg.eigh(b)
    order = np.argsort(values)[::-1][:2]
    x = vectors[:, order] * np.sqrt(np.maximum(values[order], 1e-9))
    for j in range(2):  # fix each axis's sign: the eigenvector's sign is arbitrary
        if x[int(np.argmax(np.abs(x[:, j]))), j] < 0:
            x[:, j] = -x[:, j]
    weights = 1.0 / np.maximum(dist, 1e-9) ** 2
    np.fill_diagonal(weights, 0.0)
    lhs = -weights
    np.fill_diagonal(lhs, weights.sum(axis=1))
    inverse = np.linalg.pinv(lhs)
    for _ in range(200):  # SMACOF (the Guttman transform), weighted
        diff = x[:, None, :] - x[None, :, :]
        now = np.sqrt((diff ** 2).sum(axis=2))
        np.fill_diagonal(now, 1.0)
        ratio = weights * dist / now
        np.fill_diagonal(ratio, 0.0)
        bx = -ratio
        np.fill_diagonal(bx, ratio.sum(axis=1))
        x = inverse @ (bx @ x)
        x -= x.mean(axis=0)
    if np.ptp(x[:, 0]) < np.ptp(x[:, 1]):  # the wider way across
        x = x[:, ::-1]
    return [(round(float(px), 3), round(float(py), 3)) for px, py in x]


def graph_layout(board: Board) -> Layout:
    raw = graph_positions(board)
    # scale so that the closest two spots stand 2.6 radii apart
    size = 15.0
    closest = min((math.dist(raw[a], raw[b]) for a in board.spots for b in board.neighbours[a] if a < b),
                  default=1.0) or 1.0
    scale = size * 2.8 / closest
    centres, width, height = _fit([(x * scale, y * scale) for x, y in raw], 70)
    roads = [(a, b) for a in board.spots for b in board.neighbours[a] if a < b]
    return Layout(centres, "circle", size, width, height, roads,
                  note="a graph board gives no places: spots laid out by their roads (docs/web.md)")


GRID_CELL = 22.0  # half a grid cell's side, in SVG units
GRID_SHADES = ("#f4f1e8", "#ddd6c4")  # a grid's light and dark cells (a1 dark, as on a chess board)


def grid_layout(board: GridBoard) -> Layout:
    """The grid as a chess board is drawn: square cells side by side, the top row first, the
    column letters above and below, the row numbers on both sides; a hole is left empty."""
    step = 2 * GRID_CELL
    margin = 26.0

    def at(row: int, column: int) -> tuple[float, float]:
        return margin + GRID_CELL + (column - 1) * step, margin + GRID_CELL + (board.rows - row) * step

    centres = [at(board.row_of[s], board.column_of[s]) for s in board.spots]
    extra: list[str] = []
    for c in range(1, board.columns + 1):
        x = at(1, c)[0]
        extra += [_text(x, margin - 8, chr(ord("a") + c - 1), "facename", "middle"),
                  _text(x, margin + board.rows * step + 16, chr(ord("a") + c - 1), "facename", "middle")]
    for r in range(1, board.rows + 1):
        y = at(r, 1)[1] + 4
        extra += [_text(margin - 8, y, str(r), "facename", "end"),
                  _text(margin + board.columns * step + 8, y, str(r), "facename")]
    return Layout(centres, "square", GRID_CELL - 0.5, 2 * margin + board.columns * step,
                  2 * margin + board.rows * step, extra=extra)


def placed_layout(board: Board, given: Mapping[str, Any]) -> Layout:
    """The spots where the look puts them (`look: boards: NAME: spots:`, in a 1000 x 1000 box), the
    regions' names where it says (`labels:`, else clear of the spots), a spot `size:` across (else
    four tenths of the closest two spots' distance)."""
    spots = given.get("spots") or {}
    points = [(float(spots[label][0]), float(spots[label][1])) for label in board.labels]
    closest = min((math.dist(points[a], points[b]) for a in board.spots for b in board.spots if a < b), default=60.0)
    size = float(given.get("size") or max(min(closest * 0.42, 40.0), 8.0))
    named = {str(k): (float(v[0]), float(v[1])) for k, v in (given.get("labels") or {}).items()}
    margin = size + 24
    every = points + list(named.values())
    x0, y0 = min(x for x, _ in every), min(y for _, y in every)
    centres = [(x - x0 + margin, y - y0 + margin) for x, y in points]
    labels = {k: (x - x0 + margin, y - y0 + margin) for k, (x, y) in named.items()}
    width = max(x for x, _ in centres + list(labels.values())) + margin + 40
    height = max(y for _, y in centres + list(labels.values())) + margin
    roads = [(a, b) for a in board.spots for b in board.neighbours[a] if a < b]
    layout = Layout(centres, "circle", size, width, height, roads, labels=labels)
    _clear_labels(board, layout)
    return layout


def _clear_labels(board: Board, layout: Layout) -> None:
    """Places for the region names the layout has none for, beside their spots and clear of every
    spot (a name never lies over a spot a click may want): the first of rings of places around the
    region's middle that overlaps no spot (the middle itself, failing that)."""
    if layout.shape != "circle" or isinstance(board, RingBoard):
        return
    gap = layout.size + 2
    for r, name in enumerate(board.region_names):
        if name in layout.labels or not board.region_spots[r]:
            continue
        members = board.region_spots[r]
        cx = sum(layout.centres[s][0] for s in members) / len(members)
        cy = sum(layout.centres[s][1] for s in members) / len(members)
        half_w, high = 3.6 * len(name) + 3, 13.0
        found = None
        for ring in range(0, 9):
            for k in range(max(1, 8 * ring)):
                angle = 2 * math.pi * k / max(1, 8 * ring) + math.pi / 2
                x = cx + math.cos(angle) * ring * gap * 0.7
                y = cy + math.sin(angle) * ring * gap * 0.7
                if all(math.hypot(max(x - half_w - px, 0, px - x - half_w), max(y - high + 3 - py, 0, py - y - 3)) > gap
                       for px, py in layout.centres):
                    found = (x, y)
                    break
            if found is not None:
                break
        layout.labels[name] = found or (cx, cy)


def board_layout(board: Board, given: Mapping[str, Any] | None = None) -> Layout:
    """The layout of a board of fixed shape, made once per board (and look)."""
    placed = given.get("spots") if given else None
    key = (type(board).__name__, board.labels, board.neighbours, board.region_spots, board.region_kind,
           getattr(board, "coords", None), repr(given) if placed else None)
    found = _LAYOUTS.get(key)
    if found is not None:
        return found
    if not board.spots:  # a rule set without `boards:`: nothing drawn but the panels
        layout = Layout([], "circle", 15.0, 0.0, 0.0, note="no board")
    elif placed and given is not None and all(label in placed for label in board.labels):
        layout = placed_layout(board, given)
    elif isinstance(board, HexBoard):
        layout = hex_layout(board)
    elif isinstance(board, GridBoard):
        layout = grid_layout(board)
    elif isinstance(board, RingBoard):
        layout = ring_layout(board)
    else:  # a graph board, or a board of another kind: laid out by its neighbours
        layout = graph_layout(board)
        _clear_labels(board, layout)
    if len(_LAYOUTS) >= 64:  # (rule files compiled in memory, one after another)
        _LAYOUTS.clear()
    _LAYOUTS[key] = layout
    return layout


WALL_ROW = 25  # with a look: spaces of a wall in one row before it wraps (25 of 36: rows 1,000 wide)


def wall_layout(board: WallBoard, laid: Sequence[int], looked: bool = False) -> Layout:
    """The faces laid, left to right, wrapped every WALL_ROW spaces; then the others, faded (with a
    look: closer together, their regions unnamed, the faces named in words)."""
    size = 17.0 if looked else 13.0
    step = 2 * size + 2
    row = WALL_ROW if looked else 40
    centres: list[tuple[float, float]] = [(0.0, 0.0)] * len(board.spots)
    shown = [False] * len(board.spots)
    extra: list[str] = []

    def face_title(face: int) -> str:
        name = board.face_names[face]
        return name.replace("_", " ") if looked else name

    x = y = 0.0
    col = 0
    rows_y = 30.0
    y = rows_y + 14
    for face in laid:
        spots = board.face_spots[face]
        if col and col + len(spots) > row:
            col, y = 0, y + 4 * step
        x = col * step
        piece_name = board.piece_names[board.face_piece[face]]
        extra.append(_text(x + 40, y - size - 6, f"{face_title(face)} ({piece_name})"
                           if not looked else f"{face_title(face)}", "facename"))
        for s in spots:
            centres[s] = (x + 40 + size, y)
            shown[s] = True
            x += step
        col += len(spots) + 1
    y += 4 * step if laid or not looked else 2 * step
    laid_faces = set(laid)
    left = [f for f in range(len(board.face_spots)) if f not in laid_faces]
    if left:
        extra.append(_text(40, y - size - 18, "not laid yet:" if not looked else "board pieces not laid yet:", "note"))
    col = 0
    for face in left:
        spots = board.face_spots[face]
        if col and col + len(spots) > row:
            col, y = 0, y + (1.6 if looked else 2.5) * step
        x = col * step
        piece = board.face_piece[face]
        side = " (other side)" if any(board.face_piece[f] == piece for f in laid) else ""
        extra.append(_text(x + 40, y - size - 6, face_title(face) + side, "facename"))
        for s in spots:
            centres[s] = (x + 40 + size, y)
            x += step
        col += len(spots) + 1
    width = 40 + row * step + 60
    return Layout(centres, "square", size, width, y + (1.2 if looked else 2) * step, shown=shown, extra=extra)


# -- values ----------------------------------------------------------------------------------------
def seat_colour(view: View, label: str) -> str | None:
    if label in view.seats:
        k = view.seats.index(label)
        return SEAT_COLOURS[k % len(SEAT_COLOURS)] if k < view.players else NEUTRAL_COLOUR
    return None


def value_colour(view: View, name: str, value: str) -> str:
    hinted = view.colours.get(value)
    if hinted is not None:  # (checked by the compiler: #rgb, #rrggbb or a name of NAMED_COLOURS)
        return NAMED_COLOURS.get(hinted, hinted)
    if value in NAMED_COLOURS:
        return NAMED_COLOURS[value]
    values = view.enums.get(name, ())
    k = values.index(value) if value in values else sum(map(ord, value))
    return VALUE_COLOURS[k % len(VALUE_COLOURS)]


def short(text: str, n: int = 3) -> str:
    """A value's few letters: `gold_side` -> `gs`, `tile16` -> `16`, `governor` -> `gov`."""
    digits = "".join(c for c in text if c.isdigit())
    if digits and len(digits) <= n and text.rstrip("0123456789") and text[-1].isdigit():
        return digits
    parts = [p for p in text.replace("-", "_").split("_") if p]
    if len(parts) > 1:
        return "".join(p[0] for p in parts)[:n]
    return text[:n]


def plain(view: View, name: str, values: Iterable[Any]) -> Any:
    """The value of a per-spot or per-region field drawn as nothing: the field's empty value, an
    enumeration's first value, or the player most entries hold (a field of type `player`, whose every
    entry names one: the seat left on the spots nobody took). An optional field's empty value is
    `none`: a seat it names is always drawn (connect four's discs, most of them the first seat's)."""
    if name in view.optional:
        return None
    enum = view.enums.get(name)
    if enum:
        return enum[0]
    counted = Counter(v for v in values if isinstance(v, str))
    if counted:
        top, n = counted.most_common(1)[0]
        if top in view.seats:
            return top
    return None


def is_plain(value: Any, background: Any) -> bool:
    return value is None or value is False or value == 0 and not isinstance(value, bool) or value == [] \
        or value == {} or value == background


@dataclass(frozen=True)
class Mark:
    """One thing drawn on a spot or under a region: a piece (colour), a chip (text) or a back."""

    kind: str  # "piece", "chip", "back" or "shape" (a look's shape, drawn by `shape`)
    colour: str
    text: str
    title: str
    shape: str = ""  # for "shape" and a look's "back": one of SHAPES
    names: str = ""  # the words a move's text uses for it (`tile62 soldier`): data-names


def marks(view: View, name: str, value: Any, hidden: bool) -> list[Mark]:
    """What a field's value on one spot (or region) is drawn as."""
    if value is None:
        return [Mark("back", "#777777", "?", f"{name}: hidden")] if hidden else []
    if value == HIDDEN:
        return [Mark("back", "#777777", "?", f"{name}: hidden")]
    if isinstance(value, bool):
        return [Mark("chip", "#444444", short(name, 2), name)] if value else []
    if isinstance(value, int):
        return [Mark("chip", "#444444", str(value), f"{name}: {value}")] if value else []
    if isinstance(value, str):
        colour = seat_colour(view, value)
        if colour is not None:
            return [Mark("piece", colour, value.removeprefix("P")[:2], f"{name}: {value}")]
        icon = view.icons.get(value)
        text = icon + "".join(c for c in value if c.isdigit())[-2:] if icon is not None else short(value)
        return [Mark("chip", value_colour(view, name, value), text, f"{name}: {value}")]
    if isinstance(value, list):
        out: list[Mark] = []
        for item in value:
            out.extend(marks(view, name, item, hidden))
        return out
    if isinstance(value, dict):
        owner = value.get("owner")
        rest = " ".join(str(v) for k, v in value.items() if k != "owner" and isinstance(v, str | int))
        title = f"{name}: " + ", ".join(f"{k} {v}" for k, v in value.items())
        colour = seat_colour(view, owner) if isinstance(owner, str) else None
        if colour is not None and isinstance(owner, str):
            return [Mark("piece", colour, short(rest, 1) if rest else owner.removeprefix("P"), title)]
        if "high_bid" in value:  # an auction: drawn in the panel, not on a spot
            return []
        return [Mark("chip", "#444444", short(rest or name), title)]
    return [Mark("chip", "#444444", short(str(value)), f"{name}: {value}")]


# -- the look (`look:`, docs/language.md "Look") ---------------------------------------------------------
SHAPES = ("disc", "square", "card", "hex", "cube", "house", "tower", "pawn", "token", "wall")
BACK_COLOUR = "#8a8a8a"  # a face-down thing's back, unless its look says


def field_look(view: View, name: str) -> Mapping[str, Any] | None:
    """How the look shows field `name` (`{"as": ..., "title": ...}`), None when it does not say."""
    found = (view.look.get("fields") or {}).get(name)
    if found is None:
        return None
    if isinstance(found, str):  # (the short form, should the look come unexpanded)
        return {"as": found, "title": name.replace("_", " ")}
    return {"title": name.replace("_", " "), **found}


def shown_as(view: View, name: str) -> str | None:
    found = field_look(view, name)
    return None if found is None else str(found.get("as", ""))


def title_of(view: View, name: str) -> str:
    found = field_look(view, name)
    return str(found["title"]) if found is not None else name.replace("_", " ")


def symbol_of(view: View, value: Any) -> str:
    """A value as the drawing writes it: its symbol (`look: symbols:`) if it has one, else its name,
    a number as itself; `yes`/`no` for a flag."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    symbols = view.look.get("symbols") or {}
    text = str(value)
    return str(symbols.get(text, text.replace("_", " ")))


def _colour_value(view: View, value: str) -> str:
    """The colour of an enumeration's value: the look's (`colours:`), a colour it names, else one
    by its place in its enumeration."""
    given = (view.look.get("colours") or {}).get(value) or view.colours.get(value)
    if given is not None:
        return NAMED_COLOURS.get(given, given)
    if value in NAMED_COLOURS:
        return NAMED_COLOURS[value]
    seat = seat_colour(view, value)
    if seat is not None:
        return seat
    for values in view.enum_values.values():
        if value in values:
            return VALUE_COLOURS[values.index(value) % len(VALUE_COLOURS)]
    return VALUE_COLOURS[sum(map(ord, value)) % len(VALUE_COLOURS)]


def _seat_look_colour(view: View, label: str) -> str | None:
    """A seat's colour: the look's `seats:` (first seat first), else the drawing's."""
    if label not in view.seats:
        return None
    k = view.seats.index(label)
    given = view.look.get("seats") or ()
    if k < len(given):
        return str(NAMED_COLOURS.get(given[k], given[k]))
    return seat_colour(view, label)


def _facts(view: View, kind: str, value: Any) -> dict[str, Any]:
    """What is known of a thing, by attribute: a component's attributes (by its id), a record's
    fields, an enumeration value as itself (under its enumeration's name and `value`)."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, str) and value in view.things:
        thing_kind, index = view.things[value]
        return {"value": value, **{a: values[index] for a, values in (view.attributes.get(thing_kind) or {}).items()
                                   if index < len(values)}}
    return {kind: value, "value": value}


def _template(view: View, template: str, facts: Mapping[str, Any]) -> str:
    """A `label:` with each `{attr}` written as its value's symbol (or name, or number)."""
    out = []
    rest = template
    while "{" in rest and "}" in rest[rest.index("{"):]:
        start = rest.index("{")
        end = rest.index("}", start)
        out.append(rest[:start])
        key = rest[start + 1:end].strip()
        found = facts.get(key)
        if isinstance(found, bool):  # a flag: a star where it holds (Mandarin's Emperor tile), else nothing
            out.append("★" if found else "")
        else:
            out.append(symbol_of(view, found) if found is not None else "")
        rest = rest[end + 1:]
    out.append(rest)
    return "".join(out)[:12]


def _words(view: View, kind: str, value: Any, facts: Mapping[str, Any]) -> tuple[str, str]:
    """A thing's tooltip (what it is: `soldier tile`, never its id) and the words a move's text
    uses for it (its id and its attributes' values: `tile62 soldier`)."""
    described: list[str] = []
    names: list[str] = [value] if isinstance(value, str) and value in view.things else []
    for attr, v in facts.items():
        if attr in ("owner", "value") or v is None:
            continue
        if isinstance(v, bool):
            if v:
                described.append(attr.replace("_", " "))
                names.append(attr)
        elif isinstance(v, str):
            if v not in view.seats and v != kind:
                described.append(v.replace("_", " "))
            names.append(v)
        elif isinstance(v, int):
            described.append(f"{attr.replace('_', ' ')} {v}")
    if kind in view.enum_values and isinstance(value, str):  # an enumeration's value: the value itself
        return value.replace("_", " "), value
    noun = kind.replace("_", " ")
    owner = facts.get("owner")
    whose = f" of {owner}" if isinstance(owner, str) else ""
    title = (" ".join(d for d in described if d) + " " + noun).strip() + whose
    return title, " ".join(dict.fromkeys(str(n) for n in names))


def look_piece(view: View, kind: str) -> Mapping[str, Any] | None:
    found = (view.look.get("pieces") or {}).get(kind)
    return found if isinstance(found, Mapping) else None


def look_marks(view: View, kind: str, value: Any, hidden: bool, owner: str | None = None) -> list[Mark] | None:
    """What a thing of `kind` is drawn as by its look (`look: pieces:`): a shape in the colour its
    look says, with its label; a back when hidden. None when the look does not say how it looks."""
    piece = look_piece(view, kind)
    if piece is None:
        return None
    shape = str(piece.get("shape", "disc"))
    if kind in view.enum_values and isinstance(value, str) and value in SHAPES:  # (a `tower` as a tower)
        shape = value
    back = str(piece.get("back", BACK_COLOUR))
    noun = kind.replace("_", " ")
    if value is None:
        return [Mark("back", back, "", f"{noun}, face down", shape)] if hidden else []
    if value == HIDDEN:
        return [Mark("back", back, "", f"{noun}, face down", shape)]
    if isinstance(value, list):
        return [m for item in value for m in look_marks(view, kind, item, hidden, owner) or ()]
    facts = _facts(view, kind, value)
    if owner is not None and "owner" not in facts:
        facts["owner"] = owner
    colour_by = str(piece.get("colour", "kind" if kind in view.enum_values else ""))
    colour = "#777777"
    if colour_by == "owner":
        who = facts.get("owner")
        if kind == "player" and isinstance(value, str):
            who = value
        colour = (_seat_look_colour(view, who) if isinstance(who, str) else None) or NEUTRAL_COLOUR
    elif colour_by in facts and isinstance(facts[colour_by], str):
        colour = _colour_value(view, facts[colour_by])
    elif colour_by == "kind" and kind in view.enum_values and isinstance(value, str):
        colour = _colour_value(view, value)
    elif colour_by.startswith("#") or colour_by in NAMED_COLOURS:
        colour = NAMED_COLOURS.get(colour_by, colour_by)
    elif kind == "player" and isinstance(value, str):
        colour = _seat_look_colour(view, value) or NEUTRAL_COLOUR
    if "label" in piece:
        label = _template(view, str(piece["label"]), facts)
    elif kind == "player":
        label = ""
    elif kind in view.enum_values and isinstance(value, str):  # (its colour says it, unless it has a symbol)
        label = str((view.look.get("symbols") or {}).get(value, ""))
    else:
        label = ""
    title, names = _words(view, kind, value, facts)
    if kind == "player" and isinstance(value, str):
        title, names = value, value
    return [Mark("shape", colour, label, title, shape, names)]


def thing_marks(view: View, name: str, value: Any, hidden: bool, owner: str | None = None) -> list[Mark]:
    """A field's value drawn on a spot, under a region or in a row: by its kind's look where the
    look gives one; in a rule set with a look, a number as a token and a flag as a check (each
    titled with the field's title); else as the drawing always drew it (`marks`)."""
    kind = view.kinds.get(name, "")
    if kind == "" and isinstance(value, str) and value in view.things:
        kind = view.things[value][0]
    found = look_marks(view, kind, value, hidden, owner) if view.look else None
    if found is not None and kind == "player":  # a seat's piece: what it is, by the field's title
        return [dataclasses.replace(m, title=f"{title_of(view, name)}: {m.names}") for m in found]
    titled = (field_look(view, name) or {}).get("title", title_of(view, name)) != name.replace("_", " ")
    if found is not None and isinstance(value, dict) and titled:  # a record: by the field's own words
        noun = f" {kind.replace('_', ' ')}"
        return [dataclasses.replace(m, title=f"{title_of(view, name)}: " + m.title.replace(noun, "", 1).strip())
                if m.kind == "shape" else m for m in found]
    if found is not None:
        return found
    if view.look and not isinstance(value, dict | list) and value != HIDDEN and value is not None:
        title = title_of(view, name)
        if isinstance(value, bool):
            if not value:
                return []
            if "face down" in title or "face-down" in title:
                return [Mark("back", BACK_COLOUR, "", title, "token")]
            return [Mark("shape", "#444444", "✓", title, "token")]
        if isinstance(value, int):
            tint = VALUE_COLOURS[sum(map(ord, name)) % len(VALUE_COLOURS)]  # (a colour per field, the same each time)
            return [Mark("shape", tint, str(value), f"{title}: {value}", "token")] if value else []
        if isinstance(value, str):
            seat = _seat_look_colour(view, value)
            if seat is not None:
                return [Mark("shape", seat, "", f"{title}: {value}", "disc", value)]
            written = symbol_of(view, value)
            return [Mark("chip", _colour_value(view, value), written[:4], f"{title}: {written}", names=value)]
    if view.look and isinstance(value, list):
        return [m for item in value for m in thing_marks(view, name, item, hidden, owner)]
    return marks(view, name, value, hidden)


def field_text(value: Any) -> str:
    """A value as one line of text."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        items = [field_text(v) for v in value[:MAX_LIST]]
        hidden = sum(1 for v in value if v == HIDDEN)
        if hidden and hidden == len(value):
            return f"{hidden} face down"
        return "[" + " ".join(items) + (" ..." if len(value) > MAX_LIST else "") + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {field_text(v)}" for k, v in value.items()) + "}"
    return str(value)


# -- SVG ---------------------------------------------------------------------------------------------
def _text(x: float, y: float, text: str, cls: str, anchor: str = "start") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" class="{cls}" text-anchor="{anchor}">{escape(text)}</text>')


def _hex_points(x: float, y: float, r: float) -> str:
    corners = [math.radians(60 * k - 30) for k in range(6)]
    return " ".join(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}" for a in corners)


def _hex_edges(board: HexBoard, layout: Layout, kind: int) -> list[tuple[float, float, float, float]]:
    """The edges of hexagons where the region of `kind` changes (or the board ends)."""
    at = {c: i for i, c in enumerate(board.coords)}
    # the neighbour in each direction of a pointy hexagon, and the two corners of the edge facing it
    directions = ((1, 0, 0), (0, 1, 1), (-1, 1, 2), (-1, 0, 3), (0, -1, 4), (1, -1, 5))
    edges = []
    for s, (q, r) in enumerate(board.coords):
        mine = board.region_of[kind][s]
        x, y = layout.centres[s]
        for dq, dr, k in directions:
            n = at.get((q + dq, r + dr))
            theirs = board.region_of[kind][n] if n is not None else -2
            if theirs == mine or (n is not None and n < s):
                continue
            a, b = math.radians(60 * k - 30), math.radians(60 * k + 30)
            edges.append((x + HEX * math.cos(a), y + HEX * math.sin(a), x + HEX * math.cos(b), y + HEX * math.sin(b)))
    return edges


STYLE = """
.board-svg text { font-family: sans-serif; }
.label { font-size: 8px; fill: #333; }
.label.small { font-size: 6px; fill: #555; }
.regionname text, .label, .facename { pointer-events: none; }
.region { font-size: 11px; font-weight: bold; fill: #222; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.region2 { font-size: 10px; font-style: italic; fill: #1f4e8c; paint-order: stroke; stroke: #fff;
  stroke-width: 3px; }
.other-region { fill: none; stroke: #2a64c8; stroke-width: 1.4; stroke-dasharray: 3 2; }
.facename { font-size: 10px; fill: #333; }
.note { font-size: 11px; fill: #555; font-style: italic; }
.head { font-size: 15px; font-weight: bold; fill: #111; }
.prompt { font-size: 13px; fill: #7a1f1f; font-weight: bold; }
.panel { font-size: 12px; fill: #111; }
.panelhead { font-size: 13px; font-weight: bold; fill: #111; }
.marktext { font-size: 8px; font-weight: bold; pointer-events: none; }
.spot .cell { stroke: #888; stroke-width: 0.8; }
.spot.legal .cell { stroke: #e6007e; stroke-width: 2; }
.spot.picked .cell { stroke: #000; stroke-width: 3.5; }
.spot.last .cell { stroke: #0a58ca; stroke-width: 3; }
.spot.unlaid { opacity: 0.45; }
.road { stroke: #8a7350; stroke-width: 3; }
.region.beside, .region2.beside { font-size: 10px; stroke: none; fill: #3b2f1e; }
.edge1 { stroke: #333; stroke-width: 2.2; stroke-linecap: round; }
.edge2 { stroke: #2a64c8; stroke-width: 1.6; stroke-dasharray: 4 3; stroke-linecap: round; }
"""


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on `colour` (#rrggbb)."""
    if len(colour) == 7 and colour.startswith("#"):
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"
    return "#ffffff"


def _shape_svg(shape: str, x: float, y: float, r: float, fill: str) -> str:
    """One of SHAPES, `r` its half-size, centred on (x, y)."""
    line = f'fill="{fill}" stroke="#222" stroke-width="0.8"'
    if shape == "square":
        return (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" rx="{r / 5:.1f}" '
                f'{line}/>')
    if shape == "card":
        w, h = r * 1.45, r * 2
        return (f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{r / 5:.1f}" '
                f'{line}/>')
    if shape == "hex":
        return f'<polygon points="{_hex_points(x, y, r)}" {line}/>'
    if shape == "cube":
        d = r * 0.35
        return (f'<rect x="{x - r:.1f}" y="{y - r + d:.1f}" width="{2 * r - d:.1f}" height="{2 * r - d:.1f}" {line}/>'
                f'<polygon points="{x - r:.1f},{y - r + d:.1f} {x - r + d:.1f},{y - r:.1f} {x + r:.1f},{y - r:.1f} '
                f'{x + r - d:.1f},{y - r + d:.1f}" fill-opacity="0.7" {line}/>'
                f'<polygon points="{x + r - d:.1f},{y - r + d:.1f} {x + r:.1f},{y - r:.1f} {x + r:.1f},{y + r - d:.1f} '
                f'{x + r - d:.1f},{y + r:.1f}" fill-opacity="0.5" {line}/>')
    if shape == "house":
        return (f'<polygon points="{x - r:.1f},{y + r:.1f} {x - r:.1f},{y - r * 0.15:.1f} {x:.1f},{y - r:.1f} '
                f'{x + r:.1f},{y - r * 0.15:.1f} {x + r:.1f},{y + r:.1f}" {line}/>')
    if shape == "tower":
        w, t = r * 0.75, r / 3
        top = y - r
        merlons = (f'{x - w:.1f},{top:.1f} {x - w / 3:.1f},{top:.1f} {x - w / 3:.1f},{top + t:.1f} '
                   f'{x + w / 3:.1f},{top + t:.1f} {x + w / 3:.1f},{top:.1f} {x + w:.1f},{top:.1f}')
        return f'<polygon points="{x - w:.1f},{y + r:.1f} {merlons} {x + w:.1f},{y + r:.1f}" {line}/>'
    if shape == "wall":
        h, t = r * 1.3, r / 3
        top = y - h / 2
        teeth = " ".join(f"{x - r + k * r / 2:.1f},{top + (t if k % 2 else 0):.1f} {x - r + (k + 1) * r / 2:.1f},"
                         f"{top + (t if k % 2 else 0):.1f}" for k in range(4))
        return f'<polygon points="{x - r:.1f},{y + h / 2:.1f} {teeth} {x + r:.1f},{y + h / 2:.1f}" {line}/>'
    if shape == "pawn":
        head = r * 0.42
        return (f'<polygon points="{x - r * 0.8:.1f},{y + r:.1f} {x - r * 0.3:.1f},{y - r * 0.15:.1f} '
                f'{x + r * 0.3:.1f},{y - r * 0.15:.1f} {x + r * 0.8:.1f},{y + r:.1f}" {line}/>'
                f'<circle cx="{x:.1f}" cy="{y - r + head:.1f}" r="{head:.1f}" {line}/>')
    if shape == "token":
        return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {line}/>'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.78:.1f}" fill="none" stroke="{_ink(fill)}" '
                f'stroke-opacity="0.5" stroke-width="0.6"/>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {line}/>'


def _mark_svg(m: Mark, x: float, y: float, r: float = 6.0) -> str:
    title = f"<title>{escape(m.title)}</title>"
    names = f' data-names="{escape(m.names)}"' if m.names else ""
    ink = "#fff"
    if m.kind == "shape" or (m.kind == "back" and m.shape):
        shape = _shape_svg(m.shape, x, y, r, m.colour)
        ink = _ink(m.colour)
        if m.kind == "back":
            shape += (f'<path d="M{x - r * 0.5:.1f},{y - r * 0.5:.1f} L{x + r * 0.5:.1f},{y + r * 0.5:.1f} '
                      f'M{x + r * 0.5:.1f},{y - r * 0.5:.1f} L{x - r * 0.5:.1f},{y + r * 0.5:.1f}" '
                      f'stroke="#ffffff" stroke-opacity="0.5" stroke-width="1"/>')
    elif m.kind == "piece":
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{m.colour}" stroke="#000" stroke-width="0.6"/>'
    elif m.kind == "back":
        shape = (f'<rect x="{x - r * 5 / 6:.1f}" y="{y - r:.1f}" width="{r * 5 / 3:.1f}" height="{2 * r:.1f}" rx="1.5" '
                 f'fill="{m.colour}" stroke="#000" stroke-width="0.6"/>')
    else:
        w = 5 + 4.6 * max(len(m.text), 1)
        shape = (f'<rect x="{x - w / 2:.1f}" y="{y - 5.5:.1f}" width="{w:.1f}" height="11" rx="3" '
                 f'fill="{m.colour}" stroke="#000" stroke-width="0.4"/>')
        ink = _ink(m.colour)
    fit = 1.1 if len(m.text) <= 1 else 1.6 / len(m.text) + 0.2  # (a longer label, smaller)
    size = 8.0 if m.kind not in ("shape", "back") else max(6.0, min(r * fit, r * 1.1))
    text = (f'<text x="{x:.1f}" y="{y + size * 0.36:.1f}" class="marktext" text-anchor="middle" fill="{ink}" '
            f'style="font-size:{size:.1f}px">{escape(m.text)}</text>') if m.text else ""
    return f'<g class="mark {m.kind}"{names}>{title}{shape}{text}</g>'


def _marks_row(ms: Sequence[Mark], x: float, y: float, room: float, r: float = 6.0) -> list[str]:
    """Marks side by side, centred on x, wrapping into rows `room` wide (each `2r` across)."""
    if not ms:
        return []
    step = 2 * r + 1
    per_row = max(int(room // step), 1)
    out = []
    for i, m in enumerate(ms[:4 * per_row]):
        row, col = divmod(i, per_row)
        count = min(per_row, len(ms) - row * per_row)
        out.append(_mark_svg(m, x + (col - (count - 1) / 2) * step, y + row * step, r))
    if len(ms) > 4 * per_row:
        out.append(_text(x, y + 4 * step, f"+{len(ms) - 4 * per_row}", "label", "middle"))
    return out


def _marks_line(ms: Sequence[Mark], x: float, y: float, right: float) -> list[str]:
    """Marks one after the other from x, as far as `right`."""
    out = []
    for m in ms:
        w = 13.0 if m.kind != "chip" else 8 + 4.6 * max(len(m.text), 1)
        if x + w > right:
            out.append(_text(x, y + 3, "...", "label"))
            break
        out.append(_mark_svg(m, x + w / 2, y))
        x += w + 2
    return out


def _piece_rows(ms: Sequence[Mark], x: float, y: float, right: float, r: float = 10.0) -> tuple[list[str], float]:
    """Pieces one after the other from x (their middle at y), wrapping into as many rows as they
    need before `right`; with the height they take."""
    out = []
    left, top = x, y
    step = 2 * r + 4
    for m in ms:
        w = step if m.kind != "chip" else 8 + 4.6 * max(len(m.text), 1)
        if x + w > right and x > left:
            x, y = left, y + step
        out.append(_mark_svg(m, x + w / 2, y, r))
        x += w + 2
    return out, (y - top + step) if ms else 0.0


def _spot_fill(board: Board, s: int, enums: Mapping[str, tuple[str, ...]]) -> str:
    """A spot's fill: the colour of its region of the first kind (the one its `colour` attribute
    names, on a graph board; else a pale one by the region's place), grey in none (a grid's cell
    light or dark, as on a chess board)."""
    region = board.region_of[0][s] if board.kinds else -1
    if region < 0 and isinstance(board, GridBoard):  # a chess board's light and dark cells
        return GRID_SHADES[(board.row_of[s] + board.column_of[s] + 1) % 2]
    if region < 0:
        return "#f4f4f4"
    for values in board.region_attributes:
        v = values[region] if region < len(values) else -1
        for names in enums.values():  # (an enumeration of colours: Schacht's provinces)
            if 0 <= v < len(names) and all(n in NAMED_COLOURS for n in names):
                return NAMED_COLOURS[names[v]]
    k = board.regions_of_kind[0].index(region)
    return REGION_FILLS[k % len(REGION_FILLS)]


@dataclass(frozen=True)
class BoardFacts:
    """What the drawing needs of a rule set beside the board: enumerations by name (a region
    attribute's values, a hex map's legend), and which field lays a wall's faces."""

    enums: Mapping[str, tuple[str, ...]]
    layout_field: str | None


def board_facts(state: State) -> BoardFacts:
    layout_field = next((f.name for f in state.FIELDS if f.kind == "list" and f.element == "wallface"
                         and f.per is None), None)
    return BoardFacts(dict(state.ENUMS), layout_field)


def draw_svg(board: Board, view: View, facts: BoardFacts, highlight: Iterable[str] = (),
             picked: str | None = None, last: Iterable[str] = ()) -> str:
    """The board and `view` as one SVG document; spots named in `highlight` are drawn as
    playable, `picked` as the one clicked."""
    lit = set(highlight)
    moved = set(last)
    looked = bool(view.look)
    if isinstance(board, WallBoard):
        laid_names = view.fields.get(facts.layout_field or "", []) if facts.layout_field else []
        index = {n: i for i, n in enumerate(board.face_names)}
        laid = [index[n] for n in laid_names if isinstance(n, str) and n in index]
        layout = wall_layout(board, laid, looked)
    else:
        layout = board_layout(board, (view.look.get("boards") or {}).get(board.name))
    head_h = 46.0
    parts: list[str] = []
    parts.extend(layout.extra)
    # roads under everything
    for a, b in layout.roads:
        (x1, y1), (x2, y2) = layout.centres[a], layout.centres[b]
        parts.append(f'<line class="road" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    # what is drawn on the spots and under the regions' names
    shown = {n for n in view.fields if shown_as(view, n) != "hidden"}
    per_spot = [n for n, p in view.per.items() if p == "spot" and n in shown]
    per_region = [n for n, p in view.per.items() if p == "region" and n in shown]
    backgrounds = {n: plain(view, n, dict(view.fields[n]).values()) for n in per_spot + per_region}
    at_spot = _player_places(view, set(board.labels))
    on_board, on_region, across = _board_fields(view, board, layout)
    for label, ms in on_board.items():
        at_spot.setdefault(label, []).extend(ms)
    # (a look's piece coloured by its owner takes the seat a player field names on the same spot)
    owner_fields = [n for n in per_spot if view.kinds.get(n) == "player"]
    owned_kinds = {n for n in per_spot if view.kinds.get(n) != "player"
                   and (look_piece(view, view.kinds.get(n, "")) or {}).get("colour") == "owner"} if looked else set()
    # spots
    for s in board.spots:
        x, y = layout.centres[s]
        label = board.labels[s]
        classes = ["spot"]
        if label in lit:
            classes.append("legal")
        if label in moved:
            classes.append("last")
        if label == picked:
            classes.append("picked")
        if layout.shown and not layout.shown[s]:
            classes.append("unlaid")
        fill = _spot_fill(board, s, facts.enums)
        symbol_note = ""
        if board.spot_attributes and hasattr(board, "symbols"):
            symbol = board.symbols[s]
            legend = dict(getattr(board, "legend", ()))
            meaning = legend.get(symbol, "")
            symbol_note = f" ({meaning})" if meaning else ""
            words = meaning.replace(",", " ").split()
            if any(w in words for w in WATER):
                fill = "#a9cdea"
            elif "capital" in words:
                fill = "#e8c77a"
        regions = [board.region_names[r] for k in range(len(board.kinds)) for r in board.regions_at[k][s]]
        title = f"{label}{symbol_note}" + (f" — {', '.join(regions)}" if regions else "")
        if layout.shape == "hex":
            cell = f'<polygon class="cell" points="{_hex_points(x, y, layout.size - 0.6)}" fill="{fill}"/>'
        elif layout.shape == "square":
            r = layout.size
            cell = (f'<rect class="cell" x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" '
                    f'height="{2 * r:.1f}" fill="{fill}"/>')
        else:
            cell = f'<circle class="cell" cx="{x:.1f}" cy="{y:.1f}" r="{layout.size:.1f}" fill="{fill}"/>'
        other_kinds = range(1, len(board.kinds))
        if not isinstance(board, HexBoard | WallBoard) and any(board.regions_at[k][s] for k in other_kinds):
            # in a region of another kind than the first (Mandarin's character squares): ringed
            r = layout.size + 3
            cell += (f'<circle class="other-region" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"/>' if layout.shape == "circle"
                     else f'<rect class="other-region" x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" '
                          f'height="{2 * r:.1f}"/>')
        spot_marks: list[Mark] = [] if looked else list(at_spot.get(label, ()))  # (without a look: as ever)
        owner = next((v for n in owner_fields for v in [dict(view.fields[n]).get(label)] if isinstance(v, str)), None)
        owner_taken = False
        for name in per_spot:
            value = dict(view.fields[name]).get(label)
            if is_plain(value, backgrounds[name]) and not (value is None and _hidden_to(view, name)):
                continue
            if name in owner_fields and owner_taken and isinstance(value, str):
                continue
            spot_marks.extend(thing_marks(view, name, value, _hidden_to(view, name), owner))
            owner_taken = owner_taken or (name in owned_kinds and owner is not None)
        if looked:  # (a pawn, a marker: over what lies on the spot)
            spot_marks.extend(at_spot.get(label, ()))
        if looked:
            n = len(spot_marks)  # (one piece fills its spot; up to three side by side in one row)
            r = layout.size * 0.72 if n <= 1 else min(layout.size * 0.55, layout.size * 0.95 / n - 0.5) if n <= 3 \
                else layout.size * 0.34
            r = max(r, 5.0)
            inner = _marks_row(spot_marks, x, y + (layout.size * 0.18 if spot_marks else 0), layout.size * 1.9, r)
            text = (_text(x, y - layout.size * 0.62, label, "label small", "middle") if spot_marks
                    else _text(x, y + 3, label, "label", "middle"))
        else:
            inner = _marks_row(spot_marks, x, y + 1, layout.size * 1.6)
            text = _text(x, y - layout.size * 0.55 if spot_marks else y + 3, label, "label", "middle")
        parts.append(f'<g class="{" ".join(classes)}" data-spot="{escape(label)}"><title>{escape(title)}</title>'
                     f'{cell}{text}{"".join(inner)}</g>')
    parts.extend(across)  # things drawn across spots (a pagoda on its triangle), above them
    # region outlines (hex) and names
    if isinstance(board, HexBoard):
        for k in range(min(len(board.kinds), 2)):
            for x1, y1, x2, y2 in _hex_edges(board, layout, k):
                parts.append(f'<line class="edge{k + 1}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    wall = isinstance(board, WallBoard)
    for r, name in enumerate(board.region_names):
        laid = [s for s in board.region_spots[r] if not layout.shown or layout.shown[s]]
        members = laid or list(board.region_spots[r])  # (a wall's region on a face not laid: drawn there)
        if not members or looked and layout.shown and not laid:
            continue
        kind = board.region_kind[r]
        cx = sum(layout.centres[s][0] for s in members) / len(members)
        cy = sum(layout.centres[s][1] for s in members) / len(members)
        if name in layout.labels:
            cx, cy = layout.labels[name]
        elif isinstance(board, RingBoard):  # outside the ring, in line with the region's middle
            mid_x, mid_y = layout.width / 2, layout.height / 2
            dx, dy = cx - mid_x, cy - mid_y
            length = math.hypot(dx, dy) or 1.0
            push = 38 + 16 * kind
            ring_r = math.dist(layout.centres[members[0]], (mid_x, mid_y))
            cx, cy = mid_x + dx / length * (ring_r + push), mid_y + dy / length * (ring_r + push)
        elif isinstance(board, WallBoard):
            cy = cy + layout.size + 12 + 11 * kind
        elif looked and layout.shape == "hex":  # at the corner above the region's middle spot: between cells
            nearest = min(members, key=lambda s: math.dist(layout.centres[s], (cx, cy)))
            cx, cy = layout.centres[nearest][0], layout.centres[nearest][1] - layout.size + 4
        elif kind > 0:
            cy += 12
        region_marks: list[Mark] = list(on_region.get(name, ()))
        for fname in per_region:
            value = dict(view.fields[fname]).get(name)
            if is_plain(value, backgrounds[fname]) and not (value is None and _hidden_to(view, fname)):
                continue
            if looked and view.kinds.get(fname) == "player":  # a seat's piece in a region (a building: a pawn)
                shape = str((look_piece(view, "player") or {}).get("shape", "pawn"))
                shape = "pawn" if shape in ("house", "tower", "wall") else shape
                region_marks.extend(Mark("shape", _seat_look_colour(view, v) or NEUTRAL_COLOUR, "",
                                         f"{title_of(view, fname)}: {v}", shape, v)
                                    for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
                continue
            region_marks.extend(thing_marks(view, fname, value, _hidden_to(view, fname)))
        cls = ("region" if kind == 0 else "region2") + (" beside" if looked else "")
        below = (34 - 11 * kind + (16 * kind if looked else 0) if wall else 10) + (4 if looked else 0)
        mark_r = max(9.0, layout.size * 0.5) if looked else 6.0
        row = _marks_row(region_marks, cx, cy + below + (mark_r - 6 if looked else 0), 110, mark_r)
        parts.append(f'<g class="regionname" data-region="{escape(name)}"><title>{escape(board.kinds[kind])} '
                     f'{escape(name)}</title>{_text(cx, cy, name, cls, "middle")}{"".join(row)}</g>')
    # panels: players, then the other fields
    width = max(layout.width, 520.0)
    panel, panel_h = (_panels_look if looked else _panels)(view, board, width)
    board_svg = "".join(parts)
    seat = (f"seen by a {view.watcher}" if view.watcher else "referee (sees all)" if view.seat is None
            else f"seen by {view.seats[view.seat]}")
    phase = view.phase.replace("_", " ") if looked else view.phase
    asked = (view.question.replace("_", " ") if looked else view.question) if view.question else None
    who = ("game over" if view.terminal or view.to_act is None else f"{_seat_title(view, view.to_act)} to act"
           + (f" ({asked})" if asked else ""))
    if looked:  # (short lines, for a narrow screen too; the prompt of the decision asked, when there is one)
        asked_now = view.prompt if view.prompt and not view.terminal else None
        who = ("game over" if view.terminal or view.to_act is None else f"{_seat_title(view, view.to_act)} to act"
               + (f" ({asked})" if asked and not asked_now else ""))
        head = [_text(12, 20, f"{view.title} ({view.ruleset})", "head"),
                _text(12, 38, f"turn {view.turn}, phase {phase}, {who}", "panel")]
        y = 38.0
        for line in _wrap(asked_now or "", int(max(layout.width, 520.0) / 7) - 4) if asked_now else ():
            y += 16
            head.append(_text(12, y, line, "prompt"))
        head.append(_text(12, y + 17, seat + (f"; {layout.note}" if layout.note else ""), "note"))
        head_h = y + 26
    else:
        head = [_text(12, 20, f"{view.title} ({view.ruleset}) — turn {view.turn}, phase {phase}, {who}", "head"),
                _text(12, 38, seat + (f"; {layout.note}" if layout.note else ""), "note")]
    height = head_h + layout.height + panel_h + 10
    size = (f'width="100%" style="max-width:{width:.0f}px"' if looked
            else f'width="{width:.0f}" height="{height:.0f}"')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board-svg" {size} '
            f'viewBox="0 0 {width:.0f} {height:.0f}"><style>{STYLE}</style>'
            f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>'
            f'{"".join(head)}<g class="board" id="drawing-board" transform="translate(0,{head_h:.0f})">{board_svg}</g>'
            f'<g class="panels" id="drawing-panels" transform="translate(0,{head_h + layout.height:.0f})">'
            f'{panel}</g></svg>')


def _board_fields(view: View, board: Board, layout: Layout) -> tuple[dict[str, list[Mark]], dict[str, list[Mark]],
                                                                    list[str]]:
    """The fields the look shows on the board (`as: board`) that are not per spot: a spot (a
    marker) or a thing with one spot drawn on that spot, a thing with several (a pagoda on its
    triangle) across them, a thing in a region under the region's name."""
    on_spot: dict[str, list[Mark]] = {}
    on_region: dict[str, list[Mark]] = {}
    across: list[str] = []
    labels = set(board.labels)
    regions = set(board.region_names)
    for name, value in view.fields.items():
        if view.per.get(name) is not None or shown_as(view, name) != "board":
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item in labels:
                on_spot.setdefault(item, []).append(Mark("shape", "#c0392b", "★", title_of(view, name), "token"))
            elif isinstance(item, str) and item in regions:
                on_region.setdefault(item, []).append(Mark("shape", "#c0392b", "★", title_of(view, name), "token"))
            elif isinstance(item, dict):
                cells = [c for v in item.values() for c in (v if isinstance(v, list) else [v])
                         if isinstance(c, str) and c in labels]
                where = [v for v in item.values() if isinstance(v, str) and v in regions]
                ms = thing_marks(view, name, item, False)
                if len(cells) == 1:
                    on_spot.setdefault(cells[0], []).extend(ms)
                elif cells:
                    points = [layout.centres[board.index[c]] for c in cells]
                    x = sum(px for px, _ in points) / len(points)
                    y = sum(py for _, py in points) / len(points)
                    colour = ms[0].colour if ms else "#444444"
                    outline = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
                    across.append(f'<g class="across" data-spots="{escape(" ".join(cells))}">'
                                  f'<polygon points="{outline}" fill="none" stroke="{colour}" stroke-width="3" '
                                  f'stroke-linejoin="round" stroke-opacity="0.8"/>'
                                  + "".join(_mark_svg(m, x, y, layout.size * 0.62) for m in ms) + "</g>")
                elif where:
                    on_region.setdefault(where[0], []).extend(ms)
    return on_spot, on_region, across


def _player_places(view: View, labels: set[str]) -> dict[str, list[Mark]]:
    """Per-player fields whose value is a spot (a pawn's place): a piece of the player's colour there
    (the look's piece for `player`, when it gives one)."""
    found: dict[str, list[Mark]] = {}
    for name, per in view.per.items():
        if per != "player" or name not in view.fields or shown_as(view, name) not in (None, "board"):
            continue
        for p, value in enumerate(view.fields[name][:view.players]):
            if isinstance(value, str) and value in labels:
                seat = view.seats[p]
                drawn = look_marks(view, "player", seat, False) if view.look else None
                if drawn:
                    found.setdefault(value, []).extend(
                        Mark(m.kind, m.colour, m.text, f"{title_of(view, name)}: {seat}", m.shape, seat) for m in drawn)
                else:
                    found.setdefault(value, []).append(
                        Mark("piece", SEAT_COLOURS[p % len(SEAT_COLOURS)], str(p + 1), f"{name} of {seat}"))
    return found


def _hidden_to(view: View, name: str) -> bool:
    """Whether a `null` of this field means hidden from the seat (a `visible: {to: ...}` field)."""
    return (view.seat is not None or view.watcher is not None) and view.visible.get(name) == "to"


def _seat_title(view: View, seat: int) -> str:
    role = f" ({view.roles[seat]})" if seat < len(view.roles) else ""
    if view.look and role.removeprefix(" (seat").rstrip(")").isdigit():  # (`seat1`: no more than its number)
        role = ""
    return f"{view.seats[seat]}{role}"


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def _panels(view: View, board: Board, width: float) -> tuple[str, float]:
    """The player areas (each seat's per-player fields as the view has them) and the other
    fields, as SVG rows; with their height."""
    out: list[str] = []
    y = 22.0
    chars = int(width / 7)
    per_player = [n for n, p in view.per.items() if p == "player" and n in view.fields]
    for p in range(view.players):
        colour = SEAT_COLOURS[p % len(SEAT_COLOURS)]
        mine = " — you" if view.seat == p else ""
        acting = " — to act" if view.to_act == p and not view.terminal else ""
        score = f" — score {view.scores[p]}" if view.scores is not None else ""
        out.append(f'<g class="player" data-seat="{p + 1}">'
                   f'<circle cx="20" cy="{y - 4:.1f}" r="6" fill="{colour}" stroke="#000" stroke-width="0.6"/>'
                   + _text(32, y, f"{_seat_title(view, p)}{mine}{acting}{score}", "panelhead"))
        y += 16
        items = []
        for name in per_player:
            value = view.fields[name][p] if p < len(view.fields[name]) else None
            hidden = value is None and view.visible.get(name) != "all"
            items.append(f"{name}: {'hidden' if hidden else field_text(value)}")
        for line in _wrap("; ".join(items), chars - 6):
            out.append(_text(32, y, line, "panel"))
            y += 15
        for name in per_player:  # a hand, a rack, a card: its items as the board draws them
            value = view.fields[name][p] if p < len(view.fields[name]) else None
            if isinstance(value, list) and 0 < len(value) <= 40:
                row = [m for item in value for m in marks(view, name, item, False)]
                if row:
                    out.append(_text(32, y + 3, name, "note"))
                    out.extend(_marks_line(row, 44 + 6.2 * len(name), y, width - 20))
                    y += 16
        out.append("</g>")
        y += 6
    others = [n for n, p in view.per.items() if p is None and n in view.fields]
    if others:
        out.append(_text(12, y, "On the table", "panelhead"))
        y += 16
        for name in others:
            value = view.fields[name]
            shown = (f"{value} face down" if view.visible.get(name) == "size" and isinstance(value, int)
                     and (view.seat is not None or view.watcher is not None) else field_text(value))
            for line in _wrap(f"{name}: {shown}", chars - 4):
                out.append(f'<g class="field" data-field="{escape(name)}">{_text(20, y, line, "panel")}</g>')
                y += 15
    return "".join(out), y + 6


def _items_marks(view: View, name: str, value: Any, owner: str | None = None) -> list[Mark]:
    """The items of a hand, a row or a pile as pieces (each by its kind's look)."""
    items = value if isinstance(value, list) else [value]
    drawn = [m for item in items[:60] for m in thing_marks(view, name, item, item == HIDDEN, owner)]
    if name in view.unordered:  # (a set: its things side by side by kind, as a player sorts a hand)
        drawn.sort(key=lambda m: (m.title, m.text, m.names))
    return drawn


def _pile_svg(view: View, name: str, value: Any, x: float, y: float) -> str:
    """A face-down stack with its count (`bag 92`)."""
    count = len(value) if isinstance(value, list) else value if isinstance(value, int) else 0
    piece = look_piece(view, view.kinds.get(name, "")) or {}
    back = str(piece.get("back", BACK_COLOUR))
    shape = str(piece.get("shape", "card"))
    stack = "".join(_shape_svg(shape, x + 9 + 2.5 * k, y - 2.5 * k, 9, back) for k in range(min(max(count, 1), 3)))
    return (f'<g class="pile" data-field="{escape(name)}"><title>{escape(title_of(view, name))}: {count}</title>'
            f'{stack if count else ""}{_text(x + 30, y + 4, f"{title_of(view, name)}: {count}", "panel")}</g>')


def _counter_text(view: View, name: str, value: Any) -> str:
    if value is None:
        return f"{title_of(view, name)}: ?"
    if isinstance(value, dict) and "high_bid" in value:  # an auction
        if value.get("over", True):
            return ""
        high = f"{value['high_bid']} by {value['high_bidder']}" if value.get("high_bidder") else "none yet"
        turn = f"; {value['bidder']} to bid" if value.get("bidder") else ""
        return f"{title_of(view, name)}: highest bid {high}{turn}"
    if isinstance(value, bool):
        return title_of(view, name) if value else ""
    if isinstance(value, list):
        return f"{title_of(view, name)}: " + (" ".join(symbol_of(view, v) for v in value) or "none")
    return f"{title_of(view, name)}: {symbol_of(view, value)}"


def _by_marks(view: View, name: str, value: list[Any]) -> list[Mark]:
    """A counter `by:` an enumeration: one chip per value, in the value's colour, with its number."""
    by = str((field_look(view, name) or {}).get("by", ""))
    values = view.enum_values.get(by, ())
    title = title_of(view, name)
    return [Mark("shape", _colour_value(view, v), str(n), f"{title}: {v.replace('_', ' ')} {n}", "token", v)
            for v, n in zip(values, value, strict=False)]


def _panels_look(view: View, board: Board, width: float) -> tuple[str, float]:
    """The player areas and the table as the look says (`look: fields:`): each seat's score (at the
    end, the final score with its terms), its counters, its hand as pieces; then the table's rows of
    pieces, piles with their counts and counters; a field the look does not name as the drawing
    always showed it; a `hidden` one, or one drawn on the board, nowhere here."""
    out: list[str] = []
    y = 24.0
    chars = int(width / 7)
    right = width - 16
    per_player = [n for n, p in view.per.items() if p == "player" and n in view.fields
                  and shown_as(view, n) not in ("hidden", "board")]
    score_field = next((n for n in per_player if shown_as(view, n) == "score"), None)
    for p in range(view.players):
        seat = view.seats[p]
        colour = _seat_look_colour(view, seat) or SEAT_COLOURS[p % len(SEAT_COLOURS)]
        mine = " — you" if view.seat == p else ""
        acting = " — to act" if view.to_act == p and not view.terminal else ""
        if view.scores is not None:
            score = f" — score {view.scores[p]}"
        elif score_field is not None:
            got = view.fields[score_field][p]
            score = f" — {title_of(view, score_field)} {'?' if got is None else got}"
        else:
            score = ""
        out.append(f'<g class="player" id="drawing-player-{p + 1}" data-seat="{p + 1}">'
                   f'<circle cx="20" cy="{y - 5:.1f}" r="7" fill="{colour}" stroke="#000" stroke-width="0.6"/>'
                   + _text(34, y, f"{_seat_title(view, p)}{mine}{acting}{score}", "panelhead"))
        y += 18
        if view.score_terms is not None and p < len(view.score_terms):
            terms = " + ".join(f"{t.replace('_', ' ')} {v}" for t, v in view.score_terms[p].items())
            for line in _wrap(f"final score {sum(view.score_terms[p].values())} = {terms}", chars - 6):
                out.append(_text(34, y, line, "panel"))
                y += 15
        counters: list[str] = []
        for name in per_player:
            how = shown_as(view, name)
            value = view.fields[name][p] if p < len(view.fields[name]) else None
            if how == "score":
                continue
            if how is None:  # not named by the look: as always
                hidden = value is None and view.visible.get(name) != "all"
                counters.append(f"{name}: {'hidden' if hidden else field_text(value)}")
            elif how == "counter" and isinstance(value, list) and (field_look(view, name) or {}).get("by"):
                continue
            elif how == "counter":
                text = _counter_text(view, name, value)
                if text:
                    counters.append(text)
        for line in _wrap(" · ".join(counters), chars - 6) if counters else ():
            out.append(_text(34, y, line, "panel"))
            y += 15
        for name in per_player:
            how = shown_as(view, name)
            value = view.fields[name][p] if p < len(view.fields[name]) else None
            by = how == "counter" and isinstance(value, list) and (field_look(view, name) or {}).get("by")
            if how in ("hand", "row") or by:
                if not value:  # (empty, or hidden from the seat viewed: its count, if any, is a counter)
                    continue
                ms = _by_marks(view, name, value) if by else _items_marks(view, name, value, seat)
                out.append(f'<g class="{"hand" if how == "hand" else "row"}" data-field="{escape(name)}">'
                           + _text(34, y + 4, title_of(view, name), "note"))
                x0 = 40 + 6.4 * len(title_of(view, name))
                drawn, high = _piece_rows(ms, x0, y, right, 12.0)
                out.extend(drawn)
                out.append("</g>")
                y += max(high, 22.0) + 2 if ms else 18
            elif how == "pile":
                out.append(_pile_svg(view, name, value, 34, y + 4))
                y += 26
        out.append("</g>")
        y += 8
    others = [n for n, p in view.per.items() if p is None and n in view.fields
              and shown_as(view, n) not in ("hidden", "board")]
    if others:
        out.append('<g class="table" id="drawing-table">' + _text(12, y, "On the table", "panelhead"))
        y += 20
        texts: list[str] = []
        for name in others:
            how = shown_as(view, name)
            value = view.fields[name]
            if how is None:
                shown = (f"{value} face down" if view.visible.get(name) == "size" and isinstance(value, int)
                         and view.seat is not None else field_text(value))
                texts.append(f"{name}: {shown}")
            elif how in ("counter", "score"):
                text = _counter_text(view, name, value)
                if text:
                    texts.append(text)
        for line in _wrap(" · ".join(texts), chars - 4) if texts else ():
            out.append(_text(20, y, line, "panel"))
            y += 15
        for name in others:
            how = shown_as(view, name)
            value = view.fields[name]
            if how in ("row", "hand") and value:
                ms = _items_marks(view, name, value)
                out.append(f'<g class="row" data-field="{escape(name)}">'
                           + _text(20, y + 4, title_of(view, name), "note"))
                drawn, high = _piece_rows(ms, 26 + 6.4 * len(title_of(view, name)), y, right, 12.0)
                out.extend(drawn)
                out.append("</g>")
                y += max(high, 22.0) + 2
            elif how == "pile":
                out.append(_pile_svg(view, name, value, 20, y + 4))
                y += 28
        out.append("</g>")
    return "".join(out), y + 6


def render_svg(state: State, seat: int | None, highlight: Iterable[str] = (), picked: str | None = None,
               last: Iterable[str] = ()) -> str:
    """The drawing of `state` as `seat` sees it (None: the referee); `highlight`: the spots of
    the seat's legal moves, `picked` the one clicked, `last` those the last move named."""
    return draw_svg(state.board, view_of(state, seat), board_facts(state), highlight, picked, last)


def svg_to_png(svg: str, width: int | None = None) -> bytes:
    """A drawing as a PNG image, `width` pixels wide (default: its viewBox's width), through cairosvg
    (the `render` extra; ImportError without it). The drawing holds no link to any file or address,
    so cairosvg reads nothing but the text it is given."""
    import re

    import cairosvg  # type: ignore[import-untyped]

    box = re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    wide = float(box.group(1)) if box else 800.0
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width or int(wide), unsafe=False)
    assert isinstance(png, bytes)
    return png


def action_spots(state: State, texts: Iterable[str]) -> dict[str, list[str]]:
    """For each spot label named in the texts of actions, the texts that name it (an action's
    text names its spots as words, or joined by `-` or `/`)."""
    labels = set(state.board.labels)
    found: dict[str, list[str]] = {}
    for text in texts:
        words = text.replace("-", " ").replace("/", " ").replace(",", " ").split()
        for w in dict.fromkeys(words):
            if w in labels:
                found.setdefault(w, []).append(text)
    return found
