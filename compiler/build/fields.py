"""`state:`: the fields of the state, each with its type, start value and who sees it."""

from __future__ import annotations

from ...core.load import YMap, YNode, YScalar
from ...core.source import did_you_mean
from ...runtime.limits import MAX_INT
from .. import ast, ir
from ..types import ANY, Ty
from .keys import FIELD_KEYS, UNSEEN, VISIBILITY, VISIBLE_TO_KEYS
from .reader import Reader


def field_enums(state: YMap) -> set[str]:
    """The fields with `values:`: each is an enumeration of its own, which a type may name.
    (read_fields reports what is wrong with them.)"""
    return {str(key.value) for key, value in state.items if isinstance(value, YMap) and value.get("values") is not None}


def read_fields(r: Reader, state: YMap, entity_kinds: set[str], enums: set[str]) -> tuple[ir.Field, ...]:
    """`state:`, each field in the order written."""
    out: list[ir.Field] = []
    for key, value in state.items:
        m = r.mapping(value, f"field `{key.value}`")
        declared = r.declared(key, "a field")
        if m is None or declared is None:
            continue
        built = _field(r, key, declared, m, entity_kinds, enums)
        if built is not None:
            out.append(built)
    return tuple(out)


def _field(r: Reader, key: YScalar, name: str, m: YMap, entity_kinds: set[str], enums: set[str]) -> ir.Field | None:
    """One field, or None if it is too wrong to keep (its problems are reported)."""
    r.keys(m, FIELD_KEYS, f"field `{name}`")
    per_ref = r.name(m.get("per"), "per") if m.get("per") is not None else None
    per = per_ref.name if per_ref else None
    if per_ref is not None and per not in entity_kinds:
        r.error(per_ref.span, f"unknown kind `{per}` for `per:`", did_you_mean(per or "", entity_kinds))
        per = None
    values = (r.constants(r.names(m.get("values"), "a value"), f"a value of field `{name}`")
              if m.get("values") is not None else ())
    ty = _type(r, key, name, m, values, entity_kinds, enums)
    if ty is None:
        return None
    init = r.expr(m.get("init"), "init")
    if init is None:
        if m.get("init") is None:
            r.error(key.span, f"field `{name}` needs `init:`, its value at setup")
        return None
    visible, visible_to = _visibility(r, m, per, per_ref, ty, entity_kinds)
    shown_if, hide_items_if = _shown(r, m, name, visible)
    pool = _pool(r, m, name, values, ty)
    redraw, bounds = _unseen(r, m, name, ty, visible)
    return ir.Field(name, per, ty, values, init, visible, r.text(m.get("doc"), "doc", "") or "", key.span,
                    shown_if, hide_items_if, visible_to, pool, redraw, bounds)


def _type(r: Reader, key: YScalar, name: str, m: YMap, values: tuple[str, ...], entity_kinds: set[str],
          enums: set[str]) -> Ty | None:
    """The field's type: an enumeration of its own (`values:`) or its `type:`; None if it has neither."""
    if values:
        if m.get("type") is not None:
            r.error(m.get("type").span, "a field with `values:` has no `type:`")  # type: ignore[union-attr]
        return Ty("enum", name)
    type_node = m.get("type")
    tname = r.text(type_node, "type")
    if tname is None:
        r.error(key.span, f"field `{name}` needs `type:` or `values:`")
        return None
    assert type_node is not None
    # (a field of an unknown type is kept as `any`, so that its uses raise no more errors)
    return r.type_of(tname, type_node.span, entity_kinds, enums) or ANY


def _visibility(r: Reader, m: YMap, per: str | None, per_ref: ir.NameRef | None, ty: Ty, entity_kinds: set[str],
                ) -> tuple[str, ast.Expr | None]:
    """`visible:`, one of VISIBILITY or `{to: <player over k>}`, and the expression of the latter."""
    vnode_ = m.get("visible")
    visible_to = None
    if isinstance(vnode_, YMap):  # `visible: {to: <player over k>}`: entry or item k seen by that player only
        r.keys(vnode_, VISIBLE_TO_KEYS, "`visible:`")
        visible = "to"
        visible_to = r.expr(vnode_.get("to"), "visible: to") if vnode_.get("to") is not None else None
        if vnode_.get("to") is None and not vnode_.items:  # (another key is refused as unknown)
            r.error(vnode_.span, "`visible: {to: ...}` needs `to:`, the player (over k) who sees entry or item k")
        elif per == "player" or (per is None and ty.kind != "list"):
            r.error(vnode_.span, "`visible: {to: ...}` is for a per-spot, per-region or per-die field, or the "
                    "items of a list field: entry or item k is seen by the player `to` names",
                    "a per-player field seen by its own player is `visible: owner`" if per == "player"
                    else "use `visible: none` to hide it from every player")
    else:
        visible = r.text(vnode_, "visible", "all") or "all"
    if visible == "to":
        pass
    elif visible not in VISIBILITY:
        vnode = m.get("visible")
        assert vnode is not None
        r.error(vnode.span, f"visible must be one of {', '.join(VISIBILITY)}", did_you_mean(visible, VISIBILITY))
    elif visible == "size" and (per is not None or ty.kind not in ("list", "set")):
        vnode = m.get("visible")
        assert vnode is not None
        r.error(vnode.span, "`visible: size` is for a list or set field (not per entity): a face-down pile",
                "everyone sees how many items it holds, nobody which")
    elif visible == "owner" and per != "player" and (per_ref is None or per in entity_kinds):
        # (anything but a per-player field has no owner: refused, never shown to everyone)
        vnode = m.get("visible")
        assert vnode is not None
        whose = "a field with no `per:`" if per_ref is None else f"a per-{per} field"
        r.error(vnode.span, f"`visible: owner` is for a per-player field (`per: player`): {whose} has no owner",
                "use `visible: none` to hide it from every player, or `per: player` to give each player his own"
                if per_ref is None else "use `visible: none` to hide it from every player, or "
                "`visible: {to: <a player over k>}` to show entry k to that player only")
    return visible, visible_to


def _shown(r: Reader, m: YMap, name: str, visible: str) -> tuple[ast.Expr | None, ast.Expr | None]:
    """`shown_if` (when a hidden field is shown to everyone) and `hide_items_if` (when items of it
    players see are hidden), each where it can mean something."""
    if m.get("shown_if") is not None and visible == "all":
        r.error(m.get("shown_if").span,  # type: ignore[union-attr]
                f"`shown_if` shows a hidden field to everyone, but field `{name}` is `visible: all`: seen already",
                "give the field `visible: owner`, `none` or `size`, or drop `shown_if`")
    if m.get("hide_items_if") is not None and visible in ("none", "size") and m.get("shown_if") is None:
        r.error(m.get("hide_items_if").span,  # type: ignore[union-attr]
                f"`hide_items_if` hides items of a field players see, but field `{name}` is `visible: {visible}`: "
                "nobody sees its items", "drop `hide_items_if`, or give the field `shown_if` (when it is shown)")
    shown_if = r.expr(m.get("shown_if"), "shown_if") if m.get("shown_if") is not None else None
    hide_items_if = r.expr(m.get("hide_items_if"), "hide_items_if") if m.get("hide_items_if") is not None else None
    return shown_if, hide_items_if


def _pool(r: Reader, m: YMap, name: str, values: tuple[str, ...], ty: Ty) -> str:
    """`pool:`, which unseen items are drawn again together (runtime/unseen.py); "" if none."""
    pool = ""
    pool_node = m.get("pool")
    if pool_node is not None:
        pool_ref = r.name(pool_node, "pool")
        pool = pool_ref.name if pool_ref is not None else ""
        if pool and (values or ty.kind not in ("list", "set")):
            r.error(pool_node.span, f"`pool:` names the pool of the items of a list or set field, but field "
                    f"`{name}` holds no items", "drop `pool:`")
    return pool


def _unseen(r: Reader, m: YMap, name: str, ty: Ty, visible: str) -> tuple[bool, tuple[int, int] | None]:
    """`unseen:` (how an entry a player does not see is drawn again in a sample, runtime/unseen.py:
    `exchange`d among the unseen entries, the default, or `redraw`n afresh from the field's values)
    and `range:` (the values of an int drawn afresh, least and most)."""
    node, range_node = m.get("unseen"), m.get("range")
    how = r.text(node, "unseen", "exchange") or "exchange"
    if node is not None and how not in UNSEEN:
        r.error(node.span, f"unseen must be one of {', '.join(UNSEEN)}", did_you_mean(how, UNSEEN))
        return False, None
    if node is not None and visible == "all":
        r.error(node.span, f"`unseen:` says how a value a player does not see is drawn again, but field `{name}` "
                "is `visible: all`: everyone sees it", "give the field `visible: owner`, `none` or `{to: ...}`, "
                "or drop `unseen:`")
        return False, None
    redraw = how == "redraw"
    if redraw and ty.kind not in ("int", "bool", "enum", "any"):
        assert node is not None
        r.error(node.span, f"`unseen: redraw` draws an int (within `range:`), a bool or a value of an enumeration "
                f"afresh, but field `{name}` is a {ty}", "the unseen items of a list or set are dealt again from "
                "their pool (`pool:`); drop `unseen: redraw`" if ty.kind in ("list", "set") else "drop `unseen:`")
        return False, None
    if range_node is not None and not (redraw and ty.kind in ("int", "any")):
        r.error(range_node.span, f"`range:` gives the values an unseen int is drawn afresh from, but field `{name}` "
                + ("is not `unseen: redraw`" if ty.kind in ("int", "any") else f"is a {ty}"),
                "add `unseen: redraw`, or drop `range:`" if ty.kind in ("int", "any") else "drop `range:`")
        return False, None
    if redraw and ty.kind == "int" and range_node is None:
        assert node is not None
        r.error(node.span, f"`unseen: redraw` on int field `{name}` needs `range: [least, most]`, the values it is "
                "drawn afresh from", "e.g. `range: [1, 6]` for the face of a die")
        return False, None
    bounds = _range(r, range_node) if range_node is not None else None
    return redraw, bounds


def _range(r: Reader, node: YNode) -> tuple[int, int] | None:
    """`range: [least, most]` of a field: two whole numbers within 64 bits, the least first."""
    seq = r.sequence(node, "`range:` of a field")
    if seq is None:
        return None
    if len(seq.items) != 2:
        r.error(seq.span, "`range:` of a field must be two whole numbers, `[least, most]`",
                "e.g. `range: [1, 6]`: the faces of a die")
        return None
    bounds = [r.integer(item, "`range:` of a field") for item in seq.items]
    least, most = bounds
    if least is None or most is None:
        return None
    for n, item in zip((least, most), seq.items, strict=True):
        if not -MAX_INT <= n <= MAX_INT:
            r.error(item.span, f"`range:` of a field is larger than the limit of whole numbers (±{MAX_INT:,}, 64 bits)")
            return None
    if least > most:
        r.error(seq.span, f"`range:` of a field goes from {least} down to {most}", "write the least first: "
                "`[least, most]`")
        return None
    return least, most
