"""The web board in a real browser (issue 17): headless Chromium from the system's packages,
driven by Selenium through the system's chromedriver, named explicitly (Selenium Manager, which
would download a driver, is never asked). Through each bundled rule set: start a game, play moves
by clicking spots and listed moves, click a spot no move names and read why; step a replay of a
log, jump, switch the seat seen; step a scenario file. Each page's DOM is checked, the browser's
console must hold no error, and a screenshot of each is saved (under pytest's tmp folder, or
RULEWRIGHT_SCREENSHOTS).

`./dev test` installs Chromium and its driver (apt-get, as root) before the suite; where no
browser can be installed these tests are skipped, saying so.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.core.paths import bundled_rulesets
from rulewright.viewer import PlaySession
from rulewright.web import WebApp, make_app, make_server

CHROMIUM = os.environ.get("RULEWRIGHT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("RULEWRIGHT_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000")
GAMES = ("china-cornett", "china-schacht", "mandarin", "yellow-yangtze", "chang-cheng")
# Every bundled rule set is played by clicking; the replay and the seat switch, the same code for
# any of them, on each game's base.
RULESETS = tuple(ruleset for ruleset, _ in bundled_rulesets())
SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "china-cornett" / "rulebook.yaml"
WAIT = 15  # seconds a page may take to show what is waited for

if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)
        and os.path.isfile(CHROMEDRIVER) and os.access(CHROMEDRIVER, os.X_OK)):
    pytest.skip(f"no Chromium and chromedriver ({CHROMIUM}, {CHROMEDRIVER}): the browser tests of the web board "
                "are skipped; `./dev test` installs them as root (apt-get install chromium chromium-driver), or "
                "name them with RULEWRIGHT_CHROMIUM and RULEWRIGHT_CHROMEDRIVER", allow_module_level=True)

selenium = pytest.importorskip("selenium", reason="selenium is not installed: pip install -e '.[dev]'")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, WebApp]]:
    app, _ = make_app(None)
    httpd = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}", app
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    profile = tempfile.mkdtemp(prefix="rulewright-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    except Exception as exc:  # noqa: BLE001 - a browser that cannot start: say so, skip
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"Chromium did not start ({type(exc).__name__}: {str(exc).splitlines()[0]})")
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("RULEWRIGHT_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("web-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait(driver: WebDriver, what: Callable[[WebDriver], Any], message: str) -> Any:
    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(what, message)


def console_errors(driver: WebDriver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def screenshot(driver: WebDriver, folder: Path, name: str) -> None:
    path = folder / f"{name.replace('/', '-')}.png"
    assert driver.save_screenshot(str(path)) and path.stat().st_size > 1000


def history(driver: WebDriver) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#history li"))


def my_turn(driver: WebDriver) -> bool:
    moves = driver.find_elements(By.CSS_SELECTOR, "#moves button")
    status = driver.find_element(By.ID, "status").text
    together = status.split(" choose at once")[0].replace(",", " ").split() if " choose at once" in status else []
    return bool(moves) and ("P1 to act" in status or "P1" in together)  # (`P1, P2 choose at once`: simultaneous)


def game_over(driver: WebDriver) -> bool:
    return "Game over" in driver.find_element(By.ID, "status").text


def board_spots(driver: WebDriver) -> set[str]:
    # read in one script, not element by element: where another seat moves first (backgammon's
    # opening roll), its agent's move draws the board again while it is read
    spots = driver.execute_script(
        "return Array.from(document.querySelectorAll('#board [data-spot]'), e => e.getAttribute('data-spot'))")
    return {str(s) for s in spots}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_game_is_played_by_clicking(ruleset: str, server: tuple[str, WebApp], browser: WebDriver,
                                      shots: Path) -> None:
    base, _ = server
    labels = set(rulewright.load(ruleset).new_state(seed=1).board.labels)
    browser.get(f"{base}/new?ruleset={ruleset}")
    assert browser.find_element(By.ID, "seat1").get_attribute("value") == "human"
    browser.find_element(By.ID, "seed").clear()
    browser.find_element(By.ID, "seed").send_keys("3")
    browser.find_element(By.ID, "start").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the board is drawn")
    assert board_spots(browser) == labels
    clicked_spot = False
    for _ in range(3):  # three moves of P1, the other seats played by random agents in between
        wait(browser, lambda d: my_turn(d) or game_over(d), "P1's turn, with P1's moves listed")
        if game_over(browser):  # (a short game, liar's dice's few bids, may end first: the end is shown)
            break
        before = history(browser)
        legal = browser.find_elements(By.CSS_SELECTOR, "#board .spot.legal")
        if legal:
            spot = legal[0].get_attribute("data-spot")
            legal[0].click()
            clicked_spot = True
            wait(browser, lambda d, n=before: history(d) > n or "choose one" in d.find_element(By.ID, "message").text,
                 "a click on a highlighted spot plays its move or lists the moves naming it")
            if history(browser) == before:  # several moves name the spot: the list is filtered to them
                listed = browser.find_elements(By.CSS_SELECTOR, "#moves button")
                assert listed and all(spot in b.text for b in listed)
                listed[0].click()
        else:
            browser.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
        wait(browser, lambda d, n=before: history(d) > n, "the move is played")
    wait(browser, lambda d: my_turn(d) or game_over(d), "P1's turn again")
    unlit = browser.find_elements(By.CSS_SELECTOR, "#board .spot:not(.legal)")
    if unlit:  # a click on a spot no move names says why, with the rule
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", unlit[0])
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#message .why"), "why the click plays nothing")
        assert "No move of yours names" in browser.find_element(By.ID, "message").text
    # (a game with no board, or whose moves name no spot, is played from the list of moves: backgammon's
    # name points counted from the mover's side, `move 13 by 6`)
    if labels and not ruleset.startswith(("mandarin", "connect-four", "backgammon")):
        assert clicked_spot
    screenshot(browser, shots, f"play-{ruleset}")
    assert console_errors(browser) == []


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_replay_is_stepped_jumped_and_seen_from_each_seat(ruleset: str, server: tuple[str, WebApp],
                                                            browser: WebDriver, shots: Path) -> None:
    base, app = server
    game = rulewright.load(ruleset)
    session = PlaySession.start(game, game.info.players[0], 11, ["random"] * game.info.players[0])
    for _ in range(12):
        session.step_agent()
    from rulewright.viewer import Replay

    states = [game.new_state(session.state.num_players, 11)]
    for _, text in session.history:
        states.append(states[-1].clone())
        states[-1].apply(text)
    key = app.sessions.add_replay(f"{ruleset}.jsonl", Replay(game, states, session.history, None))
    browser.get(f"{base}/replay/{key}")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the start is drawn")
    assert "move 0 of 12" in browser.find_element(By.ID, "where").text
    for _ in range(3):
        browser.find_element(By.ID, "next").click()
    wait(browser, lambda d: "move 3 of 12" in d.find_element(By.ID, "where").text, "three steps forward")
    current = browser.find_elements(By.CSS_SELECTOR, "#history li.current")
    assert len(current) == 1 and current[0].text.startswith("P")
    browser.find_element(By.ID, "prev").click()
    wait(browser, lambda d: "move 2 of 12" in d.find_element(By.ID, "where").text, "a step back")
    box = browser.find_element(By.ID, "jump-to")
    box.send_keys("9\n")
    wait(browser, lambda d: "move 9 of 12" in d.find_element(By.ID, "where").text, "a jump to move 9")
    assert "referee (sees all)" in browser.find_element(By.ID, "board").text
    Select(browser.find_element(By.ID, "viewer")).select_by_value("1")
    wait(browser, lambda d: "seen by P1" in d.find_element(By.ID, "board").text, "the board as P1 sees it")
    Select(browser.find_element(By.ID, "viewer")).select_by_value("2")
    wait(browser, lambda d: "seen by P2" in d.find_element(By.ID, "board").text, "the board as P2 sees it")
    assert board_spots(browser) == set(states[9].board.labels)
    screenshot(browser, shots, f"replay-{ruleset}")
    assert console_errors(browser) == []


def test_a_scenario_file_is_stepped_with_expected_and_actual(server: tuple[str, WebApp], browser: WebDriver,
                                                             shots: Path) -> None:
    from rulewright.viewer import load_scenarios

    base, app = server
    views = load_scenarios(SCENARIOS)
    key = app.sessions.add_scenarios(SCENARIOS.name, views)
    k = next(i for i, v in enumerate(views) if v.steps)
    browser.get(f"{base}/scenario/{key}")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the first scenario is drawn")
    Select(browser.find_element(By.ID, "scenario")).select_by_value(str(k))
    steps = len(views[k].steps)
    wait(browser, lambda d: f"step {steps} of {steps}" in d.find_element(By.ID, "where").text, "its last step")
    browser.find_element(By.ID, "prev").click()
    wait(browser, lambda d: f"step {steps - 1} of {steps}" in d.find_element(By.ID, "where").text, "a step back")
    rows = browser.find_elements(By.CSS_SELECTOR, "#checks tbody tr")
    assert len(rows) == len(views[k].checks) and all("ok" in (r.get_attribute("class") or "") for r in rows)
    screenshot(browser, shots, "scenario")
    assert console_errors(browser) == []


def test_a_log_is_opened_from_the_first_page(server: tuple[str, WebApp], browser: WebDriver, shots: Path,
                                             tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulewright.cli import cli

    base, _ = server
    log = tmp_path / "mandarin.jsonl"
    assert CliRunner().invoke(cli, ["simulate", "mandarin", "-n", "1", "--seed", "4", "--log", str(log)]).exit_code == 0
    browser.get(f"{base}/")
    assert browser.find_elements(By.CSS_SELECTOR, "#rulesets a.ruleset")
    browser.find_element(By.ID, "open-file").send_keys(str(log))
    browser.find_element(By.ID, "open").click()
    wait(browser, lambda d: "/replay/" in d.current_url and d.find_elements(By.CSS_SELECTOR, "#board svg"),
         "the log opens as a replay")
    browser.find_element(By.ID, "last").click()
    wait(browser, lambda d: "Game over" in d.find_element(By.ID, "status").text, "the end of the game")
    screenshot(browser, shots, "replay-opened")
    assert console_errors(browser) == []


def test_two_people_at_one_screen_hand_it_over(server: tuple[str, WebApp], browser: WebDriver, shots: Path) -> None:
    base, _ = server
    browser.get(f"{base}/new?ruleset=china-cornett")
    browser.find_element(By.ID, "seat2").clear()
    browser.find_element(By.ID, "seat2").send_keys("human")
    browser.find_element(By.ID, "start").click()
    wait(browser, my_turn, "P1's turn")
    browser.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
    wait(browser, lambda d: d.find_elements(By.ID, "handover"), "P2 is offered the screen")
    assert browser.find_elements(By.CSS_SELECTOR, "#moves button") == []  # P1 sees no move of P2
    browser.find_element(By.ID, "handover").click()
    wait(browser, lambda d: "P2 to act" in d.find_element(By.ID, "status").text
         and d.find_elements(By.CSS_SELECTOR, "#moves button"), "P2 sees the board and P2's moves")
    assert Select(browser.find_element(By.ID, "viewer")).first_selected_option.text == "P2"
    screenshot(browser, shots, "handover")
    assert console_errors(browser) == []
