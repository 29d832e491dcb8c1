"""The passes that keep values between moves (`keep_derived`, `keep_end`; docs/optimiser.md) and the
dependency analysis they share (compiler/analysis/reads.py).

The analysis is checked on the bundled rule sets (what a definition reads, through the ones it
uses; what a procedure writes); lowering is checked to drop, after every assignment to a field,
exactly the kept values that read it (what it writes is the golden of tests/passes/keep_derived.yaml
and tests/passes/keep_end.yaml, tests/test_pass_goldens.py); and played games are checked never to hold a stale kept
value: after every move, every kept value equals the value computed afresh, including after
the outside writes of a restored state and a scenario's position."""

from __future__ import annotations

import dataclasses
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright import runtime as rt
from rulewright import scenarios
from rulewright.compiler import passes
from rulewright.compiler.analysis.reads import Dependencies, analyse
from rulewright.compiler.lower import END_SLOT, lower
from rulewright.compiler.pyprint import Printed, printed
from rulewright.compiler.typed import Reads
from rulewright.core.paths import bundled_rulesets, ruleset_file
from rulewright.generated.mandarin.base import ATTR__TILE__ANIMAL
from rulewright.runtime.state import State
from tests.helpers.compiled import game, typed
from tests.helpers.kept import keeping, kept_items, kept_values

ROOT = Path(__file__).resolve().parents[1]
RULESETS = [rid for rid, _ in bundled_rulesets()]


@cache
def deps(ruleset: str) -> Dependencies:
    return analyse(typed(ruleset))


# -- the analysis ---------------------------------------------------------------------------------
def test_a_definition_reads_the_fields_of_the_definitions_it_uses() -> None:
    d = deps("china-cornett")
    assert d.defines["face_down_spots"] == Reads(frozenset({"marker"}))
    # `len(straight_lines(n, face_down_spots))`: marker, through face_down_spots
    assert d.defines["alignments"] == Reads(frozenset({"marker"}))
    assert d.defines["reduction_limit"] == Reads()  # an option only: nothing that changes
    assert d.defines["sector_kind"] == Reads()  # a parameter's role
    assert d.end == Reads(frozenset({"marker"}))
    assert d.scoring["gold"] == Reads(frozenset({"gold"}))


def test_the_seat_to_act_is_a_read_of_its_own() -> None:
    d = deps("mandarin")
    assert d.defines["bidders"].volatile and d.defines["bidders"].fields == {"defaulted", "seller"}
    assert not d.defines["complete"].volatile
    assert d.end == d.defines["complete"] == Reads(frozenset({"card"}))
    # `deciding` reads what the phases' `actor:` read
    assert d.deciding.volatile


def test_a_procedure_writes_the_fields_of_the_procedures_it_calls() -> None:
    program = typed("china-cornett")
    d = deps("china-cornett")
    assert d.procedures["collect"] == {"gold", "marker"}
    prospect = next(a for a in program.actions if a.name == "prospect")
    assert d.writes(prospect.effect) == {"marker", "turned"}
    transport = next(t for t in program.triggers if t.name == "transport_gold")
    assert d.writes(transport.effect) == {"gold", "marker"}, "collect's writes, through the call"
    assert d.reads(prospect.choices[0].domain) == Reads(frozenset({"marker", "roll", "tablets"}))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_read_and_write_is_a_field_of_the_rule_set(ruleset: str) -> None:
    program, d = typed(ruleset), deps(ruleset)
    names = {f.decl.name for f in program.fields}
    assert all(r.fields <= names for r in (*d.defines.values(), d.end, *d.scoring.values()))
    assert all(w <= names for w in d.procedures.values())
    assert set(d.defines) == {x.name for x in program.defines}


# -- what lowering does with it -------------------------------------------------------------------
_ASSIGNED = re.compile(r"self\.(\w+)(\[.*?\])? (?:=|\+=|-=) ")
# the value kept for one entity dropped: `self._d__complete = rt.without_key(self._d__complete, self.current)`
_AT_ENTITY = re.compile(r"self\.(\w+) = rt\.without_key\(self\.(\w+), (.+?)(?:, self\._kept_shared)?\)$")
# the values kept for the regions holding one spot dropped (pass `drop_by_region`):
# `self._d__emissary_room = rt.without_keys(self._d__emissary_room, self.board.spot_regions[space])`
# the values kept for the attribute of the one item a set gained or lost (`keep_derived.attribute_entries`):
# `self._d__controller = rt.without_key(self._d__controller, ATTR__TILE__ANIMAL[tile])`
_BY_ATTRIBUTE = re.compile(r"self\.(\w+) = rt\.without_key\(self\.(\w+), ([A-Z][A-Z0-9_]*)\[(\w+)\]"
                           r"(?:, self\._kept_shared)?\)$")
_IN_REGIONS = re.compile(r"self\.(\w+) = rt\.without_keys\(self\.(\w+), self\.board\.spot_regions\[(.+)\]"
                         r"(?:, self\._kept_shared)?\)$")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_assignment_drops_exactly_the_kept_values_that_read_its_field(ruleset: str) -> None:
    """Every kept value that reads the field is dropped after the assignment: the whole slot, or,
    for an assignment at one entity and a definition of one parameter that reads the field only
    at the entity it names (`t.Kept.entries`), its value for that entity."""
    program = typed(ruleset)
    optimised = passes.optimise(program)
    problems, lowered = lower(optimised)
    assert not problems
    how = keeping(optimised)
    readers: dict[str, set[str]] = {}
    for name, reads in how.derived:
        for f in reads.fields:
            readers.setdefault(f, set()).add(f"_d__{name}")
    if how.end is not None and program.end is not None:
        for f in how.end.fields:
            readers.setdefault(f, set()).add(END_SLOT)
    at_param = {(f, f"_d__{name}"): k for name, f, k in how.entries}
    in_region = {(f, f"_d__{name}"): k for name, f, k in how.regions}
    by_attribute = {(f, f"_d__{name}"): (k, table) for name, f, k, table in how.attributes}
    params = {d.name: len(d.params) for d in optimised.defines}
    nested = {f"_d__{name}": k for name, k in how.nested}
    assert all(params[name] > k for name, _, k in how.entries)
    fields = {f.decl.name for f in program.fields}
    blocks = [a.effect for a in lowered.actions] + [t.effect for t in lowered.triggers] + \
        [p.body for p in lowered.procedures] + [p.start for p in lowered.phases] + [tuple(lowered.setup)]
    assignments = 0
    for lines in (without_own_drops(printed(block)) for block in blocks):
        for i, line in enumerate(lines):
            m = _ASSIGNED.match(line.code)
            if m is None or m.group(1) not in fields:
                continue
            assignments += 1
            dropped: set[str] = set()
            # (pass `remember_list_changes`: the field is assigned in both branches of `if _changed__f is
            # None:`, the plain change or the one found in a table, and dropped after the two)
            depth, start = line.depth, i + 1
            head = next((k for k in range(i - 1, -1, -1) if lines[k].depth < line.depth), None)
            if head is not None and (lines[head].code.strip() == f"if _changed__{m.group(1)} is None:" or
                                     lines[head].code.strip() == "else:" and
                                     line.code.startswith(f"self.{m.group(1)} = _changed__{m.group(1)}")):
                head = next(k for k in range(head, -1, -1)
                            if lines[k].code.strip() == f"if _changed__{m.group(1)} is None:")
                depth = lines[head].depth
                start = next((k for k in range(i + 1, len(lines))
                              if lines[k].depth <= depth and lines[k].code.strip() != "else:"), len(lines))
            for after in lines[start:]:
                entity = _AT_ENTITY.match(after.code) or _IN_REGIONS.match(after.code)
                attribute = _BY_ATTRIBUTE.match(after.code)
                if after.depth == depth and attribute is not None:
                    # a set changed by one item: the values kept for the item's attribute
                    slot = attribute.group(1)
                    assert attribute.group(2) == slot, after.code
                    k, table = by_attribute[(m.group(1), slot)]
                    assert attribute.group(3) == table, after.code
                    assert params[slot.removeprefix("_d__")] == 1 or nested.get(slot) == k, after.code
                    assert any(f"{form}(({attribute.group(4)},))" in line.code  # (`.union`: pass `unwrap_set_items`)
                               for form in ("| frozenset", "- frozenset", ".union", ".difference")), \
                        f"{line.code} / {after.code}"
                    assert slot not in dropped
                    dropped.add(slot)
                    continue
                if after.depth == depth and entity is not None:
                    slot = entity.group(1)
                    assert entity.group(2) == slot, after.code
                    assert (m.group(1), slot) in (at_param if "without_key(" in after.code else in_region), after.code
                    # at the entity assigned, and at the parameter that names it
                    assert m.group(2) == f"[{entity.group(3)}]", f"{line.code} / {after.code}"
                    assert params[slot.removeprefix("_d__")] == 1 or (m.group(1), slot) in in_region and \
                        nested.get(slot) == in_region[(m.group(1), slot)], after.code  # (nest_by_region)
                    assert slot not in dropped
                    dropped.add(slot)
                    continue
                if after.depth != depth or not after.code.endswith(" = None") or "self._d__" not in after.code \
                        and END_SLOT not in after.code:
                    break
                whole = set(re.findall(r"self\.(\w+) =", after.code))
                assert not whole & dropped
                dropped |= whole
            assert dropped == readers.get(m.group(1), set()), f"{line.code} ({line.span})"
    assert assignments
    assert set(lowered.phase_drops) == {f"_d__{name}" for name, r in how.derived if r.volatile} | (
        {END_SLOT} if how.end is not None and how.end.volatile else set())


_FROM_COPY = re.compile(r"self\.(\w+) = rt\.without_key\(self\.(\w+), (.+)\)$")


def without_own_drops(lines: list[Printed]) -> list[Printed]:
    """The lines as printed, each drop of pass `drop_in_place` (`if self._kept_shared:` values dropped from
    copies of the dicts, `else:` the same values popped in place) as the drops from copies alone, once
    checked that both branches drop the same values."""
    out: list[Printed] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.code != "if self._kept_shared:":
            out.append(line)
            i += 1
            continue
        shared, own, i = [], [], i + 1
        while lines[i].depth > line.depth:
            shared.append(dataclasses.replace(lines[i], depth=line.depth))
            i += 1
        assert lines[i].code == "else:" and lines[i].depth == line.depth
        i += 1
        while i < len(lines) and lines[i].depth > line.depth:
            own.append(lines[i].code)
            i += 1
        expected = []
        for drop in shared:
            m = _FROM_COPY.match(drop.code)
            assert m is not None and m.group(1) == m.group(2), drop.code
            expected += [f"if self.{m.group(1)} is not None:", f"self.{m.group(1)}.pop({m.group(3)}, None)"]
        assert own == expected, (own, expected)
        out.extend(shared)
    return out


def test_a_definition_read_at_its_own_entity_only_is_dropped_for_that_entity_only() -> None:
    """Mandarin: `complete(p)`, `held(p, a)` and `has_emperor(p, a)` read `card[p]` only
    (`complete` through `held(p, ...)` too); `controls(p, a)` reads every seat's `held(q, a)`,
    `controller(a)` and `rent(a)` every card. Only `complete`, of one parameter, is dropped for
    one player: the others by the animal of the tile a card gained or lost (next test)."""
    how = keeping(passes.optimise(typed("mandarin"), passes.ALL - {"intersect_components"}))
    assert {(name, f, k) for name, f, k in how.entries if f == "card"} == {
        ("complete", "card", 0), ("held", "card", 0), ("has_emperor", "card", 0)}
    # (with `intersect_components`, `held` and `has_emperor` are set operations, kept no more)
    assert {(name, f, k) for name, f, k in keeping(passes.optimise(typed("mandarin"))).entries if f == "card"} == {
        ("complete", "card", 0)}
    # (what is written, a drop of one entity's value, is the golden of tests/passes/keep_derived.yaml)


def test_a_definition_read_by_an_attribute_is_dropped_for_that_attribute_only() -> None:
    """Mandarin: `held(p, a)` counts `t.animal == a for t in card[p]`, `has_emperor(p, a)` asks
    `t.animal == a and t.emperor`, and `controls(p, a)`, `controller(a)` and `rent(a)` read `card`
    only through them at their own `a`: a tile gained or lost changes only the values of its
    animal. Not `complete(p)` (`len(card[p])`, every tile). Only the definitions of one parameter
    are dropped so (those of two are kept in one dict by both arguments: dropped whole; kept by
    the animal first, measured slower, as by the player: lower._dropped_at, pass `nest_by_region`)."""
    how = keeping(passes.optimise(typed("mandarin"), passes.ALL - {"intersect_components", "compute_inside_kept"}))
    assert set(how.attributes) == {(name, "card", k, "ATTR__TILE__ANIMAL") for name, k in (
        ("held", 1), ("has_emperor", 1), ("controls", 1), ("controller", 0), ("rent", 0))}
    # (`held` and `has_emperor` set operations, `controls` used inside `controller` only: not kept)
    how = keeping(passes.optimise(typed("mandarin")))
    assert set(how.attributes) == {(name, "card", k, "ATTR__TILE__ANIMAL") for name, k in (
        ("controller", 0), ("rent", 0))}
    assert how.nested == ()
    source = rulewright.compiler.driver.compile_file(ruleset_file("mandarin")).source
    assert "        self._kept_end = None  # base.yaml:343\n" in source
    for slot in ("controller", "rent"):
        assert f"self._d__{slot} = rt.without_key(self._d__{slot}, ATTR__TILE__ANIMAL[tile])  # base.yaml:343" in source
        assert f"self._d__{slot} = rt.without_key(self._d__{slot}, ATTR__TILE__ANIMAL[t])  # base.yaml:372" in source
        assert f"self._d__{slot}.pop(ATTR__TILE__ANIMAL[t], None)  # base.yaml:372" in source
    assert "(a change of `card` by one item: the value for that item's `a` only)" in source
    # not without the pass `keep_derived` (nothing kept), nor for a list field (Yellow & Yangtze's `rack`)
    assert keeping(passes.optimise(typed("mandarin"), passes.ALL - {"keep_derived"})).attributes == ()
    assert keeping(passes.optimise(typed("yellow-yangtze"))).attributes == ()
    # the others' values stay, and every value kept is the one computed afresh
    g = game("mandarin")
    survived = 0
    state: Any = g.new_state(3, 7)
    chooser = random.Random(7)
    while not state.terminal and state.moves < 400:
        for a in range(12):
            state.rent(a)
        before = [set(c) for c in state.card]
        state.apply(chooser.choice(state.legal_actions()))
        changed = {t for p in range(3) for t in before[p] ^ set(state.card[p])}
        if changed and state._d__controller is not None:
            survived += len(state._d__controller)
            assert not {int(ATTR__TILE__ANIMAL[t]) for t in changed} & set(state._d__controller)
        assert_fresh(state, f"move {state.moves}")
    assert survived > 100


def test_dropping_the_values_of_one_entity_leaves_a_shared_dict_alone() -> None:
    kept = {0: True, 1: False}
    assert rt.without_key(kept, 1) == {0: True} and kept == {0: True, 1: False}
    assert rt.without_key(None, 0) is None
    # a copy even when it keeps no value for the key: the state that changed computes that value
    # afresh and adds it, and a clone sharing the dict must not see it (runtime/kept.py)
    assert rt.without_key(kept, 2) == kept and rt.without_key(kept, 2) is not kept


def test_the_values_of_the_other_entities_stay_kept() -> None:
    """Mandarin: after a move changes one player's card, `complete` still holds, computed before,
    the values of the players whose card it did not change; each equal to a fresh computation."""
    g = game("mandarin")
    survived = 0
    for seed in range(3):
        state: Any = g.new_state(3, seed)
        chooser = random.Random(seed)
        while not state.terminal and state.moves < 300:
            for p in range(state.num_players):
                state.complete(p)
            before = list(state.card)
            state.apply(chooser.choice(state.legal_actions()))
            changed = {p for p in range(state.num_players) if state.card[p] != before[p]}
            if changed and state._d__complete is not None:
                survived += len(set(state._d__complete) - changed)
                assert not changed & set(state._d__complete) or assert_fresh(state, "after a change")
            assert_fresh(state, f"seed {seed}, move {state.moves}")
    assert survived > 20


# Cornett's face-down markers as the pass keeps them when they are no bit mask (`mask_spot_sets` serves
# them from a mask otherwise, and `keep_derived` then keeps nothing but the end).
NO_MASKS = passes.ALL - {"mask_spot_sets"}


# -- a variant's definition read from what its base writes: remembered per state --------------------
def test_a_variants_definition_that_its_base_would_drop_is_remembered_per_state() -> None:
    # diplomacy.yaml's `provinces_walled` reads `block_at`, `builder` and `layout`, which the base's
    # procedures assign; Chang Cheng's base remembers definitions per state (`cached: true`)
    defines = {d.name: d for d in passes.optimise(typed("chang-cheng/diplomacy")).defines}
    walled = defines["provinces_walled"]
    assert walled.per_state and walled.kept is None
    # the base's own definitions stay as they are (kept in their slots, or cached)
    assert not any(d.per_state for d in defines.values() if d.span.path.endswith("base.yaml"))
    assert defines["laid"].kept is not None
    # not where the base remembers nothing per state (China (Schacht)'s): a variant's definition is
    # kept in its slot there
    fortified = passes.optimise(typed("china-schacht/fortifications")).defines
    assert not any(d.per_state for d in fortified) and any(d.kept and d.span.path.endswith("fortifications.yaml")
                                                           for d in fortified)


def test_a_value_remembered_per_state_is_never_stale() -> None:
    g = rulewright.load("chang-cheng/diplomacy")  # (the bundled module: a subclass of the base's)
    state: Any = g.new_state(3, 5)
    chooser = random.Random(5)
    remembered = 0
    while not state.terminal and state.moves < 400:
        for p in range(3):
            state.provinces_walled(p)
        state.apply(chooser.choice(state.legal_actions()))
        fresh: Any = state.clone()
        fresh._fields_set()
        memo = state._derived or {}
        for key, value in memo.items():
            if key[0] == "provinces_walled":
                remembered += 1
                assert value == fresh.provinces_walled(*key[1:]), f"move {state.moves}: stale {key}"
    assert remembered > 0


# -- no stale kept value, ever (the kept values read off a state: tests/helpers/kept.py) ----------
def assert_fresh(state: State, where: str) -> int:
    """Every value `state` keeps equals the one computed afresh (on a clone that keeps nothing)."""
    fresh: Any = state.clone()
    fresh._fields_set()
    checked = 0
    for slot, value in kept_values(state).items():
        if slot == END_SLOT:
            assert value == fresh._is_over(), f"{where}: a stale end"
        elif isinstance(value, dict):
            method = getattr(fresh, slot.removeprefix("_d__"))
            for args, kept in kept_items(state, slot, value):
                assert kept == method(*args), f"{where}: stale {slot}{args}"
        else:
            assert value == getattr(fresh, slot.removeprefix("_d__"))(), f"{where}: stale {slot}"
        checked += 1
    return checked


@pytest.mark.parametrize("ruleset", ["china-cornett", "china-schacht", "mandarin", "chang-cheng", "yellow-yangtze",
                                     "china-schacht/two-player"])
def test_a_kept_value_is_never_stale_after_a_move(ruleset: str) -> None:
    g = game(ruleset)
    checked = 0
    for seed in range(3):
        state = g.new_state(g.info.players[seed % len(g.info.players)], seed)
        chooser = random.Random(seed)
        while not state.terminal and state.moves < 400:
            legal = state.legal_actions()
            checked += assert_fresh(state, f"seed {seed}, move {state.moves}")
            state.apply(legal[chooser.randrange(len(legal))])
            checked += assert_fresh(state, f"seed {seed}, after move {state.moves}")
    assert checked > 100, "values were kept, and checked"


@pytest.mark.parametrize("ruleset", ["mandarin", "chang-cheng", "yellow-yangtze"])
def test_a_clone_and_its_original_never_see_each_others_kept_values(ruleset: str) -> None:
    """A clone shares its original's dicts of kept values: a move on one, dropping the values of
    one entity and computing them afresh, leaves the other's untouched (each checked fresh)."""
    g = game(ruleset)
    checked = 0
    for seed in range(2):
        state: Any = g.new_state(g.info.players[seed % len(g.info.players)], seed)
        chooser = random.Random(seed)
        while not state.terminal and state.moves < 200:
            state.legal_actions()
            state._is_over()
            other = state.clone()
            legal = other.legal_actions()
            other.apply(legal[chooser.randrange(len(legal))])
            other.legal_actions()
            other._is_over()
            checked += assert_fresh(state, f"seed {seed}, original at move {state.moves}")
            checked += assert_fresh(other, f"seed {seed}, clone after move {other.moves}")
            state = other if chooser.random() < 0.5 else state.clone()
            if state is not other:
                legal = state.legal_actions()
                state.apply(legal[chooser.randrange(len(legal))])
    assert checked > 100


def test_a_restored_state_keeps_nothing_of_the_old_position() -> None:
    g = game("china-cornett", NO_MASKS)
    state: Any = g.new_state(2, 3)
    chooser = random.Random(3)
    for _ in range(10):
        state.apply(chooser.choice(state.legal_actions()))
    state.face_down_spots()  # (kept now: the listing itself reads the bit mask, pass `mask_spot_sets`)
    assert state._d__face_down_spots is not None
    saved = state.to_json()
    assert not any(key.startswith(("_d__", "_kept")) for key in saved["fields"]), "never saved"
    # another position, the same in every other field: a marker more turned face down
    face_down = state.ENUMS["marker"].index("face_down")
    turned = [i for i, m in enumerate(saved["fields"]["marker"]) if m != face_down]
    assert turned
    changed = dict(saved, fields=dict(saved["fields"], marker=list(saved["fields"]["marker"])))
    changed["fields"]["marker"][turned[0]] = face_down
    restored: Any = g.state_from_json(changed)
    assert assert_fresh(restored, "restored") >= 0
    assert len(restored.face_down_spots()) == len(state.face_down_spots()) + 1
    assert restored.to_json() == changed


def test_a_field_written_from_outside_is_stale_until_dropped() -> None:
    """Why every outside write calls `_fields_set`: rule code drops what an assignment makes stale,
    a write from outside the rules does not."""
    state: Any = game("china-cornett").new_state(2, 1)
    before = list(state.face_down_spots())
    state.marker = [2] * len(state.marker)  # every marker removed
    assert list(state.face_down_spots()) == before, "kept: the write went around the rules"
    state._fields_set()
    assert list(state.face_down_spots()) == [] and state._is_over()


def test_a_scenario_position_drops_every_kept_value() -> None:
    found, problems = scenarios.load_file(ROOT / "tests" / "scenarios" / "china-cornett" / "rulebook.yaml")
    assert not problems
    s = next(x for x in found if x.position is not None)
    g = game("china-cornett")
    state: Any = g.new_state(2, s.seed)
    state.legal_actions()
    state._is_over()
    assert kept_values(state)
    assert scenarios.apply_position(s, state) is None
    # (the end alone is computed again, from the position: a position in which it holds is a game over)
    assert set(kept_values(state)) <= {END_SLOT}
    assert_fresh(state, "scenario")
    assert all(r.passed for r in map(scenarios.run, found)), "and every scenario of the file holds"


def test_the_end_is_tested_once_per_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """China (Cornett): its end reads the markers only, which neither the end of a turn nor the
    start of the next changes: computed once per move at most (pass `keep_end`), where the runtime
    asks three times; the step pass `write_out_moves` writes reads the kept value and asks only while it
    is stale."""
    g = game("china-cornett")
    cls: Any = g.state_class
    original = cls._is_over
    asked, computed = [0], [0]

    def counted(self: Any) -> bool:
        asked[0] += 1
        computed[0] += self._kept_end is None
        result: bool = original(self)
        return result

    monkeypatch.setattr(cls, "_is_over", counted)
    state = g.new_state(2, 7)
    chooser = random.Random(7)
    moves = 0
    while not state.terminal:
        state.apply(chooser.choice(state.legal_actions()))
        moves += 1
    assert asked[0] == computed[0] and moves // 4 < computed[0] <= moves + 1  # (and once as the game starts)
