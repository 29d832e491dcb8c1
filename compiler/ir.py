"""Stage 4's product: the rule set as frozen dataclasses, its expressions as parsed (compiler/ast.py)
and its declarations with their declared types; stage 5 (check) gives the typed program.

Everything is a tuple, every node has the span of the rule line it came from (in whichever file
of an `extends:` chain that was), and components are named so a variant can address them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.source import SourceSpan
from . import ast
from .types import Ty


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    default: str
    choices: tuple[str, ...]
    doc: str
    quote: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Region:
    name: str
    spots: tuple[str, ...]
    span: SourceSpan
    attributes: tuple[tuple[str, str], ...] = ()  # (attribute, value name): `colour: violet`
    owner: str | int | None = None  # `owner:` a seat's number, a role or a neutral seat (check/declare.py)
    owner_span: SourceSpan | None = None


@dataclass(frozen=True, slots=True)
class RegionKind:
    name: str
    regions: tuple[Region, ...]
    mirror_of: str | None
    rename: tuple[tuple[str, str], ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class BoardExpect:
    spots: int | None
    regions: tuple[tuple[str, int], ...]
    region_size: tuple[int, int] | None
    contiguous: bool
    cover_each_spot_once: bool
    no_region_equal: tuple[str, ...]
    span: SourceSpan
    connected: bool = False  # a graph board: one road network
    borders: tuple[tuple[str, int], ...] = ()  # how many borders of each region kind
    borders_match_roads: str | None = None  # the region kind whose borders are exactly its road crossings
    attribute_counts: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # regions per attribute value
    bordering_differ: str | None = None  # an attribute two bordering regions never share
    pieces: int | None = None  # a wall board: how many pieces
    regions_per_face: tuple[tuple[str, int], ...] = ()  # a wall board: regions of each kind on every face
    face_size: tuple[int, int] | None = None  # a wall board: spaces of every face, [min, max]
    largest_wall: tuple[tuple[int, int], ...] = ()  # a wall board: k faces of k pieces hold at most n spaces


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    hexagon: int  # spots per edge of a hexagonal board; 0 for a ring
    region_kinds: tuple[RegionKind, ...]
    expect: BoardExpect | None
    span: SourceSpan
    ring: int = 0  # the number of spots of a ring board (a closed track)
    graph: tuple[str, ...] = ()  # the spots of a graph board, in order (hexagon and ring are 0 then)
    roads: tuple[tuple[str, ...], ...] = ()  # a graph board's roads, each a path of spots
    borders: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()  # per region kind, its bordering pairs
    players: tuple[int, int] | None = None  # the player counts this board is for
    hexmap: HexMap | None = None  # a hex map of any outline, drawn as rows of text
    wall: tuple[WallPiece, ...] = ()  # a wall that grows during play: its pieces
    graph_spans: tuple[SourceSpan, ...] = ()  # where each spot of a graph board is written
    grid: Grid | None = None  # a square grid, maybe with holes


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """What one symbol of a hex map stands for: `"~": {terrain: river}`."""

    symbol: str
    attributes: tuple[tuple[str, str], ...]  # (attribute, value name)
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class HexMap:
    rows: tuple[str, ...]  # each row of the map as written; a space is no cell
    legend: tuple[LegendEntry, ...]
    span: SourceSpan  # the rows


@dataclass(frozen=True, slots=True)
class Grid:
    """A square grid: `grid: {rows: R, columns: C}`, or drawn as rows of text with a legend."""

    rows: int  # (drawn: 0, its rows are `text`'s)
    columns: int
    text: tuple[str, ...]  # each row as drawn, the top row first; a space is no cell (empty: every cell)
    legend: tuple[LegendEntry, ...]  # (drawn without a legend: empty)
    connect: str  # which cells are neighbours (and joined in components): orthogonal, all, hex (GRID_CONNECT)
    span: SourceSpan  # the rows


@dataclass(frozen=True, slots=True)
class WallFace:
    name: str
    spots: tuple[str, ...]  # left to right
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class WallPiece:
    name: str
    faces: tuple[WallFace, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Die:
    name: str
    faces: tuple[int, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class DiceKind:
    name: str
    dice: tuple[Die, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    per: str | None  # None, "player", "spot", "region" or a dice kind
    type: Ty
    values: tuple[str, ...]  # the value names, for a field of its own enum type
    init: ast.Expr
    visible: str  # all, owner, none, size or to
    doc: str
    span: SourceSpan
    shown_if: ast.Expr | None = None  # while true, an owner/none field is seen by all
    hide_items_if: ast.Expr | None = None  # item k of a list field is hidden while true
    visible_to: ast.Expr | None = None  # `visible: {to: ...}`: the one player who sees entry or item k
    pool: str = ""  # `pool:`: the fields whose unseen items are drawn again together (runtime/unseen.py)
    # `unseen: redraw`: an unseen entry is drawn afresh from the field's values (an int's `range:`, least and most)
    redraw: bool = False
    range: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Define:
    name: str
    params: tuple[Param, ...]
    body: ast.Expr
    span: SourceSpan
    cached: bool = False  # `cached: true`: computed once per state, until the state changes
    # the version a variant's new one replaced, when its body uses it: `base(rent(a))`
    # (docs/variants.md, "Using what a variant replaces"); its own `base` the one before, and so on
    base: Define | None = None


@dataclass(frozen=True, slots=True)
class Procedure:
    name: str
    params: tuple[Param, ...]
    body: tuple[ast.Stmt, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class NameRef:
    """A name written in a rule file that refers to another declaration."""

    name: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Phase:
    name: str
    start: tuple[ast.Stmt, ...]
    actions: tuple[NameRef, ...]
    when_stuck: str  # "pass" or "end"
    then: NameRef | None  # the next phase after an action; None: the turn ends
    span: SourceSpan
    actor: ast.Expr | None = None  # who decides in this phase (default: the seat whose turn it is)
    simultaneous: ast.Expr | None = None  # the seats that choose at once in this phase (a list of players)


@dataclass(frozen=True, slots=True)
class Choice:
    name: str
    domain: ast.Expr
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Action:
    name: str
    choices: tuple[Choice, ...]
    when: ast.Expr | None
    text: str
    effect: tuple[ast.Stmt, ...]
    span: SourceSpan
    # What the other seats read of the move (`others_text:`, the acting seat reads `text`), and
    # from when on everyone reads `text` (`revealed_when:`, with the choices bound; always at the end).
    others_text: str | None = None
    others_span: SourceSpan | None = None
    revealed_when: ast.Expr | None = None


@dataclass(frozen=True, slots=True)
class Trigger:
    name: str
    after: tuple[NameRef, ...]  # actions after which it runs
    at: str | None  # "turn_end"
    when: ast.Expr | None
    effect: tuple[ast.Stmt, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class ScoreTerm:
    name: str
    expr: ast.Expr
    span: SourceSpan
    base: ScoreTerm | None = None  # the version a variant's new one replaced, when it uses it: `base(gold)`


@dataclass(frozen=True, slots=True)
class Returns:
    """Each seat's return once the game is over (`returns:`): an int over `player`; what the returns
    of every game add up to (`sum:`, 0 for a zero-sum game; None: no promise), and the least and
    most one seat can get (`range:`), both checked at the end of every game."""

    value: ast.Expr
    sum: int | None
    range: tuple[int, int] | None
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Invariant:
    """A condition every position of the game holds (`invariants: {name: "condition"}`): the
    rulebook's own facts, checked on scenario positions and during random games."""

    name: str
    expr: ast.Expr
    doc: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Attribute:
    name: str
    value: ast.Expr  # over `i`, the component's number from 0
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Component:
    """A fixed set of numbered pieces with constant attributes (`tile`: 72, `animal`, `emperor`)."""

    name: str
    count: int
    all_name: str | None  # the name of the list of all of them (`tiles`)
    attributes: tuple[Attribute, ...]
    span: SourceSpan
    all_span: SourceSpan | None = None  # where `all:` names that list


@dataclass(frozen=True, slots=True)
class EnumDecl:
    """A named set of values declared on its own (`enums: {animal: [rat, ox, ...]}`)."""

    name: str
    values: tuple[str, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class RecordDecl:
    """A kind of value made of named fields (`records: {leader: {owner: player, at: spot}}`)."""

    name: str
    fields: tuple[tuple[str, Ty], ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class RuleSet:
    game: str
    variant: str
    title: str
    author: str
    players: tuple[int, ...]
    roles: tuple[str, ...]
    options: tuple[Option, ...]
    boards: tuple[Board, ...]
    dice: tuple[DiceKind, ...]
    fields: tuple[Field, ...]
    defines: tuple[Define, ...]
    procedures: tuple[Procedure, ...]
    phases: tuple[Phase, ...]
    actions: tuple[Action, ...]
    triggers: tuple[Trigger, ...]
    end: ast.Expr | None
    scoring: tuple[ScoreTerm, ...]
    winner: str
    files: tuple[str, ...]  # the rule files it was resolved from, base first
    span: SourceSpan
    enums: tuple[EnumDecl, ...] = ()
    components: tuple[Component, ...] = ()
    neutral: tuple[str, ...] = ()  # seats that own pieces but never take a turn nor win (China's Emperor)
    setup: tuple[ast.Stmt, ...] = ()  # effects run once, before the first turn (chance allowed)
    tie_break: ast.Expr | None = None  # among players tied on score, the higher value of this wins
    records: tuple[RecordDecl, ...] = ()  # kinds of values made of named fields
    invariants: tuple[Invariant, ...] = ()  # conditions every position holds (docs/scenarios.md, "Invariants")
    returns: Returns | None = None  # each seat's declared return at the end (`returns:`), or the winners' share
    # presentation hints for drawings (`drawing:`): a colour per value, an icon per component kind
    colours: tuple[tuple[str, str], ...] = ()
    icons: tuple[tuple[str, str], ...] = ()
    look: Look | None = None  # how the game looks (`look:`, compiler/build/look.py)


@dataclass(frozen=True, slots=True)
class LookBoard:
    """Where a board's spots are drawn and its regions' names written (`look: boards:`), by name: the
    names are checked against the board once it is built (compiler/check/look.py)."""

    board: str
    spots: tuple[tuple[str, SourceSpan], ...]
    labels: tuple[tuple[str, SourceSpan], ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class LookTemplate:
    """A text of `look: prompts:` or `look: moves:`: the action or ask it is for, the text with its
    `{expression}`s, where the text starts in the file (for the expressions' own columns)."""

    name: str
    text: str
    span: SourceSpan  # the key (the action's or ask's name)
    text_span: SourceSpan  # the text
    parts: tuple[str | ast.Expr, ...] = ()  # its literal text and its expressions, parsed


@dataclass(frozen=True, slots=True)
class Look:
    """How the game looks (`look:`), checked: `data` the section as JSON (colours as `#rrggbb`,
    `fields:` short forms expanded), what `GameInfo.look` holds; the boards' names and the
    templates, for the checks and code that need the rest of the rule set."""

    data: str
    boards: tuple[LookBoard, ...]
    prompts: tuple[LookTemplate, ...]
    moves: tuple[LookTemplate, ...]
    span: SourceSpan
