"""The code point ranges the corpus-at-once NFKC step skips (zheval.text.normalize_corpus._IDEOGRAPHS) are inert under
NFKC for this Python's Unicode data: every character of them is its own NFKD, has combining class 0, is not a mark,
not a Hangul jamo and not an ellipsis of the punct table -- checked character by character against unicodedata --, and no
other per-character step (zw, punct, lower) changes them; and
the char tokenizer's regular expression puts every one of them in its HAN class and no other
(zheval.tokenizers.char_ids.IDEOGRAPHS, classified H without the expression)."""

from __future__ import annotations

import unicodedata

import re

from zheval.text import normalize_corpus
from zheval.tokenizers import char_ids
from zheval.tokenizers.char import CHAR_HAN, CHAR_MARK, CHAR_WORD
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


def test_skipped_ranges_are_inert_under_every_per_character_step():
    from zheval.text.normalize import lower_latin, remove_invisible, unify_punctuation

    for lo, hi in normalize_corpus._IDEOGRAPHS:
        chars = "".join(map(chr, range(lo, hi + 1)))
        for step in (remove_invisible, unify_punctuation, lower_latin):
            assert step(chars) == chars, step.__name__
        assert not any(ch.isspace() for ch in chars)


def test_the_ideograph_ranges_are_han_for_the_char_tokenizer():
    assert char_ids.IDEOGRAPHS == normalize_corpus._IDEOGRAPHS
    for lo, hi in char_ids.IDEOGRAPHS:
        chars = "".join(map(chr, range(lo, hi + 1)))
        assert len(re.findall(CHAR_HAN, chars, flags=re.DOTALL)) == len(chars)  # HAN comes first in the expression
        assert not re.findall(CHAR_MARK, chars, flags=re.DOTALL) and not re.findall(CHAR_WORD, chars, flags=re.DOTALL)
        assert (char_ids._classify(chars) == char_ids.H).all()  # what the table held before the shortcut
