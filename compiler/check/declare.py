"""Name binding, the declarations: every name a rule set declares, entered in its symbol table
(symbols.py) in the order of the rule file's sections, each refused where it is reserved or
taken, and the tables the declarations give (constants, enumerations, dice, boards, options).

`declarations(symbols, attributes)` is the entry point. A component's attributes are values
computed once, from the names declared before the component: the typing stage types them as the
component is declared (`attributes`), so that they see those names and no later one.
"""

from __future__ import annotations

from collections.abc import Callable

from ...runtime.boards import GRID_DIRECTIONS
from ...runtime.limits import MAX_STATE_VALUES
from .. import ir
from ..boards import Boards
from ..builtins import AGGREGATES, BUILTINS, VALUES
from ..names import BASE, MEMBER_PATTERNS, RUNTIME_BOARDS, const_name
from ..typed import Symbol, SymbolKind
from ..types import NONE, Ty, entity, enum, list_of, parse_type, record
from .symbols import KIND_WORDS, Symbols


def declarations(s: Symbols, attributes: Callable[[ir.Component], None]) -> None:
    """Enters every declared name in `s`; `attributes(component)` types a component's attributes
    once its kind is declared."""
    rs = s.rs
    _values(s)
    _records(s)
    _roles(s)
    _enums(s)
    _boards(s)
    _options(s)
    for comp in rs.components:
        if _component(s, comp):
            attributes(comp)
    _dice(s)
    _fields(s)
    _callables(s)
    for ph in rs.phases:
        s.reserved_member("phase", ph.name, ph.span)
    for a in rs.actions:
        s.reserved_member("action", a.name, a.span)
    for trig in rs.triggers:
        s.reserved_member("trigger", trig.name, trig.span)


def _values(s: Symbols) -> None:
    """The rule language's own values (`current`, `spots` ...) and `none`."""
    for name, (tname, py, _doc) in VALUES.items():
        ty = parse_type(tname, s.entity_kinds, s.enum_names)
        assert isinstance(ty, Ty)
        s.globals[name] = Symbol("value", name, ty, py)
    s.globals["none"] = Symbol("value", "none", NONE, "None", fixed=True)  # what an optional holds when empty


def _records(s: Symbols) -> None:
    for rec in s.rs.records:
        if rec.name in BUILTINS or rec.name in AGGREGATES or rec.name in VALUES or rec.name == BASE:
            s.error(rec.span, f"`{rec.name}` is reserved: it is the name of a built-in function or value",
                    "choose another name")
        elif s.new_kind(rec.name, rec.span):
            s.records[rec.name] = record(rec.name, rec.fields)


def _roles(s: Symbols) -> None:
    """The roles (one per seat, in seat order), then the neutral seats."""
    rs = s.rs
    if not rs.roles:
        roles = tuple(f"seat{i + 1}" for i in range(max(rs.players)))
    else:
        roles = rs.roles
        if len(roles) < max(rs.players):
            s.error(rs.span, f"{len(roles)} roles for up to {max(rs.players)} players",
                    "give one role per seat, in seat order")
    s.tables.roles = roles
    s.declare_enum("role", roles, rs.span, "the roles, in seat order")
    # Neutral seats come after the players: they own pieces but never take a turn nor win.
    s.tables.neutral = rs.neutral
    for i, name in enumerate(rs.neutral):
        s.declare(name, Symbol("const", name, entity("player"), f"(self.num_players + {i})", rs.span))


def _enums(s: Symbols) -> None:
    for decl in s.rs.enums:
        if not s.declare_enum(decl.name, decl.values, decl.span, f"values of `{decl.name}`"):
            continue
        # The enumeration's name stands for the list of all its values: `for a in animal`.
        s.declare(decl.name, Symbol("value", decl.name, list_of(enum(decl.name)), f"range({len(decl.values)})",
                                    decl.span, fixed=True))


def _boards(s: Symbols) -> None:
    """The boards and their region kinds, the attributes they give regions and spots, and the
    option that chooses between them."""
    rs = s.rs
    kinds: tuple[str, ...] | None = None
    for board in rs.boards:
        names = tuple(k.name for k in board.region_kinds)
        if kinds is None:
            kinds = names
        elif names != kinds:
            s.error(board.span, f"board `{board.name}` has region kinds {', '.join(names) or 'none'}, "
                    f"but the first board has {', '.join(kinds) or 'none'}", "every board needs the same kinds")
        s.boards.board(board)
    s.tables.boards = s.boards.tables
    for attr, enum_name in s.boards.attribute_enums.items():
        s.attributes.setdefault("region", {})[attr] = (
            enum(enum_name), f"self.board.region_attributes[{s.boards.region_attributes.index(attr)}]")
    _board_shapes(s)
    if not rs.boards:
        s.error(rs.span, "a rule set needs `boards:` with at least one board")
    s.tables.region_kinds = kinds or ()
    s.declare_enum("regionkind", kinds or (), rs.span, "the kinds of regions on the board")
    for board in rs.boards:
        if board.name in RUNTIME_BOARDS:
            s.error(board.span, f"`{board.name}` is reserved: as a choice of option `board` it picks the "
                    "board by the number of players", "choose another name")
    option = next((o for o in rs.options if o.name == "board"), None)
    board_names = tuple(b.name for b in rs.boards)
    if len(rs.boards) > 1 and option is None:
        s.error(rs.boards[1].span, "several boards need an option `board` to choose between them")
    elif option is not None and set(option.choices) - set(RUNTIME_BOARDS) != set(board_names):
        s.error(option.span, f"option `board` must choose among the boards: {', '.join(board_names)}")


def _board_shapes(s: Symbols) -> None:
    """What a hex map or a wall adds to the names: its spots' attributes (`s.terrain`), the
    pieces and faces of a wall (values of `wallpiece` and `wallface`); a grid the values of
    `direction` (`north` ... `north_west`, runtime/boards/grid.py), its cells' attributes as a
    hex map's. Boards to choose between must all be of that shape, so that every rule means the
    same on each."""
    rs = s.rs
    if s.boards.spot_attributes:
        for board in rs.boards:
            if board.hexmap is None and board.grid is None:
                s.error(board.span, f"board `{board.name}` is no hex map, but another board gives its spots "
                        f"attributes ({', '.join(s.boards.spot_attributes)})",
                        "every board needs the same spot attributes")
        for attr, enum_name in s.boards.spot_attribute_enums.items():
            s.attributes.setdefault("spot", {})[attr] = (
                enum(enum_name), f"self.board.spot_attributes[{s.boards.spot_attributes.index(attr)}]")
    walls = [b for b in rs.boards if b.wall]
    if walls:
        for board in rs.boards:
            if not board.wall:
                s.error(board.span, f"board `{board.name}` is no wall, but board `{walls[0].name}` is",
                        "boards to choose between are all walls or none")
        s.declare_enum("wallpiece", tuple(p.name for p in walls[0].wall), walls[0].span,
                       "the pieces of the wall")
        s.declare_enum("wallface", tuple(f.name for p in walls[0].wall for f in p.faces), walls[0].span,
                       "the faces of the wall's pieces")
        faces = sum(len(p.faces) for p in walls[0].wall)
        for name, count in (("wallpiece", len(walls[0].wall)), ("wallface", faces)):
            s.declare(name, Symbol("value", name, list_of(enum(name)), f"range({count})", None, fixed=True))
    grids = [b for b in rs.boards if b.grid is not None]
    if grids:
        for board in rs.boards:
            if board.grid is None:
                s.error(board.span, f"board `{board.name}` is no grid, but board `{grids[0].name}` is",
                        "boards to choose between are all grids or none")
        s.declare_enum("direction", GRID_DIRECTIONS, grids[0].span, "the eight directions of a grid")
        s.declare("direction", Symbol("value", "direction", list_of(enum("direction")),
                                      f"range({len(GRID_DIRECTIONS)})", None, fixed=True))


def _options(s: Symbols) -> None:
    for opt in s.rs.options:
        s.reserved_member("option", opt.name, opt.span)
        slot = MEMBER_PATTERNS["option"][0].format(opt.name)
        s.tables.options.append((opt.name, slot, opt.choices))
        s.declare(opt.name, Symbol("option", opt.name, enum(opt.name), f"self.{slot}", opt.span))
        if opt.name != "board":
            s.declare_enum(opt.name, opt.choices, opt.span, f"choices of option `{opt.name}`")
        else:
            s.enum_names.add("board")
            s.tables.enums.append(("board", opt.choices))


def _component(s: Symbols, comp: ir.Component) -> bool:
    """A fixed set of numbered pieces: an entity kind and its list (its tables of attributes are
    typing's); False if its name is taken."""
    if not s.new_kind(comp.name, comp.span):
        return False
    s.tables.component_count[comp.name] = comp.count
    labels = tuple(f"{comp.name}{i + 1}" for i in range(comp.count))
    s.tables.dice.append((comp.name, labels, ()))
    if comp.all_name is not None:
        s.declare(comp.all_name, Symbol("value", comp.all_name, list_of(entity(comp.name)),
                                        f"range({comp.count})", comp.all_span or comp.span, fixed=True))
    return True


def _dice(s: Symbols) -> None:
    for kind in s.rs.dice:
        if kind.name in KIND_WORDS or kind.name in s.kinds:  # (dice kinds are entity kinds from the start)
            s.new_kind(kind.name, kind.span)  # refuses it, saying why
        names = tuple(d.name for d in kind.dice)
        s.tables.dice.append((kind.name, names, tuple(d.faces for d in kind.dice)))
        for i, die in enumerate(kind.dice):
            const = const_name(die.name)
            s.declare(die.name, Symbol("const", die.name, entity(kind.name), const, die.span, fixed=True))
            s.tables.constants.append((const, i, f"{kind.name} {die.faces}"))


def _fields(s: Symbols) -> None:
    rs = s.rs
    for f in rs.fields:
        if f.values:
            s.declare_enum(f.name, f.values, f.span, f"values of field `{f.name}`")
    for f in rs.fields:
        if s.reserved(f.name, f.span):
            continue
        denotes: SymbolKind = "perfield" if f.per else "field"
        s.declare(f.name, Symbol(denotes, f.name, f.type, f"self.{f.name}", f.span, f.per))
    _state_size(s)


def _state_size(s: Symbols) -> None:
    """The values a state holds, one per field and one per entity of a field per entity (on the
    largest board), at most MAX_STATE_VALUES: each game starts by making them, and every copy
    of a state (a search's, a listing's) copies them."""
    rs = s.rs
    sizes = [Boards.sizes(b) for b in rs.boards] or [(0, 0, 0)]
    per = {"player": max(rs.players, default=0) + len(rs.neutral), "spot": max(n for n, _, _ in sizes),
           "region": max(r for _, r, _ in sizes), "border": max(b for _, _, b in sizes),
           **s.tables.component_count, **{k.name: len(k.dice) for k in rs.dice}}
    held = 0
    for f in rs.fields:
        held += per.get(f.per, 0) if f.per else 1
        if held > MAX_STATE_VALUES:
            s.error(f.span, f"field `{f.name}` takes the values a state holds to {held:,}, more than the "
                    f"limit of {MAX_STATE_VALUES:,} (a value per field, and per entity of a field per entity)",
                    "every game starts by making them and every copy of a state copies them: keep fewer "
                    "fields per spot, region or component (docs/language.md, \"Limits\")")
            return


def _callables(s: Symbols) -> None:
    """The definitions and procedures, by name (typed when used, or in their turn)."""
    rs = s.rs
    for d in rs.defines:
        if d.name in s.records:
            s.error(d.span, f"`{d.name}` is declared twice", f"`{d.name}` is a record (`records:`)")
        twice = d.name in s.functions or d.name in s.globals
        if not s.reserved(d.name, d.span, callable=True) and twice:
            s.error(d.span, f"`{d.name}` is declared twice")
        s.functions[d.name] = d
    for p in rs.procedures:
        taken = (p.name in s.functions or p.name in s.procedures or p.name in s.globals
                 or p.name in s.records)
        if not s.reserved(p.name, p.span, callable=True) and taken:
            s.error(p.span, f"`{p.name}` is declared twice")
        s.procedures[p.name] = p
