"""Break-it: distinct numbers that become the same float64 were silently tied at every file door of ratings and
scores (``9007199254740993`` and ``9007199254740992``, ``1.00000000000000000001`` and ``1``, ``0.30000000000000001``
and ``0.3``), so a rank correlation lost their order. The one number reader of those doors (`number_cells` with the
file's `SameFloat`) refuses the second cell of a column whose exact value (``decimal.Decimal`` of the text, the
``int`` itself) differs from an earlier cell's but reads as the same float, naming both places and the column."""

from __future__ import annotations

from decimal import Decimal

import pytest

from zheval.io.numbers import JsonNumber, SameFloat, number_cells

PAIRS = [("9007199254740993", "9007199254740992"), ("1.00000000000000000001", "1"),
         ("0.30000000000000001", "0.3"), ("1e-320", "1.0000000000000001e-320")]


def _read(rows, col="score"):
    same, problems = SameFloat(), []
    got = [number_cells({col: v}.get, [col], f"s.csv:{k + 2}", f"i{k}", problems, same=same)
           for k, v in enumerate(rows)]
    return got, problems, same.problems


@pytest.mark.parametrize("a,b", PAIRS)
def test_distinct_numbers_of_one_float_are_refused_naming_both_cells(a, b):
    assert float(a) == float(b) and Decimal(a) != Decimal(b)  # the premise, by the standard library
    _, problems, lost = _read(["0.5", a, "0.7", b])
    assert problems == [] and len(lost) == 1
    assert lost[0].startswith(f"s.csv:5: score of id 'i3' is {b!r} and s.csv:3: score of id 'i1' is {a!r}: ")
    assert "round to the same float64" in lost[0] and "order would be lost" in lost[0]


@pytest.mark.parametrize("a,b", [(9007199254740993, 9007199254740992), (JsonNumber("1.00000000000000000001"), 1),
                                 (2**63 - 1, 2**63 - 2)])
def test_typed_cells_json_numbers_and_int64_are_compared_exactly(a, b):
    assert float(a) == float(b) and Decimal(repr(a)) != Decimal(repr(b))
    _, _, lost = _read([a, b])
    assert len(lost) == 1 and f"is {b!r} and s.csv:2: score of id 'i0' is {a!r}" in lost[0]


def test_the_same_number_written_alike_or_not_and_other_columns_are_accepted():
    got, problems, lost = _read(["1", "1.0", " 1e0 ", "+1", "0.3", "0.30", "3e-1"])
    assert problems == [] and lost == [] and [g["score"] for g in got] == [1.0] * 4 + [0.3] * 3
    same, problems = SameFloat(), []  # the rule is per column: equal floats in two columns are fine
    number_cells({"a": "0.30000000000000001", "b": "0.3"}.get, ["a", "b"], "s.csv:2", "i0", problems, same=same)
    assert same.problems == []
    assert _read([-0.0, 0, "0.0", "-0"])[2] == []  # zero is zero, whatever its sign
