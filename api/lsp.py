"""`rulewright lsp`: the language server of rule files and scenario files (docs/editors.md).

A pygls server over stdio (or TCP, for debugging) that gives an editor, for every rule file
(rules/<game>/*.yaml, or any YAML file of a rule file's shape: `game:`, `extends:`,
`rulewright:`) and scenario file (`scenarios:`) it opens: the checker's problems as one types,
with the messages and places `rulewright check` gives them (the buffers as they are in the
editor, not the files on disk: a variant is checked against its base as the base is being
edited); hover on a name (what it is, its type, signature, doc, rulebook quote, and in a variant
which file declares it and which change it; on `base(...)`, the version it replaces); go to
definition across `extends:` files;
completion of keys, names, enumeration values, board spots and built-ins; and the outline of
the file. What it knows comes from api/ruleindex.py; this module only speaks the protocol.

A buffer that does not parse, or a hostile file, gives diagnostics, never a failed server: a
request that goes wrong all the same is answered with nothing and logged to the editor.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import json
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO, TypeVar

from attr import validators as attrs_validators
from lsprotocol import types as lsp
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .core._version import __version__
from .core.files import MAX_RULE_FILE_BYTES, NotARuleFile, read_file_safely
from .ruleindex import (
    Analysis,
    Item,
    Outline,
    Place,
    Problem,
    analyse,
    complete,
    definition,
    hover,
    on_last_index,
    outline,
    word_at,
)

# How long the server waits after a change before it checks again: one check for a burst of typing.
DEBOUNCE_SECONDS = 0.15
# How long a request waits for the check of the text it is about (then it is answered from the
# last analysis): a file of a few hundred lines is checked within it, one of 1 MiB in minutes. It
# does not wait for a file whose last check took longer, nor, if it has none, for a file of more
# than LARGE_FILE_CHARS.
REQUEST_WAIT = 0.3
LARGE_FILE_CHARS = 64 * 1024
# The most completions sent at once (those that start with what is typed first; the list is then
# marked incomplete, and the editor asks again as one types).
MAX_COMPLETIONS = 500
# On stdio as over TCP, a message's header lines are LSP's own (`Content-Length: N`, `Content-Type:
# ...`, each at most MAX_HEADER_LINE bytes), its body a JSON-RPC object of at most this many bytes
# (a rule file at its limit, every character escaped as `\uXXXX`, fits with room to spare);
# anything else (an HTTP request a web page sends to the port) ends a TCP connection, with one
# line logged, and the server waits for an editor; on stdio it ends the server, with one line.
MAX_MESSAGE_BYTES = 8 * MAX_RULE_FILE_BYTES
MAX_HEADER_LINE = 64 * 1024  # (asyncio's limit of a line, on TCP)
_NAME_BEFORE = re.compile(r"[A-Za-z0-9_]*")
_LSP_HEADER = re.compile(rb"Content-Length: ([0-9]{1,12})\r\n|Content-Type: [ -~]{1,200}\r\n")

_COMPLETION_KINDS: dict[str, lsp.CompletionItemKind] = {
    "key": lsp.CompletionItemKind.Property, "value": lsp.CompletionItemKind.EnumMember,
    "keyword": lsp.CompletionItemKind.Keyword, "builtin": lsp.CompletionItemKind.Function,
    "local": lsp.CompletionItemKind.Variable, "spot": lsp.CompletionItemKind.Constant,
    "type": lsp.CompletionItemKind.TypeParameter, "file": lsp.CompletionItemKind.File,
    "option": lsp.CompletionItemKind.Constant, "field": lsp.CompletionItemKind.Field,
    "definition": lsp.CompletionItemKind.Function, "procedure": lsp.CompletionItemKind.Method,
    "phase": lsp.CompletionItemKind.Module, "action": lsp.CompletionItemKind.Event,
    "trigger": lsp.CompletionItemKind.Event, "scoring": lsp.CompletionItemKind.Property,
    "invariant": lsp.CompletionItemKind.Interface, "enum": lsp.CompletionItemKind.Enum,
    "record": lsp.CompletionItemKind.Struct, "component": lsp.CompletionItemKind.Class,
    "dice": lsp.CompletionItemKind.Class, "attribute": lsp.CompletionItemKind.Property,
    "list": lsp.CompletionItemKind.Variable, "board": lsp.CompletionItemKind.Module,
    "region": lsp.CompletionItemKind.Constant, "version": lsp.CompletionItemKind.Function,
}
_SYMBOL_KINDS: dict[str, lsp.SymbolKind] = {
    "section": lsp.SymbolKind.Namespace, "rule": lsp.SymbolKind.Property, "scenario": lsp.SymbolKind.Event,
    "option": lsp.SymbolKind.Constant, "enum": lsp.SymbolKind.Enum, "component": lsp.SymbolKind.Class,
    "record": lsp.SymbolKind.Struct, "field": lsp.SymbolKind.Field, "definition": lsp.SymbolKind.Function,
    "procedure": lsp.SymbolKind.Method, "phase": lsp.SymbolKind.Module, "action": lsp.SymbolKind.Event,
    "trigger": lsp.SymbolKind.Event, "scoring": lsp.SymbolKind.Number, "invariant": lsp.SymbolKind.Boolean,
    "board": lsp.SymbolKind.Object, "dice": lsp.SymbolKind.Class,
}
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}

log = logging.getLogger(__name__)
T = TypeVar("T")


class OneLine(logging.Filter):
    """Each record logged, one line: the first of its message and, for an exception, its type and
    text, not its traceback (a JSON-RPC request whose params are not the protocol's, which pygls
    logs with the traceback of its parsing)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage().split("\n", 1)[0]
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            message += f": {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        record.msg, record.args, record.exc_info, record.exc_text, record.stack_info = message, (), None, None, None
        return True


def _lines(text: str) -> list[str]:
    """A text's lines as the protocol counts them (`\\n`, `\\r\\n` or `\\r` ends one), as the
    checker's positions count them too."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class Cancelled(BaseException):
    """Raised in a check's thread to stop it (Check.cancel); not an Exception, so that no
    `except Exception` of the checker's code catches it."""


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Raises `exc` in the thread `thread` at its next step of Python (Python's
    PyThreadState_SetAsyncExc); None drops one raised so and not delivered yet."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exc) if exc else None)


class Check:
    """One check, in a thread of its own, that says when it is done (`done`, from that thread:
    the analysis, the exception a bug of ours raised, or None if it was cancelled). `cancel()`
    stops it, if it is still in `work`, by raising Cancelled in its thread: once at most, and
    never past `work` (what the lock guards)."""

    def __init__(self, work: Callable[[], Analysis], done: Callable[[Analysis | Exception | None], None],
                 what: str) -> None:
        self.work, self.done, self.what = work, done, what
        self.lock = threading.Lock()
        self.cancellable = False  # in `work`
        self.cancelled = False  # Cancelled raised in the thread
        self.thread = threading.Thread(target=self.run, name="rulewright-check", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def run(self) -> None:
        outcome: Analysis | Exception | None = None
        try:
            try:
                with self.lock:
                    self.cancellable = True
                outcome = self.work()
            except Exception as exc:  # noqa: BLE001 - a bug of ours: said in the file (publish)
                log.exception("checking %s", self.what)
                outcome = exc
            finally:
                with self.lock:
                    self.cancellable = False
                    if self.cancelled and self.thread.ident is not None:
                        _raise_in(self.thread.ident, None)  # (raised, not delivered yet: dropped)
        except Cancelled:
            outcome = None
        self.done(outcome)

    def cancel(self) -> None:
        with self.lock:
            if self.cancellable and not self.cancelled and self.thread.ident is not None:
                self.cancelled = True
                _raise_in(self.thread.ident, Cancelled)


class RuleServer(LanguageServer):
    """The server, and what it knows of the open files.

    The checks run in a thread of their own, one at a time, never on the loop that answers the
    editor: a file that changed is checked after a pause (one check for a burst of typing), the
    files that read it too, and its problems are sent once its check is done (a rule file of 1 MiB
    takes minutes to check; one of a few hundred lines a fraction of a second). The check of a
    file that changes again or is closed meanwhile is stopped (Check.cancel), and a long check
    gives way to that of a small file that changes, then starts again. A request is
    answered from the analysis of the text it is about if its check ends within REQUEST_WAIT,
    else at once from a view of that text on the file's last analysis (`on_last_index`): no
    request waits longer on a check."""

    def __init__(self) -> None:
        super().__init__("rulewright", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, Analysis] = {}  # uri -> its last analysis (maybe of an earlier text)
        self.known: dict[str, Analysis] = {}  # uri -> its last analysis that indexed a rule set
        self.views: dict[str, tuple[str, Analysis]] = {}  # uri -> (a text not checked yet, its view)
        self.rules_cache: dict[Path, Analysis] = {}  # the rule sets scenario files name (a new one after a change)
        self.dirty: set[str] = set()  # files to check again and report on, after the pause
        self.settled: dict[str, asyncio.Event] = {}  # set while a file's analysis is of its text as it is now
        self.timer: asyncio.TimerHandle | None = None
        self.running: str | None = None  # the file being checked, in the checker's thread
        self.check: Check | None = None  # ... and its check
        self.changed_while: set[str] = set()  # the real paths of the files changed since that check began
        self.urgent: str | None = None  # a file a request waits for: checked next
        self.line_cache: dict[int, tuple[str, list[str]]] = {}  # id(text) -> the text and its lines
        self.took: dict[str, float] = {}  # uri -> how long its last check took (`is_long`)

    # -- the open files -------------------------------------------------------------------------
    def path_of(self, uri: str) -> Path | None:
        path = to_fs_path(uri)
        return Path(path) if path else None

    def open_texts(self) -> dict[str, str]:
        """The text of every file open in the editor, by real path."""
        out: dict[str, str] = {}
        for uri, doc in self.workspace.text_documents.items():
            path = self.path_of(uri)
            if path is not None:
                out[os.path.realpath(path)] = doc.source
        return out

    def settled_event(self, uri: str) -> asyncio.Event:
        if uri not in self.settled:
            self.settled[uri] = asyncio.Event()
        return self.settled[uri]

    def changed(self, uri: str, at_once: bool = False) -> None:
        """A file's text changed (or went back to the disk's, or was opened): it, and every open
        file that reads it, is checked again, after a pause unless `at_once`."""
        path = self.path_of(uri)
        real = os.path.realpath(path) if path is not None else None
        self.rules_cache = {}  # (a new table: a check running fills the old one)
        if real is not None and self.running is not None:
            self.changed_while.add(real)
        if self.running == uri and self.check is not None:  # (its analysis would be of a text gone)
            self.check.cancel()
        elif self.running is not None and self.check is not None and uri in self.workspace.text_documents \
                and self.is_long(self.running) and not self.is_long(uri):  # (the file edited goes first)
            self.check.cancel()
            self.dirty.add(self.running)
        for other, a in self.analyses.items():
            if real is not None and real in a.depends:
                self.dirty.add(other)
        self.dirty.add(uri)
        for other in self.dirty:
            self.settled_event(other).clear()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (no event loop: nothing to check in)
            return
        if at_once:
            self.start_next()
        else:
            self.timer = loop.call_later(DEBOUNCE_SECONDS, self.flush)

    def is_long(self, uri: str) -> bool:
        """Whether a file's check takes longer than a request waits: its last one did, or it is large."""
        doc = self.workspace.text_documents.get(uri)
        return self.took.get(uri, 0.0) > REQUEST_WAIT or (doc is not None and len(doc.source) > LARGE_FILE_CHARS)

    def flush(self) -> None:
        self.timer = None
        self.start_next()

    def start_next(self) -> None:
        """Checks the next file to check, in the checker's thread, unless one is being checked."""
        if self.running is not None or self.timer is not None:
            return
        while self.dirty:
            uri = self.urgent if self.urgent in self.dirty else min(self.dirty, key=lambda u: (self.is_long(u), u))
            self.dirty.discard(uri)
            self.urgent = None if uri == self.urgent else self.urgent
            doc = self.workspace.text_documents.get(uri)
            path = self.path_of(uri)
            if doc is not None and path is not None:
                break
            self.settled_event(uri).set()  # (closed: nothing to wait for)
        else:
            return
        self.running, self.changed_while = uri, set()
        text, texts, cache, loop = doc.source, self.open_texts(), self.rules_cache, asyncio.get_running_loop()

        began = time.monotonic()

        def done(result: Analysis | Exception | None) -> None:
            try:
                loop.call_soon_threadsafe(self.checked, uri, text, result, time.monotonic() - began)
            except RuntimeError:  # (the loop is closed: the server is ending)
                pass

        gc.disable()  # (see `checked`)
        self.check = Check(lambda: analyse(path, text, texts, cache), done, uri)
        self.check.start()

    def checked(self, uri: str, text: str, result: Analysis | Exception | None, took: float) -> None:
        """A check is done (on the loop): its analysis kept, its problems sent if the file, and
        every file it read, are still as it read them; the next file checked. (None: it was
        cancelled.)"""
        self.running, self.check = None, None
        if result is not None:
            self.took[uri] = took
        # Python's collector of cycles holds the interpreter while it walks every object: a full
        # walk of the objects of a 1 MiB rule file's analysis takes a second or more on a busy
        # machine, and stops the answers to the editor (measured: hovers of 0.3 s wall, the worst
        # 4.8 s, while a file was checked beside the analysis of another of 1 MiB; the worst 0.7 s
        # once that analysis was frozen). So it does not run during a check (the few hundred
        # objects in cycles a check leaves wait for it), and the analysis of a large file is moved
        # out of its sight (gc.freeze: it is freed all the same, when it is dropped, as it holds no
        # cycles; the cycles left beside it stay, a few hundred objects a check).
        if len(text) > LARGE_FILE_CHARS:
            gc.freeze()
        gc.enable()
        changed, self.changed_while = self.changed_while, set()
        doc = self.workspace.text_documents.get(uri)
        if doc is not None and result is not None:
            if isinstance(result, Analysis):
                self.analyses[uri] = result
                if result.defs:
                    self.known[uri] = result
                if changed & result.depends:  # (a file it read changed while it was read)
                    self.dirty.add(uri)
            if doc.source == text and uri not in self.dirty:
                self.publish(uri, result)
                self.settled_event(uri).set()
        self.start_next()

    async def current(self, uri: str) -> Analysis | None:
        """What a request on an open file is answered from: the analysis of its text as it is now,
        if its check ends within REQUEST_WAIT; else a view of that text on its last analysis."""
        event = self.settled.get(uri)
        if uri in self.workspace.text_documents and event is not None and not event.is_set() \
                and not self.is_long(uri):
            self.urgent = uri
            if self.timer is not None:  # (the editor waits: no pause)
                self.timer.cancel()
                self.timer = None
                self.start_next()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), REQUEST_WAIT)
        doc = self.workspace.text_documents.get(uri)
        path = self.path_of(uri)
        if doc is None or path is None:
            return None
        a = self.analyses.get(uri)
        text = doc.source
        if a is not None and a.text == text.replace("\r\n", "\n").replace("\r", "\n"):
            return a
        view = self.views.get(uri)
        if view is None or view[0] is not text:
            view = (text, on_last_index(path, text, a if a is not None and a.defs else self.known.get(uri, a)))
            self.views[uri] = view
        return view[1]

    # -- positions --------------------------------------------------------------------------------
    def lines(self, text: str) -> list[str]:
        """`_lines(text)`, kept for the last few texts: a request or a report converts many
        positions of one text of up to 1 MiB."""
        hit = self.line_cache.get(id(text))
        if hit is not None and hit[0] is text:
            return hit[1]
        if len(self.line_cache) >= 8:
            self.line_cache.pop(next(iter(self.line_cache)))
        lines = _lines(text)
        self.line_cache[id(text)] = (text, lines)
        return lines

    def lines_of(self, a: Analysis, path: Path) -> list[str]:
        for uri, doc in self.workspace.text_documents.items():
            if self.path_of(uri) == path:
                return self.lines(doc.source)
        if path in a.texts:
            return self.lines(a.texts[path])
        try:  # a file named by a problem that was not read whole (a base that does not load)
            return _lines(read_file_safely(path, MAX_RULE_FILE_BYTES).decode("utf-8", "replace"))
        except (OSError, ValueError, NotARuleFile):
            return []

    def client_range(self, a: Analysis, p: Place, lines: list[str] | None = None) -> lsp.Range:
        if lines is None:
            lines = self.lines_of(a, p.path)
        return lsp.Range(start=self.client_position(lines, p.line, p.col),
                         end=self.client_position(lines, p.end_line, p.end_col))

    def client_position(self, lines: list[str], line: int, col: int) -> lsp.Position:
        """A line and a column in characters in the client's units (its encoding's): the same
        for a line of ASCII before the column, which pygls would count character by character
        (1.4 s for the outline of a 1 MiB file)."""
        if 0 <= line < len(lines):
            before = lines[line][:col]
            if before.isascii():
                return lsp.Position(line=line, character=len(before))
        return self.workspace.position_codec.position_to_client_units(lines, lsp.Position(line=line, character=col))

    def position(self, a: Analysis, position: lsp.Position) -> tuple[int, int]:
        """A client's position as a line and a column in characters."""
        lines = self.lines(a.text)
        if not lines or position.line >= len(lines):
            return position.line, position.character
        if lines[position.line].isascii():  # (the same in any unit)
            return position.line, min(position.character, len(lines[position.line]))
        server = self.workspace.position_codec.position_from_client_units(
            lines, lsp.Position(line=position.line, character=position.character))
        return server.line, server.character

    # -- the reports --------------------------------------------------------------------------------
    def publish(self, uri: str, result: Analysis | Exception) -> None:
        """The checker's problems of an open file, sent to the editor."""
        doc = self.workspace.text_documents.get(uri)
        try:
            if isinstance(result, Exception):
                raise result
            diagnostics = [self.diagnostic(result, p) for p in result.problems]
        except Exception as exc:  # noqa: BLE001 - a bug of ours: said in the file, the server goes on
            if exc is not result:
                log.exception("reporting on %s", uri)
            diagnostics = [lsp.Diagnostic(range=lsp.Range(start=lsp.Position(line=0, character=0),
                                                          end=lsp.Position(line=0, character=1)),
                                          message=f"rulewright could not check this file: internal error "
                                                  f"({type(exc).__name__}: {exc}); please report it",
                                          severity=lsp.DiagnosticSeverity.Error, source="rulewright")]
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, diagnostics=diagnostics, version=doc.version if doc is not None else None))

    def diagnostic(self, a: Analysis, p: Problem) -> lsp.Diagnostic:
        related = None
        if p.elsewhere is not None:
            uri = from_fs_path(str(p.elsewhere.path))
            if uri is not None:
                related = [lsp.DiagnosticRelatedInformation(
                    location=lsp.Location(uri=uri, range=self.client_range(a, p.elsewhere)), message=p.message)]
        message = p.message + (f"\nhint: {p.hint}" if p.hint else "")
        return lsp.Diagnostic(range=self.client_range(a, p.place), message=message,
                              severity=_SEVERITY.get(p.severity, lsp.DiagnosticSeverity.Error),
                              source="rulewright", related_information=related)

    async def answer(self, what: str, uri: str, position: lsp.Position | None,
                     answer: Callable[[Analysis, int, int], T | None]) -> T | None:
        """The answer to a request on a rule or scenario file, at a position (as a line and a
        column in characters); None for another file, or (logged) if answering fails: a bug of
        ours must not stop the editor's server."""
        try:
            a = await self.current(uri)
            if a is None or a.kind is None:
                return None
            line, col = self.position(a, position) if position is not None else (0, 0)
            return answer(a, line, col)
        except Exception:  # noqa: BLE001
            log.exception("answering %s", what)
            return None

    def symbol(self, a: Analysis, o: Outline, lines: list[str]) -> lsp.DocumentSymbol:
        return lsp.DocumentSymbol(name=o.name or "?", kind=_SYMBOL_KINDS.get(o.kind, lsp.SymbolKind.Property),
                                  range=self.client_range(a, o.place, lines),
                                  selection_range=self.client_range(a, o.name_place, lines),
                                  detail=o.detail or None,
                                  children=[self.symbol(a, c, lines) for c in o.children] or None)


def _item(i: Item) -> lsp.CompletionItem:
    return lsp.CompletionItem(label=i.label, kind=_COMPLETION_KINDS.get(i.kind, lsp.CompletionItemKind.Text),
                              detail=i.detail or i.kind,
                              documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=i.doc)
                              if i.doc else None)


def _typed_before(row: str, col: int) -> str:
    """The part of a name typed before column `col` of a line."""
    m = _NAME_BEFORE.match(row[max(0, col - 200):col][::-1])  # (reversed: `[...]*$` is quadratic in a long line)
    return m.group()[::-1] if m else ""


def make_server() -> RuleServer:
    server = RuleServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RuleServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, at_once=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RuleServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RuleServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.analyses.pop(uri, None)
        ls.known.pop(uri, None)
        ls.views.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        ls.changed(uri)  # the files that read it read the disk again
        ls.dirty.discard(uri)
        ls.settled_event(uri).set()

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: RuleServer, params: lsp.HoverParams) -> lsp.Hover | None:
        def answer(a: Analysis, line: int, col: int) -> lsp.Hover | None:
            text = hover(a, line, col)
            if text is None:
                return None
            word = word_at(a.text, line, col)
            span = ls.client_range(a, Place(a.path, line, word[1], line, word[2])) if word else None
            return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=span)

        return await ls.answer("hover", params.text_document.uri, params.position, answer)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(ls: RuleServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        def answer(a: Analysis, line: int, col: int) -> list[lsp.Location] | None:
            out = []
            for place in definition(a, line, col):
                uri = from_fs_path(str(place.path))
                if uri is not None:
                    out.append(lsp.Location(uri=uri, range=ls.client_range(a, place)))
            return out or None

        return await ls.answer("definition", params.text_document.uri, params.position, answer)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", "[", "{", " "]))
    async def on_completion(ls: RuleServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        def answer(a: Analysis, line: int, col: int) -> lsp.CompletionList | None:
            unique: dict[tuple[str, str], Item] = {}
            for i in complete(a, line, col, ls.known.get(params.text_document.uri)):
                unique.setdefault((i.label, i.kind), i)
            items = list(unique.values())
            if len(items) <= MAX_COMPLETIONS:
                return lsp.CompletionList(is_incomplete=False, items=[_item(i) for i in items])
            # a rule set of thousands of names: those that start with what is typed first, the list
            # marked incomplete, so the editor asks again as more is typed
            lines = ls.lines(a.text)
            typed = _typed_before(lines[line], col).lower() if 0 <= line < len(lines) else ""
            items.sort(key=lambda i: not i.label.lower().startswith(typed))
            return lsp.CompletionList(is_incomplete=True, items=[_item(i) for i in items[:MAX_COMPLETIONS]])

        return await ls.answer("completion", params.text_document.uri, params.position, answer)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def on_symbols(ls: RuleServer, params: lsp.DocumentSymbolParams) -> Sequence[lsp.DocumentSymbol] | None:
        def answer(a: Analysis, line: int, col: int) -> list[lsp.DocumentSymbol] | None:
            lines = ls.lines_of(a, a.path)
            with attrs_validators.disabled():  # (made of our own values: their checks took 1.2 s of
                return [ls.symbol(a, o, lines) for o in outline(a)]  # 1.6 for 17,840 symbols)

        return await ls.answer("document symbols", params.text_document.uri, None, answer)

    return server


class Refused(Exception):
    """Standard input sent something that is not the protocol: the server ends (api/commands/lsp.py
    says why in one line)."""


class StdinReader:
    """Standard input as pygls' loop reads it (pygls' StdinAsyncReader), each read in the
    server's thread pool (it blocks), a line read up to MAX_HEADER_LINE bytes only."""

    def __init__(self, stdin: BinaryIO, server: RuleServer) -> None:
        self.stdin = stdin
        self.server = server

    async def readline(self) -> bytes:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.server.thread_pool, self.stdin.readline, MAX_HEADER_LINE + 1)

    async def readexactly(self, n: int) -> bytes:
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(self.server.thread_pool, self.stdin.read, n)
        if len(data) < n:
            raise asyncio.IncompleteReadError(data, n)
        return data


class CheckedReader:
    """The reader of one TCP connection or of standard input, for pygls' loop of messages: it
    passes on what is a message of the protocol and, at the first thing that is not, notes why
    (and, for a connection, logs one line) and reads as the end of the stream (b"", which ends
    the loop)."""

    def __init__(self, reader: asyncio.StreamReader | StdinReader, peer: object) -> None:
        self.reader = reader
        self.peer = peer
        self.refused: str | None = None  # why, once refused

    def refuse(self, why: str) -> bytes:
        if self.refused is None and not isinstance(self.reader, StdinReader):
            log.warning("refused the connection from %s: %s", self.peer, why)
        self.refused = self.refused or why
        return b""

    async def readline(self) -> bytes:
        if self.refused:
            return b""
        try:
            line = await self.reader.readline()
        except ValueError:  # (a connection's line longer than the reader's limit, 64 KiB)
            line = b"-" * (MAX_HEADER_LINE + 1)
        if line in (b"", b"\r\n"):
            return line
        if len(line) > MAX_HEADER_LINE:
            return self.refuse(f"a header line longer than {MAX_HEADER_LINE // 1024} KiB: "
                               "not the language server protocol")
        header = _LSP_HEADER.fullmatch(line)
        if header is None:
            shown = line[:60].decode("ascii", "backslashreplace").rstrip("\r\n")
            return self.refuse(f"not a message of the language server protocol: {shown!r}")
        if header.group(1) is not None and int(header.group(1)) > MAX_MESSAGE_BYTES:
            return self.refuse(f"a message of {int(header.group(1)):,} bytes, more than {MAX_MESSAGE_BYTES:,}")
        return line

    async def readexactly(self, n: int) -> bytes:
        if self.refused:
            return b""
        try:
            body = await self.reader.readexactly(n)
        except asyncio.IncompleteReadError:  # the other side went away mid-message
            return b""
        try:
            message = json.loads(body)
        except ValueError:  # (and UnicodeDecodeError)
            return self.refuse("a body that is not JSON")
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return self.refuse("a body that is not a JSON-RPC 2.0 message")
        return body


def _serve_stdio(server: RuleServer) -> None:
    """pygls' `start_io`, with standard input checked (CheckedReader): the first thing that is
    not the protocol ends the server (Refused)."""
    stop = threading.Event()
    server._stop_event = stop
    checked = CheckedReader(StdinReader(sys.stdin.buffer, server), "standard input")
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    try:
        asyncio.run(run_async(stop_event=stop, reader=checked, protocol=server.protocol, logger=log,
                              error_handler=server.report_server_error))
    except BrokenPipeError:
        log.error("the editor went away: the server ends")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]
    if checked.refused:
        raise Refused(checked.refused)


def _serve_tcp(server: RuleServer, host: str, port: int) -> None:
    """pygls' `start_tcp`, with each connection's input checked (CheckedReader): a connection
    refused is closed and the server goes on; one an editor ends ends the server, as pygls does.
    One connection at a time: another, while one is open, is closed at once."""
    stop = threading.Event()
    server._stop_event = stop
    busy = False
    ended: list[int | str | None] = []  # the status of the editor's `exit` (pygls raises SystemExit)

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal busy
        peer = writer.get_extra_info("peername")
        if busy:
            log.warning("refused the connection from %s: an editor is connected", peer)
            writer.close()
            return
        busy = True
        checked = CheckedReader(reader, peer)
        try:
            server.protocol.set_writer(writer)
            await run_async(stop_event=stop, reader=checked, protocol=server.protocol, logger=log,
                            error_handler=server.report_server_error)
        except SystemExit as exc:  # (raised in a callback of the loop, it would be logged with a traceback)
            ended.append(exc.code)
        finally:
            busy = False
        if checked.refused is not None:
            writer.close()
            return
        server.shutdown()  # type: ignore[no-untyped-call]  # (pygls: the loop, its thread pool, the port)

    async def main() -> None:
        listening = await asyncio.start_server(connection, host, port)
        server._server = listening
        async with listening:
            await listening.serve_forever()

    try:
        asyncio.run(main())
    except asyncio.CancelledError:
        pass
    if ended and ended[0]:
        raise SystemExit(ended[0])


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Serve an editor over stdio, or over TCP at (host, port). Raises OSError if the port
    cannot be listened on."""
    logging.basicConfig(level=logging.WARNING, format="rulewright lsp: %(levelname)s: %(message)s")  # (stderr)
    for handler in logging.getLogger().handlers:
        handler.addFilter(OneLine())
    server = make_server()
    if tcp is None:
        _serve_stdio(server)
    else:
        _serve_tcp(server, *tcp)
