"""`look:`: how the game looks, checked (docs/language.md, "Look"; docs/web.md).

Every key is checked against keys.py's tables and every name against the rule set: the kinds of
`pieces:` (a component, record, enumeration or dice kind, or `player`) and the attributes or fields
their `colour:` and `label:` read, the state fields of `fields:`, the boards of `boards:` (their spots
and regions are checked once the boards are built: compiler/check/look.py), the values of `colours:`
and `symbols:`. What is kept is plain data (`Look.data`, JSON: colours as `#rrggbb`, the short form
`rack: hand` written out as `{as: hand, title: rack}`): the module holds it as a constant, never as
code, and only names checked here or text through `repr` reach it. The texts of `prompts:` and
`moves:` are kept with their spans, to be typed and compiled as `tell` texts are.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ...core.load import YMap, YNode, YScalar
from ...core.source import Diagnostic, SourceSpan, did_you_mean
from .. import ast, ir
from ..parse import ParseError, parse
from ..types import Ty
from .keys import (
    LOOK_AS,
    LOOK_BOARD_KEYS,
    LOOK_COLOURS,
    LOOK_FIELD_KEYS,
    LOOK_KEYS,
    LOOK_PIECE_KEYS,
    LOOK_SHAPES,
)
from .reader import Reader

_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_MAX_SYMBOL = 3  # characters of a symbol
_MAX_TEXT = 200  # characters of a title, a label or a template
_SIZE = 1000  # positions are in a SIZE x SIZE box


@dataclass(frozen=True, slots=True)
class Declared:
    """What of the rule set `look:` may name, as the builder has read it."""

    values: frozenset[str]  # every value of an enumeration (roles, options ...) and every die
    seats: int  # the most seats a game has (players and neutral seats)
    enums: frozenset[str]
    components: tuple[ir.Component, ...]
    records: tuple[ir.RecordDecl, ...]
    dice: tuple[ir.DiceKind, ...]
    fields: tuple[ir.Field, ...]
    boards: tuple[ir.Board, ...]
    players_file: str = ""  # the file that says how many play (a variant's, when it changes them)


def colour(r: Reader, node: YNode | None, what: str) -> str | None:
    """A colour as `#rrggbb`: written `#rgb`, `#rrggbb` or a name of LOOK_COLOURS (None: an error)."""
    text = r.text(node, what)
    if text is None or node is None:
        return None
    if text.lower() in LOOK_COLOURS:
        return LOOK_COLOURS[text.lower()]
    if _HEX_COLOUR.fullmatch(text):
        hexa = text[1:].lower()
        return "#" + (hexa if len(hexa) == 6 else "".join(c * 2 for c in hexa))
    r.error(node.span, f"`{text}` is not a colour",
            did_you_mean(text.lower(), sorted(LOOK_COLOURS))
            or f"write #rrggbb, #rgb or one of {', '.join(LOOK_COLOURS)}")
    return None


def read_look(r: Reader, node: YNode | None, known: Declared, drawing: YNode | None) -> ir.Look | None:
    """`look:`, checked (the module's docstring); None without one. A file with `drawing:` too is refused."""
    m = r.mapping(node, "`look:`")
    if m is None:
        return None
    if drawing is not None:
        r.error(m.span, "a rule file has `look:` or the older `drawing:`, not both",
                "move `drawing: colours:` into `look: colours:` (and `icons:` into `look: symbols:`)")
    r.keys(m, LOOK_KEYS, "`look:`")
    data: dict[str, object] = {}
    for key, value in m.items:
        name = str(key.value)
        if name == "seats":
            data[name] = _seats(r, value, known)
        elif name == "colours":
            data[name] = _colours(r, value, known)
        elif name == "symbols":
            data[name] = _symbols(r, value, known)
        elif name == "pieces":
            data[name] = _pieces(r, value, known)
        elif name == "fields":
            data[name] = _fields(r, value, known)
    boards: list[ir.LookBoard] = []
    if m.get("boards") is not None:
        data["boards"] = _boards(r, m.get("boards"), known, boards)
    prompts = _templates(r, m.get("prompts"), "prompts")
    moves = _templates(r, m.get("moves"), "moves")
    if prompts:
        data["prompts"] = {t.name: t.text for t in prompts}
    if moves:
        data["moves"] = {t.name: t.text for t in moves}
    order = {k: i for i, k in enumerate(LOOK_KEYS)}
    data = {k: data[k] for k in sorted(data, key=lambda k: order[k])}
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    return ir.Look(text, tuple(boards), prompts, moves, m.span)


def _seats(r: Reader, node: YNode, known: Declared) -> list[str]:
    """`seats: [red, blue, ...]`: a colour per seat, the first seat's first."""
    seq = r.sequence(node, "`look: seats:`")
    if seq is None:
        return []
    # (a variant for fewer players keeps its base's colours, the last ones unused: refused only in
    # the file that says how many play)
    if len(seq.items) > known.seats and seq.span.path == known.players_file:
        r.error(seq.items[known.seats].span, f"`look: seats:` gives {len(seq.items)} colours, but a game of "
                f"these rules has at most {known.seats} seats", "give a colour per seat, the first seat's first")
    return [c for c in (colour(r, item, "a seat's colour") for item in seq.items) if c is not None]


def _colours(r: Reader, node: YNode, known: Declared) -> dict[str, str]:
    """`colours: {gold_side: gold}`: a colour per value of an enumeration (as `drawing: colours:`)."""
    out: dict[str, str] = {}
    for key, value in (r.mapping(node, "`look: colours:`") or YMap((), node.span)).items:
        name = str(key.value)
        if name not in known.values:
            r.error(key.span, f"`look: colours:` names `{name}`, which is no value of the rule set",
                    did_you_mean(name, sorted(known.values)) or "a colour is given to a value of an enumeration")
            continue
        c = colour(r, value, f"the colour of `{name}`")
        if c is not None:
            out[name] = c
    return out


def _symbols(r: Reader, node: YNode, known: Declared) -> dict[str, str]:
    """`symbols: {governor: "官"}`: 1 to 3 printable characters per value of an enumeration or role."""
    out: dict[str, str] = {}
    for key, value in (r.mapping(node, "`look: symbols:`") or YMap((), node.span)).items:
        name = str(key.value)
        symbol = r.text(value, f"the symbol of `{name}`")
        if name not in known.values:
            r.error(key.span, f"`look: symbols:` names `{name}`, which is no value of the rule set",
                    did_you_mean(name, sorted(known.values)) or "a symbol is given to a value of an enumeration "
                    "or a role")
        elif symbol is not None and not (1 <= len(symbol) <= _MAX_SYMBOL and symbol.isprintable()
                                         and not any(c.isspace() for c in symbol)):
            r.error(value.span, f"the symbol of `{name}` must be 1 to {_MAX_SYMBOL} printable characters with no "
                    f"space, not {symbol!r}")
        elif symbol is not None:
            out[name] = symbol
    return out


def _kinds(known: Declared) -> dict[str, set[str]]:
    """Each kind `pieces:` may name, and the names its `colour:` and `label:` may read: a component's
    attributes and the state fields per component of its kind, a record's fields, `value` (the value
    itself) of an enumeration, a dice kind or `player`, and the state fields per die or per player."""
    per: dict[str, set[str]] = {}
    for f in known.fields:
        if f.per is not None:
            per.setdefault(f.per, set()).add(f.name)
    kinds: dict[str, set[str]] = {}
    for e in sorted(known.enums):
        kinds[e] = {"value"}
    for d in known.dice:
        kinds[d.name] = {"value"} | per.get(d.name, set())
    for rec in known.records:
        kinds[rec.name] = {name for name, _ in rec.fields}
    for c in known.components:
        kinds[c.name] = {a.name for a in c.attributes} | per.get(c.name, set())
    kinds["player"] = {"value"} | per.get("player", set())
    return kinds


def _pieces(r: Reader, node: YNode, known: Declared) -> dict[str, dict[str, str]]:
    """`pieces: {tile: {shape: square, colour: kind, label: "{kind}", back: grey}}`: how each kind is drawn."""
    kinds = _kinds(known)
    out: dict[str, dict[str, str]] = {}
    for key, value in (r.mapping(node, "`look: pieces:`") or YMap((), node.span)).items:
        kind = str(key.value)
        m = r.mapping(value, f"`look: pieces: {kind}:`")
        if kind not in kinds:
            r.error(key.span, f"`look: pieces:` names `{kind}`, which is no kind of the rule set",
                    did_you_mean(kind, sorted(kinds)) or "a piece is drawn for a component, record, enumeration "
                    "or dice kind, or `player`")
            continue
        if m is None:
            continue
        r.keys(m, LOOK_PIECE_KEYS, f"`look: pieces: {kind}:`")
        names = kinds[kind] | {"owner"}
        piece: dict[str, str] = {}
        shape = r.text(m.get("shape"), "a shape")
        if shape is not None and shape not in LOOK_SHAPES:
            r.error(m.get("shape").span,  # type: ignore[union-attr]
                    f"`{shape}` is not a shape", did_you_mean(shape, LOOK_SHAPES) or f"one of {', '.join(LOOK_SHAPES)}")
        elif shape is not None:
            piece["shape"] = shape
        written = m.get("colour")
        by = r.text(written, "a piece's colour")
        if by is not None and written is not None:
            if by in names:
                piece["colour"] = by
            elif by.lower() in LOOK_COLOURS or by.startswith("#"):
                c = colour(r, written, "a piece's colour")
                if c is not None:
                    piece["colour"] = c
            else:
                r.error(written.span, f"`colour: {by}` of `{kind}` is neither a colour nor something of `{kind}`",
                        did_you_mean(by, sorted(names)) or f"name one of {', '.join(sorted(names))} (its value's "
                        "colour), `owner` (its owner's seat colour), or a colour")
        label = r.text(m.get("label"), "a piece's label")
        if label is not None and _label(r, m.get("label"), label, kind, names):  # type: ignore[arg-type]
            piece["label"] = label
        if m.get("back") is not None:
            c = colour(r, m.get("back"), "the colour of a piece's back")
            if c is not None:
                piece["back"] = c
        out[kind] = piece
    return out


def _label(r: Reader, node: YNode, label: str, kind: str, names: set[str]) -> bool:
    """A label's `{name}`s name what `kind` has; its other text has no brace."""
    if not (label.isprintable() and len(label) <= _MAX_TEXT):
        r.error(node.span, f"the label of `{kind}` must be one line of at most {_MAX_TEXT} characters")
        return False
    for name in _PLACEHOLDER.findall(label):
        if name.strip() not in names:
            shown = ", ".join("{" + n + "}" for n in sorted(names))
            r.error(node.span, f"the label of `{kind}` writes `{{{name}}}`, which is nothing of `{kind}`",
                    did_you_mean(name.strip(), sorted(names)) or f"it may write {shown}")
            return False
    if "{" in _PLACEHOLDER.sub("", label) or "}" in _PLACEHOLDER.sub("", label):
        r.error(node.span, f"the label of `{kind}` has a brace that opens or closes no `{{name}}`")
        return False
    return True


def _fields(r: Reader, node: YNode, known: Declared) -> dict[str, dict[str, str]]:
    """`fields: {score: score, rack: {as: hand, title: "tiles"}, points: {as: counter, by: kind}}`."""
    fields = {f.name: f for f in known.fields}
    out: dict[str, dict[str, str]] = {}
    score: str | None = None
    for key, value in (r.mapping(node, "`look: fields:`") or YMap((), node.span)).items:
        name = str(key.value)
        if name not in fields:
            r.error(key.span, f"`look: fields:` names `{name}`, which is no state field",
                    did_you_mean(name, sorted(fields)) or "name a field of `state:`")
            continue
        if isinstance(value, YMap):
            r.keys(value, LOOK_FIELD_KEYS, f"`look: fields: {name}:`")
            as_node = value.get("as")
            if as_node is None:
                r.error(value.span, f"`look: fields: {name}:` needs `as:`, how it is shown",
                        f"one of {', '.join(LOOK_AS)}")
                continue
        else:
            as_node = value
        shown = r.text(as_node, f"how `{name}` is shown")
        if shown is None:
            continue
        if shown not in LOOK_AS:
            r.error(as_node.span, f"`{shown}` is no way to show a field",
                    did_you_mean(shown, LOOK_AS) or f"one of {', '.join(LOOK_AS)}")
            continue
        problem = _shown_as(fields[name], shown, known.records)
        if problem is not None:
            r.error(as_node.span, f"field `{name}` cannot be shown as `{shown}`: {problem}")
            continue
        if shown == "score":
            if score is not None:
                r.error(as_node.span, f"`{name}` and `{score}` are both shown as `score`: a game has one score",
                        "show the other as a `counter`")
                continue
            score = name
        entry = {"as": shown, "title": name.replace("_", " ")}
        if isinstance(value, YMap):
            title = r.text(value.get("title"), "a title")
            if title is not None and not (title.isprintable() and 0 < len(title) <= _MAX_TEXT):
                r.error(value.get("title").span,  # type: ignore[union-attr]
                        f"the title of `{name}` must be one line of 1 to {_MAX_TEXT} characters")
            elif title is not None:
                entry["title"] = title
            by_node = value.get("by")
            by = r.text(by_node, "`by:`")
            if by is not None and by_node is not None:
                if shown != "counter":
                    r.error(by_node.span, "`by:` is for a field shown as a `counter`: a number per value of an "
                            "enumeration")
                elif by not in known.enums:
                    r.error(by_node.span, f"`by: {by}` names no enumeration",
                            did_you_mean(by, sorted(known.enums)) or "a counter's numbers are named by the values "
                            "of an enumeration")
                elif not _list_of_int(fields[name]):
                    r.error(by_node.span, f"`by:` is for a list of numbers, and `{name}` is {fields[name].type}")
                else:
                    entry["by"] = by
        out[name] = entry
    return out


def _list_of_int(f: ir.Field) -> bool:
    return f.type.kind == "list" and f.type.elem is not None and f.type.elem.kind == "int"


def _shown_as(f: ir.Field, shown: str, records: tuple[ir.RecordDecl, ...] = ()) -> str | None:
    """Why field `f` cannot be shown as `shown`, or None."""
    collection = f.type.kind in ("list", "set")
    if shown == "score" and not (f.per == "player" and f.type.kind == "int"):
        return "the score is a number per player (`per: player`, `type: int`)"
    if shown == "hand" and not (f.per == "player" and collection):
        return "a hand is a list or set per player (`per: player`)"
    if shown == "row" and not (collection or f.type.kind == "optional"):
        return "a row is a list, a set or an optional thing (a row of at most one)"
    if shown == "pile" and not collection:
        return "a pile is a list or a set"
    if shown == "counter" and not (f.type.kind in ("int", "bool", "auction") or _list_of_int(f)):
        return "a counter is a number, a flag, an auction or a list of numbers"
    if shown == "board" and f.per not in ("spot", "region") and not _names_places(f.type, records):
        return ("a field drawn on the board is per spot or per region, or names spots, regions or wall faces "
                "(a marker's spot, a pagoda's cells)")
    return None


def _names_places(t: Ty | None, records: tuple[ir.RecordDecl, ...], depth: int = 0) -> bool:
    """Whether values of type `t` name places of the board: spots, regions, wall faces, or records
    holding one (drawn where they name: api/draw.py)."""
    if t is None or depth > 8:
        return False
    if t.kind in ("list", "set", "optional"):
        return _names_places(t.elem, records, depth + 1)
    if t.kind in ("entity", "enum") and t.name in ("spot", "region", "wallface"):
        return True
    fields = t.fields or next((r.fields for r in records if r.name == t.name), ())
    return t.kind in ("record", "entity") and any(_names_places(ft, records, depth + 1) for _, ft in fields)


def _position(r: Reader, node: YNode, what: str) -> tuple[int | float, int | float] | None:
    """`[x, y]`: two numbers from 0 to 1000."""
    seq = r.sequence(node, what)
    if seq is None:
        return None
    numbers = [n.value for n in seq.items if isinstance(n, YScalar) and type(n.value) in (int, float)]
    if len(seq.items) != 2 or len(numbers) != 2 or not all(0 <= n <= _SIZE for n in numbers):  # type: ignore[operator]
        r.error(seq.span, f"{what} must be `[x, y]`, two numbers from 0 to {_SIZE}",
                f"positions are in a {_SIZE} x {_SIZE} box, x to the right and y down from its top left corner")
        return None
    return numbers[0], numbers[1]  # type: ignore[return-value]


def _places(r: Reader, node: YNode | None, what: str) -> tuple[dict[str, tuple[int | float, int | float]],
                                                               tuple[tuple[str, SourceSpan], ...]]:
    out: dict[str, tuple[int | float, int | float]] = {}
    names: list[tuple[str, SourceSpan]] = []
    for key, value in (r.mapping(node, what) or YMap((), SourceSpan("", 0, 0, 0, 0))).items:
        name = str(key.value)
        place = _position(r, value, f"the place of `{name}`")
        if place is not None:
            out[name] = place
            names.append((name, key.span))
    return out, tuple(names)


def _boards(r: Reader, node: YNode | None, known: Declared, boards: list[ir.LookBoard]) -> dict[str, object]:
    """`boards: {face_3_4: {spots: {Chin1: [120, 80]}, labels: {Chin: [100, 60]}, size: 40}}`."""
    names = {b.name for b in known.boards}
    out: dict[str, object] = {}
    for key, value in (r.mapping(node, "`look: boards:`") or YMap((), SourceSpan("", 0, 0, 0, 0))).items:
        name = str(key.value)
        m = r.mapping(value, f"`look: boards: {name}:`")
        if name not in names:
            r.error(key.span, f"`look: boards:` names `{name}`, which is no board",
                    did_you_mean(name, sorted(names)) or "name a board of `boards:`")
            continue
        if m is None:
            continue
        r.keys(m, LOOK_BOARD_KEYS, f"`look: boards: {name}:`")
        entry: dict[str, object] = {}
        spots, spot_names = _places(r, m.get("spots"), f"`look: boards: {name}: spots:`")
        labels, label_names = _places(r, m.get("labels"), f"`look: boards: {name}: labels:`")
        if spots:
            entry["spots"] = spots
        if labels:
            entry["labels"] = labels
        size = m.get("size")
        if size is not None:
            if isinstance(size, YScalar) and type(size.value) in (int, float) and 0 < size.value <= _SIZE:  # type: ignore[operator]
                entry["size"] = size.value
            else:
                r.error(size.span, f"`size:` of board `{name}` must be a number above 0 and at most {_SIZE}",
                        "a spot's size, in the units of its place")
        boards.append(ir.LookBoard(name, spot_names, label_names, key.span))
        out[name] = entry
    return out


def _parsed(text: str, span: SourceSpan) -> tuple[str | ast.Expr, ...]:
    """A template's literal parts and the expressions between its braces, each parsed where it stands
    in the rule file (as `tell "..."`'s, compiler/parse.py)."""
    parts: list[str | ast.Expr] = []
    pos = 0
    for m in _PLACEHOLDER.finditer(text):
        parts.extend(_literal(text[pos:m.start()], span, pos))
        start = 1 + m.start(1)
        inner = span.shifted(1, start, 1, start + max(len(m.group(1)), 1))
        if not m.group(1).strip():
            raise ParseError(Diagnostic(inner, "`{}` in a text names nothing",
                                        "write an expression between the braces: `{state_name(support)}`"))
        parts.append(parse(m.group(1), inner, "expr"))
        pos = m.end()
    parts.extend(_literal(text[pos:], span, pos))
    return tuple(parts)


def _literal(text: str, span: SourceSpan, offset: int) -> list[str | ast.Expr]:
    """A literal part of a template; a brace left alone in it is an error."""
    for i, char in enumerate(text):
        if char in "{}":
            at = 1 + offset + i
            raise ParseError(Diagnostic(span.shifted(1, at, 1, at + 1), f"a lone `{char}` in a text",
                                        "braces hold an expression: `{winner} wins`"))
    return [text] if text else []


def _templates(r: Reader, node: YNode | None, section: str) -> tuple[ir.LookTemplate, ...]:
    """`prompts:` or `moves:`: a text per action or ask, by name (both checked as the rules are typed)."""
    out: list[ir.LookTemplate] = []
    for key, value in (r.mapping(node, f"`look: {section}:`") or YMap((), SourceSpan("", 0, 0, 0, 0))).items:
        text = r.text(value, f"the text of `{key.value}`")
        name = r.declared(key, "an action or ask")
        if text is None or name is None:
            continue
        if not (text.isprintable() and len(text) <= _MAX_TEXT):
            r.error(value.span, f"the text of `{name}` in `look: {section}:` must be one line of at most "
                    f"{_MAX_TEXT} characters")
            continue
        text_span = value.text_span if isinstance(value, YScalar) else value.span
        try:
            parts = _parsed(text, text_span)
        except ParseError as exc:
            r.diagnostics.append(exc.diagnostic)
            continue
        out.append(ir.LookTemplate(name, text, key.span, text_span, parts))
    return tuple(out)

