"""`rulewright leaks` (api/leaks.py): no bundled rule set shows a seat what it may not see, and a
rule file that does (tests/leaks/peeks-at-a-hand.yaml: a guard reads the other player's hand, a
`shown_if` reads the face-down bag; names-a-face-down-card.yaml: a move's text; answers-a-hidden-
card.yaml: an answer's text) is caught, each leak with the line its field is declared at
and the rule line that shows it."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulewright
from rulewright.cli import cli
from rulewright.leaks import LeakReport, find_leaks
from tests.helpers.games import RULESETS

ROOT = Path(__file__).resolve().parent.parent
LEAKY = "tests/leaks/peeks-at-a-hand.yaml"


def leaks_of_text(text: str, games: int) -> LeakReport:
    """`find_leaks` of a rule file given as text (a leaky test file, mended)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fixed.yaml"
        path.write_text(text, encoding="utf-8")
        return find_leaks(rulewright.load_rules(path), games)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_bundled_rule_set_leaks(ruleset: str) -> None:
    game = rulewright.load(ruleset)
    report = find_leaks(game, 1 if ruleset.startswith("yellow-yangtze") else 2)
    assert report.errors == []
    assert report.leaks == [], [leak.to_json() for leak in report.leaks]
    assert report.states > 0 and report.samples > 0
    if any(f.visible != "all" for f in game.state_class.FIELDS):
        assert report.hidden_fields


def test_a_guard_that_reads_another_hand_and_a_shown_if_that_reads_the_bag_are_caught() -> None:
    report = find_leaks(rulewright.load_rules(ROOT / LEAKY), 3)
    found = {leak.field: leak for leak in report.leaks}
    assert set(found) == {"hand", "bag"}
    hand, bag = found["hand"], found["bag"]
    assert hand.declared == f"{LEAKY}:29" and hand.shows_in == "legal actions"
    assert hand.rules == [f"actions.steal.when ({LEAKY}:47)"]
    assert "steal" in hand.detail
    assert bag.declared == f"{LEAKY}:28" and bag.shows_in == "observation"
    assert bag.rules == [f"state.crowns_left ({LEAKY}:30)"]


def test_a_move_text_that_names_a_face_down_card_is_caught() -> None:
    leaky = "tests/leaks/names-a-face-down-card.yaml"
    report = find_leaks(rulewright.load_rules(ROOT / leaky), 2)
    found = [(leak.field, leak.shows_in, leak.declared) for leak in report.leaks]
    assert found == [("lay", "move text", f"{leaky}:28")]
    leak = report.leaks[0]
    assert leak.rules == [f"actions.lay ({leaky}:28)"]
    assert re.fullmatch(r"`lay \w+` and `lay \w+` leave P\d seeing the same, but it reads them otherwise: "
                        r"give `lay` an `others_text:`", leak.detail), leak.detail
    # the same game whose others read only that a card is laid, as tests/games/hidden-plays.yaml does
    fixed = (ROOT / leaky).read_text(encoding="utf-8").replace('text: "lay {c}"',
                                                               'text: "lay {c}"\n    others_text: "lay a card"')
    assert fixed != (ROOT / leaky).read_text(encoding="utf-8")
    assert leaks_of_text(fixed, 2).leaks == []
    clean = find_leaks(rulewright.load_rules(ROOT / "tests" / "games" / "hidden-plays.yaml"), 3)
    assert clean.leaks == [] and clean.states > 0


def test_an_answer_that_names_a_card_of_a_hidden_hand_is_caught() -> None:
    """An `ask` whose answer, read by the other player, names a card of a hand he may not see:
    in the state and in the samples of what he does not see, the first answers differ while he
    sees the same. Asked `secretly` (he reads `pick` alone), the same game leaks nothing."""
    leaky = "tests/leaks/answers-a-hidden-card.yaml"
    report = find_leaks(rulewright.load_rules(ROOT / leaky), 2)
    assert [(leak.field, leak.shows_in, leak.declared) for leak in report.leaks] == [
        ("pick", "answer text", f"{leaky}:37")]
    leak = report.leaks[0]
    assert leak.rules == [f"actions.give_back ({leaky}:37)"]
    assert re.fullmatch(r"the answers `pick card\d` and `pick card\d` \(in moves of `give_back`\) leave P\d "
                        r"seeing the same, but it reads them otherwise: ask `pick` `secretly`",
                        leak.detail), leak.detail
    text = (ROOT / leaky).read_text(encoding="utf-8")
    fixed = text.replace("ask current to choose pick", "ask current to choose secretly pick")
    assert fixed != text
    clean = leaks_of_text(fixed, 2)
    assert clean.leaks == [] and clean.states == report.states


def test_the_command_fails_on_a_leak_and_names_its_line() -> None:
    done = CliRunner().invoke(cli, ["leaks", LEAKY, "-n", "3"])
    assert done.exit_code == 1
    assert f"`hand` ({LEAKY}:29)" in done.output and f"`bag` ({LEAKY}:28)" in done.output
    assert "Traceback" not in done.output


def test_the_command_passes_a_clean_rule_set_with_a_table() -> None:
    done = CliRunner().invoke(cli, ["leaks", "china-schacht/two-player", "-n", "1"])
    assert done.exit_code == 0, done.output
    assert "none found" in done.output and "hand, deck" in done.output


def test_the_command_s_json() -> None:
    done = CliRunner().invoke(cli, ["leaks", LEAKY, "-n", "2", "--seed", "4", "--json"])
    assert done.exit_code == 1
    data = json.loads(done.output[:done.output.rindex("}") + 1])
    assert data["games"] == 2 and data["seed"] == 4
    assert {leak["field"] for leak in data["leaks"]} <= {"hand", "bag"} and data["leaks"]
    clean = CliRunner().invoke(cli, ["leaks", "mandarin", "-n", "1", "--players", "3",
                                     "--option", "money_shown=hidden", "--json"])
    assert clean.exit_code == 0
    data = json.loads(clean.output)
    assert data["players"] == 3 and data["leaks"] == [] and "money" in data["hidden_fields"]


@pytest.mark.parametrize(("args", "message"), [
    (["leaks", "nope"], "unknown rule set `nope`"),
    (["leaks", "mandarin", "--players", "9"], "not 9"),
    (["leaks", "mandarin", "--option", "foo=bar"], "no option `foo`"),
    (["leaks", "mandarin", "-n", "0"], "-n"),
])
def test_bad_input_is_one_clear_message(args: list[str], message: str) -> None:
    done = CliRunner().invoke(cli, args)
    assert done.exit_code != 0
    assert message in done.output
    assert "Traceback" not in done.output


def test_a_told_text_that_names_a_face_down_card_is_caught() -> None:
    """A move whose text hides its card from the others (`others_text:`) but which tells everyone
    the card (`tell "{current} lays {c}"`): the other player sees the same after two such moves
    but is told otherwise. Told only that a card is laid, the same game leaks nothing."""
    leaky = "tests/leaks/tells-a-face-down-card.yaml"
    report = find_leaks(rulewright.load_rules(ROOT / leaky), 2)
    assert [(leak.field, leak.shows_in, leak.declared) for leak in report.leaks] == [
        ("lay", "told text", f"{leaky}:28")]
    leak = report.leaks[0]
    assert leak.rules == [f"actions.lay ({leaky}:28)"]
    assert re.fullmatch(r"moves of `lay` told `P\d lays \w+` and `P\d lays \w+` and leave P\d seeing the same: "
                        r"what is told everyone names what it may not see: tell only what every seat sees",
                        leak.detail), leak.detail
    text = (ROOT / leaky).read_text(encoding="utf-8")
    fixed = text.replace('tell "{current} lays {c}"', 'tell "{current} lays a card"')
    assert fixed != text
    clean = leaks_of_text(fixed, 2)
    assert clean.leaks == [] and clean.states == report.states
