"""``--buckets`` / ``buckets=`` as a comma list (break-it F3): empty entries were dropped (``10,,20``, ``10,20,``,
``,10``) and entries were read by ``int()``/``float()``, which take full-width digits (``１０``) and ``_``
separators (``1_0``). Now an empty entry is refused naming its position and every entry is read by the one number
rule (`zheval.io.numbers.parse_number`). Edges need not be whole numbers (a length is the mean length of an item's
references, e.g. 10.5), so ``20.0`` stays an edge."""

from __future__ import annotations

import pytest

from zheval.results.breakdowns import check_buckets

_E = "--buckets must be a comma list of numbers, e.g. 10,20,50; entry "


@pytest.mark.parametrize("value, message", [
    ("10,,20", "--buckets '10,,20' has an empty entry (entry 2)"),
    ("10,20,", "--buckets '10,20,' has an empty entry (entry 3)"),
    (",10", "--buckets ',10' has an empty entry (entry 1)"),
    ("１０,20", _E + "1 '１０' is not a number ('１' (U+FF11 FULLWIDTH DIGIT ONE) is not an ASCII digit 0-9)"),
    ("10,1_0", _E + "2 '1_0' is not a number ('_' is not accepted in a number (neither as a digit separator nor as "
               "a decimal point))"),
    ("10,0x20", _E + "2 '0x20' is not a number (hexadecimal, octal and binary literals are not accepted)"),
])
def test_a_bad_entry_is_refused_naming_its_position(value, message):
    with pytest.raises(ValueError) as err:
        check_buckets(value, "--buckets")
    assert str(err.value) == message


@pytest.mark.parametrize("value, edges", [
    ("10,20,50", (10, 20, 50)),
    (" 10 , 20 ", (10, 20)),
    ("10,20.0", (10, 20.0)),  # a mean reference length can be fractional: 20.0 and 10.5 are edges
    ("10.5,1e2", (10.5, 100.0)),
])
def test_good_lists(value, edges):
    out = check_buckets(value, "--buckets")
    assert out == edges
    assert [type(e) for e in out] == [type(e) for e in edges]
