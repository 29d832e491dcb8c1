"""The commands of `rulewright`, one module each (as pip's): `rulewright.commands.<name>` holds
the command `<name>` as `command`, a click command (or group), with what only it uses. The group
(rulewright.cli) imports a command's module when the command is run or listed, from the table
below; what several commands share is in shared.py."""

# name -> module of the command: the one table of the commands (`rulewright --help` lists it)
COMMANDS: dict[str, str] = {
    "bench": "rulewright.commands.bench",
    "check": "rulewright.commands.check",
    "compile": "rulewright.commands.compile",
    "compare": "rulewright.commands.compare",
    "list": "rulewright.commands.list",
    "play": "rulewright.commands.play",
    "replay": "rulewright.commands.replay",
    "simulate": "rulewright.commands.simulate",
}
