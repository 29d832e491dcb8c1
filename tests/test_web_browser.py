"""The web board in a real browser (issues 17 and 39): headless Chromium from the system's packages,
driven by Selenium through the system's chromedriver, named explicitly (Selenium Manager, which
would download a driver, is never asked). Every bundled rule set is played to the end by clicks
on the board, the hand and the list, its start, middle and end saved as screenshots and their
text checked for component ids and hidden fields; the page at a phone's and a laptop's size; a
click on a spot no move names says why; a replay of a log is stepped, jumped and seen from each
seat; a scenario file is stepped. The browser's console must hold no error. Screenshots go to
build/screenshots/, or the folder RULEWRIGHT_SCREENSHOTS names.

`./dev test` installs Chromium and its driver (apt-get, as root) before the suite; where no
browser can be installed these tests are skipped, saying so.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import pytest

import rulewright
from rulewright.core.paths import bundled_rulesets
from rulewright.viewer import PlaySession
from rulewright.web import WebApp, make_app
from tests.helpers.browser import WAIT, console_errors, missing_browser, start_chromium, stop, wait
from tests.helpers.web import served

GAMES = ("china-cornett", "china-schacht", "mandarin", "yellow-yangtze", "chang-cheng")
# Every bundled rule set is played to the end by clicks; the replay and the seat switch, the same
# code for any of them, on each game's base.
RULESETS = tuple(ruleset for ruleset, _ in bundled_rulesets())
# The games with a hand or a screen of one's own, and a classic: at a phone's and a laptop's size.
VIEWPORT_RULESETS = (*GAMES, "othello")
ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios" / "china-cornett" / "rulebook.yaml"
HAND = ROOT / "tests" / "pages" / "hand-to-board.yaml"

if missing_browser() is not None:
    pytest.skip(str(missing_browser()), allow_module_level=True)

selenium = pytest.importorskip("selenium", reason="selenium is not installed: pip install -e '.[dev]'")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, WebApp]]:
    app, _ = make_app(None)
    with served(app) as port:
        yield f"http://127.0.0.1:{port}", app


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    try:
        driver, profile = start_chromium()
    except Exception as exc:  # noqa: BLE001 - a browser that cannot start: say so, skip
        pytest.skip(f"Chromium did not start ({type(exc).__name__}: {str(exc).splitlines()[0]})")
    yield driver
    stop(driver, profile)


@pytest.fixture(scope="module")
def shots() -> Path:
    chosen = os.environ.get("RULEWRIGHT_SCREENSHOTS")
    folder = Path(chosen) if chosen else ROOT / "build" / "screenshots"  # (build/ is not kept by git)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(driver: WebDriver, folder: Path, name: str) -> None:
    path = folder / f"{name.replace('/', '-')}.png"
    assert driver.save_screenshot(str(path)) and path.stat().st_size > 1000


def my_turn(driver: WebDriver) -> bool:
    moves = driver.find_elements(By.CSS_SELECTOR, "#moves button")
    status = driver.find_element(By.ID, "status").text
    together = status.split(" choose at once")[0].replace(",", " ").split() if " choose at once" in status else []
    return bool(moves) and ("P1 to act" in status or "P1" in together)  # (`P1, P2 choose at once`: simultaneous)


def board_spots(driver: WebDriver) -> set[str]:
    # read in one script, not element by element: where another seat moves first (backgammon's
    # opening roll), its agent's move draws the board again while it is read
    spots = driver.execute_script(
        "return Array.from(document.querySelectorAll('#board [data-spot]'), e => e.getAttribute('data-spot'))")
    return {str(s) for s in spots}


# What the page holds, read in one script (the page may draw again between two reads): the last
# answer's facts (board.js `lastPlay`), whether the seat viewed has a decision, what a click did.
# WAIT_FOR waits in the page itself (one round trip, not a poll from here) until `arguments[0]`
# holds: "decision" (P1 has one after `arguments[1]` history lines, or the game is over) or
# "played" (a click played a move, listed the moves it names, or said why not).
WAIT_FOR = """
const [what, before, done] = arguments;
function seen() {
  if (typeof lastPlay === "undefined" || lastPlay === null) return null;
  const d = lastPlay;
  return {terminal: d.terminal, history: d.history.length, mine: myDecision(d) && d.moves.length > 0 && !busy,
          moves: d.moves.length, complete: complete(), listed: document.querySelectorAll("#moves button").length,
          message: document.getElementById("message").textContent,
          why: document.querySelectorAll("#message .why").length};
}
(function check() {
  const s = seen();
  const ready = s && (what === "decision" ? s.terminal || s.mine && s.history > before
                      : s.history > before || s.terminal || s.why || s.message.includes("choose one"));
  if (ready) done(s); else setTimeout(check, 5);
})();
"""
# How a click reaches move `arguments[0]` of the list sent: the spots naming it (the server's
# `spot_moves`) and the pieces naming it (a word of the move among the piece's `data-names`), but
# not a piece on a spot a move names (a click there picks the spot).
WAYS = """
const k = arguments[0];
const named = lastPlay.spot_moves || {};
const spots = Object.keys(named).filter(s => named[s].includes(k));
const items = Array.from(document.querySelectorAll("#board [data-names].can, #mine [data-names].can"));
const free = e => { const s = e.closest("[data-spot]"); return !s || !(s.dataset.spot in named); };
return {text: lastPlay.moves[k], spots: spots,
        items: items.map((e, i) => free(e) && namesOf(e).some(n => words[k].includes(n)) ? i : -1).filter(i => i >= 0)};
"""
PICKABLE = "#board [data-names].can, #mine [data-names].can"  # the pieces a move names
# Everything a player reads on the page: its text, the drawing's words and its tooltips.
PAGE_TEXT = """
const parts = [document.body.innerText];
for (const t of document.querySelectorAll("svg text, svg title")) parts.push(t.textContent);
return parts.join("\\n");
"""
LISTED = "return Array.from(document.querySelectorAll('#moves button')).find(b => b.dataset.move === arguments[0])"
CLICK = "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}))"
SEEDS_TRIED = 10  # a whole game is played with the seed, of 1 to SEEDS_TRIED, that ends soonest
MOST_DECISIONS = 250  # P1's decisions in one game, at most


def wait_in_page(driver: WebDriver, what: str, before: int) -> dict[str, Any]:
    return cast(dict[str, Any], driver.execute_async_script(WAIT_FOR, what, before))


def start_game(driver: WebDriver, base: str, ruleset: str, seed: int, players: int | None = None) -> None:
    """A game of `ruleset` with P1 a person and the other seats random agents, started from the
    form, the agents playing at once (`?pace=0`)."""
    driver.get(f"{base}/new?ruleset={ruleset}" + (f"&players={players}" if players else ""))
    assert driver.find_element(By.ID, "seat1").get_attribute("value") == "human"
    driver.find_element(By.ID, "seed").clear()
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: "/game/" in d.current_url, "the game starts")
    driver.get(driver.current_url.split("?")[0] + "?pace=0")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the board is drawn")


def game_by_choices(game: rulewright.Game, ruleset: str, seed: int) -> tuple[int, int]:
    """The game the browser test plays, played here without a browser: P1 a person choosing each
    move at random (random.Random(ruleset)) among those listed, the others random agents, forced
    decisions played at once; P1's decisions and the moves of the game (at most MOST_DECISIONS + 1)."""
    players = game.info.players[0]
    session = PlaySession.start(game, players, seed, ["human"] + ["random"] * (players - 1))
    rng = random.Random(ruleset)
    decisions = 0
    while not session.state.is_terminal() and decisions <= MOST_DECISIONS:
        if session.agent_to_act() is not None:
            session.step_agent()
            continue
        moves = [str(a) for a in session.state.legal_actions(0)]
        decisions += 1
        assert session.play(0, moves[rng.randrange(len(moves))]) is None
    return decisions, len(session.history)


def bookkeeping(ruleset: str) -> tuple[re.Pattern[str] | None, list[str]]:
    """What must never be on the page: component ids (`tile62`, a kind of GameInfo.attributes
    followed by digits) and the fields the look hides; None when the rule set has no look yet."""
    info = rulewright.load(ruleset).info
    look: Mapping[str, Any] = getattr(info, "look", None) or {}
    if not look:
        return None, []
    kinds = sorted({"tile", *getattr(info, "attributes", {})}, key=len, reverse=True)
    ids = re.compile(r"(?<![\w])(?:" + "|".join(re.escape(k) for k in kinds) + r")\d+(?![\w])")
    fields = look.get("fields", {})
    hidden = [name for name, how in fields.items() if (how.get("as") if isinstance(how, Mapping) else how) == "hidden"]
    return ids, hidden


def check_page(driver: WebDriver, ruleset: str, when: str) -> str | None:
    """The page's text holds no component id and no hidden field (see `bookkeeping`); the text
    read, or None when there is no look to check it against."""
    ids, hidden = bookkeeping(ruleset)
    if ids is None:
        return None
    text = str(driver.execute_script(PAGE_TEXT))
    found = sorted(set(ids.findall(text)))
    where = ids.search(text)
    assert not found, (f"{ruleset}, {when}: component ids on the page: {found[:10]}, as in "
                       f"...{text[max(0, where.start() - 60):where.end() + 20] if where else ''}...")
    for name in hidden:
        # as a field is shown (`name: value`, its title so), or the name itself where no word is
        # written so (`was_empty`); a hidden `turns` or `over` may be a word of the page (`Game over`)
        words = [rf"{re.escape(name)}\s*:", rf"{re.escape(name.replace('_', ' '))}\s*:"]
        if "_" in name:
            words.append(re.escape(name))
        shown = re.search(r"(?<![\w])(?:" + "|".join(words) + ")", text)
        assert not shown, f"{ruleset}, {when}: hidden field `{name}` shown: {text[shown.start():shown.end() + 40]}"
        assert not driver.find_elements(By.CSS_SELECTOR, f'[data-field="{name}"]'), f"{ruleset}, {when}: `{name}` drawn"
    return text


def click_why(driver: WebDriver) -> None:
    """A click on a spot no move names says why, with the rule; the message is then cleared."""
    unlit = driver.find_elements(By.CSS_SELECTOR, "#board .spot:not(.legal)")
    if unlit:
        driver.execute_script(CLICK, unlit[0])
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#message .why"), "why the click plays nothing")
        assert "No move of yours names" in driver.find_element(By.ID, "message").text
        driver.execute_script("showMessage([])")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_whole_game_is_played_by_clicks(ruleset: str, server: tuple[str, WebApp], browser: WebDriver,
                                          shots: Path) -> None:
    """P1 plays a whole game against random agents by clicks, each move chosen at random among
    those listed and reached the way a player would: a click on a spot or a piece naming it (a
    real click the first time, so that a label over it would take the click; then clicks sent
    by script, for time), then on the list when the click names several moves; on the list when
    no spot or piece names it. The game is the one `game_by_choices` plays without a browser
    (with the seed that ends soonest): the same number of moves. The start, the middle and the
    end are saved as screenshots, and their text checked for ids and hidden fields."""
    base, _ = server
    game = rulewright.load(ruleset)
    (expected, length), seed = min((game_by_choices(game, ruleset, s), s) for s in range(1, SEEDS_TRIED + 1))
    assert expected <= MOST_DECISIONS, f"{ruleset}: no seed of 1 to {SEEDS_TRIED} ends in {MOST_DECISIONS} decisions"
    rng, ways = random.Random(ruleset), random.Random(0)
    labels = set(game.new_state(seed=seed).board.labels)
    browser.set_window_size(1280, 900)
    browser.set_script_timeout(WAIT)
    start_game(browser, base, ruleset, seed)
    assert board_spots(browser) == labels
    name = ruleset.replace("/", "-")
    texts: list[str | None] = []
    real = {"spot": False, "item": False}
    clicks = {"spot": 0, "item": 0, "list": 0}
    before, decisions = -1, 0
    while True:
        state = wait_in_page(browser, "decision", before)
        if state["terminal"]:
            break
        decisions += 1
        assert state["complete"], f"{ruleset}: more moves than the page is sent"
        if decisions in (1, expected // 2 + 1):
            texts.append(check_page(browser, ruleset, f"decision {decisions}"))
            browser.execute_script("window.scrollTo(0, 0)")  # (a click may have scrolled the page)
            assert browser.save_screenshot(str(shots / f"{name}-{'start' if decisions == 1 else 'middle'}.png"))
        if decisions == 2:
            click_why(browser)
        before = state["history"]
        k = rng.randrange(state["moves"])
        way = browser.execute_script(WAYS, k)
        kinds = [kind for kind in ("spot", "item") if way[kind + "s"]] or ["list"]
        kind = ways.choice(kinds)
        clicks[kind] += 1
        if kind == "spot":
            target = browser.find_element(By.CSS_SELECTOR, f'#board [data-spot="{ways.choice(way["spots"])}"]')
        elif kind == "item":
            target = browser.find_elements(By.CSS_SELECTOR, PICKABLE)[ways.choice(way["items"])]
        else:  # (the list shows the first moves_listed; a move past them, named by no spot or piece, is typed)
            target = browser.execute_script(LISTED, way["text"])
            if target is None:
                browser.execute_script("document.getElementById('move-text').value = arguments[0]", way["text"])
                target = browser.find_element(By.CSS_SELECTOR, "#typed button")
        if kind != "list" and not real[kind]:
            target.click()  # (a label over it would take the click: ElementClickInterceptedException)
            real[kind] = True
        else:
            browser.execute_script(CLICK, target)
        after = wait_in_page(browser, "played", before)
        assert not after["why"], f"{ruleset}: a click on a {kind} naming `{way['text']}`: {after['message']}"
        if after["history"] == before and not after["terminal"]:  # several moves named: the one chosen
            button = browser.execute_script(LISTED, way["text"])
            assert button is not None, f"{ruleset}: `{way['text']}` is not among the moves the click listed"
            browser.execute_script(CLICK, button)
    texts.append(check_page(browser, ruleset, "the end"))
    assert "Game over" in browser.find_element(By.ID, "status").text
    browser.execute_script("window.scrollTo(0, 0)")
    assert browser.save_screenshot(str(shots / f"{name}-end.png"))
    assert (decisions, state["history"]) == (expected, length), "the game played by clicks is the one chosen"
    if labels and not ruleset.startswith(("mandarin", "backgammon", "connect-four")):
        # (backgammon's moves name points counted from the mover's side, `move 13 by 6`; connect-four's
        # a column; Mandarin's board is the squares a pawn moves on, its moves name none)
        assert clicks["spot"] or clicks["item"], f"{ruleset}: no move was played on the board"
    assert console_errors(browser) == []
    if None in texts:
        pytest.skip(f"{ruleset} has no `look:` yet (issue 39): played to the end by clicks ({decisions} decisions, "
                    f"{clicks}); the check for component ids and hidden fields on the page is skipped")


def test_a_piece_of_the_hand_is_picked_then_put_or_dragged(server: tuple[str, WebApp], browser: WebDriver,
                                                            shots: Path) -> None:
    """Where the drawing marks the pieces of a hand (`data-names`, tests/pages/hand-to-board.yaml):
    a click on a piece of the seat's own area lists the moves naming it, then a spot plays the one
    naming both; a piece dragged onto a spot plays the move naming both (pointer events). The
    status bar and the move list and history read the look's words."""
    base, app = server
    game = rulewright.load_rules(HAND)
    app.games[str(HAND)] = lambda: game
    browser.set_window_size(1280, 900)
    browser.set_script_timeout(WAIT)
    start_game(browser, base, quote(str(HAND), safe="/"), 1)
    wait_in_page(browser, "decision", -1)
    assert "P1 to act (you): Put a tile of your hand on a free spot" in browser.find_element(By.ID, "status").text
    assert all(b.text.startswith("put a ") for b in browser.find_elements(By.CSS_SELECTOR, "#moves button"))
    pieces = browser.find_elements(By.CSS_SELECTOR, "#mine [data-names].can")
    assert len(pieces) == 4, "P1's four tiles, in its own area"
    kind = (pieces[0].get_attribute("data-names") or "").split()[-1]
    pieces[0].click()
    wait(browser, lambda d: "choose one" in d.find_element(By.ID, "message").text, "the moves naming the piece")
    listed = [b.get_attribute("data-move") for b in browser.find_elements(By.CSS_SELECTOR, "#moves button")]
    assert len(listed) == 7 and all(str(m).startswith(f"put {kind} ") for m in listed)
    browser.find_element(By.CSS_SELECTOR, '#board [data-spot="B2"]').click()
    state = wait_in_page(browser, "decision", 0)
    lines = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#history li")]
    assert lines[0] == f"P1 put a {kind} on B2" and f"P1 put a {kind} on B2" in browser.find_element(By.ID, "last").text
    last = lines[-1].split()[-1]  # (P2's move, `P2 put a farmer on C1`: its spot outlined on the board)
    assert [e.get_attribute("data-spot") for e in browser.find_elements(By.CSS_SELECTOR, "#board .spot.last")] == [last]
    piece = browser.find_elements(By.CSS_SELECTOR, "#mine [data-names].can")[0]
    kind = (piece.get_attribute("data-names") or "").split()[-1]
    free = sorted(browser.execute_script("return Object.keys(lastPlay.spot_moves)"))[0]
    target = browser.find_element(By.CSS_SELECTOR, f'#board [data-spot="{free}"]')
    ActionChains(browser).click_and_hold(piece).move_by_offset(12, 0).move_to_element(target).release().perform()
    after = wait_in_page(browser, "decision", state["history"])
    lines = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#history li")]
    assert after["history"] > state["history"] and lines[state["history"]] == f"P1 put a {kind} on {free}"
    screenshot(browser, shots, "hand-to-board")
    assert console_errors(browser) == []


def in_view(driver: WebDriver, css: str) -> bool:
    return bool(driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e || e.hidden) return false;"
        "const r = e.getBoundingClientRect();"
        "return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight + 1 && r.left >= 0 && r.right <= innerWidth + 1;",
        css))


@pytest.mark.parametrize(("width", "height"), [(412, 915), (1280, 720)], ids=["phone", "laptop"])
@pytest.mark.parametrize("ruleset", VIEWPORT_RULESETS)
def test_the_page_fits_a_phone_and_a_laptop(ruleset: str, width: int, height: int, server: tuple[str, WebApp],
                                            browser: WebDriver, shots: Path) -> None:
    """No horizontal scroll; the board scaled to the width and in view; the seat's own area in
    view without scrolling; the status bar saying whose turn it is."""
    base, _ = server
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        browser.set_script_timeout(WAIT)
        start_game(browser, base, ruleset, 1)
        wait_in_page(browser, "decision", -1)
        widths = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert widths[0] <= widths[1], f"a horizontal scroll: the page is {widths[0]} px wide in {widths[1]}"
        board = browser.execute_script("const r = document.querySelector('#board svg').getBoundingClientRect();"
                                       "return [r.left, r.top, r.width, r.height];")
        assert board[1] < height and board[2] >= min(width, 1280) * 0.55, f"the board is not in view: {board}"
        assert browser.find_elements(By.CSS_SELECTOR, '#board g.player[data-seat="1"]'), "the drawing has P1's area"
        assert in_view(browser, "#mine"), "the seat's own area is below the fold"
        assert in_view(browser, "#status") and "P1" in browser.find_element(By.ID, "status").text
        screenshot(browser, shots, f"{'phone' if width < 600 else 'laptop'}-{ruleset}")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
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
    browser.find_element(By.ID, "last-move").click()
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
