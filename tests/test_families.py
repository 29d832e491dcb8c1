"""Families of variants (`family:`, compiler/merge.py `families`, docs/variants.md "Families of
variants"): Chang Cheng's rulebook allows at most two of its four event cards in one game
(« les joueurs décident d'en choisir ou d'en piocher jusqu'à 2 »). A member declares
`family: {name: NAME, at_most: N}`; a stack holding more than N members is refused at the
`extends:` that stacks them, unless a file of the stack declares `family: {name: NAME, draws: N}`
(its rules draw among them). The variants here are small files in tmp_path extending china-cornett,
each adding one scoring term so that it is a real variant."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulewright.cli import cli
from rulewright.compiler.diff import diff, load_ruleset
from rulewright.compiler.resolve import ResolveError, resolve
from rulewright.core.paths import display
from rulewright.core.source import Diagnostic

CARDS = ("diplomacy", "domination", "recognition", "watchers")
MEMBER = """\
extends: china-cornett
family: {{name: event-cards, at_most: {at_most}, quote: "jusqu'à 2"}}
scoring:
  {name}: "0"
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def cards(folder: Path, at_most: int = 2) -> list[Path]:
    """The four members of the family `event-cards`, each with its own scoring term."""
    return [write(folder, f"{c}.yaml", MEMBER.format(at_most=at_most, name=c)) for c in CARDS]


def problems(path: Path) -> list[Diagnostic]:
    with pytest.raises(ResolveError) as caught:
        resolve(path)
    return caught.value.diagnostics


def check(path: Path) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(cli, ["check", str(path)])
    return result.exit_code, result.output, result.exception


def test_one_or_two_members_may_be_used(tmp_path: Path) -> None:
    one, two, *_ = cards(tmp_path)
    assert "diplomacy" in resolve(one).tree.get("scoring").keys()  # type: ignore[union-attr]
    both = write(tmp_path, "both.yaml", "extends: [diplomacy.yaml, domination.yaml]\n")
    scoring = resolve(both).tree.get("scoring")
    assert scoring is not None and {"diplomacy", "domination"} <= set(scoring.keys())  # type: ignore[union-attr]
    code, output, _ = check(both)
    assert code == 0, output
    assert resolve(both).tree.get("family") is None, "`family:` belongs to its file: it never merges"


def test_three_members_are_refused_at_the_extends_that_stacks_them(tmp_path: Path) -> None:
    first, second, third, _ = cards(tmp_path)
    three = write(tmp_path, "three.yaml",
                  "title: three\nextends: [diplomacy.yaml, domination.yaml, recognition.yaml]\n")
    (d,) = problems(three)
    assert (d.span.path, d.span.line, d.span.col) == (display(three), 2, 10)
    labels = ", ".join(display(p) for p in (first, second, third))
    assert d.message == (f"`extends:` stacks 3 variants of the family `event-cards`: {labels}; "
                         "at most 2 may be used together")
    assert d.hint == (f"the limit (`at_most: 2`) is declared at {display(first)}:2:38; remove one of them from "
                      "`extends:`, or, in a file whose rules draw among them, declare "
                      "`family: {name: event-cards, draws: 2}`")
    code, output, exception = check(three)
    assert code == 1 and isinstance(exception, SystemExit), output
    assert "Traceback" not in output
    assert f"{display(three)}:2:10: error: `extends:` stacks 3 variants of the family `event-cards`" in output


def test_four_members_are_refused_with_how_many_to_remove(tmp_path: Path) -> None:
    cards(tmp_path)
    four = write(tmp_path, "four.yaml", f"extends: [{', '.join(c + '.yaml' for c in CARDS)}]\n")
    (d,) = problems(four)
    assert "stacks 4 variants" in d.message and d.hint is not None and "remove 2 of them" in d.hint


def test_a_file_that_draws_among_them_may_stack_all_four(tmp_path: Path) -> None:
    cards(tmp_path)
    drawn = write(tmp_path, "drawn.yaml", f"""
        extends: [{', '.join(c + '.yaml' for c in CARDS)}]
        family: {{name: event-cards, draws: 2, doc: "two of the four are drawn at setup"}}
        """)
    scoring = resolve(drawn).tree.get("scoring")
    assert scoring is not None and set(CARDS) <= set(scoring.keys())  # type: ignore[union-attr]
    code, output, _ = check(drawn)
    assert code == 0, output
    mine = write(tmp_path, "mine.yaml", "extends: drawn.yaml\ntitle: Mine\n")
    assert resolve(mine).variant == "mine", "a variant of the drawing file keeps its `draws:`"


def test_a_variant_of_a_two_stack_adding_a_third_member_is_refused(tmp_path: Path) -> None:
    cards(tmp_path)
    write(tmp_path, "pair.yaml", "extends: [diplomacy.yaml, domination.yaml]\n")
    resolve(tmp_path / "pair.yaml")
    more = write(tmp_path, "more.yaml", "extends: [pair.yaml, watchers.yaml]\n")
    (d,) = problems(more)
    assert (d.span.path, d.span.line, d.span.col) == (display(more), 1, 10)
    assert "stacks 3 variants of the family `event-cards`" in d.message
    assert display(tmp_path / "watchers.yaml") in d.message
    # A file that is no member, extending one member, is one member.
    plus = write(tmp_path, "plus.yaml", "extends: watchers.yaml\ntitle: more watchers\n")
    write(tmp_path, "pair-plus.yaml", "extends: [plus.yaml, watchers.yaml, diplomacy.yaml]\n")
    assert resolve(plus).variant == "plus"
    assert resolve(tmp_path / "pair-plus.yaml").variant == "pair-plus", "watchers counts once"


def test_members_must_agree_on_the_limit(tmp_path: Path) -> None:
    first, second, *_ = cards(tmp_path)
    write(tmp_path, "domination.yaml", MEMBER.format(at_most=3, name="domination"))
    both = write(tmp_path, "both.yaml", "extends: [diplomacy.yaml, domination.yaml]\n")
    (d,) = problems(both)
    assert (d.span.path, d.span.line, d.span.col) == (display(second), 2, 38)
    assert d.message == (f"{display(second)} says at most 3 variants of the family `event-cards` may be used "
                         f"together, but {display(first)} says 2")
    assert d.hint == f"every member of a family states the same `at_most:` (the other at {display(first)}:2:38)"


def test_draws_above_the_limit_or_for_no_family_below_is_refused(tmp_path: Path) -> None:
    first, *_ = cards(tmp_path)
    greedy = write(tmp_path, "greedy.yaml", "extends: [diplomacy.yaml, domination.yaml, watchers.yaml]\n"
                                            "family: {name: event-cards, draws: 3}\n")
    (d,) = problems(greedy)
    assert (d.span.line, d.span.col) == (2, 36)
    assert d.message == (f"{display(greedy)} draws 3 variants of the family `event-cards`, but at most 2 may be "
                         "used together")
    assert d.hint == f"the limit (`at_most: 2`) is declared at {display(first)}:2:38; draw at most 2"
    typo = write(tmp_path, "typo.yaml", "extends: diplomacy.yaml\nfamily: {name: event-card, draws: 1}\n")
    (d,) = problems(typo)
    assert (d.span.line, d.span.col) == (2, 16)
    assert d.message == (f"{display(typo)} draws among the family `event-card`, but no rule set it builds on "
                         "is a member of it")
    assert d.hint == "did you mean `event-cards`?"
    alone = write(tmp_path, "alone.yaml", "extends: china-cornett\nfamily: {name: event-cards, draws: 2}\n")
    (d,) = problems(alone)
    assert "no rule set it builds on is a member of it" in d.message
    assert d.hint is not None and "`draws:` goes in a file that extends the members" in d.hint


@pytest.mark.parametrize(("family", "col", "message"), [
    ("{name: event-cards, at_most: 0}", 38, "`at_most:` must be a whole number of at least 1, not 0"),
    ("{name: event-cards, at_most: -1}", 38, "`at_most:` must be a whole number of at least 1, not -1"),
    ("{name: event-cards, at_most: 1.5}", 38, "`at_most:` must be a whole number of at least 1, not 1.5"),
    ("{name: event-cards, at_most: true}", 38, "`at_most:` must be a whole number of at least 1, not true"),
    ("{name: event-cards, at_most: ~}", 38, "`at_most:` must be a whole number of at least 1, not nothing"),
    ("{name: event-cards, at_most: [2]}", 38, "`at_most:` must be a whole number of at least 1, not a list"),
    ("{name: event-cards, draws: two}", 36, "`draws:` must be a whole number of at least 1, not 'two'"),
    ("{name: event-cards, at_most: 2, draws: 2}", 41, "`family:` takes `at_most:` or `draws:`, not both"),
    ("{name: event-cards}", 9, "`family:` needs `at_most: N` or `draws: N`"),
    ("{at_most: 2}", 9, "`family:` needs a `name:`"),
    ("{name: Event Cards, at_most: 2}", 16, "a family's `name:` is a lowercase name, like `event-cards`"),
    ("{name: event-cards, at_most: 2, doc: [a]}", 46, "`family:` `doc:` must be text"),
    ("event-cards", 9, "`family:` takes a mapping, or a list of them"),
    ("[{name: x, at_most: 1}, {name: x, draws: 1}]", 40, "the family `x` is declared twice here"),
])
def test_malformed_declarations_are_refused(tmp_path: Path, family: str, col: int, message: str) -> None:
    v = write(tmp_path, "v.yaml", f"extends: china-cornett\nfamily: {family}\n")
    (d,) = problems(v)
    assert (d.span.path, d.span.line, d.span.col, d.message) == (display(v), 2, col, message)
    code, output, exception = check(v)
    assert code == 1 and isinstance(exception, SystemExit) and "Traceback" not in output, output


def test_an_unknown_key_has_a_did_you_mean(tmp_path: Path) -> None:
    v = write(tmp_path, "v.yaml", "extends: china-cornett\nfamily: {name: event-cards, at_mots: 2}\n")
    (d,) = problems(v)
    assert (d.span.line, d.span.col, d.message) == (2, 29, "unknown key `at_mots` in `family:`")
    assert d.hint == "did you mean `at_most`?"


def test_a_file_may_belong_to_several_families(tmp_path: Path) -> None:
    cards(tmp_path)
    write(tmp_path, "seasons.yaml", """
        extends: china-cornett
        family:
          - {name: seasons, at_most: 1}
          - {name: event-cards, at_most: 2}
        """)
    write(tmp_path, "winter.yaml", "extends: china-cornett\nfamily: {name: seasons, at_most: 1}\n")
    fine = write(tmp_path, "fine.yaml", "extends: [seasons.yaml, diplomacy.yaml]\n")
    assert resolve(fine).variant == "fine"
    bad = write(tmp_path, "bad.yaml", "extends: [seasons.yaml, winter.yaml, diplomacy.yaml, domination.yaml]\n")
    found = [d.message.partition(": ")[0] for d in problems(bad)]
    assert found == ["`extends:` stacks 2 variants of the family `seasons`",
                     "`extends:` stacks 3 variants of the family `event-cards`"]


def test_diff_does_not_list_family(tmp_path: Path) -> None:
    """`family:` is the file's own, like `incompatible:`: no rule changes with it."""
    plain = write(tmp_path, "plain.yaml", "extends: china-cornett\nscoring:\n  diplomacy: \"0\"\n")
    member = write(tmp_path, "member.yaml", MEMBER.format(at_most=2, name="diplomacy"))
    assert diff(load_ruleset(plain), load_ruleset(member)) == []
    changes = diff(load_ruleset("china-cornett"), load_ruleset(member))
    assert [c.path for c in changes] == ["scoring.diplomacy"]
    result = CliRunner().invoke(cli, ["diff", str(plain), str(member)])
    assert result.exit_code == 0 and result.output.endswith(": the same rules\n"), result.output
