"""Sentence splitting (zheval.text.sentences): the ``punct`` and ``newline`` rules by hand, and a split never cuts
inside a token: the sentences' tokens concatenate to the text's tokens.

Found by a break-it review: with ``sentence_split="punct"`` (the default), ``"太棒了‼️谢谢"`` was cut between ``!`` and
the variation selector U+FE0F that the char tokenizer attaches to it, so ROUGE-1/2/L saw 8 tokens where BLEU and
rouge-score see 7. The whole kind: any cut inside a token (attached marks after a sentence-final mark; a protected
term, a jieba word or a pre-tokenised token spanning a mark).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

import pytest

from zheval.compute.rouge import compute_rouge
from zheval.text.sentences import split_sentences, split_token_sentences
from zheval.tokenizers import get_tokenizer

PIECES = ["好", "天", "气", "。", "！", "?", "!", ".", "…", ";", "”", "」", ")", '"', "\u0301", "\ufe0f", "\u20e3",
          "\U0001f3fb", "🏻", "👍", "a", "b", "3", "5", " ", "\n", "Yahoo!Japan", "ok."]
texts = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)

TOKENIZERS = {
    "char": lambda: get_tokenizer("char"),
    "char+terms": lambda: get_tokenizer("char", terms=["Yahoo!Japan", "好。好"]),
    "none": lambda: get_tokenizer("none"),
    "jieba": lambda: get_tokenizer("jieba"),
}


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
@settings(max_examples=150, deadline=None)
@given(text=texts)
def test_sentences_concatenate_to_the_text_tokens(name, text):
    tok = TOKENIZERS[name]()
    for split in ("punct", "newline"):
        sents = tok.tokenize_sentences(text, split)
        assert [t for s in sents for t in s] == tok.tokenize(text), (split, sents)


def test_variation_selector_after_double_exclamation_hand_computed():
    # char tokens: pred 太 棒 了 ! !️ 谢 谢 (7), ref the same + 你 (8); all 7 pred unigrams match:
    # P = 7/7, R = 7/8, F = 2PR/(P+R) = 14/15. Bigrams: 6 of 6 and 6 of 7: F = 12/13. LCS = 7: F = 14/15.
    pred, ref = "太棒了‼️谢谢", "太棒了‼️谢谢你"
    for split in ("punct", "newline"):
        out = compute_rouge([pred], [[ref]], tokenizer="char", sentence_split=split, use_aggregator=False)
        assert out["rouge1"] == [14 / 15] and out["rougeL"] == [14 / 15]
        assert out["rouge2"] == [2 * 1 * (6 / 7) / (1 + 6 / 7)]
    # and what rouge-score gives fed the same tokenizer
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=get_tokenizer("char"))
    rs = scorer.score(ref, pred)
    out = compute_rouge([pred], [[ref]], tokenizer="char", use_aggregator=False)
    assert [out[k][0] for k in ("rouge1", "rouge2", "rougeL")] == [rs[k].fmeasure for k in ("rouge1", "rouge2", "rougeL")]


@pytest.mark.parametrize("mark", ["\u0301", "\u20e3", "\ufe0f", "🏻"])
def test_text_rule_keeps_attached_marks_with_the_mark(mark):
    assert split_sentences(f"好。{mark}然后", "punct") == [f"好。{mark}", "然后"]
    assert split_sentences(f"好!{mark}」然后?{mark}", "punct") == [f"好!{mark}」", f"然后?{mark}"]


def test_term_spanning_a_mark_is_not_cut():
    tok = get_tokenizer("char", terms=["Yahoo!Japan"])
    sents = tok.tokenize_sentences("我用Yahoo!Japan搜索。好的", "punct")
    assert sents == (("我", "用", "yahoo!japan", "搜", "索", "。"), ("好", "的"))


def test_token_rule():
    assert split_token_sentences(["好", "。", "”", "然", "后", "?", "!", "行"]) == [["好", "。", "”"], ["然", "后", "?", "!"], ["行"]]
    assert split_token_sentences(["3.5", "元", ".", "ok"]) == [["3.5", "元", ".", "ok"]]  # "." before a letter
    assert split_token_sentences(["!\ufe0f", "好"]) == [["!\ufe0f"], ["好"]]
    assert split_token_sentences([]) == []


# the punct and newline rules, by hand ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("今天很好。明天下雨!后天呢?", ["今天很好。", "明天下雨!", "后天呢?"]),
        ('他说:"好。"然后走了', ['他说:"好。"', "然后走了"]),
        ("真的?!不会吧……嗯", ["真的?!", "不会吧……", "嗯"]),
        ("价格3.5元。", ["价格3.5元。"]),
        ("访问www.duck.cn吧", ["访问www.duck.cn吧"]),
        ("第一行\n第二行", ["第一行", "第二行"]),
        ("", []),
        ("没有标点", ["没有标点"]),
    ],
)
def test_split_sentences_punct(text, expected):
    assert split_sentences(text) == expected


def test_split_sentences_newline_is_rouge_score():
    assert split_sentences("a。b\n\nc", "newline") == "a。b\n\nc".split("\n")
    with pytest.raises(ValueError, match="punct"):
        split_sentences("x", "semicolon")
