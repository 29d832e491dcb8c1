"""Stage 7's second half, inherit (compiler/inherit.py, docs/compiler.md): a bundled variant's module
subclasses its base's module and keeps only what differs. `derive(base, variant, base_module,
origins)` makes the variant's module from the two whole modules; `defines(source)` names what a
module defines. Checked on small modules written here, and on China (Schacht)'s variants as
generated/ holds them: what they define, and that each plays as its whole module does."""

from __future__ import annotations

from pathlib import Path

import rulewright
from rulewright.compiler import inherit
from rulewright.compiler.driver import compile_file
from rulewright.core.paths import generated_dir, rules_dir

BASE = """from typing import Final

from rulewright import runtime as rt

X: Final = 1


class A(rt.State):
    def f(self) -> int:
        return X

    def g(self) -> int:
        return 2


GAME = 1
"""


def test_defines_names_what_a_module_defines_not_what_it_imports() -> None:
    assert inherit.defines(BASE) == {"X", "A", "GAME"}


def test_a_variant_module_subclasses_the_base_and_defines_only_what_differs() -> None:
    variant = BASE.replace("class A(", "class B(").replace("return 2", "return 3")
    derived = inherit.derive(BASE, variant, "base_module", {})
    assert derived is not None
    assert "from base_module import (\n    A,\n)\n" in derived and "\nclass B(A):\n" in derived
    assert "    def g(self) -> int:\n        return 3\n" in derived
    assert "def f(" not in derived and "X: Final" not in derived
    compile(derived, "derived.py", "exec")


def test_a_module_without_a_state_class_is_not_derived() -> None:
    assert inherit.derive(BASE, "X = 1\n", "base_module", {}) is None


def test_a_method_only_added_to_keeps_its_whole_docstring_when_derived() -> None:
    """`_bind_tables` of a variant that adds a table is the base's plus a line: the derived module
    calls the base's first and keeps the method's docstring of two lines whole (compiler/inherit.py)."""
    base = '''class A(rt.State):
    __slots__ = ('x',)

    def _bind_tables(self) -> None:
        """Two lines
        of docstring."""
        self.x = 1


GAME = 1
'''
    variant = base.replace("class A(", "class B(")
    variant = variant.replace("        self.x = 1\n", "        self.x = 1\n        self.y = 2\n")
    variant = variant.replace("('x',)", "('x', 'y')")
    derived = inherit.derive(base, variant, "base_module", {})
    assert derived is not None
    assert ('    def _bind_tables(self) -> None:\n        """Two lines\n        of docstring."""\n'
            '        super()._bind_tables()\n        self.y = 2\n') in derived


def test_a_bundled_variant_module_keeps_only_what_differs_from_its_base() -> None:
    """The fortifications module subclasses the base game's and inherits every unchanged
    method: it defines fortify, the doubled scores and what lists actions or fields."""
    text = (Path(generated_dir()) / "china_schacht" / "fortifications.py").read_text(encoding="utf-8")
    assert "from rulewright.generated.china_schacht.base import (" in text
    assert "class ChinaSchachtFortificationsState(ChinaSchachtState):" in text
    assert "def _do__fortify(" in text and "def palace_award(" in text
    assert "def _do__take_face_up(" not in text and "def province_points(" not in text
    # (building assigns `palace_of`, which the variant's own kept values read: its `_do__build`
    # drops them too, so it differs: docs/optimiser.md, passes `derived`, `region_drops`, `nested_drops`)
    # (the road chains, which only the scores read, are kept no more: pass `score_only`)
    assert "self._d__open_spaces = self._d__can_place = self._kept_end = None  # base.yaml:384" in text
    assert "_d__chains_of" not in text and "_d__chain_bonus" not in text
    assert "self._d__palace_award = rt.without_keys(self._d__palace_award, self.board.spot_regions[space], " \
        "self._kept_shared)" in text
    assert "self._d__empty = rt.without_keys(self._d__empty, self.board.spot_regions[space], self._kept_shared)  " \
        "# base.yaml:384" in text
    base = (Path(generated_dir()) / "china_schacht" / "base.py").read_text(encoding="utf-8")
    assert len(text.splitlines()) < len(base.splitlines()) // 2
    # the stacked variant builds on bonus-tiles, which builds on the base: names are imported
    # from the module that defines them
    stacked = (Path(generated_dir()) / "china_schacht" / "fortifications_bonus_tiles.py").read_text(encoding="utf-8")
    assert "from rulewright.generated.china_schacht.bonus_tiles import (" in stacked
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
