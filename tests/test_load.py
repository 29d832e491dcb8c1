"""The loader: YAML to nodes that know their file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.core.load import LoadError, load, plain


def test_every_node_knows_where_it_was_written(tmp_path: Path) -> None:
    tree = load("r.yaml", "game: x\nstate:\n  gold: {per: player}\n")
    state = tree.get("state")
    assert state is not None and state.span.line == 3
    key = tree.key_node("state")
    assert key is not None and (key.span.line, key.span.col) == (2, 1)


def test_merge_keys_bring_an_anchored_mapping(tmp_path: Path) -> None:
    text = "base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\nboth:\n  <<: [*b, {z: 4}]\n"
    assert plain(load("m.yaml", text)) == {
        "base": {"x": 1, "y": 2}, "other": {"y": 3, "x": 1}, "both": {"x": 1, "y": 2, "z": 4},
    }


def test_a_merge_of_something_else_is_an_error() -> None:
    with pytest.raises(LoadError) as info:
        load("m.yaml", "a:\n  <<: 5\n")
    assert info.value.diagnostic.render("a:\n  <<: 5\n").startswith("m.yaml:2:7: error: `<<:` merges a mapping")
