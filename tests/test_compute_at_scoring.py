"""Pass `compute_at_scoring` (docs/optimiser.md): a definition only the scores read, each of its values asked
once per player scored, is not kept between moves. What is found and what must not be, and games
played in lockstep with and without the pass, their scores asked mid-game, of
a copy and of a restored state too; every rule set is held to the plain code, this pass alone
too, by tests/test_optimiser.py. The code written is the golden of tests/passes/compute_at_scoring.yaml
(tests/test_pass_goldens.py)."""

from __future__ import annotations

import random

import pytest

import rulewright
from rulewright.compiler import passes
from rulewright.core.paths import ruleset_file
from tests.helpers.compiled import typed
from tests.helpers.lockstep import play_in_lockstep


def found(ruleset: str, enabled: frozenset[str] = passes.ALL) -> tuple[str, ...]:
    return tuple(d.name for d in passes.optimise(typed(ruleset), enabled).defines if d.unkept == "compute_at_scoring")


def test_what_is_found() -> None:
    # China (Schacht): the alliances and the road chains, read by the scores alone, for the player scored
    assert found("china-schacht") == ("leads_emissaries", "alliance_points", "chains_of", "chain_points")
    kept = {d.name for d in passes.optimise(typed("china-schacht")).defines if d.kept is not None}
    # not: province_points(p, r), which an effect asks too (a province scored as its last space is
    # filled); emissaries_of(q, r), asked of every owner (and a count that `keep_derived` keeps no more)
    assert "province_points" in kept and not kept & set(found("china-schacht")) and "emissaries_of" not in kept
    # bonus tiles: most_tiles(player, c) for each colour (tiles_of(q, c), of every player, is no loop kept)
    assert found("china-schacht/bonus-tiles")[-1] == "most_tiles"
    # Chang Cheng: tower_in(p, m) and attacked(p, m), asked for each Mongol region of the player's
    # score; not mongol_held(q, m), asked of every owner by each player's attacked(p, m), nor
    # mongol_loss(p), which the term calls twice (once in each branch of its `if`)
    assert found("chang-cheng") == ("tower_in", "attacked")
    # Diplomacy: provinces_walled(q) for every player, in each player's score: kept
    assert "provinces_walled" not in found("chang-cheng/diplomacy")
    # Domination: longest_line(p); not own_sections(p), which longest_line asks twice
    assert found("chang-cheng/domination") == ("tower_in", "attacked", "longest_line")
    # Yellow & Yangtze: level(p) is asked by spread(p) in loops that do not read it, and spread and
    # tie_key by the tie-break (asked twice of each seat tied): all kept
    assert found("yellow-yangtze") == ()
    # without `keep_derived` nothing is kept, and the pass decides nothing
    assert found("china-schacht", passes.ALL - {"keep_derived"}) == ()



@pytest.mark.parametrize("ruleset", ["china-schacht", "china-schacht/fortifications", "chang-cheng/domination"])
def test_games_in_lockstep_with_and_without_the_pass(ruleset: str) -> None:
    path = ruleset_file(ruleset)
    on, off = rulewright.load_rules(path), rulewright.load_rules(path, passes=passes.ALL - {"compute_at_scoring"})
    for seed in range(4):
        play_in_lockstep(on, off, 3, seed)


def test_the_scores_mid_game_of_a_copy_and_of_a_restored_state() -> None:
    """Nothing is kept for the scores: asked at any move, of the state, of a copy, again after more
    moves and of a state restored from its saved form, they are those of the code with the pass off."""
    path = ruleset_file("china-schacht")
    on, off = rulewright.load_rules(path), rulewright.load_rules(path, passes=passes.ALL - {"compute_at_scoring"})
    for seed in range(3):
        a, b = on.new_state(3, seed), off.new_state(3, seed)
        chooser = random.Random(seed)
        while not a.terminal:
            if a.moves % 7 == 0:
                terms = [b.score_terms(p) for p in range(3)]
                assert [a.score_terms(p) for p in range(3)] == terms
                assert [a.clone().score_terms(p) for p in range(3)] == terms
                restored = on.state_from_json(a.to_json())
                assert [restored.score_terms(p) for p in range(3)] == terms and restored.scores() == a.scores()
            k = chooser.randrange(len(a.legal_actions()))
            a.play(k)
            b.play(k)
        assert a.scores() == b.scores() and a.winners() == b.winners()
