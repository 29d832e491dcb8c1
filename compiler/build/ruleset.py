"""A whole rule file: its top-level keys read in order, each section by the module of its kind
(the package's docstring), and the checks across sections: reserved names, the game's id, title
and winner."""

from __future__ import annotations

import json
import re

from ...core.load import YMap, YNode, YScalar
from ...core.source import Diagnostic, SourceSpan, did_you_mean
from ...runtime.limits import MAX_INT
from .. import ir
from ..merge import Stacked
from ..names import IMPLICIT, MODULE_API, const_name
from .actions import read_actions, read_phases, read_triggers
from .boards import read_boards
from .definitions import read_defines, read_invariants, read_procedures, read_scoring
from .drawing import read_drawing
from .fields import field_enums, read_fields
from .keys import LANGUAGE_VERSION, RETURNS_KEYS, TOP_KEYS, WINNER_RULES
from .kinds import read_components, read_dice, read_enums, read_records
from .look import Declared, read_look
from .options import read_options, read_players
from .reader import Reader


def _version_and_variant(r: Reader, tree: YMap) -> None:
    """`rulewright:` is the language version, checked (a file for another version would be
    read wrongly, not refused); `variant:` was once accepted and ignored: now refused."""
    version = tree.get("rulewright")
    if version is not None and not (isinstance(version, YScalar) and type(version.value) is int
                                    and version.value == LANGUAGE_VERSION):
        shown = (f"`{str(version.value)[:20]}`" if isinstance(version, YScalar)
                 else "a mapping" if isinstance(version, YMap) else "a list")
        r.error(version.span, f"language version {shown}: this rulewright reads version {LANGUAGE_VERSION} of the "
                "rule language only", f"write `rulewright: {LANGUAGE_VERSION}` (the language version, not the "
                "tool's), or use the rulewright the file was written for")
    variant = tree.get("variant")
    if variant is not None:
        key = next(k for k, _ in tree.items if k.value == "variant")
        r.error(key.span, "`variant:` is not a key of a rule file: a variant is named by its file",
                "remove it: `rules/<game>/<name>.yaml` is the rule set `<game>/<name>`, and a variant "
                "says what it builds on with `extends:`")


def build_ir(tree: YMap, files: tuple[str, ...], variant: str = "base", merged: Stacked | None = None,
             ) -> tuple[ir.RuleSet | None, list[Diagnostic]]:
    """Build the IR of one resolved rule set; returns it (None if unusable) and the problems.
    `merged`: what its definitions and scoring terms replaced, for `base(...)` in them.
    The sections are read in this order, which is the order their problems are reported in."""
    r = Reader()
    _version_and_variant(r, tree)
    r.keys(tree, TOP_KEYS + (("variant",) if tree.get("variant") is not None else ()), "a rule file")
    game = _game(r, tree)
    players = read_players(r, tree.get("players"))
    roles = r.constants(r.names(tree.get("roles"), "a role"), "a role")
    neutral_refs = r.names(tree.get("neutral"), "a neutral seat")
    options = read_options(r, tree.get("options"))
    boards = read_boards(r, tree.get("boards"))
    dice = read_dice(r, tree.get("dice"))
    components = read_components(r, tree.get("components"))
    enum_decls = read_enums(r, tree.get("enums"), tree.span)

    entity_kinds = {"player", "spot", "region", "border"} | {d.name for d in dice} | {c.name for c in components}
    enums = {"role", "regionkind"} | {o.name for o in options} | {e.name for e in enum_decls}
    if any(b.wall for b in boards):
        enums |= {"wallpiece", "wallface"}
    if any(b.grid is not None for b in boards):
        enums |= {"direction"}
    state = r.mapping(tree.get("state"), "state") or YMap((), tree.span)
    enums |= field_enums(state)
    records = read_records(r, tree.get("records"), entity_kinds, enums)
    fields = read_fields(r, state, entity_kinds, enums)
    defines = read_defines(r, tree.get("define"), tree.span, entity_kinds, enums, merged, files)
    procedures = read_procedures(r, tree.get("procedures"), tree.span, entity_kinds, enums)
    setup = r.block(tree.get("setup"), "setup") if tree.get("setup") is not None else ()
    phases = read_phases(r, tree.get("phases"))
    actions = read_actions(r, tree.get("actions"))
    triggers = read_triggers(r, tree.get("triggers"))

    end = r.expr(tree.get("end"), "end")
    scoring = read_scoring(r, tree.get("scoring"), tree.span, merged, files)
    tie_break = r.expr(tree.get("tie_break"), "tie_break") if tree.get("tie_break") is not None else None
    invariants = read_invariants(r, tree.get("invariants"))
    returns = _returns(r, tree.get("returns"))
    winner = _winner(r, tree)
    title, author = _title_and_author(r, tree, game)
    _constants(r, phases, dice, components)
    colours, icons = read_drawing(r, tree.get("drawing"), {name for name, _, _ in r.values},
                                  {d.name for d in dice} | {c.name for c in components})
    look = read_look(r, tree.get("look"), Declared(
        frozenset(name for name, _, _ in r.values), max(players, default=0) + len(neutral_refs), frozenset(enums),
        components, records, dice, fields, boards, _file_of(tree.get("players"))), tree.get("drawing"))
    if look is not None:  # (what reads the older `drawing:` reads the colours of `look:` too)
        colours = tuple(json.loads(look.data).get("colours", {}).items())
    _neutral(r, neutral_refs)
    ruleset = ir.RuleSet(
        game=game,
        variant=variant,
        title=title,
        author=author,
        players=players,
        roles=roles,
        options=options,
        boards=boards,
        dice=dice,
        fields=fields,
        defines=defines,
        procedures=procedures,
        phases=phases,
        actions=actions,
        triggers=triggers,
        end=end,
        scoring=scoring,
        winner=winner,
        files=files,
        span=tree.span,
        enums=enum_decls,
        components=components,
        neutral=tuple(ref.name for ref in neutral_refs),
        setup=setup,
        tie_break=tie_break,
        records=records,
        colours=colours,
        icons=icons,
        invariants=invariants,
        returns=returns,
        look=look,
    )
    return ruleset, r.diagnostics


def _game(r: Reader, tree: YMap) -> str:
    """`game:`, the rule set's id."""
    game = r.text(tree.get("game"), "game")
    if game is None:
        r.error(tree.span, "a rule set needs `game:` (its id, e.g. china-cornett)")
        game = "unnamed"
    elif not re.fullmatch(r"[a-z][a-z0-9-]*", game):
        node = tree.get("game")
        assert node is not None
        r.error(node.span, f"game id `{game}` must be lowercase letters, digits and `-`")
    return game


def _winner(r: Reader, tree: YMap) -> str:
    """`winner:`, one of WINNER_RULES."""
    winner = r.text(tree.get("winner"), "winner", "highest_score") or "highest_score"
    if winner not in WINNER_RULES:
        node = tree.get("winner")
        assert node is not None
        r.error(node.span, f"unknown winner rule `{winner}`", did_you_mean(winner, WINNER_RULES))
    return winner


def _returns(r: Reader, node: YNode | None) -> ir.Returns | None:
    """`returns:`, each seat's return once the game is over: `"expression"`, or `{value:
    "expression", sum: 0, range: [-13, 13]}` (docs/language.md, "Returns")."""
    if node is None:
        return None
    total: int | None = None
    bounds: tuple[int, int] | None = None
    written: YNode | None = node
    if isinstance(node, YMap):
        r.keys(node, RETURNS_KEYS, "`returns:`")
        written = node.get("value")
        if written is None:
            r.error(node.span, "`returns:` needs `value:`, each seat's return as an int over `player`",
                    'write `returns: "chips[player] - 10"`, or `returns: {value: "chips[player] - 10", sum: 0}`')
        if node.get("sum") is not None:
            total = _bounded(r, node.get("sum"), "`sum:` of `returns:`")
        if node.get("range") is not None:
            bounds = _range(r, node.get("range"))
    expr = r.expr(written, "`returns:`") if written is not None else None
    return ir.Returns(expr, total, bounds, node.span) if expr is not None else None


def _bounded(r: Reader, node: YNode | None, what: str) -> int | None:
    """A whole number of the rule file that the runtime compares returns with: within 64 bits."""
    n = r.integer(node, what)
    if n is not None and not -MAX_INT <= n <= MAX_INT:
        assert node is not None
        r.error(node.span, f"{what} is larger than the limit of whole numbers (±{MAX_INT:,}, 64 bits)")
        return None
    return n


def _range(r: Reader, node: YNode | None) -> tuple[int, int] | None:
    """`range: [least, most]` of `returns:`: the least and most one seat's return can be."""
    seq = r.sequence(node, "`range:` of `returns:`")
    if seq is None:
        return None
    if len(seq.items) != 2:
        r.error(seq.span, "`range:` of `returns:` must be two whole numbers, `[least, most]`",
                "e.g. `range: [-13, 13]`: the least and the most one seat's return can be")
        return None
    least, most = (_bounded(r, item, "`range:` of `returns:`") for item in seq.items)
    if least is None or most is None:
        return None
    if least > most:
        r.error(seq.span, f"`range:` of `returns:` goes from {least} down to {most}",
                "write the least return first: `[least, most]`")
        return None
    return least, most


def _title_and_author(r: Reader, tree: YMap, game: str) -> tuple[str, str]:
    """`title:` (the game's id if none) and `author:`, each one line of plain text."""
    title = r.text(tree.get("title"), "title", game) or game
    author = r.text(tree.get("author"), "author", "") or ""
    for what, text in (("title", title), ("author", author)):
        node = tree.get(what)
        if node is not None and not (text.isprintable() and "\\" not in text and '"""' not in text):
            r.error(node.span, f"{what} must be one line of plain text", 'with no backslash and no `"""`')
    return title, author


def _neutral(r: Reader, neutral_refs: tuple[ir.NameRef, ...]) -> None:
    """A neutral seat's name may be neither a local the rules bind themselves nor a player's."""
    for ref in neutral_refs:
        _implicit(r, ref.name, ref.span)
        if re.fullmatch(r"p[0-9]+", ref.name):  # (a move's text is read whatever its case: compiler/boards.py)
            r.error(ref.span, f"a neutral seat named `{ref.name}` would be read as the player {ref.name.upper()} in a "
                    "move's text (read whatever its case)", "name it apart from P1, P2 ...")


def _constants(r: Reader, phases: tuple[ir.Phase, ...], dice: tuple[ir.DiceKind, ...],
               components: tuple[ir.Component, ...]) -> None:
    """Refuses a value whose module constant would be the module's own public `GAME` (names.MODULE_API).
    No other can meet a name of generated code: a value in capitals never holds `__` nor starts
    with `_`, and every constant the compiler makes does one or the other (compiler/names.py).
    (Two values of one name are the checker's "declared twice".)"""
    seen: set[str] = set()
    for name, what, span in r.values:
        if name not in seen:
            seen.add(name)
            if not _implicit(r, name, span) and const_name(name) in MODULE_API:
                r.error(span, f"`{name}` is reserved: as {what} it would be written `{const_name(name)}` in generated "
                        "code, the module's own public name", "choose another name")


def _implicit(r: Reader, name: str, span: SourceSpan) -> bool:
    """Refuses a value or seat named like a local the rules bind themselves (`player`); True if so."""
    if name in IMPLICIT:
        r.error(span, f"`{name}` is reserved: the rules use it for {IMPLICIT[name]}", "choose another name")
        return True
    return False


def _file_of(node: YNode | None) -> str:
    """The file a node was written in ("" for none)."""
    return node.span.path if node is not None else ""
