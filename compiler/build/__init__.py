"""Stage 4, build: the resolved YAML tree to a `RuleSet` (compiler/ir.py), parsing every embedded
expression.

`build_ir(tree, files)` is the one entry point. It checks the *shape* of the file (known keys, the
right kinds of values) and parses the expression strings; the checker (compiler/check/) then
checks what the expressions mean.

One module per kind of rule element, each reading its sections with the `Reader` (reader.py):
- ruleset.py: the whole file, its sections read in order (`build_ir`), and the checks across them;
- options.py: `players:` and `options:`;
- boards.py: `boards:` (shapes, region kinds, borders, `expect:`);
- kinds.py: `enums:`, `records:`, `components:`, `dice:`;
- fields.py: `state:`, the fields;
- definitions.py: `define:`, `procedures:`, `scoring:`, `invariants:`, and the versions `base(...)` uses;
- actions.py: `phases:`, `actions:`, `triggers:`;
- drawing.py: `drawing:`;
- keys.py: the keys each table may hold and the words a value may be (read by compiler/schema.py too).
"""

from .ruleset import build_ir

__all__ = ["build_ir"]
