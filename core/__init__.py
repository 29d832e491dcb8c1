"""The core layer (`rulewright.core`): what both the compiler and the user layer need, below both.

The layers only point down: runtime ← core ← compiler ← api. Core holds
paths, source spans and diagnostics, the YAML loader that keeps line numbers, and the key tables
of the file formats, as data.
"""
