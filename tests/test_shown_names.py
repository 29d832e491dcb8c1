"""Names a rule file writes as it likes (a graph's or a wall's spots, regions) are shown in move
texts, and a move is played by its text (`apply("text")`, a log's line, `play`'s prompt), found by
comparing texts lowered and with single spaces. So the checker refuses a name with a space, `-` or
`/` (the separators of a list's items and a record's fields), `none`, and two names of one kind
that differ only in case (compiler/boards.py `shown_names`): then no two legal moves share a text,
and a log `simulate` writes always replays (issue 33).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulewright
from rulewright.cli import cli
from rulewright.compiler import driver
from rulewright.core.paths import display
from rulewright.core.source import CompileError


def rule_file(spots: list[str], regions: list[str] | None = None) -> str:
    quoted = ", ".join(f'"{s}"' for s in spots)
    road = ", ".join(f'"{s}"' for s in spots[:2]) if len(spots) > 1 else ""
    listed = "".join(f'        "{r}": ["{spots[i % len(spots)]}"]\n' for i, r in enumerate(regions or ["west"]))
    return f"""rulewright: 1
game: shown-names
title: Shown names
players: 2
boards:
  g:
    graph:
      spots: [{quoted}]
      roads: [{f"[{road}]" if road else ""}]
    regions:
      province:
{listed}state:
  n: {{type: int, init: 0}}
phases:
  play:
    actions: [go, link, claim]
actions:
  go:
    choose:
      a: "spots"
      b: "spots"
    text: "go {{a}} {{b}}"
    effect:
      - n += 1
  link:
    choose:
      l: "[[s, t] for s in spots for t in spots if s != t]"
    text: "link {{l}}"
    effect:
      - n += 1
  claim:
    choose:
      r: "regions"
    text: "claim {{r}}"
    effect:
      - n += 1
end: "n > 3"
scoring:
  n: "n"
"""


def write(tmp_path: Path, text: str, name: str = "names.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def refusals(path: Path) -> list[tuple[str, str]]:
    with pytest.raises(CompileError) as caught:
        driver.compile_file(path)
    return [(str(d.span), d.message) for d in caught.value.diagnostics]


def test_the_spots_of_issue_33_are_refused_where_they_are_written(tmp_path: Path) -> None:
    # `go A B C` was both go(A B, C) and go(A, B C): a log simulate wrote failed replay
    path = write(tmp_path, rule_file(["A B", "C", "A", "B C"]))
    line = path.read_text().splitlines().index('      spots: ["A B", "C", "A", "B C"]')

    def at(name: str) -> str:  # where the spot is written: its line and column
        column = path.read_text().splitlines()[line].index('"' + name + '"') + 1
        return f"{display(path)}:{line + 1}:{column}"

    assert refusals(path) == [
        (at("A B"), "spot 'A B' of board `g` holds a space: a move's text could then be two moves'"),
        (at("B C"), "spot 'B C' of board `g` holds a space: a move's text could then be two moves'"),
    ]


@pytest.mark.parametrize("spots, regions, problem", [
    (["a-b", "c"], None, "spot 'a-b' of board `g` holds `-`"),
    (["a/b", "c"], None, "spot 'a/b' of board `g` holds `/`"),
    (["a\tb", "c"], None, "spot 'a\\tb' of board `g` holds a space"),
    ([" ", "c"], None, "spot ' ' of board `g` is empty"),
    (["None", "c"], None, "spot 'None' of board `g` is `none`, the text of an optional value holding nothing"),
    (["c", "Wei", "wei"], None, "spots `Wei` and `wei` of board `g` differ only in case: a move's text is read "
                                "whatever its case, so it could be two moves'"),
    (["c", "d"], ["North West"], "region 'North West' of board `g` holds a space"),
    (["c", "d"], ["Qin", "QIN"], "regions `Qin` and `QIN` of board `g` differ only in case"),
])
def test_a_name_that_could_make_two_texts_equal_is_refused(tmp_path: Path, spots: list[str],
                                                           regions: list[str] | None, problem: str) -> None:
    (found,) = refusals(write(tmp_path, rule_file(spots, regions)))
    assert found[1].startswith(problem)


def test_the_spaces_of_a_wall_and_a_mirrored_hexagon_are_names_too(tmp_path: Path) -> None:
    wall = rule_file(["c"]).replace('    graph:\n      spots: ["c"]\n      roads: []\n',
                                    '    wall:\n      one:\n        front: ["1 F", "1G"]\n').replace('["c"]', '["1G"]')
    (found,) = refusals(write(tmp_path, wall, "wall.yaml"))
    assert found[1] == "spot '1 F' of board `g` holds a space: a move's text could then be two moves'"
    hexagon = rule_file(["c"]).replace('    graph:\n      spots: ["c"]\n      roads: []\n', "    hexagon: 2\n").replace(
        '        "west": ["c"]\n', '        M1: [A1]\n      river:\n        mirror_of: province\n'
                                 '        rename: {M: "R-"}\n')
    (found,) = refusals(write(tmp_path, hexagon, "hexagon.yaml"))
    assert found[1] == "region 'R-1' of board `g` holds `-`: a move's text could then be two moves'"


# Names made of the letters the rule is about: a space, `-`, `/`, a letter in both cases.
NAMES = st.lists(st.text(alphabet="aAb -/_1", min_size=1, max_size=3), min_size=2, max_size=4, unique=True)


def violates(name: str) -> bool:
    return name.split() != [name] or "-" in name or "/" in name or name.lower() == "none"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NAMES)
def test_a_rule_file_is_refused_or_every_text_is_one_move(tmp_path: Path, spots: list[str]) -> None:
    path = write(tmp_path, rule_file(spots))
    try:
        game = rulewright.load_rules(path)
    except CompileError as refused:
        # refused for its names only, and only if one of them breaks the rule
        assert any(violates(s) for s in spots) or len({s.lower() for s in spots}) < len(spots)
        assert all("spot" in d.message for d in refused.diagnostics), refused
        return
    assert not any(violates(s) for s in spots) and len({s.lower() for s in spots}) == len(spots)
    rng = random.Random(repr(spots))
    state = game.new_state(2, 1)
    while not state.terminal:
        legal = state.legal_actions()
        texts = [" ".join(str(a).lower().split()) for a in legal]
        assert len(set(texts)) == len(texts)  # no two moves share a text
        action = rng.choice(legal)
        assert state.parse_action(str(action)) is action  # its text finds it
        state.apply(str(action))


def test_a_log_simulate_writes_replays(tmp_path: Path) -> None:
    # names as close to the rule as it allows: `_`, `.`, digits, both cases (no two alike)
    path = write(tmp_path, rule_file(["a_1", "A.2", "b", "B2"], ["Wei", "wei_2"]))
    logs = tmp_path / "logs"
    runner = CliRunner()
    simulated = runner.invoke(cli, ["simulate", str(path), "-n", "6", "--seed", "7", "--log-dir", str(logs)])
    assert simulated.exit_code == 0, simulated.output
    assert len(list(logs.glob("*.jsonl"))) == 6
    for log in sorted(logs.glob("*.jsonl")):
        replayed = runner.invoke(cli, ["replay", str(log), "--ruleset", str(path)])
        assert replayed.exit_code == 0, replayed.output
        assert replayed.output.startswith("replayed 4 actions: identical"), replayed.output


def test_a_neutral_seat_named_as_a_player_is_refused(tmp_path: Path) -> None:
    # players are shown P1, P2 ...; a neutral seat by its name: `p2` would be P2 read whatever its case
    text = rule_file(["c", "d"]).replace("players: 2\n", "players: 2\nneutral: [p2]\n")
    (found,) = refusals(write(tmp_path, text))
    assert found[1] == ("a neutral seat named `p2` would be read as the player P2 in a move's text (read whatever its "
                        "case)")
    assert rulewright.load_rules(write(tmp_path, text.replace("[p2]", "[emperor]"), "emperor.yaml"))


def test_two_regions_of_one_name_are_refused(tmp_path: Path) -> None:
    # two kinds may each name a region `Wei`: `claim Wei` would be either
    text = rule_file(["c", "d"], ["Wei"]).replace('        "Wei": ["c"]\n',
                                                  '        "Wei": ["c"]\n      river:\n        "Wei": ["d"]\n')
    path = write(tmp_path, text)
    line = path.read_text().splitlines().index('        "Wei": ["d"]') + 1
    assert refusals(path) == [(f"{display(path)}:{line}:9", "two regions of board `g` are named `Wei`: a move's text "
                                                           "could then be two moves'")]
