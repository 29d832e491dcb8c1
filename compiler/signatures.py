"""The built-ins as the checker sees them, by the names it imports: compiler/builtins/ declares
each one once (its signature, the Python it lowers to, its facts, its doc line); this module only
passes its tables on."""

from __future__ import annotations

from .builtins import AGGREGATES, BUILTINS, VALUES

__all__ = ["AGGREGATES", "BUILTINS", "VALUES"]
