"""Stage 5, check (boards): each board of a rule set made a table the runtime builds from, and
checked against what its `expect:` states.

`Boards(error, enum_value).board(board)` checks one board; `tables` holds them in order and
`attribute_enums` the enumeration of each region attribute (`colour: violet`), whose values
`region_attributes` numbers in table order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..core.source import SourceSpan, did_you_mean
from ..runtime.boards import (
    GRID_CONNECT,
    GRID_STEPS,
    grid_cells,
    hex_joined,
    hex_labels,
    hexmap_cells,
    validate_regions,
)
from ..runtime.limits import (
    MAX_ATTRIBUTES,
    MAX_BORDERS,
    MAX_REGION_KINDS,
    MAX_REGIONS,
    MAX_ROADS,
    MAX_SPOT_REGIONS,
    MAX_SPOTS,
)
from . import ir
from .board_expect import graph_problems, wall_problems
from .typed import BoardTable


class Boards:
    def __init__(self, error: Callable[[SourceSpan, str, str | None], None],
                 enum_value: Callable[[str], tuple[str, int] | None]) -> None:
        """`error` reports a problem; `enum_value` gives the enumeration and number of a value
        name (None: no value of an enumeration)."""
        self.report = error
        self.enum_value = enum_value
        self.tables: list[BoardTable] = []
        self.region_attributes: list[str] = []  # the names of region attributes, in table order
        self.attribute_enums: dict[str, str] = {}  # the enumeration of each region attribute
        self.spot_attributes: list[str] = []  # a hex map's cell attributes, in table order
        self.spot_attribute_enums: dict[str, str] = {}  # the enumeration of each cell attribute

    def error(self, span: SourceSpan, message: str, hint: str | None = None) -> None:
        self.report(span, message, hint)

    @staticmethod
    def sizes(board: ir.Board) -> tuple[int, int, int]:
        """A board's spots, regions and borders, as declared (before any is checked)."""
        by_kind = {k.name: k for k in board.region_kinds}
        regions = sum(len(by_kind[k.mirror_of].regions) if k.mirror_of in by_kind else len(k.regions)
                      for k in board.region_kinds)
        if board.graph:
            spots = len(board.graph)
        elif board.hexmap is not None:
            spots = sum(len(row) - row.count(" ") for row in board.hexmap.rows)
        elif board.wall:
            spots = sum(len(f.spots) for p in board.wall for f in p.faces)
        elif board.grid is not None:
            grid = board.grid
            spots = sum(len(row) - row.count(" ") for row in grid.text) if grid.text else grid.rows * grid.columns
        elif board.ring:
            spots = board.ring
        else:
            spots = 3 * board.hexagon * (board.hexagon - 1) + 1 if board.hexagon > 0 else 0
        return spots, regions, sum(len(pairs) for _, pairs in board.borders)

    def too_large(self, board: ir.Board) -> bool:
        """Whether the board passes a limit of its size (docs/language.md, "Limits"): then each
        limit it passes is reported, and nothing more of it is checked or built (what would be
        checked grows with the size)."""
        where = f"board `{board.name}`"
        hint = ("a board's size is bounded so that a game starts at once and every state stays small "
                "(docs/language.md, \"Limits\")")
        spots, regions, borders = self.sizes(board)  # (a hexagon's and a ring's bounded by compiler/build/boards.py)
        found = False
        for count, limit, what, span in (
            (spots, MAX_SPOTS, "spots", board.hexmap.span if board.hexmap is not None
             else board.grid.span if board.grid is not None else board.span),
            (regions, MAX_REGIONS, "regions", board.span),
            (len(board.region_kinds), MAX_REGION_KINDS, "kinds of regions", board.span),
            (sum(len(road) - 1 for road in board.roads), MAX_ROADS, "road segments", board.span),
            (borders, MAX_BORDERS, "borders", board.span),
            (len({a for k in board.region_kinds for r in k.regions for a, _ in r.attributes}), MAX_ATTRIBUTES,
             "region attributes", board.span),
            (len({a for e in board.hexmap.legend for a, _ in e.attributes}) if board.hexmap else 0, MAX_ATTRIBUTES,
             "spot attributes", board.span),
            (len({a for e in board.grid.legend for a, _ in e.attributes}) if board.grid else 0, MAX_ATTRIBUTES,
             "spot attributes", board.span),
            (max((len(k.rename) for k in board.region_kinds), default=0), MAX_ATTRIBUTES,
             "renamings of a mirrored kind", board.span),
        ):
            if count > limit:
                self.error(span, f"{where} has {count:,} {what}, more than the limit of {limit:,} {what} a board",
                           hint)
                found = True
        return found

    def shown_names(self, names: list[tuple[str, SourceSpan]], what: str, where: str, twice: bool = False) -> None:
        """The names of a board's spots or regions that a rule file writes as it likes (a graph's
        or a wall's spots, regions): each is shown in a move's text as it is, and a move is played
        by its text (`apply("text")`, a log's line, `play`'s prompt), found among the legal moves
        by comparing texts with their letters lowered and their spaces made single. So a move's
        text is read back to one move only if no name holds a space (a name's words would pass for
        the next choice's), `-` (which joins a list's items: `prospect E3-E4-E5`) or `/` (which
        joins a record's fields: `P1/red/C4`), none is `none` (an optional value holding nothing),
        and no two of one kind are alike but for case; then every name is one word of the text, or
        one item of one, whatever choices the texts show. `twice`: a name given twice is told too
        (where nothing else tells it: regions of two kinds)."""
        for name, span in names:
            problem = None
            if name.split() != [name]:
                problem = "holds a space" if name.strip() else "is empty"
            elif "-" in name or "/" in name:
                problem = f"holds `{'-' if '-' in name else '/'}`"
            elif name.lower() == "none":
                problem = "is `none`, the text of an optional value holding nothing"
            if problem is not None:
                self.error(span, f"{what} {name!r} of {where} {problem}: a move's text could then be two moves'",
                           "a name shown in a move's text is one word: no spaces, and no `-` (it joins a list's "
                           "items: `prospect E3-E4-E5`) or `/` (it joins a record's fields)")
        spelled: dict[str, tuple[str, SourceSpan]] = {}
        for name, span in names:
            first = spelled.setdefault(name.lower(), (name, span))
            if first[0] == name and first[1] is not span and twice:
                self.error(span, f"two {what}s of {where} are named `{name}`: a move's text could then be two moves'",
                           "name them apart")
            elif first[0] != name:
                self.error(span, f"{what}s `{first[0]}` and `{name}` of {where} differ only in case: a move's text "
                           "is read whatever its case, so it could be two moves'", "name them apart")

    def board(self, board: ir.Board) -> None:
        """Checks one board (its names, then the checks of its kind) and adds its table."""
        if self.too_large(board):
            return
        where = f"board `{board.name}`"
        self.shown_names(list(zip(board.graph, board.graph_spans or [board.span] * len(board.graph), strict=True))
                         + [(spot, face.span) for piece in board.wall for face in piece.faces for spot in face.spots],
                         "spot", where)
        if board.ring or board.graph or board.hexmap is not None or board.wall or board.grid is not None:
            # (a hexagon's: with its mirrored)
            self.shown_names([(r.name, r.span) for k in board.region_kinds for r in k.regions], "region", where,
                             twice=True)
        if board.ring:
            self.ring_board(board)
            return
        if board.graph:
            self.graph_board(board)
            return
        if board.hexmap is not None:
            self.hexmap_board(board, board.hexmap)
            return
        if board.wall:
            self.wall_board(board)
            return
        if board.grid is not None:
            self.grid_board(board, board.grid)
            return
        self.hexagon_board(board)

    def hexagon_board(self, board: ir.Board) -> None:
        """A hexagon of `side` spots along an edge; a region kind may be another's mirror image."""
        regions: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        by_kind = {k.name: k for k in board.region_kinds}
        at = hex_labels(board.hexagon)
        labels = list(at.values())
        on_board = set(labels)
        # mirror_label(s, side) for every spot at once (it builds the board's labels on each call)
        mirror = {label: at[(r, q)] for (q, r), label in at.items()}
        for kind in board.region_kinds:
            if kind.mirror_of is not None:
                source = by_kind.get(kind.mirror_of)
                if source is None or source.mirror_of is not None:
                    self.error(kind.span, f"cannot mirror `{kind.mirror_of}`: no region kind of that name listed "
                               "before it", did_you_mean(kind.mirror_of, by_kind))
                    continue
                rename = dict(kind.rename)
                mirrored = []
                for region in source.regions:
                    name = region.name
                    for old, new in rename.items():
                        if name.startswith(old):
                            name = new + name[len(old):]
                    try:
                        spots = tuple(mirror[s] for s in region.spots)
                    except KeyError:
                        spots = ()
                    mirrored.append((name, spots))
                regions[kind.name] = mirrored
            else:
                regions[kind.name] = [(r.name, r.spots) for r in kind.regions]
        kind_span = {kind.name: kind.span for kind in board.region_kinds}  # (a mirrored region's)
        region_span = {(kind.name, r.name): r.span for kind in board.region_kinds for r in kind.regions}
        self.shown_names([(n, region_span.get((k, n), kind_span[k]))
                          for k, listed in regions.items() for n, _ in listed], "region", f"board `{board.name}`")
        # Spots that are not on the board, shown at the region that names them.
        for kind in board.region_kinds:
            for region in kind.regions:
                self.no_region_attributes(region, "hexagon")
                for spot in region.spots:
                    if spot not in on_board:
                        self.error(region.span, f"region {region.name} of board `{board.name}`: no spot `{spot}` "
                                   "on this board", did_you_mean(spot, labels) or
                                   f"spots are {labels[0]} to {labels[-1]}: a row letter, then the place in the row")
        exp = board.expect
        if exp is not None:
            problems = validate_regions(
                board.hexagon, regions, exp.spots, dict(exp.regions), exp.region_size, exp.contiguous,
                exp.cover_each_spot_once, exp.no_region_equal,
            )
            for problem in problems:
                if ": no spot `" not in problem:
                    self.error(exp.span, f"board `{board.name}` does not match what is expected of it: {problem}")
        else:
            for problem in validate_regions(board.hexagon, regions, None, {}, None, False, False, ()):
                if ": no spot `" not in problem:
                    self.error(board.span, f"board `{board.name}`: {problem}")
        names = Counter(n for kind_regions in regions.values() for n, _ in kind_regions)
        dupes = sorted(n for n, count in names.items() if count > 1)
        if dupes:
            self.error(board.span, f"board `{board.name}` names several regions {', '.join(dupes)}")
        self.tables.append(
            BoardTable(
                board.name, board.hexagon,
                tuple((k, n, s) for k, rs_ in regions.items() for n, s in rs_), board.span,
            )
        )

    def graph_board(self, board: ir.Board) -> None:
        """Named spots joined by roads, with regions over them and the borders between regions."""
        labels = list(board.graph)
        on_board = set(labels)
        where = f"board `{board.name}`"
        for spot, count in Counter(labels).items():
            if count > 1:
                self.error(board.span, f"{where} lists spot `{spot}` {count} times")
        edges: list[tuple[str, str]] = []
        for road in board.roads:
            for spot in road:
                if spot not in on_board:
                    self.error(board.span, f"{where}: a road goes through `{spot}`, which is not one of its spots",
                               did_you_mean(spot, labels))
            edges += [(a, b) for a, b in zip(road, road[1:], strict=False) if a in on_board and b in on_board]
        regions: list[tuple[str, str, tuple[str, ...]]] = []
        region_of: dict[str, dict[str, list[str]]] = {}
        for kind in board.region_kinds:
            if kind.mirror_of is not None:
                self.error(kind.span, "a graph board has no mirror image", "list the regions")
            of: dict[str, list[str]] = region_of.setdefault(kind.name, {})
            for region in kind.regions:
                for spot in region.spots:
                    if spot not in on_board:
                        self.error(region.span, f"region {region.name} of {where}: no spot `{spot}`",
                                   did_you_mean(spot, labels))
                    held = of.setdefault(spot, [])
                    held.append(region.name)
                    if len(held) == MAX_SPOT_REGIONS + 1:
                        self.error(region.span, f"{where}: spot `{spot}` is in more than the limit of "
                                   f"{MAX_SPOT_REGIONS} regions of kind `{kind.name}` ({', '.join(held)})",
                                   "a spot lies in one region of a kind, or in a few (a border post in two)")
                regions.append((kind.name, region.name, region.spots))
        borders = self.graph_borders(board, where)
        tables = self.region_attribute_tables(board)
        if board.expect is not None:
            for problem in graph_problems(board, labels, edges, region_of, borders):
                self.error(board.expect.span, f"board `{board.name}` does not match what is expected of it: {problem}")
        self.tables.append(BoardTable(
            board.name, 0, tuple(regions), board.span, 0, tuple(labels), tuple(edges), tuple(borders),
            tuple(tables),
        ))

    def graph_borders(self, board: ir.Board, where: str) -> list[tuple[str, str]]:
        """A graph board's borders, each between two regions of the kind it is listed under."""
        borders: list[tuple[str, str]] = []
        listed: set[frozenset[str]] = set()
        for kind_name, pairs in board.borders:
            kind_regions = {r.name for k in board.region_kinds if k.name == kind_name for r in k.regions}
            if not kind_regions:
                self.error(board.span, f"{where}: borders of `{kind_name}`, which is no region kind of it")
            for a, b in pairs:
                for end in (a, b):
                    if end not in kind_regions:
                        self.error(board.span, f"{where}: a border names `{end}`, no region of kind `{kind_name}`",
                                   did_you_mean(end, kind_regions))
                if frozenset((a, b)) in listed:
                    self.error(board.span, f"{where}: the border {a}-{b} is listed twice")
                listed.add(frozenset((a, b)))
                borders.append((a, b))
        return borders

    def region_attribute_tables(self, board: ir.Board) -> list[tuple[int, ...]]:
        """Region attributes: each a table over every region, its values of one enumeration."""
        attr_names = sorted({a for k in board.region_kinds for r in k.regions for a, _ in r.attributes})
        tables: list[tuple[int, ...]] = []
        for attr in attr_names:
            if attr not in self.region_attributes:
                self.region_attributes.append(attr)
        for attr in self.region_attributes:
            row: list[int] = []
            enum_of: str | None = None
            for k in board.region_kinds:
                for r in k.regions:
                    value = dict(r.attributes).get(attr)
                    if value is None:
                        row.append(-1)
                        continue
                    found = self.enum_value(value)
                    if found is None:
                        self.error(r.span, f"attribute `{attr}` of {r.name}: `{value}` is no value of an enumeration",
                                   "declare it under `enums:`")
                        row.append(-1)
                        continue
                    if enum_of not in (None, found[0]):
                        self.error(r.span, f"attribute `{attr}` of {r.name} is a {found[0]}, elsewhere a {enum_of}")
                    enum_of = found[0]
                    row.append(found[1])
            tables.append(tuple(row))
            if enum_of is not None:
                self.attribute_enums[attr] = enum_of
        return tables

    def ring_board(self, board: ir.Board) -> None:
        """A closed track of spots 1..N; regions are lists of spot numbers."""
        labels = [str(i + 1) for i in range(board.ring)]
        on_board = set(labels)
        regions: list[tuple[str, str, tuple[str, ...]]] = []
        for kind in board.region_kinds:
            if kind.mirror_of is not None:
                self.error(kind.span, "a ring board has no mirror image", "list the regions")
            seen: dict[str, str] = {}
            for region in kind.regions:
                for spot in region.spots:
                    if spot not in on_board:
                        self.error(region.span, f"region {region.name} of board `{board.name}`: no spot `{spot}` "
                                   f"on this ring", f"spots are 1 to {board.ring}")
                    elif spot in seen:
                        self.error(region.span, f"spot {spot} is in both {seen[spot]} and {region.name}")
                    else:
                        seen[spot] = region.name
                self.no_region_attributes(region, "ring")
                regions.append((kind.name, region.name, region.spots))
            exp = board.expect
            if exp is not None:
                counts = dict(exp.regions)
                if kind.name in counts and counts[kind.name] != len(kind.regions):
                    self.error(exp.span, f"board `{board.name}`: {len(kind.regions)} regions of kind `{kind.name}`, "
                               f"expected {counts[kind.name]}")
                if exp.cover_each_spot_once and len(seen) != board.ring and kind.name in counts:
                    missing = [label for label in labels if label not in seen]
                    self.error(exp.span, f"board `{board.name}`: spots in no region of kind `{kind.name}`: "
                               f"{', '.join(missing[:8])}")
        if board.expect is not None and board.expect.spots not in (None, board.ring):
            self.error(board.expect.span, f"board `{board.name}` has {board.ring} spots, "
                       f"expected {board.expect.spots}")
        self.tables.append(BoardTable(board.name, 0, tuple(regions), board.span, board.ring))

    def no_region_attributes(self, region: ir.Region, what: str) -> None:
        """Region attributes are a graph board's (its provinces' colours); on a ring or a
        hexagon they were once dropped without a word, then `r.colour` failed."""
        if region.attributes:
            self.error(region.span, f"region {region.name}: only a graph board's regions have attributes",
                       f"on a {what}, keep what the attribute says in a field `per: region`, or a definition "
                       "over `r`")

    def listed_regions(self, board: ir.Board, labels: list[str], what: str) -> list[tuple[str, str, tuple[str, ...]]]:
        """The regions of a hex map or a wall, each spot checked to be one of `labels` and in
        one region of a kind at most."""
        on_board = set(labels)
        regions: list[tuple[str, str, tuple[str, ...]]] = []
        for kind in board.region_kinds:
            if kind.mirror_of is not None:
                self.error(kind.span, f"a {what} has no mirror image", "list the regions")
            seen: dict[str, str] = {}
            for region in kind.regions:
                for spot in region.spots:
                    if spot not in on_board:
                        self.error(region.span, f"region {region.name} of board `{board.name}`: no spot `{spot}`",
                                   did_you_mean(spot, labels) or f"spots are {', '.join(labels[:4])} ...")
                    elif spot in seen:
                        self.error(region.span, f"spot {spot} is in both {seen[spot]} and {region.name}")
                    else:
                        seen[spot] = region.name
                if region.attributes:
                    self.error(region.span, f"region {region.name}: only a graph board's regions have attributes",
                               f"on a {what}, give the attribute to the spots" if what == "hex map" else None)
                regions.append((kind.name, region.name, region.spots))
        if board.borders:
            self.error(board.span, f"board `{board.name}`: a {what} has no borders", "borders are a graph board's")
        return regions

    def expect_counts(self, board: ir.Board, labels: list[str], regions: list[tuple[str, str, tuple[str, ...]]],
                      what: str, problems: list[str]) -> None:
        """The validators a hex map and a wall share: spots, regions per kind, their sizes, cover."""
        exp = board.expect
        assert exp is not None
        if exp.spots is not None and exp.spots != len(labels):
            problems.append(f"{len(labels)} spots, expected {exp.spots}")
        per_kind = Counter(k for k, _, _ in regions)
        for kind_name, count in exp.regions:
            found = per_kind[kind_name]
            if found != count:
                problems.append(f"{found} regions of kind `{kind_name}`, expected {count}")
        for _, name, spots in regions:
            if exp.region_size is not None and not exp.region_size[0] <= len(spots) <= exp.region_size[1]:
                problems.append(f"region {name} has {len(spots)} spots, expected {exp.region_size[0]} to "
                                f"{exp.region_size[1]}")
        if exp.cover_each_spot_once:
            for kind_name, _ in exp.regions:
                if kind_name not in per_kind:
                    continue  # (its count is off, said above)
                covered = {s for k, _, spots in regions if k == kind_name for s in spots}
                missing = [s for s in labels if s not in covered]
                if missing:
                    problems.append(f"spots in no region of kind `{kind_name}`: {', '.join(missing[:8])}")
        unfit = [key for key, on in (("no_region_equal", bool(exp.no_region_equal)), ("borders", bool(exp.borders)),
                                     ("borders_match_roads", exp.borders_match_roads is not None),
                                     ("bordering_differ", exp.bordering_differ is not None),
                                     ("pieces", exp.pieces is not None and what != "wall"),
                                     ("regions_per_face", bool(exp.regions_per_face) and what != "wall"),
                                     ("face_size", exp.face_size is not None and what != "wall"),
                                     ("largest_wall", bool(exp.largest_wall) and what != "wall"),
                                     ("connected", exp.connected and what == "wall"),
                                     ("contiguous", exp.contiguous and what == "wall"),
                                     ("attribute_counts", bool(exp.attribute_counts) and what == "wall")) if on]
        for key in unfit:
            self.error(exp.span, f"board `{board.name}`: `expect: {key}` does not apply to a {what}")

    def hexmap_board(self, board: ir.Board, hexmap: ir.HexMap) -> None:
        """A hex map of any outline: its cells from the rows, their attributes from the legend."""
        where = f"board `{board.name}`"
        cells, problems = hexmap_cells(hexmap.rows)
        for problem in problems:
            self.error(hexmap.span, f"{where}: {problem}")
        legend = {e.symbol: e for e in hexmap.legend}
        attrs = self.legend_attributes(hexmap, where)
        unknown: dict[str, str] = {}
        for label, _, _, symbol in cells:
            if symbol not in legend and symbol not in unknown:
                unknown[symbol] = label
        for symbol, label in unknown.items():
            self.error(hexmap.span, f"{where}: the symbol `{symbol}` (first at {label}) is not in the legend",
                       f"the legend gives {', '.join(repr(k) for k in legend) or 'nothing'}; a space is no cell")
        known = [c for c in cells if c[3] in legend]
        if len(self.tables) > 0 and attrs != self.spot_attributes:
            self.error(board.span, f"{where} gives its spots the attributes {', '.join(attrs) or 'none'}, "
                       f"but the first board {', '.join(self.spot_attributes) or 'none'}",
                       "every board needs the same spot attributes")
        elif not self.tables:
            self.spot_attributes = attrs
        gives = {e.symbol: dict(e.attributes) for e in hexmap.legend}
        tables = self.cell_attribute_tables(board, hexmap, attrs, gives, known, where)
        labels = [label for label, _, _, _ in known]
        regions = self.listed_regions(board, labels, "hex map")
        exp = board.expect
        legend_ok = all(len(e.attributes) == len(attrs) and all(self.enum_value(v) for _, v in e.attributes)
                        for e in hexmap.legend)
        if exp is not None and not problems and not unknown and legend_ok:  # (else its counts are off too)
            self.hexmap_expect(board, exp, labels, regions, known, attrs, gives, where)
        self.tables.append(BoardTable(
            board.name, 0, tuple(regions), board.span, cells=tuple((label, q, r) for label, q, r, _ in known),
            symbols="".join(symbol for _, _, _, symbol in known), cell_attributes=tuple(tables),
            legend=tuple((e.symbol, ", ".join(f"{a} {v}" for a, v in e.attributes)) for e in hexmap.legend),
        ))

    def legend_attributes(self, hexmap: ir.HexMap, where: str) -> list[str]:
        """The attributes a hex map's legend gives, every one by every symbol, once."""
        attrs = sorted({a for e in hexmap.legend for a, _ in e.attributes})
        for e in hexmap.legend:
            given = Counter(a for a, _ in e.attributes)
            missing = [a for a in attrs if a not in given]
            if missing:
                self.error(e.span, f"{where}: symbol `{e.symbol}` gives no {', '.join(missing)}",
                           "every symbol of the legend gives every attribute")
            twice = sorted(a for a, n in given.items() if n > 1)
            if twice:
                self.error(e.span, f"{where}: symbol `{e.symbol}` gives {', '.join(twice)} twice")
        return attrs

    def cell_attribute_tables(self, board: ir.Board, hexmap: ir.HexMap, attrs: list[str],
                              gives: dict[str, dict[str, str]], known: list[tuple[str, int, int, str]],
                              where: str) -> list[tuple[int, ...]]:
        """Per attribute, each cell's value (a number of its enumeration); `gives`: what each
        symbol of the legend gives."""
        tables: list[tuple[int, ...]] = []
        for attr in attrs:
            enum_of: str | None = None
            number: dict[str, int] = {}
            for e in hexmap.legend:
                value = gives[e.symbol].get(attr)
                if value is None:
                    continue
                found = self.enum_value(value)
                if found is None:
                    self.error(e.span, f"attribute `{attr}` of symbol `{e.symbol}`: `{value}` is no value of an "
                               "enumeration", "declare it under `enums:`")
                    continue
                if enum_of not in (None, found[0]):
                    self.error(e.span, f"attribute `{attr}` of symbol `{e.symbol}` is a {found[0]}, elsewhere a "
                               f"{enum_of}", "an attribute takes the values of one enumeration")
                    continue
                enum_of = found[0]
                number[e.symbol] = found[1]
            if enum_of is not None:
                if self.spot_attribute_enums.get(attr, enum_of) != enum_of:
                    self.error(board.span, f"{where}: attribute `{attr}` is a {enum_of}, on the first board a "
                               f"{self.spot_attribute_enums[attr]}")
                self.spot_attribute_enums.setdefault(attr, enum_of)
            tables.append(tuple(number.get(symbol, 0) for _, _, _, symbol in known))
        return tables

    def hexmap_expect(self, board: ir.Board, exp: ir.BoardExpect, labels: list[str],
                      regions: list[tuple[str, str, tuple[str, ...]]], known: list[tuple[str, int, int, str]],
                      attrs: list[str], gives: dict[str, dict[str, str]], where: str) -> None:
        """The validators of a hex map: each count and property its `expect:` states."""
        self.cells_expect(board, exp, labels, regions, known, attrs, gives, where, "hex map", hex_joined)

    def cells_expect(self, board: ir.Board, exp: ir.BoardExpect, labels: list[str],
                     regions: list[tuple[str, str, tuple[str, ...]]], known: list[tuple[str, int, int, str]],
                     attrs: list[str], gives: dict[str, dict[str, str]], where: str, kind: str,
                     joined: Callable[[list[tuple[int, int]]], bool]) -> None:
        """The validators of a board of cells drawn from a map (a hex map's, a grid's; `kind`): each
        count and property its `expect:` states, `contiguous` and `connected` as `joined` joins cells."""
        found_problems: list[str] = []
        self.expect_counts(board, labels, regions, kind, found_problems)
        coords = {label: (q, r) for label, q, r, _ in known}
        if exp.contiguous:
            for _, name, spots in regions:
                if all(s in coords for s in spots) and spots and not joined([coords[s] for s in spots]):
                    found_problems.append(f"region {name} is not contiguous")
        if exp.connected and known and not joined(list(coords.values())):
            found_problems.append(f"its cells are not all joined: the {kind.split()[-1]} is in several pieces")
        symbol_of = {label: symbol for label, _, _, symbol in known}
        for attr, counts in exp.attribute_counts:
            if attr not in attrs:
                found_problems.append(f"no attribute `{attr}`: the legend gives {', '.join(attrs) or 'none'}")
                continue
            got = Counter(gives[symbol_of[s]][attr] for s in labels if attr in gives[symbol_of[s]])
            for value, count in counts:
                if got.get(value, 0) != count:
                    found_problems.append(f"{got.get(value, 0)} spots with {attr} {value}, expected {count}")
            extra = sorted(set(got) - {v for v, _ in counts})
            if extra:
                found_problems.append(f"spots with {attr} {', '.join(extra)}, which `expect` does not list")
        for problem in found_problems:
            self.error(exp.span, f"{where} does not match what is expected of it: {problem}")

    def wall_board(self, board: ir.Board) -> None:
        """A wall that grows during play: pieces, each with faces, each face its spaces."""
        where = f"board `{board.name}`"
        labels: list[str] = []
        seen: set[str] = set()
        faces: dict[str, str] = {}
        for piece in board.wall:
            for face in piece.faces:
                if face.name in faces:
                    self.error(face.span, f"{where}: face `{face.name}` of {piece.name} is also a face of "
                               f"{faces[face.name]}", "every face has a name of its own")
                faces[face.name] = piece.name
                for spot in face.spots:
                    if spot in seen:
                        self.error(face.span, f"{where}: spot `{spot}` is on two faces",
                                   "every space of every face is a spot of its own")
                    seen.add(spot)
                    labels.append(spot)
        regions = self.listed_regions(board, labels, "wall")
        face_of: dict[str, str] = {}
        for p in board.wall:
            for f in p.faces:
                for spot in f.spots:
                    face_of.setdefault(spot, f.name)
        for kind in board.region_kinds:
            for region in kind.regions:
                on = sorted({face_of[s] for s in region.spots if s in face_of})
                if len(on) > 1 and len(labels) == len(face_of):
                    self.error(region.span, f"{where}: region {region.name} lies on faces {', '.join(on)}",
                               "a region lies along one face: the faces of a wall are laid apart")
        exp = board.expect
        if exp is not None:
            problems: list[str] = []
            self.expect_counts(board, labels, regions, "wall", problems)
            if exp.pieces is not None and exp.pieces != len(board.wall):
                problems.append(f"{len(board.wall)} pieces, expected {exp.pieces}")
            problems += wall_problems(board, regions, face_of, exp)
            for problem in problems:
                self.error(exp.span, f"{where} does not match what is expected of it: {problem}")
        if self.tables and self.tables[0].wall and [
            (p, tuple(f for f, _ in fs)) for p, fs in self.tables[0].wall
        ] != [(p.name, tuple(f.name for f in p.faces)) for p in board.wall]:
            self.error(board.span, f"{where} has other pieces or faces than the first board",
                       "every wall board has the same pieces and faces (their spots may differ)")
        self.tables.append(BoardTable(
            board.name, 0, tuple(regions), board.span,
            wall=tuple((p.name, tuple((f.name, f.spots) for f in p.faces)) for p in board.wall),
        ))

    def grid_board(self, board: ir.Board, grid: ir.Grid) -> None:
        """A square grid: every cell of its rows and columns, or drawn as rows of text (a space: a
        cell off the board), each cell's attributes from the legend as on a hex map."""
        where = f"board `{board.name}`"
        cells, problems = grid_cells(grid.rows, grid.columns, grid.text)
        for problem in problems:
            self.error(grid.span, f"{where}: {problem}")
        drawn = ir.HexMap(grid.text, grid.legend, grid.span)  # (its legend read as a hex map's)
        legend = {e.symbol: e for e in grid.legend}
        attrs = self.legend_attributes(drawn, where) if grid.legend else []
        unknown: dict[str, str] = {}
        if grid.legend:
            for label, _, _, symbol in cells:
                if symbol not in legend and symbol not in unknown:
                    unknown[symbol] = label
        for symbol, label in unknown.items():
            self.error(grid.span, f"{where}: the symbol `{symbol}` (first at {label}) is not in the legend",
                       f"the legend gives {', '.join(repr(k) for k in legend) or 'nothing'}; a space is no cell")
        known = [c for c in cells if not grid.legend or c[3] in legend]
        if self.tables and attrs != self.spot_attributes:
            self.error(board.span, f"{where} gives its spots the attributes {', '.join(attrs) or 'none'}, "
                       f"but the first board {', '.join(self.spot_attributes) or 'none'}",
                       "every board needs the same spot attributes")
        elif not self.tables:
            self.spot_attributes = attrs
        gives = {e.symbol: dict(e.attributes) for e in grid.legend}
        tables = self.cell_attribute_tables(board, drawn, attrs, gives, known, where) if attrs else []
        labels = [label for label, _, _, _ in known]
        regions = self.listed_regions(board, labels, "grid")
        legend_ok = all(len(e.attributes) == len(attrs) and all(self.enum_value(v) for _, v in e.attributes)
                        for e in grid.legend)
        if board.expect is not None and not problems and not unknown and legend_ok:
            self.grid_expect(board, board.expect, grid, labels, regions, known, attrs, gives, where)
        self.tables.append(BoardTable(
            board.name, 0, tuple(regions), board.span, symbols="".join(symbol for _, _, _, symbol in known),
            cell_attributes=tuple(tables), legend=tuple((e.symbol, ", ".join(f"{a} {v}" for a, v in e.attributes))
                                                        for e in grid.legend),
            grid_cells=tuple((label, row, column) for label, row, column, _ in known),
            grid_size=(grid.rows, grid.columns), grid_text=grid.text, connect=grid.connect,
        ))

    def grid_expect(self, board: ir.Board, exp: ir.BoardExpect, grid: ir.Grid, labels: list[str],
                    regions: list[tuple[str, str, tuple[str, ...]]], known: list[tuple[str, int, int, str]],
                    attrs: list[str], gives: dict[str, dict[str, str]], where: str) -> None:
        """The validators of a grid, as a hex map's: each count and property its `expect:` states;
        `contiguous` and `connected` join cells as the grid's neighbours do (`connect:`)."""
        steps = tuple(GRID_STEPS[d] for d in GRID_CONNECT[grid.connect])
        self.cells_expect(board, exp, labels, regions, known, attrs, gives, where, "grid",
                          lambda cells: _grid_joined(cells, steps))


def _grid_joined(cells: list[tuple[int, int]], steps: tuple[tuple[int, int], ...]) -> bool:
    """Whether cells (row, column) of a grid are all joined through one another by `steps`."""
    members = set(cells)
    todo, seen = [cells[0]], {cells[0]}
    while todo:
        row, column = todo.pop()
        for dr, dc in steps:
            n = (row + dr, column + dc)
            if n in members and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(members)
