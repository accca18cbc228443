"""`zheval.tokenizers.term_scan.TermScan`: the quick search (texts without attached marks or regional indicators)
finds exactly the term matches of the ``<terms>|<char token>`` scan, on random texts over the characters where
terms and char tokens interact (word runs, ``.`` between digits, Han, spaces, punctuation) and hand-made cases."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.tokenizers.term_scan import TermScan

TERM_LISTS = (
    ("app", "3.5", "v1", "C++", "iOS 17", "北京", "北京酒店", "酒店", "5G", ".5", "a.b", "pp", "1.2.3", " x", "。再"),
    ("a", "b", "ab", "1", "12", "2.", ".", "a1"),
)
ALPHABET = list("ab15.2 G+，。北京酒店xvCiOS7Ｇ") + ["app", "3.5", "北京", "iOS 17", "1.2.3"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=20), st.sampled_from(TERM_LISTS))
def test_the_quick_search_finds_what_the_scan_finds(pieces, terms):
    text = "".join(pieces)
    scan = TermScan(terms)
    assert scan.matches(text) == scan.matches(text, quick=False), text


def test_hand_made_cases():
    scan = TermScan(["app", "3.5", "5G", "北京", ".5"])
    assert scan.matches("apple app 北京") == [(6, 9, "app"), (10, 12, "北京")]  # "app" of "apple" is not a term
    assert scan.matches("x3.5G 13.5 3.5") == [(11, 14, "3.5")]  # inside word runs: none; alone: one
    assert scan.matches("a .5 b") == [(2, 4, ".5")]
    assert scan.matches("北京app3.5") == [(0, 2, "北京")] == scan.matches("北京app3.5", quick=False)  # app before 3
