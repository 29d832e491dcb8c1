"""`drawing:`: the rule file's presentation hints, checked."""

from __future__ import annotations

import re

from ...core.load import YMap, YNode
from ...core.source import did_you_mean
from .keys import DRAWING_COLOURS, DRAWING_KEYS
from .reader import Reader

_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")


def read_drawing(r: Reader, node: YNode | None, values: set[str], kinds: set[str]
             ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """`drawing:`, the rule file's presentation hints, checked: `colours:` a colour (`#rrggbb`,
    `#rgb` or a name of DRAWING_COLOURS) per value of the rule set; `icons:` one or two
    characters per component or dice kind. Only names and checked texts reach the module."""
    m = r.mapping(node, "`drawing:`")
    if m is None:
        return (), ()
    r.keys(m, DRAWING_KEYS, "`drawing:`")
    colours: list[tuple[str, str]] = []
    icons: list[tuple[str, str]] = []
    for key, value in (r.mapping(m.get("colours"), "`drawing: colours:`") or YMap((), m.span)).items:
        name = str(key.value)
        colour = r.text(value, f"the colour of `{name}`")
        if name not in values:
            r.error(key.span, f"`drawing: colours:` names `{name}`, which is no value of the rule set",
                    did_you_mean(name, sorted(values)) or "a colour is given to a value of an enumeration")
        elif colour is not None and not (_HEX_COLOUR.fullmatch(colour) or colour in DRAWING_COLOURS):
            r.error(value.span, f"`{colour}` is not a colour",
                    f"write #rrggbb, #rgb or one of {', '.join(DRAWING_COLOURS)}")
        elif colour is not None:
            colours.append((name, colour.lower()))
    for key, value in (r.mapping(m.get("icons"), "`drawing: icons:`") or YMap((), m.span)).items:
        name = str(key.value)
        icon = r.text(value, f"the icon of `{name}`")
        if name not in kinds:
            r.error(key.span, f"`drawing: icons:` names `{name}`, which is no component or dice kind",
                    did_you_mean(name, sorted(kinds)) or "an icon is given to a kind of components or dice")
        elif icon is not None and not (1 <= len(icon) <= 2 and icon.isprintable() and not icon.isspace()
                                       and " " not in icon):
            r.error(value.span, f"the icon of `{name}` must be one or two characters, not `{icon}`")
        elif icon is not None:
            icons.append((name, icon))
    return tuple(colours), tuple(icons)
