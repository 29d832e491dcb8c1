"""The compiler as a whole (compiler/driver.py): determinism, freshness of generated/, all-or-nothing
writes, readable output that points back at the rules. Each stage on its own: tests/test_<stage>.py
(tests/README.md); a variant's module, tests/test_inherit.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulewright.compiler.driver import compile_file, share_bases, stale, write_modules
from rulewright.core.paths import generated_dir, rules_dir
from rulewright.core.source import CompileError

CORNETT = Path(rules_dir()) / "china-cornett" / "base.yaml"


def test_compiling_twice_gives_the_same_bytes() -> None:
    assert compile_file(CORNETT).source == compile_file(CORNETT).source


def test_generated_folder_is_fresh() -> None:
    compiled = share_bases([compile_file(p) for p in sorted(Path(rules_dir()).glob("*/*.yaml"))])
    assert stale(compiled, Path(generated_dir())) == [], "run `rulewright compile`"


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
