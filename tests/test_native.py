"""The native build (docs/native.md): identical games, and never a stale build.

The differential test plays every bundled rule set over seeded random games twice, here
(interpreted, or native when the whole suite runs with RULEWRIGHT_NATIVE=1) and in a process
on the other side, and compares digests of every move: the legal action texts in order, the
state's to_json after it, and the end (scores, winners). The games also clone the state and
restore it from its JSON as they go, so both paths are played natively too.

Run as a script it prints those digests: `python tests/test_native.py RULESET PLAYERS SEEDS`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulewright
from rulewright import native
from rulewright.agents import RandomAgent, agent_seed
from rulewright.core.paths import bundled_rulesets, checkout_root, generated_dir
from rulewright.runtime.auction import Auction
from rulewright.runtime.rng import derive_seed

HERE = Path(__file__).resolve()
SEEDS = 20  # seeded random games per rule set, each side (the trial: 50 per game, below)
MORE = {"china-cornett": 50, "china-schacht": 50, "mandarin": 20}  # the rule sets the issue measured
MAX_MOVES = 3000


def game_digests(ruleset: str, players: int, seeds: int) -> list[str]:
    """One digest per game (seeds derive_seed(7, 0..seeds-1)), of every move's legal actions and
    the state after it, and of the end. Every 7th move plays on a clone, every 31st on the state
    restored from its JSON."""
    game = rulewright.load(ruleset)
    out = []
    for index in range(seeds):
        seed = derive_seed(7, index)
        state = game.new_state(players, seed)
        agent = RandomAgent(agent_seed(seed))
        digest = hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode())
        while not state.terminal and state.moves < MAX_MOVES:
            if state.moves % 7 == 3:
                state = state.clone()
            if state.moves % 31 == 5:
                state = game.state_from_json(json.dumps(state.to_json()))
            legal = state.legal_actions()
            texts = [str(a) for a in legal]
            action = legal[agent.rng.below(len(legal))]
            state.apply(action)
            digest.update("\n".join([*texts, "->", str(action)]).encode())
            digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
        end = {"moves": state.moves, "terminal": state.terminal}
        if state.terminal:
            end |= {"scores": list(state.scores()), "winners": list(state.winners())}
        digest.update(json.dumps(end, sort_keys=True).encode())
        out.append(f"{state.moves}:{digest.hexdigest()[:32]}")
    return out


def _other_side(ruleset: str, players: int, seeds: int, native_side: bool) -> list[str]:
    env = dict(os.environ, **{native.ENV: "1" if native_side else "0"})
    done = subprocess.run([sys.executable, str(HERE), ruleset, str(players), str(seeds)],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["native"] is native_side
    digests: list[str] = result["digests"]
    return digests


OWN_RULES = HERE.parent / "games" / "told.yaml"  # a rule file outside rules/, built natively too (`./dev test`)


@pytest.fixture(scope="session")
def native_build() -> Path:
    """The native build of the current sources, and of tests/games/told.yaml's module (built here
    if there is none: about a minute; `./dev test` builds both with `compile --native`)."""
    return native.build(extra=(_own_group(),)).path


def _own_group() -> native.Group:
    from rulewright.compiler.driver import compile_file

    return native.user_group(compile_file(OWN_RULES).source, native.current_sources())


def _cases() -> list[tuple[str, int, int]]:
    cases = []
    for ruleset, _ in bundled_rulesets():
        players = rulewright.load(ruleset).info.players
        cases.append((ruleset, players[0], MORE.get(ruleset, SEEDS)))
        if ruleset == "china-schacht" and 4 in players:
            cases.append((ruleset, 4, SEEDS))
    return cases


@pytest.mark.parametrize(("ruleset", "players", "seeds"), _cases())
def test_native_games_are_the_interpreted_games(native_build: Path, ruleset: str, players: int,
                                                seeds: int) -> None:
    here_native = native.active_build() is not None
    here = game_digests(ruleset, players, seeds)
    there = _other_side(ruleset, players, seeds, native_side=not here_native)
    assert len(here) == seeds
    assert there == here


def test_the_native_build_runs_compiled_code_only(native_build: Path) -> None:
    """With RULEWRIGHT_NATIVE=1 every runtime and generated module comes from the build of the
    current sources, none from a .py file."""
    code = ("import sys, json, rulewright; rulewright.load('china-cornett'); rulewright.load('mandarin/money');"
            "print(json.dumps({m: getattr(sys.modules[m], '__file__', None) for m in sys.modules "
            "if m.startswith(('rulewright.runtime', 'rulewright.generated'))}))")
    done = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, **{native.ENV: "1"}),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    files = json.loads(done.stdout)
    assert {"rulewright.runtime.state", "rulewright.generated.china_cornett.base",
            "rulewright.generated.mandarin.money", "rulewright.generated.mandarin.base"} <= set(files)
    sources = native.current_sources()
    folders = native.group_folders(sources)
    assert folders is not None
    for group in sources.groups:  # each group's build is that of its sources' key
        manifest = json.loads((folders[group.name] / native.MANIFEST).read_text())
        assert (manifest["key"], manifest["modules"]) == (group.key, group.modules)
    where = {m: folders[g.name] for g in sources.groups for m in g.modules}
    assert set(files) <= set(where)
    for module, file in files.items():
        assert file is not None and Path(file).is_relative_to(where[module]), module
        assert file.endswith(native.EXT_SUFFIX), module


def test_a_rule_file_of_ones_own_runs_natively_once_built(native_build: Path) -> None:
    """`compile --native my-rules.yaml` builds its module (keyed by its text); `load_rules` of the
    same file with RULEWRIGHT_NATIVE=1 runs it compiled, and plays the games it plays interpreted."""
    code = ("import json, sys, rulewright\n"
            "from rulewright.agents import RandomAgent\n"
            "game = rulewright.load_rules(sys.argv[1])\n"
            "module = sys.modules[game.state_class.__module__]\n"
            "state = game.new_state(2, 5); agent = RandomAgent(3)\n"
            "while not state.terminal:\n"
            "    legal = state.legal_actions(); state.apply(legal[agent.rng.below(len(legal))])\n"
            "print(json.dumps({'file': module.__file__, 'state': state.to_json()}))")
    sides = [subprocess.run([sys.executable, "-c", code, str(OWN_RULES)], env=dict(os.environ, **{native.ENV: flag}),
                            capture_output=True, text=True) for flag in ("1", "0")]
    assert [done.returncode for done in sides] == [0, 0], [done.stderr for done in sides]
    there, here = (json.loads(done.stdout) for done in sides)
    assert Path(there["file"]).is_relative_to(native.group_folder(_own_group()))
    assert there["file"].endswith(native.EXT_SUFFIX) and not here["file"].endswith(native.EXT_SUFFIX)
    assert there["state"] == here["state"]


def test_a_bad_rule_file_of_ones_own_builds_nothing(tmp_path: Path) -> None:
    """`compile --native FILE` of a rule file with a problem says where (path:line:col), exits 1
    and builds nothing."""
    broken = HERE.parent / "broken" / "assign_unknown.yaml"
    env = dict(os.environ, **{native.ENV: "0", native.DIR_ENV: str(tmp_path / "builds")})
    done = subprocess.run([sys.executable, "-m", "rulewright", "compile", "--native", str(broken)], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert re.search(r"assign_unknown\.yaml:\d+:\d+", done.stderr), done.stderr
    assert not (tmp_path / "builds").exists()


def test_the_native_paths_give_the_interpreted_values(native_build: Path) -> None:
    """The runtime's native-only paths (tests/test_native_paths.py runs them interpreted): natively
    `Rng.below` works on limbs of 22 bits, and draws the numbers the plain arithmetic draws (worked
    out here independently of the module) for states of every kind; an `Auction` is made by its
    compiled __init__, and is the same value, as immutable, copied and pickled alike."""
    mask = (1 << 64) - 1
    cases = [(state, n) for state in (0, 1, mask, 1 << 62, (1 << 44) - 1, 0x61C8864680B583EA, 12345678901234567)
             for n in (1, 2, 3, 6, 39, 88, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, 1 << 40)]
    code = ("import copy, json, pickle, sys\n"
            "from rulewright.runtime import auction, rng\n"
            "out = []\n"
            "for state, n in json.loads(sys.argv[1]):\n"
            "    r = rng.Rng(0); r.state = state; out.append([r.below(n), r.below(n), r.state])\n"
            "a = auction.drop(auction.bid(auction.open_auction([2, 0, 1], 100, 50), 150))\n"
            "try:\n"
            "    a.turn = 0\n"
            "    refused = False\n"
            "except AttributeError:\n"
            "    refused = True\n"
            "again = [copy.copy(a), pickle.loads(pickle.dumps(a))]\n"
            "print(json.dumps({'native': [rng._NATIVE, auction._NATIVE, auction._FAST], 'drawn': out,\n"
            "                  'auction': [repr(a), hash(a), a.over, a.to_act, refused, *map(repr, again),\n"
            "                              all(x == a for x in again)]}))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(cases)], env=dict(os.environ, **{native.ENV: "1"}),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["native"] == [True, True, False]

    def plain(state: int, n: int) -> tuple[int, int]:
        z = state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return (z ^ (z >> 31)) % n, state

    expected = []
    for state, n in cases:
        first, state = plain(state, n)
        second, state = plain(state, n)
        expected.append([first, second, state])
    assert result["drawn"] == expected
    same = Auction((2, 0, 1), 2, frozenset({1, 2}), 150, 2, 100, 50)
    assert result["auction"] == [repr(same), hash(same), False, 1, True, repr(same), repr(same), True]


def test_nothing_native_is_written_next_to_the_sources(native_build: Path) -> None:
    root = checkout_root()
    assert root is not None
    assert not native_build.is_relative_to(root / "runtime") and not native_build.is_relative_to(generated_dir())
    for folder in (root / "runtime", generated_dir(), root / "api"):
        assert not [p for p in folder.rglob("*") if p.suffix in (".so", ".pyd", ".c")], folder


def _copy_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    runtime, generated = tmp_path / "runtime", tmp_path / "generated"
    real_runtime, real_generated = native._source_folders()
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(real_runtime, runtime, ignore=ignore)
    shutil.copytree(real_generated, generated, ignore=ignore)
    monkeypatch.setattr(native, "_source_folders", lambda: (runtime, generated))
    return runtime, generated


@pytest.mark.parametrize(("changed", "rebuilt"), [
    ("generated/china_cornett/base.py", ["rwn__china_cornett__base"]),
    ("generated/china_schacht/base.py", ["rwn__china_schacht__" + v for v in (
        "base", "bonus_tiles", "border_quarrels", "fortifications", "fortifications_bonus_tiles", "two_player",
        "two_player_light")]),
    ("generated/china_schacht/two_player.py",
     ["rwn__china_schacht__two_player", "rwn__china_schacht__two_player_light"]),
    ("runtime/rng.py", None),
    ("generated/new_game/x.py", ["rwn__new_game__x"]),
    ("generated/hex/__init__.py", [native.PACKAGES_GROUP]),  # every game's package is in one group
    ("generated/new_game/__init__.py", [native.PACKAGES_GROUP]),
])
def test_a_changed_source_refuses_the_build(native_build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            changed: str, rebuilt: list[str] | None) -> None:
    """A group's build is found by the key of its exact sources and of those of the groups it imports:
    after a change to one of them (a module edited, a module added) the groups that depend on it
    (and only those: the runtime's change, every group) are not built, and the build is refused."""
    copy = tmp_path / "src"
    _copy_sources(copy, monkeypatch)
    builds = tmp_path / "builds"
    builds.mkdir()
    monkeypatch.setenv(native.DIR_ENV, str(builds))
    sources = native.current_sources()
    assert sources.key == native.current_sources().key  # the same sources, the same key
    (builds / native.GROUPS).symlink_to(native_build / native.GROUPS)  # the build of these very sources
    assert native.missing(sources) == [] and native.find_build() is not None
    target = copy / changed
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "a") as f:
        f.write("# changed\n")
    now = native.current_sources()
    assert now.key != sources.key and native.find_build() is None
    names = [g.name for g in now.groups]
    assert sorted(g.name for g in native.missing(now)) == sorted(names if rebuilt is None else rebuilt)
    package_path: list[str] = []
    monkeypatch.setattr(native, "_active", None)
    with pytest.raises(native.NativeBuildError, match="no native build for the current sources"):
        native.activate(package_path)
    assert package_path == [] and native.active_build() is None


def test_the_groups_and_their_keys() -> None:
    """The runtime is one group, each generated module another, after the groups it imports; a
    group's key covers its bytes and the keys of those groups, so a change reaches what depends on it."""
    runtime = [("rulewright/runtime/__init__.py", b""), ("rulewright/runtime/state.py", b"x = 1\n")]
    base = ("rulewright/generated/g/base.py", b"from rulewright import runtime as rt\n")
    variant = ("rulewright/generated/g/v.py", b"from rulewright.generated.g.base import (\n    GAME,\n    X)\n")
    other = ("rulewright/generated/g/w.py", b"from rulewright.generated.g import base\nimport rulewright.generated.h\n")
    plan = native.plan(runtime, [base, variant, other])
    names = [g.name for g in plan.groups]
    assert names[0] == native.RUNTIME_GROUP and set(names) == {native.RUNTIME_GROUP, "rwn__g__base", "rwn__g__v",
                                                               "rwn__g__w"}
    deps = {g.name: g.deps for g in plan.groups}
    assert deps["rwn__g__v"] == deps["rwn__g__w"] == (native.RUNTIME_GROUP, "rwn__g__base")
    assert names.index("rwn__g__base") < min(names.index("rwn__g__v"), names.index("rwn__g__w"))
    keys = {g.name: g.key for g in plan.groups}
    again = {g.name: g.key for g in native.plan(runtime, [base, (variant[0], variant[1] + b"# more\n"), other]).groups}
    assert {n for n in keys if keys[n] != again[n]} == {"rwn__g__v"}
    again = {g.name: g.key for g in native.plan(runtime, [(base[0], base[1] + b"# more\n"), variant, other]).groups}
    assert {n for n in keys if keys[n] != again[n]} == {"rwn__g__base", "rwn__g__v", "rwn__g__w"}
    again = {g.name: g.key for g in native.plan([*runtime[:1], (runtime[1][0], b"x = 2\n")], [base, variant, other]
                                               ).groups}
    assert all(keys[n] != again[n] for n in keys)
    packages = [("rulewright/generated/g/__init__.py", b'"""g."""\n'), ("rulewright/generated/h/__init__.py", b"")]
    grouped = native.plan(runtime, [base, variant, other, *packages])
    assert [g.files for g in grouped.groups if g.name == native.PACKAGES_GROUP] == [tuple(packages)]
    deps = {g.name: g.deps for g in grouped.groups}  # w imports the packages g and h: built after them
    assert deps["rwn__g__w"] == (native.RUNTIME_GROUP, "rwn__g__base", native.PACKAGES_GROUP)
    assert {n: k for n, k in keys.items() if n != "rwn__g__w"} == {g.name: g.key for g in grouped.groups
                                                                  if g.name not in (native.PACKAGES_GROUP, "rwn__g__w")}
    looped = ("rulewright/generated/g/base.py", b"from rulewright.generated.g.v import X\n")
    with pytest.raises(native.NativeBuildError, match="import each other in a cycle"):
        native.plan(runtime, [looped, variant])


def test_the_key_covers_every_compiled_source_and_the_tools(native_build: Path) -> None:
    sources = native.current_sources()
    names = {name for name, _ in sources.files}
    assert "rulewright/runtime/state.py" in names and "rulewright/generated/__init__.py" in names
    for ruleset, _ in bundled_rulesets():
        game, _, variant = ruleset.partition("/")
        assert f"rulewright/generated/{game.replace('-', '_')}/{(variant or 'base').replace('-', '_')}.py" in names
    assert native.find_build(sources) is not None
    assert native.build(extra=(_own_group(),)).reused  # built once per sources


def test_no_build_is_one_clear_error_never_the_interpreted_modules(tmp_path: Path) -> None:
    env = dict(os.environ, **{native.ENV: "1", native.DIR_ENV: str(tmp_path)})
    command = Path(sys.executable).parent / "rulewright"  # the console script, as a person runs it
    done = subprocess.run([command, "list"], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert done.stdout == ""
    assert done.stderr.startswith("rulewright: error: no native build for the current sources")
    assert "rulewright compile --native" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    done = subprocess.run([sys.executable, "-c", "import rulewright"], env=env, capture_output=True, text=True)
    assert done.returncode != 0 and "no native build for the current sources" in done.stderr


def test_a_failed_build_writes_nothing_and_says_why(native_build: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _, generated = _copy_sources(tmp_path / "src", monkeypatch)
    with open(generated / "connect_four" / "base.py", "a") as f:
        f.write("\nBROKEN: int = 'not a number'\n")
    builds = tmp_path / "builds"
    builds.mkdir()
    monkeypatch.setenv(native.DIR_ENV, str(builds))
    (builds / native.GROUPS).symlink_to(native_build / native.GROUPS)  # only the broken group to build
    before = sorted(p.name for p in (builds / native.GROUPS).iterdir())
    with pytest.raises(native.NativeBuildError, match="the native build failed, nothing was written") as caught:
        native.build(jobs=1)
    assert any("connect_four/base.py" in line and "error:" in line for line in caught.value.details)
    assert sorted(p.name for p in builds.iterdir()) == [native.GROUPS, "last-build.log"]
    assert sorted(p.name for p in (builds / native.GROUPS).iterdir()) == before


@pytest.mark.parametrize("ruleset", [r for r, _ in bundled_rulesets()])
def test_every_slot_of_a_generated_state_is_declared(ruleset: str) -> None:
    """A class compiled by mypyc has only the attributes its body declares (`__slots__` alone
    makes none): every slot a generated state class adds is annotated in the class too."""
    import ast

    game, _, variant = ruleset.partition("/")
    path = generated_dir() / game.replace("-", "_") / f"{(variant or 'base').replace('-', '_')}.py"
    (cls,) = [n for n in ast.parse(path.read_text()).body if isinstance(n, ast.ClassDef)]
    slots = [n for n in cls.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "__slots__"]
    assert slots, path
    declared = {ast.unparse(n.target) for n in cls.body if isinstance(n, ast.AnnAssign)}
    assert set(ast.literal_eval(slots[0].value)) <= declared


def test_without_mypyc_the_build_says_what_it_needs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    find_spec = native.importlib.util.find_spec
    monkeypatch.setattr(native.importlib.util, "find_spec", lambda name: None if name == "mypyc" else find_spec(name))
    monkeypatch.setenv(native.DIR_ENV, str(tmp_path / "builds"))
    monkeypatch.setattr(native, "missing", lambda sources: list(sources.groups))
    with pytest.raises(native.NativeBuildError, match="the native build needs mypyc, which comes with mypy"):
        native.build()
    assert not (tmp_path / "builds").exists()


def test_compile_check_native_and_bench_native(native_build: Path) -> None:
    run = [sys.executable, "-m", "rulewright"]
    env = dict(os.environ, **{native.ENV: "0"})
    # One rule set is enough (the native build's key covers the whole generated tree either way;
    # tests/test_cli.py checks every rule set's module).
    done = subprocess.run([*run, "compile", "--check", "--native", "china-cornett"], env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert "1 module up to date" in done.stdout and "native build up to date" in done.stdout
    done = subprocess.run([*run, "bench", "--native", "--seconds", "0.3", "--json", "china-cornett"], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    (row,) = report["rulesets"]
    assert row["ruleset"] == "china-cornett" and row["players"] == 2
    assert row["interpreted"]["playouts"] > 0 and row["native"]["playouts"] > 0
    assert row["ratio"] == round(row["native"]["playouts_per_sec"] / row["interpreted"]["playouts_per_sec"], 2)
    done = subprocess.run([*run, "bench", "--native", "rules/nowhere.yaml"], env=env, capture_output=True,
                          text=True)
    assert done.returncode != 0 and "Traceback" not in done.stderr


if __name__ == "__main__":
    _ruleset, _players, _seeds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps({"native": native.active_build() is not None,
                      "digests": game_digests(_ruleset, _players, _seeds)}))
