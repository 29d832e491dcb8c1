"""What lowering gives: the rule set's members, their bodies as statements of the lowered IR
(compiler/pyir.py), each with the rule line it came from, which the passes of the lowered level
(compiler/passes/, `transform`) rewrite and the code generator (compiler/codegen.py) only lays out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..core.source import SourceSpan
from .pyir import Block, Constant, Expr, For, If, Return, Stmt, While
from .typed import BoardTable


@dataclass(frozen=True, slots=True)
class LoweredChoice:
    name: str
    py_name: str
    domain: Expr  # the list it walks
    is_list: bool
    span: SourceSpan
    note: str = ""  # what the optimisation passes keep_derived in its domain, for its line's comment


@dataclass(frozen=True, slots=True)
class LoweredAction:
    name: str
    method: str
    params: tuple[tuple[str, str], ...]  # python name, annotation
    when: Expr | None
    choices: tuple[LoweredChoice, ...]
    text_parts: tuple[tuple[str, str | None], ...]  # literal text, or (choice python name, format kind)
    effect: Block
    triggers: tuple[str, ...]  # trigger method names to run afterwards
    then: tuple[tuple[int, int], ...]  # (phase index, next phase index)
    span: SourceSpan
    listing_prelude: Block = ()  # the checks its listing starts with (runtime/limits.py)
    fresh_listing: bool = False  # its listing (or guard) charges the budget of a move
    fresh_effect: bool = False  # its effect (or a trigger after it) does
    clear_cache: bool = False  # its choices can name ever new values (numbers): keep few actions interned
    count: int | None = None  # at most this many legal actions (None: only the game knows)
    steps: bool = False  # its effect (or a trigger after it) can wait for a decision: a generator
    listing: Block = ()  # its listing through tables per board (pass `index_actions`), if so
    unguarded: Expr | None = None  # (pass `inline_guards`) its listing's test of the `when:`, written out
    others_parts: tuple[tuple[str, str | None], ...] | None = None  # what the other seats read (`others_text:`)
    revealed: Expr | None = None  # from when on everyone reads the text (`revealed_when:`), over the choices


@dataclass(frozen=True, slots=True)
class LoweredFunction:
    name: str
    params: tuple[tuple[str, str], ...]
    returns: str
    body: Block
    span: SourceSpan
    doc: str = ""
    steps: bool = False  # (a procedure) it can wait for a decision: a generator
    cached: bool = False  # a definition computed once per state (its body remembers its value)
    kept: str = ""  # (pass `keep_derived`) kept between moves: when it is computed again, for its comment
    version_of: str = ""  # (a definition) the one whose replaced version it is, for its comment: `base(...)`
    note: str = ""  # (a definition) what a pass decided of it that its body does not show, for its comment
    per_state: bool = False  # (pass `keep_derived`) a variant's definition whose body remembers its value per state
    # (a definition computed at its call) where in `body` the statement is whose value is the
    # definition's value as the rules write it (its `return`, or the `_value = ...` that a kept or
    # tabled one remembers): a fact lowering records, where pass `aggregate_loops` writes out the
    # aggregates that value computes first (a pass that puts statements before it moves it on)
    value_at: int | None = None

    @property
    def remembered(self) -> bool:
        """(A definition) its value is remembered while the legal actions are listed (`_memo`): no
        parameter, not kept nor cached, one `return` (the template writes its memo around it)."""
        return not (self.kept or self.cached or self.per_state or self.params or not isinstance(self.body[-1], Return)
                    or self.body[-1].value is None)


@dataclass(frozen=True, slots=True)
class LoweredTrigger:
    name: str
    method: str
    when: Expr | None
    effect: Block
    span: SourceSpan
    steps: bool = False  # it can wait for a decision: a generator


@dataclass(frozen=True, slots=True)
class LoweredField:
    name: str
    annotation: str
    init: Expr  # (expression nodes, as its copy and the conditions of what is seen)
    per: str | None
    copy: Expr  # how clone copies it
    info: str  # the FieldInfo(...) literal
    span: SourceSpan
    shown: Expr | None = None  # the condition under which everyone sees it
    hidden_item: Expr | None = None  # the condition (over k) under which item k is hidden
    seen_by: Expr | None = None  # `visible: {to: ...}`: the player (over k) who sees entry or item k


@dataclass(frozen=True, slots=True)
class LoweredPhase:
    name: str
    const: str
    start: Block
    actions: tuple[str, ...]  # action method suffixes
    stuck: str
    span: SourceSpan
    actor: Expr | None = None  # who decides, when not the seat whose turn it is
    many_actions: bool = False  # its legal actions may pass MAX_ACTIONS: counted once listed
    fresh_listing: bool = False  # listing its actions charges the budget of a move: a fresh one first
    steps: bool = False  # its start can wait for a decision: a generator
    simultaneous: Expr | None = None  # the seats that choose at once in it (`simultaneous:`)


@dataclass(frozen=True, slots=True)
class MoveStep:
    """(pass `write_out_moves`) A move's step through the runtime written out for the rule set (the
    module's `_do` and `_start_phase`), and which of the runtime's tests of the end it keeps."""

    end_turn_test: bool  # the end is tested again after the end of the turn
    # a phase's start is written out in the step, without `_phase_started`'s test of the end
    start_written: bool


@dataclass(frozen=True)
class LoweredLookText:
    """A text of `look: prompts:` or `look: moves:` as a method of the state (`_prompt__build`,
    `_move__support`; an ask's `_ask_prompt__x`, `_ask_move__x`): the choices it reads, by their
    place in the move's arguments, python name and annotation, and the code of the text."""

    name: str
    move: bool
    asked: bool
    method: str
    params: tuple[tuple[int, str, str], ...]
    code: Expr
    span: SourceSpan


@dataclass
class Program:
    constants: list[tuple[str, int, str]] = field(default_factory=list)  # NAME, value, comment
    enums: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    dice: list[tuple[str, tuple[str, ...], tuple[tuple[int, ...], ...]]] = field(default_factory=list)
    component_tables: list[tuple[str, str, Expr, SourceSpan]] = field(default_factory=list)  # NAME, type, code
    look_texts: list[LoweredLookText] = field(default_factory=list)  # `look: prompts:` and `look: moves:`
    # each attribute's table: component kind, attribute, its table's NAME, its enumeration ("" if none)
    attribute_tables: list[tuple[str, str, str, str]] = field(default_factory=list)
    options: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # name, slot, choices
    region_kinds: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    boards: list[BoardTable] = field(default_factory=list)
    fields: list[LoweredField] = field(default_factory=list)
    defines: list[LoweredFunction] = field(default_factory=list)
    procedures: list[LoweredFunction] = field(default_factory=list)
    phases: list[LoweredPhase] = field(default_factory=list)
    actions: list[LoweredAction] = field(default_factory=list)
    triggers: list[LoweredTrigger] = field(default_factory=list)
    turn_end: list[str] = field(default_factory=list)
    end: Expr = Constant(False)  # the end's test (expression nodes, as scoring, the invariants, the tie break)
    end_span: SourceSpan | None = None
    end_loops: Block = ()  # (pass `aggregate_loops`, of the lowered level) before the end's test
    scoring: list[tuple[str, Expr, SourceSpan]] = field(default_factory=list)
    setup: Block = ()
    tie_break: Expr | None = None
    tie_break_type: str = "int"  # or `tuple[int, ...]`: a list of ints, compared item by item
    returns: Expr | None = None  # (`returns:`) each seat's return once the game is over, over `player`
    deciding: bool = False  # whether the rules read `deciding`: the module gets `_deciding()`
    records: list[tuple[str, tuple[tuple[str, str], ...]]] = field(default_factory=list)  # name, (field, type)
    neutral: tuple[str, ...] = ()
    # The methods the runtime enters rule code by whose code charges the budget of a move
    # (runtime/limits.py): each starts a fresh one. "setup", "end", "start" (a phase's),
    # "turn_end", "guard", "actor", "score", "tie_break", "shown", "hidden", "seen"; an action's
    # listing and effect start one if theirs charges ("legal", "effect": some does).
    resets: frozenset[str] = frozenset()
    # The definitions and procedures whose call charges the budget of a move: their code checks it,
    # their proven work is large (they charge it as they start), or their value is kept (computing
    # it charges): a fact of lowering (pass `share_values` never shares such a call).
    charging: frozenset[str] = frozenset()
    # Sub-decisions (`ask`): whether any rule can wait for one, then the runtime runs moves as
    # steps; the setup's own; each choice's name and how its values are written.
    suspends: bool = False
    setup_steps: bool = False
    turn_end_steps: bool = False
    journal: bool = False  # a move notes the fields it changes, as it first changes each (`Lowerer.journal`)
    asks: list[tuple[str, str]] = field(default_factory=list)
    secret_asks: tuple[str, ...] = ()  # (`ask p to choose secretly ...`)
    invariants: list[tuple[str, Expr, SourceSpan]] = field(default_factory=list)  # name, condition, where
    # Values kept between moves (passes `keep_derived`, `keep_end`): each slot and its annotation; the
    # slots a new phase or turn drops (they read the seat to act); the end's note, if it is kept.
    kept_slots: list[tuple[str, str]] = field(default_factory=list)
    own_drops: bool = False  # (pass `drop_in_place`) the state says whether a copy may share its dicts of kept values
    phase_drops: list[str] = field(default_factory=list)
    end_kept: str = ""
    # Whether some definition is `cached: true` (and not kept): only then is `_derived` forgotten.
    caching: bool = False
    # What the passes keep on the state beside the fields (pass `mask_spot_sets`): slot, annotation, note, copy;
    # and how `_fields_set()` makes it again from the fields.
    kept: list[tuple[str, str, str, str]] = field(default_factory=list)  # (and how `_copy_fields` copies it)
    fields_set: list[Stmt] = field(default_factory=list)
    forget: list[Stmt] = field(default_factory=list)  # (pass `mask_regions`) what `_forget_kept` also resets
    # (pass `bind_board_tables`) the tables of the board found once as a game starts: slot, annotation, the code
    # that finds or makes it, and what it holds
    board_tables: list[tuple[str, str, str, str]] = field(default_factory=list)
    # The tables of the board the code finds by name (or makes) as it reads them, in the order met: the slot
    # of the state each would be bound to, its annotation, the code that finds it (the whole value of the
    # statement that reads it, its nodes) and what it holds (compiler/lower/boards.py `board_table`)
    board_lookups: list[tuple[str, str, Expr, str]] = field(default_factory=list)
    move_step: MoveStep | None = None  # (pass `write_out_moves`) a move's step written out for the rule set
    # The definitions the code calls as methods (those inlined, or written otherwise by a pass, are not):
    # a listing needs its `_memo` only if one of them is remembered while the legal actions are listed.
    called: frozenset[str] = frozenset()

    @property
    def listing_memo(self) -> bool:
        return any(d.remembered and d.name in self.called for d in self.defines)

    def with_bodies(self, rewrite: Callable[[Block], Block]) -> Program:
        """A new program, every body of statements of this one (each method's, each rule's, the
        setup's ...) rewritten by `rewrite`; this one left as it is (a pass of the lowered level)."""
        return replace(
            self,
            defines=[replace(d, body=rewrite(d.body)) for d in self.defines],
            procedures=[replace(p, body=rewrite(p.body)) for p in self.procedures],
            actions=[replace(a, effect=rewrite(a.effect), listing_prelude=rewrite(a.listing_prelude),
                             listing=rewrite(a.listing)) for a in self.actions],
            triggers=[replace(t, effect=rewrite(t.effect)) for t in self.triggers],
            phases=[replace(ph, start=rewrite(ph.start)) for ph in self.phases],
            setup=rewrite(self.setup), end_loops=rewrite(self.end_loops),
            fields_set=list(rewrite(tuple(self.fields_set))), forget=list(rewrite(tuple(self.forget))))


def each_statement(body: Block, rewrite: Callable[[Stmt], Stmt]) -> Block:
    """`body` with each of its statements, nested ones first, rewritten by `rewrite`."""
    out: list[Stmt] = []
    for s in body:
        if isinstance(s, For | While):
            s = replace(s, body=each_statement(s.body, rewrite))
        elif isinstance(s, If):
            s = replace(s, body=each_statement(s.body, rewrite), orelse=each_statement(s.orelse, rewrite),
                        elifs=tuple(replace(e, body=each_statement(e.body, rewrite)) for e in s.elifs))
        out.append(rewrite(s))
    return tuple(out)
