"""A book (model.py) written out: as one HTML page (jinja2, autoescaped, its CSS inline, its drawing
inline SVG: nothing fetched from anywhere), as PDF pages laid out by WeasyPrint from that page (the
`book` extra), or as plain text for the terminal."""

from __future__ import annotations

import textwrap
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from .model import Book, Code, Para, Rule
from .quotes import Quote

TEMPLATES = Path(__file__).parent / "templates"
WIDTH = 88  # the text book's lines


class MissingExtra(Exception):
    """The PDF needs WeasyPrint: the message says how to install it."""


@cache
def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(default=True),
                      undefined=StrictUndefined, trim_blocks=False, keep_trailing_newline=True)
    env.tests["code"] = lambda value: isinstance(value, Code)
    return env


def html(book: Book) -> str:
    """The book as one self-contained HTML page."""
    css = (TEMPLATES / "book.css").read_text(encoding="utf-8")
    return _environment().get_template("book.html.j2").render(book=book, css=css)


def pdf(book: Book) -> tuple[bytes, int]:
    """The book as PDF (A4, each top section from a new page), and its number of pages. The page is
    given to WeasyPrint as text with a base URL of nothing: it reads no file and no address (the
    page names none; a URL fetcher that refuses everything makes sure)."""
    try:
        import weasyprint  # type: ignore[import-untyped]
    except ImportError:
        raise MissingExtra("--pdf needs weasyprint: pip install 'rulewright[book]'") from None
    except OSError as exc:  # (weasyprint is there, the system's pango it loads is not)
        raise MissingExtra(f"--pdf: weasyprint cannot load the system's pango ({str(exc).splitlines()[0]}): "
                           "install pango (Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0)") from None

    def refuse(url: str, *args: object, **kwargs: object) -> dict[str, object]:
        raise ValueError(f"the book fetches nothing ({url[:60]})")

    document = weasyprint.HTML(string=html(book), url_fetcher=refuse, media_type="print").render()
    data = document.write_pdf()
    assert isinstance(data, bytes)
    return data, len(document.pages)


def text(book: Book) -> str:
    """The book as plain text: headings, words, quotes (`>`), declarations indented, marks as
    `diff` writes them (`+` added, `-` removed, `~` changed)."""
    out: list[str] = [book.title, "=" * len(book.title)]
    out += [line for line in (book.author, book.players) if line]
    out.append(f"The rule set {book.ruleset}, from {', '.join(book.files)}.")
    out += _quotes(book.about, "")
    if book.against is not None:
        out += ["", book.summary + "."]
    for s in book.sections:
        out += ["", "", s.title, "-" * len(s.title)]
        for p in s.intro:
            out += _wrap(_plain(p), "")
        out += _quotes(s.quotes, "")
        if s.figure:
            out += ["", f"[drawing: {s.caption}; in --html and --pdf]"]
        for g in s.groups:
            if g.title:
                out += ["", f"{g.title}:"]
            out += _quotes(g.quotes, "")
            for rule in g.rules:
                out += _rule(rule)
    return "\n".join(out) + "\n"


_SIGNS = {"added": "+", "removed": "-", "changed": "~", "": " "}


def _rule(rule: Rule) -> list[str]:
    sign = _SIGNS.get(rule.status, " ")
    out = ["", f"{sign} {rule.kind} {rule.name}  ({rule.where})" + (f"  [{rule.status}]" if rule.status else "")]
    for p in rule.words:
        out += _wrap(_plain(p), "    ")
    out += _quotes(rule.quotes, "    ")
    if rule.declaration and rule.status != "removed":
        out += ["      " + line for line in rule.declaration.splitlines()]
    for m in rule.marks:
        out.append(f"    {_SIGNS[m.kind]} {m.kind} {m.path}  ({m.where})")
        if m.kind == "added" and m.path == rule.path:
            continue  # (the rule itself is the new text)
        for label, value in (("was", m.old), ("now", m.new)):
            if value is not None:
                out.append(f"        {label}:")
                out += ["          " + line for line in value.splitlines()]
    return out


def _plain(p: Para) -> str:
    return "".join(f"`{part}`" if isinstance(part, Code) else part for part in p)


def _wrap(line: str, indent: str) -> list[str]:
    return textwrap.wrap(line, WIDTH, initial_indent=indent, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False) or [indent]


def _quotes(quotes: tuple[Quote, ...], indent: str) -> list[str]:
    out: list[str] = []
    for q in quotes:
        out += _wrap(q.text, indent + "  > ") + [f"{indent}  > ({q.where})"]
    return out
