"""A variant's module as a subclass of the module of the rule set it extends.

A variant holds only what differs from its base, and so can its generated module. `derive`
builds it from the lowered programs of the two (compiler/lower/program.py) and the values the
code generator lays out from them (codegen.context), never from the text of either module:

- each member is a block of the template (templates/game.py.j2), rendered alone
  (`codegen.render_blocks`). A member rendered from one item of the program (a definition, a
  procedure, a trigger, a phase's start, an action's listing, guard and effect) is inherited
  when the parts of the variant's item it lays out are equal to the base's item's (`==`: spans
  name the rule file a line came from, so a base member compiled in a variant is equal to the
  base's own) and it renders the same there (it reads a little of the rest of the program,
  such as the phases' numbers);
- a member rendered from the program as a whole (`_legal`, `_perform`, a class table) is
  inherited when it renders the same from both; a member the base has and the variant has not
  (a table written only when some rule needs it) gives up, as the base's would be inherited;
- the members laid out from lists of the program extend the base's where the lists allow it:
  `FIELDS` and GAME's options and rules splice the base's tuples (`*Base.FIELDS[:13]`), the
  class annotates only its new slots, `_setup` calls the base's and initialises only the fields
  after the base's (the same inits, in the same order), `_copy_fields` calls the base's and
  copies only the new slots (when it copies every slot the base's does, the same way),
  `_read_options`, `_bind_tables` and `_prepare` call the base's and add the options, tables or
  lines after the base's, `_action_text` writes the texts the variant adds or changes and asks the base's for the rest;
  GAME is the base's GameInfo with what differs replaced.

It gives up (returns None, and the complete module is kept) wherever inheriting could change
what the code means: a module-level name both define differently that code inherited from the
base still reads (a phase or value numbered otherwise), a field whose type changed, or a member
of the base's that the variant does not have. Both programs come from the same compiler run,
so the result is as deterministic as they are.

Which module-level names an inherited member reads is found from what it is laid out from, never
from its text (`_Reading`): the template's values its block reads (jinja2's `meta` on the
template's tree, through the macros and top-level `{% set %}`s it uses), and in them each `Name` of
the lowered IR (compiler/pyir.py) and every word of what is still text there (a `pyir.Code` leaf, a
phase's constant): a superset, so it gives up sooner, never later. The calls of the base's methods
it writes are nodes (`super()._guard(_name)`) the template lays out, and `ENUMS` spreads the base's
through the template too. Only the imports of the module it writes are found from that module's
own text (the names it uses, by Python's tokenizer): they must be exact, or the linter refuses the
module.

A variant's definition reading what the base's own effects write is remembered per state rather
than kept in a slot (pass `keep_derived`, docs/optimiser.md), so that the base's members need not drop
it and stay inherited.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import re
import tokenize
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from jinja2 import meta, nodes

from ..core.source import SourceSpan
from .codegen import _ENV, _docstring, _packed, render_blocks
from .lowered import Program
from .pyir import Attribute, Call, Name, Return, Stmt, inner_blocks

# The members of the class, in the template's order, each a block of game.py.j2. Those rendered
# from one item of a list each: block -> (the template's name of the list, the item's key, the
# parts of the item the member lays out, compared with `==`; () for the whole item).
_PER_ITEM: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "phase_starts": ("phases", "name", ("span", "start", "steps")),
    "listings": ("actions", "name", ("span", "unguarded", "when", "when_span", "listing_prelude", "listing",
                                      "choices", "key_code", "args_code")),
    "guards": ("actions", "name", ("when", "when_span")),
    "effects": ("actions", "name", ("method", "params", "steps", "span", "fresh_effect", "effect", "then",
                                    "triggers")),
    "triggers": ("triggers", "method", ()),
    "defines": ("defines", "name", ()),
    "procedures": ("procedures", "name", ()),
}
_TABLES = ("phase_tables", "enums_table", "neutral_table", "tie_break_flag", "returns_flag", "listing_memo_flag",
           "actor_flag", "suspends_tables", "secret_asks_table", "asking_actions_table", "asks_between_flag",
           "journal_flag", "records_table", "dice_table")
_METHODS = ("read_options", "bind_tables", "setup", "prepare", "enter_phase", "phase_starts", "actor", "deciding",
            "do", "start_phase", "legal", "listings", "guard", "guards", "perform", "effects", "triggers",
            "turn_end", "defines", "procedures", "invariants", "is_over", "score_terms", "tie_break", "returns",
            "shown", "hidden_item", "seen_by", "copy_fields", "fields_set", "forget_kept", "action_text",
            "text_for_others", "look_texts")


@dataclass(frozen=True)
class Emitted:
    """What a module was laid out from: the lowered program and the template's values."""

    program: Program
    values: dict[str, Any]

    @property
    def class_name(self) -> str:
        return str(self.values["class_name"])

    def defines(self) -> frozenset[str]:
        """The names the whole module defines at its top level."""
        return frozenset(_module_names(self.values)) | {self.class_name, "GAME"}


def _module_names(values: dict[str, Any]) -> dict[str, Hashable]:
    """Each name defined at the module's top level (but the class and GAME), and what defines it."""
    out: dict[str, Hashable] = {name: (value, comment) for name, value, comment in values["constants"]}
    out["_ROLE_OF_SEAT"] = values["role_of_seat"]
    out.update((name, faces) for name, faces in values["dice_faces"])
    out.update((name, (annotation, code)) for name, annotation, code, _ in values["component_tables"])
    out.update((f"_board__{b.name}", (b, values["region_kinds"])) for b in values["boards"])
    return out


def _reads(text: str) -> set[str]:
    """The names the text of the module being written reads or defines (strings and comments left
    out), for its imports."""
    try:
        return {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.NAME}
    except (tokenize.TokenError, IndentationError, SyntaxError):  # (a member is whole code: never expected)
        raise _GiveUp("a member that does not read as Python") from None


_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _names(value: object) -> set[str]:
    """The names written in what a member is laid out from: every word of every string in it, the
    nodes of the lowered IR (compiler/pyir.py) walked field by field (a `Name`'s id, a `pyir.Code`
    leaf's text) as much as a string the code generator gives (a phase's constant, a table's code).
    A word of prose (a docstring) is a name too: more names only make `derive` give up sooner."""
    out: set[str] = set()
    todo = [value]
    while todo:
        x = todo.pop()
        if isinstance(x, str):
            out.update(_WORD.findall(x))
        elif isinstance(x, dict):
            todo.extend(x.values())
        elif isinstance(x, list | tuple | set | frozenset):
            todo.extend(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type | SourceSpan):
            todo.extend(getattr(x, f.name) for f in dataclasses.fields(x))
    return out


@cache
def _template_reads() -> dict[str, frozenset[str]]:
    """The values of the template each of its blocks reads: its own, and those of the macros it calls
    and the template's top-level `{% set %}`s it reads (jinja2's `meta`, on the template's tree)."""
    assert _ENV.loader is not None  # (the package's templates)
    tree = _ENV.parse(_ENV.loader.get_source(_ENV, "game.py.j2")[0])
    def undeclared(body: list[nodes.Node]) -> set[str]:
        template = nodes.Template(body)
        template.set_environment(_ENV)
        return meta.find_undeclared_variables(template)

    derived: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, nodes.Assign) and isinstance(node.target, nodes.Name):
            derived[node.target.name] = undeclared([node])
    for m in tree.find_all(nodes.Macro):
        derived[m.name] = undeclared(m.body) - {a.name for a in m.args}

    def closed(read: set[str]) -> frozenset[str]:
        out, todo = set(), list(read)
        while todo:
            v = todo.pop()
            if v not in out:
                out.add(v)
                todo.extend(derived.get(v, ()))
        return frozenset(out - derived.keys())
    return {b.name: closed(undeclared(b.body)) for b in tree.find_all(nodes.Block)}


class _Reading:
    """The module-level names a member of the base's module reads, found from what it is laid out
    from (the base's lowered program, as the template's values), never from its text: the names
    in the values its block of the template reads."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values
        self.by_value: dict[str, set[str]] = {}
        self.reads = _template_reads()

    def block(self, name: str, **replaced: Any) -> set[str]:
        """What block `name` reads, laid out from the base's values with some replaced (as `render_blocks`)."""
        out: set[str] = set()
        for v in self.reads[name]:
            if v in replaced:
                out |= _names(replaced[v])
            elif v in self.values:
                if v not in self.by_value:
                    self.by_value[v] = _names(self.values[v])
                out |= self.by_value[v]
        return out


def _trimmed(text: str) -> str:
    return text.strip("\n")


def _splice(base: Sequence[Hashable], new: Sequence[Hashable], whole: str, items: Sequence[str], pad: str,
            run: Callable[[int, int], str] | None = None) -> list[str] | None:
    """`new` as the lines of a tuple's items splicing the tuple `whole` (`base`'s items) with the
    items of `new` it lacks (`items`: each item of `new` written out; or, with `run`, each run of them
    `new[j1:j2]` as one starred item, `run(j1, j2)`), or None where that is no shorter than writing out `new`."""
    lines, entries = [], 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=base, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            start, end = str(i1) if i1 else "", str(i2) if i2 < len(base) else ""
            lines.append(f"{pad}*{whole}[{start}:{end}]," if start or end else f"{pad}*{whole},")
            entries += 1
        else:
            if run:
                lines += [f"{pad}*{run(j1, j2)},"] if j2 > j1 else []
            else:
                lines += [f"{pad}{item}," for item in items[j1:j2]]
            entries += j2 - j1
    return lines if entries < len(new) else None


def derive(base: Emitted, variant: Emitted, base_module: str, origins: dict[str, str]
           ) -> tuple[str, frozenset[str]] | None:
    """The variant's module subclassing the base's, and the names it defines at its top level;
    None where it cannot (above). `base_module` is the base's module, `origins` the module that
    defines each name the base's module has."""
    return _Deriving(base, variant, base_module, origins).module()


class _GiveUp(Exception):
    pass


class _Deriving:
    def __init__(self, base: Emitted, variant: Emitted, base_module: str, origins: dict[str, str]) -> None:
        self.base, self.variant, self.base_module, self.origins = base, variant, base_module, origins
        self.old: Callable[..., str] = render_blocks(base.values)
        self.new: Callable[..., str] = render_blocks(variant.values)
        # the module-level names the base's members the variant's class inherits read (`_Reading`)
        self.reading = _Reading(base.values)
        self.inherited: set[str] = set()

    def module(self) -> tuple[str, frozenset[str]] | None:
        if self.base.values.get("simultaneous_table") and not self.variant.values.get("simultaneous_table"):
            return None  # (the base's table of simultaneous phases would be inherited: the whole module is written)
        try:
            return self.derived()
        except _GiveUp:
            return None

    def derived(self) -> tuple[str, frozenset[str]] | None:
        top, defined = self.top_level()
        tables = self.tables()
        methods = self.methods()
        reads = self.inherited
        redefined = {n for n, v in _module_names(self.variant.values).items()
                     if _module_names(self.base.values).get(n, v) != v}
        if redefined & reads:
            return None  # inherited code would read the base's
        game = self.game()
        class_doc = self.variant.values["class_doc"]
        slots = [s for s in self.variant.values["slots"] if s not in self.base.values["slots"]]
        body = [f"    {_docstring(class_doc)}", "", f"    __slots__ = {tuple(slots)!r}", *tables]
        text = "\n".join([f"class {self.variant.class_name}({self.base.class_name}):", *body, ""])
        text += "".join(f"\n{m}\n" for m in methods)
        own = "\n".join(top)
        used = _reads(own + text + game)
        names = sorted(n for n in used if n in self.origins and n not in defined and n != "GAME")
        by_module: dict[str, list[str]] = {self.base_module: [self.base.class_name]}
        for n in names:
            by_module.setdefault(self.origins[n], []).append(n)
        typing = [n for n in ("Any", "ClassVar", "Final") if n in used]
        standard = ["from collections.abc import Sequence"] if "Sequence" in used else []
        if "replace" in used:
            standard.append("from dataclasses import replace")  # (GAME: the base's facts, with what differs)
        if typing:
            standard.append(f"from typing import {', '.join(typing)}")
        lines = [self.new("header").rstrip("\n"), "", "from __future__ import annotations", ""]
        lines += [*standard, *([""] if standard else []), "from rulewright import runtime as rt"]
        for module in sorted(by_module):
            listed = _isort(by_module[module])
            alias = [f"from {module} import GAME as BASE_GAME"] if module == self.base_module else []
            first = _isort(["GAME", listed[0]])[0] == "GAME"  # (ruff's isort: by the first name imported)
            lines += [*(alias if first else []), f"from {module} import (", *[f"    {n}," for n in listed], ")",
                      *([] if first else alias)]
        lines.append("")
        if own:
            lines += [*([] if own.startswith("#") else [""]), own.rstrip("\n"), ""]
        lines += ["", text.rstrip("\n"), "", "", game]
        return "\n".join(lines) + "\n", frozenset(defined) | {self.variant.class_name, "GAME"}

    # -- the module's top level -----------------------------------------------------------------
    def top_level(self) -> tuple[list[str], set[str]]:
        """The module-level names the variant defines otherwise than its base, or adds."""
        old, new = _module_names(self.base.values), _module_names(self.variant.values)
        differs = {n for n, v in new.items() if old.get(n) != v}
        v = self.variant.values
        parts = [
            self.new("constants", constants=[c for c in v["constants"] if c[0] in differs]),
            self.new("role_of_seat") if "_ROLE_OF_SEAT" in differs else "",
            self.new("dice_faces", dice_faces=[d for d in v["dice_faces"] if d[0] in differs]),
            self.new("component_tables", component_tables=[c for c in v["component_tables"] if c[0] in differs]),
        ]
        out = ["".join(p for p in parts if p.strip()).rstrip("\n")]
        if out[0]:
            out.insert(0, "# -- Names this variant adds or numbers otherwise " + "-" * 42)
        else:
            out = []
        boards = self.new("boards", boards=[b for b in v["boards"] if f"_board__{b.name}" in differs])
        if boards.strip():
            out += ["", boards.rstrip("\n")]
        return out, differs

    # -- the class ------------------------------------------------------------------------------
    def block(self, name: str) -> str | None:
        """A member rendered from the program as a whole: None where the base's is the same."""
        old, new = self.old(name), self.new(name)
        if old == new:
            self.inherited |= self.reading.block(name)
            return None
        if old.strip() and not new.strip():
            raise _GiveUp(name)  # the base's would be inherited
        return new

    def tables(self) -> list[str]:
        out = []
        fields = self.fields_table()
        if fields:
            out.append(fields)
        out += [_trimmed(t) for name in _TABLES
                if (t := self.enums_table() if name == "enums_table" else self.block(name)) is not None and t.strip()]
        annotations = self.annotations()
        if annotations.strip():
            out += ["", _trimmed(annotations)]
        return out

    def enums_table(self) -> str | None:
        """`ENUMS`: the base's, then the enums after the base's, where the base's are the variant's
        first ones (the same dict, in the same order); else the variant's whole."""
        whole = self.block("enums_table")
        old, new = list(self.base.values["enums"]), list(self.variant.values["enums"])
        if whole is None or not old or new[: len(old)] != old:
            return whole
        self.inherited |= self.reading.block("enums_table")
        return self.new("enums_table", enums=new[len(old):], spread=Attribute(Name(self.base.class_name), "ENUMS"))

    def fields_table(self) -> str:
        old = [f.info for f in self.base.values["fields"]]
        new = [f.info for f in self.variant.values["fields"]]
        if old == new:
            return ""
        spliced = _splice(old, new, f"{self.base.class_name}.FIELDS", new, "        ")
        if spliced is None:
            return _trimmed(self.new("fields_table"))
        return "\n".join(["    FIELDS: ClassVar[tuple[rt.FieldInfo, ...]] = (", *spliced, "    )"])

    def annotations(self) -> str:
        """The annotations of the variant's new slots; gives up where a slot's type changed."""
        def typed(v: dict[str, Any]) -> dict[str, str]:
            out = {slot: "int" for _, slot, _ in v["options"]}
            out.update((f.name, f.annotation) for f in v["fields"])
            out.update(v["kept_slots"])
            if v["own_drops"]:
                out["_kept_shared"] = "bool"
            out.update((slot, annotation) for slot, annotation, _, _ in v["kept"])
            if "_budget" in v["slots"]:
                out["_budget"] = "int"
            out.update((slot, annotation) for slot, annotation, _, _ in v["board_tables"])
            return out

        old, new = typed(self.base.values), typed(self.variant.values)
        if any(old.get(slot, annotation) != annotation for slot, annotation in new.items()):
            raise _GiveUp("a slot's type changed")  # the base's code would read it as before
        v = self.variant.values
        return self.new(
            "annotations", options=[o for o in v["options"] if o[1] not in old],
            fields=[f for f in v["fields"] if f.name not in old],
            kept_slots=[k for k in v["kept_slots"] if k[0] not in old],
            own_drops=v["own_drops"] and "_kept_shared" not in old,
            kept=[k for k in v["kept"] if k[0] not in old],
            slots=[s for s in v["slots"] if s not in old],
            board_tables=[b for b in v["board_tables"] if b[0] not in old])

    def methods(self) -> list[str]:
        out = []
        for name in _METHODS:
            if name in _PER_ITEM:
                text = self.per_item(name)
            elif name == "setup":
                text = self.setup()
            elif name == "bind_tables":
                text = self.bind_tables()
            elif name == "read_options":
                text = self.read_options()
            elif name in ("perform", "guard"):
                text = self.dispatch(name)
            elif name == "prepare":
                text = self.prepare()
            elif name == "action_text":
                text = self.action_text()
            elif name == "copy_fields":
                text = self.copy_fields()
            else:
                text = self.block(name)
            if text is not None and text.strip():
                out.append(_trimmed(text))
        return out

    def per_item(self, name: str) -> str | None:
        """The members of the items that differ from the base's: an item of the variant whose
        parts this member lays out are equal to the base's item's, and that renders the same
        there (the member reads a little of the rest of the program: the phases' numbers, the
        triggers that wait), is inherited."""
        listed, key, parts = _PER_ITEM[name]
        old_items = {_part(i, key): i for i in self.base.values[listed]}
        differ = []
        for item in self.variant.values[listed]:
            base_item = old_items.get(_part(item, key))
            if base_item is None or _project(base_item, parts) != _project(item, parts) \
                    or self.old(name, **{listed: [base_item]}) != self.new(name, **{listed: [item]}):
                differ.append(item)
        overridden = {_part(d, key) for d in differ}
        inherited = [i for k, i in old_items.items() if k not in overridden]
        if inherited:
            self.inherited |= self.reading.block(name, **{listed: inherited})
        return self.new(name, **{listed: differ}) if differ else None

    def setup(self) -> str | None:
        """`_setup`: the base's, then the inits of the fields after the base's, where the base's
        fields are the variant's first ones with the same inits (so the inits run in the same
        order, reading the same); else the variant's whole."""
        whole = self.block("setup")
        if whole is None:
            return None
        o, v = self.base.values, self.variant.values
        old = [(f.name, f.init, f.span.short) for f in o["fields"]]
        new = [(f.name, f.init, f.span.short) for f in v["fields"]]
        if new[: len(old)] != old or not old or ("setup" in o["resets"]) != ("setup" in v["resets"]) \
                or bool(o["kept_slots"]) != bool(v["kept_slots"]):
            return whole
        self.inherited |= self.reading.block("setup")
        inits = self.new("setup_inits", fields=v["fields"][len(old):])
        return "    def _setup(self) -> None:\n        super()._setup()\n" + inits

    def dispatch(self, name: str) -> str | None:
        """`_perform` and `_guard`, which choose by the action's name: the variant's own actions (those
        it adds, or whose effect or guard it writes otherwise), then the base's for the rest, where
        the variant has every action the base has and its dispatch of them renders as the base's
        (so the base's answers only for them, the same way), both or neither run steps, and
        neither starts a move's budget there; else the variant's whole."""
        whole = self.block(name)
        o, v = self.base.values, self.variant.values
        old = {a["name"]: a for a in o["actions"]}
        new = v["actions"]

        def of(values: dict[str, Any], actions: list[dict[str, Any]]) -> str:
            # (a macro of the template lays the calls out: it reads the actions it was made with)
            return render_blocks({**values, "actions": actions})(name, action_steps=_steps(values["actions"]))
        if whole is None or {"tail", "guard"} & (set(o["resets"]) | set(v["resets"])) \
                or not set(old) <= {a["name"] for a in new} or _steps(o["actions"]) != _steps(new) \
                or of(v, [a for a in new if a["name"] in old]) != self.old(name):
            return whole
        own = [a for a in new if a["name"] not in old or of(o, [old[a["name"]]]) != of(v, [a])]
        if name == "guard":
            own = [a for a in own if a["when"]]
        if not own:
            return whole  # (never expected: the whole renders otherwise only for an action of its own)
        self.inherited |= self.reading.block(name)
        # the base's answer for the others: `super()._guard(_name)`, `super()._perform(_action)`
        asked = Call(Attribute(Call(Name("super")), f"_{name}"), (Name("_name" if name == "guard" else "_action"),))
        return render_blocks({**v, "actions": own})(name, action_steps=_steps(new), otherwise=asked)

    def read_options(self) -> str | None:
        """`_read_options`: the base's, then the options after the base's, where the base's are the
        variant's first ones (the same slots and choices: each read is one assignment of its own
        slot); else the variant's whole."""
        return self.after_base("read_options", "options", "read_option_lines", "_read_options")

    def bind_tables(self) -> str | None:
        """`_bind_tables`: the base's, then the new tables, where the base's are the variant's
        first ones (found the same way, in the same order); else the variant's whole."""
        return self.after_base("bind_tables", "board_tables", "bind_body", "_bind_tables")

    def after_base(self, name: str, key: str, body: str, method: str) -> str | None:
        """Member `name` (the method `method`, without parameters) as the base's called first and
        then the block `body` over the items of the list `key` after the base's, where the base's
        items are the variant's first ones; else the variant's whole."""
        whole = self.block(name)
        old, new = self.base.values[key], self.variant.values[key]
        if whole is None or not old or new[: len(old)] != old:
            return whole
        self.inherited |= self.reading.block(name)
        head = f"    def {method}(self) -> None:\n        super().{method}()\n"
        return head + self.new(body, **{key: new[len(old):]})

    def prepare(self) -> str | None:
        """`_prepare` (`setup:`): the base's, then what the variant adds after it (`setup+:`), where
        the base's statements are the variant's first ones and the base's cannot return early;
        else the variant's whole."""
        whole = self.block("prepare")
        o, v = self.base.values, self.variant.values
        old, new = list(o["setup"]), list(v["setup"])
        if whole is None or not old or new[: len(old)] != old or o["setup_steps"] != v["setup_steps"] \
                or any(_may_return(stmt) for stmt in old):
            return whole
        self.inherited |= self.reading.block("prepare")
        steps = v["setup_steps"]
        return (f"    def _prepare(self) -> {'rt.Steps' if steps else 'None'}:\n"
                f"        {'yield from ' if steps else ''}super()._prepare()\n"
                + self.new("prepare_body", setup=new[len(old):]))

    def action_text(self) -> str | None:
        """`_action_text`: the texts of the actions the variant writes otherwise or adds, then the
        base's, where the variant has every action the base has (so the base's answers only for
        actions whose text is the same in both, and for no action, as the variant's would);
        else the variant's whole."""
        whole = self.block("action_text")
        old = {a["name"]: a for a in self.base.values["actions"]}
        new = self.variant.values["actions"]
        if whole is None or not set(old) <= {a["name"] for a in new}:
            return whole
        self.inherited |= self.reading.block("action_text")
        own = [a for a in new if a["name"] not in old
               or self.old("action_texts", actions=[old[a["name"]]]) != self.new("action_texts", actions=[a])]
        return ("    def _action_text(self, _action: rt.Action) -> str:\n"
                "        _name, _args = _action.name, _action.args\n" + self.new("action_texts", actions=own)
                + "        return super()._action_text(_action)\n")

    def copy_fields(self) -> str | None:
        """`_copy_fields`: the base's, then the copies of the new slots, where the variant copies
        every slot the base's does, the same way (each copy is one assignment of its own slot,
        so their order does not matter); else the variant's whole."""
        whole = self.block("copy_fields")
        if whole is None:
            return None

        def copies(v: dict[str, Any]) -> dict[str, str]:
            out = {slot: f"self.{slot}" for _, slot, _ in v["options"]}
            out.update((f.name, f.copy) for f in v["fields"])
            out.update((slot, f"self.{slot}") for slot, _ in v["kept_slots"])
            if v["own_drops"]:
                out["_kept_shared"] = "True"
            out.update((slot, copy) for slot, _, _, copy in v["kept"])
            out.update((slot, f"self.{slot}") for slot, _, _, _ in v["board_tables"])
            return out

        old, new = copies(self.base.values), copies(self.variant.values)
        if any(new.get(slot) != copy for slot, copy in old.items()):
            return whole
        self.inherited |= self.reading.block("copy_fields")
        v = self.variant.values
        body = self.new(
            "copy_body", options=[o for o in v["options"] if o[1] not in old],
            fields=[f for f in v["fields"] if f.name not in old],
            kept_slots=[k for k in v["kept_slots"] if k[0] not in old],
            own_drops=v["own_drops"] and "_kept_shared" not in old,
            kept=[k for k in v["kept"] if k[0] not in old],
            board_tables=[b for b in v["board_tables"] if b[0] not in old])
        return "    def _copy_fields(self, _other: Any) -> None:\n        super()._copy_fields(_other)\n" + body

    # -- GAME -----------------------------------------------------------------------------------
    def game(self) -> str:
        o, v = self.base.values, self.variant.values
        old_options = [_option(x) for x in o["option_infos"]]
        new_options = [_option(x) for x in v["option_infos"]]
        options = _splice(old_options, new_options, "BASE_GAME.info.options", new_options, "            ")
        old_rules, new_rules = [tuple(r) for r in o["rules"]], [tuple(r) for r in v["rules"]]
        # (each run of the variant's own rule lines packed, `rt.unpacked`: natively a display of pairs
        # is C for every pair, and for each a clean-up of all those before it)
        rules = _splice(old_rules, new_rules, "_BASE_RULES", [repr(r) for r in new_rules], "            ",
                        lambda j1, j2: _packed(tuple(new_rules[j1:j2]), "            ", least=0))
        rules = None if rules is None else "\n".join(rules).split("\n")  # (a line each, indented below)
        lines = []
        if rules is not None and old_rules != new_rules:
            lines += ["_BASE_RULES = tuple(BASE_GAME.info.rules.items())  # spliced into this variant's "
                      "(its rule lines)", "", ""]
        # the base's facts with what differs replaced (the game's id never does); its boards and
        # scoring, where the variant numbers no board otherwise (runtime/state.py `Game.variant`)
        boards = [f"_board__{b.name}" for b in v["boards"]]
        old_names, new_names = _module_names(o), _module_names(v)
        same = boards == [f"_board__{b.name}" for b in o["boards"]] and o["lowest"] == v["lowest"] \
            and o["board_players"] == v["board_players"] and all(old_names[b] == new_names[b] for b in boards)
        pad = "    " if same else "        "
        facts = [f"{pad}variant={v['variant']!r},"]
        facts += [f"{pad}{key}={v[key]!r}," for key in ("title", "players", "roles") if o[key] != v[key]]
        if old_options != new_options:
            written = options or [f"            {x}," for x in new_options]
            facts += [f"{pad}options=(", *(x[8 - len(pad):] for x in written), f"{pad}),"]
        facts.append(f"{pad}files={v['files']!r},")
        if old_rules != new_rules and rules is not None:
            facts += [f"{pad}rules=dict([", *(r[8 - len(pad):] for r in rules), f"{pad}]),"]
        elif old_rules != new_rules:
            facts.append(f"{pad}rules={_packed(dict(new_rules), pad)},")
        if o["drawing"] != v["drawing"]:
            facts.append(f"{pad}drawing={v['drawing']!r},")
        for key in ("look", "attributes"):  # (code: a constant, the module's attribute tables, laid out at 8)
            if o[key] != v[key]:
                first, *rest = (v[key] or "{}").split("\n")
                facts += [f"{pad}{key}={first}", *(line[8 - len(pad):] for line in rest)]
                facts[-1] += ","
        if same:
            return "\n".join([*lines, "GAME = BASE_GAME.variant(", f"    {self.variant.class_name},", *facts, ")"])
        lines += ["GAME = rt.Game(", "    replace(", "        BASE_GAME.info,", *facts]
        lines += ["    ),", f"    {self.variant.class_name},", "    {"]
        lines += [f"        {b.name!r}: _board__{b.name}," for b in v["boards"]]
        lines += ["    },", f"    lowest_score_wins={v['lowest']},"]
        if v["board_players"]:
            lines.append(f"    board_players={v['board_players']!r},")
        lines.append(")")
        return "\n".join(lines)


def _steps(actions: list[dict[str, Any]]) -> bool:
    """Whether some action's effect runs as steps (`_perform` returns them)."""
    return any(a["steps"] for a in actions)


def _may_return(stmt: Stmt) -> bool:
    """Whether a lowered statement can leave its function early (a `return` anywhere in it)."""
    return isinstance(stmt, Return) or any(_may_return(s) for block in inner_blocks(stmt) for s in block)


def _part(item: Any, name: str) -> Any:
    """A part of an item of the program (a lowered item, or codegen's dict of an action)."""
    return item[name] if isinstance(item, dict) else getattr(item, name)


def _project(item: Any, parts: tuple[str, ...]) -> Any:
    """The parts of an item a member lays out (the whole item for ())."""
    return tuple(_part(item, p) for p in parts) if parts else item


def _option(o: Any) -> str:
    return f"rt.OptionInfo({o.name!r}, {o.default!r}, {o.choices!r}, {o.doc!r}, {o.quote!r})"


def _isort(names: list[str]) -> list[str]:
    """In the order isort (and ruff's `I`) wants: CONSTANTS, then Classes, then the others."""
    def kind(n: str) -> int:
        if n.isupper() or (n.upper() == n and any(c.isalpha() for c in n)):
            return 0
        return 1 if n[:1].isupper() else 2
    return sorted(set(names), key=lambda n: (kind(n), n))
