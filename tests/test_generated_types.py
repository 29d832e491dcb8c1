"""Generated code is `mypy --strict` clean for every rule file the checker accepts, not only for
the bundled ones: every game of tests/games/ (every-construct.yaml uses every construct of the
language) and each rule file of tests/typing/ (the smallest that showed a typing bug of the
lowering) is compiled with `rulewright compile FILE --out DIR`, and one mypy run checks them all.
The games are also played: seeded random games of each, at each player count and option, end."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.runtime import Rng

TESTS = Path(__file__).parent
GAMES = sorted((TESTS / "games").glob("*.yaml"))
TYPING = sorted((TESTS / "typing").glob("*.yaml"))
CLI = Path(sys.executable).with_name("rulewright")
MYPY_LINE = re.compile(r"^(?P<path>[^:\n]+\.py):(?P<line>\d+): (?P<kind>error|note): (?P<message>.*)$", re.M)


def module_name(rule_file: Path) -> str:
    return rule_file.stem.replace("-", "_")


class Compiled:
    """The modules compiled into one folder, and what mypy --strict said of each."""

    def __init__(self, out: Path, errors: dict[str, list[str]], summary: str) -> None:
        self.out = out
        self.errors = errors
        self.summary = summary

    def source(self, rule_file: Path) -> str:
        name = module_name(rule_file)
        return (self.out / name / f"{name}.py").read_text()


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Compiled]:
    out = tmp_path_factory.mktemp("generated")
    files = [*GAMES, *TYPING]
    done = subprocess.run([str(CLI), "compile", *map(str, files), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    modules = sorted(str(p.relative_to(out)) for p in out.rglob("*.py") if p.name != "__init__.py")
    assert len(modules) == len(files), modules
    # One mypy run for every module; its cache is the project's, so a second run is quick.
    cache = TESTS.parent / ".mypy_cache"
    checked = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
                              str(cache), *modules], cwd=out, capture_output=True, text=True, timeout=300)
    errors: dict[str, list[str]] = {m: [] for m in modules}
    for found in MYPY_LINE.finditer(checked.stdout):
        if found["kind"] == "error":
            errors.setdefault(found["path"], []).append(f"{found['line']}: {found['message']}")
    assert checked.returncode in (0, 1) and not checked.stderr.strip(), checked.stderr
    assert (checked.returncode == 0) == (not any(errors.values())), checked.stdout
    yield Compiled(out, errors, checked.stdout)


@pytest.mark.parametrize("rule_file", [*GAMES, *TYPING], ids=lambda p: p.stem)
def test_generated_module_is_mypy_strict_clean(compiled: Compiled, rule_file: Path) -> None:
    name = module_name(rule_file)
    assert compiled.errors[f"{name}/{name}.py"] == []


def random_games(rule_file: Path, seeds: range) -> Iterator[tuple[Any, dict[str, str]]]:
    """Seeded random games of a rule file, played to their end: at its fewest and most players,
    under each choice of each option."""
    game = rulewright.load_rules(rule_file)
    counts = sorted({min(game.info.players), max(game.info.players)})
    settings: list[dict[str, str]] = [{}]
    settings += [{o.name: c} for o in game.info.options for c in o.choices if c != o.default]
    for players in counts:
        for options in settings:
            for seed in seeds:
                state: Any = game.new_state(players=players, seed=seed, options=options)
                agent = Rng(seed)
                moves = 0
                while not state.is_terminal():
                    legal = state.legal_actions()
                    assert legal, f"{rule_file.name}: no legal action (seed {seed})"
                    state.apply(legal[agent.below(len(legal))])
                    moves += 1
                    assert moves < 2_000, f"{rule_file.name}: the game does not end (seed {seed})"
                yield state, options


@pytest.mark.parametrize("rule_file", [*GAMES, *TYPING], ids=lambda p: p.stem)
def test_random_games_end(rule_file: Path) -> None:
    played = 0
    for state, _ in random_games(rule_file, range(4)):
        assert len(state.scores()) == state.num_players
        # (a draw by declared returns, every seat's the same, has no winner: docs/language.md, "Returns")
        assert state.winners() or (state.RETURNS and len(set(state.declared_returns())) == 1)
        for p in range(state.num_players):
            assert isinstance(state.observation(p), dict)
        played += 1
    assert played >= 4


def test_every_construct_is_used() -> None:
    """every-construct.yaml writes each operator, built-in function, aggregate and effect (the ring
    board's `ahead`/`passed` are in ring-race.yaml, the graph board's roads and borders in
    road-network.yaml), each kind of field and each top-level key of docs/language.md."""
    from rulewright.compiler.builtins import AGGREGATES, BUILTINS

    text = "\n".join(p.read_text() for p in GAMES)
    every = (TESTS / "games" / "every-construct.yaml").read_text()
    for name in [*BUILTINS, *AGGREGATES]:
        assert re.search(rf"\b{name}\(", text), f"no test game calls `{name}`"
    for op in [" and ", " or ", "not ", " == ", " != ", " < ", " <= ", " > ", " >= ", " in ", " not in ", " + ",
               " - ", " * ", " // ", " % ", "-roll", " if ", " else ", "[0]", ".weight", " for ", "+= ", "-= ",
               "let ", "goto ", "end_turn", "pass", "- for ", "- if ", "- elif ", "- else:", "'hi'"]:
        assert op in every, f"every-construct.yaml lacks {op!r}"
    for key in ["neutral:", "roles:", "enums:", "options:", "quote:", "hexagon:", "mirror_of:", "rename:",
                "expect:", "dice:", "components:", "attributes:", "state:", "define:", "setup:", "procedures:",
                "phases:", "start:", "actor:", "when_stuck:", "then:",
                "triggers:", "after:", "at: turn_end", "end:", "scoring:", "winner:", "tie_break:",
                "per: spot", "per: player", "per: region", "per: stick", "per: tile", "values:",
                "visible: owner", "visible: none", "visible: size", "shown_if:", "hide_items_if:",
                "type: auction", "type: list(set(spot))", "type: list(list(int))", "type: set(tile)",
                "type: regionkind", "type: mood", "type: reveal", "type: stick", "type: region",
                "type: spot", "type: player", "type: bool"]:
        assert key in every, f"every-construct.yaml lacks {key!r}"


def test_every_construct_plays_its_auction_and_triggers() -> None:
    """The auction runs to its end, the neutral seat is paid, turns are counted by a trigger."""
    sold = False
    for state, _ in random_games(TESTS / "games" / "every-construct.yaml", range(6)):
        assert state.turns >= 1
        sold = sold or state.points[state.num_players] != 0
    assert sold, "no random game sold anything to the neutral seat"


# -- one test per typing bug of the lowering: the smallest rule file that showed it -------------

def test_list_and_bool_is_a_bool(compiled: Compiled) -> None:
    """`marks and len(marks) < 3` gave the (empty) list itself, as a definition typed bool."""
    code = compiled.source(TESTS / "typing" / "list-and-bool.yaml")
    assert "bool(self.marks) and " in code
    assert compiled.errors["list_and_bool/list_and_bool.py"] == []
    state: Any = rulewright.load_rules(TESTS / "typing" / "list-and-bool.yaml").new_state(players=2, seed=1)
    assert state.busy() is False and state.either() is False
    state.apply("mark")
    assert state.busy() is True and state.either() is True


def test_conditions_keep_lists_as_they_are(compiled: Compiled) -> None:
    """Where only the truth of `and`/`or` is used (an `if`, a `when`, the end), lists are not
    converted: the bundled games' guards are unchanged."""
    code = compiled.source(TESTS / "games" / "every-construct.yaml")
    assert "return bool(self.pile or self.bag)" in code  # the guard `when: "pile or bag"`
    assert "return (bool(self.held[p]) or self.flag)" in code  # the definition `held[p] or flag`


def test_tie_break_counting_over_a_checked_list(compiled: Compiled) -> None:
    code = compiled.source(TESTS / "typing" / "tie-break-count.yaml")
    assert "return int(" not in code and "rt.grown(" in code
    assert compiled.errors["tie_break_count/tie_break_count.py"] == []
    game = rulewright.load_rules(TESTS / "typing" / "tie-break-count.yaml")
    state: Any = game.new_state(players=2, seed=3)
    for move in ["take 2", "take 1", "take 2", "take 1", "take 1", "take 1"]:
        state.apply(move)
    assert state.is_terminal() and state.scores() == [0, 0] and state.winners() == [0]


def test_let_of_an_empty_collection_is_annotated(compiled: Compiled) -> None:
    code = compiled.source(TESTS / "typing" / "let-empty.yaml")
    assert "found: Sequence[frozenset[int]] = ()" in code  # (a rule local keeps its name)
    assert "seen: frozenset[int] = frozenset()" in code
    assert "never: frozenset[int] = frozenset()" in code
    assert "def nothing(self) -> frozenset[int]:" in code and "[object]" not in code
    assert compiled.errors["let_empty/let_empty.py"] == []
    state: Any = rulewright.load_rules(TESTS / "typing" / "let-empty.yaml").new_state(players=2, seed=0)
    state.apply(str(state.legal_actions()[1]))
    assert state.groups == (frozenset({1}), frozenset({1})) and state.total == 0


def test_mechanics_are_generic_over_lists_of_lists(compiled: Compiled) -> None:
    assert compiled.errors["draw_nested/draw_nested.py"] == []
    for state, _ in random_games(TESTS / "typing" / "draw-nested.yaml", range(3)):
        kept = sorted(c for p in range(2) for c in state.kept[p])
        assert kept == [(1,), (1,), (2,), (2, 2), (3, 3, 3)]
