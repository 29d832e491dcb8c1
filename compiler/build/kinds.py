"""The kinds of values a rule set declares beside the board: `enums:`, `records:`, `components:`,
`dice:`. Each value of an enumeration and each die becomes a module constant (`Reader.values`)."""

from __future__ import annotations

from ...core.load import YMap, YNode
from ...core.source import SourceSpan
from ...runtime.limits import MAX_ATTRIBUTE_VALUES, MAX_COMPONENTS
from .. import ir
from ..types import Ty, record
from .keys import COMPONENT_KEYS
from .reader import Reader


def read_enums(r: Reader, node: YNode | None, span: SourceSpan) -> tuple[ir.EnumDecl, ...]:
    """`enums: {colour: [red, blue]}`: each enumeration's values, which become module constants."""
    enum_decls: list[ir.EnumDecl] = []
    for key, value in (r.mapping(node, "enums") or YMap((), span)).items:
        enum_name = r.declared(key, "an enumeration")
        values = r.constants(r.names(value, "a value"), f"a value of `{key.value}`")
        if enum_name is not None and not values:
            r.error(key.span, f"enumeration `{enum_name}` needs a list of value names")
        elif enum_name is not None:
            enum_decls.append(ir.EnumDecl(enum_name, values, key.span))
    return tuple(enum_decls)


def read_records(r: Reader, node: YNode | None, entity_kinds: set[str], enums: set[str]) -> tuple[ir.RecordDecl, ...]:
    """`records: {leader: {owner: player, colour: colour, at: spot}}`: each record's fields and their
    types, in the order written; a record may hold the records declared before it."""
    out: list[ir.RecordDecl] = []
    for name, key, m in r.entries(node, "records", "record", "a record", None):
        fields: list[tuple[str, Ty]] = []
        for fkey, fvalue in m.items:
            field_name = r.declared(fkey, "a field of a record")
            tname = r.text(fvalue, f"the type of `{fkey.value}`")
            if field_name is None or tname is None:
                continue
            if field_name in (f for f, _ in fields):
                r.error(fkey.span, f"record `{name}` has two fields `{field_name}`")
                continue
            ty = r.type_of(tname, fvalue.span, entity_kinds, enums)
            if ty is not None:
                fields.append((field_name, ty))
        if not m.items:
            r.error(key.span, f"record `{name}` needs fields: `{name}: {{owner: player, at: spot}}`")
            continue
        if name in r.records:
            r.error(key.span, f"record `{name}` is declared twice")
            continue
        r.records[name] = record(name, tuple(fields))
        out.append(ir.RecordDecl(name, tuple(fields), key.span))
    return tuple(out)


def read_components(r: Reader, node: YNode | None) -> tuple[ir.Component, ...]:
    out: list[ir.Component] = []
    total = values = 0  # components of every kind so far, and their attribute values
    for name, key, m in r.entries(node, "components", "component", "a component", COMPONENT_KEYS):
        count = r.integer(m.get("count"), "count")
        if count is None or not 1 <= count <= MAX_COMPONENTS:
            r.error(m.span if m.get("count") is None else m.get("count").span,  # type: ignore[union-attr]
                    f"component `{name}` needs `count: N`, how many there are (1 to {MAX_COMPONENTS})")
            continue
        total += count
        if total > MAX_COMPONENTS:
            r.error(m.get("count").span,  # type: ignore[union-attr]
                    f"component `{name}` makes {total:,} components of every kind, more than the limit of "
                    f"{MAX_COMPONENTS:,} components", "every state holds a value per component of each field per "
                    "component: their number is bounded (docs/language.md, \"Limits\")")
            continue
        all_ref = r.name(m.get("all"), "all") if m.get("all") is not None else None
        attributes: list[ir.Attribute] = []
        for akey, avalue in (r.mapping(m.get("attributes"), "attributes") or YMap((), m.span)).items:
            attr = r.declared(akey, "an attribute")
            expr = r.expr(avalue, f"attribute `{akey.value}`")
            if attr is not None and expr is not None:
                attributes.append(ir.Attribute(attr, expr, akey.span))
        values += count * len(attributes)
        if values > MAX_ATTRIBUTE_VALUES:
            r.error(key.span, f"component `{name}` makes {values:,} attribute values of components (their number "
                    f"times their attributes, over every kind), more than the limit of {MAX_ATTRIBUTE_VALUES:,}",
                    "each is computed as the rules are loaded (docs/language.md, \"Limits\")")
            continue
        out.append(ir.Component(name, count, all_ref.name if all_ref else None, tuple(attributes), key.span,
                                all_ref.span if all_ref else None))
    return tuple(out)


def read_dice(r: Reader, node: YNode | None) -> tuple[ir.DiceKind, ...]:
    out: list[ir.DiceKind] = []
    for kind_name, key, m in r.entries(node, "dice", "dice", "a dice kind", None):
        dice: list[ir.Die] = []
        for dkey, dvalue in m.items:
            die_name = r.declared(dkey, "a die")
            seq = r.sequence(dvalue, f"die `{dkey.value}`")
            faces = tuple(f for f in (r.integer(x, "a face") for x in seq.items) if f is not None) if seq else ()
            if not faces:
                r.error(dkey.span, f"die `{dkey.value}` needs a list of faces, e.g. [0, 1]")
                continue
            if die_name is not None:
                dice.append(ir.Die(die_name, faces, dkey.span))
                r.values.append((die_name, "a die", dkey.span))
        out.append(ir.DiceKind(kind_name, tuple(dice), key.span))
    return tuple(out)
