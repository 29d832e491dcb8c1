"""Reconstruct the three boards of Michael Schacht's "China" (Abacus 2005) as data.

The rulebook has no picture of the board, so the geography below is a RECONSTRUCTION:
hand-made data (no random search), laid out on a schematic map of the Warring States
(x grows to the east, y to the north; the coast is the east edge), and checked by code
against every fact the rules give (see ``verify``):

* 9 provinces with the printed names and colours; Chu, the only violet one, is the largest;
  two provinces of the same colour never border each other;
* 4 to 8 palace spaces per province (Wei 7 and Qi 5 for examples 4 and 5, Chu 8 for the
  two-player example, Chin at least 5, Zhao at least 5 for the "3 red and 2 yellow" example);
* every palace space on one road network, each province joined by its own roads;
* exactly 15 borders (the 15 alliances, in their scoring order), and two provinces border
  iff a road joins them; alliance 3 is Wei-Chin and alliance 4 is Chin-Shu (example 6);
* example 7: an unbranched chain of 5 palaces through Chin and Shu, plus a sixth palace
  south-west in Chin on a side branch of a junction in Chin;
* bonus tiles: every province has at least 2 spaces off road junctions (degree <= 2);
* the two faces (3-4 and 4-5 players) share the spaces but not the roads;
* the border-quarrels board: 6 border posts (a space in both provinces, on 6 distinct borders,
  joined by roads to both) and 7 harbours on the east coast;
* roads drawn straight between the schematic positions never cross nor graze another space.

Run it to (re)write ``scripts/schacht_boards/``; ``--check`` only verifies and compares the
files already there.  It exits non-zero if any check fails.  The output is deterministic.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable, Sequence
from itertools import combinations
from pathlib import Path

import yaml

OUT_DIR = Path(__file__).resolve().parent / "schacht_boards"
SCRIPT = "scripts/reconstruct_schacht_boards.py"

Point = tuple[float, float]
Edge = frozenset[str]

# Province: (colour, schematic position of each palace space).  Spot names are <Province><n>.
PROVINCES: dict[str, tuple[str, list[Point]]] = {
    # west
    "Chin": ("yellow", [(2.2, 8.8), (1.0, 7.8), (2.2, 6.6), (1.4, 5.2), (0.4, 4.2), (3.0, 5.4)]),
    # south-west
    "Shu": ("orange", [(1.6, 3.4), (1.2, 2.0), (0.4, 0.8), (2.3, 1.3), (3.1, 0.4)]),
    # north
    "Zhao": ("green", [(3.2, 8.7), (4.3, 9.4), (4.9, 7.9), (5.9, 9.1), (7.0, 8.6), (7.6, 7.7)]),
    # centre
    "Wei": ("red", [(4.2, 5.6), (4.6, 6.8), (5.7, 6.6), (6.5, 5.9), (5.9, 5.0), (7.0, 4.4), (7.4, 6.6)]),
    # centre, south of Wei
    "Han": ("orange", [(3.9, 4.2), (5.0, 4.4), (5.5, 3.3), (4.6, 2.6), (6.5, 3.0)]),
    # south, the largest
    "Chu": ("violet", [(3.9, 0.6), (4.7, 1.5), (5.8, 1.0), (6.9, 1.7), (7.0, 0.4), (8.4, 1.3),
                       (9.8, 1.5), (10.4, 0.5)]),
    # north-east
    "Yan": ("red", [(8.1, 9.3), (9.2, 9.6), (10.3, 9.9), (9.6, 8.6), (11.2, 9.0)]),
    # east coast
    "Qi": ("yellow", [(8.4, 7.2), (9.5, 7.7), (10.7, 7.2), (10.3, 6.1), (9.1, 5.8)]),
    # east / south-east coast
    "Lu": ("green", [(9.4, 4.8), (8.1, 4.1), (10.5, 4.1), (10.0, 3.0), (8.7, 2.6)]),
}

# The 15 alliances in scoring order.  Only 3 (Wei-Chin) and 4 (Chin-Shu) are known (example 6);
# the rest of the numbering is reconstructed: a sweep from the north-west to the south-east.
BORDERS: list[tuple[str, str]] = [
    ("Chin", "Zhao"), ("Zhao", "Wei"), ("Wei", "Chin"), ("Chin", "Shu"), ("Chin", "Han"),
    ("Wei", "Han"), ("Zhao", "Yan"), ("Zhao", "Qi"), ("Yan", "Qi"), ("Wei", "Qi"),
    ("Wei", "Lu"), ("Qi", "Lu"), ("Han", "Chu"), ("Shu", "Chu"), ("Lu", "Chu"),
]

# Roads, each a path (consecutive spots are joined).  Face for 3-4 players.
ROADS_3_4: list[list[str]] = [
    ["Zhao1", "Chin1", "Chin2", "Chin3", "Chin4", "Shu1", "Shu2", "Shu3", "Shu4", "Shu5", "Chu1", "Chu2",
     "Chu3", "Chu5", "Chu6", "Chu8", "Chu7", "Lu5", "Lu4", "Lu3", "Lu1", "Qi5", "Qi4", "Qi3", "Qi2", "Qi1",
     "Wei7", "Wei4", "Wei3", "Wei2", "Wei1", "Chin6", "Chin3"],
    ["Chin4", "Chin5"],
    ["Zhao1", "Zhao2", "Zhao4", "Zhao5", "Yan1", "Yan2", "Yan3", "Yan5", "Yan4", "Qi2"],
    ["Zhao2", "Zhao3", "Wei2"],
    ["Zhao5", "Zhao6", "Qi1"],
    ["Chin6", "Han1", "Han4", "Han3", "Han5", "Chu4", "Chu3"],
    ["Han1", "Han2", "Wei5"],
    ["Wei4", "Wei5", "Wei6", "Lu2", "Lu1"],
]

# Face for 4-5 players: the same spaces, other roads (and other border crossings).
ROADS_4_5: list[list[str]] = [
    ["Zhao2", "Zhao1", "Chin1", "Chin2", "Chin5", "Chin4", "Chin3", "Chin6", "Wei1", "Wei2", "Wei3", "Wei4",
     "Wei7", "Qi5", "Qi4", "Qi3", "Qi2", "Qi1", "Zhao6", "Zhao5", "Zhao4", "Zhao2"],
    ["Zhao1", "Zhao3", "Wei2"],
    ["Zhao4", "Yan1", "Yan4", "Yan2", "Yan3", "Yan5", "Qi3"],
    ["Chin4", "Shu1", "Shu2", "Shu3", "Shu5", "Chu1", "Chu2", "Chu3", "Chu5", "Chu6", "Chu8", "Chu7", "Lu4",
     "Lu3", "Lu1", "Qi5"],
    ["Shu5", "Shu4"],
    ["Chu3", "Chu4"],
    ["Chin6", "Han1", "Han2", "Han3", "Han4", "Chu2"],
    ["Han3", "Han5", "Wei6", "Wei5", "Wei1"],
    ["Wei6", "Lu2", "Lu5", "Lu4"],
]

# Border-quarrels board: the face 3-4 roads, with a border post put on six border roads
# (the road A-B becomes A - post - B).  Named after the border as listed in BORDERS.
POSTS: list[tuple[str, str]] = [
    ("Chin4", "Shu1"), ("Chin6", "Han1"), ("Wei5", "Han2"),
    ("Zhao5", "Yan1"), ("Yan4", "Qi2"), ("Qi5", "Lu1"),
]
HARBOURS = ["Yan5", "Qi3", "Qi4", "Lu3", "Lu4", "Chu7", "Chu8"]
COASTAL = {"Yan", "Qi", "Lu", "Chu"}
COAST_X = 9.5  # harbours lie east of this line of the schematic map

# Example 7 (chain of 5 palaces through Chin and Shu, branch) on each face.
EXAMPLE_7 = {
    "face_3_4": (["Chin2", "Chin3", "Chin4", "Shu1", "Shu2"], "Chin5"),
    "face_4_5": (["Chin6", "Chin3", "Chin4", "Shu1", "Shu2"], "Chin5"),
}
# Examples 4 and 5 fill a province: the palace counts of the players, largest first.
FILLS = {"Wei": (4, 2, 1), "Qi": (2, 2, 1), "Chu": (5, 2, 1)}
SIZES = {"Wei": 7, "Qi": 5, "Chu": 8}
AT_LEAST = {"Chin": 5, "Zhao": 5}
SAME_COLOUR_COUNTS = {"violet": 1, "yellow": 2, "orange": 2, "green": 2, "red": 2}
HARBOUR_FILL = (4, 2, 1)
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Board:
    """One board: spots, positions, province membership, harbours and roads."""

    def __init__(self, name: str, players: list[int], roads: list[list[str]]) -> None:
        self.name = name
        self.players = players  # [min, max], as rule files write it
        self.roads = roads
        self.pos: dict[str, Point] = {}
        self.members: dict[str, list[str]] = {}
        for prov, (_, points) in PROVINCES.items():
            names = [f"{prov}{i + 1}" for i in range(len(points))]
            self.members[prov] = names
            self.pos.update(zip(names, points, strict=True))
        self.posts: list[str] = []
        self.harbours: list[str] = []

    def add_posts(self, splits: Sequence[tuple[str, str]]) -> None:
        """Put a border post in the middle of each road a-b (a path [.., a, b, ..] or [.., b, a, ..])."""
        for a, b in splits:
            pa, pb = province_of(a), province_of(b)
            pair = next((x, y) for x, y in BORDERS if {x, y} == {pa, pb})
            post = f"{pair[0]}_{pair[1]}"
            (xa, ya), (xb, yb) = self.pos[a], self.pos[b]
            self.pos[post] = (round((xa + xb) / 2, 3), round((ya + yb) / 2, 3))
            self.members[pa].append(post)
            self.members[pb].append(post)
            self.posts.append(post)
            self.roads = [split_path(path, a, b, post) for path in self.roads]

    @property
    def spots(self) -> list[str]:
        seen: list[str] = []
        for names in self.members.values():
            seen += [s for s in names if s not in self.posts]
        return seen + self.posts

    def own(self, prov: str) -> list[str]:
        return [s for s in self.members[prov] if s not in self.posts]

    def edges(self) -> list[Edge]:
        return [frozenset(p) for path in self.roads for p in zip(path, path[1:], strict=False)]

    def adjacency(self) -> dict[str, set[str]]:
        adj: dict[str, set[str]] = {s: set() for s in self.spots}
        for e in self.edges():
            a, b = sorted(e)
            adj[a].add(b)
            adj[b].add(a)
        return adj

    def provinces_of(self, spot: str) -> set[str]:
        return {p for p, names in self.members.items() if spot in names}


def province_of(spot: str) -> str:
    return spot.rstrip("0123456789")


def split_path(path: list[str], a: str, b: str, post: str) -> list[str]:
    out = [path[0]]
    for x, y in zip(path, path[1:], strict=False):
        if {x, y} == {a, b}:
            out.append(post)
        out.append(y)
    return out


def connected(nodes: Iterable[str], adj: dict[str, set[str]]) -> bool:
    inside = set(nodes)
    if not inside:
        return False
    start = min(inside)
    seen, stack = {start}, [start]
    while stack:
        for t in adj[stack.pop()] & inside:
            if t not in seen:
                seen.add(t)
                stack.append(t)
    return seen == inside


def road_borders(board: Board) -> set[Edge]:
    found: set[Edge] = set()
    for e in board.edges():
        a, b = sorted(e)
        for pa in board.provinces_of(a):
            for pb in board.provinces_of(b):
                if pa != pb:
                    found.add(frozenset((pa, pb)))
    return found


def crosses(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay, bx, by = *a, *b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def centroid(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def longest_paths(nodes: set[str], adj: dict[str, set[str]]) -> list[list[str]]:
    """Every longest simple path of the subgraph induced by nodes (brute force: tiny graphs)."""
    best: list[list[str]] = []

    def walk(path: list[str]) -> None:
        nonlocal best
        if not best or len(path) > len(best[0]):
            best = [path]
        elif len(path) == len(best[0]):
            best.append(path)
        for t in sorted(adj[path[-1]] & nodes):
            if t not in path:
                walk(path + [t])

    for s in sorted(nodes):
        walk([s])
    return best


def verify(board: Board) -> list[str]:
    """Every constraint of the brief; returns the failures (empty when the board is good)."""
    err: list[str] = []
    spots = board.spots
    # Names and spot sets.
    err += [f"{s}: not an identifier" for s in spots if not IDENT.match(s)]
    if len(set(spots)) != len(spots):
        err.append("duplicate spot names")
    for path in board.roads:
        err += [f"road to unknown spot {s}" for s in path if s not in spots]
        err += [f"self loop at {x}" for x, y in zip(path, path[1:], strict=False) if x == y]
    if err:
        return err
    adj, edges = board.adjacency(), board.edges()
    if len(set(edges)) != len(edges):
        err.append("a road is listed twice")
    # Provinces, colours, sizes.
    if list(board.members) != list(PROVINCES):
        err.append("province names")
    colours = [PROVINCES[p][0] for p in board.members]
    counts = {c: colours.count(c) for c in sorted(set(colours))}
    if counts != dict(sorted(SAME_COLOUR_COUNTS.items())):
        err.append(f"colour counts {counts}")
    if PROVINCES["Chu"][0] != "violet":
        err.append("Chu is not violet")
    own = {p: len(board.own(p)) for p in board.members}
    full = {p: len(board.members[p]) for p in board.members}
    for p in board.members:
        if not 4 <= own[p] <= 8 or not 4 <= full[p] <= 8:
            err.append(f"{p}: {own[p]} own / {full[p]} spaces, not 4-8")
    if any(own[p] >= own["Chu"] for p in own if p != "Chu"):
        err.append("Chu is not strictly the largest province")
    for p, n in SIZES.items():
        if own[p] != n:
            err.append(f"{p} has {own[p]} spaces, the examples need {n}")
    for p, n in FILLS.items():
        if sum(n) != own[p]:
            err.append(f"{p}: the example's palaces {n} do not fill its {own[p]} spaces")
    for p, n in AT_LEAST.items():
        if own[p] < n:
            err.append(f"{p} has {own[p]} spaces, the examples need at least {n}")
    covered = [s for names in board.members.values() for s in names]
    for s in spots:
        k = covered.count(s)
        if k != (2 if s in board.posts else 1):
            err.append(f"{s} lies in {k} provinces")
    # Roads: one network, provinces joined by their own roads, degrees.
    if not connected(spots, adj):
        err.append("road network not connected")
    for p, names in board.members.items():
        if not connected(names, adj):
            err.append(f"{p}: not joined by its own roads")
        low = [s for s in board.own(p) if len(adj[s]) <= 2]
        if len(low) < 2:
            err.append(f"{p}: fewer than 2 spaces off a junction (bonus tiles)")
    degrees = [len(adj[s]) for s in spots]
    if min(degrees) < 1 or max(degrees) > 3:
        err.append(f"road degrees {min(degrees)}..{max(degrees)}, want 1..3")
    if not 1 <= degrees.count(3) <= len(spots) * 2 // 5:
        err.append(f"{degrees.count(3)} junctions: want a few")
    # Borders: 15, as the road network says, same colours never.
    listed = [frozenset(b) for b in BORDERS]
    if len(listed) != 15 or len(set(listed)) != 15 or any(len(b) != 2 for b in listed):
        err.append("the border list is not 15 distinct pairs")
    found = road_borders(board)
    if found != set(listed):
        extra = sorted("-".join(sorted(b)) for b in found - set(listed))
        missing = sorted("-".join(sorted(b)) for b in set(listed) - found)
        err.append(f"borders differ from roads: extra {extra} missing {missing}")
    for a, b in BORDERS:
        if PROVINCES[a][0] == PROVINCES[b][0]:
            err.append(f"{a} and {b} have the same colour and border")
    if BORDERS[2] != ("Wei", "Chin") or BORDERS[3] != ("Chin", "Shu"):
        err.append("alliances 3 and 4 must be Wei-Chin and Chin-Shu (example 6)")
    # Rough geography: province centroids on the schematic map.
    cen = {p: centroid([board.pos[s] for s in board.own(p)]) for p in board.members}
    west = sorted(cen, key=lambda p: cen[p][0])
    if set(west[:2]) != {"Chin", "Shu"} or cen["Shu"][1] >= cen["Chin"][1]:
        err.append("Chin and Shu must be west, Shu south of Chin")
    if min(cen, key=lambda p: cen[p][1]) != "Chu":
        err.append("Chu must be south")
    if set(sorted(cen, key=lambda p: -cen[p][1])[:2]) != {"Zhao", "Yan"} or cen["Yan"][0] <= cen["Zhao"][0]:
        err.append("Zhao and Yan must be north, Yan east of Zhao")
    if set(sorted(cen, key=lambda p: -cen[p][0])[:3]) != {"Yan", "Qi", "Lu"} or cen["Lu"][1] >= cen["Qi"][1]:
        err.append("Yan, Qi and Lu must be east, Lu south of Qi")
    if not cen["Chu"][1] < cen["Han"][1] < cen["Wei"][1] < cen["Zhao"][1]:
        err.append("Han and Wei must be central, Han south of Wei")
    # Straight roads on the schematic map: no crossing, no road grazing another space.
    segs = [(sorted(e), board.pos[min(e)], board.pos[max(e)]) for e in edges]
    for (e1, a1, b1), (e2, a2, b2) in combinations(segs, 2):
        if not set(e1) & set(e2) and crosses(a1, b1, a2, b2):
            err.append(f"roads {e1} and {e2} cross")
    for e, a, b in segs:
        for s in spots:
            if s not in e and distance_to_segment(board.pos[s], a, b) < 0.3:
                err.append(f"road {e} passes over {s}")
    # Example 7.
    if board.name in EXAMPLE_7:
        err += verify_example_7(board, adj, *EXAMPLE_7[board.name])
    # Border posts and harbours.
    if board.posts:
        post_borders = [frozenset(board.provinces_of(p)) for p in board.posts]
        if len(board.posts) != 6 or len(set(post_borders)) != 6:
            err.append("want 6 border posts on 6 distinct borders")
        for post, pair in zip(board.posts, post_borders, strict=True):
            if pair not in listed:
                err.append(f"{post} is not on a border")
            for prov in pair:
                if not adj[post] & set(board.own(prov)):
                    err.append(f"{post}: no road into {prov}")
            named = next(("_".join(b) for b in BORDERS if frozenset(b) == pair), None)
            if post != named:
                err.append(f"{post}: not named after its border")
    if board.harbours:
        hs = board.harbours
        if len(hs) != 7 or len(set(hs)) != 7 or sum(HARBOUR_FILL) != 7:
            err.append("want 7 distinct harbours")
        for h in hs:
            if h in board.posts or h not in spots or province_of(h) not in COASTAL:
                err.append(f"harbour {h} is not a palace space of a coastal province")
            elif board.pos[h][0] < COAST_X:
                err.append(f"harbour {h} is not on the east coast")
    return err


def verify_example_7(board: Board, adj: dict[str, set[str]], chain: list[str], branch: str) -> list[str]:
    err: list[str] = []
    six = set(chain) | {branch}
    if len(chain) != 5 or len(six) != 6:
        err.append("example 7: want 5 chain spaces and a distinct sixth")
    if any(b not in adj[a] for a, b in zip(chain, chain[1:], strict=False)):
        err.append("example 7: the chain does not follow roads")
    if {province_of(s) for s in chain} != {"Chin", "Shu"}:
        err.append("example 7: the chain must run through Chin and Shu only")
    if sum(len(adj[s] & six) for s in six) != 2 * 5:
        err.append("example 7: the six palaces must form a tree of roads")
    junction = [s for s in chain if branch in adj[s]]
    if len(junction) != 1 or province_of(junction[0]) != "Chin" or junction[0] in (chain[0], chain[-1]):
        err.append("example 7: the branch must leave an inner chain space in Chin")
    longest = longest_paths(six, adj)
    if {tuple(p) for p in longest} != {tuple(chain), tuple(reversed(chain))}:
        err.append(f"example 7: longest chains are {longest}, not only the 5-chain")
    chin = [board.pos[s] for s in board.own("Chin")]
    cx, cy = centroid(chin)
    bx, by = board.pos[branch]
    if province_of(branch) != "Chin" or not (bx < cx and by < cy) or min(x + y for x, y in chin) != bx + by:
        err.append("example 7: the sixth palace must be the south-west space of Chin")
    return err


def build() -> list[Board]:
    face34 = Board("face_3_4", [3, 4], ROADS_3_4)
    face45 = Board("face_4_5", [4, 5], ROADS_4_5)
    quarrels = Board("border_quarrels", [3, 5], [list(p) for p in ROADS_3_4])
    quarrels.add_posts(POSTS)
    quarrels.harbours = list(HARBOURS)
    return [face34, face45, quarrels]


def flow(items: Sequence[object]) -> str:
    return "[" + ", ".join(str(i) for i in items) + "]"


def wrapped(lead: str, items: Sequence[str], close: str = "]", width: int = 96) -> list[str]:
    """`lead` (ending in "[") then the items in flow style, continued under the bracket."""
    lines, line = [], lead
    pad = " " * len(lead)
    for i, item in enumerate(items):
        piece = item + (", " if i < len(items) - 1 else close)
        if len(line) + len(piece.rstrip()) > width and line != lead:
            lines.append(line.rstrip())
            line = pad
        line += piece
    return lines + [line]


def emit(board: Board) -> str:
    n = len(board.spots)
    sizes = ", ".join(f"{p} {len(board.members[p])}" for p in board.members)
    head = [
        f"# Michael Schacht's \"China\" (Abacus 2005), {describe(board)}.",
        "# RECONSTRUCTION, not a copy: the rulebook has no picture of the board. Made and checked by",
        f"# {SCRIPT} (hand-made data; the script verifies every constraint and",
        "# exits non-zero if one fails). It satisfies: 9 provinces with the printed names and colours,",
        "# same-colour provinces never border; 4-8 palace spaces each, Chu (violet) the largest;",
        f"# {sizes} ({n} spaces);",
        "# one connected road network, each province joined by its own roads; exactly 15 borders, which",
        "# are the 15 alliances in scoring order (3 = Wei-Chin, 4 = Chin-Shu as in example 6) and",
        "# exactly the province pairs joined by a road; every province has 2+ spaces off road junctions.",
    ]
    if board.name in EXAMPLE_7:
        chain, branch = EXAMPLE_7[board.name]
        head.append(f"# Example 7: chain {'-'.join(chain)}, branch {branch} (south-west of Chin).")
    if board.posts:
        head.append("# Border posts (in both provinces): " + ", ".join(board.posts) + ".")
        head.append("# Harbours (east coast): " + ", ".join(board.harbours) + ".")
    lines = head + [f"{board.name}:", f"  players: {flow(board.players)}", "  graph:"]
    lines += wrapped("    spots: [", board.spots)
    lines.append("    roads:")
    for path in board.roads:
        lines += wrapped("      - [", path)
    lines += ["  regions:", "    province:"]
    for p, names in board.members.items():
        lines += wrapped(f"      {p}: {{colour: {PROVINCES[p][0]}, spots: [", names, "]}")
    if board.harbours:
        lines += ["    harbour:", f"      harbours: {{spots: {flow(board.harbours)}}}"]
    lines += ["  borders:", "    province:"]
    lines += [f"      - [{a}, {b}]".ljust(22) + f"# {i + 1}" for i, (a, b) in enumerate(BORDERS)]
    regions = "{province: 9, harbour: 1}" if board.harbours else "{province: 9}"
    lines += [
        "  expect:",
        f"    spots: {n}",
        f"    regions: {regions}",
        "    region_size: [4, 8]",
        "    connected: true",
        f"    cover_each_spot_once: {'false' if board.posts else 'true'}",
        "    borders: {province: 15}",
        "    borders_match_roads: province",
        "    attribute_counts: {colour: {violet: 1, yellow: 2, orange: 2, green: 2, red: 2}}",
        "    bordering_differ: colour",
    ]
    return "\n".join(lines) + "\n"


def describe(board: Board) -> str:
    if board.posts:
        return "border-quarrels variant board, 3-5 players"
    return f"board face for {board.players[0]}-{board.players[1]} players"


def check_yaml(board: Board, text: str) -> list[str]:
    """The written YAML must read back as exactly the board's data."""
    data = yaml.safe_load(text)
    err: list[str] = []
    if list(data) != [board.name]:
        return [f"{board.name}: YAML top level {list(data)}"]
    b = data[board.name]
    if b["graph"]["spots"] != board.spots or b["graph"]["roads"] != board.roads:
        err.append(f"{board.name}: YAML graph differs")
    prov = b["regions"]["province"]
    want = {p: {"colour": PROVINCES[p][0], "spots": names} for p, names in board.members.items()}
    if prov != want:
        err.append(f"{board.name}: YAML provinces differ")
    if [tuple(x) for x in b["borders"]["province"]] != BORDERS:
        err.append(f"{board.name}: YAML borders differ")
    if board.harbours and b["regions"]["harbour"] != {"harbours": {"spots": board.harbours}}:
        err.append(f"{board.name}: YAML harbours differ")
    if b["expect"]["spots"] != len(board.spots):
        err.append(f"{board.name}: YAML spot count differs")
    if max(len(line) for line in text.splitlines()) > 100 or len(text.splitlines()) >= 80:
        err.append(f"{board.name}: YAML too wide or too long")
    return err


def junctions(board: Board) -> int:
    return sum(1 for roads in board.adjacency().values() if len(roads) == 3)


def readme(boards: list[Board]) -> str:
    face34, face45, quarrels = boards
    wei, qi, chu = face34.own("Wei"), face34.own("Qi"), face34.own("Chu")
    lines = [
        "# Michael Schacht's *China*: reconstructed boards",
        "",
        f"Written by `{SCRIPT}` (run it again to rewrite these files; `--check` verifies them).",
        "The rulebook has no picture of the board: the geography is a **reconstruction**, hand-made",
        "on a schematic map of the Warring States (Chin west, Shu south-west, Chu south, Wei and Han",
        "in the centre, Zhao north, Yan north-east, Qi and Lu on the east coast) and checked by the",
        "script against every fact the rules give.",
        "",
        "## Choices",
        "",
        "- Both faces (`face_3_4`, `face_4_5`) have the **same 52 palace spaces** and the same 15",
        "  borders in the same order; they differ in their **roads** (and so in which spaces carry the",
        "  border crossings). Sources disagree whether the spaces differ too; we keep them equal.",
        "- Alliances 3 (Wei-Chin) and 4 (Chin-Shu) come from example 6; the other numbers are a",
        "  sweep from the north-west to the south-east.",
        "- `border_quarrels` takes the `face_3_4` roads and puts a border post in the middle of six",
        "  border roads (Chu has none, so every province, posts counted, keeps 4-8 spaces and",
        "  `region_size: [4, 8]` holds); its 7 harbours are on the east coast (Yan, Qi, Lu, Chu).",
        "- Every province has at least 2 spaces with at most 2 roads, for the bonus tiles",
        "  (mini-extension: \"not at an intersection of several roads\"). Spaces have 1-3 roads.",
        "- Junctions: 15 borders between 9 provinces force at least 7 independent road cycles, hence",
        f"  at least 12 spaces with 3 roads; `face_3_4` has {junctions(face34)}, `face_4_5` {junctions(face45)}.",
        "- Positions (in the script only) place each space on a schematic map; roads drawn straight",
        "  between them never cross, so the network is planar as drawn.",
        "",
        "## Examples of the rulebook",
        "",
        f"- Example 4: Wei has 7 spaces; Alex {', '.join(wei[:4])}, Barbara {', '.join(wei[4:6])},"
        f" Doris {wei[6]} fill it (4+2+1).",
        f"- Example 5: Qi has 5 spaces; Barbara {', '.join(qi[:2])}, Chris {', '.join(qi[2:4])},"
        f" Doris {qi[4]} fill it (2+2+1).",
        "- Example 6: alliance 3 is Wei-Chin, alliance 4 is Chin-Shu.",
        f"- Two-player example: Chu has 8 spaces ({', '.join(chu[:5])}; {chu[5]}; {', '.join(chu[6:])}"
        " for 5+1+2).",
    ]
    for board in (face34, face45):
        chain, branch = EXAMPLE_7[board.name]
        junction = next(s for s in chain if branch in board.adjacency()[s])
        lines.append(
            f"- Example 7 on `{board.name}`: Doris's unbranched chain {' - '.join(chain)} (5 palaces,"
            f" Chin and Shu); the sixth palace {branch}, the south-west space of Chin, hangs on the"
            f" junction {junction} and is not counted."
        )
    hs = quarrels.harbours
    lines += [
        f"- Harbour example (`border_quarrels`): harbours {', '.join(hs)}; Archibald"
        f" {', '.join(hs[:4])}, Barnabe {', '.join(hs[4:6])}, Claire {hs[6]} (4+2+1: 7, 4, 2 points).",
        "",
        "## Province sizes",
        "",
        "| province | colour | face_3_4 / face_4_5 | border_quarrels (own + posts) |",
        "|---|---|---|---|",
    ]
    for p, (colour, _) in PROVINCES.items():
        posts = [s for s in quarrels.members[p] if s in quarrels.posts]
        extra = f" + {len(posts)} ({', '.join(posts)})" if posts else ""
        lines.append(f"| {p} | {colour} | {len(face34.own(p))} | {len(quarrels.own(p))}{extra} |")
    lines += [
        f"| total | | {len(face34.spots)} | {len(quarrels.spots)} |",
        "",
        "## Borders (alliances in scoring order)",
        "",
        " ".join(f"{i + 1}. {a}-{b}" for i, (a, b) in enumerate(BORDERS)),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    check_only = "--check" in argv
    boards = build()
    files: dict[str, str] = {}
    failures: list[str] = []
    for board in boards:
        failures += [f"{board.name}: {e}" for e in verify(board)]
        text = emit(board)
        failures += check_yaml(board, text)
        files[f"{board.name}.yaml"] = text
    files["README.md"] = readme(boards)
    for board in boards:
        sizes = " ".join(f"{p}={len(n)}" for p, n in board.members.items())
        roads, forks = len(board.edges()), junctions(board)
        print(f"{board.name}: {len(board.spots)} spots, {roads} roads, {forks} junctions; {sizes}")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    if check_only:
        stale = [n for n, t in files.items() if not (OUT_DIR / n).is_file() or (OUT_DIR / n).read_text() != t]
        if stale:
            print(f"out of date: {', '.join(stale)}", file=sys.stderr)
            return 1
        print("all checks pass; files up to date")
        return 0
    OUT_DIR.mkdir(exist_ok=True)
    for n, t in files.items():
        (OUT_DIR / n).write_text(t)
    print(f"all checks pass; wrote {', '.join(files)} in {OUT_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
