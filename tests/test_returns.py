"""Declared returns (`returns:`, docs/language.md "Returns"): each seat's return once the game is
over, checked against its `sum:` and `range:`; `winners()` by them; the rule sets declaring none
keep the winners' share; a variant replaces or removes them; the bridges' returns, utility kind
and bounds, and `simulate`'s mean returns follow them. The game is tests/games/chip-duel.yaml: a
duel of one card for chips, whose returns are -3 to 3 and 0 each in a draw.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rulewright
from rulewright.match import Summary, play_game
from rulewright.runtime import GameError
from rulewright.runtime.state import State, utilities
from tests.helpers.compiled import method

GAMES = Path(__file__).parent / "games"
DUEL = GAMES / "chip-duel.yaml"


def finished(game: Any, seed: int) -> State:
    """A random game of `game` played to its end."""
    state: State = game.new_state(2, seed)
    choose = random.Random(seed)
    while not state.is_terminal():
        assert state.returns() == [0.0, 0.0]  # (nothing is won while the game goes on)
        state.apply(choose.choice(state.legal_actions()))
    return state


def variant(tmp_path: Path, returns: str, name: str = "duel-variant") -> Path:
    """A variant of the chip duel whose `returns:` is the YAML `returns`."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"rulewright: 1\nextends: {DUEL}\n{returns}\n", encoding="utf-8")
    return path


def test_declared_returns_are_chips_and_decide_the_winners() -> None:
    game = rulewright.load(str(DUEL))
    seen: set[tuple[float, ...]] = set()
    for seed in range(60):
        state = finished(game, seed)
        returns = state.returns()
        declared = state.declared_returns()
        assert returns == [float(r) for r in declared] and sum(declared) == 0
        assert all(-3 <= r <= 3 for r in declared)
        best = max(declared)
        expected = [] if declared[0] == declared[1] else [p for p in (0, 1) if declared[p] == best]
        assert state.winners() == expected
        assert state.scores() == [state.score_terms(p)["stake"] for p in (0, 1)]  # (scores stay `scoring:`'s)
        seen.add(tuple(returns))
    assert (0.0, 0.0) in seen  # a draw: nobody wins
    assert any(abs(r) > 1 for rs in seen for r in rs)  # chips, not only ±1


def test_a_rule_set_without_returns_keeps_the_winners_share() -> None:
    game = rulewright.load(str(GAMES / "ring-race.yaml"))
    assert not game.state_class.RETURNS
    for seed in range(3):
        state = finished(game, seed)
        assert state.winners() and state.returns() == utilities(state.winners(), 2)
        with pytest.raises(rulewright.RulewrightError, match="declares no `returns:`"):
            state.declared_returns()


def test_a_bundled_module_says_nothing_of_returns_unless_its_rules_declare_them() -> None:
    # (a rule set without `returns:` emits nothing new: the five rulebook games' modules are as
    # before; the classics that declare returns say so, and only they)
    import re

    from rulewright.core.paths import rules_dir

    generated = Path(rulewright.__file__).parent / "generated"
    declaring = set()
    for rules in sorted(Path(rules_dir()).glob("*/base.yaml")):
        declares = re.search(r"^returns:", rules.read_text(encoding="utf-8"), re.M) is not None
        module = generated / rules.parent.name.replace("-", "_") / "base.py"
        assert ("RETURNS" in module.read_text(encoding="utf-8")) == declares, rules
        if declares:
            declaring.add(rules.parent.name)
    assert declaring == {"backgammon", "connect-four", "leduc-poker", "oshi-zumo", "othello"}


def test_the_generated_method_names_its_rule_line() -> None:
    from rulewright.compiler.driver import compile_file

    lines = DUEL.read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if text.startswith("  value: "))
    source = compile_file(DUEL).source
    body = method(source, "_returns")
    assert f"chip-duel.yaml:{line}: the return of `player` once the game is over" in body
    assert "RETURNS_SUM: ClassVar[int | None] = 0" in source


def test_a_broken_sum_or_range_is_a_game_error_at_the_line_of_returns(tmp_path: Path) -> None:
    # (a variant's `returns:` mapping merges onto its base's key by key: the base's `range:` stays)
    for written, problem in (('returns: {value: "stake[player]", sum: 0}', "add up to"),
                             ('returns: {value: "5 + stake[player]", sum: ~}', "within `range:`")):
        path = variant(tmp_path, written)
        game = rulewright.load(str(path))
        state = finished(game, 0)
        with pytest.raises(GameError, match=problem) as caught:
            state.returns()
        assert caught.value.where == f"{path}:3"
        result = play_game(game, 2, 0)  # (simulate counts it as an error, not a result)
        assert result.error is not None and problem in result.error


def test_a_variant_replaces_or_removes_the_returns(tmp_path: Path) -> None:
    won = rulewright.load(str(variant(tmp_path, 'returns: "1 if takes(player) else (-1 if gives(player) else 0)"')))
    gone = rulewright.load(str(variant(tmp_path, "returns: ~", "duel-plain")))
    base = rulewright.load(str(DUEL))
    assert not gone.state_class.RETURNS and won.state_class.RETURNS_SUM is None
    for seed in range(20):
        chips, one, share = finished(base, seed), finished(won, seed), finished(gone, seed)
        assert one.declared_returns() == [(r > 0) - (r < 0) for r in chips.declared_returns()]
        assert share.returns() == utilities(share.winners(), 2)


def test_simulate_reports_mean_returns_where_they_are_declared() -> None:
    duel, race = rulewright.load(str(DUEL)), rulewright.load(str(GAMES / "ring-race.yaml"))
    summary = Summary(str(DUEL), 2, 0, {}, 1000)
    results = [play_game(duel, 2, seed) for seed in range(40)]
    for r in results:
        summary.add(r)
    data = summary.to_json()
    means = [round(sum(r.returns[p] for r in results if r.returns) / 40, 3) for p in (0, 1)]
    assert data["returns_mean_by_seat"] == means and means[0] == -means[1]
    assert data["draws"] == sum(1 for r in results if not r.winners) > 0
    plain = Summary("ring-race", 2, 0, {}, 1000)
    plain.add(play_game(race, 2, 0))
    assert "returns_mean_by_seat" not in plain.to_json()


def test_openspiel_game_of_declared_returns(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel has no wheel for this interpreter")
    from rulewright.interop import openspiel

    game = openspiel.game(str(DUEL))
    kind = game.get_type()
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-3.0, 3.0, 0.0)
    # the cards are drawn from a set of numbers, {1, 2, 3}: three chance outcomes
    assert game.max_chance_outcomes() == 3
    assert game.new_initial_state().chance_outcomes() == [(k, pytest.approx(1 / 3)) for k in range(3)]
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    returns = set()
    for seed in range(30):
        state, choose = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choose.choices(outcomes, chances)[0])
            else:
                state.apply_action(choose.choice(state.legal_actions()))
        returns.add(tuple(state.returns()))
    assert any(abs(r) > 1 for rs in returns for r in rs) and all(sum(rs) == 0 for rs in returns)
    general = openspiel.game(str(variant(tmp_path, 'returns: "stake[other(player)] if takes(player) else 0"',
                                         "duel-general")))
    assert general.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert general.utility_sum() is None and general.max_utility() == float(2**63 - 1)
    constant = openspiel.game(str(variant(tmp_path, 'returns: {value: "stake[player]", sum: 4}', "duel-four")))
    assert constant.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and constant.utility_sum() == 4.0


def test_pettingzoo_rewards_are_the_declared_returns() -> None:
    pytest.importorskip("pettingzoo", reason="pettingzoo cannot be installed for this interpreter")
    from rulewright.interop import pettingzoo

    env = pettingzoo.env(str(DUEL))
    assert (env.utility, env.utility_sum, env.reward_range) == ("zero_sum", 0.0, (-3.0, 3.0))
    seen = set()
    for seed in range(12):
        env.reset(seed=seed)
        choose, rewards = random.Random(seed), {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                rewards[agent] = reward
                env.step(None)
                continue
            env.step(choose.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        final = env.position.state
        assert final is not None and [rewards["player_0"], rewards["player_1"]] == final.returns()
        seen.add(tuple(final.returns()))
    assert any(abs(r) > 1 for rs in seen for r in rs)


def test_play_announces_the_returns_and_a_draw(capsys: pytest.CaptureFixture[str]) -> None:
    from rulewright.commands.play import announce_end

    game = rulewright.load(str(DUEL))
    ends = {tuple(s.declared_returns()): s for s in (finished(game, seed) for seed in range(30))}
    draw = ends.pop((0, 0))
    announce_end(draw)
    assert capsys.readouterr().out.splitlines()[1:] == ["returns: P1 (seat1) 0, P2 (seat2) 0", "a draw: nobody wins"]
    (first, second), won = next(iter(ends.items()))
    announce_end(won)
    shown = [f"+{r}" if r > 0 else str(r) for r in (first, second)]
    winner = "P1 (seat1)" if first > second else "P2 (seat2)"
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"returns: P1 (seat1) {shown[0]}, P2 (seat2) {shown[1]}", f"winner: {winner}"]


def test_returns_are_held_to_the_limits_of_a_move(tmp_path: Path) -> None:
    # a list as long as 100,000 items a chip staked: over the limit once a seat stakes two
    game = rulewright.load(str(variant(tmp_path, 'returns: {value: "len([x for x in range(0, stake[player] * 100000)])'
                                                 ' - len([x for x in range(0, stake[other(player)] * 100000)])", '
                                                 'range: ~}')))
    outcomes = set()
    for seed in range(6):
        state = finished(game, seed)
        if max(state.scores()) > 1:
            with pytest.raises(GameError, match="more than the limit of 100,000 items") as caught:
                state.returns()
            assert caught.value.where.endswith("duel-variant.yaml:3")
            outcomes.add("error")
        else:
            assert state.returns() == [0.0, 0.0]
            outcomes.add("within")
    assert outcomes == {"error", "within"}


def test_search_agents_weigh_the_returns_in_their_range(tmp_path: Path) -> None:
    from rulewright.agents.evaluate import rewards

    game = rulewright.load(str(DUEL))
    won = rulewright.load(str(variant(tmp_path, 'returns: "1 if takes(player) else (-1 if gives(player) else 0)"')))
    for seed in range(20):
        chips, one = finished(game, seed), finished(won, seed)
        assert rewards(chips) == [(r + 3) / 6 for r in chips.declared_returns()]  # (range: [-3, 3])
        # no range: the best of the game 1, the worst 0, a draw a half each
        assert rewards(one) == ([0.5, 0.5] if one.winners() == [] else [float(p in one.winners()) for p in (0, 1)])


def test_openspiel_draws_numbers_from_a_set_the_rules_build(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel", reason="open_spiel has no wheel for this interpreter")
    from rulewright.interop import openspiel

    path = variant(tmp_path, "setup:\n  - for p in players:\n    - card[p] = draw(set(n for n in range(1, 4)))",
                   "duel-built")
    game = openspiel.game(str(path))
    # a set the rules build: as many outcomes as a set may hold items (a limit of a move)
    assert game.max_chance_outcomes() == 100_000
    state = game.new_initial_state()
    assert [k for k, _ in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(2)
    state.apply_action(0)
    assert state.position.state is not None and state.position.state.card == [3, 1]


def test_the_web_board_shows_the_returns_once_the_game_is_over() -> None:
    from rulewright.viewer import payload

    game = rulewright.load(str(DUEL))
    state = finished(game, 3)
    shown = payload(state, 0, True)
    assert shown["returns"] == state.declared_returns() and shown["winners"] == [p + 1 for p in state.winners()]
    assert "returns" not in payload(game.new_state(2, 3), 0, True)  # (nothing before the end)


def test_a_scenario_expects_the_returns_and_a_draw(tmp_path: Path) -> None:
    from rulewright import scenarios

    path = tmp_path / "duel.yaml"
    path.write_text(f"""\
ruleset: {DUEL}
names: [Ann, Bob]
scenarios:
  the-higher-card-takes-the-stake:
    position: {{card: {{Ann: 3, Bob: 2}}}}
    steps: [{{Ann: raise 2}}, {{Bob: call}}]
    expect: {{returns: {{Ann: 3, Bob: -3}}, winners: [Ann]}}
  equal-cards-are-a-draw:
    position: {{card: {{Ann: 2, Bob: 2}}}}
    steps: [{{Ann: raise 1}}, {{Bob: call}}]
    expect: {{returns: {{Ann: 0, Bob: 0}}, winners: []}}
  a-wrong-expectation-fails:
    position: {{card: {{Ann: 1, Bob: 2}}}}
    steps: [{{Ann: raise 0}}]
    expect: {{returns: {{Ann: 1}}}}
""", encoding="utf-8")
    found, problems = scenarios.load_file(path)
    assert problems == []
    took, drew, early = (scenarios.run(s) for s in found)
    assert took.passed and drew.passed
    assert not early.passed and "none yet: the game is not over" in early.report()
    plain = tmp_path / "race.yaml"
    plain.write_text(f"ruleset: {GAMES / 'ring-race.yaml'}\nscenarios:\n  x:\n    expect: {{returns: {{P1: 1}}}}\n",
                     encoding="utf-8")
    _, problems = scenarios.load_file(plain)
    assert "declares no `returns:`" in problems[0].render()


def test_explain_lists_the_returns_and_what_they_use() -> None:
    from rulewright.explain import catalogue, load_ruleset, uses

    ruleset = load_ruleset(DUEL)
    (entry,) = [e for e in catalogue(ruleset) if e.kind == "returns"]
    line = next(n for n, text in enumerate(DUEL.read_text(encoding="utf-8").splitlines(), start=1)
                if text.startswith("  value: "))
    assert entry.signature.endswith("; sum: 0; range: [-3, 3]") and entry.where.endswith(f"chip-duel.yaml:{line}")
    assert [u.rule for u in uses(ruleset, "takes")] == ["define.gives", "returns"]
