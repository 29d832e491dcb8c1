"""The versions of definitions and scoring terms in variants: `base(rent(a))` in a variant's
new `rent` (`base(gold)` in its new scoring term `gold`) calls the version it replaced, a
definition of its own named by its method (names.base_version); that version's own `base(...)`,
if it has one, calls the one before."""

from __future__ import annotations

from .. import ast, ir
from .. import typed as t
from ..names import base_use, base_version
from ..types import ANY, entity
from .calls import arguments
from .typer import Typer, Version


def base_example(name: str, params: tuple[ir.Param, ...]) -> str:
    """How `base(...)` is written in a new version of definition `name`: `base(rent(a))`."""
    return base_use(name, ", ".join(p.name for p in params) if params else None)


def base_call(ty: Typer, e: ast.Call) -> t.Expr:
    """`base(rent(a))` in the new `rent` (`base(gold)` in the new scoring term `gold`): a call
    of the version it replaced, a definition of its own (names.base_version)."""
    r = ty.redefining
    if r is None:
        ty.error(e.span, "`base(...)` can only be used in a variant's new version of a definition or scoring "
                 "term", "it is the version that one replaced: e.g. `rent: \"2 * base(rent(a))\"` under "
                 "`define:` in a file with `extends:`")
        return t.Invalid(ANY, e.span)
    if r.earlier is None:  # (build/definitions.py refused it: this version replaced none, and says why)
        return t.Invalid(ANY, e.span)
    what = "definition" if r.section == "define" else "scoring term"
    arg = e.args[0] if len(e.args) == 1 and not e.keywords else None
    if isinstance(arg, ast.Call) and not arg.keywords:
        target = arg.func
    elif isinstance(arg, ast.Name):
        target = arg.id
    else:
        ty.error(e.span, f"`base(...)` takes one use of the {what} `{r.name}` it redefines: `{r.example}`")
        return t.Invalid(ANY, e.span)
    assert arg is not None
    if target != r.name:
        ty.error(arg.span, f"`base(...)` in `{r.name}` can only use the `{r.name}` it replaces, not `{target}`",
                 f"write `{r.example}`: a variant keeps only the version each redefinition replaces; to "
                 f"change `{target}` too, redefine it")
        return t.Invalid(ANY, e.span)
    if r.section == "scoring" and isinstance(arg, ast.Call):
        ty.error(arg.span, f"a scoring term's earlier version is written `{base_use(r.name)}`: it is computed "
                 "for the same `player`")
        return t.Invalid(ANY, e.span)
    d = version(ty.versions, r)
    if r.section == "scoring":
        player = ty.lookup("player")
        assert player is not None  # (a scoring term, or the definition of its version, binds it)
        return t.DefineCall(d.name, (t.Ref(player, player.ty, arg.span),), ty.define_type(d), e.span)
    call = arg if isinstance(arg, ast.Call) else ast.Call(arg.id, (), (), arg.span)
    if len(call.args) != len(d.params):
        signature = f"{r.name}({', '.join(f'{p.name}: {p.type}' for p in d.params)})"
        ty.error(arg.span, f"`{r.name}` as it was before this version ({d.span.short}) takes "
                 f"{len(d.params)} argument(s), {len(call.args)} given", signature)
        return t.Invalid(ANY, e.span)
    args = arguments(ty, call, tuple((p.name, p.type) for p in d.params))
    return t.DefineCall(d.name, args, ty.define_type(d), e.span)


def version(made: dict[str, tuple[ir.Define, Version]], r: Version) -> ir.Define:
    """The version `base(...)` uses in `r` as a definition of its own (a scoring term's takes
    `player`), named by its method; its own `base(...)`, if it has one, uses the one before.
    `made`: the versions made so far, each with its own `Version` (one made once)."""
    assert r.earlier is not None
    name = base_version(r.section, r.name, r.depth + 1)
    known = made.get(name)
    if known is not None:
        return known[0]
    earlier = r.earlier
    if isinstance(earlier, ir.Define):
        d = ir.Define(name, earlier.params, earlier.body, earlier.span, earlier.cached)
        example = base_example(r.name, earlier.params)
    else:
        d = ir.Define(name, (ir.Param("player", entity("player"), earlier.span),), earlier.expr, earlier.span)
        example = r.example
    made[name] = (d, Version(r.section, r.name, earlier.base, r.depth + 1, example))
    return d


def with_versions(defines: list[t.Define], bodies: dict[str, t.Define],
                  scoring: tuple[ir.ScoreTerm, ...]) -> tuple[t.Define, ...]:
    """The definitions, each followed by its versions that `base(...)` uses, then the scoring
    terms' versions: each a definition like the others (`bodies`: every definition typed)."""
    out: list[t.Define] = []
    for d in defines:
        out += [d, *_versions_of(bodies, "define", d.name)]
    for term in scoring:
        out += _versions_of(bodies, "scoring", term.name)
    return tuple(out)


def _versions_of(bodies: dict[str, t.Define], section: str, name: str) -> list[t.Define]:
    found: list[t.Define] = []
    while (v := bodies.get(base_version(section, name, len(found) + 1))) is not None:
        found.append(v)
    return found
