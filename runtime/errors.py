"""Errors a user of a game can cause: one clear message, no traceback at the command line."""

from __future__ import annotations

import reprlib
from typing import TypeGuard


class RulewrightError(Exception):
    """Base of every error the CLI reports as a message."""


class IllegalAction(RulewrightError):
    """An action that is not legal now; the state is left unchanged."""


class BadSetup(RulewrightError):
    """An unknown option or value, a player count the game does not allow, a bad state file."""


class GameError(RulewrightError):
    """A rule set's own fault, met while a game is played: a limit of one move passed
    (runtime/limits.py: too much work, too long a list, too large a number) or a division by
    zero. `where` is the rule's `file:line`; the game cannot go on."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(where, problem)  # both, so that the error pickles (worker processes)
        self.where = where
        self.problem = problem

    def __str__(self) -> str:
        return f"{self.where}: game error: {self.problem}"


def is_int(value: object) -> TypeGuard[int]:
    """Whether untrusted data holds a whole number (`true` is a bool, not a number, here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(text: str, signed: bool = False, digits: int = 30) -> int | None:
    """The whole number a text from a user, a file or a log writes: ASCII digits only (after
    a `-` if `signed`), at most `digits` of them; None for anything else. Never `str.isdigit()`
    alone, which is true of `²` and `٣` too (`int("²")` raises; `int("٣")` is 3)."""
    body = text[1:] if signed and text.startswith("-") else text
    if not body or len(body) > digits or not (body.isascii() and body.isdigit()):
        return None
    return int(text)


def shown(value: object) -> str:
    """A value as an error message quotes it: its repr, cut short (untrusted data can be huge)."""
    if is_int(value) and value.bit_length() > 200:
        return f"a number of {len(hex(value)) - 2} hex digits"  # repr() refuses ints that long
    text = _BRIEF.repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_BRIEF = reprlib.Repr()
_BRIEF.maxlevel, _BRIEF.maxlist, _BRIEF.maxtuple, _BRIEF.maxdict, _BRIEF.maxset = 2, 6, 6, 4, 6
_BRIEF.maxstring = _BRIEF.maxother = _BRIEF.maxlong = 40
