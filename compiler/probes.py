"""A coverage build: the rule set compiled with probes at each rule point, for `rulewright
coverage` and `scenario --coverage` (api/coverage.py) only.

`compile_probed(path)` compiles a rule file as `driver.compile_file` does, with every
optimisation pass off (inlining and kept values would hide rule lines) and with a probe at each
point of the rules, and gives the module's text (never written to generated/: it is run in
memory) with the table of its points. Each point has one or more outcomes, each one counter of
the module's list `_HITS`:

| kind    | point                                              | outcomes                  |
| ------- | -------------------------------------------------- | ------------------------- |
| action  | an action                                          | listed as legal, taken    |
| choice  | a `choose:` of an action                           | offered, several values   |
| guard   | a `when:` of an action or a trigger                | true, false               |
| branch  | each branch of an `if`, and its `else` (written or | taken                     |
|         | not: no branch taken); a conditional expression    | then, else                |
|         | `a if c else b` of a rule                          |                           |
| effect  | a procedure, a phase's start, the setup, the body  | ran                       |
|         | of a `for` or an `ask`                             |                           |
| trigger | a trigger's effect                                 | ran                       |
| define  | a definition (`define:`)                           | used                      |
| score   | a scoring term                                     | non-zero                  |
| option  | an option of the rule set                          | each of its values played |

Every effect statement runs when the block holding it runs (the language has no early
return), so the blocks and branches cover every effect line. A probe only counts: it reads
nothing of the game but what the rule already computes, draws no chance and changes no field,
so the probed module plays the very games the generated one plays (tests/test_coverage.py).

Lowering calls `Probes.statement` on each effect statement's lines (the one hook in
compiler/lower/): an `if` gets a counter at the start of each branch (and an `else` that
counts when none is taken), a `for` and an `ask` one at the start of their body. The rules'
entry points (actions, triggers, procedures, phases, the setup, scoring) are probed in the
lowered program afterwards, and the listing of legal actions and the options read by a
subclass of the generated state class appended to the module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.source import CompileError, SourceSpan
from . import typed as t
from .check import check
from .codegen import class_name, emit
from .driver import build
from .lower import lower
from .lowered import Program
from .passes import optimise, transform
from .pyir import AugAssign, Call, Constant, Expr, For, If, Name, Stmt, Subscript, While, does_something

OUTCOMES: dict[str, tuple[str, ...]] = {
    "action": ("listed", "taken"),
    "choice": ("offered", "several values"),
    "guard": ("true", "false"),
    "branch": ("taken",),
    "effect": ("ran",),
    "trigger": ("ran",),
    "define": ("used",),
    "score": ("non-zero",),
    "option": (),  # an option's outcomes are its values
}
KINDS = tuple(OUTCOMES)
_BLOCK_SCALAR = re.compile(r"(^|[:\-]\s)[>|][-+]?[0-9]?\s*$")  # a YAML `key: >-` (its text on the lines below)


@dataclass(frozen=True, slots=True)
class Point:
    """A point of the rules and its outcomes, each counted by `_HITS[counter + k]`."""

    kind: str
    rule: str  # the rule path: `actions.advance`, `actions.advance.when`, `triggers.war`
    what: str  # what it is, in a few words (`if roll > 3`, `else`, `body of for s in spots`)
    file: str  # the rule file it is written in, as the compiler shows it
    line: int
    col: int
    outcomes: tuple[str, ...]
    counter: int
    option: bool = False  # what it tests reads an option (directly or through definitions)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class Probed:
    """A rule set's coverage build: the module's text and its points."""

    source: str
    points: tuple[Point, ...]
    counters: int
    files: tuple[str, ...]  # the rule files, the most basic first, as shown
    ruleset: str
    paths: tuple[Path, ...] = ()  # the rule files read


def _hit(counter: int) -> AugAssign:
    return AugAssign(Subscript(Name("_HITS"), Constant(counter)), "+", Constant(1))


class Probes:
    """The points of one rule set, numbered as lowering meets them. Registering a point again
    (lowering walks the program again while it learns what the fields hold) gives its counter."""

    def __init__(self, program: t.TypedProgram, texts: dict[str, list[str]]) -> None:
        self.texts = texts
        self.points: dict[tuple[object, ...], Point] = {}
        self.count = 0
        self.rule_of: t.ByNode[t.Stmt, str] = t.ByNode()  # an effect statement -> the rule it is part of
        self.held: t.NodeSet[t.Expr | t.Stmt] = t.NodeSet()  # the nodes whose identity keys a point (`node`)
        blocks: list[tuple[str, tuple[t.Stmt, ...]]] = [
            *((f"actions.{a.name}", a.effect) for a in program.actions),
            *((f"triggers.{tr.name}", tr.effect) for tr in program.triggers),
            *((f"procedures.{p.name}", p.body) for p in program.procedures),
            *((f"phases.{ph.name}.start", ph.start) for ph in program.phases),
            ("setup", program.setup),
        ]
        for rule, block in blocks:
            for s in t.statements(block):
                self.rule_of[s] = rule
        # each conditional expression (`a if c else b`) of a rule, by its test
        self.conds: t.ByNode[t.Expr, tuple[str, t.Cond]] = t.ByNode()
        roots: list[tuple[str, t.Expr | None]] = [
            *((f"define.{d.name}", d.body) for d in program.defines),
            *((f"actions.{a.name}.when", a.when) for a in program.actions),
            *((f"actions.{a.name}.choose.{c.var.name}", c.domain) for a in program.actions for c in a.choices),
            *((f"triggers.{tr.name}.when", tr.when) for tr in program.triggers),
            *((f"phases.{ph.name}.actor", ph.actor) for ph in program.phases),
            *((f"phases.{ph.name}.simultaneous", ph.simultaneous) for ph in program.phases),
            *((f"scoring.{term.name}", term.expr) for term in program.scoring),
            ("end", program.end), ("tie_break", program.tie_break), ("returns", program.returns),
            *((rule, e) for rule, block in blocks for e in t.effect_expressions(block)),
        ]
        for rule, root in roots:
            todo = [root] if root is not None else []
            while todo:
                e = todo.pop()
                if isinstance(e, t.Cond):
                    self.conds[e.test] = (rule, e)
                todo.extend(t.subexpressions(e))
        # the definitions that read an option, directly or through another
        self.option_defines: set[str] = set()
        changed = True
        while changed:
            changed = False
            for d in program.defines:
                if d.name not in self.option_defines and self.reads_option(d.body):
                    self.option_defines.add(d.name)
                    changed = True

    def reads_option(self, e: t.Expr) -> bool:
        todo = [e]
        while todo:
            x = todo.pop()
            if isinstance(x, t.Ref) and x.sym.kind == "option":
                return True
            if isinstance(x, t.DefineCall) and x.define in self.option_defines:
                return True
            todo.extend(t.subexpressions(x))
        return False

    def text_at(self, span: SourceSpan) -> str:
        """The rule text at `span` (of its folded string, if it is in one), in a few words."""
        lines = self.texts.get(span.path, [])
        text = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        if _BLOCK_SCALAR.search(text):  # a folded or literal string: its text is on the lines below
            indent = len(text) - len(text.lstrip())
            body = []
            for below in lines[span.line:]:
                if below.strip() and len(below) - len(below.lstrip()) <= indent:
                    break
                body.append(below)
            text = " ".join(body)
        elif span.end_line == span.line:
            text = text[span.col - 1:span.end_col - 1]
        else:
            text = text[span.col - 1:]
        text = " ".join(text.split()).removeprefix("- ").strip().strip("\"'").rstrip(":").strip()
        return text if len(text) <= 60 else text[:57] + "..."

    def node(self, node: t.Expr | t.Stmt) -> int:
        """A node's part of a point's key: its identity, the node held so that no other node comes
        to stand at its address while the points are numbered (as `typed.ByNode`)."""
        self.held.add(node)
        return id(node)

    def add(self, key: tuple[object, ...], kind: str, rule: str, what: str, span: SourceSpan,
            option: bool = False, outcomes: tuple[str, ...] | None = None) -> int:
        known = self.points.get(key)
        if known is not None:
            return known.counter
        outcomes = OUTCOMES[kind] if outcomes is None else outcomes
        point = Point(kind, rule, what, span.path, span.line, span.col, outcomes, self.count, option)
        self.points[key] = point
        self.count += len(outcomes)
        return point.counter

    # -- the lowering hook ----------------------------------------------------------------------
    def statement(self, s: t.Stmt, lines: list[Stmt]) -> list[Stmt]:
        """An effect statement's statements with the probes of its branches or its body."""
        rule = self.rule_of.get(s, "?")
        if isinstance(s, t.If):
            return self._if(s, lines, rule)
        if isinstance(s, t.For | t.Ask | t.While):
            heads = [i for i, stmt in enumerate(lines) if isinstance(stmt, For | While)]
            if not heads:
                raise AssertionError(f"coverage build: no loop in the statements of {s.span}")
            head = lines[heads[-1]]
            assert isinstance(head, For | While)
            c = self.add(("body", self.node(s)), "effect", rule, f"body of {self.text_at(s.span)}", s.span)
            return [*lines[:heads[-1]], replace(head, body=(_hit(c), *head.body)), *lines[heads[-1] + 1:]]
        return lines

    def _if(self, s: t.If, lines: list[Stmt], rule: str) -> list[Stmt]:
        made = lines[0] if len(lines) == 1 else None
        if not isinstance(made, If) or len(made.elifs) + 1 != len(s.branches) or bool(made.orelse) != bool(s.orelse):
            raise AssertionError(f"coverage build: unexpected statements for the `if` at {s.span}")
        option = False
        counters: list[int] = []
        for n in range(len(s.branches) + (1 if s.orelse else 0)):
            if n < len(s.branches):
                test = s.branches[n][0]
                option = option or self.reads_option(test)
                word = "if" if n == 0 else "elif"
                c = self.add(("branch", self.node(s), n), "branch", rule, f"{word} {self.text_at(test.span)}",
                             test.span, option)
            else:
                span = s.orelse[0].span
                c = self.add(("branch", self.node(s), "else"), "branch", rule, "else", span, option)
            counters.append(c)
        if not s.orelse:  # no branch taken: an `else` of its own counts it
            test = s.branches[-1][0]
            c = self.add(("branch", self.node(s), "else"), "branch", rule, "no branch taken (no else written)",
                         test.span, option)
            counters.append(c)
        first, *more = counters[:len(s.branches)]
        return [replace(made, body=(_hit(first), *made.body),
                        elifs=tuple(replace(e, body=(_hit(c), *e.body)) for e, c in zip(made.elifs, more, strict=True)),
                        orelse=(_hit(counters[-1]), *made.orelse))]

    def expression(self, e: t.Expr, py: Expr) -> Expr:
        """The lowering hook of expressions: the test of a conditional expression, probed."""
        found = self.conds.get(e, None)
        if found is None:
            return py
        rule, cond = found
        c = self.add(("cond", self.node(cond)), "branch", rule, self.text_at(cond.span), cond.span,
                     self.reads_option(cond.test), ("then", "else"))
        return Call(Name("_probe"), (Constant(c), py))

    # -- the rules' entry points ------------------------------------------------------------------
    def finish(self, program: t.TypedProgram, prog: Program) -> None:
        """Probe the lowered program's actions, triggers, procedures, phases, setup and scoring."""
        typed_actions = {a.name: a for a in program.actions}
        self.listed: dict[str, tuple[int, tuple[int, ...]]] = {}
        for i, a in enumerate(prog.actions):
            ta = typed_actions[a.name]
            rule = f"actions.{a.name}"
            when = a.when
            option = ta.when is not None and self.reads_option(ta.when)
            c = self.add(("action", a.name), "action", rule, f"action {a.name}", ta.span, option)
            choices = tuple(self.add(("choice", a.name, k), "choice", f"{rule}.choose.{ch.var.name}",
                                     f"{ch.var.name} in {self.text_at(ch.domain.span)}", ch.span,
                                     self.reads_option(ch.domain))
                            for k, ch in enumerate(ta.choices))
            self.listed[a.name] = (c, choices)
            if ta.when is not None and when is not None:
                g = self.add(("guard", a.name), "guard", f"{rule}.when", self.text_at(ta.when.span),
                             ta.when.span, option)
                when = Call(Name("_probe"), (Constant(g), when))
            prog.actions[i] = replace(a, when=when, effect=(_hit(c + 1), *a.effect))
        typed_triggers = {tr.method: tr for tr in program.triggers}
        for i, trig in enumerate(prog.triggers):
            tt = typed_triggers[trig.method]
            rule = f"triggers.{trig.name}"
            guard = trig.when
            option = tt.when is not None and self.reads_option(tt.when)
            if tt.when is not None and guard is not None:
                g = self.add(("guard", rule), "guard", f"{rule}.when", self.text_at(tt.when.span),
                             tt.when.span, option)
                guard = Call(Name("_probe"), (Constant(g), guard))
            c = self.add(("trigger", trig.name), "trigger", rule, f"trigger {trig.name}", tt.span, option)
            prog.triggers[i] = replace(trig, when=guard, effect=(_hit(c), *trig.effect))
        for i, p in enumerate(prog.procedures):
            c = self.add(("procedure", p.name), "effect", f"procedures.{p.name}", f"procedure {p.name}", p.span)
            prog.procedures[i] = replace(p, body=(_hit(c), *p.body))
        for i, d in enumerate(prog.defines):
            c = self.add(("define", d.name), "define", f"define.{d.name}", f"definition {d.name}", d.span)
            prog.defines[i] = replace(d, body=(_hit(c), *d.body))
        for i, (ph, tph) in enumerate(zip(prog.phases, program.phases, strict=True)):
            if tph.start and does_something(ph.start):  # (a phase without start has no call)
                c = self.add(("start", ph.name), "effect", f"phases.{ph.name}.start", f"start of phase {ph.name}",
                             tph.start[0].span)
                prog.phases[i] = replace(ph, start=(_hit(c), *ph.start))
        if program.setup and does_something(prog.setup):
            c = self.add(("setup",), "effect", "setup", "setup", program.setup[0].span)
            prog.setup = (_hit(c), *prog.setup)
        for i, (name, code, span) in enumerate(prog.scoring):
            c = self.add(("score", name), "score", f"scoring.{name}", f"scoring term {name}", span)
            prog.scoring[i] = (name, Call(Name("_score"), (Constant(c), code)), span)
        self.options: dict[str, tuple[int, tuple[str, ...]]] = {}
        for opt in program.rules.options:
            c = self.add(("option", opt.name), "option", f"options.{opt.name}", f"option {opt.name}", opt.span,
                         True, opt.choices)
            self.options[opt.name] = (c, opt.choices)

    def support(self, state_class: str) -> str:
        """The module's counters and probes, and the subclass of its state class that counts the
        actions listed and the options played; GAME made of it."""
        return f'''

# -- Coverage probes (compiler/probes.py): a coverage build, never written to generated/ --------
_HITS: list[int] = [0] * {self.count}


def _probe(i: int, value: Any) -> Any:
    """A guard: counts whether it held, and gives its value as it is."""
    _HITS[i if value else i + 1] += 1
    return value


def _score(i: int, value: int) -> int:
    if value:
        _HITS[i] += 1
    return value


_LISTED: dict[str, tuple[int, tuple[int, ...]]] = {self.listed!r}
_OPTIONS: dict[str, tuple[int, tuple[str, ...]]] = {self.options!r}


class _Probed({state_class}):
    __slots__ = ()
    HITS: ClassVar[list[int]] = _HITS

    def _legal(self) -> list[rt.Action]:
        actions = super()._legal()
        offered: dict[str, list[tuple[Any, ...]]] = {{}}
        for action in actions:
            offered.setdefault(action.name, []).append(action.args)
        for name, args in offered.items():
            listed, choices = _LISTED[name]
            _HITS[listed] += 1
            for k, choice in enumerate(choices):
                _HITS[choice] += 1
                if len({{a[k] for a in args}}) > 1:
                    _HITS[choice + 1] += 1
        return actions

    def _read_options(self) -> None:
        super()._read_options()
        for name, (counter, values) in _OPTIONS.items():
            _HITS[counter + values.index(self.options[name])] += 1


GAME = rt.Game(GAME.info, _Probed, GAME._board_makers, GAME.lowest_score_wins, GAME.board_players)
'''


def compile_probed(path: Path) -> Probed:
    """The coverage build of a rule file: every optimisation pass off, a probe at each point.
    Raises CompileError with the rule file's problems."""
    resolved, ruleset, diagnostics = build(path)
    if ruleset is None or diagnostics:
        raise CompileError(diagnostics)
    problems, typed = check(ruleset)
    if typed is None:
        raise CompileError(problems)
    typed = optimise(typed, frozenset())
    texts = {shown: text.splitlines() for shown, text in zip(ruleset.files, resolved.texts, strict=True)}
    probes = Probes(typed, texts)
    problems, program = lower(typed, probes.statement, probes.expression)
    if problems:
        raise CompileError(problems)
    program = transform(program, typed, frozenset())  # (every pass off: the program as lowered)
    probes.finish(typed, program)
    source = emit(ruleset, program, list(zip(ruleset.files, resolved.texts, strict=True)))
    source += probes.support(class_name(ruleset.game, ruleset.variant))
    points = tuple(sorted(probes.points.values(), key=lambda p: p.counter))
    name = ruleset.game if ruleset.variant == "base" else f"{ruleset.game}/{ruleset.variant}"
    return Probed(source, points, probes.count, ruleset.files, name, resolved.files)

