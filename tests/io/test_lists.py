"""The one comma-list rule of the library doors (`zheval.io.lists.split_entries`, break-it F4): an empty entry is
refused naming the option and its 1-based position; it used to be dropped without a word."""

from __future__ import annotations

import pytest

from zheval.io.lists import split_entries


@pytest.mark.parametrize("value, items", [
    ("bleu,rouge", ["bleu", "rouge"]),
    (" bleu , rouge ", ["bleu", "rouge"]),
    ("bleu,bleu", ["bleu", "bleu"]),  # duplicates are the door's to judge
])
def test_entries(value, items):
    assert split_entries(value, "metrics") == items


@pytest.mark.parametrize("value, message", [
    ("bleu,,rouge", "metrics 'bleu,,rouge' has an empty entry (entry 2)"),
    ("rouge1,", "metrics 'rouge1,' has an empty entry (entry 2)"),
    (",10", "metrics ',10' has an empty entry (entry 1)"),
    ("a, ,b,", "metrics 'a, ,b,' has an empty entry (entries 2, 4)"),
])
def test_an_empty_entry_is_refused_with_its_position(value, message):
    with pytest.raises(ValueError) as err:
        split_entries(value, "metrics")
    assert str(err.value) == message


@pytest.mark.parametrize("value", ["", "   "])
def test_a_blank_list_is_refused(value):
    """Break-it pass 5 F7: by="" meant the overall row only without a word (by="domain," was refused)."""
    with pytest.raises(ValueError, match=rf"^by '{value}' names no entry"):
        split_entries(value, "by")
