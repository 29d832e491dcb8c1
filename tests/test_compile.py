"""The compiler as a whole: determinism, freshness of generated/, all-or-nothing writes,
readable output that points back at the rules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler.driver import compile_file, share_bases, stale, write_modules
from rulewright.compiler.paths import generated_dir, rules_dir
from rulewright.compiler.source import CompileError

CORNETT = Path(rules_dir()) / "china-cornett" / "base.yaml"


def test_compiling_twice_gives_the_same_bytes() -> None:
    assert compile_file(CORNETT).source == compile_file(CORNETT).source


def test_generated_folder_is_fresh() -> None:
    compiled = share_bases([compile_file(p) for p in sorted(Path(rules_dir()).glob("*/*.yaml"))])
    assert stale(compiled, Path(generated_dir())) == [], "run `rulewright compile`"


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


def test_generated_code_names_its_rules() -> None:
    source = compile_file(CORNETT).source
    assert source.startswith("# DO NOT EDIT")
    assert "rules/china-cornett/base.yaml  sha256:" in source
    assert "# rules/china-cornett/base.yaml:" in source
    assert "def _legal__prospect(self, _actions: list[rt.Action]) -> None:" in source
    assert "/work/" not in source and "\\" not in source.split("\n", 3)[1], "no machine-specific paths"


def test_compile_a_copy_outside_the_repository(tmp_path: Path) -> None:
    copy = tmp_path / "my-china.yaml"
    shutil.copy(CORNETT, copy)
    compiled = compile_file(copy)
    assert compiled.relative_path == Path("china_cornett") / "my_china.py"
    written = write_modules([compiled], tmp_path / "out")
    assert written == [tmp_path / "out" / "china_cornett" / "my_china.py"]
    assert write_modules([compiled], tmp_path / "out") == [], "unchanged output is not rewritten"


def test_a_failed_compile_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(CORNETT.read_text(encoding="utf-8").replace("end: ", "endd: "), encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(CompileError) as info:
        compiled = [compile_file(CORNETT), compile_file(bad)]
        write_modules(compiled, out)
    assert not out.exists()
    rendered = "\n".join(d.render() for d in info.value.diagnostics)
    assert "unknown key `endd` in a rule file" in rendered
    assert "did you mean `end`?" in rendered
