"""`rulewright book` (issue 40, item 1): a rule set as a readable rulebook.

Every bundled rule set's book renders as HTML with each of its parts; a variant against its base
shows the rules it adds, removes and changes marked (<ins>, <del>) at the rule, with the file:line
each comes from, and the changes no rule shows apart; the rulebook's words come from the rule
file's comments, escaped; the same book twice is the same bytes; the errors are one line. In a
real browser the page has no console error and fetches nothing; as PDF, its pages (pdftoppm) are
as many as its parts make (tests/book/tiny.yaml: each part fits a page).
"""

from __future__ import annotations

import importlib.abc
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright import book
from rulewright.compiler.diff import diff, load_ruleset
from rulewright.core.paths import bundled_rulesets
from tests.helpers.cli import assert_user_error, run

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "book" / "tiny.yaml"
TINY_VARIANT = ROOT / "tests" / "book" / "tiny-variant.yaml"
# The parts every book has, in order (options, terms and variants where the rule set has them).
PARTS = ("components", "setup", "play", "scoring", "end")


def _html(ruleset: str, file: Path, against: str | None = None, against_file: Path | None = None) -> str:
    return book.html(book.make(ruleset, file, against, against_file))


def _element(page: str, tag: str, ident: str) -> str:
    """The element `<tag ... id="ident">...</tag>` of the page (rules hold no element of their own tag)."""
    found = re.search(rf'<{tag} [^>]*id="{re.escape(ident)}">(.*?)</{tag}>\n', page, re.S)
    assert found is not None, f"no <{tag} id={ident}>"
    return found.group(1)


@pytest.mark.parametrize("ruleset,file", bundled_rulesets(), ids=[r for r, _ in bundled_rulesets()])
def test_every_bundled_rule_set_reads_as_a_book(ruleset: str, file: Path) -> None:
    made = book.make(ruleset, file)
    page = book.html(made)
    keys = [s.key for s in made.sections]
    assert [k for k in keys if k in PARTS] == list(PARTS)
    for key in keys:
        assert f'<section class="top" id="{key}">' in page
    assert "<svg" in _element(page, "section", "components")  # the first position, drawn
    rules = load_ruleset(file)
    for action in rules.actions:  # each action in words, with its file:line
        assert f'id="actions.{action.name}"' in page and action.span.short in page
    assert not re.search(r"<script|<link|<img|@import|url\(|src=|https?://(?!www\.w3\.org/2000/svg)", page)
    style = page[page.index("<style>"):page.index("</style>")]
    assert ".mark > ins" in style and "&gt;" not in style  # (the package's CSS as written, not escaped)


def test_the_drawing_shows_what_every_seat_sees_alike_only() -> None:
    figure = book.first_position("mandarin")  # each seat's yuans are its own (visible: owner)
    assert figure is not None
    svg, caption = figure
    assert "yuans: ?" in svg and "3000" not in svg and "seen by a spectator" in svg
    assert "at 2 players" in caption and "seed 0" in caption


def test_a_variant_shows_what_it_adds_removes_and_changes_at_the_rule() -> None:
    page = _html("mandarin/money", ROOT / "rules/mandarin/money.yaml", "mandarin", ROOT / "rules/mandarin/base.yaml")
    # changed: the phase keeps its place, the old list struck out and the new one inserted, where it is written
    dispense = _element(page, "article", "phases.dispense")
    mark = re.search(r'<div class="mark mark-changed">(.*?)</div>', dispense, re.S)
    assert mark is not None
    assert "rules/mandarin/money.yaml:8" in mark.group(1)
    assert "<del><code>[keep, draw_again]</code></del>" in mark.group(1)
    assert "<ins><code>[keep, draw_again, sell]</code></ins>" in mark.group(1)
    # added: the new action in the phase that lists it, inserted, with the line of the variant
    sell = _element(page, "ins", "actions.sell")
    assert "rules/mandarin/money.yaml:11" in sell and "auction it" in sell
    assert page.index('id="phases.dispense"') < page.index('id="actions.sell"') < page.index('id="phases.auction"')
    # removed: the old scoring term struck out where it was, with the line of the base that wrote it
    victory = _element(page, "del", "scoring.victory")
    assert "rules/mandarin/base.yaml:568" in victory and "1 if complete(player) else 0" in victory
    assert "4 changes from mandarin: 2 added, 1 removed, 1 changed" in page


def test_every_change_is_shown_once_and_none_is_lost() -> None:
    page = _html(str(TINY_VARIANT), TINY_VARIANT, str(TINY), TINY)
    changes = diff(load_ruleset(TINY), load_ruleset(TINY_VARIANT))
    shown = re.findall(r'<div class="mark mark-(\w+)"><span class="mark-what">\w+ <code>([^<]*)</code>', page)
    assert sorted(shown) == sorted((c.kind, c.path) for c in changes)
    # the look, which no rule shows, is listed under "Other changes"
    assert "look" in [c.path for c in changes]
    assert "<code>look</code>" in _element(page, "section", "changes")
    # a condition added to a rule that was there marks that rule as changed
    assert "<ins><code>laps[current] == 0</code></ins>" in _element(page, "article", "actions.run")


def test_the_rulebook_words_are_the_comments_above_and_inside_a_rule_escaped() -> None:
    page = _html(str(TINY_VARIANT), TINY_VARIANT)
    lines = TINY.read_text(encoding="utf-8").splitlines()
    at = _element(page, "article", "state.at")
    line = next(k for k, text in enumerate(lines, 1) if "Chaque coureur" in text)
    assert "Chaque coureur part de la ligne." in at and f"tests/book/tiny.yaml:{line}" in at
    run_rule = _element(page, "article", "actions.run")  # the base's words and the variant's, each from its file
    assert "Courez &lt;script&gt;alert(1)&lt;/script&gt;" in run_rule and "Courez deux fois plus vite." in run_rule
    assert "tests/book/tiny-variant.yaml:" in run_rule
    option = _element(page, "article", "options.step")
    assert "&lt;b&gt;not bold&lt;/b&gt;" in option and "<code>one</code> (default)" in option
    assert "<h1>Tiny race &lt;i&gt;&amp; co&lt;/i&gt;</h1>" in page
    assert "<script" not in page and "<b>" not in page
    assert "tests/book/tiny.yaml" in _element(page, "section", "variants")  # what it extends


def test_a_base_lists_its_variants_and_a_variant_what_it_builds_on() -> None:
    base = _element(_html("mandarin", ROOT / "rules/mandarin/base.yaml"), "section", "variants")
    assert 'id="variants.rules/mandarin/money.yaml"' in base and "Mandarin: a variant of this rule set." in base
    assert "the richest player wins" in base  # (the head of the variant's file)
    variant = _element(_html("mandarin/money", ROOT / "rules/mandarin/money.yaml"), "section", "variants")
    assert "This rule set extends mandarin" in variant and "rules/mandarin/base.yaml:1" in variant


def test_a_mirrored_kind_of_region_counts_the_regions_it_mirrors() -> None:
    """China (Cornett)'s rivers are its mountains reflected (`mirror_of: mountain`): they hold no
    region list of their own, yet there are as many rivers as mountains."""
    text = book.text(book.make("china-cornett", ROOT / "rules/china-cornett/base.yaml"))
    assert "Its regions: mountain (17), river (17, the mirror image of mountain)." in text
    assert "Its regions: mountain (12), river (12, the mirror image of mountain)." in text


def test_the_book_as_text_marks_changes_as_diff_does() -> None:
    result = run("book", str(TINY_VARIANT), "--against", str(TINY))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "+ action rest  (tests/book/tiny-variant.yaml:" in out
    assert "- term lapped  (tests/book/tiny.yaml:" in out
    assert "~ phase race  (tests/book/tiny.yaml:" in out and "~ changed phases.race.actions" in out
    assert '> "Le premier à boucler un tour gagne."' in out


def test_the_same_book_twice_is_the_same_bytes(tmp_path: Path) -> None:
    pages = []
    for name in ("a", "b"):
        result = run("book", "mandarin/money", "--against", "mandarin", "--html", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == f"wrote {tmp_path / name / 'index.html'}"
        pages.append((tmp_path / name / "index.html").read_bytes())
    assert pages[0] == pages[1]
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["index.html"]  # (no temporary file left)


def test_errors_are_one_line(tmp_path: Path) -> None:
    assert_user_error(run("book", "no-such-game"), "no-such-game")
    assert_user_error(run("book", "mandarin", "--against", "no-such-game"), "no-such-game")
    both = run("book", "mandarin", "--html", str(tmp_path / "h"), "--pdf", str(tmp_path / "b.pdf"))
    assert_user_error(both, "--html and --pdf")
    assert both.exit_code == 2 and not (tmp_path / "h").exists() and not (tmp_path / "b.pdf").exists()
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    unwritable = run("book", "mandarin", "--html", str(blocker / "book"))
    assert_user_error(unwritable, "cannot write", str(blocker / "book" / "index.html"))
    assert unwritable.exit_code == 1
    broken = tmp_path / "broken.yaml"
    broken.write_text(TINY.read_text(encoding="utf-8").replace("at[current] += stride", "at[current] += strid"))
    result = run("book", str(broken))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{broken}:" in result.stderr and "rulewright: error: 1 problem in the rules" in result.stderr


def test_a_missing_pdf_library_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # (an import of it raises ImportError)
    result = run("book", str(TINY), "--pdf", str(tmp_path / "t.pdf"))
    assert_user_error(result, "pip install 'rulewright[book]'")
    assert not (tmp_path / "t.pdf").exists()


class _NoPango(importlib.abc.MetaPathFinder):
    """Imports weasyprint as a system without pango does: OSError from the library loader."""

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if name == "weasyprint":
            raise OSError("cannot load library 'libpango-1.0-0': no such file")


def test_a_system_without_pango_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delitem(sys.modules, "weasyprint", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_NoPango(), *sys.meta_path])
    result = run("book", str(TINY), "--pdf", str(tmp_path / "t.pdf"))
    assert_user_error(result, "weasyprint cannot load the system's pango", "libpango-1.0-0")
    assert not (tmp_path / "t.pdf").exists()


def test_the_pdf_has_a_page_for_the_cover_the_drawing_and_each_part(tmp_path: Path) -> None:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:  # (OSError: no pango on the system)
        pytest.skip(f"weasyprint cannot be used here ({type(exc).__name__}): pip install -e '.[book]'")
    if shutil.which("pdftoppm") is None or shutil.which("pdfinfo") is None:
        pytest.skip("no pdftoppm and pdfinfo (Debian's poppler-utils; ./dev test installs it as root)")
    made = book.make(str(TINY), TINY)
    expected = 1 + 1 + len(made.sections)  # the cover, the drawing, then each part from a new page
    target = tmp_path / "tiny.pdf"
    result = run("book", str(TINY), "--pdf", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"wrote {target} ({expected} pages)"
    data = target.read_bytes()
    assert data.startswith(b"%PDF-")
    info = subprocess.run(["pdfinfo", str(target)], check=True, timeout=60, capture_output=True, text=True)
    assert re.search(rf"^Pages:\s+{expected}$", info.stdout, re.M), info.stdout  # the PDF's own page tree
    subprocess.run(["pdftoppm", "-r", "12", "-png", str(target), str(tmp_path / "page")], check=True, timeout=60)
    assert len(list(tmp_path.glob("page-*.png"))) == expected
    assert book.pdf(made)[0] == data  # the same PDF again, byte for byte


def test_the_page_opens_in_chromium_without_a_console_error(tmp_path: Path) -> None:
    from tests.helpers.browser import console_errors, missing_browser, start_chromium, stop

    if missing_browser() is not None:
        pytest.skip(str(missing_browser()))
    pytest.importorskip("selenium", reason="selenium is not installed: pip install -e '.[dev]'")
    result = run("book", "mandarin/money", "--against", "mandarin", "--html", str(tmp_path))
    assert result.exit_code == 0, result.output
    try:
        driver, profile = start_chromium()
    except Exception as exc:  # noqa: BLE001 - a browser that cannot start: say so, skip
        pytest.skip(f"Chromium did not start ({type(exc).__name__}: {str(exc).splitlines()[0]})")
    try:
        driver.get((tmp_path / "index.html").as_uri())
        assert driver.title == "Mandarin: the rulebook"
        assert driver.execute_script("return document.querySelectorAll('figure svg').length") == 1
        # added: sell, wealth; removed: victory
        assert driver.execute_script("return document.querySelectorAll('ins.rule, del.rule').length") == 3
        fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert fetched == []  # nothing fetched: no script, style, font or image from anywhere
        log = driver.get_log("browser")
        assert [e for e in log if e["level"] in ("SEVERE", "WARNING")] == [], log
        assert console_errors(driver) == []
    finally:
        stop(driver, profile)
