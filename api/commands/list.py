"""`rulewright list`: every bundled rule set, its players, variants and options."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ..core.paths import bundled_rulesets, display, rules_dir
from ..loading import load as load_ruleset
from ..runtime.errors import RulewrightError
from ..terminal import printable
from .shared import literal, stdout_console


def _extends_of(path: Path) -> list[str]:
    """What a rule file's own `extends:` names (several when it stacks variants)."""
    from ..core.load import LoadError, load, plain

    try:
        node = load(path).get("extends")
    except LoadError:
        return []
    named = plain(node) if node is not None else []
    return [str(x) for x in named] if isinstance(named, list) else [str(named)]


def ruleset_facts(ruleset: str, path: Path, variants: list[str]) -> dict[str, Any]:
    facts: dict[str, Any] = {"ruleset": ruleset, "file": display(path), "variants": variants}
    try:
        game = load_ruleset(ruleset)
    except RulewrightError:
        return facts | {"compiled": False}
    except Exception as exc:  # noqa: BLE001 - a broken module is reported, not fatal
        return facts | {"compiled": False, "error": f"{type(exc).__name__}: {exc}".splitlines()[0]}
    info = game.info
    extends = _extends_of(path)
    return facts | {
        "compiled": True,
        "extends": extends,
        "title": info.title,
        "players": list(info.players),
        "roles": list(info.roles),
        "options": [
            {"name": o.name, "choices": list(o.choices), "default": o.default, "doc": o.doc}
            for o in info.options
        ],
    }


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def command(as_json: bool) -> None:
    """Every bundled rule set: players, variants and options."""
    found = bundled_rulesets()
    by_game: dict[str, list[str]] = {}
    for rid, _ in found:
        by_game.setdefault(rid.partition("/")[0], []).append(rid)
    facts = [  # a game's base lists its variants; a variant says what it extends
        ruleset_facts(rid, path, [v for v in by_game[rid] if v != rid] if "/" not in rid else [])
        for rid, path in found
    ]
    if as_json:
        click.echo(json.dumps({"rules_dir": display(rules_dir()), "rulesets": facts}, indent=2))
        return
    if not facts:
        click.echo(f"no rule sets in {display(rules_dir())}")
        return
    console = stdout_console()
    bases = {f["ruleset"]: f for f in facts if "/" not in f["ruleset"]}
    rows = [_list_row(f, bases.get(f["ruleset"].partition("/")[0]) if "/" in f["ruleset"] else None)
            for f in facts]
    longest = max(len(f["ruleset"]) for f in facts)
    named = max(len(line) for row in rows for line in row[3].split("\n"))
    if console.width < longest + named + LIST_TABLE_MIN_REST:
        # Too narrow for a table whose ids stay whole: one block per rule set, ids on lines of their own.
        for ruleset, title, players, variants, options in rows:
            click.echo(printable(ruleset))
            kin = " ".join(variants.split("\n")).replace("extends ", "extends: ")
            kin = kin if kin.startswith("extends") or kin == "-" else "variants: " + kin
            for line in (f"{title}, players {players}" if players else title, kin, *options.splitlines()):
                if line and line != "-":
                    for part in textwrap.wrap(line, max(console.width, 20), initial_indent="  ",
                                              subsequent_indent="    ", break_long_words=False,
                                              break_on_hyphens=False):
                        click.echo(printable(part))
        for part in textwrap.wrap(DEFAULT_NOTE, max(console.width, 20), subsequent_indent="  "):
            click.echo(part)
        return
    table = Table(title="bundled rule sets", title_justify="left")
    # Ids are never cut: the rule set column is as wide as the longest id and never wraps;
    # a game's variants are named after its id (`/money` for `mandarin/money`), one a line.
    table.caption, table.caption_justify = DEFAULT_NOTE, "left"
    for column in ("rule set", "title", "players", "variants", "options (* the default, first)"):
        if column == "rule set":
            table.add_column(column, min_width=longest, no_wrap=True)
        elif column == "variants":
            table.add_column(column, min_width=named, no_wrap=True)
        else:
            table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(literal(cell) for cell in row))
    console.print(table)


DEFAULT_MARK = "*"  # `list`: the default of an option, and the player count played unless told
DEFAULT_NOTE = "* the default (of each option; of the players: the fewest allowed)"
LIST_TABLE_MIN_REST = 60  # title, players, options and the borders need this much to be read


def _short_id(ruleset: str, game: str) -> str:
    """A rule set as named in its game's row: `/money` for `mandarin/money`; another game's in full."""
    return ruleset[len(game):] if ruleset.startswith(game + "/") else ruleset


def _list_row(f: dict[str, Any], base: dict[str, Any] | None = None) -> tuple[str, str, str, str, str]:
    """One rule set of `rulewright list`: id, title, players, variants (or what it extends), options.
    A variant lists only the options it adds or changes (choices or default) against `base`, its
    game's base rule set, and says the others are the base's: repeating them under each of a game's
    six variants hid what each one changes."""
    game = f["ruleset"].partition("/")[0]
    variants = "\n".join(_short_id(v, game) for v in f["variants"]) or (
        "extends\n" + "\n".join(_short_id(e, game) for e in f["extends"]) if f.get("extends") else "-")
    if not f["compiled"]:
        why = f" ({f['error']})" if "error" in f else f": run `rulewright compile {f['ruleset']}`"
        return f["ruleset"], "not compiled" + why, "", variants, ""
    inherited = {(o["name"], tuple(o["choices"]), o["default"])
                 for o in (base["options"] if base is not None and base.get("compiled") else [])}
    own = [o for o in f["options"] if (o["name"], tuple(o["choices"]), o["default"]) not in inherited]
    options = "\n".join(
        f"{o['name']}: " + " | ".join([o["default"] + DEFAULT_MARK] + [c for c in o["choices"] if c != o["default"]])
        for o in own
    )
    if base is not None and len(own) < len(f["options"]):
        options = "\n".join(filter(None, (options, f"(other options as {base['ruleset']})")))
    # (`play`, `simulate`, ... play the fewest players the rule set allows unless told)
    players = ", ".join(f"{n}{DEFAULT_MARK if k == 0 and len(f['players']) > 1 else ''}"
                        for k, n in enumerate(f["players"]))
    return f["ruleset"], f["title"], players, variants, options or "-"
