"""The merge semantics of `extends:` (compiler/merge.py, docs/variants.md): replace, remove with
`~`, list patches `key+`/`key-`, provenance spans, stacked variants, conflicts and
`incompatible:`. Variants are written to tmp_path and extend the bundled china-cornett. What
`resolve` itself does (the files it reads, in order; its errors): tests/test_resolve.py."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulewright.compiler import merge
from rulewright.compiler.build import build_ir
from rulewright.compiler.driver import compile_file
from rulewright.compiler.resolve import resolve
from rulewright.core.load import YMap, YNode, YScalar, YSeq, load, plain
from rulewright.core.paths import display
from rulewright.core.source import CompileError
from tests.helpers.rulefiles import resolve_problems, write

BASE = "rules/china-cornett/base.yaml"


def tree(path: Path) -> YMap:
    return resolve(path).tree


def at(node: YNode, *keys: str) -> YNode:
    for key in keys:
        assert isinstance(node, YMap), f"no mapping at {key}"
        found = node.get(key)
        assert found is not None, f"no `{key}` in {node.keys()}"
        node = found
    return node


def line_of(path: Path, fragment: str) -> int:
    return next(i for i, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if fragment in t)


# -- one variant -------------------------------------------------------------------------------
def test_a_value_is_replaced_and_the_rest_of_the_component_kept(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        actions:
          turn_back:
            when: "tablets and roll > 1"
        """)
    t = tree(v)
    when = at(t, "actions", "turn_back", "when")
    assert isinstance(when, YScalar) and when.value == "tablets and roll > 1"
    assert when.span.path == display(v) and when.span.line == 4
    text = at(t, "actions", "turn_back", "text")
    assert isinstance(text, YScalar) and text.value == "turn back {spot}" and text.span.path == BASE
    assert at(t, "actions", "turn_back", "choose", "spot").span.path == BASE
    assert t.keys()[:3] == ["rulewright", "game", "title"], "the base's keys keep their order"


def test_an_option_default_and_the_ir(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        options:
          sector_collector: {default: owner}
          reduction_reading: {default: none_left}
        """)
    r = resolve(v)
    ruleset, diagnostics = build_ir(r.tree, tuple(display(f) for f in r.files), r.variant)
    assert not diagnostics and ruleset is not None
    defaults = {o.name: o.default for o in ruleset.options}
    assert defaults == {"board": "hex6", "sector_collector": "owner", "reduction_reading": "none_left"}
    assert r.variant == "v" and [display(f) for f in r.files] == [BASE, display(v)]
    assert compile_file(v).ruleset.variant == "v"


def test_null_removes_a_component_or_a_key(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        triggers:
          third_reduction: ~
        actions:
          turn_back:
            when: ~
        """)
    t = tree(v)
    assert at(t, "triggers").keys() == ["transport_gold", "first_reduction", "second_reduction"]  # type: ignore[union-attr]
    assert "when" not in at(t, "actions", "turn_back").keys()  # type: ignore[union-attr]
    compiled = compile_file(v)
    assert [x.name for x in compiled.ruleset.triggers] == ["transport_gold", "first_reduction", "second_reduction"]
    assert next(a for a in compiled.ruleset.actions if a.name == "turn_back").when is None


def test_removing_what_is_not_there_is_an_error_with_a_hint(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        triggers:
          third_reductoin: ~
          first_reduction:
            when: "false"
        """)
    (d,) = resolve_problems(v)
    assert (d.span.path, d.span.line, d.span.col) == (display(v), 3, 3)
    assert d.message == "nothing named `third_reductoin` in `triggers` to remove"
    assert d.hint == "did you mean `third_reduction`?"
    with pytest.raises(CompileError) as caught:  # through the driver: diagnostics, no traceback
        compile_file(v)
    assert caught.value.diagnostics[0].render().startswith(f"{display(v)}:3:3: error: nothing named")


def test_definitions_and_procedures_are_addressed_by_name(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        define:
          "alignments(n:int)": "len(straight_lines(n, face_down_spots)) + 0"
          reduction_limit: ~
          "limit_now": "1 if reduction_reading == at_most_one else 0"
        procedures:
          "collect(p: player, sector: region)":
            - gold[p] += 2 * count(marker[s] == gold_side for s in sector)
            - for s in sector:
              - marker[s] = removed
        """)
    t = tree(v)
    keys = at(t, "define").keys()  # type: ignore[union-attr]
    assert keys == ["face_down_spots", "alignments(n:int)", "sector_kind(p: player)", "completed(sector: region)",
                    "limit_now"]
    assert len(at(t, "procedures").keys()) == 1  # type: ignore[union-attr]


def test_list_patches_append_and_remove_names(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        phases:
          turn:
            actions-: [turn_back]
            actions+: [skip]
        actions:
          turn_back: ~
          skip:
            text: skip
            effect: [pass]
        options:
          board:
            choices-: hex5
        boards:
          hex5: ~
        """)
    t = tree(v)
    listed = at(t, "phases", "turn", "actions")
    assert plain(listed) == ["prospect", "skip"]
    assert isinstance(listed, YSeq)
    assert listed.span.path == display(v), "a patched list takes the span of the patch"
    assert [n.span.path for n in listed.items] == [BASE, display(v)], "each name keeps its own span"
    assert plain(at(t, "options", "board", "choices")) == ["hex6"]
    compiled = compile_file(v)
    assert [r.name for r in compiled.ruleset.phases[0].actions] == ["prospect", "skip"]


@pytest.mark.parametrize(("body", "line", "message", "hint"), [
    ("phases:\n  turn:\n    actions-: [turn_bak]\n", 3, "`turn_bak` is not in `phases.turn.actions`",
     "did you mean `turn_back`?"),
    ("phases:\n  turn:\n    actions+: [prospect]\n", 3, "`prospect` is already in `phases.turn.actions`",
     "it was put there at rules/china-cornett/base.yaml:"),
    ("phases:\n  turn:\n    actoins+: [dig]\n", 3, "no list `phases.turn.actoins` to append to",
     "did you mean `actions`?"),
    ("phases:\n  turn:\n    start+: [roll = 0]\n", 3, "`phases.turn.start` is an effect: it is replaced whole",
     "write `start:`"),
    ("phases:\n  turn:\n    when_stuck+: [end]\n", 3, "`phases.turn.when_stuck` is not a list", None),
    ("phases:\n  turn:\n    actions: [prospect]\n    actions-: [turn_back]\n", 4,
     "`phases.turn.actions` is both replaced and patched here", None),
])
def test_list_patch_errors(tmp_path: Path, body: str, line: int, message: str, hint: str | None) -> None:
    v = write(tmp_path, "v.yaml", "extends: china-cornett\n" + body)
    (d,) = resolve_problems(v)
    assert d.span.path == display(v) and d.span.line == line + 1  # (after the line `extends:`)
    assert d.message.startswith(message), d.message
    if hint is not None:
        assert d.hint is not None and d.hint.startswith(hint), d.hint


def test_merge_of_two_trees_without_files(tmp_path: Path) -> None:
    base = load("base.yaml", "a: 1\nm: {x: [p, q], y: 2}\n")
    patch = load("v.yaml", "extends: base\nm: {x-: [p], x+: [r], y: ~}\nb: 3\n")
    out = merge.merge(base, patch)
    assert plain(out) == {"a": 1, "m": {"x": ["q", "r"]}, "b": 3}
    assert out.span.path == "v.yaml"
    with pytest.raises(merge.MergeError) as caught:
        merge.merge(base, load("v.yaml", "m: {z: ~}\n"))
    (d,) = caught.value.diagnostics
    assert (d.span.line, d.span.col) == (1, 5) and d.message == "nothing named `z` in `m` to remove"


def test_a_new_component_is_checked_like_a_patch(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", """
        extends: china-cornett
        triggers:
          bonus:
            at: turn_end
            when: ~
            effect: [pass]
        """)
    (d,) = resolve_problems(v)
    assert d.message == "nothing named `when` in `triggers.bonus` to remove" and d.span.line == 5


# -- stacking ----------------------------------------------------------------------------------
def two_variants(tmp_path: Path, a_body: str, b_body: str) -> tuple[Path, Path, Path]:
    a = write(tmp_path, "a.yaml", "extends: china-cornett\n" + textwrap.dedent(a_body))
    b = write(tmp_path, "b.yaml", "extends: china-cornett\n" + textwrap.dedent(b_body))
    ab = write(tmp_path, "ab.yaml", "extends: [a.yaml, b.yaml]\n")
    return a, b, ab


def test_stacked_variants_apply_both_and_the_shared_base_once(tmp_path: Path) -> None:
    _, _, ab = two_variants(
        tmp_path,
        "options:\n  sector_collector: {default: owner}\nactions:\n  turn_back:\n    when: \"tablets and roll > 1\"\n",
        "options:\n  reduction_reading: {default: none_left}\ntriggers:\n  third_reduction: ~\n"
        "actions:\n  turn_back:\n    when: \"tablets and roll > 1\"\n",  # the same value: no conflict
    )
    r = resolve(ab)
    assert [f.name for f in r.files] == ["base.yaml", "a.yaml", "b.yaml", "ab.yaml"]
    assert plain(at(r.tree, "options", "sector_collector", "default")) == "owner"
    assert plain(at(r.tree, "options", "reduction_reading", "default")) == "none_left"
    assert "third_reduction" not in at(r.tree, "triggers").keys()  # type: ignore[union-attr]
    assert r.variant == "ab"
    compile_file(ab)


def test_two_stacked_variants_changing_one_rule_is_a_conflict_naming_both(tmp_path: Path) -> None:
    a, b, ab = two_variants(
        tmp_path,
        "actions:\n  turn_back:\n    when: \"tablets and roll > 1\"\n",
        "actions:\n  turn_back:\n    when: \"tablets and roll > 2\"\n",
    )
    (d,) = resolve_problems(ab)
    assert (d.span.path, d.span.line, d.span.col) == (display(a), 4, 11)
    assert d.message == (f"`actions.turn_back.when` is changed by both {display(a)}:4:11 and {display(b)}:4:11")
    assert d.hint == (f"`extends:` at {display(ab)}:1:10 uses both: set `actions.turn_back.when` in {display(ab)} "
                      "to choose, or drop one of them")
    rendered = d.render()
    assert rendered.startswith(f"{display(a)}:4:11: error: `actions.turn_back.when` is changed by both")


def test_the_stacking_file_settles_a_conflict_by_setting_the_rule(tmp_path: Path) -> None:
    _, _, ab = two_variants(
        tmp_path,
        "actions:\n  turn_back:\n    when: \"tablets and roll > 1\"\n",
        "actions:\n  turn_back:\n    when: \"tablets and roll > 2\"\n",
    )
    ab.write_text("extends: [a.yaml, b.yaml]\nactions:\n  turn_back:\n    when: \"tablets and roll > 3\"\n")
    when = at(tree(ab), "actions", "turn_back", "when")
    assert plain(when) == "tablets and roll > 3" and when.span.path == display(ab)


def test_removing_what_another_stacked_variant_changes_is_a_conflict(tmp_path: Path) -> None:
    a, b, ab = two_variants(
        tmp_path,
        "triggers:\n  third_reduction:\n    when: \"false\"\n",
        "triggers:\n  third_reduction: ~\n",
    )
    (d,) = resolve_problems(ab)
    assert d.span.path == display(a) and d.span.line == 4
    assert d.message == f"`triggers.third_reduction` is changed by {display(a)}:4:5 and removed by {display(b)}:3:3"
    ba = write(tmp_path, "ba.yaml", "extends: [b.yaml, a.yaml]\n")
    (d,) = resolve_problems(ba)
    assert d.span.path == display(b) and d.span.line == 3
    assert d.message == f"`triggers.third_reduction` is removed by {display(b)}:3:3 and changed by {display(a)}:3:3"


def test_the_stacking_file_settles_a_removal_conflict_by_removing(tmp_path: Path) -> None:
    _, _, ab = two_variants(
        tmp_path,
        "triggers:\n  third_reduction:\n    when: \"false\"\n",
        "triggers:\n  third_reduction: ~\n",
    )
    ab.write_text("extends: [a.yaml, b.yaml]\ntriggers:\n  third_reduction: ~\n")
    assert "third_reduction" not in at(tree(ab), "triggers").keys()  # type: ignore[union-attr]
    again = write(tmp_path, "again.yaml", "extends: b.yaml\ntriggers:\n  third_reduction: ~\n")
    assert "third_reduction" not in at(tree(again), "triggers").keys(), "removing twice is no error"  # type: ignore[union-attr]


def test_list_patches_of_stacked_variants_compose(tmp_path: Path) -> None:
    a, b, ab = two_variants(
        tmp_path,
        "phases:\n  turn:\n    actions-: [turn_back]\nactions:\n  turn_back: ~\n",
        "phases:\n  turn:\n    actions-: [turn_back]\nactions:\n  turn_back: ~\n",
    )
    assert plain(at(tree(ab), "phases", "turn", "actions")) == ["prospect"], "both take it out: they agree"
    a.write_text("extends: china-cornett\nphases:\n  turn:\n    actions+: [skip]\n"
                 "actions:\n  skip: {text: skip, effect: [pass]}\n")
    b.write_text("extends: china-cornett\nphases:\n  turn:\n    actions-: [skip]\n")
    (d,) = resolve_problems(ab)
    assert d.message == (f"`phases.turn.actions`: `skip` is added by {display(a)}:4:16 and removed by "
                         f"{display(b)}:4:16")


def test_incompatible_variants_cannot_be_stacked(tmp_path: Path) -> None:
    a, b, ab = two_variants(tmp_path, "incompatible: [b.yaml]\n", "title: China B\n")
    (d,) = resolve_problems(ab)
    assert (d.span.path, d.span.line, d.span.col) == (display(a), 2, 16)
    assert display(a) in d.message and display(b) in d.message
    assert "declares them incompatible" in d.message
    assert d.hint == f"`extends:` at {display(ab)}:1:10 uses both; remove one of them from `extends:`"
    one = write(tmp_path, "one.yaml", "extends: b.yaml\nincompatible: b.yaml\n")
    (d,) = resolve_problems(one)
    assert d.span.line == 2, "extending a rule set one declares incompatible is refused too"
    assert resolve(a).variant == "a", "on its own, a variant with `incompatible:` resolves"


def test_incompatible_must_name_a_rule_set(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", "extends: china-cornett\nincompatible: [china-cornett/no-such]\n")
    (d,) = resolve_problems(v)
    assert d.span.line == 2 and "no such rule set" in d.message


def test_a_stack_of_many_variants_is_checked_by_the_merge_module_alone() -> None:
    base = merge.Layer("b.yaml", "b", load("b.yaml", "x: 1\ny: {z: [p]}\n"))
    one = merge.Layer("1.yaml", "one", load("1.yaml", "x: 2\n"), ("b.yaml",))
    two = merge.Layer("2.yaml", "two", load("2.yaml", "x: 3\ny: {z+: [q]}\n"), ("b.yaml",))
    with pytest.raises(merge.MergeError) as caught:
        merge.stack(base, [one, two])
    (d,) = caught.value.diagnostics
    assert d.message == "`x` is changed by both 1.yaml:1:4 and 2.yaml:1:4"
    top = merge.Layer("3.yaml", "three", load("3.yaml", "x: 4\n"), ("b.yaml", "1.yaml", "2.yaml"))
    out = merge.stack(base, [one, two, top])
    assert plain(out) == {"x": 4, "y": {"z": ["p", "q"]}}


def test_setup_plus_appends_a_variants_own_preparation() -> None:
    base = load("base.yaml", "setup:\n  - a = 1\n  - b = 2\n")
    out = merge.merge(base, load("v.yaml", "setup+:\n  - c = 3\n"))
    assert plain(out) == {"setup": ["a = 1", "b = 2", "c = 3"]}
    with pytest.raises(merge.MergeError) as caught:
        merge.merge(base, load("v.yaml", "setup-:\n  - a = 1\n"))
    (d,) = caught.value.diagnostics
    assert "replaced whole" in d.message
