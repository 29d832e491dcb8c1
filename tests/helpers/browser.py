"""Headless Chromium for the browser tests of the web board: the system's browser and chromedriver,
named explicitly (Selenium Manager, which would download a driver, is never asked), or a skip
saying why; tests/test_web_browser.py and tests/test_web_browser_seats.py use these."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from typing import Any

CHROMIUM = os.environ.get("RULEWRIGHT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("RULEWRIGHT_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000")
WAIT = 15  # seconds a page may take to show what is waited for


def missing_browser() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)
            and os.path.isfile(CHROMEDRIVER) and os.access(CHROMEDRIVER, os.X_OK)):
        return None
    return (f"no Chromium and chromedriver ({CHROMIUM}, {CHROMEDRIVER}): the browser tests of the web board "
            "are skipped; `./dev test` installs them as root (apt-get install chromium chromium-driver), or "
            "name them with RULEWRIGHT_CHROMIUM and RULEWRIGHT_CHROMEDRIVER")


def start_chromium() -> tuple[Any, str]:
    """A headless Chromium driven by Selenium, with its own profile folder (removed by `stop`);
    raises what Selenium raises when it cannot start."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="rulewright-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options), profile
    except BaseException:
        shutil.rmtree(profile, ignore_errors=True)
        raise


def stop(driver: Any, profile: str) -> None:
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait(driver: Any, what: Callable[[Any], Any], message: str) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(what, message)


def console_errors(driver: Any, expected: Callable[[str], bool] = lambda message: False) -> list[str]:
    """The browser console's errors, less those `expected` says the test caused on purpose."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and not expected(e["message"])]
