"""Two people play one game from two machines (issue 39, item 4): two headless Chromium sessions,
each opening its own seat's secret link of a Yellow & Yangtze game (whose racks only their owner
sees). Each page shows its own rack and never the other's (page text and DOM checked against the
server's truth); each page updates by itself when the other seat moves (no reload: the live
stream, api/webui/live.js), as does a spectator's, which sees neither rack; a third tab of P1's,
whose live stream is cut, is refused its move with the reason. No JavaScript error in either
console (the one 409 answer of the stale move, which Chromium notes as a failed load, is the
test's own doing and the only one allowed). Then a whole game of Leduc poker is played between the
two browsers, a click on the page of the seat to act for every move, each page holding its own
hand and never the other's after every move."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulewright.draw import render_svg
from rulewright.viewer import PlaySession, public_svg
from rulewright.web import WebApp, make_app
from tests.helpers.browser import console_errors, missing_browser, start_chromium, stop, wait
from tests.helpers.web import drawing_texts, private_words, served, words

if (why := missing_browser()) is not None:
    pytest.skip(why, allow_module_level=True)
pytest.importorskip("selenium", reason="selenium is not installed: pip install -e '.[dev]'")
from selenium.webdriver.common.by import By  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, WebApp]]:
    app, _ = make_app(None)
    with served(app) as port:
        yield f"http://127.0.0.1:{port}", app


@pytest.fixture(scope="module")
def two_browsers() -> Iterator[tuple[Any, Any]]:
    started: list[tuple[Any, str]] = []
    try:
        for _ in range(2):
            started.append(start_chromium())
    except Exception as exc:  # noqa: BLE001 - a browser that cannot start: say so, skip
        for driver, profile in started:
            stop(driver, profile)
        pytest.skip(f"Chromium did not start ({type(exc).__name__}: {str(exc).splitlines()[0]})")
    yield started[0][0], started[1][0]
    for driver, profile in started:
        stop(driver, profile)


def history(driver: Any) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#history li"))


def board_text(driver: Any, where: str = "#board") -> str:
    """The text nodes under `where` (tooltips included), each apart (`textContent` would run a
    chip's number into its neighbour's), less those of scripts and style sheets."""
    return str(driver.execute_script(
        "const w = document.createTreeWalker(document.querySelector(arguments[0]), NodeFilter.SHOW_TEXT);"
        "const parts = []; while (w.nextNode()) { const up = w.currentNode.parentNode.nodeName.toLowerCase();"
        "  if (up !== 'script' && up !== 'style') parts.push(w.currentNode.data); } return parts.join(' ');", where))


def stale_refusal(message: str) -> bool:
    return "/move" in message and "409" in message


def test_two_browsers_play_one_game_by_their_seat_links(server: tuple[str, WebApp], two_browsers: tuple[Any, Any],
                                                        tmp_path: Path) -> None:
    base, app = server
    one, two = two_browsers
    one.get(f"{base}/new?ruleset=yellow-yangtze")
    one.find_element(By.ID, "seat2").clear()
    one.find_element(By.ID, "seat2").send_keys("human")
    one.find_element(By.ID, "seed").clear()
    one.find_element(By.ID, "seed").send_keys("3")
    one.find_element(By.ID, "links").click()
    one.find_element(By.ID, "start").click()
    wait(one, lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-links a.seat-link"), "the host page lists the links")
    links = [a.get_attribute("href") for a in one.find_elements(By.CSS_SELECTOR, "#seat-links a.seat-link")]
    assert len(links) == 2 and links[0] != links[1]
    spectator = one.find_element(By.ID, "spectator-link").get_attribute("href")
    session: PlaySession = next(s for s in app.sessions.games.values() if s.links)
    one.get(links[0])
    two.get(links[1])
    for driver in (one, two):
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the board is drawn")

    def check_hands() -> None:
        """Each page shows its seat's drawing, piece by piece (tests/test_draw.py proves a seat's
        drawing the same whatever the others hide); the words only its seat's drawing holds (its
        rack, as the rule set's look draws it) are on it, and on no other page."""
        views = [render_svg(session.state, p) for p in range(2)]
        private = private_words(views, public_svg(session.state))
        for p, driver in enumerate((one, two)):
            svg = driver.execute_script("return document.querySelector('#board svg').outerHTML")
            assert drawing_texts(svg) == drawing_texts(views[p]), f"P{p + 1}'s page is not P{p + 1}'s drawing"
            shown = words(board_text(driver))
            assert private[p] <= shown and not private[1 - p] & shown, (p, private[p] - shown, private[1 - p] & shown)
            # the other's rack by its tiles' ids, in the whole page's text (the move list and history too)
            theirs = session.state.observation(1 - p)["fields"]["rack"][1 - p]
            assert not set(theirs) & words(board_text(driver, "body")), p

    check_hands()
    # P1 has a second tab, whose live stream is cut: it will not hear of the moves
    first_tab = one.current_window_handle
    one.switch_to.new_window("tab")
    one.get(links[0])
    wait(one, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves button"), "P1's moves in the second tab")
    one.execute_script("live.close()")
    stale_tab = one.current_window_handle
    one.switch_to.window(first_tab)
    # P1 moves; P2's page shows it by itself
    wait(one, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves button"), "P1's moves")
    one.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
    wait(one, lambda d: history(d) == 1, "P1's move is played")
    wait(two, lambda d: history(d) == 1, "P2's page shows P1's move without a reload")
    while session.state.to_act() == 0 and not session.state.is_terminal():  # (P1's move may ask more of P1)
        before = history(one)
        wait(one, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves button"), "P1's next answer")
        one.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
        wait(two, lambda d, n=before: history(d) > n, "P2's page follows")
    wait(two, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves button"), "P2's moves appear on P2's page")
    before = history(one)
    two.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
    wait(one, lambda d, n=before: history(d) > n, "P1's page shows P2's move without a reload")
    check_hands()
    # a spectator's page: both racks hidden, no move, and it follows the game too
    seat_tab = two.current_window_handle
    two.switch_to.new_window("tab")
    two.get(spectator)
    wait(two, lambda d: "seen by a spectator" in board_text(d), "the spectator's board")
    svg = two.execute_script("return document.querySelector('#board svg').outerHTML")
    assert drawing_texts(svg) == drawing_texts(public_svg(session.state))  # what every seat sees alike
    private = private_words([render_svg(session.state, p) for p in range(2)], public_svg(session.state))
    assert not words(board_text(two)) & (private[0] | private[1])  # neither rack
    assert not two.find_elements(By.CSS_SELECTOR, "#moves button")
    watching, before = two.current_window_handle, history(two)
    mover = one if session.state.to_act() == 0 else two
    if mover is two:
        two.switch_to.window(seat_tab)
    wait(mover, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves button"), "the moves of the seat to act")
    mover.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
    two.switch_to.window(watching)
    wait(two, lambda d, n=before: history(d) > n, "the spectator's page follows the move")
    # the stale tab still shows the first position, and its move is refused with the reason
    one.switch_to.window(stale_tab)
    assert history(one) == 0
    one.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
    wait(one, lambda d: "the game moved on" in d.find_element(By.ID, "message").text, "the stale move is refused")
    message = one.find_element(By.ID, "message").text
    assert "P1 played" in message and "look again" in message and "P2 played" in message
    assert history(one) == 0  # (nothing was played from it)
    one.save_screenshot(str(tmp_path / "stale-tab.png"))
    assert console_errors(one, stale_refusal) == []
    assert console_errors(two) == []



def test_a_finished_game_s_page_offers_its_log_replay_and_compare(server: tuple[str, WebApp],
                                                                   two_browsers: tuple[Any, Any]) -> None:
    """The game ends while the page is open (moves played on the server): the page follows it to
    the end by itself and then offers the log, the replay and the `compare` command, and plays a
    small comparison in the server when asked, showing `compare`'s verdict lines."""
    import random

    import rulewright

    base, app = server
    one, _ = two_browsers
    session = PlaySession.start(rulewright.load("mandarin/money"), 2, 3, ["human", "human"])
    app.sessions.add_game(session, links=True)
    one.get(f"{base}/game/{session.links['1']}")
    wait(one, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the board is drawn")
    chance = random.Random(3)
    while not session.state.is_terminal():
        with session.lock:
            seat = session.state.to_act()
            assert session.play(seat, str(chance.choice(session.state.legal_actions(seat)))) is None
    wait(one, lambda d: d.find_elements(By.ID, "finished"), "the page offers what a finished game offers")
    assert "Game over" in one.find_element(By.ID, "status").text
    compare = one.find_element(By.ID, "finished-compare").text
    assert compare == "rulewright compare mandarin mandarin/money --players 2 -n 200"
    assert one.find_element(By.ID, "finished-log").get_attribute("href").endswith("/log")
    app.compare_games = 3  # (the server plays a small comparison when asked: here 3 pairs, for time)
    one.find_element(By.ID, "finished-compare-here").click()
    wait(one, lambda d: d.find_elements(By.CSS_SELECTOR, "#finished-compared li"), "compare's verdicts on the page")
    verdicts = [li.text for li in one.find_elements(By.CSS_SELECTOR, "#finished-compared li")]
    assert verdicts[0] == "A: mandarin; B: mandarin/money; 3 games each on the same seeds"
    assert any(v.startswith("win rate P1: ") for v in verdicts)
    one.find_element(By.ID, "finished-replay").click()
    wait(one, lambda d: "/replay/" in d.current_url and d.find_elements(By.CSS_SELECTOR, "#board svg"),
         "the game's replay")
    assert f"move 0 of {len(session.history)}" in one.find_element(By.ID, "where").text
    assert console_errors(one, stale_refusal) == []


def test_two_browsers_play_a_whole_game_of_hidden_hands(server: tuple[str, WebApp],
                                                        two_browsers: tuple[Any, Any]) -> None:
    """A whole game of Leduc poker, whose cards in hand only their owner sees, between the two
    browsers by their seat links, each move clicked on the page of the seat to act: after every
    move, each page holds its own hand's words and none of the other's, until the showdown."""
    import random

    import rulewright

    base, app = server
    one, two = two_browsers
    session = PlaySession.start(rulewright.load("leduc-poker"), 2, 4, ["human", "human"])
    app.sessions.add_game(session, links=True)
    drivers = (one, two)
    for seat, driver in enumerate(drivers):
        driver.get(f"{base}/game/{session.links[str(seat + 1)]}")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the board is drawn")
    chance = random.Random(4)
    played = 0
    while not session.state.is_terminal():
        views = [render_svg(session.state, p) for p in range(2)]
        private = private_words(views, public_svg(session.state))
        for p, driver in enumerate(drivers):
            wait(driver, lambda d, n=played: history(d) == n, "the page follows the game")
            shown = words(board_text(driver))
            assert not private[1 - p] & shown, (p, private[1 - p] & shown)  # never the other's hand
            assert private[p] <= shown, (p, private[p] - shown)  # its own, whole
        mover = drivers[session.state.to_act()]
        wait(mover, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves button"), "the seat to act's moves")
        buttons = mover.find_elements(By.CSS_SELECTOR, "#moves button")
        chance.choice(buttons).click()
        played += 1
        for driver in drivers:
            wait(driver, lambda d, n=played: history(d) >= n, "both pages show the move without a reload")
        played = len(session.history)
    assert played >= 2
    for driver in drivers:
        wait(driver, lambda d: "Game over" in d.find_element(By.ID, "status").text, "both pages see the end")
        assert console_errors(driver) == []
