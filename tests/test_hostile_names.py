"""Names cannot collide (issue 9): every name a rule file gives is either refused with a clean
error that says it is reserved, or lives where nothing else does in the generated module, which
then plays the same game as it would with an innocent name.

1. The corpus tests/hostile/names/: each file is a small game with one hostile name and says on
   its first line what the compiler must answer, `# expect: <path>:<line>:<col>: error: <message>`,
   or `# expect: plays` for a name that generated code writes otherwise (tested below).
2. A property test (hypothesis): tests/hostile/names/probe.yaml names one of each thing a rule
   file can name, each name starting with `zq`; a hostile name put in the place of one gives a
   clean error on the line of that name, or the same game (legal actions and their texts,
   scores, saved states and observations, the new name read for the old).
3. The tables of compiler/names.py are complete: every name a generated module defines or uses
   is in them, or made from one of the rule file's names the way the tables say.
"""

from __future__ import annotations

import ast as pyast
import builtins
import dataclasses
import json
import keyword
import random
import re
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import rulewright
from rulewright import runtime as rt
from rulewright.compiler import ast, ir, names
from rulewright.compiler.builtins import AGGREGATES, BUILTINS, VALUES
from rulewright.compiler.codegen import class_name
from rulewright.compiler.driver import compile_file
from rulewright.core.source import CompileError, Diagnostic
from rulewright.runtime.boards import GRID_DIRECTIONS
from tests.helpers.lockstep import play_in_lockstep

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile" / "names"
PROBE = HOSTILE / "probe.yaml"
EXPECT = "# expect: "


def expectation(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(EXPECT), f"{path.name} must start with `{EXPECT}`"
    return first[len(EXPECT):]


CASES = sorted(p for p in HOSTILE.glob("*.yaml") if p != PROBE)
REFUSED = [p for p in CASES if expectation(p) != "plays"]


def word(name: str) -> re.Pattern[str]:
    """`name` as a whole name (`zqcomp` in `zqcomp1`, a component's label, too)."""
    return re.compile(rf"(?<![a-z0-9_]){re.escape(name)}(?![a-z_])")


# -- 1. the corpus ------------------------------------------------------------------------------

def test_the_corpus_is_there() -> None:
    assert len(REFUSED) >= 20 and len(CASES) - len(REFUSED) >= 2


@pytest.mark.parametrize("path", REFUSED, ids=lambda p: p.stem)
def test_a_hostile_name_is_refused_where_it_is_written(path: Path) -> None:
    wanted = expectation(path)
    with pytest.raises(CompileError) as failed:
        compile_file(path)
    headlines = [d.render().splitlines()[0] for d in failed.value.diagnostics]
    assert headlines == [wanted]
    for d in failed.value.diagnostics:
        assert "did you mean" not in d.render()


def test_locals_named_like_the_generated_methods_own_keep_their_names() -> None:
    """Choices `cache` and `args` (once locals of `_legal__take` and `_action_text`, now `_cache`
    and `_args`), `let name`, `let rounds` (once a local of pass `join_rounds`, now `_rounds`) keep
    their names; a loop variable `len`, Python's, gets a `_` after it."""
    path = HOSTILE / "locals_named_like_generated_locals.yaml"
    compiled = compile_file(path)
    assert "def _do__take(self, cache: int, args: int) -> None:" in compiled.source
    assert "        rounds = name  #" in compiled.source
    assert "for len_ in range(0, 2):" in compiled.source
    game = rulewright.game_from_source(compiled.source, str(path))
    state: Any = game.new_state(players=2, seed=3)
    roll = state.roll
    labels = state.board.labels
    assert [str(a) for a in state.legal_actions()] == [f"take {s} by {r}" for s in labels for r in (roll, roll + 1)]
    state.apply(f"take {labels[2]} by {roll + 1}")
    # the loop adds 0 + 1; then `rounds`, which is name = args + 2
    assert state.score[0] == 1 + (roll + 1 + 2)
    assert state.marker[2] == 1


# -- 2. the property: a clean error, or the same game ------------------------------------------

PROBE_TEXT = PROBE.read_text(encoding="utf-8")
TOKENS = sorted(set(re.findall(r"(?<![a-z0-9_])zq[a-z0-9]+", PROBE_TEXT)))
# Where a name is a local of a generated method: these are renamed, never refused for Python's sake.
LOCAL_TOKENS = ("zqspot", "zqhue", "zqlet", "zqloop", "zqtile", "zqparam", "zqpparam", "zqamount", "zqcv")
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")


def _lowercase(found: Iterable[str]) -> list[str]:
    return sorted({n.lower() for n in found if _IDENTIFIER.fullmatch(n.lower())})


GENERATED = _lowercase(
    set(names.STATE_MEMBERS) | names.MODULE_NAMES | names.TEMPLATE_LOCALS | names.IMPLICIT_LOCALS
    | set(rt.State.__slots__) | set(dir(rt.Game)) | set(dir(rt.Action)) | set(dir(rt))
    | {"phase_zqphasea", "phase_zqphaseb", "zqdicekind_faces", "zqcomp_zqattr", "game", "role_of_seat", "cache",
       "phase", "start_phase", "legal_cache", "by_players", "pass", "_opt__zqoption", "do_zqclaim", "board_zqboard"}
)
PYTHON = _lowercase(set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins)))
DUNDERS = ["__init__", "__class__", "__dict__", "__slots__", "__name__", "__module__", "__hidden", "_x", "_", "__"]
RULES = _lowercase(set(BUILTINS) | set(AGGREGATES) | set(VALUES)
                   | {"player", "k", "i", "let", "goto", "end_turn", "tell"})
ENDING_IN_UNDERSCORE = [n + "_" for n in ("self", "cache", "len", "name", "_")]
POOL = sorted({*GENERATED, *PYTHON, *DUNDERS, *RULES, *TOKENS, *ENDING_IN_UNDERSCORE})
HOSTILE_NAMES = st.sampled_from(POOL) | st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)


def renamed(token: str, name: str) -> str:
    return word(token).sub(lambda _: name, PROBE_TEXT)


def playthrough(game: rt.Game, seed: int) -> list[str]:
    """What a game shows: each seat to act and its legal actions by text, then the saved state,
    an observation and the scores at the end."""
    state = game.new_state(players=2, seed=seed)
    pick = random.Random(seed)
    shown: list[str] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        shown.append(f"{state.to_act()}: " + " | ".join(str(a) for a in legal))
        state.apply(legal[pick.randrange(len(legal))])
        assert len(shown) < 100, "the probe game ends within 30 moves"
    shown.append(json.dumps(state.to_json()))
    shown.append(json.dumps(state.observation(1)))
    shown.append(f"{state.scores()} {state.winners()} {state.score_terms(0)}")
    return shown


INNOCENT = rulewright.game_from_source(compile_file(PROBE).source, str(PROBE))
INNOCENT_PLAYS = [playthrough(INNOCENT, seed) for seed in range(3)]


def clean_refusal(diagnostics: tuple[Diagnostic, ...], name: str, lines: list[str]) -> None:
    """Diagnostics with a place in the file, one of them about the name: on a line that holds
    it (where it is refused as reserved, always), or naming it (a value declared twice is shown
    at its enumeration). A name refused as reserved gets no did-you-mean."""
    assert diagnostics
    for d in diagnostics:
        assert Path(d.span.path).name == "probe.yaml" and 1 <= d.span.line <= len(lines) and d.span.col >= 1
        assert d.render().startswith(f"{d.span}: error: ")
        if "reserved" in d.message:
            assert "did you mean" not in d.render()
            assert word(name).search(lines[d.span.line - 1]), d.render()
    assert any(word(name).search(lines[d.span.line - 1]) or f"`{name}`" in d.message for d in diagnostics), (
        f"no diagnostic about `{name}`:\n" + "\n".join(d.render() for d in diagnostics))


def compile_renamed(token: str, name: str) -> rt.Game | tuple[Diagnostic, ...]:
    text = renamed(token, name)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            compiled = compile_file(path)
        except CompileError as failed:
            clean_refusal(failed.diagnostics, name, text.splitlines())
            return failed.diagnostics
        return rulewright.game_from_source(compiled.source, str(path))


def same_game(token: str, name: str, game: rt.Game) -> None:
    for seed, innocent in enumerate(INNOCENT_PLAYS):
        expected = [word(token).sub(lambda _: name, line) for line in innocent]
        assert playthrough(game, seed) == expected


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.sampled_from(TOKENS), HOSTILE_NAMES)
@example("zqvala", "phase_zqphasea")
@example("zqvala", "game")
@example("zqphasea", "phase")
@example("zqclaim", "cache")
@example("zqfree", "num_seats")
@example("zqfree", "score_terms")
@example("zqspot", "len")
@example("zqlet", "self_")
@example("zqcomp", "zqdicekind")
@example("zqdie", "zqcomp_zqattr")
def test_a_hostile_name_is_refused_or_plays_the_same_game(token: str, name: str) -> None:
    result = compile_renamed(token, name)
    if isinstance(result, rt.Game):
        same_game(token, name, result)


def test_the_list_of_all_components_named_as_a_reserved_local_is_refused_where_all_names_it() -> None:
    """`all: i` (the rules' own `i`, a component's number in its attributes) is refused at `all:`,
    not at the component's name."""
    diagnostics = compile_renamed("zqcomps", "i")
    assert isinstance(diagnostics, tuple)
    reserved = [d for d in diagnostics if "`i` is reserved" in d.message]
    assert reserved and renamed("zqcomps", "i").splitlines()[reserved[0].span.line - 1].strip() == "all: i"


# The locals generated methods bound before issue 33 gave them a `_` first (a rule local of one of
# these names was renamed by a list then), and names like the passes' fresh locals of old.
OLD_LOCALS = ["actions", "action", "cache", "name", "args", "memo", "value", "remembered", "kept", "over", "other",
              "nested", "table", "row1", "row2", "key0", "key1", "joined0", "spots_mask", "row_fixed", "gathered",
              "rows", "rows_key", "found_rows", "listed", "listed_key", "listed_actions", "regions_mask",
              "regions_stale", "held_regions", "in_region", "row_actions", "kept_regions0", "rounds", "once", "once2",
              "cell", "cell1", "s2", "total", "found", "each", "cond", "item"]
LOCAL_NAMES = sorted(n for n in {*OLD_LOCALS, "len", "range", "enumerate", "sum", "super", "rt", "class",
                                  "def", "lambda", "match", "case", "type", "print", "sorted", "frozenset", "tuple",
                                  "int", "object", "annotations", "render", "self"} if names.RULE_NAME.fullmatch(n))


@pytest.mark.parametrize("name", LOCAL_NAMES)
def test_a_local_may_take_any_name_python_or_generated_code_uses(name: str) -> None:
    """Locals are renamed, never refused for Python's sake: each such name, at the place of one
    of the probe's locals (taken in turn), gives the same game."""
    token = LOCAL_TOKENS[LOCAL_NAMES.index(name) % len(LOCAL_TOKENS)]
    result = compile_renamed(token, name)
    assert isinstance(result, rt.Game), "\n".join(d.render() for d in result)
    same_game(token, name, result)


# -- 3. the tables are complete -------------------------------------------------------------------

RULE_FILES = sorted((ROOT / "rules").glob("*/*.yaml")) + sorted((ROOT / "tests" / "games").glob("*.yaml")) + [
    PROBE, *(p for p in CASES if p not in REFUSED), ROOT / "tests" / "variants" / "doubled.yaml"]


def _walk(node: object) -> Iterator[object]:
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, tuple):
            todo.extend(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            yield item
            todo.extend(getattr(item, f.name) for f in dataclasses.fields(item))


def made_names(rs: ir.RuleSet) -> tuple[set[str], set[str], set[str]]:
    """The module names, state members and locals a rule set's own names become."""
    values = [*(rs.roles or [f"seat{i + 1}" for i in range(max(rs.players))])]
    values += [v for e in rs.enums for v in e.values] + [v for f in rs.fields for v in f.values]
    values += [c for o in rs.options if o.name != "board" for c in o.choices]
    values += [k.name for b in rs.boards for k in b.region_kinds] + [d.name for k in rs.dice for d in k.dice]
    values += [p.name for b in rs.boards for p in b.wall] + [f.name for b in rs.boards for p in b.wall for f in p.faces]
    values += list(GRID_DIRECTIONS) if any(b.grid is not None for b in rs.boards) else []  # a grid's `direction`
    module = {names.const_name(v) for v in values} | {class_name(rs.game, rs.variant)}
    module |= {names.phase_constant(p.name) for p in rs.phases}
    module |= {names.faces_constant(k.name) for k in rs.dice}
    module |= {names.table_constant(c.name, a.name) for c in rs.components for a in c.attributes}
    module |= {names.board_function(b.name) for b in rs.boards}
    module |= {names.regions_constant(b.name) for b in rs.boards}  # (those whose regions others share)
    module |= {names.component_sets_constant(names.table_constant(c.name, a.name))
               for c in rs.components for a in c.attributes}
    members = {f.name for f in rs.fields} | {d.name for d in rs.defines} | {p.name for p in rs.procedures}
    for section, versions in (("define", rs.defines), ("scoring", rs.scoring)):  # each used by `base(...)`
        for version in versions:
            depth, earlier = 1, version.base
            while earlier is not None:
                method = names.base_version(section, version.name, depth)  # a definition of its own
                members |= {method, *(pattern.format(method) for pattern in names.MEMBER_PATTERNS["define"])}
                depth, earlier = depth + 1, earlier.base
    for kind, named in (("action", rs.actions), ("phase", rs.phases), ("trigger", rs.triggers), ("option", rs.options),
                        ("define", rs.defines)):
        members |= {pattern.format(x.name) for x in named for pattern in names.MEMBER_PATTERNS[kind]}
    for text in (*rs.look.prompts, *rs.look.moves) if rs.look is not None else ():  # an action's or an ask's
        members |= {pattern.format(text.name) for kind in ("look_action", "look_ask")
                    for pattern in names.MEMBER_PATTERNS[kind]}
    local: set[str] = set()
    for node in _walk(rs):
        if isinstance(node, ast.Let | ir.Choice | ir.Param):
            local.add(node.name)
        elif isinstance(node, ast.For | ast.Comprehension | ast.Ask):
            local.add(node.var)
            if isinstance(node, ast.Comprehension):  # (and the variables of its clauses after the first)
                local.update(var for var, _, _ in node.more)
    locals_ = {names.local_name(n) for n in local} | {names.FILTER_LOCAL.format(f.name) for f in rs.fields}
    return module, members, locals_


def kept(member: str) -> bool:
    """A slot a pass keeps on the state (names.KEPT_TAGS): `_mask__marker__face_down` ..."""
    return member.startswith(tuple(names.joined(tag, "") for tag in names.KEPT_TAGS))


def _defined(stmt: pyast.stmt) -> list[str]:
    if isinstance(stmt, pyast.FunctionDef | pyast.ClassDef):
        return [stmt.name]
    if isinstance(stmt, pyast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, pyast.Name)]
    if isinstance(stmt, pyast.AnnAssign) and isinstance(stmt.target, pyast.Name):
        return [stmt.target.id]
    if isinstance(stmt, pyast.ImportFrom | pyast.Import):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    return []


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_generated_code_uses_no_name_the_tables_do_not_list(path: Path) -> None:
    """A name the template or the lowering starts to use must be listed in compiler/names.py
    (and so be reserved), or this fails."""
    compiled = compile_file(path)
    made_module, made_members, made_locals = made_names(compiled.ruleset)
    module_ok = names.MODULE_NAMES | made_module
    members_ok = names.STATE_MEMBERS | made_members
    locals_ok = (names.METHOD_NAMES | names.TEMPLATE_LOCALS | names.INVENTED_LOCALS | names.IMPLICIT_LOCALS
                 | made_locals)
    reads_ok = locals_ok | module_ok | set(dir(builtins))
    tree = pyast.parse(compiled.source)
    problems: list[str] = []

    # the locals the optimisation passes bind, spelled after the rule set's own (names.pass_local)
    bases = {n.rstrip("_") for n in made_locals} | {d.name for d in compiled.ruleset.defines}

    def check(name: str, allowed: set[str] | frozenset[str], what: str, line: int) -> None:
        made_by_a_pass = (allowed is locals_ok or allowed is reads_ok) and names.pass_local(name, bases)
        if name not in allowed and not made_by_a_pass:
            problems.append(f"line {line}: {what} `{name}`")

    for stmt in tree.body:
        for name in _defined(stmt):
            check(name, module_ok, "module name", stmt.lineno)
        if isinstance(stmt, pyast.ClassDef):
            for member in stmt.body:
                for name in _defined(member):
                    if not kept(name):  # (kept by a pass: no rule file's name starts so)
                        check(name, members_ok, "member", member.lineno)
    for node in pyast.walk(tree):
        annotations = [node.annotation] if isinstance(node, pyast.AnnAssign | pyast.arg) and node.annotation else []
        if isinstance(node, pyast.FunctionDef) and node.returns is not None:
            annotations.append(node.returns)
        for annotation in annotations:
            for part in pyast.walk(annotation):
                if isinstance(part, pyast.Name):
                    check(part.id, names.ANNOTATION_NAMES, "name in an annotation", part.lineno)
        if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) and node.value.id in ("self",
                                                                                                         "_other"):
            if not kept(node.attr):  # (kept by a pass: no rule file's name starts so)
                check(node.attr, members_ok, "member", node.lineno)
        if isinstance(node, pyast.FunctionDef):
            for inner in pyast.walk(node):
                if isinstance(inner, pyast.arg):
                    check(inner.arg, locals_ok, "local", inner.lineno)
                elif isinstance(inner, pyast.Name):
                    stored = not isinstance(inner.ctx, pyast.Load)
                    check(inner.id, locals_ok if stored else reads_ok, "local" if stored else "name", inner.lineno)
    assert not problems, "\n".join(problems)


def test_locals_are_spelled_apart_from_each_other_and_from_generated_code() -> None:
    samples = [n for n in POOL if names.RULE_NAME.fullmatch(n)] + ["x"]
    spelled: dict[str, str] = {}
    for name in samples:
        py = names.local_name(name)
        assert spelled.setdefault(py, name) == name, f"`{name}` and `{spelled[py]}` are both written `{py}`"
        assert py not in names.LOCAL_AVOID and not keyword.iskeyword(py)


def test_every_local_generated_code_binds_itself_starts_with_one_underscore() -> None:
    """The template's, the lowering's and the passes' own locals: `_` first (never `__`, which
    Python mangles in a class) and no `__` join, apart from every rule local and pass local."""
    for local in names.TEMPLATE_LOCALS | names.INVENTED_LOCALS:
        assert local.startswith("_") and not local.startswith("__") and names.JOIN not in local, local
    assert names.LOCAL_AVOID == names.PYTHON_WORDS | names.METHOD_NAMES
    assert names.pass_local("_once__2", set()) and names.pass_local("_s__1", {"s"})
    assert not names.pass_local("once2", {"once"}) and not names.pass_local("_s__x", {"s"})


def test_the_reserved_members_are_read_from_the_runtime() -> None:
    for member in [*rt.State.__slots__, *(n for n in dir(rt.State) if callable(getattr(rt.State, n)))]:
        assert member in names.STATE_MEMBERS
    for kind, name in (("action", "cache"), ("phase", "phase"), ("action", "steps"), ("action", "claim")):
        assert names.member_clash(kind, name) is None  # `_legal__cache`, `_start__phase`, `_do__steps`



# -- 4. invented names are apart from rule names by construction (issue 33) ----------------------

# Words the compiler's own names are made of, and bits of rule names, to be joined by `_` into rule
# names that would meet an invented name if `_` joined them (`aa` + `bb_cc`, `aa_bb` + `cc`).
WORDS = ["aa", "bb", "cc", "d", "do", "mask", "empty", "has", "is", "regions", "known", "sets", "attr", "phase",
         "faces", "board", "opt", "legal", "cache", "start", "base", "base2", "term", "values", "listed", "game",
         "steps", "x1", "v2"]
RULE_NAMES = (st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map("_".join)
              | st.from_regex(r"[a-z][a-z0-9]{0,5}(_[a-z0-9]{1,4}){0,2}", fullmatch=True))


def invented(kind: str, parts: tuple[str, ...]) -> tuple[str, str] | None:
    """The name the compiler makes of rule names `parts` for `kind`, and where it lives ("module"
    or "member"); None where `kind` takes another number of parts."""
    one, two = len(parts) == 1, len(parts) == 2
    if kind == "phase" and one:
        return names.phase_constant(*parts), "module"
    if kind == "faces" and one:
        return names.faces_constant(*parts), "module"
    if kind == "attr" and two:
        return names.table_constant(*parts), "module"
    if kind == "sets" and two:
        return names.component_sets_constant(names.table_constant(*parts)), "module"
    if kind == "board" and one:
        return names.board_function(*parts), "module"
    if kind == "value" and one:
        return names.const_name(*parts), "module"  # a value or die: the rule name in capitals
    if kind.startswith("member:") and one:
        section, k = kind.split(":")[1:]
        patterns = names.MEMBER_PATTERNS[section]
        return (patterns[int(k)].format(*parts), "member") if int(k) < len(patterns) else None
    if kind.startswith("base:") and one:
        section, depth = kind.split(":")[1:]
        return names.base_version(section, parts[0], int(depth)), "member"
    if kind.startswith("kept:") and len(parts) in (1, 2):
        return names.joined(kind.split(":")[1], *parts), "member"
    if kind == "rule" and one:
        return parts[0], "member"  # a field, definition or procedure: the rule name itself
    return None


KINDS = ["phase", "faces", "attr", "sets", "board", "value", "rule",
         *(f"member:{section}:{k}" for section, tags in names.MEMBER_TAGS.items() for k in range(len(tags))),
         *(f"base:{section}:{depth}" for section in names.BASE_VERSION for depth in (1, 2, 3)),
         *(f"kept:{tag}" for tag in names.KEPT_TAGS)]
MADE = st.tuples(st.sampled_from(KINDS), st.lists(RULE_NAMES, min_size=1, max_size=2).map(tuple))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(MADE, MADE)
@example(("kept:mask", ("aa", "bb_cc")), ("kept:mask", ("aa_bb", "cc")))
@example(("value", ("chip_hue_sets",)), ("sets", ("chip", "hue")))
@example(("value", ("phase_play",)), ("phase", ("play",)))
@example(("member:action:1", ("cache",)), ("rule", ("legal_cache",)))
@example(("member:define:0", ("o_x",)), ("member:action:0", ("x",)))
def test_no_two_names_made_of_rule_names_are_alike(a: tuple[str, tuple[str, ...]],
                                                   b: tuple[str, tuple[str, ...]]) -> None:
    """Every name the compiler makes of rule names, in every place: two made of different rule
    names or for different things are never alike, and none is a name the runtime, the template
    or Python gives a module or a state (but the public API the checker refuses by name)."""
    made_a, made_b = invented(*a), invented(*b)
    # a kind given another number of rule names than it takes makes no name: no example (not a pass)
    assume(made_a is not None and made_b is not None)
    if made_a[1] == made_b[1] and a != b:
        assert made_a[0] != made_b[0], f"{a} and {b} are both `{made_a[0]}`"
    for (name, where), (kind, _) in ((made_a, a), (made_b, b)):
        if kind in ("rule", "value"):
            continue  # a rule file's own name (refused where it is a public member: test 2)
        assert not names.RULE_NAME.fullmatch(name.lower()), f"`{name}` could be a rule name"
        taken = names.MODULE_NAMES if where == "module" else names.STATE_MEMBERS
        assert name not in taken, f"`{name}` is generated code's own"


def test_the_state_members_are_private_constants_or_a_public_api_refused_by_name() -> None:
    """What a state has before a rule file adds its own: names starting with `_` and holding no
    `__` join (or dunders), class constants in capitals, or its public API, lowercase, which a
    field, definition or procedure may not take (the checker reads it from the class)."""
    for member in names.STATE_MEMBERS:
        if member.startswith("__") and member.endswith("__"):
            continue
        if member.startswith("_"):
            assert names.JOIN not in member[1:], f"`{member}` is spelled as an invented name is"
        elif member.upper() != member:
            assert names.RULE_NAME.fullmatch(member), member
            assert member in names.STATE_API
    assert {"apply", "clone", "phase", "board", "num_seats", "score_terms"} <= names.STATE_API


def renamed_games(text: str, tokens: list[str], new: list[str]) -> tuple[rt.Game, rt.Game] | None:
    """The rule file `text` with each of `tokens` renamed to the name of `new` at its index, loaded
    optimised and unoptimised; None when it is refused cleanly (a name taken twice, a reserved one)."""
    for k, token in enumerate(tokens):  # (each marked first: a new name may be an old one)
        text = re.sub(rf"(?<![a-z0-9_]){token}(?![a-z0-9_])", f"\x00{k}\x00", text)
    text = re.sub("\x00([0-9]+)\x00", lambda m: new[int(m.group(1))], text)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "renamed.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            optimised = rulewright.load_rules(path)
        except CompileError as failed:
            assert all(d.span.line >= 1 and d.render().startswith(f"{d.span}: error: ") for d in failed.diagnostics)
            return None
        return optimised, rulewright.load_rules(path, passes=frozenset())


FINDINGS = HOSTILE / "masks_of_two_fields_joined_alike.yaml"
FINDINGS_TEXT = FINDINGS.read_text(encoding="utf-8").split("\n", 4)[4]  # (without its comment)
FINDINGS_TOKENS = ["aa", "bb_cc", "aa_bb", "cc", "blank", "unset", "score", "mark", "points"]


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.lists(RULE_NAMES, min_size=len(FINDINGS_TOKENS), max_size=len(FINDINGS_TOKENS), unique=True))
@example(["aa", "bb_cc", "aa_bb", "cc", "blank", "unset", "score", "mark", "points"])
@example(["mask", "aa_bb", "mask_aa", "bb", "empty", "has", "is", "d", "do"])
def test_fields_and_values_named_adversarially_play_the_same_game_optimised(new: list[str]) -> None:
    """The first finding of issue 33 with every name replaced at once by names made of the words
    invented names are made of: refused cleanly (a name taken twice, a reserved one), or the same
    game optimised by every pass as unoptimised."""
    games = renamed_games(FINDINGS_TEXT, FINDINGS_TOKENS, new)
    if games is not None:
        assert sum(play_in_lockstep(*games, 2, seed) for seed in range(3)) >= 18  # six moves a game


@pytest.mark.parametrize("path", [p for p in CASES if p not in REFUSED], ids=lambda p: p.stem)
def test_a_name_that_plays_plays_the_same_game_optimised_and_not(path: Path) -> None:
    optimised = rulewright.load_rules(path)
    plain = rulewright.load_rules(path, passes=frozenset())
    assert sum(play_in_lockstep(optimised, plain, 2, seed) for seed in range(4)) > 0


LOCALS_FILE = HOSTILE / "locals_named_like_generated_locals.yaml"
LOCALS_TEXT = LOCALS_FILE.read_text(encoding="utf-8").split("\n", 3)[3]  # (without its comment)
LOCALS_TOKENS = ["cache", "args", "name", "rounds", "s"]  # its choices, `let`s and comprehension variables


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(OLD_LOCALS) | RULE_NAMES, min_size=len(LOCALS_TOKENS), max_size=len(LOCALS_TOKENS),
                unique=True))
@example(["actions", "cache", "table", "rounds", "row1"])
@example(["memo", "value", "kept", "once", "cell"])
@example(["other", "name", "args", "once2", "s2"])
def test_locals_named_like_generated_locals_play_the_same_game_optimised(new: list[str]) -> None:
    """Every local of a small game renamed at once, to the names generated methods bound before
    their own started with `_` or to rule names made of the words invented names are made of:
    refused cleanly (a name taken twice, a reserved one), or the same game optimised by every
    pass as unoptimised."""
    games = renamed_games(LOCALS_TEXT, LOCALS_TOKENS, new)
    if games is not None:
        assert sum(play_in_lockstep(*games, 2, seed) for seed in range(3)) > 0
