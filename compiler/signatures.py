"""The signatures of the mechanics library and built-in values, as the checker sees them.

Each entry says how a rule file may call a function (its parameters' types and its result)
and how the call is written in generated Python. `T` in a type stands for any element type,
bound by the first argument that fixes it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Signature:
    name: str
    params: tuple[tuple[str, str], ...]  # (name, type) with types as in rule files; `T` generic
    returns: str
    python: str  # a format string over the lowered arguments {0}, {1}, ...
    doc: str
    chance: bool = False  # draws from the random generator: effects only


BUILTINS: dict[str, Signature] = {
    s.name: s
    for s in (
        Signature("len", (("items", "list(T)"),), "int", "len({0})", "How many items."),
        Signature("abs", (("n", "int"),), "int", "abs({0})", "Absolute value."),
        Signature("min2", (("a", "int"), ("b", "int")), "int", "min({0}, {1})", "The smaller of two numbers."),
        Signature("max2", (("a", "int"), ("b", "int")), "int", "max({0}, {1})", "The larger of two numbers."),
        Signature(
            "straight_lines", (("n", "int"), ("spots", "list(spot)")), "list(list(spot))",
            "self.board.straight_lines({0}, {1})",
            "Every run of exactly n spots side by side in one straight line, all among `spots`.",
        ),
        Signature(
            "regions_touching", (("spots", "list(spot)"), ("kind", "regionkind")), "list(region)",
            "self.board.regions_touching({0}, {1})",
            "The regions of one kind that contain any of the spots, in board order.",
        ),
        Signature(
            "count_lines", (("n", "int"), ("spots", "list(spot)")), "int",
            "self.board.count_lines({0}, {1})",
            "How many runs straight_lines(n, spots) would list (what len() of it is compiled to).",
        ),
        Signature("regions_of", (("kind", "regionkind"),), "list(region)", "self.board.regions_of_kind[{0}]",
                  "The regions of one kind, in board order."),
        Signature("regions_at", (("spot", "spot"), ("kind", "regionkind")), "list(region)",
                  "self.board.regions_at[{1}][{0}]",
                  "Every region of a kind that holds a spot, in board order (two for a spot on a border)."),
        Signature("region_of", (("spot", "spot"), ("kind", "regionkind")), "region",
                  "self.board.region_of[{1}][{0}]", "The region of a kind that a spot lies in."),
        Signature("spots_of", (("region", "region"),), "list(spot)", "self.board.region_spots[{0}]",
                  "The spots of a region."),
        Signature("neighbours", (("spot", "spot"),), "list(spot)", "self.board.neighbours[{0}]",
                  "The spots next to a spot."),
        Signature("role", (("p", "player"),), "role", "_ROLE_OF_SEAT[{0}]", "The role a seat plays."),
        Signature("range", (("start", "int"), ("stop", "int")), "list(int)", "range({0}, {1})",
                  "The whole numbers from start up to, not including, stop."),
        Signature("steps", (("start", "int"), ("stop", "int"), ("step", "int")), "list(int)",
                  "range({0}, {1}, max({2}, 1))", "start, start + step, ... below stop (bids in hundreds)."),
        Signature("ahead", (("spot", "spot"), ("n", "int")), "spot", "self.board.ahead({0}, {1})",
                  "The spot n steps further along a ring (clockwise)."),
        Signature("passed", (("spot", "spot"), ("n", "int")), "list(spot)", "self.board.passed({0}, {1})",
                  "The spots strictly between a spot and the one n steps ahead on a ring."),
        Signature("seats_from", (("p", "player"),), "list(player)", "rt.seats_from({0}, self.num_players)",
                  "Every seat, starting with p and going clockwise (to the left: the next seat)."),
        # The open auction (runtime/auction.py): an immutable value of type `auction`.
        Signature("no_auction", (), "auction", "rt.NO_AUCTION", "No auction: nobody is in it (a field's init)."),
        Signature("open_auction", (("order", "list(player)"), ("minimum", "int"), ("step", "int")), "auction",
                  "rt.open_auction({0}, {1}, {2})",
                  "An open auction among `order`, the first to act first; bids from `minimum` up by `step`."),
        Signature("auction_bid", (("a", "auction"), ("amount", "int")), "auction", "rt.bid({0}, {1})",
                  "The auction after its bidder bids `amount`; the next one still in is to act."),
        Signature("auction_drop", (("a", "auction"),), "auction", "rt.drop({0})",
                  "The auction after its bidder drops out, for good; the next one still in is to act."),
        Signature("auction_bids", (("a", "auction"), ("cap", "int")), "list(int)", "rt.amounts({0}, {1})",
                  "The bids allowed now, from the lowest allowed up to cap (at least the lowest)."),
        Signature("auction_bidder", (("a", "auction"),), "player", "{0}.to_act",
                  "The player who must bid or drop out now (the actor of an auction phase)."),
        Signature("auction_over", (("a", "auction"),), "bool", "{0}.over",
                  "Whether only the high bidder is left, or nobody."),
        Signature("auction_winner", (("a", "auction"),), "list(player)", "rt.winner_list({0})",
                  "The winner of an auction that is over: one player, or none when nobody bid."),
        Signature("auction_high_bid", (("a", "auction"),), "int", "{0}.high_bid", "The highest bid (0 before any)."),
        Signature("auction_in", (("a", "auction"),), "set(player)", "{0}.still_in",
                  "The players who have not dropped out."),
        Signature("border_regions", (("b", "border"),), "list(region)", "self.board.border_regions[{0}]",
                  "The two regions a border runs between (China's alliances are its provinces' borders)."),
        Signature(
            "road_chains", (("spots", "list(spot)"), ("min", "int"), ("one_per_network", "bool")),
            "list(list(spot))", "self.board.road_chains({0}, {1}, {2})",
            "The chains of at least `min` spots joined one after the other by roads, all among `spots`, each "
            "spot in at most one chain, branches left out: the longest path first, then the longest left (or "
            "only the longest of each network, if one_per_network).",
        ),
        Signature(
            "road_chains_best", (("spots", "list(spot)"), ("min", "int"), ("doubled", "list(spot)")),
            "list(list(spot))", "self.board.best_road_chains({0}, {1}, {2})",
            "The cut of the spots among `spots` into chains of at least `min` spots joined by roads (each spot in "
            "at most one chain, branches left out) that scores the most, a chain scoring its length, twice if it "
            "holds one of `doubled`: an exact search.",
        ),
        Signature("components", (("spots", "list(T)"),), "list(set(T))", "self.board.components({0})",
                  "The connected groups among `spots` (a list or a set of spots), each a set, joined as the board "
                  "joins spots (hex neighbours, roads, ring neighbours): the group of the lowest spot first."),
        Signature("component_of", (("spot", "T"), ("spots", "list(T)")), "set(T)",
                  "self.board.component_of({0}, {1})",
                  "The spots of `spots` connected to `spot` within them; nothing if `spot` is not among them."),
        Signature("majority", (("counts", "list(int)"),), "list(player)", "rt.majority({0})",
                  "The seats holding the most, one count per seat in seat order (`[n(q) for q in players]`): "
                  "all of them on a tie, in seat order; nobody if the most is 0."),
        Signature("ranked", (("counts", "list(int)"), ("place", "int")), "list(player)", "rt.ranked({0}, {1})",
                  "The seats in a place by their counts (1: the most): tied seats share a place, and the next "
                  "count down takes the next place (3, 3, 2: the first two first, the third second); a count "
                  "of 0 has no place."),
        # A wall that grows during play (runtime/boards/wall.py WallBoard): its layout is a list(wallface).
        Signature("wall_spots", (("layout", "list(wallface)"),), "list(spot)", "self.board.wall_spots({0})",
                  "The spots of the faces laid, from the left end of the wall to the right."),
        Signature("wall_neighbours", (("layout", "list(wallface)"), ("spot", "spot")), "list(spot)",
                  "self.board.wall_neighbours({0}, {1})",
                  "The spots just left and right of a spot along the wall, across joins (none if not laid)."),
        Signature("wall_runs", (("layout", "list(wallface)"), ("spots", "list(spot)")), "list(list(spot))",
                  "self.board.wall_runs({0}, {1})",
                  "The unbroken runs of laid spaces among `spots`, each left to right, the leftmost first "
                  "(side by side along the wall, across the joins of the faces laid too)."),
        Signature("wall_regions", (("layout", "list(wallface)"), ("kind", "regionkind")), "list(region)",
                  "self.board.wall_regions({0}, {1})", "The regions of a kind with a spot on the wall, left to right."),
        Signature("wall_pieces", (("layout", "list(wallface)"),), "list(wallpiece)",
                  "self.board.wall_pieces({0})", "The pieces laid, left to right."),
        Signature("attach_left", (("layout", "list(wallface)"), ("face", "wallface")), "list(wallface)",
                  "self.board.attach({0}, {1}, False)",
                  "The layout with a face laid at its left end (a game error if its piece is laid already)."),
        Signature("attach_right", (("layout", "list(wallface)"), ("face", "wallface")), "list(wallface)",
                  "self.board.attach({0}, {1}, True)",
                  "The layout with a face laid at its right end (a game error if its piece is laid already)."),
        Signature("face_spots", (("face", "wallface"),), "list(spot)", "self.board.face_spots[{0}]",
                  "The spaces of a face, left to right."),
        Signature("piece_of", (("face", "wallface"),), "wallpiece", "self.board.face_piece[{0}]",
                  "The piece a face is a side of."),
        Signature("without", (("items", "list(T)"), ("item", "T")), "list(T)", "rt.without({0}, {1})",
                  "The list with its first copy of `item` taken out (the list itself if it holds none)."),
        Signature("sorted", (("items", "list(T)"),), "list(T)", "sorted({0})", "The items in order."),
        Signature("value_of", (("x", "optional(T)"),), "T", "rt.value_of({0}, {where})",
                  "The value an optional holds (a game error if it is `none`: check `x != none` first)."),
        Signature("subsets", (("items", "list(T)"), ("least", "int"), ("most", "int")), "list(list(T))",
                  "rt.subsets(self, {0}, {1}, {2}, {where})",
                  "Every way to take between `least` and `most` of the items (equal items alike), each in order: "
                  "the smallest first, then item by item (a choice of the tiles to swap)."),
        Signature("draw_from", (("items", "list(T)"),), "T", "rt.draw_from(self.rng, {0})",
                  "One item of a list, drawn at random (chance): a card from the top of a shuffled pile.",
                  chance=True),
        Signature("die", (("faces", "int"),), "int", "rt.die(self.rng, {0})",
                  "Roll a die with that many faces: 1 to faces (chance).", chance=True),
        Signature("coin", (), "bool", "rt.coin(self.rng)", "Toss a coin (chance).", chance=True),
        Signature("draw", (("items", "set(T)"),), "T", "rt.draw(self.rng, {0})",
                  "One item of a set, drawn at random (chance); the set is not changed.", chance=True),
        Signature(
            "throw", (("dice", "set(T)"),), "int", "rt.throw(self.rng, {0}, {faces})",
            "Throw the dice and add the faces that land up (chance).", chance=True,
        ),
    )
}

# Aggregates take one comprehension argument: `count(marker[s] == gold for s in sector)`.
AGGREGATES = ("count", "all", "any", "sum", "min", "max", "list", "set")

# Names every rule file can use, with their type and Python form.
VALUES: dict[str, tuple[str, str, str]] = {
    "current": ("player", "self.current", "The seat whose turn it is."),
    "deciding": ("player", "self._deciding()",
                 "The seat deciding now (`to_act()`): the phase's `actor:`, else the seat whose turn it is."),
    "opponent": ("player", "(self.current + 1) % self.num_players", "The next seat (the other one at two players)."),
    "players": ("list(player)", "range(self.num_players)", "Every seat."),
    "owners": ("list(player)", "range(self.num_seats)",
               "Every seat and then the neutral ones (`neutral:`): all who can own pieces."),
    "borders": ("list(border)", "range(len(self.board.border_regions))",
                "Every border between two regions, in the order the board numbers them."),
    "spots": ("list(spot)", "self.board.spots", "Every spot of the board."),
    "regions": ("list(region)", "range(len(self.board.region_names))", "Every region of the board."),
}
