"""The limits of one move (runtime/limits.py, docs/language.md "Limits"): a rule file that would
hang a game or eat memory, or divide by zero, stops the game with a clear game error naming the
rule line and the limit; `simulate` counts it as an error, `play` prints it as one message.

Each hostile rule file in tests/hostile/budgets/ is played here; its expected error is below.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import driver
from rulewright.core.paths import display
from rulewright.core.source import CompileError
from rulewright.match import BatchSpec, play_game, run_batch
from rulewright.runtime.errors import GameError, RulewrightError
from tests.helpers.cli import run

HOSTILE = Path(__file__).parent / "hostile" / "budgets"

STEPS = ("more than 1,000,000 steps of work in one move, the limit (loop rounds, choices listed and items of lists "
         "handled)")


def items(n: str) -> str:
    return f"a list of {n} items, more than the limit of 100,000 items a list, set or range may hold"


def number(n: str) -> str:
    return f"the number {n} is larger than the limit of whole numbers (±9,223,372,036,854,775,807, 64 bits)"


# file: (the text of the rule line the error names, the error)
EXPECTED = {
    "choice-range": ('n: "range(0, 1000000000000)"', items("1,000,000,000,000")),
    "effect-loop": ("- for k in range(0, 1000000000000):", items("1,000,000,000,000")),
    "while-true": ("- while true:", STEPS),  # (no bound proven: each round charged as it runs)
    "nested-loops": ("- for j in range(0, 50000):", STEPS),
    "nested-choices": ('a: "range(0, 1000)"', STEPS),
    "many-actions": ("  play:", "160,000 legal actions, more than the limit of 100,000 for one decision"),
    "doubling-list": ("- pile = pile + pile", items("131,072")),
    "squaring": ("- x = x * x", number("18,446,744,073,709,551,616")),
    "doubling-number": ("- x += x", number("9,223,372,036,854,775,808")),
    "division-by-zero": ("- tally = 10 // zero", "division by zero (10 // 0)"),
    "modulo-by-zero": ("- tally = (tally + 7) % zero", "modulo by zero (7 % 0)"),
    # d15 is the first whose proven work (3 * 2**15 calls) passes what a rule may do unchecked
    # (50,000 steps): it charges its work as it starts, and the 32 calls of it from d20 do not fit.
    "define-fan-out": ('"d15(x: int)"', STEPS),
    "nested-list-work": ('"matches(a: list(int), b: list(int))"', STEPS),
    "dense-roads": ('end: "len(road_chains(spots, 3, false)) > 100"',
                    "the longest road chain: more than 1,000,000 paths searched in one move, the limit of a "
                    "move's work (a network with this many forks is too dense for road_chains)"),
    "dense-roads-best": ('end: "len(road_chains_best(spots, 3, [])) > 100"',
                         "the best cut into road chains: more than 1,000,000 paths searched in one move, the "
                         "limit of a move's work (a network with this many forks is too dense for "
                         "road_chains_best)"),
    "subset-choice": ('some: "subsets(pool, 0, 40)"', "1,099,511,627,776 subsets, more than the limit of 100,000 "
                                                      "items a list, set or range may hold"),
    "passed-far": ("passed(spots[0], 1000000000000)", "1,000,000,000,000 items, more than the limit of 100,000 items "
                                                      "a list may hold"),
}


def where(name: str) -> str:
    """The `file:line` a game error names: the line holding the rule's text."""
    path = HOSTILE / f"{name}.yaml"
    marker = EXPECTED[name][0]
    (line,) = [i for i, text in enumerate(path.read_text().splitlines(), 1) if marker in text]
    return f"{display(path)}:{line}"


def game_error(name: str) -> str:
    return f"{where(name)}: game error: {EXPECTED[name][1]}"


def test_the_corpus_is_tested() -> None:
    played = {p.stem for p in HOSTILE.glob("*.yaml") if not p.stem.startswith("refused-")}
    assert played == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_hostile_rule_stops_the_game_with_a_game_error(name: str) -> None:
    game = rulewright.load_rules(HOSTILE / f"{name}.yaml")
    result = play_game(game, 2, 1)
    assert result.error == f"GameError: {game_error(name)}"
    assert result.moves == 0 and not result.finished
    assert play_game(game, 2, 1).error == result.error  # the same game, the same error


def test_the_error_is_raised_where_the_rule_runs() -> None:
    state = rulewright.load_rules(HOSTILE / "choice-range.yaml").new_state(2, 5)
    with pytest.raises(GameError) as caught:
        state.legal_actions()
    assert isinstance(caught.value, RulewrightError)
    assert str(caught.value) == game_error("choice-range")
    assert (caught.value.where, caught.value.problem) == (where("choice-range"), EXPECTED["choice-range"][1])
    again = pickle.loads(pickle.dumps(caught.value))  # (a worker process sends it back)
    assert str(again) == str(caught.value)

    state = rulewright.load_rules(HOSTILE / "division-by-zero.yaml").new_state(2, 5)
    with pytest.raises(GameError, match=r"division by zero \(10 // 0\)"):
        state.apply("go")
    assert state.moves == 1  # (the move had begun: a game error ends the game, it is not an illegal action)


@pytest.mark.parametrize("name, at, message", [
    ("refused-big-number", "24:18", "a number larger than the limit of whole numbers, 9,223,372,036,854,775,807 "
                                    "(64 bits)"),
    ("refused-heavy-attribute", "19:16", "attribute `weight` of `tile` may take more work to compute than a move "
                                         "may do (1,000,000 steps for all 10,000)"),
])
def test_limits_the_checker_can_see_are_refused_when_compiling(name: str, at: str, message: str) -> None:
    path = HOSTILE / f"{name}.yaml"
    with pytest.raises(CompileError) as caught:
        driver.compile_file(path)
    assert [(str(d.span), d.message) for d in caught.value.diagnostics] == [(f"{display(path)}:{at}", message)]


def test_simulate_counts_a_game_error_as_an_error_and_exits_1() -> None:
    path = HOSTILE / "choice-range.yaml"
    result = run("simulate", str(path), "-n", "3", "--workers", "2")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("rulewright: error: 3 games raised an exception; the first, game 0 (seed ")
    assert lines[0].endswith(f"): GameError: {game_error('choice-range')}")
    assert "Traceback" not in result.output
    results = list(run_batch(BatchSpec(str(path), 2, 0, {}), 2, 1))
    assert [r.error for r in results] == [f"GameError: {game_error('choice-range')}"] * 2


def test_play_prints_the_game_error_as_one_message() -> None:
    result = run("play", str(HOSTILE / "squaring.yaml"), "--seat", "1=random", "--seed", "3")
    assert result.exit_code == 1
    assert result.stderr == f"rulewright: error: the game stopped at move 1 (seed 3): {game_error('squaring')}\n"
    assert "Traceback" not in result.output

    result = run("play", str(HOSTILE / "choice-range.yaml"), "--seat", "1=random", "--seed", "3")
    assert result.exit_code == 1
    assert result.stderr == f"rulewright: error: the game stopped at move 1 (seed 3): {game_error('choice-range')}\n"


def test_a_game_error_while_setting_up_is_one_message_too(tmp_path: Path) -> None:
    text = (HOSTILE / "division-by-zero.yaml").read_text()
    path = tmp_path / "setup-by-zero.yaml"
    path.write_text(text.replace("phases:", "setup:\n  - tally = 1 // zero\n\nphases:", 1))
    line = path.read_text().splitlines().index("  - tally = 1 // zero") + 1
    result = run("play", str(path), "--seed", "4")
    assert result.exit_code == 1
    assert result.stderr == (f"rulewright: error: the game stopped before its first move: {display(path)}:{line}: "
                             "game error: division by zero (1 // 0)\n")


# -- what needs no check, and what does --------------------------------------------------------
GAME = """rulewright: 1
game: sizes
title: Sizes
players: 2
enums:
  colour: [red, blue, green]
boards:
  small:
    hexagon: 2
state:
  owner: {per: spot, type: "list(player)", init: "[]"}
  pile: {type: "list(int)", init: "[]"}
  tally: {type: int, init: 0}
define:
  "owned_by(p: player)": "count(p in owner[s] for s in spots)"
  "piled(x: int)": "count(y == x for y in pile)"
phases:
  play:
    actions: [take]
actions:
  take:
    choose:
      spot: "[s for s in spots if not owner[s]]"
    text: "take {spot}"
    effect:
      - owner[spot] = [current]
      - pile = pile + [tally]
      - tally = tally // len(colour) + tally % 2 + tally // DIVISOR
end: "tally > 5 or owned_by(current) > 3 or piled(7) > 0"
scoring:
  points: "owned_by(player)"
"""


def compiled(tmp_path: Path, divisor: str = "2") -> str:
    path = tmp_path / "sizes.yaml"
    path.write_text(GAME.replace("DIVISOR", divisor))
    return driver.compile_file(path).source


def test_code_proven_within_the_limits_has_no_check(tmp_path: Path) -> None:
    source = compiled(tmp_path)
    # `owner[s]` is only ever `[]` or `[current]`: a search in it needs no check; nor does a loop
    # over the board's spots; nor a division by a number or by the size of an enumeration
    assert "def owned_by(self, p: int) -> int:\n        # " in source
    owned_by = source.split("def owned_by", 1)[1].split("\n\n", 1)[0]
    assert "rt." not in owned_by
    assert "rt.div" not in source and "rt.mod" not in source
    # `pile` grows: a definition that reads it checks, as it starts, that it is still small ...
    piled = source.split("def piled", 1)[1].split("\n\n", 1)[0]
    assert "        if len(self.pile) > 16:\n            rt.grown(self, " in piled
    # ... and the effect that copies it copies a short list at once, and counts a longer one, by a
    # statement of its own before the effect's line
    assert ("        if len(self.pile) > 16:\n            rt.walk(self, self.pile, 1, " in source
            and "        self.pile = (*self.pile, " in source)
    # a fresh budget where the runtime enters code that is checked (this action's effect), not elsewhere
    do_take = source.split("def _do__take", 1)[1].split("    def ", 1)[0]
    assert do_take.splitlines()[2].strip() == \
        "self._budget = rt.MAX_STEPS  # a move: a fresh budget of work (runtime/limits.py `new_move`, written out)"
    assert "rt.new_move" not in source.split("def _legal(self)", 1)[1].split("    def _guard", 1)[0]
    assert "self._budget = " not in source.split("def _legal(self)", 1)[1].split("    def _guard", 1)[0]
    # (an action made is charged to what the board keeps, `rt.made`: no check of the move's limits)
    take = source.split("def _legal__take", 1)[1].split("    def ", 1)[0]
    assert "rt." not in take.replace("rt.Action", "").replace("rt.made(self.board, rt.ACTION + 1)", "")


def test_a_divisor_that_may_be_zero_is_checked(tmp_path: Path) -> None:
    source = compiled(tmp_path, divisor="tally")
    line = GAME.splitlines().index("      - tally = tally // len(colour) + tally % 2 + tally // DIVISOR") + 1
    assert f"rt.div(self.tally, self.tally, {display(tmp_path / 'sizes.yaml') + ':' + str(line)!r})" in source


def test_the_bundled_china_cornett_needs_no_check_at_all() -> None:
    source = driver.compile_file(Path(rulewright.core.paths.rules_dir()) / "china-cornett" / "base.yaml").source
    for check in ("rt.walk", "rt.spend", "rt.grown", "rt.num", "rt.div", "rt.mod", "rt.new_move"):
        assert check not in source


def test_a_game_that_fits_plays_move_after_move(tmp_path: Path) -> None:
    """Each move has a budget of its own: two moves of 600,000 steps each both fit, on a state
    and on its clone, and lists longer than those taken for small only cost more."""
    text = (HOSTILE / "nested-loops.yaml").read_text().replace("50000", "600", 1).replace("50000", "500", 1)
    text = text.replace("state:\n", 'state:\n  pile: {type: "list(int)", init: "[k for k in range(0, 2000)]"}\n')
    text = text.replace('    text: go\n', '    text: go\n    when: "count(x == 7 for x in pile) == 1"\n')
    text = text.replace('end: "tally >= 3"', 'end: "tally >= 10000000"')
    path = tmp_path / "busy.yaml"
    path.write_text(text)
    state = rulewright.load_rules(path).new_state(2, 1)
    state.apply("go")
    copy = state.clone()
    state.apply("go")
    copy.apply("go")
    assert getattr(state, "tally") == getattr(copy, "tally") == 600_000  # noqa: B009 (a field of the rules)


def test_moves_without_effects_have_a_budget_of_their_own(tmp_path: Path) -> None:
    """A player who can only pass runs no effect, but the end is checked (here at some 130,000
    steps each time, its list far longer than taken for small): each check has its budget."""
    text = (HOSTILE / "nested-loops.yaml").read_text()
    text = text.replace("state:\n", 'state:\n  pile: {type: "list(int)", init: "[k for k in range(0, 60000)]"}\n')
    text = text.replace("    text: go\n", '    text: go\n    when: "tally < 0"\n')
    text = text.replace('end: "tally >= 3"', "triggers:\n  tick: {at: turn_end, effect: [tally += 1]}\n\n"
                                             'end: "count(x == -1 for x in pile) > 0 or tally >= 12"')
    path = tmp_path / "passing.yaml"
    path.write_text(text)
    result = play_game(rulewright.load_rules(path), 2, 1)
    assert (result.error, result.finished, result.moves) == (None, True, 12)


# -- the checks themselves -----------------------------------------------------------------------
class Held:
    """A stand-in for a state: the checks keep the budget of its move in `_budget`."""

    __slots__ = ("_budget",)


def test_the_budget_is_the_states_own() -> None:
    a, b = Held(), Held()
    rt.new_move(a)
    rt.new_move(b)
    rt.walk(a, range(90_000), 10, "x.yaml:1")
    rt.walk(b, range(90_000), 10, "x.yaml:2")  # another state's move: its own budget
    with pytest.raises(GameError, match=r"^x\.yaml:3: game error: more than 1,000,000 steps"):
        rt.spend(a, 100_001, "x.yaml:3")
    rt.new_move(a)
    assert rt.spend(a, 100_001, "x.yaml:4") is True
    fresh = Held()  # no move begun (a clone): a fresh budget
    assert rt.walk(fresh, [1, 2], 5, "x.yaml:5") == [1, 2]


def test_the_checks_name_the_rule_and_the_limit() -> None:
    held = Held()
    rt.new_move(held)
    with pytest.raises(GameError, match=r"^r\.yaml:7: game error: a list of 100,001 items, more than the limit"):
        rt.walk(held, range(100_001), 1, "r.yaml:7")
    with pytest.raises(GameError, match=r"^r\.yaml:8: game error: a list of more than 9,223,372,036,854,775,807 items"):
        rt.walk(held, range(2**70), 1, "r.yaml:8")  # (longer than len() can say)
    assert rt.num(-(2**63 - 1), "r.yaml:9") == -(2**63 - 1)
    with pytest.raises(GameError, match=r"the number -9,223,372,036,854,775,808 is larger than the limit"):
        rt.num(-(2**63), "r.yaml:9")
    with pytest.raises(GameError, match=r"^r\.yaml:9: game error: a number of 1,001 bits is larger than the limit"):
        rt.num(2**1000, "r.yaml:9")
    assert rt.div(-7, 2, "r.yaml:10") == -4 and rt.mod(-7, 2, "r.yaml:10") == 1  # Python's floor division
    with pytest.raises(GameError, match=r"^r\.yaml:11: game error: 2,000,000 legal actions"):
        rt.too_many_actions(2_000_000, "r.yaml:11")
    assert rt.grown(held, 10, 2, ([1] * 16,), "r.yaml:12") is True  # no longer than taken for small: 10 steps
    rt.new_move(held)
    with pytest.raises(GameError, match="more than 1,000,000 steps"):
        rt.grown(held, 1_000, 2, ([1] * 800,), "r.yaml:13")  # 50 times longer, in two nested operations: 2,500,000
    with pytest.raises(GameError, match=r"^r\.yaml:14: game error: 1,000,000,000,000 items"):
        rt.upto(held, 10**12, "r.yaml:14")
