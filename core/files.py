"""Reading a file from outside (a rule file, a scenario, a log, a journal) without being made to
wait or to read too much: only a regular file of at most a given size is opened; a FIFO, device,
socket or directory is refused without being opened for a blocking read, and the size is checked
before the bytes are read. Below the YAML loader (load.py) and the diagnostics (source.py), which
both read rule files; imports only the standard library.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# The largest rule file read: 1 MiB, forty times the largest bundled one (25 KB).
MAX_RULE_FILE_BYTES = 1 << 20

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file of this `st_mode` is, as a message says it (`a FIFO (named pipe)`)."""
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


# How a file from outside is opened: never waiting (a FIFO has no writer), never becoming
# the controlling terminal, never inherited by a child process.
SAFE_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def read_file_safely(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. Raises OSError (missing, not
    readable), ValueError (a NUL in the name) or `NotARuleFile` without ever blocking: the
    kind and size are looked at before the file is opened, and again on the open file."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise NotARuleFile(f"not a rule file: it is {file_kind(info.st_mode)}")
    if info.st_size > limit:
        raise _too_large(info.st_size, limit)
    fd = os.open(path, SAFE_OPEN_FLAGS)  # non-blocking: a FIFO swapped in since the stat does not hang here
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotARuleFile(f"not a rule file: it is {file_kind(info.st_mode)}")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:  # it grew since it was looked at
        raise NotARuleFile(f"rule file too large: more than the limit of {limit:,} bytes", _SIZE_HINT)
    return b"".join(chunks)


_SIZE_HINT = "a rule file is at most 1 MiB (the largest bundled one is 25 KB)"


def _too_large(size: int, limit: int) -> NotARuleFile:
    return NotARuleFile(f"rule file too large: {size:,} bytes, more than the limit of {limit:,} bytes", _SIZE_HINT)


class NotARuleFile(Exception):
    """A path that names no readable rule file: its message says why, its hint what to do."""

    def __init__(self, message: str, hint: str = "a rule file is a regular file of YAML text") -> None:
        super().__init__(message)
        self.hint = hint
