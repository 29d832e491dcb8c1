"""Stage 1, load: a YAML rule file to a tree whose every node knows its `file:line:col`.

PyYAML's composer keeps a mark on every node; we turn its node graph into three small frozen
node kinds and resolve scalars with the YAML 1.1 core tags it already applied.

A rule file is read by `read_rule_file`, which looks before it reads (files.py): only a regular
file of at most `MAX_RULE_FILE_BYTES` (1 MiB; the largest bundled rule file is 25 KB) is opened,
a FIFO, device, socket or directory is refused without being opened for a blocking read, and the
size is checked before the text is read or parsed.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import yaml

from .files import MAX_RULE_FILE_BYTES, NotARuleFile, read_file_safely
from .source import Diagnostic, SourceSpan

Scalar = str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class YScalar:
    value: Scalar
    span: SourceSpan
    # Where the text of the value itself starts (after an opening quote), for embedded
    # expressions whose own columns must map back to the file.
    text_span: SourceSpan


@dataclass(frozen=True, slots=True)
class YMap:
    items: tuple[tuple[YScalar, YNode], ...]
    span: SourceSpan

    def get(self, key: str) -> YNode | None:
        for k, v in self.items:
            if k.value == key:
                return v
        return None

    def key_node(self, key: str) -> YScalar | None:
        for k, _ in self.items:
            if k.value == key:
                return k
        return None

    def keys(self) -> list[str]:
        return [str(k.value) for k, _ in self.items]


@dataclass(frozen=True, slots=True)
class YSeq:
    items: tuple[YNode, ...]
    span: SourceSpan


YNode = YScalar | YMap | YSeq


class LoadError(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# The texts of files open in an editor and not saved (`rulewright lsp`, api/lsp.py), by real
# path: while `unsaved(texts)` is in force, a rule file or scenario file is read from here when
# it is one of them (held to the same size limit), so a variant is checked against the base as
# it is being edited.
_UNSAVED: ContextVar[Mapping[str, str] | None] = ContextVar("rulewright_unsaved", default=None)


@contextlib.contextmanager
def unsaved(texts: Mapping[str, str]) -> Iterator[None]:
    """Files read in this block are read from `texts` (real path -> text) when they are there."""
    token = _UNSAVED.set(dict(texts))
    try:
        yield
    finally:
        _UNSAVED.reset(token)


def unsaved_text(path: str | Path, limit: int, where: SourceSpan) -> str | None:
    """The text of `path` in the editor (see `unsaved`), or None; LoadError if it is too large."""
    texts = _UNSAVED.get()
    if not texts:
        return None
    try:
        text = texts.get(os.path.realpath(path))
    except (OSError, ValueError):  # a name no file can have
        return None
    if text is None:
        return None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise LoadError(Diagnostic(where, f"file too large: {size:,} bytes, more than the limit of {limit:,} bytes"))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_rule_file(path: str | Path, shown: str | None = None, limit: int = MAX_RULE_FILE_BYTES) -> str:
    """The text of a rule file; raises `LoadError` (at `shown:1:1`) if it is missing, not a
    regular file, larger than `limit` bytes or not UTF-8 text."""
    where = SourceSpan(str(path) if shown is None else shown, 1, 1, 1, 1)
    text = unsaved_text(path, limit, where)
    if text is not None:
        return text
    try:
        data = read_file_safely(path, limit)
    except FileNotFoundError:
        raise LoadError(Diagnostic(where, "no such rule file")) from None
    except NotARuleFile as exc:
        raise LoadError(Diagnostic(where, str(exc), exc.hint)) from None
    except OSError as exc:
        raise LoadError(Diagnostic(where, f"cannot read rule file: {exc.strerror or exc}")) from None
    except ValueError:  # a NUL byte in the name
        raise LoadError(Diagnostic(where, "cannot read rule file: not a usable file name")) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LoadError(Diagnostic(where, f"cannot read rule file: not UTF-8 text (byte {exc.start + 1})")
                        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as a file read as text would be


def load(path: str | Path, text: str | None = None) -> YMap:
    """Read one rule file (see `read_rule_file`), or parse `text` as the file `path`. Raises
    `LoadError` with a single diagnostic if it is not a mapping."""
    name = str(path)
    if text is None:
        text = read_rule_file(path)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = (exc.problem or "invalid YAML").strip()
        context = f" ({exc.context.strip()})" if exc.context else ""
        began = exc.context_mark
        hint = None
        if exc.context and began is not None and began is not mark and began.line + 1 != line:
            what = re.sub(r"^while \w+ (an? )?", "", exc.context.strip())
            hint = f"the {what} began at {name}:{began.line + 1}:{began.column + 1}"
        hint = _unclosed_quote(text, name, mark) or hint
        raise LoadError(
            Diagnostic(SourceSpan(name, line, col, line, col + 1), f"YAML syntax error: {problem}{context}", hint)
        ) from None
    except yaml.YAMLError as exc:  # a reader error: bad characters in the stream
        raise LoadError(Diagnostic(SourceSpan(name, 1, 1, 1, 1), f"YAML error: {exc}")) from None
    except RecursionError:  # PyYAML's own composer, without libyaml, recurses once per level
        raise LoadError(Diagnostic(SourceSpan(name, 1, 1, 1, 1), "rule file nested too deeply")) from None
    if node is None:
        raise LoadError(
            Diagnostic(SourceSpan(name, 1, 1, 1, 1), "empty rule file",
                       "a rule file is a mapping with at least `game:`")
        )
    tree = _convert(node, name, 0, [_MAX_NODES])
    if not isinstance(tree, YMap):
        raise LoadError(
            Diagnostic(tree.span, "a rule file must be a mapping of keys (game:, players:, ...)")
        )
    return tree


def _unclosed_quote(text: str, name: str, mark: yaml.Mark | None) -> str | None:
    """A hint for a syntax error that follows a quote left open (`title: "My game`): the quoted
    value runs on over the next lines to the next quote, and the error shows only there, at a
    later key. The last quoted value before the error that spans lines is the likely culprit
    (a legitimate one is rare in a rule file, and is named only when the file is broken)."""
    if mark is None:
        return None
    culprit = None
    last = None  # the last quoted value before the error
    try:
        for token in yaml.scan(text, Loader=_Loader):
            start = token.start_mark
            if (start.line, start.column) >= (mark.line, mark.column):
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"'):
                last = token
                if token.end_mark.line > start.line:
                    culprit = token
    except yaml.YAMLError:
        pass  # the scan stops where the file breaks: the tokens before it are what counts
    if culprit is not None and culprit.end_mark.line < mark.line - 1:
        culprit = None  # it closed well before the error: not the cause
    if culprit is None and last is not None and last.end_mark.line == mark.line \
            and 0 <= mark.column - last.end_mark.column <= 1:
        # `doc: 'l'action'`: a quote inside the value closed it, and the rest of the line is the error
        begun, ended = last.start_mark, last.end_mark
        how = ("written twice in '...' (`'l''action'`), or the value is quoted with \"...\" (`\"l'action\"`)"
               if last.style == "'" else
               "escaped in \"...\" (`\"say \\\"hi\\\"\"`), or the value is quoted with '...' (`'say \"hi\"'`)")
        return (f"the value quoted at {name}:{begun.line + 1}:{begun.column + 1} ends at the quote at column "
                f"{ended.column}: a quote inside a value is {how}")
    if culprit is None:
        return None
    start, end = culprit.start_mark, culprit.end_mark
    return (f"the quote at {name}:{start.line + 1}:{start.column + 1} is not closed on its line, so the value "
            f"runs on to the quote at line {end.line + 1}: close it (a quote inside a value is written twice "
            f"in '...', or escaped \\\" in \"...\")")


def _span(node: yaml.Node, path: str) -> SourceSpan:
    start, end = node.start_mark, node.end_mark
    return SourceSpan(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


_MAX_DEPTH = 200
# Aliases let a short file stand for a huge tree ("billion laughs"): count every value as it
# is converted, each use of an alias again, and give up past this many.
_MAX_NODES = 100_000


def _convert(node: yaml.Node, path: str, depth: int, budget: list[int]) -> YNode:
    span = _span(node, path)
    if depth > _MAX_DEPTH:
        raise LoadError(Diagnostic(span, "rule file nested too deeply"))
    budget[0] -= 1
    if budget[0] < 0:
        raise LoadError(Diagnostic(span, f"rule file too large: more than {_MAX_NODES} values",
                                   "an alias (*name) counts its whole anchored value each time it is used"))
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node, span)
    if isinstance(node, yaml.SequenceNode):
        return YSeq(tuple(_convert(n, path, depth + 1, budget) for n in node.value), span)
    if isinstance(node, yaml.MappingNode):
        items: list[tuple[YScalar, YNode]] = []
        seen: dict[object, SourceSpan] = {}
        merged: list[tuple[YScalar, YNode]] = []
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                # `<<: *anchor` (or a list of them): the anchored mapping's keys, unless given here.
                sources = _convert(value_node, path, depth + 1, budget)
                for source in sources.items if isinstance(sources, YSeq) else (sources,):
                    if not isinstance(source, YMap):
                        raise LoadError(Diagnostic(source.span, "`<<:` merges a mapping (an anchored one: *name)"))
                    merged.extend(source.items)
                continue
            key = _convert(key_node, path, depth + 1, budget)
            if not isinstance(key, YScalar) or isinstance(key.value, float):
                raise LoadError(Diagnostic(key.span, "a key must be a plain name"))
            if key.value in seen:
                raise LoadError(
                    Diagnostic(key.span, f"duplicate key `{key.value}`", f"first given at {seen[key.value]}")
                )
            seen[key.value] = key.span
            items.append((key, _convert(value_node, path, depth + 1, budget)))
        for key, value in merged:
            if key.value not in seen:
                seen[key.value] = key.span
                items.append((key, value))
        return YMap(tuple(items), span)
    raise LoadError(Diagnostic(span, "unsupported YAML node"))  # pragma: no cover - aliases are resolved


def _scalar(node: yaml.ScalarNode, span: SourceSpan) -> YScalar:
    tag = node.tag
    raw = node.value
    value: Scalar
    try:
        if tag == "tag:yaml.org,2002:int":
            value = int(raw.replace("_", ""), 0) if not raw.lstrip("+-").startswith("0o") else int(raw, 8)
        elif tag == "tag:yaml.org,2002:float":
            value = float(raw.replace("_", ""))
        elif tag == "tag:yaml.org,2002:bool":
            value = raw.lower() in ("true", "yes", "on", "y")
        elif tag == "tag:yaml.org,2002:null":
            value = None
        else:
            value = raw
    except ValueError:
        value = raw
    text_span = span
    if node.style in ("'", '"'):
        text_span = SourceSpan(span.path, span.line, span.col + 1, span.end_line, max(span.col + 1, span.end_col - 1))
    return YScalar(value, span, text_span)


def plain(node: YNode) -> object:
    """The tree as plain Python data (for hashing and tests)."""
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YSeq):
        return [plain(n) for n in node.items]
    return {str(k.value): plain(v) for k, v in node.items}
