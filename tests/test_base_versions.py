"""`base(...)`: a variant's new definition or scoring term in terms of the version it replaces
(issue 18; docs/variants.md, "Using what a variant replaces").

tests/variants/doubled.yaml counts China (Cornett)'s alignments and points twice, each written
with `base(...)`. Doubled alignments fall to the reduction limit of the default reading (at most
one) only at none: so its games are the base game's under `reduction_reading: none_left`, move
for move, with every score exactly doubled. The errors are in tests/broken/base_*.yaml
(test_diagnostics.py checks each at its line and column); how `base(...)` parses is in
test_parse.py."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import driver, names, passes
from rulewright.compiler import resolve as resolve_module
from rulewright.compiler.diff import diff, load_ruleset
from rulewright.compiler.driver import compile_file
from rulewright.compiler.resolve import resolve
from rulewright.core import paths
from rulewright.core.paths import ruleset_file
from rulewright.core.source import CompileError
from rulewright.runtime.state import Game, State
from tests.helpers.cli import run
from tests.helpers.lockstep import play_in_lockstep

HERE = Path(__file__).parent
DOUBLED = HERE / "variants" / "doubled.yaml"
SEEDS = range(4)


def base_game(reading: str = "none_left") -> tuple[Game, dict[str, str]]:
    return rulewright.load("china-cornett"), {"reduction_reading": reading}


def played(a: Game, b: Game, seed: int, options: dict[str, str], check: object = None,
           players: int = 2) -> tuple[State, State]:
    """One seeded random game of `a` (the base, under `options`) and `b` (a variant, its default
    options) in lockstep: the same seats, legal actions and fields after every move."""
    sa, sb = a.new_state(players, seed, options), b.new_state(players, seed)
    chooser = random.Random(seed)
    while not sa.is_terminal():
        assert not sb.is_terminal() and sa.to_act() == sb.to_act()
        la, lb = sa.legal_actions(), sb.legal_actions()
        assert [str(x) for x in la] == [str(x) for x in lb], f"seed {seed}, move {sa.moves}"
        if callable(check):
            check(sa, sb)
        k = chooser.randrange(len(la))
        sa.apply(la[k])
        sb.apply(lb[k])
        assert sa.to_json()["fields"] == sb.to_json()["fields"], f"seed {seed}, move {sa.moves}"
    assert sb.is_terminal()
    return sa, sb


def positions(game: Game, seed: int, options: dict[str, str]) -> list[object]:
    """The fields after every move of a seeded random game."""
    state, chooser, out = game.new_state(2, seed, options), random.Random(seed), []
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[chooser.randrange(len(actions))])
        out.append(state.to_json()["fields"])
    return out


# -- a variant that doubles a definition and a scoring term ------------------------------------
def test_doubled_plays_the_none_left_games_with_every_score_doubled() -> None:
    base, options = base_game()
    doubled = rulewright.load_rules(DOUBLED)

    def doubles(sa: State, sb: State) -> None:
        for n in (3, 4, 5):
            assert sb.alignments(n) == 2 * sa.alignments(n)

    for seed in SEEDS:
        sa, sb = played(base, doubled, seed, options, doubles)
        assert sb.scores() == [2 * x for x in sa.scores()] and sa.scores() != [0, 0]
        assert sb.winners() == sa.winners()
        assert sb.score_terms(0) == {"gold": 2 * sa.score_terms(0)["gold"]}


def test_doubled_differs_from_the_base_under_its_own_reading() -> None:
    """Under the default reading the base reduces the tablets at one alignment left, the variant
    at none: the same seeds play other games."""
    base, doubled = rulewright.load("china-cornett"), rulewright.load_rules(DOUBLED)
    for seed in SEEDS:
        assert positions(base, seed, {}) != positions(doubled, seed, {})


def test_no_member_of_a_state_is_spelled_as_a_version_is() -> None:
    """`_base_<name>`, `_base2_<name>`, `_term_base_<name>`: no member of the runtime's state or of
    the template starts so (compiler/names.py), nor any other member a rule file's name makes."""
    assert not [m for m in names.STATE_MEMBERS if m.startswith(("_base", "_term_base"))]
    patterns = [p for kind in names.MEMBER_PATTERNS.values() for p in kind]
    assert not [p for p in patterns if p.startswith(("_base", "_term_base"))]
    assert [names.base_version(s, "rent", k) for s in ("define", "scoring") for k in (1, 2)] == [
        "_base__rent", "_base2__rent", "_term_base__rent", "_term_base2__rent"]


def test_the_versions_are_methods_named_and_commented_after_the_base_file() -> None:
    source = compile_file(DOUBLED).source
    assert ("    def _base__alignments(self, n: int) -> int:\n        # rules/china-cornett/base.yaml:153; definition "
            "`alignments` as it was before a variant replaced it: `base(alignments(...))`\n") in source
    assert ("    def _term_base__gold(self, player: int) -> int:\n        # rules/china-cornett/base.yaml:248; scoring "
            "term `gold` as it was before a variant replaced it: `base(gold)`\n") in source
    assert "return (2 * self._base__alignments(n))  # doubled.yaml:6" in source


def test_a_bundled_variant_module_keeps_its_versions_in_its_subclass(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """As a bundled variant, its module subclasses the base's and holds the versions it uses
    (compiler/inherit.py); it plays the games the whole module plays."""
    rules = tmp_path / "rules"
    (rules / "china-cornett").mkdir(parents=True)
    shutil.copy(ruleset_file("china-cornett"), rules / "china-cornett" / "base.yaml")
    shutil.copy(DOUBLED, rules / "china-cornett" / "doubled.yaml")
    for module in (paths, driver, resolve_module):
        monkeypatch.setattr(module, "rules_dir", lambda: rules)
    shared = [c for c in driver.share_bases([compile_file(rules / "china-cornett" / "doubled.yaml")])
              if c.ruleset.variant == "doubled"]
    source = shared[0].source
    assert "class ChinaCornettDoubledState(ChinaCornettState):" in source
    assert "    def _base__alignments(self, n: int) -> int:\n" in source and "def _term_base__gold(" in source
    derived = rulewright.game_from_source(source, "doubled.yaml")
    whole = rulewright.load_rules(DOUBLED)
    for seed in SEEDS[:2]:
        sa, sb = played(whole, derived, seed, {})
        assert sb.scores() == sa.scores()


def test_the_passes_treat_a_version_as_a_definition() -> None:
    """Every pass, and each alone, against none: the same games (tests/test_optimiser.py)."""
    plain = rulewright.load_rules(DOUBLED, passes=frozenset())
    for k, seed in enumerate(SEEDS):
        play_in_lockstep(rulewright.load_rules(DOUBLED), plain, 2, 100 + seed)
        for name in passes.PASSES if k == 0 else ():
            play_in_lockstep(rulewright.load_rules(DOUBLED, passes=frozenset({name})), plain, 2, 200 + seed)


# Versions that change nothing, where the passes do most: Chang Cheng's `held` and `mongol_loss`
# are kept between moves by pass `keep_derived` (each with parameters), `partial_allowed` is cached.
SAME = """extends: chang-cheng
define:
  held: "base(held(q, r))"
  partial_allowed: {value: "base(partial_allowed(p))"}   # (still `cached: true`, and so is its version)
  mongol_loss: "base(mongol_loss(p)) + 0"
scoring:
  mongols: "base(mongols)"
"""


def test_versions_that_change_nothing_play_the_base_games_under_every_pass(tmp_path: Path) -> None:
    same = write(tmp_path / "same.yaml", SAME)
    source = compile_file(same).source
    assert "    _d___base__held: dict[tuple[int, int], int] | None\n" in source, "kept by pass `keep_derived`"
    # (asked by `mongol_loss(p)`, a sum not kept itself: kept, though only the scores read it, pass
    # `compute_at_scoring`)
    assert "    _d___base__mongol_loss: dict[int, int] | None\n" in source
    assert "    def _base__partial_allowed(self, p: int) -> bool:\n" in source
    base = rulewright.load("chang-cheng")
    for k, enabled in enumerate([passes.ALL, frozenset(), *(frozenset({name}) for name in passes.PASSES)]):
        game = rulewright.load_rules(same, passes=enabled)
        for seed in range(4 if k < 2 else 1):
            sa, sb = played(base, game, 300 + seed, {}, players=3 + (seed + k) % 2)
            assert sb.scores() == sa.scores() and sb.score_terms(0) == sa.score_terms(0)


# -- chains, stacks, and what replaces a version -----------------------------------------------
def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_variant_of_the_variant_uses_the_version_its_own_base_gives(tmp_path: Path) -> None:
    """`base(...)` in a grandchild is the child's version, which itself uses the base's."""
    grandchild = write(tmp_path / "plus-one.yaml", f"extends: {DOUBLED}\ndefine:\n"
                       '  alignments: "base(alignments(n)) + 1"\n  reduction_limit: "base(reduction_limit()) + 1"\n'
                       'scoring:\n  gold: "base(gold) + 1"\n')
    source = compile_file(grandchild).source
    assert "def _base__alignments(" in source and "def _base2__alignments(" in source
    assert "def _term_base__gold(" in source and "def _term_base2__gold(" in source
    game = rulewright.load_rules(grandchild)
    base, options = base_game()

    def counted(sa: State, sb: State) -> None:
        assert sb.alignments(4) == 2 * sa.alignments(4) + 1
        assert sb.reduction_limit() == 2  # (1 under the default reading)

    # 2a + 1 <= 2 just when a == 0: the base game under `none_left` again
    sa, sb = played(base, game, 7, options, counted)
    assert sb.scores() == [2 * x + 1 for x in sa.scores()]
    plain = rulewright.load_rules(grandchild, passes=frozenset())
    play_in_lockstep(game, plain, 2, 7)


def test_a_change_of_cached_alone_keeps_the_version(tmp_path: Path) -> None:
    write(tmp_path / "child.yaml", 'extends: china-cornett\ndefine:\n'
          '  reduction_limit: {value: "base(reduction_limit) + 1"}\n')
    grandchild = write(tmp_path / "cached.yaml", "extends: child.yaml\ndefine:\n  reduction_limit: {cached: true}\n")
    merged = resolve(grandchild).merged
    assert merged is not None and len(merged.versions[("define", "reduction_limit")]) == 1
    state = rulewright.load_rules(grandchild).new_state(2, 1)
    assert state.reduction_limit() == 2  # (1 + 1: the same version)
    same = write(tmp_path / "same.yaml", 'extends: child.yaml\ndefine:\n'
                 '  reduction_limit: "base(reduction_limit) + 1"\n')
    assert rulewright.load_rules(same).new_state(2, 1).reduction_limit() == 2, "the same rule written again"
    again = write(tmp_path / "again.yaml", 'extends: child.yaml\ndefine:\n'
                  '  reduction_limit: "1 + base(reduction_limit)"\n')
    assert rulewright.load_rules(again).new_state(2, 1).reduction_limit() == 3, "a new one: the child's, plus one"


def test_stacked_variants_that_agree_double_once(tmp_path: Path) -> None:
    """Two stacked variants that both write `2 * base(gold)` agree on one rule: doubled once."""
    write(tmp_path / "a.yaml", 'extends: china-cornett\nscoring:\n  gold: "2 * base(gold)"\n')
    write(tmp_path / "b.yaml", 'extends: china-cornett\nscoring:\n  gold: "2 * base(gold)"\n'
          "options:\n  sector_collector: {default: owner}\n")
    both = write(tmp_path / "both.yaml", "extends: [a.yaml, b.yaml]\n")
    state = rulewright.load_rules(both).new_state(2, 1)
    state.gold = [5, 3]
    assert state.scores() == [10, 6]


def test_removed_and_added_again_replaces_nothing(tmp_path: Path) -> None:
    write(tmp_path / "gone.yaml", "extends: china-cornett\nscoring:\n  gold: ~\n  tablets_left: \"len(tablets)\"\n")
    back = write(tmp_path / "back.yaml", 'extends: gone.yaml\nscoring:\n  gold: "2 * base(gold)"\n')
    with pytest.raises(CompileError) as failed:
        compile_file(back)
    assert [d.render().splitlines()[0] for d in failed.value.diagnostics] == [
        f"{back}:3:14: error: `base(...)`: there is no earlier `gold` to use: {back} adds it, and the rule set it "
        "extends has no scoring term `gold`"]


def test_a_cycle_through_a_version_is_refused(tmp_path: Path) -> None:
    """The base's `alignments` uses `face_down_spots`; a new `face_down_spots` that uses
    `alignments` closes a loop through the version."""
    loop = write(tmp_path / "loop.yaml", 'extends: china-cornett\ndefine:\n  alignments: "base(alignments(n))"\n'
                 '  face_down_spots: "[s for s in spots if alignments(1) > 0]"\n')
    with pytest.raises(CompileError) as failed:
        compile_file(loop)
    first = failed.value.diagnostics[0].render().splitlines()[0]
    assert first == (f"{loop}:4:3: error: definition `face_down_spots` uses itself: face_down_spots -> alignments "
                     "-> base(alignments) -> face_down_spots")


# -- diff and variant new ----------------------------------------------------------------------
def test_diff_shows_what_base_is() -> None:
    result = run("diff", "china-cornett", str(DOUBLED))
    assert result.exit_code == 1
    assert result.stdout.endswith(
        "  ~ define.alignments  (tests/variants/doubled.yaml:6)\n"
        "      was:\n        alignments(n: int): len(straight_lines(n, face_down_spots))\n"
        "      now:\n        alignments(n: int): 2 * base(alignments(n))\n"
        "      where base(alignments(...)) is alignments(n: int): len(straight_lines(n, face_down_spots))  "
        "(rules/china-cornett/base.yaml:153)\n"
        "  ~ scoring.gold: gold[player] -> 2 * base(gold)  (tests/variants/doubled.yaml:8)\n"
        "      where base(gold) is gold[player]  (rules/china-cornett/base.yaml:248)\n")
    data = json.loads(run("diff", "--json", "china-cornett", str(DOUBLED)).stdout)
    assert data["changes"][1] == {"kind": "changed", "path": "scoring.gold", "old": "gold[player]",
                                  "new": "2 * base(gold)", "where": "tests/variants/doubled.yaml:8",
                                  "uses": [{"base": "base(gold)", "is": "gold[player]",
                                            "where": "rules/china-cornett/base.yaml:248"}]}


def test_diff_of_the_same_text_over_another_version_is_a_change(tmp_path: Path) -> None:
    """Two variants writing `base(gold) + 1` over different versions of `gold` differ."""
    write(tmp_path / "double.yaml", 'extends: china-cornett\nscoring:\n  gold: "2 * base(gold)"\n')
    one = write(tmp_path / "one.yaml", 'extends: china-cornett\nscoring:\n  gold: "base(gold) + 1"\n')
    two = write(tmp_path / "two.yaml", 'extends: double.yaml\nscoring:\n  gold: "base(gold) + 1"\n')
    changes = diff(load_ruleset(one), load_ruleset(two))
    assert [(c.path, c.old, c.new) for c in changes] == [("scoring.gold", "base(gold) + 1", "base(gold) + 1")]
    assert [(label, value) for label, value, _ in changes[0].uses] == [("base(gold)", "2 * base(gold)"),
                                                                       ("base(gold)", "gold[player]")]
