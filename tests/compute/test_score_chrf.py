"""chrF in zheval.score: the same result as compute_chrf, beside BLEU and ROUGE in one call, with the options routed
to the metrics that take them."""

import warnings

import pytest

import zheval
from helpers import crosswoz_items


def test_score_with_chrf_equals_the_separate_calls(crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups)
    out = zheval.score(preds, refs, metrics=["bleu", "rouge", "chrf"], tokenizer="jieba", word_order=2, max_order=2,
                       rouge_types=["rouge1"], bootstrap=50, seed=3)
    assert list(out) == ["bleu", "rouge", "chrf"]
    assert out["chrf"] == zheval.compute_chrf(preds, refs, tokenizer="jieba", word_order=2, bootstrap=50, seed=3)
    assert out["bleu"] == zheval.compute_bleu(preds, refs, tokenizer="jieba", max_order=2, bootstrap=50, seed=3)
    assert out["rouge"] == zheval.compute_rouge(preds, refs, tokenizer="jieba", rouge_types=["rouge1"], bootstrap=50,
                                                seed=3)


def test_shared_options_reach_chrf():
    p, r = ["今天天气很好", "我们去公园"], [["今天天气不错"], ["我们去公园玩", "去公园"]]
    out = zheval.score(p, r, metrics=["chrf"], level="sentence", beta=1, max_refs=1)
    assert out["chrf"] == zheval.compute_chrf(p, r, level="sentence", beta=1, max_refs=1)
    assert "maxrefs:1" in out["chrf"]["signature"] and "beta:1" in out["chrf"]["signature"]


def test_chrf_refuses_bleu_and_rouge_only_tool_options():
    with pytest.raises(TypeError, match="chrF has no preset"):
        zheval.score(["好"], ["好"], metrics=["bleu", "chrf"], preset="sacrebleu-zh")
    with pytest.raises(TypeError, match="unknown option"):
        zheval.score(["好"], ["好"], metrics=["chrf"], whitespace=True)
    with pytest.raises(ValueError, match="chrf"):
        zheval.score(["好"], ["好"], metrics=["chrF"])


def test_unsegmented_warning_only_when_tokens_are_scored():
    text = "我们今天下午在图书馆讨论这个问题"
    with warnings.catch_warnings():
        warnings.simplefilter("error", zheval.ZhevalWarning)
        zheval.score([text], [text], metrics=["chrf"], tokenizer="none")
    with pytest.warns(zheval.UnsegmentedTextWarning):
        zheval.score([text], [text], metrics=["chrf"], tokenizer="none", word_order=2)
