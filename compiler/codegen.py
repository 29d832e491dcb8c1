"""Stage 7, codegen: the checked program laid out as one Python module by a jinja2 template.

`emit(ruleset, program, sources)` is the one entry point. All names and expressions were
computed by lowering (compiler/lower/); the template only places them. Output is deterministic: it depends
on nothing but the rule files and the compiler version.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import jinja2

from ..core._version import __version__
from ..core.paths import shown_safely
from . import ir
from .lowered import LoweredAction, LoweredChoice, Program
from .names import faces_constant, regions_constant
from .passes import PASSES
from .pyir import Code, Expr, Paren, Tuple, declared, does_something
from .pyprint import lines, text
from .typed import BoardTable

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("rulewright.compiler", "templates"),
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    autoescape=False,
)


def _comment(text: str) -> str:
    """Text for a `# comment`: one line whatever it holds (a newline or any other character
    that is not printable is escaped). Rule file paths are plain already (paths.path_problem);
    this keeps a comment a comment even so."""
    return shown_safely(text)


def _docstring(text: str) -> str:
    """A string literal of `text` for a docstring: `text` in triple quotes when that reads back
    as `text` (one printable line, no backslash, nothing that could end the quotes), else
    `repr(text)`."""
    literal = f'"""{text}"""'
    if text.isprintable() and "\\" not in text and '"""' not in text and not text.endswith('"'):
        try:
            if ast.literal_eval(literal) == text:
                return literal
        except (SyntaxError, ValueError):
            pass
    return repr(text)


def _paren(code: str | Expr) -> str:
    """`code` in parentheses, unless one pair already wraps it whole (of nodes: a `Paren`, a tuple's own)."""
    if isinstance(code, Code):
        return _paren(code.text)
    if not isinstance(code, str):
        return text(code) if isinstance(code, Paren) or isinstance(code, Tuple) and code.parenthesised \
            else f"({text(code)})"
    if code.startswith("(") and code.endswith(")"):
        depth = 0
        for i, ch in enumerate(code):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                if i == len(code) - 1:
                    return code
                break
    return f"({code})"


def _unparen(code: str | Expr) -> str:
    """`code` without one pair of parentheses that wraps it whole (of nodes: a `Paren`'s, a tuple's own)."""
    if isinstance(code, Code):
        return _unparen(code.text)
    if isinstance(code, Paren):
        return text(code.value)
    if isinstance(code, Tuple):
        # (a tuple of one item keeps its parentheses: `a,` is a tuple only where a statement's
        # value stands alone, and `tuple(a,)` is a call with one argument)
        return text(code) if len(code.elts) == 1 else text(replace(code, parenthesised=False))
    if not isinstance(code, str):
        return text(code)
    wrapped = _paren(code)
    return code[1:-1] if wrapped == code and code.startswith("(") else code


def _shared_regions_constants(boards: list[BoardTable]) -> list[tuple[str, BoardTable, list[str]]]:
    """The regions that two boards or more have alike, each written once as a module constant
    (`REGIONS__<first board>`): the constant, the first board, the names of the boards."""
    alike: dict[tuple[tuple[tuple[str, str, tuple[str, ...]], ...], tuple[int, ...]], list[BoardTable]] = {}
    for board in boards:
        if board.regions:
            alike.setdefault((tuple(board.regions), board.owners), []).append(board)
    return [(regions_constant(same[0].name), same[0], [b.name for b in same])
            for same in alike.values() if len(same) > 1]


def _shared_regions(boards: list[BoardTable]) -> dict[str, str]:
    """Each board whose regions are written once for several (above): its constant."""
    return {name: const for const, _, names in _shared_regions_constants(boards) for name in names}


# A constant value of this many scalars or more is written packed, `rt.unpacked('<JSON>')` (runtime/packed.py):
# natively mypyc builds a tuple display item by item in C (a hex map of 176 spots: 14,600 lines), where
# a string literal is one static. Smaller values stay displays, as readable and built as quickly.
PACK_FROM = 32


def _scalars(value: object) -> int | None:
    """How many scalars `value` holds, if it is only tuples, dicts with str keys, str, int, bool and
    None (what JSON reads back as itself once arrays are read as tuples); else None."""
    if value is None or isinstance(value, (str, int)):
        return 1
    if isinstance(value, tuple):
        counts = [_scalars(item) for item in value]
    elif isinstance(value, dict) and all(isinstance(key, str) for key in value):
        counts = [_scalars(item) for item in value.values()]
    else:
        return None
    return None if None in counts else sum(c for c in counts if c is not None)


def _packed(value: object, rows: str | None = None, least: int | None = None) -> str:
    """`value`'s literal: `repr(value)`, or, for a value of PACK_FROM scalars or more, one string of
    its JSON decoded once at import (`rt.unpacked`), when that reads back as `value` exactly. With
    `rows` (an indent) and a tuple or dict, each item's JSON on a line of its own: adjacent string literals,
    which Python joins into one constant. (`least`: the fewest scalars packed, PACK_FROM by default.)"""
    count = _scalars(value)
    if count is None or count < (PACK_FROM if least is None else least):
        return repr(value)
    packed = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if _unpacked(packed) != value:
        return repr(value)
    if rows is None or not value or not isinstance(value, (tuple, dict)):
        return f"rt.unpacked({packed!r})"
    dumped = functools.partial(json.dumps, ensure_ascii=False, separators=(", ", ": "))
    items = [f"{dumped(key)}: {dumped(item)}" for key, item in value.items()] if isinstance(value, dict) \
        else [dumped(item) for item in value]
    opening, closing = "{}" if isinstance(value, dict) else "[]"
    parts = [opening + items[0]] + items[1:]
    parts = [f"{part}, " for part in parts[:-1]] + [parts[-1] + closing]
    return "rt.unpacked(\n" + "".join(f"{rows}    {part!r}\n" for part in parts) + f"{rows})"


def _unpacked(text: str) -> object:  # as runtime/packed.py reads it (the compiler does not import the runtime)
    def tuples(value: object) -> object:
        if isinstance(value, list):
            return tuple(tuples(item) for item in value)
        if isinstance(value, dict):
            return {key: tuples(item) for key, item in value.items()}
        return value
    return tuples(json.loads(text))


def _packed_regions(regions: tuple[tuple[str, str, tuple[str, ...]], ...], owners: tuple[int, ...],
                    indent: str) -> str | None:
    """A board's regions as `rt.region_specs(rt.unpacked(...))` (rows of kind, name, spots and the owner
    where there is one), a row a line at `indent`, when they are big enough to pack (above); else None
    (RegionSpec displays)."""
    rows = tuple((kind, name, tuple(spots)) + ((owners[i],) if owners and owners[i] != -1 else ())
                 for i, (kind, name, spots) in enumerate(regions))
    code = _packed(rows, indent)
    return f"rt.region_specs({code})" if code.startswith("rt.unpacked(") else None


_ENV.filters["lines"] = lines
_ENV.filters["packed"] = _packed
_ENV.filters["packed_regions"] = _packed_regions
_ENV.filters["code"] = text  # an expression node's Python
_ENV.filters["unparen"] = _unparen
_ENV.filters["paren"] = _paren
_ENV.filters["pyrepr"] = repr
_ENV.filters["comment"] = _comment
_ENV.filters["docstring"] = _docstring
_ENV.filters["self_attr"] = "self.{}".format
_ENV.filters["shared_regions"] = _shared_regions
_ENV.filters["shared_regions_constants"] = _shared_regions_constants
_ENV.tests["starting"] = lambda ph: ph.steps or does_something(ph.start)  # a phase whose start does something


def class_name(game: str, variant: str) -> str:
    words = re.split(r"[^a-zA-Z0-9]+", f"{game} {'' if variant == 'base' else variant}")
    return "".join(w.capitalize() for w in words if w) + "State"


def _text_code(parts: tuple[tuple[str, str | None], ...]) -> str:
    pieces = []
    for value, fmt in parts:
        pieces.append(repr(value) if fmt is None else f"self._fmt({fmt!r}, {value})")
    return " + ".join(pieces) if pieces else "''"


def _read_params(params: tuple[tuple[str, str], ...], parts: tuple[tuple[str, str | None], ...],
                 code: str | None) -> list[tuple[int, str]]:
    """The choices (index, python name) a text's parts or a condition's code read."""
    shown = {value for value, fmt in parts if fmt is not None}
    return [(i, p) for i, (p, _) in enumerate(params)
            if p in shown or (code is not None and re.search(rf"(?<![\w.]){re.escape(p)}\b", code))]


def _args_code(choices: tuple[LoweredChoice, ...]) -> str:
    args = [f"tuple({c.py_name})" if c.is_list else c.py_name for c in choices]
    return "(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")"


def _key_code(choices: tuple[LoweredChoice, ...]) -> str:
    if len(choices) == 1:
        return f"tuple({choices[0].py_name})" if choices[0].is_list else choices[0].py_name
    return _args_code(choices)


def _text_prefix(parts: tuple[tuple[str, str | None], ...]) -> str:
    """The literal start of an action's text: how an unknown text is matched to its action."""
    return parts[0][0] if parts and parts[0][1] is None else ""


def _annotations(program: Program) -> Iterator[str]:
    """Every annotation the module writes (of the state's slots, of the tables, of each method's
    parameters, result and locals)."""
    yield from (f.annotation for f in program.fields)
    yield from (annotation for _, annotation in program.kept_slots)
    yield from (annotation for _, annotation, _, _ in program.kept)
    yield from (annotation for _, annotation, _, _ in program.board_tables)
    yield from (annotation for _, annotation, _, _ in program.component_tables)
    yield program.tie_break_type
    for f in (*program.defines, *program.procedures):
        yield f.returns
        yield from (annotation for _, annotation in f.params)
        yield from declared(f.body)
    yield from (annotation for lt in program.look_texts for _, _, annotation in lt.params)
    for a in program.actions:
        yield from (annotation for _, annotation in a.params)
        yield from declared(a.effect)
        yield from declared(a.listing_prelude)
        yield from declared(a.listing)
    for body in (*(t.effect for t in program.triggers), *(ph.start for ph in program.phases), program.setup,
                 program.end_loops):
        yield from declared(body)


def rule_paths(rs: ir.RuleSet) -> list[tuple[str, str]]:
    """Every rule's path (`actions.prospect.when`) and the file:line it was written at."""
    out: list[tuple[str, str]] = []
    for opt in rs.options:
        out.append((f"options.{opt.name}", opt.span.short))
    for f in rs.fields:
        out.append((f"state.{f.name}", f.span.short))
    for d in rs.defines:
        out.append((f"define.{d.name}", d.span.short))
    for p in rs.procedures:
        out.append((f"procedures.{p.name}", p.span.short))
    for ph in rs.phases:
        out.append((f"phases.{ph.name}", ph.span.short))
        out.append((f"phases.{ph.name}.start", ph.span.short))
        out.append((f"phases.{ph.name}.actions", ph.span.short))
        if ph.simultaneous is not None:
            out.append((f"phases.{ph.name}.simultaneous", ph.simultaneous.span.short))
    for a in rs.actions:
        out.append((f"actions.{a.name}", a.span.short))
        if a.when is not None:
            out.append((f"actions.{a.name}.when", a.when.span.short))
        out.append((f"actions.{a.name}.choose", (a.choices[0].span if a.choices else a.span).short))
        for c in a.choices:
            out.append((f"actions.{a.name}.choose.{c.name}", c.span.short))
    for t in rs.triggers:
        out.append((f"triggers.{t.name}", t.span.short))
    if rs.end is not None:
        out.append(("end", rs.end.span.short))
    for term in rs.scoring:
        out.append((f"scoring.{term.name}", term.span.short))
    for inv in rs.invariants:
        out.append((f"invariants.{inv.name}", inv.span.short))
    if rs.returns is not None:
        out.append(("returns", rs.returns.value.span.short))  # (a game error of the returns: where they come from)
    return out


def emit(rs: ir.RuleSet, program: Program, sources: list[tuple[str, str]],
         passes: frozenset[str] = frozenset()) -> str:
    """Render the module. `sources` are (display path, file text) of the rule files used;
    `passes` the optimisation passes that ran (the header names them)."""
    return render(context(rs, program, sources, passes))


def render(values: dict[str, Any]) -> str:
    """The module the template lays out from `values` (`context`)."""
    return _ENV.get_template("game.py.j2").render(values)


def render_blocks(values: dict[str, Any]) -> Callable[..., str]:
    """A function rendering one member of the module (a `{% block %}` of the template) from
    `values`, with some of them replaced (`block("defines", defines=[...])`): what
    compiler/inherit.py builds a variant's module from."""
    template = _ENV.get_template("game.py.j2")
    shared = {**values, **{k: v for k, v in template.make_module(values).__dict__.items() if not k.startswith("_")}}

    def block(name: str, **replaced: Any) -> str:
        return "".join(template.blocks[name](template.new_context({**shared, **replaced})))
    return block


def context(rs: ir.RuleSet, program: Program, sources: list[tuple[str, str]], passes: frozenset[str] = frozenset()
            ) -> dict[str, Any]:
    """What the template is given to lay out the module (`render`): its header, the tables,
    the rules as lowered, what the seats are asked (`_asks`)."""
    phase_effects = any(does_something(p.start) for p in program.phases)
    stuck_end = any(p.stuck == "end" for p in program.phases)
    return dict(
        **_header(rs, program, sources, passes),
        constants=program.constants,
        role_of_seat=repr(tuple(range(len(program.roles)))),
        dice_faces=[(faces_constant(name), repr(faces)) for name, _, faces in program.dice if faces],
        component_tables=program.component_tables,
        boards=program.boards,
        region_kinds=repr(program.region_kinds),
        class_name=class_name(rs.game, rs.variant),
        slots=_slots(program),
        kept=program.kept,
        board_tables=program.board_tables,
        fields_set=program.fields_set,
        forget=program.forget,
        fields=program.fields,
        phase_names=repr(tuple(p.name for p in program.phases)),
        phase_stuck=repr(tuple(p.stuck for p in program.phases)),
        phase_actions=repr(tuple(p.actions for p in program.phases)),
        phase_starts=repr(tuple(does_something(p.start) for p in program.phases)),
        simultaneous_table=repr(tuple(p.simultaneous is not None for p in program.phases))
        if any(p.simultaneous is not None for p in program.phases) else "",
        text_prefix=repr({a.name: _text_prefix(a.text_parts) for a in program.actions}),
        rules=rule_paths(rs),
        enums=program.enums,
        dice=program.dice,
        options=program.options,
        phases=program.phases,
        actions=[_action(rs, a) for a in program.actions],
        triggers=program.triggers,
        turn_end=program.turn_end,
        defines=program.defines,
        procedures=program.procedures,
        end=program.end,
        end_loops=program.end_loops,
        end_span=program.end_span or rs.span,
        end_kept=program.end_kept,
        kept_slots=program.kept_slots,
        own_drops=program.own_drops,
        phase_drops=program.phase_drops,
        caching=program.caching,
        scoring=program.scoring,
        invariants=[(name, code, span, next(i.doc for i in rs.invariants if i.name == name))
                    for name, code, span in program.invariants],
        game_id=rs.game,
        variant=rs.variant,
        players=rs.players,
        roles=program.roles,
        option_infos=rs.options,
        drawing={k: dict(v) for k, v in (("colours", rs.colours), ("icons", rs.icons)) if v},
        **_look(rs, program),
        look_texts=program.look_texts,
        files=tuple(path for path, _ in sources),
        lowest=rs.winner == "lowest_score",
        neutral=program.neutral,
        tie_break=program.tie_break,
        listing_memo=program.listing_memo,
        tie_break_type=program.tie_break_type,
        deciding=program.deciding,
        records=program.records,
        tie_break_span=rs.tie_break.span if rs.tie_break is not None else None,
        returns=program.returns,
        returns_span=rs.returns.span if rs.returns is not None else None,
        returns_value_span=rs.returns.value.span if rs.returns is not None else None,
        returns_sum=rs.returns.sum if rs.returns is not None else None,
        returns_range=rs.returns.range if rs.returns is not None else None,
        setup=program.setup if does_something(program.setup) else (),
        resets=program.resets,
        **_asks(program),
        board_players={b.name: b.players for b in rs.boards if b.players is not None},
        move_step=program.move_step is not None,  # (pass `write_out_moves`)
        # (pass `write_out_moves`) the tests of the end its step leaves out
        end_turn_test=program.move_step is None or program.move_step.end_turn_test,
        start_written=program.move_step is not None and program.move_step.start_written,
        phase_effects=phase_effects,
        stuck_end=stuck_end,
    )


def _look(rs: ir.RuleSet, program: Program) -> dict[str, Any]:
    """GameInfo's `look` (the checked section, a constant) and `attributes` (each component's attributes,
    an enumeration's values by name), written for a rule set with a `look:` only."""
    if rs.look is None:
        return {"look": "", "attributes": ""}
    enums = dict(program.enums)
    kinds: dict[str, list[str]] = {}
    for component, attr, const, enum_name in program.attribute_tables:
        code = f"rt.value_names({const}, {enums[enum_name]!r})" if enum_name in enums else const
        kinds.setdefault(component, []).append(f"{attr!r}: {code}")
    attributes = "{" + "".join(f"\n            {k!r}: {{{', '.join(v)}}}," for k, v in kinds.items()) \
        + ("\n        }" if kinds else "}")
    # (packed whatever its size: a line of JSON per key of the section)
    return {"look": _packed(_unpacked(rs.look.data), "        ", least=0), "attributes": attributes}


def _action(rs: ir.RuleSet, a: LoweredAction) -> dict[str, Any]:
    """What the template is given of one action."""
    return {
        "name": a.name, "method": a.method, "params": a.params, "when": a.when, "choices": a.choices,
        "effect": a.effect, "triggers": a.triggers, "then": a.then, "span": a.span, "steps": a.steps,
        "text_code": _text_code(a.text_parts),
        # what the other seats read (`others_text:`), the choices it or `revealed_when:` reads
        "others_code": _text_code(a.others_parts) if a.others_parts is not None else None,
        "others_params": _read_params(a.params, a.others_parts or (),
                                      None if a.revealed is None else text(a.revealed)),
        "revealed": a.revealed,
        "args_code": _args_code(a.choices),
        "key_code": _key_code(a.choices),
        # the limits of a move
        "listing_prelude": a.listing_prelude, "fresh_effect": a.fresh_effect,
        "listing": a.listing,  # through tables per board (pass `index_actions`)
        "unguarded": a.unguarded,  # its `when:` written out in its listing (pass `inline_guards`)
        "when_span": next(x.when.span for x in rs.actions if x.name == a.name and x.when is not None)
        if a.when else None,
    }


def _header(rs: ir.RuleSet, program: Program, sources: list[tuple[str, str]], passes: frozenset[str],
            ) -> dict[str, Any]:
    """The module's header and docstrings: the rule set, the passes that ran, the rule files."""
    ruleset = rs.game if rs.variant == "base" else f"{rs.game}/{rs.variant}"
    return dict(
        sequence=any("Sequence[" in annotation for annotation in _annotations(program)),
        version=__version__,
        # (every pass enabled ran: `passes.stages`, `passes.transform`)
        passes=[name for name in PASSES if name in passes],
        passes_off=[name for name in PASSES if name not in passes],
        sources=[(path, hashlib.sha256(body.encode()).hexdigest()[:16]) for path, body in sources],
        ruleset=ruleset,
        module_doc=f"{rs.title}{f' ({rs.author})' if rs.author else ''}: rule set `{ruleset}`, "
                   "compiled to a state machine.",
        class_doc=f"A position of {rs.title}.",
        title=rs.title,
        author=rs.author,
    )


def _slots(program: Program) -> tuple[str, ...]:
    """The slots of the state's class: options, fields, and what the passes keep beside them."""
    return tuple([slot for _, slot, _ in program.options] + [f.name for f in program.fields]
                 + (["_budget"] if program.resets else [])  # the budget of a move (runtime/limits.py)
                 + [slot for slot, _ in program.kept_slots]
                 + (["_kept_shared"] if program.own_drops else [])  # (pass `drop_in_place`)
                 + [slot for slot, _, _, _ in program.kept]  # kept between moves or beside the fields (passes)
                 + [slot for slot, _, _, _ in program.board_tables])  # (pass `bind_board_tables`)


def _asks(program: Program) -> dict[str, Any]:
    """What the template is given of the rules that ask a seat (runtime/decisions.py)."""
    return dict(
        suspends=program.suspends,
        asking_actions=sorted(a.name for a in program.actions if a.steps),
        asks_between=program.turn_end_steps or any(ph.steps for ph in program.phases),
        asks=dict(program.asks),
        secret_asks=program.secret_asks,
        setup_steps=program.setup_steps,
        turn_end_steps=program.turn_end_steps,
        journal=program.journal,
        waiting={t.method for t in program.triggers if t.steps},
    )
