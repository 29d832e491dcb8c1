"""Which list fields of the rule files are multisets a compiler could store as counts per kind
(issue 38 item 2: "multisets of a few kinds as counts"), and what each use of them asks.

    .venv/bin/python scripts/survey_multisets.py                 # every bundled rule set and test game
    .venv/bin/python scripts/survey_multisets.py rules/china-schacht/base.yaml --uses

A candidate is a state field (or a field per entity) of type `list(E)` where E has few values: an
enumeration of at most MAX_KINDS values, or `player`. Read on the checked program, before any
pass. Each place the rules read or write the field is one use, named by what it does with it:

- order-free, written on counts as they are: `member` (`c in f`), `len`, `truth` (`if f`, `not f`,
  `when: f`), `count` (a count, sum, any or all over its items), `without` (`without(f, c)`),
  `sorted join` (`f = sorted(f + [c])`), `empty` (`f = []`);
- order read, which counts give back only if the list is kept sorted (the i-th item of a sorted
  multiset is found from the counts): `draw` (`draw_from(f)`, a random index), `index` (`f[i]`),
  `walk` (a loop or a list comprehension over it, in order), `join` (`f + [c]`, not sorted),
  `copy` (assigned whole to a field), `text` (an action's or a tell's text);
- whole, which asks the list itself (a conversion at each of them): `passed` (an argument of a
  definition or procedure), `compared` (`f == g`), `other`, and an assignment of any other form
  (`write: other`).

Assignments are counted apart (`write: ...`): `sorted join`, `without`, `empty`, `items` (a list
written out), `join` (`f = f + [c]`, which makes an order), `copy` (`deck = discard`), `other`.

The verdict: `counts` when the rules keep the field sorted (every assignment a `sorted(...)`, a
`without` of it, itself, or a list of at most one item: the test of pass `key_sorted_lists`) or it
has no use that reads its order, and every use is of the first two kinds; else `refused`, with the
reasons. Note that a restored state (`state_from_json`, a scenario's position) may hold a kept
sorted list in any order, which counts cannot keep: docs/optimiser.md, "Multisets as counts".
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulewright.compiler import typed as t
from rulewright.compiler.analysis.walk import bare
from rulewright.compiler.driver import check_file
from rulewright.compiler.passes.key_sorted_lists import kept_sorted
from rulewright.core.paths import bundled_rulesets

MAX_KINDS = 16  # an enumeration of at most this many values has "few kinds"

ORDER_FREE = ("member", "len", "truth", "count", "without", "sorted join", "empty")
ORDER_READ = ("draw", "index", "walk", "join", "copy", "text")
WHOLE = ("passed", "compared", "other")


@dataclass
class Candidate:
    name: str
    per: str | None
    element: str
    kinds: int
    kept_sorted: bool
    uses: Counter[str] = field(default_factory=Counter)
    where: dict[str, list[str]] = field(default_factory=dict)

    def verdict(self) -> tuple[str, list[str]]:
        reasons = []
        order_read = [u for u in ORDER_READ if self.uses[u]]
        if order_read and not self.kept_sorted:
            reasons.append("its order is read (" + ", ".join(order_read) + ") and the rules do not keep it sorted")
        whole = [u for u in WHOLE if self.uses[u]] + [u for u in ("write: other",) if self.uses[u]]
        if whole:
            reasons.append("it is read whole (" + ", ".join(whole) + ")")
        return ("refused" if reasons else "counts"), reasons


def _few_kinds(ty: t.Ty | None, enums: dict[str, int]) -> int:
    """How many values a list's item may take (0: not few)."""
    if ty is None:
        return 0
    if ty.kind == "enum" and 0 < enums.get(ty.name, MAX_KINDS + 1) <= MAX_KINDS:
        return enums[ty.name]
    if ty.kind == "entity" and ty.name == "player":
        return 6
    return 0


def _read_of(e: t.Expr, names: set[str]) -> str | None:
    """The candidate field `e` reads whole (`f` or `f[x]`), if any."""
    e = bare(e)
    if isinstance(e, t.Ref) and e.sym.kind == "field" and e.sym.name in names:
        return e.sym.name
    if isinstance(e, t.PerIndex) and e.field.name in names:
        return e.field.name
    return None


def _use_in(parent: t.Expr, child: t.Expr) -> str:
    """What `parent` does with the list `child`, one of its direct subexpressions."""
    p = bare(parent)
    match p:
        case t.Binary(op="in" | "not in") if bare(p.right) is bare(child):
            return "member"
        case t.Binary(op="and" | "or"):
            return "truth"
        case t.Binary(op="+"):
            return "join"
        case t.Binary(op="==" | "!=" | "<" | "<=" | ">" | ">="):
            return "compared"
        case t.Unary(op="not"):
            return "truth"
        case t.Cond() if bare(p.test) is bare(child):
            return "truth"
        case t.Builtin(func="len"):
            return "len"
        case t.Builtin(func="without") if bare(p.args[0]) is bare(child):
            return "without"
        case t.Builtin(func="draw_from"):
            return "draw"
        case t.Builtin(func="sorted"):
            return "sorted join"
        case t.ListIndex() if bare(p.obj) is bare(child):
            return "index"
        case t.Comprehension() if bare(p.domain) is bare(child):
            return "count" if p.func in ("count", "sum", "any", "all", "set", "max", "min") else "walk"
        case t.DefineCall():
            return "passed"
    return "other"


def _statement_uses(s: t.Stmt, names: set[str]) -> Iterator[tuple[str, str, t.Expr]]:
    """The uses of a candidate read directly by statement `s` (not inside an expression)."""
    def read(e: t.Expr | None) -> str | None:
        return None if e is None else _read_of(e, names)

    match s:
        case t.Assign() if read(s.value):
            yield read(s.value) or "", "copy", s.value
        case t.Let() if read(s.value):
            yield read(s.value) or "", "other", s.value
        case t.For() if read(s.domain):
            yield read(s.domain) or "", "walk", s.domain
        case t.If():
            for test, _ in s.branches:
                if read(test):
                    yield read(test) or "", "truth", test
        case t.While() if read(s.test):
            yield read(s.test) or "", "truth", s.test
        case t.CallEffect():
            for a in s.args:
                if read(a):
                    yield read(a) or "", "passed", a
        case t.Tell():
            for a in s.args:
                if read(a):
                    yield read(a) or "", "text", a


def _writes(s: t.Stmt, names: set[str]) -> Iterator[tuple[str, str, t.Expr]]:
    """The form of an assignment of a candidate: `sorted join`, `without`, `empty`, `join` or `other`."""
    if not isinstance(s, t.Assign) or s.target.name not in names:
        return
    v = bare(s.value)
    if s.op != "=" or s.item is not None:
        form = "other"
    elif isinstance(v, t.Collection) and not v.items:
        form = "empty"
    elif isinstance(v, t.Collection):
        form = "items"
    elif isinstance(v, t.Builtin) and v.func == "sorted":
        form = "sorted join"
    elif isinstance(v, t.Builtin) and v.func == "without" and _read_of(v.args[0], {s.target.name}):
        form = "without"
    elif isinstance(v, t.Binary) and v.op == "+" and _read_of(v.left, {s.target.name}):
        form = "join"
    elif _read_of(v, names):
        form = "copy"
    else:
        form = "other"
    yield s.target.name, form, s.value


def survey(path: Path) -> list[Candidate]:
    typed = check_file(path).typed
    enums = {name: len(values) for name, values in typed.tables.enums}
    found: dict[str, Candidate] = {}
    for f in typed.fields:
        ty = f.decl.type
        kinds = _few_kinds(ty.elem, enums) if ty.kind == "list" else 0
        if kinds:
            found[f.decl.name] = Candidate(f.decl.name, f.decl.per, str(ty.elem), kinds, False)
    if not found:
        return []
    for name in kept_sorted(typed) & set(found):
        found[name].kept_sorted = True
    names = set(found)

    def note(name: str, use: str, e: t.Expr) -> None:
        c = found[name]
        c.uses[use] += 1
        c.where.setdefault(use, []).append(e.span.short)

    roots: list[t.Expr] = [d.body for d in typed.defines]
    for a in typed.actions:
        roots.extend(c.domain for c in a.choices)
        roots.extend(x for x in (a.when, a.revealed) if x is not None)
        for x in (a.when,):
            if x is not None and _read_of(x, names):
                note(_read_of(x, names) or "", "truth", x)
    for trig in typed.triggers:
        if trig.when is not None:
            roots.append(trig.when)
    roots.extend(x for x in (typed.end, typed.tie_break, typed.returns) if x is not None)
    roots.extend(sc.expr for sc in typed.scoring)
    roots.extend(inv.expr for inv in typed.invariants)
    bodies = [typed.setup, *(p.body for p in typed.procedures), *(trig.effect for trig in typed.triggers),
              *(ph.start for ph in typed.phases), *(a.effect for a in typed.actions)]
    for body in bodies:
        for s in t.statements(body):
            for name, form, e in _writes(s, names):
                note(name, f"write: {form}", e)
            for name, use, e in _statement_uses(s, names):
                if not (isinstance(s, t.Assign) and use == "copy" and s.target.name not in names):
                    note(name, use, e)
                else:
                    note(name, "copy", e)
            roots.extend(t.statement_expressions(s))
    seen: set[int] = set()
    todo = roots[::-1]
    while todo:
        e = todo.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        for child in t.subexpressions(e):
            name = _read_of(child, names)
            if name is not None and not isinstance(bare(e), t.Note):
                use = _use_in(e, child)
                if use == "join" and _sorted_around(e, roots):
                    use = "sorted join"
                note(name, use, child)
            todo.append(child)
    return sorted(found.values(), key=lambda c: c.name)


def _sorted_around(join: t.Expr, roots: list[t.Expr]) -> bool:
    """Whether the join `join` is the argument of a `sorted(...)` somewhere in the program."""
    todo = list(roots)
    while todo:
        e = bare(todo.pop())
        if isinstance(e, t.Builtin) and e.func == "sorted" and any(bare(a) is bare(join) for a in e.args):
            return True
        todo.extend(t.subexpressions(e))
    return False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="rule files (default: every bundled one and tests/games/)")
    ap.add_argument("--uses", action="store_true", help="list where each use is")
    args = ap.parse_args()
    files = args.files or [f for _, f in bundled_rulesets()] + sorted(Path("tests/games").glob("*.yaml"))
    verdicts: Counter[str] = Counter()
    for f in files:
        try:
            candidates = survey(f)
        except Exception as err:  # a test game meant to fail to compile
            print(f"{f}: not checked ({type(err).__name__})")
            continue
        for c in candidates:
            verdict, reasons = c.verdict()
            verdicts[verdict] += 1
            per = f" per {c.per}" if c.per else ""
            kept = "kept sorted" if c.kept_sorted else "not kept sorted"
            print(f"{f}: {c.name}{per}: list({c.element}), {c.kinds} kinds, {kept}: {verdict}"
                  + (f" ({'; '.join(reasons)})" if reasons else ""))
            print("    " + ", ".join(f"{u} {n}" for u, n in sorted(c.uses.items())))
            if args.uses:
                for u, spans in sorted(c.where.items()):
                    print(f"      {u}: {' '.join(spans)}")
    print(f"candidates: {sum(verdicts.values())}, " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
