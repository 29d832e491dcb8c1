"""`rulewright variant new`: a variant started, `extends:` and commented examples that compile."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import click

from ..compiler import driver
from ..core.paths import bundled_rulesets, display, rules_dir
from ..core.source import CompileError
from .shared import CliError, UsageProblem, print_diagnostics, rule_file_of

VARIANT_NAME = re.compile(r"[a-z][a-z0-9_-]*")


@click.group("variant")
def command() -> None:
    """Author variants: rule files that say only what differs (docs/variants.md)."""


def yaml_text(text: str) -> str:
    """A string as a YAML scalar in a rule file (double quotes, as the bundled rules write them)."""
    if '"' in text or "\\" in text:
        return "'" + text.replace("'", "''") + "'"
    return f'"{text}"'


def variant_template(name: str, extends: str, label: str, ruleset: Any) -> str:
    """The text of a new variant: `extends:` and commented examples that compile once uncommented,
    built from the names of the rule set it extends."""
    from ..compiler.names import base_use
    from ..compiler.unparse import unparse

    out = [
        f"# Variant `{name}` of {label}: it holds only what differs, everything else is {label}'s.",
        "# Uncomment an example below and edit it. How a variant merges (docs/variants.md):",
        "#   mappings merge key by key, a component is addressed by its name; `~` removes one;",
        "#   any other value replaces; `key+: [names]` and `key-: [names]` patch a list of names.",
        f"extends: {extends}",
    ]
    options = [o for o in ruleset.options if len(o.choices) > 1]
    option = next((o for o in options if o.name != "board"), options[0] if options else None)
    if option is not None:
        other = next(c for c in option.choices if c != option.default)
        out += ["", f"# Change an option's default (it is `{option.default}`; the choices: "
                    f"{', '.join(option.choices)}):",
                "# options:", f"#   {option.name}:", f"#     default: {other}"]
    action = next((a for a in ruleset.actions if a.when is not None), ruleset.actions[0] if ruleset.actions else None)
    if action is not None:
        guard = unparse(action.when) if action.when is not None else "true"
        out += ["", "# Replace an action's guard, keeping its choices, text and effect (this is the guard now):",
                "# actions:", f"#   {action.name}:", f"#     when: {yaml_text(guard)}"]
    if ruleset.triggers:
        out += ["", "# Remove a trigger:", "# triggers:", f"#   {ruleset.triggers[-1].name}: ~"]
    if ruleset.defines:  # (one with parameters, if there is one: it shows how they are passed)
        d = sorted(ruleset.defines, key=lambda d: not d.params)[0]
        use = base_use(d.name, ", ".join(p.name for p in d.params) if d.params else None)
        out += ["", f"# Redefine a definition in terms of the version it replaces: `{use}` is the value it has now,",
                f"# `{unparse(d.body)}`; the new one may add to it, double it... (as written, the same):",
                "# define:", f"#   {d.name}: {yaml_text(use)}"]
    taken = {t.name for t in ruleset.scoring}
    term = next(n for n in ("bonus", "extra", "variant_bonus") if n not in taken)
    out += ["", "# Add a scoring term (an expression; `player` is the seat scored):"]
    if ruleset.scoring:
        first = ruleset.scoring[0]
        out += [f"# and redefine one in terms of the version it replaces, `{base_use(first.name)}` (it is "
                f"`{unparse(first.expr)}` now; this doubles it):"]
    out += ["# scoring:", f'#   {term}: "0"']
    if ruleset.scoring:
        out += [f'#   {first.name}: "2 * {base_use(first.name)}"']
    return "\n".join([*out, ""])


@command.command("new")
@click.argument("base", metavar="BASE")
@click.argument("name")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path),
              help="Write DIR/NAME.yaml (default: the current folder; `--dir rules/<game>` makes it a "
                   "bundled rule set, whose module `rulewright compile` must then write).")
def variant_new(base: str, name: str, folder: Path | None) -> None:
    """Start variant NAME of BASE (a bundled rule set or a rule file): NAME.yaml in the
    current folder (or DIR), holding `extends: BASE` and commented examples. It compiles as
    written; it is never overwritten."""
    from ..compiler import diff as rules_diff

    if not VARIANT_NAME.fullmatch(name) or name == "base":
        raise UsageProblem(f"bad variant name `{name}`: lowercase letters, digits, `-` and `_`, starting with a "
                           "letter (and not `base`), e.g. owner-collects")
    base_file = rule_file_of(base)
    ruleset = rules_diff.load_ruleset(base_file)  # a CompileError lists the base's problems
    bundled = next((rid for rid, f in bundled_rulesets() if f.resolve() == base_file.resolve()), None)
    target_dir = folder if folder is not None else Path()
    target = target_dir / f"{name}.yaml"
    # under rules/<game>/ (named by --dir), the variant is bundled: listed, compiled into generated/
    in_rules = os.path.abspath(target_dir) == os.path.abspath(rules_dir() / ruleset.game)
    if bundled is not None:
        extends = label = bundled
    else:
        extends = Path(os.path.relpath(base_file.resolve(), target_dir.resolve())).as_posix()
        label = display(base_file)
    text = variant_template(name, extends, label, ruleset)
    target_dir.mkdir(parents=True, exist_ok=True)
    try:
        with target.open("x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except FileExistsError:
        raise CliError(f"{display(target)} exists already; nothing was written (choose another name)") from None
    try:
        driver.compile_file(target)
    except CompileError as exc:
        target.unlink()
        print_diagnostics(exc.diagnostics)
        raise CliError(f"the new variant did not compile, so {display(target)} was not kept "
                       "(please report this)") from None
    shown = display(target)
    ref = f"{ruleset.game}/{name}" if in_rules else shown
    click.echo(f"wrote {shown}: a variant of {label}, which compiles")
    click.echo("next: uncomment and edit its examples, then")
    click.echo(f"  rulewright check {shown}")
    click.echo(f"  rulewright diff {label if bundled else display(base_file)} {shown}")
    if in_rules:
        click.echo(f"  rulewright compile {ref}      (writes the module under generated/: a bundled rule set "
                   "needs it, or `./dev test` fails)")
        click.echo(f"  rulewright simulate {ref}")
    else:
        click.echo(f"  rulewright simulate {shown}")
