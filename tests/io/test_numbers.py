"""The one number rule of the file doors (zheval/io/numbers.py, issue 35 S1): ASCII digits, an optional sign,
decimal point and exponent; ``_`` separators, non-ASCII digits, commas, nan/inf, overflow and underflow (a non-zero
``1e-400`` that a float reads as 0.0, tied with a real 0) refused with the
file:line, the id and the column named. Python's ``float()`` — what the doors used — accepts every refused form
but the comma, so each refusal below is a silent reinterpretation the rule prevents."""

from __future__ import annotations

import math
import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.io import NumberFormatError, number_reason, parse_number

ACCEPTED = ["4", "+4", "-4", "4.", ".5", "4.5", "-0.5", "1e3", "1E-3", "2.5e+2", " 4 ", "\t4", "007", "0",
            "0e-400", "0.000e-999", "1e-310", "-4.9e-324"]  # a real zero; subnormals are non-zero floats
REFUSED = {
    "4_0": "'_' is not accepted in a number",
    "1_000.5": "'_' is not accepted in a number",
    "1e-400": "too small",
    "-2.5e-999": "too small",
    "0.0001e-330": "too small",
    "４": "U+FF14 FULLWIDTH DIGIT FOUR",
    "٣": "U+0663 ARABIC-INDIC DIGIT THREE",
    "4.５": "FULLWIDTH DIGIT FIVE",
    "²": "SUPERSCRIPT TWO",
    "nan": "nan and infinity",
    "-inf": "nan and infinity",
    "Infinity": "nan and infinity",
    "1e400": "too large",
    "4,5": "a comma",
    "1,000": "a comma",
    "0x10": "hexadecimal",
    "abc": "expected digits",
    "": "an empty cell",
    "   ": "an empty cell",
    "4\u00a0": "U+00A0 NO-BREAK SPACE",
    "\u30004": "U+3000 IDEOGRAPHIC SPACE",
    "4\x0c": "'\\x0c' (U+000C, a control character) has no place",  # break-it pass 19: named, not the syntax
    "4\x1c": "'\\x1c' (U+001C, a control character) has no place",
    "\x0b4": "'\\x0b' (U+000B, a control character) has no place",
    "4\x85": "'\\x85' (U+0085, a control character) has no place",  # no "U+0085 ?": unicodedata has no name
    "1e": "expected digits",
    ".": "expected digits",
    "--4": "expected digits",
}


@pytest.mark.parametrize("text", ACCEPTED)
def test_accepted_forms_equal_float(text):
    assert parse_number(text) == float(text)


@pytest.mark.parametrize("text,reason", sorted(REFUSED.items()))
def test_refused_forms_say_why(text, reason):
    with pytest.raises(NumberFormatError) as info:
        parse_number(text)
    assert reason in info.value.reason


@pytest.mark.parametrize("text", ["4_0", "1_000.5", "４", "٣", "4.５", "nan", "-inf", "Infinity", "1e400"])
def test_python_float_reads_each_of_these_silently(text):
    # the behaviour the doors had: float() gives a value (4_0 -> 40.0, ４ -> 4.0, 1e400 -> inf), no error
    value = float(text)
    assert isinstance(value, float)
    assert number_reason(text) is not None


def test_error_names_file_line_id_and_column():
    with pytest.raises(NumberFormatError) as info:
        parse_number("4_0", path="ratings.csv", line=7, column="overall", row_id="duck-test-0003")
    assert str(info.value) == ("ratings.csv:7: id 'duck-test-0003': column 'overall' is '4_0', not a number "
                               "('_' is not accepted in a number (neither as a digit separator nor as a decimal "
                               "point))")
    assert isinstance(info.value, ValueError)
    assert info.value.problem.line == 7


def test_nonfinite_only_when_the_door_allows_it():
    assert math.isnan(parse_number("NaN", allow_nonfinite=True))
    assert parse_number("-inf", allow_nonfinite=True) == -math.inf
    assert parse_number(math.inf, allow_nonfinite=True) == math.inf
    with pytest.raises(NumberFormatError):
        parse_number(math.nan)


def test_typed_cells():
    assert parse_number(3) == 3.0
    assert parse_number(2.5) == 2.5
    for bad in (True, None, [1], 10**400):
        with pytest.raises(NumberFormatError):
            parse_number(bad)
    # a JSON null in a column of numbers speaks JSON, not Python ("a NoneType is not a number" before)
    assert number_reason(None) == "null (no value) is not a number"
    assert number_reason([1]) == "a list is not a number"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789+-.eE_ ,x４٣n")), max_size=8))
def test_grammar_is_the_written_regular_expression(text):
    # an independent statement of the grammar: the ASCII regex, matched whole after stripping spaces/tabs;
    # accepted exactly when it matches and float() gives a finite value, and then the value is float()'s
    stripped = text.strip(" \t")
    written = r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?"  # the grammar as the module docstring states it
    matches = re.fullmatch(written, stripped, flags=re.ASCII) is not None
    # decimal.Decimal reads the exact value: a non-zero value that float() rounds to 0.0 underflows
    ok = matches and math.isfinite(float(stripped)) and not (float(stripped) == 0 and Decimal(stripped) != 0)
    assert (number_reason(text) is None) == ok
    if ok:
        assert parse_number(text) == float(stripped)


# JSON numbers (break-it F1 of issue 35): json.loads rounds 1e-400 to 0.0 and 1e400 to inf before any rule could
# look, so a door that reads numbers from JSON Lines asks for each number's literal (read_rows(numbers=True)) and the
# rule judges the user's text, as it judges a CSV cell; messages show that text.
JSON_CELLS = {  # literal -> the reason's start, or the value (written out by hand)
    "1e-400": "too small", "-1e-400": "too small", "1e-330": "too small", "2.5E-999": "too small",
    "1e400": "too large", "-1.7976931348623159e308": "too large", "NaN": "nan and infinity",
    "Infinity": "nan and infinity", "-Infinity": "nan and infinity",
    "0e-400": 0.0, "-0.0": 0.0, "5e-324": 5e-324, "4.50": 4.5, "1E3": 1000.0, "3": 3.0, "-2": -2.0,
    "1.7976931348623157e308": 1.7976931348623157e308,
}


def _json_rows(tmp_path, numbers=True):
    from zheval.io import read_rows

    path = tmp_path / "cells.jsonl"
    path.write_text("".join('{"id": %d, "x": %s}\n' % (k, v) for k, v in enumerate(JSON_CELLS)), encoding="utf-8")
    return read_rows(path, what="judge ratings", numbers=numbers).rows


def test_json_numbers_are_judged_by_their_literal(tmp_path):
    for (line, row), (literal, want) in zip(_json_rows(tmp_path), JSON_CELLS.items()):
        v = row["x"]
        if isinstance(want, str):
            assert number_reason(v).startswith(want), literal
            with pytest.raises(NumberFormatError) as info:
                parse_number(v, path="r.jsonl", line=line, column="x")
            assert str(info.value).startswith(f"r.jsonl:{line}: column 'x' is {literal}, not a number ("), literal
        else:
            assert number_reason(v) is None and parse_number(v) == want and type(parse_number(v)) is float, literal
    # a door that reads no numbers gets json.loads' plain values (no literal kept)
    assert all(type(row["x"]) in (int, float) for _, row in _json_rows(tmp_path, numbers=False))


def test_number_cells_show_the_json_literal_and_fit_the_advice_to_the_format():
    from zheval.io.jsonl import parse_json_line
    from zheval.io.numbers import number_cells

    row, _ = parse_json_line('{"a": 1e-400, "b": "4", "c": 2.50, "d": null}', numbers=True)
    problems: list = []
    got = number_cells(row.get, ["a", "b", "c", "d"], "r.jsonl:1", "x", problems, kind="a number", blank=lambda c: 0,
                       typed="jsonl")
    assert got == {"c": 2.5, "d": None}
    assert problems == [
        "r.jsonl:1: a of id 'x' is 1e-400, not a number (too small for a number (a non-zero value that underflows to "
        "0.0))",
        "r.jsonl:1: b of id 'x' is '4', not a number (a JSON string: write a rating as a JSON number, without quotes)"]
    problems.clear()
    number_cells({"b": "4"}.get, ["b"], "r.parquet:1", "x", problems, kind="a number", typed="parquet")
    assert problems == ["r.parquet:1: b of id 'x' is '4', not a number (a string in a Parquet column: store the "
                        "ratings in a numeric column (int or float), not a string one)"]


def test_an_integer_is_a_number_while_a_float_holds_it():
    # 1.5e308 < the largest float (1.7976931348623157e308): a CSV "15" + 307 zeros is accepted, the JSON integer too
    assert parse_number(15 * 10**307) == 1.5e308
    assert parse_number("15" + "0" * 307) == 1.5e308
    assert number_reason(2**1024) == "too large for a number (overflows a float)"


def test_a_decimal_column_is_named_as_such():
    """Issue 35: a Parquet decimal128 cell (pyarrow reads a ``Decimal``) was "Decimal('3.00'), not a number (a Decimal
    is not a number)"."""
    from zheval.io.numbers import number_cells

    problems: list = []
    assert number_cells({"b": Decimal("3.00")}.get, ["b"], "r.parquet:1", "x", problems, kind="a number",
                        typed="parquet") == {}
    assert problems == ["r.parquet:1: b of id 'x' is in a decimal column (Decimal('3.00')): store ratings as int or "
                        "float"]


@pytest.mark.parametrize("ch", ["\u00a0", "\u3000", "\x0b", "\x0c", "\x1c", "\x85", "\u2028"])
def test_keyed_rows_strip_only_spaces_and_tabs_of_a_cell(ch):
    """Break-it pass 19: ``keyed_rows`` stripped any Unicode whitespace, so ``5\\xa0`` read as 5 silently; the
    cell now keeps it, for the number rule to refuse."""
    from zheval.io.fields import UniqueIds, keyed_rows

    problems: list = []
    rows = [(2, {"id": "a", "r": f" \t5{ch}\t "}), (3, {"id": "b", "r": f"{ch}"})]
    got = [(line, rid, cell("r")) for line, rid, cell in keyed_rows(rows, "f.csv", problems, UniqueIds())]
    assert got == [(2, "a", f"5{ch}"), (3, "b", ch)] and problems == []
    assert number_reason(got[0][2]) is not None and number_reason("5") is None
