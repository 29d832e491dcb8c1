"""The lowered IR (compiler/pyir.py) and its printer (compiler/pyprint.py): each statement's lines,
indented from a method's body, each ending with its rule line and what the passes keep_derived in it,
as the generated modules have them (the whole of generated/ is checked by `compile --check`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rulewright.compiler.check import check
from rulewright.compiler.driver import build
from rulewright.compiler.lower import lower
from rulewright.compiler.pyir import (
    Assign,
    Attribute,
    AugAssign,
    BinOp,
    BoolOp,
    Break,
    Call,
    Code,
    Comment,
    Compare,
    Comprehension,
    Constant,
    Dict,
    DictComp,
    Elif,
    Expr,
    For,
    GeneratorExp,
    If,
    IfExp,
    JoinedStr,
    Keyword,
    List,
    ListComp,
    Name,
    NamedExpr,
    Paren,
    Pass,
    Return,
    Set,
    SetComp,
    Slice,
    Starred,
    Subscript,
    Tuple,
    UnaryOp,
    Yield,
    assign,
    call,
    declared,
    does_something,
    dotted,
    if_,
    spanned,
    substituted,
    walk,
)
from rulewright.compiler.pyir import walk as inside
from rulewright.compiler.pyprint import codes, lines, text
from rulewright.core.paths import ruleset_file
from rulewright.core.source import SourceSpan

ROOT = Path(__file__).resolve().parents[1]
AT = SourceSpan("rules/game/base.yaml", 12, 5, 12, 30)
THERE = SourceSpan("rules/game/variant.yaml", 3, 1, 3, 9)


def test_each_line_ends_with_its_rule_line_then_its_notes() -> None:
    body = (
        assign(Code("x"), Code("1"), AT),
        assign(Code("y"), Code("2"), note="`keep_derived`: kept"),
        assign(Code("z"), Code("3"), AT, "inlined f (base.yaml:4)"),
        call(Code("self.f()")),
    )
    assert lines(body) == [
        "x = 1  # base.yaml:12",
        "y = 2  # `keep_derived`: kept",
        "z = 3  # base.yaml:12; inlined f (base.yaml:4)",
        "self.f()",
    ]


def test_blocks_are_indented_and_each_header_has_its_own_rule_line() -> None:
    body = (
        For(Code("s"), Code("self.board.spots"), (
            If(Code("s > 2"), (AugAssign(Code("_total"), "+", Code("s")),),
               (Elif(Code("s < 0"), (Break(),), THERE, "a note"),),
               (Pass(),), AT, else_span=THERE),
        ), AT, "`aggregate_loops`: `sum` written out as a loop"),
        Return(Code("_total"), AT),
        Return(),
    )
    assert lines(body) == [
        "for s in self.board.spots:  # base.yaml:12; `aggregate_loops`: `sum` written out as a loop",
        "    if s > 2:  # base.yaml:12",
        "        _total += s",
        "    elif s < 0:  # variant.yaml:3; a note",
        "        break",
        "    else:  # variant.yaml:3",
        "        pass",
        "return _total  # base.yaml:12",
        "return",
    ]
    assert codes(body)[:2] == ["for s in self.board.spots:", "if s > 2:"]


def test_assignments_chained_annotated_augmented_and_comments() -> None:
    body = (
        Assign((Code("self._d__a"), Code("self._d__b")), Code("None"), span=AT),
        assign(Code("_kept"), Code("_table.get(p)"), annotation="int | None"),
        AugAssign(Code("self._mask"), "&", Code("~self.board.spot_bit[s]")),
        Comment("base.yaml:4: refill, written out where it is called"),
    )
    assert lines(body) == [
        "self._d__a = self._d__b = None  # base.yaml:12",
        "_kept: int | None = _table.get(p)",
        "self._mask &= ~self.board.spot_bit[s]",
        "# base.yaml:4: refill, written out where it is called",
    ]


def test_a_comment_of_a_line_stays_one_line() -> None:
    """A note or a rule file's name that holds a newline is escaped: the comment stays a comment."""
    odd = SourceSpan("rules/game/odd\nname.yaml", 1, 1, 1, 2)
    printed = lines((assign(Code("x"), Code("1"), odd, "two\nlines"),))
    assert len(printed) == 1 and "\n" not in printed[0] and printed[0].startswith("x = 1  # ")


def test_spanned_tells_every_line_by_one_rule_line() -> None:
    body = spanned((If(Code("c"), (assign(Code("a"), Code("1")),), (Elif(Code("d"), (Pass(),)),), (Pass(),)),), AT)
    assert all(line.endswith("  # base.yaml:12") for line in lines(body))


def test_members_compare_by_value_and_are_frozen() -> None:
    """Lowered members compare by structure (`==`): two lowerings of one rule give equal statements."""
    one = if_(Code("x"), assign(Code("y"), Code("1"), AT), span=AT)
    assert one == if_(Code("x"), assign(Code("y"), Code("1"), AT), span=AT)
    assert one != if_(Code("x"), assign(Code("y"), Code("1"), THERE), span=AT)  # (the rule line is part of it)
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.note = "changed"  # type: ignore[misc]


def test_questions_asked_of_a_body() -> None:
    assert not does_something((Pass(), Pass(AT)))
    assert does_something((Pass(), Comment("said")))
    nested = (For(Code("x"), Code("xs"), (if_(Code("x"), assign(Code("_v"), Code("x"), annotation="Sequence[int]")),)),)
    assert list(declared(nested)) == ["Sequence[int]"]


def test_a_module_imports_sequence_only_where_an_annotation_uses_it() -> None:
    """codegen decides from the lowered program's annotations whether the module imports
    `Sequence` (no edit of the rendered text): every generated module imports it exactly when its
    code after the imports writes `Sequence[`."""
    modules = sorted((ROOT / "generated").glob("*/*.py"))
    assert modules
    for path in modules:
        text = path.read_text(encoding="utf-8")
        imports, _, code = text.partition("from rulewright import runtime as rt\n")
        assert ("from collections.abc import Sequence\n" in imports) == ("Sequence[" in code), path


def test_lowering_keeps_the_rule_expression_of_a_test_and_a_value() -> None:
    """Lowering gives an `if`'s test and a loop's list the span of the rule expression they were
    lowered from (china-schacht's effects: its `if`s, `for`s and assignments)."""
    _, ruleset, _ = build(ruleset_file("china-schacht"))
    assert ruleset is not None
    _, typed = check(ruleset)
    assert typed is not None
    _, program = lower(typed)
    found = {"If": 0, "For": 0, "Assign": 0}

    def walk(body: tuple[object, ...]) -> None:
        for s in body:
            if isinstance(s, If) and s.span is not None and s.test.span is not None:
                assert s.test.span == s.span  # (the line of `if` is its test's)
                found["If"] += 1
            if isinstance(s, For) and s.span is not None and s.iterable.span is not None:
                assert s.iterable.span.path == s.span.path and s.iterable.span.line >= s.span.line
                found["For"] += 1
            if isinstance(s, Assign) and s.span is not None and s.value.span is not None:
                assert s.value.span.path == s.span.path and s.value.span.line >= s.span.line
                found["Assign"] += 1
            for inner in (getattr(s, "body", ()), getattr(s, "orelse", ()),
                          *(e.body for e in getattr(s, "elifs", ()))):
                walk(inner)

    for a in program.actions:
        walk(a.effect)
    for p in program.procedures:
        walk(p.body)
    assert all(found.values()), found


# -- expressions ------------------------------------------------------------------------------
X, Y, XS = Name("x"), Name("y"), Name("xs")
SELF_F = Attribute(Name("self"), "f")


@pytest.mark.parametrize(("node", "printed"), [
    (Name("x"), "x"),
    (Constant(3), "3"),
    (Constant(-3), "-3"),
    (Constant("a'b"), '"a\'b"'),
    (Constant(True), "True"),
    (Constant(None), "None"),
    (Constant(255, "0xff"), "0xff"),
    (SELF_F, "self.f"),
    (Subscript(SELF_F, X), "self.f[x]"),
    (Subscript(Name("d"), Tuple((X, Y))), "d[(x, y)]"),
    (Starred(XS), "*xs"),
    (Subscript(SELF_F, Slice()), "self.f[:]"),
    (Subscript(XS, Slice(Constant(1), X)), "xs[1:x]"),
    (Call(Name("f")), "f()"),
    (Call(Name("f"), (X, Starred(XS)), (Keyword("key", Name("sorted")), Keyword(None, Name("kw")))),
     "f(x, *xs, key=sorted, **kw)"),
    (Call(Attribute(Paren(BinOp(X, "&", Y)), "bit_count")), "(x & y).bit_count()"),
    (UnaryOp("not", X), "not x"),
    (UnaryOp("-", X), "-x"),
    (UnaryOp("~", SELF_F), "~self.f"),
    (BinOp(X, "//", Constant(2)), "x // 2"),
    (Paren(BinOp(Paren(BinOp(X, "+", Y)), "*", Constant(2))), "((x + y) * 2)"),
    (BoolOp("and", (X, Y, Name("z"))), "x and y and z"),
    (Paren(BoolOp("or", (X, UnaryOp("not", Y)))), "(x or not y)"),
    (Compare(X, ("==",), (Y,)), "x == y"),
    (Compare(X, ("<", "<="), (Y, Constant(9))), "x < y <= 9"),
    (Compare(X, ("not in", "is not"), (XS, Constant(None))), "x not in xs is not None"),
    (IfExp(X, Y, Constant(0)), "x if y else 0"),
    (Paren(IfExp(X, Y, Constant(0))), "(x if y else 0)"),
    (Tuple(()), "()"),
    (Tuple((X,)), "(x,)"),
    (Tuple((Starred(XS), X)), "(*xs, x)"),
    (Tuple((X, Y), parenthesised=False), "x, y"),
    (Tuple((X,), parenthesised=False), "x,"),
    (List((X, Y)), "[x, y]"),
    (List(()), "[]"),
    (Set((X,)), "{x}"),
    (Dict((Constant("a"), X), (Y, Constant(1))), "{'a': y, x: 1}"),
    (ListComp(X, (Comprehension(X, XS, (Compare(X, (">",), (Constant(0),)),)),)), "[x for x in xs if x > 0]"),
    (SetComp(X, (Comprehension(X, XS),)), "{x for x in xs}"),
    (DictComp(X, Y, (Comprehension(Tuple((X, Y)), XS),)), "{x: y for (x, y) in xs}"),
    (ListComp(Tuple((X, Y)), (Comprehension(X, XS, (X, Y)), Comprehension(Y, Call(Name("f"), (X,))))),
     "[(x, y) for x in xs if x if y for y in f(x)]"),
    (Call(Name("sum"), (GeneratorExp(Constant(1), (Comprehension(X, XS),)),)), "sum(1 for x in xs)"),
    (Call(Name("max"), (Paren(GeneratorExp(X, (Comprehension(X, XS),))),), (Keyword("default", Constant(0)),)),
     "max((x for x in xs), default=0)"),
    (Paren(Yield(Call(Attribute(Name("rt"), "Ask")))), "(yield rt.Ask())"),
    (Yield(Call(Name("f")), from_=True), "yield from f()"),
    (JoinedStr(("moved ", X, " to ", Call(Name("f"), (Y,)))), 'f"moved {x} to {f(y)}"'),
    (JoinedStr(()), 'f""'),
    (Code("anything, as written"), "anything, as written"),
])
def test_each_expression_node_prints_as_written(node: Expr, printed: str) -> None:
    assert text(node) == printed


def test_an_f_string_holds_its_values_as_nodes() -> None:
    told = JoinedStr(("at ", SELF_F, "!"))
    assert list(inside(told)) == [told, SELF_F, Name("self")]
    assert text(substituted(told, {"self": Name("other")})) == 'f"at {other.f}!"'


def test_expressions_compare_by_value_not_by_span() -> None:
    assert Call(Name("f", AT), (X,), span=AT) == Call(Name("f"), (Name("x", THERE),), span=THERE)
    assert hash(Subscript(SELF_F, X, AT)) == hash(Subscript(SELF_F, X))
    assert BinOp(X, "+", Y) != BinOp(X, "-", Y)
    assert Paren(X) != X  # (parentheses are part of the code written)


def test_statements_hold_expression_nodes() -> None:
    body = (
        Assign((Subscript(SELF_F, X),), Paren(BinOp(X, "+", Constant(1))), span=AT),
        If(Compare(Call(Name("len"), (XS,)), (">",), (Constant(16),)), (call(Call(Name("g"), (XS,))),)),
        For(Name("x"), Paren(Yield(Call(Attribute(Name("rt"), "Ask")))), (Return(X),)),
    )
    assert lines(body) == [
        "self.f[x] = (x + 1)  # base.yaml:12",
        "if len(xs) > 16:",
        "    g(xs)",
        "for x in (yield rt.Ask()):",
        "    return x",
    ]


# -- questions lowering asks of expression nodes (compiler/lower/code.py) -------------------------
def test_a_list_read_as_it_is_is_told_by_its_nodes() -> None:
    from rulewright.compiler.lower.code import simple

    hand = Attribute(Name("self"), "hand")
    assert simple(hand) == (None, None)
    assert simple(Subscript(hand, Name("p"))) == ("p", None)
    assert simple(Subscript(hand, Attribute(Name("self"), "seat"))) == ("self.seat", None)
    assert simple(Name("xs")) == (None, "xs")
    assert simple(Subscript(hand, Subscript(hand, Name("p")))) is None  # (an index of an index)
    assert simple(Call(Name("f"), (X,))) is None
    assert simple(Subscript(Attribute(Name("other"), "hand"), X)) is None  # (not the state's own)


def test_an_operand_is_told_by_its_nodes_not_by_precedence() -> None:
    from rulewright.compiler.lower.code import items_of_names, operand, parenthesised, unparenthesised

    assert operand(Call(Attribute(Paren(BinOp(X, "&", Y)), "bit_count")))
    assert operand(Constant(True)) and not operand(Constant(3)) and not operand(Constant("a"))
    assert not operand(Compare(X, ("==",), (Y,))) and not operand(UnaryOp("not", X))
    assert parenthesised(BinOp(X, "+", Y)) == Paren(BinOp(X, "+", Y))
    assert parenthesised(Subscript(SELF_F, X)) == Subscript(SELF_F, X)
    assert unparenthesised(Paren(IfExp(X, Y, X))) == IfExp(X, Y, X)
    generator = Paren(GeneratorExp(X, (Comprehension(X, XS),)))
    assert unparenthesised(generator) == generator  # (a generator keeps its own parentheses)
    assert items_of_names(Subscript(Name("T"), Attribute(Name("self"), "seat")), nested=False)
    assert not items_of_names(Subscript(Name("T"), Subscript(SELF_F, X)), nested=False)
    assert items_of_names(Subscript(Name("T"), Subscript(SELF_F, X)), nested=True)
    assert not items_of_names(Call(Name("f")), nested=True)


def test_what_charges_and_what_reads_a_name_are_found_anywhere_inside() -> None:
    from rulewright.compiler.lower.code import charges, reads

    walked = Call(Attribute(Name("rt"), "walk"), (Name("self"), XS, Constant(1), Constant("r.yaml:3")))
    assert charges(ListComp(X, (Comprehension(X, walked),)))
    assert not charges(ListComp(X, (Comprehension(X, XS),)))
    spent = Call(Attribute(Name("rt"), "spend"), (Name("self"), Constant(9), Constant("r:1")))
    assert charges(Call(Name("sum"), (GeneratorExp(BoolOp("and", (spent, Constant(1))), (Comprehension(X, Y),)),)))
    assert reads(Compare(Subscript(SELF_F, Name("s")), ("==",), (Y,)), "s")
    assert not reads(Attribute(Name("self"), "s"), "s")  # (an attribute is no local)


def test_an_assignment_expression_prints_as_written() -> None:
    local = Name("_joined0")
    made = Paren(IfExp(local, Compare(local, ("is not",), (Constant(None),)),
                                 Paren(NamedExpr(local, dotted("self.hand")))))
    assert text(made) == "(_joined0 if _joined0 is not None else (_joined0 := self.hand))"
    assert dotted("self.hand") in list(walk(made))  # (its value is a subexpression)
