"""China (Michael Schacht), base game, written by hand: the reference issue 38 measures the generated
module against (scripts/bench_handwritten.py), and that plays move for move the same game as
rules/china-schacht/base.yaml (scripts/lockstep_handwritten.py).

Plain Python written for speed, with no generality: 3 to 5 players on the board face made for
their number, and the rule set's default readings only (`board: by_players`, `chain_cut: best`,
`final_round: this_round`). What the rules ask again and again is kept up to date as moves happen:
a bit mask of the free palace spaces and of each player's palaces, each province's palaces and
emissaries per player and in all, the colours of each hand and of the face-up cards as counts
(packed in one number, so that what a hand can pay for is looked up in tables made once).
Actions are small ints numbering every move the game has (a palace on a space paid with a card
or a pair, an emissary to a province, an exchange, ...); their texts are the rule set's
("palace Chin1 with yellow", "emissary Qi with red-red", "exchange green for the top card",
"take red", "draw", "stop", "pass").

Chance is drawn as the rule set draws it: the same SplitMix64 generator as rulewright's Rng
(runtime/rng.py, copied into splitmix.py so that this file needs nothing of rulewright), seeded the same, and
every card drawn as `deck[below(len(deck))]` from the deck kept as the same list in the same order
(built colour by colour, a card taken out as its colour's first copy, the discard pile in the
order cards were discarded becoming the deck when it first runs out). So a seed gives the same
game as `rulewright.load("china-schacht").new_state(players=..., seed=...)` given the same moves.
"""

from __future__ import annotations

from .splitmix import Rng  # (runtime/rng.py's SplitMix64, the same numbers)

# What this version plays: the rule set's readings (its options' defaults), 3 to 5 players.
RULESET = "china-schacht"
PLAYERS = (3, 4, 5)
OPTIONS = {"board": "by_players", "chain_cut": "best", "final_round": "this_round"}

# -- The board (rules/china-schacht/base.yaml, both faces: reconstructed) ---------------------
COLOURS = ("violet", "yellow", "orange", "green", "red")
VIOLET, YELLOW, ORANGE, GREEN, RED = range(5)
CARDS_OF = (10, 11, 11, 12, 13)  # per colour
PROVINCES = (  # name, colour, palace spaces
    ("Chin", YELLOW, 6), ("Shu", ORANGE, 5), ("Zhao", GREEN, 6), ("Wei", RED, 7), ("Han", ORANGE, 5),
    ("Chu", VIOLET, 8), ("Yan", RED, 5), ("Qi", YELLOW, 5), ("Lu", GREEN, 5),
)
SPOTS = tuple(f"{name}{k}" for name, _, size in PROVINCES for k in range(1, size + 1))
SPOT_OF = {label: s for s, label in enumerate(SPOTS)}
N_SPOTS = len(SPOTS)
N_PROVINCES = len(PROVINCES)
PROVINCE_OF = tuple(r for r, (_, _, size) in enumerate(PROVINCES) for _ in range(size))
PROVINCE_MASK = tuple(sum(1 << s for s in range(N_SPOTS) if PROVINCE_OF[s] == r) for r in range(N_PROVINCES))
PROVINCE_COLOUR = tuple(colour for _, colour, _ in PROVINCES)
# per colour, the spaces in the provinces of that colour
COLOUR_SPACES = tuple(sum(PROVINCE_MASK[r] for r in range(N_PROVINCES) if PROVINCE_COLOUR[r] == c) for c in range(5))
ALL_SPACES = (1 << N_SPOTS) - 1
# the 15 alliances, in scoring order (the same borders on both faces)
BORDERS = tuple((a, b) for a, b in ((0, 2), (2, 3), (3, 0), (0, 1), (0, 4), (3, 4), (2, 6), (2, 7), (6, 7),
                                    (3, 7), (3, 8), (7, 8), (4, 5), (1, 5), (8, 5)))
ROADS = {
    "face_3_4": (
        "Zhao1 Chin1 Chin2 Chin3 Chin4 Shu1 Shu2 Shu3 Shu4 Shu5 Chu1 Chu2 Chu3 Chu5 Chu6 Chu8 Chu7 Lu5 Lu4 Lu3 Lu1 "
        "Qi5 Qi4 Qi3 Qi2 Qi1 Wei7 Wei4 Wei3 Wei2 Wei1 Chin6 Chin3",
        "Chin4 Chin5", "Zhao1 Zhao2 Zhao4 Zhao5 Yan1 Yan2 Yan3 Yan5 Yan4 Qi2", "Zhao2 Zhao3 Wei2",
        "Zhao5 Zhao6 Qi1", "Chin6 Han1 Han4 Han3 Han5 Chu4 Chu3", "Han1 Han2 Wei5", "Wei4 Wei5 Wei6 Lu2 Lu1",
    ),
    "face_4_5": (
        "Zhao2 Zhao1 Chin1 Chin2 Chin5 Chin4 Chin3 Chin6 Wei1 Wei2 Wei3 Wei4 Wei7 Qi5 Qi4 Qi3 Qi2 Qi1 Zhao6 Zhao5 "
        "Zhao4 Zhao2",
        "Zhao1 Zhao3 Wei2", "Zhao4 Yan1 Yan4 Yan2 Yan3 Yan5 Qi3",
        "Chin4 Shu1 Shu2 Shu3 Shu5 Chu1 Chu2 Chu3 Chu5 Chu6 Chu8 Chu7 Lu4 Lu3 Lu1 Qi5", "Shu5 Shu4", "Chu3 Chu4",
        "Chin6 Han1 Han2 Han3 Han4 Chu2", "Han3 Han5 Wei6 Wei5 Wei1", "Wei6 Lu2 Lu5 Lu4",
    ),
}
FACE_FOR = {3: "face_3_4", 4: "face_3_4", 5: "face_4_5"}
REMOVED_PER_COLOUR = {3: 2, 4: 1, 5: 0}


def _road_masks(face: str) -> tuple[int, ...]:
    """Each space's neighbours along the roads of a board face, as a bit mask."""
    near = [0] * N_SPOTS
    for road in ROADS[face]:
        stops = [SPOT_OF[label] for label in road.split()]
        for a, b in zip(stops, stops[1:], strict=False):
            near[a] |= 1 << b
            near[b] |= 1 << a
    return tuple(near)


NEAR = {face: _road_masks(face) for face in ROADS}

# -- Actions: every move of the game, numbered ------------------------------------------------
# The payments for one piece: a card of a colour (0-4), or a pair of a colour (5-9).
PAYMENT_TEXT = COLOURS + tuple(f"{c}-{c}" for c in COLOURS)
BUILD = 0  # + payment * N_SPOTS + space
SEND = BUILD + 10 * N_SPOTS  # + payment * N_PROVINCES + province
EXCHANGE_BLIND = SEND + 10 * N_PROVINCES  # + colour
EXCHANGE_FACE_UP = EXCHANGE_BLIND + 5  # + colour * 5 + colour taken
TAKE = EXCHANGE_FACE_UP + 25  # + colour
DRAW = TAKE + 5
STOP = DRAW + 1
PASS = STOP + 1
ACTION_TEXT = (
    [f"palace {SPOTS[s]} with {PAYMENT_TEXT[k]}" for k in range(10) for s in range(N_SPOTS)]
    + [f"emissary {PROVINCES[r][0]} with {PAYMENT_TEXT[k]}" for k in range(10) for r in range(N_PROVINCES)]
    + [f"exchange {c} for the top card" for c in COLOURS]
    + [f"exchange {c} for {t}" for c in COLOURS for t in COLOURS]
    + [f"take {t}" for t in COLOURS] + ["draw", "stop", "pass"]
)
ACTION_OF_TEXT = {text: a for a, text in enumerate(ACTION_TEXT)}
# Per payment, per byte of a mask of spaces and its value: the palaces on those spaces paid so, as
# a tuple, so that listing them takes a lookup per byte of the mask, not work per space.
_BYTES = (N_SPOTS + 7) // 8
BUILD_BYTES = tuple(tuple(tuple(tuple(BUILD + k * N_SPOTS + 8 * i + j for j in range(8) if value >> j & 1)
                                      for value in range(256)) for i in range(_BYTES)) for k in range(10))

# A hand is a number, 2 bits a colour (a hand holds 3 cards at most: it is only ever completed to
# 3); the face-up cards one too, a digit in base 5 a colour (4 cards at most). Per hand, the ways it
# can pay for a piece, the emissaries it can send to each province, its exchanges for the top card;
# per colour given and face-up cards, the exchanges for one of them; per face-up cards, the takes.
HAND_UNIT = tuple(1 << 2 * c for c in range(5))
FACE_UNIT = tuple(5**c for c in range(5))


def _payments(hand: int) -> tuple[int, ...]:
    held = [hand >> 2 * c & 3 for c in range(5)]
    return tuple([c for c in range(5) if held[c]] + [5 + j for j in range(5) if held[j] >= 2])


PAYMENTS = tuple(_payments(h) for h in range(1 << 10))
HAND_COLOURS = tuple(tuple(c for c in range(5) if h >> 2 * c & 3) for h in range(1 << 10))
SENDS = tuple(tuple(tuple(SEND + k * N_PROVINCES + r for k in PAYMENTS[h]
                          if ((k == PROVINCE_COLOUR[r]) if k < 5 else (k - 5 != PROVINCE_COLOUR[r])))
                    for r in range(N_PROVINCES)) for h in range(1 << 10))
EXCHANGES_BLIND = tuple(tuple(EXCHANGE_BLIND + c for c in HAND_COLOURS[h]) for h in range(1 << 10))
FACE_COLOURS = tuple(tuple(t for t in range(5) if f // 5**t % 5) for f in range(5**5))
EXCHANGES_FACE_UP = tuple(tuple(tuple(EXCHANGE_FACE_UP + 5 * c + t for t in FACE_COLOURS[f]) for f in range(5**5))
                          for c in range(5))
TAKES = tuple(tuple(TAKE + t for t in FACE_COLOURS[f]) for f in range(5**5))

TURN, SECOND, REFILL = 0, 1, 2  # the phases: a turn's first piece or exchange, its second piece, refilling the hand

# -- Road chains: the best cut of a player's palaces into unbranched paths of 4 or more ---------
_BEST_CUT: dict[tuple[str, int], int] = {}  # (face, palaces' mask) -> the most palaces chains can hold


def _paths_through(v: int, mask: int, near: tuple[int, ...]) -> set[int]:
    """The spot masks of the simple paths of 4 or more spots within `mask` that hold spot v."""
    found: set[int] = set()
    # every path is a path from one of its ends: search from every spot of the mask
    todo = []
    m = mask
    while m:
        low = m & -m
        todo.append((low.bit_length() - 1, low))
        m ^= low
    while todo:
        end, on = todo.pop()
        if on >> v & 1 and on.bit_count() >= 4:
            found.add(on)
        ahead = near[end] & mask & ~on
        while ahead:
            low = ahead & -ahead
            todo.append((low.bit_length() - 1, on | low))
            ahead ^= low
    return found


def _best_cut(face: str, mask: int) -> int:
    """The most palaces of `mask` a set of disjoint unbranched paths of 4 or more can hold: the
    lowest palace is in none, or in one of the paths through it."""
    if mask.bit_count() < 4:
        return 0
    key = (face, mask)
    known = _BEST_CUT.get(key)
    if known is not None:
        return known
    low = mask & -mask
    v = low.bit_length() - 1
    near = NEAR[face]
    best = _best_cut(face, mask ^ low)
    for path in _paths_through(v, mask, near):
        value = path.bit_count() + _best_cut(face, mask & ~path)
        if value > best:
            best = value
    _BEST_CUT[key] = best
    return best


def chain_points(face: str, palaces: int) -> int:
    """A player's points for road chains: the best cut of each network of his palaces."""
    near = NEAR[face]
    total = 0
    left = palaces
    while left:
        group = edge = left & -left
        while edge:
            grown = 0
            while edge:
                bit = edge & -edge
                grown |= near[bit.bit_length() - 1]
                edge ^= bit
            edge = grown & left & ~group
            group |= edge
        left ^= group
        if group.bit_count() >= 4:
            total += _best_cut(face, group)
    return total


class ChinaSchacht:
    """A game of China (Schacht), base game."""

    __slots__ = ("rng", "players", "face", "current", "phase", "terminal", "moves", "free", "palaces", "in_province",
                 "emissaries", "emissary_total", "most", "room", "scored", "palaces_left", "emissaries_left",
                 "with_palaces", "with_emissaries", "score", "hand", "hand_size", "deck", "face_up", "face_up_size",
                 "discard", "exhausted", "end_announced", "finished", "here", "placed", "was_empty", "_legal")

    def __init__(self, seed: int = 0, players: int = 3) -> None:
        if players not in PLAYERS:
            raise ValueError("China (Schacht) is played by 3 to 5 players")
        self.rng = Rng(seed)
        self.players = n = players
        self.face = FACE_FOR[n]
        self.current = 0
        self.phase = TURN
        self.terminal = False
        self.moves = 0
        self.free = ALL_SPACES  # the palace spaces with no palace
        self.palaces = [0] * n  # each player's palaces, a mask of spaces
        self.in_province = [[0] * n for _ in range(N_PROVINCES)]  # palaces per province, per player
        self.emissaries = [[0] * n for _ in range(N_PROVINCES)]  # emissaries per province, per player
        self.emissary_total = [0] * N_PROVINCES
        self.most = [0] * N_PROVINCES  # the majority's palaces per province
        self.room = 0  # the provinces with room for an emissary (most > emissaries), a bit mask
        self.scored = [False] * N_PROVINCES
        self.palaces_left = [20] * n
        self.emissaries_left = [8] * n
        self.with_palaces = self.with_emissaries = n  # how many players have palaces, emissaries left
        self.score = [0] * n
        self.hand = [0] * n  # each hand's cards, 2 bits a colour
        self.hand_size = [0] * n
        removed = REMOVED_PER_COLOUR[n]
        self.deck = [c for c in range(5) for _ in range(removed, CARDS_OF[c])]
        self.face_up = 0  # the face-up cards, a digit in base 5 a colour
        self.face_up_size = 0
        self.discard: list[int] = []
        self.exhausted = 0
        self.end_announced = False
        self.finished = False
        self.here = -1  # the province of this turn's pieces, once the first is placed
        self.placed = 0
        self.was_empty = False
        self._legal: list[int] | None = None
        for p in range(n):
            for _ in range(3):
                self._draw_blind(p)
        self._refill_face_up()

    # -- cards ------------------------------------------------------------------------------
    def _draw_blind(self, p: int) -> None:
        deck = self.deck
        c = deck[self.rng.below(len(deck))]
        deck.remove(c)
        self.hand[p] += HAND_UNIT[c]
        self.hand_size[p] += 1
        if not deck:
            self._deck_out()

    def _deck_out(self) -> None:
        """The deck has run out: the first time the discard pile becomes the deck."""
        self.exhausted += 1
        if self.exhausted == 1:
            self.deck = self.discard
            self.discard = []
            if not self.deck:
                self.exhausted = 2

    def _refill_face_up(self) -> None:
        while self.face_up_size < 4 and self.deck:
            deck = self.deck
            c = deck[self.rng.below(len(deck))]
            deck.remove(c)
            self.face_up += FACE_UNIT[c]
            self.face_up_size += 1
            if not deck:
                self._deck_out()

    # -- the moves ------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is not None:
            return legal
        legal = []
        if self.terminal:
            self._legal = legal
            return legal
        p = self.current
        hand = self.hand[p]
        phase = self.phase
        if phase == REFILL:
            legal += TAKES[self.face_up]
            if self.deck:
                legal.append(DRAW)
        else:
            here = self.here
            if self.palaces_left[p] > 0:
                open_free = self.free & (PROVINCE_MASK[here] if here >= 0 else ALL_SPACES)
                for k in PAYMENTS[hand]:
                    if k < 5:  # one card of the province's colour
                        spaces = open_free & COLOUR_SPACES[k]
                    else:  # a pair of another colour
                        spaces = open_free & ~COLOUR_SPACES[k - 5]
                    if spaces:
                        by_byte = BUILD_BYTES[k]
                        i = 0
                        for byte in spaces.to_bytes(_BYTES, "little"):
                            if byte:
                                legal += by_byte[i][byte]
                            i += 1
            if self.emissaries_left[p] > 0:
                room = self.room if here < 0 else self.room & 1 << here
                sends = SENDS[hand]
                while room:
                    low = room & -room
                    legal += sends[low.bit_length() - 1]
                    room ^= low
            if phase == TURN:
                if self.deck:
                    legal += EXCHANGES_BLIND[hand]
                face_up = self.face_up
                for c in HAND_COLOURS[hand]:
                    legal += EXCHANGES_FACE_UP[c][face_up]
            else:
                legal.append(STOP)
        if not legal:
            legal.append(PASS)
        self._legal = legal
        return legal

    def apply(self, action: int) -> None:
        """Play an action of legal_actions() (trusted: apply_text checks a text)."""
        self._legal = None
        self.moves += 1
        p = self.current
        next_phase = -1
        if action < EXCHANGE_BLIND:  # a piece: a palace, or an emissary
            if action < SEND:
                k, space = divmod(action - BUILD, N_SPOTS)
                r = PROVINCE_OF[space]
            else:
                k, r = divmod(action - SEND, N_PROVINCES)
            if self.here < 0:  # the turn's first piece
                self.here = r
                self.was_empty = not self.emissary_total[r] and not (PROVINCE_MASK[r] & ~self.free)
            if k < 5:
                self.hand[p] -= HAND_UNIT[k]
                self.hand_size[p] -= 1
                self.discard.append(k)
            else:
                self.hand[p] -= 2 * HAND_UNIT[k - 5]
                self.hand_size[p] -= 2
                self.discard += (k - 5, k - 5)
            if action < SEND:
                bit = 1 << space
                self.free &= ~bit
                self.palaces[p] |= bit
                mine = self.in_province[r][p] = self.in_province[r][p] + 1
                if mine > self.most[r]:  # a new majority: room for one more emissary
                    self.most[r] = mine
                    self.room |= 1 << r
                self.palaces_left[p] -= 1
                if not self.palaces_left[p]:
                    self.with_palaces -= 1
                if not self.scored[r] and not self.free & PROVINCE_MASK[r]:  # the province is full: scored now
                    for q in range(self.players):
                        self.score[q] += self._province_points(q, r)
                    self.scored[r] = True
            else:
                self.emissaries[r][p] += 1
                total = self.emissary_total[r] = self.emissary_total[r] + 1
                if total == self.most[r]:
                    self.room &= ~(1 << r)
                self.emissaries_left[p] -= 1
                if not self.emissaries_left[p]:
                    self.with_emissaries -= 1
            # the end (no piece can be placed anywhere) changes with a piece placed, and only then
            if not ((self.free and self.with_palaces) or (self.room and self.with_emissaries)):
                self.terminal = True
                return
            self.placed += 1
            if self.placed < 2 and not self.was_empty and self.hand_size[p]:
                next_phase = SECOND
            else:
                next_phase = self._refill_hand(p)
        elif action < EXCHANGE_FACE_UP:
            c = action - EXCHANGE_BLIND
            self.hand[p] -= HAND_UNIT[c]
            self.hand_size[p] -= 1
            self.discard.append(c)
            self._draw_blind(p)
        elif action < TAKE:
            c, t = divmod(action - EXCHANGE_FACE_UP, 5)
            self.hand[p] += HAND_UNIT[t] - HAND_UNIT[c]
            self.discard.append(c)
            self.face_up -= FACE_UNIT[t]
            self.face_up_size -= 1
        elif action < DRAW:
            t = action - TAKE
            self.face_up -= FACE_UNIT[t]
            self.face_up_size -= 1
            self.hand[p] += HAND_UNIT[t]
            self.hand_size[p] += 1
            next_phase = self._refill_hand(p)
        elif action == DRAW:
            self._draw_blind(p)
            next_phase = self._refill_hand(p)
        elif action == STOP:
            next_phase = self._refill_hand(p)
        if next_phase >= 0:
            self.phase = next_phase
            return
        # the turn ends: the face-up cards refilled; the last round once the deck ran out twice
        if self.face_up_size < 4 and self.deck:
            self._refill_face_up()
        self.here = -1
        self.placed = 0
        self.was_empty = False
        if self.exhausted >= 2:
            if p == self.players - 1:
                self.finished = True
            self.end_announced = True
            if self.finished:
                self.terminal = True
                return
        self.current = (p + 1) % self.players
        self.phase = TURN

    def _refill_hand(self, p: int) -> int:
        """The phase a player refilling his hand goes to: REFILL while a card can be had, else none (-1)."""
        if self.hand_size[p] < 3 and (self.deck or self.face_up_size):
            return REFILL
        return -1

    def apply_text(self, text: str) -> None:
        action = ACTION_OF_TEXT.get(text, -1)
        if action not in self.legal_actions():
            raise ValueError(f"illegal action: {text!r}")
        self.apply(action)

    # -- scores -----------------------------------------------------------------------------
    def _province_points(self, p: int, r: int) -> int:
        """The smallest holding above the player's own, or every palace of the province if none is
        above; nothing without a palace."""
        counts = self.in_province[r]
        mine = counts[p]
        if not mine:
            return 0
        least = (PROVINCE_MASK[r] & ~self.free).bit_count()
        for n in counts:
            if mine < n < least:
                least = n
        return least

    def _leads(self, p: int, r: int) -> bool:
        counts = self.emissaries[r]
        return counts[p] > 0 and counts[p] == max(counts)

    def scores(self) -> list[int]:
        out = []
        for p in range(self.players):
            total = self.score[p]
            for r in range(N_PROVINCES):
                if not self.scored[r]:
                    total += self._province_points(p, r)
            for a, b in BORDERS:
                if self._leads(p, a) and self._leads(p, b):
                    total += self.emissary_total[a] + self.emissary_total[b]
            total += chain_points(self.face, self.palaces[p])
            out.append(total)
        return out

    def winners(self) -> list[int]:
        """The highest scores; on a tie, those with the most pieces left in reserve."""
        if not self.terminal:
            return []
        scores = self.scores()
        best = max(scores)
        tied = [p for p in range(self.players) if scores[p] == best]
        most = max(self.palaces_left[p] + self.emissaries_left[p] for p in tied)
        return [p for p in tied if self.palaces_left[p] + self.emissaries_left[p] == most]

    @staticmethod
    def action_text(action: int) -> str:
        return ACTION_TEXT[action]

    def is_terminal(self) -> bool:
        return self.terminal


def new_state(seed: int = 0, players: int = 3) -> ChinaSchacht:
    return ChinaSchacht(seed, players)
