"""zheval.score: both metrics in one call equal the separate compute_rouge / compute_bleu calls exactly."""

import pytest

import zheval
from zheval.bleu_corpus import compute_bleu
from zheval.rouge_corpus import compute_rouge
from zheval.tokenizers import clear_cache

PREDS = ["不客气，祝您玩得愉快！", "地址在北京市东城区。\n电话是010-12345678", "", "好的"]
REFS = [["不客气！", "不用客气，祝您愉快！"], "地址是北京市东城区东直门。\n电话010-12345678", ["没有"], ["好的。", "好"]]


@pytest.mark.parametrize("options", [
    {},
    {"sentence_split": "newline"},
    {"sentence_split": "newline", "level": "sentence", "smooth_method": "floor", "max_order": 3, "multi_ref": "pool"},
    {"sentence_split": "newline", "preset": "llamafactory"},
    {"tokenizer": "jieba", "multi_ref": "mean", "max_order": 2},
    {"tokenizer": "none", "sentence_split": "newline", "bootstrap": 50, "seed": 3},
    {"punct": "drop", "level": "sentence", "return_precision_recall": True, "rouge_types": ["rouge1", "rougeL"]},
])
def test_score_equals_separate_calls(options):
    clear_cache()
    got = zheval.score(PREDS, REFS, **options)
    rouge_opts = {k: v for k, v in options.items() if k not in ("max_order", "level", "smooth_method")}
    bleu_opts = {k: v for k, v in options.items() if k not in ("sentence_split", "multi_ref", "return_precision_recall",
                                                                "rouge_types")}
    clear_cache()
    assert got["rouge"] == compute_rouge(PREDS, REFS, **rouge_opts)
    clear_cache()
    assert got["bleu"] == compute_bleu(PREDS, REFS, **bleu_opts)
    assert list(got) == ["bleu", "rouge"]


def test_score_shares_tokenisation_with_newline_split():
    from zheval.tokenizers import cache_info

    clear_cache()
    zheval.score(PREDS, REFS, metrics=["rouge", "bleu"], sentence_split="newline")
    info = cache_info()
    distinct = len(set(PREDS) | {r for rs in REFS for r in ([rs] if isinstance(rs, str) else rs)})
    assert info["misses"] == distinct  # each distinct text tokenised once, for both metrics


def test_score_errors():
    with pytest.raises(ValueError, match="unknown metric"):
        zheval.score(PREDS, REFS, metrics=["meteor"])
    with pytest.raises(TypeError, match="unknown option"):
        zheval.score(PREDS, REFS, colour="red")
