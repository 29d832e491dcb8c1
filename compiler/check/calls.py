"""Typing, the calls: of a built-in (its signature in compiler/builtins/, generic in `T`), of a
definition or procedure (its parameters), and the making of a record. Each function takes the
expression typer (exprs.py) it types the arguments with, as typer.py's `Typer`."""

from __future__ import annotations

from ...core.source import did_you_mean
from .. import ast
from .. import typed as t
from ..builtins import Builtin
from ..names import faces_constant
from ..types import ANY, Ty, compatible, entity, parse_type
from .typer import Typer

# Built-ins that follow the board's neighbours: on a wall they would join spots within a face
# only, never across the joins between the faces laid: refused there, not silently wrong.
_BOARD_ONLY = ("neighbours", "straight_lines", "count_lines", "components", "component_of")
# Built-ins of a square grid (runtime/boards/grid.py): refused where no board is a grid.
_GRID_ONLY = ("step_from", "ray", "opposite", "row_of", "column_of", "spot_at", "grid_rows", "grid_columns",
              "grid_diagonals")


def builtin(ty: Typer, e: ast.Call, sig: Builtin) -> t.Expr:
    """A call of a built-in function: its arguments fit its parameters (binding `T` to the type
    the first generic argument has), and its result type is the one `T` gives."""
    walls = any(b.wall for b in ty.rs.boards)
    if not walls and any("wall" in pty for _, pty in sig.params):
        ty.error(e.span, f"`{e.func}` works on a wall, and no board is one", "declare a board `wall:`")
        return t.Invalid(ANY, e.span)
    if e.func in _GRID_ONLY and not any(b.grid is not None for b in ty.rs.boards):
        ty.error(e.span, f"`{e.func}` works on a grid, and no board is one", "declare a board `grid: {rows, columns}`")
        return t.Invalid(ANY, e.span)
    if walls and e.func in _BOARD_ONLY:
        ty.error(e.span, f"`{e.func}` does not know which faces of the wall are laid",
                 "use wall_neighbours(layout, spot) or wall_spots(layout)")
        return t.Invalid(ANY, e.span)
    if sig.chance and ty.context != "effect":
        ty.error(e.span, f"`{e.func}` draws chance, so it can only be used in an effect",
                 "legal actions, guards, definitions and scoring must not use chance")
    symbols = ty.symbols
    bindings: dict[str, Ty] = {}
    param_types: list[tuple[str, Ty]] = []
    for pname, ptype in sig.params:
        pty = parse_type(ptype, symbols.entity_kinds | {"T"}, symbols.enum_names)
        assert isinstance(pty, Ty), pty
        param_types.append((pname, pty))
    if e.keywords:
        ty.error(e.keywords[0].span, f"`{e.func}` takes no keyword arguments")
    if len(e.args) != len(param_types):
        ty.error(e.span, f"`{e.func}` takes {len(param_types)} argument(s), {len(e.args)} given",
                 f"{e.func}({', '.join(f'{n}: {pt}' for n, pt in sig.params)})")
    given: list[t.Expr] = []
    for arg, (pname, pty) in zip(e.args, param_types, strict=False):
        typed = ty.expr(arg)
        if not generic_fits(pty, typed.ty, bindings):
            ty.error(arg.span, f"argument `{pname}` of `{e.func}` must be {pty}, not {typed.ty}",
                     "only an optional value needs value_of()" if pty.kind == "optional" else None)
        given.append(typed)
    for arg in e.args[len(param_types):]:
        ty.expr(arg)
    ret = _returns(ty, sig, bindings)
    extra = _bound_kind(ty, e, bindings)
    if len(given) != len(param_types):
        return t.Invalid(ret, e.span)
    return t.Builtin(e.func, tuple(given), extra, ret, e.span)


def _returns(ty: Typer, sig: Builtin, bindings: dict[str, Ty]) -> Ty:
    """The result type of a built-in, with `T` as its arguments bound it."""
    ret = parse_type(sig.returns, ty.symbols.entity_kinds | {"T"}, ty.symbols.enum_names)
    assert isinstance(ret, Ty)
    if ret == entity("T"):  # a generic result: the element type its argument fixed
        ret = bindings.get("T", ANY)
    elif ret.kind in ("list", "set") and ret.elem == entity("T"):
        ret = Ty(ret.kind, elem=bindings.get("T", ANY))
    elif ret.kind in ("list", "set") and ret.elem is not None and ret.elem.elem == entity("T"):
        ret = Ty(ret.kind, elem=Ty(ret.elem.kind, elem=bindings.get("T", ANY)))  # components: list(set(T))
    return ret


def _bound_kind(ty: Typer, e: ast.Call, bindings: dict[str, Ty]) -> tuple[tuple[str, str | None], ...]:
    """The built-ins whose `T` must be a kind of its own: `throw` takes dice (and is given their
    faces), `components` and `component_of` take spots. Their extra arguments, if any (`t.Builtin.extra`)."""
    extra: tuple[tuple[str, str | None], ...] = ()
    if e.func == "throw":
        dice_kind = bindings.get("T") or ANY
        if dice_kind.kind == "entity" and dice_kind.name in {d.name for d in ty.rs.dice}:
            extra = (("faces", faces_constant(dice_kind.name)),)
        else:
            extra = (("faces", None),)
            if dice_kind.kind != "any":  # an empty set throws nothing; a set of anything else is wrong
                ty.error(e.span, "throw() takes a set of dice", f"not a set of {dice_kind}")
    if e.func in ("components", "component_of"):  # the board joins spots: nothing else is connected
        bound = bindings.get("T") or ANY
        if bound.kind != "any" and bound != entity("spot"):
            ty.error(e.span, f"{e.func}() takes spots, not {bound}",
                     "the board's neighbours join spots: give a list or set of spots")
    return extra


def generic_fits(want: Ty, got: Ty, bindings: dict[str, Ty]) -> bool:
    """Whether an argument of type `got` fits a parameter of type `want`, binding `T` (in
    `bindings`) the first time it is met."""
    if want.kind == "optional" and want.elem == entity("T"):  # `value(x)`: x an optional, not `none` alone
        return got.kind == "any" or got.kind == "optional" and generic_fits(want.elem, got.elem or ANY, bindings)
    if want.kind == "entity" and want.name == "T":
        bound = bindings.get("T")
        if bound is None:
            bindings["T"] = got
            return True
        return compatible(bound, got)
    if want.kind in ("list", "set") and want.elem is not None and want.elem.name == "T":
        if got.kind == "any":
            return True
        # a generic list(T) parameter takes any collection (len of a set); set(T) only a set
        if got.kind not in ("list", "set") or (want.kind == "set" and got.kind != "set"):
            return False
        return generic_fits(want.elem, got.elem or ANY, bindings)
    return compatible(want, got)


def arguments(ty: Typer, e: ast.Call, params: tuple[tuple[str, Ty], ...]) -> tuple[t.Expr, ...]:
    """The arguments of a call of a definition or procedure, each of its parameter's type."""
    if e.keywords:
        ty.error(e.keywords[0].span, f"`{e.func}` takes no keyword arguments")
    if len(e.args) != len(params):
        ty.error(e.span, f"`{e.func}` takes {len(params)} argument(s), {len(e.args)} given",
                 f"{e.func}({', '.join(f'{n}: {pty}' for n, pty in params)})")
    out = []
    for i, arg in enumerate(e.args):
        typed = ty.expr(arg)
        if i < len(params) and not compatible(params[i][1], typed.ty):
            ty.error(arg.span, f"argument `{params[i][0]}` of `{e.func}` must be {params[i][1]}, not {typed.ty}")
        out.append(typed)
    return tuple(out)


def record_new(ty: Typer, e: ast.Call, rty: Ty) -> t.Expr:
    """`leader(owner=p, colour=c, at=s)`: every field given once, by name."""
    names = [name for name, _ in rty.fields]
    example = f"{rty.name}({', '.join(f'{n}=...' for n in names)})"
    if e.args:
        ty.error(e.args[0].span, f"record `{rty.name}` is built with its fields named", example)
        return t.Invalid(rty, e.span)
    given: dict[str, t.Expr] = {}
    for kw in e.keywords:
        value = ty.expr(kw.value)
        if kw.name not in names:
            ty.error(kw.span, f"record `{rty.name}` has no field `{kw.name}`",
                     did_you_mean(kw.name, names) or f"its fields: {', '.join(names)}")
        elif kw.name in given:
            ty.error(kw.span, f"field `{kw.name}` of `{rty.name}` is given twice")
        else:
            fty = rty.fields[names.index(kw.name)][1]
            if not compatible(fty, value.ty):
                ty.error(kw.value.span, f"type mismatch: field `{kw.name}` of `{rty.name}` is {fty}, "
                         f"not {value.ty}", ty.optional_hint(value.ty))
            given[kw.name] = value
    missing = [n for n in names if n not in given]
    if missing:
        ty.error(e.span, f"record `{rty.name}` needs {', '.join(f'`{n}`' for n in missing)}", example)
        return t.Invalid(rty, e.span)
    return t.RecordNew(rty.name, tuple(given[n] for n in names), rty, e.span)
