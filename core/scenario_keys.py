"""The keys of a scenario file (docs/scenarios.md), as data: what the scenario reader
(api/scenarios/) accepts and what `rulewright schema` (compiler/schema.py) describes, from the
one table each, so that the two never drift apart."""

from __future__ import annotations

# A file: what its scenarios share, and the scenarios by name.
FILE_KEYS = ("ruleset", "options", "players", "seed", "names", "scenarios")
# A scenario.
SCENARIO_KEYS = ("doc", "ruleset", "options", "players", "seed", "names", "position", "steps", "expect")
# What a scenario expects.
EXPECT_KEYS = ("scores", "score_terms", "fields", "legal", "legal_includes", "legal_excludes", "illegal", "winners",
               "terminal", "to_act", "error", "distribution", "told",
               "returns")
# The keys of a position other than the rule set's fields.
POSITION_SPECIAL = ("to_act", "phase", "chance")
# The kinds of chance a scenario can fix (docs/scenarios.md, "Fixing chance"), as the mechanics
# consume them: `draw` stands for draw() from a set and draw_from() a list alike.
CHANCE_KINDS = ("die", "throw", "coin", "draw")
# An expectation over many runs (`distribution:`).
DISTRIBUTION_KEYS = ("of", "runs", "values", "significance")
# An auction's value, in a position or an expectation (`over` in an expectation only).
AUCTION_KEYS = ("bidders", "bidder", "in", "high_bid", "high_bidder", "minimum", "step", "over")
