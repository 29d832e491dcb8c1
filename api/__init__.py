"""rulewright: board-game rules written as data, compiled to fast, typed Python games."""

__version__ = "0.1.0"
