"""Stage 2, resolve (compiler/resolve.py, docs/compiler.md): `resolve(path)` follows `extends:` from
a rule file, reads each file once, and hands back one tree whose every node names the file it was
written in, with the files (the most basic first) and their texts. Checked on small chains written
to tmp_path; what merging does with each key (replace, remove, patch, conflicts between stacked
variants) is tests/test_merge.py's, and each error of a whole rule file tests/broken/'s."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulewright.compiler.resolve import resolve
from rulewright.core.load import plain
from rulewright.core.paths import display
from tests.helpers.rulefiles import resolve_problems, write

TINY = Path(__file__).parent / "broken" / "_valid_minimal.yaml"  # a whole game, `tiny`


@pytest.fixture
def chain(tmp_path: Path) -> list[Path]:
    """a.yaml the tiny game; b.yaml extends it, retitled; c.yaml extends b, for three players."""
    a = tmp_path / "a.yaml"
    shutil.copy(TINY, a)
    return [a, write(tmp_path, "b.yaml", "extends: a.yaml\ntitle: Tiny B\n"),
            write(tmp_path, "c.yaml", "extends: b.yaml\nplayers: 3\n")]


def test_a_chain_is_one_tree_whose_nodes_name_their_files(chain: list[Path]) -> None:
    a, b, c = chain
    r = resolve(c)
    assert r.files == (a, b, c) and r.variant == "c"
    assert r.texts == tuple(p.read_text(encoding="utf-8") for p in chain)
    title, players, game = (r.tree.get(key) for key in ("title", "players", "game"))
    assert title is not None and players is not None and game is not None
    assert (plain(title), title.span.path, title.span.line) == ("Tiny B", display(b), 2)
    assert (plain(players), players.span.path) == (3, display(c))
    assert (plain(game), game.span.path) == ("tiny", display(a))
    assert "extends" not in r.tree.keys()


def test_a_base_shared_by_stacked_variants_is_read_once(chain: list[Path], tmp_path: Path) -> None:
    a, b, _ = chain
    d = write(tmp_path, "d.yaml", "extends: a.yaml\nplayers: 3\n")
    both = write(tmp_path, "bd.yaml", "extends: [b.yaml, d.yaml]\n")
    r = resolve(both)
    assert r.files == (a, b, d, both) and r.variant == "bd"
    assert plain(r.tree.get("title")) == "Tiny B" and plain(r.tree.get("players")) == 3


def test_a_file_that_cannot_name_a_rule_set_is_refused_at_its_first_line(tmp_path: Path) -> None:
    odd = tmp_path / "my file.yaml"
    shutil.copy(TINY, odd)
    (d,) = resolve_problems(odd)
    assert (d.span.path, d.span.line, d.span.col) == (display(odd), 1, 1)
    assert d.message.startswith("file name `my file.yaml` cannot name a rule set")
    (d,) = resolve_problems(tmp_path / "nowhere.yaml")
    assert d.message == "no such rule file"


def test_a_file_extending_itself_is_a_cycle(tmp_path: Path) -> None:
    itself = write(tmp_path, "e.yaml", "extends: e.yaml\n")
    (d,) = resolve_problems(itself)
    assert (d.span.line, d.span.col) == (1, 10) and d.message.startswith("cyclic `extends:`")
    assert d.hint == "a rule set cannot extend itself, even through another"


def test_missing_and_cyclic_extends_still_reported(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "extends: [china-cornett, nowhere.yaml]\n")
    (d,) = resolve_problems(a)
    assert d.span.line == 1 and "`extends: nowhere.yaml`: no such rule set" in d.message
    write(tmp_path, "x.yaml", "extends: [china-cornett, y.yaml]\n")
    y = write(tmp_path, "y.yaml", "extends: x.yaml\n")
    (d,) = resolve_problems(y)
    assert d.message.startswith("cyclic `extends:`")
