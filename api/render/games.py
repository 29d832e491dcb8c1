"""The drawings of the bundled games, written for each (`DRAWINGS`, by game id): Cornett's China
(the hexagonal board with each spot's marker, mountain and river), Schacht's China (province by
province), Mandarin (the ring of sections), Chang Cheng (its wall face by face) and Yellow &
Yangtze (its map of tiles, leaders and pagodas). Each reads fields by the names its rules give
them: a variant that renames one falls back to the listing (render_state)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from ..compiler.names import table_constant
from ..runtime.boards import HexBoard, HexMapBoard, WallBoard
from ..runtime.errors import whole_number
from ..runtime.state import State
from ..terminal import seat_name
from .boards import draw_hex_board, region_names_of
from .listing import WIDTH, field_lines, final_scores, heading, render_generic

# -- Cornett's China ---------------------------------------------------------------------------
MARKER_GLYPHS = {"face_down": "·", "gold_side": "$", "removed": " "}


def render_china(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """The board of China: every spot as `E3 ·M8/R4` (label, marker, mountain/river), where
    the marker is `·` face down, `$` gold side up, blank once removed; then the tablets
    still thrown, this turn's roll and each player's gold. When that drawing is wider than
    `width`, spots show only label and marker, and the regions are drawn on a second board
    below (listed, if even that is too wide)."""
    board = state.board
    if not isinstance(board, HexBoard):  # China is drawn on a hexagon; anything else as a listing
        return render_generic(state, viewer, width)
    info = state.game.info
    fields: Any = state  # the generated subclass declares these
    marker: Sequence[int] = fields.marker
    gold: Sequence[int] = fields.gold
    tablets: frozenset[int] = fields.tablets
    roll: int = fields.roll
    values = state.ENUMS.get("marker", ("face_down", "gold_side", "removed"))
    glyphs = [MARKER_GLYPHS.get(v, v[:1]) for v in values]
    label_width = max(len(label) for label in board.labels)

    def cell(spot: int) -> str:
        regions = "/".join(region_names_of(board, spot))
        return f"{board.labels[spot]:<{label_width}} {glyphs[marker[spot]]}{regions}"

    def short_cell(spot: int) -> str:
        return f"{board.labels[spot]:<{label_width}} {glyphs[marker[spot]]}"

    drawing = draw_hex_board(board, cell)
    regions_listed: list[str] = []
    if width is not None and max(len(line) for line in drawing) > width:
        drawing = draw_hex_board(board, short_cell)
        # the regions as a second board of the same shape, each spot's `M1/R7` where it lies
        regions_drawn = draw_hex_board(board, lambda spot: "/".join(region_names_of(board, spot)))
        if max(len(line) for line in regions_drawn) <= width:
            regions_listed = ["", f"{'/'.join(board.kinds)} of each spot, on the same board:", *regions_drawn]
        else:
            for k, kind in enumerate(board.kinds):
                groups = [
                    f"{name} " + " ".join(board.labels[s] for s in board.region_spots[r])
                    for r, name in enumerate(board.region_names) if board.region_kind[r] == k
                ]
                regions_listed += textwrap.wrap(f"{kind}s: " + "; ".join(groups), width, subsequent_indent="    ")

    counts = [sum(1 for m in marker if m == v) for v in range(len(values))]
    in_play = " ".join(state.label("tablet", t) for t in sorted(tablets)) or "none (all in the box)"
    lines = [heading(state)]
    lines.append(f"tablets in play: {in_play}    roll: {roll}")
    lines.append("gold: " + "    ".join(f"{seat_name(info, p)} {g}" for p, g in enumerate(gold)))
    counted = zip(counts, values, strict=True)
    lines.append("markers: " + ", ".join(f"{n} {v.replace('_', ' ')}" for n, v in counted))
    lines.append("")
    lines.extend(drawing)
    lines.append("")
    kinds = "" if regions_listed else ", " + "/".join(board.kinds)
    lines.append(f"spot: label, marker (· face down, $ gold side, blank removed){kinds}")
    lines.extend(regions_listed)
    return "\n".join(lines)


# -- Schacht's China ---------------------------------------------------------------------------
def render_schacht(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """China (Schacht) province by province: its colour, each palace space with its owner
    (`·` free), the emissaries on its dragon space and its score token; then the cards the
    viewer may see, the supplies and the score track. Fields of a variant that are not drawn
    here (fortifications, tiles, influence) are listed after, as the generic listing does."""
    board = state.board
    player = viewer if viewer is not None else (state.to_act() or 0)
    seen = state.observation(player)["fields"]

    def who(items: Sequence[str | int]) -> str:
        return " ".join(str(x) for x in items) or "·"

    province_kind = board.kinds.index("province")
    colour_of = board.region_attributes[0] if board.region_attributes else ()
    lines = [heading(state), ""]

    def spaces(r: int) -> str:
        """The palace spaces of region `r` in order, `-` between two joined by a road; then its
        other roads: inside it (`also Chin3-Chin6`) and out of it (`to Chin1-Zhao1`)."""
        spots = list(board.region_spots[r])
        inside = set(spots)
        text = ""
        for k, s in enumerate(spots):
            if k:
                text += "-" if s in board.neighbours[spots[k - 1]] else " "
            text += f"{board.labels[s]}:{who(seen['palace_of'][board.labels[s]])}"
        also = [f"{board.labels[s]}-{board.labels[n]}" for k, s in enumerate(spots) for n in board.neighbours[s]
                if n in inside and s < n and not (k + 1 < len(spots) and spots[k + 1] == n)
                and not (k > 0 and spots[k - 1] == n)]
        out = [f"{board.labels[s]}-{'/'.join(board.labels[n] for n in board.neighbours[s] if n not in inside)}"
               for s in spots if any(n not in inside for n in board.neighbours[s])]
        roads = ([f"also {' '.join(also)}"] if also else []) + ([f"roads out {' '.join(out)}"] if out else [])
        return text + ("\n" + "; ".join(roads) if roads else "")

    for r in board.regions_of_kind[province_kind]:
        name = board.region_names[r]
        colour = state.label("colour", colour_of[r]) if colour_of and colour_of[r] >= 0 else ""
        token = "  [scored]" if seen["scored"][name] else ""
        text = f"{name} ({colour}){token}  emissaries: {who(seen['emissaries'][name])}  palaces: {spaces(r)}"
        for k, part in enumerate(text.split("\n")):
            lines += textwrap.wrap(part, width or WIDTH, initial_indent="    " if k else "",
                                   subsequent_indent="    ", break_on_hyphens=False)
    for k, kind in enumerate(board.kinds):  # other kinds of regions (border quarrels' harbours)
        for r in board.regions_of_kind[k] if k != province_kind else ():
            text = f"{board.region_names[r]} ({kind}): {spaces(r)}"
            for i, part in enumerate(text.split("\n")):
                lines += textwrap.wrap(part, width or WIDTH, initial_indent="    " if i else "",
                                       subsequent_indent="    ", break_on_hyphens=False)
    lines.append("")
    drawn = {"palace_of", "emissaries", "scored"}
    for name, value in seen.items():
        if name not in drawn:
            lines.extend(field_lines(name, next(f.per for f in state.FIELDS if f.name == name), value,
                                      width or WIDTH, state._labels("player")))
    lines.append("palaces: space:owner (· free), `-` a road between two spaces; below, a province's other roads")
    return "\n".join(lines)


# -- Mandarin ----------------------------------------------------------------------------------
def render_mandarin(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """Mandarin's ring of 12 sections of 3 squares, clockwise from the rat: down the left
    column, then up the right, so that the pig sits beside the rat as on the board. Each
    square shows its mandarins, the middle one (`*`) is the Chinese-character square, and a
    section held by a player (3 tiles or more of its animal) shows who collects its rent.
    Then each player's card (tiles by animal, `E` the Emperor) and money as the viewer sees
    them, the tiles on the board (`?` fell plain side up), the dispenser's count, the sale."""
    import sys

    board = state.board
    player = viewer if viewer is not None else (state.to_act() or 0)
    seen = state.observation(player)["fields"]
    fields: Any = state
    # the tiles' attributes, in the generated module of the rule set (or of the base it extends)
    module = next((m for m in (sys.modules.get(c.__module__) for c in type(state).__mro__)
                   if hasattr(m, table_constant("tile", "animal"))), None)
    tile_animal: Sequence[int] = getattr(module, table_constant("tile", "animal"))  # AttributeError: the listing
    tile_emperor: Sequence[bool] = getattr(module, table_constant("tile", "emperor"))
    animals = state.ENUMS["animal"]
    seats = state._labels("player")
    section_kind = board.kinds.index("section")
    sections = list(board.regions_of_kind[section_kind])[:len(animals)]
    characters = {s for k, kind in enumerate(board.kinds) if kind == "character"
                  for r in board.regions_of_kind[k] for s in board.region_spots[r]}

    def tile(label: object) -> int | None:
        """The tile a label names (`tile10`), None for one hidden from the viewer."""
        number = whole_number(str(label).removeprefix("tile"))
        return number - 1 if label is not None and number is not None else None

    cards = [[tile(t) for t in seen["card"][p]] for p in range(state.num_players)]
    holds = [[sum(1 for t in card if t is not None and tile_animal[t] == a) for a in range(len(animals))]
             for card in cards]
    positions = seen["position"]

    def square(s: int) -> str:
        label = board.labels[s]
        here = " ".join(seats[p] for p in range(state.num_players) if positions[p] == label) or "·"
        return f"{label}{'*' if s in characters else ''} {here}"

    square_width = max(len(square(s)) for s in board.spots)
    controller = getattr(state, "controller", None)  # the rules' own word on who holds a section

    def cell(a: int) -> str:
        squares = [square(s).ljust(square_width) for s in board.region_spots[sections[a]]]
        owners = ([seats[p] for p in controller(a)] if callable(controller)
                  else [seats[p] for p in range(state.num_players) if holds[p][a] >= 3])
        rent = f" rent to {'/'.join(owners)}" if owners else ""
        return (f"{animals[a]:<8}" + " ".join(squares) + rent).rstrip()

    half = (len(animals) + 1) // 2
    left = [cell(a) for a in range(half)]
    right = [cell(a) for a in reversed(range(half, len(animals)))]
    column = max(len(c) for c in left) + 2
    lines = [heading(state), ""]
    if column + max((len(c) for c in right), default=0) <= (width or WIDTH):
        lines.append("the ring, clockwise: down the left, up the right (* a character square)")
        for k in range(half):
            lines.append((left[k].ljust(column) + (right[k] if k < len(right) else "")).rstrip())
    else:
        lines.append("the ring, clockwise from the rat (* a character square)")
        lines += [cell(a) for a in range(len(animals))]
    lines.append("")
    for p in range(state.num_players):
        money = seen["money"][p]
        by_animal = []
        for a, name in enumerate(animals):
            if holds[p][a]:
                emperor = "E" if any(t is not None and tile_animal[t] == a and tile_emperor[t]
                                     for t in cards[p]) else ""
                by_animal.append(f"{name} {holds[p][a]}{emperor}")
        text = (f"{seat_name(state.game.info, p)}: {'?' if money is None else money} yuans; card: "
                + (", ".join(by_animal) or "empty"))
        lines += textwrap.wrap(text, width or WIDTH, subsequent_indent="    ")
    out = [tile(t) for t in seen["out"]]
    shown = " ".join("?" if t is None else animals[tile_animal[t]] + ("(E)" if tile_emperor[t] else "")
                     for t in out) or "none"
    lines.append("")
    lines.append(f"on the board: {shown}    in the dispenser: {len(fields.dispenser)}    die: {seen['last_roll']}"
                 + (f", then {seen['away_roll']}" if seen.get("away_roll") else ""))
    sale = seen["sale"]
    if isinstance(sale, dict) and not sale.get("over", True):
        high = f"{sale['high_bid']} by {sale['high_bidder']}" if sale.get("high_bidder") else "none yet"
        turn = f"{sale['bidder']} to bid; " if sale.get("bidder") else ""
        lines.append(f"sale: {turn}highest bid {high}; still in: {' '.join(map(str, sale['in'])) or '-'}; "
                     f"minimum {sale['minimum']}, step {sale['step']}")
    drawn = {"money", "card", "out", "position", "last_roll", "away_roll", "sale", "bank_paid_out",
             "bank_received"}
    per = {f.name: f.per for f in state.FIELDS}
    for name, value in seen.items():  # what else the rules keep, when it holds something
        if name not in drawn and value not in ([], {}, None, 0, "") and not (name == "stage" and value == "arriving"):
            lines.extend(field_lines(name, per.get(name), value, width or WIDTH, seats))
    return "\n".join(lines)


# -- Chang Cheng -------------------------------------------------------------------------------
WALL_BLOCKS = {"single": "", "double": "=", "tower": "T", "ruin": "x"}  # after the builder's name


def _chang_cheng_faces(state: State, seen: dict[str, Any], player: int, width: int) -> list[str]:
    """The faces of the wall, left to right: a row of space labels, a row of what stands on
    each, a row of provinces and one of Mongol regions (each a span under its spaces); then
    each province and each Mongol region of the face with its tokens and cards."""
    board = state.board
    assert isinstance(board, WallBoard)
    faces = {name: i for i, name in enumerate(board.face_names)}
    layout = [str(name) for name in seen.get("layout") or ()]
    block_at: dict[str, Any] = seen.get("block_at") or {}
    builder: dict[str, Any] = seen.get("builder") or {}
    reserved: dict[str, Any] = seen.get("reserved") or {}
    backs: dict[str, Any] = seen.get("backs") or {}
    tokens: dict[str, Any] = seen.get("province_token") or {}
    protected: dict[str, Any] = seen.get("protected") or {}
    has_peril: dict[str, Any] = seen.get("has_peril") or {}
    face_up: dict[str, Any] = seen.get("face_up_peril") or {}
    emperor_on = {str(r) for r in seen.get("emperor_on") or ()}
    owed = [str(r) for r in seen.get("emperor_owed") or ()]
    own_placed = (seen.get("placed") or [None] * (player + 1))[player] or []
    own_sightings = (seen.get("sightings") or [None] * (player + 1))[player] or []
    seen_threat = {str(x.get("watched")): x.get("threat") for x in own_sightings if isinstance(x, dict)}
    kinds = [k for k in ("province", "mongol") if k in board.kinds]

    def cell(label: str) -> str:
        block = block_at.get(label)
        if block in (None, "empty"):
            keeper = reserved.get(label)
            return f">{keeper}" if keeper is not None else "·"
        return f"{builder.get(label) or '?'}{WALL_BLOCKS.get(str(block), str(block)[:1])}"

    def province_text(name: str) -> str:
        token = tokens.get(name)
        parts = [f"reputation {token}" if token is not None else "no reputation token"]
        if name in emperor_on:
            parts.append("protected, Emperor card")
        elif protected.get(name):
            parts.append("protected, waiting for an Emperor card" if name in owed else "protected")
        mine = [str(c.get("kind")) for c in own_placed if isinstance(c, dict) and c.get("at") == name]
        shown = []
        for owner in backs.get(name) or ():
            if str(owner) == f"P{player + 1}" and mine:
                shown.append(f"{owner}({mine.pop(0)})")
            else:
                shown.append(str(owner))
        if shown:
            parts.append("cards: " + " ".join(shown))
        return "; ".join(parts)

    def mongol_text(name: str) -> str:
        if face_up.get(name) is not None:
            return f"peril {face_up[name]}, face up"
        if not has_peril.get(name, False):
            return "no peril token"
        return f"peril ? (you saw {seen_threat[name]})" if name in seen_threat else "peril ? (face down)"

    labels = [board.labels[s] for f in layout if f in faces for s in board.face_spots[faces[f]]]
    column = max([len(x) for x in labels] + [len(cell(x)) for x in labels] + [1]) + 1
    per_row = max(1, (width - 2) // column)
    lines: list[str] = []
    for name in layout:
        f = faces.get(name)
        if f is None:
            lines.append(f"{name}: hidden")
            continue
        spots = board.face_spots[f]
        lines.append(f"{name} (piece {board.piece_names[board.face_piece[f]]}):")
        for start in range(0, len(spots), per_row):
            chunk = spots[start:start + per_row]
            lines.append(("  " + "".join(board.labels[s].ljust(column) for s in chunk)).rstrip())
            lines.append(("  " + "".join(cell(board.labels[s]).ljust(column) for s in chunk)).rstrip())
            for k in kinds:
                kind = board.kinds.index(k)
                row = "  "
                for i, s in enumerate(chunk):
                    region = board.region_of[kind][s]
                    if region < 0:
                        row += " " * column
                        continue
                    if i and board.region_of[kind][chunk[i - 1]] == region:
                        continue
                    span = sum(1 for t in chunk[i:] if board.region_of[kind][t] == region) * column
                    row += (board.region_names[region] + " " + "-" * span)[:span - 1] + " "
                lines.append(row.rstrip())
        for k in kinds:
            kind = board.kinds.index(k)
            for r in board.regions_touching(spots, kind):
                name_r = board.region_names[r]
                text = province_text(name_r) if k == "province" else mongol_text(name_r)
                lines += textwrap.wrap(f"  {name_r}: {text}", width, subsequent_indent="      ")
    return lines


def render_chang_cheng(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """Chang Cheng's wall, face by face from its left end: each space with what stands on it
    (`P1` a single section of P1, `P1=` half of his double, `P1T` his tower, `P1x` a ruin,
    `·` empty, `>P2` kept for P2), the provinces and Mongol regions under it, each province
    with its reputation token, Emperor card and the backs of the cards laid there (the
    viewer's own by name), each region with its peril token as the viewer knows it; then the
    pieces not laid, each player's supplies, the last protection, the turn so far, and the
    scores once the game is over. Drawn from the viewer's observation only."""
    board = state.board
    if not isinstance(board, WallBoard):
        return render_generic(state, viewer, width)
    width = width or WIDTH
    player = viewer if viewer is not None else (state.to_act() or 0)
    seen = state.observation(player)["fields"]
    info = state.game.info
    lines = [heading(state), ""]
    layout = [str(name) for name in seen.get("layout") or ()]
    lines += textwrap.wrap("the wall, left to right: " + (" | ".join(layout) or "no face laid"), width,
                           subsequent_indent="    ")
    lines.append("")
    lines += _chang_cheng_faces(state, seen, player, width)
    laid = {board.face_piece[f] for f, name in enumerate(board.face_names) if name in layout}
    waiting = [f"{p} ({'/'.join(board.face_names[f] for f, q in enumerate(board.face_piece) if q == i)})"
               for i, p in enumerate(board.piece_names) if i not in laid]
    lines.append("")
    lines += textwrap.wrap("spaces: P1 single section, P1= double, P1T tower, P1x ruin, · empty, >P2 kept for P2",
                           width, subsequent_indent="    ")
    lines += textwrap.wrap(f"pieces not laid: {', '.join(waiting) or 'none'}", width, subsequent_indent="    ")
    lines.append("")

    def of(name: str, p: int) -> Any:
        values = seen.get(name)
        return values[p] if isinstance(values, list) and p < len(values) else None

    for p in range(state.num_players):
        parts = [f"{of('points', p)} points" if of("points", p) is not None else "points ?"]
        if of("singles", p) is not None:
            parts.append(f"{of('singles', p)} singles")
        if of("double_left", p) is not None:
            parts.append("double" if of("double_left", p) else "double used")
        if of("tower_left", p) is not None:
            parts.append("tower" if of("tower_left", p) else "tower used")
        hand = of("hand", p)
        laid_cards = sum(1 for owners in (seen.get("backs") or {}).values() for o in owners or ()
                         if str(o) == f"P{p + 1}")
        if hand is not None:
            order = {c: i for i, c in enumerate(state.ENUMS.get("card", ()))}  # by priority
            in_hand = sorted((str(c) for c in hand), key=lambda c: (order.get(c, len(order)), c))
            parts.append("cards in hand: " + (" ".join(in_hand) or "none"))
            placed = [c for c in of("placed", p) or () if isinstance(c, dict)]
            if placed:
                parts.append("face down: " + ", ".join(f"{c.get('kind')} in {c.get('at')}" for c in placed))
        elif "hand" in seen:
            parts.append(f"cards in hand hidden; {laid_cards} face down")
        lines += textwrap.wrap(f"{seat_name(info, p)}: " + "; ".join(parts), width, subsequent_indent="    ")
    for name in state.NEUTRAL:  # a neutral colour's walls (the two-player rules' grey)
        if "neutral_singles" in seen:
            lines.append(f"{name} (neutral): {seen['neutral_singles']} singles")
    revealed = seen.get("revealed") or []
    if revealed:
        shown = " ".join(f"{c.get('owner')} {c.get('kind')}" for c in revealed if isinstance(c, dict))
        provinces = sorted({str(c.get("at")) for c in revealed if isinstance(c, dict)})
        text = f"last protection ({', '.join(provinces)}): revealed {shown}"
        if seen.get("cancelled"):
            text += f"; cancelled {' '.join(map(str, seen['cancelled']))}"
        if seen.get("eliminated"):
            text += f"; eliminated {' '.join(map(str, seen['eliminated']))}"
        lines += textwrap.wrap(text, width, subsequent_indent="    ")
    if seen.get("events"):
        lines.append("events in play: " + ", ".join(str(e).replace("_", " ") for e in seen["events"]))
    move = seen.get("move_kind")
    if move not in (None, "no_move"):
        where = " ".join(str(r) for r in seen.get("move_provinces") or ())
        lines.append(f"this turn so far: {str(move).replace('_', ' ')}" + (f" in {where}" if where else ""))
    if seen.get("first_turn"):
        lines.append("first turn: the first player places one single section only")
    drawn = {"layout", "block_at", "builder", "reserved", "backs", "province_token", "protected", "has_peril",
             "face_up_peril", "emperor_on", "emperor_owed", "placed", "sightings", "points", "singles",
             "double_left", "tower_left", "hand", "revealed", "cancelled", "eliminated", "events", "move_kind",
             "move_provinces", "first_turn", "game_over", "pieces_added", "passes", "neutral_singles"}
    per = {f.name: f.per for f in state.FIELDS}
    for name, value in seen.items():  # what else the rules keep (a variant's fields), when it holds something
        if name in drawn:
            continue
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if v not in (None, 0, False, [], "", "empty", "none")}
        if value not in ([], {}, None, 0, False, "") and not (isinstance(value, list) and not any(value)):
            lines.extend(field_lines(name, per.get(name), value, width, state._labels("player")))
    if state.is_terminal():
        lines += final_scores(state, info, "final scores:", width)
    return "\n".join(lines)


# -- Yellow & Yangtze ----------------------------------------------------------------------------
YY_LETTERS = {"governor": "G", "soldier": "S", "merchant": "M", "peasant": "P", "artisan": "A"}


YY_COLOURS = {"governor": "black", "soldier": "red", "merchant": "green", "peasant": "blue", "artisan": "yellow"}


YY_QUESTIONS = {  # what each decision a conflict or a pagoda asks is about
    "governors": "how many governor tiles from behind the screen to add to his side of the revolt",
    "soldiers": "how many soldier tiles from behind the screen to send to the war",
    "soldier_leader": "whether his soldier leader, off the board, joins the war too",
    "governor_leader": "whether his governor leader, off the board, adds its point of strength",
    "support": "which side to support (a side is named by the cell of its first leader in conflict)",
    "winning_side": "which of the tied sides wins",
    "lost_soldier": "which soldier tile the winning state loses",
    "moved_pagoda": "which pagoda of this colour (named by its first cell) moves to the new triangle",
}


def _yy_kind_counts(kinds: Sequence[str], tiles: Sequence[int]) -> str:
    """`governor 2, peasant 1` for the tiles (by index) of a rack or the market."""
    counts = [sum(1 for t in tiles if t == k) for k in range(len(kinds))]
    return ", ".join(f"{kinds[k]} {n}" for k, n in enumerate(counts) if n) or "none"


def render_yellow_yangtze(state: State, viewer: int | None = None, width: int | None = None) -> str:
    """Yellow & Yangtze's map as it lies (11 rows of 16 hexes, odd rows shifted half a cell
    right), each cell in 4 columns: `.` land, `~` river, `*` a capital, a tile by the letter of
    its kind (`G` governor ... `A` artisan), a leader as its owner's seat and kind (`2s`: P2's
    soldier leader), `^` a tile under a pagoda, `!` the reunification marker; rows lettered and
    columns numbered so a player can type a cell (`E4`). Then the pagodas, the market, the bag
    and box, each player's screen (the viewer's own tiles and points by kind, the others' as how
    many tiles), the leaders off the board, the conflict being fought with each side's strength
    and the question a move waits for, the turn so far; the scores once the game is over.
    Drawn from the viewer's observation only."""
    import sys

    board = state.board
    if not isinstance(board, HexMapBoard):
        return render_generic(state, viewer, width)
    width = width or WIDTH
    player = viewer if viewer is not None else (state.to_act() or 0)
    observed = state.observation(player)
    seen = observed["fields"]
    info = state.game.info
    seats = list(state._labels("player"))
    kinds = list(state.ENUMS["kind"])
    # the tiles' kinds, in the generated module of the rule set (or of the base it extends)
    module = next((m for m in (sys.modules.get(c.__module__) for c in type(state).__mro__)
                   if hasattr(m, table_constant("tile", "kind"))), None)
    tile_kind: Sequence[int] = getattr(module, table_constant("tile", "kind"))  # AttributeError: the listing

    def kind_of(label: object) -> int | None:
        """The kind of the tile a label names (`tile10`), None for one hidden from the viewer."""
        number = whole_number(str(label).removeprefix("tile"))
        return tile_kind[number - 1] if label is not None and number is not None else None

    def letter(kind: str) -> str:
        return YY_LETTERS.get(kind, kind[:1].upper())

    tile_on: dict[str, Any] = seen["tile_on"]
    chief_on: dict[str, Any] = seen["chief_on"]
    pagodas = [g for g in seen.get("pagodas") or () if isinstance(g, dict)]
    under_pagoda = {str(c) for g in pagodas for c in g.get("cells") or ()}
    marker = seen.get("reunification")
    moving = seen.get("lifted")  # the leader being moved: {kind, cell}
    lifted = moving.get("kind") if isinstance(moving, dict) else None
    current = getattr(state, "current", None)  # whose turn it is (the seat asked may be another)

    def cell(spot: int) -> str:
        label = board.labels[spot]
        symbol = board.symbols[spot]
        tile, chief = tile_on.get(label), chief_on.get(label)
        if tile is not None:
            k = kind_of(tile)
            text = letter(kinds[k]) if k is not None else "?"
            text += "~" if symbol == "~" else "*" if symbol == "C" else ""
        elif isinstance(chief, dict):
            owner = str(chief.get("owner"))
            text = owner.removeprefix("P") + letter(str(chief.get("kind"))).lower()
            text += "*" if symbol == "C" else ""
        else:
            text = "*" if symbol == "C" else symbol
        return text + ("^" if label in under_pagoda else "") + ("!" if label == marker else "")

    row_names = sorted({label.rstrip("0123456789") for label in board.labels}, key=lambda r: (len(r), r))
    columns = max(int(label[len(label.rstrip("0123456789")):] or 0) for label in board.labels)
    step = max([len(cell(s)) + 1 for s in board.spots] + [5])  # room for a column's number
    rows = draw_hex_board(board, lambda s: cell(s).ljust(step - 1))
    pad = max(len(r) for r in row_names) + 1
    numbers = " " * pad + "".join(str(c).ljust(step) for c in range(1, columns + 1))
    lines = [heading(state), ""]
    lines.append(numbers.rstrip())
    for name, row in zip(row_names, rows, strict=False):
        lines.append(f"{name:<{pad}}{row}".rstrip())
    lines.append(numbers.rstrip())
    legend = ("cells: . land, ~ river, * capital; tiles " + ", ".join(
        f"{letter(k)} {k} ({YY_COLOURS.get(k, k)})" for k in kinds)
        + "; G* a tile on a capital, P~ on a river; 2s a leader (P2's soldier); ^ under a pagoda; "
        "! the reunification marker; "
        "rows B, D, F, H, J lie half a cell right (B1 between A1 and A2)")
    lines += textwrap.wrap(legend, width, subsequent_indent="    ")
    lines.append("")

    # the pagodas, the market, the bag and the box
    on_map = "; ".join(f"{g.get('kind')} on {' '.join(map(str, g.get('cells') or ()))}" for g in pagodas)
    pagodas_left = getattr(state, "pagodas_left")  # noqa: B009 - the rules' own count (public)
    beside = ", ".join(f"{k} {pagodas_left(i)}" for i, k in enumerate(kinds) if pagodas_left(i) > 0) or "none"
    lines += textwrap.wrap(f"pagodas: {on_map or 'none on the map'}; beside the board: {beside}", width,
                           subsequent_indent="    ")
    market = [k for k in (kind_of(t) for t in seen.get("market") or ()) if k is not None]
    lines += textwrap.wrap(f"market: {_yy_kind_counts(kinds, market)}    bag: {seen.get('bag')} tiles    "
                           f"box: {seen.get('box')} tiles", width, subsequent_indent="    ")
    lines.append("")

    # each player's screen: the viewer's own tiles and points, the others' as how many tiles
    on_board = {(str(c.get("owner")), str(c.get("kind"))) for c in chief_on.values() if isinstance(c, dict)}
    for p in range(state.num_players):
        rack = (seen.get("rack") or [None] * state.num_players)[p]
        points = (seen.get("points") or [None] * state.num_players)[p]
        sizes = seen.get("rack_size") or []
        parts = []
        if rack is not None:
            held = [k for k in (kind_of(t) for t in rack) if k is not None]
            parts.append(f"tiles {_yy_kind_counts(kinds, held)} ({len(rack)})")
        else:
            parts.append(f"{sizes[p] if p < len(sizes) else '?'} tiles behind the screen")
        if points is not None:
            parts.append("points " + ", ".join(f"{k} {v}" for k, v in zip(kinds, points, strict=False)))
        else:
            parts.append("points hidden")
        off = [k for k in kinds if (seats[p], k) not in on_board and not (p == current and k == lifted)]
        parts.append("leaders off the board: " + (" ".join(off) or "none"))
        if p == current and lifted is not None:
            parts.append(f"moving his {lifted} leader from {moving.get('cell') if isinstance(moving, dict) else '?'}")
        lines += textwrap.wrap(f"{seat_name(info, p)}: " + "; ".join(parts), width, subsequent_indent="    ")

    # the conflict being fought, and the question a move waits for
    conflict = [f for f in seen.get("conflict") or () if isinstance(f, dict)]
    if conflict:
        lines.append("")
        if marker is None:  # a revolt: the attacker's leader, then the defender's
            roles = ["attacker", "defender"]
            texts = []
            for i, f in enumerate(conflict):
                c = chief_on.get(str(f.get("at")))
                who = f"{c.get('owner')}'s {c.get('kind')} leader" if isinstance(c, dict) else "a leader"
                texts.append(f"{roles[i] if i < len(roles) else 'side'} {who} at {f.get('at')}: "
                             f"strength {f.get('strength')}")
            lines += textwrap.wrap("revolt: " + "; ".join(texts), width, subsequent_indent="    ")
        else:
            texts = []
            side_kinds: list[set[str]] = []
            for f in conflict:  # a state at war, its cells as the war began
                chiefs = [c for c in (chief_on.get(str(n)) for n in f.get("cells") or ()) if isinstance(c, dict)]
                side_kinds.append({str(c.get("kind")) for c in chiefs})
                leaders = ", ".join(f"{c.get('owner')} {c.get('kind')}" for c in chiefs)
                texts.append(f"side {f.get('at')} ({leaders or 'no leader'}): strength {f.get('strength')}")
            clash = [k for k in kinds if sum(1 for h in side_kinds if k in h) >= 2]
            lines += textwrap.wrap(f"war (reunification marker on {marker}; {' and '.join(clash) or 'no'} leaders "
                                   "clash): " + "; ".join(texts), width, subsequent_indent="    ")
    question = observed.get("question")
    to_act = state.to_act()
    if question is not None and to_act is not None:
        about = YY_QUESTIONS.get(str(question), str(question))
        lines += textwrap.wrap(f"waiting for {seat_name(info, to_act)} to choose `{question}`: {about}", width,
                               subsequent_indent="    ")

    # the turn so far
    if current is not None and not state.is_terminal():
        done = seen.get("actions_done") or 0
        text = f"this turn: {seat_name(info, current)} has done {done} action{'s' if done != 1 else ''} of 2"
        if seen.get("last_peasant") is not None:
            text += f"; a chain of peasant tiles goes on from {seen['last_peasant']}"
        elif seen.get("last_tile") is not None and state.PHASES[state.phase] == "pagoda_offer":
            text += f"; the tile on {seen['last_tile']} made a triangle: a pagoda may stand on it"
        lines += textwrap.wrap(text, width, subsequent_indent="    ")
    if state.is_terminal():
        lines += final_scores(state, info, "final scores (the weakest colour, yellow points as jokers):", width)
    return "\n".join(lines)


DRAWINGS: dict[str, Callable[[State, int | None, int | None], str]] = {
    "chang-cheng": render_chang_cheng,
    "china-cornett": render_china,
    "china-schacht": render_schacht,
    "mandarin": render_mandarin,
    "yellow-yangtze": render_yellow_yangtze,
}
