"""The names every rule file can use beside the built-in functions: the aggregates over a
comprehension and the values of the language (docs/language.md lists both; tests/test_docs.py
checks its table of the values against this one)."""

from __future__ import annotations

# Aggregates take one comprehension argument: `count(marker[s] == gold for s in sector)`.
# `first(x for x in xs if c)`: the first item walked that passes, or none (the walk stops there).
AGGREGATES = ("count", "all", "any", "sum", "min", "max", "list", "set", "first")

# Names every rule file can use, with their type and Python form.
VALUES: dict[str, tuple[str, str, str]] = {
    "current": ("player", "self.current", "The seat whose turn it is."),
    "deciding": ("player", "self._deciding()",
                 "The seat deciding now (`to_act()`): the phase's `actor:`, else the seat whose turn it is; in a "
                 "simultaneous phase, the seat whose choices are listed or whose action is played."),
    "opponent": ("player", "(self.current + 1) % self.num_players", "The next seat (the other one at two players)."),
    "players": ("list(player)", "range(self.num_players)", "Every seat."),
    "num_players": ("int", "self.num_players",
                    "How many players the game has (`len(players)`; not the neutral seats)."),
    "owners": ("list(player)", "range(self.num_seats)",
               "Every seat and then the neutral ones (`neutral:`): all who can own pieces."),
    "borders": ("list(border)", "range(len(self.board.border_regions))",
                "Every border between two regions, in the order the board numbers them."),
    "spots": ("list(spot)", "self.board.spots", "Every spot of the board."),
    "regions": ("list(region)", "range(len(self.board.region_names))", "Every region of the board."),
}
