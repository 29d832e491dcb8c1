"""`compiler.unparse` (AST back to canonical text, round-tripping through the parser) and
`compiler.diff` (changes between two resolved rule sets, by rule path)."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulewright.compiler import ast
from rulewright.compiler.diff import Change, diff, load_ruleset, render, same
from rulewright.compiler.parse import parse
from rulewright.compiler.unparse import unparse, unparse_block
from rulewright.core.paths import display, rules_dir
from rulewright.core.source import CompileError, SourceSpan

CORNETT = Path(rules_dir()) / "china-cornett" / "base.yaml"
BASE = "rules/china-cornett/base.yaml"
HERE = Path(__file__).parent
SPAN = SourceSpan("<test>", 1, 1, 1, 1)


def bare(node: Any) -> Any:
    """A node without its spans (names kept as written)."""
    if isinstance(node, tuple):
        return tuple(bare(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__,) + tuple(bare(getattr(node, f.name)) for f in dataclasses.fields(node)
                                              if f.name != "span")
    return node


def nodes(value: Any) -> list[Any]:
    """Every expression and simple statement inside an IR value."""
    found: list[Any] = []
    todo = [value]
    while todo:
        x = todo.pop()
        if isinstance(x, tuple):
            todo.extend(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            if type(x).__module__ == ast.__name__ and not isinstance(x, (ast.For, ast.If, ast.Target)):
                found.append(x)
            todo.extend(getattr(x, f.name) for f in dataclasses.fields(x))
    return found


CORNETT_NODES = nodes(load_ruleset(CORNETT))


# -- unparse -----------------------------------------------------------------------------------
def roundtrip(node: Any) -> None:
    kind = "stmt" if isinstance(node, (ast.Assign, ast.Let, ast.CallStmt, ast.Goto, ast.EndTurn, ast.Pass,
                                       ast.Break, ast.Continue)) \
        else "header" if isinstance(node, (ast.ForHeader, ast.IfHeader, ast.WhileHeader)) else "expr"
    text = unparse(node)
    assert bare(parse(text, SPAN, kind)) == bare(node), text


@pytest.mark.parametrize(("text", "canonical"), [
    ("marker[s]==face_down and roll>0", "marker[s] == face_down and roll > 0"),
    ("count( marker[s] == gold_side for s in sector )", "count(marker[s] == gold_side for s in sector)"),
    ("((a + b)) * c", "(a + b) * c"),
    ("a - (b - c)", "a - (b - c)"),
    ("(a - b) - c", "a - b - c"),
    ("(a == b) == c", "(a == b) == c"),
    ("not (a and b)", "not (a and b)"),
    ("(not a) and b", "not a and b"),
    ("-(a + b)", "-(a + b)"),
    ("(1 if a else 2) if b else (3 if c else 4)", "(1 if a else 2) if b else 3 if c else 4"),
    ("[s for s in (a if c else b) if (x or y)]", "[s for s in (a if c else b) if x or y]"),
    ("list(s for s in spots)", "[s for s in spots]"),
    ("f(a, k = 'say \"hi\"')", "f(a, k='say \"hi\"')"),
    ("{t01, t02}", "{t01, t02}"),
    ("{ }", "{}"),
    ("x.y[0].z", "x.y[0].z"),
    ("(-a)[1]", "(-a)[1]"),
    ("a not in b", "a not in b"),
    ("sum(x if x > 0 else 0 for x in xs)", "sum(x if x > 0 else 0 for x in xs)"),
])
def test_unparse_writes_canonical_text(text: str, canonical: str) -> None:
    node = parse(text, SPAN, "expr")
    assert unparse(node) == canonical
    roundtrip(node)


@pytest.mark.parametrize("text", ["gold[p] += count(marker[s] == gold_side for s in sector)", "let n = 1 + 2",
                                  "turned = []", "collect(current, sector)", "goto bidding", "end_turn", "pass"])
def test_unparse_statements(text: str) -> None:
    node = parse(text, SPAN, "stmt")
    assert unparse(node) == text
    roundtrip(node)


def test_unparse_blocks_as_indented_effects() -> None:
    ruleset = load_ruleset(CORNETT)
    trigger = next(t for t in ruleset.triggers if t.name == "transport_gold")
    assert unparse_block(trigger.effect) == textwrap.dedent("""\
        let own = [sector for sector in regions_touching(turned, sector_kind(current)) if completed(sector)]
        for sector in own:
          collect(current, sector)
        for sector in regions_touching(turned, sector_kind(opponent)):
          if completed(sector):
            collect(current if COLLECTOR else opponent, sector)""").replace(
        "COLLECTOR", "sector_collector == turner or sector_collector == with_own and own")
    start = ruleset.phases[0].start
    assert unparse_block(start) == "turned = []\nif tablets:\n  roll = throw(tablets)\nelse:\n  roll = 0"
    assert unparse(parse("for s in line", SPAN, "header")) == "for s in line"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(CORNETT_NODES))
def test_every_expression_and_effect_of_china_cornett_roundtrips(node: Any) -> None:
    roundtrip(node)


NAMES = st.sampled_from(["a", "b", "s", "roll", "marker", "gold_side", "x1"])


def exprs() -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.builds(ast.Num, st.integers(0, 99), st.just(SPAN)),
        st.builds(ast.Str, st.text("abc xyz", max_size=4), st.just(SPAN)),
        st.builds(ast.BoolLit, st.booleans(), st.just(SPAN)),
        st.builds(ast.Name, NAMES, st.just(SPAN)),
    )

    def grow(e: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        ops = ["or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "+", "-", "*", "//", "%"]
        items = st.lists(e, max_size=3).map(tuple)
        return st.one_of(
            st.builds(ast.Binary, st.sampled_from(ops), e, e, st.just(SPAN)),
            st.builds(ast.Unary, st.sampled_from(["-", "not"]), e, st.just(SPAN)),
            st.builds(ast.Cond, e, e, e, st.just(SPAN)),
            st.builds(ast.Index, e, e, st.just(SPAN)),
            st.builds(ast.Attr, e, NAMES, st.just(SPAN)),
            st.builds(ast.Call, st.sampled_from(["len", "f"]), items,
                      st.lists(st.builds(ast.Keyword, NAMES, e, st.just(SPAN)), max_size=1).map(tuple),
                      st.just(SPAN)),
            st.builds(ast.Comprehension, st.sampled_from(["list", "count", "sum", "set"]), e, NAMES, e,
                      st.none() | e, st.just(SPAN)),
            st.builds(ast.ListLit, items, st.just(SPAN)),
            st.builds(ast.SetLit, items, st.just(SPAN)),
        )

    return st.recursive(leaves, grow, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(exprs())
def test_any_expression_roundtrips_with_minimal_parentheses(node: Any) -> None:
    roundtrip(node)


@settings(max_examples=100, deadline=None)
@given(exprs(), NAMES)
def test_any_statement_roundtrips(node: Any, name: str) -> None:
    roundtrip(ast.Assign(ast.Target(name, node, SPAN), "+=", node, SPAN))
    roundtrip(ast.Let(name, node, SPAN))
    roundtrip(ast.ForHeader(name, node, SPAN))
    roundtrip(ast.IfHeader("elif", node, SPAN))
    roundtrip(ast.WhileHeader(node, SPAN))
    roundtrip(ast.Break(SPAN))
    roundtrip(ast.Continue(SPAN))


# -- diff --------------------------------------------------------------------------------------
def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def line_of(path: Path, fragment: str) -> int:
    return next(i for i, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if fragment in t)


def test_the_test_variant_changes_exactly_one_default() -> None:
    variant = HERE / "variants" / "owner-collects.yaml"
    (change,) = diff(load_ruleset("china-cornett"), load_ruleset(variant))
    assert change == Change("changed", "options.sector_collector.default", "with_own", "owner", change.where)
    assert change.where is not None and change.where.short == f"{display(variant)}:5"


def test_reformatting_reordering_and_renaming_locals_is_no_change(tmp_path: Path) -> None:
    text = CORNETT.read_text(encoding="utf-8")
    edits = [
        # locals renamed: a comprehension variable, a for variable, a define's and a procedure's parameter
        ('face_down_spots: "[s for s in spots if marker[s] == face_down]"',
         'face_down_spots: "[x for x in spots if (marker[x]) == face_down]"'),
        ('"alignments(n: int)": "len(straight_lines(n, face_down_spots))"',
         '"alignments(k: int)": "len( straight_lines(k,face_down_spots) )"'),
        ('"collect(p: player, sector: region)":\n    - gold[p] += count(marker[s] == gold_side for s in sector)\n'
         '    - for s in sector:\n      - marker[s] = removed',
         '"collect(who: player, zone: region)":\n    - gold[who] += count(marker[t] == gold_side for t in zone)\n'
         '    - for u in zone:\n      - marker[u] = removed'),
        ("      - for s in line:\n        - marker[s] = gold_side",
         "      - for q in line: [\"marker[q] = gold_side\"]"),
        # flow style, and keys reordered inside a component
        ("  gold:\n    per: player\n    type: int\n    init: 0\n    visible: all",
         "  gold: {visible: all, init: 0, type: int, per: player}"),
        # a whole section moved (options after scoring)
        ("end: \"all(marker[s] == removed for s in spots)\"", "end: \"all(marker[z] == removed for z in spots)\""),
    ]
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    start, stop = text.index("options:\n"), text.index("# \"1 Plateau de jeu")
    text = text[:start] + text[stop:] + "\n" + text[start:stop]
    rewritten = write(tmp_path, "rewritten.yaml", text)
    a, b = load_ruleset(CORNETT), load_ruleset(rewritten)
    assert diff(a, b) == []
    assert same(a.defines, b.defines) and not same(a.options, tuple(reversed(a.options)))


def test_each_kind_of_change_with_path_old_new_and_line(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        players: [2, 3]
        options:
          sector_collector: {default: owner}
        boards:
          hex6:
            regions:
              mountain:
                M3: [A5, A6, B6]
        state:
          gold: {init: 1}
        define:
          "alignments(m: int)": "len(straight_lines(m, face_down_spots))"
          "completed(sector: region)": "all(marker[s] == removed for s in sector)"
        phases:
          turn:
            actions-: [turn_back]
        actions:
          turn_back: ~
          prospect:
            when: "roll > 0"
            effect:
              - for s in line:
                - marker[s] = gold_side
        triggers:
          third_reduction: ~
          bonus:
            at: turn_end
            effect: ["gold[current] += 1"]
        scoring:
          gold: "2 * gold[player]"
          bonus: "0"
        end: "all(marker[s] != face_down for s in spots)"
        winner: lowest_score
        """)
    changes = diff(load_ruleset(CORNETT), load_ruleset(v))
    got = {(c.kind, c.path): c for c in changes}
    shown = display(v)

    def where(c: Change) -> str:
        return c.where.short if c.where is not None else "?"

    expected = {
        ("changed", "players"): ("2", "[2, 3]", f"{shown}:2"),
        ("changed", "options.sector_collector.default"): ("with_own", "owner", f"{shown}:4"),
        ("changed", "boards.hex6.regions.mountain.M3.spots"): ("[A5, A6, B6, B7]", "[A5, A6, B6]", f"{shown}:9"),
        ("changed", "state.gold.init"): ("0", "1", f"{shown}:11"),
        ("changed", "define.completed"): ("completed(sector: region): all(marker[s] != face_down for s in sector)",
                                          "completed(sector: region): all(marker[s] == removed for s in sector)",
                                          f"{shown}:14"),
        ("changed", "phases.turn.actions"): ("[prospect, turn_back]", "[prospect]", f"{shown}:17"),
        ("removed", "actions.turn_back"): (
            "choose:\n  spot: [s for s in spots if marker[s] == gold_side]\nwhen: tablets\ntext: turn back {spot}\n"
            "effect: marker[spot] = face_down", None, f"{BASE}:{line_of(CORNETT, '  turn_back:')}"),
        ("added", "actions.prospect.when"): (None, "roll > 0", f"{shown}:21"),
        ("changed", "actions.prospect.effect"): ("for s in line:\n  marker[s] = gold_side\nturned = line",
                                                 "for s in line:\n  marker[s] = gold_side", f"{shown}:23"),
        ("removed", "triggers.third_reduction"): (
            "at: turn_end\nwhen: tablets == {t01, t12} and alignments(3) <= reduction_limit\neffect: tablets = {}",
            None, f"{BASE}:{line_of(CORNETT, 'third_reduction:')}"),
        ("added", "triggers.bonus"): (None, "at: turn_end\neffect: gold[current] += 1", f"{shown}:27"),
        ("changed", "scoring.gold"): ("gold[player]", "2 * gold[player]", f"{shown}:31"),
        ("added", "scoring.bonus"): (None, "0", f"{shown}:32"),
        ("changed", "end"): ("all(marker[s] == removed for s in spots)", "all(marker[s] != face_down for s in spots)",
                             f"{shown}:33"),
        ("changed", "winner"): ("highest_score", "lowest_score", f"{shown}:34"),
    }
    assert {k: (c.old, c.new, where(c)) for k, c in got.items()} == expected
    assert [c.path for c in changes][:3] == ["players", "options.sector_collector.default",
                                             "boards.hex6.regions.mountain.M3.spots"], "in the order of the rule file"


def test_trigger_order_is_a_change(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        triggers:
          first_reduction: ~
          first_reduction_again:
            at: turn_end
            when: "tablets == {t01, t02, t12} and alignments(5) <= reduction_limit"
            effect: ["tablets = {t02, t12}"]
        """)
    changes = diff(load_ruleset(CORNETT), load_ruleset(v))
    assert [(c.kind, c.path) for c in changes] == [("removed", "triggers.first_reduction"),
                                                    ("added", "triggers.first_reduction_again")]
    moved = write(tmp_path, "moved.yaml", CORNETT.read_text(encoding="utf-8").replace(
        "  first_reduction:", "  first_reduction_:").replace("  second_reduction:", "  first_reduction:").replace(
        "  first_reduction_:", "  second_reduction:"))
    changes = diff(load_ruleset(CORNETT), load_ruleset(moved))
    order = [c for c in changes if c.path == "triggers"]
    assert len(order) == 1 and order[0].old == ("[transport_gold, first_reduction, second_reduction, "
                                                "third_reduction]")


def test_render_plain_values() -> None:
    assert render(True) == "true" and render((1, 2)) == "[1, 2]" and render((("M", "R"),)) == "{M: R}"


def test_load_ruleset_raises_compile_errors(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", "extends: china-cornett\nactions:\n  prospect:\n    when: \"roll >\"\n")
    with pytest.raises(CompileError) as caught:
        load_ruleset(bad)
    (d,) = caught.value.diagnostics
    assert d.span.path == display(bad) and d.span.line == 4 and "syntax error" in d.message
    with pytest.raises(CompileError):
        load_ruleset(tmp_path / "missing.yaml")


def test_kinds_of_rules_added_to_the_ir_later_are_compared_too(tmp_path: Path) -> None:
    ring = HERE / "games" / "ring-race.yaml"
    v = write(tmp_path, "v.yaml", f"""
        extends: {ring}
        enums:
          colour: [red, blue, green]
        boards:
          track: {{ring: 14}}
        phases:
          verdict: {{actor: current}}
        """)
    changes = {(c.kind, c.path): (c.old, c.new) for c in diff(load_ruleset(ring), load_ruleset(v))}
    assert changes == {("changed", "boards.track.ring"): ("12", "14"),
                       ("changed", "enums.colour"): ("[red, blue]", "[red, blue, green]"),
                       ("changed", "phases.verdict.actor"): ("opponent", "current")}
