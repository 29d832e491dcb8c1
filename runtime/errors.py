"""Errors a user of a game can cause: one clear message, no traceback at the command line."""

from __future__ import annotations


class RulewrightError(Exception):
    """Base of every error the CLI reports as a message."""


class IllegalAction(RulewrightError):
    """An action that is not legal now; the state is left unchanged."""


class BadSetup(RulewrightError):
    """An unknown option or value, a player count the game does not allow, a bad state file."""
