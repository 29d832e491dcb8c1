"""The checker's error corpus: every file in tests/broken/ is a small rule set with one thing
wrong, and says on its first lines what the compiler must answer, as

    # expect: <path>:<line>:<col>: error: <part of the message>

with the path as diagnostics show it (relative to the repository). Files whose name starts with
`_` are not broken: `_valid_minimal.yaml` is the game every broken file was made from.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.compiler.driver import analyse, compile_file
from rulewright.core.source import CompileError, Diagnostic

BROKEN = Path(__file__).resolve().parent / "broken"
CASES = sorted(p for p in BROKEN.glob("*.yaml") if not p.name.startswith("_"))
EXPECT = "# expect: "


def expectations(path: Path) -> list[tuple[str, str]]:
    """(location, message part) of each `# expect:` line."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(EXPECT):
            location, sep, message = line[len(EXPECT):].partition(": error: ")
            assert sep, f"{path.name}: an expect line reads `# expect: path:line:col: error: message`"
            out.append((location, message.strip()))
    return out


def headlines(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.render().splitlines()[0] for d in diagnostics]


def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 24
    for path in CASES:
        assert path.read_text(encoding="utf-8").startswith(EXPECT), f"{path.name} must start with `{EXPECT}`"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_broken_file_is_diagnosed(path: Path) -> None:
    wanted = expectations(path)
    assert wanted
    _, diagnostics, _ = analyse(path)
    lines = headlines(diagnostics)
    for location, message in wanted:
        prefix = f"{location}: error: "
        assert any(line.startswith(prefix) and message in line[len(prefix):] for line in lines), (
            f"expected `{prefix}...{message}...` among:\n" + "\n".join(lines)
        )
    with pytest.raises(CompileError) as failed:
        compile_file(path)
    assert failed.value.diagnostics


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_every_diagnostic_points_into_a_file(path: Path) -> None:
    """A diagnostic names a line that exists, so that it can show it with a caret."""
    _, diagnostics, _ = analyse(path)
    for d in diagnostics:
        shown = Path(d.span.path)
        if not shown.is_absolute():
            shown = BROKEN.parent.parent / shown
        lines = shown.read_text(encoding="utf-8").splitlines()
        assert 1 <= d.span.line <= max(1, len(lines)), d.render()
        assert d.span.col >= 1, d.render()
        if lines:
            rendered = d.render().splitlines()
            assert rendered[1] == "    " + lines[d.span.line - 1].replace("\t", " "), d.render()
            assert rendered[2].strip().startswith("^"), d.render()


def test_the_minimal_game_is_valid() -> None:
    path = BROKEN / "_valid_minimal.yaml"
    ruleset, diagnostics, _ = analyse(path)
    assert ruleset is not None
    assert diagnostics == []
    compiled = compile_file(path)
    assert compiled.ruleset.game == "tiny"
    compile(compiled.source, "tiny.py", "exec")


def test_a_did_you_mean_shows_the_line_a_caret_and_the_hint() -> None:
    _, diagnostics, _ = analyse(BROKEN / "unknown_top_key.yaml")
    first = next(d for d in diagnostics if "unknown key" in d.message)
    assert first.render() == (
        "tests/broken/unknown_top_key.yaml:47:1: error: unknown key `phase` in a rule file\n"
        "    phase:\n"
        "    ^~~~~\n"
        "  hint: did you mean `phases`?"
    )


def test_an_expression_error_points_inside_the_string() -> None:
    _, diagnostics, _ = analyse(BROKEN / "unknown_name.yaml")
    (d,) = diagnostics
    assert d.render().splitlines()[1:] == [
        '        when: "rolls >= 0"',
        "               ^~~~~",
        "  hint: did you mean `roll`?",
    ]
