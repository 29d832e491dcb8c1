"""Stage 5's product, checked: the rule set as a typed program, for lowering to read.

`check.check(ruleset)` gives a `TypedProgram`: every expression with its type, every name bound
to the `Symbol` it denotes (a field, a local, a value of the language ...), every call resolved
to a definition or a registered built-in, every effect with the span of its rule line. Nothing
here is Python text but the spellings declarations chose (a symbol's `py`, a constant's name):
lowering (compiler/lower/) decides how each node is written, and what checks of the limits
of a move it needs (compiler/budget.py).

The declarations the checker turned into tables (constants, enumerations, boards ...) are data
already: lowering passes them on as they are.

The passes of the representation step (compiler/passes/__init__.py, `LEVEL`) annotate the
declarations with how a value is stored or found, and lowering writes it so: a definition's
`kept`, `tabled` and `unkept`, the program's `end_kept` and `drops_in_place` (the program stands for
the state, which holds every kept value: how it drops them is said there, once).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from ..core.source import SourceSpan
from . import ir
from .types import Ty

SymbolKind = Literal["field", "perfield", "const", "option", "value", "local"]


@dataclass(frozen=True, slots=True, eq=False)
class Symbol:
    """What a name denotes. Compared by identity: two locals of one name in two rules, or a
    `let x = []` before and after an assignment gave it an item type, are two symbols."""

    kind: SymbolKind
    name: str
    ty: Ty
    py: str  # how generated code spells it (`self.gold`, `GREEN`, `s`)
    span: SourceSpan | None = None
    per: str | None = None  # a field with one value per entity: the entity kind (`spot`)
    item: bool = False  # a local walking the items of a list or set (a loop, a comprehension, a choice)
    # (a value or a constant) the same in every state of every game: all the values of an enumeration
    # or a kind of component, `none`, a constant not numbered after the players (a neutral seat is)
    fixed: bool = False


# -- expressions: each with its type and span ---------------------------------------------------
@dataclass(frozen=True, slots=True)
class Num:
    value: int
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Str:
    value: str
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Bool:
    value: bool
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Ref:
    """A name: a field, a constant, an option, a value of the language, a local."""

    sym: Symbol
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Invalid:
    """Where the checker found an error (it said so): a program holding one is never lowered."""

    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class DefineCall:
    """A definition's value, `name(args)` (`name` alone when it has no parameters)."""

    define: str
    args: tuple[Expr, ...]
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Builtin:
    """A registered function of the runtime (compiler/builtins/), its generic type bound."""

    func: str
    args: tuple[Expr, ...]
    # template slots beyond the arguments, each a module constant's name (None: an empty tuple): `throw`'s faces table
    extra: tuple[tuple[str, str | None], ...]
    ty: Ty
    span: SourceSpan
    # (pass `bound_ranges`) a `range(a, b)` whose `a` is never negative: it holds at most what `b` is
    from_nonnegative: bool = False
    # (pass `mask_spot_sets`) a built-in over a set of spots kept as a bit mask (`TypedProgram.masks`): it reads
    # the mask
    mask_read: bool = False


@dataclass(frozen=True, slots=True)
class PerIndex:
    """One entity's value of a field per entity: `marker[s]`."""

    field: Symbol
    index: Expr
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class ListIndex:
    obj: Expr
    index: Expr
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class AttrOf:
    """A component's attribute, read from its table: `tile.colour`."""

    obj: Expr
    name: str
    table: str  # the module constant holding the attribute of every component
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class RecordNew:
    """A record built: `leader(owner=p, colour=c, at=s)`, its fields in the order declared."""

    record: str
    args: tuple[Expr, ...]
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class RecordField:
    """One field of a record: `l.owner` (`index`: its place among the record's fields)."""

    obj: Expr
    name: str
    index: int
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Collection:
    kind: Literal["list", "set"]
    items: tuple[Expr, ...]
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Comprehension:
    """`func(elt for var in domain if cond)`; func "list" and "set" build one."""

    func: str
    var: Symbol
    domain: Expr
    cond: Expr | None
    elt: Expr
    ty: Ty
    span: SourceSpan
    # `for b in f(a) if c` clauses after the first, each inside the one before: (var, domain, cond)
    more: tuple[tuple[Symbol, Expr, Expr | None], ...] = ()
    # (pass `sort_sets`) `[x for x in S]` over a set, found to be the set's items sorted: written `sorted(S)`
    sorted_set: bool = False
    # (pass `intersect_components`) a count or test of the attributes of a set's components: a set operation against
    # the components having them (`TypedProgram.component_sets`)
    component_set: bool = False
    # (pass `mask_values`) a count, test or list of the spots where a field holds a value, or is empty: read
    # from the masks kept per value (`TypedProgram.value_masks`) or of the empty spots (`TypedProgram.masks`)
    value_mask: bool = False
    # (pass `mask_spot_sets`) a list, count, `all` or `any` of the spots where a field holds a constant: read from
    # its bit mask (`TypedProgram.masks`)
    mask_read: bool = False
    # (pass `mask_spot_filters`) a list of spots made from bit masks: its tests, in the order computed
    spot_filter: Filter | None = None
    # (pass `count_items`) `count(x == v for x in L)` over a list: the list's own count, `L.count(v)`
    counted: bool = False
    # (pass `hoist_masks`) a list of spots made from masks, in a later choice of a listing, whose joined
    # masks read no local: joined once, before the listing's loops
    joined_once: bool = False
    # (pass `keep_counts`) a count, sum, `any` or `all` over the board's or a region's spots read from a table
    # kept up to date at each write of the fields it reads (`TypedProgram.kept_counts`)
    kept_count: bool = False


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-", "not"
    operand: Expr
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Binary:
    op: str
    left: Expr
    right: Expr
    ty: Ty
    span: SourceSpan
    truth_only: bool = False  # an `and`/`or` whose truth only is used (a condition): operands as they are
    # (passes `unwrap_set_items`, `unwrap_list_items`) a set or list joined with (a set: or taken) a collection written
    # out, found to be written with its items in the operation: `s.union((a,))`, `(*x, a)`
    items_written: bool = False


@dataclass(frozen=True, slots=True)
class Cond:
    test: Expr
    then: Expr
    orelse: Expr
    ty: Ty
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Note:
    """An expression an optimisation pass (compiler/passes/) derived, with what it did, for the
    generated line's comment: `verb` "inlined" and `what` "province_of (base.yaml:284)". It
    computes what `expr` computes; lowering writes `expr` in parentheses. A note over a list of
    one item is the domain of a clause that binds that value once (`for h in (v,)`): its local
    is read only where `v` was, so `v` is written as it is (not made a tuple: the same object)."""

    verb: str
    what: str
    expr: Expr
    ty: Ty
    span: SourceSpan


Expr = (Num | Str | Bool | Ref | Invalid | DefineCall | Builtin | PerIndex | ListIndex | AttrOf | Collection
        | Comprehension | Unary | Binary | Cond | RecordNew | RecordField | Note)

# The fields a pass sets on a node to mark the form lowering writes it in (compiler/passes/
# `sort_sets`, ...): the node computes the same with the field set or not, so what an expression
# computes (`analysis.keys.key`) leaves them out.
FORMS = frozenset({"sorted_set", "items_written", "from_nonnegative", "when_written_out", "drawn_out",
                   "remembered_change", "joins_rounds", "component_set", "value_mask", "mask_read", "spot_filter",
                   "counted", "joined_once", "kept_count"})


# -- sets of spots kept as bit masks, and the filters made from them (passes `mask_spot_sets`, `mask_values`,
# `mask_spot_filters`: how a set is held is a representation the passes choose, lowering writes it) --------
@dataclass(frozen=True, slots=True)
class Mask:
    """One set of spots kept as a bit mask: the spots whose `field` is the constant `value`
    (`value_py`, as generated code names it), in the state's slot `slot`; or, `empty`, the spots
    whose field, of lists, is empty (`value` unused). Made by the passes `mask_spot_sets` and, `empty`,
    `mask_values` and `mask_spot_filters`."""

    field: str
    value: int
    value_py: str
    slot: str
    span: SourceSpan  # where such a set is first written
    empty: bool = False


@dataclass(frozen=True, slots=True)
class ValueMask:
    """The masks of a field per spot, one per value of its items (`op` "in": a field of lists or
    sets) or of its values (`op` "==": a field of simple values), in the state's slot `slot`, a
    list of `count` ints (its code: `self.num_seats`, a number). Made by the pass `mask_values`."""

    field: str
    op: str
    count: str
    slot: str
    span: SourceSpan  # where such a test is first written


@dataclass(frozen=True, slots=True)
class KeptCount:
    """(pass `keep_counts`) How many spots pass a test (or the sum of a number per spot), over the board's
    spots (`region` False) or over each region's, for each value of the locals the test reads (`params`,
    each of a finite type: `sizes` is the code of how many values each has): a list of ints in the state's
    slot `slot`, indexed by region, then by each param in turn; adjusted at each write of a field in
    `fields` by what the spot written adds after it less what it added before it. `term` is what one
    spot `var` adds: a test (counted; for `all`, the test negated: how many fail) or a number (summed).
    `key` says which comprehensions it serves (the same form, over the same kind of domain)."""

    slot: str
    key: str
    summed: bool
    region: bool
    var: Symbol
    term: Expr
    params: tuple[Symbol, ...]
    sizes: tuple[str, ...]
    fields: tuple[str, ...]
    span: SourceSpan  # where such a comprehension is first written


@dataclass(frozen=True, slots=True)
class FilterTerm:
    """One test of a filter, in the order written: a kept mask (`mask`, the spots where the test
    holds; `within & ~mask` when `negated`), or a test of the spot's key (`key`, over the spot
    variable `spot`) written over the key variable `var` (`test`), whose failing parts read no key."""

    mask: Mask | None = None
    negated: bool = False
    spot: Symbol | None = None
    key: Expr | None = None
    var: Symbol | None = None
    test: Expr | None = None
    mask_var: Symbol | None = None  # the local the groups' masks are bound to
    fails: bool = False


@dataclass(frozen=True, slots=True)
class Filter:
    """A list of spots made from masks (pass `mask_spot_filters`): its tests, in the order the walk computed them."""

    terms: tuple[FilterTerm, ...]


# -- effects ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Let:
    var: Symbol
    value: Expr
    span: SourceSpan
    annotation: Ty | None = None  # a `let x = []`: the type later assignments give it (int items if none)


@dataclass(frozen=True, slots=True)
class Assign:
    """`target = value`, `target[index] = value` (a field per entity), `+=`, `-=`; `item`: one item
    of the list replaced (`xs[i] = v`, `f[e][i] = v`). The target is
    the symbol as the assignment leaves it (a `let x = []` takes the type of what is stored)."""

    target: Symbol
    index: Expr | None
    op: str
    value: Expr
    span: SourceSpan
    item: Expr | None = None  # `xs[i] = v`, `f[e][i] = v`: the list item replaced
    # (pass `unwrap_set_items`) a set's `+=` or `-=` of a set written out, found to be written with its items:
    # `s = s.difference((a,))`
    items_written: bool = False
    # (pass `draw_out`) `x = without(x, c)` right after `let c = draw_from(x)`, found to take out the item
    # drawn: written with the `let` as one call, `c, x = rt.drawn_out(...)`
    drawn_out: bool = False
    # (pass `remember_list_changes`) `x = sorted(x + [c])` or `x = without(x, c)` of a list the rules keep
    # sorted, of few kinds: what it becomes by each value found by the list in a table of the board (a row),
    # made the plain way only the first time
    remembered_change: bool = False


@dataclass(frozen=True, slots=True)
class CallEffect:
    procedure: str
    args: tuple[Expr, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Goto:
    phase: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class EndTurn:
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Pass:
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class LookText:
    """A text of `look: prompts:` (`move` False) or `look: moves:`, for the action or ask `name`
    (`asked`: an ask's): its parts and values as a told text's (`Tell`), and the choices it may read
    (`params`: an action's choices, or the value an ask's answer chose), in the move's order."""

    name: str
    move: bool
    asked: bool
    params: tuple[Symbol, ...]
    told: Tell
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Tell:
    """`tell "..."`: literal parts (format None) and, in order, one argument per part with a
    format kind (how `State._fmt` writes it, as a move's text writes a choice)."""
    parts: tuple[tuple[str, str | None], ...]
    args: tuple[Expr, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class For:
    var: Symbol
    domain: Expr
    body: tuple[Stmt, ...]
    span: SourceSpan
    # (pass `join_rounds`) a loop that cannot fail whose one statement joins the same items to a list every
    # round, found to join them all at once: `x = (*x, *(a,) * rounds)`; the items it joins, numbers and
    # names (none: not found)
    joins_rounds: tuple[Num | Ref, ...] = ()


@dataclass(frozen=True, slots=True)
class While:
    """`while test:` its body, again while the test holds. It cannot be proven to end: each round
    (its test and its body) is charged to the move's budget as it runs (runtime/limits.py)."""

    test: Expr
    body: tuple[Stmt, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Break:
    """`break`: the innermost `for` or `while` around it stops (never across an `ask`: the checker
    refuses one there)."""

    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Continue:
    """`continue`: the innermost `for` or `while` around it goes on with its next round."""

    span: SourceSpan


@dataclass(frozen=True, slots=True)
class If:
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...]
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Ask:
    """A decision handed to a seat: the body runs with its choice, once it is made (the effect
    waits for it: generated code suspends there), or not at all when there is nothing to choose."""

    seat: Expr
    var: Symbol
    domain: Expr
    body: tuple[Stmt, ...]
    span: SourceSpan


Stmt = Let | Assign | CallEffect | Goto | EndTurn | Pass | Tell | For | If | Ask | While | Break | Continue


# -- the rules ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BoardTable:
    """A board as the runtime builds it: spots, regions, roads and borders, all by name."""

    name: str
    side: int
    regions: tuple[tuple[str, str, tuple[str, ...]], ...]  # kind, name, spots
    span: SourceSpan
    ring: int = 0
    graph: tuple[str, ...] = ()  # a graph board's spots
    roads: tuple[tuple[str, str], ...] = ()  # its road segments, each joining two spots
    borders: tuple[tuple[str, str], ...] = ()  # bordering regions, in the order numbered
    attributes: tuple[tuple[int, ...], ...] = ()  # per region attribute, its value for each region (-1: none)
    cells: tuple[tuple[str, int, int], ...] = ()  # a hex map's cells: label, axial q, r (in reading order)
    symbols: str = ""  # a hex map: the legend symbol of each cell
    legend: tuple[tuple[str, str], ...] = ()  # a hex map: each symbol and its attributes, as text
    cell_attributes: tuple[tuple[int, ...], ...] = ()  # per spot attribute, its value for each cell
    wall: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = ()  # a wall's pieces: faces, spots
    # the owner of each region (`owner:`), as runtime/boards/base.py `RegionSpec.owner` numbers it; () if none has one
    owners: tuple[int, ...] = ()
    grid_cells: tuple[tuple[str, int, int], ...] = ()  # a grid's cells: label, row, column (in spot order)
    grid_size: tuple[int, int] = (0, 0)  # a grid's rows and columns as declared (drawn: (0, 0))
    grid_text: tuple[str, ...] = ()  # a drawn grid's rows, the top first (a space: no cell)
    connect: str = ""  # a grid's neighbours: orthogonal, all or hex (runtime/boards/grid.py GRID_CONNECT)


@dataclass(frozen=True, slots=True)
class ComponentAttribute:
    """One attribute of a kind of component, computed from its number `i` for each of `count`."""

    component: str
    name: str
    const: str  # the module constant of its table
    ty: Ty
    value: Expr
    count: int
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Field:
    decl: ir.Field  # its name, type, entity kind, values, visibility and doc, as declared
    init: Expr
    shown_if: Expr | None  # everyone sees it while this holds
    hide_items_if: Expr | None  # over `k`: item k is hidden while this holds
    visible_to: Expr | None  # over `k`: the player who sees entry or item k


# -- the representation step: how a value is stored or found (compiler/passes/__init__.py, LEVEL) ---
@dataclass(frozen=True, slots=True)
class Reads:
    """What a piece of rule code reads of the state that can change during a game (found by
    compiler/analysis/reads.py; held by the annotations of what is kept between moves)."""

    fields: frozenset[str] = frozenset()
    volatile: bool = False  # reads `current`, `opponent` or `deciding` (changed as a phase or turn starts)

    def __or__(self, other: Reads) -> Reads:
        return Reads(self.fields | other.fields, self.volatile or other.volatile)

    def told(self) -> str:
        """In a sentence's words: "`marker`, `roll` or the seat to act"."""
        parts = [f"`{name}`" for name in sorted(self.fields)] + (["the seat to act"] if self.volatile else [])
        if not parts:
            return "nothing that changes"
        return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


@dataclass(frozen=True, slots=True)
class Kept:
    """How a definition's values are kept in the state between moves (pass `keep_derived`, and the passes
    after it that say which part of them a change drops): in a slot, None while stale, dropped by
    every change of what it `reads`; each entry of the tuples below drops a part only."""

    reads: Reads
    # (pass `keep_derived`) (field per entity, k): an assignment to the field at one entity drops only the
    # values kept for that entity as k-th argument
    entries: tuple[tuple[str, int], ...] = ()
    # (pass `keep_derived`) (set field, k, attribute table): a change of the field by one item drops only
    # the values kept for that item's attribute as k-th argument
    attributes: tuple[tuple[str, int, str], ...] = ()
    # (pass `drop_by_region`) (field per spot, k): an assignment at one spot drops only the values kept
    # for the regions holding that spot as k-th argument
    regions: tuple[tuple[str, int], ...] = ()
    nested: int | None = None  # (pass `nest_by_region`) its values kept nested by this parameter, a region


@dataclass(frozen=True, slots=True)
class ValueTable:
    """(pass `remember_values`) A definition remembered by value, in a table of the board: the field it
    reads, at which parameter (None: a field with one value), and the positions of the parameters
    that join the key."""

    field: str
    py: str  # how generated code reads the field (`self.hand`)
    at: int | None
    params: tuple[int, ...]


# -- representation: how a listing finds its actions, a test of regions kept --------------------
# (the decisions of the passes `index_actions`, `gather_spots`, `remember_listings`, `key_sorted_lists`,
# `find_rows_by_key` and `mask_regions`, annotations of the action or definition they are about)
@dataclass(frozen=True, slots=True)
class Level:
    """How one choice's values find their row: `how` is "index" (a list of `size` entries indexed
    by the value), "lines" (indexed by the line's number, the value is `board.line_spots(k)`) or
    "key" (a dictionary by the value, a list made a tuple)."""

    how: str
    size: str = ""  # code of the size of an index level


@dataclass(frozen=True, slots=True)
class Table:
    """How an action's listing finds its interned actions: one level per choice."""

    action: str
    levels: tuple[Level, ...]  # one per choice, in order


@dataclass(frozen=True, slots=True)
class ListedKey:
    """A value of the game a listing remembered by value reads: a field (`at` None), or its entry at
    a seat whose turn it is or a constant (`at`); and whether the listing is keyed by the set of its
    items (read only through membership)."""

    field: Symbol
    at: Symbol | None
    member: bool

    @property
    def spelled(self) -> tuple[str, str | None]:
        """How generated code spells the field and the entity: the key's identity (one key per value read)."""
        return self.field.py, None if self.at is None else self.at.py


@dataclass(frozen=True, slots=True)
class Listed:
    """An action whose listing is remembered by value: each value it reads (`ListedKey`)."""

    action: str
    keys: tuple[ListedKey, ...]
    what: str  # the values read, in the rule language's words, for the comment
    words: tuple[str, ...] = ()  # each value read, in the rule language's words (`hand[current]`)


@dataclass(frozen=True, slots=True)
class RegionTest:
    """`define(r) op value`, kept as the mask of the regions where it holds (`slot`), beside the mask of
    the regions whose bit is known (`known`); `within` is the method giving the mask among given regions."""

    define: str
    op: str
    value: str  # the code of the constant compared with
    slot: str
    span: SourceSpan  # where it was first met
    text: str  # in the rule language's words, for notes

    @property
    def known(self) -> str:
        return "_regions_known" + self.slot[len("_regions"):]  # `_regions_known__<define>__<n>`

    @property
    def within(self) -> str:
        return "_regions_within" + self.slot[len("_regions"):]  # `_regions_within__<define>__<n>`


@dataclass(frozen=True, slots=True)
class RegionTerm:
    """One test of a region choice, in the order written: a kept test, or a test of the earlier
    choices (`test`, over the choice's variable `var`, hoisted values put back)."""

    kept: RegionTest | None = None
    test: Expr | None = None
    var: Symbol | None = None


@dataclass(frozen=True, slots=True)
class RegionChoice:
    """An action whose last choice, a region, is made from masks: the regions it walks and its tests."""

    action: str
    regions: Expr  # the list of regions its comprehension walks
    var: Symbol  # the comprehension's variable
    terms: tuple[RegionTerm, ...]


@dataclass(frozen=True, slots=True)
class Listing:
    """How an action's listing finds its actions (`Action.listing`); the default is the plain
    listing, each action found by a key built and hashed."""

    table: Table | None = None  # (pass `index_actions`) its interned actions found by index in tables per board
    # (pass `gather_spots`) its last choice, spots from masks, gathered from a row of spots: the positions, among
    # the tests of the filter that makes its spots, of those computed once per row (None: not gathered)
    spot_row: tuple[int, ...] | None = None
    # (pass `remember_listings`, its keys as `key_sorted_lists` leaves them) remembered by the few values it reads
    remembered: Listed | None = None
    # (pass `find_rows_by_key`) its first choice's rows found once per listing, by the key of the definition it walks
    tabled_rows: bool = False
    regions: RegionChoice | None = None  # (pass `mask_regions`) its last choice, regions, made from masks


@dataclass(frozen=True, slots=True)
class Define:
    name: str
    params: tuple[Symbol, ...]
    ty: Ty
    body: Expr
    span: SourceSpan
    cached: bool = False  # computed once per state, until the state changes
    # a version of a definition or scoring term that a variant replaced, which `base(...)` uses:
    # ("define", "rent") or ("scoring", "gold"); its name is its method's (names.base_version)
    version_of: tuple[str, str] | None = None
    # How its values are stored (the representation step; none of them: computed at each call):
    kept: Kept | None = None  # (pass `keep_derived` ...) kept in the state between moves
    # (pass `keep_derived`) a variant's definition that its base's own effects would have to drop: remembered
    # per state instead, in `_derived` (as `cached: true` is), which every change of the game already drops
    per_state: bool = False
    tabled: ValueTable | None = None  # (pass `remember_values`) remembered by the value it reads
    # the pass that decided it is not kept though `keep_derived` would keep it (`compute_inside_kept`,
    # `compute_at_scoring`)
    unkept: str = ""
    # (pass `mask_regions`) its tests `define(r) op c` kept as masks of the regions where they hold
    region_tests: tuple[RegionTest, ...] = ()


@dataclass(frozen=True, slots=True)
class Procedure:
    name: str
    params: tuple[Symbol, ...]
    body: tuple[Stmt, ...]
    span: SourceSpan
    # (pass `inline_procedures`) written where it is called, not called as a method (it stays one)
    written_out: bool = False


@dataclass(frozen=True, slots=True)
class Trigger:
    name: str
    method: str
    when: Expr | None
    effect: tuple[Stmt, ...]
    at_turn_end: bool
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Phase:
    name: str
    const: str
    start: tuple[Stmt, ...]
    actions: tuple[str, ...]
    stuck: str
    actor: Expr | None  # who decides, when not the seat whose turn it is
    span: SourceSpan
    simultaneous: Expr | None = None  # the seats that choose at once (`simultaneous:`), a list of players


@dataclass(frozen=True, slots=True)
class Choice:
    var: Symbol
    domain: Expr
    span: SourceSpan
    # (pass `hoist_choices`) a later choice whose list reads no earlier one: made once per listing
    made_once: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    name: str
    when: Expr | None
    choices: tuple[Choice, ...]
    text_parts: tuple[tuple[str, str | None], ...]  # literal text, or (choice python name, format kind)
    effect: tuple[Stmt, ...]
    triggers: tuple[str, ...]  # the methods of the triggers that run after it
    then: tuple[tuple[int, int], ...]  # (phase index, next phase index)
    span: SourceSpan
    others_parts: tuple[tuple[str, str | None], ...] | None = None  # what the other seats read (`others_text:`)
    revealed: Expr | None = None  # from when on everyone reads the text (`revealed_when:`, choices bound)
    # (pass `inline_guards`) its `when:` tested where its listing starts, written out, not by a call
    when_written_out: bool = False
    listing: Listing = Listing()  # how its listing finds its actions (the representation passes)


@dataclass(frozen=True, slots=True)
class Score:
    name: str
    expr: Expr  # over the local `player`
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Invariant:
    """A condition every position holds (a bool that reads the game and draws no chance)."""

    name: str
    expr: Expr
    doc: str
    span: SourceSpan


@dataclass(frozen=True, slots=True)
class Tables:
    """What the declarations give generated code as data."""

    constants: tuple[tuple[str, int, str], ...]  # NAME, value, comment
    enums: tuple[tuple[str, tuple[str, ...]], ...]
    dice: tuple[tuple[str, tuple[str, ...], tuple[tuple[int, ...], ...]], ...]  # kind, names, faces
    options: tuple[tuple[str, str, tuple[str, ...]], ...]  # name, slot, choices
    region_kinds: tuple[str, ...]
    roles: tuple[str, ...]
    boards: tuple[BoardTable, ...]
    neutral: tuple[str, ...]
    component_count: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class TypedProgram:
    rules: ir.RuleSet  # what was checked (player counts, dice faces, spans of the rule set)
    tables: Tables
    components: tuple[ComponentAttribute, ...]
    fields: tuple[Field, ...]
    defines: tuple[Define, ...]
    procedures: tuple[Procedure, ...]
    triggers: tuple[Trigger, ...]
    phases: tuple[Phase, ...]
    actions: tuple[Action, ...]
    setup: tuple[Stmt, ...]
    end: Expr | None
    scoring: tuple[Score, ...]
    tie_break: Expr | None
    asks: tuple[tuple[str, Ty], ...] = ()  # each `ask ... to choose <name>`: the name and its type
    invariants: tuple[Invariant, ...] = ()
    secret_asks: tuple[str, ...] = ()  # the asks whose answer the others read as the choice's name alone
    returns: Expr | None = None  # (`returns:`) each seat's return once the game is over, an int over `player`
    look_texts: tuple[LookText, ...] = ()  # the texts of `look: prompts:` and `look: moves:`, typed
    # -- representations the passes chose --
    # (passes `mask_spot_sets`, `mask_values`, `mask_spot_filters`) the sets of spots kept as bit masks beside
    # their fields
    masks: tuple[Mask, ...] = ()
    # (pass `mask_values`) the fields per spot whose spots holding each value (a player) are kept as a mask per value
    value_masks: tuple[ValueMask, ...] = ()
    # (pass `keep_counts`) the counts and sums over spots kept up to date at each write of the fields they read
    kept_counts: tuple[KeptCount, ...] = ()
    # (pass `intersect_components`) the component attributes (their tables) whose sets of components the module holds,
    # each with its number of values (0: a truth value), for counts and tests over sets of components
    component_sets: tuple[tuple[str, int], ...] = ()
    # (the representation step) the end condition's value kept between moves, and what it reads (pass `keep_end`)
    end_kept: Reads | None = None
    # (pass `drop_in_place`) the state, while no copy shares its dicts of kept values, drops values from them in place
    drops_in_place: bool = False
    # (pass `journal_changes`, a representation of the state as a move began) where every move runs as steps, a
    # move notes each field as it first changes it, and that state is made from them only if the move waits
    journal: bool = False


# -- what is known per node ---------------------------------------------------------------------
N = TypeVar("N", bound=Expr | Stmt)
V = TypeVar("V")
D = TypeVar("D")


class ByNode(Generic[N, V]):
    """A map from nodes to what is known of each, keyed by the node itself, by identity: two equal
    nodes at different places are two keys (what is known of them can differ with their place: an
    inlined body's copies), and each key is held by the map, so no other node can come to stand at
    its address while its entry lives (a map keyed by `id(node)` alone finds, for a temporary node
    made later at a dead one's address, what was known of the dead one). mypyc keys its analyses
    by its IR's node objects the same way; typed nodes compare by value, so they cannot be dict
    keys as they are."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[int, tuple[N, V]] = {}

    def __setitem__(self, node: N, value: V) -> None:
        self._entries[id(node)] = (node, value)

    def __getitem__(self, node: N) -> V:
        return self._entries[id(node)][1]

    def __contains__(self, node: N) -> bool:
        return id(node) in self._entries  # (the node standing there is this one: the entry holds it)

    def get(self, node: N, default: D) -> V | D:
        found = self._entries.get(id(node))
        return default if found is None else found[1]

    def discard(self, node: N) -> None:
        self._entries.pop(id(node), None)


class NodeSet(Generic[N]):
    """A set of nodes by identity, each held (as `ByNode`)."""

    __slots__ = ("_nodes",)

    def __init__(self) -> None:
        self._nodes: dict[int, N] = {}

    def add(self, node: N) -> None:
        self._nodes[id(node)] = node

    def __contains__(self, node: N) -> bool:
        return id(node) in self._nodes

    def discard(self, node: N) -> None:
        self._nodes.pop(id(node), None)


def subexpressions(e: Expr) -> tuple[Expr, ...]:
    """The expressions directly inside `e`."""
    match e:
        case Num() | Str() | Bool() | Ref() | Invalid():
            return ()
        case DefineCall() | Builtin() | RecordNew():
            return e.args
        case RecordField():
            return (e.obj,)
        case Collection():
            return e.items
        case PerIndex():
            return (e.index,)
        case ListIndex():
            return (e.obj, e.index)
        case AttrOf():
            return (e.obj,)
        case Comprehension():
            clauses = tuple(part for _, domain, cond in e.more for part in (domain, cond) if part is not None)
            return ((e.domain, e.elt) if e.cond is None else (e.domain, e.cond, e.elt)) + clauses
        case Unary():
            return (e.operand,)
        case Binary():
            return (e.left, e.right)
        case Cond():
            return (e.test, e.then, e.orelse)
        case Note():
            return (e.expr,)
    raise AssertionError(e)


def statements(stmts: Iterable[Stmt]) -> Iterator[Stmt]:
    """Every statement of a block of effects, in it or in its blocks, in the order written (each
    before the statements of its blocks; walked with a list, not recursion: blocks nest deeply)."""
    todo = list(stmts)[::-1]
    while todo:
        s = todo.pop()
        yield s
        if isinstance(s, For | Ask | While):
            todo.extend(reversed(s.body))
        elif isinstance(s, If):
            todo.extend(reversed(s.orelse))
            for _, branch in reversed(s.branches):
                todo.extend(reversed(branch))


def statement_expressions(s: Stmt) -> tuple[Expr, ...]:
    """The expressions of one effect statement itself, in the order written (not those of the
    statements in its blocks: `statements` walks those). The one walk of them that the passes,
    the probes and the tests share, so that none misses an `elif`'s test, an ask's seat or items."""
    match s:
        case Let():
            return (s.value,)
        case Assign():
            return tuple(e for e in (s.index, s.item, s.value) if e is not None)
        case CallEffect() | Tell():
            return s.args
        case For():
            return (s.domain,)
        case If():
            return tuple(test for test, _ in s.branches)
        case While():
            return (s.test,)
        case Ask():
            return (s.seat, s.domain)
        case Goto() | EndTurn() | Pass() | Break() | Continue():
            return ()
    raise AssertionError(s)


def effect_expressions(stmts: Iterable[Stmt]) -> Iterator[Expr]:
    """The expressions of every statement of a block of effects and of its blocks (an `if`'s
    `elif` and `else` blocks, a loop's and an ask's body), each statement's in the order written."""
    for s in statements(stmts):
        yield from statement_expressions(s)
