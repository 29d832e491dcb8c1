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
import json
import logging
import os
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from lsprotocol import types as lsp
from pygls.io_ import run_async
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import __version__
from .compiler.load import MAX_RULE_FILE_BYTES, NotARuleFile, read_file_safely
from .ruleindex import Analysis, Item, Outline, Place, Problem, analyse, complete, definition, hover, outline, word_at

# How long the server waits after a change before it checks again: one check for a burst of typing.
DEBOUNCE_SECONDS = 0.15
# Over TCP, a message's header lines are LSP's own (`Content-Length: N`, `Content-Type: ...`), its
# body a JSON-RPC object of at most this many bytes (a rule file at its limit, every character
# escaped as `\uXXXX`, fits with room to spare); anything else (an HTTP request a web page sends
# to the port) ends the connection, with one line logged, and the server waits for an editor.
MAX_MESSAGE_BYTES = 8 * MAX_RULE_FILE_BYTES
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


def _lines(text: str) -> list[str]:
    """A text's lines as the protocol counts them (`\\n`, `\\r\\n` or `\\r` ends one), as the
    checker's positions count them too."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class RuleServer(LanguageServer):
    """The server, and what it knows of the open files."""

    def __init__(self) -> None:
        super().__init__("rulewright", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, Analysis] = {}  # uri -> the analysis of its text as it is now
        self.known: dict[str, Analysis] = {}  # uri -> its last analysis that indexed a rule set
        self.rules_cache: dict[Path, Analysis] = {}  # the rule sets scenario files name
        self.dirty: set[str] = set()  # files to check again and report on, after the pause
        self.timer: asyncio.TimerHandle | None = None

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

    def analysis(self, uri: str) -> Analysis | None:
        """The analysis of an open file as it is now (made when it is asked for)."""
        if uri in self.analyses:
            return self.analyses[uri]
        path = self.path_of(uri)
        if path is None or uri not in self.workspace.text_documents:
            return None
        a = analyse(path, self.workspace.get_text_document(uri).source, self.open_texts(), self.rules_cache)
        self.analyses[uri] = a
        if a.defs:
            self.known[uri] = a
        return a

    def changed(self, uri: str) -> None:
        """A file's text changed (or went back to the disk's): it, and every open file that reads
        it, is checked again after a pause."""
        path = self.path_of(uri)
        real = os.path.realpath(path) if path is not None else None
        self.rules_cache.clear()
        for other, a in list(self.analyses.items()):
            if other == uri or (real is not None and real in a.depends):
                del self.analyses[other]
                self.dirty.add(other)
        self.dirty.add(uri)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (no event loop: report at once)
            self.flush()
            return
        if self.timer is not None:
            self.timer.cancel()
        self.timer = loop.call_later(DEBOUNCE_SECONDS, self.flush)

    def flush(self) -> None:
        self.timer = None
        dirty, self.dirty = self.dirty, set()
        for uri in sorted(dirty):
            if uri in self.workspace.text_documents:
                self.publish(uri)

    # -- positions --------------------------------------------------------------------------------
    def lines_of(self, a: Analysis, path: Path) -> list[str]:
        for uri, doc in self.workspace.text_documents.items():
            if self.path_of(uri) == path:
                return _lines(doc.source)
        if path in a.texts:
            return _lines(a.texts[path])
        try:  # a file named by a problem that was not read whole (a base that does not load)
            return _lines(read_file_safely(path, MAX_RULE_FILE_BYTES).decode("utf-8", "replace"))
        except (OSError, ValueError, NotARuleFile):
            return []

    def client_range(self, a: Analysis, p: Place) -> lsp.Range:
        lines = self.lines_of(a, p.path)
        codec = self.workspace.position_codec
        start = codec.position_to_client_units(lines, lsp.Position(line=p.line, character=p.col))
        end = codec.position_to_client_units(lines, lsp.Position(line=p.end_line, character=p.end_col))
        return lsp.Range(start=start, end=end)

    def position(self, a: Analysis, position: lsp.Position) -> tuple[int, int]:
        """A client's position as a line and a column in characters."""
        lines = _lines(a.text)
        if not lines or position.line >= len(lines):
            return position.line, position.character
        server = self.workspace.position_codec.position_from_client_units(
            lines, lsp.Position(line=position.line, character=position.character))
        return server.line, server.character

    # -- the reports --------------------------------------------------------------------------------
    def publish(self, uri: str) -> None:
        """The checker's problems of an open file, sent to the editor."""
        doc = self.workspace.text_documents.get(uri)
        try:
            a = self.analysis(uri)
            diagnostics = [self.diagnostic(a, p) for p in a.problems] if a is not None else []
        except Exception as exc:  # noqa: BLE001 - a bug of ours: said in the file, the server goes on
            log.exception("checking %s", uri)
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

    def answer(self, what: str, uri: str, position: lsp.Position | None,
               answer: Callable[[Analysis, int, int], T | None]) -> T | None:
        """The answer to a request on a rule or scenario file, at a position (as a line and a
        column in characters); None for another file, or (logged) if answering fails: a bug of
        ours must not stop the editor's server."""
        try:
            a = self.analysis(uri)
            if a is None or a.kind is None:
                return None
            line, col = self.position(a, position) if position is not None else (0, 0)
            return answer(a, line, col)
        except Exception:  # noqa: BLE001
            log.exception("answering %s", what)
            return None

    def symbol(self, a: Analysis, o: Outline) -> lsp.DocumentSymbol:
        return lsp.DocumentSymbol(name=o.name or "?", kind=_SYMBOL_KINDS.get(o.kind, lsp.SymbolKind.Property),
                                  range=self.client_range(a, o.place),
                                  selection_range=self.client_range(a, o.name_place),
                                  detail=o.detail or None, children=[self.symbol(a, c) for c in o.children] or None)


def _item(i: Item) -> lsp.CompletionItem:
    return lsp.CompletionItem(label=i.label, kind=_COMPLETION_KINDS.get(i.kind, lsp.CompletionItemKind.Text),
                              detail=i.detail or i.kind,
                              documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=i.doc)
                              if i.doc else None)


def make_server() -> RuleServer:
    server = RuleServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RuleServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.analyses.pop(params.text_document.uri, None)
        ls.publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RuleServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RuleServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.analyses.pop(uri, None)
        ls.known.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        ls.changed(uri)  # the files that read it read the disk again
        ls.dirty.discard(uri)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: RuleServer, params: lsp.HoverParams) -> lsp.Hover | None:
        def answer(a: Analysis, line: int, col: int) -> lsp.Hover | None:
            text = hover(a, line, col)
            if text is None:
                return None
            word = word_at(a.text, line, col)
            span = ls.client_range(a, Place(a.path, line, word[1], line, word[2])) if word else None
            return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=span)

        return ls.answer("hover", params.text_document.uri, params.position, answer)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: RuleServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        def answer(a: Analysis, line: int, col: int) -> list[lsp.Location] | None:
            out = []
            for place in definition(a, line, col):
                uri = from_fs_path(str(place.path))
                if uri is not None:
                    out.append(lsp.Location(uri=uri, range=ls.client_range(a, place)))
            return out or None

        return ls.answer("definition", params.text_document.uri, params.position, answer)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", "[", "{", " "]))
    def on_completion(ls: RuleServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        def answer(a: Analysis, line: int, col: int) -> lsp.CompletionList | None:
            unique: dict[tuple[str, str], Item] = {}
            for i in complete(a, line, col, ls.known.get(params.text_document.uri)):
                unique.setdefault((i.label, i.kind), i)
            return lsp.CompletionList(is_incomplete=False, items=[_item(i) for i in unique.values()])

        return ls.answer("completion", params.text_document.uri, params.position, answer)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(ls: RuleServer, params: lsp.DocumentSymbolParams) -> Sequence[lsp.DocumentSymbol] | None:
        def answer(a: Analysis, line: int, col: int) -> list[lsp.DocumentSymbol] | None:
            return [ls.symbol(a, o) for o in outline(a)]

        return ls.answer("document symbols", params.text_document.uri, None, answer)

    return server


class CheckedReader:
    """The reader of one TCP connection, for pygls' loop of messages: it passes on what is a
    message of the protocol and, at the first thing that is not, logs one line and reads as
    the end of the stream (b"", which ends the loop)."""

    def __init__(self, reader: asyncio.StreamReader, peer: object) -> None:
        self.reader = reader
        self.peer = peer
        self.refused = False

    def refuse(self, why: str) -> bytes:
        if not self.refused:
            log.warning("refused the connection from %s: %s", self.peer, why)
        self.refused = True
        return b""

    async def readline(self) -> bytes:
        if self.refused:
            return b""
        try:
            line = await self.reader.readline()
        except ValueError:  # (longer than the reader's limit, 64 KiB)
            return self.refuse("a header line longer than 64 KiB: not the language server protocol")
        if line in (b"", b"\r\n"):
            return line
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
        if checked.refused:
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
    server = make_server()
    if tcp is None:
        server.start_io()
    else:
        _serve_tcp(server, *tcp)
