"""The book of a rule set as data: sections of rules, each rule in words built from its declaration,
its declaration in the rule language, the rulebook's words about it (quotes.py) and where it is
written; with `against`, the changes `compiler.diff.diff` finds, each placed at the rule it changes.

`build(ruleset, against)` makes a `Book`; output.py writes it as text, HTML or PDF. Nothing here
reads the clock or the file system beyond the rule files: the same rule files, the same book.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..compiler import ir
from ..compiler.diff import Change, diff, render, resolved_tree
from ..compiler.unparse import unparse, unparse_block
from ..core.load import YMap
from ..core.paths import bundled_rulesets, display
from ..explain import Entry, catalogue, variants_of
from .quotes import FileNotes, Quote, notes_of, quotes_for

NOT_WRITTEN = "not written: the default"  # where a rule is that no file writes


class Code(str):
    """A part of a sentence in the rule language (a name, an expression): shown as code."""

    __slots__ = ()


Para = tuple[str, ...]  # a paragraph: plain text and Code parts, in order


@dataclass(frozen=True, slots=True)
class Mark:
    """One change of `diff` shown at the rule it changes."""

    kind: str  # added, removed, changed
    path: str  # the rule path diff gives: `phases.dispense.actions`
    old: str | None
    new: str | None
    where: str  # file:line of the new value (of the old one, for a removal)


@dataclass(frozen=True, slots=True)
class Rule:
    path: str  # its rule path (`actions.sell`), also its anchor in the page
    kind: str  # option, board, action, ... (the word shown before its name)
    name: str
    words: tuple[Para, ...]
    declaration: str  # in the rule language, as a rule file would write it ("" when the words say all)
    quotes: tuple[Quote, ...]
    where: str  # file:line
    status: str = ""  # added, removed, changed (with --against), or ""
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True, slots=True)
class Group:
    title: str
    rules: tuple[Rule, ...]
    quotes: tuple[Quote, ...] = ()  # what the rule file says above the key of them all (`state:`)


@dataclass(frozen=True, slots=True)
class Section:
    key: str  # its anchor: components, options, setup, play, scoring, end, glossary, variants, changes
    title: str
    intro: tuple[Para, ...]
    quotes: tuple[Quote, ...]
    groups: tuple[Group, ...]
    figure: str = ""  # an SVG drawing (the first position), made by api/draw.py
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Book:
    ruleset: str  # as named on the command line
    title: str
    author: str
    players: str
    files: tuple[str, ...]  # the rule files it is resolved from, base first
    about: tuple[Quote, ...]  # the comments at the head of its own rule file
    against: str | None
    summary: str  # with `against`: how many changes of each kind
    sections: tuple[Section, ...]


# Where a rule of each key of a rule file is shown: its section and group (a removed rule is shown there).
PLACES = {"players": ("components", "Players"), "boards": ("components", "Boards"),
          "components": ("components", "Pieces"), "enums": ("components", "Kinds of values"),
          "dice": ("components", "Dice"), "records": ("components", "Records"),
          "state": ("components", "What the game keeps"), "options": ("options", "Options"),
          "setup": ("setup", "Before the first turn"), "phases": ("play", "Phases"), "actions": ("play", "Actions"),
          "triggers": ("play", "Triggers"), "scoring": ("scoring", "Scoring terms"), "end": ("end", "The end"),
          "winner": ("end", "The end"), "tie_break": ("end", "The end"), "returns": ("end", "The end"),
          "define": ("glossary", "Definitions"), "procedures": ("glossary", "Procedures"),
          "invariants": ("glossary", "Facts of every position")}
# What a rule of each key is called in the book.
KIND_WORDS = {"boards": "board", "components": "piece", "enums": "values", "records": "record",
              "state": "field", "options": "option", "phases": "phase", "actions": "action", "triggers": "trigger",
              "scoring": "term", "define": "definition", "procedures": "procedure", "invariants": "fact"}
# Keys whose changes are shown at another rule: the seats at `players`.
ALIASES = {"neutral": "players", "roles": "players"}
VISIBLE = {"all": "seen by everyone", "owner": "seen by its owner only", "none": "seen by nobody",
           "size": "how many items it holds is seen by everyone, which items by nobody"}


def build(ruleset: str, file: Path, rules: ir.RuleSet, against: str | None = None, base: ir.RuleSet | None = None,
          figure: tuple[str, str] | None = None) -> Book:
    """The book of the rule set named `ruleset` (its rule file `file`, its IR `rules` as
    `compiler.diff.load_ruleset` builds it); with `against` (its IR `base`), the changes from that
    rule set to this one marked in place. `figure`: the drawing of its first position and its
    caption (api/book/__init__.py makes it)."""
    changes = diff(base, rules) if base is not None else []
    notes = [n for n in (notes_of(f) for f in rules.files) if n is not None]
    entries = {(e.kind, e.name): e for e in catalogue(rules, resolved_tree(rules))}
    maker = _Maker(rules, notes, entries, resolved_tree(rules))
    sections = maker.sections(figure)
    sections, other = _marked(sections, changes)
    sections = [*sections, *_variants(rules, file)]
    if against is not None:
        intro = (_para("Changes from ", Code(against), " that no rule of this book shows (how it is drawn, ",
                       Code("look:"), ", and the like), each with the file:line it is written at."),) if other else (
            _para("Every change from ", Code(against), " is shown at the rule it changes."),)
        gone = tuple(Rule(m.path, m.kind, m.path, (), "", (), m.where, m.kind, (m,)) for m in other)
        sections.append(Section("changes", "Other changes", intro, (), (Group("", gone),) if gone else ()))
    own = next((n for n in notes if n.file == rules.files[-1]), None)
    counts = {k: sum(1 for c in changes if c.kind == k) for k in ("added", "removed", "changed")}
    summary = "" if against is None else (
        f"{len(changes)} change{'s' if len(changes) != 1 else ''} from {against}: "
        + ", ".join(f"{n} {k}" for k, n in counts.items()) if changes else f"the same rules as {against}")
    return Book(ruleset=ruleset, title=rules.title or rules.game, author=rules.author, players=_players(rules.players),
                files=rules.files, about=own.head if own is not None else (), against=against, summary=summary,
                sections=tuple(s for s in sections if s.groups or s.figure or s.key in ("setup", "end", "changes")))


def _players(players: Sequence[int]) -> str:
    if not players:
        return ""
    low, high = players[0], players[-1]
    return f"{low} player{'s' if low != 1 else ''}" if low == high else f"{low} to {high} players"


def _para(*parts: str) -> Para:
    return tuple(p for p in parts if p)


class _Maker:
    """The rules of each section, in the order the rule file writes them."""

    def __init__(self, rules: ir.RuleSet, notes: list[FileNotes], entries: dict[tuple[str, str], Entry],
                 tree: YMap | None) -> None:
        self.rules = rules
        self.notes = notes
        self.entries = entries
        self.tree = tree

    def key(self, name: str) -> str:
        """file:line of a top-level key of the rule set (of the file that last wrote it); a key no file
        writes (`winner:` left out) is the language's default, which no line holds."""
        node = self.tree.key_node(name) if self.tree is not None else None
        return node.span.short if node is not None else NOT_WRITTEN

    def quotes(self, path: str) -> tuple[Quote, ...]:
        return quotes_for(self.notes, path)

    def doc(self, kind: str, name: str) -> tuple[Para, ...]:
        entry = self.entries.get((kind, name))
        return ((entry.doc,),) if entry is not None and entry.doc else ()

    def sections(self, figure: tuple[str, str] | None) -> list[Section]:
        r = self.rules
        svg, caption = figure or ("", "")
        components = [Group("Players", (self.players(),)),
                      Group("Boards", tuple(self.board(b) for b in r.boards), self.quotes("boards")),
                      Group("Pieces", tuple(self.component(c) for c in r.components), self.quotes("components")),
                      Group("Kinds of values", tuple(self.enum(e) for e in r.enums), self.quotes("enums")),
                      Group("Dice", tuple(self.dice(d) for d in r.dice), self.quotes("dice")),
                      Group("Records", tuple(self.record(d) for d in r.records), self.quotes("records")),
                      Group("What the game keeps", tuple(self.field(f) for f in r.fields), self.quotes("state"))]
        options = [Group("Options", tuple(self.option(o) for o in r.options))]
        setup = [Group("Before the first turn", (self.setup(),))]
        end = [Group("The end", tuple(x for x in (self.end(), self.winner(), self.tie_break(), self.returns())
                                      if x is not None))]
        glossary = [Group("Definitions", tuple(self.define(d) for d in r.defines), self.quotes("define")),
                    Group("Procedures", tuple(self.procedure(p) for p in r.procedures),
                          self.quotes("procedures")),
                    Group("Facts of every position", tuple(self.invariant(i) for i in r.invariants),
                          self.quotes("invariants"))]
        return [
            Section("components", "Components", (), (), _kept(components), svg, caption),
            Section("options", "Options", (_para("Chosen before the game; the default is the rulebook's reading "
                                                 "where it can be read two ways."),) if r.options else (),
                    self.quotes("options"), _kept(options)),
            Section("setup", "Setup", (), (), _kept(setup)),
            Section("play", "Play: phases and actions", self.play_intro(),
                    self.quotes("phases") + self.quotes("actions"), _kept(self.play())),
            Section("scoring", "Scoring", self.scoring_intro(), self.quotes("scoring"),
                    _kept([Group("Scoring terms", tuple(self.score(s) for s in r.scoring))])),
            Section("end", "End of the game", (), (), _kept(end)),
            Section("glossary", "Terms the rules use", (_para(
                "Definitions and procedures are named once and used by the rules above; facts hold in every "
                "position of the game."),) if r.defines or r.procedures or r.invariants else (),
                    (), _kept(glossary)),
        ]

    # -- components ---------------------------------------------------------------------------
    def players(self) -> Rule:
        r = self.rules
        words = [_para(f"{_players(r.players).capitalize()}; seats are P1, P2, ... in the order of play.")]
        if r.roles:
            words.append(_para("Roles: ", *_listed(r.roles), "."))
        if r.neutral:
            words.append(_para("Neutral seats, which own pieces but never take a turn nor win: ",
                               *_listed(r.neutral), "."))
        return Rule("players", "players", "Players", tuple(words), "", self.quotes("players"), self.key("players"))

    def board(self, b: ir.Board) -> Rule:
        if b.hexagon:
            shape = f"a hexagon of {b.hexagon} spots a side"
        elif b.ring:
            shape = f"a ring of {b.ring} spots (a closed track)"
        elif b.hexmap is not None:
            shape = f"a hex map of {sum(len(row.replace(' ', '')) for row in b.hexmap.rows)} cells"
        elif b.grid is not None:
            rows = len(b.grid.text) or b.grid.rows
            shape = f"a square grid of {rows} rows and {b.grid.columns} columns"
        elif b.wall:
            shape = f"a wall of {len(b.wall)} pieces, laid during play"
        else:
            shape = f"a graph of {len(b.graph)} spots joined by {len(b.roads)} roads"
        words = [_para(f"The board {b.name}: {shape}" + (f", for {_players(range(b.players[0], b.players[1] + 1))}"
                                                        if b.players else "") + ".")]
        if b.region_kinds:
            kinds = {k.name: k for k in b.region_kinds}

            def count(k: ir.RegionKind) -> str:
                if k.mirror_of is None or k.mirror_of not in kinds:
                    return f"{k.name} ({len(k.regions)})"
                return f"{k.name} ({len(kinds[k.mirror_of].regions)}, the mirror image of {k.mirror_of})"

            words.append(_para("Its regions: ", *_joined(count(k) for k in b.region_kinds), "."))
        return Rule(f"boards.{b.name}", "board", b.name, tuple(words), "", self.quotes(f"boards.{b.name}"),
                    b.span.short)

    def component(self, c: ir.Component) -> Rule:
        words = [_para(f"{c.count} pieces, numbered i from 0" + (", all of them named " if c.all_name else "."),
                       Code(c.all_name) if c.all_name else "", "." if c.all_name else "")]
        if c.attributes:
            parts: list[str] = ["Each has: "]
            for k, a in enumerate(c.attributes):
                parts += [", " if k else "", Code(f"{a.name} = {unparse(a.value)}")]
            words.append(_para(*parts, "."))
        return Rule(f"components.{c.name}", "piece", c.name, (*words, *self.doc("component", c.name)), "",
                    self.quotes(f"components.{c.name}"), c.span.short)

    def enum(self, e: ir.EnumDecl) -> Rule:
        return Rule(f"enums.{e.name}", "values", e.name, (_para("One of ", *_listed(e.values), "."),), "",
                    self.quotes(f"enums.{e.name}"), e.span.short)

    def dice(self, d: ir.DiceKind) -> Rule:
        words = tuple(_para(f"Die {die.name}: faces {', '.join(str(f) for f in die.faces)}.") for die in d.dice)
        return Rule(f"dice.{d.name}", "dice", d.name, words, "", self.quotes(f"dice.{d.name}"), d.span.short)

    def record(self, d: ir.RecordDecl) -> Rule:
        return Rule(f"records.{d.name}", "record", d.name,
                    (_para("Made of ", *_listed(f"{n}: {t}" for n, t in d.fields), "."),), "",
                    self.quotes(f"records.{d.name}"), d.span.short)

    def field(self, f: ir.Field) -> Rule:
        per = f" for each {f.per}" if f.per else ""
        kind = ["one of ", *_listed(f.values)] if f.values else [Code(str(f.type))]
        words = [_para(f"A value{per}: ", *kind, ", at first ", Code(unparse(f.init)), ".")]
        if f.visible_to is not None:
            seen = _para("Each entry is seen by the player ", Code(unparse(f.visible_to)), " only")
        else:
            seen = _para(VISIBLE.get(f.visible, f.visible).capitalize())
        if f.shown_if is not None:
            seen = (*seen, ", and by everyone while ", Code(unparse(f.shown_if)))
        if f.hide_items_if is not None:
            seen = (*seen, "; item k is hidden while ", Code(unparse(f.hide_items_if)))
        words.append((*seen, "."))
        if f.doc.strip():
            words.append(_para(f.doc.strip()))
        return Rule(f"state.{f.name}", "field", f.name, tuple(words), "", self.quotes(f"state.{f.name}"),
                    f.span.short)

    # -- options ------------------------------------------------------------------------------
    def option(self, o: ir.Option) -> Rule:
        choices: list[str] = []
        for k, c in enumerate(o.choices):
            choices += [", " if k else "", Code(c), " (default)" if c == o.default else ""]
        words = [_para("Choices: ", *choices, ".")]
        if o.doc.strip():
            words.append(_para(o.doc.strip()))
        quotes = ((Quote(o.quote.strip(), o.span.short),) if o.quote.strip() else ()) + self.quotes(f"options.{o.name}")
        return Rule(f"options.{o.name}", "option", o.name, tuple(words), "", quotes, o.span.short)

    # -- setup, play --------------------------------------------------------------------------
    def setup(self) -> Rule:
        r = self.rules
        if not r.setup:
            return Rule("setup", "setup", "Setup", (_para(
                "Nothing is done before the first turn: every field starts at its first value (Components)."),),
                "", self.quotes("setup"), self.key("setup"))
        return Rule("setup", "setup", "Setup", (_para("Before the first turn, in this order (chance allowed):"),),
                    unparse_block(r.setup), self.quotes("setup"), r.setup[0].span.short)

    def play_intro(self) -> tuple[Para, ...]:
        r = self.rules
        if not r.phases:
            return ()
        return (_para("Seats take turns in order. Each turn starts in phase ", Code(r.phases[0].name),
                      "; the seat that decides chooses one of the phase's actions, then the turn goes on to the "
                      "phase's next phase, or ends. The game's end is checked after every move."),)

    def play(self) -> list[Group]:
        r = self.rules
        shown: set[str] = set()
        by_name = {a.name: a for a in r.actions}
        groups: list[Group] = []
        for ph in r.phases:
            members = [self.phase(ph)]
            for ref in ph.actions:
                if ref.name in by_name and ref.name not in shown:
                    shown.add(ref.name)
                    members.append(self.action(by_name[ref.name]))
            groups.append(Group(f"Phase {ph.name}", tuple(members)))
        rest = tuple(self.action(a) for a in r.actions if a.name not in shown)
        if rest:
            groups.append(Group("Actions of no phase", rest))
        if r.triggers:
            groups.append(Group("Triggers", tuple(self.trigger(t) for t in r.triggers), self.quotes("triggers")))
        return groups

    def phase(self, ph: ir.Phase) -> Rule:
        if ph.simultaneous is not None:
            who = _para("The seats ", Code(unparse(ph.simultaneous)), " choose at once, among: ")
        elif ph.actor is not None:
            who = _para("The seat ", Code(unparse(ph.actor)), " decides, among: ")
        else:
            who = _para("The seat whose turn it is chooses among: ")
        words = [(*who, *_listed(a.name for a in ph.actions), ".")]
        if ph.start:
            words.append(_para("On entering it, the effects of its start (below) are carried out."))
        words.append(_para("After an action the turn goes on to phase ", Code(ph.then.name), ".") if ph.then is not None
                     else _para("After an action the turn ends, unless the action goes on to another phase."))
        words.append(_para("When none of its actions can be taken, " + (
            "the game ends." if ph.when_stuck == "end" else "the seat passes and the turn ends.")))
        declaration = render(ph) if ph.start or ph.actor or ph.simultaneous else ""
        return Rule(f"phases.{ph.name}", "phase", ph.name, tuple(words), declaration,
                    self.quotes(f"phases.{ph.name}"), ph.span.short)

    def action(self, a: ir.Action) -> Rule:
        words: list[Para] = []
        if a.text:
            words.append(_para("Its move reads ", Code(a.text), "."))
        for c in a.choices:
            words.append(_para("The seat chooses ", Code(c.name), " among ", Code(unparse(c.domain)), "."))
        words.append(_para("It may be played when ", Code(unparse(a.when)), ".") if a.when is not None
                     else _para("It may always be played in its phase."))
        if a.others_text is not None:
            words.append(_para("The other seats read ", Code(a.others_text)) + (
                (" until ", Code(unparse(a.revealed_when)), ".") if a.revealed_when is not None else (".",)))
        words.extend(self.doc("action", a.name))
        return Rule(f"actions.{a.name}", "action", a.name, tuple(words), render(a), self.quotes(f"actions.{a.name}"),
                    a.span.short)

    def trigger(self, t: ir.Trigger) -> Rule:
        when: list[str] = []
        if t.after:
            when += ["After ", *_listed(n.name for n in t.after)]
        if t.at:
            when += ["At the end of every turn" if t.at == "turn_end" else f"At {t.at}"]
        if t.when is not None:
            when += [", if " if when else "If ", Code(unparse(t.when))]
        words = [_para(*when, ", the effects below are carried out.")]
        return Rule(f"triggers.{t.name}", "trigger", t.name, (*words, *self.doc("trigger", t.name)), render(t),
                    self.quotes(f"triggers.{t.name}"), t.span.short)

    # -- scoring and the end ------------------------------------------------------------------
    def scoring_intro(self) -> tuple[Para, ...]:
        if not self.rules.scoring:
            return (_para("No scoring terms: the game's outcome is its end (below)."),)
        return (_para("A seat's score is the sum of these terms, each counted for every seat (",
                      Code("player"), " is the seat scored)."),)

    def score(self, s: ir.ScoreTerm) -> Rule:
        words = [_para("Each seat scores ", Code(unparse(s.expr)), ".")]
        if s.base is not None:
            words.append(_para("It uses the version it replaces, ", Code(f"base({s.name})"), " = ",
                               Code(unparse(s.base.expr)), f" ({s.base.span.short})."))
        return Rule(f"scoring.{s.name}", "term", s.name, tuple(words), "", self.quotes(f"scoring.{s.name}"),
                    s.span.short)

    def end(self) -> Rule:
        r = self.rules
        if r.end is None:
            return Rule("end", "end", "When it ends", (_para(
                "The rule set writes no end condition: the game ends when a phase with no action to take ends it "
                "(when_stuck: end)."),), "", self.quotes("end"), self.key("end"))
        return Rule("end", "end", "When it ends", (_para("The game ends as soon as ", Code(unparse(r.end)),
                                                         " holds (checked after every move)."),),
                    "", self.quotes("end"), r.end.span.short)

    def winner(self) -> Rule | None:
        r = self.rules
        if r.returns is not None:
            return None
        best = "lowest" if r.winner == "lowest_score" else "highest"
        return Rule("winner", "winner", "Who wins", (_para(f"The seat with the {best} score wins; seats tied on it "
                                                           "share the win" + (" unless broken below." if r.tie_break
                                                                              else ".")),),
                    "", self.quotes("winner"), self.key("winner"))

    def tie_break(self) -> Rule | None:
        r = self.rules
        if r.tie_break is None:
            return None
        return Rule("tie_break", "tie break", "Ties", (_para("Among seats tied on score, the higher ",
                                                             Code(unparse(r.tie_break)), " wins."),),
                    "", self.quotes("tie_break"), r.tie_break.span.short)

    def returns(self) -> Rule | None:
        ret = self.rules.returns
        if ret is None:
            return None
        words = [_para("Each seat's outcome is its return, ", Code(unparse(ret.value)), ".")]
        if ret.sum is not None:
            words.append(_para(f"The returns of a game add up to {ret.sum}."))
        if ret.range is not None:
            words.append(_para(f"A seat's return is between {ret.range[0]} and {ret.range[1]}."))
        return Rule("returns", "returns", "Outcome", (*words, *self.doc("returns", "returns")), "",
                    self.quotes("returns"), ret.span.short)

    # -- terms --------------------------------------------------------------------------------
    def define(self, d: ir.Define) -> Rule:
        return Rule(f"define.{d.name}", "definition", d.name, (), render(d), self.quotes(f"define.{d.name}"),
                    d.span.short)

    def procedure(self, p: ir.Procedure) -> Rule:
        return Rule(f"procedures.{p.name}", "procedure", p.name, (), render(p), self.quotes(f"procedures.{p.name}"),
                    p.span.short)

    def invariant(self, i: ir.Invariant) -> Rule:
        return Rule(f"invariants.{i.name}", "fact", i.name, (_para("Always, ", Code(unparse(i.expr)), "."),
                                                             *((_para(i.doc.strip()),) if i.doc.strip() else ())),
                    "", self.quotes(f"invariants.{i.name}"), i.span.short)


def _joined(items: Iterable[str]) -> list[str]:
    out: list[str] = []
    for k, item in enumerate(items):
        out += [", " if k else "", item]
    return out


def _listed(names: Iterable[str]) -> list[str]:
    return _joined(Code(n) for n in names)


def _kept(groups: list[Group]) -> tuple[Group, ...]:
    return tuple(g for g in groups if g.rules)


# -- the changes, placed -----------------------------------------------------------------------
def _mark(c: Change) -> Mark:
    return Mark(c.kind, c.path, c.old, c.new, c.where.short if c.where is not None else "")


def _marked(sections: list[Section], changes: list[Change]) -> tuple[list[Section], list[Mark]]:
    """The sections with each change at its rule: a rule added or changed marked where it is, a rule
    removed shown (struck out) in its group; the changes no rule shows, apart."""
    paths = {rule.path for s in sections for g in s.groups for rule in g.rules}
    at: dict[str, list[Mark]] = {}
    removed: dict[tuple[str, str], list[Rule]] = {}
    other: list[Mark] = []
    for c in changes:
        parts = c.path.split(".")
        first = ALIASES.get(parts[0], parts[0])
        rule = next((p for p in (".".join([first, *parts[1:2]]), first) if p in paths), None)
        if rule is not None:
            at.setdefault(rule, []).append(_mark(c))
        elif c.kind == "removed" and len(parts) == 2 and parts[0] in PLACES:
            mark = _mark(c)
            kind = KIND_WORDS.get(parts[0], parts[0])
            removed.setdefault(PLACES[parts[0]], []).append(
                Rule(c.path, kind, parts[1], (), c.old or "", (), mark.where, "removed", (mark,)))
        else:
            other.append(_mark(c))
    out: list[Section] = []
    for s in sections:
        groups: list[Group] = []
        for g in s.groups:
            rules = tuple(_status(r, at.get(r.path, [])) for r in g.rules)
            groups.append(Group(g.title, rules + tuple(removed.pop((s.key, g.title), [])), g.quotes))
        for (key, title), gone in list(removed.items()):  # a group that is now empty
            if key == s.key:
                groups.append(Group(title, tuple(gone)))
                del removed[(key, title)]
        out.append(dataclasses.replace(s, groups=tuple(groups)))
    for gone in removed.values():  # (a section the book leaves out: none, but nothing is lost)
        other.extend(m for r in gone for m in r.marks)
    return out, other


def _status(rule: Rule, marks: list[Mark]) -> Rule:
    if not marks:
        return rule
    added = any(m.kind == "added" and m.path == rule.path for m in marks)
    return dataclasses.replace(rule, status="added" if added else "changed", marks=tuple(marks))


# -- variants ----------------------------------------------------------------------------------
def _variants(rules: ir.RuleSet, file: Path) -> list[Section]:
    """What the rule set builds on (a variant's base), and the rule files of its folder built on it."""
    ids = {display(p.resolve()): name for name, p in bundled_rulesets()}
    rows: list[Rule] = []
    for shown in rules.files[:-1]:
        notes = notes_of(shown)
        rows.append(Rule(f"variants.{shown}", "builds on", ids.get(shown, shown),
                         (_para(f"This rule set extends {ids.get(shown, shown)}: only what it changes is written "
                                "in its own file; the book shows the whole of the rules."),),
                         "", notes.head if notes is not None else (), f"{shown}:1"))
    for shown, other in variants_of(file, rules):
        between = [ids.get(f, f) for f in other.files[len(rules.files):-1]]
        notes = notes_of(shown)
        rows.append(Rule(f"variants.{shown}", "variant", ids.get(shown, shown),
                         (_para(f"{other.title or other.game}: a variant of this rule set"
                                + (f", through {', '.join(between)}." if between else ".")),), "",
                         notes.head if notes is not None else (), f"{shown}:1"))
    if not rows:
        return []
    return [Section("variants", "Variants", (), (), (Group("", tuple(rows)),))]
