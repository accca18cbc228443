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
