"""Each optimisation pass, IR in and IR out, against golden files (docs/optimiser.md "Testing a pass").

A case is a small rule set in tests/passes/, named by its pass (`count_items.yaml`, or
`count_items-list.yaml` for a second case), beside its golden file (`count_items.golden`); or a
test game of tests/games/ that a pass's own tests play, or another pass's case, listed for the pass
in GAMES, its golden in tests/passes/ named by the pass and the game (`unwrap_list_items-list-items.golden`).
The golden holds, as compiler/typed_print.py writes them:
- the typed program before the pass: what every pass before it in the pipeline (`passes.PASSES`,
  every pass enabled) made of the rule set, with the annotations and marks they left;
- the program after the pass;
- what the generated module loses without the pass: the unified diff of the module compiled with
  every pass but this one against every pass (`compile --no-pass NAME`, the pair that
  tests/test_optimiser.py plays in lockstep).

A pass of the lowered level (`passes.LEVEL`, run on what lowering wrote: issue 35, item 6) has
instead the members of the lowered program it changes, before and after it, as
compiler/lowered_print.py writes them (the statements as the module prints them), with the
generated module's diff.

`UPDATE_GOLDENS=1 pytest tests/test_pass_goldens.py` writes the golden files again; read the diff
before committing it. A golden must show the pass at work: the program changes (a pass that only
marks the form lowering writes a node in shows the mark; a pass of the representation step, its
annotation), and the generated module differs."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest

from rulewright.compiler import lowered_print, passes, typed_print
from rulewright.compiler import typed as t
from rulewright.compiler.driver import Checked, check_file, compile_checked
from rulewright.compiler.lower import lower

HERE = Path(__file__).parent / "passes"
# Test games of tests/games/ whose goldens show a pass on every form its tests play.
GAMES = {"intersect_components": ["games/intersect-components"], "mask_values": ["games/mask-values"],
         "hoist_lazily": ["games/hoist-lazily"], "inline_procedures": ["games/inline-procedures"],
         "mask_spot_filters": ["games/mask-spot-filters"], "hoist_masks": ["games/hoist-masks"],
         "unwrap_list_items": ["games/unwrap-list-items"], "remember_values": ["games/remember-values"],
         "gather_spots": ["games/gather-spots"],
         "remember_listings": ["games/remember-listings"], "key_sorted_lists": ["games/key-sorted-lists"],
         "mask_regions": ["games/mask-regions", "passes/find_rows_by_key"],
         "write_out_moves": ["games/kingdoms", "games/tile-bag", "games/mask-forms", "games/every-construct"],
         "bind_board_tables": ["passes/find_rows_by_key", "games/remember-listings"], "hoist": ["passes/inline-probe"],
         "mask_spot_sets": ["games/none-masks"]}
# The cases shown with some passes only (by the name of their rule file): tests/test_inline_hoist.py's
# probe, with `inline` and `hoist` alone (`keep_derived` would keep what loops, and `inline` leave it).
ENABLED = {"inline-probe": frozenset({"inline", "hoist"})}


@dataclass(frozen=True)
class Case:
    """A pass, the rule set it is shown on, and the golden file that shows it."""

    name: str
    rules: Path
    golden: Path


CASES = sorted([*(Case(p.stem.split("-", 1)[0], p, p.with_suffix(".golden")) for p in HERE.glob("*.yaml")),
                *(Case(name, HERE.parent / f"{other}.yaml", HERE / f"{name}-{Path(other).name}.golden")
                  for name, others in GAMES.items() for other in others)], key=lambda c: c.golden.name)
UPDATE = os.environ.get("UPDATE_GOLDENS") == "1"


@cache
def checked(case: Path) -> Checked:
    return check_file(case)


def stages(program: t.TypedProgram, name: str, enabled: frozenset[str] = passes.ALL) \
        -> tuple[t.TypedProgram, t.TypedProgram]:
    """The program before pass `name` (every enabled pass before it run, by the pipeline itself:
    `passes.stages`) and after it."""
    for stage in passes.stages(program, enabled):
        if stage.name == name:
            return stage.program, stage.after
    raise AssertionError(f"no pass {name}")


def code(ch: Checked, enabled: frozenset[str]) -> list[str]:
    """A generated module without its header (which names the passes that ran)."""
    return compile_checked(ch, enabled).source.split('\n"""', 1)[1].splitlines()


@cache
def every_pass(case: Path) -> list[str]:
    return code(checked(case), ENABLED.get(case.stem, passes.ALL))


def lowered_stages(ch: Checked, name: str, enabled: frozenset[str]) -> tuple[str, str]:
    """The members of the lowered program that pass `name` (of the lowered level) changes, before it
    (lowered from the typed program every pass before it made, and every pass of the lowered level
    before it run, by the pipeline itself: `passes.lowered_stages`) and after it."""
    typed = passes.optimise(ch.typed, enabled)
    problems, program = lower(typed)
    assert problems == []
    for stage in passes.lowered_stages(program, typed, enabled):
        if stage.name == name:
            return lowered_print.changed(stage.program, stage.after)
    raise AssertionError(f"no pass {name}")


def shown(case: Case) -> tuple[str, str, str, list[str]]:
    """The golden text of a case, the program before and after (for the checks; of a pass
    of the lowered level, the members of the lowered program it changes), and the generated
    module's diff."""
    name, rules = case.name, case.rules
    enabled = ENABLED.get(rules.stem, passes.ALL)
    every = "every pass" if enabled == passes.ALL else f"the passes {', '.join(sorted(enabled))}"
    diff = list(difflib.unified_diff(code(checked(rules), enabled - {name}), every_pass(rules),
                                     f"without {name}", every, n=2, lineterm=""))
    header = [f"# pass `{name}` on {rules.relative_to(HERE.parent.parent).as_posix()}: written by "
              "tests/test_pass_goldens.py", "# (UPDATE_GOLDENS=1 pytest tests/test_pass_goldens.py writes it again)"]
    module = [f"== the generated module: {every} but `{name}` (-) against {every} (+)", *diff, ""]
    if passes.level(name) == "lowered":
        text_before, text_after = lowered_stages(checked(rules), name, enabled)
        titles = (f"the members of the lowered program `{name}` changes, before it", f"the members after `{name}`")
    else:
        before, after = stages(checked(rules).typed, name, enabled)
        text_before, text_after = typed_print.program(before), typed_print.program(after)
        titles = (f"program before `{name}`", f"program after `{name}`")
    golden = "\n".join([*header, f"== {titles[0]} ({every} before it run)", text_before,
                        f"== {titles[1]}", text_after, *module])
    return golden, text_before, text_after, diff


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.golden.stem)
def test_the_pass_writes_its_golden(case: Case) -> None:
    name, rules, golden_path = case.name, case.rules, case.golden
    assert name in passes.PASSES, f"{rules.name}: no pass `{name}` (a case is named after its pass)"
    golden, before, after, diff = shown(case)
    if UPDATE:
        golden_path.write_text(golden)
    assert golden_path.exists(), f"{golden_path.name} is missing: UPDATE_GOLDENS=1 pytest {__file__}"
    kept = golden_path.read_text()
    if kept != golden:
        lines = difflib.unified_diff(kept.splitlines(), golden.splitlines(), "golden", "now", lineterm="")
        pytest.fail(f"{golden_path.name} differs (UPDATE_GOLDENS=1 writes it again):\n" + "\n".join(list(lines)[:80]))
    assert before != after, f"`{name}` changes nothing of the program or plan of {rules.name}"
    assert diff, f"without `{name}` the module of {rules.name} is the same: the case does not show the pass"


def test_every_pass_has_a_golden() -> None:
    assert sorted(set(passes.PASSES) - {c.name for c in CASES}) == []


def test_every_golden_has_its_case() -> None:
    orphans = sorted({g.name for g in HERE.glob("*.golden")} - {c.golden.name for c in CASES})
    assert orphans == []


@pytest.mark.parametrize(("game", "written"), [
    ("every-construct", ["for ", "elif ", "else:", "goto ", "end_turn", "let ", "trigger ", "procedure ", "tie_break ",
                         "component ", " per spot", "choose "]),
    ("told", ["tell '{current as player} takes {spot as spot}, {score[current] as int} in all'"]),
    ("hidden-plays", ["ask p to choose trump :: card in card:", "others read ", "revealed when ", "placement{"]),
])
def test_the_printer_writes_each_kind_of_node_alike_each_time(game: str, written: list[str]) -> None:
    """Two checks of one rule file (other symbols, other ids) print the same text, which holds
    each kind of statement and declaration the file has."""
    path = HERE.parent / "games" / f"{game}.yaml"
    first, second = (typed_print.program(check_file(path).typed) for _ in range(2))
    assert first == second
    missing = [w for w in written if w not in first]
    assert missing == [], first


@pytest.mark.parametrize("name", ["unwrap_set_items", "unwrap_list_items", "join_rounds", "draw_out", "bound_ranges",
                                  "sort_sets", "inline_guards", "intersect_components", "mask_values", "mask_spot_sets",
                                  "mask_spot_filters", "count_items"])
def test_a_pass_that_marks_nothing_gives_the_program_itself(name: str) -> None:
    """A pass that marks the form of the nodes it takes (`t.FORMS`) marks some in its own case and
    gives the very program it was given where it takes none (so no analysis is made again)."""
    own, after = stages(checked(HERE / f"{name}.yaml").typed, name)
    assert after is not own
    plain = checked(HERE / "compute_at_scoring.yaml").typed  # (none of these forms, once the `when:`, the listing
    plain = replace(plain, actions=(), end=None)  # of the free spots and the end, tests of `none`, are dropped)
    before, untouched = stages(plain, name)
    assert untouched is before


@pytest.mark.parametrize("name", sorted(n for n, level in passes.LEVEL.items() if level == "representation"))
def test_a_pass_of_the_representation_step_annotates_the_program(name: str) -> None:
    """Its decision is an annotation of the program it gives (its own case shows one)."""
    stage = next(s for s in passes.stages(checked(HERE / f"{name}.yaml").typed) if s.name == name)
    assert stage.after != stage.program


def test_each_pass_has_a_level_and_the_lowered_ones_run_after_lowering() -> None:
    """Every pass works at one of the three levels (`passes.LEVEL`, "typed" unless named); the
    pipeline runs the typed and representation ones before lowering (`passes.stages`) and the
    lowered ones after it (`passes.lowered_stages`), each once, in the order of PASSES."""
    assert set(passes.LEVEL) <= set(passes.PASSES)
    assert {passes.level(name) for name in passes.PASSES} <= {"typed", "representation", "lowered"}
    ch = checked(HERE / "bind_board_tables.yaml")
    typed_names = [stage.name for stage in passes.stages(ch.typed)]
    typed = passes.optimise(ch.typed)
    _, program = lower(typed)
    lowered_names = [stage.name for stage in passes.lowered_stages(program, typed)]
    assert lowered_names == [name for name in passes.PASSES if passes.level(name) == "lowered"] != []
    assert typed_names == [name for name in passes.PASSES if passes.level(name) != "lowered"]


@pytest.mark.parametrize("name", [name for name in passes.PASSES if passes.level(name) == "lowered"])
def test_a_lowered_pass_leaves_the_program_it_is_given_as_it_was(name: str) -> None:
    """A pass of the lowered level is pure: it gives a new program, the one lowering gave unchanged
    (compared member by member, as its golden prints them)."""
    ch = checked(HERE / f"{name}.yaml")
    typed = passes.optimise(ch.typed)
    _, program = lower(typed)
    written = lowered_print.members(program)
    after = passes.transform(program, typed, frozenset({name}))
    assert lowered_print.members(program) == written
    assert lowered_print.members(after) != written
