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
FIRES = ["chang-cheng", "chang-cheng/two-player", "china-schacht/bonus-tiles", "china-schacht/fortifications",
         "china-schacht/fortifications-bonus-tiles"]
PATHS = dict(bundled_rulesets())
MOVES = 120  # moves checked a game at most


def players(game: rulewright.Game) -> int:
    return 3 if 3 in game.info.players else game.info.players[0]


def tables(state: Any) -> list[str]:
    return sorted(s for cls in type(state).__mro__ for s in getattr(cls, "__slots__", ()) if s.startswith("_counts__"))


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
    again._fields_set()  # (the tables made afresh from the fields)
    for slot in names:
        assert getattr(state, slot) == getattr(again, slot), f"{where}: {slot} is not its recomputation"
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


@pytest.mark.parametrize("ruleset", FIRES)
def test_the_rule_sets_where_it_fires_play_as_without_it(ruleset: str) -> None:
    on = rulewright.load_rules(PATHS[ruleset])
    off = rulewright.load_rules(PATHS[ruleset], passes=passes.ALL - {"keep_counts"})
    moves = sum(play_in_lockstep(on, off, players(on), seed) for seed in range(4))
    assert moves > 40


def test_what_the_pass_takes_in_chang_cheng() -> None:
    program = passes.optimise(check_file(ruleset_file("chang-cheng")).typed)
    assert [(k.slot, k.region, [p.name for p in k.params], k.fields) for k in program.kept_counts] == [
        ("_counts__0", True, [], ("block_at",)),
        ("_counts__1", True, ["q"], ("block_at", "builder")),
        ("_counts__2", True, [], ("block_at",))]
    assert sorted(d.name for d in served("chang-cheng")) == ["full", "held", "sections"]


def test_what_the_scores_and_invariants_alone_read_is_not_kept() -> None:
    # Chang Cheng's `mongol_held` and `tower_in` are read by the scores only (through `attacked`), its
    # sections_conserved count by an invariant, Othello's `discs(p)` by its scores and returns: each is
    # computed once a game, or in checks, where a table would be kept at every write
    program = passes.optimise(check_file(ruleset_file("chang-cheng")).typed)
    texts = [k.key for k in program.kept_counts]
    assert len(texts) == 3 and not any("ruin" in k for k in texts), texts  # (`mongol_wall(s)` reads ruins)
    assert passes.optimise(check_file(ruleset_file("othello")).typed).kept_counts == ()


def test_the_pass_costs_nothing_where_it_does_not_apply() -> None:
    program = check_file(ruleset_file("hex")).typed
    from rulewright.compiler.analysis import Facts
    from rulewright.compiler.passes import keep_counts
    assert keep_counts.run(program, Facts(program, passes.ALL)) is program
