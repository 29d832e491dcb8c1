"""A variant's module derived from the lowered programs of it and its base (compiler/inherit.py).

China (Cornett)'s program is compiled once; each variant here is that program with one thing
changed, as a rule file extending it would change it. A derived module is run against the real
base module (rulewright.generated.china_cornett.base) and plays the games its whole module plays.
China (Schacht)'s variants are checked as generated/ holds them: what they define, and that each
plays as its whole module does.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import rulewright
from rulewright.compiler.driver import compile_file
from rulewright.compiler.inherit import Emitted, derive
from rulewright.compiler.pyir import Code
from rulewright.compiler.pyprint import text as printed
from rulewright.core.paths import generated_dir, rules_dir, ruleset_file
from rulewright.runtime import Game
from tests.helpers.lockstep import play_in_lockstep

BASE_MODULE = "rulewright.generated.china_cornett.base"


@cache
def cornett() -> Emitted:
    emitted = compile_file(ruleset_file("china-cornett")).emitted
    assert emitted is not None
    return emitted


def variant(**changed: Any) -> Emitted:
    """China (Cornett)'s program as a variant's: another class, and `changed`."""
    base = cornett()
    return Emitted(base.program, {**base.values, "class_name": "ChinaCornettOtherState", **changed})


def origins() -> dict[str, str]:
    return {name: BASE_MODULE for name in cornett().defines()}


def derived(v: Emitted) -> str | None:
    found = derive(cornett(), v, BASE_MODULE, origins())
    return found[0] if found is not None else None


def loaded(text: str) -> Game:
    """The derived module's game, the module imported from its text beside the real base."""
    module = types.ModuleType("rulewright_test_derived")
    sys.modules[module.__name__] = module
    try:
        exec(compile(text, "<derived>", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    game = module.GAME
    assert isinstance(game, Game)
    return game


def test_a_variant_equal_to_its_base_inherits_every_member_and_plays_its_games() -> None:
    text = derived(variant())
    assert text is not None
    assert "    def " not in text and "    __slots__ = ()\n" in text
    assert "class ChinaCornettOtherState(ChinaCornettState):" in text
    assert "GAME = BASE_GAME.variant(\n    ChinaCornettOtherState,\n    variant='base',\n    files=(" in text
    assert "options=" not in text and "rules=" not in text  # (the base's)
    game, base = loaded(text), rulewright.load("china-cornett")
    assert game.info.rules == base.info.rules and list(game.info.rules) == list(base.info.rules)
    assert game.state_class.FIELDS == base.state_class.FIELDS
    for seed in range(2):
        play_in_lockstep(base, game, base.info.players[seed % len(base.info.players)], seed)


def test_a_phase_naming_who_acts_overrides_only_what_reads_it() -> None:
    phases = [dataclasses.replace(cornett().values["phases"][0], actor="self.current")]
    text = derived(variant(phases=phases))
    assert text is not None
    assert "    ACTOR_IS_CURRENT: ClassVar[bool] = False  #" in text and "    def _actor(self) -> int:" in text
    assert "    def _legal(" not in text and "    def _setup(" not in text


def test_a_new_field_extends_the_bases_tables_setup_and_copy() -> None:
    v = cornett().values
    first = v["fields"][0]
    extra = dataclasses.replace(first, name="extra", info=first.info.replace(repr(first.name), "'extra'"),
                                copy=Code(printed(first.copy).replace(f"self.{first.name}", "self.extra")))
    text = derived(variant(fields=[*v["fields"], extra], slots=(*v["slots"], "extra")))
    assert text is not None
    assert "        *ChinaCornettState.FIELDS,\n" in text and "'extra'" in text
    assert "    __slots__ = ('extra',)\n" in text and f"    extra: {first.annotation}\n" in text
    assert "        super()._setup()\n" in text and f"        self.extra = {printed(first.init)}\n" in text
    assert "        super()._copy_fields(_other)\n" in text
    assert f"        _other.extra = {printed(extra.copy)}\n" in text
    game = loaded(text)
    state = game.new_state(game.info.players[0], 3)
    assert state.extra == getattr(state, first.name)  # type: ignore[attr-defined]
    copy = state.clone()
    assert copy.extra == state.extra  # type: ignore[attr-defined]


def test_a_rule_line_moved_splices_the_bases_table_in_order() -> None:
    rules = list(cornett().values["rules"])
    rules[3] = (rules[3][0], "rules/china-cornett/other.yaml:1")
    del rules[5]
    text = derived(variant(rules=rules))
    assert text is not None and "_BASE_RULES[" in text
    assert list(loaded(text).info.rules.items()) == rules


@pytest.mark.parametrize("change", ["a member only the base has", "a slot whose type changed",
                                    "a name numbered otherwise that inherited code reads"])
def test_it_gives_up_where_inheriting_could_change_what_the_code_means(change: str) -> None:
    v = cornett().values
    base = cornett()
    if change == "a member only the base has":  # (the base's NEUTRAL would be inherited)
        base = Emitted(base.program, {**v, "neutral": ("bank",)})
        found = derive(base, variant(), BASE_MODULE, origins())
    elif change == "a slot whose type changed":
        fields = [dataclasses.replace(v["fields"][0], annotation="list[str]"), *v["fields"][1:]]
        found = derive(base, variant(fields=fields), BASE_MODULE, origins())
    else:
        phase = next(c for c in v["constants"] if c[0].startswith("PHASE__"))
        constants = [(n, value + 7, note) if n == phase[0] else (n, value, note) for n, value, note in v["constants"]]
        found = derive(base, variant(constants=constants), BASE_MODULE, origins())
    assert found is None


def test_a_name_only_the_variant_adds_is_defined_in_its_module() -> None:
    constants = [*cornett().values["constants"], ("ELSEWHERE", 9, "a value the variant adds")]
    found = derive(cornett(), variant(constants=constants), BASE_MODULE, origins())
    assert found is not None
    text, defined = found
    assert "ELSEWHERE: Final = 9  # a value the variant adds" in text and "ELSEWHERE" in defined


def test_the_bundled_variants_extend_the_bases_methods() -> None:
    """What the bundled rule sets add after their bases' setup (`setup+:`) and board tables."""
    watchers = (generated_dir() / "chang_cheng" / "watchers.py").read_text(encoding="utf-8")
    assert "    def _prepare(self) -> rt.Steps:\n        yield from super()._prepare()\n" in watchers
    bonus = (generated_dir() / "china_schacht" / "bonus_tiles.py").read_text(encoding="utf-8")
    assert "        super()._bind_tables()\n" in bonus and "        super()._setup()\n" in bonus


def test_an_event_card_inherits_every_member_of_the_base_it_does_not_change() -> None:
    """Chang Cheng's diplomacy card adds a definition read from what the base's procedures write
    (remembered per state: pass `keep_derived`), and so overrides none of them."""
    from rulewright.generated.chang_cheng.base import ChangChengState
    from rulewright.generated.chang_cheng.diplomacy import ChangChengDiplomacyState
    own = set(vars(ChangChengDiplomacyState)) - {"__module__", "__doc__", "__slots__", "__annotations__"}
    assert own == {"_prepare", "provinces_walled", "score_terms"}
    assert ChangChengDiplomacyState.__mro__[1] is ChangChengState


def test_a_bundled_variant_module_keeps_only_what_differs_from_its_base() -> None:
    """The fortifications module subclasses the base game's and inherits every unchanged
    method: it defines fortify, the doubled scores and what lists actions or fields."""
    text = (Path(generated_dir()) / "china_schacht" / "fortifications.py").read_text(encoding="utf-8")
    assert "from rulewright.generated.china_schacht.base import (" in text
    assert "class ChinaSchachtFortificationsState(ChinaSchachtState):" in text
    assert "def _do__fortify(" in text and "def palace_award(" in text
    assert "def _do__take_face_up(" not in text and "def province_points(" not in text
    # (building assigns `palace_of`, which the variant's own kept values read: its `_do__build`
    # drops them too, so it differs: docs/optimiser.md, passes `keep_derived`, `drop_by_region`, `nest_by_region`)
    # (the road chains, which only the scores read, are kept no more: pass `compute_at_scoring`)
    assert "self._d__open_spaces = self._d__can_place = self._kept_end = None  # base.yaml:384" in text
    assert "_d__chains_of" not in text and "_d__chain_bonus" not in text
    # (the board's table read three times in the method: bound to a local once, pass `bind_reads`)
    assert "self._d__palace_award = rt.without_keys(self._d__palace_award, _read__board__spot_regions[space], " \
        "self._kept_shared)" in text
    assert "self._d__empty = rt.without_keys(self._d__empty, _read__board__spot_regions[space], " \
        "self._kept_shared)  # base.yaml:384" in text
    base = (Path(generated_dir()) / "china_schacht" / "base.py").read_text(encoding="utf-8")
    assert len(text.splitlines()) < len(base.splitlines()) // 2
    # the stacked variant builds on fortifications (which leaves it fewer lines than bonus-tiles),
    # which builds on the base: names are imported from the module that defines them
    stacked = (Path(generated_dir()) / "china_schacht" / "fortifications_bonus_tiles.py").read_text(encoding="utf-8")
    assert "from rulewright.generated.china_schacht.fortifications import (" in stacked
    assert "class ChinaSchachtFortificationsBonusTilesState(ChinaSchachtFortificationsState):" in stacked
    assert "from rulewright.generated.china_schacht.base import (" in stacked


def test_a_derived_module_plays_as_its_whole_module_does() -> None:
    """The same game, move for move, from the inherited module and from the whole one."""
    from rulewright import game_from_source

    variants = ("fortifications", "two-player", "two-player-light", "fortifications-bonus-tiles", "border-quarrels")
    for variant in variants:
        whole = game_from_source(compile_file(Path(rules_dir()) / "china-schacht" / f"{variant}.yaml").source,
                                 f"{variant}.py")
        derived = rulewright.load(f"china-schacht/{variant}")
        players = whole.info.players[-1]
        for seed in range(3):
            a, b = whole.new_state(players=players, seed=seed), derived.new_state(players=players, seed=seed)
            while not a.is_terminal():
                legal = a.legal_actions()
                assert [str(x) for x in legal] == [str(x) for x in b.legal_actions()]
                move = str(legal[(seed * 7 + a.moves) % len(legal)])
                a.apply(move)
                b.apply(move)
                assert a.to_json() == b.to_json()
            assert a.scores() == b.scores() and a.winners() == b.winners()


def test_the_bundled_variants_dispatch_their_own_actions_and_ask_the_bases() -> None:
    """`_perform` and `_guard` of a variant adding an action choose among its own actions and ask
    the base's for the rest; `_read_options` and `ENUMS` add the variant's options to the base's."""
    money = (generated_dir() / "mandarin" / "money.py").read_text(encoding="utf-8")
    assert "        if _name == 'sell':\n            self._do__sell()\n        else:\n" \
        "            super()._perform(_action)\n" in money
    assert "        if _name == 'sell':\n            return self._guard__sell()\n" \
        "        return super()._guard(_name)\n" in money
    assert "return self._guard__refund()" not in money  # (the base's guards it)
    fortifications = (generated_dir() / "china_schacht" / "fortifications.py").read_text(encoding="utf-8")
    assert "        super()._read_options()\n        self._opt__fortification_in_empty = " in fortifications
    assert "= {\n        **ChinaSchachtState.ENUMS,\n        'fortification_in_empty': " in fortifications
    assert "GAME = BASE_GAME.variant(\n    ChinaSchachtFortificationsState,\n" in fortifications


@pytest.mark.parametrize("ruleset", ["mandarin/money", "china-schacht/bonus-tiles", "china-schacht/fortifications"])
def test_a_derived_dispatch_performs_and_guards_as_the_whole_module_does(ruleset: str) -> None:
    """Every legal action of the positions of a game, performed (`_perform`, as the moves that
    run as steps and the runtime's own `_do` call it) and guarded (`_guard`, as an illegal
    move is explained), by the derived module and by the whole one: the same states."""
    from rulewright import game_from_source

    game, name = ruleset.split("/")
    whole = game_from_source(compile_file(Path(rules_dir()) / game / f"{name}.yaml").source, f"{name}.py")
    derived = rulewright.load(ruleset)
    assert derived.state_class.__bases__[0] is not rulewright.runtime.State  # (a subclass of its base's)
    a, b = whole.new_state(players=whole.info.players[0], seed=5), derived.new_state(players=whole.info.players[0],
                                                                                      seed=5)
    names = sorted({n for phase in a.PHASE_ACTIONS for n in phase})
    performed = 0
    while not a.is_terminal() and a.moves < 40:
        assert [a._guard(n) for n in names] == [b._guard(n) for n in names]
        legal = a.legal_actions()
        for action in legal[:3]:
            x, y = a.clone(), b.clone()
            x._perform(x.legal_actions()[legal.index(action)])
            y._perform(y.legal_actions()[legal.index(action)])
            assert x.to_json() == y.to_json()
            performed += 1
        move = str(legal[a.moves % len(legal)])
        a.apply(move)
        b.apply(move)
    assert performed > 0
