"""The `look:` section (docs/language.md, "Look"): checked as it is read (its one-fault files are in
tests/broken/, `look_*.yaml`), merged through `extends:`, and given to the page and `render` as plain data
(`GameInfo.look`) with each component's attributes (`GameInfo.attributes`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

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
    assert list(look) == ["seats", "colours", "symbols", "pieces", "fields", "boards"]


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
    assert info.look == {"colours": {"gold_side": "#d4a017", "removed": "#999999"}}
    assert info.drawing == {"colours": dict(info.look["colours"])}  # (what reads `drawing:` still reads them)


def test_the_colour_names_are_the_drawings() -> None:
    from rulewright.draw import NAMED_COLOURS
    assert LOOK_COLOURS == NAMED_COLOURS


def test_a_derived_variant_module_writes_the_look_it_changes() -> None:
    from tests.test_inherit import derived, loaded, variant
    look = "{'seats': ('#112233',)}"
    text = derived(variant(look=look, attributes="{}"))
    assert text is not None and f"    look={look},\n" in text
    assert loaded(text).info.look == {"seats": ("#112233",)}
    unchanged = derived(variant())
    assert unchanged is not None and "look=" not in unchanged  # (the base's)


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
