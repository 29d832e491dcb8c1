"""China (Gunter Cornett), written by hand: the reference issue 38 measures the generated module
against (scripts/bench_handwritten.py), and that plays move for move the same game as
rules/china-cornett/base.yaml (scripts/lockstep_handwritten.py).

Plain Python written for speed, with no generality: the 91-region board (`hex6`) and the rule
set's default readings only (`sector_collector: with_own`, `reduction_reading: at_most_one`).
The markers are two bit masks kept up to date as moves happen (face down, gold side up; a marker
in neither is removed), on a padded bitboard where a step along each of the hexagon's three axes
is a shift that never wraps onto another row, so the straight lines of n face-down markers are
found with n - 1 shifts and ands per axis. Actions are small ints: a straight line's number, or
a spot's for turning a marker back, or PASS; their texts are the rule set's ("prospect
E3-E4-E5", "turn back E3", "pass").

Chance is drawn as the rule set draws it: the same SplitMix64 generator as rulewright's Rng
(runtime/rng.py, copied into splitmix.py so that this file needs nothing of rulewright), seeded the same,
and the tablets thrown in the same order (t01, t02, t12, each `below(2)` to pick a face), one
throw at the start of every turn while tablets are in play. So a seed gives the same game as
`rulewright.load("china-cornett").new_state(seed=...)` given the same moves.
"""

from __future__ import annotations

from .splitmix import Rng  # (runtime/rng.py's SplitMix64, the same numbers)

# What this version plays: the rule set's readings (its options' defaults), two players.
RULESET = "china-cornett"
PLAYERS = (2,)
OPTIONS = {"board": "hex6", "sector_collector": "with_own", "reduction_reading": "at_most_one"}

# -- The board --------------------------------------------------------------------------------
SIDE = 6
_RADIUS = SIDE - 1
_WIDTH = 2 * SIDE  # one empty column: a step along an axis never wraps onto the next row
COORDS = sorted(((q, r) for r in range(-_RADIUS, _RADIUS + 1) for q in range(-_RADIUS, _RADIUS + 1)
                 if abs(q + r) <= _RADIUS), key=lambda c: (c[1], c[0]))  # reading order
N_SPOTS = len(COORDS)  # 91
LABELS: list[str] = []
for _row, _r in enumerate(range(-_RADIUS, _RADIUS + 1)):
    _in_row = sorted(q for q, r in COORDS if r == _r)
    LABELS += [f"{chr(ord('A') + _row)}{k}" for k in range(1, len(_in_row) + 1)]
SPOT_OF_LABEL = {label: s for s, label in enumerate(LABELS)}
BIT = [1 << ((r + _RADIUS) * _WIDTH + q + _RADIUS) for q, r in COORDS]  # each spot's bit
SPOT_AT_POS = {b.bit_length() - 1: s for s, b in enumerate(BIT)}
ALL = sum(BIT)
STEPS = (1, _WIDTH, _WIDTH - 1)  # the axes (1, 0), (0, 1), (-1, 1) of axial coordinates

MOUNTAINS = (  # rules/china-cornett/base.yaml, board hex6 (reconstructed)
    ("A1", "A2", "A3", "B2", "B3", "C3"), ("A4", "B4", "B5"), ("A5", "A6", "B6", "B7"),
    ("B1", "C1", "C2", "D2", "D3"), ("C4", "C5", "D4", "D5", "D6", "E5", "E6"),
    ("C6", "C7", "C8", "D7", "D8", "D9", "E8", "E9"), ("D1", "E1", "E2", "F1", "F2", "G1"),
    ("E3", "E4", "F3", "F4", "F5", "G4"), ("E7", "F7", "F8", "G7"), ("E10", "F9", "F10", "F11", "G8", "G9", "G10"),
    ("F6", "G5", "G6", "H4", "H5", "H6", "I4", "I5"), ("G2", "G3", "H1", "H2", "H3", "I1", "I2", "I3"),
    ("H7", "H8", "H9", "I6", "I7", "I8"), ("J1", "J2", "K1"), ("J3", "J4", "K2", "K3"), ("J5", "K4", "K5"),
    ("J6", "J7", "K6"),
)
_AT = {c: s for s, c in enumerate(COORDS)}
# The rivers are the mountains in the mirror (q, r) -> (r, q).
RIVERS = tuple(tuple(LABELS[_AT[COORDS[SPOT_OF_LABEL[label]][::-1]]] for label in m) for m in MOUNTAINS)
# The sectors of each kind (0 mountains, seat 1's; 1 rivers, seat 2's) as bit masks, and each spot's sector
SECTOR_MASK = tuple(tuple(sum(BIT[SPOT_OF_LABEL[label]] for label in sector) for sector in kind)
                    for kind in (MOUNTAINS, RIVERS))
SECTOR_OF = tuple([0] * N_SPOTS for _ in range(2))
for _kind in (0, 1):
    for _k, _sector in enumerate((MOUNTAINS, RIVERS)[_kind]):
        for _label in _sector:
            SECTOR_OF[_kind][SPOT_OF_LABEL[_label]] = _k

# The straight lines of 1 to 5 spots, numbered; per length and axis, a line's number by the bit
# position of its first spot. A line of one spot is one line (of the first axis).
LINE_MASK: list[int] = []
LINE_TEXT: list[str] = []
LINE_SECTORS: list[tuple[tuple[int, ...], tuple[int, ...]]] = []  # the sectors a line touches, by kind
LINE_AT: list[list[list[int]]] = [[]]  # LINE_AT[n][axis][first bit position] (-1: none)
_POSITIONS = ALL.bit_length()
for _n in range(1, 6):
    _by_axis = []
    for _axis, _step in enumerate(STEPS if _n > 1 else STEPS[:1]):
        _at = [-1] * _POSITIONS
        for _pos in sorted(SPOT_AT_POS):
            _spots = [SPOT_AT_POS.get(_pos + k * _step) for k in range(_n)]
            if all(s is not None for s in _spots):
                _line = [s for s in _spots if s is not None]
                _at[_pos] = len(LINE_MASK)
                LINE_MASK.append(sum(BIT[s] for s in _line))
                LINE_TEXT.append("prospect " + "-".join(LABELS[s] for s in _line))
                LINE_SECTORS.append((tuple(sorted({SECTOR_OF[0][s] for s in _line})),
                                     tuple(sorted({SECTOR_OF[1][s] for s in _line}))))
        _by_axis.append(_at)
    LINE_AT.append(_by_axis)

# Actions: a line's number; TURN_BACK + a spot; PASS.
TURN_BACK = len(LINE_MASK)
PASS = TURN_BACK + N_SPOTS
# A mask of the bitboard is read a byte at a time: per byte of it and the byte's value, the actions
# its bits stand for, as a tuple (so that listing them takes a lookup per byte, not work per bit).
N_BYTES = (_POSITIONS + 7) // 8


def _by_byte(action_at: list[int]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per byte and value, the actions action_at[position] of its bits' positions (-1: none)."""
    at = action_at + [-1] * (8 * N_BYTES - len(action_at))
    return tuple(tuple(tuple(at[8 * i + j] for j in range(8) if value >> j & 1 and at[8 * i + j] >= 0)
                       for value in range(256)) for i in range(N_BYTES))


# Per length of line, per axis: the shifts that keep in a mask the first spots of the lines within
# it, and the lines by their first spot, byte by byte.
AXES_OF_LENGTH = [()] + [tuple((tuple(k * step for k in range(1, n)), _by_byte(at))
                               for at, step in zip(LINE_AT[n], STEPS, strict=False)) for n in range(1, 6)]
_TURN_BACK_AT = [-1] * _POSITIONS  # the action turning back the marker at a bit position
for _s, _b in enumerate(BIT):
    _TURN_BACK_AT[_b.bit_length() - 1] = TURN_BACK + _s
TURN_BACKS = _by_byte(_TURN_BACK_AT)
ACTION_TEXT = LINE_TEXT + [f"turn back {label}" for label in LABELS] + ["pass"]
ACTION_OF_TEXT = {text: a for a, text in enumerate(ACTION_TEXT)}

# The tablets in play: all three; 0/2 and 1/2; 0/1 and 1/2; none.
ALL_THREE, FIRST_REDUCED, SECOND_REDUCED, NO_TABLETS = 0, 1, 2, 3


def _at_most_one_line(n: int, mask: int) -> bool:
    """Whether at most one straight line of n >= 2 spots lies within the spots of `mask` (lines
    counted as windows: a row of n + 1 spots holds two)."""
    total = 0
    for step in STEPS:
        m = mask
        for k in range(1, n):
            m &= mask >> (k * step)
        total += m.bit_count()
        if total > 1:
            return False
    return True


class ChinaCornett:
    """A game of China (Cornett), two players: seat 0 digs in the mountains, seat 1 panns in the rivers."""

    __slots__ = ("rng", "current", "face_down", "gold_side", "gold", "tablets", "roll", "terminal", "moves", "_legal")

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self.current = 0
        self.face_down = ALL
        self.gold_side = 0
        self.gold = [0, 0]
        self.tablets = ALL_THREE
        self.terminal = False
        self.moves = 0
        self._legal: list[int] | None = None
        self._throw()

    def _throw(self) -> None:
        below = self.rng.below
        tablets = self.tablets
        if tablets == ALL_THREE:  # t01, t02, t12, in that order
            self.roll = below(2) + 2 * below(2) + 1 + below(2)
        elif tablets == FIRST_REDUCED:  # t02, t12
            self.roll = 2 * below(2) + 1 + below(2)
        elif tablets == SECOND_REDUCED:  # t01, t12
            self.roll = below(2) + 1 + below(2)
        else:
            self.roll = 0

    # -- the moves ------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is not None:
            return legal
        legal = []
        if self.terminal:
            self._legal = legal
            return legal
        face_down = self.face_down
        tablets = self.tablets
        for n in (self.roll,) if tablets != NO_TABLETS else (1, 2):  # else one marker or two side by side
            for shifts, by_byte in AXES_OF_LENGTH[n]:
                m = face_down
                for shift in shifts:
                    m &= face_down >> shift
                if m:
                    i = 0
                    for byte in m.to_bytes(N_BYTES, "little"):
                        if byte:
                            legal += by_byte[i][byte]
                        i += 1
        if tablets != NO_TABLETS and self.gold_side:  # turning a marker back
            i = 0
            for byte in self.gold_side.to_bytes(N_BYTES, "little"):
                if byte:
                    legal += TURN_BACKS[i][byte]
                i += 1
        if not legal:
            legal.append(PASS)
        self._legal = legal
        return legal

    def apply(self, action: int) -> None:
        """Play an action of legal_actions() (trusted: apply_text checks a text)."""
        self._legal = None
        self.moves += 1
        current = self.current
        if action < TURN_BACK:  # prospect: the line's markers gold side up
            line = LINE_MASK[action]
            face_down = self.face_down = self.face_down & ~line
            self.gold_side |= line
            # transport the gold: own sectors completed first, then the opponent's
            own_sectors, other_sectors = LINE_SECTORS[action]
            if current:
                own_sectors, other_sectors = other_sectors, own_sectors
            own_masks = SECTOR_MASK[current]
            other_masks = SECTOR_MASK[1 - current]
            own = False
            for k in own_sectors:
                sector = own_masks[k]
                if not face_down & sector:
                    own = True
                    self.gold[current] += (self.gold_side & sector).bit_count()
                    self.gold_side &= ~sector
            for k in other_sectors:
                sector = other_masks[k]
                if not face_down & sector:
                    self.gold[current if own else 1 - current] += (self.gold_side & sector).bit_count()
                    self.gold_side &= ~sector
            if not face_down and not self.gold_side:  # every marker removed
                self.terminal = True
                return
        elif action < PASS:  # turn a marker back face down
            bit = BIT[action - TURN_BACK]
            self.face_down |= bit
            self.gold_side &= ~bit
        # the turn ends: the reductions of the tablets (at most one alignment of the length left)
        tablets = self.tablets
        if tablets == ALL_THREE and _at_most_one_line(5, self.face_down):
            tablets = FIRST_REDUCED
        if tablets == FIRST_REDUCED and _at_most_one_line(4, self.face_down):
            tablets = SECOND_REDUCED
        if tablets == SECOND_REDUCED and _at_most_one_line(3, self.face_down):
            tablets = NO_TABLETS
        self.tablets = tablets
        self.current = 1 - current
        self._throw()

    def apply_text(self, text: str) -> None:
        action = ACTION_OF_TEXT.get(text, -1)
        if action not in self.legal_actions():
            raise ValueError(f"illegal action: {text!r}")
        self.apply(action)

    # -- what the game shows --------------------------------------------------------------
    @staticmethod
    def action_text(action: int) -> str:
        return ACTION_TEXT[action]

    def is_terminal(self) -> bool:
        return self.terminal

    def scores(self) -> list[int]:
        return list(self.gold)

    def winners(self) -> list[int]:
        if not self.terminal:
            return []
        best = max(self.gold)
        return [p for p in (0, 1) if self.gold[p] == best]


def new_state(seed: int = 0, players: int = 2) -> ChinaCornett:
    if players != 2:
        raise ValueError("China (Cornett) is played by 2 players")
    return ChinaCornett(seed)
