"""A newcomer's rough edges (issue 12): what a person trying the tool for the first time met,
each fixed and held here: `list` never cuts an id, `play` draws each game within 100 columns
and lists its moves compactly, the Python API takes what a person would pass it, files land
where a designer expects, and messages say what is wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import run


# -- list: ids whole -----------------------------------------------------------------------------
@pytest.mark.parametrize("columns", [None, "40", "60", "100", "200"])
def test_list_never_cuts_an_id(columns: str | None) -> None:
    """Piped (no COLUMNS: 120 columns) or in a narrow or wide terminal, every rule set id is
    printed whole on one line, and no line is wider than the terminal."""
    result = run("list", env={"COLUMNS": columns} if columns else {"COLUMNS": ""})
    assert result.exit_code == 0, result.output
    ids = [r["ruleset"] for r in json.loads(run("list", "--json").stdout)["rulesets"]]
    assert "china-schacht/fortifications-bonus-tiles" in ids
    words = set(re.findall(r"[a-z0-9/_-]+", result.stdout))
    for rid in ids:
        assert rid in words, (rid, result.stdout)
    assert "…" not in result.stdout
    width = int(columns) if columns else 120
    assert max(len(line) for line in result.stdout.splitlines()) <= width


# -- the Python API ------------------------------------------------------------------------------
def test_errors_are_importable_from_the_package() -> None:
    import rulewright
    from rulewright import BadSetup, CompileError, GameError, IllegalAction, RulewrightError
    from rulewright.runtime import errors

    assert IllegalAction is errors.IllegalAction and issubclass(IllegalAction, RulewrightError)
    assert BadSetup is errors.BadSetup and GameError is errors.GameError
    assert CompileError.__name__ == "CompileError"
    state = rulewright.load("china-cornett").new_state(2, 1)
    with pytest.raises(rulewright.IllegalAction):
        state.apply("prospect Z9")


def test_load_takes_a_rule_file_as_text_or_path() -> None:
    """A rule file is data: `load` compiles it in memory, given as a text or a Path, as
    `load_rules` does (which takes a text as well)."""
    import rulewright
    from rulewright.core.paths import rules_dir

    money = rules_dir() / "mandarin" / "money.yaml"
    for given in (str(money), money):
        assert rulewright.load(given).info.ruleset == "mandarin/money"
    assert rulewright.load_rules(str(money)).info.ruleset == "mandarin/money"
    with pytest.raises(rulewright.BadSetup, match="^no such rule file: nowhere/x.yaml$"):
        rulewright.load("nowhere/x.yaml")


def test_load_refuses_a_module_named_by_text(tmp_path: Path) -> None:
    """A `.py` file is trusted code: only a Path loads it, never a text."""
    import rulewright

    marker = tmp_path / "ran"
    module = tmp_path / "evil.py"
    module.write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    with pytest.raises(rulewright.BadSetup, match="pass a path: load"):
        rulewright.load(str(module))
    assert not marker.exists()


def test_load_of_a_typo_says_did_you_mean() -> None:
    import rulewright

    with pytest.raises(rulewright.BadSetup) as info:
        rulewright.load("china-cornet")
    assert str(info.value) == "unknown rule set `china-cornet`: did you mean `china-cornett`?"
    with pytest.raises(rulewright.BadSetup) as info:
        rulewright.load("no-such-game")
    assert str(info.value).startswith(
        "unknown rule set `no-such-game`: the bundled ones are backgammon, breakthrough, ")
    assert ", china-cornett, " in str(info.value)


def test_state_from_json_takes_the_json_text() -> None:
    import rulewright

    game = rulewright.load("china-cornett")
    state = game.new_state(2, 3)
    state.apply(state.legal_actions()[0])
    text = json.dumps(state.to_json())
    for given in (text, text.encode()):
        assert game.state_from_json(given).to_json() == state.to_json()
    with pytest.raises(rulewright.BadSetup, match="^saved state: not JSON text: "):
        game.state_from_json("{not json")
    with pytest.raises(rulewright.BadSetup, match="^saved state: not JSON text: "):
        game.state_from_json("state")
    with pytest.raises(rulewright.BadSetup, match="^saved state: not JSON text: "):
        game.state_from_json(b"\xff")
    with pytest.raises(rulewright.BadSetup, match="^saved state: expected a JSON object"):
        game.state_from_json("[1, 2]")


# -- ./dev ---------------------------------------------------------------------------------------
def fake_python(folder: Path, version: str) -> Path:
    """An interpreter that says it is Python `version` (and is too old for anything else)."""
    script = folder / f"python{version}"
    script.write_text('#!/bin/sh\ncase "$2" in *print*) echo ' + version + ';; *) exit 1;; esac\n',
                      encoding="utf-8")
    script.chmod(0o755)
    return script


def test_dev_refuses_an_old_python_at_once(tmp_path: Path) -> None:
    """Under Python 3.10 `./dev` used to sit silent in pip for minutes: it now stops at once,
    saying which Python it found and how to name another. (A copy of the script is run in an
    empty folder, so that nothing could be installed even if the check failed.)"""
    import shutil
    import subprocess

    dev = tmp_path / "dev"
    shutil.copy(Path(__file__).resolve().parent.parent / "dev", dev)
    old = fake_python(tmp_path, "3.10.12")
    result = subprocess.run(["sh", str(dev), "test"], env={"PATH": "/usr/bin:/bin", "PYTHON": str(old)},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"./dev: rulewright needs Python 3.11 or later; `{old}` is Python 3.10.12.",
        "./dev: name another interpreter with PYTHON, e.g. PYTHON=python3.12 ./dev test",
    ]
    assert not (tmp_path / ".venv").exists()
    missing = subprocess.run(["sh", str(dev), "run"], env={"PATH": "/usr/bin:/bin", "PYTHON": "no-such-python"},
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "no `no-such-python` found" in missing.stderr
    # a .venv made earlier with an old Python is named too
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    shutil.copy(old, tmp_path / ".venv" / "bin" / "python")
    import sys

    stale = subprocess.run(["sh", str(dev), "test"], env={"PATH": "/usr/bin:/bin", "PYTHON": sys.executable},
                           capture_output=True, text=True, timeout=60)
    assert stale.returncode == 2 and "rm -r .venv" in stale.stderr, stale.stderr


# -- messages ------------------------------------------------------------------------------------
BROKEN = Path(__file__).resolve().parent / "broken"


def test_weak_messages_now_say_what_is_wrong() -> None:
    """The hints of the broken cases added for issue 12 (tests/test_diagnostics.py checks
    their headlines): a type, not a far-fetched name; the closest bundled id; the choices."""
    from rulewright.compiler.driver import analyse

    def only(name: str) -> tuple[str, str | None]:
        _, diagnostics, _ = analyse(BROKEN / name)
        (d,) = [d for d in diagnostics if d.severity == "error"]
        return d.message, d.hint

    message, hint = only("init_word_for_int.yaml")
    assert "players" not in message + str(hint) and hint is not None and "init: 0" in hint
    assert only("init_word_for_bool.yaml")[1] == "a bool is `true` or `false`, or an expression giving one"
    assert only("extends_typo.yaml")[1] == "did you mean `china-cornett`?"
    assert only("option_default_choices.yaml")[0] == "default `medium` is not one of the choices (slow, fast)"


def test_an_unknown_value_of_an_enum_field_still_gets_a_did_you_mean(tmp_path: Path) -> None:
    """The type message is for plain types: a misspelt value of an enum field is still
    answered with the closest value."""
    from rulewright.compiler.driver import analyse

    text = (BROKEN / "_valid_minimal.yaml").read_text(encoding="utf-8").replace("init: empty", "init: emtpy")
    (tmp_path / "tiny.yaml").write_text(text, encoding="utf-8")
    _, diagnostics, _ = analyse(tmp_path / "tiny.yaml")
    assert [(d.message, d.hint) for d in diagnostics] == [("unknown name `emtpy`", "did you mean `empty`?")]


# -- where files land ----------------------------------------------------------------------------
def test_variant_new_writes_into_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --dir a new variant lands where the designer stands, never in the bundled
    rules/ (where it would make `./dev test` fail until compiled)."""
    from rulewright.core.paths import rules_dir

    before = sorted(rules_dir().rglob("*.yaml"))
    monkeypatch.chdir(tmp_path)
    result = run("variant", "new", "china-cornett", "my-variant")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "my-variant.yaml").read_text(encoding="utf-8").count("extends: china-cornett") == 1
    assert sorted(rules_dir().rglob("*.yaml")) == before
    assert result.stdout.splitlines()[0] == "wrote my-variant.yaml: a variant of china-cornett, which compiles"
    assert "  rulewright simulate my-variant.yaml" in result.stdout and "generated/" not in result.stdout
    assert run("check", "my-variant.yaml").exit_code == 0


def test_compile_of_a_file_outside_rules_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`compile FILE` without --out writes into the bundled generated/ only for a bundled
    rule file: any other is refused, and the message says both ways on."""
    from rulewright.core.paths import generated_dir

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.yaml").write_text("extends: china-cornett\ntitle: Mine\n", encoding="utf-8")
    before = sorted(generated_dir().rglob("*.py"))
    result = run("compile", "mine.yaml")
    assert result.exit_code == 1
    assert "compile it with `--out DIR`" in result.stderr and "take the rule file itself" in result.stderr
    assert sorted(generated_dir().rglob("*.py")) == before
    assert run("simulate", "mine.yaml", "-n", "1").exit_code == 0


# -- overriding a definition ---------------------------------------------------------------------
def variant_of_tiny(tmp_path: Path, define: str) -> Path:
    (tmp_path / "tiny.yaml").write_text((BROKEN / "_valid_minimal.yaml").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    variant = tmp_path / "v.yaml"
    variant.write_text(f"extends: tiny.yaml\ndefine:\n  {define}\n", encoding="utf-8")
    return variant


def test_a_definition_overridden_by_name_keeps_its_parameters(tmp_path: Path) -> None:
    """`free: ...` overriding `"free(s: spot)": ...` keeps `s` (it used to drop it: the
    variant's body then failed on `s` and the base's call on the count of arguments)."""
    from rulewright.compiler import diff as rules_diff
    from rulewright.compiler.driver import analyse

    variant = variant_of_tiny(tmp_path, 'free: "marker[s] == empty and s != spots[0]"')
    _, diagnostics, _ = analyse(variant)
    assert diagnostics == []
    changes = rules_diff.diff(rules_diff.load_ruleset(tmp_path / "tiny.yaml"), rules_diff.load_ruleset(variant))
    (change,) = changes
    assert change.path == "define.free" and change.new == "free(s: spot): marker[s] == empty and s != spots[0]"
    assert change.where is not None and change.where.short.endswith("v.yaml:3")
    import rulewright

    state = rulewright.load(variant).new_state(2, 1)
    taken = {str(a) for a in state.legal_actions()}
    assert "take A1" not in taken and "take A2" in taken  # spots[0] is A1: the new body, with its parameter


def test_errors_of_an_override_point_at_the_file_each_part_came_from(tmp_path: Path) -> None:
    """A mistake in the variant's body is at the variant's line; a call in the base that no
    longer fits the variant's new parameters is at the base's line."""
    from rulewright.compiler.driver import analyse

    _, diagnostics, _ = analyse(variant_of_tiny(tmp_path, 'free: "marker[s] == emtpy"'))
    assert [(Path(d.span.path).name, d.span.line, d.message) for d in diagnostics] == [
        ("v.yaml", 3, "unknown name `emtpy`")]
    _, diagnostics, _ = analyse(variant_of_tiny(tmp_path, '"free(s: spot, n: int)": "marker[s] == empty"'))
    assert [(Path(d.span.path).name, d.message) for d in diagnostics] == [
        ("tiny.yaml", "`free` takes 2 argument(s), 1 given")]


# -- play: drawings within 100 columns, moves listed compactly ----------------------------------
def random_states(ruleset: str, players: int, moves: int, seed: int) -> list[Any]:
    import random

    import rulewright

    state = rulewright.load(ruleset).new_state(players, seed)
    chooser = random.Random(seed)
    states = []
    for _ in range(moves):
        if state.is_terminal():
            break
        states.append(state.clone())
        state.apply(chooser.choice(state.legal_actions()))
    return states


def test_every_bundled_game_is_drawn_within_100_columns() -> None:
    """Each seat's view of random positions of every bundled rule set, for each player count."""
    import rulewright
    from rulewright.commands.play import PLAY_WIDTH
    from rulewright.core.paths import bundled_rulesets
    from rulewright.render import render_state

    assert PLAY_WIDTH == 100
    for ruleset, _ in bundled_rulesets():
        for players in rulewright.load(ruleset).info.players:
            for state in random_states(ruleset, players, 120, players)[::7]:
                for seat in range(players):
                    drawing = render_state(state, seat, PLAY_WIDTH)
                    widest = max(drawing.splitlines(), key=len)
                    assert len(widest) <= 100, (ruleset, players, widest)


def test_mandarin_is_drawn_as_its_ring() -> None:
    from rulewright.render import render_state

    state = random_states("mandarin", 3, 150, 5)[-1]
    drawing = render_state(state, 0, 100)
    lines = drawing.splitlines()
    ring = [line for line in lines if line.startswith(("rat ", "ox ", "tiger ", "rabbit ", "dragon ", "snake "))]
    assert len(ring) == 6 and "pig " in ring[0] and "horse " in ring[5]  # down the left, up the right
    assert ring[0].startswith("rat     1 ") and "2* " in ring[0] and "35* " in ring[0]
    for p, square in enumerate(state.position):  # every mandarin stands on its square
        label = state.board.labels[square]
        assert any(f" {label}{'*' if int(label) % 3 == 2 else ''} " in line and f"P{p + 1}" in line
                   for line in ring), label
    assert lines.count("") >= 2 and any(line.startswith("P1 (seat1): ") and " yuans; card: " in line
                                        for line in lines)
    assert any(line.startswith("P2 (seat2): ? yuans") for line in lines)  # money hidden from P1
    assert "in the dispenser: " in drawing
    for internal in ("bank_paid_out", "sale: bidders", "high_bid", "tile1"):
        assert internal not in drawing


def test_schacht_draws_roads_with_their_provinces() -> None:
    from rulewright.render import render_state

    state = random_states("china-schacht", 3, 1, 1)[0]
    drawing = render_state(state, 0, 100)
    assert "\nroads: " not in drawing
    assert "Chin (yellow)  emissaries: ·  palaces: Chin1:·-Chin2:·-Chin3:·-Chin4:·-Chin5:· Chin6:·\n" in drawing
    assert "    also Chin3-Chin6; roads out Chin1-Zhao1 Chin4-Shu1 Chin6-Wei1/Han1\n" in drawing



def test_chang_cheng_is_drawn_face_by_face_for_its_viewer() -> None:
    """Mid-game, P1 sees the faces laid in the layout's order, each province with the backs
    of the cards laid there (his own by name), each Mongol peril token as `?` unless he
    looked at it; his hand by name, the others' as how many they have face down."""
    from rulewright.render import render_state

    state = random_states("chang-cheng", 3, 15, 3)[-1]
    seen = state.observation(0)["fields"]
    drawing = render_state(state, 0, 100)
    lines = drawing.splitlines()
    assert max(len(line) for line in lines) <= 100
    board = state.board
    faces = [line.split(" ")[0] for line in lines if line.endswith(":") and " (piece " in line]
    assert len(seen["layout"]) >= 2 and faces == seen["layout"]
    for name in seen["layout"]:  # the row of its spaces, left to right
        labels = " ".join(board.labels[s] for s in board.face_spots[board.face_names.index(name)])
        assert any(" ".join(line.split()) == labels for line in lines), labels
    assert "the wall, left to right: " + " | ".join(seen["layout"]) in drawing
    # what stands on each space: `P3=` half of P3's double, `P2T` a tower, `·` empty, `>P2` kept for P2
    glyph = {"single": "", "double": "=", "tower": "T", "ruin": "x"}

    def cell(label: str) -> str:
        block, keeper = seen["block_at"][label], seen["reserved"][label]
        return (f">{keeper}" if keeper else "·") if block == "empty" else seen["builder"][label] + glyph[block]

    for name in seen["layout"]:
        cells = [cell(board.labels[s]) for s in board.face_spots[board.face_names.index(name)]]
        assert any(line.split() == cells for line in lines), cells
    assert {"=", "T", ">", "·"} <= set("".join(cell(label) for label in seen["block_at"]))  # all four drawn
    assert "None" not in drawing and "block_at" not in drawing
    # the viewer's cards by name; another's by their backs only
    own, hand = seen["placed"][0], seen["hand"][0]
    priority = list(state.ENUMS["card"])
    assert own and hand and f"cards in hand: {' '.join(sorted(hand, key=priority.index))}" in drawing
    for card in own:
        assert f"P1({card['kind']})" in drawing and f"{card['kind']} in {card['at']}" in drawing
    backs = {p: sum(list(b).count(p) for b in seen["backs"].values()) for p in ("P2", "P3")}
    assert backs["P2"] >= 1 and "P2(" not in drawing and "P3(" not in drawing
    for p in (2, 3):
        assert f"P{p} (seat{p}): {seen['points'][p - 1]} points; {seen['singles'][p - 1]} singles; " in drawing
        assert f"cards in hand hidden; {backs[f'P{p}']} face down" in drawing
    mixed = [r for r, b in seen["backs"].items() if "P1" in b and "P2" in b]
    assert mixed and any(line.startswith(f"  {mixed[0]}: reputation {seen['province_token'][mixed[0]]}; cards: ")
                         and "P1(" in line and " P2" in line for line in lines)
    # peril tokens: `?`, with the value only where P1 looked
    looked = {s["watched"]: s["threat"] for s in seen["sightings"][0]}
    perils = [m for m, on in seen["has_peril"].items() if on]
    assert perils and looked and set(looked) < set(perils)
    for m in perils:
        told = f"(you saw {looked[m]})" if m in looked else "(face down)"
        assert f"  {m}: peril ? {told}\n" in drawing + "\n"
    assert seen["move_kind"] != "no_move" and " ".join(seen["move_provinces"])
    move = f"this turn so far: {seen['move_kind'].replace('_', ' ')} in {' '.join(seen['move_provinces'])}"
    assert move in drawing and f"phase {state.observation(0)['phase']}" in lines[0]


def test_chang_cheng_drawing_hides_what_the_viewer_may_not_see() -> None:
    """Change what P1 may not see (P2's cards in hand and face down, the peril tokens' values,
    the others' sightings): P1's drawing stays the same, P2's changes."""
    import rulewright
    from rulewright.render import render_state

    state = random_states("chang-cheng", 3, 15, 3)[-1]
    data = state.to_json()
    fields = data["fields"]
    hand, placed = fields["hand"][1], fields["placed"][1]
    old = [c[1] for c in placed]
    new = hand[:len(old)]
    fields["hand"][1] = sorted(set(hand) - set(new) | set(old))
    fields["placed"][1] = [[c[0], k, c[2]] for c, k in zip(placed, new, strict=True)]
    fields["peril"] = [None if v is None else 2 + (v - 1) % 3 for v in fields["peril"]]
    for p in (1, 2):
        fields["sightings"][p] = [[m, 2 + (v - 1) % 3] for m, v in fields["sightings"][p]]
    other = rulewright.load("chang-cheng").state_from_json(data)
    assert render_state(other, 0, 100) == render_state(state, 0, 100)
    assert render_state(other, 1, 100) != render_state(state, 1, 100)


def test_chang_cheng_at_the_end_shows_the_perils_and_scores() -> None:
    from rulewright.render import render_state

    state = random_states("chang-cheng", 3, 1000, 3)[-1]
    state.apply(state.legal_actions()[0])
    while not state.is_terminal():  # random_states stops before the last move
        state.apply(state.legal_actions()[0])
    seen = state.observation(0)["fields"]
    drawing = render_state(state, 0, 100)
    assert "game over" in drawing.splitlines()[0] and "(face down)" not in drawing
    for m, value in seen["face_up_peril"].items():
        if value is not None:
            assert f"  {m}: peril {value}, face up" in drawing
    assert any(v is not None for v in seen["face_up_peril"].values())
    scores = state.scores()
    for p in range(3):
        terms = state.score_terms(p)
        assert f"  P{p + 1} (seat{p + 1}): {scores[p]} (reputation {terms['reputation']} + mongols " \
               f"{terms['mongols']})" in drawing


def test_play_draws_chang_cheng() -> None:
    result = run("play", "chang-cheng", "--players", "3", "--seed", "3", input="quit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "the wall, left to right: two_front | four_back\n" in out
    assert "  2F1  2F2  2F3  2F4  2F5  2F6  2F7  2F8  2F9  2F10 2F11 2F12\n" in out
    assert "  Qi: reputation 1\n" in out and "  Naiman: peril ? (face down)\n" in out
    assert "P1 (seat1): 0 points; 14 singles; double; tower; cards in hand: warrior traitor flood mason\n" \
           "    architect mandarin\n" in out  # in their order of priority
    assert "None" not in out and "backs:" not in out
    assert max(len(line) for line in out.splitlines() if "your move" not in line) <= 100


def test_chang_cheng_variants_are_drawn_with_what_they_add() -> None:
    """The two-player rules' neutral grey walls stand on the wall under their colour's name,
    with the neutral sections left; the event cards in play are listed."""
    from rulewright.render import render_state

    state = random_states("chang-cheng/two-player", 2, 41, 4)[-1]
    drawing = render_state(state, 0, 100)
    seen = state.observation(0)["fields"]
    glyph = {"single": "", "double": "=", "tower": "T", "ruin": "x"}
    grey = sorted(f"grey{glyph[b]}" for s, b in seen["block_at"].items()
                  if b != "empty" and seen["builder"][s] == "grey")
    cells = sorted(t for line in drawing.splitlines() if line.startswith("  ") and ":" not in line
                   for t in line.split() if t.startswith("grey"))
    assert grey and cells == grey  # each grey section on its space, under its colour's name
    assert f"\ngrey (neutral): {state.observation(0)['fields']['neutral_singles']} singles\n" in drawing
    assert "neutral_singles" not in drawing and "None" not in drawing
    assert "P3" not in drawing  # two players only
    state = random_states("chang-cheng/drawn-events", 3, 41, 4)[-1]
    drawing = render_state(state, 0, 100)
    events = state.observation(0)["fields"]["events"]
    assert events and "\nevents in play: " + ", ".join(e.replace("_", " ") for e in events) in drawing

# -- Yellow & Yangtze -------------------------------------------------------------------------
YY_LETTER = {"governor": "G", "soldier": "S", "merchant": "M", "peasant": "P", "artisan": "A"}


def yy_cell(state: Any, label: str) -> str:
    """What a cell of the map should show, worked out from P1's observation and the rules' `kind_at`."""
    seen = state.observation(0)["fields"]
    s = state.board.index[label]
    symbol = state.board.symbols[s]
    kinds = state.ENUMS["kind"]
    chief = seen["chief_on"][label]
    if seen["tile_on"][label] is not None:
        text = YY_LETTER[kinds[state.kind_at(s)]] + {"~": "~", "C": "*"}.get(symbol, "")
    elif chief is not None:
        text = chief["owner"][1:] + YY_LETTER[chief["kind"]].lower() + ("*" if symbol == "C" else "")
    else:
        text = "*" if symbol == "C" else symbol
    under = any(label in g["cells"] for g in seen["pagodas"])
    return text + ("^" if under else "") + ("!" if seen["reunification"] == label else "")


def yy_until(ruleset: str, players: int, seed: int, stop: Any) -> Any:
    """A seeded random game of `ruleset` played until `stop(state)` (or its end)."""
    import random

    import rulewright

    state = rulewright.load(ruleset).new_state(players, seed)
    chooser = random.Random(seed)
    while not state.is_terminal() and not stop(state):
        state.apply(chooser.choice(state.legal_actions()))
    return state


def test_yellow_yangtze_is_drawn_as_its_map_for_its_viewer() -> None:
    """Mid-game, P1 sees the map row by row (each cell's tile, leader, pagoda, capital,
    river), his own tiles and points by kind, the others' as how many tiles, everyone's
    leaders off the board, the pagodas, the market, the bag and the box."""
    from rulewright.render import render_state

    state = yy_until("yellow-yangtze", 3, 5, lambda s: len(s.observation(0)["fields"]["pagodas"]) >= 1
                     and s.turn >= 20 and not s.observation(0)["fields"]["conflict"])
    seen = state.observation(0)["fields"]
    kinds = list(state.ENUMS["kind"])
    drawing = render_state(state, 0, 100)
    lines = drawing.splitlines()
    assert max(len(line) for line in lines) <= 100 and not state.is_terminal()
    numbers = "  " + "".join(str(c).ljust(5) for c in range(1, 17))
    assert lines[2] == numbers.rstrip() and lines[14] == numbers.rstrip()
    for r, row in enumerate("ABCDEFGHIJK"):  # 11 rows of 16 cells, odd rows half a cell right
        line = lines[3 + r]
        assert line.startswith(row + " " + ("  " if r % 2 else "")) and line[4 if r % 2 else 2] != " "
        assert line.split()[1:] == [yy_cell(state, f"{row}{c}") for c in range(1, 17)], row
        for c in range(1, 17):  # each cell under its column's number (odd rows: half a cell on)
            assert line[2 + 5 * (c - 1) + 2 * (r % 2)] != " "
    shown = "".join(lines[3:14])
    assert {"G*", "~", "P~", "^"} <= {t for t in shown.split()} | {c for c in shown}
    assert any(t[0].isdigit() for t in shown.split())  # a leader
    assert "  G governor (black), S soldier (red), " in drawing.replace("tiles G", "  G")
    pagodas = "; ".join(f"{g['kind']} on {' '.join(g['cells'])}" for g in seen["pagodas"])
    assert f"pagodas: {pagodas}; beside the board: " in " ".join(drawing.split("\n    "))
    for g in seen["pagodas"]:
        assert all(yy_cell(state, c).endswith("^") for c in g["cells"])

    def counts(tiles: Any) -> str:
        ks = [kinds[sys_kind(state)[int(t.removeprefix("tile")) - 1]] for t in tiles]
        return ", ".join(f"{k} {ks.count(k)}" for k in kinds if ks.count(k)) or "none"

    flat = " ".join(drawing.split("\n    "))
    assert f"market: {counts(seen['market'])}    bag: {seen['bag']} tiles    box: {seen['box']} tiles" in flat
    own = seen["rack"][0]
    assert own and f"P1 (seat1): tiles {counts(own)} ({len(own)}); points " + ", ".join(
        f"{k} {v}" for k, v in zip(kinds, seen["points"][0], strict=True)) in flat
    for p in range(3):
        off = " ".join(k for i, k in enumerate(kinds) if state.off_board(p, i)) or "none"
        assert f"leaders off the board: {off}" in flat.split(f"P{p + 1} (seat{p + 1}): ")[1].split("\n")[0]
        if p:
            assert f"P{p + 1} (seat{p + 1}): {seen['rack_size'][p]} tiles behind the screen; points hidden; " in flat
    assert "tile1" not in drawing and "None" not in drawing and "rack_size" not in drawing


def test_yellow_yangtze_drawing_hides_what_the_viewer_may_not_see() -> None:
    """Change P2's tiles behind his screen (for tiles of other kinds out of the bag) and his
    points: P1's drawing stays the same, P2's changes."""
    import rulewright
    from rulewright.render import render_state

    state = yy_until("yellow-yangtze", 3, 5, lambda s: s.turn >= 20 and s.to_act() == 0
                     and "question" not in s.observation(0))  # (between moves: the position alone is saved)
    data = state.to_json()
    fields = data["fields"]
    kind = sys_kind(state)
    rack, bag = fields["rack"][1], fields["bag"]
    for i, t in enumerate(rack):  # each tile for one of another kind from the bag
        other = next(b for b in bag if kind[b] != kind[t])
        bag[bag.index(other)] = t
        rack[i] = other
    fields["points"][1] = [v + 3 for v in fields["points"][1]]
    other_state = rulewright.load("yellow-yangtze").state_from_json(data)
    assert render_state(other_state, 0, 100) == render_state(state, 0, 100)
    assert render_state(other_state, 1, 100) != render_state(state, 1, 100)
    assert render_state(other_state, 2, 100) == render_state(state, 2, 100)


def sys_kind(state: Any) -> Any:
    import sys

    return sys.modules[type(state).__module__].ATTR__TILE__KIND


def test_yellow_yangtze_draws_the_conflict_with_each_sides_strength() -> None:
    """During a war: the reunification marker on its tile, each side by its name with its
    leaders and strength, and the question the move waits for; during a revolt, the
    attacker's and the defender's leaders with their strengths."""
    from rulewright.render import render_state

    state = yy_until("yellow-yangtze", 3, 1, lambda s: s.observation(0)["fields"]["reunification"] is not None)
    seen = state.observation(0)["fields"]
    assert seen["conflict"]
    viewer = state.to_act()
    drawing = render_state(state, viewer, 100)
    assert max(len(line) for line in drawing.splitlines()) <= 100
    flat = " ".join(drawing.split("\n    "))
    marker = seen["reunification"]
    assert yy_cell(state, marker).endswith("!") and f" {yy_cell(state, marker)} " in drawing
    assert f"war (reunification marker on {marker}; " in flat
    for side in seen["conflict"]:
        assert re.search(rf"side {side['at']} \([^)]*\): strength {side['strength']}(;|\n|$)", flat), side
    question = state.observation(0)["question"]
    assert question == "soldiers"
    assert f"waiting for P{viewer + 1} (seat{viewer + 1}) to choose `soldiers`: how many soldier tiles " in flat
    state = yy_until("yellow-yangtze", 3, 1, lambda s: bool(s.observation(0)["fields"]["conflict"])
                     and s.observation(0)["fields"]["reunification"] is None)
    seen = state.observation(0)["fields"]
    flat = " ".join(render_state(state, 0, 100).split("\n    "))
    (a, fa), (d, fd) = ((f["at"], f["strength"]) for f in seen["conflict"])
    ca, cd = seen["chief_on"][a], seen["chief_on"][d]
    assert (f"revolt: attacker {ca['owner']}'s {ca['kind']} leader at {a}: strength {fa}; "
            f"defender {cd['owner']}'s {cd['kind']} leader at {d}: strength {fd}") in flat
    assert "to choose `governors`: how many governor tiles" in flat


def test_yellow_yangtze_at_the_end_shows_the_scores() -> None:
    from rulewright.render import render_state

    for ruleset, players in (("yellow-yangtze", 3), ("yellow-yangtze/short", 2)):
        state = yy_until(ruleset, players, 4, lambda s: False)
        assert state.is_terminal()
        drawing = render_state(state, 0, 100)
        assert "game over" in drawing.splitlines()[0] and f"({ruleset})" in drawing.splitlines()[0]
        assert "final scores (the weakest colour, yellow points as jokers):" in drawing
        scores = state.scores()
        for p in range(players):
            assert f"  P{p + 1} (seat{p + 1}): {scores[p]} (weakest {state.score_terms(p)['weakest']})" in drawing
        # « Tous les joueurs retirent alors leur paravent »: everyone's tiles and points are shown
        assert "P2 (seat2): tiles " in drawing and "points hidden" not in drawing
        assert ("P3 (seat3)" in drawing) == (players == 3)


def test_play_draws_yellow_yangtze() -> None:
    result = run("play", "yellow-yangtze", "--players", "3", "--seed", "3", input="")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\nA .    .    .    .    .    .    .    G*   .    .    .    .    .    .    .    ~\n" in out
    assert "\nB   .    .    ~    ~    ~    ~    .    .    .    .    .    .    ~    ~    ~    ~\n" in out
    assert "pagodas: none on the map; beside the board: governor 2, soldier 2, merchant 2, peasant 2, " \
           "artisan 1\n" in out
    assert "market: governor 3, merchant 1, peasant 2    bag: 107 tiles    box: 0 tiles\n" in out
    assert "P1 (seat1): tiles soldier 2, merchant 2, peasant 2 (6); points governor 0, soldier 0, merchant 0,\n" in out
    assert "P2 (seat2): 6 tiles behind the screen; points hidden; leaders off the board: governor soldier\n" in out
    assert "this turn: P1 (seat1) has done 0 actions of 2\n" in out
    assert "tile78" not in out and "None" not in out
    assert max(len(line) for line in out.splitlines() if "your move" not in line) <= 100
    result = run("play", "yellow-yangtze/short", "--seed", "3", input="")
    assert result.exit_code == 0, result.output
    assert "box: 24 tiles" in result.stdout and "P3" not in result.stdout


def test_play_lists_the_moves_compactly_and_all_on_demand() -> None:
    typed = "moves prospect\nmoves\nmoves nothing\n?\nquit\n"
    result = run("play", "china-cornett", "--seed", "1", input=typed)
    assert result.exit_code == 0, result.output
    out = result.stdout
    first_turn = out[:out.index("your move")]
    assert "174 legal moves:\nprospect (174):\n" in first_turn
    assert "  ... and 168 more (`moves prospect` lists them)\n" in first_turn
    assert "174) prospect" not in first_turn and "7) prospect" not in first_turn
    assert out.count("174) prospect H9-I8-J7-K6") == 3  # `moves prospect`, `moves` and `?`
    assert "no legal move is a `nothing` now (the kinds now: prospect)" in out
    assert max(len(line) for line in out.splitlines() if "your move" not in line) <= 100


def test_play_shows_few_moves_in_full() -> None:
    result = run("play", "mandarin", "--seed", "1", input="quit\n")
    assert "12 legal moves:\n 1) sign rat " in result.stdout and "12) sign pig" in result.stdout
