"""A move's text per observer (docs/language.md, `others_text:` and `revealed_when:`): what the
checker refuses (tests/broken/others_text_*.yaml, revealed_when_*.yaml run with the corpus), the
text each seat reads in the runtime (tests/games/hidden-plays.yaml, Chang Cheng's cards, Yellow &
Yangtze's swap), `play`'s transcript, the web board's history per seat and OpenSpiel's action
strings. `rulewright leaks` on move texts: tests/test_leaks.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from werkzeug.test import Client

import rulewright
from rulewright.cli import cli
from rulewright.commands.play import transcript_reader
from rulewright.core.source import CompileError
from rulewright.runtime.errors import BadSetup
from rulewright.runtime.rng import Rng
from rulewright.runtime.state import Action, Answer, State
from rulewright.viewer import PlaySession
from rulewright.web import TOKEN_HEADER, make_app

ROOT = Path(__file__).resolve().parent.parent
HIDDEN_PLAYS = ROOT / "tests" / "games" / "hidden-plays.yaml"
CARD = re.compile(r"card (warrior|traitor|flood|mason|architect|mandarin) in ")


def _play(state: State, text: str) -> Action:
    action = next(a for a in state.legal_actions() if str(a) == text)
    state.apply(action)
    return action


def test_a_face_down_card_reads_whole_to_its_owner_and_by_its_row_to_the_other() -> None:
    state = rulewright.load_rules(HIDDEN_PLAYS).new_state(2, 1)
    assert state.to_act() == 0 and state._pending is not None  # the setup asks each seat its trump
    trump = _play(state, "trump king")  # `ask p to choose secretly trump in card`
    assert state.move_text(trump, 0, 0) == "trump king" and state.move_text(trump, 1, 0) == "trump"
    assert state.move_text(trump, None, 0) == "trump king"
    _play(state, "trump jack")
    assert state.to_act() == 0 and state._pending is None
    ace = _play(state, "lay ace in row 1")
    assert str(ace) == "lay ace in row 1"  # the stable text logs and replays use
    assert state.move_text(ace, 0, 0) == "lay ace in row 1"  # its owner
    assert state.move_text(ace, 1, 0) == "lay a card in row 1"  # the other seat
    assert state.move_text(ace, None, 0) == "lay ace in row 1"  # an all-seeing reader
    king = _play(state, "lay king in row 2")
    assert state.move_text(king, 0, 1) == "lay a card in row 2"
    # `revealed_when: "row in turned"`, read in the state that shows the move: row 1 is turned
    _play(state, "turn row 1")
    assert state.move_text(ace, 1, 0) == "lay ace in row 1"
    assert state.move_text(king, 0, 1) == "lay a card in row 2"
    # a legal move before it is played: the seat to act is its actor by default
    queen = next(a for a in state.legal_actions() if str(a) == "lay queen in row 2")
    assert state.to_act() == 1
    assert state.move_text(queen, 0) == "lay a card in row 2" and state.move_text(queen, 1) == "lay queen in row 2"
    _play(state, "turn row 2")
    assert state.is_terminal()  # once the game is over, everyone reads every move whole
    assert state.move_text(king, 0, 1) == "lay king in row 2"
    assert state.move_text(trump, 1, 0) == "trump king"
    with pytest.raises(BadSetup, match="no player 2"):
        state.move_text(ace, 2, 0)


def test_an_answer_is_told_by_its_class_not_by_the_name_of_its_text() -> None:
    # an ask's answers are `Answer`s (runtime/state.py): an answer read by the other seat shows its
    # name alone whatever makes its text, and an action of the rules whose text is made by a method
    # of the same name is no answer
    state = rulewright.load_rules(HIDDEN_PLAYS).new_state(2, 1)
    trump = state.legal_actions()[0]
    assert type(trump) is Answer and str(trump).startswith("trump ")
    wrapped = Answer(trump.name, trump.args, lambda a: f"trump number {a.args[0]}")
    assert state.move_text(wrapped, 1, 0) == "trump" and state.move_text(wrapped, 0, 0) == "trump number 0"

    def _answer_text(action: Action) -> str:
        return "trump in a text of the rules"

    plain = Action(trump.name, trump.args, _answer_text)
    assert state.move_text(plain, 1, 0) == "trump in a text of the rules"


def test_a_move_without_others_text_and_an_answer_read_whole_to_everyone() -> None:
    state = rulewright.load("china-cornett").new_state(2, 3)
    action = state.legal_actions()[0]
    assert state.move_text(action, 1 - (state.to_act() or 0)) == str(action)
    asks = rulewright.load("chang-cheng/two-player").new_state(2, 1, {"faces": "chosen"})
    assert asks._pending is not None  # the setup asks P1 for the first face
    answer = asks.legal_actions()[0]
    assert asks.move_text(answer, 1) == str(answer) and str(answer).startswith("first_face ")


def test_the_others_text_is_written_into_the_module_with_its_rule_line() -> None:
    chang = (ROOT / "generated" / "chang_cheng" / "base.py").read_text(encoding="utf-8")
    assert "def _text_for_others(self, _action: rt.Action) -> str | None:" in chang
    assert "if _name == 'first_card':  # rules/chang-cheng/base.yaml:" in chang
    assert "if self.protected[r]:" in chang and "return 'card in ' + self._fmt('region', r)" in chang
    plain = (ROOT / "generated" / "china_cornett" / "base.py").read_text(encoding="utf-8")
    assert "_text_for_others" not in plain  # (no `others_text:`: the runtime's, which gives None)


def test_the_checker_refuses_broken_others_texts_with_their_place(tmp_path: Path) -> None:
    text = HIDDEN_PLAYS.read_text(encoding="utf-8")
    cases = {
        'others_text: "lay a card in row {rows}"': ("names `{rows}`, which is not one of its choices", 40, 18),
        'others_text: "lay {c} in row {row}"': ("still names every choice its text shows (`{c}`, `{row}`)", 40, 18),
        'others_text: "lay a card in row {row}"\n    revealed_when: "turned"':
            ("`revealed_when` must be bool, not set(int)", 41, 21),
    }
    cases['trumps[p] = trump\n    - ask p to choose trump in card:\n      - trumps[p] = trump'] = (
        "hidden.yaml:63 and openly here", 65, 7)
    for replacement, (message, line, col) in cases.items():
        broken = (text.replace("trumps[p] = trump", replacement) if replacement.startswith("trumps")
                  else text.replace('others_text: "lay a card in row {row}"\n    revealed_when: "row in turned"',
                                    replacement))
        assert broken != text
        path = tmp_path / "hidden.yaml"
        path.write_text(broken, encoding="utf-8")
        with pytest.raises(CompileError) as caught:
            rulewright.load_rules(path)
        first = caught.value.diagnostics[0]
        assert message in first.message
        assert (first.span.line, first.span.col) == (line, col), first.render()


def test_chang_cheng_card_plays_name_the_card_only_to_its_owner() -> None:
    for ruleset in ("chang-cheng", "chang-cheng/two-player", "chang-cheng/drawn-events"):
        players = 2 if ruleset.endswith("two-player") else 3  # (the base game is for three or four)
        state = rulewright.load(ruleset).new_state(players, 4)
        rng = Rng(9)
        seen = 0
        while not state.is_terminal() and seen < 3:
            actor = state.to_act()
            assert actor is not None
            legal = state.legal_actions()
            cards = [a for a in legal if a.name in ("first_card", "second_card")]
            action = cards[rng.below(len(cards))] if cards and rng.below(2) else legal[rng.below(len(legal))]
            if action.name in ("first_card", "second_card"):
                seen += 1
                assert CARD.match(state.move_text(action, actor, actor))
                assert re.fullmatch(r"card in \w+", state.move_text(action, (actor + 1) % players, actor))
            state.apply(action)
        assert seen == 3, ruleset


def test_yellow_yangtze_s_swap_names_the_tiles_only_to_its_player() -> None:
    state = rulewright.load("yellow-yangtze").new_state(2, 2)
    swap = next(a for a in state.legal_actions() if a.name == "swap_tiles")
    actor = state.to_act()
    assert actor is not None
    assert str(swap).startswith("swap ") and str(swap) != "swap tiles"
    assert state.move_text(swap, 1 - actor, actor) == "swap tiles"


def test_play_s_transcript_does_not_name_the_opponent_s_card() -> None:
    assert transcript_reader([0], 1) == 0 and transcript_reader([0], 0) == 0
    assert transcript_reader([0, 1], 1) == 0 and transcript_reader([], 1) is None
    done = CliRunner().invoke(cli, ["play", "chang-cheng/two-player", "--seed", "3", "--seat", "1=human",
                                    "--seat", "2=random"], input="1\n" * 60)
    assert done.exit_code == 0, done.output
    theirs = [line for line in done.output.splitlines() if line.startswith("P2 (seat2) plays card")]
    assert theirs, done.output[-2000:]
    for line in theirs:
        assert re.fullmatch(r"P2 \(seat2\) plays card in \w+", line), line


def test_the_web_history_shows_each_seat_its_own_reading() -> None:
    app, _ = make_app(None)
    client = Client(app)
    form = {"ruleset": "chang-cheng/two-player", "players": "2", "seed": "4", "seat1": "random", "seat2": "random"}
    assert client.post("/new", data=form, headers={TOKEN_HEADER: app.token}).status_code == 303  # (as its pages do)
    session: PlaySession = next(iter(app.sessions.games.values()))
    for _ in range(120):
        if session.state.is_terminal() or sum(1 for _, t in session.history if t.startswith("card ")) >= 4:
            break
        session.step_agent()
    key = next(iter(app.sessions.games))
    seen = {seat: client.get(f"/api/game/{key}?seat={seat}").json["history"] for seat in ("1", "2", "referee")}
    whole = [f"P{p + 1} {text}" for p, text in session.history]
    assert seen["referee"] == whole
    cards = [(k, p) for k, (p, text) in enumerate(session.history) if text.startswith("card ")]
    assert {p for _, p in cards} == {0, 1}, session.history
    for k, p in cards:
        owner, other = seen[str(p + 1)], seen[str(2 - p)]
        assert CARD.search(owner[k]) and owner[k] == whole[k]
        assert re.fullmatch(rf"P{p + 1} card in \w+", other[k]), other[k]
    assert all(seen["1"][k] == whole[k] for k in range(len(whole)) if k not in {c for c, _ in cards})


def test_openspiel_action_strings_hide_the_card_from_the_other_seat() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra (pip install 'rulewright[openspiel]')")
    from rulewright.interop import openspiel as bridge

    game = pyspiel.load_game(bridge.register("chang-cheng"))
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    rng = Rng(2)
    for _ in range(3000):
        assert not state.is_terminal()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.below(len(outcomes))][0])
            continue
        player = state.current_player()
        legal = state.legal_actions()
        own = [state.action_to_string(player, a) for a in legal]
        if any(CARD.match(f"{text} in ") for text in own):
            other = [state.action_to_string((player + 1) % game.num_players(), a) for a in legal]
            assert other == ["hidden"] * len(legal), (own, other)
            return
        state.apply_action(legal[rng.below(len(legal))])
    pytest.fail("no card was laid in 3,000 decisions")


def test_the_bridge_hides_a_secret_answer_s_and_a_hidden_choice_s_tokens_from_the_others() -> None:
    from rulewright.interop.core import Bridge

    bridge = Bridge(str(HIDDEN_PLAYS))
    assert bridge.hidden_args == {"lay": frozenset({0}), "trump": frozenset({0})}
    assert not bridge.perfect_information
    position = bridge.initial()
    for seat in (0, 1):  # the setup asks each seat its trump, secretly
        assert position.to_act() == seat
        tokens = position.legal()
        assert [position.token_text(seat, t) for t in tokens] == ["card ace", "card king", "card queen", "card jack"]
        assert {position.token_text(1 - seat, t) for t in tokens} == {"hidden"}
        position.apply(tokens[1])
    assert position.to_act() == 0
    name = position.legal()
    assert [position.token_text(1, t) for t in name] == ["lay", "turn_row"]  # an action's name is no secret
    position.apply(name[0])  # `lay`: its card hidden from the other seat, its row not
    cards = position.legal()
    assert {position.token_text(1, t) for t in cards} == {"hidden"}
    position.apply(cards[0])
    rows = position.legal()
    shown = [position.token_text(1, t) for t in rows]
    assert shown == [position.token_text(0, t) for t in rows] == ["digit 1", "digit 2"]
