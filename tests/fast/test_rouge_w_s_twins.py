"""ROUGE-W, ROUGE-S and ROUGE-SU through compute_rouge on the corpus twins (zheval.fast.wlcs, zheval.fast.skip_bigrams)
give Lin (2004)'s worked examples, computed by hand below, and the same numbers when usable_for sends the texts to the
per-item reference instead (bounds lowered)."""

from __future__ import annotations

import pytest

import zheval
from zheval import fast
from zheval.fast import skip_bigrams
from zheval.fast import wlcs as fast_wlcs

# Lin 2004, section 4: ref "police killed the gunman", hyp "police kill the gunman": skip-bigrams (unlimited) of
# each: C(4, 2) = 6; shared: (police, the), (police, gunman), (the, gunman) = 3 -> P = R = F = 3/6.
S_REF, S_HYP = "police killed the gunman", "police kill the gunman"
# Lin 2004, section 3.3, weight 2: ref ABCDEFG, hyp ABCDHIK: one run of 4 -> WLCS 16, f(7) = 49,
# R = P = (16 / 49) ** 0.5 = 4 / 7.
W_REF, W_HYP = "A B C D E F G", "A B C D H I K"


def _run(types, preds, refs, **kw):
    return zheval.compute_rouge(preds, refs, rouge_types=types, tokenizer="none", **kw)


@pytest.mark.parametrize("bounded", [False, True])
def test_lin_examples(bounded, monkeypatch):
    if bounded:  # every text beyond the twins' bounds: the per-item reference scores them
        monkeypatch.setattr(skip_bigrams, "MAX_TEXT_SKIP_BIGRAMS", 1)
        monkeypatch.setattr(fast_wlcs, "MIN_GROUP", 10 ** 9)
    assert fast.usable_for("skip_bigrams", longest=4, skip=None, vocab_size=10, n_texts=2) is not bounded
    out = _run(["rougeS*", "rougeSU*", "rougeS0"], [S_HYP], [[S_REF]])
    assert out["rougeS*"] == pytest.approx(3 / 6, abs=1e-15)
    # SU*: + unigrams (police, the, gunman shared of 4 each): (3 + 3) / (6 + 4)
    assert out["rougeSU*"] == pytest.approx(6 / 10, abs=1e-15)
    # S0 = bigrams: (the, gunman) shared of 3 each
    assert out["rougeS0"] == pytest.approx(1 / 3, abs=1e-15)
    w = _run(["rougeW"], [W_HYP], [[W_REF]], rouge_w_weight=2.0)
    assert w["rougeW"] == pytest.approx(4 / 7, abs=1e-15)


def test_skip_distance_four_by_hand():
    # hyp "a b c d e f", ref "a c e": S4 pairs of the ref (gap <= 5): (a,c), (a,e), (c,e) = 3; of the hyp (6 tokens,
    # gaps 1..5): 5+4+3+2+1 = 15; shared: all 3 -> P = 3/15, R = 3/3
    out = zheval.compute_rouge(["a b c d e f"], [["a c e"]], rouge_types=["rougeS4", "rougeS1"], tokenizer="none",
                               return_precision_recall=True)
    assert (out["rougeS4_precision"], out["rougeS4_recall"]) == (3 / 15, 1.0)
    # S1 (gaps 1, 2): ref pairs (a,c), (c,e), (a,e): 3; hyp pairs 5 + 4 = 9; shared: (a,c), (c,e) = 2
    assert (out["rougeS1_precision"], out["rougeS1_recall"]) == (2 / 9, 2 / 3)


def test_fast_and_reference_agree_on_many_items(monkeypatch):
    preds = ["今天天气很好我们去公园", "好的", "北京的酒店很贵", "", "一二三四五六七八九十" * 3]
    refs = [["今天天气不错去公园吧", "天气很好"], ["好的呀"], ["北京酒店贵"], ["空"], ["一三五七九" * 4, "十"]]
    types = ["rougeW", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]
    fast_out = zheval.compute_rouge(preds, refs, rouge_types=types, use_aggregator=False, multi_ref="mean",
                                    return_precision_recall=True)
    monkeypatch.setattr(skip_bigrams, "MAX_TEXT_SKIP_BIGRAMS", 1)
    monkeypatch.setattr(fast_wlcs, "MIN_GROUP", 10 ** 9)
    ref_out = zheval.compute_rouge(preds, refs, rouge_types=types, use_aggregator=False, multi_ref="mean",
                                   return_precision_recall=True)
    assert fast_out == ref_out
