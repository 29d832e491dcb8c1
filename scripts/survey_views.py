"""Which comprehensions of the rule files are derived values a compiler could keep up to date
(issue 38 item 1), by form, and which of them a pass already serves.

    .venv/bin/python scripts/survey_views.py                 # every bundled rule set and test game
    .venv/bin/python scripts/survey_views.py rules/hex/base.yaml --list

Forms, of the checked program before any pass (each comprehension counted once per place it is
written, a variant's file counting what it adds or replaces and its base's again):

- `aggregate`: a count, sum, any or all over a fixed domain (the board's spots, a region, the
  seats, an enumeration's values, a list written out, a range of numbers) whose test and term read
  the state only through fields at the loop's item (`f[x]`), with constants, the board and
  values fixed outside the loop: a write `f[i] = v` changes it by its term at i, new minus old
  (an int kept, or one per value of what it reads from outside: per player, per region);
- `spot filter`: a list of the spots (of the board or a region) whose test reads one field at the
  spot, and no other of the state: a bit mask kept up to date at each write of the field;
- `count by key`: a count or test over a field of lists or sets (`hand`, `cards[p]`) of its items
  whose test compares the item or an attribute of it with a value (`c.colour == k`): counts per key
  kept at each change of the list;
- `other`: every other comprehension (joins of several fields, reads at other indices,
  definitions called, searches).

For each form: how many, and how many a pass serves today (read from masks, counts of a list,
set operations, tables of counts: the marks `mask_read`, `value_mask`, `spot_filter`, `counted`,
`component_set`, `kept_count` on the optimised program's node of the same rule span).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.analysis.walk import bare, expressions, nodes
from rulewright.compiler.driver import check_file
from rulewright.core.paths import bundled_rulesets

FORMS = ("aggregate", "spot filter", "count by key", "other")


def _fixed_domain(d: t.Expr) -> bool:
    d = bare(d)
    if isinstance(d, t.Ref) and d.sym.kind == "value" and d.sym.name in ("spots", "players", "seats"):
        return True
    if isinstance(d, t.Ref) and d.ty.kind == "entity" and d.ty.name == "region":
        return True  # a region's spots
    if isinstance(d, t.Collection):
        return all(isinstance(bare(x), t.Num | t.Ref) and (not isinstance(bare(x), t.Ref)
                                                           or bare(x).sym.kind == "const") for x in d.items)
    if isinstance(d, t.Builtin) and d.func in ("range", "values", "regions_of"):
        return all(_outside(a, set()) for a in d.args)
    return False


def _outside(e: t.Expr, inner: set[t.Symbol]) -> bool:
    """Whether `e` reads no field of the state and no local bound inside the comprehension."""
    for n in nodes(e):
        if isinstance(n, t.PerIndex | t.DefineCall):
            return False
        if isinstance(n, t.Ref) and (n.sym in inner or n.sym.kind in ("field", "perfield")):
            return False
    return True


def _reads_at_item_only(e: t.Expr, var: t.Symbol) -> bool:
    """Whether `e` reads the state only as `f[var]` (fields per entity at the item), no definition."""
    todo = [e]
    while todo:
        n = bare(todo.pop())
        if isinstance(n, t.PerIndex):
            if not (isinstance(bare(n.index), t.Ref) and bare(n.index).sym is var):  # type: ignore[union-attr]
                return False
            continue
        if isinstance(n, t.DefineCall):
            return False
        if isinstance(n, t.Ref) and n.sym.kind in ("field", "perfield"):
            return False
        if isinstance(n, t.Builtin) and n.func in ("components", "component_of", "straight_lines", "count_lines"):
            return False
        todo.extend(t.subexpressions(n))
    return True


def _fields_at(e: t.Expr, var: t.Symbol) -> set[str]:
    return {n.field.name for n in nodes(e) if isinstance(n, t.PerIndex)
            and isinstance(bare(n.index), t.Ref) and bare(n.index).sym is var}  # type: ignore[union-attr]


def classify(e: t.Comprehension) -> str:
    if e.more:
        return "other"
    parts = [x for x in (e.cond, e.elt) if x is not None]
    if e.func in ("count", "sum", "any", "all") and _fixed_domain(e.domain) \
            and all(_reads_at_item_only(p, e.var) for p in parts):
        return "aggregate"
    d = bare(e.domain)
    spots = (isinstance(d, t.Ref) and (d.sym.kind == "value" and d.sym.name == "spots"
                                       or d.ty.kind == "entity" and d.ty.name == "region"))
    if e.func == "list" and spots and isinstance(bare(e.elt), t.Ref) and bare(e.elt).sym is e.var \
            and e.cond is not None and _reads_at_item_only(e.cond, e.var) and len(_fields_at(e.cond, e.var)) == 1:
        return "spot filter"
    listy = d.ty.kind in ("list", "set") and isinstance(d, t.PerIndex | t.Ref) \
        and (isinstance(d, t.PerIndex) or d.sym.kind == "field")
    test = e.elt if e.func in ("count", "any", "all") else e.cond
    if e.func in ("count", "any", "all", "sum", "list") and listy and test is not None:
        t_ = bare(test)
        if isinstance(t_, t.Binary) and t_.op in ("==", "!="):
            left = bare(t_.left)
            item = (isinstance(left, t.Ref) and left.sym is e.var) or (
                isinstance(left, t.AttrOf) and isinstance(bare(left.obj), t.Ref) and bare(left.obj).sym is e.var)
            if item and _outside(t_.right, {e.var}):
                return "count by key"
    return "other"


MARKS = ("mask_read", "value_mask", "counted", "component_set", "kept_count")


def served_spans(program: t.TypedProgram) -> set[tuple[str, int, int]]:
    out: set[tuple[str, int, int]] = set()
    for e in expressions(program):
        if isinstance(e, t.Comprehension) and (any(getattr(e, m) for m in MARKS) or e.spot_filter is not None):
            out.add((e.span.path, e.span.line, e.span.col))
    return out


def survey(path: Path) -> list[tuple[str, bool, t.Comprehension]]:
    checked = check_file(path)
    if checked.typed is None:
        return []
    served = served_spans(passes.optimise(checked.typed))
    found: dict[tuple[str, int, int], t.Comprehension] = {}
    for e in expressions(checked.typed):
        if isinstance(e, t.Comprehension):
            found.setdefault((e.span.path, e.span.line, e.span.col), e)
    return [(classify(e), where in served, e) for where, e in sorted(found.items())]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="rule files (default: every bundled one and tests/games/)")
    ap.add_argument("--list", action="store_true", help="list each comprehension of the first three forms")
    args = ap.parse_args()
    files = args.files or [f for _, f in bundled_rulesets()] + sorted(Path("tests/games").glob("*.yaml"))
    totals: Counter[tuple[str, bool]] = Counter()
    print(f"{'rule file':44} " + " ".join(f"{f:>14}" for f in FORMS) + "   (served by a pass / found)")
    for f in files:
        rows = survey(f)
        per: Counter[tuple[str, bool]] = Counter((form, s) for form, s, _ in rows)
        totals.update(per)
        cells = [f"{per[(form, True)]}/{per[(form, True)] + per[(form, False)]}" for form in FORMS]
        print(f"{str(f):44} " + " ".join(f"{c:>14}" for c in cells))
        if args.list:
            for form, s, e in rows:
                if form != "other":
                    print(f"    {form:12} {'served' if s else 'walked':7} {e.span.short}: {e.func}")
    cells = [f"{totals[(form, True)]}/{totals[(form, True)] + totals[(form, False)]}" for form in FORMS]
    print(f"{'all':44} " + " ".join(f"{c:>14}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
