"""Every compiled game offered to the libraries of learning agents (docs/interop.md).

- `rulewright.interop.openspiel.game(RULESET, players=..., options=...)`: an OpenSpiel game
  (needs the extra `openspiel`: `pip install rulewright[openspiel]`); every bundled rule set is
  registered under `rulewright_<ruleset>` too (`pyspiel.load_game("rulewright_china_cornett")`).
- `rulewright.interop.pettingzoo.env(RULESET, ...)`: a PettingZoo AEC environment (the extra
  `pettingzoo`).

Both stand on `rulewright.interop.core`, which needs neither library: the moves of a rule set
as a fixed set of integers (a move is chosen in steps, one token at a time), the observation of a
seat as a vector of fixed length made from the declared fields and their visibility, the
returns, and the game's chance made explicit (OpenSpiel's chance nodes).
"""
