"""`players:` (of the rule set, or of a board) and `options:`: what is chosen before a game."""

from __future__ import annotations

from ...core.load import YNode, YScalar
from ...core.source import did_you_mean
from .. import ir
from .keys import OPTION_KEYS
from .reader import Reader


def read_players(r: Reader, node: YNode | None) -> tuple[int, ...]:
    if node is None:
        return (2,)
    if isinstance(node, YScalar):
        n = r.integer(node, "players")
        if n is not None and not 1 <= n <= 8:
            r.error(node.span, "players must be between 1 and 8")
        return (n,) if n is not None and 1 <= n <= 8 else (2,)
    seq = r.sequence(node, "players")
    bounds = [r.integer(n, "players") for n in seq.items] if seq else []
    if len(bounds) != 2 or bounds[0] is None or bounds[1] is None or not 1 <= bounds[0] <= bounds[1] <= 8:
        r.error(node.span, "players must be a number or [min, max] between 1 and 8")
        return (2,)
    return tuple(range(bounds[0], bounds[1] + 1))


def read_options(r: Reader, node: YNode | None) -> tuple[ir.Option, ...]:
    out: list[ir.Option] = []
    for name, key, m in r.entries(node, "options", "option", "an option", OPTION_KEYS):
        choice_refs = r.names(m.get("choices"), "a choice")
        # (the choices of option `board` are boards, not values)
        choices = r.constants(choice_refs, f"a choice of option `{name}`") if name != "board" else tuple(
            ref.name for ref in choice_refs)
        default = r.text(m.get("default"), "default")
        if not choices:
            r.error(m.span, f"option `{key.value}` needs `choices:`, a list of names")
            continue
        if default is None:
            default = choices[0]
        elif default not in choices:
            dnode = m.get("default")
            assert dnode is not None
            r.error(dnode.span, f"default `{default}` is not one of the choices ({', '.join(choices)})",
                    did_you_mean(default, choices))
        out.append(
            ir.Option(
                name, default, choices, r.text(m.get("doc"), "doc", "") or "",
                (r.text(m.get("quote"), "quote", "") or "").strip(), key.span,
            )
        )
    return tuple(out)
