"""Presets reproduce their tools exactly: sacrebleu 2.6.0 ``tokenize="zh"`` and LLaMA-Factory's BLEU-4 (nltk 3.10
``sentence_bleu`` with ``SmoothingFunction().method3`` on ``list(text)``), on raw text of the shared data."""

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from zheval.presets import BLEU_PRESETS as PRESETS
from zheval.tokenizers.sacrebleu_zh import SACREBLEU_ZH_CODEPOINT_RANGES, is_sacrebleu_zh_char, sacrebleu_zh_tokenize
from zheval.presets.llamafactory import llamafactory_bleu4, llamafactory_item_scores
from zheval.tokenizers.llamafactory import llamafactory_tokenize
from zheval.tokenizers.sacrebleu_zh import _sacrebleu_zh_tokenize_reference
from zheval.definitions.bleu import corpus_score, corpus_stats, sentence_scores
from helpers import crosswoz_items

_sacre_is_chinese = TokenizerZh._is_chinese_char.__wrapped__  # the raw predicate, without its lru_cache
_sacre_zh = TokenizerZh()


def sacre_tokens(text):
    # what sacrebleu's BLEU(tokenize="zh") n-gram extraction sees: tokenizer(sent.rstrip()).split()
    return _sacre_zh(text.rstrip()).split()


# ------------------------------------------------------------------------------------------------------------------
# sacrebleu-zh tokenisation
# ------------------------------------------------------------------------------------------------------------------


def test_chinese_code_points_equal_sacrebleu_on_the_bmp_and_a_supplementary_sample():
    bmp = [cp for cp in range(0x10000) if _sacre_is_chinese(chr(cp)) != is_sacrebleu_zh_char(chr(cp))]
    assert bmp == []
    sample = list(range(0x10000, 0x110000, 257)) + [0x20000, 0x2A6D6, 0x2F800, 0x2FA1D, 0x20BB7, 0x1F600, 0x10FFFF]
    assert [cp for cp in sample if _sacre_is_chinese(chr(cp)) != is_sacrebleu_zh_char(chr(cp))] == []


def test_documented_quirks_of_the_sacrebleu_zh_ranges():
    assert SACREBLEU_ZH_CODEPOINT_RANGES[0] == (0x2001, 0x2A6D)  # from the malformed '\u20000'..'\u2a6d6'
    # General punctuation / symbols are "Chinese" (split into single tokens) ...
    for ch in "“”‘’—…※℃①→∑■☆":
        assert is_sacrebleu_zh_char(ch), ch
    # ... CJK Extension B and other supplementary characters are not, nor are the newest BMP ideographs, kana,
    # Hangul syllables, the middle dot, or ASCII
    for ch in ["\U00020000", "\U00020BB7", "\U0002A6D6", "\U0001F600", "\u9fcf", "\u9fec", "あ", "カ", "한", "·", "a", "1"]:
        assert not is_sacrebleu_zh_char(ch), repr(ch)
    # fullwidth forms are Chinese, so fullwidth digits are one token each, ASCII digits one run
    assert sacrebleu_zh_tokenize("２０２４年2024") == ["２", "０", "２", "４", "年", "2024"]
    assert sacre_tokens("２０２４年2024") == ["２", "０", "２", "４", "年", "2024"]


ADVERSARIAL = [
    "",
    "   ",
    "  前后空格\u3000",
    "&quot;引号&quot; &amp; <skipped> a-\nb",  # zh does NOT run 13a's unescaping / <skipped> removal
    "B-19型号, 2002-2005年; 3.14和1,000.5元",
    "价格是100-200元.真的吗?是的!",
    "Ext-B字𠮷与𠀀混排𠮷𠮷abc",
    "カタカナとひらがな混在テスト",
    "한국어 문장입니다",
    "零宽\u200b空格\u2002全角\u3000空格",
    "阿尔伯特·爱因斯坦说：“想象力比知识更重要……”",
    "emoji😀😀表情👍🏻",
    "math ∑x² ≥ 0 → ∞ ①②③",
    "don't stop 'quoted' \"double\"",
    "{curly}[square](round)<angle>|pipe|~tilde^caret_underscore`",
    "网址 https://example.com/a_b?c=d&e=f#frag",
    "\t制表\t符\n换行\r\n回车",
]


def test_sacrebleu_zh_tokens_on_adversarial_strings():
    for text in ADVERSARIAL:
        assert sacrebleu_zh_tokenize(text) == sacre_tokens(text), repr(text)


def test_sacrebleu_zh_tokens_on_every_bmp_character_in_context():
    # each BMP character between ASCII letters, digits, dots, dashes and Chinese, in chunks of 64
    cps = [cp for cp in range(0x10000) if not 0xD800 <= cp <= 0xDFFF]
    for start in range(0, len(cps), 64):
        text = "".join(f"a{chr(cp)}1.{chr(cp)}-" for cp in cps[start:start + 64])
        assert sacrebleu_zh_tokenize(text) == sacre_tokens(text), hex(cps[start])


CONTEXT = list("09ab.,-  中（)&") + ["\u3000", "\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CONTEXT), max_size=25).map("".join))
def test_sacrebleu_zh_context_rules_on_generated_strings(text):
    # '.', ',' after/before digits, '-' after digits, runs of spaces: the fast path equals sacrebleu
    assert sacrebleu_zh_tokenize(text) == sacre_tokens(text) == _sacrebleu_zh_tokenize_reference(text)


MIXED = list("中文字，。！？、“”…—·ab AZ09.,-'&;/:()<>_~\u3000\u200b\u2002\t") + ["𠮷", "😀", "あ", "한", "\u9fcf"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(MIXED), max_size=30).map("".join))
def test_sacrebleu_zh_tokens_on_generated_strings(text):
    assert sacrebleu_zh_tokenize(text) == sacre_tokens(text)


def test_sacrebleu_zh_tokens_on_shared_data(crosswoz_groups, csl_rows, crosswoz_single):
    # every text of the group file and every CSL title; the first 300 abstracts and single-turn pairs (sacrebleu's
    # own tokenizer is slow; the corpus tests below cover the rest through the BLEU numbers)
    texts = []
    for g in crosswoz_groups + crosswoz_single[:300]:
        texts.append(g["query"])
        texts.extend(g["responses"])
    texts += [r["summary"] for r in csl_rows] + [r["document"] for r in csl_rows[:300]]
    assert len(texts) == 85 + 342 + 600 + 1000 + 300
    bad = [t for t in texts if sacrebleu_zh_tokenize(t) != sacre_tokens(t)]
    assert bad == []


# ------------------------------------------------------------------------------------------------------------------
# sacrebleu-zh BLEU on raw text
# ------------------------------------------------------------------------------------------------------------------


def csl_items(rows):
    preds = [r["document"][: max(1, len(r["summary"]) + (i % 9) - 4)] for i, r in enumerate(rows)]
    return preds, [[r["summary"]] for r in rows]


def streams(refs):
    width = max(len(r) for r in refs)
    return [[rs[k] if k < len(rs) else None for rs in refs] for k in range(width)]


@pytest.fixture(scope="module")
def raw_sets(crosswoz_groups, csl_rows):
    return {"crosswoz_groups": crosswoz_items(crosswoz_groups), "csl_ts_test": csl_items(csl_rows)}


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
@pytest.mark.parametrize("smooth_method", ["exp", "floor"])
def test_sacrebleu_zh_corpus_bleu_exact(raw_sets, name, smooth_method):
    preds, refs = raw_sets[name]
    p = PRESETS["sacrebleu-zh"]
    stats = corpus_stats([sacrebleu_zh_tokenize(x) for x in preds], [[sacrebleu_zh_tokenize(r) for r in rs] for rs in refs])
    ours = corpus_score(stats, smooth_method=smooth_method, bp_ref_length=p["bp_ref_length"])
    theirs = sacrebleu.corpus_bleu(preds, streams(refs), tokenize="zh", smooth_method=smooth_method)
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert 0.05 < ours.score < 1
    assert abs(ours.score - theirs.score / 100) == 0.0


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
def test_sacrebleu_zh_sentence_bleu_exact(raw_sets, name):
    preds, refs = raw_sets[name]
    preds, refs = preds[:400], refs[:400]
    stats = corpus_stats([sacrebleu_zh_tokenize(x) for x in preds], [[sacrebleu_zh_tokenize(r) for r in rs] for rs in refs])
    for pred, rs, ours in zip(preds, refs, sentence_scores(stats, smooth_method="exp", effective_order=True)):
        theirs = sacrebleu.sentence_bleu(pred, rs, tokenize="zh")
        expected = min(theirs.score / 100, 1.0)  # float rounding above 100 is clamped to 1.0
        assert ours.score == expected


# ------------------------------------------------------------------------------------------------------------------
# LLaMA-Factory
# ------------------------------------------------------------------------------------------------------------------


def nltk_llamafactory(preds, refs):
    """LLaMA-Factory ComputeSimilarity's BLEU part, written out with nltk (per item score on 0-100, rounded)."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    per_item = []
    for pred, label in zip(preds, refs):
        per_item.append(sentence_bleu([list(label)], list(pred), smoothing_function=SmoothingFunction().method3))
    return per_item, float(np.mean([round(s * 100, 4) for s in per_item]))


@pytest.mark.parametrize("name", ["crosswoz_single", "csl_ts_test"])
def test_llamafactory_equals_nltk_exactly(name, crosswoz_single, csl_rows):
    if name == "crosswoz_single":
        # predict the reply by echoing the user turn (a real, weak baseline with real overlaps)
        preds = [r["query"] for r in crosswoz_single[:1000]]
        refs = [r["responses"][0] for r in crosswoz_single[:1000]]
    else:
        preds, rs = csl_items(csl_rows)
        refs = [r[0] for r in rs]
    # raw strings: leading/trailing spaces are characters too
    preds = [p if i % 50 else f" {p} " for i, p in enumerate(preds)]
    theirs_items, theirs_number = nltk_llamafactory(preds, refs)
    ours_items = llamafactory_item_scores(preds, refs)
    assert ours_items == theirs_items
    assert llamafactory_bleu4(ours_items) == theirs_number
    assert 1 < theirs_number < 100


def test_llamafactory_with_several_references_uses_nltk_multi_reference_rules(crosswoz_groups):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    preds, refs = crosswoz_items(crosswoz_groups)
    ours = llamafactory_item_scores(preds, refs)
    theirs = [
        sentence_bleu([list(r) for r in rs], list(p), smoothing_function=SmoothingFunction().method3)
        for p, rs in zip(preds, refs)
    ]
    assert ours == theirs


def test_llamafactory_tokens_and_edge_cases():
    assert llamafactory_tokenize(" 你 好 ") == [" ", "你", " ", "好", " "]
    assert llamafactory_item_scores(["", "你好"], ["你好", ""]) == [0.0, 0.0]
    assert llamafactory_bleu4([]) == 0.0
    with pytest.raises(ValueError, match="2 predictions but 1 references"):
        llamafactory_item_scores(["a", "b"], ["a"])
    with pytest.raises(TypeError, match="item 0: reference 1"):
        llamafactory_item_scores(["a"], [["a", None]])
    with pytest.raises(TypeError, match="sacrebleu-zh tokenizer expects str"):
        sacrebleu_zh_tokenize(None)


def test_preset_tables_are_complete():
    keys = {"tokenizer", "max_order", "smooth_method", "smooth_value", "bp_ref_length", "level", "effective_order", "weights"}
    for name, p in PRESETS.items():
        assert set(p) == keys, name
