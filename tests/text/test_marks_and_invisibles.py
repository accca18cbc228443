"""Marks, invisible characters and ellipses (issue 13, items 6 and 7).

* One rule for marks: a combining mark, variation selector or emoji modifier stays in the token of the character
  before it, whatever that character is -- in the ``char`` tokenizer (plain, with terms, ``punct="drop"``), its batch
  twin, ``jieba`` and the sentence split; the default ``zw`` step removes variation selectors.
* ``zw`` removes every default-ignorable code point, U+2800 and U+FFF9-U+FFFB; with normalisation off none of them
  is ever a token (the ones that are marks attach).
* ``nfkc`` keeps ``…`` and ``‥``: ``嗯……`` is three tokens, not seven.

Expected tokens are written out by hand; ROUGE values are computed by hand in the comments.
"""

from __future__ import annotations

import unicodedata

import pytest

from zheval.tokenizers.char_ids import char_token_ids
from zheval.tokenizers.corpus import TokenIds
from zheval.text.chars import DEFAULT_IGNORABLE_RANGES, INVISIBLE_RANGES
from zheval.text.normalize import nfkc, normalize, remove_invisible
from zheval.compute.rouge import compute_rouge
from zheval.text.sentences import split_sentences
from zheval.tokenizers import get_tokenizer

VS_SUPPLEMENT, VS, ACUTE, CIRCLE = "\U000e0100", "\ufe00", "\u0301", "\u20dd"
MARKS = {"U+E0100": VS_SUPPLEMENT, "U+FE00": VS, "U+0301": ACUTE, "U+20DD": CIRCLE}
INVISIBLE_MARKS = {VS_SUPPLEMENT, VS}  # variation selectors: default-ignorable


def raw_expected(context: str, m: str) -> list:
    """Tokens with normalisation off (hand-written rule: the mark joins the token before it; with nothing before
    it a visible mark is a token and an invisible one is dropped)."""
    alone = [] if m in INVISIBLE_MARKS else [m]
    return {
        "han": ["葛" + m, "城"],
        "kana": ["か" + m, "な"],
        "latin": ["a" + m + "b"],  # a word run continues through its marks
        "latin_end": ["a" + m, "b"],
        "digit": ["1" + m + "2"],
        "punct": ["好", "，" + m, "的"],
        "emoji": ["好", "😀" + m, "的"],
        "start": alone + ["城"],
        "after_space": ["葛"] + alone + ["城"],
    }[context]


def default_expected(context: str, m: str) -> list:
    """Tokens under the default normalisation: variation selectors removed by zw; NFKC composes a + U+0301 into á
    and maps ， to ,; the space step removes the space next to 葛 (so the mark then follows 葛)."""
    if m in INVISIBLE_MARKS:
        return {"han": ["葛", "城"], "kana": ["か", "な"], "latin": ["ab"], "latin_end": ["a", "b"], "digit": ["12"],
                "punct": ["好", ",", "的"], "emoji": ["好", "😀", "的"], "start": ["城"],
                "after_space": ["葛", "城"]}[context]
    latin = {"latin": ["\u00e1b"], "latin_end": ["\u00e1", "b"]} if m == ACUTE else {}
    out = {"punct": ["好", "," + m, "的"], "after_space": ["葛" + m, "城"], **latin}
    return out.get(context, raw_expected(context, m))


CONTEXTS = {
    "han": "葛{m}城", "kana": "か{m}な", "latin": "a{m}b", "latin_end": "a{m} b", "digit": "1{m}2",
    "punct": "好，{m}的", "emoji": "好😀{m}的", "start": "{m}城", "after_space": "葛 {m}城",
}


def _batch(tok, text):
    vocab = TokenIds()
    pieces = [tok.normalize(text)]
    ids, offsets = char_token_ids(pieces, vocab)
    words = list(vocab)
    return [words[i] for i in ids[offsets[0]:offsets[1]]]


def _drop(tokens):
    return [t for t in tokens if any(unicodedata.category(c)[0] in "LN" for c in t)]


def _jieba_expected(context, m, normalize_, expected):
    """jieba cuts non-Han text at every character outside its ASCII word class (a mark, ``á``); the mark still joins
    the word before it. Elsewhere jieba's words are the char tokens here."""
    if context not in ("latin", "digit") or (normalize_ and m in INVISIBLE_MARKS):
        return expected
    first, second = ("a", "b") if context == "latin" else ("1", "2")
    if normalize_ and m == ACUTE and context == "latin":
        return ["\u00e1", "b"]  # NFKC composed a + U+0301; á is outside jieba's [a-zA-Z0-9...] blocks
    return [first + m, second]


@pytest.mark.parametrize("mark", list(MARKS))
@pytest.mark.parametrize("context", list(CONTEXTS))
@pytest.mark.parametrize("normalize_", [True, False], ids=["default", "raw"])
def test_marks_stay_with_the_character_before_them(mark, context, normalize_):
    m = MARKS[mark]
    text = CONTEXTS[context].format(m=m)
    expected = (default_expected if normalize_ else raw_expected)(context, m)
    opts = {} if normalize_ else {"normalize": False}
    plain = get_tokenizer("char", **opts)
    assert plain(text) == expected
    assert _batch(plain, text) == expected  # the batch twin
    assert get_tokenizer("char", terms=["小黄鸭"], **opts)(text) == expected
    assert get_tokenizer("char", punct="drop", **opts)(text) == _drop(expected)  # no lone mark survives
    assert get_tokenizer("jieba", **opts)(text) == _jieba_expected(context, m, normalize_, expected)
    # the sentence split never separates a mark from its character
    for tok in (plain, get_tokenizer("jieba", **opts)):
        sents = tok.tokenize_sentences(text + "。好", "punct")
        assert [t for s in sents for t in s] == tok(text + "。好")


def test_variation_selector_after_han():
    assert get_tokenizer("char")("葛\U000e0100城") == ["葛", "城"]  # zw removes the variation selector
    assert get_tokenizer("char", normalize=False)("葛\U000e0100城") == ["葛\U000e0100", "城"]
    assert normalize("葛\U000e0100城") == "葛城"
    assert get_tokenizer("char", normalize=False)("葛\U000e0100") == ["葛\U000e0100"]


def test_a_term_takes_the_marks_after_it():
    tok = get_tokenizer("char", terms=["葛"], normalize=False)
    assert tok("葛\u0301城") == ["葛\u0301", "城"]
    assert get_tokenizer("jieba", terms=["葛城"], normalize=False)("葛城\u20dd好") == ["葛城\u20dd", "好"]


def test_kana_voicing_mark_attaches():
    # U+3099 is a combining mark (NFKC composes か+゙ into が; without normalisation they stay one token)
    assert get_tokenizer("char", normalize=False)("か\u3099き") == ["か\u3099", "き"]
    assert get_tokenizer("char")("か\u3099き") == ["が", "き"]


def test_sentence_split_keeps_marks():
    assert split_sentences("好。\u0301然后") == ["好。\u0301", "然后"]
    assert split_sentences("好\U000e0100。然后") == ["好\U000e0100。", "然后"]
    assert split_sentences("好！\ufe0f”然后") == ["好！\ufe0f”", "然后"]


# ---------------------------------------------------------------------------------------------------------------
# invisible characters


LISTED = [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), *range(0x200B, 0x2010),
          *range(0x202A, 0x202F), *range(0x2060, 0x2070), 0x3164, *range(0xFE00, 0xFE10), 0xFEFF, 0xFFA0,
          *range(0xFFF0, 0xFFF9), *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B), *range(0xE0000, 0xE1000),
          0x2800, 0xFFF9, 0xFFFA, 0xFFFB]


def test_listed_ranges_are_the_module_constants():
    covered = {cp for a, b in INVISIBLE_RANGES for cp in range(a, b + 1)}
    assert covered == set(LISTED)


def test_default_ignorables_match_the_regex_modules_unicode_data():
    regex = pytest.importorskip("regex")  # an independent copy of DerivedCoreProperties.txt (Unicode 16+)
    di = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    want = {cp for cp in range(0x110000) if di.match(chr(cp))}
    assert {cp for a, b in DEFAULT_IGNORABLE_RANGES for cp in range(a, b + 1)} == want


@pytest.mark.parametrize("lo", range(0, len(LISTED), 512))
def test_each_listed_character_between_two_han_characters(lo):
    char_raw, jieba_raw = get_tokenizer("char", normalize=False), get_tokenizer("jieba", normalize=False)
    char_default = get_tokenizer("char")
    for cp in LISTED[lo:lo + 512]:
        c = chr(cp)
        text = f"好{c}的"
        assert remove_invisible(text) == "好的", hex(cp)
        assert char_default(text) == ["好", "的"], hex(cp)
        # normalisation off: never a token; a mark among them (variation selectors, U+034F, ...) joins 好
        want = ["好" + c, "的"] if unicodedata.category(c)[0] == "M" else ["好", "的"]
        assert char_raw(text) == want, hex(cp)
        assert _batch(char_raw, text) == want, hex(cp)
        assert jieba_raw(text) == want, hex(cp)
        assert get_tokenizer("char", normalize=False, punct="drop")(text) == want, hex(cp)
    # a Hangul filler is a letter (Lo) to Python: it must not join a word run either
    assert char_raw("a\u3164b") == ["a", "b"]


def test_bidi_controls_and_hangul_fillers_are_never_tokens():
    for c in "\u061c\u180e\u206a\u206b\u206c\u206d\u206e\u206f\ufff9\ufffa\ufffb\u3164\u115f\uffa0\u2800":
        assert get_tokenizer("char")(f"今{c}天") == ["今", "天"], hex(ord(c))
        assert get_tokenizer("char", normalize=False)(f"今{c}天") == ["今", "天"], hex(ord(c))


# ---------------------------------------------------------------------------------------------------------------
# ellipses


def test_nfkc_keeps_ellipses():
    assert nfkc("嗯……") == "嗯……"
    assert nfkc("好‥") == "好‥"
    assert nfkc("︙︰") == "…‥"  # vertical presentation forms become the ellipses, not dots
    assert nfkc("２０２４…ＡＩ") == "2024…AI"  # NFKC still runs around them
    assert nfkc("e\u0301…e\u0301") == "\u00e9…\u00e9"
    assert get_tokenizer("char")("嗯……") == ["嗯", "…", "…"]


def test_rouge1_of_ellipses_by_hand():
    # 嗯…… → 嗯 … … (3 tokens); 嗯……好的 → 嗯 … … 好 的 (5 tokens); 3 shared: P = 3/3, R = 3/5,
    # F = 2 * 1 * 0.6 / 1.6 = 0.75 (with NFKC's six dots it was 7 and 9 tokens: F = 0.875)
    r = compute_rouge(["嗯……"], ["嗯……好的"], rouge_types=["rouge1"], return_precision_recall=True)
    assert r["rouge1_precision"] == pytest.approx(1.0)
    assert r["rouge1_recall"] == pytest.approx(3 / 5)
    assert r["rouge1"] == pytest.approx(0.75)


def test_ellipsis_ends_a_sentence():
    assert split_sentences(normalize("好……然后")) == ["好……", "然后"]
    assert split_sentences(normalize("好‥然后")) == ["好‥", "然后"]
    assert get_tokenizer("char").tokenize_sentences("好……然后", "punct") == (("好", "…", "…"), ("然", "后"))


def test_preset_tokenizers_are_unaffected():
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    from zheval.tokenizers import get_tokenizer as build_bleu_tokenizer

    text = "嗯……好的‥葛\U000e0100城"
    assert build_bleu_tokenizer("sacrebleu-zh")(text) == TokenizerZh()(text).split()
    assert build_bleu_tokenizer("llamafactory-char")(text) == list(text)
