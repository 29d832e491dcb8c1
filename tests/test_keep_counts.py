"""The pass `keep_counts` (docs/optimiser.md): counts, sums, `any` and `all` of a test of the spots of
the board or of a region, kept per region and per value of the locals the test reads, adjusted at
each write of a field it reads. Every table a compiled game keeps equals the table made afresh from
the fields after every move of seeded games, on copies, on saved states read back and on the state a
waiting move began in; every definition it serves gives the plain code's value for every argument;
and the rule sets where it fires play as they do without it."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.compiler import typed as t
from rulewright.compiler.driver import check_file
from rulewright.core.paths import bundled_rulesets, ruleset_file
from tests.helpers.lockstep import play_in_lockstep

# the bundled rule sets where the pass fires (their modules keep a table), with a count of players
FIRES = ["china-schacht/bonus-tiles", "china-schacht/fortifications-bonus-tiles"]
PATHS = dict(bundled_rulesets())
MOVES = 120  # moves checked a game at most
CHECKED: dict[str, int] = {}  # how many times each table was compared, not stale


def players(game: rulewright.Game) -> int:
    return 3 if 3 in game.info.players else game.info.players[0]


def tables(state: Any) -> list[str]:
    """The slots of the tables a state keeps (in dir(): a native state has no `__slots__`)."""
    return sorted(s for s in dir(state) if s.startswith("_counts__"))


def served(ruleset: str) -> list[t.Define]:
    """The definitions whose value is read from a table (their body a comprehension the pass marked)."""
    program = passes.optimise(check_file(PATHS[ruleset]).typed)
    return [d for d in program.defines if isinstance(d.body, t.Comprehension) and d.body.kept_count]


def arguments(state: Any, d: t.Define) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for p in d.params:
        n = len(state.board.region_spots) if p.ty.name == "region" else state.num_seats
        assert p.ty.name in ("region", "player"), (d.name, p.ty)
        out = [(*a, v) for a in out for v in range(n)]
    return out


def assert_exact(state: Any, plain: Any, names: list[str], defines: list[t.Define], where: str) -> None:
    again = state.clone()
    again._fields_set()  # (the tables stale: made afresh from the fields where read)
    for slot in names:
        kept = getattr(state, slot)
        assert getattr(again, slot) is None
        if kept is not None:  # (a table stale is made again where it is first read)
            CHECKED[slot] = CHECKED.get(slot, 0) + 1
            assert kept == getattr(again, "_re" + slot[1:])(), f"{where}: {slot} is not its recomputation"
    if plain is None:
        return
    walked = plain.state_from_json(state.to_json())
    for d in defines:
        for args in arguments(state, d):
            assert getattr(state, d.name)(*args) == getattr(walked, d.name)(*args), f"{where}: {d.name}{args}"


@pytest.mark.parametrize("ruleset", FIRES)
def test_every_table_is_its_recomputation_after_every_move_copy_save_and_wait(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    plain = rulewright.load_rules(PATHS[ruleset], passes=frozenset())
    defines = served(ruleset)  # (fortifications' is a part of `empty(r)`: its table alone is checked)
    count = players(game)
    names = tables(game.new_state(count, 0))
    CHECKED.clear()
    assert names, f"{ruleset}: no table kept"
    waited = 0
    for seed in range(2):
        state: Any = game.new_state(count, seed)
        chooser = random.Random(seed)
        assert_exact(state, plain, names, defines, f"seed {seed}, setup")
        while not state.is_terminal() and state.moves < MOVES:
            fresh = getattr(state, "_pending", None) is None
            state.apply(chooser.choice(state.legal_actions()))
            where = f"seed {seed}, move {state.moves}"
            assert_exact(state, plain if state.moves % 4 == 0 else None, names, defines, where)
            assert_exact(state.clone(), None, names, defines, f"{where}, copy")
            if state.moves % 10 == 0:
                assert_exact(game.state_from_json(state.to_json()), None, names, defines, f"{where}, saved")
            if fresh and getattr(state, "_pending", None) is not None:  # a move waiting: the state it began in
                waited += 1
                assert_exact(state._pending.before, None, names, defines, f"{where}, as the waiting move began")
    if game.state_class.JOURNAL:
        assert waited > 0, ruleset
    assert all(CHECKED.get(slot, 0) > 0 for slot in names), CHECKED


@pytest.mark.parametrize("ruleset", FIRES)
def test_the_rule_sets_where_it_fires_play_as_without_it(ruleset: str) -> None:
    on = rulewright.load_rules(PATHS[ruleset])
    off = rulewright.load_rules(PATHS[ruleset], passes=passes.ALL - {"keep_counts"})
    moves = sum(play_in_lockstep(on, off, players(on), seed) for seed in range(4))
    assert moves > 40


def test_what_the_pass_takes_in_the_bonus_tiles() -> None:
    program = passes.optimise(check_file(PATHS["china-schacht/bonus-tiles"]).typed)
    assert [(k.slot, k.region, k.params, k.fields) for k in program.kept_counts] == [
        ("_counts__0", True, (), ("covered",))]
    assert [d.name for d in served("china-schacht/bonus-tiles")] == ["face_down_in"]


def test_what_effects_scores_and_invariants_alone_read_is_not_kept() -> None:
    # Chang Cheng's `held`, `sections` and `full` are asked as a province is scored (effects), `mongol_held` and
    # `tower_in` by the scores, the sections_conserved counts by an invariant, Othello's `discs(p)` by its scores
    # and returns: each as often as a rule runs, where a table adjusted at every write costs more than the walks
    for name in ("chang-cheng", "chang-cheng/two-player", "othello", "china-schacht/fortifications"):
        assert passes.optimise(check_file(PATHS[name]).typed).kept_counts == (), name
    # (their forms are ones it takes: only where they are asked keeps them out)
    from rulewright.compiler.passes import keep_counts
    program = passes.optimise(check_file(PATHS["chang-cheng"]).typed)
    defines = {d.name: d for d in program.defines}
    for name in ("held", "sections", "full"):
        body = defines[name].body
        assert isinstance(body, t.Comprehension)
        assert keep_counts.form(body, defines, keep_counts.sizes(program)) is not None, name


def test_the_pass_costs_nothing_where_it_does_not_apply() -> None:
    program = check_file(ruleset_file("hex")).typed
    from rulewright.compiler.analysis import Facts
    from rulewright.compiler.passes import keep_counts
    assert keep_counts.run(program, Facts(program, passes.ALL)) is program


CASE = PATHS["chang-cheng"].parents[2] / "tests" / "passes" / "keep_counts.yaml"


def test_every_form_of_the_case_plays_as_the_plain_code_and_keeps_its_tables_exact() -> None:
    # tests/passes/keep_counts.yaml: a count per region and player grouped by a field, a sum per region, an `all`
    # over the board; writes at one spot (`=`, `+=`) and at an index computed (the tables made again)
    optimised, plain = rulewright.load_rules(CASE), rulewright.load_rules(CASE, passes=frozenset())
    moves = sum(play_in_lockstep(optimised, plain, 2, seed) for seed in range(20))
    assert moves > 100
    state: Any = optimised.new_state(2, 0)
    names = tables(state)
    assert names == ["_counts__0", "_counts__1", "_counts__2"]
    CHECKED.clear()
    chooser = random.Random(0)
    while not state.is_terminal():
        state.apply(chooser.choice(state.legal_actions()))
        assert_exact(state, plain, names, [], f"move {state.moves}")
        walked = plain.state_from_json(state.to_json())
        for g in range(len(state.board.region_spots)):  # (every garden's, asked or not)
            assert state.height_of(g) == walked.height_of(g)
            assert [state.tall(p, g) for p in range(2)] == [walked.tall(p, g) for p in range(2)]
