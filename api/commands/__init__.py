"""The commands of `rulewright`, one module each (as pip's): `rulewright.commands.<name>` holds
the command `<name>` as `command`, a click command (or group), with what only it uses. The group
(rulewright.cli) imports a command's module when the command is run or listed, from the table
below; what several commands share is in shared.py."""

# name -> module of the command: the one table of the commands (`rulewright --help` lists it)
COMMANDS: dict[str, str] = {
    "bench": "rulewright.commands.bench",
    "book": "rulewright.commands.book",
    "check": "rulewright.commands.check",
    "compare": "rulewright.commands.compare",
    "compile": "rulewright.commands.compile",
    "coverage": "rulewright.commands.coverage",
    "diff": "rulewright.commands.diff",
    "explain": "rulewright.commands.explain",
    "leaks": "rulewright.commands.leaks",
    "list": "rulewright.commands.list",
    "lsp": "rulewright.commands.lsp",
    "metrics": "rulewright.commands.metrics",
    "play": "rulewright.commands.play",
    "render": "rulewright.commands.render",
    "replay": "rulewright.commands.replay",
    "scenario": "rulewright.commands.scenario",
    "schema": "rulewright.commands.schema",
    "serve": "rulewright.commands.serve",
    "simulate": "rulewright.commands.simulate",
    "tune": "rulewright.commands.tune",
    "variant": "rulewright.commands.variant",
}
