"""Place the boards of Michael Schacht's "China" (Abacus 2005) on a map of the Warring States.

The rulebook has no picture of the board (shared/BOARDS.md), so the boards themselves are a
reconstruction (scripts/reconstruct_schacht_boards.py) and so is this map. The data below is
hand-made, in the 1000 x 1000 box of a rule file's `look: boards:` (x to the east, y to the
south), and the script checks it against every board of rules/china-schacht/*.yaml:

* the provinces lie where the Warring States lay: Chin (Qin) west, Shu south-west, Zhao north,
  Yan north-east, Qi east on the coast, Lu south of Qi, Wei and Han in the middle (Han south of
  Wei), Chu the large south (``MAP``: a raster of 25 x 25 cells of 40 units, a letter per
  province, ``~`` the sea, ``.`` land of no province: the steppe, the mountains of Tibet and of
  the Daba Shan between Shu and Han);
* two provinces touch on the map exactly where the board has a border (the 15 alliances), each
  province is one piece, the coastal ones touch the sea and each harbour lies near it;
* every space of every board is placed, inside its province (a border post on the line between
  its two), at least ``MIN_DISTANCE`` from any other space, clear of the edge; Chin5 the
  south-west space of Chin (example 7);
* roads drawn straight: none crosses another, none passes over a space, none runs through a
  third province or the sea, and none is longer than ``MAX_ROAD``;
* each province's name (``LABELS``) is written inside it, beside its spaces, never on one: its
  box (``label_box``) keeps ``LABEL_GAP`` from every space's disc, meets no other name, and the
  roads that cross it are counted and kept at most ``MAX_LABEL_ROADS``.

Run it to check and print the figures; ``--write`` puts the positions into the rule files (the
`boards:` key, the last of their `look:` section, from that line to the end of the file), and
``--check`` also says whether the rule files hold them. It exits non-zero if a check fails.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules" / "china-schacht"
SCRIPT = "scripts/schacht_map.py"

Point = tuple[int, int]

BOX = 1000
# A space's disc, which names and roads keep clear of: its diameter as the drawing makes it when the
# look gives no `size:` (a radius of 0.42 of the closest two spaces' distance: 27 on the faces).
SIZE = 54
MIN_DISTANCE = 50  # between the centres of two spaces
EDGE = 40  # a space's centre at least this far from the edge of the box
MAX_ROAD = 220  # the longest road between two spaces
ROAD_CLEARANCE = SIZE // 2 + 4  # a road passes no nearer to another space's centre
LABEL_FONT = 28  # the height of a province's name, for its box
LABEL_GAP = 8  # between a name's box and a space's disc
MARKS_WIDTH, MARKS_BELOW = 70, 24  # the row of a province's emissaries under its name
MAX_LABEL_ROADS = 0  # roads that may cross a name's box

# The spaces of both faces (the same 52 spaces; the faces differ in their roads): hand-made, on
# the schematic map of scripts/reconstruct_schacht_boards.py (so no road crosses another) scaled
# into the box, then moved a little: Yan4 north and Qi2, Han2, Lu1 south, to make room for the
# border posts of border quarrels.
SPACES: dict[str, Point] = {
    "Chin1": (210, 208), "Chin2": (105, 345), "Chin3": (210, 397), "Chin4": (148, 517),
    "Chin5": (75, 560), "Chin6": (273, 500),
    "Shu1": (164, 672), "Shu2": (132, 792), "Shu3": (90, 896), "Shu4": (218, 853), "Shu5": (281, 930),
    "Zhao1": (288, 216), "Zhao2": (374, 156), "Zhao3": (421, 285), "Zhao4": (499, 182),
    "Zhao5": (585, 225), "Zhao6": (632, 302),
    "Wei1": (366, 483), "Wei2": (398, 380), "Wei3": (483, 397), "Wei4": (546, 457),
    "Wei5": (499, 534), "Wei6": (585, 586), "Wei7": (616, 397),
    "Han1": (343, 603), "Han2": (420, 600), "Han3": (445, 705), "Han4": (392, 748), "Han5": (556, 716),
    "Chu1": (343, 913), "Chu2": (405, 835), "Chu3": (491, 878), "Chu4": (577, 818),
    "Chu5": (585, 930), "Chu6": (694, 853), "Chu7": (812, 835), "Chu8": (850, 921),
    "Yan1": (671, 165), "Yan2": (756, 139), "Yan3": (842, 113), "Yan4": (795, 205), "Yan5": (912, 190),
    "Qi1": (694, 345), "Qi2": (782, 310), "Qi3": (873, 345), "Qi4": (846, 440), "Qi5": (749, 466),
    "Lu1": (775, 565), "Lu2": (671, 612), "Lu3": (858, 612), "Lu4": (819, 706), "Lu5": (717, 741),
}

# The six border posts of border quarrels, each half-way along the road it was put on.
POSTS: dict[str, Point] = {
    "Chin_Shu": (156, 594), "Chin_Han": (308, 552), "Wei_Han": (460, 567),
    "Zhao_Yan": (628, 195), "Yan_Qi": (788, 257), "Qi_Lu": (762, 516),
}

# Where each province's name is written (the centre of the text).
LABELS: dict[str, Point] = {
    "Chin": (210, 290), "Shu": (240, 745), "Zhao": (520, 290), "Wei": (470, 455), "Han": (505, 640),
    "Chu": (690, 935), "Yan": (640, 90), "Qi": (775, 375), "Lu": (755, 630),
}

# The map: one letter per cell of 40 x 40 units, row 0 the north.
CELL = 40
MAP = """\
........................~
........................~
........ZZZZZZZZYYYYYYY.~
.....CCZZZZZZZZZYYYYYYYY~
...CCCCZZZZZZZZZYYYYYYYY~
..CCCCCZZZZZZZZZZYYYYYYY~
..CCCCCZZZZZZZZZZQQQYYY~~
..CCCCCZZZZZZZZZQQQQQQQ~~
..CCCCCCZZZZZZZZQQQQQQQ~~
..CCCCCCWWWWWWWWQQQQQQQ~~
..CCCCCCWWWWWWWWQQQQQQQ~~
..CCCCCCWWWWWWWWQQQQQQQ~~
..CCCCCCWWWWWWWWWQQQLLL~~
.CCCCCCCWWWWWWWWWLLLLLL~~
.CCCCCCCHHHWWWWWWLLLLLL~~
.CCSSSCCHHHHHWWWLLLLLLL~~
.SSSSSCCHHHHHHWWLLLLLLL~~
.SSSSSSC.HHHHHWLLLLLLLL~~
.SSSSSS..HHHHHHULLLLLL~~~
.SSSSSS..HHHHUUUUUULLL~~~
.SSSSSSUUUUUUUUUUUUUUU~~~
.SSSSSSUUUUUUUUUUUUUUU~~~
.SSSSSSSUUUUUUUUUUUUUU~~~
..SSSSSSUUUUUUUUUUUUUU~~~
..SSSSSSUUUUUUUUUUUUUU~~~
"""
LEGEND = {
    "C": "Chin", "S": "Shu", "Z": "Zhao", "W": "Wei", "H": "Han",
    "U": "Chu", "Y": "Yan", "Q": "Qi", "L": "Lu",
}
SEA, NOWHERE = "~", "."
COASTAL = {"Yan", "Qi", "Lu", "Chu"}
HARBOUR_TO_SEA = 80  # a harbour's centre at most this far from the sea
# Where each province lies, as the brief for the map says it: checked on the map's cells.
WEST, NORTH, EAST = ("Chin", "Shu"), ("Zhao", "Yan"), ("Yan", "Qi", "Lu")


class Board:
    """A board as far as the map needs it: spaces, provinces, harbours, roads, borders."""

    def __init__(self, name: str, spots: Sequence[str], roads: Sequence[tuple[str, str]],
                 provinces: dict[str, list[str]], harbours: Sequence[str], borders: Sequence[tuple[str, str]],
                 source: Path | None = None) -> None:
        self.name = name
        self.spots = list(spots)
        self.roads = list(roads)
        self.provinces = provinces
        self.harbours = list(harbours)
        self.borders: set[frozenset[str]] = {frozenset(pair) for pair in borders}
        self.source = source  # the rule file that declares it

    @classmethod
    def declared(cls, name: str, data: dict[str, Any], source: Path) -> Board:
        """A board as a rule file declares it (`boards: NAME:`)."""
        graph, regions = data["graph"], data["regions"]
        roads = [(a, b) for path in graph["roads"] for a, b in zip(path, path[1:], strict=False)]
        provinces = {p: list(r["spots"]) for p, r in regions["province"].items()}
        harbours = [s for r in (regions.get("harbour") or {}).values() for s in r["spots"]]
        return cls(name, graph["spots"], roads, provinces, harbours, data["borders"]["province"], source)

    def provinces_of(self, spot: str) -> list[str]:
        return [p for p, spots in self.provinces.items() if spot in spots]


def boards() -> list[Board]:
    """Every board declared in rules/china-schacht/*.yaml (a variant's `~` removes, no more)."""
    found: list[Board] = []
    for path in sorted(RULES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        for name, board in (data.get("boards") or {}).items():
            if isinstance(board, dict) and "graph" in board:
                found.append(Board.declared(name, board, path))
    return found


def positions(board: Board) -> dict[str, Point]:
    """Where the board's spaces are drawn (a space the script does not place is left out)."""
    return {s: SPACES[s] if s in SPACES else POSTS[s] for s in board.spots if s in SPACES or s in POSTS}


# --- the map -------------------------------------------------------------------------------

def cells() -> list[str]:
    return MAP.splitlines()


def cell_at(p: tuple[float, float]) -> str:
    rows = cells()
    r, c = int(p[1] // CELL), int(p[0] // CELL)
    if not (0 <= r < len(rows) and 0 <= c < len(rows[r])):
        return NOWHERE
    return LEGEND.get(rows[r][c], rows[r][c])


def cell_centres(name: str) -> list[tuple[float, float]]:
    return [
        (c * CELL + CELL / 2, r * CELL + CELL / 2)
        for r, row in enumerate(cells()) for c, ch in enumerate(row) if LEGEND.get(ch, ch) == name
    ]


def distance_to_area(p: Point, name: str) -> float:
    """From p to the nearest point of the cells of `name` (0 inside)."""
    best = math.inf
    for cx, cy in cell_centres(name):
        dx = max(abs(p[0] - cx) - CELL / 2, 0.0)
        dy = max(abs(p[1] - cy) - CELL / 2, 0.0)
        best = min(best, math.hypot(dx, dy))
    return best


def map_adjacency() -> set[frozenset[str]]:
    rows = cells()
    pairs: set[frozenset[str]] = set()
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            for r2, c2 in ((r + 1, c), (r, c + 1)):
                if r2 < len(rows) and c2 < len(rows[r2]):
                    other = rows[r2][c2]
                    if other != ch:
                        pairs.add(frozenset((LEGEND.get(ch, ch), LEGEND.get(other, other))))
    return pairs


def one_piece(name: str) -> bool:
    todo = {(int(x // CELL), int(y // CELL)) for x, y in cell_centres(name)}
    if not todo:
        return False
    stack = [todo.pop()]
    while stack:
        c, r = stack.pop()
        for n in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


def check_map() -> list[str]:
    err: list[str] = []
    rows = cells()
    if len(rows) * CELL != BOX or any(len(row) * CELL != BOX for row in rows):
        err.append(f"the map is not {BOX // CELL} rows of {BOX // CELL} cells")
    unknown = {ch for row in rows for ch in row} - set(LEGEND) - {SEA, NOWHERE}
    if unknown:
        err.append(f"the map holds unknown cells {sorted(unknown)}")
    for name in LEGEND.values():
        if not one_piece(name):
            err.append(f"{name}: not one piece on the map")
    if not one_piece(SEA):
        err.append("the sea is not one piece")
    touching = map_adjacency()
    for name in LEGEND.values():
        at_sea = frozenset((name, SEA)) in touching
        if at_sea != (name in COASTAL):
            err.append(f"{name}: {'touches' if at_sea else 'does not touch'} the sea")
    centre = {p: centroid(cell_centres(p)) for p in LEGEND.values()}
    area = {p: len(cell_centres(p)) for p in LEGEND.values()}
    by_x = sorted(centre, key=lambda p: centre[p][0])
    by_y = sorted(centre, key=lambda p: centre[p][1])  # north first
    if set(by_x[:2]) != set(WEST) or centre["Shu"][1] <= centre["Chin"][1]:
        err.append(f"Chin and Shu must lie west, Shu south of Chin: {by_x}")
    if set(by_y[:2]) != set(NORTH) or centre["Yan"][0] <= centre["Zhao"][0]:
        err.append(f"Zhao and Yan must lie north, Yan east of Zhao: {by_y}")
    if set(by_x[-3:]) != set(EAST) or centre["Lu"][1] <= centre["Qi"][1]:
        err.append(f"Yan, Qi and Lu must lie east, Lu south of Qi: {by_x}")
    if by_y[-1] != "Chu" or max(area, key=lambda p: area[p]) != "Chu":
        err.append("Chu must be the south, and the largest")
    if not centre["Zhao"][1] < centre["Wei"][1] < centre["Han"][1] < centre["Chu"][1]:
        err.append("Wei and Han must lie in the middle, Han south of Wei")
    return err


def centroid(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


# --- geometry ------------------------------------------------------------------------------

def crosses(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    def orient(a: Point, b: Point, c: Point) -> int:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def along(a: Point, b: Point, step: float = 4.0) -> Iterator[tuple[float, float]]:
    n = max(1, int(math.dist(a, b) / step))
    for i in range(n + 1):
        yield (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)


def label_box(name: str, at: Point) -> tuple[float, float, float, float]:
    """The box a province's name takes, centred on `at`, and below it the row of what the province
    holds (its emissaries, drawn under its name): (left, top, right, bottom)."""
    width = max(0.62 * LABEL_FONT * len(name) + 8, MARKS_WIDTH)
    return (at[0] - width / 2, at[1] - LABEL_FONT / 2, at[0] + width / 2, at[1] + LABEL_FONT / 2 + MARKS_BELOW)


def box_distance(box: tuple[float, float, float, float], p: tuple[float, float]) -> float:
    left, top, right, bottom = box
    return math.hypot(max(left - p[0], 0.0, p[0] - right), max(top - p[1], 0.0, p[1] - bottom))


def segment_meets_box(a: Point, b: Point, box: tuple[float, float, float, float]) -> bool:
    return any(box_distance(box, p) == 0.0 for p in along(a, b, 2.0))


# --- the checks ----------------------------------------------------------------------------

def figures(board: Board, pos: dict[str, Point] | None = None,
            labels: dict[str, Point] | None = None) -> dict[str, float]:
    """What the checks measure: the smallest distance, the longest road, crossings..."""
    pos = positions(board) if pos is None else pos
    labels = LABELS if labels is None else labels
    segs = [(a, b, pos[a], pos[b]) for a, b in board.roads]
    crossings = sum(
        1 for (a1, b1, p1, q1), (a2, b2, p2, q2) in combinations(segs, 2)
        if not {a1, b1} & {a2, b2} and crosses(p1, q1, p2, q2)
    )
    label_roads = sum(
        1 for p, at in labels.items() for _, _, a, b in segs if segment_meets_box(a, b, label_box(p, at))
    )
    return {
        "min_distance": min(math.dist(pos[a], pos[b]) for a, b in combinations(board.spots, 2)),
        "longest_road": max(math.dist(a, b) for _, _, a, b in segs),
        "mean_road": sum(math.dist(a, b) for _, _, a, b in segs) / len(segs),
        "crossings": crossings,
        "label_roads": label_roads,
        "label_clearance": min(
            box_distance(label_box(p, at), pos[s]) - SIZE / 2 for p, at in labels.items() for s in board.spots
        ),
    }


def verify(board: Board, pos: dict[str, Point] | None = None, labels: dict[str, Point] | None = None) -> list[str]:
    """Every check of one board's positions; returns the failures (empty when all hold)."""
    pos = positions(board) if pos is None else pos
    labels = LABELS if labels is None else labels
    err: list[str] = []
    missing = [s for s in board.spots if s not in pos]
    if missing:
        return [f"no position for {', '.join(missing)}"]
    err += [f"{s}: position of no space" for s in pos if s not in board.spots]
    for s in board.spots:
        x, y = pos[s]
        if not (EDGE <= x <= BOX - EDGE and EDGE <= y <= BOX - EDGE):
            err.append(f"{s} at {pos[s]}: nearer than {EDGE} to the edge")
    for a, b in combinations(board.spots, 2):
        if math.dist(pos[a], pos[b]) < MIN_DISTANCE:
            err.append(f"{a} and {b}: {math.dist(pos[a], pos[b]):.0f} apart, under {MIN_DISTANCE}")
    # Provinces on the map.
    if set(board.provinces) != set(LEGEND.values()):
        err.append(f"provinces {sorted(board.provinces)} are not the map's")
    touching = map_adjacency()
    for pair in board.borders:
        if pair not in touching:
            err.append(f"{'-'.join(sorted(pair))}: a border of the board, not of the map")
    for pair in touching:
        if pair <= set(LEGEND.values()) and pair not in board.borders:
            err.append(f"{'-'.join(sorted(pair))}: touch on the map, no border of the board")
    for s in board.spots:
        provs = board.provinces_of(s)
        here = cell_at(pos[s])
        if len(provs) == 1 and here != provs[0]:
            err.append(f"{s} at {pos[s]} lies in {here}, not {provs[0]}")
        if len(provs) == 2 and (here not in provs or any(distance_to_area(pos[s], p) > SIZE / 2 for p in provs)):
            err.append(f"{s} at {pos[s]}: not on the line between {provs[0]} and {provs[1]}")
    # Example 7: "Le sixième palais, au Sud Ouest de Ch'in": Chin5, on its branch.
    chin = [pos[s] for s in board.provinces.get("Chin", []) if len(board.provinces_of(s)) == 1]
    if chin and "Chin5" in pos:
        cx, cy = centroid(chin)
        x5, y5 = pos["Chin5"]
        if not (x5 < cx and y5 > cy and x5 - y5 == min(x - y for x, y in chin)):
            err.append("Chin5 is not the south-west space of Chin (example 7)")
    for h in board.harbours:
        if distance_to_area(pos[h], SEA) > HARBOUR_TO_SEA:
            err.append(f"harbour {h} at {pos[h]}: more than {HARBOUR_TO_SEA} from the sea")
    # Roads.
    segs = [(a, b, pos[a], pos[b]) for a, b in board.roads]
    for (a1, b1, p1, q1), (a2, b2, p2, q2) in combinations(segs, 2):
        if not {a1, b1} & {a2, b2} and crosses(p1, q1, p2, q2):
            err.append(f"roads {a1}-{b1} and {a2}-{b2} cross")
    for a, b, at_a, at_b in segs:
        if math.dist(at_a, at_b) > MAX_ROAD:
            err.append(f"road {a}-{b}: {math.dist(at_a, at_b):.0f} long, over {MAX_ROAD}")
        for s in board.spots:
            if s not in (a, b) and distance_to_segment(pos[s], at_a, at_b) < ROAD_CLEARANCE:
                err.append(f"road {a}-{b} passes over {s}")
        allowed = set(board.provinces_of(a)) | set(board.provinces_of(b)) | {NOWHERE}
        through = {cell_at(x) for x in along(at_a, at_b)} - allowed
        if through:
            err.append(f"road {a}-{b} runs through {', '.join(sorted(through))}")
    # The provinces' names.
    if set(labels) != set(board.provinces):
        err.append(f"names for {sorted(labels)}, provinces {sorted(board.provinces)}")
    for p, at in labels.items():
        box = label_box(p, at)
        if cell_at(at) != p:
            err.append(f"the name {p} at {at} lies in {cell_at(at)}")
        for s in board.spots:
            if box_distance(box, pos[s]) < SIZE / 2 + LABEL_GAP:
                err.append(f"the name {p} at {at} is on {s}")
        if p in board.provinces:
            nearest = min(board.spots, key=lambda s: math.dist(pos[s], at))
            if p not in board.provinces_of(nearest):
                err.append(f"the name {p} at {at}: its nearest space is {nearest}")
            if min(math.dist(pos[s], at) for s in board.provinces[p]) > 120:
                err.append(f"the name {p} at {at}: not beside its spaces")
        for q, other in labels.items():
            if p < q and box_distance(box, other) < LABEL_FONT:
                err.append(f"the names {p} and {q} meet")
    count = figures(board, pos, labels)["label_roads"]
    if count > MAX_LABEL_ROADS:
        err.append(f"{count:.0f} roads cross the provinces' names, over {MAX_LABEL_ROADS}")
    return err


# --- the rule files ------------------------------------------------------------------------

def flow_points(points: dict[str, Point], lead: str, width: int = 100) -> list[str]:
    """`lead` + a flow mapping of points, wrapped under its brace."""
    items = [f"{k}: [{x}, {y}]" for k, (x, y) in points.items()]
    lines, line, pad = [], lead + "{", " " * (len(lead) + 1)
    for i, item in enumerate(items):
        piece = item + (", " if i < len(items) - 1 else "}")
        if len(line) + len(piece.rstrip()) > width and line.strip() not in ("", lead.strip() + "{"):
            lines.append(line.rstrip())
            line = pad
        line += piece
    return lines + [line]


def boards_block(file: Path, removed: Sequence[str], placed: Sequence[Board]) -> list[str]:
    """The `  boards:` key of `look:` for one rule file: its own boards, and `~` for the removed."""
    lines = [
        "  # Where each space and each province's name is drawn: a map of the Warring States. A",
        "  # RECONSTRUCTION (the rulebook has no picture of the board), made and checked by",
        f"  # {SCRIPT} (hand-made; every space inside its province, at least {MIN_DISTANCE} apart, no",
        "  # road crossing another, no name on a space).",
    ] if placed else [f"  # The boards this variant removes are drawn nowhere ({SCRIPT} writes this)."]
    lines.append("  boards:")
    lines += [f"    {name}: ~" for name in removed]
    for board in placed:
        pos = positions(board)
        lines.append(f"    {board.name}:")
        lines += flow_points(pos, "      spots: ")
        lines += flow_points(dict(LABELS), "      labels: ")
    return lines


def rule_file_text(file: Path, all_boards: list[Board]) -> str | None:
    """The rule file with its `look: boards:` as this script places them (None: nothing to place).
    The block replaces the `boards:` key of `look:` (with the comment lines just above it), or is
    added at the end of `look:`, or a `look:` is added at the end of the file."""
    data = yaml.safe_load(file.read_text())
    declared = data.get("boards") or {}
    removed = [n for n, b in declared.items() if b is None]
    placed = [b for b in all_boards if b.source == file]
    if not placed and not removed:
        return None
    lines = file.read_text().splitlines()
    block = boards_block(file, removed, placed)
    if "look:" not in lines:
        return "\n".join(lines + ["", "look:"] + block) + "\n"
    start = lines.index("look:")
    end = next((i for i in range(start + 1, len(lines)) if lines[i][:1] not in ("", " ", "#")), len(lines))
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    at = next((i for i in range(start + 1, end) if lines[i] == "  boards:"), None)
    if at is None:
        return "\n".join(lines[:end] + block + lines[end:]) + "\n"
    after = next((i for i in range(at + 1, end) if lines[i][:2] == "  " and lines[i][2:3] not in (" ", "#")), end)
    while at > start + 1 and lines[at - 1].startswith("  #"):
        at -= 1
    return "\n".join(lines[:at] + block + lines[after:]) + "\n"


def main(argv: list[str]) -> int:
    write, check = "--write" in argv, "--check" in argv
    all_boards = boards()
    failures = [f"map: {e}" for e in check_map()]
    for board in all_boards:
        failures += [f"{board.name}: {e}" for e in verify(board)]
        f = figures(board)
        print(
            f"{board.name}: {len(board.spots)} spaces, {len(board.roads)} roads; closest spaces"
            f" {f['min_distance']:.0f} apart, longest road {f['longest_road']:.0f} (mean {f['mean_road']:.0f}),"
            f" {f['crossings']:.0f}"
            f" crossings, names {f['label_clearance']:.0f} from the nearest space's disc,"
            f" {f['label_roads']:.0f} roads across a name"
        )
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    stale = []
    for file in sorted(RULES.glob("*.yaml")):
        text = rule_file_text(file, all_boards)
        if text is not None and text != file.read_text():
            if write:
                file.write_text(text)
                print(f"wrote {file.relative_to(ROOT)}")
            else:
                stale.append(str(file.relative_to(ROOT)))
    if check and stale:
        print(f"out of date (run {SCRIPT} --write): {', '.join(stale)}", file=sys.stderr)
        return 1
    print("all checks pass" + ("; rule files up to date" if check else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
