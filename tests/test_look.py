"""The `look:` section (docs/language.md, "Look"): checked as it is read (its one-fault files are in
tests/broken/, `look_*.yaml`), merged through `extends:`, and given to the page and `render` as plain data
(`GameInfo.look`) with each component's attributes (`GameInfo.attributes`); its prompts and move texts
compiled, read through `State.prompt(seat)` and `State.move_label(action, seat, actor)`."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler.build.keys import LOOK_COLOURS
from rulewright.loading import load_rules
from rulewright.runtime import Game

HERE = Path(__file__).resolve().parent


@cache
def tiny(name: str = "tiny") -> Game:
    return load_rules(HERE / "look" / f"{name}.yaml")


def test_a_look_is_given_as_checked_plain_data() -> None:
    look = tiny().info.look
    assert look["seats"] == ("#e05050", "#3366cc", "#2e8b57")  # (a name and #rgb written as #rrggbb)
    assert look["colours"] == {"soldier": "#e05050", "farmer": "#aa7722"}
    assert look["symbols"] == {"soldier": "兵", "farmer": "农", "red": "R"}
    assert look["pieces"]["tile"] == {"shape": "square", "colour": "kind", "label": "{kind} {worth}",
                                      "back": "#556677"}
    assert look["pieces"]["player"] == {"shape": "pawn", "colour": "owner"}
    assert look["fields"]["score"] == {"as": "score", "title": "score"}  # (the short form written out)
    assert look["fields"]["moves_made"] == {"as": "hidden", "title": "moves made"}
    assert look["fields"]["points"] == {"as": "counter", "title": "victory points", "by": "kind"}
    assert look["boards"]["small"]["spots"]["C2"] == (400, 300)
    assert look["boards"]["small"]["labels"] == {"Z1": (50, 50)} and look["boards"]["small"]["size"] == 40
    assert look["prompts"]["bonus"] == "Choose your bonus"  # (as written: the module's methods say them)
    assert list(look) == ["seats", "colours", "symbols", "pieces", "fields", "boards", "prompts", "moves"]


def test_the_components_attributes_are_given_by_name() -> None:
    assert tiny().info.attributes == {"tile": {"kind": ("soldier",) * 2 + ("farmer",) * 4,
                                               "worth": (0, 1, 2, 0, 1, 2)}}


def test_a_variants_look_merges_over_its_bases() -> None:
    look = tiny("tiny_variant").info.look
    assert look["seats"] == ("#4f86d9", "#5cb85c", "#e05050")  # a list replaced whole
    assert look["pieces"]["tile"] == {"shape": "disc", "colour": "kind", "label": "{kind} {worth}",
                                      "back": "#556677"}  # a key of a mapping replaced, the others kept
    assert "coin" not in look["pieces"] and "camp" in look["pieces"]  # `~` removes
    assert look["fields"]["moves_made"] == {"as": "counter", "title": "moves so far"}
    assert look["boards"] == tiny().info.look["boards"]


def test_a_rule_set_without_a_look_says_nothing() -> None:
    info = load_rules(HERE / "broken" / "_valid_minimal.yaml").info
    assert info.look == {} and info.attributes == {}


def test_china_cornett_moved_its_drawing_into_its_look() -> None:
    info = rulewright.load("china-cornett").info
    assert info.look["colours"]["gold_side"] == "#d4a017"  # (its `drawing: colours:`, now in its look)
    assert info.drawing == {"colours": dict(info.look["colours"])}  # (what reads `drawing:` still reads them)


def test_the_colour_names_are_the_drawings() -> None:
    from rulewright.draw import NAMED_COLOURS
    assert LOOK_COLOURS == NAMED_COLOURS


def test_a_derived_variant_module_writes_the_look_it_changes() -> None:
    import sys
    import types

    from rulewright.compiler.codegen import _packed
    from rulewright.compiler.driver import compile_file
    from rulewright.compiler.inherit import Emitted, derive
    from rulewright.core.paths import ruleset_file

    module = "rulewright.generated.china_cornett.base"
    base = compile_file(ruleset_file("china-cornett")).emitted
    assert base is not None
    origins = {name: module for name in base.defines()}

    def derived(**changed: object) -> str:
        variant = Emitted(base.program, {**base.values, "class_name": "ChinaCornettOtherState", **changed})
        found = derive(base, variant, module, origins)
        assert found is not None
        return found[0]

    look = _packed({"seats": ("#112233",), "symbols": {"removed": "x"}}, "        ", least=0)
    text = derived(look=look, attributes="{}")
    # (laid out at the indent of its variant(...) call)
    assert "    look=rt.unpacked(\n        '{\"seats\": [\"#112233\"], '\n        '\"symbols\"" in text
    loaded = types.ModuleType("rulewright_test_derived_look")
    sys.modules[loaded.__name__] = loaded
    try:
        exec(compile(text, "<derived>", "exec"), loaded.__dict__)
    finally:
        del sys.modules[loaded.__name__]
    assert loaded.GAME.info.look == {"seats": ("#112233",), "symbols": {"removed": "x"}}
    assert "look=" not in derived()  # (the base's, inherited)


def test_the_schema_knows_a_look() -> None:
    import json

    import jsonschema
    import yaml

    schema = json.loads((HERE.parent / "schema" / "rules.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for name in ("tiny", "tiny_variant"):
        tree = yaml.safe_load((HERE / "look" / f"{name}.yaml").read_text(encoding="utf-8"))
        assert [e.message for e in validator.iter_errors(tree)] == []
    tree["look"]["pieces"]["tile"]["shape"] = "circle"  # (a shape api/draw.py cannot draw)
    assert [e.message for e in validator.iter_errors(tree)] != []


def test_a_prompt_is_the_words_of_the_decision_a_seat_faces() -> None:
    state = tiny().new_state(players=2, seed=1)
    assert state.prompt(0) == "Take one of the 7 free spots (0 taken)"
    assert state.prompt(1) is None  # (it faces no decision)
    state.apply("take A1")
    assert state.prompt(0) is None  # `finish` has no prompt: the page says "choose a move"
    state.apply("finish")
    assert state.to_act() == 0 and state.prompt(0) == "Choose your bonus"  # (an ask's, by its choice's name)
    state.apply("bonus 2")
    assert state.prompt(1) == "Take one of the 6 free spots (1 taken)"


def test_a_move_label_is_the_friendlier_text_read_before_the_move() -> None:
    state = tiny().new_state(players=2, seed=1)
    labels = {str(a): state.move_label(a, 0) for a in state.legal_actions()}
    assert labels["take A1"] == "take a spot A1" and labels["take B2"] == "take a crowded spot B2"
    assert all(state.move_label(a, 1) == labels[str(a)] for a in state.legal_actions())  # (no hidden part)
    state.apply("take A1")
    (finish,) = state.legal_actions()
    assert state.move_label(finish, 0) == state.move_text(finish, 0) == "finish"  # (no `moves:` text)
    state.apply(finish)
    assert [state.move_label(a, 1) for a in state.legal_actions()] == ["a bonus of 1", "a bonus of 2"]


def test_a_seat_that_may_not_read_a_move_whole_reads_its_others_text() -> None:
    state = tiny("tiny_variant").new_state(players=2, seed=1)
    take = state.parse_action("take B2")
    assert take is not None
    assert state.move_label(take, 0) == "take a crowded spot B2"
    assert state.move_label(take, 1) == state.move_text(take, 1) == "take a spot"


def test_a_rule_set_without_texts_has_no_prompt_and_its_move_texts() -> None:
    state = load_rules(HERE / "games" / "grid-drop.yaml").new_state(seed=1)  # (no look)
    seat = state.to_act()
    assert seat is not None and state.prompt(seat) is None
    assert all(state.move_label(a, seat) == state.move_text(a, seat) for a in state.legal_actions()[:20])


def test_the_texts_are_methods_of_the_module_with_their_rule_lines() -> None:
    from rulewright.compiler.driver import compile_file

    source = compile_file(HERE / "look" / "tiny.yaml").source
    assert "    def _prompt__take(self) -> str:\n        # tests/look/tiny.yaml:" in source
    assert "    def _ask_move__bonus(self, bonus: int) -> str:\n" in source


def test_the_texts_read_the_same_with_every_pass_and_none() -> None:
    from rulewright.runtime import Rng

    plain = load_rules(HERE / "look" / "tiny.yaml", passes=frozenset())
    for seed in range(3):
        fast, slow = tiny().new_state(players=3, seed=seed), plain.new_state(players=3, seed=seed)
        rng = Rng(seed)
        while not fast.is_terminal():
            for seat in range(3):
                assert fast.prompt(seat) == slow.prompt(seat)
            legal, other = fast.legal_actions(), slow.legal_actions()
            assert [fast.move_label(a, 1) for a in legal] == [slow.move_label(a, 1) for a in other]
            k = rng.below(len(legal))
            fast.apply(legal[k])
            slow.apply(other[k])


def test_the_language_server_offers_what_a_look_names() -> None:
    from rulewright.ruleindex import analyse, complete, hover

    path = HERE / "look" / "tiny.yaml"
    base = path.read_text(encoding="utf-8")
    known = analyse(path, base, {})

    def offered(after: str, new: str) -> list[str]:
        text = base.replace(after, after + new + "\n", 1)
        line = text[:text.index(after + new)].count("\n") + (after + new).count("\n")
        return [item.label for item in complete(analyse(path, text, {}), line, len(new.split("\n")[-1]), known)]

    assert offered("look:\n", "  ") == ["seats", "colours", "symbols", "pieces", "fields", "boards", "prompts",
                                        "moves"]
    assert offered("  pieces:\n", "    ") == ["player", "kind", "tile", "camp", "coin"]
    assert offered("  pieces:\n", "    camp:\n      colour: ")[:2] == ["owner", "at"]
    assert "gold" in offered("  pieces:\n", "    camp:\n      colour: ")
    assert offered("  fields:\n", "    rack: ") == ["score", "hand", "row", "pile", "counter", "board", "hidden"]
    assert "moves_made" in offered("  fields:\n", "    ")
    assert offered("  prompts:\n", "    ") == ["take", "finish", "bonus"]
    assert offered("  boards:\n    small:\n", "      labels:\n        ") == ["Z1", "Z2"]
    lines = base.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("  pieces:"))
    assert "how each kind of thing is drawn" in (hover(known, row, 3) or "")


def test_diff_tells_a_look_key_by_key() -> None:
    from rulewright.compiler.diff import diff, load_ruleset

    changes = {c.path: c for c in diff(load_ruleset(HERE / "look" / "tiny.yaml"),
                                       load_ruleset(HERE / "look" / "tiny_variant.yaml"))}
    shape = changes["look.pieces.tile.shape"]
    assert (shape.kind, shape.old, shape.new) == ("changed", '"square"', '"disc"')
    assert shape.where is not None and shape.where.short == "tests/look/tiny_variant.yaml:7"
    assert changes["look.pieces.coin"].kind == "removed"
    assert "look.pieces.tile.colour" not in changes and "colours" not in changes


def test_a_text_inherited_for_what_a_variant_took_away_goes_with_it(tmp_path: Path) -> None:
    """The base's texts for its `bonus` ask, which the variant's `finish` no longer asks, are dropped
    with it; a text the variant writes itself for something the rules lack is still an error."""
    game = tiny("tiny_no_bonus")
    state = game.new_state(2, 1)
    assert state.prompt(0) == "Take one of the 7 free spots (0 taken)"
    assert not hasattr(type(state), "_ask_prompt__bonus")
    own = tmp_path / "own.yaml"
    own.write_text(f"extends: {HERE / 'look' / 'tiny_no_bonus.yaml'}\nlook:\n  prompts:\n    bonus: Choose\n",
                   encoding="utf-8")
    with pytest.raises(rulewright.CompileError, match=r"own.yaml:4:5: .*names `bonus`, which is no action nor ask"):
        load_rules(own)
