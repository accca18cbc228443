"""Full-width forms in the ``space`` step and numbers in the ``nopunct`` step (break-it, normaliser pass).

1. ``space`` without ``nfkc`` took the whole half-/full-width block U+FF00-U+FFEF for CJK characters, so a space
   next to a full-width digit or letter was removed as a space between CJK characters: ``３ ５`` -> ``３５``,
   ``iPhone １５`` -> ``iphone１５``, and ``nopunct`` + ``space`` made ``３５`` of ``３．５`` and ``１０３０`` of
   ``１０：３０`` (ROUGE-1 100 for a pair that differs). The full-width ASCII forms now count as ASCII.
2. ``nopunct`` kept ``,`` between digits, which the ``char`` tokenizer splits off: ``1,000人`` gave the tokens
   ``1 , 000 人`` -- a comma token under "no punctuation". It now keeps only the ``.`` the tokenizer joins into a
   number (``3.5``), and a removed mark between two digit runs leaves a space (``1 000``).

Expected values are written by hand; token lists by hand from the ``char`` rules (a run of letters/digits is one
token, ``.`` followed by an ASCII digit continues it, every Han character and every other mark is one token).
"""

from __future__ import annotations

import random
import re
import unicodedata

import pytest

from zheval import compute_rouge, get_tokenizer
from zheval.text.chars import CJK_SIDE_CLASS_BODY
from zheval.text.normalize import normalize, normalize_space, remove_punctuation

NO_NFKC_NOPUNCT = "zw+punct+nopunct+space+lower"


@pytest.mark.parametrize("text, expected", [
    ("３ ５", "３ ５"),  # as "3 5": two numbers stay two
    ("iPhone １５", "iPhone １５"),
    ("用 ｉＰｈｏｎｅ １５ 拍", "用ｉＰｈｏｎｅ １５拍"),  # as "用 iPhone 15 拍" -> "用iPhone 15拍"
    ("１０ ： ３０", "１０ ： ３０"),  # as "10 : 30"
    ("a ， b", "a ， b"),  # as "a , b"
])
def test_space_reads_fullwidth_ascii_as_ascii(text, expected):
    assert normalize_space(text) == expected
    assert normalize(text, "space") == expected


def test_space_step_commutes_with_nfkc_on_fullwidth_ascii():
    """On text of ASCII, full-width ASCII forms, Han and spaces, ``space`` then NFKC equals NFKC then ``space``:
    the step sees a full-width form as NFKC's ASCII twin (on main ``３ ５`` lost its space, ``3 5`` kept it)."""
    rng = random.Random(5)
    alphabet = "35a.:,!好年 ３５ａ．：，！Ｚ"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10)))
        nfkc = unicodedata.normalize("NFKC", text)
        assert unicodedata.normalize("NFKC", normalize_space(text)) == normalize_space(nfkc), text


def test_a_halfwidth_fullwidth_form_is_cjk_side_exactly_when_its_nfkc_form_is():
    """Every assigned character of U+FF00-U+FFEF with a one-character NFKC form: CJK-side (its neighbouring spaces
    removed) exactly when that form is; by hand, the CJK-side ones are U+FF61-U+FF9F (｡｢｣､･ and half-width kana)."""
    side = re.compile(f"[{CJK_SIDE_CLASS_BODY}]")
    found = []
    for cp in range(0xFF00, 0xFFF0):
        ch = chr(cp)
        form = unicodedata.normalize("NFKC", ch)
        if unicodedata.category(ch) == "Cn" or len(form) != 1:
            continue
        assert bool(side.match(ch)) == bool(side.match(form)), hex(cp)
        if side.match(ch):
            found.append(cp)
    assert found == list(range(0xFF61, 0xFFA0))


def test_space_never_glues_two_word_runs():
    """A space between two word runs stays even when CJK-side characters stand there (the ``char`` tokenizer
    would read one token after its removal); next to Han/kana it still goes."""
    assert normalize_space("ㄋㄧˇ ㄏㄠˇ") == "ㄋㄧˇ ㄏㄠˇ"  # bopomofo syllables: two tokens, not one
    assert normalize_space("㈠ ㈡") == "㈠ ㈡"
    assert normalize_space("ﾡ ﾢ") == "ﾡ ﾢ"  # half-width Hangul: Korean spaces carry meaning
    assert normalize_space("か\u3099 ３") == "か\u3099３"  # a kana token (with its mark) is no word run
    assert normalize_space("ㄅ 好") == "ㄅ好"
    assert normalize_space("１５ 年") == "１５年"  # next to a Han character the space still goes, as in "15 年"
    assert normalize_space("今天 ， 很 好 。") == "今天，很好。"


@pytest.mark.parametrize("text, steps, expected", [
    ("３．５", NO_NFKC_NOPUNCT, "３ ５"),  # '．' is not '.': the char tokenizer reads ３ ． ５, so two numbers
    ("３．５", "nopunct+space", "３ ５"),
    ("１０：３０", NO_NFKC_NOPUNCT, "１０ ３０"),  # as "10:30" -> "10 30"
    ("１，０００人", NO_NFKC_NOPUNCT, "１ ０００人"),
    ("１，０００人", "nopunct+space", "１ ０００人"),
])
def test_nopunct_never_glues_fullwidth_numbers(text, steps, expected):
    assert normalize(text, steps) == expected


def test_nopunct_fullwidth_decimal_is_not_its_glued_number():
    """Break-it: without nfkc, ``３．５元`` against ``３５元`` scored ROUGE-1 1.0 (``３．５`` became ``３５``). By hand
    (char tokens): prediction ``３ ５ 元`` (3), reference ``３５ 元`` (2), one shared unigram (元): P 1/3, R 1/2,
    F1 = 2*1/(3+2) = 2/5; bigrams (３,５) (５,元) against (３５,元): none shared, F1 0."""
    out = compute_rouge(["３．５元"], ["３５元"], normalize=NO_NFKC_NOPUNCT)
    assert out["rouge1"] == pytest.approx(2 / 5)
    assert out["rouge2"] == pytest.approx(0.0)
    assert normalize("３．５元", "nfkc+zw+punct+nopunct+space+lower") == "3.5元"  # with nfkc: ASCII '.', kept


@pytest.mark.parametrize("text, expected", [
    ("1,000人", "1 000人"),
    ("共1,000.5元", "共1 000.5元"),
    ("3,5", "3 5"),
    ("a.5", "a.5"),  # the char tokenizer joins '.5' to any word run: one token a.5, as with punct="drop"
    ("３.5", "３.5"),
    ("e\u0301.5", "e\u0301.5"),  # a word run ending in an attached mark
])
def test_nopunct_keeps_only_what_the_char_tokenizer_joins(text, expected):
    assert remove_punctuation(text) == expected
    # and removes the '.' it does not join (as before)
    assert remove_punctuation("好\u0301.5") == "好\u0301 5"  # a Han token with its mark is no word run
    assert remove_punctuation("3.５") == "3 ５"  # '.' then a full-width digit: the char tokenizer reads 3 . ５


@pytest.mark.parametrize("text, steps, tokens", [
    ("1,000人", "nfkc+zw+punct+nopunct+space+lower", ["1", "000", "人"]),  # no ',' token (was 1 , 000 人)
    ("１，０００人", NO_NFKC_NOPUNCT, ["１", "０００", "人"]),
    ("３．５元", NO_NFKC_NOPUNCT, ["３", "５", "元"]),
    ("iPhone １５", "zw+punct+space+lower", ["iphone", "１５"]),  # was one token iphone１５
])
def test_char_tokens_after_nopunct_hold_no_punctuation(text, steps, tokens):
    tok = get_tokenizer("char", normalize=steps)
    assert tok.tokenize(text) == tokens
    assert tok.tokenize("共3.5元") == ["共", "3.5", "元"]
    assert tok.tokenize(text) == get_tokenizer("char", normalize=steps.replace("nopunct+", ""),
                                               punct="drop").tokenize(text)
