"""The code point ranges the corpus-at-once NFKC step skips (zheval.text.normalize_corpus._IDEOGRAPHS) are inert under
NFKC for this Python's Unicode data: every character of them is its own NFKD, has combining class 0, is not a mark,
not a Hangul jamo and not an ellipsis of the punct table -- checked character by character against unicodedata."""

from __future__ import annotations

import unicodedata

from zheval.text import normalize_corpus
from zheval.text.normalize import ELLIPSES


def test_skipped_ranges_are_inert_under_nfkc():
    ranges = normalize_corpus._IDEOGRAPHS
    assert ranges, "no ranges"
    for lo, hi in ranges:
        for c in range(lo, hi + 1):
            ch = chr(c)
            assert unicodedata.normalize("NFKD", ch) == ch and unicodedata.normalize("NFKC", ch) == ch, hex(c)
            assert not unicodedata.combining(ch) and unicodedata.category(ch)[0] != "M", hex(c)
            assert ch not in ELLIPSES and normalize_corpus.is_simple_for_nfkc(ch), hex(c)
