"""`boards:`: each board's shape (hexagon, ring, graph, hex map or wall), its region kinds, borders
and `expect:`. Checked as a board by compiler/boards.py after the checker."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.load import YMap, YNode, YScalar, YSeq
from ...core.source import SourceSpan
from ...runtime.limits import MAX_GRID_COLUMNS, MAX_GRID_ROWS
from .. import ir
from .keys import BOARD_KEYS, EXPECT_KEYS, GRAPH_KEYS, GRID_KEYS, HEXMAP_KEYS, REGION_KIND_KEYS
from .options import read_players
from .reader import Reader


def read_boards(r: Reader, node: YNode | None) -> tuple[ir.Board, ...]:
    """`boards:`, each board in the order written."""
    out: list[ir.Board] = []
    for board_name, key, m in r.entries(node, "boards", "board", "a board", BOARD_KEYS):
        shape = _shape(r, board_name, m)
        if shape is None:
            continue
        board_players = None
        if m.get("players") is not None:
            counts_allowed = read_players(r, m.get("players"))
            board_players = (min(counts_allowed), max(counts_allowed))
        kinds = _region_kinds(r, m)
        expect = _expect(r, m)
        borders = _borders(r, m)
        out.append(ir.Board(board_name, shape.side, kinds, expect, key.span, shape.ring, shape.graph, shape.roads,
                            borders, board_players, shape.hexmap, shape.wall, shape.graph_spans, shape.grid))
    return tuple(out)


@dataclass(frozen=True)
class _Shape:
    """A board's shape: the one of its keys `hexagon`, `ring`, `graph`, `hexmap`, `wall` it has."""

    side: int = 0  # (a hexagon's)
    ring: int = 0
    graph: tuple[str, ...] = ()
    graph_spans: tuple[SourceSpan, ...] = ()
    roads: tuple[tuple[str, ...], ...] = ()
    hexmap: ir.HexMap | None = None
    wall: tuple[ir.WallPiece, ...] = ()
    grid: ir.Grid | None = None


def _shape(r: Reader, board_name: str, m: YMap) -> _Shape | None:
    """The board's shape, or None if it has none that can be read (the problem is reported)."""
    shapes = [k for k in ("hexagon", "ring", "graph", "hexmap", "wall", "grid") if m.get(k) is not None]
    if len(shapes) > 1 and {"hexmap", "wall", "grid"} & set(shapes):
        r.error(m.key_node(shapes[1]).span,  # type: ignore[union-attr]
                f"board `{board_name}` is both a {shapes[0]} and a {shapes[1]}", "give it one shape")
    if shapes[:1] == ["hexmap"]:
        hexmap = _hexmap(r, m.get("hexmap"))
        return _Shape(hexmap=hexmap) if hexmap is not None else None
    if shapes[:1] == ["grid"]:
        grid = _grid(r, board_name, m.get("grid"))
        return _Shape(grid=grid) if grid is not None else None
    if shapes[:1] == ["wall"]:
        wall = _wall(r, m.get("wall"))
        return _Shape(wall=wall) if wall else None
    if m.get("graph") is not None and m.get("hexagon") is None and m.get("ring") is None:
        return _graph(r, m)
    if m.get("ring") is not None and m.get("hexagon") is None:
        ring = r.integer(m.get("ring"), "ring") or 0
        if not 2 <= ring <= 1000:
            r.error(m.get("ring").span,  # type: ignore[union-attr]
                    "`ring: N` needs the number of spots of the track (2 to 1000)")
            return None
        return _Shape(ring=ring)
    side = r.integer(m.get("hexagon"), "hexagon")
    if side is None or not 2 <= side <= 20:
        r.error(m.span if m.get("hexagon") is None else m.get("hexagon").span,  # type: ignore[union-attr]
                "a board needs `hexagon: N` (spots along an edge, 2 to 20), `ring: N` (spots of a "
                "track), `graph: {spots, roads}`, `hexmap: {rows, legend}`, `wall: {piece: {face: "
                "[spots]}}` or `grid: {rows: R, columns: C}`")
        return None
    return _Shape(side=side)


def _graph(r: Reader, m: YMap) -> _Shape | None:
    """`graph: {spots: [...], roads: [[A, B, ...], ...]}`: its spots, and the roads as paths."""
    gm = r.mapping(m.get("graph"), "graph")
    if gm is None:
        return None
    r.keys(gm, GRAPH_KEYS, "graph")
    gseq = r.sequence(gm.get("spots"), "spots")
    graph = tuple(r.text(s, "a spot") or "?" for s in gseq.items) if gseq else ()
    graph_spans = tuple(s.span for s in gseq.items) if gseq else ()
    if not graph:
        r.error(gm.span, "a graph board needs `spots: [...]`, the names of its spots")
        return None
    roads: list[tuple[str, ...]] = []
    for road in (r.sequence(gm.get("roads"), "roads") or YSeq((), gm.span)).items:
        path = r.sequence(road, "a road")
        if path is not None:
            if len(path.items) < 2:
                r.error(path.span, "a road is a path of at least two spots: [A, B, ...]")
            roads.append(tuple(r.text(s, "a spot") or "?" for s in path.items))
    return _Shape(graph=graph, graph_spans=graph_spans, roads=tuple(roads))


def _region_kinds(r: Reader, m: YMap) -> tuple[ir.RegionKind, ...]:
    """`regions:`, each kind of region its regions (or `mirror_of:` another kind, renamed)."""
    kinds: list[ir.RegionKind] = []
    for kkey, kvalue in (r.mapping(m.get("regions"), "regions") or YMap((), m.span)).items:
        km = r.mapping(kvalue, f"region kind `{kkey.value}`")
        kind_name = r.declared(kkey, "a region kind")
        if kind_name is not None:
            r.values.append((kind_name, "a region kind", kkey.span))
        if km is None or kind_name is None:
            continue
        if km.get("mirror_of") is not None:
            r.keys(km, REGION_KIND_KEYS, f"region kind `{kkey.value}`")
            source = r.text(km.get("mirror_of"), "mirror_of")
            rename_map = r.mapping(km.get("rename"), "rename")
            rename = (tuple((str(a.value), r.text(b, "rename") or "") for a, b in rename_map.items)
                      if rename_map else ())
            kinds.append(ir.RegionKind(kind_name, (), source, rename, kkey.span))
            continue
        regions = tuple(_region(r, rkey, rvalue) for rkey, rvalue in km.items)
        kinds.append(ir.RegionKind(kind_name, regions, None, (), kkey.span))
    return tuple(kinds)


def _region(r: Reader, rkey: YScalar, rvalue: YNode) -> ir.Region:
    """A region: its spots, or `Chu: {colour: violet, spots: [...]}` (its attributes beside them)."""
    attributes: list[tuple[str, str]] = []
    if isinstance(rvalue, YMap):
        for akey, avalue in rvalue.items:
            if akey.value != "spots":
                attr = r.declared(akey, "a region attribute")
                value = r.name(avalue, f"attribute `{akey.value}`")
                if attr is not None and value is not None:
                    attributes.append((attr, value.name))
        if rvalue.get("spots") is None:
            r.error(rvalue.span, f"region `{rkey.value}` needs `spots: [...]` beside its attributes")
        rvalue = rvalue.get("spots") or YSeq((), rvalue.span)
    seq = r.sequence(rvalue, f"region `{rkey.value}`")
    spots = tuple(r.text(s, "a spot") or "?" for s in seq.items) if seq else ()
    return ir.Region(str(rkey.value), spots, rkey.span, tuple(attributes))


def _expect(r: Reader, m: YMap) -> ir.BoardExpect | None:
    """`expect:`, what the board must be (compiler/boards.py checks it once the board is made)."""
    em = r.mapping(m.get("expect"), "expect")
    if em is None:
        return None
    r.keys(em, EXPECT_KEYS, "expect")
    counts = r.mapping(em.get("regions"), "regions")
    size = _bounds(r, em.get("region_size"), "region_size")
    unequal = tuple(x.name for x in r.names(em.get("no_region_equal"), "a region kind"))
    if em.get("no_region_equal") is not None and len(unequal) != 2:
        r.error(em.get("no_region_equal").span,  # type: ignore[union-attr]
                "no_region_equal names two region kinds, e.g. [mountain, river]")
    return ir.BoardExpect(
        spots=r.integer(em.get("spots"), "spots"),
        regions=tuple((str(k.value), r.integer(v, "a count") or 0) for k, v in counts.items) if counts else (),
        region_size=size,
        contiguous=r.boolean(em.get("contiguous"), "contiguous"),
        cover_each_spot_once=r.boolean(em.get("cover_each_spot_once"), "cover_each_spot_once"),
        no_region_equal=unequal,
        span=(m.key_node("expect") or em).span,
        connected=r.boolean(em.get("connected"), "connected"),
        borders=tuple((str(k.value), r.integer(v, "a count") or 0)
                      for k, v in (r.mapping(em.get("borders"), "borders") or YMap((), em.span)).items),
        borders_match_roads=r.text(em.get("borders_match_roads"), "borders_match_roads"),
        attribute_counts=tuple(
            (str(k.value), tuple((str(vk.value), r.integer(vv, "a count") or 0)
                                 for vk, vv in (r.mapping(v, "counts") or YMap((), em.span)).items))
            for k, v in (r.mapping(em.get("attribute_counts"), "attribute_counts") or YMap((), em.span)).items
        ),
        bordering_differ=r.text(em.get("bordering_differ"), "bordering_differ"),
        pieces=r.integer(em.get("pieces"), "pieces"),
        regions_per_face=tuple((str(k.value), r.integer(v, "a count") or 0) for k, v in (
            r.mapping(em.get("regions_per_face"), "regions_per_face") or YMap((), em.span)).items),
        face_size=_bounds(r, em.get("face_size"), "face_size"),
        largest_wall=tuple((r.integer(k, "a number of faces") or 0, r.integer(v, "a number of spaces") or 0)
                           for k, v in (r.mapping(em.get("largest_wall"), "largest_wall")
                                        or YMap((), em.span)).items),
    )


def _borders(r: Reader, m: YMap) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """`borders: {kind: [[Wei, Chin], ...]}`: the pairs of regions each kind of border joins."""
    borders: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for bkey, bvalue in (r.mapping(m.get("borders"), "borders") or YMap((), m.span)).items:
        pairs: list[tuple[str, str]] = []
        for pair in (r.sequence(bvalue, f"borders of `{bkey.value}`") or YSeq((), m.span)).items:
            ends = r.sequence(pair, "a border")
            names = [r.text(x, "a region") for x in ends.items] if ends is not None else []
            if len(names) != 2 or names[0] is None or names[1] is None:
                r.error(pair.span, "a border joins two regions: [Wei, Chin]")
                continue
            pairs.append((names[0], names[1]))
        borders.append((str(bkey.value), tuple(pairs)))
    return tuple(borders)


def _hexmap(r: Reader, node: YNode | None) -> ir.HexMap | None:
    """`hexmap: {rows: <block of text, or a list of rows>, legend: {symbol: {attribute: value}}}`."""
    hm = r.mapping(node, "hexmap")
    if hm is None:
        return None
    r.keys(hm, HEXMAP_KEYS, "hexmap")
    rows_node = hm.get("rows")
    rows: list[str] = []
    if isinstance(rows_node, YScalar) and isinstance(rows_node.value, str):
        rows = rows_node.value.split("\n")
    elif isinstance(rows_node, YSeq):
        rows = [r.text(x, "a row of the map") or "" for x in rows_node.items]
    else:
        r.error((rows_node or hm).span, "a hex map needs `rows:`, its rows of cells as a block of text (`rows: |`) "
                "or a list of strings", "each character a cell: a symbol of the legend, a space for no cell")
        return None
    while rows and not rows[-1].strip():
        rows.pop()
    lm = r.mapping(hm.get("legend"), "legend")
    if lm is None:
        r.error(hm.span, "a hex map needs `legend:`, what each symbol of its rows stands for",
                'e.g. legend: {".": {terrain: land}, "~": {terrain: river}}')
        return None
    return ir.HexMap(tuple(rows), _legend(r, lm), (rows_node or hm).span)


def _legend(r: Reader, lm: YMap) -> tuple[ir.LegendEntry, ...]:
    """`legend: {symbol: {attribute: value}}` of a hex map or a drawn grid."""
    legend: list[ir.LegendEntry] = []
    for skey, svalue in lm.items:
        symbol = skey.value if isinstance(skey.value, str) else None
        if symbol is None or len(symbol) != 1 or symbol == " ":
            r.error(skey.span, f"a legend symbol is one character other than a space, not `{skey.value}`",
                    'quote symbols YAML reads otherwise: "~", "#", "?"')
            continue
        am = r.mapping(svalue, f"symbol `{symbol}`")
        attributes: list[tuple[str, str]] = []
        for akey, avalue in (am.items if am is not None else ()):
            attr = r.declared(akey, "a cell attribute")
            value = r.name(avalue, f"attribute `{akey.value}`")
            if attr is not None and value is not None:
                attributes.append((attr, value.name))
        legend.append(ir.LegendEntry(symbol, tuple(attributes), skey.span))
    return tuple(legend)


def _grid(r: Reader, board_name: str, node: YNode | None) -> ir.Grid | None:
    """`grid: {rows: R, columns: C}`, or `grid: {rows: <block of text, or a list of rows>, legend:
    {symbol: {attribute: value}}}` (a space is a cell off the board; without a legend, every
    other character is a cell with no attributes); `connect: orthogonal` (the default), `all` or `hex`."""
    gm = r.mapping(node, "grid")
    if gm is None:
        return None
    r.keys(gm, GRID_KEYS, "grid")
    connect = r.text(gm.get("connect"), "connect") if gm.get("connect") is not None else "orthogonal"
    if connect not in ("orthogonal", "all", "hex"):
        r.error(gm.get("connect").span,  # type: ignore[union-attr]
                f"`connect:` is `orthogonal` (neighbours share a side), `all` (a side or a corner) or `hex` (a hex "
                f"board's six, laid out as a rhombus), not `{connect}`")
        return None
    rows_node = gm.get("rows")
    text: list[str] = []
    rows = columns = 0
    if isinstance(rows_node, YScalar) and isinstance(rows_node.value, str):
        text = rows_node.value.split("\n")
    elif isinstance(rows_node, YSeq):
        text = [r.text(x, "a row of the grid") or "" for x in rows_node.items]
    elif isinstance(rows_node, YScalar) and isinstance(rows_node.value, int) and not isinstance(rows_node.value, bool):
        rows = rows_node.value
        columns_node = gm.get("columns")
        if columns_node is None:
            r.error(gm.span, "a grid of `rows: R` needs `columns: C` too")
            return None
        columns = r.integer(columns_node, "columns") or 0
        bad = [(node, f"board `{board_name}`: a grid has 1 to {most} {what}, not {n}", hint)
               for node, n, most, what, hint in ((rows_node, rows, MAX_GRID_ROWS, "rows", "rows 1 to 26"),
                                                 (columns_node, columns, MAX_GRID_COLUMNS, "columns",
                                                  "columns a to z"))
               if not 1 <= n <= most]
        for node, message, hint in bad:
            r.error(node.span, message, f"{hint}: a board's size is bounded (docs/language.md, \"Limits\")")
        if bad:
            return None
    else:
        r.error((rows_node or gm).span, "a grid needs `rows:`: a number of rows (with `columns:`), or its rows "
                "of cells as a block of text (`rows: |`) or a list of strings",
                "drawn, each character a cell: a symbol of the legend, a space for no cell")
        return None
    while text and not text[-1].strip():
        text.pop()
    if text and gm.get("columns") is not None:
        r.error(gm.key_node("columns").span,  # type: ignore[union-attr]
                "a drawn grid takes its columns from its rows: leave out `columns:`")
    legend: tuple[ir.LegendEntry, ...] = ()
    if gm.get("legend") is not None:
        lm = r.mapping(gm.get("legend"), "legend")
        legend = _legend(r, lm) if lm is not None else ()
        if not text:
            r.error(gm.key_node("legend").span,  # type: ignore[union-attr]
                    "a legend names the symbols of a grid drawn as rows of text", "draw the rows: `rows: |`")
    return ir.Grid(rows, columns, tuple(text), legend, connect or "orthogonal", (rows_node or gm).span)



def _bounds(r: Reader, node: YNode | None, what: str) -> tuple[int, int] | None:
    """`[min, max]`, two whole numbers (an expect's `region_size`, `face_size`)."""
    seq = r.sequence(node, what)
    if seq is None:
        return None
    bounds = [r.integer(x, what) for x in seq.items]
    if len(bounds) == 2 and bounds[0] is not None and bounds[1] is not None:
        return (bounds[0], bounds[1])
    r.error(seq.span, f"{what} must be [min, max]")
    return None


def _wall(r: Reader, node: YNode | None) -> tuple[ir.WallPiece, ...]:
    """`wall: {piece: {face: [spots left to right], ...}, ...}`: the pieces a wall grows by."""
    pieces: list[ir.WallPiece] = []
    wm = r.mapping(node, "wall")
    for pkey, pvalue in (wm.items if wm is not None else ()):
        piece = r.declared(pkey, "a wall piece")
        pm = r.mapping(pvalue, f"wall piece `{pkey.value}`")
        if piece is None or pm is None:
            continue
        r.values.append((piece, "a wall piece", pkey.span))
        faces: list[ir.WallFace] = []
        for fkey, fvalue in pm.items:
            face = r.declared(fkey, "a face of a wall piece")
            seq = r.sequence(fvalue, f"face `{fkey.value}`")
            if face is None or seq is None:
                continue
            r.values.append((face, "a face of a wall piece", fkey.span))
            spots = tuple(r.text(s, "a spot") or "?" for s in seq.items)
            if not spots:
                r.error(fkey.span, f"face `{face}` needs its spaces, left to right: [{face}1, {face}2, ...]")
                continue
            faces.append(ir.WallFace(face, spots, fkey.span))
        if not faces:
            r.error(pkey.span, f"wall piece `{piece}` needs faces: {{front: [spots], back: [spots]}}")
            continue
        pieces.append(ir.WallPiece(piece, tuple(faces), pkey.span))
    if not pieces and wm is not None:
        r.error(wm.span, "a wall needs pieces: {piece: {face: [spots left to right]}}")
    return tuple(pieces)
