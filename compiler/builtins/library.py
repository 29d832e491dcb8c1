"""The built-in functions of the rule language, each declared once (compiler/builtins/spec.py says
what a declaration holds), in the order editors list them.

Each entry says how a rule file may call the function (its parameters' types and its result; `T`
in a type stands for any element type, bound by the first argument that fixes it), the Python a
call lowers to (calling runtime/mechanics.py, runtime/auction.py or the board's tables of
runtime/boards/), what that code reads of the game, what lowering may prove of the result and
its work (a facts rule, just above the entry where it has one), and its doc line, which
docs/language.md's table shows word for word (tests/test_docs.py).
"""

from __future__ import annotations

from collections.abc import Callable

from ...runtime.limits import MAX_GRID_COLUMNS, MAX_GRID_ROWS, MAX_INT, MAX_ITEMS
from .. import pyir
from ..budget import FREE_WORK, STORED, UNSAFE, Facts, add_mag, join_mag, number, sat
from .spec import BOARD, GAME, RNG, Builtin, Call, FactsRule, auction_step, listed

BUILTINS: dict[str, Builtin] = {}


def declare(spec: Builtin) -> None:
    assert spec.name not in BUILTINS, f"built-in `{spec.name}` declared twice"
    BUILTINS[spec.name] = spec


# -- numbers -----------------------------------------------------------------------------------

def _len(c: Call) -> Facts:
    size = c.args[0].size
    return number(size if size is not None else MAX_INT, cost=c.cost)


declare(Builtin("len", (("items", "list(T)"),), "int", "len({0})", "How many items a list or set holds.",
                facts=_len))
declare(Builtin("abs", (("n", "int"),), "int", "abs({0})", "Absolute value.",
                facts=lambda c: Facts(c.cost, mag=c.args[0].mag)))


def _smaller_or_larger(c: Call) -> Facts:
    return Facts(c.cost, mag=join_mag(c.args[0].mag, c.args[1].mag))


declare(Builtin("min2", (("a", "int"), ("b", "int")), "int", "min({0}, {1})", "The smaller of two numbers.",
                facts=_smaller_or_larger))
declare(Builtin("max2", (("a", "int"), ("b", "int")), "int", "max({0}, {1})", "The larger of two numbers.",
                facts=_smaller_or_larger))


# -- the board ---------------------------------------------------------------------------------

def _straight_lines(c: Call) -> Facts:
    c.over(1)
    lines = c.bounds.get("axes", 3) * c.bounds["spot"]  # (a line per spot and axis at most: 3 on hexagons, 4 on grids)
    return Facts(sat(c.cost + lines), lines, item=Facts(size=c.bounds["longest"], item=Facts()))


declare(Builtin(
    "straight_lines", (("n", "int"), ("spots", "list(spot)")), "list(list(spot))",
    "self.board.straight_lines({0}, {1})",
    "Every run of exactly n spots side by side in one straight line, all among `spots`.",
    reads=BOARD, facts=_straight_lines, counted_by="count_lines",
))


def _regions_touching(c: Call) -> Facts:
    c.over(0)
    return Facts(c.cost, c.bounds["region"], item=Facts())


declare(Builtin(
    "regions_touching", (("spots", "list(spot)"), ("kind", "regionkind")), "list(region)",
    "self.board.regions_touching({0}, {1})",
    "The regions of one kind that contain any of the spots, in board order (a spot in two regions of the kind, "
    "like a border post, gives both).",
    reads=BOARD, facts=_regions_touching,
))


def _count_lines(c: Call) -> Facts:
    c.over(1)
    return number(c.bounds.get("axes", 3) * c.bounds["spot"], cost=c.cost + 3)


declare(Builtin(
    "count_lines", (("n", "int"), ("spots", "list(spot)")), "int",
    "self.board.count_lines({0}, {1})",
    "How many runs straight_lines(n, spots) would list (what len() of it is compiled to).",
    reads=BOARD, facts=_count_lines,
))
declare(Builtin("regions_of", (("kind", "regionkind"),), "list(region)", "self.board.regions_of_kind[{0}]",
                "The regions of one kind, in board order.", reads=BOARD, facts=listed("region")))
declare(Builtin("regions_at", (("spot", "spot"), ("kind", "regionkind")), "list(region)",
                "self.board.regions_at[{1}][{0}]",
                "Every region of a kind that holds a spot, in board order (two for a spot on a border).",
                reads=BOARD, facts=listed("per_spot")))
declare(Builtin("region_of", (("spot", "spot"), ("kind", "regionkind")), "region",
                "self.board.region_of[{1}][{0}]",
                "The region of a kind that a spot lies in (a spot in two, like a border post, gives the last "
                "listed: see `regions_at`).", reads=BOARD))
declare(Builtin("spots_of", (("region", "region"),), "list(spot)", "self.board.region_spots[{0}]",
                "The spots of a region.", reads=BOARD, facts=listed("region_size")))
declare(Builtin("neighbours", (("spot", "spot"),), "list(spot)", "self.board.neighbours[{0}]",
                "The spots next to a spot (on a graph board: the spots one road away; on a grid: those sharing a "
                "side, a corner too with `connect: all`, a hex board's six with `connect: hex`).",
                reads=BOARD, facts=listed("degree")))


# -- seats and numbers in a row ----------------------------------------------------------------

declare(Builtin("role", (("p", "player"),), "role", "_ROLE_OF_SEAT[{0}]", "The role a seat plays."))


def _range(c: Call) -> Facts:
    low, high = c.literal(0), c.literal(1)
    step = c.literal(2) if c.e.func == "steps" else 1
    size = None if low is None or high is None or step is None else len(range(low, high, max(step, 1)))
    if size is None and not c.args[0].mag[1] and not c.args[1].mag[1]:  # b - a <= |a| + |b|
        size = sat(c.args[0].mag[0] + c.args[1].mag[0])
    bound = c.lowering.range_bound(c.args[1].mag)  # (pass `bound_ranges`) b - a <= b, a >= 0
    if bound is not None and (size is None or bound < size):
        size = bound
    return Facts(c.cost, size, item=Facts(mag=join_mag(c.args[0].mag, c.args[1].mag)))


declare(Builtin("range", (("start", "int"), ("stop", "int")), "list(int)", "range({0}, {1})",
                "The whole numbers from start up to, not including, stop.", facts=_range))
declare(Builtin("steps", (("start", "int"), ("stop", "int"), ("step", "int")), "list(int)",
                "range({0}, {1}, max({2}, 1))", "start, start + step, ... below stop (bids in hundreds).",
                facts=_range))


# -- a ring --------------------------------------------------------------------------------------

declare(Builtin("ahead", (("spot", "spot"), ("n", "int")), "spot", "self.board.ahead({0}, {1})",
                "The spot n steps further along a ring (clockwise).", reads=BOARD))


def _passed(c: Call) -> Facts:  # the spots between: as many as the steps
    k, m = c.args[1].mag
    if m == 0 and k <= FREE_WORK:
        return Facts(sat(c.cost + k), k, item=Facts())
    c.charged()
    c.lowered[1] = pyir.rt("upto", pyir.Name("self"), c.lowered[1], c.where(1))
    return Facts(c.cost, MAX_ITEMS, item=Facts())


declare(Builtin("passed", (("spot", "spot"), ("n", "int")), "list(spot)", "self.board.passed({0}, {1})",
                "The spots strictly between a spot and the one n steps ahead on a ring.",
                reads=BOARD, facts=_passed))
declare(Builtin("seats_from", (("p", "player"),), "list(player)", "rt.seats_from({0}, self.num_players)",
                "Every seat, starting with p and going clockwise (to the left: the next seat).",
                reads=GAME, facts=lambda c: Facts(sat(c.cost + c.seats), c.seats, item=Facts())))


# -- the open auction (runtime/auction.py): an immutable value of type `auction` ----------------

def _open_auction(c: Call) -> Facts:
    c.over(0)
    c.kept(1)
    c.kept(2)
    return auction_step(c)


def _auction_bid(c: Call) -> Facts:
    c.kept(1)
    return auction_step(c)


def _auction_bids(c: Call) -> Facts:  # from the lowest bid allowed up to the cap: only the game knows how many
    return Facts(c.cost, None, item=Facts(mag=join_mag(STORED, c.args[1].mag)))


declare(Builtin("no_auction", (), "auction", "rt.NO_AUCTION", "No auction: nobody is in it (a field's init)."))
declare(Builtin("open_auction", (("order", "list(player)"), ("minimum", "int"), ("step", "int")), "auction",
                "rt.open_auction({0}, {1}, {2})",
                "An open auction among `order`, the first to act first; bids from `minimum` up by `step`.",
                facts=_open_auction))
declare(Builtin("auction_bid", (("a", "auction"), ("amount", "int")), "auction", "rt.bid({0}, {1})",
                "The auction after its bidder bids `amount`; the next one still in is to act.",
                facts=_auction_bid))
declare(Builtin("auction_drop", (("a", "auction"),), "auction", "rt.drop({0})",
                "The auction after its bidder drops out, for good; the next one still in is to act.",
                facts=auction_step))
declare(Builtin("auction_bids", (("a", "auction"), ("cap", "int")), "list(int)", "rt.amounts({0}, {1})",
                "The bids allowed now, from the lowest allowed up to cap (at least the lowest).",
                facts=_auction_bids))
declare(Builtin("auction_bidder", (("a", "auction"),), "player", "{0}.to_act",
                "The player who must bid or drop out now (the actor of an auction phase)."))
declare(Builtin("auction_over", (("a", "auction"),), "bool", "{0}.over",
                "Whether only the high bidder is left, or nobody."))
declare(Builtin("auction_winner", (("a", "auction"),), "list(player)", "rt.winner_list({0})",
                "The winner of an auction that is over: one player, or none when nobody bid.",
                facts=lambda c: Facts(c.cost, 1, item=Facts())))
declare(Builtin("auction_high_bid", (("a", "auction"),), "int", "{0}.high_bid", "The highest bid (0 before any).",
                facts=lambda c: Facts(c.cost, mag=STORED)))
declare(Builtin("auction_in", (("a", "auction"),), "set(player)", "{0}.still_in",
                "The players who have not dropped out.", facts=lambda c: Facts(c.cost, c.seats, item=Facts())))


# -- regions, roads and connected groups --------------------------------------------------------

declare(Builtin("border_regions", (("b", "border"),), "list(region)", "self.board.border_regions[{0}]",
                "The two regions a border runs between (China's alliances are its provinces' borders).",
                reads=BOARD, facts=lambda c: Facts(c.cost, 2, item=Facts())))


def _road_chains(c: Call) -> Facts:  # (a search over the board's roads)
    c.over(0)
    spots = c.bounds["spot"]
    return Facts(sat(c.cost + spots * spots), spots, item=Facts(size=spots, item=Facts()))


declare(Builtin(
    "road_chains", (("spots", "list(spot)"), ("min", "int"), ("one_per_network", "bool")),
    "list(list(spot))", "self.board.road_chains({0}, {1}, {2})",
    "The chains of at least `min` spots joined one after the other by roads, all among `spots`, each "
    "spot in at most one chain, branches left out: the longest path first, then the longest left (or "
    "only the longest of each network, if one_per_network).",
    reads=BOARD, facts=_road_chains,
))
declare(Builtin(
    "road_chains_best", (("spots", "list(spot)"), ("min", "int"), ("doubled", "list(spot)")),
    "list(list(spot))", "self.board.best_road_chains({0}, {1}, {2})",
    "The cut of the spots among `spots` into chains of at least `min` spots joined by roads (each spot in "
    "at most one chain, branches left out) that scores the most, a chain scoring its length, twice if it "
    "holds one of `doubled`: an exact search, bounded by a move's work.",
    reads=BOARD, facts=_road_chains,
))


def _components(c: Call) -> Facts:  # a flood fill: each spot marked, each road looked along once
    c.over(len(c.args) - 1)
    spots = c.bounds["spot"]
    work = sat(spots * (c.bounds["degree"] + 1))
    if c.e.func == "component_of":
        return Facts(sat(c.cost + work), spots, item=Facts())
    return Facts(sat(c.cost + work), spots, item=Facts(size=spots, item=Facts()))


declare(Builtin("components", (("spots", "list(T)"),), "list(set(T))", "self.board.components({0})",
                "The connected groups among `spots` (a list or a set of spots), each a set, joined as the board "
                "joins spots (hex neighbours, roads, ring neighbours, a grid's `neighbours`): the group of the lowest "
                "spot first.",
                reads=BOARD, facts=_components))
declare(Builtin("component_of", (("spot", "T"), ("spots", "list(T)")), "set(T)",
                "self.board.component_of({0}, {1})",
                "The spots of `spots` connected to `spot` within them; nothing if `spot` is not among them.",
                reads=BOARD, facts=_components))


# -- majorities ----------------------------------------------------------------------------------

def _counted_per_seat(c: Call) -> Facts:  # a few passes over the counts, one per seat (and a sort)
    size = c.over(0)
    return Facts(sat(c.cost + 3 * size), size, item=Facts())


declare(Builtin("majority", (("counts", "list(int)"),), "list(player)", "rt.majority({0})",
                "The seats holding the most, one count per seat in seat order (`[n(q) for q in players]`): "
                "all of them on a tie, in seat order; nobody if the most is 0.", facts=_counted_per_seat))
declare(Builtin("ranked", (("counts", "list(int)"), ("place", "int")), "list(player)", "rt.ranked({0}, {1})",
                "The seats in a place by their counts (1: the most): tied seats share a place, and the next "
                "count down takes the next place (3, 3, 2: the first two first, the third second); a count "
                "of 0 has no place.", facts=_counted_per_seat))


# -- a wall that grows during play (runtime/boards/wall.py WallBoard): its layout is a list(wallface) --

def _along_the_wall(most: Callable[[Call], int]) -> FactsRule:
    """A walk along the wall giving at most `most` items (the board's spots, its regions ...)."""
    def rule(c: Call) -> Facts:
        c.over(0)
        return Facts(sat(c.cost + c.bounds["spot"]), most(c), item=Facts())
    return rule


def _pieces(c: Call) -> int:
    """How many pieces a wall has: its faces' kind."""
    return c.lowering.kind_count("wallface") or 0


def _wall_runs(c: Call) -> Facts:  # one walk along the wall; the runs hold the spots at most once in all
    c.over(0)
    c.over(1)
    spots = c.bounds["spot"]
    return Facts(sat(c.cost + spots), spots, item=Facts(size=spots, item=Facts()))


def _attach(c: Call) -> Facts:  # each piece laid once: at most as many faces as pieces
    c.over(0)
    faces = _pieces(c)
    return Facts(sat(c.cost + faces), faces, item=Facts())


declare(Builtin("wall_spots", (("layout", "list(wallface)"),), "list(spot)", "self.board.wall_spots({0})",
                "The spots of the faces laid, from the left end of the wall to the right.",
                reads=BOARD, facts=_along_the_wall(lambda c: c.bounds["spot"])))
declare(Builtin("wall_neighbours", (("layout", "list(wallface)"), ("spot", "spot")), "list(spot)",
                "self.board.wall_neighbours({0}, {1})",
                "The spots just left and right of a spot along the wall, across joins (none if not laid).",
                reads=BOARD, facts=_along_the_wall(lambda c: 2)))
declare(Builtin("wall_runs", (("layout", "list(wallface)"), ("spots", "list(spot)")), "list(list(spot))",
                "self.board.wall_runs({0}, {1})",
                "The unbroken runs of laid spaces among `spots`, each left to right, the leftmost first "
                "(side by side along the wall, across the joins of the faces laid too).",
                reads=BOARD, facts=_wall_runs))
declare(Builtin("wall_regions", (("layout", "list(wallface)"), ("kind", "regionkind")), "list(region)",
                "self.board.wall_regions({0}, {1})",
                "The regions of a kind with a spot on the wall, left to right (by their leftmost space).",
                reads=BOARD, facts=_along_the_wall(lambda c: c.bounds["region"])))
declare(Builtin("wall_pieces", (("layout", "list(wallface)"),), "list(wallpiece)",
                "self.board.wall_pieces({0})", "The pieces laid, left to right.",
                reads=BOARD, facts=_along_the_wall(_pieces)))
declare(Builtin("attach_left", (("layout", "list(wallface)"), ("face", "wallface")), "list(wallface)",
                "self.board.attach({0}, {1}, False)",
                "The layout with a face laid at its left end (a game error if its piece is laid already).",
                reads=BOARD, facts=_attach))
declare(Builtin("attach_right", (("layout", "list(wallface)"), ("face", "wallface")), "list(wallface)",
                "self.board.attach({0}, {1}, True)",
                "The layout with a face laid at its right end (a game error if its piece is laid already).",
                reads=BOARD, facts=_attach))
declare(Builtin("face_spots", (("face", "wallface"),), "list(spot)", "self.board.face_spots[{0}]",
                "The spaces of a face, left to right.", reads=BOARD, facts=listed("spot")))
declare(Builtin("piece_of", (("face", "wallface"),), "wallpiece", "self.board.face_piece[{0}]",
                "The piece a face is a side of.", reads=BOARD))


# -- a square grid (runtime/boards/grid.py GridBoard): its directions are the enumeration `direction` --
# Every table is the board's, made as it is built: a look-up, proven (rays, rows, columns and
# diagonals hold at most as many spots as the grid is wide or high; the board bounds them).

def _grid_lines(count: str) -> FactsRule:
    """The board's rows, columns or diagonals: at most `count` lines (a bound), each at most as long
    as the grid is wide or high."""
    def rule(c: Call) -> Facts:
        return Facts(c.cost, c.bounds[count], item=Facts(size=c.bounds["longest"], item=Facts()))
    return rule


declare(Builtin("step_from", (("spot", "spot"), ("d", "direction")), "optional(spot)",
                "self.board.steps[{1}][{0}]",
                "The spot one step from a spot in a direction of a grid (`north` is up, to the next row), or "
                "`none` off the board or on a hole.", reads=BOARD))
declare(Builtin("ray", (("spot", "spot"), ("d", "direction")), "list(spot)", "self.board.rays[{1}][{0}]",
                "The spots of a grid from a spot (not itself) in a direction, nearest first, up to the edge or "
                "a hole.", reads=BOARD, facts=listed("longest")))
declare(Builtin("opposite", (("d", "direction"),), "direction", "({0} + 4) % 8",  # (GRID_DIRECTIONS: clockwise)
                "The opposite direction (`south` for `north`)."))
declare(Builtin("row_of", (("spot", "spot"),), "int", "self.board.row_of[{0}]",
                "The row of a spot of a grid: 1 the bottom row (`a1`'s).", reads=BOARD,
                facts=lambda c: number(MAX_GRID_ROWS, cost=c.cost)))
declare(Builtin("column_of", (("spot", "spot"),), "int", "self.board.column_of[{0}]",
                "The column of a spot of a grid: 1 the leftmost (`a`).", reads=BOARD,
                facts=lambda c: number(MAX_GRID_COLUMNS, cost=c.cost)))
declare(Builtin("spot_at", (("row", "int"), ("column", "int")), "optional(spot)", "self.board.spot_at({0}, {1})",
                "The spot of a grid at a row (1 the bottom) and a column (1 the left), or `none` off the board "
                "or on a hole.", reads=BOARD))
declare(Builtin("grid_rows", (), "list(list(spot))", "self.board.grid_rows",
                "The rows of a grid, the bottom one first, each from the left (a hole leaves its cell out).",
                reads=BOARD, facts=_grid_lines("longest")))
declare(Builtin("grid_columns", (), "list(list(spot))", "self.board.grid_columns",
                "The columns of a grid, the leftmost first, each from the bottom (a hole leaves its cell out).",
                reads=BOARD, facts=_grid_lines("longest")))
declare(Builtin("grid_diagonals", (), "list(list(spot))", "self.board.grid_diagonals",
                "The diagonals of two spots or more of a grid, each from its southern end: the north-east ones "
                "first, then the north-west ones, each kind by its first spot (a hole cuts a diagonal in two).",
                reads=BOARD, facts=_grid_lines("spot")))


# -- lists and optional values -------------------------------------------------------------------

def _same_items(c: Call) -> Facts:
    size = c.over(0)
    return Facts(c.cost, size, item=c.args[0].item)


def _subsets(c: Call) -> Facts:  # counted and charged by rt.subsets itself, as it runs
    c.charged()
    n, most = c.args[0].size, c.literal(2)
    count = None if n is None or n > 16 else 1 << n
    longest = n if most is None else max(min(n if n is not None else most, most), 0)
    return Facts(c.cost, count, item=Facts(size=longest, item=c.args[0].item))


declare(Builtin("without", (("items", "list(T)"), ("item", "T")), "list(T)", "rt.without({0}, {1})",
                "The list with its first copy of `item` taken out (the list itself if it holds none).",
                facts=_same_items))
declare(Builtin("sorted", (("items", "list(T)"),), "list(T)", "sorted({0})", "The items in order.",
                facts=_same_items))
declare(Builtin("value_of", (("x", "optional(T)"),), "T", "rt.value_of({0}, {where})",
                "The value an optional holds (a game error if it is `none`: check `x != none` first).",
                facts=lambda c: c.typed(STORED)))
declare(Builtin("subsets", (("items", "list(T)"), ("least", "int"), ("most", "int")), "list(list(T))",
                "rt.subsets(self, {0}, {1}, {2}, {where})",
                "Every way to take between `least` and `most` of the items (equal items alike), each in order: "
                "the smallest first, then item by item (a choice of the tiles to swap).",
                reads=GAME, facts=_subsets))


# -- chance: drawn from the state's own generator, in effects only -------------------------------

def _drawn(c: Call) -> Facts:
    """An item of the list: what its items are."""
    return (c.args[0].item or c.lowering.type_facts(c.ret, UNSAFE)).priced(c.cost + 1)


def _draw(c: Call) -> Facts:  # (sorts the set first)
    c.over(0)
    return (c.args[0].item or c.lowering.type_facts(c.ret, UNSAFE)).priced(c.cost)


def _throw(c: Call) -> Facts:
    c.over(0)
    most = sum(max((abs(face) for face in die.faces), default=0) for kind in c.lowering.dice for die in kind.dice)
    return number(most, cost=c.cost)


declare(Builtin("draw_from", (("items", "list(T)"),), "T", "rt.draw_from(self.rng, {0})",
                "One item of a list, drawn at random (chance): a card from the top of a shuffled pile.",
                reads=RNG, facts=_drawn))
declare(Builtin("die", (("faces", "int"),), "int", "rt.die(self.rng, {0})",
                "Roll a die with that many faces: 1 to faces (chance).", reads=RNG,
                facts=lambda c: Facts(c.cost, mag=add_mag(c.args[0].mag, (1, 0)))))
declare(Builtin("coin", (), "bool", "rt.coin(self.rng)", "Toss a coin (chance).", reads=RNG))
declare(Builtin("draw", (("items", "set(T)"),), "T", "rt.draw(self.rng, {0})",
                "One item of a set, drawn at random (chance); the set is not changed.",
                reads=RNG, facts=_draw))
declare(Builtin("throw", (("dice", "set(T)"),), "int", "rt.throw(self.rng, {0}, {faces})",
                "Throw the dice and add the faces that land up (chance).", reads=RNG, facts=_throw))
